package config

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"phitsim/engine/routing"
	"phitsim/engine/topology"
	"phitsim/engine/vcs"
)

// MaxStateBytes bounds the memory a configuration may need for one run: a
// WebAssembly tab (one Web Worker per run) has at most 4 GiB, and a run that
// cannot get its memory should be refused with a reason, not crash.
const MaxStateBytes = 3 << 30

// Sizes of the engine's records: sim's TestRecordSizes checks the exported
// ones against unsafe.Sizeof of the records (it fails when one grows), and
// TestMemoryEstimateBoundsAllocation the estimate against what they
// allocate.
const (
	PacketBytes = 72 // sim.packet
	PortBytes   = 32 // sim.port
	BufferBytes = 32 // sim.buffer
	StreamBytes = 16 // rng.Stream (PCG)
	SampleBytes = 72 // result.Sample
	procBytes   = 104
	sliceBytes  = 24 // a slice header (timing-wheel slots, source queues)
	// growth: a slice grown by append holds up to twice its length, and the
	// copy being replaced lives until the next collection
	growth = 2
	// JSON text of one time-series sample and one histogram bin, indented as
	// the CLI writes them (sim's TestMemoryEstimateBoundsAllocation
	// measures them)
	sampleJSONBytes = 160
	binJSONBytes    = 16
)

// Sizes of a finished run's result.Result (engine/sweep's
// TestResultBytesBoundRetainedHeap measures them, in the CLI's results and
// in those the page decodes from its workers' msgpack).
const (
	// result.Result (2.7 KB with its configuration: the allocator's
	// 3,072-byte size class) with its configuration's strings, the hop
	// histogram, the phase-A shares and names, the Graph500 summary, the
	// busiest link
	resultBytes = 3<<10 + 768
	levelBytes  = 96 // result.Graph500Level
	usageBytes  = 16 // result.UsageSample
	// the Graph500 usage series: at most 501 samples (graph500.Job.Report
	// merges intervals beyond 500), appended: a capacity of 512
	usageCap = 512
	// ACOR-Switch: a sample's routers per level (three int32 in a 16-byte
	// block) and a router's final level (a byte)
	acorSampleBytes, acorRouterBytes = 16, 1
)

// MemoryPart is one term of the memory estimate: what it holds, its bytes,
// and the parameter that makes it grow (the one to reduce). Full terms are
// worst cases that a run reaches only when it fills them (every buffer slot
// and link holding a packet, every packet generated still queued, every
// histogram bin hit); the others are allocated whatever the traffic.
type MemoryPart struct {
	Path  string
	What  string
	Bytes int64
	Full  bool
}

// Memory estimates, term by term, what one run of the configuration
// allocates at most, garbage included: the simulator's state (sim.New), what
// the run adds (packets, source queues, timing-wheel events, time series)
// and its result with the result's JSON text, so that it bounds the peak of
// the heap. It sees the configuration as the simulator runs it (Graph500
// latencies in ns converted to cycles). Nil when the topology fields are out
// of range (their own errors say why).
func (c *Config) Memory() []MemoryPart {
	run := *c
	run.ApplyLatenciesNs()
	return run.memory()
}

// StateBytes is the total of Memory.
func (c *Config) StateBytes() int64 {
	var b int64
	for _, p := range c.Memory() {
		b += p.Bytes
	}
	return b
}

// sized reports whether the fields that size the network, its packets and
// its records are in range (out of range, their own errors say why and
// nothing is estimated).
func (c *Config) sized() bool {
	_, ok := c.Topology.Sizes()
	return ok && c.Router.PacketSize >= 1 && c.Sim.Interval >= 1 && c.Sim.HistMax >= 0
}

// samples is the length of a run's time series: its cycles over
// sim.interval, and the words that say so. A Graph500 run has no warm-up
// (it starts with the BFS) and ends with it: sim.cycles is a cap that its
// samples reach only in the worst case.
func (c *Config) samples() (nb float64, cycles int64, what string) {
	// sim.precision may measure up to its cap
	cycles = int64(c.Sim.Warmup) + int64(c.Sim.MeasuredCap())
	if c.Graph500() {
		cycles = int64(c.Sim.Cycles)
	}
	nb = float64(cycles/int64(c.Sim.Interval) + 1)
	return nb, cycles, fmt.Sprintf("time series of %.0f samples (%d cycles / sim.interval)", nb, cycles)
}

// ClassIntervalBytes is a result.ClassInterval: a HOTSPOT's background per
// interval when the hotspot starts during the run (traffic.hotspotStart).
const ClassIntervalBytes = 16

// bgSeries: the run keeps a HOTSPOT's background per interval
// (result.HotspotClasses.Series): a hotspot that starts during the run.
func (c *Config) bgSeries() bool {
	t := &c.Traffic
	return t.HotspotStart > 0 && (t.Pattern == "HOTSPOT" || t.SwitchCycle > 0 && t.SwitchPattern == "HOTSPOT")
}

// part is a MemoryPart whose bytes, computed in float64 from parameters at
// their extremes, stay summable without overflow.
func part(path, what string, b float64, full bool) MemoryPart {
	return MemoryPart{Path: path, What: what, Bytes: int64(math.Min(b, math.MaxInt64/16)), Full: full}
}

