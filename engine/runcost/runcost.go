// Package runcost is the engine's measured cost of a run's parts: callgrind's
// instructions per packet-hop of each topology, routing, congestion scheme
// and queueing, the crossings of control packets, the hops of a packet and
// an idle network's instructions per cycle (engine/BENCHMARKS.md, "The batch
// estimate for every topology and mechanism"). The batch estimate
// (engine/plan) bounds a run's CPU time with it; the page's run bar
// (site/experiment.Cost) takes its expected relative costs from it. It
// imports no file-system or process code, so the WebAssembly build can
// carry it.
package runcost

import (
	"maps"
	"math"
	"slices"

	"phitsim/engine/config"
	"phitsim/engine/figures"
	"phitsim/engine/routing"
)

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
	// TestCallgrindPreset on the mesh preset (16 nodes, dimension-order
	// MIN), UN 0.5 (1,845 at 0.2)
	{"mesh", "", 1846, "The page's run-time estimate: the mesh and Ideal measured, mesh UN 0.5"},
	// a topology not measured: the Dragonfly's MIN (the same router)
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
	{"", 0, "congestion.scheme", "ideal", 52, 0, "The page's run-time estimate: the mesh and Ideal measured, Ideal 6,802 against none 6,750 at 16 nodes (MIN; +23 and +21 at 512 under MIN and UGAL)"},
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
	// PacketSize is the packet size of the runs it was measured on
	// (ExpectedPerHop scales the growth by a run's packet size over it)
	PacketSize int
	Row        string
}

var busierRows = []busier{
	{"fbfly", 0.5, 3, 32, "The batch estimate for every topology and mechanism: cbcm-fig8a's CBCM(MIN) at 0.8, callgrind over the whole run, 1.81× its cost per hop at 0.5, rounded up"},
}

// fixedCost is a network's instructions per cycle with no traffic, per
// node and per router.
// PerDest: the row holds for runs with per-destination source queues
// only (a node's queues are served each cycle; without them the traffic
// generator skips the cycles a node sends nothing).
type fixedCost struct {
	Topology           string
	PerDest            bool
	PerNode, PerRouter float64
	Row                string
}

var fixedCosts = []fixedCost{
	{"fbfly", true, 112, figures.FixedInstrPerRouterCycle, "The gallery's run-time estimate: Kim et al.'s 16-node flattened butterfly idle (1,905 per cycle)"},
	// TestCallgrindFBFly, 16 nodes, MIN, UR 0.01, less the hops at about
	// 2,500: (1,371,274 − 32 hops) without source queues against
	// (6,774,963 − 49 hops) with per-destination ones (the CBCM rows'
	// settings), 0.19 of it: 1,905 × 0.19 ≈ 366 a cycle
	{"fbfly", false, 16, figures.FixedInstrPerRouterCycle, "The page's run-time estimate: the flattened butterfly without per-destination source queues, 366 per cycle at 16 nodes"},
	{"", false, figures.FixedInstrPerNodeCycle, figures.FixedInstrPerRouterCycle, "The gallery's run-time estimate: the idle Dragonflies' fit"},
}

// PerHop is the instructions per packet-hop (every crossing, a control
// packet's too) of a run of c: its topology's and routing's hopCosts row
// plus the Extra of every hopExtras row that holds, × figures.Contention
// and busierRows above the load they were measured at.
func PerHop(c *config.Config) float64 {
	x := MeasuredPerHop(c) * figures.Contention(*c)
	for _, r := range busierRows {
		if r.Topology == topologyKind(c) {
			x *= 1 + r.PerLoad*max(0, math.Min(c.Traffic.Load, 1)-r.From)
		}
	}
	return x
}

// MeasuredPerHop is PerHop at the load its rows were measured at: the
// hopCosts row plus the hopExtras rows that hold, without the growth with
// the load (figures.Contention, busierRows).
func MeasuredPerHop(c *config.Config) float64 {
	x := baseCost(c).Instr
	for _, e := range extras(c) {
		x += e.Extra
	}
	return x
}

// lowLoadExtra is a hopExtras row's setting measured again under UN at a
// lower load, where its code runs less often: ExpectedPerHop takes the
// Extra at Load from here and at load 1 from the hopExtras row (measured
// where the background saturates the network, the RECN paper's corner
// case 2), linearly in between.
type lowLoadExtra struct {
	Topology    string
	MinNodes    int
	Path, Value string
	Load, Extra float64
	Row         string
}

var lowLoadExtras = []lowLoadExtra{
	// Duato et al., A New Scalable and Cost-Effective Congestion
	// Management Strategy for Lossless Multistage Interconnection Networks
	// §4.3: RECN's notifications and set-aside queues cost little where
	// no tree forms
	{"fattree", 0, "congestion.scheme", "recn", 0.5, 328, "RECN's corner-case cost cut, results unchanged: TestCallgrindFatTree 64 hosts, RECN 2,243 against IQ's 1,915 (256 hosts: 2,122 against 1,728)"},
	{"fattree", 512, "router.queueing", "voqnet", 0.5, 904, "The batch estimate for every topology and mechanism: TestCallgrindFatTree 512 hosts, VOQnet 2,568 against IQ's 1,664"},
}

