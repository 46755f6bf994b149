// Package docs is the page's short documentation: one section per routing,
// traffic pattern, arbiter, router model and metric, each saying what the
// mechanism is, which paper and section it comes from, and what to expect
// of it (and the Dragonfly itself). The page links each select and chart to its section (For,
// Metric), so that a first-time visitor learns what ADV+1, PiggyBack or the
// latency curve mean without leaving the page. Plain Go, no DOM; the text
// ships in ui.wasm only, so it is kept short.
package docs

import "strings"

// Topic is one documentation section.
type Topic struct {
	ID    string `json:"id"`    // "routing-PB", "traffic-ADV", "metric-latency"
	Kind  string `json:"kind"`  // topology, routing, traffic, arbiter, router, metric
	Title string `json:"title"` // "PiggyBack (PB)"
	// What the mechanism is, in 2–5 sentences.
	Text string `json:"text"`
	// Paper and section it comes from.
	Paper string `json:"paper"`
	// What to expect of it in the charts.
	Expect string `json:"expect"`
}

// Topics lists every section, grouped by kind, in the page's order.
func Topics() []Topic { return topics }

// Lookup finds a section by id.
func Lookup(id string) (Topic, bool) {
	for _, t := range topics {
		if t.ID == id {
			return t, true
		}
	}
	return Topic{}, false
}

// For maps a configuration parameter (its dotted path) and, for a choice,
// its value to the section that explains it: For("routing.name", "PB") is
// "routing-PB", For("traffic.pattern", "ADV") "traffic-ADV",
// For("router.inputArbiter", "age") "arbiter-age". A parameter that is a
// mechanism of its own (router.speedup, traffic.reactive, …) maps with any
// value. ok is false when nothing documents it.
func For(path, value string) (id string, ok bool) {
	if prefix, ok := valueTopics[path]; ok {
		id = prefix + value
		if path == "routing.phaseA" {
			id = phaseATopic(value)
		}
		if _, ok := Lookup(id); ok {
			return id, true
		}
		return "", false
	}
	id, ok = paramTopics[path]
	return id, ok
}

// valueTopics: parameters whose every allowed value has its own section,
// id = prefix + value.
var valueTopics = map[string]string{
	"topology.kind":          "topology-",
	"routing.name":           "routing-",
	"traffic.pattern":        "traffic-",
	"traffic.switchPattern":  "traffic-",
	"traffic.process":        "process-",
	"router.inputArbiter":    "arbiter-",
	"router.outputArbiter":   "arbiter-",
	"router.injectionPolicy": "injection-",
	"router.model":           "router-",
	"router.vcSelection":     "vcselection-",
	"routing.phaseA":         "phasea-",
	"congestion.scheme":      "congestion-",
}

// phaseATopic: RRG-Sw and RRG-Gr share the RRG section (the -Sw/-Gr
// suffix is explained there), CRG likewise; auto is the default policy.
func phaseATopic(v string) string {
	if v == "auto" {
		return "phasea-auto"
	}
	g, _, _ := strings.Cut(v, "-")
	return "phasea-" + g
}