func (c *Config) memory() []MemoryPart {
	t, r, sm, tr := &c.Topology, &c.Router, &c.Sim, &c.Traffic
	if !c.sized() {
		return nil
	}
	var parts []MemoryPart
	add := func(path, what string, b float64, full bool) {
		parts = append(parts, part(path, what, b, full))
	}
	kind, _ := topology.KindOf(t.Kind) // sized: known
	sz := kind.Sizes(t.Params())
	G, R, N, radix := int64(sz.Groups), int64(sz.Routers), int64(sz.Nodes), int64(sz.Radix)
	ports := R * radix
	_, _, gv := c.VCs()
	classes := c.Classes()
	maxVC := int64(0)
	for _, cl := range classes {
		maxVC = max(maxVC, int64(cl.VCs))
	}
	queues := int64(1) // router.voq: a port's queues per VC, one per output
	split := false     // router.queueing 4q, voqnet: the queues split the VC's buffer
	switch r.QueueScheme() {
	case "voqsw":
		queues = radix
	case "4q":
		queues, split = 4, true
	case "voqnet":
		queues, split = N, true
	}
	maxVC *= queues
	P := int64(r.PacketSize)
	g500 := c.Graph500()
	e := routing.Get(c.Routing.Name)
	pb, acor := e.Keeps(routing.PiggyBack), e.Keeps(routing.Levels)
	pkt := float64(PacketBytes * growth) // a packet in the pool
	if g500 {
		pkt += 8 * growth // its Graph500 metadata (sim.pktMeta)
	}

	// input buffer rings (a slot per packet) and output FIFO rings (a
	// departure cycle per packet). slots: the packets the input buffers can
	// hold; ring: their ring slots, more with router.damq, where each VC's
	// ring can hold its reserve and the whole shared pool while credits keep
	// the port to its memory (VCs × the per-VC buffer)
	var slots, ring int64
	for i, n := range kind.Ports(t.Params()) {
		vcs, buf := int64(classes[i].VCs), int64(classes[i].Buffer)
		held, perVC := vcs*(buf/P), buf/P
		if r.Damq && i > 0 {
			_, most := r.DamqBuffer(int(buf), int(vcs))
			held, perVC = vcs*buf/P, int64(most)/P
		}
		if split { // equal static partitions, at injection too
			perVC = perVC / queues
			held = vcs * queues * perVC
		} else if i > 0 || r.Voq && r.InjectionVoq == "perQueue" {
			// router.voq: each transit queue its own buffer; an injection
			// VC's queues share it, or with router.injectionVoq=perQueue
			// each has its own too
			held *= queues
		}
		slots += n * held
		ring += n * vcs * queues * perVC
	}
	oCap := int64(0)
	if r.Model == "ioq" {
		oCap = int64(r.OutputBuffer)/P + 1
	}
	if c.Congestion.SchemeName() != "recn" { // RECN's sides replace them (sim.build)
		add(c.largestBuffer(), "buffer rings", float64(ring*8+ports*oCap*4), false)
	}
	// the packets: credits bound those in transit (on a link, or in an
	// output FIFO, a packet holds a slot of the input buffer downstream), so
	// at most one per input buffer slot, plus those leaving for the nodes
	// (ejection FIFOs and links have no credits)
	ejecting := N * (oCap + int64(t.InjectionLatency)/P + 2)
	packets := float64(slots + ejecting)
	recn := c.Congestion.SchemeName() == "recn"
	var lat int64 // the links' latency
	for _, cl := range classes {
		lat = max(lat, int64(cl.Latency))
	}
	if recn {
		// RECN's sides hold packets beyond the input buffers (egress
		// sides, admittance queues): the packets alive at once, bounded
		// by what the hosts generate (recnPackets)
		rp := c.recnPackets(ports, N, slots+ejecting)
		packets = rp.live
		// the pool (sim.alloc) grows by append, a large slice by a
		// quarter: its capacity, the copy being replaced and the one
		// before it, alive until the next collection (1.25 + 1 + 0.8
		// lengths; a stalled network, where the bound is reached, keeps
		// them: TestRECNMemoryStalled)
		add(rp.path, fmt.Sprintf("up to %.3g packets alive (%s)", rp.live, rp.how), packets*PacketBytes*RecnPoolCopies, true)
		// the arrivals wheel (sim.build): RecnWheelSlots slots, each
		// keeping its busiest cycle's capacity, at most a packet landing
		// from every link (ports and interfaces) in a cycle, counted twice
		add("congestion.scheme", "RECN's arrivals wheel when every link lands a packet in the same cycle",
			float64(RecnWheelSlots(lat)*(ports+N))*8*2*growth, true)
	} else {
		add(c.largestBuffer(), fmt.Sprintf("packets when every buffer slot of the %d routers holds one", R), packets*pkt, true)
		// the timing wheels' events: an arrival or ejection per packet, a
		// credit per slot, PiggyBack's riders; a wheel slot keeps the
		// capacity of its busiest cycle, counted twice
		ev := packets*8 + float64(slots)*4
		if pb && c.Routing.PbBroadcast == "piggyback" {
			ev += packets * 16
		}
		add(c.largestBuffer(), "timing-wheel events when every buffer slot holds a packet", ev*2*growth, true)
	}
	// router.queueing, when set, counts out-of-order packets (sim's
	// initOrder, up to MaxOrderNodes hosts): per (source, destination) pair
	// the next number, the highest delivered and a flag (9 bytes), and per
	// packet id its number, in a slice grown by append. Validate fills the
	// field for its default, so the term is counted whenever the counters
	// could be kept
	if N <= MaxOrderNodes {
		add("router.queueing", fmt.Sprintf("out-of-order counters of %d × %d host pairs (when router.queueing is set)", N, N), float64(N*N)*9+packets*4*growth, false)
	}

	// ports, VCs, routers, nodes, topology tables: grow with the network
	perVC := float64(BufferBytes + 4 + 4 + 8 + 8)                 // buffer, credits, request-reply reservations, LRS stamps, adaptive counters
	perPort := float64(PortBytes+4+16+1+1+8+8) + 8*float64(radix) // vcBusy (32 queues), credit waiters, classes; + adaptive tables, topology.Check, LRS output stamps
	// router.damq: per output VC and port, the phits held downstream
	if r.Damq {
		perVC += 4
		perPort += 4
	}
	// router.voq: per queue its injection VC count (and a bit of its port's
	// busy mask), per port its mask's rounding to words and its input
	// stage's pointer
	if queues > 1 {
		perVC += 4 + 1.0/8
		perPort += 8 + 2
	}
	perRouter := float64(StreamBytes + 16 + 8*3 + 17 + 1)
	perNode := float64(StreamBytes + 8 + 8 + 5 + 4 + 4 + sliceBytes + 4 + 8) // generators, attachments, patterns, source queues
	net := float64(ports*maxVC)*perVC + float64(ports)*perPort + float64(R)*perRouter + float64(N)*perNode +
		float64(kind.TableBytes(t.Params()))
	if t.Kind == "dragonfly" { // the adaptive routings' state (sim.initAdaptive): PB and ACOR per router, PiggyBack's link table
		net += float64(R)*(12*float64(t.H*gv)+8*float64(t.A)) + float64(G*G)*4
	}
	if g500 {
		net += float64(N)*(procBytes+8+16+4+4) + float64(G)*16 // at most every node runs a process
	}
	add("topology", "ports, VCs, routers, nodes and the topology's tables", net+float64(radix*radix*2)+512<<10, false)

	// timing wheels (sim.build): a slot per cycle of horizon in each of
	// four wheels (five with PiggyBack's riders)
	horizon := int64(max(t.LocalLatency, t.GlobalLatency, t.InjectionLatency, r.PacketSize)+r.XbarLatency+r.OutputBuffer+r.PacketSize) + 2
	wheel := int64(1)
	for wheel < horizon {
		wheel <<= 1
	}
	if recn {
		wheel = RecnWheelSlots(lat)
	}
	nw := int64(4)
	if pb && c.Routing.PbBroadcast == "piggyback" {
		nw++
	}
	add(c.horizonPath(), "timing wheels", float64(wheel*nw*sliceBytes), false)

	// PiggyBack: every router's saturation bits for each cycle of the local
	// link latency (sim.adaptive's satHist)
	if pb {
		add(c.nsPath("workload.localNs", "topology.localLatency"), "PiggyBack's history of saturation bits",
			float64((int64(t.LocalLatency)+1)*R*8), false)
	}

	// the contention counters (sim's initContention): a counter per port,
	// the counted output per buffer, a byte per router and group (the
	// minimal output toward each group), and a wheel of the tails' releases (at
	// most one pending per buffer; a slot keeps its busiest cycle's
	// capacity, counted twice); filtered adds an average and its cycle per
	// port and the powers of its α
	if trigger, path := c.contentionTrigger(); trigger != "" {
		bufs := float64(ports * maxVC)
		b := allocBytes(float64(ports+G)*4) + allocBytes(bufs*2) + allocBytes(float64(wheel*sliceBytes)) + bufs*8*2*growth +
			allocBytes(float64(R*G)) // the minimal output per router and destination group
		if trigger == "filtered" {
			b += 2*allocBytes(float64(ports)*8) + 2001*8*growth
		}
		add(path, "contention counters", b, false)
		if trigger == "ectn" {
			// ECtN (sim's initECtN): per router and group its live and
			// received partial counters, the broadcasts in flight (one a
			// period, for a local-link latency), the group sums, and the
			// counted group per buffer (named by the trigger: the
			// validator keeps the snapshots to 64, so the network's size
			// makes it grow, and another trigger is what shrinks it)
			snaps := c.ectnSnapshots()
			add(path, fmt.Sprintf("ECtN's partial counters: %d snapshots in flight (topology.localLatency / routing.ectnPeriod + 1) of %d routers × %d groups", snaps, R, G),
				float64(snaps+2)*allocBytes(float64(R*G*2))+allocBytes(float64(G*G*4))+allocBytes(bufs*2), false)
		}
	}

	// QCN-Switch (sim's initCtlClass and qcn.attach): the CNMs' control VCs
	// above the data VCs (the minimal sequence per transit class, one VC on
	// each injection port, sized only at each router's control injection
	// input), every slot able to hold a packet and its wheel events; per
	// port the probability, counters and last feedback (29 bytes); group
	// 0's probabilities every sim.interval (the transient record's, or
	// without a pattern switch result.SeriesProbabilities over the run)
	if e.Keeps(routing.Notifications) {
		seq, _ := vcs.ForKind(t.Kind, "MIN", "RRG-Sw")
		per := seq.PerClass(len(classes))
		var ctl, extra int64
		for i, n := range kind.Ports(t.Params()) {
			if i > 0 {
				ctl += n * int64(per[i]) * int64(classes[i].Buffer) / P
				extra = max(extra, int64(per[i]))
			}
		}
		ctl += R * int64(r.InjectionBuffer) / P
		b := float64(ctl)*8 + float64(ports*extra)*perVC + float64(ports)*29
		// per interval: the float32 values, their slice header in the
		// trace (grown by append: about 3 headers) and in the result's
		// copy, and their indented JSON text (a value up to 24 bytes with
		// its indentation, the compact and indented texts each in a
		// growing buffer: 4 copies); one more for the run's end
		vals := int64(t.A) * (radix - int64(t.P))
		b += (float64(sm.Cycles+sm.Warmup)/float64(sm.Interval)+1)*float64(vals*(4+4*24)+4*sliceBytes+4*24) + sliceBytes
		add("routing.name", "QCN-Switch's CNM buffers, probabilities and congestion points", b, false)
		add("routing.name", "QCN-Switch's CNMs when every CNM buffer slot holds one", float64(ctl)*(pkt+12*2*growth), true)
		// the reaction points (sim's qcnRP): per limiter the flow, three
		// rates, two counters and two stage counts (52 bytes), per node
		// its count of busy limiters and, with jitter, its random stream
		// (16 bytes)
		if rp := c.QCNReaction(); rp.On {
			b := 5*allocBytes(float64(N*int64(rp.Flows))*8) + 3*allocBytes(float64(N*int64(rp.Flows))*4) + allocBytes(float64(N)*4)
			if rp.Jitter != 0 {
				b += allocBytes(float64(N) * 16)
			}
			add("routing.qcnRpFlows", fmt.Sprintf("reaction points: %d nodes × %d limiters", N, rp.Flows), b, false)
		}
	}

	// Kim et al.'s schemes (sim's initCtlClass with short packets): the
	// control packets are 1 flit, so each control VC's ring has a slot per
	// phit of its buffer (the minimal sequence per transit class, one VC on
	// every injection port; SRP has two copies, requests and replies) and
	// each output FIFO's ring an entry and its length per phit of
	// router.outputBuffer
	var ctlSlots int64 // the 1-flit control packets the control VCs can hold
	if sc := c.Congestion.SchemeName(); sc == "ecn" || sc == "srp" || sc == "cbcm" {
		seq, _ := vcs.ForKind(t.Kind, "MIN", "RRG-Sw")
		per := seq.PerClass(len(classes))
		var slots int64
		for i, n := range kind.Ports(t.Params()) {
			if i > 0 {
				slots += n * int64(per[i]) * int64(classes[i].Buffer)
			}
		}
		slots += N * int64(r.InjectionBuffer)
		if sc == "srp" {
			slots *= 2
		}
		ctlSlots = slots
		fifo := ports * (int64(r.OutputBuffer) + 1) * 8
		add("congestion.scheme", "the 1-flit control packets' VC slots (one per phit) and output FIFO entries", float64(slots*8+fifo), false)
	}
	// ECN's and SRP's per-flow state, N × N source–destination flows
	// (sim's ecn.attach: the inter-packet delay, the last packet's tail and
	// the delay's start, busy; srp.attach: the message's packets current,
	// left and out, granted, its start and its grant's t_g, the first and
	// last run of its pending messages' sizes) and the flow hold both keep
	// at the source (sim's needFlowHolds); CBCM's (cbcmMemory) counts its
	// own
	if sc := c.Congestion.SchemeName(); sc == "ecn" || sc == "srp" {
		nf := float64(N) * float64(N)
		perFlow, perNode := 3*8+1+8.0, 8+8+8.0 // ECN: ipd, tail, since, busy; the hold; becnTo, feedEnd, the wake
		if sc == "srp" {
			// SRP; the hold; the transmission slots, tRes, the wake, the pool of runs and its free list
			perFlow, perNode = 3*4+1+8+8+2*4+8, sliceBytes+8+8+sliceBytes+4
		}
		add("congestion.scheme", fmt.Sprintf("%s's per-flow state at the sources (%d × %d flows)", strings.ToUpper(sc), N, N),
			nf*perFlow+float64(N)*perNode, false)
		if sc == "srp" {
			// the sizes of the messages queued behind each flow's current
			// one (sim's srpSizes): runs of 12 bytes in per-node pools
			// grown by append
			runs, how := c.SRPPendingRuns()
			add("traffic.sourceQueue", fmt.Sprintf("SRP's pending message sizes: up to %.3g runs (%s)", runs, how), runs*12*growth, true)
			// the granted messages' transmission slots at their sources
			// (sim's srp.book, 24 bytes each, grown by append)
			add("congestion.scheme", "SRP's transmission slots when every flow has a granted message", c.SRPSlots()*24*growth, true)
		}
	}

	if recn {
		parts = append(parts, c.recnMemory(ports, N, R, radix, lat, slots+ejecting)...)
	}

	// time series: counters per interval (allocated by sim.New), the
	// result's samples (a slice grown by append: its copies add up to about
	// 5 times it) and their JSON text (compact, then indented, each in a
	// growing buffer)
	nb, cycles, what := c.samples()
	counters, perSample := 4*8.0, float64(5*SampleBytes+4*sampleJSONBytes)
	if acor {
		counters += 8 + 12
		perSample += 5*24 + 16 + 4*120 // routers per level: their slice and JSON
	}
	if g500 {
		perSample += 8 * 5 // the job's usage per interval
	}
	if e.Keeps(routing.Notifications) {
		counters += 8           // QCN-Switch: the CNMs generated per interval
		perSample += 5*8 + 4*24 // result.SeriesCNMs (grown by append) and its JSON text
	}
	if c.bgSeries() {
		counters += 2 * 8                        // the background's packets and latency per interval
		perSample += 5*ClassIntervalBytes + 4*64 // result.hotspot.series (grown by append) and its JSON text
	}
	add("sim.interval", what, nb*counters, false)
	add("sim.interval", what+" in the result and its JSON text", nb*perSample, g500)

	// a partitioned run's copies of the statistics and wheels, at most
	if a := c.PartitionAllowance(); a > 0 {
		add("sim.interval", "a partitioned run's copies of the statistics (phitsim run -threads), at most", float64(a), true)
	}

	// latency histogram: the counters, and the result's copy and its JSON
	// text when every bin is hit
	add("sim.histMax", "latency histogram", float64(sm.HistMax)*8, false)
	add("sim.histMax", "latency histogram in the result when every bin is hit", float64(sm.HistMax)*(8+4*binJSONBytes), true)

	// source queues: in the worst case every packet generated stays queued
	queued := 0.0
	if tr.SourceQueue {
		rate := c.peakLoad() / float64(P) // packets per node and cycle, as sim.New draws them, at the run's highest load
		if tr.Reactive {
			rate /= 2 // requests; replies go straight to the VC reserved for them
		}
		packets, perDst := tr.Messages()
		m := float64(packets)
		perNode := rate*float64(cycles)*1.05 + 8 + m // + the message being queued
		queued = perNode * float64(N)
		add("traffic.sourceQueue", fmt.Sprintf("source queues holding up to %.3g packets (traffic.load over %d cycles, none injected)", perNode*float64(N), cycles),
			perNode*float64(N)*(pkt+growth*4), true)
		if perDst {
			// a FIFO (slice header, head) and a round-robin entry per
			// destination with packets: at most one per message queued
			fifos := min(perNode/m+1, float64(N)) * float64(N)
			add("traffic.sourceQueue", fmt.Sprintf("up to %.3g per-destination queues", fifos), fifos*(24+4+8+growth*8), true)
		}
	}

	if c.Congestion.SchemeName() == "cbcm" {
		// the packet pool: the packets in the network, in the source
		// queues, and the control packets
		pool := packets + queued + float64(ctlSlots)
		parts = append(parts, c.cbcmMemory(ports, N, R, maxVC, pool, cycles)...)
	}
	return parts
}

