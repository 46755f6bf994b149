// Package result is the result document of a run: the configuration, the
// engine version, the seed, every metric, histograms and time series. The CLI
// and the UI read and write the same documents.
//
// The Dragonfly's per-class results keep their fixed fields (Hops.Local and
// .Global, Links.Local and .Global), and PiggyBack's and ACOR's their own
// (Misrouted.PhaseA, .AcorStatus, AcorLevels, Sample.AcorLevel): saved
// documents and share links read them. Any other topology reports its port
// classes by name in Classes (its Local and Global fields stay 0), and a
// congestion-management mechanism its own results in Mechanisms; both are
// absent from a Dragonfly run without mechanisms, whose document is
// unchanged.
package result

import "phitsim/engine/config"

// EngineVersion is written into every result (provenance).
const EngineVersion = "phitsim-engine 0.1.0"

// Result of one run (one config, one seed, one load).
type Result struct {
	Engine string        `json:"engine" msgpack:"engine"`
	Config config.Config `json:"config" msgpack:"config"`
	Seed   uint64        `json:"seed" msgpack:"seed"`
	// Loads in phits/(node·cycle), measured after warm-up.
	Offered         float64 `json:"offered" msgpack:"offered"`   // nominal load asked for
	Applied         float64 `json:"applied" msgpack:"applied"`   // generated into the network
	Accepted        float64 `json:"accepted" msgpack:"accepted"` // delivered: the throughput
	RequestAccepted float64 `json:"requestAccepted,omitempty" msgpack:"requestAccepted"`
	ReplyAccepted   float64 `json:"replyAccepted,omitempty" msgpack:"replyAccepted"`
	// Latency in cycles: delivery − generation + packet size (tail serialisation).
	Latency    Summary `json:"latency" msgpack:"latency"`
	InjLatency float64 `json:"injLatency" msgpack:"injLatency"` // generation → leaving the first router
	NetLatency float64 `json:"netLatency" msgpack:"netLatency"` // the rest
	// ReplyRoundTrip: request latency + reply latency (request-reply traffic).
	ReplyRoundTrip float64   `json:"replyRoundTrip,omitempty" msgpack:"replyRoundTrip"`
	Generated      int64     `json:"generated" msgpack:"generated"` // packets generated in the window
	Delivered      int64     `json:"delivered" msgpack:"delivered"` // packets delivered in the window
	Hops           Hops      `json:"hops" msgpack:"hops"`
	Misrouted      Misrouted `json:"misrouting" msgpack:"misrouting"`
	Fairness       Fairness  `json:"fairness" msgpack:"fairness"`
	Links          Links     `json:"links" msgpack:"links"`
	// Classes: every port class of a topology other than the Dragonfly, in
	// class order (injection first), by name.
	Classes []ClassStat `json:"classes,omitempty" msgpack:"classes,omitempty"`
	// BusiestLink: the single busiest transit link (sim.Sim.BusiestLink;
	// absent from documents written before it)
	BusiestLink *BusiestLink `json:"busiestLink,omitempty" msgpack:"busiestLink,omitempty"`
	// Mechanisms: each attached congestion-management mechanism's own
	// results, by mechanism name then metric name; the mechanism owns both.
	Mechanisms map[string]map[string]float64 `json:"mechanisms,omitempty" msgpack:"mechanisms,omitempty"`
	// LatencyHist[i] = packets with latency i cycles (the last bin holds longer ones).
	LatencyHist []int64  `json:"latencyHist" msgpack:"latencyHist"`
	HopsHist    []int64  `json:"hopsHist" msgpack:"hopsHist"`
	Series      []Sample `json:"series" msgpack:"series"`
	// SeriesCNMs: with QCN-Switch, the congestion notifications generated in
	// each interval of Series (sent, or processed at their own congestion
	// point's router); kept beside Series so that every other run's samples
	// stay as small as they were.
	SeriesCNMs []int64 `json:"seriesCnms,omitempty" msgpack:"seriesCnms,omitempty"`
	// RECN: with congestion.scheme=recn, its SAQ utilisation per interval
	// of Series, ordering and protocol counts; nil without it.
	RECN *RECN `json:"recn,omitempty" msgpack:"recn,omitempty"`
	// SeriesProbabilities: with QCN-Switch and no pattern switch, the
	// minimal probabilities of group 0's transit ports over the whole run
	// (warm-up included: their adaptation from 100%), a snapshot at the end
	// of every interval of Series (From and Every in cycles from the start
	// of the run) and a last one at the run's end if it is not on an
	// interval's end. A pattern switch records them in
	// Transient.Probabilities instead.
	SeriesProbabilities *PortProbabilities `json:"seriesProbabilities,omitempty" msgpack:"seriesProbabilities,omitempty"`
	// AcorLevels: ACOR-Switch level (1…) of every router at the end of the run.
	AcorLevels []uint8 `json:"acorLevels,omitempty" msgpack:"acorLevels"`
	// Order: the out-of-order deliveries, when counted (router.queueing
	// set, or a mechanism that asks), else nil.
	Order *Order `json:"order,omitempty" msgpack:"order,omitempty"`
	// Hotspot: HOTSPOT runs, its two traffic classes, else nil.
	Hotspot *HotspotClasses `json:"hotspot,omitempty" msgpack:"hotspot,omitempty"`
	// Groups: a pattern's traffic classes over the window (UR1UR2: UR1,
	// UR2; Kim et al., Contention-based Congestion Management in
	// Large-Scale Networks Fig. 5b plots UR1's), else nil.
	Groups []GroupClass `json:"groups,omitempty" msgpack:"groups,omitempty"`
	// Transient: with a pattern switch, the delivered packets by generation cycle.
	Transient *Transient `json:"transient,omitempty" msgpack:"transient"`
	Conservation
	Saturated bool   `json:"saturated" msgpack:"saturated"`
	SatReason string `json:"satReason,omitempty" msgpack:"satReason"`
	// Cycles actually simulated (warm-up included) and the cost.
	SimCycles  int64 `json:"simCycles" msgpack:"simCycles"`
	PacketHops int64 `json:"packetHops" msgpack:"packetHops"`
	// CPUSeconds is the run's elapsed (wall-clock) time from its start to
	// its result: Go has no per-goroutine CPU clock, and WebAssembly none
	// at all. It equals the CPU time only on an otherwise idle core; on a
	// loaded machine it is larger, and a partitioned run's is its
	// slowest partition's, not the sum over threads. The name and the JSON
	// key are kept for the files already written.
	CPUSeconds float64 `json:"cpuSeconds" msgpack:"cpuSeconds"`
	// Sequential: why a run asked to use several threads ran on one (the
	// partitioned engine does not cover its configuration; engine/PARALLEL.md),
	// else empty. The result is the same either way.
	Sequential string `json:"sequential,omitempty" msgpack:"sequential,omitempty"`
	// Graph500 workload outcome (workload.kind = graph500), else nil.
	Graph500 *Graph500 `json:"graph500,omitempty" msgpack:"graph500,omitempty"`
	// Deadlock: why and where the run stopped early (the metrics above are
	// those up to Deadlock.Cycle), else nil.
	Deadlock *Deadlock `json:"deadlock,omitempty" msgpack:"deadlock,omitempty"`
	// Quality: tail latency, warm-up check, within-run intervals and the
	// verdict (stats.Assess; engine/METHODS.md). Sweeps assess every run;
	// nil in a bare sim.Run without sim.autoWarmup or sim.precision.
	Quality *Quality `json:"quality,omitempty" msgpack:"quality,omitempty"`
}

