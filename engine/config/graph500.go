package config

import (
	"fmt"
	"math"
	"phitsim/engine/traffic"
	"strconv"

	"phitsim/engine/units"
)

// Workload selects what the compute nodes run: the synthetic traffic of the
// traffic section on every node, or the Graph500 BFS model of thesis chapter
// 2 on a job's nodes (the traffic section then describes the background
// traffic of the other nodes, when enabled).
type Workload struct {
	Kind string `json:"kind" doc:"synthetic: the traffic section on every node; graph500: the Graph500 BFS model on the job's nodes, run until the BFS ends (sim.cycles is the cap, sim.warmup is ignored)" enum:"synthetic,graph500" paper:"thesis §2.2"`
	// Graph and benchmark parameters.
	Scale      int `json:"scale" doc:"graph scale s: 2^s vertices (the thesis uses 26)" unit:"log₂ vertices" min:"4" max:"40" when:"workload.kind=graph500" paper:"thesis §2.1"`
	EdgeFactor int `json:"edgeFactor" doc:"edge factor fe: edges per vertex (the thesis uses 16)" unit:"edges per vertex" min:"1" max:"1024" when:"workload.kind=graph500" paper:"thesis §2.1"`
	Coalescing int `json:"coalescing" doc:"coalescing size cs: queries aggregated per message" unit:"queries" min:"1" max:"65536" when:"workload.kind=graph500" paper:"thesis §2.1"`
	QueryBytes int `json:"queryBytes" doc:"size of a query (cs·queryBytes is a full message: 256·16 B = 4 kB)" unit:"bytes" min:"1" max:"4096" when:"workload.kind=graph500"`
	// Node and link speed: physical units.
	Tq        float64 `json:"tq" doc:"computation per query tq (thesis Table 2.3: Altamira 1.5, Core i5 2.25, Xeon E5-2620 2.4, Mont-Blanc 15)" unit:"ns" min:"0" max:"1000000" when:"workload.kind=graph500" paper:"thesis eq. 2.20, Table 2.3"`
	LinkGbps  float64 `json:"linkGbps" doc:"link bandwidth; with the phit size it sets the cycle time phitBytes·8/linkGbps" unit:"Gb/s" min:"0.001" max:"100000" when:"workload.kind=graph500"`
	PhitBytes int     `json:"phitBytes" doc:"bytes a link carries per cycle; a packet carries router.packetSize phits and a message as many packets as it needs" unit:"bytes" min:"1" max:"1048576" when:"workload.kind=graph500"`
	// Latencies in physical units: a cable keeps its length when a sweep
	// changes the bandwidth (derived: thesis Table 2.4 gives
	// latencies in cycles without the cycle time; see Graph500LocalNs).
	LocalNs  float64 `json:"localNs" doc:"local link latency in ns, converted to whole cycles (at least 1) at the cycle time; replaces topology.localLatency (0 = keep it; Table 2.4: 10)" unit:"ns" min:"0" max:"1000000" when:"workload.kind=graph500" paper:"thesis Table 2.4"`
	GlobalNs float64 `json:"globalNs" doc:"global link latency in ns, converted like localNs; replaces topology.globalLatency (0 = keep it; Table 2.4: 100)" unit:"ns" min:"0" max:"1000000" when:"workload.kind=graph500" paper:"thesis Table 2.4"`
	RouterNs float64 `json:"routerNs" doc:"router latency in ns, converted like localNs; replaces router.xbarLatency (0 = keep it; Table 2.4: 40)" unit:"ns" min:"0" max:"1000000" when:"workload.kind=graph500" paper:"thesis Table 2.4"`
	// Job mapping.
	Groups     int    `json:"groups" doc:"groups running the job, one process per node (0 = every group; a topology without Dragonfly groups is one group)" unit:"groups" min:"0" max:"100000" when:"workload.kind=graph500,workload.placement!=pattern" paper:"thesis §2.3.2"`
	Placement  string `json:"placement" doc:"which nodes run the job: groups consecutive (0…k−1, a scheduler's simplest choice) or spread evenly over the network; pattern, the nodes of the traffic pattern's first class (HOTSPOT's nodes that are neither the hotspot nor a sender, UR1UR2's UR1 half), the pattern's other classes beside it (with workload.background) or idle: a synthetic load on some nodes beside the job on the others (Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A, §V-C)" enum:"consecutive,spread,pattern" when:"workload.kind=graph500" paper:"thesis §2.3.2; Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	Background bool   `json:"background" doc:"nodes outside the job carry the traffic section's synthetic traffic (otherwise they are idle)" when:"workload.kind=graph500"`
	// The job's start (omitted when unset: the job starts at cycle 0).
	Start int `json:"start,omitempty" doc:"cycle at which the job starts, the background (workload.background) running alone before it, as a warm-up of the network; the job's times (execution, levels, packet latency) count from it (0: the job starts with the run)" unit:"cycles" min:"0" max:"100000000" when:"workload.kind=graph500" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (500,000 cycles of synthetic traffic before the traces)"`
	// Model options.
	RootDegree      int     `json:"rootDegree" doc:"degree dr of the root vertex (0 = drawn per run from the lognormal of eqs. 2.18–2.19)" unit:"edges" min:"0" max:"1000000000" when:"workload.kind=graph500" paper:"thesis eqs. 2.18–2.19"`
	Coefficients    string  `json:"coefficients" doc:"form of coefficient C of the mean (eq. 2.8): thesis text, or FOGSim's code (−1.105+1.01·ln s, (l−3.2)²/8)" enum:"thesis,fogsim" when:"workload.kind=graph500" paper:"thesis eq. 2.8"`
	Sampling        string  `json:"sampling" doc:"node: every process draws its own Gaussian sample of the level's edges (FOGSim); level: one draw per level for all processes" enum:"node,level" when:"workload.kind=graph500"`
	Injection       string  `json:"injection" doc:"bernoulli: a message is generated with probability 1/(tq·cs) per free cycle (eq. 2.20); compute: after exactly tq per query of computation" enum:"bernoulli,compute" when:"workload.kind=graph500" paper:"thesis eq. 2.20"`
	BudgetCap       bool    `json:"budgetCap" doc:"cap every Gaussian draw at the remaining query budget, so that the BFS explores at most 2·2^s·fe edges (thesis §2.2.2); off: only the mean is capped (FOGSim), and a wide σ overshoots" when:"workload.kind=graph500"`
	ReduceAfterWork bool    `json:"reduceAfterWork" doc:"enter the all-reduce only once the received queries are processed (thesis); off: as soon as they have arrived (FOGSim)" when:"workload.kind=graph500"`
	MaxLevels       int     `json:"maxLevels" doc:"the BFS stops after this many levels (FOGSim: 9)" unit:"levels" min:"1" max:"200" when:"workload.kind=graph500"`
	TailLevel       int     `json:"tailLevel" doc:"from this level on, the BFS stops when at most tailFraction of the queries remain (FOGSim: 5)" unit:"level" min:"1" max:"200" when:"workload.kind=graph500"`
	TailFraction    float64 `json:"tailFraction" doc:"share of the query budget below which the BFS stops from tailLevel on (FOGSim: 0.1)" unit:"fraction" min:"0" max:"1" when:"workload.kind=graph500"`
}

