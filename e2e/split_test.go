package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"phitsim/site/experiment"
)

// splitLink: one run of h=2 (9 groups) with UGAL at load 0.5, long
// enough for several hundred windows of the 100-cycle global links.
func splitLink(cycles int) experiment.Link {
	e := experiment.Default()
	e.Series = e.Series[:1]
	e.Series[0].Routing.Name = "UGAL"
	e.Series[0].Sim.Seeds = 1
	e.Series[0].Sim.Warmup, e.Series[0].Sim.Cycles = 2000, cycles
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.5, To: 0.5}
	return experiment.Link{Exp: e}
}

// setSplit chooses the page's "workers per run".
func setSplit(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	setField(t, ctx, "workers-per-run", fmt.Sprint(n))
	waitFor(t, ctx, fmt.Sprintf(`phitsimDebug.pool().split === %d`, n), 5*time.Second)
}

// splitRun (TestBrowser's "split"): a run split across two Web Workers
// (separate wasm instances exchanging each window's crossings over a
// MessageChannel, engine/PARALLEL.md "Across memories") gives the page the
// same result document as on one worker (the exported JSON's run, CPU time
// aside); Cancel stops both workers (each acknowledges: none is
// terminated); a partition's worker that crashes ends the run with its
// message.
func splitRun(t *testing.T, ctx context.Context, base string) {
	if n := eval[int](t, ctx, `navigator.hardwareConcurrency`); n < 2 {
		t.Skipf("navigator.hardwareConcurrency %d: the pool has one worker", n)
	}
	open(t, ctx, base+"#"+experiment.Encode(splitLink(10000)))
	waitFor(t, ctx, done, 120*time.Second) // small: it runs on opening
	// the watched run (the live view's) stays on one worker by default
	if n := eval[int](t, ctx, `phitsimDebug.pool().splitRuns`); n != 0 {
		t.Fatalf("the run on opening was split (%d split runs)", n)
	}
	one := pageResults(t, ctx)
	setSplit(t, ctx, 2)
	rerun(t, ctx)
	if n := eval[int](t, ctx, `phitsimDebug.pool().splitRuns`); n != 1 {
		t.Fatalf("the run was not split across 2 workers (%d split runs)", n)
	}
	two := pageResults(t, ctx)
	if len(one.Runs) != 1 || len(two.Runs) != 1 {
		t.Fatalf("%d and %d runs", len(one.Runs), len(two.Runs))
	}
	if one.Runs[0].Sequential != "" || two.Runs[0].Sequential != "" {
		t.Fatalf("ran sequentially: %q %q", one.Runs[0].Sequential, two.Runs[0].Sequential)
	}
	if a, b := canonical(two.Runs[0]), canonical(one.Runs[0]); a != b {
		t.Errorf("2 workers' result differs from 1 worker's:\n%.600s\n%.600s", a, b)
	}
	t.Logf("h=2 UGAL 0.5, 12,000 cycles: %.2fs on 2 workers, %.2fs on 1 (run wall time, 2 shared cores)",
		two.Runs[0].CPUSeconds, one.Runs[0].CPUSeconds)
	// 1 worker per run: today's path
	setSplit(t, ctx, 1)
	rerun(t, ctx)
	if n := eval[int](t, ctx, `phitsimDebug.pool().splitRuns`); n != 1 {
		t.Fatalf("a run was split with one worker per run")
	}
	if a, b := canonical(pageResults(t, ctx).Runs[0]), canonical(one.Runs[0]); a != b {
		t.Errorf("1 worker per run: the result differs")
	}

	// Cancel: a long run on both workers stops on both
	open(t, ctx, base+"#"+experiment.Encode(splitLink(4000000)))
	if s := eval[string](t, ctx, `document.getElementById('app').dataset.state`); s != "idle" {
		t.Fatalf("a long experiment started on its own (%s)", s)
	}
	setSplit(t, ctx, 2)
	pool := func() map[string]any { return eval[map[string]any](t, ctx, `phitsimDebug.pool()`) }
	acks := pool()["cancelAcks"].(float64)
	eval[bool](t, ctx, `(() => { document.getElementById('run').click(); return true })()`)
	waitFor(t, ctx, `document.getElementById('app').dataset.state === 'running'`, 30*time.Second)
	time.Sleep(2 * time.Second)
	if p := pool(); p["helping"].(float64) != 1 {
		t.Fatalf("the run is not split across 2 workers: %v", p)
	}
	eval[bool](t, ctx, `(() => { document.getElementById('cancel').click(); return true })()`)
	waitFor(t, ctx, `document.getElementById('app').dataset.state === 'cancelled'`, 5*time.Second)
	waitFor(t, ctx, `!phitsimDebug.pool().busy && phitsimDebug.pool().helping === 0`, 10*time.Second)
	p := pool()
	if p["helping"].(float64) != 0 || p["terminated"].(float64) != 0 || p["cancelAcks"].(float64) != acks+1 {
		t.Errorf("after Cancel: %v (want no partition left, none terminated, one more acknowledgement)", p)
	}

	// a partition's worker that crashes ends the run with its message;
	// the coordinator stops, the crashed worker is replaced
	eval[bool](t, ctx, `(() => { document.getElementById('run').click(); return true })()`)
	waitFor(t, ctx, `document.getElementById('app').dataset.state === 'running' && phitsimDebug.pool().helping === 1`, 30*time.Second)
	time.Sleep(time.Second)
	if !eval[bool](t, ctx, `phitsimDebug.crashPart()`) {
		t.Fatal("no partition worker to crash")
	}
	waitFor(t, ctx, done, 30*time.Second)
	waitFor(t, ctx, `!phitsimDebug.pool().busy && phitsimDebug.pool().helping === 0`, 10*time.Second)
	ex := pageResults(t, ctx)
	if len(ex.Errors) != 1 || ex.Errors[0].Kind != "crash" || !strings.Contains(ex.Errors[0].Msg, "a partition of the run failed: the engine exited") {
		t.Errorf("after a partition's crash: errors %+v", ex.Errors)
	}
	if p := pool(); p["replaced"].(float64) < 1 {
		t.Errorf("the crashed worker was not replaced: %v", p)
	}
}

