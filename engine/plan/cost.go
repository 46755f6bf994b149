package plan

import (
	"math"
	"slices"

	"phitsim/engine/config"
	"phitsim/engine/figures"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
	"phitsim/engine/topology"
)

// The cost model of a run, for the requests of a batch job (engine/BENCHMARKS.md,
// "The batch estimate for every topology and mechanism"):
//
//	instructions = packets × crossings per packet × instructions per packet-hop
//	             + cycles × the network's fixed instructions per cycle
//	             + the waiting heads' cost near saturation
//	seconds = instructions ÷ InstructionsPerSecond
//
// packets = nodes × offered load ÷ packet size × cycles (warm-up included;
// the load at most 1, doubled by the replies of request-reply traffic, and
// taken as 1 on a Graph500 job's nodes, whose injection the BFS sets);
// crossings per packet = HopsPerPacket × Crossings (a scheme's control
// packets' crossings per data crossing, hopExtras); instructions per
// packet-hop = PerHop, callgrind's for the topology and routing (hopCosts)
// plus the measured extra of the congestion scheme, the queueing and the
// router's options (hopExtras); the fixed cost per cycle is
// what an idle network's nodes and routers cost (fixedCosts); on a
// Dragonfly above the probe's load where no throughput bound is known (UN),
// a hop costs more the busier the network (figures.Contention, charged here
// on the whole cost per hop: OLM under UN at 0.9 at h=4 makes 8,770
// instructions per packet-hop against the probe's 1,888), and on a
// flattened butterfly above the load its costs were measured at
// (busierRows); near and past
// the routing's analytic throughput bound for the pattern, the heads that
// wait and are tried again every cycle cost figures.SaturatedInstructions
// (fitted to callgrind's count of whole runs). The bounds on
// load and hops overestimate a run past saturation (a saturated network
// accepts less than it is offered), which is the side a batch job's time
// limit must err on; a saturated run's extra cost per hop (heads tried
// again each cycle) is what that overestimate pays for.
//
// InstructionsPerSecond is 1·10⁹, below every rate measured on this
// project's machine (callgrind's count of a run over its CPU time):
// 1.35·10⁹ for the thesis's h=8 network, bound by memory latency, up to
// 7.7·10⁹ for small networks whose state stays in the caches (14·10⁹ in
// the tight loops of a saturated 16-node flattened butterfly's source
// queues).
const InstructionsPerSecond = 1e9

// hopCost is callgrind's instructions per packet-hop for a topology kind
// and routing ("" is any routing), with the engine/BENCHMARKS.md row it
// comes from.
type hopCost struct {
	Topology, Routing string
	Instr             float64
	Row               string
}

// hopCosts is PerHop's table of base costs; a run takes its topology's row
// for its routing, else its topology's row for any routing.
var hopCosts = []hopCost{
	// engine/sim/costs.sh's probe (h=4, UN 0.2), GOGC=off, on this build
	{"dragonfly", "MIN", 1559, "The batch estimate for every topology and mechanism: costs.sh"},
	{"dragonfly", "VAL", 1627, "The batch estimate for every topology and mechanism: costs.sh"},
	{"dragonfly", "ACOR", 1670, "The batch estimate for every topology and mechanism: costs.sh"},
	{"dragonfly", "UGAL", 1783, "The batch estimate for every topology and mechanism: costs.sh"},
	{"dragonfly", "PAR", 1873, "The batch estimate for every topology and mechanism: costs.sh"},
	{"dragonfly", "OLM", 1888, "The batch estimate for every topology and mechanism: costs.sh"},
	{"dragonfly", "PB", 1941, "The batch estimate for every topology and mechanism: costs.sh"},
	{"dragonfly", "PB_ACOR", 2017, "The batch estimate for every topology and mechanism: costs.sh"},
	{"dragonfly", "", 2200, "above every routing measured (VAL_GROUP, RVAL, QCN_SWITCH, …)"},
	// TestCallgrindFBFly, the paper's router with VOQs, 512 nodes, UN 0.5
	{"fbfly", "MIN", 2005, "Flattened butterfly: 512-node 2D, the paper's router, UN 0.5, VOQs"},
	{"fbfly", "", 2239, "Flattened butterfly: 512-node 2D, the paper's router, UN 0.5, VOQs (UGAL)"},
	// TestCallgrindFatTree, 64 hosts, UN 0.5, IQ (128-KB sides)
	{"fattree", "", 1913, "Fat tree: RECN's default thresholds, IQ 1,913 (64 hosts, UN 0.5; 1,728 at 256 and 1,664 at 512 in the batch estimate's section)"},
	// the mesh, not measured apart: the Dragonfly's MIN (the same router)
	{"", "", 1559, "The batch estimate for every topology and mechanism: costs.sh (MIN)"},
}

