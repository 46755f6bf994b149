package sweep

import (
	"fmt"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/topology"
)

// The QCN-Switch paper's experiments (§4–5, Figs. 6–18) on its Ethernet
// Dragonfly (config's ethernet-h4 and ethernet-h6 presets: Table I with
// 100-byte phits, so a cycle is 20 ns and a 1 KB packet 10 phits), with
// FOGSim's model as the paper's curves came from FOGSim, and FOGSim's
// sampling clock (routing.qcnSamplingClock=fogsim): with the paper's
// arrival count phitsim's probabilities settle too high under ADV+1
// (engine/ROUTING.md, "QCN-Switch"). engine/REPRODUCTION.md ("QCN-Switch
// paper") has what they measure.
//
// Run length: the paper warms up 2.4 ms and measures 2.4 ms (120,000 +
// 120,000 cycles) over 10 seeds. The h=4 entries are shortened for the
// browser (natively, on two shared cores, qcn-fig8-adv1 takes about two
// minutes, the saturated qcn-fig18-perm about six): one seed (Figs. 7/9 two,
// the transients three), QCNWarmup (ADV+1 and PERM: 400 µs, the
// probabilities start at 100% and the minimal burst must drain) or
// QCNWarmupUN (UN, HOT: 200 µs) of warm-up, then QCNCycles (100 µs)
// measured. The -h6 entries keep the paper's run.
const (
	QCNWarmup   = 20000
	QCNWarmupUN = 10000
	QCNCycles   = 5000
	// QCNBin is the paper's transient bin, 20 µs (config.EthernetBinNs) in
	// cycles of 20 ns; the transient records (10-cycle bins) are re-binned
	// to it by QCNRebin.
	QCNBin = 1000
	// QCNTransientLoad is the paper's transient load (§4.3, Fig. 10).
	QCNTransientLoad = 0.4
	// QCNTransientSwitch: the switch comes this many cycles into the
	// measured window, after QCNWarmupUN (UN→ADV+1) or QCNWarmup (ADV+1→UN)
	// of the first pattern; the record runs config.TransientAfter (10,000
	// cycles, 200 µs) past it. The paper warms up 2.4 ms and plots 2.4 ms
	// after the switch (§4.3); the reaction to UN→ADV+1 that it measures,
	// about 0.4 ms, is longer than phitsim's record.
	QCNTransientSwitch = 2000
	// QCNTransientMargin: the run goes on this many cycles past the record
	// so that the packets generated in its last bins arrive (PoolTransient
	// leaves out the bins within the longest latency of the run's end):
	// after UN→ADV+1 at h=4 the minimal burst's packets take up to about
	// 20,000 cycles (400 µs) with the default CNM rate.
	QCNTransientMargin = 20000
	// QCNTransientSeeds runs are pooled at h=4 (the paper plots one run,
	// Fig. 12b's markers; the thesis's transients pool six).
	QCNTransientSeeds = 3
)

// qcnVariant is one QCN-Switch configuration of the paper's legends.
type qcnVariant struct {
	name     string
	sampling string // output or input
	sp       bool   // source processing
	fbc      bool   // feedback comparison
	cut      bool   // source processing as FOGSim v5's cut (routing.qcnSourceProcessingRule=cut)
}

// The variants of paper §1.7's table (Figs. 6–9): input sampling ± source
// processing ± feedback comparison, output sampling ± feedback comparison;
// "QCN-Switch" from Fig. 10 on is output sampling with feedback comparison.
var (
	qcnInputVariants = []qcnVariant{
		{"QCN-SWin", "input", false, false, false},
		{"QCN-SWin+SP", "input", true, false, false},
		{"QCN-SWin+FbC", "input", false, true, false},
		{"QCN-SWin+SP+FbC", "input", true, true, false},
	}
	qcnOutputVariants = []qcnVariant{
		{"QCN-SWout", "output", false, false, false},
		{"QCN-SWout+FbC", "output", false, true, false},
	}
	// qcnFOGSimSP is QCN-SWin+SP+FbC with FOGSim v5's source processing,
	// which cuts by 1 − L_f·|Fb| past feedback comparison
	// (switchModule::qcnOccupancySampling, QCNSWCOMPLETE): Fig. 6a's
	// regression of this variant appears with it only (engine/ROUTING.md,
	// "QCN-Switch").
	qcnFOGSimSP = qcnVariant{"QCN-SWin+SP+FbC (FOGSim cut)", "input", true, true, true}
)

