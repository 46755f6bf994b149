package experiment

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"phitsim/engine/config"
)

// measuredRun is one run of a page preset measured natively (the first
// run of a series at x, edited by set, path=value): its CPU time and that
// of the h=2 Dragonfly's MIN at 0.5 (quick-un's first run), each the
// least of five, the two run by turns (engine/BENCHMARKS.md, "The page's
// run-time estimate").
type measuredRun struct {
	preset, series string
	x              float64
	set            string
	cpu, ref       float64
}

// measuredRuns: one process, user + system CPU (getrusage) around
// sim.Run, on this project's shared 2-core machine, all in one run of
// TestMeasureCostRuns (which prints these lines).
var measuredRuns = []measuredRun{
	{"quick-un", "MIN", 0.1, "", 0.00400, 0.02162},
	{"quick-un", "MIN", 0.5, "", 0.02145, 0.02145},
	{"quick-un", "MIN", 1, "", 0.05325, 0.02156},
	{"quick-un", "VAL", 0.1, "", 0.00668, 0.02173},
	{"quick-un", "VAL", 0.5, "", 0.04826, 0.02172},
	{"quick-un", "VAL", 1, "", 0.05342, 0.02160},
	{"quick-un", "MIN", 0.1, "routing.name=UGAL", 0.00461, 0.02158},
	{"quick-un", "MIN", 0.5, "routing.name=UGAL", 0.03063, 0.02155},
	{"quick-un", "MIN", 0.9, "routing.name=UGAL", 0.08705, 0.02167},
	{"quick-adv1", "MIN", 0.05, "", 0.00241, 0.02146},
	{"quick-adv1", "MIN", 0.35, "", 0.00986, 0.02141},
	{"quick-adv1", "VAL", 0.25, "", 0.01876, 0.02164},
	{"quick-adv1", "VAL", 0.55, "", 0.04470, 0.02168},
	{"fbfly16-perm-quick", "MIN", 0.05, "", 0.00129, 0.02155},
	{"fbfly16-perm-quick", "MIN", 0.45, "", 0.00494, 0.02147},
	{"fbfly16-perm-quick", "UGAL", 0.05, "", 0.00138, 0.02142},
	{"fbfly16-perm-quick", "UGAL", 0.55, "", 0.00767, 0.02161},
	{"cbcm-fig2-quick", "Baseline(MIN)", 0.1, "", 0.01922, 0.02153},
	{"cbcm-fig2-quick", "Baseline(MIN)", 0.5, "", 0.05274, 0.02141},
	{"cbcm-fig2-quick", "Baseline(MIN)", 0.9, "", 0.09768, 0.02156},
	{"cbcm-fig2-quick", "Ideal(UGAL)", 0.5, "", 0.05817, 0.02163},
	{"cbcm-fig2-quick", "Ideal(UGAL)", 0.9, "", 0.11473, 0.02154},
	{"cbcm-fig3a-quick", "Ideal(MIN)", 0.2, "", 0.00306, 0.02146},
	{"cbcm-fig3a-quick", "Ideal(MIN)", 0.5, "", 0.00397, 0.02154},
	{"cbcm-fig3a-quick", "ECN(MIN)", 0.5, "", 0.00348, 0.02161},
	{"cbcm-fig3a-quick", "SRP(MIN)", 0.5, "", 0.00552, 0.02162},
	{"cbcm-fig3a-quick", "Ideal(UGAL)", 0.5, "", 0.00556, 0.02145},
	{"cbcm-fig3a-quick", "ECN(UGAL)", 0.5, "", 0.00473, 0.02148},
	{"cbcm-fig3a-quick", "SRP(UGAL)", 0.5, "", 0.00736, 0.02168},
	// measured after the others, alone (PHITSIM_MEASURE_COST_ONLY), on a
	// busier machine: the reference 7% slower; the run is CBCM's past its
	// bound, where the heads at its source queues are most of its cost
	{"cbcm-fig3a-quick", "Ideal(MIN)", 0.5, "congestion.scheme=cbcm", 0.00811, 0.02305},
	{"srp-fig5a-quick", "Baseline(MIN)", 0.5, "", 0.00488, 0.02162},
	{"srp-fig5a-quick", "Baseline(MIN)", 0.5, "congestion.scheme=ecn", 0.00548, 0.02191},
	{"srp-fig5a-quick", "Baseline(MIN)", 0.5, "congestion.scheme=cbcm", 0.00767, 0.02157},
	{"srp-fig5a-quick", "Baseline(MIN)", 0.5, "congestion.scheme=srp", 0.01028, 0.02157},
	{"srp-fig5a-quick", "Baseline(MIN)", 0.5, "congestion.scheme=ideal", 0.00486, 0.02148},
	{"srp-fig5a-quick", "Baseline(MIN)", 0.9, "", 0.00871, 0.02157},
	{"srp-fig5a-quick", "SRP(UGAL)", 0.9, "", 0.01580, 0.02174},
	{"cbcm-fig14-quick", "CBCM", 0.5, "", 0.00823, 0.02174},
	{"cbcm-fig11-quick", "CBCM, early detection", 0.4, "", 0.01800, 0.02169},
	{"cbcm-fig12-quick", "Ideal", 0.7, "", 0.00600, 0.02158},
	{"engine:mesh", "mesh", 0.1, "", 0.00144, 0.02139},
	{"engine:mesh", "mesh", 0.9, "", 0.01347, 0.02145},
	{"engine:fattree64", "fattree64", 0.1, "", 0.01542, 0.02155},
	{"engine:fattree64", "fattree64", 0.9, "", 0.13527, 0.02152},
	{"engine:recn-case1", "recn-case1", 0.5, "", 0.61883, 0.02167},
	{"engine:recn-case1-4q", "recn-case1-4q", 0.5, "", 0.76590, 0.02167},
	{"engine:recn-case1-voqsw", "recn-case1-voqsw", 0.5, "", 0.87219, 0.02170},
	{"engine:recn-case1-voqnet", "recn-case1-voqnet", 0.5, "", 0.87916, 0.02153},
	{"engine:recn-case1-recn", "recn-case1-recn", 0.5, "", 1.37495, 0.02168},
	{"engine:recn-case2", "recn-case2", 1, "", 1.06318, 0.02147},
	{"engine:recn-case2-4q", "recn-case2-4q", 1, "", 1.37983, 0.02141},
	{"engine:recn-case2-voqsw", "recn-case2-voqsw", 1, "", 1.52526, 0.02150},
	{"engine:recn-case2-voqnet", "recn-case2-voqnet", 1, "", 1.73606, 0.02161},
	{"engine:recn-case2-recn", "recn-case2-recn", 1, "", 4.93851, 0.02164},
	{"fig-qcn-10b", "QCN-Switch", 0.4, "", 0.06766, 0.02157},
	{"qcn-transient-h4", "QCN-Switch UN→ADV+1", 0.4, "", 1.00574, 0.02156},
}

