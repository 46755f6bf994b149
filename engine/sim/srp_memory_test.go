package sim

import (
	"testing"

	"phitsim/engine/config"
)

// SRP's one queue of pending message sizes (srpSizes): runs of equal sizes
// per flow, in order, a freed run reused. Messages 4, 4, 1, 4 on one flow
// and 2 on another of the same node take 4 runs (4×2, 1, 4; 2) and come
// back in order; the freed runs are reused, so the node's pool does not
// grow past its high-water mark.
func TestSRPPendingSizesInOrder(t *testing.T) {
	var q srpSizes
	q.init(3)
	f, g := 0*3+1, 0*3+2
	for _, p := range []int32{4, 4, 1, 4} {
		q.push(0, f, p)
	}
	q.push(0, g, 2)
	if len(q.pool[0]) != 4 {
		t.Fatalf("%d runs, want 4 (4×2, 1, 4; 2)", len(q.pool[0]))
	}
	var got []int32
	for p := q.pop(0, f); p != 0; p = q.pop(0, f) {
		got = append(got, p)
	}
	if want := []int32{4, 4, 1, 4}; len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("popped %v, want %v", got, want)
	}
	q.push(0, f, 3)
	q.push(0, f, 1)
	if p1, p2, p3 := q.pop(0, g), q.pop(0, f), q.pop(0, f); p1 != 2 || p2 != 3 || p3 != 1 || q.pop(0, f) != 0 || q.pop(0, g) != 0 {
		t.Errorf("popped %d, %d, %d, want 2, 3, 1 and then none", p1, p2, p3)
	}
	if len(q.pool[0]) != 4 {
		t.Errorf("pool grew to %d runs, want the 4 reused", len(q.pool[0]))
	}
}

// The memory estimate's bounds on SRP's pending runs
// (config.SRPPendingRuns) and transmission slots (config.SRPSlots) hold
// where they are most: the runs a run's
// nodes ever held at once (each node's pool at its high-water mark) beside
// the Graph500 job of Kim et al. §V-C's hotspot mix on the 256-node 1D
// flattened butterfly (scale 8, SRP(UGAL), to the job's end), and the
// 16-node network's UR at 1.0 (every flow's queue backlogged).
func TestSRPPendingRunsWithinTheEstimate(t *testing.T) {
	job := config.KimTraceHotspot(16, 16, 2, 8, 20000, true)
	job.Routing.Name, job.Routing.UgalIntermediate, job.Congestion.Scheme = "UGAL", "any", "srp"
	ur := srpConfig("srp", "MIN", 1)
	ur.Sim.Cycles = 20000
	for _, tc := range []struct {
		name string
		c    config.Config
	}{{"256 nodes beside the job", job}, {"16 nodes, UR 1.0", ur}} {
		s, _ := btSimState(t, tc.c, 1)
		m := s.srpOf()
		held, most := 0, 0
		for _, p := range m.pend.pool {
			held += len(p)
			most = max(most, len(p))
		}
		bound, how := tc.c.SRPPendingRuns()
		t.Logf("%s: %d runs held at most (%d at one node), the estimate's bound %.0f (%s)", tc.name, held, most, bound, how)
		if held == 0 || float64(held) > bound {
			t.Errorf("%s: %d runs held, the estimate's bound %.0f", tc.name, held, bound)
		}
		// the transmission slots (srp.book): each node's slice at its
		// capacity, within the estimate's bound grown by append (2×)
		slots := 0
		for _, x := range m.tx {
			slots += cap(x)
		}
		t.Logf("%s: transmission slots' capacity %d, the estimate's bound %.0f × 2", tc.name, slots, tc.c.SRPSlots())
		if slots == 0 || float64(slots) > 2*tc.c.SRPSlots() {
			t.Errorf("%s: %d transmission slots, the estimate's bound %.0f × 2", tc.name, slots, tc.c.SRPSlots())
		}
	}
}