func (v qcnVariant) config(b config.Config) config.Config {
	c := b
	c.Name, c.Routing.Name = v.name, "QCN_SWITCH"
	c.Routing.QcnSampling, c.Routing.QcnSourceProcessing = v.sampling, v.sp
	c.Routing.QcnFbComparison = "off"
	if v.fbc {
		c.Routing.QcnFbComparison = "on"
	}
	if v.cut {
		c.Routing.QcnSPRule = "cut"
	}
	return c
}

// qcnBase is the Ethernet Dragonfly of preset (ethernet-h4 or ethernet-h6)
// under pattern (ADV is ADV+1) with FOGSim's model and sampling clock. The
// run is the preset's (the paper's for h=6); the h=4 entries shorten it.
func qcnBase(preset, pattern string) config.Config {
	c, err := config.PresetByName(preset)
	if err != nil {
		panic(err)
	}
	c.UseFOGSimModel()
	c.Routing.QcnClock = "fogsim"
	c.Traffic.Pattern, c.Traffic.AdvOffset = pattern, 1
	return c
}

// qcnH4 is qcnBase at h=4 with the shortened run.
func qcnH4(pattern string) config.Config {
	c := qcnBase("ethernet-h4", pattern)
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = QCNWarmup, QCNCycles, 1
	if pattern == "UN" {
		c.Sim.Warmup = QCNWarmupUN
	}
	return c
}

// qcnSeries: the baselines MIN, VAL, PB (the paper's references, §4.2)
// then the variants.
func qcnSeries(b config.Config, baselines []string, vs ...qcnVariant) []config.Config {
	out := series(b, baselines...)
	for _, v := range vs {
		out = append(out, v.config(b))
	}
	return out
}

// qcnSwitch is the paper's final QCN-Switch (output sampling, feedback
// comparison) named name, with edit applied.
func qcnSwitch(b config.Config, name string, edit func(*config.Routing)) config.Config {
	c := qcnVariant{name, "output", false, true, false}.config(b)
	if edit != nil {
		edit(&c.Routing)
	}
	return c
}

// QCNCnmRates are the (CPC, %CNMs) pairs of Figs. 11–12 the paper names:
// 0.1% (QCN's default), 0.3% (Table I) and 3.2% CNMs per forwarded packet;
// PC_l follows CPC (paper §5.3.1, "set accordingly").
var QCNCnmRates = [][2]float64{{100, 10}, {100, 30}, {25, 80}}

// QCNLfs are Figs. 13–14's reduction limiting factors.
var QCNLfs = []float64{1.0 / 64, 1.0 / 85, 1.0 / 128, 1.0 / 256}

func qcnRateSeries(b config.Config) []config.Config {
	var out []config.Config
	for _, r := range QCNCnmRates {
		cpc, pct := int(r[0]), r[1]
		out = append(out, qcnSwitch(b, fmt.Sprintf("CPC %d, %g%% CNMs (%.1f%%)", cpc, pct, pct/float64(cpc)), func(rc *config.Routing) {
			rc.QcnCPC, rc.QcnPCl, rc.QcnCnmPercent = cpc, cpc, pct
		}))
	}
	return out
}

