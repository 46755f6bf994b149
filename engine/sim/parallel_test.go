package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"phitsim/engine/config"
)

// runDoc runs gc's configuration with seed 1 on the given number of
// threads (partitions) and returns its whole result document (CPU time
// zeroed: the one field that is not a function of configuration and seed),
// followed by the network snapshots the case watches (watchSnapshots).
func runDoc(t *testing.T, gc goldenCase, threads int) ([]byte, string) {
	t.Helper()
	s, err := New(parallelConfig(t, gc), 1)
	if err != nil {
		t.Fatalf("%s: New: %v", gc.name, err)
	}
	s.SetThreads(threads)
	snaps := watchSnapshots(t, s, gc)
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatalf("%s (%d threads): Run: %v", gc.name, threads, err)
	}
	if s.reran {
		t.Errorf("%s (%d threads): a deadlock was seen in a window of a run that has none", gc.name, threads)
	}
	r.CPUSeconds = 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, *snaps...), r.Sequential
}

// parallelConfig is gc's golden configuration with 400 + 600 cycles (ten
// windows of the h=2 network's 100-cycle global links; CI time), unless gc
// sets its own run length.
func parallelConfig(t *testing.T, gc goldenCase) config.Config {
	c := goldenConfig(t, gc)
	own := false
	for _, kv := range gc.sets {
		own = own || strings.HasPrefix(kv, "sim.warmup=") || strings.HasPrefix(kv, "sim.cycles=") || strings.HasPrefix(kv, "traffic.switchCycle=")
	}
	if !own && gc.name != "graph500" {
		c.Sim.Warmup, c.Sim.Cycles = 400, 600
	}
	return c
}

