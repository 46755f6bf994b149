package config

import (
	"fmt"
	"strconv"
)

// Congestion is the congestion-management layer of Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks": the
// scheme that marks, notifies, throttles or isolates. The section is
// omitted when unset (scheme none, the paper's Baseline), so that other
// documents keep their form; every field's 0 or "" is the paper's value.
type Congestion struct {
	Scheme string `json:"scheme,omitempty" doc:"congestion management: none, the paper's Baseline; ideal, the oracle that puts the hotspot flows (HOTSPOT's senders to the hotspot) on an isolated class of minimally routed VCs; ecn, InfiniBand-style FECN marking, BECN echoes on the priority control class and a per-flow inter-packet delay at the source (needs traffic.sourceQueues=perDestination); cbcm, contention-based congestion management: per-output contention degree at VC allocation marks packets, the destination's epoch test names a hotspot and its D_t senders, throttle packets on the priority class, a per-flow token bucket at 1/D_t on a low-priority hotspot VC (needs traffic.sourceQueues=perDestination); srp, the Speculative Reservation Protocol: a message of srpMinPackets or more reserves its destination's ejection by a reservation packet and goes speculatively (a strictly-lowest class, dropped after srpDropThreshold cycles of queuing and NACKed) until the grant, then at the granted time (needs traffic.sourceQueues=perDestination); recn, RECN's set-aside queues on a fat tree (RECN paper §3) (empty: none)" enum:"none,ideal,ecn,cbcm,srp,recn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §III-A, §V-A; RECN paper §3"`
	// Ideal
	IdealPriority string `json:"idealPriority,omitempty" doc:"ideal: the isolated hotspot class's priority against the data VCs at both allocator stages: equal (round-robin among all, the paper's Ideal as resolved) or low (served only when no data VC can go) (empty: equal)" enum:"equal,low" when:"congestion.scheme=ideal" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (the priority is not stated; equal reconstructed)"`
	// ECN (Kim et al. §V-A, the values of its Table of ECN parameters)
	EcnThreshold     float64 `json:"ecnThreshold,omitempty" doc:"ecn: a packet is marked (FECN) when its input VC buffer holds more than this share of its capacity as its head leaves (0: 90%)" unit:"%" min:"0" max:"100" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (90%)"`
	EcnIpdIncrement  int     `json:"ecnIpdIncrement,omitempty" doc:"ecn: a flow's inter-packet delay grows by this at each BECN (0: 400)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (400)"`
	EcnIpdMax        int     `json:"ecnIpdMax,omitempty" doc:"ecn: the inter-packet delay's cap (0: 1,500)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (1,500)"`
	EcnIpdDecrement  int     `json:"ecnIpdDecrement,omitempty" doc:"ecn: every ecnDecrementPeriod cycles each flow's inter-packet delay falls by this, to 0 at least (0: 50)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (50)"`
	EcnDecrementTime int     `json:"ecnDecrementPeriod,omitempty" doc:"ecn: the inter-packet delay's decrement timer (0: 1,000)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (1,000)"`
	// CBCM (Kim et al. §IV; the values of §IV-B and, where the paper gives none, reconstructed)
	CbcmSamples       int     `json:"cbcmSamples,omitempty" doc:"cbcm: contention-degree samples of the moving average, one per cycle (0: 100)" unit:"cycles" min:"0" max:"10000" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B1 (100)"`
	CbcmBoundInterval int     `json:"cbcmBoundInterval,omitempty" doc:"cbcm: the interval of each min/max sample of the contention degree; cbcmSamples must be a multiple of it (0: 10)" unit:"cycles" min:"0" max:"10000" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B1 (10)"`
	CbcmThreshold     float64 `json:"cbcmThreshold,omitempty" doc:"cbcm: an output is congested while MA − (MA(max) − MA(min))/2 exceeds this (0: 1)" unit:"requests" min:"0" max:"64" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B1 (1)"`
	CbcmEstimator     string  `json:"cbcmEstimator,omitempty" doc:"cbcm: the contention degree: randomized, each input counts one of its requesting VCs drawn at random; weighted, each requesting VC counts 1/v of its input's v (empty: randomized)" enum:"randomized,weighted" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B1 (D_cr, D_cw)"`
	CbcmEpsilon       float64 `json:"cbcmEpsilon,omitempty" doc:"cbcm: the share of a hotspot's bandwidth its throttle packets may take: after a round of D_t it sends none for D_t/ε cycles (0: 0.05)" unit:"flits/cycle" min:"0" max:"1" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B2 (0.05, the text's example)"`
	CbcmDestEpoch     int     `json:"cbcmDestEpoch,omitempty" doc:"cbcm: the destination's epoch: a node receiving only marked packets for this long from its first is a hotspot (0: 4,000)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B2 (length not given; 4,000 reconstructed: the shortest without false hotspots under UR below saturation, Fig. 8a)"`
	CbcmSourceEpoch   int     `json:"cbcmSourceEpoch,omitempty" doc:"cbcm: the source's unthrottle epoch: a throttled flow generating less than its rate over one is unthrottled (0: 2,000)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B4 (length not given; 2,000 reconstructed)"`
	CbcmMinDt         int     `json:"cbcmMinDt,omitempty" doc:"cbcm: the fewest senders (D_t) that make a hotspot (0: 2)" unit:"sources" min:"0" max:"1000000" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B2, §V-B (D_t > 1 implied)"`
	CbcmRateFactor    float64 `json:"cbcmRateFactor,omitempty" doc:"cbcm: a throttled flow's rate is this/D_t flits per cycle (0: 1 with cbcmHotspotVC=dedicated, 0.99 with shared)" unit:"×" min:"0" max:"1" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B3, §VI-B (Fig. 12: 0.99/N)"`
	CbcmEarly         bool    `json:"cbcmEarly,omitempty" doc:"cbcm: early detection: every router also keeps the contention metric per destination node (the inputs whose request is a packet to it) and runs the destination's epoch test on the packets to each it forwards, throttling the contributing sources itself (false: at the destinations only)" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §VI-A (Fig. 11)"`
	// SRP (Kim et al. §III-B, §V-A; the grant time and the drop check of the original SRP paper)
	SrpDropThreshold int     `json:"srpDropThreshold,omitempty" doc:"srp: a speculative packet whose queuing time over its hops exceeds this is dropped at its router and NACKed (0: 2,000)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=srp" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (TTW 2,000)"`
	SrpDropClock     string  `json:"srpDropClock,omitempty" doc:"srp: what a speculative packet's time-to-wait counts against srpDropThreshold: queuing, its queuing time summed over its hops (head arrival to crossing, the source router's injection input included; the original SRP simulator's queuing-only option); sent, every cycle since it left its source queue (that simulator without the option: links and routers too); message, every cycle since its message's reservation was sent (its wait in the source queue behind the message's earlier packets and other flows too); generated, every cycle since the packet was generated (empty: queuing)" enum:"queuing,sent,message,generated" when:"congestion.scheme=srp" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §III-B, §V-A (TTW 2,000; from when not given); Jiang et al., Network Congestion Avoidance through Speculative Reservation (the timeout)"`
	SrpDropAhead     bool    `json:"srpDropAhead,omitempty" doc:"srp: a speculative head is also dropped when its time-to-wait plus the phits held in the next buffer on its route (less the link's round trip, 2 × its latency) exceeds srpDropThreshold: the wait still ahead, counted before it is spent (the original SRP simulator's buffer-size drop) (false: the time spent only)" when:"congestion.scheme=srp" paper:"Jiang et al., Network Congestion Avoidance through Speculative Reservation (the original simulator's RESERVATION_BUFFER_SIZE_DROP, on in its defaults); Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A"`
	SrpMinPackets    int     `json:"srpMinPackets,omitempty" doc:"srp: messages of fewer packets go non-speculatively without a reservation (0: 4)" unit:"packets" min:"0" max:"1024" when:"congestion.scheme=srp" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (4)"`
	SrpOverhead      float64 `json:"srpOverhead,omitempty" doc:"srp: the destination's schedule advances by a message's flits × (1 + this) per reservation (0: 0.05)" unit:"×" min:"0" max:"10" when:"congestion.scheme=srp" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (0.05)"`
	CbcmHotspotVC    string  `json:"cbcmHotspotVC,omitempty" doc:"cbcm: where throttled flows go: dedicated, one minimally routed VC class of their own at strictly lowest priority; shared, the data VCs and routing (empty: dedicated)" enum:"dedicated,shared" when:"congestion.scheme=cbcm" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-A, §VI-B (Figs. 12–13)"`
	// CbcmHotspotAging is not the paper's (its hotspot VC is strictly
	// lowest, §IV-B3, §VI-B): an anti-starvation rule, off by default.
	CbcmHotspotAging int `json:"cbcmHotspotAging,omitempty" doc:"cbcm: a packet on the dedicated hotspot VC whose head has been this long in its buffer competes at the data VCs' priority at both allocator stages, so that a link the data keep busy cannot starve it (priority aging; not the paper's, whose hotspot VC is strictly lowest: a saturated background then holds it indefinitely) (0: never, strictly lowest)" unit:"cycles" min:"0" max:"100000000" when:"congestion.scheme=cbcm,congestion.cbcmHotspotVC!=shared" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §IV-B3, §VI-B (strictly low priority, hotspot throughput 93%); priority aging is an addition"`
	// RECN (RECN paper §3, §4.1): 8 SAQs per side; the thresholds are not
	// given there (320 B to detect and 512 B to propagate, at least 4
	// packets each — recnqueue.go's RECNDetectBytes — Xoff at 4 KB, Xon at
	// 2 KB reconstructed)
	RecnSaqs   int `json:"recnSaqs,omitempty" doc:"recn: set-aside queues (CAM lines) per ingress side, egress side and network interface (0: 8)" unit:"queues" min:"0" max:"64" when:"congestion.scheme=recn" paper:"RECN paper §4.1 (8)"`
	RecnDetect int `json:"recnDetect,omitempty" doc:"recn: an egress side whose normal queue holds this much becomes the root of a congestion tree (0: 320, at least 4 packets)" unit:"bytes" min:"0" max:"1048576" when:"congestion.scheme=recn" paper:"RECN paper §3.3 (not given; 320 B reconstructed: of the pairs measured with 64-B packets, the one meeting Fig. 2's dips, < 1 and < 4 B/ns, with Fig. 4's < 170 lines; at least 4 packets, since one 512-B packet in transit would root a tree)"`
	RecnProp   int `json:"recnProp,omitempty" doc:"recn: a SAQ holding this much notifies upstream (an ingress side over the link, an egress side its switch's ingress sides, the path extended); at most recnXoff (0: 512, at least 4 packets or recnXoff)" unit:"bytes" min:"0" max:"1048576" when:"congestion.scheme=recn" paper:"RECN paper §3.4 (not given; 512 B reconstructed with recnDetect's 320 B, which see; at least 4 packets)"`
	RecnXoff   int `json:"recnXoff,omitempty" doc:"recn: a SAQ holding this much sends Xoff to its upstream SAQs (0: 4,096)" unit:"bytes" min:"0" max:"1048576" when:"congestion.scheme=recn" paper:"RECN paper §3.7 (not given; 4 KB reconstructed)"`
	RecnXon    int `json:"recnXon,omitempty" doc:"recn: a SAQ that sent Xoff sends Xon when it holds this much or less; below recnXoff (0: 2,048)" unit:"bytes" min:"0" max:"1048576" when:"congestion.scheme=recn" paper:"RECN paper §3.7 (not given; 2 KB reconstructed)"`
	// RecnCrossbar is how a switch's crossbar arbiter orders the requests of
	// its ingress sides (RECN paper §4.1)
	RecnCrossbar string `json:"recnCrossbar,omitempty" doc:"recn: the crossbar's arbiter: perOutput, every ingress side able to send requests with the head its priorities pick and each output grants the requester nearest after its round-robin pointer (one iteration, as the baselines' allocator), the requests of normal queues (and of leaf SAQs holding at most 2 packets, §3.8) granted before those of the other SAQs; normalFirst, the same preference, the sides taking free outputs first come in a rotating order of the sides; rotating, each side in that rotating order sends what its own priorities pick (normal before SAQs within a side only) (empty: perOutput)" enum:"perOutput,normalFirst,rotating" when:"congestion.scheme=recn" paper:"RECN paper §4.1 (\"an arbiter that receives requests from packets at the head of any input queue\"; \"requests from packets in normal queues have preference over requests from packets in SAQs\")"`
	// RecnAdmittance is each network interface's admittance queue per
	// destination (RECN paper §4.1; its size is not given there)
	RecnAdmittance int `json:"recnAdmittance,omitempty" doc:"recn: each network interface's admittance queue per destination holds this much (rounded up to packets); a packet that finds its queue full is held and stalls its node's generator until it fits, nothing dropped (0: as much as the interface's memory, router.injectionBuffer)" unit:"bytes" min:"0" max:"16777216" when:"congestion.scheme=recn" paper:"RECN paper §4.1 (size not given; the interface's memory reconstructed)"`
}