func qcnLfSeries(b config.Config) []config.Config {
	var out []config.Config
	for _, lf := range QCNLfs {
		out = append(out, qcnSwitch(b, fmt.Sprintf("Lf 1/%.0f", 1/lf), func(rc *config.Routing) { rc.QcnLf = lf }))
	}
	return out
}

// QCNPIs are Fig. 15's additive increases (percentage points; 5 stands for
// the paper's unnamed "high values").
var QCNPIs = []float64{0.1, 0.5, 1, 5}

// QCNTh2s are Fig. 16's thresholds (the paper names 0, 30 and 50 of its
// sweep 0–50); 0 is routing.qcnTh2 = −1, its band of 0.
var QCNTh2s = []float64{0, 10, 30, 50}

func qcnPISeries(b config.Config) []config.Config {
	var out []config.Config
	for _, pi := range QCNPIs {
		out = append(out, qcnSwitch(b, fmt.Sprintf("PI %g", pi), func(rc *config.Routing) { rc.QcnPI = pi }))
	}
	return out
}

func qcnTh2Series(b config.Config) []config.Config {
	var out []config.Config
	for _, th := range QCNTh2s {
		out = append(out, qcnSwitch(b, fmt.Sprintf("Th2 %g", th), func(rc *config.Routing) {
			rc.QcnTh2 = th
			if th == 0 {
				rc.QcnTh2 = -1
			}
		}))
	}
	return out
}

// QCN loads: UN to 1.0 (the collapse past saturation, Figs. 6a, 8a), ADV+1
// to 0.5, its bound.
var (
	QCNLoadsUN  = loads(0.2, 1, 0.2)
	QCNLoadsADV = loads(0.1, 0.5, 0.2)
)

// QCNSizes are Fig. 17's network sizes at phitsim's scale: h = 2…6 (72 to
// 5,256 nodes; the paper's run from 1,056 to 16,512, h = 4…8).
var QCNSizes = []float64{2, 3, 4, 5, 6}

