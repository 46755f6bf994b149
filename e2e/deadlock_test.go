package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"phitsim/site/experiment"
)

// deadlockSweep runs thesis Fig. 5.6 on h=2 in the page (the damq-reserve-h2
// preset at 0% and 75% reserve, one seed: two runs of about a second): the
// reserve-0 run deadlocks, and the page shows it as what it is, as 'phitsim
// sweep' reports it (which exits 3 and writes every run): both runs kept
// and equal to the CLI's, the point pinned in the charts with the cycle
// and explained in the legend, the table of deadlocked runs with the
// engine's report, the status line, the CSV's deadlocked_runs column (the
// CLI's CSV) and the report in the JSON export.
func deadlockSweep(t *testing.T, ctx context.Context, base, bin string) {
	e := mustPreset(t, "damq-reserve-h2")
	e.Series[0].Sim.Seeds = 1
	e.Sweep.List = []float64{0, 75}
	start := time.Now()
	open(t, ctx, base+"#"+experiment.Encode(experiment.Link{Exp: e}))
	waitFor(t, ctx, done, 60*time.Second) // small: it runs on opening
	t.Logf("the deadlocking sweep ran in %.1fs", time.Since(start).Seconds())
	if n := eval[string](t, ctx, `document.getElementById('app').dataset.deadlocks`); n != "1" {
		t.Fatalf("data-deadlocks %q, want 1", n)
	}
	if n := eval[string](t, ctx, `document.getElementById('app').dataset.errors`); n != "0" {
		t.Errorf("the deadlock counted as %s failed runs", n)
	}
	ex := pageResults(t, ctx)
	if len(ex.Runs) != 2 {
		t.Fatalf("%d runs kept, want 2", len(ex.Runs))
	}
	d := ex.Runs[ex.Jobs[0].Result].Deadlock
	if d == nil || len(d.Buffers) == 0 || ex.Points[0].Agg.Deadlocked != 1 {
		t.Fatalf("export: the reserve-0 run's deadlock %+v, point %+v", d, ex.Points[0].Agg)
	}
	// runs bit for bit, points, CSV (deadlocked_runs included) and curves: the CLI's
	checkCLI(t, ctx, bin, ex)
	if csv := eval[string](t, ctx, `phitsimDebug.csv()`); !strings.Contains(strings.SplitN(csv, "\n", 2)[0], "deadlocked_runs") {
		t.Errorf("the page's CSV has no deadlocked_runs column:\n%s", csv)
	}
	want := "deadlock at cycle " + strconv.FormatInt(d.Cycle, 10)
	for _, chart := range []string{"accepted", "latency"} {
		waitFor(t, ctx, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-`+chart+`'));
			const mp = c && c.getOption().series[0].markPoint;
			return !!(mp && mp.data && mp.data.length === 1) })()`, 5*time.Second)
		pin := eval[string](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-`+chart+`')).getOption().series[0].markPoint.data[0].label.formatter`)
		legend := eval[string](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-`+chart+`')).getOption().series.map(s => s.name).join(' | ')`)
		if pin != want || !strings.Contains(legend, want+" at router.damqReserve = 0") {
			t.Errorf("%s chart: pin %q, legend %q; want %q", chart, pin, legend, want)
		}
	}
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll('#deadlocks tbody tr')].map(r => r.textContent)`)
	if len(rows) != 1 || !strings.Contains(rows[0], strconv.FormatInt(d.Cycle, 10)) || !strings.Contains(rows[0], "no packet moved since cycle") ||
		!strings.Contains(rows[0], "stuck buffers listed") {
		t.Errorf("deadlocked runs table %q", rows)
	}
	// its "?" opens the help on deadlocked points
	eval[bool](t, ctx, `(() => { document.querySelector('#deadlocks [data-topic="metric-deadlock"]').click(); return true })()`)
	waitFor(t, ctx, `(document.getElementById('help') || {}).textContent?.includes('Deadlocked point')`, 5*time.Second)
	eval[bool](t, ctx, `(() => { document.querySelector('#help button[aria-label^="close"]').click(); return true })()`)
	waitFor(t, ctx, `document.getElementById('help') === null`, 5*time.Second)
	if s := eval[string](t, ctx, `document.getElementById('status').textContent`); !strings.Contains(s, "1 run deadlocked") {
		t.Errorf("status %q", s)
	}
	screenshot(t, ctx, "e2e-deadlock.png")
}
