package topology

import (
	"slices"
	"strings"
	"testing"
)

// fattreeCases: the RECN paper's networks (Duato et al., "A New Scalable
// and Cost-Effective Congestion Management Strategy for Lossless
// Multistage Interconnection Networks" §4.1: 64 hosts / 48 switches / 3
// stages, 256 / 256 / 4, 512 / 640 / 5) and small lopsided ones.
var fattreeCases = []Params{
	{Kind: "fattree", K: 4, Stages: 3}, {Kind: "fattree", K: 4, Stages: 4}, {Kind: "fattree", K: 4, Stages: 5, Subtrees: 2},
	{Kind: "fattree", K: 2, Stages: 2}, {Kind: "fattree", K: 3, Stages: 3}, {Kind: "fattree", K: 2, Stages: 5},
	{Kind: "fattree", K: 4, Stages: 2, Subtrees: 2}, {Kind: "fattree", K: 6, Stages: 3, Subtrees: 3},
}

// newFatTree builds a case.
func newFatTree(t *testing.T, p Params) *FatTree {
	t.Helper()
	topo, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return topo.(*FatTree)
}

// label is switch r's S(l, a, b) (a top switch T(b, v): a = v), computed
// from the numbering the doc gives, apart from Link's arithmetic.
func (f *FatTree) label(r int) (l, a, b int) {
	l, i := r/f.perLevel, r%f.perLevel
	if l == f.N-1 {
		return l, i / f.pow[l-1], i % f.pow[l-1]
	}
	return l, i / f.pow[l], i % f.pow[l]
}

// The paper's sizes, and every up link is the shuffle's: up port u of
// S(l, a, b) reaches down port a mod k of S(l+1, ⌊a/k⌋, b·u) (b·u: u
// appended as digit l), and up port u of S(N−2, a, b) reaches down port
// a·g + u mod g of T(b, ⌊u/g⌋) (g = k/M); every down link of a non-leaf is
// the far end of exactly one such up link; leaves' down ports hold hosts
// k·s … k·s+k−1; the top's up ports are unconnected.
func TestFatTreeStructure(t *testing.T) {
	for i, want := range []Sizes{{48, 64, 8, 1}, {256, 256, 8, 1}, {640, 512, 8, 1}} {
		k, _ := KindOf("fattree")
		if got := k.Sizes(fattreeCases[i]); got != want {
			t.Errorf("%+v: %+v, want %+v", fattreeCases[i], got, want)
		}
	}
	for _, p := range fattreeCases {
		// Check, sizes and ports per class: TestKindSizesMatchTheBuiltTopology
		f := newFatTree(t, p)
		g := f.K / f.M
		downs := map[[2]int]int{} // (switch, down port) → up links reaching it
		for r := 0; r < f.Routers(); r++ {
			l, a, b := f.label(r)
			for u := 0; u < f.K; u++ {
				peer, pp := f.Link(r, f.K+u)
				if l == f.N-1 {
					if peer != -1 || pp != -1 {
						t.Fatalf("%s: top switch %d up port %d linked to %d:%d", f.Name(), r, u, peer, pp)
					}
					continue
				}
				pl, pa, pb := f.label(peer)
				wa, wb, wport := a/f.K, b+u*f.pow[l], a%f.K
				if l+1 == f.N-1 {
					wa, wb, wport = u/g, b, a*g+u%g
				}
				if pl != l+1 || pa != wa || pb != wb || pp != wport {
					t.Fatalf("%s: S(%d,%d,%d) up %d reaches S(%d,%d,%d) port %d, want S(%d,%d,%d) down %d",
						f.Name(), l, a, b, u, pl, pa, pb, pp, l+1, wa, wb, wport)
				}
				downs[[2]int{peer, pp}]++
			}
			for c := 0; c < f.K; c++ {
				if l == 0 {
					continue
				}
				if n := downs[[2]int{r, c}]; n > 1 {
					t.Fatalf("%s: switch %d down %d reached by %d up links", f.Name(), r, c, n)
				}
			}
		}
		for r := f.perLevel; r < f.Routers(); r++ {
			for c := 0; c < f.K; c++ {
				if downs[[2]int{r, c}] != 1 {
					t.Fatalf("%s: switch %d (level %d) down port %d reached by %d up links", f.Name(), r, f.Level(r), c, downs[[2]int{r, c}])
				}
			}
		}
		for h := 0; h < f.Nodes(); h++ {
			if r, q := f.NodePort(h); r != h/f.K || q != h%f.K || f.Level(r) != 0 {
				t.Fatalf("%s: host %d on switch %d port %d", f.Name(), h, r, q)
			}
		}
	}
}

