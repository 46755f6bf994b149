// Package traffic holds the spatial patterns (who sends to whom) and the
// temporal injection processes (when) of the synthetic workloads of the thesis
// (§1.6.1): UN, ADV+i, ADVc, ADVl, MIX, Bernoulli and bursty ON/OFF.
package traffic

import (
	"fmt"
	"slices"

	"phitsim/engine/rng"
)

// Kind of destination pattern.
type Kind uint8

const (
	UN   Kind = iota // uniform over all other nodes (may share the router)
	ADV              // ADV+i: a node of group g+i
	ADVC             // ADVc: a node of one of the groups linked to router a−1
	ADVL             // ADVl: a node of router +k in the own group
	MIX              // UN / ADVl / ADV+i by given shares
	HOT              // a share of the traffic to a hot region of nodes, the rest UN
	PERM             // a random permutation (no node sends to itself), fixed per run
	// TORNADO: every node of router R_i to the same local port of R_{i+1}
	// (mod the routers), n → (n + c) mod N: the adversarial permutation
	// n → n+4 of a 16-node flattened butterfly and the tornado n → n+8 of
	// the 512-node one (Kim et al., Contention-based Congestion Management
	// in Large-Scale Networks §V-A; reconstructed: not BookSim's k-ary
	// n-cube tornado)
	TORNADO
	TORNADO_RAND // every node of R_i to a uniformly random node of R_{i+1}: not a permutation
	// HOTSPOT: a k-to-1 hotspot: the senders send only to the hotspot node,
	// always backlogged (the simulator injects for them whenever their
	// injection buffer has room: 100% of the injection bandwidth); the
	// hotspot sends nothing; every other node sends UR among those others
	// (Kim et al., Contention-based Congestion Management in Large-Scale
	// Networks §V-A; the hotspot's silence is reconstructed)
	HOTSPOT
	// UR1UR2: two classes, at every router the lower half of the local
	// ports (UR1) and the upper half (UR2), each sending UR among its own
	// class's nodes; the simulator gives them their message sizes and
	// loads (Kim et al., Contention-based Congestion Management in
	// Large-Scale Networks §V-A, Figs. 5b and 8c; which half is which is
	// reconstructed). With one node per router every node is UR2.
	UR1UR2
)

// Info is what a pattern declares: its traffic.pattern name and what it
// needs of the topology.
type Info struct {
	Name string // traffic.pattern value
	Kind Kind
	// Topologies: the topology.kind values it runs on; nil: any (it
	// addresses nodes only). A pattern that addresses groups and routers
	// by Dragonfly numbering runs on the Dragonfly only.
	Topologies []string
}

var dragonflyOnly = []string{"dragonfly"}

// patterns is the table, in Kind order.
var patterns = []Info{
	{Name: "UN", Kind: UN},
	{Name: "ADV", Kind: ADV, Topologies: dragonflyOnly},   // a group at an offset
	{Name: "ADVC", Kind: ADVC, Topologies: dragonflyOnly}, // the groups a router's global links reach
	{Name: "ADVL", Kind: ADVL, Topologies: dragonflyOnly}, // a router at an offset in the own group
	{Name: "MIX", Kind: MIX, Topologies: dragonflyOnly},   // ADV and ADVL shares
	{Name: "HOT", Kind: HOT},
	{Name: "PERM", Kind: PERM},
	// routers by the flattened butterfly's numbering (c nodes each)
	{Name: "TORNADO", Kind: TORNADO, Topologies: fbflyOnly},
	{Name: "TORNADO_RAND", Kind: TORNADO_RAND, Topologies: fbflyOnly},
	{Name: "HOTSPOT", Kind: HOTSPOT},
	// halves of each router's nodes: the flattened butterfly's and the
	// Dragonfly's routers (a mesh's hold one node)
	{Name: "UR1UR2", Kind: UR1UR2, Topologies: []string{"fbfly", "dragonfly"}},
}

var fbflyOnly = []string{"fbfly"}

// Patterns lists the patterns (copies; their slices are the table's).
func Patterns() []Info { return append([]Info(nil), patterns...) }

// Lookup finds the pattern named name.
func Lookup(name string) (Info, bool) {
	for _, p := range patterns {
		if p.Name == name {
			return p, true
		}
	}
	return Info{}, false
}

// Supports tells whether the pattern runs on a topology kind.
func (i *Info) Supports(kind string) bool {
	if i.Topologies == nil {
		return true
	}
	for _, k := range i.Topologies {
		if k == kind {
			return true
		}
	}
	return false
}