func qcnExperiments() []Experiment {
	un, adv := qcnH4("UN"), qcnH4("ADV")
	base3 := []string{"MIN", "VAL", "PB"}
	exp := func(name, doc string, ss []config.Config, ls []float64) Experiment {
		return Experiment{Name: name, Doc: doc, Spec: Spec{Series: ss, Loads: ls}}
	}
	param := func(name, doc string, ss []config.Config, path string, values []float64) Experiment {
		return Experiment{Name: name, Doc: doc, Spec: Spec{Series: ss, Param: path, Values: values}}
	}
	at := func(c config.Config, load float64) config.Config { c.Traffic.Load = load; return c }
	sw := func(b config.Config) []config.Config { return []config.Config{qcnSwitch(b, "QCN-Switch", nil)} }

	fair := at(adv, 0.4)
	// per-router counts: more packets than the curves need
	fair.Sim.Cycles, fair.Sim.Seeds = 10000, 2
	fig79 := exp("qcn-fig7-9", "QCN-Switch paper Figs. 7 and 9: injected throughput per router of group 0 under ADV+1 at 0.4, every variant (h=4); input sampling without source processing starves S_out (the last router), source processing and output sampling even it out",
		qcnSeries(fair, nil, append(append([]qcnVariant{}, qcnInputVariants...), qcnOutputVariants...)...), []float64{0.4})
	fig79.Table = true

	hot := qcnH4("HOT")
	hot.Sim.Warmup = QCNWarmupUN
	perm := qcnH4("PERM")
	fig18 := qcnSeries(hot, base3, qcnOutputVariants[1], qcnOutputVariants[0])
	fig18[3].Name, fig18[4].Name = "QCN-Switch", "QCN-Switch no FbC"
	fig18p := qcnSeries(perm, base3, qcnOutputVariants[1], qcnOutputVariants[0])
	fig18p[3].Name, fig18p[4].Name = "QCN-Switch", "QCN-Switch no FbC"

	// Fig. 17: latency at 0.65 (UN) and 0.35 (ADV+1), throughput at 1.0
	size := func(name, doc string, b config.Config, load float64) Experiment {
		ss := append(series(at(b, load), "MIN", "VAL"), sw(at(b, load))...)
		return param(name, doc, ss, "topology.h", QCNSizes)
	}

	h6 := func(pattern string) config.Config { return qcnBase("ethernet-h6", pattern) }
	out := []Experiment{
		exp("qcn-fig6-un", "QCN-Switch paper Fig. 6a: input sampling ± source processing ± feedback comparison vs MIN, VAL, PB under UN (h=4); without feedback comparison throughput nosedives past saturation; the last series processes a source-processed CNM as FOGSim v5 does (a cut past feedback comparison), with which QCN-SWin+SP+FbC loses throughput again",
			qcnSeries(un, base3, append(append([]qcnVariant{}, qcnInputVariants...), qcnFOGSimSP)...), QCNLoadsUN),
		exp("qcn-fig6-adv1", "QCN-Switch paper Fig. 6b: the input-sampling variants under ADV+1 (h=4); without source processing S_out's nodes route minimally: latency at low load, ≈2% loss below saturation",
			qcnSeries(adv, base3, qcnInputVariants...), QCNLoadsADV),
		fig79,
		exp("qcn-fig8-un", "QCN-Switch paper Fig. 8a: output sampling ± feedback comparison vs MIN, VAL, PB under UN (h=4); without feedback comparison throughput collapses past saturation, with it MIN's latency",
			qcnSeries(un, base3, qcnOutputVariants...), QCNLoadsUN),
		exp("qcn-fig8-adv1", "QCN-Switch paper Fig. 8b: output sampling ± feedback comparison under ADV+1 (h=4); throughput ≈ VAL's, latency below PB's",
			qcnSeries(adv, base3, qcnOutputVariants...), QCNLoadsADV),
		exp("qcn-fig11-un", "QCN-Switch paper Fig. 11a: CNM rates (CPC, %CNMs) = (100, 10), (100, 30), (25, 80) under UN (h=4); more CNMs raise latency at high load",
			qcnRateSeries(un), QCNLoadsUN),
		exp("qcn-fig11-adv1", "QCN-Switch paper Fig. 11b: CNM rates under ADV+1 (h=4); QCN's default 0.1% has high latency at medium load",
			qcnRateSeries(adv), QCNLoadsADV),
		exp("qcn-fig13-un", "QCN-Switch paper Fig. 13: L_f = 1/64, 1/85, 1/128, 1/256 under UN (h=4)", qcnLfSeries(un), QCNLoadsUN),
		exp("qcn-fig13-adv1", "QCN-Switch paper Fig. 13: L_f under ADV+1 (h=4); 1/64 has the lowest latency", qcnLfSeries(adv), QCNLoadsADV),
		exp("qcn-fig15-un", "QCN-Switch paper Fig. 15: PI (routing.qcnPI) = 0.1, 0.5, 1 and 5 points under UN (h=4); a low PI is slow to undo spurious misrouting at high load",
			qcnPISeries(un), QCNLoadsUN),
		exp("qcn-fig15-adv1", "QCN-Switch paper Fig. 15: PI under ADV+1 (h=4); a high PI returns to minimal too early: latency",
			qcnPISeries(adv), QCNLoadsADV),
		exp("qcn-fig16-un", "QCN-Switch paper Fig. 16a: Th2 = 0, 10, 30, 50 under UN (h=4); Th2 = 0 loses latency and throughput",
			qcnTh2Series(un), QCNLoadsUN),
		exp("qcn-fig16-adv1", "QCN-Switch paper Fig. 16b: Th2 under ADV+1 (h=4); a very high Th2 loses throughput",
			qcnTh2Series(adv), QCNLoadsADV),
		size("qcn-fig17-un", "QCN-Switch paper Fig. 17: network size h = 2…6 (72–5,256 nodes), UN at 0.65, QCN-Switch vs MIN, VAL (long: h=6)", un, 0.65),
		size("qcn-fig17-adv1", "QCN-Switch paper Fig. 17: network size h = 2…6, ADV+1 at 0.35 (long: h=6)", adv, 0.35),
		size("qcn-fig17-sat", "QCN-Switch paper Fig. 17: network size h = 2…6, saturation throughput (UN at 1.0; long: h=6)", un, 1),
		size("qcn-fig17-adv1-sat", "QCN-Switch paper Fig. 17: network size h = 2…6, saturation throughput under ADV+1 (at 1.0; long: h=6); QCN-Switch ≈ VAL at every size", adv, 1),
		exp("qcn-fig18-hot", "QCN-Switch paper Fig. 18a: hot region (25% of the traffic to 12.5% of the nodes; endpoints saturate at ≈0.36) to 1.0 (h=4); QCN-Switch drops ≈18% past its peak, PB and VAL 1–2%",
			fig18, loads(0.2, 1, 0.2)),
		exp("qcn-fig18-perm", "QCN-Switch paper Fig. 18b: random permutation (h=4); PB beats QCN-Switch, MIN and VAL saturate earlier",
			fig18p, loads(0.2, 1, 0.2)),
		// the paper's system and run: 5,256 nodes, 2.4 + 2.4 ms, 10 seeds
		exp("qcn-fig8-un-h6", "QCN-Switch paper Fig. 8a on the paper's 5,256-node system and run (h=6, 2.4 + 2.4 ms, 10 seeds; long)",
			qcnSeries(h6("UN"), base3, qcnOutputVariants...), QCNLoadsUN),
		exp("qcn-fig8-adv1-h6", "QCN-Switch paper Fig. 8b on the paper's 5,256-node system and run (h=6; long)",
			qcnSeries(h6("ADV"), base3, qcnOutputVariants...), loads(0.1, 0.5, 0.1)),
		exp("qcn-fig6-adv1-h6", "QCN-Switch paper Fig. 6b on the paper's 5,256-node system and run (h=6; long)",
			qcnSeries(h6("ADV"), base3, qcnInputVariants...), loads(0.1, 0.5, 0.1)),
	}
	out = append(out, qcnH6Experiments()...)
	return append(out, qcnTransientExperiments()...)
}

