package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"phitsim/site/experiment"
)

// qcnTransient opens the page's qcn-transient-h4 preset shortened (h=4,
// 1,000 + 3,000 cycles, the switch to ADV+1 1,000 cycles into the
// measurement: one run of a few seconds) and sees the QCN-Switch charts:
// the per-port probability chart (QCN-Switch paper Fig. 12b) with the
// middle router's 11 transit ports, the port toward S_out alone in the
// legend, snapshots every 20 µs; the router selector moves it to S_out
// (router 7), whose port toward S_out is its global link to group 1; and
// the CNM chart.
func qcnTransient(t *testing.T, ctx context.Context, base string) {
	e := mustPreset(t, "qcn-transient-h4")
	c := &e.Series[0]
	c.Sim.Warmup, c.Sim.Cycles, c.Traffic.SwitchCycle = 1000, 3000, 1000
	start := time.Now()
	open(t, ctx, base+"#"+experiment.Encode(experiment.Link{Exp: e}))
	waitFor(t, ctx, done, 90*time.Second) // small: it runs on opening
	t.Logf("the shortened QCN transient ran in %.1fs", time.Since(start).Seconds())
	opt := func(expr string) string {
		return eval[string](t, ctx, `(() => { const o = echarts.getInstanceByDom(document.getElementById('chart-qcnprobability')).getOption(); return String(`+expr+`) })()`)
	}
	waitFor(t, ctx, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-qcnprobability'));
		return !!(c && c.getOption().series.length === 11) })()`, 10*time.Second)
	if l := opt(`o.legend[0].data.join(' | ')`); l != "QCN-Switch UN→ADV+1 · toward S_out (port 10 → router 7)" {
		t.Errorf("legend %q", l)
	}
	if s := opt(`o.title[0].subtext`); !strings.Contains(s, "router 4 of group 0") {
		t.Errorf("subtitle %q", s)
	}
	// 3 snapshots: at −1,000, 0 and 1,000 cycles (the run ends before the
	// one at 2,000), drawn in µs: the preset's physical basis makes a cycle
	// 20 ns
	if n := opt(`o.series[0].data.map(d => d.value[0]).join(" ")`); n != "-20 0 20" {
		t.Errorf("snapshots at %s µs, want -20 0 20", n)
	}
	if x := opt(`o.xAxis[0].name`); !strings.Contains(x, "µs") {
		t.Errorf("time axis %q, want it in µs", x)
	}
	setField(t, ctx, "qcn-router", "7")
	waitFor(t, ctx, `(() => { const o = echarts.getInstanceByDom(document.getElementById('chart-qcnprobability')).getOption();
		return o.legend[0].data.join('').includes('port 14 → group 1') })()`, 10*time.Second)
	waitFor(t, ctx, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-qcncnm'));
		return !!(c && c.getOption().series.length === 2) })()`, 10*time.Second)
	screenshot(t, ctx, "e2e-qcn.png")

	// source processing set with output sampling cannot apply: its field is
	// hidden, and the form says the value is ignored, naming both fields
	c.Routing.QcnSampling, c.Routing.QcnSourceProcessing = "output", true
	open(t, ctx, base+"#"+experiment.Encode(experiment.Link{Exp: e}))
	waitFor(t, ctx, `!!document.getElementById('unapplied') && !document.getElementById('f-routing-qcnSourceProcessing')`, 10*time.Second)
	if s := eval[string](t, ctx, `document.getElementById('unapplied').textContent`); !strings.Contains(s, "routing.qcnSourceProcessing = true") || !strings.Contains(s, "routing.qcnSampling") {
		t.Errorf("the ignored value's note: %q", s)
	}
}
