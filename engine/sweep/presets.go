package sweep

import (
	"fmt"
	"slices"
	"strings"

	"phitsim/engine/config"
)

// Experiment is a named sweep: several configurations compared as series
// over offered loads. These reproduce the comparisons of the thesis and the
// ACOR paper at browser-friendly sizes (h=4, short runs).
type Experiment struct {
	Name, Doc string
	Spec      Spec
	// Table: the CLI also prints the runs as the thesis's fairness tables
	// (Tables 3.1–3.3): min injection, Max/Min and CoV per routing and load,
	// or per value of the swept parameter (Figs. 3.10, 3.13: per size).
	Table bool
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

// acorBase is the ACOR paper's system (Table 3) at its 1,056-host scaling
// (§6.2.2: IT₁/DT₁ = 20/8), the acor-1056 preset (config.AcorPaper: 90-cycle
// switch, 15/150-cycle links, 10-phit packets, 4/2/1 VCs, restricted
// Valiant with recomputation, PB's C_g = 120 % and T_g = 5, UGAL's T = 0),
// with FOGSim's model as every experiment. 6,000 warm-up + 6,000 measured
// cycles: a path takes about 700–1,000 cycles.
func acorBase(pattern string, offset int) config.Config {
	c := config.AcorPaper(4)
	c.UseFOGSimModel()
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 6000, 6000, 2
	c.Traffic.Pattern, c.Traffic.AdvOffset = pattern, offset
	return c
}

// acorSeries are series of acorBase, each with the paper's VCs for its
// routing (2/1/1 for MIN, 4/2/1 otherwise).
func acorSeries(b config.Config, names ...string) []config.Config {
	out := series(b, names...)
	for i := range out {
		out[i].AcorPaperVCs()
	}
	return out
}

// Experiments lists the named comparisons.
func Experiments() []Experiment {
	thesis := func(pattern string, offset int, doc string, ls []float64) Experiment {
		name := "thesis-" + strings.ToLower(pattern)
		if pattern == "ADV" {
			name = fmt.Sprintf("thesis-adv%d", offset)
		}
		return Experiment{Name: name, Doc: doc, Spec: Spec{Series: series(base(4, pattern, offset), "MIN", "VAL", "PB", "OLM"), Loads: ls}}
	}
	acor := func(pattern string, offset int, doc string) Experiment {
		name := "acor-" + strings.ToLower(pattern)
		if pattern == "ADV" {
			name = fmt.Sprintf("acor-adv%d", offset)
		}
		return Experiment{Name: name, Doc: doc, Spec: Spec{Series: acorSeries(acorBase(pattern, offset),
			"VAL", "ACOR:2LA", "ACOR:2LB", "ACOR:3L", "PB", "PB_ACOR"), Loads: loads(0.05, 0.65, 0.1)}}
	}
	return slices.Concat([]Experiment{
		thesis("UN", 1, "MIN, VAL, PB and OLM under uniform traffic (thesis §1.4, h=4)", loads(0.1, 0.9, 0.1)),
		thesis("ADV", 1, "MIN, VAL, PB and OLM under ADV+1: MIN caps at 1/(a·p)", loads(0.05, 0.65, 0.1)),
		thesis("ADV", 4, "MIN, VAL, PB and OLM under ADV+h", loads(0.05, 0.65, 0.1)),
		thesis("ADVC", 1, "MIN, VAL, PB and OLM under ADVc: unfair to router a−1", loads(0.05, 0.65, 0.1)),
		acor("UN", 1, "ACOR paper: VAL vs ACOR-2LA/2LB/3L vs PB vs PB-ACOR under UN (1,056 hosts, the paper's Table 3 timing)"),
		acor("ADV", 1, "ACOR paper comparison under ADV+1"),
		acor("ADV", 4, "ACOR paper comparison under ADV+h"),
		acor("ADVC", 1, "ACOR paper comparison under ADVc"),
		fairness("thesis-table3.1", "rr", true, "thesis Table 3.1 (§3.3.1): ADVc, round-robin arbiters with in-transit priority; in-transit routing starves router a−1"),
		fairness("thesis-table3.2", "rr", false, "thesis Table 3.2 (§3.3.3): ADVc, round-robin arbiters without priority; in-transit Max/Min about 1.5"),
		fairness("thesis-table3.3", "age", false, "thesis Table 3.3 (§3.3.4): ADVc, age arbitration at both allocator stages; in-transit as fair as oblivious"),
		size("thesis-fig3.10", "rr", false, "thesis Fig. 3.10 (§3.3.3): fairness vs network size h = 2…8, ADVc at 0.4, round-robin without priority; Src's unfairness grows with size"),
		size("thesis-fig3.13", "age", false, "thesis Fig. 3.13 (§3.3.4): fairness vs network size h = 2…8, ADVc at 0.4, age arbitration; in-transit fair at every size"),
	},
		// each family of experiments on a line of its own
		transientExperiments(),
		acorStepExperiments(),
		acorThresholdExperiments(),
		acor5256Experiments(),
		flexExperiments(),
		qcnExperiments(),
		fbflyExperiments(),
		fattreeExperiments(),
		cmExperiments(),
		figureExperiments(),
		galleryExperiments(),
	)
}

// fbflyExperiments are MIN against UGAL on the flattened butterflies of Kim
// et al., Contention-based Congestion Management in Large-Scale Networks
// (§V-A, config.FBFly: the paper's router where the model expresses it),
// under UR and under the adversarial permutation n → n+c (TORNADO: the
// 16-node n → n+4 of Fig. 3a, the 512-node tornado n → n+8 of Fig. 9a).
func fbflyExperiments() []Experiment {
	exp := func(name, doc string, dims, k, c int, pattern string, ls []float64) Experiment {
		b := config.FBFly(dims, k, c)
		b.Traffic.Pattern = pattern
		if dims == 1 && k == 4 {
			// the 16-node curves run long, with 5 seeds, for confidence
			// intervals (the page's fbfly16-perm-quick preset is the quick one)
			b.Sim.Warmup, b.Sim.Cycles, b.Sim.Seeds = 100000, 100000, 5
		}
		return Experiment{Name: name, Doc: doc, Spec: Spec{Series: series(b, "MIN", "UGAL"), Loads: ls}}
	}
	return []Experiment{
		exp("fbfly16-ur", "16-node 1D flattened butterfly, MIN vs UGAL under UR (MIN's link bound 15/16)", 1, 4, 4, "UN", loads(0.1, 0.9, 0.1)),
		exp("fbfly16-perm", "16-node 1D flattened butterfly, MIN vs UGAL under the permutation n → n+4 (paper Fig. 3a): MIN caps at 1/4, UGAL about 0.39 (0.45 comparing per VC; with routing.ugalIntermediate=detour 0.43 and 0.5)", 1, 4, 4, "TORNADO", loads(0.05, 0.55, 0.05)),
		exp("fbfly256-ur", "256-node 1D flattened butterfly (radix 31), MIN vs UGAL under UR", 1, 16, 16, "UN", loads(0.1, 0.9, 0.2)),
		exp("fbfly256-tornado", "256-node 1D flattened butterfly, MIN vs UGAL under n → n+16: MIN caps at 1/16", 1, 16, 16, "TORNADO", loads(0.05, 0.45, 0.1)),
		exp("fbfly512-ur", "512-node 2D flattened butterfly (8×8, c=8, radix 22; paper Fig. 8a without congestion management), MIN vs UGAL under UR", 2, 8, 8, "UN", loads(0.1, 0.9, 0.2)),
		exp("fbfly512-tornado", "512-node 2D flattened butterfly, MIN vs UGAL under tornado n → n+8 (paper Fig. 9a without congestion management): MIN caps at 1/8", 2, 8, 8, "TORNADO", loads(0.05, 0.45, 0.1)),
	}
}

// fattreeExperiments: D-mod-k MIN under UR on the RECN paper's 64-host fat
// tree (config.FatTree: its switch where the model expresses it), up to
// load 1 (the bisection bound: 1; one FIFO per port side loses about a
// tenth of it to head-of-line blocking). 50,000 + 50,000 cycles and 4
// seeds, for confidence intervals.
func fattreeExperiments() []Experiment {
	b := config.FatTree(4, 3, 0)
	b.Sim.Warmup, b.Sim.Cycles, b.Sim.Seeds = 50000, 50000, 4
	return append([]Experiment{{Name: "fattree64-ur", Doc: "64-host fat tree (4-ary 3-tree, the RECN paper's 48 switches), D-mod-k MIN under UR: full bisection, about 0.9 accepted at load 1",
		Spec: Spec{Series: series(b, "MIN"), Loads: loads(0.1, 1, 0.1)}}}, recnExperiments()...)
}

// recnExperiments are the RECN paper's Fig. 2 (a) and (b), corner cases 1
// and 2 on the 64-host fat tree (config.RECNCornerCase), with the baselines
// (router.queueing: IQ, 4Q, VOQsw, VOQnet; and RECN, congestion.scheme=recn);
// each run's throughput against time is in its series (Result.Throughput).
// RECN's SAQ utilisation is in Result.RECN.
func recnExperiments() []Experiment {
	var out []Experiment
	for cc, panel := range []string{1: "a", 2: "b"} {
		if panel == "" {
			continue
		}
		var series []config.Config
		for _, sc := range config.RECNSchemes {
			c := config.RECNBaseline(cc, sc.Queueing)
			c.Name = sc.Name
			series = append(series, c)
		}
		rn := config.RECNMechanism(cc)
		rn.Name = "RECN"
		series = append(series, rn)
		out = append(out, Experiment{Name: "recn-fig2" + panel,
			Doc:  fmt.Sprintf("RECN paper Fig. 2%s, corner case %d: 64-host fat tree, 48 hosts UN at load %g, 16 hosts (one per leaf) → host 32 from 800 to 970 µs; IQ, 4Q, VOQsw, VOQnet, RECN, throughput vs time in bytes/ns; RECN's SAQs per 5-µs bin (Fig. 4) in its runs' result.recn; %s of workers' time in a browser tab, shared among its workers", panel, cc, series[0].Traffic.Load, map[string]string{"a": "27–34 s", "b": "53–66 s"}[panel]),
			Spec: Spec{Series: series, Loads: []float64{series[0].Traffic.Load}}})
	}
	// Fig. 6: corner case 2 scaled to 256 and 512 hosts (config.RECNLarge)
	for _, hosts := range []int{256, 512} {
		var series []config.Config
		for _, s := range config.RECNLargeSchemes[hosts] {
			c, err := config.RECNLarge(hosts, s.Scheme)
			if err != nil {
				panic(err)
			}
			c.Name = s.Name
			series = append(series, c)
		}
		panel := map[int]string{256: "a", 512: "b"}[hosts]
		out = append(out, Experiment{Name: "recn-fig6" + panel,
			Doc:  fmt.Sprintf("RECN paper Fig. 6%s, corner case 2 scaled: %d-host fat tree, %d hosts UN at load 1, %d (one per leaf) → host %d from 800 to 970 µs; %s, throughput vs time in bytes/ns (minutes of CPU a run)", panel, hosts, hosts*3/4, hosts/4, hosts/2, seriesNames(series)),
			Spec: Spec{Series: series, Loads: []float64{1}}})
	}
	return out
}

// seriesNames lists the series' names, comma-separated.
func seriesNames(series []config.Config) string {
	var s []string
	for _, c := range series {
		s = append(s, c.Name)
	}
	return strings.Join(s, ", ")
}

// FairnessLoads are the offered loads of the fairness tables (Tables
// 3.1–3.3) at h=4, evenly spaced so the page can sweep them: 0.10 is below
// MIN's ADVc saturation (h/(a·p) = 0.125 at h=4; the thesis's 0.03 at h=8)
// and is Src-CRG's load, 0.25 is below Src-RRG's saturation (the thesis's
// 0.30), 0.40 is the oblivious and in-transit load, and 0.55 is beyond every
// saturation point.
var FairnessLoads = loads(0.1, 0.55, 0.15)

// fairness is one of the thesis's Chapter 3 tables (§3.3): the chapter's
// routing matrix under ADVc with one arbitration. The thesis's mechanisms
// map onto phitsim's routings as follows (thesis §3.3, §1.4.3):
//   - MIN;
//   - Obl-RRG, Obl-CRG: VAL (Valiant to a router, 4/2 VCs) with phase A
//     RRG-Sw (any group) or CRG-Sw (a group linked to the source router);
//   - Src-RRG, Src-CRG: PB (PiggyBack: the decision once, at injection, with
//     the relative per-VC saturation test) with the same two phase-A policies;
//   - In-Trns-RRG, -CRG, -MM: OLM (the thesis's in-transit routing: 3/2 VCs,
//     opportunistic local hops) with the policies RRG_L, CRG_L and MM_L,
//     because the thesis's in-transit routing may also misroute once in the
//     intermediate group (§1.4.2.2), which is phitsim's _L; PAR would need 5/2
//     VCs the chapter does not use.
//
// ADVc is the thesis's (groups +1…+h of router a−1; traffic.advcFogsim off).
// The table's columns are the sweep's min_injection (and its share of the
// offered load), max_min and cov; "Avg sat. load" is the highest accepted.
func fairness(name, arbiter string, priority bool, doc string) Experiment {
	b := base(4, "ADVC", 1)
	b.Router.InputArbiter, b.Router.OutputArbiter, b.Router.TransitPriority = arbiter, arbiter, priority
	// Max/Min carries the generation's sampling noise, about 1 + 5.4/√n over
	// 132 routers of n packets each: 8,000 cycles keep it near 1.15 at 0.4
	// (the thesis's 1.05 is that floor for 60,000 cycles at h=8).
	b.Sim.Cycles = 8000
	var out []config.Config
	add := func(name, routing string, edit func(*config.Config)) {
		c := b
		c.Name, c.Routing.Name = name, routing
		if edit != nil {
			edit(&c)
		}
		out = append(out, c)
	}
	phaseA := func(p string) func(*config.Config) { return func(c *config.Config) { c.Routing.PhaseA = p } }
	policy := func(p string) func(*config.Config) { return func(c *config.Config) { c.Routing.Policy = p } }
	add("MIN", "MIN", nil)
	add("Obl-RRG", "VAL", phaseA("RRG-Sw"))
	add("Obl-CRG", "VAL", phaseA("CRG-Sw"))
	add("Src-RRG", "PB", phaseA("RRG-Sw"))
	add("Src-CRG", "PB", phaseA("CRG-Sw"))
	add("In-Trns-RRG", "OLM", policy("RRG_L"))
	add("In-Trns-CRG", "OLM", policy("CRG_L"))
	add("In-Trns-MM", "OLM", policy("MM_L"))
	return Experiment{Name: name, Doc: doc, Spec: Spec{Series: out, Loads: FairnessLoads}, Table: true}
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