// qcnH6Experiments are the steady-state figures not listed above on the
// paper's 5,256-node system and run (ethernet-h6: 2.4 + 2.4 ms, 10 seeds):
// the h=4 entries' series and loads, ADV+1 to 0.5 in steps of 0.1 as
// qcn-fig8-adv1-h6. engine/REPRODUCTION.md's h=6 column ran their series
// one at a time with shorter runs (`phitsim run`, sim.seeds=1).
func qcnH6Experiments() []Experiment {
	un, adv := qcnBase("ethernet-h6", "UN"), qcnBase("ethernet-h6", "ADV")
	advLoads := loads(0.1, 0.5, 0.1)
	base3 := []string{"MIN", "VAL", "PB"}
	exp := func(name, fig, claim string, ss []config.Config, ls []float64) Experiment {
		return Experiment{Name: name, Doc: "QCN-Switch paper " + fig + " on the paper's 5,256-node system and run (h=6, 2.4 + 2.4 ms, 10 seeds; long): " + claim, Spec: Spec{Series: ss, Loads: ls}}
	}
	fair := adv
	fair.Traffic.Load = 0.4
	fig79 := exp("qcn-fig7-9-h6", "Figs. 7 and 9", "injected throughput per router of group 0 under ADV+1 at 0.4, every variant",
		qcnSeries(fair, nil, append(append([]qcnVariant{}, qcnInputVariants...), qcnOutputVariants...)...), []float64{0.4})
	fig79.Table = true
	named := func(b config.Config) []config.Config {
		ss := qcnSeries(b, base3, qcnOutputVariants[1], qcnOutputVariants[0])
		ss[3].Name, ss[4].Name = "QCN-Switch", "QCN-Switch no FbC"
		return ss
	}
	return []Experiment{
		exp("qcn-fig6-un-h6", "Fig. 6a", "input sampling ± source processing ± feedback comparison vs MIN, VAL, PB under UN",
			qcnSeries(un, base3, append(append([]qcnVariant{}, qcnInputVariants...), qcnFOGSimSP)...), QCNLoadsUN),
		fig79,
		exp("qcn-fig11-un-h6", "Fig. 11a", "CNM rates (CPC, %CNMs) = (100, 10), (100, 30), (25, 80) under UN", qcnRateSeries(un), QCNLoadsUN),
		exp("qcn-fig11-adv1-h6", "Fig. 11b", "CNM rates under ADV+1", qcnRateSeries(adv), advLoads),
		exp("qcn-fig13-un-h6", "Fig. 13", "L_f = 1/64, 1/85, 1/128, 1/256 under UN", qcnLfSeries(un), QCNLoadsUN),
		exp("qcn-fig13-adv1-h6", "Fig. 13", "L_f under ADV+1", qcnLfSeries(adv), advLoads),
		exp("qcn-fig15-un-h6", "Fig. 15", "PI = 0.1, 0.5, 1 and 5 points under UN", qcnPISeries(un), QCNLoadsUN),
		exp("qcn-fig15-adv1-h6", "Fig. 15", "PI under ADV+1", qcnPISeries(adv), advLoads),
		exp("qcn-fig16-un-h6", "Fig. 16a", "Th2 = 0, 10, 30, 50 under UN", qcnTh2Series(un), QCNLoadsUN),
		exp("qcn-fig16-adv1-h6", "Fig. 16b", "Th2 under ADV+1", qcnTh2Series(adv), advLoads),
		exp("qcn-fig18-hot-h6", "Fig. 18a", "hot region (25% of the traffic to 12.5% of the nodes)",
			named(qcnBase("ethernet-h6", "HOT")), loads(0.2, 1, 0.2)),
		exp("qcn-fig18-perm-h6", "Fig. 18b", "random permutation", named(qcnBase("ethernet-h6", "PERM")), loads(0.2, 1, 0.2)),
	}
}