// paramTopics: parameters documented by one section whatever their value.
var paramTopics = map[string]string{
	"sim.watchdog":                  "metric-deadlock",
	"sim.autoWarmup":                "metric-verdict",
	"sim.precision":                 "metric-verdict",
	"sim.maxCycles":                 "metric-verdict",
	"sim.maxSeeds":                  "metric-verdict",
	"physical.linkGbps":             "units-physical",
	"physical.phitBytes":            "units-physical",
	"physical.cableNsPerMeter":      "units-physical",
	"topology.width":                "topology-mesh",
	"topology.height":               "topology-mesh",
	"topology.dimensions":           "topology-fbfly",
	"topology.k":                    "topology-fbfly",
	"topology.stages":               "topology-fattree",
	"router.queueing":               "router-queueing",
	"topology.subtrees":             "topology-fattree",
	"traffic.hotspotNode":           "traffic-HOTSPOT",
	"traffic.hotspotSenders":        "traffic-HOTSPOT",
	"traffic.sourceQueue":           "traffic-messages",
	"traffic.messagePackets":        "traffic-messages",
	"traffic.sourceQueues":          "traffic-messages",
	"traffic.hotspotBackground":     "traffic-HOTSPOT",
	"congestion.idealPriority":      "congestion-ideal",
	"congestion.ecnThreshold":       "congestion-ecn",
	"congestion.ecnIpdIncrement":    "congestion-ecn",
	"congestion.ecnIpdMax":          "congestion-ecn",
	"congestion.ecnIpdDecrement":    "congestion-ecn",
	"congestion.ecnDecrementPeriod": "congestion-ecn",
	"topology.h":                    "topology-dragonfly",
	"topology.a":                    "topology-dragonfly",
	"topology.p":                    "topology-dragonfly",
	"topology.arrangement":          "topology-arrangement",
	"traffic.localOffset":           "traffic-ADVL",
	"traffic.advcFogsim":            "traffic-ADVC",
	"traffic.advRouter":             "traffic-ADV",
	"traffic.mixUN":                 "traffic-MIX",
	"traffic.mixADVL":               "traffic-MIX",
	"traffic.mixADV":                "traffic-MIX",
	"traffic.mixPerNode":            "traffic-MIX",
	"traffic.hotPercent":            "traffic-HOT",
	"traffic.hotRegion":             "traffic-HOT",
	"traffic.load":                  "metric-accepted",
	"router.xbarLatency":            "router-ioq",
	"router.packetSize":             "router-credits",
	"routing.congestion":            "routing-UGAL",
	"routing.trigger":               "routing-PAR",
	"routing.thMin":                 "routing-PAR",
	"routing.congestedCoef":         "routing-PAR",
	"routing.congestedThreshold":    "routing-PAR",
	"routing.candidateMax":          "routing-PAR",
	"routing.contentionThreshold":   "trigger-contention",
	"routing.ectnThreshold":         "trigger-contention",
	"routing.ectnPeriod":            "trigger-contention",
	"routing.injectionTrigger":      "trigger-contention",
	"router.damq":                   "router-damq",
	"router.flexVC":                 "router-flexvc",
	"router.replyLocalVCs":          "router-flexvc",
	"router.replyGlobalVCs":         "router-flexvc",
	"router.damqReserve":            "router-damq",
	"routing.hybridThreshold":       "trigger-contention",
	"routing.filterAlpha":           "trigger-contention",
	"routing.candidates":            "routing-OLM",
	"routing.intraGroupMisroute":    "routing-OLM",
	"routing.acorHI":                "routing-ACOR",
	"routing.acorCount":             "routing-ACOR",
	"routing.qcnSampling":           "routing-QCN_SWITCH",
	"routing.qcnSamplingClock":      "routing-QCN_SWITCH",
	"routing.qcnSourceProcessing":   "routing-QCN_SWITCH",
	"routing.qcnFeedbackComparison": "routing-QCN_SWITCH",
	"routing.qcnQeq":                "routing-QCN_SWITCH",
	"routing.qcnW":                  "routing-QCN_SWITCH",
	"routing.qcnCPC":                "routing-QCN_SWITCH",
	"routing.qcnCnmPercent":         "routing-QCN_SWITCH",
	"routing.qcnLf":                 "routing-QCN_SWITCH",
	"routing.qcnPCl":                "routing-QCN_SWITCH",
	"routing.qcnPI":                 "routing-QCN_SWITCH",
	"routing.qcnTh1":                "routing-QCN_SWITCH",
	"routing.qcnTh2":                "routing-QCN_SWITCH",
	"routing.qcnNonMinimal":         "routing-QCN_SWITCH",
	"routing.acorIT1":               "routing-ACOR",
	"routing.acorIT2":               "routing-ACOR",
	"routing.acorDT1":               "routing-ACOR",
	"routing.acorDT2":               "routing-ACOR",
	"traffic.advOffset":             "traffic-ADV",
	"traffic.switchCycle":           "traffic-transient",
	"traffic.switchRecord":          "traffic-transient",
	"traffic.switchAdvOffset":       "traffic-transient",
	"traffic.reactive":              "traffic-reactive",
	"traffic.burstLength":           "process-bursty",
	"router.speedup":                "router-speedup",
	"router.creditTiming":           "router-credits",
	"router.ejection":               "router-ejection",
	"router.outputFifo":             "router-ioq",
	"router.idleUpdates":            "routing-ACOR",
	"router.localBuffer":            "router-credits",
	"router.globalBuffer":           "router-credits",
	"router.injectionBuffer":        "router-credits",
	"router.outputBuffer":           "router-ioq",
	"router.transitPriority":        "arbiter-transit",
	"router.iterations":             "router-allocator",
	"routing.pbCoef":                "routing-PB",
	"routing.pbThreshold":           "routing-PB",
	"routing.pbBroadcast":           "routing-PB",
	"routing.ugalMode":              "routing-UGAL",
	"routing.ugalF":                 "routing-UGAL",
	"routing.ugalT":                 "routing-UGAL",
	"routing.policy":                "routing-PAR",
	"routing.acorSequence":          "routing-ACOR",
	"routing.acorMode":              "routing-ACOR",
	"routing.restricted":            "phasea-RRG",
	"routing.recompute":             "phasea-RRG",
	"routing.completePhaseA":        "phasea-RRG",
	"sim.seeds":                     "metric-ci",
	"sim.histMax":                   "metric-histogram",
	"sim.warmup":                    "metric-accepted",
	"sim.cycles":                    "metric-accepted",

	// QCN-Switch's source-processing rule and reaction points
	"routing.qcnSourceProcessingRule": "routing-QCN_SWITCH",
	"routing.qcnReactionPoints":       "routing-QCN_SWITCH",
	"routing.qcnRpGd":                 "routing-QCN_SWITCH",
	"routing.qcnRpByteCount":          "routing-QCN_SWITCH",
	"routing.qcnRpTimer":              "routing-QCN_SWITCH",
	"routing.qcnRpRai":                "routing-QCN_SWITCH",
	"routing.qcnRpRhai":               "routing-QCN_SWITCH",
	"routing.qcnRpMinRate":            "routing-QCN_SWITCH",
	"routing.qcnRpFastRecovery":       "routing-QCN_SWITCH",
	"routing.qcnRpFlows":              "routing-QCN_SWITCH",
	"routing.qcnRpJitter":             "routing-QCN_SWITCH",
}

