package plan

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
	"phitsim/engine/topology"
)

// The cost model of a run, for the requests of a batch job (engine/BENCHMARKS.md):
//
//	seconds = packets × crossings per packet × instructions per packet-hop ÷ InstructionsPerSecond
//
// packets = nodes × offered load ÷ packet size × cycles (warm-up included;
// the load at most 1, doubled by the replies of request-reply traffic, and
// taken as 1 for Graph500, whose injection the BFS sets); crossings per
// packet = the topology's minimal hops + 1 (a packet crosses one crossbar
// more than it crosses links), doubled for every routing but MIN (Valiant
// paths are two minimal ones); instructions per packet-hop are callgrind's
// (h=4, UN 0.2) for the routing. At the thesis's h=8 the engine is bound by
// memory latency: 0.87–1.06 µs per hop for MIN's 1,501 instructions, about
// 1.5·10⁹ instructions per second; InstructionsPerSecond is 1·10⁹, a slower
// core's. The bounds on load and hops overestimate a run past saturation
// (a saturated network accepts less than it is offered), which is the side
// a batch job's time limit must err on.
const InstructionsPerSecond = 1e9

// instructionsPerHop are engine/sim/costs.sh's instructions per packet-hop
// (engine/BENCHMARKS.md), by routing; others take unknownRoutingCost.
var instructionsPerHop = map[string]float64{
	"MIN": 1501, "VAL": 1589, "UGAL": 1725, "PB": 1878, "PAR": 1822, "OLM": 1849, "ACOR": 1621, "PB_ACOR": 1952,
}

// unknownRoutingCost is above every routing measured.
const unknownRoutingCost = 2200

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

// Seconds estimates one run's CPU time (see InstructionsPerSecond).
func Seconds(c *config.Config) float64 {
	sz, ok := c.Topology.Sizes()
	if !ok || c.Router.PacketSize < 1 {
		return 0
	}
	load := math.Min(c.Traffic.Load, 1)
	if c.Graph500() {
		load = 1
	}
	if c.Traffic.Reactive {
		load *= 2
	}
	packets := float64(sz.Nodes) * load / float64(c.Router.PacketSize) * float64(sim.EstimatedCycles(c))
	ipc, ok := instructionsPerHop[c.Routing.Name]
	if !ok {
		ipc = unknownRoutingCost
	}
	return packets * HopsPerPacket(c) * ipc / InstructionsPerSecond
}

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