// qcnTransient is paper §4.3's transient at h=4 (or the paper's h=6 system
// with h6): load 0.4, from → to (ADV is ADV+1), the switch
// QCNTransientSwitch cycles into the measured window, the record to its end.
func qcnTransient(from, to string, h6 bool) config.Config {
	var c config.Config
	if h6 {
		c = qcnBase("ethernet-h6", from)
		c.Sim.Seeds = 2
	} else {
		c = qcnH4(from)
		c.Sim.Seeds = QCNTransientSeeds
	}
	c.Traffic.Load = QCNTransientLoad
	c.Traffic.SwitchCycle, c.Traffic.SwitchPattern, c.Traffic.SwitchAdvOffset = QCNTransientSwitch, to, 1
	c.Sim.Cycles = QCNTransientSwitch + config.TransientAfter + QCNTransientMargin
	c.Sim.Interval = QCNBin
	return c
}

func qcnTransientExperiments() []Experiment {
	at := []float64{QCNTransientLoad}
	exp := func(name, doc string, ss []config.Config) Experiment {
		return Experiment{Name: name, Doc: doc, Spec: Spec{Series: ss, Loads: at}}
	}
	pbq := func(b config.Config) []config.Config {
		return append(series(b, "PB"), qcnSwitch(b, "QCN-Switch", nil))
	}
	return []Experiment{
		exp("qcn-fig10a", "QCN-Switch paper Fig. 10a: UN → ADV+1 at 0.4, PB vs QCN-Switch, latency and % misrouted in 20 µs bins, and (QCN-Switch) the probability of a mid-group router's port toward S_out (Fig. 12b) (h=4; 200 µs after the switch)",
			pbq(qcnTransient("UN", "ADV", false))),
		exp("qcn-fig10b", "QCN-Switch paper Fig. 10b: ADV+1 → UN at 0.4; recovers at once, misrouting drops to ≈1/a and decays slowly (h=4)",
			pbq(qcnTransient("ADV", "UN", false))),
		exp("qcn-fig12", "QCN-Switch paper Fig. 12: UN → ADV+1 at 0.4 for CNM rates (CPC, %CNMs) = (100, 10), (100, 30), (25, 80); more CNMs react faster (h=4)",
			qcnRateSeries(qcnTransient("UN", "ADV", false))),
		exp("qcn-fig14", "QCN-Switch paper Fig. 14: UN → ADV+1 at 0.4 for L_f = 1/64, 1/85, 1/128, 1/256; smaller L_f reacts slower (h=4)",
			qcnLfSeries(qcnTransient("UN", "ADV", false))),
		exp("qcn-fig10a-h6", "QCN-Switch paper Fig. 10a on the paper's 5,256-node system (h=6, 2.4 ms of warm-up, 2 seeds; long)",
			pbq(qcnTransient("UN", "ADV", true))),
		exp("qcn-fig10b-h6", "QCN-Switch paper Fig. 10b on the paper's 5,256-node system (h=6; long)",
			pbq(qcnTransient("ADV", "UN", true))),
		exp("qcn-fig12-h6", "QCN-Switch paper Fig. 12 on the paper's 5,256-node system (h=6, 2.4 ms of warm-up, 2 seeds; long): UN → ADV+1 at 0.4 for the three CNM rates",
			qcnRateSeries(qcnTransient("UN", "ADV", true))),
		exp("qcn-fig14-h6", "QCN-Switch paper Fig. 14 on the paper's 5,256-node system (h=6, 2.4 ms of warm-up, 2 seeds; long): UN → ADV+1 at 0.4 for the four L_f",
			qcnLfSeries(qcnTransient("UN", "ADV", true))),
	}
}