// chartTopics maps the page's charts (experiment.Charts) to the metric
// they show.
var chartTopics = map[string]string{
	"accepted":    "metric-accepted",
	"latency":     "metric-latency",
	"injlatency":  "metric-injlatency",
	"netlatency":  "metric-injlatency",
	"fairness":    "metric-fairness",
	"histogram":   "metric-histogram",
	"timeseries":  "metric-timeseries",
	"misrouting":  "metric-misrouted",
	"nonminimal":  "metric-misrouted",
	"phasea":      "metric-phasea",
	"acor":        "metric-acor",
	"acorrouters": "metric-acor",
	"exectime":    "metric-exectime",
	"usage":       "metric-usage",
	"bfs":         "metric-bfs",
	"levels":      "metric-bfs",

	// thesis §4.3.2's transients
	"transientlatency":   "metric-timeseries",
	"transientmisrouted": "metric-timeseries",
	"transientaccepted":  "metric-timeseries",
	"transientacor":      "metric-acor",

	// Kim et al.'s HOTSPOT classes
	"bgaccepted":     "metric-hotspot-classes",
	"bglatency":      "metric-hotspot-classes",
	"bgseries":       "metric-hotspot-classes",
	"hotspotsenders": "metric-hotspot-classes",
	"ur1accepted":    "metric-ur1-srp",
	"ur1latency":     "metric-ur1-srp",
	"srpspeculative": "metric-ur1-srp",
	"srpdropped":     "metric-ur1-srp",

	// the QCN-Switch paper's
	"qcnprobability": "metric-qcn-probability",
	"qcncnm":         "metric-qcn-cnm",
	"qcncnmtime":     "metric-qcn-cnm",

	// the RECN paper's Fig. 4
	"recnsaq": "metric-recn-saq",
}

// Metric gives the section of a chart (a name of experiment.Charts).
func Metric(chart string) (id string, ok bool) {
	id, ok = chartTopics[chart]
	return id, ok
}

// PageTitle and Tagline name the simulator on the page (the tab's title,
// the header's tagline; static/index.html has the same title before the
// page starts): every topology kind it runs (engine/topology's registry).
const (
	PageTitle = "phitsim — interconnection-network simulator"
	Tagline   = "cycle-accurate interconnection-network simulator in your browser: Dragonfly, flattened butterfly, fat tree, 2D mesh"
)
