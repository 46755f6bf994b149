package netview

import (
	"math"
	"reflect"
	"testing"

	"phitsim/engine/topology"
)

func build(t *testing.T, p topology.Params) topology.Topology {
	t.Helper()
	tp, err := topology.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// checkLayout: positions finite and in the unit square, NodeOf consistent
// with Nodes' Routers, and every connected transit port of t in exactly one
// edge, between the nodes of its two routers.
func checkLayout(t *testing.T, tp topology.Topology, l Layout) {
	t.Helper()
	for i, n := range l.Nodes {
		if math.IsNaN(n.X) || math.IsNaN(n.Y) || n.X < 0 || n.X > 1 || n.Y < 0 || n.Y > 1 {
			t.Fatalf("%s: node %d at (%v, %v)", tp.Name(), i, n.X, n.Y)
		}
		for _, r := range n.Routers {
			if l.NodeOf[r] != i {
				t.Fatalf("%s: router %d in node %d, NodeOf says %d", tp.Name(), r, i, l.NodeOf[r])
			}
		}
	}
	seen := map[Port]int{}
	for _, e := range l.Edges {
		if e.Class == topology.Injection { // a fat tree's hosts: their leaf's host ports
			hs := l.Nodes[e.From].Hosts
			for i, p := range e.Ports {
				if r, hp := hostPort(tp, hs[i/2]); p != (Port{r, hp}) || l.NodeOf[r] != e.To {
					t.Fatalf("%s: host %d's edge on port %v to node %d; its leaf port is (%d, %d)", tp.Name(), hs[i/2], p, e.To, r, hp)
				}
			}
			continue
		}
		for _, p := range e.Ports {
			seen[p]++
			pr, _ := tp.Link(p.Router, p.Port)
			if a, b := l.NodeOf[p.Router], l.NodeOf[pr]; !(a == e.From && b == e.To || a == e.To && b == e.From) {
				t.Fatalf("%s: port %v in edge %d–%d, its link joins nodes %d–%d", tp.Name(), p, e.From, e.To, a, b)
			}
		}
	}
	for r := 0; r < tp.Routers(); r++ {
		for p := 0; p < tp.Radix(); p++ {
			c := tp.PortClass(r, p)
			if c == topology.Injection {
				continue
			}
			pr, _ := tp.Link(r, p)
			want := 1
			if pr < 0 || l.Aggregated && c != topology.Global {
				want = 0
			}
			if n := seen[Port{r, p}]; n != want {
				t.Fatalf("%s: port %d of router %d drawn %d times, want %d", tp.Name(), p, r, n, want)
			}
		}
	}
}

// Dragonflies up to h=4 router by router, groups on a circle; h=5 and h=8
// one node per group and one edge per group pair (G(G−1)/2 edges).
func TestDragonflyLayout(t *testing.T) {
	for _, h := range []int{1, 2, 4, 5, 8} {
		tp := build(t, topology.Params{Kind: "dragonfly", H: h, A: 2 * h, P: h, Arrangement: "palmtree"})
		d := tp.(*topology.Dragonfly)
		l := New(tp)
		checkLayout(t, tp, l)
		if h <= MaxDetailedH {
			if l.Aggregated || len(l.Nodes) != d.Routers() {
				t.Fatalf("h=%d: %d nodes (aggregated %v), want a node per router", h, len(l.Nodes), l.Aggregated)
			}
			// groups apart: every router nearer its own group's centre
			// than any other group's router
			centre := make([]Node, d.G)
			for r, n := range l.Nodes {
				g := d.GroupOf(r)
				centre[g].X += n.X / float64(d.A)
				centre[g].Y += n.Y / float64(d.A)
			}
			for r, n := range l.Nodes {
				own := dist(n, centre[d.GroupOf(r)])
				for q, m := range l.Nodes {
					if d.GroupOf(q) != d.GroupOf(r) && d.G > 1 && dist(m, centre[d.GroupOf(r)]) <= own {
						t.Fatalf("h=%d: router %d of group %d as near its group's centre as router %d", h, q, d.GroupOf(q), r)
					}
				}
			}
			continue
		}
		if !l.Aggregated || len(l.Nodes) != d.G || len(l.Edges) != d.G*(d.G-1)/2 {
			t.Fatalf("h=%d: %d nodes, %d edges (aggregated %v), want %d groups and %d group pairs", h, len(l.Nodes), len(l.Edges), l.Aggregated, d.G, d.G*(d.G-1)/2)
		}
	}
}

// hostPort is host h's leaf switch and port on a fat tree.
func hostPort(tp topology.Topology, h int) (int, int) {
	return tp.(*topology.FatTree).NodePort(h)
}

func dist(a, b Node) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

// The other kinds: a mesh as its grid, a flattened butterfly and a fat tree
// by the force layout; every link once, positions apart.
func TestGenericLayout(t *testing.T) {
	for _, p := range []topology.Params{
		{Kind: "mesh", Width: 4, Height: 3, P: 1},
		{Kind: "fbfly"},
		{Kind: "fattree"},
	} {
		k, err := topology.KindOf(p.Kind)
		if err != nil {
			t.Fatal(err)
		}
		k.Fill(&p) // the fields left at zero
		tp := build(t, p)
		l := New(tp)
		checkLayout(t, tp, l)
		for i := range l.Nodes {
			for j := i + 1; j < len(l.Nodes); j++ {
				if dist(l.Nodes[i], l.Nodes[j]) < 0.01 {
					t.Fatalf("%s: nodes %d and %d on top of each other", tp.Name(), i, j)
				}
			}
		}
	}
}

// Use: the busier direction of a link.
func TestEdgeUse(t *testing.T) {
	e := Edge{Ports: []Port{{0, 1}, {1, 2}}}
	link := map[int]float64{0*4 + 1: 0.2, 1*4 + 2: 0.9}
	if u := e.Use(func(pi int) float64 { return link[pi] }, 4); u != 0.9 {
		t.Errorf("Use %v, want 0.9", u)
	}
}

// Fat trees (RECN paper §4.1's 64-, 256- and 512-host networks) as their
// stages: every switch of a stage in one row, the stages bottom-up from
// the hosts to the top switches, a stage in address order; every host
// under its own leaf switch (one node per host up to 64 hosts, per leaf
// beyond), joined to it by one edge; every link drawn once; the same
// layout every time.
func TestFatTreeLayout(t *testing.T) {
	for _, tc := range []struct{ k, n, m, nodes int }{{4, 3, 0, 48 + 64}, {4, 4, 0, 256 + 64}, {4, 5, 2, 640 + 128}} {
		tp := build(t, topology.Params{Kind: "fattree", K: tc.k, Stages: tc.n, Subtrees: tc.m})
		f := tp.(*topology.FatTree)
		l := New(tp)
		checkLayout(t, tp, l)
		if len(l.Nodes) != tc.nodes {
			t.Fatalf("%s: %d nodes, want %d", tp.Name(), len(l.Nodes), tc.nodes)
		}
		per := f.Routers() / f.N
		for r := 0; r < f.Routers(); r++ {
			nd, first := l.Nodes[r], l.Nodes[r-r%per]
			if nd.Y != first.Y {
				t.Fatalf("%s: switch %d of stage %d at y %v, its stage's first at %v", tp.Name(), r, f.Level(r), nd.Y, first.Y)
			}
			if r%per > 0 && nd.X <= l.Nodes[r-1].X {
				t.Fatalf("%s: switch %d left of switch %d in stage %d", tp.Name(), r, r-1, f.Level(r))
			}
			if st := f.Level(r); st > 0 && nd.Y >= l.Nodes[r-per].Y {
				t.Fatalf("%s: stage %d (y %v) not above stage %d (y %v)", tp.Name(), st, nd.Y, st-1, l.Nodes[r-per].Y)
			}
		}
		seen := make([]int, f.Nodes())
		hostNodes := 0
		for _, nd := range l.Nodes[f.Routers():] {
			hostNodes++
			if len(nd.Routers) != 0 || len(nd.Hosts) == 0 || nd.Y <= l.Nodes[0].Y {
				t.Fatalf("%s: host node %+v: want hosts only, below the leaves", tp.Name(), nd)
			}
			for _, h := range nd.Hosts {
				seen[h]++
				leaf, _ := f.NodePort(h)
				// under its leaf: within the leaf's share of the row
				if d := math.Abs(nd.X - l.Nodes[leaf].X); d > 0.45/float64(per) {
					t.Fatalf("%s: host %d at x %v, %v from its leaf %d", tp.Name(), h, nd.X, d, leaf)
				}
			}
		}
		for h, n := range seen {
			if n != 1 {
				t.Fatalf("%s: host %d drawn %d times", tp.Name(), h, n)
			}
		}
		edges := 0
		for _, e := range l.Edges {
			if e.Class == topology.Injection {
				edges++
			}
		}
		if edges != hostNodes {
			t.Fatalf("%s: %d host edges for %d host nodes", tp.Name(), edges, hostNodes)
		}
		if !reflect.DeepEqual(l, New(tp)) {
			t.Fatalf("%s: two layouts differ", tp.Name())
		}
	}
}
