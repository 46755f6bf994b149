// Package sim is the cycle-accurate network simulator: CIOQ (or input-queued)
// virtual cut-through routers with credit-based flow control, an input-first
// separable allocator, distance-based VCs, and the synthetic workloads of
// package traffic. The observable timing follows FOGSim's IOQ model; see
// engine/TIMING.md.
//
// State lives in flat slices indexed by port (pi = router·radix + port) and
// buffer (bi = pi·maxVC + vc); packets live in a pool and are named by index.
// The per-cycle loop allocates nothing once the pool has grown.
//
// The network is a topology.Topology, built by topology.New from the config.
// The router model assumes no numbering of it: where a node attaches and the
// class of each port of each router are tables built once in New (nodeAt,
// ports[pi].class, pclass), the per-class tables (latency, buffer, VCs) are
// sized from the classes the topology declares, and routes come from
// MinimalPorts. Only the
// Dragonfly-specific mechanisms (adaptive routings, Valiant, group-based
// traffic, Graph500) use *topology.Dragonfly, and New refuses them on any
// other topology.
package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/rng"
	"phitsim/engine/routing"
	"phitsim/engine/topology"
	"phitsim/engine/traffic"
	"phitsim/engine/vcs"
)

const (
	fInterDone uint8 = 1 << iota // reached the Valiant intermediate, or routes minimally
	fRequest                     // request of request-reply traffic
	fReply                       // reply
	fNonMin                      // takes a non-minimal path
	fToGroup                     // the intermediate is reached on entering its group
	fMandatory                   // must take a global hop next (livelock guard)
	fLocalMis                    // took its local misroute in the current group
	fGlobalMis                   // took its global misroute
)

type packet struct {
	src, dst  int32 // nodes
	dstRouter int32
	inter     int32 // intermediate router (VAL) or group (VAL_GROUP); −1 none
	gen       int64 // generation cycle
	entry     int64 // cycle the head reaches its current buffer
	inj       int64 // cycle it left the first router (−1 before)
	reqLat    int64 // reply: latency of its request
	outPort   int16 // route cached at the current router; −1 none
	vc        int16 // VC (queue) of the buffer it is in, then of the next one once granted
	outVC     int8
	nextPos   int8 // position in the VC sequence after the cached hop
	vcPos     int8 // position in the VC sequence; −1 before the first transit hop
	replyVC   int8 // request: injection VC reserved for its reply
	lhops     uint8
	ghops     uint8
	flags     uint8
	// dstGroup: dstRouter's group on a Dragonfly (0 otherwise), in what was
	// padding, so that the per-hop decisions (the contention counters, the
	// in-transit routing) read it without a topology lookup
	dstGroup uint16
	// aux: the free-list link while the packet is free; the UGAL/PB
	// comparison's cache while it waits at injection
	aux int32
	// mis: bits 0–1 where the first non-minimal decision was taken (cat*),
	// 2–3 the phase-A policy of the intermediate, 4–5 the ACOR-Packet level
	// or, for PAR/OLM, 4–6 the misroute kind of the cached route
	mis uint8
	// mech: bits owned by the attached mechanisms (claimPacketBits), in
	// what was padding: the packet stays 72 bytes
	mech uint16
}

// port is the state of one router port: its input side (buffers of its VCs,
// crossbar input) and its output side (crossbar output, FIFO, link).
//
// 32 bytes, two to a cache line: at h=8 the ports of all routers are megabytes
// that the allocator reads every cycle (cycles stay below 2³¹: warm-up plus
// measured cycles are at most 2·10⁸).
type port struct {
	txEnd int32 // the link is busy until (the last granted packet's departure + P)
	// the output may receive a packet across the crossbar from this cycle:
	// it is free to receive and its FIFO (input-queued: its link) has room
	readyAt int32
	inFree  int32 // the input may start a crossbar transfer from this cycle
	// no head of the input can request before this cycle (a lower bound kept
	// by inputArbitrate; 0 when unknown, MaxInt32 until a credit arrives)
	inWait  int32
	oTail   int32 // next slot of its ring of departure cycles (at pi·oCap)
	peer    int32 // far-end port (pi) of a transit port; −1 for node ports
	inCount int32 // packets in all VCs of the input
	// round-robin pointers (radix ≤ 128): the output arbiter's, its
	// injection inputs' under transit priority, the input arbiter's
	outPtr    int8
	outPtrInj int8
	inPtr     int8
	class     topology.PortClass
}

// buffer is one input VC buffer (a ring of packet ids) and, for the output of
// the same index, the credits of the downstream buffer it feeds.
//
// 32 bytes, two to a cache line (the slots reserved for replies in injection
// buffers are in Sim.resv).
type buffer struct {
	start, cap, head, len int32
	// the head packet, the cycle it can first move, and its route once
	// computed: the allocator reads these instead of the packet
	hd     int32
	hEntry int32 // cycles stay below 2³¹ (sim.warmup + sim.cycles ≤ 2·10⁸)
	hOut   int16 // −1: not routed yet
	hVC    int16 // the queue at the next router (router.queueing: up to 1<<qBits − 1)
	hNext  int8  // position in the VC sequence after the hop
	hReq   bool
	hFinal bool // the route cannot change while this head waits
}

// nodeAt is where a node attaches: its router and input port (pi).
type nodeAt struct {
	router, pi int32
}