// contentionTrigger is the contention trigger a run keeps counters for
// (sim's initContention: routing.trigger of PAR and OLM,
// routing.injectionTrigger of UGAL and PB) and its field; "" for none.
func (c *Config) contentionTrigger() (trigger, path string) {
	switch c.Routing.Name {
	case "PAR", "OLM":
		trigger, path = c.Routing.Trigger, "routing.trigger"
	case "UGAL", "PB":
		trigger, path = c.Routing.InjectionTrigger, "routing.injectionTrigger"
	}
	switch trigger {
	case "base", "filtered", "hybrid", "ectn":
		return trigger, path
	}
	return "", ""
}

// ectnPeriod is routing.ectnPeriod as the simulator runs it (0: the
// thesis's 100 cycles).
func (c *Config) ectnPeriod() int64 {
	return int64(cmp.Or(c.Routing.EctnPeriod, 100))
}

// ectnSnapshots is the number of ECtN broadcasts the simulator keeps in
// flight: a local-link latency's worth of periods, plus one.
func (c *Config) ectnSnapshots() int64 {
	return int64(c.Topology.LocalLatency)/c.ectnPeriod() + 1
}

// ResultParts lists, term by term, what one finished run's result.Result
// keeps in memory at most, as sweep.Run keeps it and as the page decodes it
// from a worker, with the parameter that makes each term grow
// (Path "" for the part every run keeps whatever its parameters): the page
// and the CLI keep every run of an experiment, and sweep.Spec.CheckResults
// bounds their sum. Nil when the sizes are out of range (their own errors
// say why).
func (c *Config) ResultParts() []MemoryPart {
	if !c.sized() {
		return nil
	}
	sz, _ := c.Topology.Sizes()
	R := sz.Routers
	nb, _, what := c.samples()
	// the samples at their length (sweep.Run trims the slack of their
	// appending, the page decodes them); a router's injections (fairness)
	series, router := allocBytes(nb*SampleBytes), 8.0
	if c.bgSeries() {
		series += allocBytes(nb * ClassIntervalBytes)
	}
	if e := routing.Get(c.Routing.Name); e.Has(routing.AcorLevels) { // the levels per interval and per router
		series, router = series+nb*acorSampleBytes, router+acorRouterBytes
	}
	fixed := float64(resultBytes)
	parts := []MemoryPart{
		part("sim.histMax", "latency histogram when its last bin is hit", allocBytes(float64(c.Sim.HistMax)*8), true),
		part("sim.interval", what, series, c.Graph500()),
		part("topology", fmt.Sprintf("counts of each of the %d routers", R), float64(R)*router, false),
	}
	if nb := c.TransientBins(); nb > 0 {
		// three counts a bin, in the simulator and in the result
		parts = append(parts, part("traffic.switchCycle", "transient record", 2*allocBytes(float64(nb)*3*8), false))
		if c.Traffic.SwitchLoad > 0 || c.Routing.Name == "ACOR" || c.Routing.Name == "PB_ACOR" {
			// generated and delivered per bin; ACOR-Switch's levels (3 int32
			// and group 0's a routers a bin)
			parts = append(parts, part("traffic.switchLoad", "load-step record", 2*allocBytes(float64(nb)*(2*8+3*4+float64(c.Topology.A))), false))
		}
	}
	if c.Graph500() {
		fixed += usageCap * usageBytes
		// the BFS stops after workload.maxLevels levels
		parts = append(parts, part("workload.maxLevels", "BFS levels", float64(c.Workload.MaxLevels+1)*levelBytes, true))
	}
	return append(parts, part("", "configuration and metrics", fixed, false))
}

