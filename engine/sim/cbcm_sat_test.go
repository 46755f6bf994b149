package sim

import (
	"testing"
)

// cbcmDeclaredShare runs c with seed through its warm-up and window and
// returns the share of destination-cycles spent declared a hotspot (the
// mean over every node of the cycles it was in hotspot mode ÷ the run's
// cycles), the mean share of time a flow was throttled (the report's
// throttledShare: a flow's throttled cycles ÷ the run's, over every flow
// that sent a packet), the hotspots declared and the accepted load.
func cbcmDeclaredShare(t *testing.T, rt string, load float64, seed uint64) (dest, flow, hotspots, accepted float64) {
	t.Helper()
	c := cbcmUR("cbcm", rt, 2, 4, 4, load, 20000, 20000)
	s, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	m := mechOf[*cbcm](t, s)
	var declared int64
	for s.now < s.W+s.M {
		s.Step()
		for _, md := range m.mode {
			if md == cbHotspot {
				declared++
			}
		}
	}
	_, r := m.report(s)
	return float64(declared) / float64(s.now) / float64(len(m.mode)), r["throttledShare"], r["hotspots"], s.Snapshot().Accepted
}

// Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §V-B (Fig. 8a, target 6): under UR "incorrect detection
// occurred less than 0.001% of runtime" at 0.5 and "for only 2.2% of
// runtime" at saturation (accept 0.5–6%). Read as the share of each
// destination's runtime spent falsely declared a hotspot (detection is the
// destination's act, §IV-B2), averaged over the destinations, it meets both
// clauses with the 4,000-cycle destination epoch; read as the share of a
// flow's runtime throttled (throttledShare), it is below the band at 512
// nodes under every epoch measured and reaches it at 64 nodes only deep in
// saturation (engine/REPRODUCTION.md, "The false detections' share of
// runtime at saturation"). Scaled to the 64-node 2D network (4×4
// routers of 4 nodes), UR with 4-packet messages, 20,000 + 20,000 cycles,
// seed 1: at 0.5 (UGAL) no hotspot; at 0.9 offered (saturated: 0.864 and
// 0.866 accepted) MIN 1.41% and UGAL 1.51% of destination-time declared
// (flows throttled 0.52% and 0.39% of their time); at 0.8 (0.798 and 0.801
// accepted, the knee) 1.60% and 1.35% (0.43%, 0.39%), at 1.0 3.6% and 3.6%
// (1.09%, 1.03%); at 512 nodes, UR 0.8 (10,000 + 10,000 cycles), 0.65% and
// 1.20% (0.17%, 0.28%); with router.injectionVoq=perQueue at 0.9 (0.877 and
// 0.879 accepted) 1.65% and 1.16% (0.53%, 0.30%). Asserted: none at 0.5, and at 0.9 the network
// saturated (accepted below 0.98 of the offered), the destination-time
// share in [0.5%, 6%] under MIN and UGAL and the flows' share below it (a
// declared destination throttles only some of the flows to it, for part of
// its declared time). 1.2 s of CPU.
func TestCBCMFalseDetectionShareAtSaturationScaled(t *testing.T) {
	for _, tc := range []struct {
		rt   string
		load float64
	}{{"UGAL", 0.5}, {"MIN", 0.9}, {"UGAL", 0.9}} {
		dest, flow, hot, acc := cbcmDeclaredShare(t, tc.rt, tc.load, 1)
		t.Logf("%s at %.1f: accepted %.4f, %v hotspots; destination-time declared %.3f%%, flow-time throttled %.3f%% (the paper: < 0.001%% at 0.5, 2.2%% at saturation)", tc.rt, tc.load, acc, hot, 100*dest, 100*flow)
		if tc.load == 0.5 {
			if hot != 0 || dest != 0 {
				t.Errorf("%s at 0.5: %v hotspots, %.4f%% of destination-time declared; want none (< 0.001%%)", tc.rt, hot, 100*dest)
			}
			continue
		}
		if acc > 0.98*tc.load {
			t.Errorf("%s at %.1f: accepted %.4f; the test needs the network saturated", tc.rt, tc.load, acc)
		}
		if dest < 0.005 || dest > 0.06 {
			t.Errorf("%s at %.1f: %.3f%% of destination-time declared; want 0.5–6%% (the paper's 2.2%%)", tc.rt, tc.load, 100*dest)
		}
		if flow >= dest {
			t.Errorf("%s at %.1f: flows throttled %.3f%% of their time, destinations declared %.3f%%; want the flows' share the lower", tc.rt, tc.load, 100*flow, 100*dest)
		}
	}
}