// Arbitration policies.
const (
	arbRR uint8 = iota
	arbLRS
	arbAge
	arbRRVC // output stage: round-robin per downstream VC, then over the port
)

// Sim is one simulation: all of its state, no globals.
type Sim struct {
	cfg  config.Config
	topo topology.Topology
	// the Dragonfly-specific mechanisms (adaptive routings, Valiant's
	// intermediate groups, group-based traffic, Graph500 job placement) use
	// df and the Dragonfly facts below; df is nil on other topologies, where
	// New refuses those mechanisms
	df          *topology.Dragonfly
	groupSize   int // Dragonfly: routers per group
	p           int // Dragonfly: nodes per router
	firstGlobal int // Dragonfly: the first global port of every router
	groups      int // topology groups
	pat         *traffic.Pattern
	pat2        *traffic.Pattern // after the transient switch, or nil
	switchAt    int64
	// traffic.hotspotRate: each sender's fixed rate in millionths of a
	// flit per cycle, and its token bucket indexed by node (nil: the
	// senders are backlogged)
	hotRate int64
	hotTok  []int64
	// traffic.hotspotLinkRate: per node, the first cycle its sender may
	// generate its next packet (nil: backlogged or traffic.hotspotRate)
	hotNext []int64

	// HOTSPOT's window [hotFrom, hotTo) in cycles of the run: the senders
	// are backlogged only inside it (traffic.hotspotStart/End; 0, MaxInt64
	// when unset)
	hotFrom, hotTo int64
	rate2          float64 // packets per node per cycle after the switch (traffic.switchLoad), 0: no load step
	seq            vcs.Sequence
	routing        uint8
	metrics        routing.Metric // the routing's result metrics (its table entry)
	// the adaptive mechanisms' state (adaptive.go and the files it names)
	vl   valiant
	ug   ugal
	ov   occView
	pb   piggyBack
	acor acor
	cga  cga
	dq   damq   // DAMQ input buffers (damq.go)
	vq   voq    // router.voq's virtual output queues (voq.go)
	fv   flexVC // router.flexVC (flexvc.go)

	rn *recnSim // congestion.scheme=recn's sides (recnsim.go), nil without it

	// mechanism hooks and the attached mechanisms (mechanism.go)
	hk   hooks
	mech mechanisms
	// the priority class of router-sent control packets (ctlclass.go):
	// per port class, its first control VC (32: none)
	ctlBase [8]uint16
	// prioBase: per port class, the first VC the input stage serves apart
	// (ctlBase; isoBase with a strictly-lowest isolated class); prioOut:
	// the output stage looks for priority-class or lowest-class requests
	prioBase [8]uint16
	prioOut  bool
	cc       ctlClass
	// ctlP: the phits of a priority-class packet (its own length, Kim et
	// al.'s 1-flit control packets; s.P unless initCtlClass sets it);
	// ctlXbar its crossbar time; ctlShort: ctlP ≠ P, the per-hop tests
	// of packetPhits and phitsOn pay one branch otherwise
	ctlP     int32
	ctlXbar  int64
	ctlShort bool
	// the isolated class (ctlclass.go): per port class, its first VC (32:
	// none)
	isoBase [8]uint16
	iso     isoClass
	fg      flowGate // flow holds at per-destination source queues (messages.go)
	qc      *qcn     // QCN-Switch's probabilities (qcn.go), nil unless routing.name=QCN_SWITCH
	rpf     *qcnRP   // QCN-Switch's per-flow reaction points (qcnrp.go), nil unless routing.qcnReactionPoints
	// rerouteInj: the head of an injection VC is routed again at every
	// attempt (source-adaptive decisions, recomputation); rerouteAll: every
	// head at every attempt (in-transit adaptive)
	rerouteInj, rerouteAll bool
	completeA              bool // routing.completePhaseA (Valiant family)
	compare                bool // UGAL's comparison at injection (adaptive.go)
	// where each node attaches (topology.NodePort): its router and input
	// port pi, so the node paths need no arithmetic on a numbering
	nodeAt []nodeAt
	// group of each router on a Dragonfly (zeros otherwise): packet.dstGroup
	rgroup []uint16
	// class of each port pi: ports[pi].class in a dense array, for routing
	// decisions that do not otherwise touch the port
	pclass   []topology.PortClass
	reactive bool
	resv     []int32 // request-reply: per injection buffer, slots reserved for replies
	// input buffer per VC per port class, phits (as many classes as the
	// topology declares)
	bufCap []int32
	// VC offsets of the reply set: replyOffG for class 2 (the Dragonfly's
	// global; vcAt tells classes apart by number), replyOffL the most any
	// other class needs
	replyOffL int8
	replyOffG int8
	minPorts  []int   // scratch of Topology.MinimalPorts
	firstPos  [2]int8 // position of the first local [0] and global [1] hop of the VC sequence

	// ft: a fat tree, routed by destination host (D-mod-k), not router
	ft *topology.FatTree

	R, N, radix, P int
	W, M           int64
	now            int64
	ioq            bool
	xbarDur        int64 // crossbar transfer of a fully received packet
	// parked: data packets a mechanism dropped and will send again (SRP's
	// NACKed speculative packets, srp.go), freed meanwhile: in flight
	parked        int64
	xbar          int64
	iters         int
	inArb, outArb uint8
	// inPtrOnGrant: router.inputArbiter=rrgrant, the input stage's
	// round-robin pointer moves when its VC is granted (BookSim's separable
	// input-first allocator), not when it requests (FOGSim's)
	inPtrOnGrant   bool
	transitPrio    bool
	creditAtOutput bool // FOGSim v4 IOQ credit timing (see TIMING.md)
	ejGate         bool // FOGSim v5's ejection gate (router.ejection=fogsim, TIMING.md)
	outFogsim      bool // FOGSim v5's transit outputs (router.outputFifo=fogsim, TIMING.md)

	// VCs
	injVC, maxVC int
	vcCount      []int // VCs per port class
	nq           []int // queues per input port of each class: its VCs, × radix with router.voq
	reqVCs       int   // request-set size on injection ports (reactive); else injVC
	injSlots     int32 // packets an injection port holds over all its VCs
	injPolicy    uint8

	// per port pi and per buffer bi (arrays of structs: one cache line per
	// port touched by the allocator instead of one per field)
	ports []port
	bufs  []buffer
	// credits[po·maxVC+vc]: free phits downstream of output po on VC (with
	// router.voq, queue) vc (a dense array: the allocator checks it for
	// every request)
	credits []int32
	// ord: out-of-order deliveries per (source, destination) (order.go),
	// nil when not counted
	ord    *orderCheck
	qRing  []uint64 // input buffer slots: packet id | entry cycle<<32
	oRing  []int32  // per output FIFO, the departure cycles of its last oCap packets
	outCap int32    // output FIFO capacity in phits
	oCap   int32    // output FIFO ring length in packets (every port alike)
	oLen   []int32  // with short control packets (ctlShort): each oRing entry's phits
	lat    []int64  // link latency per port class
	// per router: bit mask (2 words, radix ≤ 128) of the inputs holding
	// packets, so idle routers and ports cost nothing
	inMask []uint64
	// vcBusy: per input port, the VCs whose buffers hold packets (bit v), so
	// the input arbiter visits only those (up to 32 queues per port; with
	// router.voq and router.queueing, up to 1<<qBits − 1 in vq.busy)
	vcBusy []uint32
	// heads waiting for credits sleep until one arrives: per output port,
	// the inputs of its router waiting on it (2 words), and one bit per
	// output port telling that it has waiters (small: read at every credit)
	cwIn, cwAny []uint64
	// timing wheels, indexed by cycle & wheelMask: packets arriving at an
	// input buffer (bi<<32 | packet), and credits arriving at an output (bi).
	// A packet on a link is in no buffer, so no router scans it in flight.
	arrivals  [][]uint64
	creditsIn [][]int32
	// packets leaving a router on an ejection port at that cycle, delivered
	// after the allocations (CIOQ) or before them (input-queued model)
	outEjects [][]int32
	ejects    [][]int32
	wheelMask int64
	// router.idleUpdates=fogsim: per router, the packets it holds as FOGSim
	// counts them (input buffers, links into it, output FIFOs), and the
	// departures by cycle (from<<32 | to+1, 0 for an ejection) that move them
	held  []int32
	moves [][]uint64

	// arbiters (round-robin pointers live in port)
	inStamp  []int64 // LRS
	outStamp []int64
	// router.outputArbiter=rrvc: per output port and downstream VC (queue),
	// the round-robin pointer over the inputs
	outPtrVC []int8
	clock    int64

	// allocation scratch (one router at a time)
	reqVC   []int16
	reqN    []int16
	reqList []int16
	reqOuts []int16

	// nodes
	gens     []rng.Stream
	rts      []rng.Stream // per router
	genThr   uint64
	bursty   bool
	chain    traffic.Bursty
	burstOn  []bool
	burstDst []int32
	srcQueue bool
	// Bernoulli generation by geometric gaps (see generateSkipping)
	geo      traffic.Geometric
	wakeups  [][]int32
	wakeMask int64
	nextGen  []int64
	sq       [][]int32 // per node source queue (only with SourceQueue)
	sqHead   []int32

	msgQueues // messages and per-destination source queues (messages.go)

	// packets
	pk   []packet
	free int32
	live int64

	// a partitioned run (parallel.go, engine/PARALLEL.md): the routers
	// [r0, r1) and nodes [n0, n1) this Sim steps (all of them unless it is
	// one partition of a run), and its side of the cut (nil in a
	// sequential run); threads: the partitions asked for (SetThreads),
	// seqNote: why a run asked to use several ran sequentially; reran:
	// a deadlock found in a window made it run again sequentially;
	// rMore: a partition's further router ranges (pairs, after [r0, r1):
	// a fat tree's subtree is a range per level)
	r0, r1, n0, n1 int
	rMore          []int
	xp             *partition
	threads        int
	seqNote        string
	reran          bool

	seed         uint64
	lastProgress int64
	watchdog     int64
	dl           detector // the stuck-head check (deadlock.go)
	st           counters
	msr          measure   // sim.autoWarmup, sim.precision (measure.go)
	wl           *workload // Graph500 job, or nil (workload.go)
	snap         *snapRec  // network snapshots (snapshot.go), nil unless Watch
}