// CBCMParams are CBCM's parameters with the defaults for the zeros.
type CBCMParams struct {
	Samples, BoundInterval int
	Threshold              float64
	Weighted, Shared       bool
	Epsilon, RateFactor    float64
	DestEpoch, SourceEpoch int64
	MinDt                  int
	Early                  bool // §VI-A: routers detect per destination too
}

// CBCM resolves the CBCM fields (0: Kim et al. §IV's values, the
// reconstructed ones where it gives none).
func (c Congestion) CBCM() CBCMParams {
	or := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	orf := func(v, def float64) float64 {
		if v == 0 {
			return def
		}
		return v
	}
	p := CBCMParams{Samples: or(c.CbcmSamples, 100), BoundInterval: or(c.CbcmBoundInterval, 10),
		Threshold: orf(c.CbcmThreshold, 1), Weighted: c.CbcmEstimator == "weighted", Shared: c.CbcmHotspotVC == "shared",
		Epsilon: orf(c.CbcmEpsilon, 0.05), DestEpoch: int64(or(c.CbcmDestEpoch, 4000)),
		SourceEpoch: int64(or(c.CbcmSourceEpoch, 2000)), MinDt: or(c.CbcmMinDt, 2), Early: c.CbcmEarly}
	p.RateFactor = orf(c.CbcmRateFactor, 1)
	if p.Shared && c.CbcmRateFactor == 0 {
		p.RateFactor = 0.99
	}
	return p
}

