// Package facts derives the analytic facts the UI shows next to a
// configuration: sizes of the Dragonfly, router radix, VCs the routing needs
// and the throughput bounds of the thesis (§1.4, §1.6). No DOM code.
package facts

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"phitsim/engine/config"
	"phitsim/engine/graph500"
	"phitsim/engine/routing"
	"phitsim/engine/sim"
	"phitsim/engine/topology"
	"phitsim/engine/units"
)

// Facts about one configuration.
type Facts struct {
	Groups, Routers, Nodes, Radix int
	// VCs per port class as the engine will use them (automatic ones resolved).
	InjectionVCs, LocalVCs, GlobalVCs int
	// MinAdvCap is the MIN throughput under ADV+i: the single global link
	// between two groups carries the traffic of a·p nodes, so 1/(a·p).
	MinAdvCap float64
	// MinAdvcCap is the MIN cap under ADVc: h global links leave the group
	// towards the h target groups, so h/(a·p) ((h−1)/(a·p) for FOGSim's variant).
	MinAdvcCap float64
	// ValBound: Valiant sends every packet over two global links, so at most 0.5.
	ValBound float64
	// Bound is the analytic throughput bound of this config's routing and
	// pattern (phits/node/cycle), 0 when none is known; Why names it.
	Bound float64
	Why   string
	// Work is nodes × simulated cycles of one run: a size for cost estimates.
	// A Graph500 run lasts as long as its BFS (sim.cycles is only a cap):
	// the engine's estimate of its length (sim.EstimatedCycles) is used.
	Work float64
	// Graph500: the physical units and the node model of a Graph500
	// workload (nil otherwise, or when the fields they need are invalid).
	Graph500 *Graph500
	// Basis: the configuration's physical basis (its physical section; nil
	// without one): the page shows the cycle and the loads in Gb/s.
	Basis *units.Basis
	// BisectionLinks: a flattened butterfly's or a fat tree's links cut by
	// its bisection, each way (0 on other kinds).
	BisectionLinks int
	// CbcmBits: under CBCM, each router's contention-degree storage in bits
	// (CbcmDetectorBits; 0 otherwise).
	CbcmBits int
}

// CbcmDetectorBits is the storage a router of this radix needs for CBCM's
// contention detection (Kim et al., Contention-based Congestion Management
// in Large-Scale Networks §V-D): at every output port the moving average's
// samples and the min and max samples of each bound interval, each a
// ⌈log₂ radix⌉-bit degree. The paper's radix-64 router with 100 + 10 + 10
// samples: 46,080 bits, 5,760 bytes, its "≈ 5.6 KB per router".
func CbcmDetectorBits(radix, samples, boundInterval int) int {
	if radix < 2 || boundInterval < 1 {
		return 0
	}
	w := bits.Len(uint(radix - 1)) // ⌈log₂ radix⌉
	return radix * (samples + 2*samples/boundInterval) * w
}

// Load writes a load in phits/(node·cycle), and in Gb/s per node when the
// configuration has a physical basis ("0.03125 = 1.25 Gb/s per node").
func (f *Facts) Load(x float64) string {
	s := fmt.Sprintf("%.4g", x)
	if f.Basis != nil {
		s += " = " + units.FormatGbps(f.Basis.Gbps(x)) + " per node"
	}
	return s
}

// Graph500 facts: what the engine derives from the workload section.
type Graph500 struct {
	// Processes of the job: one per node of its groups.
	Processes int
	// CycleNs: one phit per cycle on a link, phitBytes·8/linkGbps ns
	// (config.Workload.CycleNs).
	CycleNs float64
	// TqCycles: the computation per query in cycles, tq/CycleNs.
	TqCycles float64
	// MessagePhits: a full message (cs queries) in phits, whole packets.
	MessagePhits int
	// Pinj: the load a generating node offers, eq. 2.20 clamped to 1
	// phit/cycle (graph500.InjectionProbability); PinjRaw unclamped.
	Pinj, PinjRaw float64
}

// PinjText is p_inj as the page shows it: the clamped value, and the
// unclamped one when the clamp bites ("unbounded" for nodes that compute
// instantly, tq = 0, whose eq. 2.20 quotient has no finite value).
func (g *Graph500) PinjText() string {
	s := fmt.Sprintf("%.4g", g.Pinj)
	switch {
	case g.PinjRaw == math.MaxFloat64:
		s += " (unbounded, clamped)"
	case g.PinjRaw > 1:
		s += fmt.Sprintf(" (%.4g clamped)", g.PinjRaw)
	}
	return s
}