// New builds a simulation from a validated config and a seed.
func New(cfg config.Config, seed uint64) (*Sim, error) {
	if errs := cfg.Validate(); len(errs) > 0 {
		return nil, errs
	}
	cfg.ApplyLatenciesNs() // Graph500 latencies given in ns follow the cycle time
	topo, err := topology.New(cfg.Topology.Params())
	if err != nil {
		return nil, err
	}
	return newSim(cfg, topo, seed)
}

// newSim builds a simulation of a validated config on topology topo (the one
// cfg.Topology describes, or, in tests, any other).
func newSim(cfg config.Config, topo topology.Topology, seed uint64) (*Sim, error) {
	e := routing.Get(cfg.Routing.Name)
	return newSimEntry(cfg, &e, topo, seed)
}

// newSimEntry is newSim running the routing entry e says (the table's entry
// of cfg.Routing.Name; in tests, an edited copy).
func newSimEntry(cfg config.Config, e *routing.Entry, topo topology.Topology, seed uint64) (*Sim, error) {
	df, _ := topo.(*topology.Dragonfly)
	if err := runsOn(cfg, e, topo, df != nil); err != nil {
		return nil, err
	}
	if err := topology.Check(topo); err != nil {
		return nil, err
	}
	if topo.Radix() > 128 {
		return nil, fmt.Errorf("topology %s: radix %d, the simulator supports at most 128 ports per router", topo.Name(), topo.Radix())
	}
	var err error
	s := &Sim{cfg: cfg, topo: topo, df: df, groups: topo.Groups(), seed: seed}
	s.ft, _ = topo.(*topology.FatTree)
	for i := range s.ctlBase {
		s.ctlBase[i], s.isoBase[i], s.cc.rBase[i] = 32, 32, 32 // no control VCs, no isolated class
	}
	s.R, s.N, s.radix = topo.Routers(), topo.Nodes(), topo.Radix()
	if df != nil {
		s.groupSize, s.p, s.firstGlobal = df.RoutersPerGroup(), df.NodesPerRouter(), df.FirstGlobalPort()
	}
	r := cfg.Router
	s.P = r.PacketSize
	s.W, s.M = int64(cfg.Sim.Warmup), int64(cfg.Sim.Cycles)
	s.ioq = r.Model == "ioq"
	s.xbar = int64(r.XbarLatency)
	s.xbarDur = int64(math.Ceil(float64(s.P) / r.Speedup))
	if !s.ioq {
		s.xbarDur = int64(s.P)
	}
	s.ctlP, s.ctlXbar = int32(s.P), s.xbarDur
	s.iters = r.Iterations
	s.inArb, s.outArb = arbKind(r.InputArbiter), arbKind(r.OutputArbiter)
	s.inPtrOnGrant = r.InputArbiter == "rrgrant" || r.InputArbiter == "rrhold"
	s.transitPrio = r.TransitPriority
	s.creditAtOutput = s.ioq && r.CreditTiming == "output"
	s.ejGate = s.ioq && r.Ejection == "fogsim"
	s.outFogsim = s.ioq && r.OutputFifo == "fogsim"
	switch r.InjectionPolicy {
	case "rand":
		s.injPolicy = 1
	case "jsq":
		s.injPolicy = 2
	}
	s.routing = uint8(e.Kind)
	s.reactive = cfg.Traffic.Reactive
	classes, err := cfg.ClassesOf(topo)
	if err != nil {
		return nil, err
	}
	s.bufCap, s.lat, s.vcCount = make([]int32, len(classes)), make([]int64, len(classes)), make([]int, len(classes))
	for i, c := range classes {
		s.bufCap[i], s.lat[i], s.vcCount[i] = int32(c.Buffer), int64(c.Latency), c.VCs
	}
	if s.seq, err = vcs.ForEntry(cfg.Topology.Kind, e, e.ResolvePhaseA(cfg.Routing.PhaseA)); err != nil {
		return nil, err
	}
	if err := vcs.CheckAcyclic(topo, s.seq); err != nil {
		return nil, fmt.Errorf("routing.name=%s on topology.kind=%s: %v", cfg.Routing.Name, cfg.Topology.Kind, err)
	}
	s.firstPos = [2]int8{int8(s.seq.Next(-1, topology.Local)), int8(s.seq.Next(-1, topology.Global))}
	for c, n := range s.seq.PerClass(len(classes)) {
		if topology.PortClass(c) == topology.Global {
			s.replyOffG = int8(n)
		} else {
			s.replyOffL = max(s.replyOffL, int8(n))
		}
	}

	tr := cfg.Traffic
	var net traffic.Network = nodesOnly{n: s.N, p: 1}
	if df != nil {
		net = df
	} else if fb, ok := topo.(*topology.FBFly); ok {
		net = nodesOnly{n: s.N, p: fb.C} // the router-shift patterns read c
	}
	if s.pat, err = newPattern(tr.Pattern, tr.AdvOffset, tr, net, seed); err != nil {
		return nil, err
	}
	s.hotFrom, s.hotTo = int64(tr.HotspotStart), math.MaxInt64
	if tr.HotspotEnd > 0 {
		s.hotTo = int64(tr.HotspotEnd)
	}
	if tr.SwitchCycle > 0 {
		if s.pat2, err = newPattern(tr.SwitchPattern, tr.SwitchAdvOffset, tr, net, seed); err != nil {
			return nil, err
		}
		s.switchAt = s.W + int64(tr.SwitchCycle)
	}
	rate := tr.Load / float64(s.P) // packets per node per cycle
	if tr.Reactive {
		rate /= 2 // requests get half the load; replies the other half
	}
	if s.pat2 != nil && tr.SwitchLoad > 0 {
		s.rate2 = rate * tr.SwitchLoad / tr.Load // the load step (tr.Load may be 0)
		if tr.Load == 0 {
			s.rate2 = tr.SwitchLoad / float64(s.P)
			if tr.Reactive {
				s.rate2 /= 2
			}
		}
	}
	msgPackets, perDst := tr.Messages()
	s.genThr = rng.Threshold(rate / float64(msgPackets)) // messages per node per cycle
	if tr.Process == "bursty" {
		s.bursty = true
		s.chain = traffic.NewBursty(rate, tr.BurstLength)
		s.burstOn = make([]bool, s.N)
		s.burstDst = make([]int32, s.N)
	}
	s.srcQueue = tr.SourceQueue
	if s.srcQueue {
		s.sq = make([][]int32, s.N)
		s.sqHead = make([]int32, s.N)
		s.initMessages(msgPackets, perDst)
		s.initAdmittance(tr.AdmittanceQueue)
	}
	if s.pat.Group(0) >= 0 && s.pat2 == nil { // UR1UR2's classes (validated: no switch)
		s.initGroups(msgPackets)
	}
	if tr.HotspotRate > 0 && tr.Pattern == "HOTSPOT" {
		s.initHotRate(tr.HotspotRate)
	}
	if tr.HotspotLinkRate && tr.Pattern == "HOTSPOT" {
		s.hotNext = make([]int64, s.N)
		for n := range s.hotNext {
			s.hotNext[n] = s.hotFrom // every sender in phase from the window's start
		}
	}

	s.injVC = s.vcCount[topology.Injection]
	scheme := cfg.Congestion.SchemeName()
	// the isolated class (Ideal's, CBCM's hotspot VC, SRP's speculative
	// VCs, strictly lowest but Ideal's by default: Kim et al. §IV-A,
	// §III-B; SRP(UGAL)'s routed by UGAL on a flattened butterfly, §V-C)
	// and the control VCs (Kim et al.'s 1-flit packets, §V-A; QCN's CNMs
	// the data's size, FOGSim v5; SRP's replies on a second copy), as the
	// validator counts them (config.MechanismVCs)
	if iso, low, adaptive := cfg.IsolatedClass(); iso {
		if err := s.initIsoClass(low, adaptive); err != nil {
			return nil, err
		}
		if scheme == "cbcm" {
			s.iso.aging = int64(cfg.Congestion.CbcmHotspotAging)
		}
	}
	if ctl, kim, replies := cfg.ControlClass(); ctl {
		if err := s.initCtlClass(kim, kim, replies); err != nil {
			return nil, err
		}
	}
	s.prioBase = s.ctlBase
	if s.iso.low {
		s.prioBase = s.isoBase
	}
	s.prioOut = s.cc.on || s.iso.low
	if err := s.initVoq(r.QueueScheme()); err != nil {
		return nil, err
	}
	s.maxVC = slices.Max(s.nq)
	if r.Queueing != "" {
		if err := s.initOrder("router.queueing"); err != nil {
			return nil, err
		}
	}
	if s.R*s.radix >= 1<<(30-qBits) {
		return nil, fmt.Errorf("topology %s: %d ports, the simulator supports fewer than %d", topo.Name(), s.R*s.radix, 1<<(30-qBits))
	}
	s.reqVCs = s.injVC
	if tr.Reactive {
		s.reqVCs = s.injVC / 2
	}
	s.initDamq()
	s.build()
	s.buildVoq()
	if e.Keeps(routing.PerCycle) && r.IdleUpdates == "fogsim" {
		s.held = make([]int32, s.R)
		s.moves = make([][]uint64, len(s.arrivals))
	}
	if df != nil {
		s.initAdaptive(cfg, e, df, s.vcCount[topology.Global])
	} else if fb, ok := topo.(*topology.FBFly); ok {
		s.initFBFly(cfg, fb)
	}
	if cfg.Router.FlexVC {
		if err := s.initFlex(cfg); err != nil {
			return nil, err
		}
	}
	switch e.Decide(cfg.Routing.Recompute) {
	case routing.EachInjectionAttempt:
		s.rerouteInj = true
	case routing.EachHopAttempt:
		s.rerouteAll = true
	}
	if s.vq.on { // decided when the packet is placed (voqPlace)
		// (router.injectionVoq=perQueue: at every attempt to place it,
		// voqSourceRoute)
		s.vq.retry = s.vq.perQ && s.rerouteInj && s.routing == routeUGAL && s.ug.fb != nil
		s.rerouteInj, s.rerouteAll = false, false
	}
	s.completeA = e.Uses("routing.completePhaseA") && cfg.Routing.CompletePhaseA
	s.metrics = e.Metrics
	s.injSlots = int32(s.injVC) * (s.bufCap[topology.Injection] / int32(s.P))
	if s.vq.split { // the VC's buffer is split over its queues
		s.injSlots *= int32(s.vq.n)
	}

	s.gens = make([]rng.Stream, s.N)
	for i := range s.gens {
		s.gens[i] = rng.New(seed, rng.Generator, uint64(i))
	}
	s.rts = make([]rng.Stream, s.R)
	for i := range s.rts {
		s.rts[i] = rng.New(seed, rng.Router, uint64(i))
	}
	s.free = -1
	s.r1, s.n1 = s.R, s.N
	maxLat := slices.Max(s.lat)
	s.watchdog = max(int64(cfg.Sim.Watchdog), 4*(maxLat+int64(s.P)+s.xbar))
	if err := s.initWorkload(); err != nil {
		return nil, err
	}
	if !s.bursty && !s.srcQueue && s.wl == nil && rate > 0 && s.nodeThr == nil {
		s.geo = traffic.NewGeometric(rate)
		s.startSkipping()
	}
	s.st.init(s)
	s.initMeasure()
	if e.Keeps(routing.Notifications) {
		if err := s.attachMechanism("qcn"); err != nil {
			return nil, err
		}
	}
	if scheme == "recn" { // the router's own queues (recnsim.go)
		if err := s.initRecn(&cfg); err != nil {
			return nil, err
		}
	} else if scheme != "none" { // congestion.scheme: ideal.go, ecn.go, cbcm.go, srp.go
		if err := s.attachMechanism(scheme); err != nil {
			return nil, err
		}
	}
	s.initDrainByVC()
	return s, nil
}

