package sweep

// SizeLoad is the offered load of the size experiments: thesis Figs. 3.10
// and 3.13 plot the fairness metrics at 0.4 phits/(node·cycle) under ADVc.
const SizeLoad = 0.4

// SizeValues are the network sizes of the size experiments: h = 2…8 with
// the balanced a = 2h, p = h (Spec.Apply keeps a balanced Dragonfly
// balanced), 72 to 16,512 nodes. The thesis's figures span h = 6…10 (up to
// 40,200 nodes); h=8, the chapter's network, is their middle point.
var SizeValues = []float64{2, 3, 4, 5, 6, 7, 8}

// size is one of the thesis's fairness-versus-size figures (§3.3.3 Fig.
// 3.10, §3.3.4 Fig. 3.13): the Chapter 3 routing matrix of the fairness
// tables with the same arbitration and run length (4,000 + 8,000 cycles),
// at SizeLoad, over topology.h. One seed per point, because an h=8 run
// takes from 20 s (MIN) to minutes (PB) on one core. Max/Min's sampling floor
// stays near 1.13 at every size (more routers, but p = h nodes each: Obl-CRG
// measures 1.12–1.14 from h=2 to h=5), so the curves compare across sizes.
func size(name, arbiter string, priority bool, doc string) Experiment {
	e := fairness(name, arbiter, priority, doc)
	for i := range e.Spec.Series {
		c := &e.Spec.Series[i]
		c.Traffic.Load, c.Sim.Seeds = SizeLoad, 1
	}
	e.Spec.Loads, e.Spec.Param, e.Spec.Values = nil, "topology.h", SizeValues
	return e
}
