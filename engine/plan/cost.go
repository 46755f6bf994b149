package plan

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/sim"
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
// butterfly's one hop per dimension, a mesh's Manhattan diameter) plus the
// ejecting crossbar, twice for non-minimal routings.
func HopsPerPacket(c *config.Config) float64 {
	t := &c.Topology
	var hops float64
	switch t.Kind {
	case "mesh":
		hops = float64(max(t.Width-1, 0) + max(t.Height-1, 0))
	case "fbfly":
		hops = float64(max(t.Dimensions, 1))
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