// walk follows Port from host s's leaf to host d's and returns the
// switches crossed and the ports taken (the last one d's host port).
func (f *FatTree) walk(s, d int) (switches []int, ports []int) {
	r, _ := f.NodePort(s)
	dr, _ := f.NodePort(d)
	for len(switches) <= 2*f.N {
		switches = append(switches, r)
		q := f.Port(r, d)
		ports = append(ports, q)
		if r == dr {
			break
		}
		r, _ = f.Link(r, q)
	}
	return switches, ports
}

// D-mod-k (RECN paper §4.1, routing deterministic; the construction's
// up/down routing): from every host to every other, the route climbs
// LCALevel levels taking up port d_l(dest) at level l, then descends
// taking down port d_l(dest), crossing 2·LCALevel+1 switches and ending on
// dest's port of its leaf; every port it takes is among MinimalPorts (the
// paths the channel dependency check walks); the top switch it crosses
// depends only on the destination.
func TestFatTreeDModK(t *testing.T) {
	for _, p := range fattreeCases {
		f := newFatTree(t, p)
		if f.Nodes() > 256 {
			continue // 512 hosts: 261,632 routes; the others cover the arithmetic
		}
		g := f.K / f.M
		for s := 0; s < f.Nodes(); s++ {
			for d := 0; d < f.Nodes(); d++ {
				if s == d {
					continue
				}
				sw, ports := f.walk(s, d)
				L := f.LCALevel(s, d)
				if len(sw) != 2*L+1 || sw[len(sw)-1] != d/f.K || ports[len(ports)-1] != d%f.K {
					t.Fatalf("%s %d→%d: switches %v ports %v, want %d switches ending on leaf %d port %d", f.Name(), s, d, sw, ports, 2*L+1, d/f.K, d%f.K)
				}
				for j, r := range sw {
					l, q := f.Level(r), ports[j]
					want := f.K + f.Digit(d, l) // up
					if j >= L {
						want = f.Digit(d, l) // down
						if l == f.N-1 {
							want = f.Digit(d, l)*g + f.Digit(d, l-1)%g
						}
					}
					if l != min(j, 2*L-j) || q != want {
						t.Fatalf("%s %d→%d: hop %d at level %d port %d, want level %d port %d", f.Name(), s, d, j, l, q, min(j, 2*L-j), want)
					}
					if j < len(sw)-1 && !slices.Contains(f.MinimalPorts(r, d/f.K, nil), q) {
						t.Fatalf("%s %d→%d: port %d at switch %d not among MinimalPorts %v", f.Name(), s, d, q, r, f.MinimalPorts(r, d/f.K, nil))
					}
				}
				if L == f.N-1 {
					// the top switch T(d_0…d_{N−3}, ⌊d_{N−2}/g⌋)
					top := f.Routers() - f.perLevel + f.Digit(d, f.N-2)/g*f.pow[f.N-2] + d%f.pow[f.N-2]
					if sw[L] != top {
						t.Fatalf("%s %d→%d: top switch %d, want %d", f.Name(), s, d, sw[L], top)
					}
				}
			}
		}
	}
}

