package sweep

import (
	"fmt"
	"strings"

	"phitsim/engine/config"
)

// Experiment is a named sweep: several configurations compared as series
// over offered loads. These reproduce the comparisons of the thesis and the
// ACOR paper at browser-friendly sizes (h=4, short runs).
type Experiment struct {
	Name, Doc string
	Spec      Spec
}

func loads(from, to, step float64) []float64 {
	var out []float64
	for x := from; x <= to+1e-9; x += step {
		out = append(out, float64(int64(x*1000+0.5))/1000)
	}
	return out
}

// series builds one configuration per routing from a base.
func series(base config.Config, names ...string) []config.Config {
	var out []config.Config
	for _, n := range names {
		c := base
		c.Name = n
		if name, seq, ok := strings.Cut(n, ":"); ok { // ACOR:3L
			n, c.Name, c.Routing.AcorSequence = name, name+"-"+seq, seq
		}
		c.Routing.Name = n
		out = append(out, c)
	}
	return out
}

// base is an experiment's network with FOGSim's model (config.UseFOGSimModel):
// the thesis's and the ACOR paper's curves came from FOGSim, whose ejection
// gate, transit outputs and OLM candidate draw move saturation and adaptive
// routing's decisions (VALIDATION.md); the defaults stay phitsim's model of
// the hardware (TIMING.md).
func base(h int, pattern string, offset int) config.Config {
	c := config.Default()
	c.UseFOGSimModel()
	c.Topology.H, c.Topology.A, c.Topology.P = h, 2*h, h
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 4000, 4000, 2
	c.Traffic.Pattern, c.Traffic.AdvOffset = pattern, offset
	return c
}

// acorBase is the ACOR paper's setting scaled to 1,056 hosts: restricted
// Valiant with recomputation, one injection VC, thresholds for 1,056 hosts
// (IT1 = 20, DT1 = 8; paper §6.2).
func acorBase(pattern string, offset int) config.Config {
	c := base(4, pattern, offset)
	c.Router.InjectionVCs = 1
	c.Routing.Restricted, c.Routing.Recompute = true, true
	c.Routing.AcorIT1, c.Routing.AcorDT1 = 20, 8
	c.Routing.PbCoef = 120
	return c
}

// Experiments lists the named comparisons.
func Experiments() []Experiment {
	thesis := func(pattern string, offset int, doc string, ls []float64) Experiment {
		name := "thesis-" + strings.ToLower(pattern)
		if pattern == "ADV" {
			name = fmt.Sprintf("thesis-adv%d", offset)
		}
		return Experiment{name, doc, Spec{Series: series(base(4, pattern, offset), "MIN", "VAL", "PB", "OLM"), Loads: ls}}
	}
	acor := func(pattern string, offset int, doc string) Experiment {
		name := "acor-" + strings.ToLower(pattern)
		if pattern == "ADV" {
			name = fmt.Sprintf("acor-adv%d", offset)
		}
		return Experiment{name, doc, Spec{Series: series(acorBase(pattern, offset),
			"VAL", "ACOR:2LA", "ACOR:2LB", "ACOR:3L", "PB", "PB_ACOR"), Loads: loads(0.05, 0.65, 0.1)}}
	}
	return []Experiment{
		thesis("UN", 1, "MIN, VAL, PB and OLM under uniform traffic (thesis §1.4, h=4)", loads(0.1, 0.9, 0.1)),
		thesis("ADV", 1, "MIN, VAL, PB and OLM under ADV+1: MIN caps at 1/(a·p)", loads(0.05, 0.65, 0.1)),
		thesis("ADV", 4, "MIN, VAL, PB and OLM under ADV+h", loads(0.05, 0.65, 0.1)),
		thesis("ADVC", 1, "MIN, VAL, PB and OLM under ADVc: unfair to router a−1", loads(0.05, 0.65, 0.1)),
		acor("UN", 1, "ACOR paper: VAL vs ACOR-2LA/2LB/3L vs PB vs PB-ACOR under UN (1,056 hosts)"),
		acor("ADV", 1, "ACOR paper comparison under ADV+1"),
		acor("ADV", 4, "ACOR paper comparison under ADV+h"),
		acor("ADVC", 1, "ACOR paper comparison under ADVc"),
	}
}

// ExperimentByName finds a named experiment.
func ExperimentByName(name string) (Experiment, error) {
	var names []string
	for _, e := range Experiments() {
		if e.Name == name {
			return e, nil
		}
		names = append(names, e.Name)
	}
	return Experiment{}, fmt.Errorf("unknown experiment %q (known: %s)", name, strings.Join(names, ", "))
}