// HotspotClasses are HOTSPOT's two traffic classes over the window, as
// Kim et al., Contention-based Congestion Management in Large-Scale Networks
// §V-A report them: the background (UR among the other nodes), whose
// latency and throughput its figures plot, and the hotspot flows, with the
// accepted hotspot bandwidth of each sender (Fig. 14).
type HotspotClasses struct {
	Background TrafficClass `json:"background" msgpack:"background"`
	// Hotspot: its loads per cycle at the hotspot's ejection (Nodes = 1).
	Hotspot TrafficClass `json:"hotspot" msgpack:"hotspot"`
	// Node and Senders: the hotspot and its senders (given, or drawn by
	// traffic.hotspotCount).
	Node    int32   `json:"node" msgpack:"node"`
	Senders []int32 `json:"senders" msgpack:"senders"`
	// SenderAccepted[i]: phits per cycle delivered to the hotspot from
	// Senders[i]; they add up to Hotspot.Accepted.
	SenderAccepted []float64 `json:"senderAccepted" msgpack:"senderAccepted"`
	// Series: with a hotspot that starts during the run
	// (traffic.hotspotStart > 0), the background class in each interval of
	// Result.Series (the whole run, warm-up included), by delivery cycle:
	// the transient Kim et al. Fig. 13 plots (their UR traffic's latency
	// per interval around the hotspot's start); nil otherwise.
	Series []ClassInterval `json:"series,omitempty" msgpack:"series,omitempty"`
}

