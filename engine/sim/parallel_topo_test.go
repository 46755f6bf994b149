package sim

import (
	"encoding/json"
	"strings"
	"testing"
)

// The partitioned engine on topologies other than the Dragonfly, each cut
// by its own rule (topology.Partitioned): a flattened butterfly's rows
// (Kim, Dally, Abts, Flattened Butterfly: A Cost-Efficient Topology for
// High-Radix Networks; the router of Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-A), a fat tree's
// subtrees with its top stage shared out (Duato et al., A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks §4.1, the 64-host 4-ary 3-tree) and a mesh's
// rows.

// fbflyRouter is config.FBFly's router (the paper's: 100-cycle channels,
// 32-flit packets, virtual output queues of 4 VCs of 256 flits), as
// assignments.
var fbflyRouter = []string{"topology.kind=fbfly", "topology.localLatency=100", "topology.injectionLatency=1",
	"router.packetSize=32", "router.localBuffer=256", "router.localVCs=4", "router.injectionBuffer=256",
	"router.injectionVCs=4", "router.outputBuffer=128", "router.voq=true", "routing.ugalT=0", "routing.congestion=perPort"}

// fattreeRouter is config.FatTree(4, 3, 0)'s switch (4-cycle links, 8-phit
// packets, one VC of 128 KB per input port), as assignments, with a
// 256-phit output FIFO: the preset's 128 KB one makes the event wheels of
// a partition 3 MB, and 4 partitions would exceed the allowance
// (config.PartitionAllowance) and run as 3.
var fattreeRouter = []string{"topology.kind=fattree", "topology.k=4", "topology.stages=3", "topology.localLatency=4",
	"topology.injectionLatency=4", "router.speedup=1.5", "router.packetSize=8", "router.xbarLatency=3",
	"router.localBuffer=16384", "router.localVCs=1", "router.injectionBuffer=16384", "router.injectionVCs=1",
	"router.outputBuffer=256"}