// SRPParams are SRP's parameters with the defaults for the zeros.
type SRPParams struct {
	DropThreshold int64
	DropClock     string // queuing, sent, message or generated
	DropAhead     bool
	MinPackets    int
	Overhead      float64
}

// SRP resolves the SRP fields (0: Kim et al. §V-A's values).
func (c Congestion) SRP() SRPParams {
	p := SRPParams{DropThreshold: int64(c.SrpDropThreshold), MinPackets: c.SrpMinPackets, Overhead: c.SrpOverhead, DropAhead: c.SrpDropAhead}
	if p.DropThreshold == 0 {
		p.DropThreshold = 2000
	}
	if p.DropClock = c.SrpDropClock; p.DropClock == "" {
		p.DropClock = "queuing"
	}
	if p.MinPackets == 0 {
		p.MinPackets = 4
	}
	if p.Overhead == 0 {
		p.Overhead = 0.05
	}
	return p
}

// ECNParams are ECN's parameters with the paper's defaults for the zeros.
type ECNParams struct {
	Threshold                         float64 // share of the input VC buffer, 0…1
	Increment, Max, Decrement, Period int64
}

// ECN resolves the ECN fields (0: Kim et al. §V-A's values).
func (c Congestion) ECN() ECNParams {
	or := func(v, def int) int64 {
		if v == 0 {
			return int64(def)
		}
		return int64(v)
	}
	p := ECNParams{Threshold: c.EcnThreshold / 100, Increment: or(c.EcnIpdIncrement, 400), Max: or(c.EcnIpdMax, 1500),
		Decrement: or(c.EcnIpdDecrement, 50), Period: or(c.EcnDecrementTime, 1000)}
	if c.EcnThreshold == 0 {
		p.Threshold = 0.9
	}
	return p
}

