package topology

import (
	"slices"
	"testing"
)

// fbflyCases: the paper's three networks (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-A) and small lopsided
// ones.
var fbflyCases = []Params{
	{Kind: "fbfly", Dims: 1, K: 4, P: 4}, {Kind: "fbfly", Dims: 1, K: 16, P: 16}, {Kind: "fbfly", Dims: 2, K: 8, P: 8},
	{Kind: "fbfly", Dims: 1, K: 2, P: 1}, {Kind: "fbfly", Dims: 2, K: 3, P: 2}, {Kind: "fbfly", Dims: 2, K: 5, P: 1},
}

// Every flattened butterfly keeps the Topology contract, its kind's sizes
// and ports per class are the built network's, and its links are exactly
// the paper's: every pair of routers that differ in one coordinate is
// joined by one link, no other pair. The paper's radixes: 7, 31, 22.
func TestFBFlyStructure(t *testing.T) {
	for _, p := range fbflyCases {
		// sizes, ports per class and Check: TestKindSizesMatchTheBuiltTopology
		topo, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		f := topo.(*FBFly)
		linked := map[[2]int]int{}
		for r := 0; r < f.Routers(); r++ {
			for q := 0; q < f.Radix(); q++ {
				if peer, _ := f.Link(r, q); peer >= 0 {
					linked[[2]int{r, peer}]++
				}
			}
		}
		for a := 0; a < f.Routers(); a++ {
			for b := 0; b < f.Routers(); b++ {
				differ := 0
				for d := 0; d < f.Dims; d++ {
					if f.Coord(a, d) != f.Coord(b, d) {
						differ++
					}
				}
				if want := map[bool]int{true: 1, false: 0}[differ == 1]; linked[[2]int{a, b}] != want {
					t.Fatalf("%s: routers %d and %d (differing in %d coordinates) joined by %d links, want %d", f.Name(), a, b, differ, linked[[2]int{a, b}], want)
				}
			}
		}
	}
	for i, want := range []Sizes{{4, 16, 7, 1}, {16, 256, 31, 1}, {64, 512, 22, 1}} {
		k, _ := KindOf("fbfly")
		if got := k.Sizes(fbflyCases[i]); got != want {
			t.Errorf("%+v: %+v, want %+v", fbflyCases[i], got, want)
		}
	}
}

// Dimension order: from every router to every other, the walk of
// MinimalPort takes one x hop if the columns differ, then one y hop if the
// rows do, and arrives in Hops hops; node n is on router ⌊n/c⌋ at port
// n mod c, router r at column r mod k, row ⌊r/k⌋ (the paper's r = x + 8·y).
func TestFBFlyDimensionOrder(t *testing.T) {
	for _, p := range fbflyCases {
		f, _ := NewFBFly(p.Dims, p.K, p.P)
		for n := 0; n < f.Nodes(); n++ {
			if r, port := f.NodePort(n); r != n/p.P || port != n%p.P {
				t.Fatalf("%s: node %d on router %d port %d", f.Name(), n, r, port)
			}
		}
		for s := 0; s < f.Routers(); s++ {
			for d := 0; d < f.Routers(); d++ {
				if s == d {
					continue
				}
				var dims []int
				r := s
				for r != d && len(dims) < 3 {
					port := f.MinimalPort(r, d)
					if got := f.MinimalPorts(r, d, nil); !slices.Equal(got, []int{port}) {
						t.Fatalf("MinimalPorts %v, MinimalPort %d", got, port)
					}
					dims = append(dims, (port-f.C)/(f.K-1))
					r, _ = f.Link(r, port)
				}
				want := []int{}
				if s%f.K != d%f.K {
					want = append(want, 0)
				}
				if s/f.K != d/f.K {
					want = append(want, 1)
				}
				if r != d || !slices.Equal(dims, want) || f.Hops(s, d) != len(want) {
					t.Fatalf("%s: %d→%d ends at %d through dimensions %v (Hops %d), want %v", f.Name(), s, d, r, dims, f.Hops(s, d), want)
				}
			}
		}
	}
}

// The bisection: the links between the halves of a split along x, counted
// on the built network, are BisectionLinks (16-node 1D: 4; 256-node: 64;
// 512-node 2D: 128), so UR offers each node at most 4·B/N = 1 phit/cycle.
func TestFBFlyBisection(t *testing.T) {
	for _, p := range fbflyCases {
		f, _ := NewFBFly(p.Dims, p.K, p.P)
		cut := 0
		for r := 0; r < f.Routers(); r++ {
			for q := f.C; q < f.Radix(); q++ {
				peer, _ := f.Link(r, q)
				if r%f.K < f.K/2 && peer%f.K >= f.K/2 {
					cut++
				}
			}
		}
		if got := BisectionLinks(p.Dims, p.K); got != cut {
			t.Errorf("%s: BisectionLinks %d, counted %d", f.Name(), got, cut)
		}
	}
}

// Fill: a form switching to the flattened butterfly gets the paper's
// 16-node network (its parameters out of range: TestKindCheckNamesTheField).
func TestFBFlyFill(t *testing.T) {
	p := Params{Kind: "fbfly"}
	fbflyKind.Fill(&p)
	if p.Dims != 1 || p.K != 4 || p.P != 4 {
		t.Errorf("Fill: %+v", p)
	}
}