// Of computes the facts of a configuration. Sizes are zero when the topology
// parameters are out of range.
func Of(c *config.Config) Facts {
	var f Facts
	t := c.Topology
	sz, ok := t.Sizes()
	if !ok {
		return f
	}
	f.Groups, f.Routers, f.Nodes, f.Radix = sz.Groups, sz.Routers, sz.Nodes, sz.Radix
	f.InjectionVCs, f.LocalVCs, f.GlobalVCs = c.VCs()
	f.Work = float64(f.Nodes) * float64(c.Sim.Warmup+c.Sim.Cycles)
	if b, ok := c.Basis(); ok {
		f.Basis = &b
	}
	if c.Congestion.SchemeName() == "cbcm" {
		p := c.Congestion.CBCM()
		f.CbcmBits = CbcmDetectorBits(f.Radix, p.Samples, p.BoundInterval)
	}
	if t.Kind == routing.FBFly {
		fbflyFacts(c, &f)
		return f
	}
	if t.Kind == routing.FatTree {
		fattreeFacts(c, &f)
		return f
	}
	if t.Kind != "dragonfly" {
		return f // the bounds below are the Dragonfly's
	}
	ap := float64(t.A * t.P)
	f.MinAdvCap = 1 / ap
	advc := t.H
	if c.Traffic.AdvcFogsim {
		advc = t.H - 1
	}
	f.MinAdvcCap = float64(advc) / ap
	f.ValBound = 0.5
	switch routing.Get(c.Routing.Name).Paths {
	case routing.MinimalOnly:
		switch c.Traffic.Pattern {
		case "ADV":
			f.Bound, f.Why = f.MinAdvCap, fmt.Sprintf("MIN under ADV+%d: 1/(a·p) = 1/%d", c.Traffic.AdvOffset, t.A*t.P)
		case "ADVC":
			f.Bound, f.Why = f.MinAdvcCap, fmt.Sprintf("MIN under ADVc: %d/(a·p) = %d/%d", advc, advc, t.A*t.P)
		}
	case routing.ValiantOnly:
		f.Bound, f.Why = f.ValBound, c.Routing.Name+": two global hops per packet, at most 1/2"
	}
	if c.Traffic.Reactive {
		// Requests and replies both load the network: the bounds apply to
		// the total accepted load, which is what the charts show.
		f.Why += " (requests + replies)"
	}
	f.Graph500 = graph500Facts(c)
	if c.Graph500() && len(c.Validate()) == 0 { // the estimate divides by fields
		f.Work = float64(f.Nodes) * float64(sim.EstimatedCycles(c))
	}
	return f
}

// graph500Facts are the engine's own conversion of the workload section
// (sim.Graph500Params); facts_test.go checks them against the engine's
// report of a run.
func graph500Facts(c *config.Config) *Graph500 {
	w, t := &c.Workload, &c.Topology
	if !c.Graph500() || w.LinkGbps <= 0 || w.PhitBytes <= 0 || w.QueryBytes <= 0 || w.Coalescing <= 0 ||
		c.Router.PacketSize <= 0 || w.Tq < 0 {
		return nil
	}
	p := sim.Graph500Params(c)
	g := &Graph500{CycleNs: p.CycleNs, TqCycles: p.TqCycles, MessagePhits: p.MessagePhits()}
	g.Pinj, g.PinjRaw = graph500.InjectionProbability(g.MessagePhits, p.TqCycles, p.Coalescing)
	if sz, ok := t.Sizes(); ok {
		g.Processes = sz.Nodes / sz.Groups * len(w.JobGroups(sz.Groups))
	}
	return g
}

