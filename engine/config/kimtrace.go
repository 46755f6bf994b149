package config

import (
	"strconv"
	"strings"
)

// Kim et al., "Contention-based Congestion Management in Large-Scale
// Networks" §V-A and §V-C run MPI traces (HILO, BigFFT, FB, MG, CNS,
// Nekbone) on a 256-node 1D flattened butterfly (16 routers, 16 nodes
// each) beside synthetic traffic on the other nodes: (a) 32 hotspot
// senders, two per router, backlogged towards one hotspot; (b) half the
// nodes sending short messages uniformly among themselves at 70%. The
// trace packets' latency is reported normalised to the traces run alone.
// No trace is available here: the Graph500 BFS model (engine/graph500)
// stands in for them, placed on the nodes the synthetic classes leave
// (workload.placement=pattern), its packets' latency in
// result.graph500.packetLatency.

// KimTraceGraph500 turns c into the Graph500 stand-in for the paper's
// traces on the nodes of its traffic pattern's first class, the other
// classes beside it (background) or idle (alone), the job starting at
// cycle start after the background has warmed the network up (the paper:
// 500,000 cycles). The BFS is scale s with the graph500 presets' edge factor
// and coalescing; its 4 kB messages are 4 packets of the paper's 32 flits
// (32-byte flits: the paper's 4-packet messages), at 1 ns a cycle
// (256 Gb/s), with Altamira's t_q = 1.5 ns per query (thesis Table 2.3) and
// the link latencies of c kept in cycles.
func KimTraceGraph500(c *Config, s, start int, background bool) {
	w := &c.Workload
	w.Kind, w.Placement, w.Background, w.Start = "graph500", "pattern", background, start
	w.Scale, w.PhitBytes, w.LinkGbps, w.Tq = s, 32, 256, TqAltamira
	w.LocalNs, w.GlobalNs, w.RouterNs = 0, 0, 0
	// sim.cycles is only the cap (the memory estimate counts the source
	// queues as if the synthetic classes queued all they generate until
	// it): the 256-node Baseline(UGAL) at scale 12 ends by 1,000,000
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, 1500000, 2
	// the Baseline under a hotspot starves single heads for longer than the
	// stuck-head bound (at 256 nodes, UGAL: a hotspot packet at a transit
	// buffer for 127,000 cycles): the paper's pathology, not a deadlock
	c.Sim.Watchdog = 5000000
}

// KimTraceHotspot is §V-C's hotspot mix on a 1D flattened butterfly of k
// routers of p nodes: the last perRouter nodes of every router send to
// node 0 at 100% of their injection bandwidth (the paper: 2 of 16 on each
// of 16 routers, 32-to-1; which nodes it does not say), the other nodes
// (not the hotspot) run the Graph500 stand-in, the paper's network
// interface (per-destination source queues, 4-packet messages).
func KimTraceHotspot(k, p, perRouter, scale, start int, background bool) Config {
	c := FBFly(1, k, p)
	var senders []string
	for r := range k {
		for i := p - perRouter; i < p; i++ {
			senders = append(senders, strconv.Itoa(r*p+i))
		}
	}
	t := &c.Traffic
	t.Pattern, t.HotspotNode, t.HotspotSenders, t.Load = "HOTSPOT", 0, strings.Join(senders, ","), 0
	kimInterface(&c)
	KimTraceGraph500(&c, scale, start, background)
	return c
}

// KimTraceUR is §V-C's UR mix (Fig. 10): the upper half of every router's
// nodes sends single-packet messages uniformly among themselves at load
// (the paper: short messages at 70%; UR1UR2's UR2 class), the lower half
// runs the Graph500 stand-in.
func KimTraceUR(k, p int, load float64, scale, start int, background bool) Config {
	c := FBFly(1, k, p)
	t := &c.Traffic
	t.Pattern, t.Ur2Load, t.Load = "UR1UR2", load, 0
	kimInterface(&c)
	KimTraceGraph500(&c, scale, start, background)
	return c
}

// kimInterface is the paper's network interface and allocator (§V-A): per-
// destination source queues, 4-packet messages, and BookSim's separable
// allocator (an input's pointer moves on a grant, an output VC goes round
// robin among the inputs asking for it), as the sweep's experiments of the
// same paper.
func kimInterface(c *Config) {
	c.Traffic.SourceQueue, c.Traffic.SourceQueues, c.Traffic.MessagePackets = true, "perDestination", 4
	c.Router.InputArbiter, c.Router.OutputArbiter = "rrgrant", "rrvc"
}