// ClassInterval is one traffic class in one interval of Result.Series:
// its packets delivered and their mean latency (cycles, as
// Result.Latency; 0 when none was delivered).
type ClassInterval struct {
	Delivered int64   `json:"delivered" msgpack:"delivered"`
	Latency   float64 `json:"latency" msgpack:"latency"`
}

// GroupClass is one named traffic class of a pattern (Result.Groups).
type GroupClass struct {
	Name  string       `json:"name" msgpack:"name"`
	Class TrafficClass `json:"class" msgpack:"class"`
}

// TrafficClass is one class of packets: loads in phits per cycle per node of
// the class (Nodes of them), latency as Result.Latency.
type TrafficClass struct {
	Nodes     int     `json:"nodes" msgpack:"nodes"`
	Applied   float64 `json:"applied" msgpack:"applied"`
	Accepted  float64 `json:"accepted" msgpack:"accepted"`
	Latency   Summary `json:"latency" msgpack:"latency"`
	Generated int64   `json:"generated" msgpack:"generated"`
	Delivered int64   `json:"delivered" msgpack:"delivered"`
}

// Summary of a distribution.
type Summary struct {
	Avg float64 `json:"avg" msgpack:"avg"`
	Min int64   `json:"min" msgpack:"min"`
	Max int64   `json:"max" msgpack:"max"`
}

// Hops per delivered packet; Local and Global on the Dragonfly only (see
// Result.Classes).
type Hops struct {
	Avg    float64 `json:"avg" msgpack:"avg"`
	Local  float64 `json:"local" msgpack:"local"`
	Global float64 `json:"global" msgpack:"global"`
	Max    int     `json:"max" msgpack:"max"`
}

// Misrouted counts delivered packets that took a non-minimal path, by where
// the decision was taken.
type Misrouted struct {
	Packets  int64   `json:"misrouted" msgpack:"misrouted"`
	Fraction float64 `json:"misroutedFraction" msgpack:"misroutedFraction"`
	// FOGSim: the packets FOGSim reports as "Non Minimally Routed": Packets
	// plus every packet given a Valiant path that happens to be minimal.
	FOGSim            int64 `json:"nonMinimalFOGSim" msgpack:"nonMinimalFOGSim"`
	AtInjection       int64 `json:"misroutedAtInjection" msgpack:"misroutedAtInjection"`
	InSourceGroup     int64 `json:"misroutedInSourceGroup" msgpack:"misroutedInSourceGroup"`
	InIntermediateGrp int64 `json:"misroutedInIntermediateGroup" msgpack:"misroutedInIntermediateGroup"`
	// PhaseA: share of the non-minimal packets by Valiant phase-A policy
	// (names in PhaseANames), for the Valiant family, UGAL, PB and ACOR.
	PhaseA      []float64 `json:"phaseA,omitempty" msgpack:"phaseA"`
	PhaseANames []string  `json:"phaseANames,omitempty" msgpack:"phaseANames"`
	// AcorStatus: ACOR and PB_ACOR, share of all delivered packets by the
	// phase-A policy of the level of their last routing attempt at injection
	// (CRG-Gr, CRG-Sw, RRG-Sw), with intra-group packets at RRG-Sw: FOGSim's
	// "% packets status" (its local misrouting sets that status).
	AcorStatus []float64 `json:"acorStatus,omitempty" msgpack:"acorStatus"`
	// MaxLocalBeforeGlobal: PAR and OLM, most local hops a packet took
	// before its first global hop (the livelock guard keeps it ≤ 2).
	MaxLocalBeforeGlobal int `json:"maxLocalBeforeGlobal" msgpack:"maxLocalBeforeGlobal"`
}