// The transient record (traffic.switchCycle > 0) starts TransientPrev cycles
// before the switch and runs to the end of the measured window, at most
// TransientAfter cycles after the switch (FOGSim's transientRecordPrevCycles
// and default transientRecordCycles; traffic.switchRecord sets another), in
// bins of TransientBin cycles.
const (
	TransientBin   = 10
	TransientPrev  = 100
	TransientAfter = 10000
)

// TransientRecord is how long the transient record runs after the switch
// (traffic.switchRecord; 0: TransientAfter).
func (c *Config) TransientRecord() int {
	if c.Traffic.SwitchRecord > 0 {
		return c.Traffic.SwitchRecord
	}
	return TransientAfter
}

// TransientBins is the number of bins of the transient record (0 without a
// pattern switch, or when the switch comes after the measured window).
func (c *Config) TransientBins() int {
	if c.Traffic.SwitchCycle <= 0 || c.Graph500() {
		return 0
	}
	end := min(c.Sim.Cycles, c.Traffic.SwitchCycle+c.TransientRecord()) // from the end of warm-up
	return max(0, (end-c.Traffic.SwitchCycle+TransientPrev+TransientBin-1)/TransientBin)
}

// allocBytes is the heap that an allocation of b bytes takes: rounded up
// to its size class (at most an eighth more) up to 32 KiB, to 8-KiB pages
// above.
func allocBytes(b float64) float64 {
	if b <= 32<<10 {
		return b * 9 / 8
	}
	return b + 8<<10
}

// ResultBytes is the total of ResultParts.
func (c *Config) ResultBytes() int64 {
	var b int64
	for _, p := range c.ResultParts() {
		b += p.Bytes
	}
	return b
}

// largestBuffer names the buffer field with the most phits: the one to
// reduce when the buffers do not fit.
func (c *Config) largestBuffer() string {
	r := &c.Router
	path, v := "router.localBuffer", r.LocalBuffer
	for _, o := range []struct {
		path string
		v    int
	}{{"router.globalBuffer", r.GlobalBuffer}, {"router.injectionBuffer", r.InjectionBuffer}, {"router.outputBuffer", r.OutputBuffer}} {
		if o.v > v && (o.path != "router.outputBuffer" || r.Model == "ioq") {
			path, v = o.path, o.v
		}
	}
	return path
}

// horizonPath names the field that sets most of the timing wheels' horizon:
// the longest latency (its ns field when a Graph500 run sets it in ns) or
// the output FIFO.
func (c *Config) horizonPath() string {
	t, r := &c.Topology, &c.Router
	path, v := c.nsPath("workload.localNs", "topology.localLatency"), t.LocalLatency
	for _, o := range []struct {
		path string
		v    int
	}{{c.nsPath("workload.globalNs", "topology.globalLatency"), t.GlobalLatency},
		{"topology.injectionLatency", t.InjectionLatency},
		{c.nsPath("workload.routerNs", "router.xbarLatency"), r.XbarLatency},
		{"router.outputBuffer", r.OutputBuffer}} {
		if o.v > v {
			path, v = o.path, o.v
		}
	}
	return path
}

