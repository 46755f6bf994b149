package sweep

import (
	"fmt"

	"phitsim/engine/config"
)

// The ACOR paper's threshold studies (§6.2.2) on acor-1056 (1,056 hosts, the
// paper's Table 3 timing, its IT₁/DT₁ = 20/8 for this size, IT₂/DT₂ =
// 500/15): ACOR-Switch 3L with one threshold moved at a time, against the
// three VAL policies it moves between (the figures' references), over the
// load. The paper swept at 5,256 hosts around IT₁/IT₂ = 15/500 and DT₁/DT₂ =
// 5/15 and names one value only: IT₁ = 25 "can lead to network congestion"
// (Fig. 11), 5/3 of the chosen 15; here the chosen IT₁ is 20, so its 5/3 is
// 33. Each point's ACOR status (result NonMinimal.AcorStatus: the share of
// packets routed at CRG-Gr, CRG-Sw, RRG-Sw) shows where the levels move.

// AcorFig11IT1 are Fig. 11's first increase thresholds at 1,056 hosts: half
// the paper's, the paper's, and the paper's "too high" 25/15 of it.
var AcorFig11IT1 = []int{10, 20, 33}

// acorThresholds is one of Figs. 11–13's panels: the VAL references and
// ACOR-Switch 3L with each threshold set (it1, it2, dt1, dt2; 0 keeps
// acor-1056's) under ADV+offset.
func acorThresholds(offset int, sets [][4]int) []config.Config {
	b := acorBase("ADV", offset)
	var out []config.Config
	for _, pa := range []string{"CRG-Gr", "CRG-Sw", "RRG-Sw"} {
		c := b
		c.Name, c.Routing.Name, c.Routing.PhaseA = "VAL "+pa, "VAL", pa
		c.AcorPaperVCs()
		out = append(out, c)
	}
	for _, s := range sets {
		c := b
		rt := &c.Routing
		rt.Name, rt.AcorSequence, rt.AcorMode = "ACOR", "3L", "switch"
		for i, p := range []*int{&rt.AcorIT1, &rt.AcorIT2, &rt.AcorDT1, &rt.AcorDT2} {
			if s[i] != 0 {
				*p = s[i]
			}
		}
		it2 := rt.AcorIT2
		if it2 == 0 {
			it2 = 500 // routing.acorIT2 0: ACOR's 500
		}
		c.Name = fmt.Sprintf("ACOR-3L IT=%d/%d DT=%d/%d", rt.AcorIT1, it2, rt.AcorDT1, rt.AcorDT2)
		c.AcorPaperVCs()
		out = append(out, c)
	}
	return out
}

// acorThresholdExperiments are Figs. 11, 12 (each under ADV+1 and ADV+h)
// and Fig. 13's 1,056-host panels (the 16,512-host ones are h=8: CLI only,
// with -preset and -set).
func acorThresholdExperiments() []Experiment {
	ls := loads(0.05, 0.45, 0.1)
	var it, dt [][4]int
	for _, v := range AcorFig11IT1 {
		it = append(it, [4]int{v, 0, 0, 0})
	}
	it = append(it, [4]int{0, 250, 0, 0}, [4]int{0, 1000, 0, 0})
	dt = [][4]int{{0, 0, 8, 15}, {0, 0, 3, 0}, {0, 0, 15, 0}, {0, 0, 0, 5}, {0, 0, 0, 50}}
	out := []Experiment{}
	for _, p := range []struct {
		off  int
		name string
	}{{1, "adv1"}, {4, "advh"}} {
		out = append(out,
			Experiment{Name: "acor-fig11-" + p.name, Doc: fmt.Sprintf("ACOR paper Fig. 11 (§6.2.2): ACOR-Switch 3L's increase thresholds IT₁ ∈ {10, 20, 33} and IT₂ ∈ {250, 500, 1,000} under ADV+%d against VAL CRG-Gr/CRG-Sw/RRG-Sw (1,056 hosts, Table 3 timing; paper: IT₁ = 25, 5/3 of its 15, congests ADV+h); latency and the ACOR status per point", p.off),
				Spec: Spec{Series: acorThresholds(p.off, it), Loads: ls}},
			Experiment{Name: "acor-fig12-" + p.name, Doc: fmt.Sprintf("ACOR paper Fig. 12 (§6.2.2): ACOR-Switch 3L's decrease thresholds DT₁ ∈ {3, 8, 15} and DT₂ ∈ {5, 15, 50} under ADV+%d against the VAL policies (1,056 hosts; paper: a lower DT₁ oscillates and raises ADV+1's medium-load latency, DT₂ matters little)", p.off),
				Spec: Spec{Series: acorThresholds(p.off, dt), Loads: ls}})
	}
	for _, p := range []struct {
		off  int
		name string
	}{{4, "advh"}, {1, "adv1"}} {
		// up to 0.6: at h=4 VAL CRG-Sw saturates under ADV+h near 0.5, and
		// the second switch (to RRG-Sw) comes after it, at 0.55
		out = append(out, Experiment{Name: "acor-fig13-" + p.name, Doc: fmt.Sprintf("ACOR paper Fig. 13 (§6.2.2), the 1,056-host panel: ACOR-Switch 3L (IT₁/DT₁ = 20/8) under ADV+%d against the VAL policies, in 0.05 steps up to 0.6; paper: it leaves CRG-Gr where VAL CRG-Gr's latency rises and CRG-Sw where VAL CRG-Sw saturates", p.off),
			Spec: Spec{Series: acorThresholds(p.off, [][4]int{{}}), Loads: loads(0.05, 0.6, 0.05)}})
	}
	return append(out, acorThresholdGallery()...)
}

