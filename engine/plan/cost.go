package plan

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/figures"
	"phitsim/engine/runcost"
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
// crossings per packet = runcost.HopsPerPacket × runcost.Crossings (a scheme's control
// packets' crossings per data crossing); instructions per packet-hop =
// runcost.PerHop, callgrind's for the topology and routing plus the measured extra
// of the congestion scheme, the queueing and the router's options (the
// tables of package runcost); the fixed cost per cycle is what an idle
// network's nodes and routers cost (runcost.FixedPerCycle); on a
// Dragonfly above the probe's load where no throughput bound is known (UN),
// a hop costs more the busier the network (figures.Contention, charged here
// on the whole cost per hop: OLM under UN at 0.9 at h=4 makes 8,770
// instructions per packet-hop against the probe's 1,888), and on a
// flattened butterfly above the load its costs were measured at; near and
// past the routing's analytic throughput bound for the pattern, the heads
// that wait and are tried again every cycle cost figures.SaturatedInstructions
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
	return Packets(c)*runcost.HopsPerPacket(c)*runcost.Crossings(c)*runcost.PerHop(c) + cycles*runcost.FixedPerCycle(c) + figures.SaturatedInstructions(*c, cycles)
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
