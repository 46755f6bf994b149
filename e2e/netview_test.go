package e2e

import (
	"context"
	"strconv"
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
