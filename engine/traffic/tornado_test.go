package traffic

import (
	"testing"

	"phitsim/engine/rng"
)

// fbNet is a flattened butterfly as a pattern sees it: n nodes, c per
// router (the simulator passes this for topology.kind=fbfly).
type fbNet struct{ n, c int }

func (f fbNet) Nodes() int                  { return f.n }
func (f fbNet) NodesPerRouter() int         { return f.c }
func (fbNet) RoutersPerGroup() int          { return 1 }
func (f fbNet) Groups() int                 { return f.n / f.c }
func (fbNet) LinkedGroups(router int) []int { return nil }

// TORNADO is the permutation n → (n + c) mod N (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks: n → n+4 on 16 nodes,
// n → n+8 on 512); TORNADO_RAND sends every node of router R_i to the
// nodes of R_{i+1} (mod the routers), each about equally often.
func TestTornadoPatterns(t *testing.T) {
	for _, net := range []fbNet{{16, 4}, {512, 8}} {
		pt, err := New(Spec{Kind: TORNADO}, net, 1)
		if err != nil {
			t.Fatal(err)
		}
		s := rng.New(1, rng.Generator, 0)
		hit := make([]bool, net.n)
		for n := 0; n < net.n; n++ {
			d := pt.Dest(n, &s)
			if d != (n+net.c)%net.n || hit[d] {
				t.Fatalf("%v: TORNADO %d → %d (hit before %v)", net, n, d, hit[d])
			}
			hit[d] = true
		}
		pr, err := New(Spec{Kind: TORNADO_RAND}, net, 1)
		if err != nil {
			t.Fatal(err)
		}
		const draws = 8000
		for _, src := range []int{0, net.n - 1, net.c + 1} {
			count := make([]int, net.n)
			for range draws {
				count[pr.Dest(src, &s)]++
			}
			next := (src/net.c + 1) % (net.n / net.c)
			for d, k := range count {
				in := d/net.c == next
				if !in && k != 0 || in && (k < draws/net.c*8/10 || k > draws/net.c*12/10) {
					t.Fatalf("%v: TORNADO_RAND from %d sends %d of %d packets to node %d (router %d, want router %d evenly)", net, src, k, draws, d, d/net.c, next)
				}
			}
		}
	}
}
