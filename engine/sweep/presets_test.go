package sweep

import (
	"testing"

	"phitsim/engine/config"
)

// Every named experiment expands into valid jobs, one series per routing.
func TestExperimentsExpand(t *testing.T) {
	for _, e := range Experiments() {
		jobs, err := e.Spec.Jobs()
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		// a series may run more seeds than the others (fig-3.3's In-Trns-MM)
		runs := 0
		for _, c := range e.Spec.Series {
			runs += len(e.Spec.Xs()) * c.Sim.Seeds
		}
		if len(jobs) != runs {
			t.Errorf("%s: %d jobs", e.Name, len(jobs))
		}
		seen := map[string]bool{}
		for _, c := range e.Spec.Series {
			// the thesis's and the ACOR paper's curves came from FOGSim (the
			// flattened butterfly's and the fat tree's papers did not:
			// phitsim's model)
			for _, kv := range config.FOGSimModel() {
				if c.Topology.Kind != "dragonfly" {
					break
				}
				if p, _ := config.Lookup(kv[0]); p.Format(&c) != kv[1] {
					t.Errorf("%s %s: %s = %s, want FOGSim's %s", e.Name, c.Name, kv[0], p.Format(&c), kv[1])
				}
			}
			if seen[c.Name] {
				t.Errorf("%s: series %q twice", e.Name, c.Name)
			}
			seen[c.Name] = true
		}
	}
	e, err := ExperimentByName("acor-adv4")
	if err != nil || e.Spec.Series[3].Routing.AcorSequence != "3L" || e.Spec.Series[3].Traffic.AdvOffset != 4 {
		t.Fatalf("acor-adv4: %+v %v", e.Spec.Series[3].Routing, err)
	}
	if _, err := ExperimentByName("nope"); err == nil {
		t.Fatal("unknown experiment accepted")
	}
}
