package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"phitsim/engine/config"
	"phitsim/site/docs"
	"phitsim/site/experiment"
)

// qualityPanel: a sweep under sim.precision in the page (engine/METHODS.md,
// "Precision-driven length"; the engine's TestPrecisionPerPoint): h=2 MIN
// under UN with FOGSim's model, 1,000 + 1,000 cycles in 50-cycle
// intervals, ±3% with windows not extended, 2 seeds, loads 0.1 and 0.2. No
// run meets ±3% alone, so the page adds seeds as 'phitsim sweep' does: 6
// runs at 0.1 and 3 at 0.2, each run equal to the CLI's and the points
// bit-identical (checkCLI). The quality panel then lists both points as
// steady with their evidence, the warm-up check, the 95% intervals, the
// percentiles and link use; its table is reachable by keyboard and its "?"
// opens its help topic.
func qualityPanel(t *testing.T, ctx context.Context, base, cli string) {
	c := config.Default()
	c.UseFOGSimModel()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Name, c.Routing.Name, c.Traffic.Pattern = "MIN", "MIN", "UN"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 1000, 1000, 50, 2
	c.Sim.Precision, c.Sim.MaxCycles = 0.03, 1000
	l := experiment.Link{Exp: experiment.Experiment{Series: []config.Config{c},
		Sweep: experiment.Sweep{Param: experiment.LoadParam, List: []float64{0.1, 0.2}}}}
	open(t, ctx, base+"#"+experiment.Encode(l))
	// before any point finishes the panel is there, with a line
	waitFor(t, ctx, `document.getElementById('quality') !== null`, 10*time.Second)
	waitFor(t, ctx, done, 60*time.Second) // small: it runs on opening
	if n := eval[string](t, ctx, `document.getElementById('app').dataset.total`); n != "9" {
		t.Errorf("%s runs in all, want 9 (6 at 0.1, 3 at 0.2: the seeds sim.precision adds)", n)
	}
	ex := pageResults(t, ctx)
	checkCLI(t, ctx, cli, ex)

	time.Sleep(500 * time.Millisecond) // the final render
	type row struct {
		Cells   []string `json:"cells"`
		Verdict string   `json:"verdict"`
	}
	rows := eval[[]row](t, ctx, `[...document.querySelectorAll('#quality tbody tr')].map(r => ({verdict: r.dataset.verdict,
		cells: [...r.children].map(c => c.textContent)}))`)
	head := eval[[]string](t, ctx, `[...document.querySelectorAll('#quality thead th')].map(c => c.textContent)`)
	t.Logf("quality panel: %q", head)
	if len(rows) != 2 {
		t.Fatalf("%d rows in the quality panel, want 2", len(rows))
	}
	col := func(name string) int {
		for i, h := range head {
			if strings.HasPrefix(h, name) {
				return i
			}
		}
		t.Fatalf("no column %q in %q", name, head)
		return -1
	}
	for i, want := range []struct{ x, runs string }{{"0.1", "6"}, {"0.2", "3"}} {
		r := rows[i]
		t.Logf("%q", r.Cells)
		if r.Verdict != "steady" || r.Cells[col("verdict")] != "steady" || r.Cells[1] != want.x || r.Cells[col("runs")] != want.runs {
			t.Errorf("row %d: %q, want load %s steady over %s runs", i, r.Cells, want.x, want.runs)
		}
		if ev := r.Cells[col("evidence")]; !strings.Contains(ev, "queue growth") || !strings.Contains(ev, "latency slope") {
			t.Errorf("row %d: evidence %q", i, ev)
		}
		if w := r.Cells[col("warm-up")]; !strings.Contains(w, "MSER-5") || !strings.Contains(w, "warm-up 1000") {
			t.Errorf("row %d: warm-up %q", i, w)
		}
		for _, name := range []string{"latency ± 95%", "accepted ± 95%"} {
			if v := r.Cells[col(name)]; !strings.Contains(v, " ± ") {
				t.Errorf("row %d: %s %q", i, name, v)
			}
		}
		for _, name := range []string{"p50", "p90", "p99", "p99.9", "Jain", "links mean", "busiest link"} {
			if v := r.Cells[col(name)]; v == "" || v == "—" {
				t.Errorf("row %d: %s empty", i, name)
			}
		}
	}
	for _, unit := range []string{"(cycles)", "(phits/(node·cycle))", "(phits/cycle)"} {
		if !strings.Contains(strings.Join(head, " "), unit) {
			t.Errorf("no unit %s in the panel's heads", unit)
		}
	}
	// the keyboard reaches the table (it scrolls sideways) and the help
	if f := eval[string](t, ctx, `(() => { const w = document.querySelector('#quality .table-wrap'); w.focus(); return document.activeElement === w ? w.getAttribute('aria-label') : '' })()`); !strings.Contains(f, "measurement quality") {
		t.Errorf("the quality table cannot take the focus (%q)", f)
	}
	eval[bool](t, ctx, `(() => { document.querySelector('#quality .help-link').focus(); document.activeElement.click(); return true })()`)
	waitFor(t, ctx, `(document.getElementById('help') || {dataset: {}}).dataset.topic === 'quality-panel'`, 5*time.Second)
	topic, _ := docs.Lookup("quality-panel")
	if got := eval[string](t, ctx, `document.getElementById('help-text').textContent`); got != topic.Text {
		t.Errorf("help text %q, want %q", got, topic.Text)
	}
	eval[bool](t, ctx, `(() => { document.getElementById('help-close').click(); return true })()`)
	screenshot(t, ctx, "e2e-quality.png")
}
