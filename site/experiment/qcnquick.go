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
// series ps of the engine's h=4 experiments (their configurations, runs and
// seeds unchanged, so that a point's result is the experiment's, bit for
// bit), at the swept values xs of the first one's variable (the load, or
// topology.h for Fig. 17), with edit applied to each series (nil: none).
func qcnQuick(name, doc string, ps []qcnPick, xs []float64, edit func(*config.Config)) Preset {
	var sp sweep.Spec
	for i, p := range ps {
		e, err := sweep.ExperimentByName(p.exp)
		if err != nil {
			panic(err)
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
// claim shows.
func qcnQuickPresets() []Preset {
	const fast = "; under 2 minutes on 2 workers"
	return []Preset{
		qcnQuick("qcn-fig6-un-quick", "QCN-Switch paper Fig. 6a for a browser (h=4, UN 0.6 and 1.0): input sampling without feedback comparison nosedives past saturation, feedback comparison recovers part of it; the FOGSim cut rule's QCN-SWin+SP+FbC loses throughput again"+fast,
			picks("qcn-fig6-un", "MIN", "PB", "QCN-SWin", "QCN-SWin+FbC", "QCN-SWin+SP+FbC", "QCN-SWin+SP+FbC (FOGSim cut)"), []float64{0.6, 1}, nil),
		qcnQuick("qcn-fig6-adv1-quick", "QCN-Switch paper Fig. 6b for a browser (h=4, ADV+1 0.3 and 0.5): without source processing S_out's nodes route minimally: latency and ≈ 4% loss"+fast,
			picks("qcn-fig6-adv1", "VAL", "QCN-SWin", "QCN-SWin+SP", "QCN-SWin+FbC", "QCN-SWin+SP+FbC"), []float64{0.3, 0.5}, nil),
		qcnQuick("qcn-fig7-9-quick", "QCN-Switch paper Figs. 7 and 9 for a browser (h=4, ADV+1 0.4, two seeds): per-router injection of group 0"+fast,
			picks("qcn-fig7-9", "QCN-SWin", "QCN-SWin+SP", "QCN-SWout+FbC"), []float64{0.4}, nil),
		qcnQuick("qcn-fig8-un-quick", "QCN-Switch paper Fig. 8a for a browser (h=4, UN 0.6 and 1.0)"+fast,
			picks("qcn-fig8-un", "MIN", "PB", "QCN-SWout", "QCN-SWout+FbC"), []float64{0.6, 1}, nil),
		qcnQuick("qcn-fig8-adv1-quick", "QCN-Switch paper Fig. 8b for a browser (h=4, ADV+1 0.1, 0.3 and 0.5)"+fast,
			picks("qcn-fig8-adv1", "VAL", "PB", "QCN-SWout", "QCN-SWout+FbC"), []float64{0.1, 0.3, 0.5}, nil),
		qcnQuick("qcn-fig10a-quick", "QCN-Switch paper Fig. 10a for a browser (h=4, UN → ADV+1 at 0.4, one seed)"+fast,
			picks("qcn-fig10a", "PB", "QCN-Switch"), []float64{0.4}, oneSeed),
		qcnQuick("qcn-fig10b-quick", "QCN-Switch paper Fig. 10b for a browser (h=4, ADV+1 → UN at 0.4, one seed)"+fast,
			picks("qcn-fig10b", "PB", "QCN-Switch"), []float64{0.4}, oneSeed),
		qcnQuick("qcn-fig11-un-quick", "QCN-Switch paper Fig. 11a for a browser (h=4, UN 0.6 and 1.0)"+fast,
			picks("qcn-fig11-un", rateNames...), []float64{0.6, 1}, nil),
		qcnQuick("qcn-fig11-adv1-quick", "QCN-Switch paper Fig. 11b for a browser (h=4, ADV+1 0.1 and 0.3)"+fast,
			picks("qcn-fig11-adv1", rateNames...), []float64{0.1, 0.3}, nil),
		qcnQuick("qcn-fig12-quick", "QCN-Switch paper Fig. 12 for a browser (h=4, UN → ADV+1 at 0.4, one seed)"+fast,
			picks("qcn-fig12", rateNames...), []float64{0.4}, oneSeed),
		qcnQuick("qcn-fig13-adv1-quick", "QCN-Switch paper Fig. 13 for a browser (h=4, ADV+1 0.1 and 0.3)"+fast,
			picks("qcn-fig13-adv1", lfNames...), []float64{0.1, 0.3}, nil),
		qcnQuick("qcn-fig14-quick", "QCN-Switch paper Fig. 14 for a browser (h=4, UN → ADV+1 at 0.4, one seed)"+fast,
			picks("qcn-fig14", lfNames...), []float64{0.4}, oneSeed),
		qcnQuick("qcn-fig15-adv1-quick", "QCN-Switch paper Fig. 15 for a browser (h=4, ADV+1 0.1 and 0.3)"+fast,
			picks("qcn-fig15-adv1", "PI 0.1", "PI 1", "PI 5"), []float64{0.1, 0.3}, nil),
		qcnQuick("qcn-fig15-un-quick", "QCN-Switch paper Fig. 15 for a browser (h=4, UN 1.0)"+fast,
			picks("qcn-fig15-un", "PI 0.1", "PI 0.5", "PI 1", "PI 5"), []float64{1}, nil),
		qcnQuick("qcn-fig16-adv1-quick", "QCN-Switch paper Fig. 16b for a browser (h=4, ADV+1 0.3 and 0.5)"+fast,
			picks("qcn-fig16-adv1", "Th2 0", "Th2 30", "Th2 50"), []float64{0.3, 0.5}, nil),
		qcnQuick("qcn-fig16-un-quick", "QCN-Switch paper Fig. 16a for a browser (h=4, UN 1.0)"+fast,
			picks("qcn-fig16-un", "Th2 0", "Th2 10", "Th2 30", "Th2 50"), []float64{1}, nil),
		qcnQuick("qcn-fig17-quick", "QCN-Switch paper Fig. 17 for a browser (h = 2, 3, 4: 72–1,056 nodes): latency, UN 0.65 and ADV+1 0.35"+fast,
			[]qcnPick{{"qcn-fig17-un", "MIN", "MIN UN 0.65"}, {"qcn-fig17-un", "QCN-Switch", "QCN-Switch UN 0.65"},
				{"qcn-fig17-adv1", "VAL", "VAL ADV+1 0.35"}, {"qcn-fig17-adv1", "QCN-Switch", "QCN-Switch ADV+1 0.35"}}, []float64{2, 3, 4}, nil),
		qcnQuick("qcn-fig17-sat-quick", "QCN-Switch paper Fig. 17 for a browser (h = 2, 3, 4): saturation throughput, UN and ADV+1 at 1.0"+fast,
			[]qcnPick{{"qcn-fig17-sat", "MIN", "MIN UN"}, {"qcn-fig17-sat", "QCN-Switch", "QCN-Switch UN"},
				{"qcn-fig17-adv1-sat", "VAL", "VAL ADV+1"}, {"qcn-fig17-adv1-sat", "QCN-Switch", "QCN-Switch ADV+1"}}, []float64{2, 3, 4}, nil),
		qcnQuick("qcn-fig18-hot-quick", "QCN-Switch paper Fig. 18a for a browser (h=4, hot region at 0.4 and 1.0)"+fast,
			picks("qcn-fig18-hot", "VAL", "PB", "QCN-Switch", "QCN-Switch no FbC"), []float64{0.4, 1}, nil),
		qcnQuick("qcn-fig18-perm-quick", "QCN-Switch paper Fig. 18b for a browser (h=4, random permutation at 0.4 and 1.0)"+fast,
			picks("qcn-fig18-perm", "MIN", "VAL", "PB", "QCN-Switch"), []float64{0.4, 1}, nil),
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
