package sim

// The background class per interval of a hotspot that starts during the
// run (result.HotspotClasses.Series): the transient Kim et al.,
// Contention-based Congestion Management in Large-Scale Networks Fig. 13
// plots (the UR traffic's latency per interval around the hotspot's start).

import (
	"context"
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

func runSeed(t *testing.T, c config.Config, seed uint64) *result.Result {
	t.Helper()
	s, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestHotspotBackgroundSeries: on Fig. 2's 16-node network (senders 0, 5,
// 8, 12 → 4, UR 0.4 among the other 11, UGAL without congestion management, 4-packet messages on per-destination source queues) with the hotspot from cycle
// 3,000 of 2,000 + 4,000 cycles in intervals of 500: one entry per
// interval of Series; the intervals inside the measured window deliver
// exactly the background class's packets with its mean latency; a run
// without traffic.hotspotStart has none (its document is unchanged). The
// background's latency rises once the senders start.
func TestHotspotBackgroundSeries(t *testing.T) {
	c := cbcmHotspot("", "UGAL", 4, "0,5,8,12", 0.4)
	c.Router.OutputArbiter = "rrvc"
	// Every Valiant draw a detour: the spread is the test's signal, and
	// with BookSim's draw (routing.ugalIntermediate=any, the default) half
	// the hot draws stay minimal and the background rises only 1.06× here.
	c.Routing.UgalIntermediate = "detour"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval = 2000, 4000, 500
	c.Traffic.HotspotStart = 3000
	r := runSeed(t, c, 1)
	h := r.Hotspot
	if len(h.Series) != len(r.Series) || len(h.Series) != 12 {
		t.Fatalf("%d background intervals, %d in Series; want 12 each", len(h.Series), len(r.Series))
	}
	var n int64
	var sum float64
	for i, x := range h.Series {
		if r.Series[i].Cycle > int64(c.Sim.Warmup) {
			n += x.Delivered
			sum += x.Latency * float64(x.Delivered)
		}
	}
	if n != h.Background.Delivered || math.Abs(sum/float64(n)-h.Background.Latency.Avg) > 1e-9*h.Background.Latency.Avg {
		t.Errorf("the window's intervals deliver %d background packets at %.3f cycles; the class %d at %.3f", n, sum/float64(n), h.Background.Delivered, h.Background.Latency.Avg)
	}
	before, after := h.Series[5].Latency, 0.0 // 2,500–3,000; the last 2,000 cycles
	for _, x := range h.Series[8:] {
		after += x.Latency / 4
	}
	t.Logf("background latency before the start %.0f cycles, over its last 2,000 cycles %.0f", before, after)
	if !(after > 1.15*before) { // measured 1.28×
		t.Errorf("background latency %.0f after the start against %.0f before: want it to rise (UGAL without congestion management spreads the tree, Fig. 2)", after, before)
	}
	c.Traffic.HotspotStart = 0
	c.Traffic.HotspotEnd = 0
	if q := runSeed(t, c, 1); q.Hotspot.Series != nil {
		t.Errorf("without traffic.hotspotStart: %d background intervals, want none", len(q.Hotspot.Series))
	}
}