// The paths of the 64-host network (RECN paper §4.1) spelled out: host 5
// (digits 1,1,0) to host 46 (2,3,2) climbs leaf 1 by up port d_0 = 2, the
// level-1 switch by up port d_1 = 3, reaches top S(2, ·, b = 2 + 3·4 = 14)
// and descends by d_2 = 2, d_1 = 3, d_0 = 2; host 5 to host 6 stays on leaf
// 1.
func TestFatTree64Paths(t *testing.T) {
	f := newFatTree(t, fattreeCases[0])
	for _, c := range []struct {
		s, d      int
		sw, ports []int
	}{
		{5, 46, []int{1, 16 + 0*4 + 2, 32 + 14, 16 + 2*4 + 2, 11}, []int{4 + 2, 4 + 3, 2, 3, 2}},
		{5, 6, []int{1}, []int{2}},
		{5, 9, []int{1, 16 + 0*4 + 1, 2}, []int{4 + 1, 2, 1}},
	} {
		sw, ports := f.walk(c.s, c.d)
		if !slices.Equal(sw, c.sw) || !slices.Equal(ports, c.ports) {
			t.Errorf("%d→%d: switches %v ports %v, want %v %v", c.s, c.d, sw, ports, c.sw, c.ports)
		}
	}
}

// Full bisection: under uniform traffic (every host to every other, 1/(N−1)
// of its load each) D-mod-k loads no directed switch link above 1 and
// leaves none unused — at load 1 the host links are the bottleneck.
func TestFatTreeEveryLinkCarriesUR(t *testing.T) {
	for _, p := range fattreeCases {
		f := newFatTree(t, p)
		if f.Nodes() > 256 {
			continue
		}
		pairs := map[[2]int]int{}
		for s := 0; s < f.Nodes(); s++ {
			for d := 0; d < f.Nodes(); d++ {
				if s != d {
					sw, ports := f.walk(s, d)
					for j := range len(sw) - 1 {
						pairs[[2]int{sw[j], ports[j]}]++
					}
				}
			}
		}
		for r := 0; r < f.Routers(); r++ {
			for q := 0; q < f.Radix(); q++ {
				if peer, _ := f.Link(r, q); peer < 0 {
					continue
				}
				n := pairs[[2]int{r, q}]
				if n == 0 || n > f.Nodes()-1 {
					t.Fatalf("%s: switch %d port %d carries %d of the %d pairs of a source (load %.3f)", f.Name(), r, q, n, f.Nodes()-1, float64(n)/float64(f.Nodes()-1))
				}
			}
		}
	}
}

// Bisection: N/2 links each way for the paper's networks.
func TestFatTreeBisection(t *testing.T) {
	for i, want := range []int{32, 128, 256} {
		p := fattreeCases[i]
		if got := FatTreeBisectionLinks(p.K, p.Stages, fatTreeM(p)); got != want {
			t.Errorf("%+v: %d, want %d", p, got, want)
		}
	}
}

// Fill gives the 64-host network; the field errors name the field.
func TestFatTreeFillAndCheck(t *testing.T) {
	p := Params{Kind: "fattree"}
	fattreeKind.Fill(&p)
	if f := newFatTree(t, p); f.Nodes() != 64 || f.Routers() != 48 {
		t.Errorf("Fill: %s", f.Name())
	}
	for _, c := range []struct {
		p    Params
		want string
	}{
		{Params{Kind: "fattree", K: 1, Stages: 3}, "topology.k: 1 down ports per switch of the fat tree; it must be 2 to 16"},
		{Params{Kind: "fattree", K: 4, Stages: 1}, "topology.stages: 1 stages of the fat tree; it must be 2 to 16"},
		{Params{Kind: "fattree", K: 4, Stages: 3, Subtrees: 3}, "topology.subtrees: 3 does not divide topology.k=4"},
		{Params{Kind: "fattree", K: 4, Stages: 3, Subtrees: 5}, "topology.subtrees: 5 subtrees under the top stage; it must be 2 to 4"},
		{Params{Kind: "fattree", K: 4, Stages: 3, Subtrees: 1}, "topology.subtrees: 1 subtrees under the top stage; it must be 2 to 4"},
		{Params{Kind: "fattree", K: 16, Stages: 5}, "topology.stages: 5 stages of k=16 make more than 65536 hosts"},
	} {
		if _, err := New(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
}
