package vcs

import (
	"strings"
	"testing"

	"phitsim/engine/topology"
)

// dfFor is a routing's sequence on the Dragonfly.
func dfFor(name, phaseA string) (Sequence, error) { return ForKind("dragonfly", name, phaseA) }

// dfNames are the Dragonfly's class names.
func dfNames() []string {
	k, _ := topology.KindOf("dragonfly")
	return topology.ClassNames(k.Classes)
}

func TestSequencesAndNeeds(t *testing.T) {
	for _, c := range []struct {
		routing, phaseA string
		l, g            int
	}{
		{"MIN", "", 2, 1}, {"VAL_GROUP", "RRG-Gr", 3, 2}, {"VAL", "RRG-Sw", 4, 2}, {"VAL", "CRG-Gr", 3, 2},
		{"PB", "RRG-Sw", 4, 2}, {"ACOR", "RRG-Sw", 4, 2}, {"PAR", "", 5, 2}, {"OLM", "", 3, 2},
	} {
		s, err := dfFor(c.routing, c.phaseA)
		if err != nil {
			t.Fatal(err)
		}
		if n := s.PerClass(3); n[topology.Local] != c.l || n[topology.Global] != c.g || n[topology.Injection] != 0 {
			t.Errorf("%s %s needs %v, want %d/%d", c.routing, c.phaseA, n, c.l, c.g)
		}
		if s.Repeats() {
			t.Errorf("%s: a Dragonfly sequence repeats", c.routing)
		}
	}
	if _, err := dfFor("DOR", ""); err == nil {
		t.Error("unknown routing accepted")
	}
}

// Shorter paths take the required subset of hops in order (thesis Fig. 1.15):
// in VAL's l0 g0 l1 l2 g1 l3, a path starting with a global hop uses g0, then l1.
func TestNextSkipsToTheMatchingClass(t *testing.T) {
	s, _ := dfFor("VAL", "RRG-Sw")
	pos := s.Next(-1, topology.Global)
	if pos != 1 || s[pos].VC != 0 {
		t.Fatalf("first global hop at %d", pos)
	}
	pos = s.Next(pos, topology.Local)
	if s[pos].VC != 1 {
		t.Fatalf("then local VC %d, want 1", s[pos].VC)
	}
	if s.Next(5, topology.Local) != -1 {
		t.Error("past the end")
	}
	olm, _ := dfFor("OLM", "")
	if olm.LocalAtOrBefore(1) != 0 || olm.LocalAtOrBefore(3) != 1 || olm.LocalAtOrBefore(-1) != 0 {
		t.Error("OLM reuse VC")
	}
}

// A repeatable hop is taken again on the same VC; a hop of another class
// moves on (a mesh's x* y*: any number of x hops on x VC 0, then y hops on
// y VC 0, never x again).
func TestNextHonoursRepeat(t *testing.T) {
	names := []string{"injection", "x", "y"}
	s, err := Parse("x* y*", names)
	if err != nil {
		t.Fatal(err)
	}
	x, y := topology.PortClass(1), topology.PortClass(2)
	want := Sequence{{Class: x, VC: 0, Repeat: true}, {Class: y, VC: 0, Repeat: true}}
	if len(s) != 2 || s[0] != want[0] || s[1] != want[1] {
		t.Fatalf("Parse(x* y*) = %+v, want %+v", s, want)
	}
	pos := s.Next(-1, x)
	for range 3 {
		if pos = s.Next(pos, x); pos != 0 {
			t.Fatalf("x again: position %d, want 0", pos)
		}
	}
	if pos = s.Next(pos, y); pos != 1 {
		t.Fatalf("then y: position %d", pos)
	}
	if s.Next(pos, y) != 1 || s.Next(pos, x) != -1 {
		t.Error("after y: y repeats, x has no VC left")
	}
	if got := s.Spec(names); got != "x* y*" {
		t.Errorf("Spec = %q", got)
	}
	if n := s.PerClass(3); n[1] != 1 || n[2] != 1 {
		t.Errorf("needs %v", n)
	}
}

// Parse numbers the VCs of each class in order and names an unknown class.
func TestParse(t *testing.T) {
	s, err := Parse("local global local local global local", dfNames())
	if err != nil {
		t.Fatal(err)
	}
	vc := []int{0, 0, 1, 2, 1, 3}
	for i, h := range s {
		if h.VC != vc[i] || h.Repeat {
			t.Errorf("hop %d: %+v, want VC %d", i, h, vc[i])
		}
	}
	if got := s.Spec(dfNames()); got != "local global local local global local" {
		t.Errorf("Spec = %q", got)
	}
	for spec, want := range map[string]string{
		"local up local":  `"up" is not a transit port class (one of local, global)`,
		"injection local": `"injection" is not a transit port class`,
		"":                "no hop",
	} {
		if _, err := Parse(spec, dfNames()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want %q", spec, err, want)
		}
	}
}

// ForKind: the Dragonfly's sequences, a mesh's minimal one, and an error
// naming routing.name for a routing a mesh cannot run.
func TestForKind(t *testing.T) {
	d, err := ForKind("dragonfly", "PAR", "")
	if err != nil || d.Spec(dfNames()) != "local local global local local global local" {
		t.Errorf("dragonfly PAR: %v %v", d, err)
	}
	m, err := ForKind("mesh", "MIN", "")
	if err != nil || m.Spec([]string{"injection", "x", "y"}) != "x* y*" {
		t.Errorf("mesh MIN: %v %v", m, err)
	}
	if _, err := ForKind("mesh", "VAL", "RRG-Sw"); err == nil || !strings.Contains(err.Error(), "routing.name") || !strings.Contains(err.Error(), "mesh") {
		t.Errorf("mesh VAL: %v", err)
	}
	if _, err := ForKind("torus", "MIN", ""); err == nil || !strings.Contains(err.Error(), "topology.kind") {
		t.Errorf("unknown kind: %v", err)
	}
}

// Each kind's declared minimal hop classes parse with its class names, and
// MIN on a Dragonfly is the kind's own declaration.
func TestEveryKindsMinimalSequenceParses(t *testing.T) {
	for _, name := range topology.Kinds() {
		k, _ := topology.KindOf(name)
		s, err := Parse(k.Minimal, topology.ClassNames(k.Classes))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if got := s.Spec(topology.ClassNames(k.Classes)); got != k.Minimal {
			t.Errorf("%s: %q reads back as %q", name, k.Minimal, got)
		}
	}
	k, _ := topology.KindOf("dragonfly")
	if m, err := dfFor("MIN", ""); err != nil || m.Spec(dfNames()) != k.Minimal {
		t.Errorf("the Dragonfly declares %q, MIN uses %v (%v)", k.Minimal, m, err)
	}
}
