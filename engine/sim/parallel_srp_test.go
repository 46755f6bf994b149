package sim

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// srpCases: SRP (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §III-B, §V-A) with a short drop threshold, so that
// within the run speculative packets are dropped and NACKed from routers
// in every partition, NACKs wait for room in their routers' control
// injection inputs, and reservations, grants, ACKs, NACKs and speculative
// packets (with their queuing time) cross the cut: MIN under HOTSPOT with
// a UN background and UGAL under UN at h=2, UGAL under UN on the 2D
// flattened butterfly (Kim et al.'s router) — the second counting the
// time-to-wait from its message's reservation, with the wait ahead
// (congestion.srpDropClock=message, srpDropAhead); and QCN-Switch's reaction
// points with their byte counters randomised (routing.qcnRpJitter at its
// default 0.15, each node drawing from its own stream).
func srpCases() []goldenCase {
	srp := []string{"congestion.scheme=srp", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "traffic.messagePackets=4"}
	fb2 := append([]string{"topology.dimensions=2", "topology.k=4", "topology.p=4", "sim.warmup=1000", "sim.cycles=2000"}, fbflyRouter...)
	var cs []goldenCase
	add := func(name string, sets ...[]string) { cs = append(cs, goldenCase{name, slices.Concat(sets...)}) }
	add("SRP/MIN/HOTSPOT/UN", srp, []string{"congestion.srpDropThreshold=30", "router.injectionBuffer=8", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=40",
		"traffic.hotspotSenders=0,9,17,33,50,61,70", "traffic.hotspotBackground=UN", "traffic.load=0.6"})
	// with the drop clock from the message's reservation and the wait ahead
	add("SRP/UGAL/UN", srp, []string{"routing.name=UGAL", "congestion.srpDropThreshold=150", "traffic.load=0.7", "congestion.srpDropClock=message", "congestion.srpDropAhead=true"})
	add("fbfly2D/SRP/UGAL/UN", srp, fb2, []string{"routing.name=UGAL", "congestion.srpDropThreshold=300", "traffic.load=0.7"})
	add("QCN/rp/jitter", []string{"routing.name=QCN_SWITCH", "routing.qcnReactionPoints=true", "routing.qcnRpByteCount=64", "routing.qcnCPC=10", "traffic.pattern=ADV", "traffic.load=0.6"})
	return cs
}

// TestParallelSRPCasesExercised: the configurations of srpCases are
// partitioned and act in the run — SRP drops speculative packets and
// NACKs them, some NACKs wait for room in their router's control input,
// and the reaction points cut rates and draw their byte counters' jitter —
// or TestParallelBitIdentical would not check the NACKs' queues, the
// queuing times crossing the cut or the nodes' streams.
func TestParallelSRPCasesExercised(t *testing.T) {
	waited := int64(0)
	for _, gc := range srpCases() {
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		if why := s.parallelBlocker(); why != "" {
			t.Errorf("%s: runs sequentially: %s", gc.name, why)
			continue
		}
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(gc.name, "QCN/") {
			q := r.Mechanisms["qcn"]
			t.Logf("%s: %v", gc.name, q)
			if s.qc.rp.p.Jitter == 0 || s.qc.rp.cuts < 20 || s.qc.rp.increases == 0 {
				t.Errorf("%s: reaction points with jitter %g: %d cuts, %d increases", gc.name, s.qc.rp.p.Jitter, s.qc.rp.cuts, s.qc.rp.increases)
			}
			continue
		}
		m := mechOf[*srp](t, s)
		t.Logf("%s: %v; %d NACKs waited for room", gc.name, r.Mechanisms["srp"], m.nackWaited)
		if m.drops < 10 || m.reservations < 50 {
			t.Errorf("%s: %d drops, %d reservations: want SRP to drop and NACK", gc.name, m.drops, m.reservations)
		}
		waited += m.nackWaited
	}
	if waited == 0 {
		t.Error("no NACK waited for room in its router's control injection input")
	}
}
