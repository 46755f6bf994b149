package traffic

import (
	"testing"

	"phitsim/engine/rng"
)

// UR1UR2 (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks, Figs. 5b and 8c): on the 16-node network (4 routers
// of 4) and a 5-per-router one (halves of 2 and 3), every node reaches
// every other node of its own half-class, uniformly (each within 25% of its
// share over 20,000 draws), and never one of the other class or itself.
func TestUR1UR2StaysWithinEachHalf(t *testing.T) {
	for _, net := range []fbNet{{16, 4}, {20, 5}} {
		pt, err := New(Spec{Kind: UR1UR2}, net, 1)
		if err != nil {
			t.Fatal(err)
		}
		s := rng.New(1, rng.Generator, 0)
		for src := range net.n {
			g := pt.Group(src)
			members := 0
			for n := range net.n {
				if pt.Group(n) == g {
					members++
				}
			}
			count := make([]int, net.n)
			const draws = 20000
			for range draws {
				count[pt.Dest(src, &s)]++
			}
			want := float64(draws) / float64(members-1)
			for d, c := range count {
				same := pt.Group(d) == g && d != src
				if !same && c != 0 || same && (float64(c) < 0.75*want || float64(c) > 1.25*want) {
					t.Fatalf("%v: node %d (class %d) → node %d (class %d) %d times, want %.0f for its class, 0 otherwise", net, src, g, d, pt.Group(d), c, want)
				}
			}
		}
	}
	// one node per router: the lower half is empty, every node is UR2
	if pt, err := New(Spec{Kind: UR1UR2}, fbNet{8, 1}, 1); err != nil || pt.Group(0) != 1 {
		t.Fatalf("UR1UR2 with 1 node per router: %v", err)
	}
}
