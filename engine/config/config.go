// Package config is the experiment description: one JSON document that the
// CLI, the browser UI and URLs share. Every parameter is declared once, in the
// struct tags below (doc, unit, range, allowed values, when it applies, paper);
// validation, CLI help, URL encoding and the UI's forms are derived from them.
// The routing-specific parts come from the routing table (package routing):
// routing.name's values and doc (tag routing:"names"), and the condition of a
// parameter tagged when:"routing", "routing.name=" the routings whose entry
// lists it.
package config

import (
	"fmt"
	"math"
	"phitsim/engine/routing"
	"strconv"
	"strings"

	"phitsim/engine/topology"
)

// Version of the configuration format. Bump it when a field changes meaning.
const Version = 1

// Config describes one simulation: network, router, routing, workload, length.
type Config struct {
	Version  int      `json:"version" doc:"configuration format version" min:"1" max:"1"`
	Name     string   `json:"name,omitempty" doc:"free label shown in results and legends"`
	Topology Topology `json:"topology"`
	Router   Router   `json:"router"`
	Routing  Routing  `json:"routing"`
	Traffic  Traffic  `json:"traffic"`
	Workload Workload `json:"workload"`
	Sim      Sim      `json:"sim"`
	// Physical is omitted when unset (no physical view), so that documents
	// and results without it are unchanged.
	Physical Physical `json:"physical,omitzero"`
	// Congestion is omitted when unset (scheme none: the Baseline).
	Congestion Congestion `json:"congestion,omitzero"`
}

