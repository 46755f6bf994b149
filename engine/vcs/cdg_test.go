package vcs

import (
	"strings"
	"testing"

	"phitsim/engine/topology"
)

// ring is a bidirectional ring of n routers with one node each, routed the
// shorter way round (clockwise on ties): its minimal paths chain the links
// of a direction into a cycle, so a sequence that keeps one VC per class
// ("x*") deadlocks (Dally and Seitz 1987: a ring needs a dateline).
type ring struct{ n int }

func (g ring) Name() string              { return "ring" }
func (g ring) Routers() int              { return g.n }
func (g ring) Nodes() int                { return g.n }
func (g ring) Radix() int                { return 3 } // node, clockwise, counter-clockwise
func (g ring) Classes() []topology.Class { return meshClasses() }
func (g ring) NodePort(n int) (int, int) { return n, 0 }
func (g ring) Groups() int               { return 1 }
func (g ring) GroupOf(int) int           { return 0 }
func (g ring) PortClass(_, p int) topology.PortClass {
	if p == 0 {
		return topology.Injection
	}
	return 1 // x
}
func (g ring) Link(r, p int) (int, int) {
	switch p {
	case 1:
		return (r + 1) % g.n, 2
	case 2:
		return (r + g.n - 1) % g.n, 1
	}
	return -1, -1
}
func (g ring) MinimalPorts(r, d int, buf []int) []int {
	if (d-r+g.n)%g.n <= g.n/2 {
		return append(buf, 1)
	}
	return append(buf, 2)
}

func meshClasses() []topology.Class {
	m, _ := topology.NewMesh(1, 1, 1)
	return m.Classes()
}

func meshNames() []string { return topology.ClassNames(meshClasses()) }

// Every Dragonfly sequence passes without a walk (each hop has its own VC);
// a mesh's dimension order x* y* passes after walking its paths, on
// meshes with and without a row or column of their own.
func TestAcyclicSequencesPass(t *testing.T) {
	d, err := topology.NewDragonfly(2, 4, 2, topology.PalmTree)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range []string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"} {
		for _, pa := range []string{"RRG-Sw", "RRG-Gr"} {
			s, err := dfFor(rt, pa)
			if err != nil {
				t.Fatal(err)
			}
			if s.needsWalk() {
				t.Errorf("%s %s: a Dragonfly sequence needs a walk", rt, pa)
			}
			if err := CheckAcyclic(d, s); err != nil {
				t.Errorf("%s %s: %v", rt, pa, err)
			}
		}
	}
	dor, _ := Parse("x* y*", meshNames())
	for _, wh := range [][2]int{{4, 4}, {5, 3}, {1, 6}, {6, 1}, {1, 1}} {
		m, _ := topology.NewMesh(wh[0], wh[1], 1)
		if err := CheckAcyclic(m, dor); err != nil {
			t.Errorf("%s: %v", m.Name(), err)
		}
	}
}

// A ring with one VC per direction is refused, naming a channel on the
// cycle; with a sequence that has no VC for a hop, the walk says so.
func TestCyclicSequencesAreRefused(t *testing.T) {
	x, _ := Parse("x*", meshNames())
	err := CheckAcyclic(ring{5}, x)
	if err == nil || !strings.Contains(err.Error(), "cycle through router") || !strings.Contains(err.Error(), "(x) VC 0") {
		t.Errorf("ring with x*: %v, want a cycle naming an x channel", err)
	}
	m, _ := topology.NewMesh(3, 3, 1)
	xOnly, _ := Parse("x*", meshNames())
	if err := CheckAcyclic(m, xOnly); err == nil || !strings.Contains(err.Error(), "hop of class y") {
		t.Errorf("mesh with x* only: %v, want a missing y hop", err)
	}
}

