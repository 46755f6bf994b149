// Package routing is the table of the routing algorithms: one Entry per
// routing.name value, holding what every other package needs to know about a
// routing without comparing its name — the simulator's kind, when its
// decisions are taken, the topologies it runs on, its VC sequence per
// topology, the metrics it reports and the parameters that apply to it.
// config derives routing.name's allowed values and doc, and the "when"
// conditions of the routing-specific parameters, from this table; the site's
// lists and charts read it too.
//
// It is a leaf package (it imports no other package of phitsim), so that
// config, vcs, sim and the site can all import it.
//
// Papers cited by the entries: the thesis is P. Fuentes, "Balanced and
// efficient interconnects for Exascale supercomputers" (PhD thesis,
// Universidad de Cantabria, 2017); the ACOR paper is M. Benito, P. Fuentes,
// E. Vallejo, R. Beivide, "ACOR: Adaptive Congestion-Oblivious Routing in
// Dragonfly networks".
package routing

import (
	"fmt"
	"strings"
)

// Kind is the simulator's id of a routing: a small integer it can switch on
// in its hot path. Several names may share a kind when the simulator runs
// them with the same code (VAL and VAL_GROUP differ only in their default
// phase-A policy).
type Kind uint8

// Kinds, in the simulator's order.
const (
	MIN    Kind = iota // minimal
	VAL                // Valiant with a phase-A policy (VAL, VAL_GROUP)
	UGAL               // source-adaptive, UGAL comparison
	PB                 // source-adaptive, UGAL comparison + PiggyBack saturation bits
	PAR                // in-transit adaptive, extra local VCs
	OLM                // in-transit adaptive, opportunistic local hops
	ACOR               // Valiant with ACOR's levels
	PBACOR             // PiggyBack with ACOR's non-minimal paths
	QCN                // source-adaptive by per-port probabilities driven by QCN notifications
)

// Decision says when a routing's path decisions are taken, hence when the
// simulator must route a packet at the head of a buffer again.
type Decision uint8

const (
	// Final: the path is decided once, when the packet first reaches the
	// head of its injection VC, and never redone.
	Final Decision = iota
	// EachInjectionAttempt: redone at every attempt of the packet at the
	// head of its injection VC until it leaves (its decision reads the
	// network's state or draws again); final in transit.
	EachInjectionAttempt
	// EachHopAttempt: redone at every attempt at every hop (in-transit
	// adaptive routing).
	EachHopAttempt
)

func (d Decision) String() string {
	return [...]string{"final at injection", "redone at each injection attempt", "redone at each hop attempt"}[d]
}

// Paths says which paths a routing gives its packets.
type Paths uint8

const (
	// MinimalOnly: every packet takes a minimal path.
	MinimalOnly Paths = iota
	// ValiantOnly: every packet takes a Valiant path through an
	// intermediate, whatever the network's state (oblivious): the
	// throughput bound is 1/2 (two global hops per packet).
	ValiantOnly
	// Adaptive: minimal or non-minimal, decided from the network's state or
	// the routing's own level.
	Adaptive
)

// Metric flags the routing-specific parts of the result a routing reports.
type Metric uint8

const (
	// Misrouting: packets may take non-minimal paths; the result's
	// misrouting section (share, where the decision was taken) and the
	// non-minimal share over time are meaningful.
	Misrouting Metric = 1 << iota
	// PhaseAShares: the shares of the non-minimal packets by the Valiant
	// phase-A policy of their path (misrouting.phaseA, phaseANames).
	PhaseAShares
	// AcorLevels: ACOR's levels: misrouting.acorStatus, the level of every
	// interval and, with routing.acorMode=switch, every router's level
	// (acorLevels).
	AcorLevels
	// LocalBeforeGlobal: misrouting.maxLocalBeforeGlobal, the most local hops
	// a packet took before its first global hop (the in-transit routings'
	// livelock guard keeps it ≤ 2).
	LocalBeforeGlobal
	// FOGSimValiant: misrouting.nonMinimalFOGSim also counts every packet
	// given a Valiant path that happens to be minimal, as FOGSim's VAL and
	// ACOR do.
	FOGSimValiant
)

// Mechanism flags the per-router state a routing keeps beside its paths.
type Mechanism uint8