// DefaultWorkload is synthetic traffic; its Graph500 settings are the thesis's
// (s = 26 scaled down to 22, fe = 16, cs = 256 queries of 16 B, Altamira's
// tq = 1.5 ns, 40 Gb/s links) with 512-byte phits, so that a 4 kB message is
// one 8-phit packet of the Table 1.2 router.
func DefaultWorkload() Workload {
	return Workload{Kind: "synthetic", Scale: 22, EdgeFactor: 16, Coalescing: 256, QueryBytes: 16,
		Tq: 1.5, LinkGbps: 40, PhitBytes: 512, Placement: "consecutive",
		Coefficients: "thesis", Sampling: "node", Injection: "bernoulli", ReduceAfterWork: true,
		BudgetCap: true, MaxLevels: 9, TailLevel: 5, TailFraction: 0.1}
}

// Graph500 reports whether the config runs the Graph500 workload.
func (c *Config) Graph500() bool { return c.Workload.Kind == "graph500" }

// CycleNs is the length of a cycle in ns: one phit per cycle on a link
// (units.Basis.CycleNs, as the physical section's).
func (w *Workload) CycleNs() float64 {
	return units.Basis{LinkGbps: w.LinkGbps, PhitBytes: w.PhitBytes}.CycleNs()
}

// JobGroups lists the groups that run the Graph500 job, of g in all.
func (w *Workload) JobGroups(g int) []int {
	k := w.Groups
	if k <= 0 || k > g {
		k = g
	}
	out := make([]int, k)
	for i := range out {
		if w.Placement == "spread" {
			out[i] = i * g / k
		} else {
			out[i] = i
		}
	}
	return out
}