// QCNReaction is a QCN-Switch transient in the paper's terms (§4.3, Figs.
// 10, 12, 14): the pooled record re-binned to 20 µs, and the reaction
// (response) time, when the average latency "approximately converges" to
// its new value.
type QCNReaction struct {
	Transient // re-binned to QCNBin cycles; Settling is the misrouted share's
	// LatencySettled: the mean latency over the second half of the record
	// after the switch; LatencySettle: the start of the first bin after the
	// switch from which every bin's latency is within LatencyBand of it
	// (cycles from the switch; nil: the last bin is outside).
	LatencySettled float64  `json:"latencySettled" msgpack:"latencySettled"`
	LatencySettle  *float64 `json:"latencySettle,omitempty" msgpack:"latencySettle,omitempty"`
	// LatencyExcess: the mean latency over the record after the switch
	// relative to LatencySettled, less 1: the reaction's cost, which orders
	// reactions that the record is too short to see settle.
	LatencyExcess float64 `json:"latencyExcess" msgpack:"latencyExcess"`
}

// LatencyBand is the band of QCNReaction.LatencySettle: ±25% of the settled
// latency, wide enough for a 20-µs bin's noise at h=4 (one seed, about
// 17,000 packets per bin at 0.4) and the probabilities' sawtooth.
const LatencyBand = 0.25

