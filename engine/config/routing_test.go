package config

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"phitsim/engine/routing"
)

// whenBefore is every routing condition the struct tags spelled out before
// they came from the routing table (a parameter added later has none).
var whenBefore = map[string]string{
	"router.idleUpdates":         "PB|PB_ACOR|ACOR",
	"routing.phaseA":             "VAL|VAL_GROUP|UGAL|PB",
	"routing.restricted":         "VAL|VAL_GROUP|UGAL|PB",
	"routing.recompute":          "VAL|VAL_GROUP|UGAL|PB",
	"routing.completePhaseA":     "VAL|VAL_GROUP",
	"routing.ugalMode":           "UGAL|PB|PB_ACOR",
	"routing.ugalF":              "UGAL|PB|PB_ACOR",
	"routing.ugalT":              "UGAL|PB|PB_ACOR",
	"routing.congestion":         "UGAL|PB|PB_ACOR|PAR|OLM",
	"routing.pbCoef":             "PB|PB_ACOR",
	"routing.pbThreshold":        "PB|PB_ACOR",
	"routing.pbBroadcast":        "PB|PB_ACOR",
	"routing.policy":             "PAR|OLM",
	"routing.trigger":            "PAR|OLM",
	"routing.thMin":              "PAR|OLM",
	"routing.congestedCoef":      "PAR|OLM",
	"routing.congestedThreshold": "PAR|OLM",
	"routing.candidateMax":       "PAR|OLM",
	"routing.intraGroupMisroute": "OLM",
	"routing.candidates":         "PAR|OLM",
	// the contention triggers (thesis §4.2.1), added with them
	"routing.contentionThreshold": "UGAL|PB|PAR|OLM",
	"routing.hybridThreshold":     "PAR|OLM",
	"routing.filterAlpha":         "PAR|OLM",
	"routing.ectnThreshold":       "UGAL|PB|PAR|OLM",
	"routing.injectionTrigger":    "UGAL|PB",
	"routing.ectnPeriod":          "UGAL|PB|PAR|OLM",
	"routing.acorSequence":        "ACOR|PB_ACOR",
	"routing.acorMode":            "ACOR|PB_ACOR",
	"routing.acorHI":              "ACOR|PB_ACOR",
	"routing.acorIT1":             "ACOR|PB_ACOR",
	"routing.acorIT2":             "ACOR|PB_ACOR",
	"routing.acorDT1":             "ACOR|PB_ACOR",
	"routing.acorDT2":             "ACOR|PB_ACOR",
	"routing.acorCount":           "ACOR|PB_ACOR",
	// UGAL's intermediate on a flattened butterfly, added with it
	"routing.ugalIntermediate": "UGAL",
}

