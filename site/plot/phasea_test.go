package plot

import (
	"testing"

	"phitsim/site/experiment"
)

// A flattened butterfly's UGAL misroutes, but it has no Dragonfly groups to
// pick an intermediate one from: its runs report phase-A shares (all
// "RRG-Sw"), and the page showed them as a "Phase-A policies" chart at 100%
// RRG-Sw. The misrouting charts stay; the phase-A chart is Dragonfly's only.
func TestPhaseAOnlyOnDragonfly(t *testing.T) {
	e, ok := experiment.PresetByName("fbfly16-perm-quick")
	if !ok {
		t.Fatal("no fbfly16-perm-quick preset")
	}
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.5, To: 0.5}
	for i := range e.Series {
		e.Series[i].Sim.Seeds = 1
	}
	r := tinyResults(t, e, nil)
	reported := false
	for _, x := range r.Runs {
		if x != nil && x.Config.Topology.Kind == "fbfly" && len(x.Misrouted.PhaseA) > 0 {
			reported = true
		}
	}
	if !reported {
		t.Fatal("no fbfly run reports phase-A shares: the test no longer covers the case")
	}
	v := Visible(&r.Exp, r)
	if has(v, "phasea") {
		t.Errorf("phase-A chart shown for a flattened butterfly: %v", v)
	}
	if !has(v, "misrouting") {
		t.Errorf("misrouting chart not shown for UGAL: %v", v)
	}
	o := decode(t, "phasea-fbfly", PhaseA(Input{Results: r, Point: 0}))
	if len(o.Series) != 0 {
		t.Errorf("phase-A bars for a flattened butterfly: %d series", len(o.Series))
	}
	// the misrouting bars: no "in the source group" or "in the intermediate
	// group" for a network without groups (UGAL decides at injection)
	o = decode(t, "misrouting-fbfly", Misrouting(Input{Results: r, Point: 0}))
	if len(o.Series) != 1 || o.Series[0].Name != "at injection" {
		var names []string
		for _, s := range o.Series {
			names = append(names, s.Name)
		}
		t.Errorf("misrouting bars for a flattened butterfly: %v", names)
	}
	// a Dragonfly's keeps them, zero or not, and a configuration without a kind is one
	for _, x := range r.Runs {
		if x != nil {
			x.Config.Topology.Kind = ""
		}
	}
	o = decode(t, "misrouting-dragonfly", Misrouting(Input{Results: r, Point: 0}))
	if len(o.Series) != 3 {
		t.Errorf("misrouting bars, no topology.kind: %d series, want 3", len(o.Series))
	}
}
