package sweep

import (
	"strconv"
	"strings"

	"phitsim/engine/config"
)

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
		// and an output VC goes round-robin among the inputs asking for it
		// (its VC allocator): with one pointer per port, Fig. 2's
		// Baseline(UGAL) starves a transit VC of router 2 at 0.1
		b.Router.OutputArbiter = "rrvc"
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
				name := map[string]string{"none": "Baseline", "ideal": "Ideal", "ecn": "ECN", "cbcm": "CBCM", "srp": "SRP"}[sc]
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
	// Fig. 14: the dedicated hotspot VC without throttling (Ideal's
	// isolation at CBCM's strictly lowest priority) against CBCM, MIN
	fig14 := base("HOTSPOT", 4)
	fig14.Traffic.HotspotNode, fig14.Traffic.HotspotSenders = 9, "0,1,2,8"
	fig14.Sim.Cycles = 200000 // the per-sender shares to ±0.01
	iso, cb := fig14, fig14
	iso.Name, iso.Congestion.Scheme, iso.Congestion.IdealPriority = "Dedicated VC, no throttling", "ideal", "low"
	cb.Name, cb.Congestion.Scheme = "CBCM", "cbcm"
	// the 512-node 2D network (8×8 routers, 8 nodes each), shorter runs
	// Fig. 5: SRP against no SRP (the Baseline) under UR and UR1–UR2 (UR2
	// single packets at 0.9, traffic.ur2Load's default; UR1 swept, 4-packet
	// messages)
	fig5a, fig5b := base("UN", 4), base("UR1UR2", 4)
	big := func(pattern string) config.Config {
		b := base(pattern, 4)
		b.Topology.Dimensions, b.Topology.K, b.Topology.P = 2, 8, 8
		b.Sim.Warmup, b.Sim.Cycles, b.Sim.Seeds = 20000, 20000, 2
		return b
	}
	fig8b := big("HOTSPOT")
	fig8b.Traffic.HotspotCount, fig8b.Traffic.HotspotSeed = 40, 1
	// steady state, as BookSim measures once the latency has converged
	// (Kim et al. §V-A): under UGAL the tree the hot senders build before
	// their first throttle packet drains by ≈ 134,000 cycles (Fig. 8b; Fig.
	// 9b's by ≈ 90,000), and MSER-5 (sim.autoWarmup) ends the warm-up
	// inside it (at 60,000: the latency rises for 60,000 cycles first)
	steady := func(c *config.Config) { c.Sim.Warmup, c.Sim.Cycles = 150000, 50000 }
	steady(&fig8b)
	// Fig. 11: Fig. 1(c)'s senders 0–3 (router 0) → node 4 from the
	// paper's interval 100 (of 1,000 cycles; the interval is not given),
	// UR among the other 11 (the paper's 0.4 among 0.1–0.7), UGAL, 250
	// intervals: endpoint detection against early detection at the
	// routers; latency per interval in result.series
	fig11 := base("HOTSPOT", 4)
	fig11.Routing.Name, fig11.Congestion.Scheme = "UGAL", "cbcm"
	fig11.Traffic.HotspotNode, fig11.Traffic.HotspotSenders, fig11.Traffic.HotspotStart = 4, "0,1,2,3", 100000
	fig11.Sim.Warmup, fig11.Sim.Cycles, fig11.Sim.Seeds, fig11.Sim.Interval = 0, 250000, 4, 1000
	endpoint, early := fig11, fig11
	// Fig. 12 (§VI-B): Fig. 2's 4-to-1 senders at a fixed 1/4 or 0.99/4
	// flit per cycle (traffic.hotspotRate) on the data VCs, against Ideal's
	// separate VCs (the senders backlogged there), MIN; the paper's router
	// has virtual output queues, with one FIFO per input VC 1/4 shows its cost
	fig12 := base("HOTSPOT", 4)
	fig12.Traffic.HotspotNode, fig12.Traffic.HotspotSenders = 4, "0,5,8,12"
	fig12Series := func(voq bool, suffix string) []config.Config {
		id, q, l := fig12, fig12, fig12
		id.Name, id.Congestion.Scheme = "Ideal"+suffix, "ideal"
		q.Name, q.Traffic.HotspotRate = "1/4"+suffix, 0.25
		l.Name, l.Traffic.HotspotRate = "0.99/4"+suffix, 0.99/4
		out := []config.Config{id, q, l}
		for i := range out {
			out[i].Router.Voq = voq
		}
		return out
	}
	// Fig. 8c: UR1 (4-packet messages, swept) + UR2 (single packets at
	// 0.9), UGAL, 512 nodes: Baseline (Ideal: no hotspot here), CBCM, SRP
	fig8c := big("UR1UR2")
	ugalOnly := func(cs []config.Config) []config.Config {
		var out []config.Config
		for _, c := range cs {
			if c.Routing.Name == "UGAL" {
				out = append(out, c)
			}
		}
		return out
	}
	// Fig. 8b's Baseline(UGAL): its tree never drains, and at the hotspot's
	// router an input busy with other outputs' packets in every cycle the
	// ejection port frees (both paced by 32-flit packets) leaves a queue for
	// that port unserved, so its head passes the default stuck-head bound
	// (seed 1 at UR 0.3: cycle 92,160) while the tree still moves: a longer
	// bound lets the point finish. router.inputArbiter=rrhold bounds that
	// wait instead (the point runs to the end with the default bound), but
	// the experiments keep rrgrant, BookSim's rule (REPRODUCTION.md, "The
	// hotspot router's starved queues")
	fig8bSeries := curves(fig8b, "none", "ideal", "cbcm", "srp")
	for i := range fig8bSeries {
		if fig8bSeries[i].Congestion.Scheme == "" && fig8bSeries[i].Routing.Name == "UGAL" {
			fig8bSeries[i].Sim.Watchdog = 400000
		}
	}
	// Fig. 9b (§V-B): the first node of each of R1..R63 (nodes 8, 16, …,
	// 504) → node 0 on R0, every other node (node 0 too) on the tornado
	// n → n+8. 650,000 + 50,000 cycles: CBCM(UGAL)'s startup tree on the
	// data VCs, one branch at every router, lifts the background until
	// ≈ 184,000 / 216,000 / 262,000 / 272,000 cycles at 0.05 / 0.1 / 0.15 /
	// 0.2 (seed 1; the random set's by ≈ 90,000), and the backlog it leaves
	// at 0.25 / 0.3 until 310,000–394,000 / 544,000–574,000 (seeds 1–2), so
	// 150,000 + 50,000 measured 4–5× Ideal's latency at 0.05–0.2 and
	// 350,000 + 50,000 1.28× / 3.7× at 0.25 / 0.3 (1.000–1.009× settled)
	fig9b := big("HOTSPOT")
	fig9b.Traffic.HotspotBackground, fig9b.Traffic.HotspotNode, fig9b.Traffic.HotspotSenders = "TORNADO", 0, KimFig9bSenders()
	fig9b.Sim.Warmup, fig9b.Sim.Cycles = 650000, 50000
	// and the stuck-head bound raised as far (sim.watchdog), as Fig. 8b's
	// Baseline(UGAL) above: the hot senders' heads on the tree's branches
	// wait past the default bound (90,215 cycles) in every scheme — the
	// Baseline's tree never drains (0.1, seed 1: 312 → 0 at router 32,
	// 214,662 cycles), CBCM(UGAL)'s startup tree stops seed 2 at 0.15 and
	// 0.2 (cycles 117,760, 130,048), Ideal(MIN)'s hotspot class seed 2 at
	// 0.1 — and each such run goes to the end with the raised bound; at the
	// run's length, since CBCM(UGAL) at 0.3 starves one throttled flow's
	// queue on the hotspot class at router 56 under rrgrant (a phase lock of
	// the input stage: 552,709 cycles by 568,320; rrhold serves it)
	fig9b.Sim.Watchdog = 700000
	fig9bSeries := curves(fig9b, "none", "ideal", "cbcm", "srp")
	endpoint.Name, early.Name, early.Congestion.CbcmEarly = "CBCM, endpoint detection", "CBCM, early detection", true
	return append([]Experiment{
		{Name: "cbcm-fig11", Doc: "Kim et al. Fig. 11: CBCM's endpoint detection against early detection at intermediate routers (congestion.cbcmEarly), Fig. 1(c)'s senders 0–3 → node 4 from cycle 100,000 (interval 100), UR among the other nodes (the paper's 0.4 among others), UGAL, 16 nodes; latency per 1,000-cycle interval in result.series (every packet's), the declarations in mechanisms.cbcm (paper: early detection's UR latency peak 0.42× and settling time 0.22× of endpoint's; ours, TestCBCMFig11EarlyDetection: router 0 declares 4,034 cycles after the start, node 4 alone in 1 of 4 seeds within 40,000 cycles (4,400–12,400 with routing.ugalIntermediate=detour), and the background barely moves under either); a minute",
			Spec: Spec{Series: []config.Config{endpoint, early}, Loads: loads(0.1, 0.7, 0.1)}},
		{Name: "srp-fig5a", Doc: "Kim et al. Fig. 5a: Baseline and SRP × MIN and UGAL under UR, 4-packet messages, 16-node flattened butterfly (paper: SRP's latency up to 2.45× at intermediate load, saturation not hurt; ours ≈ 2.9×, within 5%)",
			Spec: Spec{Series: curves(fig5a, "none", "srp"), Loads: loads(0.1, 0.9, 0.1)}},
		{Name: "srp-fig5b", Doc: "Kim et al. Fig. 5b: Baseline and SRP × MIN and UGAL under UR1–UR2: UR2 single packets at 0.9 (traffic.ur2Load), UR1 4-packet messages swept; UR1's curves in result.groups (paper at UR1 0.6, SRP(UGAL): ≈ 15% of speculative packets dropped, UR1 latency 4.4×)",
			Spec: Spec{Series: curves(fig5b, "none", "srp"), Loads: loads(0.1, 0.7, 0.1)}},
		{Name: "cbcm-fig14", Doc: "Kim et al. Fig. 14, fairness: hotspot node 9, senders 0, 1, 2 (one hop away) and 8 (the hotspot's router), the dedicated hotspot VC without throttling and CBCM, MIN, UR background among the other nodes (reconstructed: the paper mentions no background; the gallery's fig-kim-14 runs none); per-sender accepted bandwidth in result.hotspot (paper: node 8 gets 2× the sum of nodes 0–2 unthrottled; 0.25 each with CBCM)",
			Spec: Spec{Series: []config.Config{iso, cb}, Loads: loads(0.1, 0.9, 0.1)}},
		{Name: "cbcm-fig8a", Doc: "Kim et al. Fig. 8a: Ideal, CBCM and SRP × MIN and UGAL under UR on the 512-node 2D flattened butterfly (paper: CBCM within 5% of Ideal; incorrect detection < 0.001% of runtime at 0.5, ≈ 2.2% at saturation, met as the share of a destination's runtime declared a hotspot — mechanisms.cbcm.throttledShare is a flow's share throttled, below it: engine/REPRODUCTION.md; SRP's latency visibly higher than CBCM's at medium and high load); long",
			Spec: Spec{Series: curves(big("UN"), "ideal", "cbcm", "srp"), Loads: loads(0.1, 0.9, 0.1)}},
		{Name: "cbcm-fig8b", Doc: "Kim et al. Fig. 8b: Baseline, Ideal, CBCM and SRP × MIN and UGAL, UR + 40 random senders → 1 random hotspot (traffic.hotspotSeed 1), 512 nodes, 150,000 + 50,000 cycles (the steady state, past the startup tree; paper: Baseline(MIN) saturates ≈ 10%; CBCM within 10% of Ideal; SRP without collapse but above CBCM at intermediate load); long",
			Spec: Spec{Series: fig8bSeries, Loads: loads(0.1, 0.9, 0.1)}},
		{Name: "cbcm-fig9a", Doc: "Kim et al. Fig. 9a: Ideal, CBCM and SRP × MIN and UGAL under the tornado n → n+8, 512 nodes (paper: CBCM ≈ Ideal, no throttle packets: mechanisms.cbcm.throttles 0; SRP saturating well below CBCM(UGAL)); long",
			Spec: Spec{Series: curves(big("TORNADO"), "ideal", "cbcm", "srp"), Loads: loads(0.05, 0.5, 0.05)}},
		{Name: "cbcm-fig12", Doc: "Kim et al. Fig. 12: the 4-to-1 senders 0, 5, 8, 12 → node 4 (reconstructed: Fig. 2's set on its 16-node network; the paper gives neither) on the data VCs at a fixed 1/4 or 0.99/4 flit per cycle (traffic.hotspotRate) against Ideal, MIN, with the paper's virtual output queues and with one FIFO per input VC (paper: 1/4 1.6–2.0× Ideal's latency, 0.99/4 nearly Ideal, hotspot throughput within 1%)",
			Spec: Spec{Series: append(fig12Series(true, ""), fig12Series(false, ", no VOQs")...), Loads: loads(0.1, 0.8, 0.1)}},
		{Name: "cbcm-fig8c", Doc: "Kim et al. Fig. 8c: Baseline, CBCM and SRP under UGAL, UR1 (4-packet messages, swept) + UR2 (single packets at 0.9), 512 nodes; UR1's curves in result.groups (paper at UR1 0.4: SRP 2.4× CBCM's latency, 52% of its packets speculative, 24% of those dropped; CBCM ≈ Ideal); long",
			Spec: Spec{Series: ugalOnly(curves(fig8c, "none", "cbcm", "srp")), Loads: loads(0.1, 0.7, 0.1)}},
		{Name: "cbcm-fig9b", Doc: "Kim et al. Fig. 9b with the paper's senders (§V-B): Baseline, Ideal, CBCM and SRP × MIN and UGAL, the first node of each of routers 1–63 (nodes 8, 16, …, 504) → node 0, every other node (node 0 too) on the tornado n → n+8, 512 nodes, 650,000 + 50,000 cycles (the steady state, past CBCM(UGAL)'s startup tree, gone by ≈ 272,000 at 0.2, and the backlog it leaves, drained by ≈ 394,000 at 0.25 and ≈ 574,000 at 0.3), the stuck-head bound raised to the run's 700,000 cycles (sim.watchdog: the trees' heads, and under rrgrant one throttled flow's queue at 0.3, wait longer than the default) (paper: Baseline's zero-load latency off the plot, CBCM nearly Ideal, SRP saturating early as in Fig. 9a); long",
			Spec: Spec{Series: fig9bSeries, Loads: loads(0.05, 0.5, 0.05)}},
		{Name: "cbcm-fig2", Doc: "Kim et al. Fig. 2, congestion spreading: Baseline and Ideal × MIN and UGAL, 16-node 1D flattened butterfly, senders 0, 5, 8, 12 → node 4 at 100%, UR among the other 11 nodes, single-flit packets (paper: Baseline(UGAL) saturates 23% below Baseline(MIN); Ideal(MIN) ≈ Ideal(UGAL))",
			Spec: Spec{Series: curves(fig2, "none", "ideal"), Loads: loads(0.1, 0.9, 0.1)}},
		{Name: "cbcm-fig3a", Doc: "Kim et al. Fig. 3a: Ideal, ECN and SRP × MIN and UGAL under the permutation n → n+4 (paper: ECN(UGAL) within 8% of Ideal(UGAL); SRP(UGAL) well below, limited by the reservation round trip; MIN caps at 1/4)",
			Spec: Spec{Series: curves(fig3a, "ideal", "ecn", "srp"), Loads: loads(0.05, 0.6, 0.05)}},
		{Name: "cbcm-fig3b", Doc: "Kim et al. Fig. 3b: Ideal, ECN and SRP × MIN and UGAL under the permutation + 4-to-1 hotspot (reconstructed: senders n4–n7 → n0, every other node n → n+4) (paper: ECN(UGAL) ≈ ½ Ideal(UGAL) and below ECN(MIN); SRP(UGAL) limited by the round trip)",
			Spec: Spec{Series: curves(fig3b, "ideal", "ecn", "srp"), Loads: loads(0.05, 0.6, 0.05)}},
	}, traceExperiments()...)
}