// validateWorkload is the cross-field part of Validate for the workload.
func (c *Config) validateWorkload() Errors {
	w := &c.Workload
	if !c.Graph500() {
		return nil
	}
	var errs Errors
	add := func(path, value, msg string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Value: value, Msg: fmt.Sprintf(msg, a...)})
	}
	t := &c.Topology
	if w.Placement == "pattern" {
		if k, err := traffic.ParseKind(c.Traffic.Pattern); err != nil || (k != traffic.HOTSPOT && k != traffic.UR1UR2) {
			add("workload.placement", w.Placement, "places the job on the first class of a classed traffic.pattern: HOTSPOT or UR1UR2 (traffic.pattern is %s)", c.Traffic.Pattern)
		}
	} else if sz, ok := t.Sizes(); ok && sz.Groups > 0 {
		g := sz.Groups
		if w.Groups > g {
			add("workload.groups", strconv.Itoa(w.Groups), "the network has %d groups", g)
		}
		if k := len(w.JobGroups(g)); k*(sz.Nodes/g) < 2 {
			add("workload.groups", strconv.Itoa(w.Groups), "the job needs at least 2 processes (nodes)")
		}
	}
	if c.Router.PacketSize > 0 && w.PhitBytes > 0 && c.Router.PacketSize*w.PhitBytes < w.QueryBytes {
		add("workload.phitBytes", strconv.Itoa(w.PhitBytes), "a packet (%d phits) must carry at least one %d-byte query", c.Router.PacketSize, w.QueryBytes)
	}
	if w.LinkGbps > 0 && w.PhitBytes > 0 {
		if ns := w.CycleNs(); w.Tq > 0 && w.Tq/ns*float64(w.Coalescing) > math.MaxInt32 {
			add("workload.tq", fmt.Sprint(w.Tq), "a message would take more than 2³¹ cycles to compute")
		}
	}
	return errs
}

// Table 2.4's latencies in physical units. The thesis gives 50/500 cycles
// (local/global links) and 200 cycles (router) without the cycle time; with
// 1-byte phits at 40 Gb/s (0.2 ns; derived, the thesis states neither) they
// are 10/100/40 ns, the 2 m and 20 m cables of Table 1.2 (10/100 cycles of a 1 GHz router).
const (
	Graph500LocalNs  = 10
	Graph500GlobalNs = 100
	Graph500RouterNs = 40
)

// The source-adaptive thresholds of Table 1.2 in bytes: UGAL's T = 4 packets
// and PiggyBack's T = 5 packets of 80 bytes (8 phits of 10 B, thesis §1.6.4).
const (
	Graph500UgalTBytes = 4 * 80
	Graph500PbTBytes   = 5 * 80
)

// LatencyCycles converts a latency in ns to cycles of the workload's cycle
// time: ⌈ns/t_c⌉, at least 1 (a link or a crossbar takes a cycle at least).
func (w *Workload) LatencyCycles(ns float64) int {
	return int(latencyCycles(ns, w.CycleNs()))
}