// presetJobs are the page presets' jobs, built once (Presets builds
// every preset).
var presetJobs = sync.OnceValue(func() map[string]struct {
	e    Experiment
	jobs []Job
} {
	out := map[string]struct {
		e    Experiment
		jobs []Job
	}{}
	for _, p := range Presets() {
		jobs, _ := p.Exp.Jobs()
		out[p.Name] = struct {
			e    Experiment
			jobs []Job
		}{p.Exp, jobs}
	}
	return out
})

// jobOf is the configuration of a measured run.
func jobOf(t *testing.T, m measuredRun) config.Config {
	t.Helper()
	return measuredJob(t, m).Config
}

// measuredJob is a measured run's job: the first run of its series at its
// x, edited by its set.
func measuredJob(t *testing.T, m measuredRun) Job {
	t.Helper()
	p, ok := presetJobs()[m.preset]
	e, jobs := p.e, p.jobs
	if !ok || len(jobs) == 0 {
		t.Fatalf("no preset %s", m.preset)
	}
	for _, j := range jobs {
		if j.Run == 0 && e.SeriesName(j.Series) == m.series && j.X == m.x {
			if m.set != "" {
				path, value, _ := strings.Cut(m.set, "=")
				if err := j.Config.Set(path, value); err != nil {
					t.Fatal(err)
				}
			}
			return j
		}
	}
	t.Fatalf("%s: no series %q at %g", m.preset, m.series, m.x)
	return Job{}
}

// costRatio is a measured run's time (in runs of the h=2 MIN at 0.5) per
// Cost unit.
func costRatio(t *testing.T, m measuredRun) float64 {
	c := jobOf(t, m)
	return m.cpu / m.ref / Cost(&c)
}

// Cost prices every topology's run as the engine spends: measured natively,
// each run of the 16-node flattened butterfly's presets (Baseline, Ideal,
// ECN, SRP, CBCM; 1- and 32-flit packets; MIN and UGAL; under the
// tornado past MIN's bound), the 64-host fat tree's (IQ, 4Q, VOQsw,
// VOQnet, RECN; corner cases 1 and 2), the mesh's and QCN-Switch's takes
// within 2.5× of the time per Cost unit of the h=2 Dragonfly's runs (their
// median), as they do (MIN, VAL, UGAL; UN and ADV+1). Cost's own
// constants come from callgrind (package runcost); these times only check
// them.
func TestCostAgainstMeasuredRuns(t *testing.T) {
	var h2 []float64
	for _, m := range measuredRuns {
		if strings.HasPrefix(m.preset, "quick-") {
			h2 = append(h2, costRatio(t, m))
		}
	}
	slices.Sort(h2)
	scale := h2[len(h2)/2]
	for _, m := range measuredRuns {
		r := costRatio(t, m) / scale
		t.Logf("%-26s %-24s %4g %-23s measured %6.2f× h2 MIN 0.5, time per Cost unit %.2f× h2's", m.preset, m.series, m.x, m.set, m.cpu/m.ref, r)
		if r > 2.5 || r < 1/2.5 {
			t.Errorf("%s %s at %g %s: time per Cost unit %.2f× the h=2 Dragonfly's, want within 2.5×", m.preset, m.series, m.x, m.set, r)
		}
	}
}

