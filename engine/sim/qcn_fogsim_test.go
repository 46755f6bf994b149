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
// Probability=40 InjectionChannels=3`, 60,000 + 10,000 cycles, seed 1):
// FOGSim's "Average Total Latency" 134.4 cycles (injection 31.2, network
// 103.2), 136,876 packets of which 126,400 non-minimal (92.3%, its count
// including S_out's node h−1, whose own rule is the minimal path, 1/(a·p) =
// 5.6% of the traffic, when its draw misroutes it), accepted 0.4002. Three
// injection VCs are what this configuration gives phitsim
// (router.injectionVCs 0 resolves to 3); with FOGSim's one
// (`InjectionChannels=1`) FOGSim gives 134.2 (injection 30.9, 126,332 of
// 136,853 non-minimal) and phitsim 140.3: the count barely matters here.
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
// FOGSim's 134.4 (measured 141.5, 5.2% above; ±2.7 within the window,
// 138.5 and 138.9 with seeds 2 and 3, FOGSim 135.5 with seed 2 and
// `InjectionChannels=3`, and its 1,000-cycle bins range over
// 122–150 in both simulators); the misrouted share within 3 points of
// FOGSim's less the overlapping node's 1/(a·p) (86.8%; measured 87.0%).
func TestQCNFig10bAdversarialSteadyStateFOGSim(t *testing.T) {
	c := qcnConfig(3, 60000, 10000)
	c.UseFOGSimModel()
	c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = "ADV", 1, 0.4
	c.Routing.QcnClock = "fogsim"
	c.Topology.InjectionLatency = 2 // FOGSim's InjectionDelay in that run
	r := btSim(t, c, 1)
	const fogLat, fogNonMin = 134.448, 126400.0 / 136876.0
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

// TestQCNFig9SourceProcessingRoundRobinFOGSim: the QCN-Switch paper's Fig. 9
// (S_out's injection under ADV+1 at 0.4 with input sampling) with FOGSim
// v5's round-robin arbiters, beside FOGSim v5 on the same h=3 system
// (QCNSWBASE and QCNSWSELF, `InputArbiter=OutputArbiter=RR
// InjectionChannels=3`, phitsim's 3 injection VCs here, 40,000 + 10,000
// cycles, seed 1), counted as FOGSim counts it: packets delivered in the
// window by source router (its `Group0 SWi Flits`). FOGSim: S_out 62.4%
// below the group's other routers without source processing, 17.1% with
// it (60.9% and 15.4% with `InjectionChannels=1`, where phitsim with
// router.injectionVCs=1 gives 63.0% and 18.8%). Its generated packets do
// not show that deficit at h=3 in this window (S_out's injection queues
// still have room; its node h−1, whose own rule is the minimal path, waits
// ≈ 2,000 cycles at injection), which is why generated counts had put
// phitsim at 5.1%. Measured: 62.5% and 18.2%.
// Asserted: ≥ 45% without source processing; with it between 8% and 30%,
// not flat, as in FOGSim (oldest-first arbitration makes it flat:
// TestQCNInputSamplingUnfairness).
func TestQCNFig9SourceProcessingRoundRobinFOGSim(t *testing.T) {
	deficit := func(sp bool) float64 {
		c := qcnConfig(3, 40000, 10000)
		c.UseFOGSimModel()
		c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = "ADV", 1, 0.4
		c.Topology.InjectionLatency = 2
		c.Routing.QcnClock, c.Routing.QcnSampling, c.Routing.QcnFbComparison = "fogsim", "input", "off"
		c.Routing.QcnSourceProcessing = sp
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		a := s.groupSize
		got := make([]int64, a)
		s.hk.eject = append(s.hk.eject, func(k int32, tt int64) {
			if r := int(s.nodeAt[s.pk[k].src].router); tt >= s.W && r < a {
				got[r]++
			}
		})
		for i := 0; i < c.Sim.Warmup+c.Sim.Cycles; i++ {
			s.Step()
		}
		var others int64
		for _, n := range got[:a-1] {
			others += n
		}
		d := 1 - float64(got[a-1])/(float64(others)/float64(a-1))
		t.Logf("source processing %v: group 0 delivered by source router %v, S_out %.1f%% below the others", sp, got, 100*d)
		return d
	}
	if in, sp := deficit(false), deficit(true); in < 0.45 || sp < 0.08 || sp > 0.30 {
		t.Errorf("S_out's deficit %.3f without source processing (FOGSim v5 0.624; want ≥ 0.45), %.3f with it (FOGSim v5 0.171; want 0.08–0.30)", in, sp)
	}
}