// KimFig9bSenders is Fig. 9b's hotspot set in Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-B: the first node of each
// of the 512-node network's routers R1..R63 (nodes 8, 16, …, 504), sending
// to node 0 on R0.
func KimFig9bSenders() string {
	var s []string
	for r := 1; r < 64; r++ {
		s = append(s, strconv.Itoa(8*r))
	}
	return strings.Join(s, ",")
}

// KimFig13Senders, KimFig13Seed: Fig. 13's set in Kim et al. §V-D, 16
// senders and the hotspot drawn at random (traffic.hotspotCount,
// traffic.hotspotSeed), the same for both series and every seed; the other
// 239 nodes send UR among themselves.
const (
	KimFig13Senders = 16
	KimFig13Seed    = 1
)

// KimTraceScale, KimTraceStart: the Graph500 stand-in for the traces of Kim
// et al. §V-C on the 256-node network: scale 12 (2^12 vertices, 267,000
// job packets on 223 processes, 100,000 on 128: the per-pair minimum of a
// message and the end-of-level signals weigh more than the graph at this
// scale), started after 50,000 cycles of the synthetic classes alone (the
// paper warms up for 500,000).
const (
	KimTraceScale = 12
	KimTraceStart = 50000
)

// TraceSeries are the curves of a §V-C trace experiment on base (a
// config.KimTraceHotspot or config.KimTraceUR run with its background):
// the job alone under MIN and UGAL (the normalisation), then each scheme
// under MIN and UGAL beside the synthetic classes.
func TraceSeries(base config.Config, schemes ...string) []config.Config {
	var out []config.Config
	for _, r := range []string{"MIN", "UGAL"} {
		c := base
		c.Workload.Background, c.Workload.Start = false, 0
		c.Routing.Name, c.Name = r, "Graph500 alone ("+r+")"
		out = append(out, c)
	}
	for _, sc := range schemes {
		for _, r := range []string{"MIN", "UGAL"} {
			c := base
			c.Routing.Name = r
			c.Congestion.Scheme = sc
			if sc == "none" {
				c.Congestion.Scheme = ""
			}
			c.Name = map[string]string{"none": "Baseline", "ideal": "Ideal", "ecn": "ECN", "cbcm": "CBCM", "srp": "SRP"}[sc] + "(" + r + ")"
			out = append(out, c)
		}
	}
	return out
}