// nsPath is the field that sets a latency: its ns field when a Graph500 run
// converts it, else the field in cycles.
func (c *Config) nsPath(ns, cycles string) string {
	if _, ok := c.convertsNs(); ok {
		for _, l := range c.latenciesNs() {
			if l.path == ns && l.ns > 0 {
				return ns
			}
		}
	}
	return cycles
}

// validateMemory refuses configurations whose run cannot fit, naming the
// parameter of the largest term.
func (c *Config) validateMemory() Errors {
	parts := c.memory()
	var total int64
	for _, p := range parts {
		total += p.Bytes
	}
	if total <= MaxStateBytes {
		return nil
	}
	// the parameter whose terms add up to most; its largest term says what
	byPath := map[string]int64{}
	for _, p := range parts {
		byPath[p.Path] += p.Bytes
	}
	top := parts[0]
	for _, p := range parts[1:] {
		if bp, bt := byPath[p.Path], byPath[top.Path]; bp > bt || (bp == bt && p.Bytes > top.Bytes) {
			top = p
		}
	}
	top.Bytes = byPath[top.Path]
	value := ""
	if p, ok := Lookup(top.Path); ok {
		value = p.Format(c)
	} else if sz, ok := c.Topology.Sizes(); ok && top.Path == "topology" {
		value = fmt.Sprintf("%s (%d routers, %d nodes)", c.Topology.Describe(), sz.Routers, sz.Nodes)
	}
	return Errors{&FieldError{Path: top.Path, Value: value, Msg: fmt.Sprintf(
		"a run needs up to %s, %s of it for the %s; at most %s fit (a browser tab has 4 GiB)%s",
		FormatBytes(total), FormatBytes(top.Bytes), top.What, FormatBytes(MaxStateBytes), c.memoryHint(top, total))}}
}

// memoryHint says how far the dominant parameter must move for the run to
// fit, where that is a simple proportion.
func (c *Config) memoryHint(top MemoryPart, total int64) string {
	rest := total - top.Bytes
	if rest >= MaxStateBytes || top.Bytes <= 0 {
		return ""
	}
	share := float64(MaxStateBytes-rest) / float64(top.Bytes) // the part may shrink to this share
	switch top.Path {
	case "sim.interval":
		return fmt.Sprintf(": sim.interval ≥ %d cycles with sim.cycles = %d", int64(math.Ceil(float64(c.Sim.Interval)/share)), c.Sim.Cycles)
	case "sim.histMax":
		return fmt.Sprintf(": sim.histMax ≤ %d cycles", int64(float64(c.Sim.HistMax)*share))
	case "traffic.sourceQueue":
		return fmt.Sprintf(": turn it off, or sim.cycles·traffic.load at most %.2g%% of now", 100*share)
	case "topology":
		return ": a smaller network"
	}
	if p, ok := Lookup(top.Path); ok && p.Kind == "int" {
		v, _ := p.Get(c).(int)
		return fmt.Sprintf(": reduce it to about %d", int64(float64(v)*share))
	}
	return ""
}

// gib renders bytes in GiB (MiB below one GiB).
func FormatBytes(b int64) string {
	if b < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	if b < 1<<30 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
}

// PartitionCopyBytes bounds what a partitioned run (phitsim run -threads,
// sim's runParallel) adds for its partitions beyond the first: their
// copies of the statistics' counts and their event wheels. A run whose
// copies would not fit uses fewer partitions (or runs sequentially, and
// says so); the estimate counts the allowance.
const PartitionCopyBytes = 8 << 20

// PartitionAllowance is what a partitioned run of c may add for its
// partitions beyond the first (sim's runParallel uses fewer partitions
// when their copies would need more): twice what a partition copies — the
// statistics' counts (the histogram, per router, per node, and up to 14
// series and transient bins per interval) and its event wheels — for each
// partition key (topology.Partitioned: a Dragonfly's groups, a flattened
// butterfly's or mesh's rows, a fat tree's subtrees) but one, at most
// PartitionCopyBytes; 0 where runs are not partitioned.
func (c *Config) PartitionAllowance() int64 {
	t := &c.Topology
	sz, ok := t.Sizes()
	if !ok {
		return 0
	}
	keys := topology.PartitionKeysOf(t.Params())
	if keys < 2 {
		return 0
	}
	nb, _, _ := c.samples()
	// the event wheels: four slice headers a slot (five with the contention
	// counters), a slot per cycle an
	// event can be queued ahead (sim.New's wheel: the longest latency, the
	// crossbar, a full output FIFO and a packet), rounded up to a power of 2
	r := &c.Router
	ahead := max(t.LocalLatency, t.GlobalLatency, t.InjectionLatency, r.PacketSize) + r.XbarLatency + r.OutputBuffer + r.PacketSize + 2
	slots := 1
	for slots < ahead {
		slots <<= 1
	}
	wheels := 4.0
	if trigger, _ := c.contentionTrigger(); trigger != "" {
		wheels++ // the contention counters' releases (sim's shard)
	}
	per := 8*(float64(c.Sim.HistMax)+65+float64(sz.Routers+sz.Nodes)+14*nb) + wheels*24*float64(slots)
	if c.Congestion.SchemeName() == "recn" {
		per += RecnBytes + RecnSimBytes // a partition's RECN: its message wheel (sim's recnShard)
	}
	return int64(min(float64(PartitionCopyBytes), 2*float64(keys-1)*per))
}

// MaxOrderNodes bounds the hosts for which the simulator counts
// out-of-order packets per (source, destination) pair (N² pairs).
const MaxOrderNodes = 4096

// Sizes of RECN's records (sim's recnSide, recnLine, recnNode, recn with
// its message wheel's slice headers, recnSim; sim's TestRecordSizes checks
// them).
const (
	RecnSideBytes = 48
	RecnLineBytes = 80
	RecnNodeBytes = 8
	RecnMsgBytes  = 64 // a message with its wheel link (sim's recnMsgNode)
	RecnBytes     = 34000
	RecnSimBytes  = 952
	// RecnPoolCopies is how many times the packet pool's length the
	// estimate counts under RECN (recnPackets: the bound is reached)
	RecnPoolCopies = 3
	// RecnWheel is sim's recnWheel: every RECN message lands less than
	// this many cycles after it is sent
	RecnWheel = 1 << 12
)

// RecnWheelSlots is the size of sim's arrivals wheel under RECN (a power
// of two) on links of lat cycles: RECN's sides queue nothing else there,
// and a packet's head lands lat cycles after it leaves its side, so the
// wheel needs more than lat + 1 slots (without the output FIFO's horizon
// of the other schemes, which would keep tens of thousands of slots each
// at its busiest cycle's capacity).
func RecnWheelSlots(lat int64) int64 {
	w := int64(1)
	for w < lat+2 {
		w <<= 1
	}
	return w
}

// recnPkts is recnPackets' bound: the packets alive at once and, within
// them, those that wait at the hosts (admittance queues and held
// packets) and those in the interfaces and the network, with the
// parameter that makes the bound grow and the words that say how.
type recnPkts struct {
	live, waiting, network float64
	path, how              string
}

