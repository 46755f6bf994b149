package sim

import (
	"slices"
	"strings"
	"testing"
)

// mechCases: the congestion-management mechanisms the partitioned engine
// covers, beyond QCN-Switch (parallel_qcn_test.go), in short runs that
// make them act in every window.
//
// ECN (Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §III-A, §V-A): marks at 50% of a buffer (the paper's 90% marks
// too rarely in 1,000 cycles) and a 100-cycle decrement timer, so that
// BECNs cross the cut and flows are throttled and released in the run;
// under HOTSPOT with and without a background, on the Dragonfly at h=2 and
// h=3 and on the paper's 2D flattened butterfly.
func mechCases() []goldenCase {
	ecn := []string{"congestion.scheme=ecn", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination",
		"congestion.ecnThreshold=50", "congestion.ecnDecrementPeriod=100"}
	h3 := []string{"topology.h=3", "topology.a=6", "topology.p=3", "traffic.load=0.5"}
	fb2 := append([]string{"topology.dimensions=2", "topology.k=4", "topology.p=4", "sim.warmup=1000", "sim.cycles=2000"}, fbflyRouter...)
	var cs []goldenCase
	add := func(name string, sets ...[]string) { cs = append(cs, goldenCase{name, slices.Concat(sets...)}) }
	add("ECN/MIN/HOTSPOT", ecn, []string{"traffic.pattern=HOTSPOT", "traffic.hotspotCount=12", "traffic.load=0.4"})
	add("ECN/UGAL/HOTSPOT/UN", ecn, []string{"routing.name=UGAL", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=40",
		"traffic.hotspotSenders=0,9,17,33,50,61,70", "traffic.hotspotBackground=UN", "traffic.load=0.6"})
	add("h3/ECN/UGAL/ADV", ecn, []string{"routing.name=UGAL", "traffic.pattern=ADV"}, h3)
	add("fbfly2D/ECN/UGAL/HOTSPOT", ecn, fb2, []string{"routing.name=UGAL", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=5",
		"traffic.hotspotSenders=0,17,34,51,60", "traffic.hotspotBackground=UN", "traffic.load=0.5"})
	// Ideal (§V-A): the hotspot flows on the isolated class, at equal and
	// at strictly lowest priority, on the Dragonfly and the flattened
	// butterfly
	hot := []string{"traffic.pattern=HOTSPOT", "traffic.hotspotNode=40", "traffic.hotspotSenders=0,9,17,33,50,61,70", "traffic.hotspotBackground=UN"}
	add("Ideal/UGAL/HOTSPOT/UN", []string{"congestion.scheme=ideal", "routing.name=UGAL", "traffic.load=0.6"}, hot)
	add("Ideal/MIN/HOTSPOT/low", []string{"congestion.scheme=ideal", "congestion.idealPriority=low", "traffic.load=0.5"}, hot)
	add("fbfly2D/Ideal/UGAL/HOTSPOT", fb2, []string{"congestion.scheme=ideal", "routing.name=UGAL", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=5",
		"traffic.hotspotSenders=0,17,34,51,60", "traffic.hotspotBackground=UN", "traffic.load=0.6"})
	// CBCM (§IV): short destination and source epochs (200 cycles), so
	// that hotspots are declared, flows throttled over the cut and
	// released within the run; the plain layout and router.voq (the
	// flattened butterfly's router), the shared and dedicated hotspot VC,
	// the weighted estimator
	cb := []string{"congestion.scheme=cbcm", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "traffic.messagePackets=4",
		"congestion.cbcmDestEpoch=200", "congestion.cbcmSourceEpoch=200"}
	add("CBCM/MIN/HOTSPOT", cb, hot, []string{"traffic.load=0.4"})
	add("CBCM/UGAL/HOTSPOT/shared", cb, hot, []string{"routing.name=UGAL", "congestion.cbcmHotspotVC=shared", "traffic.load=0.5"})
	add("fbfly2D/CBCM/UGAL/HOTSPOT", cb, fb2, []string{"routing.name=UGAL", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=5",
		"traffic.hotspotSenders=0,17,34,51,60", "traffic.hotspotBackground=UN", "traffic.load=0.5"})
	add("fbfly2D/CBCM/MIN/HOTSPOT/weighted", cb, fb2, []string{"congestion.cbcmEstimator=weighted", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=5",
		"traffic.hotspotSenders=0,17,34,51,60", "traffic.hotspotBackground=UN", "traffic.load=0.5"})
	// CBCM's early detection (§VI-A): every router's detector per
	// destination, its throttles from its control injection input and the
	// sources' unthrottles read at the router on their way; the plain
	// layout with the weighted estimator on the Dragonfly, router.voq with
	// the randomized one (each router's draws from its own stream) on the
	// flattened butterfly
	add("CBCM/UGAL/HOTSPOT/early/weighted", cb, hot, []string{"routing.name=UGAL", "congestion.cbcmEarly=true", "congestion.cbcmEstimator=weighted", "traffic.load=0.5"})
	add("fbfly2D/CBCM/UGAL/HOTSPOT/early", cb, fb2, []string{"routing.name=UGAL", "congestion.cbcmEarly=true", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=5",
		"traffic.hotspotSenders=0,17,34,51,60", "traffic.hotspotBackground=UN", "traffic.load=0.5"})
	return cs
}

// TestParallelMechCasesExercised: the mechanism configurations of
// TestParallelBitIdentical are partitioned and their mechanisms act in the
// run — ECN marks packets, returns BECNs and throttles flows — or the
// bit-identity test would not check the control packets crossing the cut,
// the per-partition counts and the hooks bound to each partition.
func TestParallelMechCasesExercised(t *testing.T) {
	n := 0
	for _, gc := range mechCases() {
		n++
		r := partitionedRun(t, gc)
		if r == nil {
			continue
		}
		switch {
		case strings.Contains(gc.name, "ECN/"):
			e := r.Mechanisms["ecn"]
			t.Logf("%s: %v", gc.name, e)
			if e["becns"] < 20 || e["markedShare"] == 0 || e["throttledShare"] == 0 {
				t.Errorf("%s: ECN did not act: %v", gc.name, e)
			}
		case strings.Contains(gc.name, "Ideal/"):
			e := r.Mechanisms["ideal"]
			t.Logf("%s: %v", gc.name, e)
			if e["hotspotFlows"] == 0 || e["hotspotClassPackets"] < 50 {
				t.Errorf("%s: no hotspot packet on the isolated class: %v", gc.name, e)
			}
		case strings.Contains(gc.name, "/early"):
			e := r.Mechanisms["cbcm"]
			t.Logf("%s: %v", gc.name, e)
			if e["earlyHotspots"] == 0 || e["earlyThrottles"] < 4 || e["unthrottles"] == 0 || e["throttledShare"] == 0 {
				t.Errorf("%s: early detection did not act: %v", gc.name, e)
			}
		case strings.Contains(gc.name, "CBCM/"):
			e := r.Mechanisms["cbcm"]
			t.Logf("%s: %v", gc.name, e)
			if e["hotspots"] == 0 || e["throttles"] < 4 || e["markedShare"] == 0 || e["throttledShare"] == 0 {
				t.Errorf("%s: CBCM did not act: %v", gc.name, e)
			}
		default:
			t.Errorf("%s: no check of its mechanism", gc.name)
		}
	}
	if n < 13 {
		t.Errorf("%d mechanism configurations, want at least 13", n)
	}
}