// traceExperiments: Kim et al. §V-C with the Graph500 BFS model standing in
// for the MPI traces (config.KimTraceHotspot, config.KimTraceUR).
func traceExperiments() []Experiment {
	hot := config.KimTraceHotspot(16, 16, 2, KimTraceScale, KimTraceStart, true)
	ur := config.KimTraceUR(16, 16, 0.7, KimTraceScale, KimTraceStart, true)
	one := []float64{config.TqAltamira}
	// Fig. 13 on the paper's 256-node network (§V-D): 16 random senders →
	// a random hotspot (KimFig13Seed) over UR 0.4 among the other 239
	// nodes, UGAL with CBCM, the throttled flows on their dedicated VC or
	// on the shared data VCs at 0.99/D_t. The paper starts the hotspot at
	// its 500th interval without giving the interval's length; ours are
	// 1,000 cycles and the start is interval 20 (KimFig13Start): the
	// background is at its steady state by then, and 500 intervals would
	// cost 480,000 cycles more of warm-up per run
	var kim13 []config.Config
	for _, vc := range []string{"dedicated", "shared"} {
		c := config.KimTraceHotspot(16, 16, 2, KimTraceScale, 0, true)
		c.Workload = config.DefaultWorkload()
		c.Traffic.HotspotSenders, c.Traffic.HotspotCount, c.Traffic.HotspotSeed = "", KimFig13Senders, KimFig13Seed
		c.Name = vc + " VC"
		c.Routing.Name, c.Congestion.Scheme, c.Congestion.CbcmHotspotVC = "UGAL", "cbcm", vc
		c.Traffic.HotspotStart = KimFig13Start
		// 200 intervals (the shared VC's latency is still growing at 120), 2 seeds
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds, c.Sim.Interval, c.Sim.Watchdog = KimFig13Start, 180000, 2, 1000, 5000000
		kim13 = append(kim13, c)
	}
	return []Experiment{
		{Name: "cbcm-fig13", Doc: "Kim et al. Fig. 13 on the paper's 256-node 1D flattened butterfly with its set (§V-D): 16 random senders → 1 random hotspot (traffic.hotspotCount 16, traffic.hotspotSeed 1, the same set for both series) from cycle 20,000 (interval 20 of 1,000 cycles; the paper's 500th interval, of unstated length) over UR 0.4 among the other 239 nodes, UGAL, CBCM's dedicated hotspot VC against the shared data VCs at 0.99/D_t, 200 intervals, 2 seeds; the background's latency per interval in result.hotspot.series (paper: the dedicated VC settles ≈ 13.2× faster with a lower peak; hotspot throughput 93% dedicated, 100% shared; ours, seeds 1 / 2: the dedicated VC back within 1.25× of its level before the start 32 / 23 intervals after it, the shared VC 363 / not within 380 (with sim.cycles=380000), peaks 622 / 501 against 4,300 / 1,766, the hotspot at 1.000 under both: engine/REPRODUCTION.md); long",
			Spec: Spec{Series: kim13, Loads: []float64{0.4}}},
		{Name: "cbcm-trace-hotspot", Doc: "Kim et al. §V-C, traces + hotspot, with the Graph500 BFS (s=12) standing in for the paper's MPI traces: 256-node 1D flattened butterfly, 32 senders (the last 2 nodes of every router) → node 0 at 100%, the job on the other 223 nodes from cycle 50,000 (the paper warms up for 500,000), the job alone under MIN and UGAL, then Baseline, ECN, SRP, CBCM and Ideal × MIN and UGAL; the job's packet latency in result.graph500.packetLatency, to be divided by the alone run's (paper: Baseline(UGAL) ≈ 80× for HILO_2d, ECN(UGAL) up to 3×, SRP and CBCM at most +7%); long",
			Spec: Spec{Series: TraceSeries(hot, "none", "ecn", "srp", "cbcm", "ideal"), Param: "workload.tq", Values: one}},
		{Name: "cbcm-fig10", Doc: "Kim et al. Fig. 10, traces + UR short messages, with the Graph500 BFS (s=12) standing in for the paper's MPI traces: 256-node 1D flattened butterfly, the upper half of every router's nodes sending single-packet messages uniformly among themselves at 0.7 (traffic.ur2Load), the job on the lower half from cycle 50,000, the job alone under MIN and UGAL, then Baseline, ECN, SRP and CBCM × MIN and UGAL; the job's packet latency in result.graph500.packetLatency, to be divided by the alone run's (paper: CBCM up to 40% below SRP for long-message traces; the job's messages go through the per-destination source queues, SRP reserving for those of 4 packets or more, engine/REPRODUCTION.md); long",
			Spec: Spec{Series: TraceSeries(ur, "none", "ecn", "srp", "cbcm"), Param: "workload.tq", Values: one}},
	}
}