// An injected cyclic VC assignment on a Dragonfly: MIN's l g l with both
// local hops on local VC 0 (the deadlock distance-based VCs avoid, thesis
// §1.3) is caught by the walk; the same sequence with its own VCs passes.
func TestInjectedCyclicAssignmentIsCaught(t *testing.T) {
	d, _ := topology.NewDragonfly(2, 4, 2, topology.PalmTree)
	bad := Sequence{{Class: topology.Local, VC: 0}, {Class: topology.Global, VC: 0}, {Class: topology.Local, VC: 0}}
	err := CheckAcyclic(d, bad)
	if err == nil || !strings.Contains(err.Error(), "has a cycle through router") || !strings.Contains(err.Error(), "VC 0") {
		t.Fatalf("l0 g0 l0: %v, want a cycle through a VC-0 channel", err)
	}
	good := Sequence{{Class: topology.Local, VC: 0}, {Class: topology.Global, VC: 0}, {Class: topology.Local, VC: 1}, {Class: topology.Local, VC: 1, Repeat: true}}
	if err := CheckAcyclic(d, good); err != nil {
		t.Errorf("l0 g0 l1 l1*: %v", err)
	}
}

// TestFollows: a sequence carries a minimal path when every hop of the path
// finds a position (a repeatable hop twice); the error names the hop.
func TestFollows(t *testing.T) {
	df := []string{"injection", "local", "global"}
	lgl, _ := Parse("local global local", df)
	for _, tc := range []struct {
		seq  string
		ok   bool
		hop  string
		path Sequence
	}{
		{"local global local", true, "", lgl},
		{"local local global local local global local", true, "", lgl},
		{"local* global", false, "hop 3 (local)", lgl},
		{"global local", false, "hop 2 (global)", lgl},
	} {
		s, err := Parse(tc.seq, df)
		if err != nil {
			t.Fatal(err)
		}
		err = s.Follows(tc.path, df)
		if (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), tc.hop)) {
			t.Errorf("%q follows %q: %v", tc.seq, "local global local", err)
		}
	}
	names := meshNames()
	dor, _ := Parse("x* y*", names)
	for _, tc := range []struct {
		seq string
		ok  bool
	}{{"x* y*", true}, {"x y*", false}, {"x* y", false}, {"y* x*", false}} {
		s, _ := Parse(tc.seq, names)
		if err := s.Follows(dor, names); (err == nil) != tc.ok {
			t.Errorf("%q follows %q: %v", tc.seq, "x* y*", err)
		}
	}
}

// Fat trees (RECN paper §4.1: the 64- and 256-host networks, the 512-host
// one with a 2-subtree top, and small ones) on one VC: the kind's sequence
// "link*" needs the walk, and the channel dependency graph of all minimal
// up/down paths — D-mod-k's among them — has no cycle (up*/down*: an up
// channel leads up or down, a down channel only down). A fat tree that may
// also turn up again after descending has a cycle, and the walk finds it.
func TestFatTreeUpDownIsAcyclic(t *testing.T) {
	k, _ := topology.KindOf("fattree")
	seq, err := Parse(k.Minimal, topology.ClassNames(k.Classes))
	if err != nil || !seq.needsWalk() {
		t.Fatalf("%q: %v, walk %v", k.Minimal, err, seq.needsWalk())
	}
	for _, p := range [][3]int{{4, 3, 0}, {4, 4, 0}, {4, 5, 2}, {2, 4, 0}, {3, 3, 0}} {
		f, err := topology.NewFatTree(p[0], p[1], p[2])
		if err != nil {
			t.Fatal(err)
		}
		if err := Walk(f, seq); err != nil {
			t.Errorf("%s: %v", f.Name(), err)
		}
		if err := Walk(downUp{f}, seq); err == nil || !strings.Contains(err.Error(), "cycle through router") {
			t.Errorf("%s turning up after down: %v, want a cycle", f.Name(), err)
		}
	}
}

// downUp also offers every up port where a fat tree's minimal path goes
// down (below the top): paths down, up, down again.
type downUp struct{ *topology.FatTree }

func (x downUp) Name() string { return x.FatTree.Name() + " down-up" }
func (x downUp) MinimalPorts(r, d int, buf []int) []int {
	buf = x.FatTree.MinimalPorts(r, d, buf)
	if l := x.Level(r); l > 0 && l < x.N-1 && buf[0] < x.K {
		for u := 0; u < x.K; u++ {
			buf = append(buf, x.K+u)
		}
	}
	return buf
}
