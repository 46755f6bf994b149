package vcs

import "testing"

func TestSequencesAndNeeds(t *testing.T) {
	for _, c := range []struct {
		routing, phaseA string
		l, g            int
	}{
		{"MIN", "", 2, 1}, {"VAL_GROUP", "RRG-Gr", 3, 2}, {"VAL", "RRG-Sw", 4, 2}, {"VAL", "CRG-Gr", 3, 2},
		{"PB", "RRG-Sw", 4, 2}, {"ACOR", "RRG-Sw", 4, 2}, {"PAR", "", 5, 2}, {"OLM", "", 3, 2},
	} {
		s, err := For(c.routing, c.phaseA)
		if err != nil {
			t.Fatal(err)
		}
		if l, g := s.Needs(); l != c.l || g != c.g {
			t.Errorf("%s %s needs %d/%d, want %d/%d", c.routing, c.phaseA, l, g, c.l, c.g)
		}
	}
	if _, err := For("DOR", ""); err == nil {
		t.Error("unknown routing accepted")
	}
}

// Shorter paths take the required subset of hops in order (thesis Fig. 1.15):
// in VAL's l0 g0 l1 l2 g1 l3, a path starting with a global hop uses g0, then l1.
func TestNextSkipsToTheMatchingClass(t *testing.T) {
	s, _ := For("VAL", "RRG-Sw")
	pos := s.Next(-1, true)
	if pos != 1 || s[pos].VC != 0 {
		t.Fatalf("first global hop at %d", pos)
	}
	pos = s.Next(pos, false)
	if s[pos].VC != 1 {
		t.Fatalf("then local VC %d, want 1", s[pos].VC)
	}
	if s.Next(5, false) != -1 {
		t.Error("past the end")
	}
	olm, _ := For("OLM", "")
	if olm.LocalAtOrBefore(1) != 0 || olm.LocalAtOrBefore(3) != 1 || olm.LocalAtOrBefore(-1) != 0 {
		t.Error("OLM reuse VC")
	}
}