// Cost orders runs as they were measured (measuredRuns): the congestion
// schemes on one 16-node flattened-butterfly run, RECN against IQ under
// the RECN paper's corner case 2, and the 16-node network against the h=2
// Dragonfly, each Cost ratio within 2.5× of the measured time ratio.
func TestCostOrdersAsMeasured(t *testing.T) {
	find := func(preset, series string, x float64, set string) measuredRun {
		for _, m := range measuredRuns {
			if m.preset == preset && m.series == series && m.x == x && m.set == set {
				return m
			}
		}
		t.Fatalf("no measured run %s %s %g %s", preset, series, x, set)
		return measuredRun{}
	}
	cost := func(m measuredRun) float64 { c := jobOf(t, m); return Cost(&c) }
	pairs := []struct {
		name string
		a, b measuredRun
	}{
		{"RECN against IQ, corner case 2", find("engine:recn-case2-recn", "recn-case2-recn", 1, ""), find("engine:recn-case2", "recn-case2", 1, "")},
		{"RECN against IQ, corner case 1", find("engine:recn-case1-recn", "recn-case1-recn", 0.5, ""), find("engine:recn-case1", "recn-case1", 0.5, "")},
		{"VOQnet against IQ, corner case 2", find("engine:recn-case2-voqnet", "recn-case2-voqnet", 1, ""), find("engine:recn-case2", "recn-case2", 1, "")},
		{"16-node flattened butterfly (1-flit packets) against h=2 MIN at 0.5", find("cbcm-fig2-quick", "Baseline(MIN)", 0.5, ""), find("quick-un", "MIN", 0.5, "")},
		{"16-node flattened butterfly (32-flit packets) against h=2 MIN at 0.5", find("fbfly16-perm-quick", "MIN", 0.45, ""), find("quick-un", "MIN", 0.5, "")},
		{"SRP against Baseline, 16 nodes, UR 0.5", find("srp-fig5a-quick", "Baseline(MIN)", 0.5, "congestion.scheme=srp"), find("srp-fig5a-quick", "Baseline(MIN)", 0.5, "")},
		{"CBCM against Baseline, 16 nodes, UR 0.5", find("srp-fig5a-quick", "Baseline(MIN)", 0.5, "congestion.scheme=cbcm"), find("srp-fig5a-quick", "Baseline(MIN)", 0.5, "")},
		{"Ideal(MIN) under the tornado past MIN's bound against ECN(MIN)", find("cbcm-fig3a-quick", "Ideal(MIN)", 0.5, ""), find("cbcm-fig3a-quick", "ECN(MIN)", 0.5, "")},
		{"CBCM(MIN) under the tornado past MIN's bound against Ideal(MIN)", find("cbcm-fig3a-quick", "Ideal(MIN)", 0.5, "congestion.scheme=cbcm"), find("cbcm-fig3a-quick", "Ideal(MIN)", 0.5, "")},
	}
	for _, p := range pairs {
		measured, est := p.a.cpu/p.b.cpu, cost(p.a)/cost(p.b)
		t.Logf("%s: measured %.2f×, Cost %.2f×", p.name, measured, est)
		if est > 2.5*measured || est < measured/2.5 {
			t.Errorf("%s: Cost %.2f×, measured %.2f×: want within 2.5×", p.name, est, measured)
		}
	}
	// one run of srp-fig5a-quick's Baseline(MIN) at 0.5 with each scheme,
	// in the measured order
	var prev measuredRun
	for i, s := range []string{"", "congestion.scheme=ecn", "congestion.scheme=cbcm", "congestion.scheme=srp"} {
		m := find("srp-fig5a-quick", "Baseline(MIN)", 0.5, s)
		if i > 0 {
			if !(m.cpu > prev.cpu) {
				t.Fatalf("measured %q %.4f s, not above %q's %.4f s", s, m.cpu, prev.set, prev.cpu)
			}
			if !(cost(m) > cost(prev)) {
				t.Errorf("Cost of %q %.4g, not above %q's %.4g (measured %.4f s against %.4f s)", s, cost(m), prev.set, cost(prev), m.cpu, prev.cpu)
			}
		}
		prev = m
	}
}
