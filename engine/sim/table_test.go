package sim

import (
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/routing"
	"phitsim/engine/topology"
)

// Adding a routing is its code, one table entry and its test: the
// simulator takes everything else from the entry. These tests build a
// simulator for every entry on every topology kind, and for edited copies
// of entries, and check that what it does follows the entry.

// tableConfig is a small configuration of a topology kind; a kind without
// one here fails the test, so a new kind gets one.
func tableConfig(t *testing.T, kind string) config.Config {
	t.Helper()
	switch kind {
	case "dragonfly":
		return smallConfig(2)
	case "mesh":
		return meshConfig(3, 3, 2)
	case "fbfly":
		return fbflyTestConfig(2, 3, 2, "MIN")
	case "fattree":
		return fattreeTestConfig(2, 3, 0)
	}
	t.Fatalf("no test configuration for topology.kind=%s: add one to tableConfig", kind)
	return config.Config{}
}

// tableSim builds a simulator of entry e on c's topology (c.Routing.Name is
// set to e's name), returning the error of its refusal.
func tableSim(t *testing.T, c config.Config, e routing.Entry) (*Sim, error) {
	t.Helper()
	c.Routing.Name = e.Name
	topo, err := topology.New(c.Topology.Params())
	if err != nil {
		t.Fatal(err)
	}
	return newSimEntry(c, &e, topo, 1)
}

// wantSpec is the VC sequence e declares for a topology kind, written with
// the kind's class names.
func wantSpec(t *testing.T, e *routing.Entry, kind, phaseA string) string {
	t.Helper()
	spec, err := e.VCSpec(kind, e.ResolvePhaseA(phaseA))
	if err != nil {
		t.Fatalf("%s on %s: %v", e.Name, kind, err)
	}
	if spec == routing.MinimalPath {
		k, _ := topology.KindOf(kind)
		spec = k.Minimal
	}
	return spec
}

// checkFollows checks that simulator s runs what entry e says on kind.
func checkFollows(t *testing.T, s *Sim, e *routing.Entry, c config.Config) {
	t.Helper()
	kind := c.Topology.Kind
	k, _ := topology.KindOf(kind)
	what := e.Name + " on " + kind
	if s.routing != uint8(e.Kind) {
		t.Errorf("%s: kind %d, the entry's %d", what, s.routing, e.Kind)
	}
	if got, want := s.seq.Spec(topology.ClassNames(k.Classes)), wantSpec(t, e, kind, c.Routing.PhaseA); got != want {
		t.Errorf("%s: VC sequence %q, the entry's %q", what, got, want)
	}
	d := e.Decide(c.Routing.Recompute)
	if c.Router.Voq {
		d = routing.Final // virtual output queues take the source decision at placement (voq.go)
	}
	if s.rerouteInj != (d == routing.EachInjectionAttempt) || s.rerouteAll != (d == routing.EachHopAttempt) {
		t.Errorf("%s: rerouteInj %v rerouteAll %v, the entry's decisions are %v", what, s.rerouteInj, s.rerouteAll, d)
	}
	if held := s.held != nil; held != (e.Keeps(routing.PerCycle) && c.Router.IdleUpdates == "fogsim") {
		t.Errorf("%s: held counts %v with idleUpdates=%s, the entry keeps per-cycle state: %v", what, held, c.Router.IdleUpdates, e.Keeps(routing.PerCycle))
	}
	if s.metrics != e.Metrics {
		t.Errorf("%s: metrics %b, the entry's %b", what, s.metrics, e.Metrics)
	}
	if s.df == nil {
		return // the mechanisms' state is Dragonfly state
	}
	if pb := s.pb.satHist != nil; pb != e.Keeps(routing.PiggyBack) {
		t.Errorf("%s: PiggyBack state %v, the entry keeps it: %v", what, pb, e.Keeps(routing.PiggyBack))
	}
	if lv := s.acor.seq != nil; lv != e.Keeps(routing.Levels) {
		t.Errorf("%s: ACOR levels %v, the entry keeps them: %v", what, lv, e.Keeps(routing.Levels))
	}
	if s.compare != e.Uses("routing.ugalMode") {
		t.Errorf("%s: UGAL comparison %v, the entry takes routing.ugalMode: %v", what, s.compare, e.Uses("routing.ugalMode"))
	}
	if s.completeA != (e.Uses("routing.completePhaseA") && c.Routing.CompletePhaseA) {
		t.Errorf("%s: completePhaseA %v", what, s.completeA)
	}
}