// Topology of the network. Each kind reads its own fields (package
// topology's kind registry says which, and which fields set each of its
// port classes); the mesh's fields are omitted from JSON when zero, so that
// a Dragonfly's document is unchanged.
type Topology struct {
	Kind        string `json:"kind" doc:"network topology: dragonfly, mesh (a 2D mesh with dimension-order routing, MIN only), fbfly (a 1D or 2D flattened butterfly, MIN and UGAL), or fattree (a k-ary n-tree with D-mod-k up/down routing, MIN only)" enum:"dragonfly,mesh,fbfly,fattree" paper:"Kim et al. ISCA 2008; thesis §1.2; Dally and Towles, Principles and Practices of Interconnection Networks, §14.2 (mesh); Kim, Dally, Abts ISCA 2007 and Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (fbfly); Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks §4.1 (fattree)"`
	H           int    `json:"h" doc:"global links per router (h)" unit:"global links per router" min:"1" max:"32" when:"topology.kind=dragonfly"`
	A           int    `json:"a" doc:"routers per group (a); balanced: a=2h" unit:"routers per group" min:"1" max:"64" when:"topology.kind=dragonfly"`
	P           int    `json:"p" doc:"nodes per router (p); balanced Dragonfly: p=h" unit:"nodes per router" min:"1" max:"64" when:"topology.kind=dragonfly|mesh|fbfly"`
	Arrangement string `json:"arrangement" doc:"global link arrangement" enum:"palmtree,consecutive" when:"topology.kind=dragonfly" paper:"thesis §1.2.1, Fig. 1.10"`
	// a mesh needs both ≥ 1 (0: the field is unset, as in every Dragonfly)
	Width  int `json:"width,omitempty" doc:"routers per row of the mesh (x)" unit:"routers" min:"0" max:"64" when:"topology.kind=mesh"`
	Height int `json:"height,omitempty" doc:"routers per column of the mesh (y)" unit:"routers" min:"0" max:"64" when:"topology.kind=mesh"`
	// a flattened butterfly needs both (0: unset, as in every other kind)
	Dimensions int `json:"dimensions,omitempty" doc:"dimensions of the flattened butterfly: 1, every router linked to every other; 2, a k×k grid whose rows and columns are fully connected" unit:"dimensions" min:"0" max:"2" when:"topology.kind=fbfly" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	K          int `json:"k,omitempty" doc:"routers per dimension of the flattened butterfly (radix p + dimensions·(k−1)); a fat tree's down ports per switch, as many up (radix 2k)" unit:"routers or ports" min:"0" max:"32" when:"topology.kind=fbfly|fattree"`
	// a fat tree needs k and stages; subtrees 0 is k (omitted: other
	// kinds' documents are unchanged)
	Stages   int `json:"stages,omitempty" doc:"stages (levels of switches) of the fat tree: subtrees·k^(stages−1) hosts on stages·subtrees·k^(stages−2) switches" unit:"stages" min:"0" max:"16" when:"topology.kind=fattree" paper:"Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks §4.1"`
	Subtrees int `json:"subtrees,omitempty" doc:"subtrees the fat tree's top stage joins, the range of a host's top address digit: 0 is k (a k-ary n-tree); a divisor of k below it gives the top switches k/subtrees parallel links to each (2 with k=4 and 5 stages: the RECN paper's 512 hosts on 640 switches)" unit:"subtrees" min:"0" max:"16" when:"topology.kind=fattree"`
	// Latencies belong to the links, hence here.
	LocalLatency     int `json:"localLatency" doc:"local (intra-group) link latency; a mesh's x and y links; a flattened butterfly's router-to-router links; a fat tree's switch-to-switch links" unit:"cycles" min:"1" max:"100000"`
	GlobalLatency    int `json:"globalLatency" doc:"global (inter-group) link latency" unit:"cycles" min:"1" max:"100000" when:"topology.kind=dragonfly"`
	InjectionLatency int `json:"injectionLatency" doc:"node-to-router latency" unit:"cycles" min:"1" max:"100000"`
}

// Params are the topology's parameters as package topology takes them.
func (t *Topology) Params() topology.Params {
	return topology.Params{Kind: t.Kind, H: t.H, A: t.A, P: t.P, Arrangement: t.Arrangement, Width: t.Width, Height: t.Height, Dims: t.Dimensions, K: t.K, Stages: t.Stages, Subtrees: t.Subtrees}
}

// IsDragonfly: the network is a Dragonfly (a configuration written before
// topology.kind existed, kind empty, is one).
func (t *Topology) IsDragonfly() bool { return t.Kind == "" || t.Kind == routing.Dragonfly }

// FillKind sets the fields of topology.kind's kind left at zero to a small
// network of that kind (topology.Kind.Fill): the page calls it when its user
// switches kinds, so that the form shows a network that runs.
func (t *Topology) FillKind() {
	k, err := topology.KindOf(t.Kind)
	if err != nil || k.Fill == nil {
		return
	}
	p := t.Params()
	k.Fill(&p)
	t.H, t.A, t.P, t.Arrangement, t.Width, t.Height, t.Dimensions, t.K, t.Stages, t.Subtrees = p.H, p.A, p.P, p.Arrangement, p.Width, p.Height, p.Dims, p.K, p.Stages, p.Subtrees
}

// Sizes of the network from its parameters (without building it); ok is
// false when topology.kind is unknown or its fields are out of range (their
// own errors say why).
func (t *Topology) Sizes() (sz topology.Sizes, ok bool) {
	k, err := topology.KindOf(t.Kind)
	if err != nil || k.Check(t.Params()) != nil {
		return sz, false
	}
	return k.Sizes(t.Params()), true
}

// Describe names the topology by its sizing fields ("h=8 a=16 p=8",
// "p=1 width=4 height=4"): the integer topology.* fields of its kind but
// its latencies.
func (t *Topology) Describe() string {
	c := &Config{Topology: *t}
	var parts []string
	for _, p := range params {
		if strings.HasPrefix(p.Path, "topology.") && p.Kind == "int" && strings.HasPrefix(p.When, "topology.kind=") &&
			!strings.HasSuffix(p.Path, "Latency") && p.Applies(c) {
			parts = append(parts, strings.TrimPrefix(p.Path, "topology.")+"="+p.Format(c))
		}
	}
	return strings.Join(parts, " ")
}

// ClassSetting is a port class of the topology with the values the
// configuration gives it.
type ClassSetting struct {
	Name                 string
	Latency, Buffer, VCs int // cycles, phits per VC, VCs
}

// Classes lists the topology's port classes (class 0 injection) with their
// link latency, input buffer and VCs (router.*VCs resolved as VCs does);
// nil when topology.kind is unknown.
func (c *Config) Classes() []ClassSetting {
	k, err := topology.KindOf(c.Topology.Kind)
	if err != nil {
		return nil
	}
	inj, lv, gv := c.VCs()
	vcs := map[string]int{"router.injectionVCs": inj, "router.localVCs": lv, "router.globalVCs": gv}
	out := make([]ClassSetting, len(k.Classes))
	for i, cl := range k.Classes {
		out[i] = ClassSetting{Name: cl.Name, Latency: c.intField(cl.Latency), Buffer: c.intField(cl.Buffer), VCs: vcs[cl.VCs]}
	}
	return out
}

// intField is the value of an int parameter (a path of the kind registry,
// checked by TestKindFieldsExist).
func (c *Config) intField(path string) int {
	p, ok := Lookup(path)
	if !ok {
		panic("config: no parameter " + path)
	}
	return p.Get(c).(int)
}

// Router microarchitecture.
type Router struct {
	Model           string  `json:"model" doc:"ioq: input and output buffers (CIOQ); iq: input-queued only (no output FIFO, speedup 1)" enum:"ioq,iq" paper:"thesis §1.1.2"`
	Speedup         float64 `json:"speedup" doc:"internal crossbar speedup over link speed (ioq only)" unit:"×" min:"1" max:"8" when:"router.model=ioq"`
	XbarLatency     int     `json:"xbarLatency" doc:"crossbar traversal latency" unit:"cycles" min:"0" max:"1000"`
	PacketSize      int     `json:"packetSize" doc:"packet size; links carry one phit per cycle" unit:"phits" min:"1" max:"1024"`
	InjectionBuffer int     `json:"injectionBuffer" doc:"injection input buffer per VC" unit:"phits" min:"1" max:"1000000"`
	LocalBuffer     int     `json:"localBuffer" doc:"local input buffer per VC" unit:"phits" min:"1" max:"1000000"`
	GlobalBuffer    int     `json:"globalBuffer" doc:"global input buffer per VC" unit:"phits" min:"1" max:"1000000"`
	OutputBuffer    int     `json:"outputBuffer" doc:"output FIFO per port, shared by all VCs (ioq only)" unit:"phits" min:"1" max:"1000000" when:"router.model=ioq"`
	InjectionVCs    int     `json:"injectionVCs" doc:"VCs on injection ports (0 = 3, or 4 with request-reply)" unit:"VCs" min:"0" max:"32"`
	LocalVCs        int     `json:"localVCs" doc:"VCs on local ports (0 = as required by the routing, at least 3)" unit:"VCs" min:"0" max:"32"`
	GlobalVCs       int     `json:"globalVCs" doc:"VCs on global ports (0 = as required by the routing, at least 2)" unit:"VCs" min:"0" max:"32"`
	CreditTiming    string  `json:"creditTiming" doc:"xbar: a credit goes upstream when the packet leaves the input buffer; output: when it leaves the output FIFO (FOGSim's IOQ code before v4)" enum:"xbar,output" when:"router.model=ioq"`
	Ejection        string  `json:"ejection" doc:"fifo: the ejection port has an output FIFO like any other port; fogsim: FOGSim's gate, the port is granted only when its node can consume (≥ packetSize cycles since its last consumption; TIMING.md)" enum:"fifo,fogsim" when:"router.model=ioq" paper:"thesis §1.1.2; FOGSim v4/v5, the simulator of the thesis and of the ACOR paper (outputArbiter::checkPort)" fogsim:"fogsim"`
	OutputFifo      string  `json:"outputFifo" doc:"when a transit output takes the next packet: tail, once the packet's tail has crossed the crossbar (a cut-through packet whose tail is still arriving holds it up to packetSize cycles) and its FIFO has room for the phits still to send; fogsim, packetSize/speedup cycles after the grant whatever the tail, and room for a whole packet, a slot freed when its head leaves (FOGSim v5; TIMING.md)" enum:"tail,fogsim" when:"router.model=ioq" paper:"FOGSim v5, the simulator of the thesis and of the ACOR paper (ioqSwitchModule::txFlit, ioqSwitchModule::getCredits)" fogsim:"fogsim"`
	Iterations      int     `json:"iterations" doc:"separable allocator iterations per cycle" unit:"iterations" min:"1" max:"8" paper:"thesis §1.1.3"`
	InputArbiter    string  `json:"inputArbiter" doc:"input stage: which VC of a port requests (rr round-robin whose pointer moves when its VC requests, as FOGSim's; rrgrant round-robin whose pointer moves when its VC is granted, as BookSim's separable input-first allocator; rrhold, with virtual output queues only, rrgrant whose input, once one queue's head has seen what it waits for (its next queue's credits, or its ejection port) granted radix times to others since it was first found unable to ask, reserves the queue's credits while serving its other queues, then asks for that queue alone as its output frees (a packet-granular crossbar's round-robin without starvation; a strictly-lowest class is not held: TIMING.md); lrs least-recently-served, age oldest first)" enum:"rr,lrs,age,rrgrant,rrhold"`
	OutputArbiter   string  `json:"outputArbiter" doc:"output stage: which requesting input wins (rr round-robin over the port; rrvc round-robin first among the requests for the same downstream VC, as BookSim's VC allocator grants an output VC, then over the port; lrs least-recently-served, age oldest first)" enum:"rr,lrs,age,rrvc"`
	TransitPriority bool    `json:"transitPriority" doc:"output stage serves transit inputs before injection inputs" paper:"thesis §3.1.2"`
	InjectionPolicy string  `json:"injectionPolicy" doc:"injection VC choice: dest (⌊dest·VCs/N⌋), rand (random VC with room), jsq (shortest queue)" enum:"dest,rand,jsq"`
	IdleUpdates     string  `json:"idleUpdates" doc:"every: a router's per-cycle adaptive work (its PB saturation bits and their broadcast, its ACOR-Switch hysteresis interval and level changes) runs every cycle; fogsim: only in cycles where the router holds packets (in its buffers or on the links into it), as FOGSim runs a switch only then, so an idle router's interval stands still and its group keeps its last broadcast bits" enum:"every,fogsim" when:"routing" paper:"FOGSim v5 (dgflySimulator.cc action(): switchModule::action only when messagesInQueuesCounter ≥ 1)" fogsim:"fogsim"`
	// DAMQ input buffers: omitted when off (and a reserve of 0), so that
	// documents and results without them are unchanged.
	Damq        bool    `json:"damq,omitempty" doc:"DAMQ transit input buffers: the memory of each transit input port (its VCs × the per-VC buffer of its class) is one pool; each VC keeps router.damqReserve of its own share and shares the rest with the port's other VCs, and the credits of a VC count its free reserve plus the port's free shared space. Injection buffers stay static" paper:"thesis §1.1 (Fig. 1.9), §5.1.2, §5.3"`
	DamqReserve float64 `json:"damqReserve,omitempty" doc:"DAMQ: the share of each per-VC buffer (router.localBuffer, router.globalBuffer) kept static for its VC, rounded down to whole packets; the rest goes to the port's shared pool. 0 shares everything, which deadlocks; 100 is static buffers (thesis Fig. 5.6: 25% congests, 75% is best)" unit:"%" min:"0" max:"100" when:"router.damq=true" paper:"thesis §5.3.1, Fig. 5.6"`
	// FlexVC (thesis §5.2): omitted when off, so that documents and results
	// without it are unchanged.
	FlexVC      bool   `json:"flexVC,omitempty" doc:"FlexVC: a hop may take any VC of its output up to the highest one from which an increasing-index escape path to the destination remains (the routing's reference path, extra VCs at its start); opportunistic hops (fewer VCs than the path's length) revert to the minimal path when no allowed VC can take the whole packet. Dragonfly; MIN, VAL, VAL_GROUP, UGAL, PB, PAR, OLM. Off: distance-based VCs, one per hop" paper:"thesis §5.2, Tables 5.3–5.4"`
	VCSelection string `json:"vcSelection,omitempty" doc:"FlexVC: which allowed VC with room a packet takes: jsq the one with the most free credits (ties to the highest), highest, lowest, random (empty: jsq)" enum:"jsq,highest,lowest,random" when:"router.flexVC=true" paper:"thesis §5.2.1, §5.3.5 (Fig. 5.16)"`
	// Virtual output queues: omitted when off, so that documents and results
	// without them are unchanged.
	Voq bool `json:"voq,omitempty" doc:"virtual output queues: every input port (transit and injection) holds, for each output port of its router, one queue per VC of its class, each with the class's per-VC buffer and its own credits upstream, so packets for different outputs never block each other. The queue at the next router is known at the grant from the route decided at the source (MIN on any topology, UGAL on a flattened butterfly, VAL on a Dragonfly): in-transit adaptive routings, UGAL/PB on a Dragonfly, FlexVC and DAMQ are refused; ports × VCs ≤ 1023" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	// The RECN paper's queueing schemes: omitted for the default (iq, or
	// voqsw with router.voq=true), so that existing documents are unchanged.
	Queueing string `json:"queueing,omitempty" doc:"how each input port's buffer is split into queues: iq, one queue per VC; voqsw, a queue per output port of the router (as router.voq=true, each with the whole per-VC buffer); 4q, 4 queues per VC, the sender putting each packet in the downstream queue with the most free credits; voqnet, a queue per destination host. 4q and voqnet split the per-VC buffer equally (whole packets) with credits per queue, at every input and injection port; voqnet needs hosts × VCs ≤ 1023 (the 512-host fat tree runs). With a value set, out-of-order deliveries per (source, destination) are counted (empty: iq, or voqsw under router.voq)" enum:"iq,4q,voqsw,voqnet" paper:"Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks §4.1, §4.3"`
	// InjectionVoq: omitted for its default (shared), so that existing
	// documents are unchanged.
	InjectionVoq string `json:"injectionVoq,omitempty" doc:"the injection input's virtual output queues: shared, each injection VC's buffer (router.injectionBuffer) is shared by its per-output queues; perQueue, each per-output queue has the whole per-VC buffer of its own, as the transit inputs' queues (the paper's 4 VCs per output at each input). With perQueue the source routes a packet waiting in its source queue (its source decision) when it tries to place it, and places it only when that output's queue has room, so a full queue holds back only its own output's packets (and its flow's behind it); UGAL redoes its comparison at every attempt until the packet is placed, keeping the intermediate unless routing.recompute=true; needs traffic.sourceQueue=true, no request-reply, no workload, no congestion.scheme=recn (empty: shared)" enum:"shared,perQueue" when:"router.voq=true" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	// ReplyLocalVCs/ReplyGlobalVCs: the reply subsequence at the end of
	// the local/global VCs (thesis §5.2.2); 0/0 is MIN's 2/1.
	ReplyLocalVCs  int `json:"replyLocalVCs,omitempty" doc:"FlexVC with request-reply: the local VCs of the reply subsequence, the last of router.localVCs (requests take the others; replies may use all). 0: 2, the minimal path's" unit:"VCs" min:"0" max:"32" when:"router.flexVC=true" paper:"thesis §5.2.2, Table 5.4"`
	ReplyGlobalVCs int `json:"replyGlobalVCs,omitempty" doc:"FlexVC with request-reply: the global VCs of the reply subsequence (0: 1, the minimal path's)" unit:"VCs" min:"0" max:"32" when:"router.flexVC=true" paper:"thesis §5.2.2, Table 5.4"`
}

// DamqBuffer is the sizing of a transit input port of vcs VCs of buf
// phits each under router.damq: the phits reserved to each VC
// (router.damqReserve of buf, in whole packets), and the most one VC may
// hold (its reserve and the whole shared pool, the port's vcs·buf phits
// less the other VCs' reserves).
func (r *Router) DamqBuffer(buf, vcs int) (reserve, most int) {
	packets := buf / r.PacketSize
	reserve = int(math.Floor(r.DamqReserve*float64(packets)/100+1e-9)) * r.PacketSize
	return reserve, vcs*buf - (vcs-1)*reserve
}

// Routing algorithm and its mechanisms (thesis §1.4; ACOR paper).
type Routing struct {
	// Name's allowed values and doc are the routing table's (package routing).
	Name string `json:"name" routing:"names" paper:"thesis §1.4; García et al. ICPP'13 (OLM); ACOR paper"`
	// Valiant family: how the intermediate is drawn.
	PhaseA     string `json:"phaseA" doc:"Valiant phase A: RRG any group / CRG a group linked to the source router; Sw reach a random router of it / Gr reach the group (auto: VAL_GROUP RRG-Gr, else RRG-Sw)" enum:"auto,RRG-Sw,RRG-Gr,CRG-Sw,CRG-Gr" when:"routing" paper:"ACOR paper Table 1"`
	Restricted bool   `json:"restricted" doc:"restricted Valiant: intra-group traffic takes its intermediate router inside its own group" when:"routing" paper:"ACOR paper §3.1"`
	Recompute  bool   `json:"recompute" doc:"draw a new intermediate whenever the head of the injection buffer is blocked, until it is injected" when:"routing" paper:"ACOR paper §3.2"`
	// CompletePhaseA: FOGSim's Valiant routings (obl::enroute, valAny::enroute,
	// val::enroute) route towards the intermediate until valNodeReached.
	CompletePhaseA bool `json:"completePhaseA" doc:"a Valiant packet reaches its intermediate before it is delivered, even when its path to the intermediate crosses its destination router or the destination shares its source router (otherwise it is delivered on reaching its destination router)" when:"routing" paper:"FOGSim v5 (obl::enroute, valAny::enroute: phase A ends only at valNodeReached)" fogsim:"true"`
	// Source-adaptive decision (UGAL, PB, PB_ACOR) and the UGAL-style trigger.
	UgalMode   string  `json:"ugalMode" group:"congestion" doc:"factor: minimal if Qmin ≤ F·Qval + T; pathLength: minimal if Qmin·Hmin ≤ Qval·Hval + T (FOGSim)" enum:"factor,pathLength" when:"routing" paper:"thesis eq. 1.2"`
	UgalF      float64 `json:"ugalF" group:"congestion" doc:"F of the factor comparison" unit:"×" min:"0" max:"100" when:"routing"`
	UgalT      float64 `json:"ugalT" group:"congestion" doc:"T of the comparison" unit:"packets" min:"0" max:"10000" when:"routing"`
	Congestion string  `json:"congestion" group:"congestion" doc:"occupancy sensed per VC or per port (…Min: counting only minimally routed packets). UGAL compares the sensed occupancy; PB and PB-ACOR mark their saturated global links by it and compare the occupancy of the packet's VC, per port as per VC (thesis §1.4.2.1, §5.2.4)" enum:"perVC,perPort,perVCMin,perPortMin" when:"routing" paper:"thesis §5.2.4"`

	// UgalIntermediate is omitted for its default (any), so that documents
	// and configurations written before it stay byte-identical; those that
	// ran UGAL on a flattened butterfly before any became the default ran
	// detour, and run any now.
	UgalIntermediate string `json:"ugalIntermediate,omitempty" group:"congestion" doc:"UGAL on a flattened butterfly: how the Valiant intermediate router is drawn. any (the default), as Valiant's algorithm and BookSim's flattened-butterfly UGAL, the paper's simulator: in each dimension where source and destination routers differ a coordinate uniform among all k (the source's and the destination's included), and a draw that lands on the source's or the destination's router routes minimally; detour (the alternative), uniformly among the routers other than the source's and the destination's, so every Valiant draw is a detour (empty: any)" enum:"any,detour" when:"routing,topology.kind=fbfly" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §II-B, §V-A (UGAL, ref. [8]: Singh's thesis); BookSim 2 flatfly_onchip.cpp (find_ran_intm, ugal_flatfly_onchip)"`
	// InjectionTrigger is omitted for its default, so that documents and
	// results without it are unchanged.
	InjectionTrigger string `json:"injectionTrigger,omitempty" group:"congestion" doc:"UGAL, PB: what sends a packet on its Valiant path at injection: ugal, the occupancy comparison (PB's saturation bits still come first); base, the contention counter of the minimal first hop's output ≥ contentionThreshold; ectn, base or the group's combined counter of the destination group ≥ ectnThreshold (as routing.trigger=ectn). With base or ectn the Valiant first hop's own counter must be below contentionThreshold (empty: ugal)" enum:"ugal,base,ectn" when:"routing" paper:"thesis §4.2.1, §4.2.1.4 (applied at injection)"`

	// PiggyBack saturation bits.
	PbCoef      float64 `json:"pbCoef" group:"congestion" doc:"a global link is saturated when Q > pbCoef%·Q̄ + pbThreshold (Q̄: mean over the router's global links)" unit:"%" min:"0" max:"10000" when:"routing" paper:"thesis eq. 1.3"`
	PbThreshold float64 `json:"pbThreshold" group:"congestion" doc:"T of the saturation test" unit:"packets" min:"0" max:"10000" when:"routing"`
	PbBroadcast string  `json:"pbBroadcast" group:"congestion" doc:"how the bits reach the group: sideband (every cycle, local-link latency, free: FOGSim) or piggyback (carried by data packets crossing local links)" enum:"sideband,piggyback" when:"routing" paper:"thesis §1.4.2.1.1"`
	// In-transit adaptive routing (PAR, OLM).
	Policy  string `json:"policy" doc:"global misrouting policy: CRG current router, RRG random router, NRG neighbour router, MM mixed; _L: one more local misroute outside the source group" enum:"CRG,RRG,NRG,MM,CRG_L,RRG_L,NRG_L,MM_L" when:"routing" paper:"thesis §1.4.3"`
	Trigger string `json:"trigger" group:"congestion" doc:"misrouting trigger: cga (minimal output blocked and, if global, congested), ugal (Qmin > F·Qcand + T), or a contention counter (packets at buffer heads whose minimal output is this port): base (counter ≥ contentionThreshold), filtered (its average α·c + (1−α)·counter ≥ contentionThreshold), hybrid (counter ≥ hybridThreshold, or the cga trigger), ectn (base, and at the source router the group's combined counter of the destination group ≥ ectnThreshold)" enum:"cga,ugal,base,filtered,hybrid,ectn" when:"routing" paper:"thesis §4.2.1"`
	// The contention triggers' parameters are 0 for "the thesis's value"
	// and omitted then, so that results without them stay byte-identical.
	ContentionTh  int     `json:"contentionThreshold,omitempty" group:"congestion" doc:"base, filtered, ectn: misroute when the minimal output's contention counter is at least this; a candidate whose counter is at least this does not qualify (0: the thesis's 6)" unit:"packets" min:"0" max:"1000" when:"routing" paper:"thesis §4.2.2 (th = 6)"`
	HybridTh      int     `json:"hybridThreshold,omitempty" group:"congestion" doc:"hybrid: the contention counter's threshold; the credit part is the cga trigger with thMin, congestedCoef, congestedThreshold, candidateMax (0: the thesis's 8)" unit:"packets" min:"0" max:"1000" when:"routing" paper:"thesis §4.2.2 (th = 8)"`
	FilterAlpha   float64 `json:"filterAlpha,omitempty" group:"congestion" doc:"filtered: weight α of the previous value in the per-cycle average α·c + (1−α)·counter (0: FOGSim's default 0.5, which the thesis does not give; α = 0 would be base)" unit:"×" min:"0" max:"0.99" when:"routing" paper:"thesis §4.2.1.2"`
	EctnTh        int     `json:"ectnThreshold,omitempty" group:"congestion" doc:"ectn: a packet at its source router misroutes when the combined counter of its destination group (the heads of the group's injection and global input VCs bound for that group, as last broadcast by the other routers, plus this router's own now) is at least this (0: the thesis's 10)" unit:"packets" min:"0" max:"100000" when:"routing" paper:"thesis §4.2.2 (th_c = 10)"`
	EctnPeriod    int     `json:"ectnPeriod,omitempty" group:"congestion" doc:"ectn: the routers of a group broadcast their partial counters to each other at the cycles that are multiples of this, counted from the start of the run (warm-up included); they arrive one local-link latency later (0: the thesis's 100)" unit:"cycles" min:"0" max:"1000000" when:"routing" paper:"thesis §4.2.3 (every 100 cycles)"`
	ThMin         float64 `json:"thMin" group:"congestion" doc:"CGA: misroute only when the minimal output's occupancy is at least this" unit:"%" min:"0" max:"100" when:"routing"`
	CongestedCoef float64 `json:"congestedCoef" group:"congestion" doc:"CGA: a global link is congested when Q > congestedCoef%·Q̄ + congestedThreshold" unit:"%" min:"0" max:"10000" when:"routing"`
	CongestedT    float64 `json:"congestedThreshold" group:"congestion" doc:"CGA: T of the congested-link test" unit:"packets" min:"0" max:"10000" when:"routing"`
	CandidateMax  float64 `json:"candidateMax" group:"congestion" doc:"a non-minimal candidate qualifies when its occupancy ≤ candidateMax% of the minimal output's" unit:"%" min:"0" max:"10000" when:"routing"`
	IntraGroupMis bool    `json:"intraGroupMisroute" doc:"OLM with an _L policy: traffic between routers of one group may also take the one local misroute in that group (its destination group), as FOGSim's OLM; otherwise it is always minimal" when:"routing" paper:"García et al. ICPP'13 (OLM); FOGSim v5 (olm::misrouteType: the _L branch takes every packet outside the source-group case)" fogsim:"true"`
	Candidates    string  `json:"candidates" group:"congestion" doc:"all: misroute through a random one of the qualifying non-minimal ports; single: draw one random port of the class (the minimal one included) and misroute only if it qualifies (FOGSim's OLM); fogsim: as FOGSim, single for OLM and all for PAR" enum:"all,single,fogsim" when:"routing" paper:"thesis §1.4.2.2; FOGSim v5 (olm::nominateCandidates draws one port, par::nominateCandidates takes all)" fogsim:"fogsim"`
	// ACOR.
	AcorSequence string `json:"acorSequence" group:"congestion" doc:"phase-A policies by level: 2LA CRG-Gr→RRG-Sw, 2LB CRG-Sw→RRG-Sw, 3L CRG-Gr→CRG-Sw→RRG-Sw" enum:"2LA,2LB,3L" when:"routing" paper:"ACOR paper Table 2"`
	AcorMode     string `json:"acorMode" group:"congestion" doc:"packet: each blocked attempt raises the packet's level; switch: per-router level with thresholds and hysteresis" enum:"switch,packet" when:"routing" paper:"ACOR paper §4.2.2"`
	AcorHI       int    `json:"acorHI" group:"congestion" doc:"hysteresis interval" unit:"cycles" min:"1" max:"10000000" when:"routing" paper:"ACOR paper Table 3"`
	AcorIT1      int    `json:"acorIT1" group:"congestion" doc:"blocked attempts that raise level 1 → 2" unit:"attempts" min:"1" max:"10000000" when:"routing"`
	AcorIT2      int    `json:"acorIT2" group:"congestion" doc:"blocked attempts that raise level 2 → 3 (3L; 0 = 500 for ACOR, 50 for PB_ACOR)" unit:"attempts" min:"0" max:"10000000" when:"routing"`
	AcorDT1      int    `json:"acorDT1" group:"congestion" doc:"at most this many blocked attempts in an interval lower level 2 → 1" unit:"attempts" min:"0" max:"10000000" when:"routing"`
	AcorDT2      int    `json:"acorDT2" group:"congestion" doc:"at most this many lower level 3 → 2 (3L)" unit:"attempts" min:"0" max:"10000000" when:"routing"`
	AcorCount    string `json:"acorCount" group:"congestion" doc:"which re-attempts at the head of an injection VC count as blocked: paper, every one for ACOR (all its packets follow Valiant paths) and, for PB_ACOR, those whose previous attempt chose the non-minimal path; fogsim, those of a packet any earlier attempt routed non-minimally (FOGSim's sticky misrouted flag: a PB_ACOR packet routed minimally after a non-minimal attempt still counts)" enum:"paper,fogsim" when:"routing" paper:"ACOR paper §4.2.2, §4.3; FOGSim v5 (acor::enroute, pbAcor::enroute: acor_packets_blocked_counter++ if flit->getMisrouted())" fogsim:"fogsim"`
	// QCN-Switch (QCN-Switch paper: Benito, Vallejo, Izu, Beivide, "Non-minimal
	// Adaptive Routing Based on Explicit Congestion Notifications"). Every
	// field is omitted at 0/"", which stands for the paper's Table I value,
	// so that documents without them are unchanged.
	QcnSampling         string  `json:"qcnSampling,omitempty" group:"congestion" doc:"QCN congestion points: output, the transit output FIFOs (router.model=ioq; the paper's final design); input, the transit input buffers, all data VCs of the port, with a random victim among their packets (empty: output)" enum:"output,input" when:"routing" paper:"QCN-Switch paper §3.2, §4.1 (Figs. 6–9)"`
	QcnClock            string  `json:"qcnSamplingClock,omitempty" group:"congestion" doc:"what a congestion point's counter counts down: packets, only the data packets arriving in its buffer (the paper's one sample every qcnCPC packets); fogsim, those and every cycle as well, as FOGSim v5 does, so a busy buffer is sampled about every qcnCPC cycles (at the first arrival once the count is out) (empty: packets)" enum:"packets,fogsim" when:"routing" paper:"QCN-Switch paper §2, Table I; FOGSim v5 (switchModule::action and insertFlit both decrement qcnCpSamplingCounter)"`
	QcnSourceProcessing bool    `json:"qcnSourceProcessing,omitempty" group:"congestion" doc:"input sampling: a congestion point also processes each CNM it sends itself, on the output port its victim takes at this router" when:"routing,routing.qcnSampling=input" paper:"QCN-Switch paper §3.2.1"`
	QcnFbComparison     string  `json:"qcnFeedbackComparison,omitempty" group:"congestion" doc:"feedback comparison: on, a CNM lowers the port's probability only when its |Fb| exceeds the mean last feedback of all transit ports by qcnTh2 (by R = 1 − Lf·(|Fb| − mean)) and raises it by qcnPI when below the mean less qcnTh1; off, every CNM multiplies it by 1 − Lf·|Fb| (empty: on)" enum:"on,off" when:"routing" paper:"QCN-Switch paper §3.3 (Figs. 4–5)"`
	QcnQeq              float64 `json:"qcnQeq,omitempty" group:"congestion" doc:"QCN equilibrium occupancy Q_eq, a share of one transit queue (the output FIFO, or one VC's input buffer; input sampling weighs the port's data VCs together against it, as FOGSim v5); |Fb| saturates at 2·Q_eq (0: 20)" unit:"%" min:"0" max:"50" when:"routing" paper:"QCN-Switch paper Table I"`
	QcnW                float64 `json:"qcnW,omitempty" group:"congestion" doc:"QCN weight w of the occupancy change: Fb = −(Q_off + w·Q_δ), quantised over (1 + 2w)·Q_eq (0: 0, the paper's; QCN's standard is 2)" unit:"×" min:"0" max:"10" when:"routing" paper:"QCN-Switch paper §2, Table I"`
	QcnCPC              int     `json:"qcnCPC,omitempty" group:"congestion" doc:"QCN congestion point cycle: one sample every this many data packets arriving at the buffer (0: 100)" unit:"packets" min:"0" max:"100000" when:"routing" paper:"QCN-Switch paper Table I, §5.3.1"`
	QcnCnmPercent       float64 `json:"qcnCnmPercent,omitempty" group:"congestion" doc:"share of the congested samples (|Fb| > 0) that send a CNM (0: 30)" unit:"%" min:"0" max:"100" when:"routing" paper:"QCN-Switch paper Table I, §5.3.1"`
	QcnLf               float64 `json:"qcnLf,omitempty" group:"congestion" doc:"L_f: a CNM multiplies the minimal probability of its port by R = 1 − L_f·|Fb| (|Fb| ≤ 63; a cut past 0 leaves 0) (0: 1/64)" unit:"×" min:"0" max:"1" when:"routing" paper:"QCN-Switch paper Table I, §5.3.2"`
	QcnPCl              int     `json:"qcnPCl,omitempty" group:"congestion" doc:"PC_l: a port's minimal probability rises by qcnPI after this many packets leave through it without a CNM for it (0: 100)" unit:"packets" min:"0" max:"100000" when:"routing" paper:"QCN-Switch paper Table I, §3.1.2"`
	QcnPI               float64 `json:"qcnPI,omitempty" group:"congestion" doc:"PI: the additive increase of a minimal probability (0: 1)" unit:"percentage points" min:"0" max:"100" when:"routing" paper:"QCN-Switch paper Table I, §5.3.3"`
	QcnTh1              float64 `json:"qcnTh1,omitempty" group:"congestion" doc:"feedback comparison: raise when |Fb| < mean − Th1" unit:"Fb units" min:"0" max:"63" when:"routing,routing.qcnFeedbackComparison!=off" paper:"QCN-Switch paper §3.3, Table I"`
	QcnTh2              float64 `json:"qcnTh2,omitempty" group:"congestion" doc:"feedback comparison: lower when |Fb| > mean + Th2 (0: 30; −1: a band of 0, paper Fig. 16's Th2 = 0)" unit:"Fb units" min:"-1" max:"63" when:"routing,routing.qcnFeedbackComparison!=off" paper:"QCN-Switch paper §3.3, Table I, §5.3.4"`
	QcnNonMinimal       string  `json:"qcnNonMinimal,omitempty" group:"congestion" doc:"the non-minimal path of a packet of node i of its router: ownGlobal, the router's own global port i mod h, then minimal from the group it reaches (the paper's precomputed rule per injection port); randomGroup, minimal to a random other group, then minimal (Valiant to a group) (empty: ownGlobal)" enum:"ownGlobal,randomGroup" when:"routing" paper:"QCN-Switch paper §3.1.2, §6"`
	// QCN-Switch's source-processing rule and the optional 802.1Qau reaction
	// points (rate limiters at the nodes; off in the paper).
	QcnSPRule         string  `json:"qcnSourceProcessingRule,omitempty" group:"congestion" doc:"how a congestion point processes the CNM it sends itself (source processing): comparison, as a CNM received from a neighbour (the paper's wording), so through feedback comparison when it is on, restarting the port's packet count; cut, as FOGSim v5 does, always P ×= 1 − L_f·|Fb| on the port its victim takes, feedback comparison or not, the port's count and last feedback untouched, and nothing for a victim bound to this router's own group (empty: comparison)" enum:"comparison,cut" when:"routing,routing.qcnSampling=input,routing.qcnSourceProcessing=true" paper:"QCN-Switch paper §3.3.1, Fig. 6a; FOGSim v5 switchModule::qcnOccupancySampling (QCNSWSELF, QCNSWCOMPLETE)"`
	QcnReactionPoints bool    `json:"qcnReactionPoints,omitempty" group:"congestion" doc:"802.1Qau reaction points: each node has a rate limiter that every CNM addressed to it cuts, R_C ← R_C·(1 − G_d·|Fb|) after R_T ← R_C, and that recovers towards R_T by fast recovery, active and hyper-active increase, driven by a byte counter and a timer; a generation attempt the limiter holds is lost, as one finding the injection buffer full (not with the Graph500 job, which generates by its own schedule). Off in the paper, which routes around congestion instead (QCN-Switch paper §2, §3)" when:"routing,workload.kind!=graph500" paper:"QCN-Switch paper §2; Alizadeh et al., Data Center Transport Mechanisms: Congestion Control Theory and IEEE Standardization, the QCN algorithm's reaction point"`
	QcnRpGd           float64 `json:"qcnRpGd,omitempty" group:"congestion" doc:"reaction points: G_d, a CNM multiplies the node's rate by 1 − G_d·|Fb| (|Fb| ≤ 63; 1/128 cuts at most 49%; a cut past qcnRpMinRate leaves it) (0: 1/128, 802.1Qau's and FOGSim v5's g_qcn_gd)" unit:"×" min:"0" max:"1" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"QCN-Switch paper §5.3.2 (1/128, QCN's); FOGSim v5 global.cc g_qcn_gd"`
	QcnRpByteCount    int     `json:"qcnRpByteCount,omitempty" group:"congestion" doc:"reaction points: the byte counter's cycle, the data a limited node sends between two increases (half of it after fast recovery) (0: 802.1Qau's 150 KB in phits of the physical basis; without one, of 100 bytes: 1,500)" unit:"phits" min:"0" max:"100000000" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"Alizadeh et al., Data Center Transport Mechanisms, the reaction point"`
	QcnRpTimer        int     `json:"qcnRpTimer,omitempty" group:"congestion" doc:"reaction points: the timer's period between two increases (half of it after fast recovery) (0: 10 ms, FOGSim v5's g_qcn_timer_period, in cycles of the physical basis; without one, of 20 ns: 500,000)" unit:"cycles" min:"0" max:"1000000000" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"Alizadeh et al., Data Center Transport Mechanisms, the reaction point; FOGSim v5 global.cc g_qcn_timer_period"`
	QcnRpRai          float64 `json:"qcnRpRai,omitempty" group:"congestion" doc:"reaction points: R_AI, the target rate's active increase (0: 5 Mb/s of the physical basis's link rate; without one, of 40 Gb/s: 0.000125)" unit:"phits/node/cycle" min:"0" max:"1" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"Alizadeh et al., Data Center Transport Mechanisms, the reaction point"`
	QcnRpRhai         float64 `json:"qcnRpRhai,omitempty" group:"congestion" doc:"reaction points: R_HAI, the hyper-active increase step: the i-th increase past fast recovery of both counters adds i·R_HAI (0: 50 Mb/s; without a physical basis 0.00125)" unit:"phits/node/cycle" min:"0" max:"1" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"Alizadeh et al., Data Center Transport Mechanisms, the reaction point"`
	QcnRpMinRate      float64 `json:"qcnRpMinRate,omitempty" group:"congestion" doc:"reaction points: a cut never leaves a node's rate below this (0: R_AI, as FOGSim v5's g_qcn_min_rate = g_qcn_r_ai)" unit:"phits/node/cycle" min:"0" max:"1" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"FOGSim v5 global.cc g_qcn_min_rate"`
	QcnRpFastRecovery int     `json:"qcnRpFastRecovery,omitempty" group:"congestion" doc:"reaction points: the counter cycles of fast recovery, R_C ← (R_C + R_T)/2 with no target increase, after a cut (0: 5, 802.1Qau's and FOGSim v5's g_qcn_fast_recovery_th)" unit:"counter cycles" min:"0" max:"1000" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"Alizadeh et al., Data Center Transport Mechanisms, the reaction point; FOGSim v5 global.cc g_qcn_fast_recovery_th"`
	QcnRpFlows        int     `json:"qcnRpFlows,omitempty" group:"congestion" doc:"reaction points: rate limiters per node, one per flow (source, destination) a CNM named; a CNM for another flow when all are busy changes no rate (counted as rpUntracked) (0: 16)" unit:"limiters" min:"0" max:"1024" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"Alizadeh et al., Data Center Transport Mechanisms, the reaction point (a CNM is addressed to the sampled frame's flow)"`
	QcnRpJitter       float64 `json:"qcnRpJitter,omitempty" group:"congestion" doc:"reaction points: the byte counter's randomisation, each cycle its period times a uniform factor in [1 − jitter, 1 + jitter] (0: 0.15; −1: none, the standard's cycles exactly)" unit:"×" min:"-1" max:"0.5" when:"routing,routing.qcnReactionPoints=true,workload.kind!=graph500" paper:"Alizadeh et al., Data Center Transport Mechanisms, the reaction point (randomised counter cycles)"`
}

// Traffic (workload).
type Traffic struct {
	Pattern string  `json:"pattern" doc:"destination pattern: UN uniform, ADV group g+i, ADVC the groups of router a−1, ADVL router +k of the own group, MIX, HOT hot region, PERM random permutation, TORNADO every node of router i to the same port of router i+1 (n → n+p), TORNADO_RAND to a random node of router i+1, HOTSPOT k senders at 100% to one node and UR among the others, UR1UR2 two classes (each router's lower and upper half of nodes) sending UR within each, UR1 at traffic.load in messages of traffic.messagePackets, UR2 at traffic.ur2Load in single packets" traffic:"patterns" paper:"thesis §1.6.1; ACOR paper §5.2"`
	Load    float64 `json:"load" doc:"offered load" unit:"phits/node/cycle" min:"0" max:"1"`
	Process string  `json:"process" doc:"injection process: bernoulli, or bursty (ON/OFF Markov chain)" enum:"bernoulli,bursty" paper:"thesis §1.6.1.3"`
	// BurstLength is B of thesis eqs. 1.4–1.8.
	BurstLength float64 `json:"burstLength" doc:"mean burst length" unit:"packets" min:"1" max:"100000" when:"traffic.process=bursty"`
	AdvOffset   int     `json:"advOffset" doc:"i of ADV+i: destination group g+i" unit:"groups" min:"1" max:"100000" when:"traffic.pattern=ADV|MIX"`
	AdvRouter   string  `json:"advRouter" doc:"ADV destination router: random in the target group, or the same position" enum:"random,same" when:"traffic.pattern=ADV|MIX"`
	AdvcFogsim  bool    `json:"advcFogsim" doc:"ADVc over groups +1…+(h−1) as FOGSim's code draws, instead of +1…+h" when:"traffic.pattern=ADVC"`
	LocalOffset int     `json:"localOffset" doc:"ADVl: destination router +k inside the own group" unit:"routers" min:"1" max:"100000" when:"traffic.pattern=ADVL|MIX"`
	MixUN       float64 `json:"mixUN" doc:"MIX: share of UN traffic" unit:"%" min:"0" max:"100" when:"traffic.pattern=MIX"`
	MixADVL     float64 `json:"mixADVL" doc:"MIX: share of ADVl traffic" unit:"%" min:"0" max:"100" when:"traffic.pattern=MIX"`
	MixADV      float64 `json:"mixADV" doc:"MIX: share of ADV+i traffic" unit:"%" min:"0" max:"100" when:"traffic.pattern=MIX"`
	MixPerNode  bool    `json:"mixPerNode" doc:"MIX: each node keeps one pattern (otherwise drawn per packet, as FOGSim)" when:"traffic.pattern=MIX"`
	HotPercent  float64 `json:"hotPercent" doc:"HOT: share of each node's traffic sent to the hot region (the rest is uniform)" unit:"%" min:"0" max:"100" when:"traffic.pattern=HOT"`
	HotRegion   float64 `json:"hotRegion" doc:"HOT: the hot region is this share of the nodes, from node 0" unit:"%" min:"0" max:"100" when:"traffic.pattern=HOT"`
	// HOTSPOT (omitted when unset, so that other documents keep their form)
	HotspotNode       int    `json:"hotspotNode,omitempty" doc:"HOTSPOT: the hotspot node, which sends nothing" unit:"node" min:"0" max:"1000000" when:"traffic.pattern=HOTSPOT" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	HotspotSenders    string `json:"hotspotSenders,omitempty" doc:"HOTSPOT: the senders, comma-separated nodes (e.g. 0,5,8,12), each sending only to the hotspot at 100% of its injection bandwidth; the other nodes send UR among themselves at traffic.load" when:"traffic.pattern=HOTSPOT" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (Figs. 2, 3b, 14)"`
	HotspotCount      int    `json:"hotspotCount,omitempty" doc:"HOTSPOT: instead of traffic.hotspotNode and traffic.hotspotSenders, draw the hotspot and this many senders at random from traffic.hotspotSeed (0: give them explicitly)" unit:"nodes" min:"0" max:"1000000" when:"traffic.pattern=HOTSPOT" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (Figs. 8b, 13)"`
	HotspotSeed       int    `json:"hotspotSeed,omitempty" doc:"HOTSPOT with traffic.hotspotCount: the seed of the draw, not the run's, so that every scheme and seed of an experiment gets the same set" unit:"PRNG seed" min:"0" max:"1000000000" when:"traffic.pattern=HOTSPOT" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	HotspotBackground string `json:"hotspotBackground,omitempty" doc:"HOTSPOT: what the other nodes send: UR among themselves (the hotspot silent); TORNADO, every node (the hotspot too) to the same port of the next router, n → (n + p) mod N (the 16-node permutation n → n+4, the 512-node tornado n → n+8); TORNADO_RAND, to a random node of the next router; UN, every node but the senders (the hotspot too) uniformly to all the others, the senders and the hotspot included (Duato et al.'s RECN paper, Table 1) (empty: UR)" enum:"UR,TORNADO,TORNADO_RAND,UN" when:"traffic.pattern=HOTSPOT" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (Fig. 3b: permutation + 4-to-1, reconstructed; Fig. 9b: tornado + 63-to-1); Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks §4.1, §4.3"`
	// A fixed throttle on the senders (omitted when unset: backlogged).
	HotspotRate float64 `json:"hotspotRate,omitempty" doc:"HOTSPOT: each sender's fixed injection rate, instead of 100% of its injection bandwidth: a token bucket one message deep fills at this rate and the sender generates a message (a packet without traffic.sourceQueue) each time it holds one; the senders' buckets start evenly out of phase (0: backlogged)" unit:"phits/node/cycle" min:"0" max:"1" when:"traffic.pattern=HOTSPOT" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §VI-B, Fig. 12 (4-to-1 senders throttled to 1/4 or 0.99/4)"`

	// The RECN paper's senders at their link's rate (omitted when unset:
	// backlogged).
	HotspotLinkRate bool `json:"hotspotLinkRate,omitempty" doc:"HOTSPOT: each sender generates one packet to the hotspot per packet time of its link (router.packetSize cycles; with traffic.sourceQueue one message per message time), all senders in phase from traffic.hotspotStart, instead of one whenever its interface has room (backlogged); a packet its interface cannot take waits in its generator, which stalls (under congestion.scheme=recn: the admittance queue of its destination, then the generator), nothing dropped and no lost packet time made up later" when:"traffic.pattern=HOTSPOT" paper:"Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks §4.2, Table 1 (16 sources at the full link rate, 800–970 µs), §4.1 (admittance queues)"`

	// The hotspot's window (omitted when unset: the senders send all run).
	HotspotStart int  `json:"hotspotStart,omitempty" doc:"HOTSPOT: the senders are idle until this cycle of the run (warm-up included, as the time series), then backlogged (0: from the start)" unit:"cycles" min:"0" max:"100000000" when:"traffic.pattern=HOTSPOT" paper:"Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks §4.2, Table 1 (800 µs)"`
	HotspotEnd   int  `json:"hotspotEnd,omitempty" doc:"HOTSPOT: the senders generate nothing from this cycle of the run on (warm-up included); what they generated still drains (0: never)" unit:"cycles" min:"0" max:"100000000" when:"traffic.pattern=HOTSPOT" paper:"Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks §4.2, Table 1 (970 µs)"`
	Reactive     bool `json:"reactive" doc:"request-reply: every request is answered by a reply; requests get half the load" paper:"thesis §1.6.2"`
	SourceQueue  bool `json:"sourceQueue" doc:"keep packets that find the injection buffer full in an unbounded source queue (FOGSim drops the attempt)"`
	// Messages and per-destination source queues: the network interface
	// of Kim et al. §V-A (omitted when unset).
	MessagePackets int    `json:"messagePackets,omitempty" doc:"packets per message: each generation event queues this many packets to one destination, at traffic.load/(m × packet size) messages per cycle so that the load in phits stays traffic.load (0 or 1: single packets)" unit:"packets" min:"0" max:"1024" when:"traffic.sourceQueue=true,traffic.process=bernoulli" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	SourceQueues   string `json:"sourceQueues,omitempty" doc:"single, one FIFO per node; perDestination, one FIFO per destination with packets, served round-robin into the injection VCs, as InfiniBand queue pairs (empty: single)" enum:"single,perDestination" when:"traffic.sourceQueue=true" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	// UR1UR2's UR2 class (omitted when unset)
	Ur2Load float64 `json:"ur2Load,omitempty" doc:"UR1UR2: the UR2 class's load, in single-packet messages; traffic.load is UR1's (0: 0.9)" unit:"phits/(node·cycle)" min:"0" max:"1" when:"traffic.pattern=UR1UR2" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-B (Figs. 5b, 8c: 90%)"`
	// The RECN paper's finite admittance queues (omitted when unbounded).
	AdmittanceQueue int `json:"admittanceQueue,omitempty" doc:"the network interface's per-destination queues (traffic.sourceQueues=perDestination) hold at most this many packets each; a message that finds its queue full stalls its node's generator, which makes no other attempt until the message fits (nothing is dropped). 0: unbounded" unit:"packets" min:"0" max:"1000000" when:"traffic.sourceQueue=true,traffic.sourceQueues=perDestination" paper:"Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks §4.1"`
	// Transient: switch to another pattern during the run.
	SwitchCycle     int    `json:"switchCycle" doc:"TRANSIENT: cycle after warm-up at which the pattern changes (0 = never)" unit:"cycles" min:"0" max:"100000000"`
	SwitchPattern   string `json:"switchPattern" doc:"TRANSIENT: pattern after the switch" traffic:"patterns" when:"traffic.switchCycle>0"`
	SwitchAdvOffset int    `json:"switchAdvOffset" doc:"TRANSIENT: i of ADV+i after the switch" unit:"groups" min:"1" max:"100000" when:"traffic.switchCycle>0"`
	// SwitchLoad is omitted at 0 (the load does not change), so that
	// documents without a load step are unchanged.
	SwitchLoad float64 `json:"switchLoad,omitempty" doc:"TRANSIENT: offered load after the switch (0: traffic.load, no step); with traffic.switchPattern the pattern in use, the switch is a pure load step. The transient record then also has the offered and accepted load per bin" unit:"phits/node/cycle" min:"0" max:"1" when:"traffic.switchCycle>0" paper:"ACOR paper §6.2.1 (Figs. 9–10: 5% → 25% and 25% → 5% under ADV+h)"`
	// SwitchRecord is the length of the transient record after the switch.
	SwitchRecord int `json:"switchRecord,omitempty" doc:"TRANSIENT: how long after the switch the transient record (latency and misrouting by generation time, 10-cycle bins) runs, within the measured window (0: 10,000, FOGSim's transientRecordCycles; the QCN-Switch paper plots 2.4 ms)" unit:"cycles" min:"0" max:"10000000" when:"traffic.switchCycle>0" paper:"thesis §4.3.2; QCN-Switch paper §5.2"`
}

// Sim controls the run length, seeds and what is recorded.
type Sim struct {
	Warmup   int    `json:"warmup" doc:"warm-up cycles, not measured; 'auto' sets sim.autoWarmup (this value is then its cap)" unit:"cycles" min:"0" max:"100000000"`
	Cycles   int    `json:"cycles" doc:"measured cycles after warm-up" unit:"cycles" min:"1" max:"100000000"`
	Seed     uint64 `json:"seed" doc:"seed of the first run; run k of a point uses seed+k" unit:"PRNG seed" min:"0" max:"18446744073709551615"`
	Seeds    int    `json:"seeds" doc:"runs per point, averaged with a 95% confidence interval" unit:"runs" min:"1" max:"1000"`
	Interval int    `json:"interval" doc:"time-series interval" unit:"cycles" min:"1" max:"100000000"`
	HistMax  int    `json:"histMax" doc:"latency histogram range (longer latencies go to the last bin)" unit:"cycles" min:"16" max:"1000000"`
	// AutoWarmup, Precision and MaxCycles: run length chosen by the
	// run's own statistics (engine/METHODS.md); off by default.
	AutoWarmup bool    `json:"autoWarmup,omitempty" doc:"end the warm-up where MSER-5 on the latency and accepted-load series finds the transient over (checked every 5 intervals, at least 50 intervals in), sim.warmup being the cap; the result's quality.from says where measuring began" paper:"White 1997; White, Cobb, Spratt 2000 (MSER-5)"`
	Precision  float64 `json:"precision,omitempty" doc:"run until the 95% batch-means intervals of mean latency and accepted load are within ± this fraction of their means (0: fixed length); sim.cycles is the first window, sim.maxCycles the cap, then the verdict is 'too short'" unit:"fraction" min:"0" max:"0.5" paper:"Law, Simulation Modeling and Analysis §9.5.3"`
	MaxCycles  int     `json:"maxCycles,omitempty" doc:"sim.precision: most measured cycles (0: 10 × sim.cycles)" unit:"cycles" min:"0" max:"100000000" when:"sim.precision>0"`
	// MaxSeeds: a sweep point's cap on runs under sim.precision (SeedCap).
	MaxSeeds int `json:"maxSeeds,omitempty" doc:"sim.precision in a sweep: most runs (seeds) a point may take so that its runs' intervals combined meet the precision (0: 4 × sim.seeds)" unit:"runs" min:"0" max:"1000" when:"sim.precision>0"`
	// Watchdog is also the stuck-head bound, raised to its floor (see
	// engine/TIMING.md, "Reliability checks").
	Watchdog int `json:"watchdog" doc:"deadlock detection: stop when nothing moves for this long while packets are in flight, or when a packet waits this long (at least 16 × the deepest transit buffer in packets × router radix × packet size) at the head of a transit buffer; the result then says where" unit:"cycles" min:"100" max:"100000000"`
}

// QCN is the QCN-Switch parameters with the 0/"" fields resolved to the
// QCN-Switch paper's Table I values.
type QCN struct {
	InputSampling, SourceProcessing, FbComparison, RandomGroup, Clock bool
	// SPCut: source processing cuts as FOGSim v5 (routing.qcnSourceProcessingRule=cut)
	SPCut                                bool
	Qeq, W, CnmPercent, Lf, PI, Th1, Th2 float64
	CPC, PCl                             int
}

// FillQCN sets the empty QCN-Switch enums to their defaults (the validator
// checks the values the simulator runs).
func (r *Routing) FillQCN() {
	if r.QcnSampling == "" {
		r.QcnSampling = "output"
	}
	if r.QcnFbComparison == "" {
		r.QcnFbComparison = "on"
	}
	if r.QcnNonMinimal == "" {
		r.QcnNonMinimal = "ownGlobal"
	}
	if r.QcnClock == "" {
		r.QcnClock = "packets"
	}
	if r.QcnSPRule == "" {
		r.QcnSPRule = "comparison"
	}
}

// QCN resolves the QCN-Switch parameters (QCN-Switch paper Table I for
// 0/"").
func (r *Routing) QCN() QCN {
	or := func(v, d float64) float64 {
		if v == 0 {
			return d
		}
		return v
	}
	q := QCN{InputSampling: r.QcnSampling == "input", SourceProcessing: r.QcnSourceProcessing,
		FbComparison: r.QcnFbComparison != "off", SPCut: r.QcnSPRule == "cut", RandomGroup: r.QcnNonMinimal == "randomGroup", Clock: r.QcnClock == "fogsim",
		Qeq: or(r.QcnQeq, 20), W: r.QcnW, CnmPercent: or(r.QcnCnmPercent, 30), Lf: or(r.QcnLf, 1.0/64),
		PI: or(r.QcnPI, 1), Th1: r.QcnTh1, Th2: or(r.QcnTh2, 30), CPC: r.QcnCPC, PCl: r.QcnPCl}
	if r.QcnTh2 < 0 {
		q.Th2 = 0
	}
	if q.CPC == 0 {
		q.CPC = 100
	}
	if q.PCl == 0 {
		q.PCl = 100
	}
	return q
}

// Senders parses traffic.hotspotSenders: comma-separated node numbers.
func (t *Traffic) Senders() ([]int32, error) {
	var out []int32
	for _, f := range strings.Split(t.HotspotSenders, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a node number", f)
		}
		out = append(out, int32(n))
	}
	return out, nil
}
