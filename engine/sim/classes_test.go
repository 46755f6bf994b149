package sim

// Results per port class on any topology: the per-class tables are sized
// from the classes a topology declares (four here), the result names each
// class, and the unconnected edge ports of a mesh are in no denominator.

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/topology"
	"phitsim/engine/vcs"
)

// expressMesh is a 2D mesh with one more port per router, of a fourth
// class "e" that links routers 2i and 2i+1 (the last router's stays
// unconnected when there is an odd number). Unless useE, no minimal route
// takes it (the mesh's VC sequence is x* y*): it carries nothing, but the
// simulator must give it buffers and credits and count it by name. With
// useE, a packet whose destination is the router's e neighbour takes the e
// link (with an even width, instead of the x hop between the same routers).
type expressMesh struct {
	*topology.Mesh
	useE bool
}

func (x *expressMesh) MinimalPorts(r, dst int, buf []int) []int {
	if x.useE && dst == r^1 {
		return append(buf, x.Mesh.Radix())
	}
	return x.Mesh.MinimalPorts(r, dst, buf)
}

var expressClass = topology.Class{Name: "e", Latency: "topology.localLatency", Buffer: "router.localBuffer", VCs: "router.localVCs"}

func (x *expressMesh) Name() string { return "express " + x.Mesh.Name() }
func (x *expressMesh) Radix() int   { return x.Mesh.Radix() + 1 }
func (x *expressMesh) Classes() []topology.Class {
	return append(append([]topology.Class(nil), x.Mesh.Classes()...), expressClass)
}
func (x *expressMesh) PortClass(r, q int) topology.PortClass {
	if q == x.Mesh.Radix() {
		return 3
	}
	return x.Mesh.PortClass(r, q)
}
func (x *expressMesh) Link(r, q int) (int, int) {
	if q == x.Mesh.Radix() {
		if r^1 >= x.Routers() {
			return -1, -1
		}
		return r ^ 1, q
	}
	return x.Mesh.Link(r, q)
}

func classesConfig(load float64) config.Config {
	c := meshConfig(5, 3, 1)
	c.Traffic.Load, c.Sim.Warmup, c.Sim.Cycles = load, 1000, 4000
	return c
}