func newPattern(name string, advOffset int, tr config.Traffic, net traffic.Network, seed uint64) (*traffic.Pattern, error) {
	kind, err := traffic.ParseKind(name)
	if err != nil {
		return nil, err
	}
	var senders []int32
	if kind == traffic.HOTSPOT {
		if senders, err = tr.Senders(); err != nil {
			return nil, fmt.Errorf("traffic.hotspotSenders: %v", err)
		}
	}
	bg := traffic.UN
	allNodes := kind == traffic.HOTSPOT && tr.HotspotBackground == "UN"
	if kind == traffic.HOTSPOT && tr.HotspotBackground != "" && tr.HotspotBackground != "UR" {
		if bg, err = traffic.ParseKind(tr.HotspotBackground); err != nil {
			return nil, fmt.Errorf("traffic.hotspotBackground: %v", err)
		}
	}
	return traffic.New(traffic.Spec{Kind: kind, Background: bg, AdvOffset: advOffset, AdvSame: tr.AdvRouter == "same",
		AdvcFogsim: tr.AdvcFogsim, LocalOffset: tr.LocalOffset, MixUN: tr.MixUN, MixADVL: tr.MixADVL,
		MixPerNode: tr.MixPerNode, HotPercent: tr.HotPercent, HotRegion: tr.HotRegion,
		Hotspot: tr.HotspotNode, Senders: senders, Count: tr.HotspotCount, DrawSeed: uint64(tr.HotspotSeed), AllNodes: allNodes}, net, seed)
}