// recnPackets bounds the packets alive at once under RECN (sim's packet
// pool) on a fat tree of ports switch ports and N hosts whose ingress
// sides and interfaces hold at most held packets (the input buffer slots
// and those leaving for the hosts). A packet is alive from its generation
// to its delivery, and is then in one of three places:
//   - waiting at its host: in an admittance queue (RECN paper §4.1) or
//     held by its generator. Nothing is dropped: a host holds at most N
//     queues of congestion.recnAdmittance's packets each (by default
//     router.injectionBuffer's), and one more its generator holds when the
//     queue is full. A host's generator stalls while it holds one, so it
//     queues no more than its process generates (traffic.load over the
//     run, as the source queue's term counts it; a bursty process up to a
//     packet a cycle), plus, at HOTSPOT's senders, a full queue to the
//     hotspot (one per HOTSPOT pattern in use): the smaller bound, named
//     by its parameter
//   - in the network: an egress side has its own memory
//     (router.outputBuffer), so its packets hold no credit downstream and
//     the input buffer slots do not bound them; every packet in the
//     network came in over an interface's link, a packet per
//     router.packetSize cycles at most, or is still in the interface's
//     memory, which bounds them too
//   - all of them were generated: by each host's process (traffic.load
//     over the run), and by each HOTSPOT sender, one a cycle while the
//     hotspot is on (traffic.hotspotStart to hotspotEnd) and its
//     generator does not stall: at most what its interface took in then
//     (its memory and a packet per router.packetSize cycles that its link
//     sent), a full admittance queue to the hotspot and the held packet.
//
// The bound is the smaller of the generated packets and the sum of the
// other two; at a full load the generated ones bound it (the network could
// hold more than the hosts can send in the run).
func (c *Config) recnPackets(ports, N, held int64) recnPkts {
	r, tr := &c.Router, &c.Traffic
	P := int64(r.PacketSize)
	_, cycles, _ := c.samples()
	memNI := max(int64(r.InjectionBuffer)/P, 1)     // an interface's memory
	adm, admPath := memNI, "router.injectionBuffer" // an admittance queue's size
	if a := c.Congestion.RECN(int(P) * max(c.Physical.PhitBytes, 1)).Admittance; a > 0 {
		adm, admPath = int64(a), "congestion.recnAdmittance"
	}
	memEg := int64(r.OutputBuffer) / P
	egress := min(float64(ports*memEg), float64(N)*(float64(cycles)/float64(P)+1))
	network := min(float64(held)+egress, float64(N)*(float64(memNI)+float64(cycles)/float64(P)+1))

	hot, senders := 0.0, 0.0
	if tr.Pattern == "HOTSPOT" {
		hot++
	}
	if tr.SwitchCycle > 0 && tr.SwitchPattern == "HOTSPOT" {
		hot++
	}
	if hot > 0 {
		list, _ := tr.Senders()
		senders = float64(min(int64(len(list)+tr.HotspotCount), N))
	}
	gen := c.peakLoad()/float64(P)*float64(cycles)*1.05 + 8
	if tr.Process == "bursty" {
		gen = float64(cycles) // a packet each ON cycle; a burst may last the run
	}
	byLoad := gen + 1
	backlog := hot * float64(min(adm, cycles)) // a sender's queue to the hotspot
	byRoom := float64(N*adm) + 1
	waiting, wPath, wHow := float64(N)*byLoad+senders*backlog, "traffic.load", fmt.Sprintf("traffic.load over %d cycles", cycles)
	if byRoom < byLoad+backlog {
		waiting = float64(N-int64(senders))*min(byRoom, byLoad) + senders*min(byRoom, byLoad+backlog)
		if byRoom <= byLoad {
			wPath, wHow = admPath, fmt.Sprintf("%d queues of %d packets per host", N, adm)
		}
	}
	// the hotspot's window in the run's cycles
	hotTo := cycles
	if tr.HotspotEnd > 0 {
		hotTo = min(hotTo, int64(tr.HotspotEnd))
	}
	window := float64(max(hotTo-int64(tr.HotspotStart), 0))
	if tr.SwitchCycle > 0 && tr.SwitchPattern == "HOTSPOT" {
		window = float64(cycles) // the pattern after the switch keeps its senders backlogged
	}
	hotGen := min(window, float64(adm+1+memNI)+window/float64(P)+1)
	generated := float64(N)*byLoad + senders*hot*hotGen
	rp := recnPkts{live: waiting + network, waiting: min(waiting, generated), network: min(network, generated),
		path: wPath, how: fmt.Sprintf("waiting in the admittance queues (%s), in the interfaces and in the network", wHow)}
	if generated < rp.live {
		rp.live, rp.path, rp.how = generated, "traffic.load", fmt.Sprintf("generated over %d cycles", cycles)
	}
	return rp
}

// recnMemory is RECN's state (sim's newRecn and initRecn) on a fat tree of
// ports switch ports, N hosts and R switches, whose ingress sides and
// interfaces hold at most held packets (the input buffer slots and those
// leaving for the hosts), beside the packets themselves (recnPackets,
// counted with the others):
//   - the sides (an ingress and an egress side per port, one per network
//     interface): their SAQ lines with the upstream line and, per port,
//     the feeding line, their queues, credits and link state; the
//     SAQ-utilisation series; the queues' node pool, allocated with a node
//     per packet of the interfaces' memory
//   - per (source, destination) pair the ordering counters (RECN paper
//     §3.6) and the admittance list's head, tail and length (§4.1): N²
//     entries, named by the topology
//   - the messages in flight (the wheel's node pool, grown by append),
//     RecnMsgBound
//   - the packets' queue nodes (the sides' pool grows by append while
//     the network holds more packets than the interfaces' memory, with a
//     marker per line; the admittance queues' pool while more than 16 a
//     host wait) and sequence numbers (a slice by packet id, grown by
//     append)
func (c *Config) recnMemory(ports, N, R, radix, lat, held int64) []MemoryPart {
	r := &c.Router
	P := int64(r.PacketSize)
	saqs := int64(c.Congestion.RECN(1).SAQs)
	sides := 2*ports + N
	side := RecnSideBytes + saqs*(RecnLineBytes+2+2+4*radix+8+8) + (saqs+1)*12 + 4 + 8 + 8 + 1
	nb, _, _ := c.samples()
	memNI := max(int64(r.InjectionBuffer)/P, 1) // an interface's memory
	rp := c.recnPackets(ports, N, held)
	// R·N + 4·ports: the D-mod-k tables (sim's recn.hop, recn.next)
	state := float64(sides*side+RecnBytes+RecnSimBytes+R*16+ports*17+R*N+ports*4+(N+63)/64*8+N*memNI*RecnNodeBytes) + 3*4*nb
	words := (N + 63) / 64
	// admittance mask, round-robin pointer, last move, held packet, the
	// list pool's start, per SAQ of the interface the destinations known to
	// match it (sim's recn.niDst), the idle scan's flag (recn.admIdle)
	perHost := float64(words*8 + 4 + 8 + 4 + 16*RecnNodeBytes + saqs*words*8 + 1)
	// ordering counters, admittance list, the interface's match (sim's recn.niMatch)
	pairs := float64(N*N) * (8 + 12 + 1)
	nodes := max(rp.network+float64(sides*saqs)-float64(N*memNI), 0) + max(rp.waiting-float64(16*N), 0)
	msgs := RecnMsgBound(ports, N, radix, saqs, lat, P)
	return []MemoryPart{
		part("congestion.scheme", fmt.Sprintf("RECN's %d sides of %d SAQs and their queues' nodes", sides, saqs), state, false),
		part("congestion.scheme", fmt.Sprintf("RECN's control messages in flight, up to %d", msgs), float64(msgs*RecnMsgBytes*growth), true),
		part("topology", fmt.Sprintf("RECN's ordering counters and admittance lists of %d × %d host pairs", N, N), pairs+float64(N)*perHost, false),
		part(rp.path, fmt.Sprintf("RECN's queue nodes and sequence numbers of up to %.3g packets", rp.live), nodes*RecnNodeBytes*growth+rp.live*4*growth, true),
	}
}