// Fairness of injection over routers (thesis §1.5.1): packets generated into
// each router's injection queues after warm-up by its nodes; with
// request-reply traffic the requests only, a reply answers a request
// received (FOGSim counts the same way).
type Fairness struct {
	PerRouter []int64 `json:"perRouter" msgpack:"perRouter"`
	Min       int64   `json:"min" msgpack:"min"`
	Max       int64   `json:"max" msgpack:"max"`
	MinRouter int     `json:"minRouter" msgpack:"minRouter"`
	MaxRouter int     `json:"maxRouter" msgpack:"maxRouter"`
	MaxMin    float64 `json:"maxMin" msgpack:"maxMin"`   // 0 (meaning ∞) when Starved > 0
	Starved   int     `json:"starved" msgpack:"starved"` // routers that injected nothing
	CoV       float64 `json:"cov" msgpack:"cov"`         // population σ/μ
	Jain      float64 `json:"jain" msgpack:"jain"`       // (Σx)²/(n·Σx²)
}

// ClassStat is one port class's share of the traffic.
type ClassStat struct {
	Class string `json:"class" msgpack:"class"`
	// Hops of the class per delivered packet (0 for the injection class:
	// injection and ejection are no hops).
	Hops float64 `json:"hops" msgpack:"hops"`
	// Utilisation: phits per cycle per connected link of the class (for the
	// injection class, per ejection link), over the window.
	Utilisation float64 `json:"utilisation" msgpack:"utilisation"`
	Links       int64   `json:"links" msgpack:"links"` // connected output ports of the class
}

// BusiestLink is the transit link that sent the most phits in the measured
// window: router, output port (topology.Topology's numbering), its class
// and utilisation in phits per cycle (a link's bound is 1).
type BusiestLink struct {
	Router      int     `json:"router" msgpack:"router"`
	Port        int     `json:"port" msgpack:"port"`
	Class       string  `json:"class" msgpack:"class"`
	Utilisation float64 `json:"utilisation" msgpack:"utilisation"`
}

// Links: average utilisation (phits per cycle per link) by class; on a
// topology other than the Dragonfly only Injection (see Result.Classes).
type Links struct {
	Local     float64 `json:"local" msgpack:"local"`
	Global    float64 `json:"global" msgpack:"global"`
	Injection float64 `json:"injection" msgpack:"injection"`
}

// Sample of the time series, over one interval of delivery cycles.
type Sample struct {
	Cycle     int64   `json:"cycle" msgpack:"cycle"` // end of the interval
	Accepted  float64 `json:"accepted" msgpack:"accepted"`
	Applied   float64 `json:"applied" msgpack:"applied"`
	Latency   float64 `json:"latency" msgpack:"latency"`
	Misrouted float64 `json:"misrouted" msgpack:"misrouted"`           // % of delivered packets
	AcorLevel float64 `json:"acorLevel,omitempty" msgpack:"acorLevel"` // ACOR-Switch: mean router level (1…)
	// AcorRouters: ACOR-Switch routers at level 1, 2, 3 at the interval's end.
	AcorRouters []int32 `json:"acorRouters,omitempty" msgpack:"acorRouters"`
}

// Order counts, over the whole run (warm-up included), the data packets
// delivered after a packet of the same (source, destination) pair
// generated later: the RECN paper's in-order check (Duato et al., A New
// Scalable and Cost-Effective Congestion Management Strategy for Lossless
// Multistage Interconnection Networks §3.8: its markers keep the order;
// 4Q, whose sender picks any of 4 queues, does not).
type Order struct {
	OutOfOrder int64 `json:"outOfOrder" msgpack:"outOfOrder"` // packets delivered out of order
	Pairs      int64 `json:"pairs" msgpack:"pairs"`           // (source, destination) pairs with at least one
}

// Conservation: every generated packet is delivered or still in flight.
type Conservation struct {
	TotalGenerated int64 `json:"totalGenerated" msgpack:"totalGenerated"` // whole run, warm-up included
	TotalDelivered int64 `json:"totalDelivered" msgpack:"totalDelivered"`
	InFlight       int64 `json:"inFlight" msgpack:"inFlight"`
}

// Conserved reports whether the run's counters agree: generated = delivered
// + in flight. They change side by side (a packet counts as in flight from
// its generation to its delivery), so this does not prove that no packet
// was lost, duplicated or stuck, nor that credits are intact: the engine's
// tests prove that with the simulator's census (engine/TIMING.md,
// "Reliability checks").
func (c Conservation) Conserved() bool { return c.TotalGenerated == c.TotalDelivered+c.InFlight }