// latencyCycles is LatencyCycles in floating point, so that a range check
// can see 10⁶ ns at 8·10⁻⁵ ns per cycle without overflowing an int. It
// rounds as the physical section does (units.CyclesUp), but a time below
// one cycle is one cycle, not an error: thesis Table 2.4's 10 and 40 ns are
// below a 102.4-ns cycle.
func latencyCycles(ns, cycleNs float64) float64 {
	return math.Max(1, units.CyclesUp(ns, cycleNs))
}

// latencyNs is a Graph500 latency in ns and the cycle field it replaces.
type latencyNs struct {
	path   string  // the ns field
	ns     float64 // its value
	target string  // the cycle field it replaces
	dst    *int
}

func (c *Config) latenciesNs() []latencyNs {
	w := &c.Workload
	return []latencyNs{
		{"workload.localNs", w.LocalNs, "topology.localLatency", &c.Topology.LocalLatency},
		{"workload.globalNs", w.GlobalNs, "topology.globalLatency", &c.Topology.GlobalLatency},
		{"workload.routerNs", w.RouterNs, "router.xbarLatency", &c.Router.XbarLatency},
	}
}

// convertsNs tells whether the ns latencies apply (a Graph500 run with a
// valid cycle time), and the cycle time.
func (c *Config) convertsNs() (float64, bool) {
	w := &c.Workload
	ns := w.CycleNs()
	ok := c.Graph500() && w.PhitBytes > 0 && w.LinkGbps > 0 && ns > 0 && !math.IsInf(ns, 0) && !math.IsNaN(ns)
	return ns, ok
}

// cyclesOf converts l at cycle time cycleNs; the declaration of the field it
// replaces gives the allowed range.
func (l latencyNs) cyclesOf(cycleNs float64) (float64, Param) {
	p, _ := Lookup(l.target)
	return latencyCycles(l.ns, cycleNs), p
}

// ApplyLatenciesNs replaces the link and crossbar latencies in cycles by
// workload.localNs/globalNs/routerNs (those that are set) converted at the
// current cycle time (derived from thesis Table 2.4 and §2.3.2), links of a fixed length whatever
// the bandwidth. The simulator calls it for a Graph500 run, so a sweep over
// workload.linkGbps or workload.phitBytes keeps the lengths; with the ns
// fields at 0 the latencies stay in cycles, as FOGSim's do (it has no
// bandwidth, only the cycle time of eq. 2.20). A value whose conversion is
// out of the cycle field's range is left out: Validate reports it on the ns
// field (checkLatenciesNs).
func (c *Config) ApplyLatenciesNs() {
	cycleNs, ok := c.convertsNs()
	if !ok {
		return
	}
	for _, l := range c.latenciesNs() {
		if !(l.ns > 0) || math.IsInf(l.ns, 0) {
			continue
		}
		if x, p := l.cyclesOf(cycleNs); x <= *p.Max {
			*l.dst = int(x)
		}
	}
}

// checkLatenciesNs is the part of Validate that sees the latencies as the
// simulator will run them: an ns latency that converts to more cycles than
// the field it replaces allows is refused on the ns field, with the largest
// value the current cycle time allows.
func (c *Config) checkLatenciesNs() Errors {
	cycleNs, ok := c.convertsNs()
	if !ok {
		return nil
	}
	var errs Errors
	for _, l := range c.latenciesNs() {
		if !(l.ns > 0) || math.IsInf(l.ns, 0) {
			continue // the range check of the ns field says why
		}
		if x, p := l.cyclesOf(cycleNs); x > *p.Max {
			errs = append(errs, &FieldError{Path: l.path, Value: fmt.Sprint(l.ns), Msg: fmt.Sprintf(
				"is %.4g cycles of %.4g ns (workload.phitBytes·8/workload.linkGbps), and %s allows at most %g cycles: with this cycle time at most %.4g ns (0 keeps %s)",
				x, cycleNs, l.target, *p.Max, *p.Max*cycleNs, l.target)})
		}
	}
	return errs
}