// RecnMsgBound bounds RECN's messages in flight at once (sim's recn
// message wheel) on a fat tree of ports switch ports and N hosts, with
// saqs lines per side, packets of P cycles on a link and links of lat
// cycles; sim's control packets take a link ctl = 1 cycle and a message
// inside a switch lands 1 cycle after it is sent. The pool holds, while a
// cycle's messages are handled, those still to handle and those they send,
// so each count below takes two cycles where one would do otherwise:
//   - on a link (an egress side's or interface's, which also carries the
//     messages upstream of the ingress side of its own port): acks and
//     tokens to the downstream ingress side's lines, at most one of each
//     per line there (a line's next notification needs its token back,
//     which follows the ack on the same link), and notifications of its
//     own port's ingress lines, one per line (its token): 3·saqs. The
//     ingress side's Xon/Xoff: an Xoff at a packet's arrival (one per P
//     cycles) or at an ack's (one per notification, which only an arrival
//     sends, and saqs in flight), an Xon only after an Xoff of the same
//     line, so at most σ + ρ·w in any w cycles, σ = 4 + 3·saqs, ρ = 4/P.
//     A control packet waits for at most one data packet (data starts
//     only when no control packet waits) and the link's messages ahead of
//     it, so one is in flight at most D = P + ctl + lat + ctl·(3·saqs + X)
//     cycles, and X ≤ σ + ρ·D: X ≤ (σ + ρ·(P + ctl + lat + 3·saqs·ctl)) /
//     (1 − ρ·ctl) when ρ·ctl < 1. A link's messages land at distinct
//     cycles within RecnWheel (sim refuses a later one), which bounds
//     them otherwise; one more landing this cycle
//   - credits: an ingress side passes at most one packet a cycle through
//     its crossbar input, and each sends a credit that lands lat cycles
//     later: ports × (lat + 1)
//   - notifications and tokens inside a switch carry a token each, and a
//     token is sent again only after it came back: at most the tokens
//     there are, a root's radix (one per input), an egress line's radix
//     and an ingress line's one; the Xoff an ingress side sends a line it
//     registers with, one per notification landing (as many again)
//   - an egress line's Xon/Xoff to its switch's ingress lines: radix per
//     change of its state, at most two changes per cycle (a packet in
//     from the crossbar, a packet out on the link), over two cycles.
//     (The same token's notifications land at least two cycles apart, so
//     the count of tokens holds over two cycles)
//   - idle timeouts: one per line (a line's pending timeout carries on to
//     its next allocation)
func RecnMsgBound(ports, N, radix, saqs, lat, P int64) int64 {
	const ctl = 1
	perLink := int64(RecnWheel / ctl)
	if rho := 4 / float64(max(P, 1)); rho*ctl < 1 {
		sigma := float64(4 + 3*saqs)
		x := (sigma + rho*float64(P+ctl+lat+3*saqs*ctl)) / (1 - rho*ctl)
		perLink = min(perLink, 3*saqs+int64(math.Ceil(x)))
	}
	tokens := ports*radix + ports*saqs*radix + ports*saqs
	sides := 2*ports + N
	return (ports+N)*(perLink+1) + ports*(lat+1) + 2*tokens + ports*4*radix + sides*saqs
}

// peakLoad is the highest offered load of the run, in phits per node and
// cycle: traffic.load, the load after a pattern switch, and UR1UR2's second
// class.
func (c *Config) peakLoad() float64 {
	tr := &c.Traffic
	load := tr.Load
	if tr.SwitchCycle > 0 {
		load = max(load, tr.SwitchLoad)
	}
	if tr.Pattern == "UR1UR2" || tr.SwitchCycle > 0 && tr.SwitchPattern == "UR1UR2" {
		load = max(load, cmp.Or(tr.Ur2Load, 0.9))
	}
	return load
}

// Sizes of CBCM's detector records (sim's cbRun and cbOut; sim's
// TestRecordSizes checks them).
const (
	CbcmRunBytes = 16
	CbcmOutBytes = 64
)

