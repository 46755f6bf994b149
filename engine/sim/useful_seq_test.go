package sim

import (
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/routing"
)

// seqBase is a small network of each topology kind (and one of a single
// partition key), with the settings a mechanism needs to validate; the
// matrix below adds a routing, a scheme and an idle-update rule to each.
var seqBases = []struct {
	name string
	sets []string
}{
	{"dragonfly h=2", nil},
	{"fbfly 1D", []string{"topology.kind=fbfly", "topology.dimensions=1", "topology.k=4", "topology.p=2"}},
	{"fbfly 2D", []string{"topology.kind=fbfly", "topology.dimensions=2", "topology.k=4", "topology.p=2"}},
	{"fbfly 2D, one row", []string{"topology.kind=fbfly", "topology.dimensions=2", "topology.k=1", "topology.p=2"}},
	{"fattree", []string{"topology.kind=fattree", "topology.k=4", "topology.stages=3", "topology.p=1",
		"physical.linkGbps=8", "physical.phitBytes=8", "router.localVCs=1", "router.injectionVCs=1", "router.packetSize=8",
		"router.localBuffer=16384", "router.injectionBuffer=16384", "router.outputBuffer=256"}},
	{"mesh 4×3", []string{"topology.kind=mesh", "topology.width=4", "topology.height=3", "topology.p=1"}},
	{"mesh 4×1 (one row)", []string{"topology.kind=mesh", "topology.width=4", "topology.height=1", "topology.p=1"}},
	{"graph500", []string{"workload.kind=graph500", "workload.scale=8"}},
	{"graph500, per-destination queues", []string{"workload.kind=graph500", "workload.scale=8",
		"traffic.sourceQueue=true", "traffic.sourceQueues=perDestination"}},
}

// seqVariants: each routing × scheme × idle-update rule gets these too —
// the options that change a mechanism's hooks or control class (router.voq,
// CBCM's early detection, QCN-Switch's input sampling and reaction points,
// the contention counters and ECtN, FOGSim's whole model).
var seqVariants = [][]string{
	nil,
	{"router.voq=true", "congestion.cbcmEarly=true"},
	{"routing.qcnSampling=input", "routing.qcnReactionPoints=true"},
	{"routing.trigger=ectn", "routing.injectionTrigger=base"},
	{"fogsim"},
}

// seqConfig applies sets to the h=2 Dragonfly's configuration ("fogsim":
// FOGSim's router and routing model); ok is false when a setting does not
// apply or the result does not validate.
func seqConfig(sets []string) (c config.Config, ok bool) {
	c = config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 100, 100, 1
	for _, kv := range sets {
		if kv == "fogsim" {
			c.UseFOGSimModel()
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		p, found := config.Lookup(k)
		if !found || p.SetString(&c, v) != nil {
			return c, false
		}
	}
	return c, len(c.Validate()) == 0
}

// TestSequentialNoteAgreesWithEngine: SequentialNote, read from the
// configuration, is the note parallelBlocker gives the built Sim — the
// same string, "" for the same configurations — on every routing ×
// congestion scheme × router.idleUpdates rule × variant of seqVariants of
// every topology kind (those that validate), and on every configuration of
// TestParallelBitIdentical. It is what UsefulPartitions reads to give a
// run the engine keeps sequential one thread or worker (engine/PARALLEL.md,
// "When a split pays"): a reason added to parallelBlocker that a
// configuration decides makes this test fail until SequentialNote knows
// it.
func TestSequentialNoteAgreesWithEngine(t *testing.T) {
	built, sequential := 0, 0
	notes := map[string]int{}
	check := func(name string, c config.Config) bool {
		s, err := New(c, 1)
		if err != nil { // refused by the engine (a routing's contention counters with SRP): no run to split
			return false
		}
		built++
		if why := s.parallelBlocker(); why != "" {
			sequential++
			notes[why]++
		}
		got, want := SequentialNote(&c), s.parallelBlocker()
		if got != want {
			t.Errorf("%s: SequentialNote %q, the engine %q", name, got, want)
		}
		return true
	}
	schemes := map[string]int{}
	for _, b := range seqBases {
		for _, rt := range routing.Names() {
			for _, scheme := range []string{"none", "ecn", "ideal", "cbcm", "srp", "recn"} {
				for _, idle := range []string{"every", "fogsim"} {
					for _, v := range seqVariants {
						sets := append(append([]string(nil), b.sets...), "routing.name="+rt, "congestion.scheme="+scheme, "router.idleUpdates="+idle)
						switch scheme {
						case "ecn", "cbcm", "srp":
							sets = append(sets, "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination")
						case "ideal":
							sets = append(sets, "traffic.pattern=HOTSPOT", "traffic.hotspotCount=2")
						}
						c, ok := seqConfig(append(sets, v...))
						if !ok {
							continue
						}
						if check(strings.Join(append(sets, v...), " "), c) {
							schemes[scheme]++
						}
					}
				}
			}
		}
	}
	for _, gc := range parallelCases() {
		if !check(gc.name, parallelConfig(t, gc)) {
			t.Errorf("%s: the engine refuses it", gc.name)
		}
	}
	// the matrix must reach every scheme and both answers, or it checks
	// less than it says
	for _, scheme := range []string{"none", "ecn", "ideal", "cbcm", "srp", "recn"} {
		if schemes[scheme] == 0 {
			t.Errorf("no configuration with congestion.scheme=%s validated", scheme)
		}
	}
	if sequential == 0 || sequential == built {
		t.Errorf("%d of %d configurations sequential: the matrix must have both", sequential, built)
	}
	// and each reason SequentialNote reads from a configuration that a
	// topology kind today has (every kind has a partition rule)
	for _, why := range []string{fogsimIdleNote, jobQueueNote, "topology mesh 4×1 p=1: one partition key (group, row or subtree): nothing to partition"} {
		if notes[why] == 0 {
			t.Errorf("no configuration of the matrix runs sequentially for %q", why)
		}
	}
	t.Logf("%d configurations, %d sequential (%v); by scheme %v", built, sequential, notes, schemes)
}