// hopExtra is what a run on Topology ("" any) of at least MinNodes nodes
// whose parameter Path (as -set names it) has Value costs more than its
// base row (of the rows for one setting, the one of the largest MinNodes
// the run reaches holds): Extra instructions per
// packet-hop (the code of a congestion scheme, a queueing or a router
// option, measured with callgrind against the same network without it,
// Row), and Control crossings of control packets per data crossing (a
// control packet crosses the routers as a data packet does).
type hopExtra struct {
	Topology       string
	MinNodes       int
	Path, Value    string
	Extra, Control float64
	Row            string
}

var hopExtras = []hopExtra{
	// Kim et al., Contention-based Congestion Management in Large-Scale
	// Networks §IV-B, §V-A; the probe's 512-node flattened butterfly,
	// sources queueing per destination, UR 0.5
	{"", 0, "congestion.scheme", "cbcm", 2355, 0, "CBCM, SRP and ECN per packet-hop: CBCM 6,764 against none 4,409 (UGAL); no throttle packets in the window"},
	{"", 0, "congestion.cbcmEarly", "true", 2568, 0, "CBCM, early detection 9,332 against CBCM's 6,764"},
	{"", 0, "congestion.scheme", "srp", 0, 1.44, "SRP: 1.44 control crossings per data crossing at 16 nodes (1.36 at 512), each cheaper than a data crossing (3,566 per packet-hop against 4,480), not counted cheaper"},
	{"", 0, "congestion.scheme", "ecn", 566, 0.01, "ECN 7,194 against 6,628 per packet-hop at 16 nodes (4,868 against 4,480 at 512); BECNs 1% of the crossings"},
	{"", 0, "congestion.scheme", "ideal", 566, 0, "not measured: ECN's"},
	// Duato et al., A New Scalable and Cost-Effective Congestion
	// Management Strategy for Lossless Multistage Interconnection Networks
	// §3, §4.3
	// RECN costs 2,243 against IQ's 1,915 per packet-hop under UN 0.5
	// at 64 hosts (+328); where the background roots many trees (corner
	// case 2, §4.2) its admittance queues and sides cost more. At 256
	// hosts the corner case measures less over IQ (recn-fig6a-recn, 2,362
	// per packet-hop less the fixed cost: +449), so the 64-host row holds
	// for every size and the estimate errs high.
	{"fattree", 0, "congestion.scheme", "recn", 644, 0, "RECN's corner-case cost cut, results unchanged: recn-case2-recn, callgrind over the whole run, 2,557 per packet-hop less the fixed cost per cycle, against IQ's 1,913 (recn-fig6a-recn 2,362 at 256 hosts)"},
	{"fattree", 0, "router.queueing", "4q", 281, 0, "4Q 2,182 against IQ 1,901 (64 hosts; 1,983 against 1,716 at 256)"},
	{"fattree", 0, "router.queueing", "voqsw", 142, 0, "VOQsw 2,043 against IQ 1,901 (64 hosts; 1,847 against 1,716 at 256)"},
	{"fattree", 0, "router.voq", "true", 142, 0, "VOQsw (router.voq) 2,043 against IQ 1,901 (64 hosts)"},
	{"fattree", 0, "router.queueing", "voqnet", 481, 0, "VOQnet 2,197 against IQ 1,716 (256 hosts; 2,086 against 1,901 at 64)"},
	// a queue per destination: at 512 hosts 8 busy-mask words per port
	{"fattree", 512, "router.queueing", "voqnet", 5420, 0, "The batch estimate for every topology and mechanism: recn-fig6b-voqnet, its CPU time × 4.9·10⁹ instructions/s, 7,333 per packet-hop less the fixed cost per cycle, against IQ's 1,913"},
	// thesis §5: DAMQ buffers and FlexVC
	{"dragonfly", 0, "router.damq", "true", 63, 0, "DAMQ reserving 75%: MIN 1,540 against 1,477"},
	{"dragonfly", 0, "router.flexVC", "true", 217, 0, "FlexVC: OLM 2,115 against 1,898"},
}

// busier is how much more a hop costs on Topology above the load From at
// which its hopCosts and hopExtras were measured: × (1 + PerLoad × (load −
// From)), the load at most 1 (a head that finds its output or its credits
// taken is tried again each cycle). The Dragonfly's is the gallery's
// (figures.Contention, over the probe's load 0.2 where no throughput bound
// is known).
type busier struct {
	Topology      string
	From, PerLoad float64
	Row           string
}

var busierRows = []busier{
	{"fbfly", 0.5, 3, "The batch estimate for every topology and mechanism: cbcm-fig8a's CBCM(MIN) at 0.8, callgrind over the whole run, 1.81× its cost per hop at 0.5, rounded up"},
}