// parallelCases: the golden configurations (h=2, 9 groups) and a few at
// h=3 (19 groups), below and above saturation.
func parallelCases() []goldenCase {
	cs := goldenCases()
	h3 := []string{"topology.h=3", "topology.a=6", "topology.p=3", "traffic.load=0.5"}
	for _, rt := range []string{"MIN", "VAL", "UGAL", "PAR", "OLM"} {
		for _, pat := range []string{"UN", "ADV"} {
			cs = append(cs, goldenCase{"h3/" + rt + "/" + pat, append([]string{"routing.name=" + rt, "traffic.pattern=" + pat}, h3...)})
		}
	}
	// HOTSPOT (Kim et al., Contention-based Congestion Management in
	// Large-Scale Networks §V-A): backlogged senders in every partition
	cs = append(cs, goldenCase{"MIN/HOTSPOT", []string{"traffic.pattern=HOTSPOT", "traffic.hotspotCount=12", "traffic.load=0.3"}},
		goldenCase{"UGAL/HOTSPOT/UN", []string{"routing.name=UGAL", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=40", "traffic.hotspotSenders=0,9,17,33,50,61,70", "traffic.hotspotBackground=UN", "traffic.load=0.5"}},
		// a hotspot starting during the run (Kim et al. Fig. 13): the
		// background's latency per interval
		goldenCase{"UGAL/HOTSPOT/start", []string{"routing.name=UGAL", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=40", "traffic.hotspotSenders=0,9,17,33,50,61,70", "traffic.hotspotStart=500", "sim.interval=100", "traffic.load=0.3"}})
	// a load step (ACOR paper §6.2.1), from a load and from none: every
	// partition redraws its own nodes' gaps; messages of several packets
	// in single source queues
	cs = append(cs, goldenCase{"UGAL/switchLoad", []string{"routing.name=UGAL", "traffic.switchCycle=1200", "traffic.switchLoad=0.7", "traffic.load=0.2"}},
		goldenCase{"MIN/switchLoad/from0", []string{"traffic.switchCycle=1200", "traffic.switchLoad=0.5", "traffic.load=0"}},
		goldenCase{"VAL/messages", []string{"routing.name=VAL", "traffic.sourceQueue=true", "traffic.messagePackets=4", "traffic.load=0.5"}})
	// the contention counters (thesis §4.2.1): Base, Filtered and Hybrid
	// triggers of PAR and OLM, ECtN's group counters broadcast within the
	// group (§4.2.1.4; every 20 cycles here, so that a 1,000-cycle run
	// makes 50 broadcasts), and UGAL's and PB's triggers at injection,
	// PB's together with its own broadcast; below and above saturation
	for _, cc := range [][]string{
		{"PAR/base/ADV", "routing.name=PAR", "routing.trigger=base", "traffic.pattern=ADV", "traffic.load=0.5"},
		{"OLM/filtered/ADV", "routing.name=OLM", "routing.trigger=filtered", "traffic.pattern=ADV", "traffic.load=0.5"},
		{"PAR/hybrid/UN", "routing.name=PAR", "routing.trigger=hybrid", "traffic.load=0.9"},
		{"PAR/ectn/ADV", "routing.name=PAR", "routing.trigger=ectn", "routing.ectnPeriod=20", "traffic.pattern=ADV", "traffic.load=0.5"},
		{"OLM/ectn/UN", "routing.name=OLM", "routing.trigger=ectn", "routing.ectnPeriod=20", "routing.ectnThreshold=3", "traffic.load=0.8"},
		{"UGAL/base/ADV", "routing.name=UGAL", "routing.injectionTrigger=base", "traffic.pattern=ADV", "traffic.load=0.4"},
		{"PB/ectn/ADV", "routing.name=PB", "routing.injectionTrigger=ectn", "routing.ectnPeriod=20", "traffic.pattern=ADV", "traffic.load=0.4"},
	} {
		cs = append(cs, goldenCase{cc[0], cc[1:]})
	}
	for _, cc := range [][]string{
		{"h3/PAR/ectn/ADV", "routing.name=PAR", "routing.trigger=ectn", "routing.ectnPeriod=20", "traffic.pattern=ADV"},
		{"h3/OLM/filtered/UN", "routing.name=OLM", "routing.trigger=filtered"},
		{"h3/UGAL/ectn/ADV", "routing.name=UGAL", "routing.injectionTrigger=ectn", "routing.ectnPeriod=20", "routing.ectnThreshold=4", "traffic.pattern=ADV"},
	} {
		cs = append(cs, goldenCase{cc[0], append(cc[1:], h3...)})
	}
	// FlexVC (thesis §5.2: the selection policies of §5.2.1, random from
	// the router's stream; request-reply's reply subsequence, Table 5.4)
	// and DAMQ input buffers (§5.1.2, §5.3: the shared pool's credits moved
	// between the VCs of an output, PB's and UGAL's views of them)
	for _, cc := range [][]string{
		{"MIN/flexVC/UN", "router.flexVC=true", "router.localVCs=4", "router.globalVCs=2", "traffic.load=0.8"},
		{"UGAL/flexVC/random/ADV", "routing.name=UGAL", "router.flexVC=true", "router.vcSelection=random", "router.localVCs=5", "router.globalVCs=3", "traffic.pattern=ADV", "traffic.load=0.5"},
		{"OLM/flexVC/reactive", "routing.name=OLM", "router.flexVC=true", "router.localVCs=6", "router.globalVCs=3", "traffic.reactive=true", "traffic.pattern=ADV", "traffic.load=0.4"},
		{"PB/damq/ADV", "routing.name=PB", "router.damq=true", "router.damqReserve=25", "traffic.pattern=ADV", "traffic.load=0.5"},
		{"PAR/damq/flexVC/UN", "routing.name=PAR", "router.damq=true", "router.damqReserve=50", "router.flexVC=true", "router.localVCs=6", "router.globalVCs=3", "traffic.load=0.9"},
	} {
		cs = append(cs, goldenCase{cc[0], cc[1:]})
	}
	for _, cc := range [][]string{
		{"h3/UGAL/damq/ADV", "routing.name=UGAL", "router.damq=true", "router.damqReserve=75", "traffic.pattern=ADV"},
		{"h3/MIN/flexVC/UN", "router.flexVC=true", "router.localVCs=4", "router.globalVCs=2", "traffic.load=0.9"},
	} {
		cs = append(cs, goldenCase{cc[0], append(cc[1:], h3...)})
	}
	// router.queueing (Duato et al., A New Scalable and Cost-Effective
	// Congestion Management Strategy for Lossless Multistage
	// Interconnection Networks §4.1, §4.3) and router.voq (Kim et al.,
	// Contention-based Congestion Management in Large-Scale Networks
	// §V-A): the queues per output, per destination host or four per VC,
	// and the out-of-order counters per (source, destination) pair, whose
	// packets' numbers cross the cut with them
	for _, cc := range [][]string{
		{"PAR/iq/order", "routing.name=PAR", "router.queueing=iq", "traffic.pattern=ADV", "traffic.load=0.5"},
		{"MIN/4q/UN", "router.queueing=4q", "traffic.load=0.8"},
		{"VAL/voqsw/ADV", "routing.name=VAL", "router.queueing=voqsw", "traffic.pattern=ADV", "traffic.load=0.4"},
		{"MIN/voqnet/UN", "router.queueing=voqnet", "router.injectionBuffer=576", "router.localBuffer=576", "router.globalBuffer=576", "traffic.load=0.6"},
		{"MIN/voq/HOTSPOT", "router.voq=true", "traffic.pattern=HOTSPOT", "traffic.hotspotCount=12", "traffic.load=0.3"},
		// rrhold's holds and credit reservations, per router
		{"MIN/voq/HOTSPOT/rrhold", "router.voq=true", "router.inputArbiter=rrhold", "traffic.pattern=HOTSPOT", "traffic.hotspotCount=12", "traffic.load=0.3"},
	} {
		cs = append(cs, goldenCase{cc[0], cc[1:]})
	}
	// per-destination source queues served round-robin (Duato et al.
	// §4.1's admittance queues, unbounded), messages of several packets
	cs = append(cs, goldenCase{"UGAL/perDestination", []string{"routing.name=UGAL", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "traffic.messagePackets=3", "traffic.pattern=ADV", "traffic.load=0.5"}},
		goldenCase{"UGAL/admittance", []string{"routing.name=UGAL", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "traffic.admittanceQueue=4", "traffic.messagePackets=2", "traffic.pattern=ADV", "traffic.load=0.7"}},
		goldenCase{"MIN/voqnet/perDestination", []string{"router.queueing=voqnet", "router.injectionBuffer=576", "router.localBuffer=576", "router.globalBuffer=576", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "traffic.load=0.7"}})
	cs = append(cs, goldenCase{"h3/VAL_GROUP/4q/ADV", append([]string{"routing.name=VAL_GROUP", "router.queueing=4q", "traffic.pattern=ADV"}, h3...)})
	// ACOR (ACOR paper §4.2.2, Table 2) and PB-ACOR (§4.3): every level
	// sequence and blocked count, ACOR-Switch's per-router levels (short
	// hysteresis intervals, so that routers rise and fall in every window)
	// with the transient record's levels (Fig. 10), ACOR-Packet's levels
	// crossing the cut in the packets
	for _, cc := range [][]string{
		{"ACOR/2LA/ADV/hi100", "routing.name=ACOR", "routing.acorSequence=2LA", "routing.acorHI=100", "traffic.pattern=ADV", "traffic.load=0.5"},
		{"ACOR/2LB/fogsimCount/UN", "routing.name=ACOR", "routing.acorSequence=2LB", "routing.acorCount=fogsim", "routing.acorHI=120", "routing.acorIT1=25", "routing.acorDT1=15", "traffic.load=0.5"},
		{"ACOR/3L/transient", "routing.name=ACOR", "routing.acorHI=100", "routing.acorIT1=5", "routing.acorIT2=20", "routing.acorDT2=10",
			"traffic.switchCycle=600", "traffic.switchPattern=ADV", "traffic.pattern=UN", "traffic.load=0.5", "sim.warmup=300", "sim.cycles=700"},
		{"ACOR/packet/2LA/fogsimCount", "routing.name=ACOR", "routing.acorMode=packet", "routing.acorSequence=2LA", "routing.acorCount=fogsim", "traffic.pattern=ADV", "traffic.load=0.6"},
		{"PB_ACOR/packet/2LB/UN", "routing.name=PB_ACOR", "routing.acorMode=packet", "routing.acorSequence=2LB", "traffic.load=0.9"},
		{"PB_ACOR/3L/fogsimCount/piggyback", "routing.name=PB_ACOR", "routing.acorCount=fogsim", "routing.acorHI=100", "routing.pbBroadcast=piggyback", "traffic.pattern=ADV", "traffic.load=0.6"},
	} {
		cs = append(cs, goldenCase{cc[0], cc[1:]})
	}
	for _, cc := range [][]string{
		{"h3/ACOR/2LB/hi100", "routing.name=ACOR", "routing.acorSequence=2LB", "routing.acorHI=100", "traffic.pattern=ADV"},
		{"h3/PB_ACOR/packet/3L", "routing.name=PB_ACOR", "routing.acorMode=packet", "routing.acorCount=fogsim", "traffic.pattern=ADVC"},
	} {
		cs = append(cs, goldenCase{cc[0], append(cc[1:], h3...)})
	}
	// QCN-Switch (QCN-Switch paper §2–3): congestion points sampling
	// every 8–10 packets, so that every window carries notifications
	// across the cut; output and input sampling, FOGSim's sampling clock,
	// source processing (§3.2.1) by comparison and by FOGSim's cut, both
	// non-minimal rules, the reaction points with unrandomised byte
	// counters, the probabilities' trace across a pattern switch
	for _, cc := range [][]string{
		{"QCN/output/ADV", "routing.name=QCN_SWITCH", "routing.qcnCPC=10", "traffic.pattern=ADV", "traffic.load=0.5"},
		{"QCN/input/cut/clock/UN", "routing.name=QCN_SWITCH", "routing.qcnSampling=input", "routing.qcnSourceProcessing=true", "routing.qcnSourceProcessingRule=cut",
			"routing.qcnSamplingClock=fogsim", "routing.qcnFeedbackComparison=off", "routing.qcnCPC=8", "router.injectionBuffer=16", "traffic.load=0.8"},
		{"QCN/input/sp/randomGroup/rp", "routing.name=QCN_SWITCH", "routing.qcnSampling=input", "routing.qcnSourceProcessing=true", "routing.qcnNonMinimal=randomGroup",
			"routing.qcnReactionPoints=true", "routing.qcnRpJitter=-1", "routing.qcnCPC=10", "traffic.pattern=ADV", "traffic.load=0.6"},
		{"QCN/output/transient", "routing.name=QCN_SWITCH", "routing.qcnCPC=10", "traffic.switchCycle=600", "traffic.switchPattern=ADV", "traffic.load=0.5",
			"sim.warmup=300", "sim.cycles=700", "sim.interval=100"},
	} {
		cs = append(cs, goldenCase{cc[0], cc[1:]})
	}
	cs = append(cs, goldenCase{"h3/QCN/output/ADV", append([]string{"routing.name=QCN_SWITCH", "routing.qcnCPC=10", "traffic.pattern=ADV"}, h3...)})
	// the run's length decided on the whole network's counters
	cs = append(cs, goldenCase{"MIN/autoWarmup", []string{"sim.autoWarmup=true", "sim.warmup=4000", "sim.interval=20", "traffic.load=0.6"}},
		goldenCase{"UGAL/precision", []string{"routing.name=UGAL", "sim.precision=0.02", "sim.interval=50", "traffic.pattern=ADV", "traffic.load=0.4"}})
	cs = append(cs, mechCases()...)
	cs = append(cs, srpCases()...)      // parallel_srp_test.go
	cs = append(cs, recnCases()...)     // recn_parallel_test.go
	cs = append(cs, graph500Cases()...) // parallel_graph500_test.go
	return append(cs, topologyCases()...)
}

// TestParallelBitIdentical: a run split into 2, 3, 4 and 7 partitions
// (7 does not divide the 9 groups of h=2, nor the 19 of h=3) gives the
// sequential run's whole result document, on every configuration the
// partitioned engine covers (engine/PARALLEL.md); the others say why they
// ran sequentially and are otherwise the same document.
func TestParallelBitIdentical(t *testing.T) {
	covered := 0
	for _, gc := range parallelCases() {
		if gc.name == "graph500" {
			continue // scale 10, 10,000 cycles: graph500Cases cover the job at scale 8
		}
		want, note := runDoc(t, gc, 1)
		if note != "" {
			t.Fatalf("%s: a sequential run carries the note %q", gc.name, note)
		}
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		if why := s.parallelBlocker(); why != "" {
			if !sequentialCase(gc.name) {
				t.Errorf("%s: runs sequentially (%s), but the partitioned engine covers it", gc.name, why)
			}
			got, note := runDoc(t, gc, 3)
			if note != why {
				t.Errorf("%s: note %q, want %q", gc.name, note, why)
			}
			if !bytes.Equal(withoutNote(got), want) {
				t.Errorf("%s: the sequential fallback's document differs", gc.name)
			}
			continue
		}
		covered++
		for _, n := range []int{2, 3, 4, 7} {
			if n > s.partitionKeys() { // as many partitions as keys
				continue
			}
			got, note := runDoc(t, gc, n)
			if note != "" {
				t.Errorf("%s, %d partitions: ran sequentially: %s", gc.name, n, note)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %d partitions: the result document differs from the sequential run's:\n%s", gc.name, n, firstDiff(got, want))
			}
		}
	}
	if covered < 40 {
		t.Errorf("%d configurations covered, want at least 40", covered)
	}
	t.Logf("%d configurations bit-identical on 2, 3, 4 and 7 partitions", covered)
}

// withoutNote drops the sequential field from a result document.
func withoutNote(b []byte) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return b
	}
	r := &struct{}{}
	_ = r
	i := bytes.Index(b, []byte(`,"sequential":`))
	if i < 0 {
		return b
	}
	j := i + len(`,"sequential":`)
	var sq string
	dec := json.NewDecoder(bytes.NewReader(b[j:]))
	if err := dec.Decode(&sq); err != nil {
		return b
	}
	return append(append([]byte(nil), b[:i]...), b[j+int(dec.InputOffset()):]...)
}

// firstDiff shows where two documents first differ.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-80, 0)
	return "got  …" + string(a[lo:min(i+80, len(a))]) + "\nwant …" + string(b[lo:min(i+80, len(b))])
}

// TestParallelFallbackNote: a configuration the partitioned engine does
// not cover (FOGSim's idle updates: no lookahead) runs sequentially, and
// its result says why.
func TestParallelFallbackNote(t *testing.T) {
	for _, tc := range []struct {
		gc   goldenCase
		want string
	}{
		{goldenCase{"idleUpdates", []string{"routing.name=PB_ACOR", "router.idleUpdates=fogsim", "traffic.load=0.3"}}, "router.idleUpdates=fogsim"},
	} {
		s, err := New(goldenConfig(t, tc.gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		s.SetThreads(4)
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.gc.name, err)
		}
		if !strings.HasPrefix(r.Sequential, tc.want) {
			t.Errorf("%s: sequential note %q, want it to start %q", tc.gc.name, r.Sequential, tc.want)
		}
	}
}

// TestParallelWindowLongerThanCut: a window longer than the latency of the
// cut's links lets a partition run past a packet or credit still to come
// from another: the result must change (the bit-identity test above can
// fail) — on the Dragonfly's global links, the 1D flattened butterfly's
// links, the fat tree's top stage and the mesh's y links.
func TestParallelWindowLongerThanCut(t *testing.T) {
	cases := []goldenCase{{"MIN/UN/0.9", []string{"traffic.load=0.9"}}}
	for _, gc := range topologyCases() { // the other topologies' cuts
		if gc.name == "fbfly1D/MIN/UN" || gc.name == "fattree/MIN/UN" || gc.name == "mesh8/MIN/UN" {
			cases = append(cases, gc)
		}
	}
	defer func() { windowHook = nil }()
	for _, gc := range cases {
		want, _ := runDoc(t, gc, 1)
		windowHook = func(L int64) int64 { return L + 10 }
		got, _ := runDoc(t, gc, 3)
		windowHook = nil
		if bytes.Equal(got, want) {
			t.Errorf("%s: windows of L+10 cycles gave the sequential result: the test cannot see a late delivery", gc.name)
		}
	}
	if len(cases) != 4 {
		t.Errorf("%d cases, want 4", len(cases))
	}
}

// TestParallelRunLength: sim.autoWarmup and sim.precision decide on the
// whole network's counters at a barrier; the cases of parallelCases must
// exercise them (the warm-up found before sim.warmup, the window extended
// past sim.cycles), or TestParallelBitIdentical does not check them.
func TestParallelRunLength(t *testing.T) {
	for _, gc := range parallelCases() {
		var check func(q int64, c int64) bool
		switch gc.name {
		case "MIN/autoWarmup": // the warm-up ends before sim.warmup
			check = func(from, cycles int64) bool { return from < 0 }
		case "UGAL/precision": // the window is longer than sim.cycles
			check = func(from, cycles int64) bool { return cycles > 0 }
		default:
			continue
		}
		c := parallelConfig(t, gc)
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		s.SetThreads(4)
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Sequential != "" || r.Quality == nil || !check(r.Quality.From-int64(c.Sim.Warmup), r.Quality.Cycles-int64(c.Sim.Cycles)) {
			t.Errorf("%s: sequential %q, quality %+v: the case does not exercise its option", gc.name, r.Sequential, r.Quality)
		}
	}
}

// TestParallelDeadlockReport: a deadlock found inside a window (the
// stuck-head check with a bound a saturated network exceeds, round-robin
// allowing a head one overtake; the watchdog
// with a period shorter than a link) gives the sequential run's result,
// report and error: the partitions see it at the same cycle, and the run
// starts again sequentially to report it.
func TestParallelDeadlockReport(t *testing.T) {
	for _, tc := range []struct {
		gc  goldenCase
		set func(s *Sim)
	}{
		{goldenCase{"stuck", []string{"traffic.pattern=ADV", "traffic.load=0.9"}}, func(s *Sim) { s.dl.age, s.dl.fair = 150, 1 }},
		{goldenCase{"watchdog", []string{"routing.name=VAL", "traffic.load=0.002"}}, func(s *Sim) { s.watchdog = 40 }},
		// PB's broadcast, a cycle hook: the sequential run again must
		// step it on its own clock
		{goldenCase{"stuck/PB", []string{"routing.name=PB", "topology.h=3", "topology.a=6", "topology.p=3", "traffic.pattern=ADV", "traffic.load=0.9"}}, func(s *Sim) { s.dl.age, s.dl.fair = 150, 1 }},
		// hooks bound to their Sim (ACOR's levels; QCN-Switch's congestion
		// points and notifications): the sequential run again has its own
		{goldenCase{"stuck/ACOR", []string{"routing.name=ACOR", "routing.acorHI=100", "traffic.pattern=ADV", "traffic.load=0.9"}}, func(s *Sim) { s.dl.age, s.dl.fair = 150, 1 }},
		{goldenCase{"stuck/QCN_SWITCH", []string{"routing.name=QCN_SWITCH", "routing.qcnCPC=10", "traffic.pattern=ADV", "traffic.load=0.9"}}, func(s *Sim) { s.dl.age, s.dl.fair = 150, 1 }},
	} {
		var docs [2]string
		var errs [2]string
		for i, threads := range []int{1, 3} {
			s, err := New(goldenConfig(t, tc.gc), 1)
			if err != nil {
				t.Fatal(err)
			}
			tc.set(s)
			s.SetThreads(threads)
			snaps := watchSnapshots(t, s, tc.gc)
			r, err := s.Run(context.Background(), nil)
			if err == nil || r == nil || r.Deadlock == nil {
				t.Fatalf("%s, %d threads: no deadlock (%v)", tc.gc.name, threads, err)
			}
			if threads > 1 && !s.reran {
				t.Errorf("%s: the partitioned run did not stop at the deadlock", tc.gc.name)
			}
			r.CPUSeconds = 0
			b, _ := json.Marshal(r)
			docs[i], errs[i] = string(b)+string(*snaps), err.Error()
		}
		if docs[0] != docs[1] || errs[0] != errs[1] {
			t.Errorf("%s: 3 partitions report %q, one %q", tc.gc.name, errs[1], errs[0])
		}
		t.Logf("%s: %s", tc.gc.name, errs[0])
	}
}

// TestParallelCountersCopied: every per-interval or per-entry count slice
// of the statistics is a partition's own (not the whole run's, which the
// partitions would then write at once) and is added back by absorb. A count
// added to the statistics without both shows here, whether or not a
// configuration of TestParallelBitIdentical exercises it.
func TestParallelCountersCopied(t *testing.T) {
	c := goldenConfig(t, goldenCase{"counters", []string{"routing.name=UGAL", "traffic.pattern=HOTSPOT",
		"traffic.hotspotNode=40", "traffic.hotspotSenders=0,9,17,33", "traffic.hotspotStart=500",
		"sim.interval=100", "traffic.load=0.3", "traffic.switchCycle=1200", "traffic.switchLoad=0.5"}})
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	part := s.st.partitionCopy()
	run := map[string]reflect.Value{}
	countSlices(reflect.ValueOf(&s.st).Elem(), func(name string, a reflect.Value) { run[name] = a })
	n := 0
	countSlices(reflect.ValueOf(&part).Elem(), func(name string, a reflect.Value) {
		if a.Pointer() == run[name].Pointer() {
			t.Errorf("%s: the partition's copy shares the run's counts", name)
			return
		}
		a = settable(a)
		for j := 0; j < a.Len(); j++ {
			a.Index(j).SetInt(1)
		}
		n++
	})
	if n < 10 {
		t.Fatalf("only %d count slices found", n)
	}
	s.st.absorb(&part)
	countSlices(reflect.ValueOf(&part).Elem(), func(name string, a reflect.Value) {
		r := run[name]
		for j := 0; j < a.Len(); j++ {
			if r.Index(j).Int() != 1 || a.Index(j).Int() != 0 {
				t.Errorf("%s[%d]: absorb left the run %d and the partition %d, want 1 and 0", name, j, r.Index(j).Int(), a.Index(j).Int())
				break
			}
		}
	})
}

// settable is v (an addressable unexported field) made writable.
func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// TestParallelWithinAllowance: a partitioned run's copies fit the memory
// estimate's allowance (config.PartitionAllowance), so the covered
// configurations split into every group; one whose statistics are too big
// for it runs sequentially and says why.
func TestParallelWithinAllowance(t *testing.T) {
	for _, gc := range parallelCases() {
		c := parallelConfig(t, gc)
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		if per, allow := s.partitionBytes(), c.PartitionAllowance(); per*int64(s.partitionKeys()-1) > allow {
			t.Errorf("%s: %d partitions need %d bytes, the estimate allows %d", gc.name, s.partitionKeys(), per*int64(s.partitionKeys()-1), allow)
		}
	}
	c := parallelConfig(t, goldenCase{"big", []string{"sim.histMax=1000000", "sim.interval=1", "traffic.load=0.1"}})
	c.Sim.Warmup, c.Sim.Cycles = 100, 20000
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.SetThreads(4)
	res, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Sequential, "the memory estimate allows") {
		t.Errorf("a run whose partitions do not fit: note %q", res.Sequential)
	}
}
