package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// meshClasses: a mesh run in the page shows its hops and link utilisation
// by class name (x and y, never "global"), the numbers of its exported
// results; a Dragonfly run shows no such table. (A subtest of TestBrowser:
// one site build, one browser.)
func meshClasses(t *testing.T, ctx context.Context, base string) {
	c := config.Default()
	c.Name = "mesh"
	c.Topology.Kind, c.Topology.Width, c.Topology.Height, c.Topology.P = "mesh", 4, 3, 1
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 300, 900, 1
	l := experiment.Link{Exp: experiment.Experiment{Series: []config.Config{c},
		Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.2, To: 0.2}}}
	open(t, ctx, base+"#"+experiment.Encode(l))
	waitFor(t, ctx, done, 60*time.Second)
	waitFor(t, ctx, `document.querySelectorAll('#class-results tbody tr').length === 3`, 10*time.Second)
	rows := eval[[][]string](t, ctx, `[...document.querySelectorAll('#class-results tbody tr')].map(r => [...r.children].map(c => c.textContent))`)
	ex := pageResults(t, ctx)
	if len(ex.Runs) != 1 || len(ex.Runs[0].Classes) != 3 {
		t.Fatalf("exported runs %+v", ex.Runs)
	}
	for i, want := range []string{"ejection", "x", "y"} {
		cl := ex.Runs[0].Classes[i]
		hops := strconv.FormatFloat(cl.Hops, 'f', 3, 64)
		if i == 0 {
			hops = "—" // injection and ejection are no hops
		}
		if len(rows[i]) < 4 || rows[i][0] != "mesh" || rows[i][1] != want || rows[i][2] != hops ||
			rows[i][3] != strconv.FormatFloat(cl.Utilisation, 'f', 4, 64) {
			t.Errorf("row %d %q, want class %s, hops %.3f, utilisation %.4f", i, rows[i], want, cl.Hops, cl.Utilisation)
		}
	}
	// the results (the table, the charts' titles, axes and series; not the
	// parameter lists, which name router.globalVCs) say nothing of global links
	text := eval[string](t, ctx, `document.getElementById('class-results').textContent + ' ' +
		[...document.querySelectorAll('.chart')].map(el => { const c = echarts.getInstanceByDom(el); if (!c) return '';
			const o = c.getOption(); return JSON.stringify([o.title, o.xAxis, o.yAxis, (o.series || []).map(s => s.name)]) }).join(' ')`)
	if i := strings.Index(strings.ToLower(text), "global"); i >= 0 || !strings.Contains(text, "Latency") {
		t.Errorf("a mesh result mentions global links (or no chart was read): …%s…", text[max(0, i-80):min(len(text), max(i, 0)+80)])
	}

	d := tinyLink()
	d.Exp.Series = d.Exp.Series[:1]
	d.Exp.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.2, To: 0.2}
	open(t, ctx, base+"#"+experiment.Encode(d))
	waitFor(t, ctx, done, 60*time.Second)
	if n := eval[int](t, ctx, `document.querySelectorAll('#class-results').length`); n != 0 {
		t.Errorf("a Dragonfly run shows the class table")
	}
}
