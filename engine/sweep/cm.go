package sweep

import "phitsim/engine/config"

// cmExperiments are the congestion-management comparisons of Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks" on its
// 16-node 1D flattened butterfly (§V-A: per-destination source queues,
// 4-packet messages of 32-flit packets; Fig. 2 single-flit packets), each
// scheme (congestion.scheme) under MIN and UGAL, named as the paper's
// curves. Plotted: the background class (result.hotspot), as the paper.
func cmExperiments() []Experiment {
	base := func(pattern string, msg int) config.Config {
		b := config.FBFly(1, 4, 4)
		b.Traffic.Pattern = pattern
		b.Traffic.SourceQueue, b.Traffic.SourceQueues, b.Traffic.MessagePackets = true, "perDestination", msg
		// BookSim's separable allocator moves an input's pointer on a grant
		// only; moved on each request (FOGSim's rr), an isolated-class head
		// can starve in lockstep with its input's data VCs
		b.Router.InputArbiter = "rrgrant"
		// long runs, 3 seeds, for confidence intervals (the page's
		// cbcm-fig*-quick presets are the quick ones)
		b.Sim.Warmup, b.Sim.Cycles, b.Sim.Seeds = 100000, 100000, 3
		return b
	}
	curves := func(b config.Config, schemes ...string) []config.Config {
		var out []config.Config
		for _, sc := range schemes {
			for _, r := range []string{"MIN", "UGAL"} {
				c := b
				c.Routing.Name = r
				c.Congestion.Scheme = sc
				name := map[string]string{"none": "Baseline", "ideal": "Ideal", "ecn": "ECN"}[sc]
				c.Name = name + "(" + r + ")"
				if sc == "none" {
					c.Congestion.Scheme = ""
				}
				out = append(out, c)
			}
		}
		return out
	}
	fig2 := base("HOTSPOT", 1)
	fig2.Router.PacketSize = 1 // the paper's footnote 1
	fig2.Traffic.HotspotNode, fig2.Traffic.HotspotSenders = 4, "0,5,8,12"
	fig3a := base("TORNADO", 4)
	fig3b := base("HOTSPOT", 4)
	fig3b.Traffic.HotspotNode, fig3b.Traffic.HotspotSenders, fig3b.Traffic.HotspotBackground = 0, "4,5,6,7", "TORNADO"
	return []Experiment{
		{Name: "cbcm-fig2", Doc: "Kim et al. Fig. 2, congestion spreading: Baseline and Ideal × MIN and UGAL, 16-node 1D flattened butterfly, senders 0, 5, 8, 12 → node 4 at 100%, UR among the other 11 nodes, single-flit packets (paper: Baseline(UGAL) saturates 23% below Baseline(MIN); Ideal(MIN) ≈ Ideal(UGAL))",
			Spec: Spec{Series: curves(fig2, "none", "ideal"), Loads: loads(0.1, 0.9, 0.1)}},
		{Name: "cbcm-fig3a", Doc: "Kim et al. Fig. 3a: Ideal and ECN × MIN and UGAL under the permutation n → n+4 (paper: ECN(UGAL) within 8% of Ideal(UGAL); MIN caps at 1/4)",
			Spec: Spec{Series: curves(fig3a, "ideal", "ecn"), Loads: loads(0.05, 0.6, 0.05)}},
		{Name: "cbcm-fig3b", Doc: "Kim et al. Fig. 3b: Ideal and ECN × MIN and UGAL under the permutation + 4-to-1 hotspot (reconstructed: senders n4–n7 → n0, every other node n → n+4) (paper: ECN(UGAL) ≈ ½ Ideal(UGAL) and below ECN(MIN))",
			Spec: Spec{Series: curves(fig3b, "ideal", "ecn"), Loads: loads(0.05, 0.6, 0.05)}},
	}
}
