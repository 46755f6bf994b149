package config

import (
	"strings"
	"testing"
)

// Every parameter but version and name is shown in one of the configuration
// panel's six sections (issue 3), and the sections are the six named ones.
func TestEveryParameterInOneOfTheSixSections(t *testing.T) {
	var titles []string
	for _, s := range Sections {
		titles = append(titles, s.Title)
	}
	if got := strings.Join(titles, " · "); got != "Topology · Router · Routing · Congestion management · Workload · Simulation" {
		t.Errorf("sections %q", got)
	}
	count := map[string]int{}
	for _, p := range Params() {
		s := SectionOf(p)
		if s == "" {
			if p.Path != "version" && p.Path != "name" {
				t.Errorf("%s (group %q) is in no section", p.Path, p.Group)
			}
			continue
		}
		count[s]++
	}
	for _, s := range Sections {
		if count[s.Key] == 0 {
			t.Errorf("section %s is empty", s.Title)
		}
		for _, g := range s.Groups[1:] {
			if GroupTitles[g] == "" {
				t.Errorf("sub-heading %q of %s has no title", g, s.Title)
			}
		}
	}
}

// The group tag moves a parameter to another section without changing its
// dotted path (URLs, -set and JSON configs keep working).
func TestCongestionGroup(t *testing.T) {
	for _, path := range []string{"routing.congestion", "routing.ugalMode", "routing.ugalF", "routing.ugalT",
		"routing.pbCoef", "routing.pbThreshold", "routing.pbBroadcast", "routing.trigger", "routing.thMin",
		"routing.congestedCoef", "routing.congestedThreshold", "routing.candidateMax",
		"routing.acorSequence", "routing.acorMode", "routing.acorHI", "routing.acorIT1", "routing.acorIT2", "routing.acorDT1", "routing.acorDT2"} {
		p, ok := Lookup(path)
		if !ok {
			t.Errorf("%s: no such parameter", path)
			continue
		}
		if p.Group != "congestion" || SectionOf(p) != "congestion" {
			t.Errorf("%s: group %q", path, p.Group)
		}
		c := Default()
		if err := c.Set(path, p.Format(&c)); err != nil {
			t.Errorf("Set(%s): %v", path, err)
		}
	}
	for _, path := range []string{"routing.name", "routing.phaseA", "routing.restricted", "routing.recompute", "routing.policy"} {
		if p, _ := Lookup(path); p.Group != "routing" {
			t.Errorf("%s: group %q", path, p.Group)
		}
	}
	if p, _ := Lookup("traffic.load"); p.Group != "traffic" || SectionOf(p) != "workload" {
		t.Errorf("traffic.load: group %q section %q", p.Group, SectionOf(p))
	}
}

// Every numeric field shows a unit in the panel and in 'phitsim params'.
func TestEveryNumberHasAUnit(t *testing.T) {
	for _, p := range Params() {
		if (p.Kind == "int" || p.Kind == "uint" || p.Kind == "float") && p.Path != "version" && p.Unit == "" {
			t.Errorf("%s has no unit", p.Path)
		}
	}
}