const (
	// Intermediate: the non-minimal path goes through a Valiant
	// intermediate drawn at injection by a phase-A policy.
	Intermediate Mechanism = 1 << iota
	// PiggyBack: every router computes saturation bits of its global links
	// and broadcasts them in its group (thesis §1.4.2.1.1).
	PiggyBack
	// Levels: ACOR's levels of phase-A policies, raised and lowered by the
	// blocked attempts at injection (ACOR paper §4.2).
	Levels
	// PerCycle: the routing's state changes every cycle in every router
	// (PiggyBack's bits, ACOR-Switch's hysteresis intervals), so
	// router.idleUpdates applies.
	PerCycle
	// Notifications: QCN congestion points sample transit buffers and send
	// congestion notification messages (CNMs) from the router, on a
	// priority class of control VCs above the data VCs, to the source of a
	// sampled packet; its router keeps per-port minimal probabilities
	// (QCN-Switch paper §3).
	Notifications
)

// Topology kinds an entry names (topology.kind values).
const (
	Dragonfly = "dragonfly"
	FBFly     = "fbfly"
	FatTree   = "fattree"
	// AnyTopology in Entry.VCs: every topology kind without an entry of its
	// own.
	AnyTopology = "*"
	// MinimalPath as a VC spec: the hop classes of the topology's own
	// minimal paths, one VC per hop, as the topology declares them.
	MinimalPath = "minimal"
)

// VCs is a routing's VC sequence on one topology kind, written as the
// class names of its hops in path order, space-separated, a `*` suffix
// marking a hop that may repeat on the same VC (vcs parses it). A hop takes
// the first entry after the current one whose class matches, so the VC
// indices of each class only grow (distance-based deadlock avoidance,
// thesis §1.3).
type VCs struct {
	Topology string // a topology.kind value, or AnyTopology
	// Spec: the sequence; for the routings with routing.phaseA, the one
	// when phase A ends at a router (…-Sw).
	Spec string
	// ToGroup: the sequence when phase A ends on entering the intermediate
	// group (…-Gr); "" when phase A does not change it.
	ToGroup string
}

// Entry describes one routing (one routing.name value).
type Entry struct {
	Name  string // routing.name value
	Doc   string // a few words, shown in routing.name's doc after the name
	Paper string // where it comes from: title (or the thesis) and section
	Kind  Kind   // the simulator's id
	// Decision: when its decisions are taken. Decide(recompute) adds the
	// effect of routing.recompute.
	Decision Decision
	Paths    Paths
	Metrics  Metric
	Mechs    Mechanism
	// Topologies: the topology.kind values it runs on; nil: any.
	Topologies []string
	// VCs: its VC sequence per topology kind (an AnyTopology entry covers
	// the kinds without their own).
	VCs []VCs
	// PhaseA: the phase-A policy routing.phaseA=auto stands for; when the
	// routing does not take routing.phaseA (ACOR changes it by level), the
	// one its VC sequence is sized for, whatever routing.phaseA says. A
	// routing without intermediates ignores it (RRG-Sw, config's default).
	PhaseA string
	// Params: the dotted paths of the configuration parameters that apply
	// only to some routings and apply to this one (config turns them into
	// the parameters' "when" conditions).
	Params []string
}