// runsOn refuses what the topology cannot run, as the tables declare it: a
// routing (routing.Entry.Topologies: the Dragonfly routings read global
// links and group tables) or a traffic pattern (traffic.Info.Topologies:
// ADV, ADVC, ADVL and MIX address groups and routers by Dragonfly
// numbering) that does not run on its kind, and the Graph500 job, placed on
// Dragonfly groups. Config validation refuses them first; this is the
// backstop for a graph given to newSim directly: a test's own graph
// configured as a Dragonfly runs only what runs on any topology.
func runsOn(cfg config.Config, e *routing.Entry, topo topology.Topology, df bool) error {
	kind := cfg.Topology.Kind
	if !df && kind == routing.Dragonfly {
		kind = "" // no kind: only what declares no topology runs
	}
	if errs := cfg.RunsOn(e, kind, topo.Name()); len(errs) > 0 {
		return errs
	}
	return nil
}

// nodesOnly is what a pattern that addresses nodes only (UN, HOT, PERM) is
// given of a topology without Dragonfly groups: its node count and nodes per
// router (1 but on a flattened butterfly, whose TORNADO patterns address
// routers; the group arithmetic of traffic.Pattern sees one router per group).
type nodesOnly struct{ n, p int }

func (t nodesOnly) Nodes() int                  { return t.n }
func (t nodesOnly) NodesPerRouter() int         { return t.p }
func (nodesOnly) RoutersPerGroup() int          { return 1 }
func (t nodesOnly) Groups() int                 { return t.n }
func (nodesOnly) LinkedGroups(router int) []int { return nil }

