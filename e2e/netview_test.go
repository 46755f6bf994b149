package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"phitsim/site/experiment"
)

// netView: the live view of the network on the course example, ADV+1 under
// MIN on an h=2 Dragonfly (thesis §1.4.1.2; 72 nodes, 9 groups, load 0.4,
// 200,000 cycles: long enough to watch, it runs on opening). Snapshots
// arrive while it runs and the drawing changes; at the end the hot links
// are the 9 global links from group g to g+1, the heat map is drawn, and
// the slider replays the run from the keyboard.
func netView(t *testing.T, ctx context.Context, base string) {
	e := experiment.Default()
	c := e.Series[0]
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.AdvOffset = "MIN", "ADV", 1
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 1000, 199000, 1
	e.Series = e.Series[:1]
	e.Series[0] = c
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.4, To: 0.4}
	open(t, ctx, base+"#"+experiment.Encode(experiment.Link{Exp: e}))
	frames := func() int {
		return eval[int](t, ctx, `+((document.getElementById('netview') || {dataset: {}}).dataset.frames || 0)`)
	}
	graph := `echarts.getInstanceByDom(document.getElementById('chart-net'))`
	subtext := func() string {
		return eval[string](t, ctx, `(c => c ? c.getOption().title[0].subtext : '')(`+graph+`)`)
	}
	waitFor(t, ctx, `document.getElementById('app').dataset.state === 'running' && +(document.getElementById('netview') || {dataset: {}}).dataset.frames >= 3`, 30*time.Second)
	waitFor(t, ctx, `!!`+graph, 5*time.Second)
	first, n0 := subtext(), frames()
	waitFor(t, ctx, `+document.getElementById('netview').dataset.frames >= `+strconv.Itoa(n0+3), 30*time.Second)
	waitFor(t, ctx, `(c => c.getOption().title[0].subtext !== `+strconv.Quote(first)+`)(`+graph+`)`, 5*time.Second)
	if running := eval[bool](t, ctx, `document.getElementById('app').dataset.state === 'running'`); !running {
		t.Log("the run ended before the second look; the drawing changed anyway")
	}
	t.Logf("during the run: %q, then %q", first, subtext())
	waitFor(t, ctx, done, 120*time.Second)
	waitFor(t, ctx, `(c => !!c && c.getOption().series[0].type === 'heatmap')(echarts.getInstanceByDom(document.getElementById('chart-netheat')))`, 10*time.Second)
	if cells := eval[int](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-netheat')).getOption().series[0].data.length`); cells != 36*7 {
		t.Errorf("heat map of %d cells, want 36 routers × 7 ports", cells)
	}
	// its router axis labelled by group, a label per group (9 of 36 rows),
	// and the run's busiest transit link outlined, its tooltip in words: a
	// global link from group g to g+1
	heat := `echarts.getInstanceByDom(document.getElementById('chart-netheat')).getOption()`
	if every, row4 := eval[int](t, ctx, heat+`.yAxis[0].axisLabel.interval`), eval[string](t, ctx, heat+`.yAxis[0].data[4]`); every != 3 || row4 != "g1 r0" {
		t.Errorf("heat map's router axis: label interval %d, row 4 %q; want 3, \"g1 r0\"", every, row4)
	}
	marked := eval[[]string](t, ctx, heat+`.series[0].data.filter(d => d.itemStyle && d.itemStyle.borderWidth > 0).map(d => d.tooltip.formatter)`)
	if len(marked) != 1 {
		t.Errorf("%d heat map cells outlined as the busiest link, want 1: %q", len(marked), marked)
	} else {
		var r, g, gr, peer int
		_, err := fmt.Sscanf(marked[0], "router %d (group %d, its router %d)", &r, &g, &gr)
		i := strings.Index(marked[0], ": global link to router ")
		if err == nil && i >= 0 {
			_, err = fmt.Sscanf(marked[0][i:], ": global link to router %d", &peer)
		}
		if err != nil || i < 0 || peer/4 != (g+1)%9 || !strings.Contains(marked[0], "% of the cycles") || !strings.Contains(marked[0], "busiest transit link") {
			t.Errorf("busiest link's tooltip %q: want a global link from group g to g+1, its utilisation in %%, the busiest marker (%v)", marked[0], err)
		}
		t.Logf("busiest link: %q", marked[0])
	}
	// the hot edges: exactly one per group, to the next group (routers
	// r = position + 4·group)
	hot := eval[[][]int](t, ctx, graph+`.getOption().series[0].links.filter(l => l.value > 0.8).map(l => [l.source, l.target])`)
	if len(hot) != 9 {
		t.Errorf("%d hot links %v, want the 9 global links g→g+1", len(hot), hot)
	}
	for _, l := range hot {
		a, b := l[0]/4, l[1]/4
		if (a+1)%9 != b && (b+1)%9 != a {
			t.Errorf("hot link between routers %d and %d (groups %d, %d): not between consecutive groups", l[0], l[1], a, b)
		}
	}
	screenshot(t, ctx, "e2e-netview.png")
	// replay from the keyboard: Home, then one step right
	n := frames()
	if err := chromedp.Do(ctx, chromedp.Focus("#net-frame"), chromedp.KeyEvent(kb.Home)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.getElementById('netview').dataset.frame === '0'`, 5*time.Second)
	waitFor(t, ctx, `(c => c.getOption().title[0].subtext.startsWith('cycles 0–'))(`+graph+`)`, 5*time.Second)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.getElementById('netview').dataset.frame === '1'`, 5*time.Second)
	if l := eval[string](t, ctx, `document.querySelector('label[for=net-frame]').textContent`); l == "" {
		t.Error("the slider has no label")
	}
	t.Logf("%d frames; replayed to frame 1: %q", n, subtext())
}