// SetAdaptiveThresholdsBytes sets UGAL's and PiggyBack's T (in packets) so
// that they hold the bytes of Table 1.2's thresholds (Graph500UgalTBytes,
// Graph500PbTBytes) in the current packet size. With 4 kB packets that is
// below one phit, i.e. 0: Table 1.2's 5 packets of 4 kB would exceed what a
// saturated global link shows (its output FIFO and less than a packet in
// flight on a 100 ns link), so PB would never mark a link and behave as UGAL.
func (c *Config) SetAdaptiveThresholdsBytes() {
	pkt := float64(c.Router.PacketSize * c.Workload.PhitBytes)
	if pkt <= 0 {
		return
	}
	c.Routing.UgalT = Graph500UgalTBytes / pkt
	c.Routing.PbThreshold = Graph500PbTBytes / pkt
}

// graph500 turns a preset into a Graph500 run (thesis §2.3.2, Table 2.4):
// MIN, the Table 1.2 router, whose buffers are those of Table 2.4 in 4 kB
// packets (8 phits of 512 B: local and output 4 packets, injection and global
// 32), Table 2.4's latencies in ns (10/100/40 ns: 1 cycle each at 40 Gb/s,
// 102.4 ns), UGAL's and PB's thresholds in Table 1.2's bytes, scale 22, three
// seeds (three root degrees); sim.cycles is only the cap.
func graph500(c *Config) {
	c.Workload.Kind = "graph500"
	c.Workload.LocalNs, c.Workload.GlobalNs, c.Workload.RouterNs = Graph500LocalNs, Graph500GlobalNs, Graph500RouterNs
	c.ApplyLatenciesNs()
	c.Topology.InjectionLatency = 1
	c.SetAdaptiveThresholdsBytes()
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds, c.Sim.Interval = 0, 50000000, 3, 1000
}

// The node types of thesis Table 2.3: ns per query.
const (
	TqAltamira  = 1.5  // IBM iDataplex dx360m4, Xeon E5-2670 @2.6 GHz
	TqCoreI5    = 2.25 // Intel Core i5-5200U @2.2 GHz
	TqXeon2620  = 2.4  // Intel Xeon E5-2620 @2 GHz
	TqMontBlanc = 15   // Mont-Blanc prototype, Samsung Exynos 5 (ARM Cortex-A15 @1.7 GHz)
)

func graph500Presets() []Preset {
	node := func(tq float64) func(*Config) {
		return func(c *Config) {
			graph500(c)
			c.Workload.Tq = tq
		}
	}
	return []Preset{
		preset("graph500-h2", "Graph500 BFS (s=22, fe=16, tq=1.5 ns, 40 Gb/s) on the 72-node h=2 Dragonfly, MIN: network-bound", 2, graph500),
		preset("graph500-h2-val", "Graph500 BFS on h=2 with Valiant: usage ≈0.4, about twice MIN's time", 2, func(c *Config) {
			graph500(c)
			c.Routing.Name = "VAL"
		}),
		preset("graph500-h2-corei5", "Graph500 BFS on h=2, MIN, Core i5 laptop nodes (tq=2.25 ns, Table 2.3): near the knee", 2, node(TqCoreI5)),
		preset("graph500-h2-xeon", "Graph500 BFS on h=2, MIN, Xeon E5-2620 nodes (tq=2.4 ns, Table 2.3): near the knee", 2, node(TqXeon2620)),
		preset("graph500-h2-montblanc", "Graph500 BFS on h=2, MIN, Mont-Blanc nodes (tq=15 ns): CPU-bound", 2, node(TqMontBlanc)),
		preset("graph500-h4-2groups", "Graph500 BFS on 2 consecutive groups (64 nodes) of h=4, MIN: one global link caps usage at 0.0625", 4, func(c *Config) {
			graph500(c)
			c.Workload.Groups, c.Workload.Scale = 2, 20
		}),
		preset("graph500-h4-5groups", "Graph500 BFS on 5 consecutive groups (160 nodes) of h=4, MIN: ADVc-like concentration on router 7 of group 0", 4, func(c *Config) {
			graph500(c)
			c.Workload.Groups = 5
		}),
	}
}