// Parameter sets shared by several entries.
var (
	valiantParams   = []string{"routing.phaseA", "routing.restricted", "routing.recompute"}
	ugalParams      = []string{"routing.ugalMode", "routing.ugalF", "routing.ugalT"}
	congestionParam = []string{"routing.congestion"}
	pbParams        = []string{"routing.pbCoef", "routing.pbThreshold", "routing.pbBroadcast"}
	inTransitParams = []string{"routing.policy", "routing.trigger", "routing.thMin", "routing.congestedCoef",
		"routing.congestedThreshold", "routing.candidateMax", "routing.candidates",
		"routing.contentionThreshold", "routing.hybridThreshold", "routing.filterAlpha",
		"routing.ectnThreshold", "routing.ectnPeriod"}
	acorParams = []string{"routing.acorSequence", "routing.acorMode", "routing.acorHI", "routing.acorIT1",
		"routing.acorIT2", "routing.acorDT1", "routing.acorDT2", "routing.acorCount"}
	idleParam = []string{"router.idleUpdates"}
	qcnParams = []string{"routing.qcnSampling", "routing.qcnSamplingClock", "routing.qcnSourceProcessing", "routing.qcnFeedbackComparison",
		"routing.qcnQeq", "routing.qcnW", "routing.qcnCPC", "routing.qcnCnmPercent", "routing.qcnLf",
		"routing.qcnPCl", "routing.qcnPI", "routing.qcnTh1", "routing.qcnTh2", "routing.qcnNonMinimal",
		"routing.qcnSourceProcessingRule", "routing.qcnReactionPoints", "routing.qcnRpGd", "routing.qcnRpByteCount", "routing.qcnRpTimer",
		"routing.qcnRpRai", "routing.qcnRpRhai", "routing.qcnRpMinRate", "routing.qcnRpFastRecovery", "routing.qcnRpFlows", "routing.qcnRpJitter"}
)

// injTriggerParams are the contention triggers at injection (UGAL, PB).
var injTriggerParams = []string{"routing.injectionTrigger", "routing.contentionThreshold", "routing.ectnThreshold", "routing.ectnPeriod"}

func join(sets ...[]string) []string {
	var out []string
	for _, s := range sets {
		out = append(out, s...)
	}
	return out
}

// The Dragonfly VC sequences (thesis §1.3, Fig. 1.15; ACOR paper §2.1).
const (
	dfMinimal  = "local global local"                          // a0 h0 a1: 2/1
	dfToRouter = "local global local local global local"       // a0 h0 a1 a2 h1 a3: 4/2
	dfToGroup  = "local global local global local"             // a0 h0 a1 h1 a2: 3/2
	dfPAR      = "local local global local local global local" // a0 a1 h0 a2 a3 h1 a4: 5/2
	// OLM: a0 h0 a1 h1 a2, 3/2; its non-minimal local hops reuse the
	// latest local VC (opportunistic), the simulator's OLM rule
	dfOLM = "local global local global local"
)

var dragonflyOnly = []string{Dragonfly}

// fbUGAL is UGAL's sequence on a flattened butterfly (Kim et al.,
// Contention-based Congestion Management in Large-Scale Networks §V-A;
// dimension order within each Valiant phase): phase 0 (the minimal path, or
// the leg to the intermediate) on VCs 0…dims−1, phase 1 from VC dims on —
// the four data VCs of the paper's 2D network, two of its 1D ones.
const fbUGAL = "link link link link"