// A 5×3 mesh: its result says x and y (never global), by class in class
// order; the hops by class add up to the mean; the link counts leave out the
// edge ports (x: 2·4·3 of 30 ports, y: 2·5·2 of 30); each class's
// utilisation is its hops times the delivered phits over its links.
func TestMeshResultByClass(t *testing.T) {
	c := classesConfig(0.2)
	r := btRun(t, c, 1)
	if r.Hops.Local != 0 || r.Hops.Global != 0 || r.Links.Local != 0 || r.Links.Global != 0 {
		t.Errorf("a mesh reports Dragonfly fields: hops %+v links %+v", r.Hops, r.Links)
	}
	if len(r.Classes) != 3 || r.Classes[0].Class != "injection" || r.Classes[1].Class != "x" || r.Classes[2].Class != "y" {
		t.Fatalf("classes %+v, want injection, x, y", r.Classes)
	}
	if got := []int64{r.Classes[0].Links, r.Classes[1].Links, r.Classes[2].Links}; got[0] != 15 || got[1] != 24 || got[2] != 20 {
		t.Errorf("links per class %v, want [15 24 20] (edge ports unconnected)", got)
	}
	// uniform traffic over the 14 other routers: the mean |Δx| and |Δy|
	var dx, dy float64
	for a := 0; a < 15; a++ {
		for b := 0; b < 15; b++ {
			if a != b {
				dx += math.Abs(float64(a%5 - b%5))
				dy += math.Abs(float64(a/5 - b/5))
			}
		}
	}
	dx, dy = dx/(15*14), dy/(15*14)
	if r.Classes[0].Hops != 0 || math.Abs(r.Classes[1].Hops-dx) > 0.08 || math.Abs(r.Classes[2].Hops-dy) > 0.08 {
		t.Errorf("hops by class %+v, want x ≈ %.3f, y ≈ %.3f", r.Classes, dx, dy)
	}
	nodes := float64(15)
	for _, cl := range r.Classes[1:] {
		want := r.Accepted * nodes * cl.Hops / float64(cl.Links)
		if !btWithin(cl.Utilisation, want, 0.03) {
			t.Errorf("class %s: utilisation %.4f, want %.4f from its hops", cl.Class, cl.Utilisation, want)
		}
	}
	if !btWithin(r.Classes[0].Utilisation, r.Accepted, 0.001) || r.Classes[0].Utilisation != r.Links.Injection {
		t.Errorf("ejection utilisation %.4f (links.injection %.4f), accepted %.4f", r.Classes[0].Utilisation, r.Links.Injection, r.Accepted)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"classes":[{"class":"injection"`) {
		t.Errorf("the JSON has no classes section: %.300s", b)
	}
}

// The count of hops by packet (the hooks a topology of more than 3 classes
// uses) agrees with the packet's lhops and ghops when it counts the mesh's
// x and y classes too: the same run, the same hops by class.
func TestClassHopsByPacketAgree(t *testing.T) {
	run := func(from int) []float64 {
		s, err := New(classesConfig(0.3), 1)
		if err != nil {
			t.Fatal(err)
		}
		if from < 3 {
			s.st.countHopsFrom(s, from)
		}
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Classes) != 3 {
			t.Fatalf("classes %+v", r.Classes)
		}
		return []float64{r.Classes[1].Hops, r.Classes[2].Hops, r.Hops.Avg}
	}
	want := run(3)
	for _, from := range []int{1, 2} {
		if got := run(from); got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("counted from class %d: x, y, mean hops %v; from the packet %v", from, got, want)
		}
	}
}

// A topology of four classes runs: every packet is delivered, the fourth
// class has buffers and credits and its own row (no traffic: no route
// takes it), and the unconnected port of the odd router is not a link.
func TestFourClassTopologyRuns(t *testing.T) {
	c := classesConfig(0.2)
	m, err := topology.NewMesh(5, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := &expressMesh{Mesh: m}
	if err := topology.Check(x); err != nil {
		t.Fatal(err)
	}
	s, err := newSim(c, x, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.bufCap) != 4 || s.bufCap[3] != int32(c.Router.LocalBuffer) {
		t.Fatalf("buffers per class %v, want 4 classes, e's %d", s.bufCap, c.Router.LocalBuffer)
	}
	e := 1*x.Radix() + x.Mesh.Radix() // router 1's e port: linked to router 0
	if got := s.credits[e*s.maxVC]; got != int32(c.Router.LocalBuffer) {
		t.Errorf("e port credits %d, want %d", got, c.Router.LocalBuffer)
	}
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	btCheckResult(t, c, r)
	if r.Delivered == 0 || !r.Conserved() {
		t.Fatalf("delivered %d, conservation %+v", r.Delivered, r.Conservation)
	}
	names := make([]string, len(r.Classes))
	for i, cl := range r.Classes {
		names[i] = cl.Class
	}
	if strings.Join(names, " ") != "injection x y e" {
		t.Fatalf("classes %v", names)
	}
	if e := r.Classes[3]; e.Links != 14 || e.Hops != 0 || e.Utilisation != 0 {
		t.Errorf("class e: %+v, want 14 links, no traffic", e)
	}
	if math.Abs(r.Classes[1].Hops+r.Classes[2].Hops-r.Hops.Avg) > 1e-9 || r.Classes[1].Hops == 0 {
		t.Errorf("x %.3f + y %.3f hops, mean %.3f", r.Classes[1].Hops, r.Classes[2].Hops, r.Hops.Avg)
	}
}

// A class whose parameters no class of the configured kind has is refused,
// naming the class and its parameters.
func TestClassWithoutParametersRefused(t *testing.T) {
	m, err := topology.NewMesh(3, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	saved := expressClass
	defer func() { expressClass = saved }()
	expressClass.Latency = "topology.globalLatency"
	_, err = newSim(classesConfig(0), &expressMesh{Mesh: m}, 1)
	if err == nil || !strings.Contains(err.Error(), "port class 3 (e)") || !strings.Contains(err.Error(), "topology.globalLatency") {
		t.Errorf("class e with the global latency on a mesh: %v", err)
	}
}

// A Dragonfly's result document has no classes and no mechanisms section:
// it stays byte-identical (the golden hashes, saved files).
func TestDragonflyResultHasNoClassRows(t *testing.T) {
	c := tnConfig(0.2)
	c.Sim.Warmup, c.Sim.Cycles = 200, 500
	r := btRun(t, c, 1)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Classes != nil || r.Mechanisms != nil || strings.Contains(string(b), `"classes"`) || strings.Contains(string(b), `"mechanisms"`) {
		t.Errorf("a Dragonfly result with classes or mechanisms: %v %v", r.Classes, r.Mechanisms)
	}
	if r.Hops.Local == 0 || r.Hops.Global == 0 || r.Links.Local == 0 || r.Links.Global == 0 {
		t.Errorf("Dragonfly local/global fields empty: %+v %+v", r.Hops, r.Links)
	}
}

// With the e links on minimal routes (the VC sequence x* y* e*), the hops
// of the fourth class are counted by packet and taken out of lhops: the
// same run counted by packet for every class gives the same rows.
func TestFourthClassHopsCounted(t *testing.T) {
	run := func(from int) *result.Result {
		c := classesConfig(0.3)
		c.Topology.Width = 4 // even: e links pair x neighbours
		m, err := topology.NewMesh(4, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		x := &expressMesh{Mesh: m}
		s, err := newSim(c, x, 1)
		if err != nil {
			t.Fatal(err)
		}
		// vcs.ForKind knows the kind's sequence only: the test gives the
		// one of its topology, checked acyclic
		x.useE = true
		if s.seq, err = vcs.Parse("x* y* e*", topology.ClassNames(x.Classes())); err != nil {
			t.Fatal(err)
		}
		if err := vcs.CheckAcyclic(x, s.seq); err != nil {
			t.Fatal(err)
		}
		if from < 3 {
			s.st.countHopsFrom(s, from)
		}
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		btCheckResult(t, c, r)
		return r
	}
	want := run(3)
	if len(want.Classes) != 4 || want.Classes[3].Hops == 0 || want.Classes[1].Hops == 0 || want.Classes[3].Links != 12 {
		t.Fatalf("classes %+v: the e links carry nothing", want.Classes)
	}
	if u := want.Classes[3]; !btWithin(u.Utilisation, want.Accepted*12*u.Hops/float64(u.Links), 0.05) {
		t.Errorf("e utilisation %.4f, %.4f from its hops", u.Utilisation, want.Accepted*12*u.Hops/float64(u.Links))
	}
	for _, from := range []int{1, 2} {
		got := run(from)
		for c := range want.Classes {
			if got.Classes[c] != want.Classes[c] {
				t.Errorf("counted by packet from class %d: %+v, from lhops and ghops %+v", from, got.Classes[c], want.Classes[c])
			}
		}
	}
}
