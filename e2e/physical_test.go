package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"phitsim/site/experiment"
)

// physicalUnits drives the form and the charts of the QCN-Switch paper's
// Ethernet Dragonfly (its Table I: 40 Gb/s links, 100-byte phits, so
// 20-ns cycles) in physical units. A tiny run of the ethernet-un-h4
// preset (h=4, MIN only, one seed, one load, 100 + 200 cycles: it runs on
// opening) plots latency in µs and loads in Gb/s per node, the cycles
// still in the tooltip's data; then, on the preset itself, the form shows
// the global link as "400 ns = 20 cycles", a 30-ns local link as rounded
// up to 2 cycles (40 ns), takes a cable length (80 m) and a buffer in KB
// (50 KB = 500 phits), and refuses a time below one cycle, naming it.
func physicalUnits(t *testing.T, ctx context.Context, base string) {
	e := mustPreset(t, "ethernet-un-h4")
	e.Series = e.Series[:1]
	e.Series[0].Sim.Warmup, e.Series[0].Sim.Cycles, e.Series[0].Sim.Interval = 100, 200, 50
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.2, To: 0.2}
	start := time.Now()
	open(t, ctx, base+"#"+experiment.Encode(experiment.Link{Exp: e}))
	waitFor(t, ctx, done, 30*time.Second)
	t.Logf("the tiny Ethernet run took %.1fs", time.Since(start).Seconds())
	option := func(chart, js string) string {
		return eval[string](t, ctx, `(() => { const o = echarts.getInstanceByDom(document.getElementById('chart-`+chart+`')).getOption(); return `+js+` })()`)
	}
	waitFor(t, ctx, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-latency'));
		return !!c && (c.getOption().series[0].data || []).length === 1 })()`, 10*time.Second)
	if y, x := option("latency", "o.yAxis[0].name"), option("latency", "o.xAxis[0].name"); y != "average latency (µs)" || x != "offered load (Gb/s per node)" {
		t.Errorf("latency chart axes %q, %q; want µs and Gb/s per node", y, x)
	}
	// the point: offered 0.2 phits/(node·cycle) is 8 Gb/s per node; its latency
	// in µs is its cycles × 0.02, both in the data the tooltip shows
	pt := eval[[]float64](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-latency')).getOption().series[0].data[0].value`)
	dims := option("latency", "o.series[0].dimensions.join(' | ')")
	if len(pt) < 7 || pt[0] != 8 || pt[len(pt)-1] != 0.2 || d(pt[1]-pt[len(pt)-2]*0.02) > 1e-5*pt[1] ||
		!strings.Contains(dims, "average latency (cycles)") || !strings.Contains(dims, "offered load (phits/node/cycle)") {
		t.Errorf("latency point %v, dimensions %q: want [8 Gb/s, µs, …, cycles, 0.2]", pt, dims)
	}
	// samples every 50 cycles = 1 µs, the cycle in the tooltip's data
	if x := option("timeseries", "o.xAxis[0].name"); x != "time (µs)" {
		t.Errorf("time series x axis %q, want time (µs)", x)
	}
	ts := eval[[][]float64](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-timeseries')).getOption().series[0].data.map(d => d.value)`)
	if len(ts) < 4 || ts[1][0]-ts[0][0] != 1 || ts[1][len(ts[1])-1] != ts[1][0]*50 {
		t.Errorf("time series points %v: want one per µs, the cycle last", ts)
	}
	// hovering the point: its tooltip gives the latency in cycles too
	eval[bool](t, ctx, `(() => { echarts.getInstanceByDom(document.getElementById('chart-latency')).dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: 0}); return true })()`)
	waitFor(t, ctx, `document.getElementById('chart-latency').textContent.includes('average latency (cycles)')`, 5*time.Second)
	if tip := eval[string](t, ctx, `document.getElementById('chart-latency').textContent`); !strings.Contains(tip, "offered load (phits/node/cycle)") {
		t.Errorf("latency tooltip %q: no offered load in phits/node/cycle", tip)
	} else {
		t.Logf("latency tooltip: %s", tip)
	}
	if o := eval[string](t, ctx, `document.getElementById('point').options[0].textContent`); o != "0.2 (8 Gb/s)" {
		t.Errorf("point menu %q, want 0.2 (8 Gb/s)", o)
	}
	screenshot(t, ctx, "e2e-physical-charts.png")

	loadPreset(t, ctx, "ethernet-un-h4")
	field := func(id string) (value, unit string) {
		return eval[string](t, ctx, `document.getElementById('`+id+`').value`),
			eval[string](t, ctx, `(document.getElementById('`+id+`-unit') || {}).textContent || ''`)
	}
	waitFor(t, ctx, `document.getElementById('f-topology-globalLatency').value === '400 ns'`, 5*time.Second)
	if v, u := field("f-topology-globalLatency"); v != "400 ns" || u != "= 20 cycles" {
		t.Errorf("global link latency shows %q %q, want 400 ns = 20 cycles", v, u)
	}
	// the router's section may be folded
	eval[bool](t, ctx, `(() => { const b = document.querySelector('#group-router .group-toggle');
		if (b.getAttribute('aria-expanded') !== 'true') b.click(); return true })()`)
	waitFor(t, ctx, `document.getElementById('f-router-localBuffer') !== null`, 5*time.Second)
	for _, c := range []struct{ id, typed, unit string }{
		{"f-topology-localLatency", "30 ns", "= 2 cycles (40 ns, rounded up)"},
		{"f-topology-globalLatency", "80 m", "= 400 ns = 20 cycles"},
		{"f-router-localBuffer", "50 KB", "= 500 phits"},
	} {
		typeKeys(t, ctx, c.id, c.typed, nil)
		waitFor(t, ctx, `(document.getElementById('`+c.id+`-unit') || {}).textContent === '`+c.unit+`'`, 5*time.Second)
		if v, _ := field(c.id); v != c.typed {
			t.Errorf("%s: typed %q, the input shows %q", c.id, c.typed, v)
		}
	}
	typeKeys(t, ctx, "f-topology-localLatency", "10 ns", nil)
	// typed key by key: "10 n" was an unknown unit until the last key
	waitFor(t, ctx, `(document.getElementById('f-topology-localLatency-error') || {}).textContent?.includes('10 ns')`, 5*time.Second)
	if msg := eval[string](t, ctx, `document.getElementById('f-topology-localLatency-error').textContent`); !strings.Contains(msg, "topology.localLatency") ||
		!strings.Contains(msg, "below one cycle (20 ns at 40 Gb/s with 100-byte phits)") {
		t.Errorf("10 ns: error %q", msg)
	}
	screenshot(t, ctx, "e2e-physical-form.png")
}

func d(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