// On lists the patterns that run on a topology kind.
func On(kind string) []string {
	var out []string
	for _, p := range patterns {
		if p.Supports(kind) {
			out = append(out, p.Name)
		}
	}
	return out
}

// ParseKind maps a config name to a Kind.
func ParseKind(name string) (Kind, error) {
	if p, ok := Lookup(name); ok {
		return p.Kind, nil
	}
	return 0, fmt.Errorf("unknown traffic pattern %q", name)
}

// Network is what a pattern needs to know of the topology.
type Network interface {
	Nodes() int
	NodesPerRouter() int
	RoutersPerGroup() int
	Groups() int
	// LinkedGroups: groups reached by a router's global links, nearest offset first.
	LinkedGroups(router int) []int
}

// Spec parametrises a pattern.
type Spec struct {
	Kind        Kind
	AdvOffset   int     // i of ADV+i
	AdvSame     bool    // ADV: same router position instead of a random router
	AdvcFogsim  bool    // ADVc over +1…+(h−1) (FOGSim's draw)
	LocalOffset int     // k of ADVl
	MixUN       float64 // MIX shares in percent
	MixADVL     float64
	MixPerNode  bool
	HotPercent  float64 // HOT: share of the traffic to the region, in percent
	HotRegion   float64 // HOT: region size, percent of the nodes from node 0
	// HOTSPOT: the hotspot node and its senders (distinct nodes, the
	// hotspot not among them)
	Hotspot int
	Senders []int32
	// HOTSPOT with Count > 0: the hotspot and Count senders drawn at random
	// from DrawSeed (not the run's seed: every scheme and seed of an
	// experiment gets the same set, as Kim et al., Contention-based
	// Congestion Management in Large-Scale Networks §V-A uses for its
	// 40-to-1 and 16-to-1 hotspots); Hotspot and Senders are then unset
	Count    int
	DrawSeed uint64
	// HOTSPOT: what the nodes other than the senders send: UN (the
	// default), UR among themselves, the hotspot silent; TORNADO or
	// TORNADO_RAND, that pattern, the hotspot included (Kim et al.,
	// Contention-based Congestion Management in Large-Scale Networks
	// §V-A: Fig. 3b's permutation + 4-to-1, reconstructed, and Fig. 9b's
	// tornado + 63-to-1, where node 0 follows the permutation too)
	Background Kind
	// HOTSPOT with Background UN: AllNodes makes the background uniform
	// over every node, the senders and the hotspot as destinations and the
	// hotspot as a source (the RECN paper's Table 1 random traffic, which
	// includes the hotspot host); false, UR among the background nodes
	AllNodes bool
}

// Pattern draws destinations. It is a plain struct with a switch rather than
// an interface: it runs once per generated packet.
type Pattern struct {
	spec          Spec
	n, p, a, g    int
	advc          []int32 // per group, the ADVc destination groups (k per group)
	k             int
	mixUN, mixUNL uint64  // cumulative thresholds of the per-packet MIX draw
	perNode       []uint8 // MIX per node: the node's fixed kind
	hotThr        uint64  // HOT: Bernoulli threshold of a hot packet
	hotN          int     // HOT: nodes in the region
	perm          []int32 // PERM: destination of each node
	background    []int32 // HOTSPOT: the nodes sending UR among themselves
	bgIndex       []int32 // HOTSPOT: each node's index in background, −1 for the hotspot and its senders
}