// entries is the table, in routing.name's order.
var entries = []Entry{
	{Name: "MIN", Doc: "minimal", Paper: "thesis §1.4.1.1", Kind: MIN, Decision: Final, Paths: MinimalOnly,
		VCs:    []VCs{{Topology: Dragonfly, Spec: dfMinimal}, {Topology: AnyTopology, Spec: MinimalPath}},
		PhaseA: "RRG-Sw"},
	{Name: "VAL", Doc: "Valiant", Paper: "thesis §1.4.1.2; ACOR paper §2.1, Table 1", Kind: VAL, Decision: Final,
		Paths: ValiantOnly, Metrics: Misrouting | PhaseAShares | FOGSimValiant, Mechs: Intermediate,
		Topologies: dragonflyOnly, VCs: []VCs{{Dragonfly, dfToRouter, dfToGroup}}, PhaseA: "RRG-Sw",
		Params: join(valiantParams, []string{"routing.completePhaseA"})},
	{Name: "VAL_GROUP", Doc: "Valiant to a group", Paper: "Kim et al. ISCA 2008 (Technology-Driven, Highly-Scalable Dragonfly Topology); ACOR paper Table 1",
		Kind: VAL, Decision: Final, Paths: ValiantOnly, Metrics: Misrouting | PhaseAShares | FOGSimValiant, Mechs: Intermediate,
		Topologies: dragonflyOnly, VCs: []VCs{{Dragonfly, dfToRouter, dfToGroup}}, PhaseA: "RRG-Gr",
		Params: join(valiantParams, []string{"routing.completePhaseA"})},
	{Name: "UGAL", Doc: "source-adaptive", Paper: "thesis §1.4.2.1, eq. 1.2", Kind: UGAL, Decision: EachInjectionAttempt,
		Paths: Adaptive, Metrics: Misrouting | PhaseAShares, Mechs: Intermediate,
		Topologies: []string{Dragonfly, FBFly}, VCs: []VCs{{Dragonfly, dfToRouter, dfToGroup}, {Topology: FBFly, Spec: fbUGAL}}, PhaseA: "RRG-Sw",
		Params: join(valiantParams, ugalParams, congestionParam, injTriggerParams, []string{"routing.ugalIntermediate"})},
	{Name: "PB", Doc: "source-adaptive (PiggyBack)", Paper: "thesis §1.4.2.1.1, eq. 1.3", Kind: PB, Decision: EachInjectionAttempt,
		Paths: Adaptive, Metrics: Misrouting | PhaseAShares, Mechs: Intermediate | PiggyBack | PerCycle,
		Topologies: dragonflyOnly, VCs: []VCs{{Dragonfly, dfToRouter, dfToGroup}}, PhaseA: "RRG-Sw",
		Params: join(idleParam, valiantParams, ugalParams, congestionParam, pbParams, injTriggerParams)},
	{Name: "PAR", Doc: "in-transit adaptive", Paper: "thesis §1.4.2.2, Fig. 1.15", Kind: PAR, Decision: EachHopAttempt,
		Paths: Adaptive, Metrics: Misrouting | LocalBeforeGlobal,
		Topologies: dragonflyOnly, VCs: []VCs{{Topology: Dragonfly, Spec: dfPAR}}, PhaseA: "RRG-Sw",
		Params: join(congestionParam, inTransitParams)},
	{Name: "OLM", Doc: "in-transit adaptive, opportunistic local misrouting", Paper: "García et al. ICPP'13 (OLM); thesis §1.4.2.2.1",
		Kind: OLM, Decision: EachHopAttempt, Paths: Adaptive, Metrics: Misrouting | LocalBeforeGlobal,
		Topologies: dragonflyOnly, VCs: []VCs{{Topology: Dragonfly, Spec: dfOLM}}, PhaseA: "RRG-Sw",
		Params: join(congestionParam, inTransitParams, []string{"routing.intraGroupMisroute"})},
	{Name: "ACOR", Doc: "adaptive Valiant", Paper: "ACOR paper §4", Kind: ACOR, Decision: EachInjectionAttempt,
		Paths: Adaptive, Metrics: Misrouting | PhaseAShares | AcorLevels | FOGSimValiant, Mechs: Intermediate | Levels | PerCycle,
		Topologies: dragonflyOnly, VCs: []VCs{{Topology: Dragonfly, Spec: dfToRouter}}, PhaseA: "RRG-Sw",
		Params: join(idleParam, acorParams)},
	{Name: "PB_ACOR", Doc: "PiggyBack with ACOR's non-minimal paths", Paper: "ACOR paper §4.3", Kind: PBACOR,
		Decision: EachInjectionAttempt, Paths: Adaptive, Metrics: Misrouting | PhaseAShares | AcorLevels,
		Mechs:      Intermediate | PiggyBack | Levels | PerCycle,
		Topologies: dragonflyOnly, VCs: []VCs{{Topology: Dragonfly, Spec: dfToRouter}}, PhaseA: "RRG-Sw",
		Params: join(idleParam, ugalParams, congestionParam, pbParams, acorParams)},
	// QCN-Switch: its data VCs are the hop-ordered l0 g0 l1 g1 l2 (its
	// non-minimal paths g l g l and l g l g l climb it), as FOGSim v5's
	// minCond; its CNMs ride the minimal sequence above them.
	{Name: "QCN_SWITCH", Doc: "source-adaptive by QCN congestion notifications",
		Paper: "Benito, Vallejo, Izu, Beivide, Non-minimal Adaptive Routing Based on Explicit Congestion Notifications (QCN-Switch paper) §3",
		Kind:  QCN, Decision: Final, Paths: Adaptive, Metrics: Misrouting, Mechs: Notifications,
		Topologies: dragonflyOnly, VCs: []VCs{{Topology: Dragonfly, Spec: dfToGroup}}, PhaseA: "RRG-Gr",
		Params: qcnParams},
}