func arbKind(name string) uint8 {
	switch name { // rrgrant is rr with its pointer moved at grant (inPtrOnGrant)
	case "lrs":
		return arbLRS
	case "age":
		return arbAge
	case "rrvc":
		return arbRRVC
	}
	return arbRR
}

// build lays out ports, buffers, FIFOs and credit queues.
func (s *Sim) build() {
	nports := s.R * s.radix
	r := s.cfg.Router
	s.ports = make([]port, nports)
	s.inMask = make([]uint64, 2*s.R)
	s.vcBusy = make([]uint32, nports)
	s.cwIn = make([]uint64, 2*nports)
	s.cwAny = make([]uint64, (nports+63)/64)
	nbuf := nports * s.maxVC
	s.bufs = make([]buffer, nbuf)
	if s.reactive {
		s.resv = make([]int32, nbuf)
	}
	s.credits = make([]int32, nbuf)
	if s.inArb == arbLRS {
		s.inStamp = make([]int64, nbuf)
		for i := range s.inStamp {
			s.inStamp[i] = int64(i%s.maxVC) - int64(s.maxVC)
		}
	}
	if s.outArb == arbRRVC {
		s.outPtrVC = make([]int8, nports*s.maxVC)
	}
	if s.outArb == arbLRS {
		s.outStamp = make([]int64, nports*s.radix)
		for i := range s.outStamp {
			s.outStamp[i] = int64(i%s.radix) - int64(s.radix)
		}
	}
	s.outCap = int32(r.OutputBuffer)
	bufPhits := func(c topology.PortClass) int { return int(s.bufCap[c]) }
	nvc := func(c topology.PortClass) int { return s.nq[c] }
	s.oCap = int32(r.OutputBuffer/s.P) + 1 // +1: the packet on the link has left the ring
	if s.ctlShort {                        // as many short packets as fit (fifoReadyMixed)
		s.oCap = int32(r.OutputBuffer/int(s.ctlP)) + 1
	}
	var qTotal, oTotal int32
	s.pclass = make([]topology.PortClass, nports)
	for rt := 0; rt < s.R; rt++ {
		for port := 0; port < s.radix; port++ {
			pi := rt*s.radix + port
			c := s.topo.PortClass(rt, port)
			s.ports[pi].class, s.pclass[pi] = c, c
			s.ports[pi].peer = -1
			if c != topology.Injection {
				// an unconnected port (a mesh's edge) keeps peer −1 and
				// no credits: no route leads to it
				if pr, pp := s.topo.Link(rt, port); pr >= 0 {
					s.ports[pi].peer = int32(pr*s.radix + pp)
				}
			}
			perVC := int32(bufPhits(c) / s.P)
			for v := 0; v < nvc(c); v++ {
				bi := pi*s.maxVC + v
				slots := perVC
				if s.ctlShort && s.isCtlVC(c, v) { // the priority class's packets (phitsOn)
					slots = int32(bufPhits(c)) / s.ctlP
				}
				if c == topology.Injection && s.isCtlVC(c, v) && int32(pi) != s.cc.inj[rt] && !s.cc.nodeSent {
					slots = 0 // only the router's control injection input has one
				}
				s.bufs[bi].start, s.bufs[bi].cap = qTotal, slots
				qTotal += slots
				if c != topology.Injection && s.ports[pi].peer >= 0 {
					// the output's credits are the peer's input buffer, of
					// the same class (topology.Check)
					s.credits[bi] = int32(bufPhits(c))
				}
			}
			if s.ioq {
				oTotal += s.oCap
			}
		}
	}
	s.nodeAt = make([]nodeAt, s.N)
	for n := range s.nodeAt {
		rt, port := s.topo.NodePort(n)
		s.nodeAt[n] = nodeAt{router: int32(rt), pi: int32(rt*s.radix + port)}
	}
	s.rgroup = make([]uint16, s.R) // groups ≤ radix² + 1 (radix ≤ 128)
	if s.df != nil {
		for r := range s.rgroup {
			s.rgroup[r] = uint16(s.df.GroupOf(r))
		}
	}
	if s.cfg.Congestion.SchemeName() == "recn" {
		// RECN's sides (recnsim.go) replace the input buffers and output
		// FIFOs: their rings stay empty (the buffers keep their sizes,
		// which nothing under RECN fills)
		qTotal, oTotal = 0, 0
	}
	s.qRing = make([]uint64, qTotal)
	s.oRing = make([]int32, oTotal)
	if s.ctlShort {
		s.oLen = make([]int32, oTotal)
	}
	for i := range s.oRing {
		s.oRing[i] = math.MinInt32 / 2 // departed long ago
	}
	// events are queued at most a crossbar latency, a full output FIFO and a
	// link ahead
	maxLat := max(slices.Max(s.lat), int64(s.P)) + s.xbar + int64(r.OutputBuffer+s.P) + 2
	if s.cfg.Congestion.SchemeName() == "recn" {
		// RECN's sides (recnsim.go) queue only arrivals, a packet's head
		// landing a link's latency after it leaves its side: a slot keeps
		// its busiest cycle's capacity, so the wheel is kept short
		// (config.RecnWheelSlots)
		maxLat = config.RecnWheelSlots(slices.Max(s.lat))
	}
	size := int64(1)
	for size < maxLat {
		size <<= 1
	}
	s.wheelMask = size - 1
	s.arrivals = make([][]uint64, size)
	s.creditsIn = make([][]int32, size)
	s.outEjects = make([][]int32, size)
	s.ejects = make([][]int32, size)
	s.reqVC = make([]int16, s.radix)
	s.reqN = make([]int16, s.radix)
	s.reqList = make([]int16, s.radix*s.radix)
	s.reqOuts = make([]int16, s.radix)
}

