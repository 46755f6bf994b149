package experiment

import (
	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// qcnPick is a series of one of the QCN-Switch paper's h=4 experiments
// (engine/sweep qcn.go) by its name, shown as Rename if set.
type qcnPick struct{ exp, series, rename string }

// picks are the series named of engine experiment exp.
func picks(exp string, series ...string) []qcnPick {
	out := make([]qcnPick, len(series))
	for i, s := range series {
		out[i] = qcnPick{exp: exp, series: s}
	}
	return out
}

// qcnQuick is a browser preset of the QCN-Switch paper's figures: the
// series ps of the engine's h=4 experiments (exps, by name) (their configurations, runs and
// seeds unchanged, so that a point's result is the experiment's, bit for
// bit), at the swept values xs of the first one's variable (the load, or
// topology.h for Fig. 17), with edit applied to each series (nil: none).
func qcnQuick(exps map[string]sweep.Experiment, name, doc string, ps []qcnPick, xs []float64, edit func(*config.Config)) Preset {
	var sp sweep.Spec
	for i, p := range ps {
		e, ok := exps[p.exp]
		if !ok {
			panic("experiment: no engine experiment " + p.exp)
		}
		if i == 0 {
			sp.Param, sp.Tied = e.Spec.Param, e.Spec.Tied
		}
		found := false
		for _, c := range e.Spec.Series {
			if c.Name != p.series {
				continue
			}
			if p.rename != "" {
				c.Name = p.rename
			}
			if edit != nil {
				edit(&c)
			}
			sp.Series, found = append(sp.Series, c), true
			break
		}
		if !found {
			panic("experiment: no series " + p.series + " in " + p.exp)
		}
	}
	if sp.Param != "" {
		sp.Values = xs
	} else {
		sp.Loads = xs
	}
	return Preset{name, doc, FromSpec(sp)}
}

// qcnQuickPresets are the QCN-Switch paper's Figs. 6–18 (its §4–5) for a
// browser tab: each in under two minutes on two workers
// (TestQCNQuickFitsTwoMinutes; engine/REPRODUCTION.md, "QCN-Switch paper"),
// the h=4 experiments' series and runs at the points where the figure's
// claim shows. exps are the engine's experiments (sweep.Experiments, built
// once: building them is most of the page's preset list's time).
func qcnQuickPresets(all []sweep.Experiment) []Preset {
	exps := map[string]sweep.Experiment{}
	for _, e := range all {
		exps[e.Name] = e
	}
	return []Preset{
		qcnQuick(exps, "qcn-fig6-un-quick", "QCN-Switch paper Fig. 6a for a browser: input sampling ± feedback comparison against MIN under UN at 0.6 and 1.0 (h=4, the experiment's 200 + 100 µs, seed 1; 6 runs, about a minute on two workers; qcn-fig6-un has every variant and load, source processing and FOGSim v5's cut rule included). Without feedback comparison throughput nosedives past saturation, with it part is recovered; below saturation both keep MIN's latency. Measured at 1.0: QCN-SWin 0.562 accepted (81.8% misrouted), +FbC 0.703 (38.3%), MIN 0.841; at 0.6 all 106.3 cycles, MIN's",
			picks("qcn-fig6-un", "MIN", "QCN-SWin", "QCN-SWin+FbC"), []float64{0.6, 1}, nil),
		qcnQuick(exps, "qcn-fig6-adv1-quick", "QCN-Switch paper Fig. 6b for a browser: the input-sampling variants against VAL under ADV+1 at 0.1 and 0.3 (h=4, 400 + 100 µs, seed 1). Without source processing S_out's own nodes route minimally: a latency bump from medium load and a few % of the load lost. Measured at 0.1 / 0.3: QCN-SWin 94.3 / 848 cycles, +FbC 94.3 / 901, +SP 96.2 / 108.4, +SP+FbC 96.1 / 108.4, VAL 129.8 / 164.3; accepted at 0.3 0.2889 and 0.2888 without source processing, 0.3001 and 0.3000 with it",
			picks("qcn-fig6-adv1", "VAL", "QCN-SWin", "QCN-SWin+SP", "QCN-SWin+FbC", "QCN-SWin+SP+FbC"), []float64{0.1, 0.3}, nil),
		qcnQuick(exps, "qcn-fig7-9-quick", "QCN-Switch paper Figs. 7 and 9 for a browser: group 0's per-router injection under ADV+1 at 0.4 (h=4, 400 + 200 µs, two seeds): with input sampling and no source processing S_out (the last router) injects far less; source processing narrows the gap, output sampling with feedback comparison evens it out. Measured (seed 1, S_out below the mean of the other routers): QCN-SWin 60.4% (0.371 accepted), QCN-SWout+FbC −1.3% (0.404)",
			picks("qcn-fig7-9", "QCN-SWin", "QCN-SWin+SP", "QCN-SWout+FbC"), []float64{0.4}, nil),
		qcnQuick(exps, "qcn-fig8-un-quick", "QCN-Switch paper Fig. 8a for a browser: output sampling ± feedback comparison against MIN under UN at 0.6 and 1.0 (h=4, 200 + 100 µs, seed 1). Without feedback comparison throughput collapses past saturation; with it QCN-Switch keeps MIN's latency below saturation. Measured at 1.0: QCN-SWout+FbC 0.763 accepted (34.6% misrouted), QCN-SWout 0.540 (88.1%), MIN 0.841; at 0.6 both 106.3 cycles, MIN's",
			picks("qcn-fig8-un", "MIN", "QCN-SWout", "QCN-SWout+FbC"), []float64{0.6, 1}, nil),
		qcnQuick(exps, "qcn-fig8-adv1-quick", "QCN-Switch paper Fig. 8b for a browser: QCN-Switch (output sampling, feedback comparison) against VAL and PB under ADV+1 at 0.1, 0.3 and 0.5 (h=4, 400 + 100 µs, seed 1). Its throughput is VAL's, its latency below PB's and VAL's (no local hop in the intermediate group). Measured at 0.1 / 0.3: 96.7 / 115.4 cycles, PB 140.2 / 172.8, VAL 129.8 / 164.3; accepted at 0.5: 0.504, PB 0.497, VAL 0.487",
			picks("qcn-fig8-adv1", "VAL", "PB", "QCN-SWout+FbC"), []float64{0.1, 0.3, 0.5}, nil),
		qcnQuick(exps, "qcn-fig10a-quick", "QCN-Switch paper Fig. 10a for a browser: UN → ADV+1 at 0.4, PB against QCN-Switch, latency and % misrouted in 20-µs bins (the time series) and the probability of a mid-group router's port toward S_out (h=4, qcn-fig10a's run with one seed of its three). QCN-Switch's misrouting rises to 90–100% within 40 µs. Measured: QCN-Switch misrouted 28.3% in the first 20 µs after the switch, 85.2% in the next, 91.1% in the third; its packets generated in the first 40 µs average 3,031 cycles (3,628 in the first bin, 839 in the tenth): not converged within the 200-µs record, slower than the paper's ≈ 0.4 ms",
			picks("qcn-fig10a", "PB", "QCN-Switch"), []float64{0.4}, oneSeed),
		qcnQuick(exps, "qcn-fig10b-quick", "QCN-Switch paper Fig. 10b for a browser: ADV+1 → UN at 0.4, PB against QCN-Switch (h=4, one seed). QCN-Switch recovers at once: its latency settles within the first 20-µs bin, and misrouting drops to about 1/a. Measured: QCN-Switch's latency 162 cycles before the switch, 105 in the first 20 µs, 95–97 from the second bin; misrouted 95.3% before, 16.4% in the first bin, 15.8% at 200 µs (1/a = 12.5%)",
			picks("qcn-fig10b", "PB", "QCN-Switch"), []float64{0.4}, oneSeed),
		qcnQuick(exps, "qcn-fig11-un-quick", "QCN-Switch paper Fig. 11a for a browser: CNM rates (CPC, %CNMs) = (100, 10), (100, 30), (25, 80) under UN at 0.6 and 1.0 (h=4, 200 + 100 µs, seed 1). More CNMs raise the latency past saturation. Measured at 1.0: 2,080 / 2,278 / 3,375 cycles, accepted 0.822 / 0.763 / 0.660 (more than the paper's \"slightly\"); at 0.6 all 106.3",
			picks("qcn-fig11-un", rateNames...), []float64{0.6, 1}, nil),
		qcnQuick(exps, "qcn-fig11-adv1-quick", "QCN-Switch paper Fig. 11b for a browser: the CNM rates under ADV+1 at 0.1 and 0.3 (h=4, 400 + 100 µs, seed 1). QCN's default 0.1% has not adapted after 400 µs: the highest latency. Measured at 0.1 / 0.3: 893 / 3,345 cycles (0.1%), 96.7 / 115.4 (0.3%), 95.5 / 115.6 (3.2%)",
			picks("qcn-fig11-adv1", rateNames...), []float64{0.1, 0.3}, nil),
		qcnQuick(exps, "qcn-fig12-quick", "QCN-Switch paper Fig. 12 for a browser: UN → ADV+1 at 0.4 for the three CNM rates (h=4, one seed): more CNMs react faster. Measured, mean latency of the packets generated in the first 40 µs after the switch: 999 cycles (3.2%), 3,031 (0.3%)",
			picks("qcn-fig12", rateNames...), []float64{0.4}, oneSeed),
		qcnQuick(exps, "qcn-fig13-adv1-quick", "QCN-Switch paper Fig. 13 for a browser: L_f = 1/64, 1/85, 1/128, 1/256 under ADV+1 at 0.1 and 0.3 (h=4, 400 + 100 µs, seed 1): 1/64 (Table I) has the lowest latency. Measured at 0.3: 1/64 115.4 cycles, 1/256 10,179 (0.191 accepted: not adapted after 400 µs)",
			picks("qcn-fig13-adv1", lfNames...), []float64{0.1, 0.3}, nil),
		qcnQuick(exps, "qcn-fig14-quick", "QCN-Switch paper Fig. 14 for a browser: UN → ADV+1 at 0.4 for the four L_f (h=4, one seed): a smaller L_f reacts more slowly. Measured, mean latency of the packets generated in the first 40 µs after the switch: 3,031 cycles (1/64), 5,458 (1/128)",
			picks("qcn-fig14", lfNames...), []float64{0.4}, oneSeed),
		qcnQuick(exps, "qcn-fig15-adv1-quick", "QCN-Switch paper Fig. 15 for a browser: PI = 0.1, 1 and 5 points under ADV+1 at 0.1 and 0.3 (h=4, 400 + 100 µs, seed 1): a high PI returns to minimal paths too early, raising the latency at medium load. Measured at 0.3: 116.0 (0.1), 115.4 (1), 183.6 cycles (5)",
			picks("qcn-fig15-adv1", "PI 0.1", "PI 1", "PI 5"), []float64{0.1, 0.3}, nil),
		qcnQuick(exps, "qcn-fig15-un-quick", "QCN-Switch paper Fig. 15 for a browser: PI = 0.1, 0.5, 1 and 5 points under UN at 1.0 (h=4, 200 + 100 µs, seed 1): a low PI is slow to undo spurious misrouting, so accepts less past saturation. Measured: 0.758 (0.1), 0.758 (0.5), 0.763 (1), 0.795 (5) accepted (the order holds; the paper's \"poor\" does not: 4.6% below PI = 5)",
			picks("qcn-fig15-un", "PI 0.1", "PI 0.5", "PI 1", "PI 5"), []float64{1}, nil),
		qcnQuick(exps, "qcn-fig16-adv1-quick", "QCN-Switch paper Fig. 16b for a browser: Th2 = 0, 30 and 50 under ADV+1 at 0.1 and 0.3 (h=4, 400 + 100 µs, seed 1): 30 is the compromise. Measured at 0.3: 136.7 (0), 115.4 (30), 189.9 cycles (50); the throughput loss of 50 does not show at h=4 (engine/REPRODUCTION.md: it does at h=6)",
			picks("qcn-fig16-adv1", "Th2 0", "Th2 30", "Th2 50"), []float64{0.1, 0.3}, nil),
		qcnQuick(exps, "qcn-fig16-un-quick", "QCN-Switch paper Fig. 16a for a browser: Th2 = 0, 10, 30 and 50 under UN at 1.0 (h=4, 200 + 100 µs, seed 1): Th2 = 0 is the worst. Measured: 0.642 (0), 0.656 (10), 0.763 (30), 0.835 (50) accepted",
			picks("qcn-fig16-un", "Th2 0", "Th2 10", "Th2 30", "Th2 50"), []float64{1}, nil),
		qcnQuick(exps, "qcn-fig17-quick", "QCN-Switch paper Fig. 17 for a browser: latency against the network size, h = 2, 3, 4 (72–1,056 nodes; h = 5 and 6 are in qcn-fig17-un and -adv1), UN at 0.65 (QCN-Switch, MIN) and ADV+1 at 0.35 (QCN-Switch, VAL), seed 1: QCN-Switch keeps MIN's latency under UN and stays below VAL's under ADV+1. Measured, h = 2 / 3 / 4: UN 99.7 / 110.2 / 115.4 cycles, MIN's exactly; ADV+1 108.7 / 114.3 / 142.7, VAL 161.4 / 178.3 / 185.8",
			[]qcnPick{{"qcn-fig17-un", "MIN", "MIN UN 0.65"}, {"qcn-fig17-un", "QCN-Switch", "QCN-Switch UN 0.65"},
				{"qcn-fig17-adv1", "VAL", "VAL ADV+1 0.35"}, {"qcn-fig17-adv1", "QCN-Switch", "QCN-Switch ADV+1 0.35"}}, []float64{2, 3, 4}, nil),
		qcnQuick(exps, "qcn-fig17-sat-quick", "QCN-Switch paper Fig. 17 for a browser: saturation throughput under UN (offered 1.0) against the size, h = 2, 3, 4, QCN-Switch and MIN, seed 1: close to MIN's. Measured: QCN-Switch 0.801 / 0.804 / 0.763, MIN 0.891 / 0.856 / 0.841 (6–10% below; the paper's \"better for larger networks\" is not reproduced)",
			picks("qcn-fig17-sat", "MIN", "QCN-Switch"), []float64{2, 3, 4}, nil),
		qcnQuick(exps, "qcn-fig17-adv1-sat-quick", "QCN-Switch paper Fig. 17 for a browser: saturation throughput under ADV+1 (offered 1.0) against the size, h = 2, 3, 4, QCN-Switch and VAL, seed 1: QCN-Switch ≈ VAL at every size. Measured: QCN-Switch 0.553 / 0.518 / 0.505, VAL 0.499 / 0.496 / 0.506",
			picks("qcn-fig17-adv1-sat", "VAL", "QCN-Switch"), []float64{2, 3, 4}, nil),
		qcnQuick(exps, "qcn-fig18-hot-quick", "QCN-Switch paper Fig. 18a for a browser: the hot region (25% of the traffic to 12.5% of the nodes) at 0.4 and 1.0 (h=4, 200 + 100 µs, seed 1): QCN-Switch loses part of its peak past it, PB and VAL do not. Measured: QCN-Switch 0.345 / 0.304 accepted (12% below its peak; the paper ≈ 18%), without feedback comparison 0.336 / 0.332, PB 0.372 / 0.452, VAL 0.218 / 0.370",
			picks("qcn-fig18-hot", "VAL", "PB", "QCN-Switch", "QCN-Switch no FbC"), []float64{0.4, 1}, nil),
		qcnQuick(exps, "qcn-fig18-perm-quick", "QCN-Switch paper Fig. 18b for a browser: a random permutation at 0.4 and 1.0, MIN, PB and QCN-Switch (h=4, 400 + 100 µs, seed 1): PB's and MIN's throughput above QCN-Switch's. Measured at 0.4: MIN 0.356 accepted (1,882 cycles), QCN-Switch 0.373 (930), PB 0.400 (159); at 1.0: PB 0.509, MIN 0.471, QCN-Switch 0.404 (78.3% misrouted)",
			picks("qcn-fig18-perm", "MIN", "PB", "QCN-Switch"), []float64{0.4, 1}, nil),
	}
}

var (
	rateNames = []string{"CPC 100, 10% CNMs (0.1%)", "CPC 100, 30% CNMs (0.3%)", "CPC 25, 80% CNMs (3.2%)"}
	lfNames   = []string{"Lf 1/64", "Lf 1/85", "Lf 1/128", "Lf 1/256"}
)

// oneSeed keeps the first of a transient's pooled seeds.
func oneSeed(c *config.Config) { c.Sim.Seeds = 1 }

// PoolSeconds is the time runs of secs seconds each take on workers
// workers when the page's pool hands them out in order, each worker taking
// the next run as it frees (site/ui Pool; a run split across idle workers
// when fewer runs than workers are left is not counted: an upper bound).
func PoolSeconds(secs []float64, workers int) float64 {
	if workers < 1 {
		workers = 1
	}
	free := make([]float64, workers) // when each worker frees
	var end float64
	for _, s := range secs {
		k := 0
		for i := range free {
			if free[i] < free[k] {
				k = i
			}
		}
		free[k] += s
		end = max(end, free[k])
	}
	return end
}