// topologyCases are the configurations of TestParallelBitIdentical on
// other topologies: MIN and UGAL (its Valiant intermediate from the
// source router's stream, its occupancies of that router's outputs) on a
// 1D flattened butterfly of 8 routers (every router a key: all links cut)
// and on a 2D one of 4 rows (with and without virtual output queues),
// MIN's D-mod-k on the fat tree under UN and HOTSPOT and with the RECN
// paper's baseline queueing schemes, and dimension order on a mesh of 8
// rows.
func topologyCases() []goldenCase {
	var cs []goldenCase
	add := func(name string, base []string, sets ...string) {
		cs = append(cs, goldenCase{name, append(append([]string(nil), base...), sets...)})
	}
	fb1 := append([]string{"topology.dimensions=1", "topology.k=8", "topology.p=4", "sim.warmup=1000", "sim.cycles=2000"}, fbflyRouter...)
	fb2 := append([]string{"topology.dimensions=2", "topology.k=4", "topology.p=4", "sim.warmup=1000", "sim.cycles=2000"}, fbflyRouter...)
	add("fbfly1D/MIN/UN", fb1, "traffic.load=0.8")
	add("fbfly1D/UGAL/PERM", fb1, "routing.name=UGAL", "traffic.pattern=PERM", "traffic.load=0.8")
	add("fbfly2D/UGAL/UN", fb2, "routing.name=UGAL", "routing.ugalIntermediate=any", "traffic.load=0.9")
	add("fbfly2D/MIN/bursty", fb2, "traffic.process=bursty", "traffic.burstLength=8", "traffic.load=0.6")
	// per-output injection queues: the source decision at every attempt
	// from the source router's stream, a new intermediate each time
	add("fbfly2D/UGAL/UN/injectionVoq", fb2, "routing.name=UGAL", "router.injectionVoq=perQueue", "routing.recompute=true",
		"traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "traffic.load=0.9")
	// without virtual output queues: UGAL weighs the output's credits
	add("fbfly2D/UGAL/PERM/noVoq", fb2, "routing.name=UGAL", "router.voq=false", "routing.congestion=perVC", "traffic.pattern=PERM", "traffic.load=0.7")
	ft := append([]string{"sim.warmup=300", "sim.cycles=500"}, fattreeRouter...)
	add("fattree/MIN/UN", ft, "traffic.load=0.7")
	add("fattree/MIN/HOTSPOT", ft, "traffic.pattern=HOTSPOT", "traffic.hotspotNode=33", "traffic.hotspotSenders=0,5,21,40,58",
		"traffic.hotspotBackground=UN", "traffic.load=0.5")
	// the RECN paper's baselines (§4.1, §4.3): one queue per input, four
	// with out-of-order counting, per output and per destination host
	add("fattree/iq/HOTSPOT", ft, "router.queueing=iq", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=33",
		"traffic.hotspotSenders=0,5,21,40,58", "traffic.hotspotBackground=UN", "traffic.load=0.5")
	add("fattree/4q/UN", ft, "router.queueing=4q", "traffic.load=0.8")
	add("fattree/voqsw/HOTSPOT", ft, "router.queueing=voqsw", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=12",
		"traffic.hotspotSenders=1,17,30,44,63", "traffic.hotspotBackground=UN", "traffic.load=0.6")
	add("fattree/voqnet/UN", ft, "router.queueing=voqnet", "traffic.load=0.7")
	add("mesh8/MIN/UN", []string{"topology.kind=mesh", "topology.width=3", "topology.height=8", "topology.p=2", "traffic.load=0.3"})
	return append(cs, snapshotCases()...)
}

// snapshotEvery: the cases of TestParallelBitIdentical that watch the
// network (the live view, Sim.Watch) and every how many cycles: the
// snapshots' stream is compared with the result document. Intervals that
// do not divide the windows (70 and 30 cycles against 100-cycle global
// links), every 4 cycles on the fat tree (its windows' length), and a
// cycle hook of its own beside the snapshot's (PB's broadcast).
// TestParallelDeadlockReport's stuck head (found after cycle 207) every
// 9 cycles: the snapshot of cycle 207 ends the window in which the
// partitions find the stuck head, so only the run restarted sequentially
// hands it over, after the 22 the partitioned run did (none twice).
var snapshotEvery = map[string]int64{"snap/UGAL/ADV": 70, "snap/h3/PB/piggyback": 30, "snap/fattree/HOTSPOT": 4, "snap/fbfly2D/UGAL": 250, "snap/recn/case2": 97, "stuck": 9}

// snapshotCases are the configurations snapshotEvery watches.
func snapshotCases() []goldenCase {
	h3 := []string{"topology.h=3", "topology.a=6", "topology.p=3", "traffic.load=0.5"}
	ft := append([]string{"sim.warmup=300", "sim.cycles=500"}, fattreeRouter...)
	fb2 := append([]string{"topology.dimensions=2", "topology.k=4", "topology.p=4", "sim.warmup=1000", "sim.cycles=2000"}, fbflyRouter...)
	return []goldenCase{
		{"snap/UGAL/ADV", []string{"routing.name=UGAL", "traffic.pattern=ADV", "traffic.load=0.5"}},
		{"snap/h3/PB/piggyback", append([]string{"routing.name=PB", "routing.pbBroadcast=piggyback", "traffic.pattern=ADV", "sim.warmup=200", "sim.cycles=400"}, h3...)},
		{"snap/fattree/HOTSPOT", append(ft, "traffic.pattern=HOTSPOT", "traffic.hotspotNode=33", "traffic.hotspotSenders=0,5,21,40,58", "traffic.load=0.4")},
		{"snap/fbfly2D/UGAL", append(fb2, "routing.name=UGAL", "traffic.pattern=PERM", "traffic.load=0.8")},
		recnSnapCase(), // recn_parallel_test.go
	}
}

// watchSnapshots watches s as snapshotEvery says for gc, and returns the
// snapshots' JSON, one after the other, as the run hands them over.
func watchSnapshots(t *testing.T, s *Sim, gc goldenCase) *[]byte {
	t.Helper()
	var out []byte
	if every := snapshotEvery[gc.name]; every > 0 {
		n := 0
		if err := s.Watch(every, func(snap *NetSnapshot) {
			b, err := json.Marshal(snap)
			if err != nil {
				t.Fatal(err)
			}
			out = append(append(out, '\n'), b...)
			n++
		}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if n < 10 {
				t.Errorf("%s: %d snapshots, want at least 10", gc.name, n)
			}
		})
	}
	return &out
}

// sequentialCase: the cases of parallelCases the partitioned engine does
// not cover (engine/PARALLEL.md's inventory): FOGSim's
// router.idleUpdates=fogsim (the FOGSim model of PB, ACOR and PB_ACOR). Any other case
// that runs sequentially is a regression — a hook registered without its
// method expression, for one (cycleHook.on).
func sequentialCase(name string) bool {
	return strings.HasSuffix(name, "/fogsim-model")
}