// ErrCancelled is returned when the context is cancelled mid-run.
var ErrCancelled = errors.New("simulation cancelled")

// Progress is reported while a run goes.
type Progress struct {
	Cycle, Total int64
}

// Run simulates warm-up + measured cycles. onProgress (may be nil) is called
// every few thousand cycles from the simulating goroutine; Snapshot may be
// called from it for partial metrics.
//
// With SetThreads(n > 1) the run is split into partitions stepped by
// goroutines (parallel.go), with the same result; what the partitioned
// engine does not cover runs sequentially, the result's sequential field
// saying why.
func (s *Sim) Run(ctx context.Context, onProgress func(Progress)) (*result.Result, error) {
	start := time.Now()
	s.initDetector()
	if s.threads > 1 {
		if s.seqNote = s.parallelBlocker(); s.seqNote == "" {
			return s.runParallel(ctx, onProgress, start)
		}
	}
	res, err := s.runSeq(ctx, onProgress, start)
	if res != nil && s.seqNote != "" {
		res.Sequential = s.seqNote
	}
	return res, err
}

// runSeq is the sequential run, cycle by cycle.
func (s *Sim) runSeq(ctx context.Context, onProgress func(Progress), start time.Time) (*result.Result, error) {
	const every = 1024
	// sim.autoWarmup moves s.W, sim.precision s.M (measure.go)
	for s.now < s.W+s.M || s.extend() {
		s.Step()
		if s.now == s.msr.next {
			s.checkWarmup()
		}
		if s.wl != nil && s.wl.done() {
			break
		}
		// deadlock: nothing moved for the watchdog period, or (every few
		// cycles, deadlock.go) a transit head older than the stuck-head bound
		if s.live > 0 && s.now-s.lastProgress > s.watchdog {
			return s.deadlocked(s.watchdogReport())
		}
		if s.now&s.dl.mask == 0 && s.live > 0 {
			if d := s.stuckHeads(); d != nil {
				return s.deadlocked(d)
			}
		}
		if s.now%every == 0 {
			if ctx != nil && ctx.Err() != nil {
				return nil, ErrCancelled
			}
			if onProgress != nil {
				onProgress(Progress{Cycle: s.now, Total: s.W + s.M})
			}
		}
	}
	if s.snap != nil {
		s.takeSnapshot()
	}
	res := s.Snapshot()
	if s.msr.auto || s.msr.precision > 0 {
		res.Quality = s.assess(res)
	}
	res.CPUSeconds = time.Since(start).Seconds()
	return res, nil
}

