package config

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// Every parameter but version and name is shown in one of the configuration
// panel's six sections, and the sections are the six named ones.
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
		"routing.congestedCoef", "routing.congestedThreshold", "routing.candidateMax", "routing.candidates",
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

// An integer parameter takes a whole number written in float syntax (a
// range reads "[1, 100000000]", and 1e8 is typed back), exactly: a
// fraction, an overflow, hex or a thousands separator are refused with the
// parameter's range, and the value is never rounded.
func TestIntegerInFloatSyntax(t *testing.T) {
	for _, tc := range []struct {
		path, text string
		want       int64
	}{
		{"sim.cycles", "1e3", 1000}, {"sim.cycles", "1000.0", 1000}, {"sim.cycles", "1e8", 100000000},
		{"sim.cycles", " 1E+03 ", 1000}, {"sim.cycles", "2.5e1", 25}, {"sim.cycles", "0.0", 0},
		{"sim.cycles", "-3e2", -300}, {"sim.cycles", "0001000", 1000}, {"sim.cycles", "12345678901234567.0", 12345678901234567},
		{"sim.cycles", "9223372036854775807", 9223372036854775807}, {"sim.cycles", ".5e1", 5},
		{"sim.seed", "1e3", 1000}, {"sim.seed", "18446744073709551615.0", -1},
	} {
		c := Default()
		p, _ := Lookup(tc.path)
		if err := p.SetString(&c, tc.text); err != nil {
			t.Errorf("%s = %q: %v", tc.path, tc.text, err)
			continue
		}
		got := p.Format(&c)
		want := strconvInt(tc.want)
		if tc.want == -1 {
			want = "18446744073709551615"
		}
		if got != want {
			t.Errorf("%s = %q gives %s, want %s", tc.path, tc.text, got, want)
		}
	}
	for _, tc := range []struct{ path, text, msg string }{
		{"sim.cycles", "1.5", "must be a whole number in [1, 100000000]"},
		{"sim.cycles", "1e-3", "must be a whole number in [1, 100000000]"},
		{"sim.cycles", "1500e-3", "must be a whole number in [1, 100000000]"},
		{"sim.cycles", "1e19", "must be a whole number in [1, 100000000]"},
		{"sim.cycles", "9223372036854775808", "must be a whole number in [1, 100000000]"},
		{"sim.cycles", "1e1000", "must be a whole number in [1, 100000000]"},
		{"sim.cycles", "1e99999", "must be a whole number in [1, 100000000]"},
		{"sim.cycles", "0x10", "whole number"}, {"sim.cycles", "1,000", "whole number"},
		{"sim.cycles", "1_000", "whole number"}, {"sim.cycles", "inf", "whole number"},
		{"sim.cycles", "1e", "whole number"}, {"sim.cycles", ".", "whole number"}, {"sim.cycles", "", "whole number"},
		{"sim.cycles", "1..0", "whole number"}, {"sim.cycles", "--1", "whole number"}, {"sim.cycles", "1e3.0", "whole number"},
		{"sim.seed", "-1", "must be a whole number ≥ 0"}, {"sim.seed", "1.8446744073709551616e19", "must be a whole number ≥ 0"},
		{"sim.seed", "0.5", "must be a whole number ≥ 0"},
	} {
		c := Default()
		before := c
		p, _ := Lookup(tc.path)
		err := p.SetString(&c, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s = %q: error %v, want %q", tc.path, tc.text, err, tc.msg)
		}
		if c != before {
			t.Errorf("%s = %q: refused but changed the config", tc.path, tc.text)
		}
	}
	// -set and JSON-free paths go through SetString
	c := Default()
	if err := c.Set("sim.cycles", "1e4"); err != nil || c.Sim.Cycles != 10000 {
		t.Errorf("Set sim.cycles=1e4: %v, %d", err, c.Sim.Cycles)
	}
}

// Ranges print integer bounds as integers, so the text can be typed back.
func TestRangeTextIntegers(t *testing.T) {
	for path, want := range map[string]string{
		"sim.cycles":        " in [1, 100000000]",
		"sim.seed":          " ≥ 0",
		"traffic.load":      " in [0, 1]",
		"workload.linkGbps": " in [0.001, 100000]",
		"sim.histMax":       " in [16, 1000000]",
	} {
		p, _ := Lookup(path)
		if got := p.rangeText(); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	for _, p := range Params() {
		if r := p.rangeText(); (p.Kind == "int" || p.Kind == "uint") && strings.ContainsAny(r, "e.") {
			t.Errorf("%s: range %q is not in whole numbers", p.Path, r)
		}
	}
}

// WhenText words every kind of condition.
func TestWhenText(t *testing.T) {
	for path, want := range map[string]string{
		"workload.tq":           "workload.kind=graph500",
		"traffic.switchPattern": "traffic.switchCycle > 0",
		"traffic.load":          "",
	} {
		p, _ := Lookup(path)
		if got := p.WhenText(); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	// a routing condition (the routing table's, whatever routings it lists)
	if got, want := (Param{When: "routing.name=UGAL|PB|PB_ACOR"}).WhenText(), "routing.name is one of UGAL, PB, PB_ACOR"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if p, _ := Lookup("routing.ugalF"); !strings.HasPrefix(p.WhenText(), "routing.name is one of UGAL, PB") {
		t.Errorf("routing.ugalF: %q", p.WhenText())
	}
}

func strconvInt(x int64) string { return strconv.FormatInt(x, 10) }

// An integer accepted in any syntax is the number the text denotes (never
// rounded), and every plain integer is still accepted as before.
func FuzzIntegerSyntax(f *testing.F) {
	for _, s := range []string{"1e3", "1000.0", "1e+08", "1.5", "1e-3", "0x10", "1,000", " 7 ", "-0.0e5", "9223372036854775807",
		"9223372036854775808", "1e19", "12345678901234567.0", ".5e1", "5.", "1e1000", "+3", "0x1p4", "1_0", "1.0000000000000000001"} {
		f.Add(s)
	}
	p, _ := Lookup("sim.cycles")
	f.Fuzz(func(t *testing.T, s string) {
		c := Default()
		err := p.SetString(&c, s)
		if n, perr := strconv.ParseInt(strings.TrimSpace(s), 10, 64); perr == nil && (err != nil || int64(c.Sim.Cycles) != n) {
			t.Fatalf("%q: plain integer gives %d, %v", s, c.Sim.Cycles, err)
		}
		if err != nil {
			return
		}
		x, ferr := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if ferr != nil || strings.ContainsAny(s, "xXpP_") {
			t.Fatalf("%q accepted as %d: not a decimal number", s, c.Sim.Cycles)
		}
		if math.Abs(x) < 1<<53 && float64(c.Sim.Cycles) != x {
			t.Fatalf("%q accepted as %d, but it is %v", s, c.Sim.Cycles, x)
		}
	})
}
