package sim

import (
	"strconv"
	"strings"
	"testing"
)

// kimFig9bSenders is Fig. 9b's hotspot set of Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-B on a 2D flattened
// butterfly of routers routers of p nodes: the first node of each router
// but R0 (nodes p, 2p, …), all sending to node 0 on R0.
func kimFig9bSenders(routers, p int) string {
	var s []string
	for r := 1; r < routers; r++ {
		s = append(s, strconv.Itoa(r*p))
	}
	return strings.Join(s, ",")
}

// Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §V-B, Fig. 9b with the paper's sender set (target 10): the first
// node of each of R1..R63 (nodes 8, 16, …, 504) sends to node 0, every
// other node (node 0 too) follows the tornado n → n+8; the Baseline's
// latency off the plot, "CBCM is nearly ideal". Scaled to the 64-node 2D
// network (kimScaled: 4×4 routers of 4 nodes): nodes 4, 8, …, 60 → node 0,
// the tornado n → n+4, UGAL, 0.05, 30,000 + 10,000 cycles (the startup
// tree gone: over 10,000 + 10,000 CBCM is 3.2× Ideal), one seed. The
// paper's senders each sit alone on their router and the tornado's own flow
// into node 0 comes from a sender (node 60), so the flows into node 0 are
// exactly the 15 senders and every tornado destination hears from one
// source: CBCM declares node 0 alone and throttles the 15. Measured: Ideal
// 247.5 cycles, CBCM 248.1 (1.00×), the Baseline 941.0 (3.8×; 2,563 with a
// 60,000-cycle warm-up, the tree never draining); 15 random senders
// (traffic.hotspotCount 15, traffic.hotspotSeed 1) instead: Ideal 507.6,
// CBCM 459.9, Baseline 815.2. Asserted: one hotspot, 15 flows throttled,
// CBCM's background latency at most 1.1× Ideal's and its accepted load
// within 1%, the Baseline's latency at least 2× Ideal's.
func TestCBCMFig9bPaperSendersScaled(t *testing.T) {
	type out struct {
		acc, lat float64
		cbcm     map[string]float64
	}
	run := func(scheme string) out {
		c := kimScaled(scheme, "UGAL", "HOTSPOT", 0.05)
		c.Traffic.HotspotBackground, c.Traffic.HotspotNode, c.Traffic.HotspotSenders = "TORNADO", 0, kimFig9bSenders(16, 4)
		c.Sim.Warmup = 30000
		_, r := btSimState(t, c, 1)
		return out{r.Hotspot.Background.Accepted, r.Hotspot.Background.Latency.Avg, r.Mechanisms["cbcm"]}
	}
	id, cb, base := run("ideal"), run("cbcm"), run("")
	t.Logf("background: Ideal %.4f at %.1f cycles, CBCM %.4f at %.1f (%.3f×), Baseline %.4f at %.1f (%.2f×); CBCM %v",
		id.acc, id.lat, cb.acc, cb.lat, cb.lat/id.lat, base.acc, base.lat, base.lat/id.lat, cb.cbcm)
	if cb.cbcm["hotspots"] != 1 || cb.cbcm["flowsThrottled"] != 15 {
		t.Errorf("%v hotspots declared, %v flows throttled: want node 0 alone and its 15 senders (no tornado destination declared)", cb.cbcm["hotspots"], cb.cbcm["flowsThrottled"])
	}
	if cb.lat > 1.1*id.lat || cb.acc < 0.99*id.acc {
		t.Errorf("CBCM's background %.4f at %.1f cycles, Ideal's %.4f at %.1f: want within 1%% and at most 1.1× (nearly ideal)", cb.acc, cb.lat, id.acc, id.lat)
	}
	if base.lat < 2*id.lat {
		t.Errorf("Baseline's background latency %.1f, Ideal's %.1f: want the tree in the Baseline's way (≥ 2×)", base.lat, id.lat)
	}
}