// recnView: the RECN paper's views on its 64-host fat tree (Duato et al.,
// §4.2, Figs. 2 and 4): the RECN series of the recn-fig2a preset (corner
// case 1, its hotspot at 200–370 µs of 500; it runs on opening) in the
// tab, timed; the SAQ
// utilisation chart (Fig. 4) plots its three lines in µs with the
// hotspot shaded; the live view draws the fat tree by stages and, with
// the slider in the hotspot (≈ 300 µs), colours the switches holding SAQs
// ("SAQs allocated" legend); at 0 µs, before the hotspot, none. The link
// heat map says RECN's links are not sampled.
func recnView(t *testing.T, ctx context.Context, base string) {
	e := mustPreset(t, "recn-fig2a")
	if n := len(e.Series); n != 5 || e.Series[n-1].Congestion.Scheme != "recn" {
		t.Fatalf("recn-fig2a: %d series, the last %q; want IQ, 4Q, VOQsw, VOQnet, RECN", n, e.Series[n-1].Name)
	}
	// the preset as it opens: before any run the watched-run selector
	// names the RECN series (experiment.WatchSeries), not IQ
	open(t, ctx, base+"#"+experiment.Encode(experiment.Link{Exp: e}))
	waitFor(t, ctx, `(s => !!s && s.value === '4/0' && s.selectedOptions[0].textContent.startsWith('RECN'))(document.getElementById('net-watch'))`, 10*time.Second)
	e.Series = e.Series[4:] // RECN's curve alone
	// the paper's 170-µs hotspot moved to 200–370 µs of a 500-µs run (a
	// quarter of the preset's 2,000 µs: the tree forms and drains the same)
	c := &e.Series[0]
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = 25000, 46250, 62500
	start := time.Now()
	open(t, ctx, base+"#"+experiment.Encode(experiment.Link{Exp: e}))
	waitFor(t, ctx, done, 240*time.Second)
	t.Logf("recn-fig2a's RECN run (500 µs, 64 hosts) took %.1fs in the tab", time.Since(start).Seconds())
	saq := `echarts.getInstanceByDom(document.getElementById('chart-recnsaq'))`
	waitFor(t, ctx, `(c => !!c && c.getOption().series.length === 3)(`+saq+`)`, 10*time.Second)
	if x := eval[string](t, ctx, saq+`.getOption().xAxis[0].name`); x != "time (µs)" {
		t.Errorf("SAQ chart x axis %q, want time (µs)", x)
	}
	peak := eval[float64](t, ctx, `Math.max(...`+saq+`.getOption().series[0].data.map(d => d.value[1]))`)
	area := eval[[]float64](t, ctx, saq+`.getOption().series[0].markArea.data[0].map(p => p.xAxis)`)
	if peak < 1 || len(area) != 2 || area[0] != 200 || area[1] != 370 {
		t.Errorf("SAQ chart: busiest ingress side %v lines, hotspot area %v µs; want ≥ 1 and 200–370", peak, area)
	}
	graph := `echarts.getInstanceByDom(document.getElementById('chart-net'))`
	waitFor(t, ctx, `(c => !!c && c.getOption().visualMap[0].text.join(' ').includes('SAQs allocated'))(`+graph+`)`, 10*time.Second)
	if n := eval[int](t, ctx, graph+`.getOption().series[0].data.length`); n != 48+64 {
		t.Errorf("fat tree drawn with %d nodes, want 48 switches and 64 hosts", n)
	}
	heat := eval[string](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-netheat')).getOption().title[0].subtext`)
	if !strings.Contains(heat, "not sampled under RECN") {
		t.Errorf("link heat map under RECN: %q, want it to say its links are not sampled", heat)
	}
	frames := eval[int](t, ctx, `+document.getElementById('netview').dataset.frames`)
	show := func(i int) int { // the slider at frame i: switches holding SAQs
		t.Helper()
		eval[bool](t, ctx, `(() => { const s = document.getElementById('net-frame'); s.value = '`+strconv.Itoa(i)+`';
			s.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
		waitFor(t, ctx, `document.getElementById('netview').dataset.frame === '`+strconv.Itoa(i)+`'`, 5*time.Second)
		return eval[int](t, ctx, `+document.getElementById('netview').dataset.saqSwitches`)
	}
	hot := frames * 300 / 500
	k := show(hot)
	coloured := eval[int](t, ctx, graph+`.getOption().series[0].data.filter(d => d.value > 0).length`)
	t.Logf("%d frames; at frame %d (≈ 300 µs) %d switches hold SAQs, %d nodes coloured", frames, hot, k, coloured)
	if k < 1 || coloured < k {
		t.Errorf("in the hotspot: %d switches with SAQs, %d nodes coloured; want at least one", k, coloured)
	}
	if l := eval[string](t, ctx, `document.querySelector('label[for=net-frame]').textContent`); !strings.Contains(l, "µs of 500)") {
		t.Errorf("slider label %q: want the interval in µs too", l)
	}
	screenshot(t, ctx, "e2e-recn-view.png")
	if k0 := show(0); k0 != 0 {
		t.Errorf("before the hotspot %d switches hold SAQs, want none", k0)
	}
}