// fbflyFacts are a flattened butterfly's bisection and MIN's link bounds
// (Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §V-A): under TORNADO (and TORNADO_RAND) the p nodes of a router
// share the one minimal link to the next router (1D; 2D: its x link, and
// on the row's wrap the y link after it), so 1/p; under UN a link carries
// the traffic of p nodes to the k^(d−1)·p nodes its far router leads to in
// dimension order, (N−1)/(k^(d−1)·p²) of a node's load at most 1.
func fbflyFacts(c *config.Config, f *Facts) {
	t := c.Topology
	f.BisectionLinks = topology.BisectionLinks(t.Dimensions, t.K)
	if routing.Get(c.Routing.Name).Paths != routing.MinimalOnly {
		return
	}
	p := float64(t.P)
	switch c.Traffic.Pattern {
	case "TORNADO", "TORNADO_RAND":
		f.Bound, f.Why = min(1, 1/p), fmt.Sprintf("MIN under %s: the %d nodes of a router share one link, 1/p", c.Traffic.Pattern, t.P)
	case "UN":
		spread := float64(t.P)
		if t.Dimensions == 2 {
			spread *= float64(t.K)
		}
		f.Bound = min(1, float64(f.Nodes-1)/(spread*p))
		f.Why = fmt.Sprintf("MIN under UN: a link carries p·%g/(N−1) of a node's load", spread)
	}
}

// fattreeFacts are a fat tree's bisection and MIN's bound under UN (RECN
// paper §4.1's networks; D-mod-k): the bisection cuts one link per host of
// a half (full bisection), and D-mod-k loads no switch link above a host's
// load under UN (engine/topology's TestFatTreeEveryLinkCarriesUR), so the
// host links bound it: 1.
func fattreeFacts(c *config.Config, f *Facts) {
	t := c.Topology
	m := t.Subtrees
	if m == 0 {
		m = t.K
	}
	f.BisectionLinks = topology.FatTreeBisectionLinks(t.K, t.Stages, m)
	if routing.Get(c.Routing.Name).Paths == routing.MinimalOnly && c.Traffic.Pattern == "UN" {
		f.Bound, f.Why = 1, "MIN (D-mod-k) under UN: full bisection, the host links bound it"
	}
}

// Item is one line of the page's facts panel: its key (with the formula
// where there is one), value and tooltip.
type Item struct{ Key, Value, Tip string }

// Items are the panel's lines for c's topology kind: a Dragonfly's carry its
// formulas in a, h, p and G and its adversarial caps; another kind (mesh,
// flattened butterfly) shows its sizes, its VCs and the bound of this
// configuration, with no Dragonfly formula. Then the warnings of buffers
// too small for their loop, and the lines of a physical basis (the cycle),
// a flattened butterfly's bisection (a fat tree's is among its sizes),
// CBCM's detector storage and the VCs a mechanism adds. Each key appears
// once.
func (f *Facts) Items(c *config.Config) []Item {
	items := f.kindItems(c)
	if b := f.Basis; b != nil {
		items = append(items, Item{"cycle 8·phitBytes/linkGbps", units.FormatTime(b.CycleNs()),
			fmt.Sprintf("one phit per cycle on a %g Gb/s link with %d-byte phits: the length of a simulated cycle", b.LinkGbps, b.PhitBytes)})
	}
	if f.BisectionLinks > 0 && c.Topology.Kind != routing.FatTree {
		items = append(items, Item{"bisection links", strconv.Itoa(f.BisectionLinks),
			"links cut between the halves of the network, each way: under UN half of every node's load crosses them"})
	}
	if f.CbcmBits > 0 {
		items = append(items, Item{"CBCM detector storage", fmt.Sprintf("%d bytes per router", f.CbcmBits/8),
			"every output's contention-degree samples (congestion.cbcmSamples) and the min and max of each bound interval, ⌈log₂ radix⌉ bits each (Kim et al. §V-D: ≈ 5.6 KB for a radix-64 router)"})
	}
	if v := c.MechanismVCsText(); v != "" {
		items = append(items, Item{"VCs the mechanism adds", v,
			"virtual channels above the data VCs of each port class: the congestion scheme's isolated class (its hotspot or speculative VCs) and control VCs, or QCN-Switch's CNM VCs; a port holds 32 in all"})
	}
	return items
}

