package topology

import (
	"slices"
	"strings"
	"testing"
)

// kindCases are parameters of every kind, small and lopsided.
var kindCases = []Params{
	{Kind: "dragonfly", H: 1, A: 1, P: 1}, {Kind: "dragonfly", H: 2, A: 4, P: 2, Arrangement: PalmTree},
	{Kind: "dragonfly", H: 3, A: 2, P: 5, Arrangement: Consecutive},
	{Kind: "mesh", Width: 1, Height: 1, P: 1}, {Kind: "mesh", Width: 4, Height: 3, P: 1},
	{Kind: "mesh", Width: 2, Height: 5, P: 3}, {Kind: "mesh", Width: 7, Height: 1, P: 2},
}

// A kind's sizes and ports per class, computed from its parameters without
// building (what config validates and estimates memory from), are those of
// the topology it builds; the built topology keeps the contract and
// declares the kind's classes.
func TestKindSizesMatchTheBuiltTopology(t *testing.T) {
	for _, p := range append(append(slices.Clone(kindCases), fbflyCases...), fattreeCases...) {
		k, err := KindOf(p.Kind)
		if err != nil {
			t.Fatal(err)
		}
		if err := k.Check(p); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		topo, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(topo); err != nil {
			t.Errorf("%s: %v", topo.Name(), err)
		}
		want := Sizes{Routers: topo.Routers(), Nodes: topo.Nodes(), Radix: topo.Radix(), Groups: topo.Groups()}
		if got := k.Sizes(p); got != want {
			t.Errorf("%s: Sizes %+v, built %+v", topo.Name(), got, want)
		}
		if got, want := ClassNames(topo.Classes()), ClassNames(k.Classes); !slices.Equal(got, want) {
			t.Errorf("%s: classes %v, kind %v", topo.Name(), got, want)
		}
		ports := make([]int64, len(k.Classes))
		for r := 0; r < topo.Routers(); r++ {
			for q := 0; q < topo.Radix(); q++ {
				ports[topo.PortClass(r, q)]++
			}
		}
		if got := k.Ports(p); !slices.Equal(got, ports) {
			t.Errorf("%s: Ports %v, built %v", topo.Name(), got, ports)
		}
	}
}

// A kind's parameters out of range are refused naming the field and the
// range.
func TestKindCheckNamesTheField(t *testing.T) {
	for _, c := range []struct {
		p    Params
		want string
	}{
		{Params{Kind: "mesh", Width: 0, Height: 2, P: 1}, "topology.width: 0 routers per row of the mesh; it must be 1 to 64"},
		{Params{Kind: "mesh", Width: 2, Height: 65, P: 1}, "topology.height: 65"},
		{Params{Kind: "mesh", Width: 2, Height: 2, P: 0}, "topology.p: 0"},
		{Params{Kind: "dragonfly", H: 33, A: 2, P: 1}, "topology.h: 33 global links per router; it must be 1 to 32"},
		{Params{Kind: "dragonfly", H: 1, A: 2, P: 1, Arrangement: "ring"}, "topology.arrangement"},
		{Params{Kind: "fbfly", Dims: 3, K: 4, P: 4}, "topology.dimensions: 3 dimensions of the flattened butterfly; it must be 1 to 2"},
		{Params{Kind: "fbfly", Dims: 0, K: 4, P: 4}, "topology.dimensions: 0"},
		{Params{Kind: "fbfly", Dims: 1, K: 1, P: 4}, "topology.k: 1 routers per dimension of the flattened butterfly; it must be 2 to 32"},
		{Params{Kind: "fbfly", Dims: 2, K: 33, P: 4}, "topology.k: 33"},
		{Params{Kind: "fbfly", Dims: 1, K: 4, P: 65}, "topology.p: 65 nodes per router; it must be 1 to 64"},
	} {
		if _, err := New(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
}

// Dimension order on a mesh: from every router to every other, the walk of
// MinimalPorts takes |Δx| x hops, then |Δy| y hops, and arrives.
func TestMeshDimensionOrder(t *testing.T) {
	m, _ := NewMesh(5, 4, 3)
	for s := 0; s < m.Routers(); s++ {
		for d := 0; d < m.Routers(); d++ {
			if s == d {
				continue
			}
			sx, sy := m.XY(s)
			dx, dy := m.XY(d)
			var path []PortClass
			for r := s; r != d && len(path) < 20; {
				ports := m.MinimalPorts(r, d, nil)
				if len(ports) != 1 {
					t.Fatalf("%d→%d: %d minimal ports at %d", s, d, len(ports), r)
				}
				path = append(path, m.PortClass(r, ports[0]))
				r, _ = m.Link(r, ports[0])
			}
			want := append(slices.Repeat([]PortClass{MeshX}, abs(dx-sx)), slices.Repeat([]PortClass{MeshY}, abs(dy-sy))...)
			if !slices.Equal(path, want) {
				t.Fatalf("%d→%d: classes %v, want %v", s, d, path, want)
			}
		}
	}
}

func abs(x int) int { return max(x, -x) }

// Check refuses a port of an undeclared class.
func TestCheckRefusesAnUndeclaredClass(t *testing.T) {
	m, _ := NewMesh(2, 2, 1)
	if err := Check(badClass{m}); err == nil || !strings.Contains(err.Error(), "has class 3; the topology declares 3 classes") {
		t.Errorf("class 3: %v", err)
	}
}

type badClass struct{ *Mesh }

func (b badClass) PortClass(r, p int) PortClass {
	if r == 0 && p == 1 {
		return 3
	}
	return b.Mesh.PortClass(r, p)
}

// Every kind has a title for summaries, none the same as another's.
func TestEveryKindHasATitle(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range Kinds() {
		k, _ := KindOf(name)
		if k.Title == "" || seen[k.Title] {
			t.Errorf("kind %s: title %q (missing or taken)", name, k.Title)
		}
		seen[k.Title] = true
	}
}