// TestBrowserSplitSpeed measures one run on 1, 2 and 4 workers in
// Chromium (engine/BENCHMARKS.md, "Parallel runs"): the h=4 Dragonfly
// (1,056 nodes), MIN, UN at 0.4, 1,000 + 4,000 cycles, the page's pool
// made of 4 workers (navigator.hardwareConcurrency overridden). Every
// document must be the same. A measurement, not a check: it runs with
// PHITSIM_SPLIT_BENCH=1 only.
func TestBrowserSplitSpeed(t *testing.T) {
	exe := chromium(t)
	if os.Getenv("PHITSIM_SPLIT_BENCH") == "" {
		t.Skip("a measurement: PHITSIM_SPLIT_BENCH=1 runs it")
	}
	base := site(t)
	ctx := browser(t, exe)
	if _, err := chromedp.Call(ctx, emulation.SetHardwareConcurrencyOverride, emulation.SetHardwareConcurrencyOverrideParams{HardwareConcurrency: 4}); err != nil {
		t.Fatal(err)
	}
	e := experiment.Default()
	e.Series = e.Series[:1]
	c := &e.Series[0]
	c.Routing.Name = "MIN"
	c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4
	c.Sim.Seeds, c.Sim.Warmup, c.Sim.Cycles = 1, 1000, 4000
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.4, To: 0.4}
	open(t, ctx, base+"#"+experiment.Encode(experiment.Link{Exp: e}))
	waitFor(t, ctx, done, 600*time.Second) // runs on opening: warms the wasm tiers up
	if n := eval[int](t, ctx, `phitsimDebug.pool().size`); n != 4 {
		t.Fatalf("pool of %d workers", n)
	}
	want := ""
	rounds := 3
	for r := range rounds {
		for _, n := range []int{1, 2, 4} {
			setSplit(t, ctx, n)
			start := time.Now()
			rerun(t, ctx)
			wall := time.Since(start).Seconds()
			ex := pageResults(t, ctx)
			got := canonical(ex.Runs[0])
			if want == "" {
				want = got
			} else if got != want {
				t.Errorf("%d workers: the document differs", n)
			}
			t.Logf("round %d, %d workers: run %.2fs (click to done %.2fs), latency %.2f, %d hops", r+1, n, ex.Runs[0].CPUSeconds, wall, ex.Runs[0].Latency.Avg, ex.Runs[0].PacketHops)
		}
	}
}