// Every entry on every topology kind: the simulator runs it as the entry
// says where the entry runs, and refuses it, naming routing.name and the
// kinds it runs on, where it does not (as config's validation does).
func TestSimFollowsTheTable(t *testing.T) {
	for _, kind := range topology.Kinds() {
		for _, e := range routing.All() {
			for _, v := range []struct {
				idle      string
				recompute bool
				phaseA    string
			}{{"every", false, "auto"}, {"fogsim", true, "RRG-Gr"}} {
				c := tableConfig(t, kind)
				if kind == routing.FBFly && v.phaseA != "auto" {
					v.phaseA = "RRG-Sw" // the flattened butterfly has no group policies
				}
				c.Routing.Name, c.Router.IdleUpdates, c.Routing.Recompute, c.Routing.PhaseA = e.Name, v.idle, v.recompute, v.phaseA
				c.Routing.CompletePhaseA = v.recompute
				errs := c.Validate()
				s, err := tableSim(t, c, e)
				if !e.Supports(kind) {
					if err == nil || !strings.Contains(err.Error(), "routing.name") || !strings.Contains(err.Error(), strings.Join(e.Topologies, " or ")) {
						t.Errorf("%s on %s: error %v, want a refusal naming routing.name and %v", e.Name, kind, err, e.Topologies)
					}
					if errs == nil {
						t.Errorf("%s on %s: config accepts what the simulator refuses", e.Name, kind)
					}
					continue
				}
				if len(errs) > 0 {
					t.Fatalf("%s on %s: invalid test config: %v", e.Name, kind, errs)
				}
				if err != nil {
					t.Fatalf("%s on %s: %v", e.Name, kind, err)
				}
				checkFollows(t, s, &e, c)
			}
		}
	}
}

// Edited copies of entries: a changed VC sequence, decision kind,
// topology list, mechanism or parameter list changes what the simulator
// does, with no other change.
func TestSimFollowsAnEditedEntry(t *testing.T) {
	df := tableConfig(t, "dragonfly")
	mesh := tableConfig(t, "mesh")
	min, _ := routing.Lookup("MIN")
	ugal, _ := routing.Lookup("UGAL")
	acor, _ := routing.Lookup("ACOR")
	for _, c := range []struct {
		name string
		base routing.Entry
		cfg  config.Config
		edit func(e *routing.Entry)
	}{
		{"MIN with Valiant's sequence", min, df, func(e *routing.Entry) {
			e.VCs = []routing.VCs{{Topology: routing.Dragonfly, Spec: "local global local local global local"}}
		}},
		{"MIN redone at each injection attempt", min, df, func(e *routing.Entry) { e.Decision = routing.EachInjectionAttempt }},
		{"MIN redone at each hop", min, df, func(e *routing.Entry) { e.Decision = routing.EachHopAttempt }},
		{"MIN with per-cycle state", min, func() config.Config { c := df; c.Router.IdleUpdates = "fogsim"; return c }(),
			func(e *routing.Entry) { e.Mechs |= routing.PerCycle }},
		{"MIN reporting misrouting", min, df, func(e *routing.Entry) { e.Metrics |= routing.Misrouting }},
		{"MIN on a mesh with two x VCs", min, mesh, func(e *routing.Entry) {
			e.VCs = []routing.VCs{{Topology: "mesh", Spec: "x x* y*"}, {Topology: routing.AnyTopology, Spec: routing.MinimalPath}}
		}},
		{"UGAL final at injection", ugal, df, func(e *routing.Entry) { e.Decision = routing.Final }},
		{"UGAL without its comparison", ugal, df, func(e *routing.Entry) { e.Params = []string{"routing.phaseA"} }},
		{"ACOR with PiggyBack bits", acor, df, func(e *routing.Entry) { e.Mechs |= routing.PiggyBack }},
		{"ACOR without levels", acor, df, func(e *routing.Entry) { e.Mechs &^= routing.Levels }},
	} {
		e := c.base
		c.edit(&e)
		cfg := c.cfg
		cfg.Routing.Name = e.Name
		before, err := tableSim(t, cfg, c.base)
		if err != nil {
			t.Fatalf("%s: the table's entry: %v", c.name, err)
		}
		s, err := tableSim(t, cfg, e)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkFollows(t, s, &e, cfg)
		if s.routing == before.routing && s.seq.Spec([]string{"i", "l", "g"}) == before.seq.Spec([]string{"i", "l", "g"}) &&
			s.rerouteInj == before.rerouteInj && s.rerouteAll == before.rerouteAll && (s.held != nil) == (before.held != nil) &&
			s.metrics == before.metrics && s.compare == before.compare && (s.pb.satHist != nil) == (before.pb.satHist != nil) &&
			(s.acor.seq != nil) == (before.acor.seq != nil) {
			t.Errorf("%s: the simulator runs the edited entry as the table's", c.name)
		}
	}
	// the topologies an entry lists decide where it runs
	onlyMesh := min
	onlyMesh.Topologies = []string{"mesh"}
	if _, err := tableSim(t, df, onlyMesh); err == nil || !strings.Contains(err.Error(), "routing.name") || !strings.Contains(err.Error(), "topology.kind=mesh") {
		t.Errorf("MIN listed for the mesh only, on a Dragonfly: %v", err)
	}
	if _, err := tableSim(t, mesh, onlyMesh); err != nil {
		t.Errorf("MIN listed for the mesh only, on a mesh: %v", err)
	}
	anywhere := ugal
	anywhere.Topologies = nil
	if _, err := tableSim(t, mesh, anywhere); err == nil || !strings.Contains(err.Error(), "routing.name") || !strings.Contains(err.Error(), "no VC sequence for topology mesh") {
		t.Errorf("UGAL listed for any topology, with no mesh sequence, on a mesh: %v", err)
	}
}