// SchemeName is congestion.scheme with its default filled in.
func (c Congestion) SchemeName() string {
	if c.Scheme == "" {
		return "none"
	}
	return c.Scheme
}

// fill sets the omitted enums to their defaults, for validation.
func (c *Congestion) fill() {
	c.Scheme = c.SchemeName()
	if c.IdealPriority == "" {
		c.IdealPriority = "equal"
	}
	if c.CbcmEstimator == "" {
		c.CbcmEstimator = "randomized"
	}
	if c.CbcmHotspotVC == "" {
		c.CbcmHotspotVC = "dedicated"
	}
	if c.RecnCrossbar == "" {
		c.RecnCrossbar = "perOutput"
	}
	if c.SrpDropClock == "" {
		c.SrpDropClock = "queuing"
	}
}

// validateCongestion ties the scheme to what it needs: ECN's inter-packet
// delay holds one flow at its source, which only per-destination source
// queues can do without blocking the node's other flows (Kim et al. §V-A's
// queue pairs); RECN acts on synthetic traffic only, the paper's schemes
// run beside a Graph500 job too (its packets enter the injection VCs
// directly, so a source's holds and reservations act on the synthetic
// classes); QCN-Switch owns the priority class by itself.
func (c *Config) validateCongestion() Errors {
	cg := c.Congestion
	if cg.SchemeName() == "none" {
		return nil
	}
	var errs Errors
	add := func(msg string, a ...any) {
		errs = append(errs, &FieldError{Path: "congestion.scheme", Value: cg.Scheme, Msg: fmt.Sprintf(msg, a...)})
	}
	if cg.Scheme == "cbcm" {
		if _, perDst := c.Traffic.Messages(); !perDst {
			add("cbcm holds each throttled flow by its token bucket, which needs traffic.sourceQueue=true and traffic.sourceQueues=perDestination (a held flow must not block the node's others)")
		}
		if p := cg.CBCM(); p.Samples%p.BoundInterval != 0 {
			errs = append(errs, &FieldError{Path: "congestion.cbcmSamples", Value: strconv.Itoa(p.Samples),
				Msg: fmt.Sprintf("must be a multiple of congestion.cbcmBoundInterval (%d)", p.BoundInterval)})
		}
	}
	if cg.Scheme == "srp" {
		if _, perDst := c.Traffic.Messages(); !perDst {
			add("srp holds each flow for its reservation (one message per destination at a time), which needs traffic.sourceQueue=true and traffic.sourceQueues=perDestination")
		}
		if c.Traffic.Reactive {
			add("srp runs with traffic.reactive=false only (a dropped speculative request has no reply VC to give back)")
		}
	}
	if cg.Scheme == "ecn" {
		if _, perDst := c.Traffic.Messages(); !perDst {
			add("ecn holds each flow by its inter-packet delay, which needs traffic.sourceQueue=true and traffic.sourceQueues=perDestination (a held flow must not block the node's others)")
		}
	}
	if c.Workload.Kind != "" && c.Workload.Kind != "synthetic" && cg.Scheme == "recn" {
		add("runs with workload.kind=synthetic only")
	}
	if c.Routing.Name == "QCN_SWITCH" {
		add("routing.name=QCN_SWITCH is a congestion management of its own; use congestion.scheme=none with it")
	}
	if cg.Scheme == "recn" {
		errs = append(errs, c.validateRECN()...)
	}
	if cg.Scheme == "ecn" && cg.EcnIpdMax != 0 && cg.EcnIpdIncrement > cg.EcnIpdMax {
		errs = append(errs, &FieldError{Path: "congestion.ecnIpdIncrement", Value: strconv.Itoa(cg.EcnIpdIncrement),
			Msg: fmt.Sprintf("must not exceed congestion.ecnIpdMax (%d)", cg.EcnIpdMax)})
	}
	return errs
}

// UR2Load is traffic.ur2Load with its default (0: 0.9, Kim et al. Figs.
// 5b and 8c).
func (t Traffic) UR2Load() float64 {
	if t.Ur2Load == 0 {
		return 0.9
	}
	return t.Ur2Load
}

// validateUR1UR2: its per-class loads are set for the whole run, by the
// Bernoulli process.
func (c *Config) validateUR1UR2() Errors {
	tr := c.Traffic
	if tr.Pattern != "UR1UR2" {
		return nil
	}
	switch {
	case tr.SwitchCycle > 0:
		return Errors{&FieldError{Path: "traffic.switchCycle", Value: strconv.Itoa(tr.SwitchCycle), Msg: "must be 0 with traffic.pattern=UR1UR2 (its per-class loads are set for the whole run)"}}
	case tr.Process == "bursty":
		return Errors{&FieldError{Path: "traffic.process", Value: tr.Process, Msg: "must be bernoulli with traffic.pattern=UR1UR2 (its classes' loads are Bernoulli rates)"}}
	case tr.Reactive:
		return Errors{&FieldError{Path: "traffic.reactive", Value: "true", Msg: "UR1UR2's classes do not take part in request-reply traffic"}}
	}
	return nil
}