// fixedCost is a network's instructions per cycle with no traffic, per
// node and per router.
type fixedCost struct {
	Topology           string
	PerNode, PerRouter float64
	Row                string
}

var fixedCosts = []fixedCost{
	{"fbfly", 112, figures.FixedInstrPerRouterCycle, "The gallery's run-time estimate: Kim et al.'s 16-node flattened butterfly idle (1,905 per cycle)"},
	{"", figures.FixedInstrPerNodeCycle, figures.FixedInstrPerRouterCycle, "The gallery's run-time estimate: the idle Dragonflies' fit"},
}

// PerHop is the instructions per packet-hop (every crossing, a control
// packet's too) of a run of c: its topology's and routing's hopCosts row
// plus the Extra of every hopExtras row that holds, × figures.Contention
// and busierRows above the load they were measured at.
func PerHop(c *config.Config) float64 {
	x := baseCost(c).Instr
	for _, e := range extras(c) {
		x += e.Extra
	}
	x *= figures.Contention(*c)
	for _, r := range busierRows {
		if r.Topology == topologyKind(c) {
			x *= 1 + r.PerLoad*max(0, math.Min(c.Traffic.Load, 1)-r.From)
		}
	}
	return x
}

// Crossings is the crossings of every packet per data packet's crossing: 1
// plus the Control of every hopExtras row that holds.
func Crossings(c *config.Config) float64 {
	x := 1.0
	for _, e := range extras(c) {
		x += e.Control
	}
	return x
}

// extras is the hopExtras rows that hold for c: for each setting, the row
// of the largest MinNodes at most c's nodes.
func extras(c *config.Config) []hopExtra {
	sz, _ := c.Topology.Sizes()
	var r []hopExtra
	for _, e := range hopExtras {
		if e.MinNodes > sz.Nodes || !holds(c, e.Topology, e.Path, e.Value) {
			continue
		}
		i := slices.IndexFunc(r, func(o hopExtra) bool { return o.Topology == e.Topology && o.Path == e.Path && o.Value == e.Value })
		switch {
		case i < 0:
			r = append(r, e)
		case e.MinNodes > r[i].MinNodes:
			r[i] = e
		}
	}
	return r
}

func baseCost(c *config.Config) hopCost {
	var best *hopCost
	for i := range hopCosts {
		h := &hopCosts[i]
		if (h.Topology == "" || h.Topology == topologyKind(c)) && (h.Routing == "" || h.Routing == c.Routing.Name) {
			if best == nil || (h.Topology != "" && best.Topology == "") || (h.Topology == best.Topology && h.Routing != "" && best.Routing == "") {
				best = h
			}
		}
	}
	return *best
}

func topologyKind(c *config.Config) string {
	if c.Topology.Kind == "" {
		return "dragonfly"
	}
	return c.Topology.Kind
}

// holds reports whether c is on topology ("" any) and its parameter path
// reads value.
func holds(c *config.Config, topology, path, value string) bool {
	if topology != "" && topology != topologyKind(c) {
		return false
	}
	p, ok := config.Lookup(path)
	return ok && p.Format(c) == value
}

// FixedPerCycle is a network's instructions per cycle whatever its traffic.
func FixedPerCycle(c *config.Config) float64 {
	sz, _ := c.Topology.Sizes()
	for _, f := range fixedCosts {
		if f.Topology == "" || f.Topology == topologyKind(c) {
			return f.PerNode*float64(sz.Nodes) + f.PerRouter*float64(sz.Routers)
		}
	}
	return 0
}

// HopsPerPacket bounds the crossbar crossings of a packet of c: the
// topology's minimal path (a Dragonfly's local-global-local, a flattened
// butterfly's one hop per dimension, a mesh's Manhattan diameter, a fat
// tree's way up to its top stage and down) plus the
// ejecting crossbar, twice for non-minimal routings.
func HopsPerPacket(c *config.Config) float64 {
	t := &c.Topology
	var hops float64
	switch t.Kind {
	case "mesh":
		hops = float64(max(t.Width-1, 0) + max(t.Height-1, 0))
	case "fbfly":
		hops = float64(max(t.Dimensions, 1))
	case "fattree":
		// D-mod-k up to the top stage and down (the RECN paper's networks)
		hops = float64(2 * max(t.Stages-1, 1))
	default: // dragonfly: l g l (thesis §1.2)
		hops = 3
	}
	if c.Routing.Name != "MIN" {
		hops *= 2
	}
	return hops + 1
}