// New builds a pattern; setup draws (MIX per node) come from their own stream.
func New(spec Spec, net Network, seed uint64) (*Pattern, error) {
	pt := &Pattern{spec: spec, n: net.Nodes(), p: net.NodesPerRouter(), a: net.RoutersPerGroup(), g: net.Groups()}
	if pt.n < 2 {
		return nil, fmt.Errorf("traffic needs at least 2 nodes")
	}
	switch spec.Kind {
	case ADV, MIX:
		if spec.AdvOffset%pt.g == 0 {
			return nil, fmt.Errorf("ADV offset %d is a multiple of the %d groups", spec.AdvOffset, pt.g)
		}
	case ADVC:
		for grp := 0; grp < pt.g; grp++ {
			linked := net.LinkedGroups(grp*pt.a + pt.a - 1)
			if spec.AdvcFogsim {
				linked = linked[:len(linked)-1]
			}
			if len(linked) == 0 {
				return nil, fmt.Errorf("ADVc: no destination groups")
			}
			pt.k = len(linked)
			for _, x := range linked {
				pt.advc = append(pt.advc, int32(x))
			}
		}
	}
	switch spec.Kind {
	case HOT:
		pt.hotThr = rng.Threshold(spec.HotPercent / 100)
		pt.hotN = max(1, int(float64(pt.n)*spec.HotRegion/100+0.5))
	case PERM:
		// Sattolo's algorithm: a uniformly random cyclic permutation, so no
		// node is its own destination
		s := rng.New(seed, rng.Traffic, uint64(pt.n))
		pt.perm = make([]int32, pt.n)
		for i := range pt.perm {
			pt.perm[i] = int32(i)
		}
		for i := pt.n - 1; i > 0; i-- {
			j := s.Intn(i)
			pt.perm[i], pt.perm[j] = pt.perm[j], pt.perm[i]
		}
	}
	if spec.Kind == HOTSPOT {
		if b := spec.Background; b != UN && b != TORNADO && b != TORNADO_RAND {
			return nil, fmt.Errorf("traffic.hotspotBackground: %v; it must be UR, TORNADO or TORNADO_RAND", b)
		}
		if err := pt.initHotspot(); err != nil {
			return nil, err
		}
	}
	if spec.Kind == MIX {
		pt.mixUN = rng.Threshold(spec.MixUN / 100)
		pt.mixUNL = rng.Threshold((spec.MixUN + spec.MixADVL) / 100)
		if spec.MixPerNode {
			pt.perNode = make([]uint8, pt.n)
			for i := range pt.perNode {
				s := rng.New(seed, rng.Traffic, uint64(i))
				pt.perNode[i] = uint8(pt.mixKind(s.Uint64()))
			}
		}
	}
	return pt, nil
}

func (pt *Pattern) mixKind(x uint64) Kind {
	switch {
	case x < pt.mixUN:
		return UN
	case x < pt.mixUNL:
		return ADVL
	}
	return ADV
}

// Dest draws the destination node of a packet from src, or −1 when src
// generates nothing by the process (HOTSPOT's hotspot; its senders, which
// the simulator keeps backlogged towards the hotspot).
func (pt *Pattern) Dest(src int, s *rng.Stream) int {
	kind := pt.spec.Kind
	if kind == MIX {
		if pt.perNode != nil {
			kind = Kind(pt.perNode[src])
		} else {
			kind = pt.mixKind(s.Uint64())
		}
	}
	if kind == HOTSPOT && (pt.spec.Background != UN || pt.spec.AllNodes) {
		if pt.bgIndex[src] < 0 && src != pt.spec.Hotspot {
			return -1 // a sender: kept backlogged by the simulator
		}
		kind = pt.spec.Background
	}
	router := src / pt.p
	group, pos := router/pt.a, router%pt.a
	switch kind {
	case ADV:
		dg := (group + pt.spec.AdvOffset) % pt.g
		dr := pos
		if !pt.spec.AdvSame {
			dr = s.Intn(pt.a)
		}
		return (dg*pt.a+dr)*pt.p + s.Intn(pt.p)
	case ADVC:
		dg := int(pt.advc[group*pt.k+s.Intn(pt.k)])
		return (dg*pt.a+s.Intn(pt.a))*pt.p + s.Intn(pt.p)
	case ADVL:
		dr := (pos + pt.spec.LocalOffset) % pt.a
		return (group*pt.a+dr)*pt.p + s.Intn(pt.p)
	case PERM:
		return int(pt.perm[src])
	case HOTSPOT:
		i := pt.bgIndex[src]
		switch {
		case i >= 0 && len(pt.background) > 1: // UR among the other background nodes
			d := int32(s.Intn(len(pt.background) - 1))
			if d >= i {
				d++
			}
			return int(pt.background[d])
		}
		// the hotspot and a background node alone send nothing; a sender's
		// packets come from the simulator, which keeps it backlogged
		return -1
	case UR1UR2: // UR among the other nodes of src's half, over all routers
		lo, size := 0, pt.p/2
		if i := src % pt.p; i >= size {
			lo, size = size, pt.p-size
		}
		members, self := pt.n/pt.p*size, router*size+src%pt.p-lo
		d := s.Intn(members - 1)
		if d >= self {
			d++
		}
		return d/size*pt.p + lo + d%size
	case TORNADO:
		return (src + pt.p) % pt.n
	case TORNADO_RAND:
		return ((router+1)*pt.p)%pt.n + s.Intn(pt.p)
	case HOT:
		if s.Bernoulli(pt.hotThr) {
			if pt.hotN == 1 && src == 0 {
				break // the only hot node sends uniformly
			}
			for {
				if d := s.Intn(pt.hotN); d != src {
					return d
				}
			}
		}
	}
	d := s.Intn(pt.n - 1) // uniform over the n−1 other nodes
	if d >= src {
		d++
	}
	return d
}

