package sim

import (
	"math"
	"testing"
)

// TestQCNFig10bAdversarialSteadyStateFOGSim: the ADV+1 state that the
// QCN-Switch paper's Fig. 10b (ADV+1 → UN at 0.4) starts from, at h=3 (the
// Table I router, 342 nodes), beside FOGSim v5's own QCN-Switch on the same
// system (fuentesp/fogsim dcdd75f: QCNSW, QCNSWOUTFBCOMP, MIN_COND, Table I's
// QCN parameters, `Traffic=ADV_RANDOM_NODE AdvTrafficDistance=1
// Probability=40`, 60,000 + 10,000 cycles, seed 1): FOGSim's "Average Total
// Latency" 134.2 cycles (injection 30.9, network 103.4), 136,853 packets of
// which 126,332 non-minimal (92.3%, its count including S_out's node h−1,
// whose own rule is the minimal path, 1/(a·p) = 5.6% of the traffic, when
// its draw misroutes it), accepted 0.4002.
//
// An earlier comparison of the two simulators' transient records put
// phitsim at 182 cycles and FOGSim at 128 just before the switch; that
// difference is not in the steady state: FOGSim's .transient latency omits
// the packet size (its record adds g_internal_cycle − inCycle, its average
// adds g_flit_size; 128 is 138 on this scale), phitsim's pre-switch record
// spans 100 cycles (config.TransientPrev) against FOGSim's 1,000, and the
// switch came 22,000 cycles into a run that starts from an empty network
// with every probability at 100%: both simulators were still draining the
// start's minimal burst, whose length varies from seed to seed
// (engine/REPRODUCTION.md, QCN-Switch, "FOGSim v5's QCN-Switch beside
// phitsim's").
//
// Asserted: accepted within 1% of the offered 0.4; latency within 8% of
// FOGSim's 134.2 (measured 141.5, 5.4% above; ±2.7 within the window, and
// its 1,000-cycle bins range over 122–150 in both simulators); the misrouted share within 3 points of
// FOGSim's less the overlapping node's 1/(a·p) (86.8%; measured 87.0%).
func TestQCNFig10bAdversarialSteadyStateFOGSim(t *testing.T) {
	c := qcnConfig(3, 60000, 10000)
	c.UseFOGSimModel()
	c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = "ADV", 1, 0.4
	c.Routing.QcnClock = "fogsim"
	c.Topology.InjectionLatency = 2 // FOGSim's InjectionDelay in that run
	r := btSim(t, c, 1)
	const fogLat, fogNonMin = 134.203, 126332.0 / 136853.0
	overlap := 1 / float64(c.Topology.A*c.Topology.P)
	t.Logf("latency %.1f (injection %.1f, network %.1f), accepted %.4f, misrouted %.3f, hops %.2f; FOGSim v5 %.1f, %.3f less the overlap %.3f",
		r.Latency.Avg, r.InjLatency, r.NetLatency, r.Accepted, r.Misrouted.Fraction, r.Hops.Avg, fogLat, fogNonMin, overlap)
	if math.Abs(r.Accepted-0.4) > 0.004 {
		t.Errorf("accepted %.4f (want 0.4 ± 1%%)", r.Accepted)
	}
	if math.Abs(r.Latency.Avg/fogLat-1) > 0.08 {
		t.Errorf("latency %.1f cycles (want FOGSim v5's %.1f ± 8%%)", r.Latency.Avg, fogLat)
	}
	if want := fogNonMin - overlap; math.Abs(r.Misrouted.Fraction-want) > 0.03 {
		t.Errorf("misrouted %.3f (want %.3f ± 0.03)", r.Misrouted.Fraction, want)
	}
}