// Packets bounds the packets a run of c sends (see InstructionsPerSecond).
func Packets(c *config.Config) float64 {
	sz, ok := c.Topology.Sizes()
	if !ok || c.Router.PacketSize < 1 {
		return 0
	}
	nodes, load := sz.Nodes, math.Min(c.Traffic.Load, 1)
	if c.Graph500() {
		nodes, load = sim.Graph500Nodes(c), 1
	}
	if c.Traffic.Reactive {
		load *= 2
	}
	return float64(nodes) * load / float64(c.Router.PacketSize) * float64(sim.EstimatedCycles(c))
}

// Instructions estimates one run's instructions (see InstructionsPerSecond).
func Instructions(c *config.Config) float64 {
	if _, ok := c.Topology.Sizes(); !ok || c.Router.PacketSize < 1 {
		return 0
	}
	cycles := float64(sim.EstimatedCycles(c))
	return Packets(c)*HopsPerPacket(c)*Crossings(c)*PerHop(c) + cycles*FixedPerCycle(c) + figures.SaturatedInstructions(*c, cycles)
}

// Seconds estimates one run's CPU time (see InstructionsPerSecond).
func Seconds(c *config.Config) float64 { return Instructions(c) / InstructionsPerSecond }

// Bytes is one run's memory: the engine's estimate of its peak heap
// (config.Config.StateBytes, a bound).
func Bytes(c *config.Config) int64 { return c.StateBytes() }

// Cost of a set of runs: their CPU seconds in all, the longest run's, and
// the largest run's memory.
type Cost struct {
	Seconds, Longest float64
	Bytes            int64
	Runs             int
}

// Cost sums the estimates of runs (indices in p.Jobs).
func (p *Plan) Cost(runs []int) Cost {
	var c Cost
	for _, i := range runs {
		cfg := &p.Jobs[i].Config
		s := Seconds(cfg)
		c.Seconds += s
		c.Longest = math.Max(c.Longest, s)
		c.Bytes = max(c.Bytes, Bytes(cfg))
		c.Runs++
	}
	return c
}

// ParallelEfficiency is a partitioned run's speed-up per thread
// (engine/PARALLEL.md): a run on t threads is taken to run
// max(1, ParallelEfficiency × min(t, partition keys)) times as fast as on one.
// Measured on this project's 2-core machine at the 1,056-node Dragonfly
// (h=4, MIN, UN 0.4; engine/BENCHMARKS.md, "Parallel runs"): the lowest
// of the speed-ups measured there at 2 threads, 1.23 (the median 1.40),
// rounded down, and assumed to hold at more threads (not measured: no
// machine with more cores was at hand). Too low errs on the safe side: a
// longer time limit.
const ParallelEfficiency = 0.6

// partitioned reports whether the engine splits a run of c across threads
// (sim.SequentialNote, the engine's own reasons read from the
// configuration; a run it keeps sequential gains nothing from threads, and
// sim.UsefulPartitions gives it one). TestPartitionedAgreesWithEngine runs
// the engine to check it.
func partitioned(c *config.Config) bool { return sim.SequentialNote(c) == "" }

// partitionKeys is the most partitions a run of c splits into (a
// Dragonfly's groups, a flattened butterfly's or mesh's rows, a fat tree's
// subtrees).
func partitionKeys(c *config.Config) int { return topology.PartitionKeysOf(c.Topology.Params()) }

// SpeedUp is how many times faster a run of c goes on threads threads than
// on one (ParallelEfficiency; 1 for a run the engine keeps sequential).
func SpeedUp(c *config.Config, threads int) float64 {
	if threads < 2 || !partitioned(c) {
		return 1
	}
	return math.Max(1, ParallelEfficiency*float64(min(threads, partitionKeys(c))))
}

// TaskSeconds estimates the time a task takes to run runs (indices in
// p.Jobs, in the order Exec runs them) on cpus cores, as Exec shares them
// (sweep.Share's runs at once, sweep.Cores's threads as each run starts):
// each run takes Seconds ÷ SpeedUp, and the next run starts when one
// finishes.
func (p *Plan) TaskSeconds(runs []int, cpus int) float64 {
	cpus = max(cpus, 1)
	workers, _ := sweep.Share(len(runs), cpus, 0, 0)
	cores := sweep.NewCores(len(runs), cpus, workers, 0)
	type running struct {
		end     float64
		threads int
	}
	var now float64
	var busy []running
	for next := 0; next < len(runs) || len(busy) > 0; {
		for next < len(runs) && len(busy) < workers {
			c := &p.Jobs[runs[next]].Config
			t := cores.TakeAtMost(sim.UsefulPartitions(c))
			busy = append(busy, running{now + Seconds(c)/SpeedUp(c, t), t})
			next++
		}
		k := 0
		for i, r := range busy {
			if r.end < busy[k].end {
				k = i
			}
		}
		now = busy[k].end
		cores.Give(busy[k].threads)
		busy = append(busy[:k], busy[k+1:]...)
	}
	return now
}