// All returns the entries in routing.name's order (copies of the entries;
// their slices are the table's, not to be changed).
func All() []Entry { return append([]Entry(nil), entries...) }

// Names lists the routing.name values, in order.
func Names() []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name
	}
	return out
}

// Lookup finds the entry of a routing.name value.
func Lookup(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Get is Lookup for a name already validated; an unknown name gets MIN's
// entry (the zero kind), as the simulator treats it.
func Get(name string) Entry {
	if e, ok := Lookup(name); ok {
		return e
	}
	return entries[0]
}

// Doc is routing.name's doc: every name with its few words.
func Doc() string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = e.Name + " " + e.Doc
	}
	return strings.Join(parts, "; ")
}

// Using lists the routings a parameter applies to (nil: it is not
// routing-specific).
func Using(path string) []string {
	var out []string
	for _, e := range entries {
		if e.Uses(path) {
			out = append(out, e.Name)
		}
	}
	return out
}

// Uses tells whether a routing-specific parameter applies to the routing.
func (e *Entry) Uses(path string) bool {
	for _, p := range e.Params {
		if p == path {
			return true
		}
	}
	return false
}

// Has tells whether the routing reports metric m.
func (e *Entry) Has(m Metric) bool { return e.Metrics&m != 0 }

// Keeps tells whether the routing keeps mechanism m's state.
func (e *Entry) Keeps(m Mechanism) bool { return e.Mechs&m != 0 }

// Supports tells whether the routing runs on a topology kind.
func (e *Entry) Supports(kind string) bool {
	if e.Topologies == nil {
		return true
	}
	for _, k := range e.Topologies {
		if k == kind {
			return true
		}
	}
	return false
}

// Decide is when the routing's decisions are taken given routing.recompute:
// a routing whose path is otherwise final draws a new intermediate at each
// blocked injection attempt when it takes recompute (ACOR paper §3.2).
func (e *Entry) Decide(recompute bool) Decision {
	if e.Decision == Final && recompute && e.Uses("routing.recompute") {
		return EachInjectionAttempt
	}
	return e.Decision
}

// ResolvePhaseA is the phase-A policy the routing runs with given
// routing.phaseA: the entry's own when the routing does not take the
// parameter, its default for "auto" (or unset), else the value.
func (e *Entry) ResolvePhaseA(phaseA string) string {
	if !e.Uses("routing.phaseA") && e.Keeps(Intermediate) {
		return e.PhaseA // its levels choose the policy; sized for this one
	}
	if phaseA == "auto" || phaseA == "" {
		return e.PhaseA
	}
	return phaseA
}

// ToGroup tells whether a phase-A policy ends on entering the intermediate
// group (…-Gr) rather than at a router of it (…-Sw).
func ToGroup(phaseA string) bool { return strings.HasSuffix(phaseA, "-Gr") }

// VCSpec is the routing's VC sequence on a topology kind for a resolved
// phase-A policy (ResolvePhaseA): a spec of class names, or MinimalPath.
func (e *Entry) VCSpec(kind, phaseA string) (string, error) {
	if !e.Supports(kind) {
		return "", fmt.Errorf("routing %s does not run on topology %s (it needs %s)", e.Name, kind, strings.Join(e.Topologies, " or "))
	}
	var any *VCs
	for i := range e.VCs {
		v := &e.VCs[i]
		if v.Topology == AnyTopology {
			any = v
		}
		if v.Topology == kind {
			return v.spec(phaseA), nil
		}
	}
	if any != nil {
		return any.spec(phaseA), nil
	}
	return "", fmt.Errorf("routing %s has no VC sequence for topology %s", e.Name, kind)
}

func (v *VCs) spec(phaseA string) string {
	if v.ToGroup != "" && ToGroup(phaseA) {
		return v.ToGroup
	}
	return v.Spec
}

// VCSpec is the VC sequence of routing name on a topology kind for a
// resolved phase-A policy.
func VCSpec(name, kind, phaseA string) (string, error) {
	e, ok := Lookup(name)
	if !ok {
		return "", fmt.Errorf("no VC sequence for routing %q", name)
	}
	return e.VCSpec(kind, phaseA)
}
