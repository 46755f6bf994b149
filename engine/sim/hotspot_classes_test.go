package sim

// HOTSPOT's traffic classes in the result (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-A: its figures plot the
// non-hotspot class, and Fig. 14 the accepted hotspot bandwidth per sender),
// on the paper's 16-node 1D flattened butterfly at full size.

import (
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

func hotspotConfig(routing, senders string, hot int, load float64) config.Config {
	c := config.FBFly(1, 4, 4)
	c.Routing.Name, c.Sim.Seeds = routing, 1
	c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders, c.Traffic.Load = "HOTSPOT", hot, senders, load
	return c
}

// checkClasses: the two classes partition the run's packets, their
// latencies average to the run's, the senders' bandwidths add up to the
// hotspot's, and the loads are per node of the class.
func checkClasses(t *testing.T, r *result.Result, nodes, senders int) {
	t.Helper()
	h := r.Hotspot
	if h == nil {
		t.Fatal("a HOTSPOT run without result.hotspot")
	}
	bg, hs := h.Background, h.Hotspot
	if bg.Nodes != nodes-1-senders || hs.Nodes != 1 || len(h.Senders) != senders || len(h.SenderAccepted) != senders {
		t.Errorf("classes of %d and %d nodes, %d senders (%d bandwidths); want %d, 1, %d", bg.Nodes, hs.Nodes, len(h.Senders), len(h.SenderAccepted), nodes-1-senders, senders)
	}
	if bg.Delivered+hs.Delivered != r.Delivered || bg.Generated+hs.Generated != r.Generated {
		t.Errorf("classes deliver %d+%d and generate %d+%d packets; the run %d and %d", bg.Delivered, hs.Delivered, bg.Generated, hs.Generated, r.Delivered, r.Generated)
	}
	if r.Delivered > 0 {
		avg := (bg.Latency.Avg*float64(bg.Delivered) + hs.Latency.Avg*float64(hs.Delivered)) / float64(r.Delivered)
		if math.Abs(avg-r.Latency.Avg) > 1e-6*r.Latency.Avg {
			t.Errorf("the classes' latencies average to %.3f, the run's is %.3f", avg, r.Latency.Avg)
		}
	}
	// phits/(node·cycle) over all nodes = the classes' per-node loads weighted by their nodes
	if got := (bg.Accepted*float64(bg.Nodes) + hs.Accepted) / float64(nodes); math.Abs(got-r.Accepted) > 1e-9 {
		t.Errorf("the classes accept %.6f phits/(node·cycle) together, the run %.6f", got, r.Accepted)
	}
	sum := 0.0
	for _, a := range h.SenderAccepted {
		sum += a
	}
	if math.Abs(sum-hs.Accepted) > 1e-9 {
		t.Errorf("the senders' bandwidths add up to %.6f, the hotspot's is %.6f", sum, hs.Accepted)
	}
}

// Fig. 2's combined pattern (senders 0, 5, 8, 12 → 4, UR among the other 11
// nodes at 0.3), MIN, 20,000 + 20,000 cycles: the hotspot class takes the
// hotspot's ejection link (≈ 1 phit/cycle), the background is offered its
// load, and the classes add up to the run.
func TestHotspotClassesFig2(t *testing.T) {
	r := btRun(t, hotspotConfig("MIN", "0,5,8,12", 4, 0.3), 1)
	checkClasses(t, r, 16, 4)
	bg, hs := r.Hotspot.Background, r.Hotspot.Hotspot
	if hs.Accepted < 0.93 || hs.Accepted > 1 {
		t.Errorf("the hotspot receives %.3f phits/cycle, want ≈ 1 (its ejection link)", hs.Accepted)
	}
	if bg.Applied < 0.27 || bg.Applied > 0.33 {
		t.Errorf("the background generates %.3f phits/(node·cycle), offered 0.3", bg.Applied)
	}
	t.Logf("background: applied %.3f accepted %.3f latency %.0f; hotspot %.3f (senders %v: %.3f), latency %.0f",
		bg.Applied, bg.Accepted, bg.Latency.Avg, hs.Accepted, r.Hotspot.Senders, r.Hotspot.SenderAccepted, hs.Latency.Avg)
}

// Fig. 14's pattern (hotspot 9 on R2; senders 0, 1, 2 one hop away and 8 on
// the hotspot's router; no background), MIN, full size: the senders share
// the hotspot's ejection link, and no background packet exists.
func TestHotspotSendersFig14(t *testing.T) {
	r := btRun(t, hotspotConfig("MIN", "0,1,2,8", 9, 0), 1)
	checkClasses(t, r, 16, 4)
	h := r.Hotspot
	if h.Background.Generated != 0 || h.Hotspot.Accepted < 0.93 {
		t.Errorf("background %d packets, hotspot %.3f phits/cycle; want 0 and ≈ 1", h.Background.Generated, h.Hotspot.Accepted)
	}
	for i, a := range h.SenderAccepted {
		if a <= 0 {
			t.Errorf("sender %d receives nothing", h.Senders[i])
		}
	}
	t.Logf("senders %v: %.3f phits/cycle each (paper, no throttling: node 8 ≈ 2× nodes 0–2 together)", h.Senders, h.SenderAccepted)
}

// Any other pattern has no hotspot classes (documents keep their form).
func TestHotspotClassesOnlyForHotspot(t *testing.T) {
	c := config.FBFly(1, 4, 4)
	c.Traffic.Load, c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0.2, 1000, 2000, 1
	if r := btRun(t, c, 1); r.Hotspot != nil {
		t.Errorf("UN: result.hotspot %+v, want none", r.Hotspot)
	}
}