// cbcmMemory is CBCM's state (sim's cbcm.attach, cbDeg.init, cbReqs and
// newCbEarly; Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §IV-B, §VI-A) on a network of ports router ports, N
// nodes and R routers whose ports hold up to maxVC data queues each, with a
// packet pool of up to pool packets over a run of cycles cycles:
//   - per output port (the switch's detector, §IV-B1) and, with early
//     detection (§VI-A), per (router, destination node) pair: the degree's
//     window as a ring of cbcmSamples + 2 runs (16 bytes each; per output
//     cbcmBoundInterval more, its bound intervals counted from them), the
//     bound intervals' max − min (and with early detection their max: 4
//     bytes each per cbcmSamples / cbcmBoundInterval), the entry's state (64
//     bytes) and its static and drawn parts and stamp (16 bytes), the
//     entries touched and drawn in a cycle (slices grown by append: at most
//     every entry, every requesting VC: a port's data queues and at most
//     32 VCs in all beside them); under router.voq per input its requests
//     (one per queue), their count, its pick, dirty and extra-queue flags,
//     a bit per input that draws, per router its draws' stream, and the
//     heads on their injection links whose requests join at their arrival
//   - per destination node (§IV-B2): its mode, its source list L (a bit
//     per node), |L|, epoch, D_t sent, quiet time, watch flag, generation
//     and idle hook (38 bytes + the list); early detection per pair its
//     mode, list, |L|, D_t sent, epoch, quiet time and watch flag (26
//     bytes + the list)
//   - per flow (§IV-B3, §IV-B4): throttled, D_t, tokens and their cycle,
//     the source epoch's start, sent and queue, the throttle's start, busy,
//     ever throttled, backlogged, and the flow hold (sim's needFlowHolds):
//     56 bytes; early detection adds the flag of a throttle from the
//     destination
//   - what a run adds (full terms: reached only when everything is
//     throttled or watched): a throttled-packet flag per packet id of the
//     pool (a bool slice grown by chunks: 4 bytes a packet with its copies),
//     the throttled flows' list (up to every flow), the destinations' watch
//     list (with its generations: after a pass, an entry per destination;
//     until the next, at most cbcmDestEpoch cycles after the first entry
//     added, a destination enters again once on its first marked packet,
//     once after an unthrottle emptied its list, and once per two of its
//     ejected data packets — one per router.packetSize cycles — going
//     idle on an unmarked one, observing on a marked one), the routers'
//     watch list (at most every pair) and the (flow, router) pairs that
//     throttled a flow: at most the routers its data packets can cross
//     (cbcmFlowRouters; a pair's entry lasts until the flow is
//     unthrottled, so every route the flow took meanwhile counts), and at
//     most the throttle packets its source can receive, a 1-flit packet a
//     cycle
func (c *Config) cbcmMemory(ports, N, R, maxVC int64, pool float64, cycles int64) []MemoryPart {
	p := c.Congestion.CBCM()
	ns, nb := float64(p.Samples), float64(p.Samples/p.BoundInterval)
	rn := ns + 2
	qsch := c.Router.QueueScheme()
	voq := qsch == "voqsw" || qsch == "4q" || qsch == "voqnet"
	qs := min(maxVC+32, 1<<10-1)
	words := (N + 63) / 64
	appended := func(n, size float64) float64 { return n * size * 2 * growth }

	// the window and per-entry state of np entries: the bound intervals'
	// max − min (apart, early detection's: and their max); the per-output
	// detector's ring holds a bound interval more of runs (sim's cbDeg,
	// lazy)
	window := func(np int64, apart bool) float64 {
		if !apart {
			return allocBytes(float64(np)*(rn+float64(p.BoundInterval))*CbcmRunBytes) + allocBytes(float64(np)*nb*4)
		}
		return allocBytes(float64(np)*rn*CbcmRunBytes) + 2*allocBytes(float64(np)*nb*4)
	}
	entries := func(np int64) float64 {
		return allocBytes(float64(np*CbcmOutBytes)) + 2*allocBytes(float64(np*4)) + allocBytes(float64(np*8)) +
			appended(float64(np), 4) + appended(float64(ports*qs), 4) // touched, picked
	}
	reqs := func() float64 {
		if !voq {
			return 0
		}
		return allocBytes(float64(ports*qs*4)) + allocBytes(float64(ports*8)) + 2*allocBytes(float64(ports)) + // + extra
			allocBytes(float64((ports+63)/64*8)) + allocBytes(float64(R*8)) +
			2*appended(float64(ports), 4)
	}
	nf := float64(N) * float64(N)
	perFlow := float64(1 + 4 + 8 + 8 + 8 + 8 + 4 + 4 + 1 + 1 + 1 + 8)
	if p.Early {
		perFlow++
	}
	pend := 0.0 // the data queues' heads on their injection links (N at most; more are read again)
	if voq {
		pend = allocBytes(float64(N * 16))
	}
	state := entries(ports) + reqs() + pend + 1<<10*2 + // the plain layout's candidates
		float64(N)*(38+float64(words*8)) + float64(N)*8 + nf*perFlow
	parts := []MemoryPart{
		part("congestion.cbcmSamples", fmt.Sprintf("CBCM's contention-degree windows of %d output ports (cbcmSamples + cbcmBoundInterval + 2 = %.0f runs each)", ports, rn+float64(p.BoundInterval)),
			window(ports, false), false),
		part("congestion.scheme", fmt.Sprintf("CBCM's per-output, per-destination and per-flow state (%d × %d flows)", N, N), state, false),
		part("congestion.scheme", "CBCM's throttled-packet flags and throttled flows when every flow is throttled",
			pool*2*growth+appended(nf, 4), true),
	}
	between := float64(min(p.DestEpoch, cycles))/float64(c.Router.PacketSize) + 1
	watch := float64(N) * (3 + between/2)
	parts = append(parts, part("congestion.cbcmDestEpoch", "CBCM's destinations' watch list when every destination goes idle and observes again at every other packet",
		watch*8*2*growth, true))
	if p.Early {
		np := R * N
		// each pair came with a throttle packet (1 flit) its source
		// received, one a cycle at most
		byRouter := min(nf*float64(c.cbcmFlowRouters(R)), float64(N)*float64(cycles+1))
		parts = append(parts,
			part("congestion.cbcmEarly", fmt.Sprintf("CBCM early detection's windows and state of %d routers × %d destinations (cbcmSamples + 2 = %.0f runs each)", R, N, rn),
				window(np, true)+entries(np)+reqs()+128*4+float64(np)*(26+float64(words*8))+16*float64(R), false), // + each router's draw stream
			part("congestion.cbcmEarly", "CBCM early detection's watch list and throttling routers when every pair is watched and every flow throttled on its routes",
				appended(float64(np), 4)+appended(byRouter, 8), true))
	}
	return parts
}

// cbcmFlowRouters bounds, on a network of R routers, the routers whose
// early detector (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §VI-A) can throttle one flow: those its data packets
// can cross — a router puts a source in its list only when it forwards one
// of the source's packets to the hotspot. A (flow, router) pair lasts until
// the flow is unthrottled (sim's cbcm.release), so what counts is every
// route the flow can take, not the length of one: only a routing with a
// single path per flow bounds it by a route's routers, MIN on a Dragonfly
// (one minimal path, at most local, global, local: 4 routers; thesis §1.2)
// and on a flattened butterfly (dimension order: dimensions + 1 routers).
// A Valiant or adaptive route's intermediate is drawn per packet, so the
// flow's routes reach every router (CBCM's dedicated hotspot VC routes a
// throttled flow minimally, but the routers that listed it before it was
// throttled still send it their rounds): R.
func (c *Config) cbcmFlowRouters(R int64) int64 {
	if c.Routing.Name != "MIN" {
		return R
	}
	switch c.Topology.Kind {
	case "dragonfly":
		seq, err := vcs.ForKind("dragonfly", "MIN", c.PhaseA()) // a VC per hop
		if err != nil {
			return R
		}
		return min(R, int64(len(seq))+1)
	case "fbfly":
		return min(R, int64(c.Topology.Dimensions)+1)
	}
	return R
}

// SRPPendingRuns bounds the runs of equal message sizes SRP keeps queued
// behind its flows' current messages (sim's srpSizes) and says how: a run
// per message queued at most, and a synthetic node's messages are all one
// size, so at most one run per flow with messages queued (at most N flows
// per node, and a packet queued per message at least, as the source
// queues' term counts the packets); beside
// a Graph500 job a flow between two of its processes changes size at most
// 3 times a BFS level (its full query messages, the last partial one, the
// end-of-level signal; graph500.Job.Message), for the level being queued
// and the next: 6 runs per such flow, every node a process at most.
func (c *Config) SRPPendingRuns() (runs float64, how string) {
	if !c.sized() {
		return 0, ""
	}
	kind, _ := topology.KindOf(c.Topology.Kind)
	N := float64(kind.Sizes(c.Topology.Params()).Nodes)
	_, cycles, _ := c.samples()
	packets, _ := c.Traffic.Messages()
	perNode := c.peakLoad()/float64(c.Router.PacketSize)*float64(cycles)*1.05 + 8 + float64(packets)
	runs = min(perNode, N) * N // a message has a packet at least (UR1UR2's UR2: one)
	how = "one per flow with messages queued"
	if c.Graph500() {
		runs += 6 * N * N
		how += ", and 6 per flow of the Graph500 job"
	}
	return runs, how
}

// SRPSlots bounds the transmission slots SRP's sources keep booked at once
// (sim's srp.book): per node one per flow with a granted message in
// progress, and one per packet of it re-sent after its grant, so at most
// N·(1 + m) for messages of m packets (a Graph500 job's: ⌈coalescing /
// queries per packet⌉ at most, as sim's workload sizes them), and without
// a job at most a slot per message and one per packet the node generates
// (the source queues' term's packets).
func (c *Config) SRPSlots() float64 {
	if !c.sized() {
		return 0
	}
	kind, _ := topology.KindOf(c.Topology.Kind)
	N := float64(kind.Sizes(c.Topology.Params()).Nodes)
	packets, _ := c.Traffic.Messages()
	if w := &c.Workload; c.Graph500() && w.QueryBytes > 0 {
		qpp := max(1, c.Router.PacketSize*w.PhitBytes/w.QueryBytes)
		packets = max(packets, (w.Coalescing+qpp-1)/qpp)
	}
	perNode := N * float64(1+packets)
	if !c.Graph500() {
		_, cycles, _ := c.samples()
		generated := c.peakLoad()/float64(c.Router.PacketSize)*float64(cycles)*1.05 + 8 + float64(packets)
		perNode = min(perNode, 2*generated)
	}
	return N * perNode
}