// QCNRebin sums a pooled record's bins into bins of width cycles (a multiple
// of its bin), aligned on the switch: bin 0 starts at it. The partial bin
// before the switch (FOGSim's 100 cycles) becomes one bin.
func QCNRebin(t Transient, width int) Transient {
	if t.Bin <= 0 || width%t.Bin != 0 {
		return t
	}
	out := t
	out.Bin, out.Packets, out.Latency, out.Misrouted = width, nil, nil, nil
	out.From = 0
	if t.From < 0 {
		out.From = -((-t.From + width - 1) / width) * width
	}
	for i := range t.Packets {
		at := t.From + i*t.Bin
		k := (at - out.From) / width
		for len(out.Packets) <= k {
			out.Packets = append(out.Packets, 0)
			out.Latency = append(out.Latency, 0)
			out.Misrouted = append(out.Misrouted, 0)
		}
		n := float64(t.Packets[i])
		out.Packets[k] += t.Packets[i]
		out.Latency[k] += n * t.Latency[i] // sums, divided below
		out.Misrouted[k] += n * t.Misrouted[i]
	}
	for k, n := range out.Packets {
		if n > 0 {
			out.Latency[k] /= float64(n)
			out.Misrouted[k] /= float64(n)
		}
	}
	out.Settling = Settle(out.From, out.Bin, out.Packets, out.Misrouted)
	return out
}

// NewQCNReaction re-bins a pooled record to QCNBin and measures its
// latency's reaction.
func NewQCNReaction(t Transient) QCNReaction {
	r := QCNReaction{Transient: QCNRebin(t, QCNBin)}
	r.LatencySettled, r.LatencySettle = LatencySettle(r.Transient, LatencyBand)
	if r.LatencySettled > 0 {
		first, _ := firstAfter(r.From, r.Bin, r.Packets, r.Latency)
		r.LatencyExcess = zeroNaN(binMean(r.Packets, r.Latency, first, len(r.Packets)))/r.LatencySettled - 1
	}
	return r
}

// SOut is group 0's router whose global link reaches group 1 (ADV+1's
// bottleneck, the paper's S_out; palm-tree: the last router), a mid-group
// router of group 0 (a/2, or a/2−1 if that is S_out) and the transit port
// index (port − p) of the latter's local port toward S_out: where paper
// Figs. 12b and 14b trace the probability.
func SOut(c config.Config) (sOut, mid, port int, err error) {
	t := c.Topology
	d, err := topology.NewDragonfly(t.H, t.A, t.P, t.Arrangement)
	if err != nil {
		return 0, 0, 0, err
	}
	sOut = d.GlobalLinkTo(0, 1) / d.H
	mid = d.A / 2
	if mid == sOut {
		mid--
	}
	return sOut, mid, d.LocalPort(mid, sOut) - d.P, nil
}

// SOutProbability is the minimal probability (%) of the mid-group router's
// port toward S_out (SOut) in a QCN-Switch run's trace, one value every
// Probabilities.Every cycles from Probabilities.From: cycles from the switch
// in a transient run's record, from the start of the run otherwise
// (result.SeriesProbabilities); nil without a trace.
func SOutProbability(r *result.Result) (from, every int, p []float64) {
	if r == nil {
		return 0, 0, nil
	}
	pp := r.SeriesProbabilities
	if r.Transient != nil {
		pp = r.Transient.Probabilities
	}
	if pp == nil {
		return 0, 0, nil
	}
	_, mid, port, err := SOut(r.Config)
	if err != nil {
		return 0, 0, nil
	}
	k := mid*pp.Ports + port
	for _, v := range pp.Values {
		if k < len(v) {
			p = append(p, float64(v[k]))
		}
	}
	return pp.From, pp.Every, p
}

// MeasuredSOutProbability is SOutProbability's mean over the measured
// window of a run without a pattern switch (the snapshots after the
// warm-up), and its value at the run's end; ok false without that trace.
func MeasuredSOutProbability(r *result.Result) (mean, last float64, ok bool) {
	if r == nil || r.Transient != nil {
		return 0, 0, false
	}
	from, every, ps := SOutProbability(r)
	var n int
	for k, v := range ps {
		if from+k*every > r.Config.Sim.Warmup {
			mean, n = mean+v, n+1
		}
	}
	if n == 0 {
		return 0, 0, false
	}
	return mean / float64(n), ps[len(ps)-1], true
}