// isBefore tells whether a routing is one the conditions above knew.
func isBefore(name string) bool {
	return slices.Contains([]string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"}, name)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

func TestRoutingWhenAsBefore(t *testing.T) {
	seen := 0
	for _, p := range Params() {
		vals, ok := strings.CutPrefix(p.When, "routing.name=")
		before, was := whenBefore[p.Path]
		if ok && !was && !slices.ContainsFunc(routing.Using(p.Path), isBefore) {
			continue // the parameter of routings added later
		}
		if ok != was {
			t.Errorf("%s: when %q, before %q", p.Path, p.When, before)
			continue
		}
		if !ok {
			continue
		}
		seen++
		// the routings the conditions knew (a routing added later may
		// take the parameter too)
		vals, _, _ = strings.Cut(vals, ",") // the routings, before any further condition
		known := slices.DeleteFunc(strings.Split(vals, "|"), func(n string) bool { return !isBefore(n) })
		if got, want := sorted(known), sorted(strings.Split(before, "|")); !slices.Equal(got, want) {
			t.Errorf("%s applies to %v, before to %v", p.Path, got, want)
		}
		if !strings.HasPrefix(p.WhenText(), "routing.name") {
			t.Errorf("%s: when text %q does not name routing.name", p.Path, p.WhenText())
		}
	}
	if seen != len(whenBefore) {
		t.Errorf("%d routing conditions, %d before", seen, len(whenBefore))
	}
}

// Adding a routing is its code, its entry and its test: the entry alone
// makes it a valid routing.name with its doc, the routing-specific
// parameters apply exactly where the entries say, and the VC counts follow
// its VC sequence.
func TestEveryRoutingFromTheTable(t *testing.T) {
	name, _ := Lookup("routing.name")
	if !slices.Equal(name.Enum, routing.Names()) {
		t.Errorf("routing.name allows %v, the table has %v", name.Enum, routing.Names())
	}
	for _, e := range routing.All() {
		if !strings.Contains(name.Doc, e.Name+" "+e.Doc) {
			t.Errorf("routing.name's doc %q misses %s", name.Doc, e.Name)
		}
		c := Default()
		c.Routing.Name = e.Name
		if errs := c.Validate(); len(errs) > 0 {
			t.Errorf("%s: %v", e.Name, errs)
		}
		for _, p := range Params() {
			if len(routing.Using(p.Path)) == 0 {
				continue
			}
			if routingHolds(p, &c) != e.Uses(p.Path) {
				t.Errorf("%s: %s applies %v, the entry lists it %v", e.Name, p.Path, routingHolds(p, &c), e.Uses(p.Path))
			}
		}
		for _, path := range e.Params {
			p, ok := Lookup(path)
			if !ok {
				t.Errorf("%s lists %s, which is no parameter", e.Name, path)
			} else if !routingHolds(p, &c) {
				t.Errorf("%s lists %s, which does not apply to it", e.Name, path)
			}
		}
		// the VC counts the validator asks for are the sequence's
		spec, err := e.VCSpec(c.Topology.Kind, c.PhaseA())
		if err != nil {
			t.Fatal(err)
		}
		l, g := strings.Count(" "+spec, " local"), strings.Count(" "+spec, " global")
		c.Router.LocalVCs, c.Router.GlobalVCs = l-1, g
		if !hasError(c.Validate(), "router.localVCs") {
			t.Errorf("%s: %d local VCs accepted; its sequence %q needs %d", e.Name, l-1, spec, l)
		}
		c.Router.LocalVCs, c.Router.GlobalVCs = l, g
		if errs := c.Validate(); hasError(errs, "router.localVCs") || hasError(errs, "router.globalVCs") {
			t.Errorf("%s with %d/%d VCs: %v", e.Name, l, g, errs)
		}
	}
}

func hasError(errs Errors, path string) bool {
	for _, e := range errs {
		if e.Path == path {
			return true
		}
	}
	return false
}

func TestPhaseAFromTheTable(t *testing.T) {
	for _, tc := range []struct{ name, phaseA, want string }{
		{"VAL", "auto", "RRG-Sw"}, {"VAL_GROUP", "auto", "RRG-Gr"}, {"VAL_GROUP", "CRG-Sw", "CRG-Sw"},
		{"UGAL", "CRG-Gr", "CRG-Gr"}, {"ACOR", "CRG-Gr", "RRG-Sw"}, {"PB_ACOR", "auto", "RRG-Sw"}, {"MIN", "auto", "RRG-Sw"},
	} {
		c := Default()
		c.Routing.Name, c.Routing.PhaseA = tc.name, tc.phaseA
		if got := c.PhaseA(); got != tc.want {
			t.Errorf("%s with phaseA %s: %s, want %s", tc.name, tc.phaseA, got, tc.want)
		}
	}
}

// RoutingsIn("congestion") is the list the UI gives when a routing senses
// no congestion.
func TestRoutingsIn(t *testing.T) {
	got := slices.DeleteFunc(RoutingsIn("congestion"), func(n string) bool { return !isBefore(n) })
	if want := []string{"UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"}; !slices.Equal(got, want) {
		t.Errorf("routings with congestion parameters: %v, want %v", got, want)
	}
	if got := RoutingsIn("traffic"); got != nil {
		t.Errorf("routings with traffic parameters: %v, want none", got)
	}
}

// A routing on a topology it does not run on is refused by name. Only a
// second topology.kind can exercise it; on a build with the Dragonfly
// alone the check cannot fire.
func TestRoutingNeedsItsTopology(t *testing.T) {
	kind, _ := Lookup("topology.kind")
	for _, k := range kind.Enum {
		if k == routing.Dragonfly {
			continue
		}
		c := Default()
		c.Topology.Kind, c.Routing.Name = k, "VAL"
		if !hasError(c.Validate(), "routing.name") {
			t.Errorf("VAL on topology.kind=%s accepted", k)
		}
		return
	}
	t.Skip("topology.kind has no value but dragonfly")
}

// routingHolds: p's routing.name condition holds for c (its other
// conditions, e.g. routing.qcnSampling=input, may not under the defaults).
func routingHolds(p Param, c *Config) bool {
	for _, cd := range p.Conditions() {
		if cd.Path == "routing.name" && !cd.Holds(c) {
			return false
		}
	}
	return true
}

// routing.ugalIntermediate: a value outside detour/any is refused naming the
// field; on the flattened butterfly with UGAL it applies; on the Dragonfly
// (UGAL draws its intermediate there by routing.phaseA) it does not apply and
// is ignored, not refused (a value for another topology kind is not listed
// by Unapplied: series copied from one another carry them).
func TestUgalIntermediateField(t *testing.T) {
	c := FBFly(1, 4, 4)
	c.Routing.Name, c.Routing.UgalIntermediate = "UGAL", "nearest"
	errs := c.Validate()
	if len(errs) != 1 || errs[0].Path != "routing.ugalIntermediate" || !strings.Contains(errs[0].Msg, "any, detour") {
		t.Errorf("ugalIntermediate=nearest: %v, want one error naming routing.ugalIntermediate and any, detour", errs)
	}
	c.Routing.UgalIntermediate = "any"
	if errs := c.Validate(); len(errs) != 0 {
		t.Errorf("ugalIntermediate=any on fbfly: refused: %v", errs)
	}
	if n := c.Unapplied(); len(n) != 0 {
		t.Errorf("ugalIntermediate=any on fbfly with UGAL: unapplied %v", n)
	}
	d := Default()
	d.Routing.Name, d.Routing.UgalIntermediate = "UGAL", "any"
	if errs := d.Validate(); len(errs) != 0 {
		t.Errorf("ugalIntermediate=any on the Dragonfly: refused: %v", errs)
	}
	p, _ := Lookup("routing.ugalIntermediate")
	if p.Applies(&d) || !p.Applies(&c) {
		t.Errorf("routing.ugalIntermediate applies on the Dragonfly %v, on the flattened butterfly %v: want false, true", p.Applies(&d), p.Applies(&c))
	}
}