// ExpectedPerHop is PerHop as an expected value rather than a bound, for
// the page's run bar (site/experiment.Cost): the hopCosts row plus the
// hopExtras rows that hold, each at the run's offered load where it was
// also measured at a lower one (lowLoadExtras), × the busierRows' growth
// with the offered load scaled by the run's packet size over the size it
// was measured at (the growth is the heads that wait while the packet
// before them crosses, and are tried again each cycle: a 1-flit packet
// holds its output one cycle, a 32-flit one 32; natively, Kim et al.'s
// 16-node flattened butterfly under UR, MIN, runs 1.89× longer at 0.9
// than at 0.5 with 1-flit packets and 1.83× with 32-flit ones, the load's
// 1.8×: engine/BENCHMARKS.md, "The page's run-time estimate"). A
// Dragonfly's figures.Contention is left out.
func ExpectedPerHop(c *config.Config) float64 {
	load := max(0, math.Min(c.Traffic.Load, 1))
	x := baseCost(c).Instr
	for _, e := range extras(c) {
		extra := e.Extra
		for _, l := range lowLoadExtras {
			if l.Topology == e.Topology && l.MinNodes == e.MinNodes && l.Path == e.Path && l.Value == e.Value {
				extra = l.Extra + (e.Extra-l.Extra)*min(max((load-l.Load)/(1-l.Load), 0), 1)
			}
		}
		x += extra
	}
	for _, r := range busierRows {
		if r.Topology == topologyKind(c) {
			x *= 1 + r.PerLoad*float64(c.Router.PacketSize)/float64(r.PacketSize)*max(0, load-r.From)
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
	_, perDest := c.Traffic.Messages()
	for _, f := range fixedCosts {
		if (f.Topology == "" || f.Topology == topologyKind(c)) && (!f.PerDest || perDest) {
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

// ExpectedHopsPerPacket is HopsPerPacket as an expected value, for the
// page's run bar (site/experiment.Cost): on a Dragonfly a routing that
// only takes minimal paths makes MIN's hops, one that only takes Valiant's
// twice them, and an adaptive routing (minimal when it can, Valiant when
// not) halfway between; elsewhere HopsPerPacket.
func ExpectedHopsPerPacket(c *config.Config) float64 {
	if topologyKind(c) != "dragonfly" {
		return HopsPerPacket(c)
	}
	m := *c
	m.Routing.Name = "MIN"
	minimal := HopsPerPacket(&m)
	switch routing.Get(c.Routing.Name).Paths {
	case routing.MinimalOnly:
		return minimal
	case routing.ValiantOnly:
		return 2*minimal - 1 // twice the path, one ejection
	}
	return 1.5*minimal - 0.5
}

// saturatedSourceQueues is what the heads of a saturated run's source
// queues (traffic.sourceQueue) cost per node and cycle beyond its
// packet-hops and its fixed cost, at 32-flit packets, for each congestion
// scheme: past the routing's throughput bound every node's head waits at
// its source and is tried again each cycle, unless the scheme holds the
// source back. TestCallgrindFBFly on Kim et al.'s 16-node 1D flattened
// butterfly, MIN under the tornado n → n+4 at 0.5 (its bound 0.25), the
// probe's CBCM settings (engine/BENCHMARKS.md, "The page's run-time
// estimate"): the 4,000-cycle window's instructions less the fixed cost
// (1,899 a cycle) and its crossings at the scheme's marginal cost under
// UN 0.5, per node and cycle. Without a flow gate a node none of whose
// destinations finds room sleeps (drainDest), so its waiting heads cost
// little; CBCM's gate keeps the scan each cycle.
var saturatedSourceQueues = map[string]float64{
	"none":  47,  // 13,130,197 instructions, 1,000 hops
	"ideal": 48,  // 13,239,497, 1,000 hops
	"cbcm":  291, // 31,148,017, 1,000 hops (no throttle: no hotspot)
	"srp":   23,  // 15,877,226, 2,477 crossings (993 data): reservations pace the sources
	"ecn":   0,   // 8,467,276, 274 hops: the throttled sources send little
}

// SaturatedSourceQueues is the expected cost per node and cycle of the
// waiting heads of a run of c with source queues offered more than its
// routing's throughput bound: saturatedSourceQueues of its scheme (the
// highest for a scheme not measured) scaled by its packet size over 32 (a
// head waits as long as the packet before it takes to cross); 0 without
// source queues.
func SaturatedSourceQueues(c *config.Config) float64 {
	if !c.Traffic.SourceQueue {
		return 0
	}
	x, ok := saturatedSourceQueues[c.Congestion.SchemeName()]
	if !ok {
		x = slices.Max(slices.Collect(maps.Values(saturatedSourceQueues)))
	}
	return x * float64(c.Router.PacketSize) / 32
}
