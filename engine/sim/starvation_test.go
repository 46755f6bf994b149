package sim

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// UGAL under Kim et al.'s Fig. 2 hotspot (Contention-based Congestion
// Management in Large-Scale Networks §V-A: 16-node 1D flattened butterfly,
// senders 0, 5, 8, 12 → 4, no background), full size, 1 seed: transit heads
// wait past the stuck-head bound (28,775 cycles) while the hotspot keeps
// receiving 1 phit/cycle. Each waits for an output that other inputs keep
// using — starvation, not a cycle of waits — and the report says so
// (deadlock.go's starved; the fault tests keep real deadlocks "stuck").
// The report names the starved heads, not the heads queued behind them
// upstream: a head whose next buffer is full and takes no other packet
// waits its turn in a tree of waits (deadlock.go's fairSlow), so with rr
// router 0's heads for router 1's starved buffer (listed until that rule)
// are left out and router 1 is named alone.
//
// With router.inputArbiter=rr (FOGSim's: the pointer moves when a VC
// requests) the links into the hotspot's router each request the ejection
// port 4 times per grant (4 inputs share it), an even period, so each
// presents the same VC at every grant: VC 0 of the links from routers 2
// and 3 is never served, and senders 8 and 12 get nothing. With rrgrant
// (BookSim's separable input-first allocator: the pointer moves at grant)
// every sender gets bandwidth, but the output stage of router 2 toward
// router 1 still starves one input: its requests alternate between cycles
// when only VC 0 has credits (one input asks) and cycles when VC 1 has (two
// ask), and the round-robin pointer, moved past the lone VC-0 input each
// time, always reaches the same VC-1 input first.
func TestHotspotUGALStarvation(t *testing.T) {
	for _, tc := range []struct {
		arb     string
		routers string
		zero    bool // senders 8 and 12 starved
	}{{"rr", "[1]", true}, {"rrgrant", "[2 3]", false}} {
		c := hotspotConfig("UGAL", "0,5,8,12", 4, 0)
		c.Router.InputArbiter = tc.arb
		c.Router.Voq = false                  // the grant traces above are the router without VOQs (with them UGAL starves too, on routers 1 and 3 with rr)
		c.Routing.UgalIntermediate = "detour" // the traces above: every Valiant draw a detour (with BookSim's draw, the default, rr starves router 1 only and rrgrant does not starve)
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Run(context.Background(), nil)
		var de *DeadlockError
		if !errors.As(err, &de) {
			t.Fatalf("%s: %v, want the stuck-head check to stop the run", tc.arb, err)
		}
		if de.Reason != "starvation" || fmt.Sprint(de.Routers) != tc.routers {
			t.Errorf("%s: reason %q on routers %v, want starvation on %s: %s", tc.arb, de.Reason, de.Routers, tc.routers, de.Error())
		}
		h := r.Hotspot
		if h.Hotspot.Accepted < 0.95 {
			t.Errorf("%s: the hotspot receives %.3f phits/cycle, want ≈ 1 (the network moves)", tc.arb, h.Hotspot.Accepted)
		}
		for i, n := range h.Senders {
			if starvedSender := n == 8 || n == 12; (h.SenderAccepted[i] == 0) != (tc.zero && starvedSender) {
				t.Errorf("%s: sender %d receives %.4f phits/cycle", tc.arb, n, h.SenderAccepted[i])
			}
		}
		t.Logf("%s: %s; senders %v get %.3f", tc.arb, de.Error(), h.Senders, h.SenderAccepted)
	}
}