// initHotspot checks the hotspot and its senders and lists the background.
func (pt *Pattern) initHotspot() error {
	sp := &pt.spec
	if sp.Count != 0 {
		if err := pt.drawHotspot(); err != nil {
			return err
		}
	}
	if sp.Hotspot < 0 || sp.Hotspot >= pt.n {
		return fmt.Errorf("traffic.hotspotNode: node %d; it must be 0 to %d", sp.Hotspot, pt.n-1)
	}
	if len(sp.Senders) == 0 {
		return fmt.Errorf("traffic.hotspotSenders: no sender; give them (comma-separated nodes 0 to %d but the hotspot) or traffic.hotspotCount", pt.n-1)
	}
	pt.bgIndex = make([]int32, pt.n)
	pt.bgIndex[sp.Hotspot] = -1
	for _, x := range sp.Senders {
		switch {
		case x < 0 || int(x) >= pt.n:
			return fmt.Errorf("traffic.hotspotSenders: node %d; senders must be 0 to %d", x, pt.n-1)
		case int(x) == sp.Hotspot:
			return fmt.Errorf("traffic.hotspotSenders: node %d is the hotspot", x)
		case pt.bgIndex[x] == -1:
			return fmt.Errorf("traffic.hotspotSenders: node %d listed twice", x)
		}
		pt.bgIndex[x] = -1
	}
	for n := range pt.bgIndex {
		if pt.bgIndex[n] == 0 {
			pt.bgIndex[n] = int32(len(pt.background))
			pt.background = append(pt.background, int32(n))
		}
	}
	return nil
}

// drawHotspot picks the hotspot and spec.Count senders, distinct, uniformly
// at random from spec.DrawSeed (a partial Fisher–Yates shuffle); the
// senders in increasing order.
func (pt *Pattern) drawHotspot() error {
	sp := &pt.spec
	switch {
	case sp.Count < 0 || sp.Count > pt.n-1:
		return fmt.Errorf("traffic.hotspotCount: %d senders; it must be 1 to %d (the nodes but the hotspot)", sp.Count, pt.n-1)
	case len(sp.Senders) > 0:
		return fmt.Errorf("traffic.hotspotSenders: give either the senders or traffic.hotspotCount, not both")
	case sp.Hotspot != 0:
		return fmt.Errorf("traffic.hotspotNode: node %d; with traffic.hotspotCount the hotspot is drawn too (leave it 0)", sp.Hotspot)
	}
	s := rng.New(sp.DrawSeed, rng.Traffic, 1<<32|uint64(pt.n))
	nodes := make([]int32, pt.n)
	for i := range nodes {
		nodes[i] = int32(i)
	}
	for i := 0; i <= sp.Count; i++ {
		j := i + s.Intn(pt.n-i)
		nodes[i], nodes[j] = nodes[j], nodes[i]
	}
	sp.Hotspot = int(nodes[0])
	sp.Senders = slices.Clone(nodes[1 : sp.Count+1])
	slices.Sort(sp.Senders)
	return nil
}

// Group is node n's class of UR1UR2 (0: UR1, the lower half of its
// router's nodes; 1: UR2), −1 for the other patterns.
func (pt *Pattern) Group(n int) int {
	if pt.spec.Kind != UR1UR2 {
		return -1
	}
	if n%pt.p < pt.p/2 {
		return 0
	}
	return 1
}

// Classed reports whether the pattern divides the nodes into classes of
// their own (Class): HOTSPOT and UR1UR2.
func (pt *Pattern) Classed() bool {
	return pt.spec.Kind == HOTSPOT || pt.spec.Kind == UR1UR2
}

// Class is node n's traffic class under a classed pattern: HOTSPOT's
// background nodes 0, its senders 1 and the hotspot 2; UR1UR2's UR1 half
// 0 and UR2 half 1 (Group); 0 for every node of another pattern. A
// workload placed by the pattern (workload.placement=pattern) runs on the
// nodes of class 0, beside the synthetic traffic of the others.
func (pt *Pattern) Class(n int) int {
	switch pt.spec.Kind {
	case HOTSPOT:
		switch {
		case n == pt.spec.Hotspot:
			return 2
		case pt.bgIndex[n] < 0:
			return 1
		}
	case UR1UR2:
		return pt.Group(n)
	}
	return 0
}

// Hotspot is the HOTSPOT pattern's hotspot node and its senders (nil for
// other patterns): the simulator keeps the senders backlogged.
func (pt *Pattern) Hotspot() (node int, senders []int32) {
	if pt.spec.Kind != HOTSPOT {
		return -1, nil
	}
	return pt.spec.Hotspot, pt.spec.Senders
}