// kindItems are the lines of c's topology kind, its loop warnings included.
func (f *Facts) kindItems(c *config.Config) []Item {
	bound := "—"
	if f.Bound > 0 {
		bound = fmt.Sprintf("%s (%s)", f.Load(f.Bound), f.Why)
	}
	last := Item{"bound of this config", bound, "analytic throughput bound for this routing and pattern"}
	if t := c.Topology; t.Kind == routing.FatTree {
		return []Item{
			{"hosts", strconv.Itoa(f.Nodes), "compute nodes, k on each leaf switch (hosts k·s … k·s+k−1 on leaf s)"},
			{"switches", strconv.Itoa(f.Routers), "switches in the network, stages × subtrees·k^(stages−2)"},
			{"stages", strconv.Itoa(t.Stages), "levels of switches, leaves to top"},
			{"radix 2k", strconv.Itoa(f.Radix), "ports per switch: k down, k up"},
			{"bisection links", strconv.Itoa(f.BisectionLinks), "links cut by a bisection of the hosts, each way: one per host of a half (full bisection)"},
			{"VCs inj/transit", fmt.Sprintf("%d / %d", f.InjectionVCs, f.LocalVCs), "virtual channels of a host port and of a switch-to-switch port (up*/down* needs one)"},
			{"memory per port side", f.portMemory(c), "a switch port's buffer at its ingress side (router.localBuffer) and at its egress side (router.outputBuffer), as the RECN paper's §4.1 gives them (128 KB each at 64 and 256 hosts, 192 KB at 512)"},
			last,
		}
	}
	if c.Topology.Kind != "dragonfly" {
		return append([]Item{
			{"routers", strconv.Itoa(f.Routers), "routers in the network"},
			{"nodes", strconv.Itoa(f.Nodes), "compute nodes"},
			{"radix", strconv.Itoa(f.Radix), "ports per router, its nodes' included"},
			{"VCs inj/transit", fmt.Sprintf("%d / %d", f.InjectionVCs, f.LocalVCs), "virtual channels of an injection port and of a router-to-router port, as the routing requires"},
			last,
		}, loopItems(c)...)
	}
	return append([]Item{
		{"groups G = a·h+1", strconv.Itoa(f.Groups), "number of groups of a maximum-size Dragonfly"},
		{"routers a·G", strconv.Itoa(f.Routers), "routers in the network"},
		{"nodes p·a·G", strconv.Itoa(f.Nodes), "compute nodes"},
		{"radix p+a−1+h", strconv.Itoa(f.Radix), "ports per router"},
		{"VCs inj/local/global", fmt.Sprintf("%d / %d / %d", f.InjectionVCs, f.LocalVCs, f.GlobalVCs), "virtual channels per port class, as the routing requires"},
		{"MIN/ADV+1 cap 1/(a·p)", f.Load(f.MinAdvCap), "throughput of minimal routing under adversarial traffic"},
		{"ADVc MIN cap h/(a·p)", f.Load(f.MinAdvcCap), "minimal routing under ADVc"},
		{"VAL bound", f.Load(0.5), "Valiant crosses two global links per packet"},
		last,
	}, loopItems(c)...)
}

// portMemory is a switch port's memory per side: its ingress buffer
// (router.localBuffer × VCs) and, with output buffers, its egress one
// (router.outputBuffer), in KiB with a physical basis (the RECN paper's
// "128 KB" is 128·1,024 bytes), else in phits.
func (f *Facts) portMemory(c *config.Config) string {
	in, out := c.Router.LocalBuffer*max(1, f.LocalVCs), 0
	if c.Router.Model == "ioq" {
		out = c.Router.OutputBuffer
	}
	if b := f.Basis; b != nil {
		kib := func(phits int) string { return strconv.FormatFloat(b.Bytes(float64(phits))/1024, 'f', -1, 64) + " KiB" }
		s := fmt.Sprintf("%s (%d phits of %d bytes) ingress", kib(in), in, b.PhitBytes)
		if out > 0 {
			s += ", " + kib(out) + " egress"
		}
		return s
	}
	s := fmt.Sprintf("%d phits ingress", in)
	if out > 0 {
		s += fmt.Sprintf(", %d egress", out)
	}
	return s
}

// loopItems warn of the buffers too small for their loop at full rate
// (config.BufferLoops), as phitsim validate does.
func loopItems(c *config.Config) []Item {
	var out []Item
	for _, b := range c.BufferLoops() {
		out = append(out, Item{"warning: " + b.Path, fmt.Sprintf("%d phits cap %.2f phits/cycle per %s", b.Phits, b.Cap, b.Per),
			b.Warning().Error() + ": the configuration runs, but this buffer limits its throughput whatever the offered load"})
	}
	return out
}