// AcorGallerySeeds are the runs per point of the gallery's threshold
// cards: at h=3 every point of these runs stays "too short" over 16,000
// cycles (their 1,000-cycle samples stay correlated, VAL's too), so the
// cards read their seeds as independent replications
// (figures.MinReplications).
const AcorGallerySeeds = 5

// acorThresholdGallery are the figure gallery's scaled runs of Figs. 11
// (its lower threshold; its congestion at h=4, fig-acor-11), 12 and 13:
// acor-1056's system (Table 3 timing, IT₁/DT₁ = 20/8) at h=3 (342 hosts:
// a = 6, p = 3, 19 groups), 4,000 + 16,000 cycles, AcorGallerySeeds seeds,
// where a run takes about a third of a CPU-second (1,056 hosts take minutes
// per sweep). At h=2 (72 hosts) the congestion the thresholds answer does
// not happen (VAL CRG-Gr saturates only between 0.35 and 0.45 under ADV+h).
func acorThresholdGallery() []Experiment {
	h3 := func(offset int, sets [][4]int, keep ...string) []config.Config {
		var out []config.Config
		for _, c := range acorThresholds(offset, sets) {
			for _, k := range keep {
				if c.Name == k {
					c.Topology.H, c.Topology.A, c.Topology.P = 3, 6, 3
					c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 4000, 16000, AcorGallerySeeds
					out = append(out, c)
				}
			}
		}
		return out
	}
	// Fig. 11's congestion at acor-1056's own size (h=4): at h=3 IT₁ = 33
	// congests only just past VAL CRG-Gr's saturation, as an unstable
	// point; at h=4 it saturates at 0.25 (one seed of 6,000 + 6,000 cycles
	// reads a saturated point)
	var fig11 []config.Config
	for _, c := range acorThresholds(4, [][4]int{{20, 0, 0, 0}, {33, 0, 0, 0}}) {
		if c.Name != "VAL CRG-Sw" && c.Name != "VAL RRG-Sw" {
			c.Sim.Seeds = 1
			fig11 = append(fig11, c)
		}
	}
	return []Experiment{
		{Name: "fig-acor-11", Doc: "figure gallery: ACOR paper Fig. 11 (§6.2.2) at 1,056 hosts, ADV+h: a too high IT₁ (33, the paper's 25 scaled to the chosen 20) congests at 0.25, where IT₁ = 20 moves to CRG-Sw (against VAL CRG-Gr)",
			Spec: Spec{Series: fig11, Loads: []float64{0.15, 0.25}}},
		{Name: "fig-acor-11-h3", Doc: "figure gallery: ACOR paper Fig. 11 (§6.2.2) at 342 hosts (h=3), ADV+3: a lower IT₁ (10 against the chosen 20) moves up earlier and raises ACOR-Switch 3L's latency (against VAL CRG-Gr)",
			Spec: Spec{Series: h3(3, [][4]int{{10, 0, 0, 0}, {20, 0, 0, 0}}, "VAL CRG-Gr", "ACOR-3L IT=10/500 DT=8/15", "ACOR-3L IT=20/500 DT=8/15"), Loads: []float64{0.15, 0.25}}},
		{Name: "fig-acor-12", Doc: "figure gallery: ACOR paper Fig. 12 (§6.2.2) at 342 hosts (h=3), ADV+1: a lower DT₁ raises ACOR-Switch 3L's medium-load latency (DT₁ = 3, 8, 15 against VAL CRG-Gr)",
			Spec: Spec{Series: h3(1, [][4]int{{0, 0, 3, 0}, {0, 0, 8, 15}, {0, 0, 15, 0}}, "VAL CRG-Gr",
				"ACOR-3L IT=20/500 DT=3/15", "ACOR-3L IT=20/500 DT=8/15", "ACOR-3L IT=20/500 DT=15/15"), Loads: []float64{0.15, 0.25}}},
		{Name: "fig-acor-13", Doc: "figure gallery: ACOR paper Fig. 13 (§6.2.2) at 342 hosts (h=3), ADV+3: ACOR-Switch 3L follows VAL CRG-Gr at low load and VAL CRG-Sw past CRG-Gr's saturation",
			Spec: Spec{Series: h3(3, [][4]int{{}}, "VAL CRG-Gr", "VAL CRG-Sw", "ACOR-3L IT=20/500 DT=8/15"), Loads: []float64{0.15, 0.33}}},
	}
}