// Step simulates one cycle: arrivals and credits land, the mechanisms'
// control messages and cycle hooks run, every router with packets (ascending
// id) allocates its crossbar, output FIFO heads go onto their links, then
// every node's generator runs, as FOGSim does. (FOGSim drains each router's FIFOs
// right after its allocation; a drain only affects later cycles, so doing
// them after all allocations is the same.)
func (s *Sim) Step() {
	if s.rn != nil { // RECN's sides replace the buffers (recnsim.go)
		if s.snap != nil && s.now%s.snap.every == 0 { // the live view's cycle hook: RECN's cycle runs no other
			if s.xp != nil {
				s.snapPartition() // a partition's switches and hosts (parallel_snapshot.go)
			} else {
				s.takeSnapshot()
			}
		}
		s.recnStep()
		s.generate()
		s.now++
		return
	}
	s.land()
	if s.held != nil {
		s.moveHeld()
	}
	s.startCycle()
	for r := s.r0; r < s.r1; r++ {
		if s.inMask[2*r]|s.inMask[2*r+1] != 0 {
			s.stepRouter(r)
		}
	}
	for i := 0; i < len(s.rMore); i += 2 {
		for r := s.rMore[i]; r < s.rMore[i+1]; r++ {
			if s.inMask[2*r]|s.inMask[2*r+1] != 0 {
				s.stepRouter(r)
			}
		}
	}
	s.drain()
	s.generate()
	s.now++
}

// startCycle runs the mechanisms' work at the start of a cycle, after the
// arrivals: control messages due now, then the cycle hooks (PB's broadcast,
// ACOR-Switch's levels).
func (s *Sim) startCycle() {
	if s.hk.cycle != nil || s.mech.ctl != nil {
		s.mechCycle()
	}
}

// moveHeld applies the departures of the last cycle and of this one to the
// packets each router holds, as FOGSim's messagesInQueuesCounter sees them
// at this cycle's switch loop: a packet leaving router u at cycle d (its
// output FIFO sends it, or its node consumes it) is u's through cycle d; it
// is in the input buffer of the next router v from cycle d when v comes
// after u in the loop (FOGSim inserts it at send time), from d+1 otherwise.
func (s *Sim) moveHeld() {
	prev := (s.now - 1) & s.wheelMask
	for _, e := range s.moves[prev] {
		from, to := int32(e>>32), int32(uint32(e))-1
		s.held[from]--
		if to >= 0 && to < from {
			s.held[to]++
		}
	}
	s.moves[prev] = s.moves[prev][:0]
	for _, e := range s.moves[s.now&s.wheelMask] {
		if from, to := int32(e>>32), int32(uint32(e))-1; to > from {
			s.held[to]++
		}
	}
}

// slot packs a packet id and the cycle its head is ready (cycles < 2³¹).
func slot(k int32, entry int64) uint64 { return uint64(uint32(k)) | uint64(entry)<<32 }

// Now is the current cycle.
func (s *Sim) Now() int64 { return s.now }

// InFlight is the number of packets generated and not yet delivered: data
// (parked ones included) and the mechanisms' control packets (the result's
// in-flight count is the data only).
func (s *Sim) InFlight() int64 { return s.live + s.parked }
