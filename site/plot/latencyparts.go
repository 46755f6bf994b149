package plot

import "phitsim/site/experiment"

// The two parts of the latency against the offered load (thesis §1.5): the
// wait at the source, from generation until the packet leaves its first
// router, and the network latency, the rest. Thesis Figs. 3.3–3.4 split
// in-transit routing's latency so under ADVc: with transit priority the
// injection wait peaks well below saturation, and 1000-phit injection
// queues make the peak larger (engine/REPRODUCTION.md, target 7).

func init() {
	Builders["injlatency"] = func(in Input) []byte { return curve(in, injLatency, false) }
	Builders["netlatency"] = func(in Input) []byte { return curve(in, netLatency, false) }
}

var injLatency = metric{"Injection wait vs offered load", "average injection wait (cycles)",
	func(p experiment.Point) float64 { return p.Agg.InjLatency.Mean },
	func(p experiment.Point) float64 { return p.Agg.InjLatency.CI95 }, nil}

var netLatency = metric{"Network latency vs offered load", "average network latency (cycles)",
	func(p experiment.Point) float64 { return p.Agg.NetLatency.Mean },
	func(p experiment.Point) float64 { return p.Agg.NetLatency.CI95 }, nil}
