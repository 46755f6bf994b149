package sweep

import "phitsim/engine/config"

// galleryExperiments are more scaled runs of the figure gallery
// (engine/figures), each a few seconds: the thesis's Figs. 5.6–5.7
// (DAMQ reserve, FlexVC at equal VC size) at saturation only, and Kim et
// al.'s Figs. 8a and 9a (CBCM against Ideal under UR and a tornado) on the
// paper's 16-node 1D flattened butterfly instead of its 512-node 2D one.
func galleryExperiments() []Experiment {
	// thesis Fig. 5.7 (§5.3.2): 32/256 phits per local/global VC, MIN, UN,
	// the baseline and the largest FlexVC set, at saturation
	un := flexBase("UN", 1)
	un.Sim.Warmup, un.Sim.Cycles, un.Sim.Seeds, un.Sim.Interval = 3000, 8000, 1, 250
	fig57 := schemes(un,
		scheme{name: "baseline 2/1", routing: "MIN", l: 2, g: 1},
		scheme{name: "FlexVC 8/4", routing: "MIN", flex: true, l: 8, g: 4})
	// thesis Fig. 5.6 (§5.3.1): the thesis-fig5.6 network (128/512 phits per
	// local/global port, 2/1 VCs, MIN, UN saturated) with a DAMQ reserve of
	// 25% and 75% per VC as two series
	d := un
	d.Router.LocalBuffer, d.Router.GlobalBuffer = 64, 512
	d.Sim.Watchdog = 1000
	fig56 := schemes(d,
		scheme{name: "DAMQ 25%", routing: "MIN", damq: true, l: 2, g: 1},
		scheme{name: "DAMQ 75%", routing: "MIN", damq: true, l: 2, g: 1})
	fig56[0].Router.DamqReserve = 25
	// Kim et al. Figs. 8a and 9a: Ideal and CBCM under UGAL on the 16-node
	// network of cmExperiments (4-packet messages of 32 flits, per-destination
	// source queues), 20,000 + 20,000 cycles, one seed; the tornado is
	// router R_i's nodes to R_{i+1}'s (n → n+4, the paper's n → n+8 on 8 nodes
	// per router)
	var fig8a, fig9a []config.Config
	for _, e := range cmExperiments() {
		for _, c := range e.Spec.Series {
			if e.Name != "cbcm-fig3a" || c.Name != "Ideal(UGAL)" {
				continue
			}
			c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds, c.Sim.Interval = 20000, 20000, 1, 1000
			cb := c
			cb.Name, cb.Congestion.Scheme = "CBCM(UGAL)", "cbcm"
			fig9a = append(fig9a, c, cb)
			for _, x := range []config.Config{c, cb} {
				x.Traffic.Pattern = "UN"
				fig8a = append(fig8a, x)
			}
		}
	}
	// thesis Fig. 4.9 (§4.3.2): UN → ADV+1 at h=4, 2,500 cycles shown, PB
	// (which oscillates) and ECtN (flat), 3 seeds pooled: enough bins for a
	// period of a few hundred cycles; and Base, which ECtN follows until its
	// first broadcast after the switch (Fig. 4.8)
	osc := transientBase("UN", "ADV", 2500)
	osc.Sim.Seeds = 3
	var fig49 []config.Config
	for _, c := range transientSeries(osc) {
		if c.Name == "PB" || c.Name == "ECtN" || c.Name == "Base" {
			fig49 = append(fig49, c)
		}
	}
	// QCN-Switch paper Figs. 10b and 12 (§5.2, §5.3.1), the transients at
	// 0.4: ADV+1 → UN on the h=2 Ethernet Dragonfly (72 nodes; the
	// recovery does not depend on h), 10,000 cycles of ADV+1, 10,000
	// recorded after the switch and 5,000 for their packets, 3 seeds
	// pooled; UN → ADV+1 at h=4 (at h=2 only 1/(a·p) = 0.125 of the 0.4
	// goes minimal and QCN-Switch settles near 85% misrouted) with the
	// fastest CNM rate, (CPC, %CNMs) = (25, 80), 6,000 cycles recorded and
	// 6,000 more, one seed
	back := qcnTransient("ADV", "UN", false)
	back.Topology.H, back.Topology.A, back.Topology.P = 2, 4, 2
	back.Sim.Warmup, back.Sim.Seeds = QCNWarmupUN, QCNTransientSeeds
	back.Sim.Cycles = QCNTransientSwitch + config.TransientAfter + 5000
	fig10b := []config.Config{qcnSwitch(back, "QCN-Switch", nil)}
	var fig12 []config.Config
	for _, c := range qcnRateSeries(qcnTransient("UN", "ADV", false)) {
		if c.Routing.QcnCPC == 25 && c.Routing.QcnCnmPercent == 80 {
			c.Sim.Seeds = 1
			c.Traffic.SwitchRecord = 6000
			c.Sim.Cycles = QCNTransientSwitch + 6000 + 6000
			fig12 = append(fig12, c)
		}
	}
	return []Experiment{
		{Name: "fig-qcn-10b", Doc: "figure gallery: QCN-Switch paper Fig. 10b (§5.2), ADV+1 → UN at 0.4 on the h=2 Ethernet Dragonfly: QCN-Switch's latency is back within the first 20-µs bin",
			Spec: Spec{Series: fig10b, Loads: []float64{QCNTransientLoad}}},
		{Name: "fig-qcn-12", Doc: "figure gallery: QCN-Switch paper Fig. 12 (§5.3.1), UN → ADV+1 at 0.4 at h=4 with (CPC, %CNMs) = (25, 80): misrouting rises to 90–100%",
			Spec: Spec{Series: fig12, Loads: []float64{QCNTransientLoad}}},
		{Name: "fig-4.9", Doc: "figure gallery: thesis Fig. 4.9 (§4.3.2), UN → ADV+1 at load 0.2, h=4, 2,500 cycles after the switch: PB's latency oscillates, ECtN's stays flat; ECtN follows Base (the contention counters) until its first broadcast, then has the lower latency (Fig. 4.8)",
			Spec: Spec{Series: fig49, Loads: []float64{0.2}}},
		{Name: "fig-5.7", Doc: "figure gallery: thesis Fig. 5.7 (§5.3.2), MIN, UN at h=4, 32/256 phits per local/global VC: FlexVC 8/4 saturates near 0.9, above the baseline 2/1",
			Spec: Spec{Series: fig57, Loads: []float64{0.5, 1}}},
		{Name: "fig-5.6", Doc: "figure gallery: thesis Fig. 5.6 (§5.3.1), MIN, UN at h=4, DAMQ with 128/512 phits per local/global port: a 75% reserve per VC accepts more than 25% at saturation",
			Spec: Spec{Series: fig56, Loads: []float64{0.5, 1}}},
		{Name: "fig-kim-8a", Doc: "figure gallery: Kim et al. Fig. 8a on the 16-node flattened butterfly, UR: CBCM(UGAL) within 5% of Ideal(UGAL)",
			Spec: Spec{Series: fig8a, Loads: []float64{0.5, 1}}},
		{Name: "fig-kim-9a", Doc: "figure gallery: Kim et al. Fig. 9a on the 16-node flattened butterfly, tornado n → n+4: CBCM(UGAL) ≈ Ideal(UGAL)",
			Spec: Spec{Series: fig9a, Loads: []float64{0.2, 0.5}}},
	}
}
