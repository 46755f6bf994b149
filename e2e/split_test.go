package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"phitsim/site/experiment"
	"phitsim/site/protocol"
)

// splitLink: one run of h=4 (33 groups of 8 routers) with UGAL at load
// 0.5, long enough for tens of windows of the 100-cycle global links. The
// pool splits only a run whose partitions carry enough work per window
// (sim.UsefulPartitions: h=4 up to 3 partitions; h=2, the page's default
// network, none).
func splitLink(cycles int) experiment.Link {
	e := experiment.Default()
	e.Series = e.Series[:1]
	e.Series[0].Routing.Name = "UGAL"
	e.Series[0].Topology.H, e.Series[0].Topology.A, e.Series[0].Topology.P = 4, 8, 4
	e.Series[0].Sim.Seeds = 1
	e.Series[0].Sim.Warmup, e.Series[0].Sim.Cycles = 1000, cycles
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
// same export document as on one worker (CPU times aside), and the live
// view the same snapshots: the watched run is split by default, as any
// other, and its frames equal one worker's, byte for byte. A long watched
// run on two workers updates the live view while it runs; Cancel stops
// both workers (each acknowledges: none is terminated); a partition's
// worker that crashes ends the run with its message.
func splitRun(t *testing.T, ctx context.Context, base string) {
	if n := eval[int](t, ctx, `navigator.hardwareConcurrency`); n < 2 {
		t.Skipf("navigator.hardwareConcurrency %d: the pool has one worker", n)
	}
	open(t, ctx, base+"#"+experiment.Encode(splitLink(5000)))
	waitFor(t, ctx, done, 120*time.Second) // small: it runs on opening
	// the watched run (the live view's) is split as any other
	if n := eval[int](t, ctx, `phitsimDebug.pool().splitRuns`); n != 1 {
		t.Fatalf("the watched run on opening was not split across the workers (%d split runs)", n)
	}
	// 6,000 cycles in frames of 200 (protocol.SnapshotEvery)
	const frames = 30
	watched := func(workers int) (experiment.Export, string) {
		ex := pageResults(t, ctx)
		if len(ex.Runs) != 1 {
			t.Fatalf("%d workers: %d runs", workers, len(ex.Runs))
		}
		if ex.Runs[0].Sequential != "" {
			t.Fatalf("%d workers: ran sequentially: %q", workers, ex.Runs[0].Sequential)
		}
		f := eval[string](t, ctx, `phitsimDebug.netFrames()`)
		var nets []protocol.NetInfo
		if err := json.Unmarshal([]byte(f), &nets); err != nil || len(nets) != frames {
			t.Fatalf("%d workers: %d live view frames (%v), want %d", workers, len(nets), err, frames)
		}
		if n := eval[int](t, ctx, `+document.getElementById('netview').dataset.frames`); n != frames {
			t.Errorf("%d workers: the live view shows %d frames, want %d", workers, n, frames)
		}
		busy := 0
		for _, b := range nets[frames/2].LinkUse {
			if b > 0 {
				busy++
			}
		}
		if busy < len(nets[frames/2].LinkUse)/2 {
			t.Errorf("%d workers: %d of %d ports carried traffic in frame %d", workers, busy, len(nets[frames/2].LinkUse), frames/2)
		}
		return ex, f
	}
	// the whole export, its runs' CPU times aside
	export := func(ex experiment.Export) string {
		for _, r := range ex.Runs {
			r.CPUSeconds = 0
		}
		b, _ := json.Marshal(ex)
		return string(b)
	}
	two, twoFrames := watched(2)
	// 1 worker per run: the one-worker path
	setSplit(t, ctx, 1)
	rerun(t, ctx)
	if n := eval[int](t, ctx, `phitsimDebug.pool().splitRuns`); n != 1 {
		t.Fatalf("a run was split with one worker per run")
	}
	one, oneFrames := watched(1)
	oneCPU := one.Runs[0].CPUSeconds
	if a, b := export(two), export(one); a != b {
		t.Errorf("2 workers' export differs from 1 worker's:\n%.600s\n%.600s", a, b)
	}
	if twoFrames != oneFrames {
		t.Errorf("2 workers' live view frames differ from 1 worker's:\n%.300s\n%.300s", twoFrames, oneFrames)
	}
	// the count chosen in the page: 2 again
	setSplit(t, ctx, 2)
	rerun(t, ctx)
	if n := eval[int](t, ctx, `phitsimDebug.pool().splitRuns`); n != 2 {
		t.Fatalf("the run was not split across 2 workers (%d split runs)", n)
	}
	again, againFrames := watched(2)
	t.Logf("h=4 UGAL 0.5, 6,000 cycles, watched: %.2fs on 2 workers, %.2fs on 1 (run wall time, 2 shared cores)",
		again.Runs[0].CPUSeconds, oneCPU)
	if export(again) != export(one) || againFrames != oneFrames {
		t.Errorf("2 workers chosen in the page: the export or the live view differs from 1 worker's")
	}

	// a long watched run on both workers: the live view updates while it
	// runs; Cancel stops both
	open(t, ctx, base+"#"+experiment.Encode(splitLink(400000))) // a frame every 2,005 cycles
	if s := eval[string](t, ctx, `document.getElementById('app').dataset.state`); s != "idle" {
		t.Fatalf("a long experiment started on its own (%s)", s)
	}
	setSplit(t, ctx, 2)
	pool := func() map[string]any { return eval[map[string]any](t, ctx, `phitsimDebug.pool()`) }
	acks := pool()["cancelAcks"].(float64)
	eval[bool](t, ctx, `(() => { document.getElementById('run').click(); return true })()`)
	nframes := `+(document.getElementById('netview') || {dataset: {}}).dataset.frames`
	waitFor(t, ctx, `document.getElementById('app').dataset.state === 'running' && `+nframes+` >= 3`, 60*time.Second)
	if p := pool(); p["helping"].(float64) != 1 {
		t.Fatalf("the watched run is not split across 2 workers: %v", p)
	}
	graph := `echarts.getInstanceByDom(document.getElementById('chart-net'))`
	waitFor(t, ctx, `!!`+graph, 5*time.Second)
	subtext := func() string {
		return eval[string](t, ctx, `(c => c ? c.getOption().title[0].subtext : '')(`+graph+`)`)
	}
	first, n0 := subtext(), eval[int](t, ctx, nframes)
	waitFor(t, ctx, nframes+` >= `+strconv.Itoa(n0+3), 60*time.Second)
	waitFor(t, ctx, `(c => c.getOption().title[0].subtext !== `+strconv.Quote(first)+`)(`+graph+`)`, 5*time.Second)
	t.Logf("the live view of the split run: %q, then %q", first, subtext())
	eval[bool](t, ctx, `(() => { document.getElementById('cancel').click(); return true })()`)
	waitFor(t, ctx, `document.getElementById('app').dataset.state === 'cancelled'`, 5*time.Second)
	waitFor(t, ctx, `!phitsimDebug.pool().busy && phitsimDebug.pool().helping === 0`, 10*time.Second)
	p := pool()
	if p["helping"].(float64) != 0 || p["terminated"].(float64) != 0 || p["cancelAcks"].(float64) != acks+1 {
		t.Errorf("after Cancel: %v (want no partition left, none terminated, one more acknowledgement)", p)
	}
	after := eval[int](t, ctx, nframes)
	time.Sleep(time.Second)
	if n := eval[int](t, ctx, nframes); n != after {
		t.Errorf("the live view took %d frames after the run was cancelled", n-after)
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
