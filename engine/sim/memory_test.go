package sim

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// measureRun builds a simulation, runs it for cycles cycles (its whole length
// when cycles ≤ 0, or until its Graph500 job ends), snapshots its result and
// renders the result's JSON as the CLI does. It returns the bytes allocated
// on the way (TotalAlloc, garbage included, so at least the peak of the
// live heap), the result, and the error of the JSON encoding.
func measureRun(t testing.TB, c config.Config, cycles int64) (uint64, *result.Result, error) {
	t.Helper()
	var (
		s   *Sim
		res *result.Result
		out []byte
		err error
	)
	n := allocatedBy(func() {
		if s, err = New(c, 1); err != nil {
			t.Fatal(err)
		}
		if cycles <= 0 {
			cycles = s.W + s.M
		}
		for s.now < cycles && !(s.wl != nil && s.wl.done()) {
			s.Step()
		}
		res = s.Snapshot()
		out, err = json.MarshalIndent(res, "", "  ")
	})
	runtime.KeepAlive(s)
	runtime.KeepAlive(out)
	return n, res, err
}

// allocatedBy is what f allocates (TotalAlloc, garbage included).
func allocatedBy(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// checkEstimateBounds runs c (its sim.cycles) and fails when the memory
// estimate is below what the run allocates or, idle (traffic.load 0), when
// the terms allocated whatever the traffic are below it or above 4× it.
func checkEstimateBounds(t *testing.T, c config.Config) {
	t.Helper()
	load := c.Traffic.Load
	got, _, err := measureRun(t, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	est, allocated := estimate(c)
	t.Logf("load %g: measured %.1f MiB, estimate %.1f MiB, allocated whatever the traffic %.1f MiB", load, mib(got), mib(est), mib(allocated))
	if uint64(est) < got {
		t.Errorf("load %g: allocated %.1f MiB, estimate %.1f MiB", load, mib(got), mib(est))
	}
	if load == 0 && (uint64(allocated) < got || allocated > 4*int64(got)) {
		t.Errorf("idle: allocated %.1f MiB, estimate of what is allocated whatever the traffic %.1f MiB (want 1 to 4×)", mib(got), mib(allocated))
	}
}

// estimate is c's memory estimate in bytes, and the part of it allocated
// whatever the traffic (the terms not marked Full).
func estimate(c config.Config) (est, allocated int64) {
	for _, p := range c.Memory() {
		est += p.Bytes
		if !p.Full {
			allocated += p.Bytes
		}
	}
	return est, allocated
}

// tiny is the smallest Dragonfly of the presets' kind (h=1, a=2, p=1: 3
// groups, 6 routers, 6 nodes), so that a parameter's extreme is cheap to run
// for its whole length.
func tiny() config.Config {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 1, 2, 1
	c.Sim.Warmup, c.Sim.Cycles = 0, 300
	return c
}

// The memory estimate (config.Memory) against what a run allocates, for
// each parameter that makes memory grow, at its extreme: the estimate bounds
// the allocation (garbage included). Where the traffic allocates little (a
// few hundred cycles, or a tiny network), the terms allocated whatever the
// traffic bound it alone and are within 4× (+1 MiB) of it. The worst-case
// terms (every buffer slot or link holding a packet, every generated packet
// queued) are checked for tightness where a run reaches them: a saturated
// source queue.
func TestMemoryEstimateBoundsAllocation(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates up to 110 MB per case")
	}
	for _, tc := range []struct {
		name   string
		edit   func(*config.Config)
		cycles int64 // 0: the whole run
		// traffic: the run's packets are a large part of the allocation
		// (only the whole estimate bounds it); full: the worst case is
		// reached (the whole estimate is within 4×)
		traffic, full bool
	}{
		{"the tiny network", func(c *config.Config) {}, 0, false, false},
		{"sim.interval=1 over 20,000 cycles", func(c *config.Config) { c.Sim.Cycles, c.Sim.Interval = 20000, 1 }, 0, false, false},
		{"sim.interval=1 with ACOR", func(c *config.Config) {
			c.Sim.Cycles, c.Sim.Interval, c.Routing.Name = 20000, 1, "ACOR"
		}, 0, false, false},
		{"sim.histMax=1,000,000", func(c *config.Config) { c.Sim.HistMax = 1000000 }, 0, false, false},
		{"PB, topology.localLatency=100,000", func(c *config.Config) {
			c.Routing.Name, c.Topology.LocalLatency = "PB", 100000
		}, 300, false, false},
		{"PB piggyback, topology.globalLatency=100,000", func(c *config.Config) {
			c.Routing.Name, c.Routing.PbBroadcast, c.Topology.GlobalLatency = "PB", "piggyback", 100000
		}, 300, false, false},
		{"router.outputBuffer=1,000,000", func(c *config.Config) { c.Router.OutputBuffer = 1000000 }, 300, false, false},
		{"router.globalBuffer=1,000,000", func(c *config.Config) { c.Router.GlobalBuffer = 1000000 }, 300, false, false},
		{"h=4 under load", func(c *config.Config) { c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4 }, 300, true, false},
		{"QCN_SWITCH reaction points, routing.qcnRpFlows=1,024, h=4", func(c *config.Config) {
			c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4
			c.Routing.Name, c.Routing.QcnReactionPoints, c.Routing.QcnRpFlows = "QCN_SWITCH", true, 1024
		}, 300, false, false},
		{"QCN_SWITCH, router.localBuffer=1,000,000", func(c *config.Config) {
			c.Routing.Name, c.Router.LocalBuffer = "QCN_SWITCH", 1000000
		}, 300, false, false},
		{"QCN_SWITCH transient, sim.interval=1", func(c *config.Config) {
			c.Routing.Name, c.Traffic.SwitchCycle, c.Sim.Cycles, c.Sim.Interval = "QCN_SWITCH", 5000, 20000, 1
		}, 0, false, false},
		{"QCN_SWITCH steady, sim.interval=1", func(c *config.Config) {
			c.Routing.Name, c.Sim.Cycles, c.Sim.Interval = "QCN_SWITCH", 20000, 1
		}, 0, false, false},
		{"a saturated source queue", func(c *config.Config) {
			c.Traffic.SourceQueue, c.Traffic.Load, c.Traffic.Pattern = true, 1, "ADV"
			c.Sim.Cycles = 20000
		}, 0, true, true},
		// DAMQ: each VC's ring holds its reserve and the whole pool (4
		// local VCs of 100,000 phits, no reserve: rings of 400,000 phits
		// per VC), while credits keep what the buffers hold to the port's
		// memory
		{"DAMQ, 4 local VCs of 100,000 phits, load 1", func(c *config.Config) {
			c.Router.Damq, c.Router.LocalVCs, c.Router.LocalBuffer = true, 4, 100000
			c.Traffic.Load = 1
		}, 0, false, false},
		// router.voq: a queue per (output, VC) of the per-VC buffer each;
		// the 512-node flattened butterfly of the paper with its VOQs
		// (the fbfly512 preset's router)
		{"router.voq, router.localBuffer=100,000", func(c *config.Config) {
			c.Router.Voq, c.Router.LocalBuffer, c.Traffic.Load = true, 100000, 1
		}, 300, false, false},
		{"router.voq, the 512-node flattened butterfly", func(c *config.Config) {
			*c = config.FBFly(2, 8, 8)
			c.Router.Voq, c.Traffic.Load = true, 1
		}, 3000, true, false},
		// router.injectionVoq=perQueue: every injection queue its own
		// per-VC buffer (22 × 4 × 8 packets per node), filled from the
		// saturated per-destination source queues
		{"router.injectionVoq=perQueue, the 512-node flattened butterfly", func(c *config.Config) {
			*c = config.FBFly(2, 8, 8)
			c.Router.InjectionVoq, c.Traffic.Load = "perQueue", 1
			c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
		}, 3000, true, false},
		// 1-flit control packets (Kim et al. §V-A): a control VC slot per
		// phit of its buffer, an output FIFO entry per phit
		{"ECN on the 16-node flattened butterfly, router.localBuffer=100,000, router.outputBuffer=100,000", func(c *config.Config) {
			*c = config.FBFly(1, 4, 4)
			c.Congestion.Scheme, c.Traffic.SourceQueue, c.Traffic.SourceQueues = "ecn", true, "perDestination"
			c.Router.LocalBuffer, c.Router.OutputBuffer, c.Traffic.Load = 100000, 100000, 0.5
		}, 300, false, false},
		// CBCM's detector (Kim et al., Contention-based Congestion
		// Management in Large-Scale Networks §IV-B1, §VI-A): per output, and
		// with early detection per (router, destination node), a window of
		// cbcmSamples + 2 runs of the contention degree; at its largest
		// sample window (10,000 cycles; early detection also in the plain
		// layout, without router.voq), and early detection at the
		// fbfly512 preset's 512 nodes with the paper's 100 samples (about
		// 53 MB of windows); and a HOTSPOT whose senders the destination
		// and the routers throttle under UGAL (4 flows throttled, 7
		// throttle packets from routers: the run's lists grow)
		{"CBCM, cbcmSamples=10,000, 16-node flattened butterfly", func(c *config.Config) {
			*c = cmConfig("cbcm", "MIN")
			c.Congestion.CbcmSamples, c.Traffic.Load = 10000, 0.3
		}, 300, false, false},
		{"CBCM early detection, cbcmSamples=10,000, cbcmBoundInterval=1", func(c *config.Config) {
			*c = cmConfig("cbcm", "MIN")
			c.Congestion.CbcmSamples, c.Congestion.CbcmBoundInterval, c.Congestion.CbcmEarly = 10000, 1, true
			c.Traffic.Load = 0.3
		}, 300, false, false},
		{"CBCM early detection, cbcmSamples=10,000, router.voq=false", func(c *config.Config) {
			*c = cmConfig("cbcm", "MIN")
			c.Congestion.CbcmSamples, c.Congestion.CbcmEarly, c.Router.Voq = 10000, true, false
			c.Traffic.Load = 0.3
		}, 300, false, false},
		{"CBCM early detection, the 512-node flattened butterfly", func(c *config.Config) {
			*c = config.FBFly(2, 8, 8)
			c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
			c.Congestion.Scheme, c.Congestion.CbcmEarly, c.Traffic.Load = "cbcm", true, 0.3
			c.Sim.Warmup = 0 // packets delivered in the window (its shares are not NaN)
		}, 300, false, false},
		{"CBCM early detection, a throttled hotspot under UGAL", func(c *config.Config) {
			*c = cbcmHotspot("cbcm", "UGAL", 9, "0,1,2,8", 0.3)
			c.Congestion.CbcmEarly = true
			c.Sim.Cycles = 10000
		}, 0, true, false},
		// early detection on a Dragonfly (h=2, 72 nodes, 36 routers)
		// under MIN, whose one minimal path per flow bounds the routers
		// that can throttle it (config's cbcmFlowRouters: 4 routers, not
		// all 36): a 4-to-1 hotspot whose senders the routers throttle
		{"CBCM early detection, h=2 Dragonfly, MIN, a throttled hotspot", func(c *config.Config) {
			c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
			c.Traffic.SourceQueue, c.Traffic.SourceQueues, c.Traffic.MessagePackets = true, "perDestination", 4
			c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders, c.Traffic.Load = "HOTSPOT", 40, "0,9,18,27", 0.3
			c.Congestion.Scheme, c.Congestion.CbcmEarly, c.Congestion.CbcmDestEpoch = "cbcm", true, 1000
			c.Router.InputArbiter = "rrgrant"
			c.Sim.Cycles = 10000
		}, 0, false, false},
		// SRP's per-flow state (Kim et al. §III-B: a reservation per
		// source–destination flow) and the flow holds every source
		// throttling scheme keeps: N × N entries, allocated whatever the
		// traffic; idle at the fbfly512 preset's 512 nodes (262,144 flows)
		{"SRP idle, the 512-node flattened butterfly", func(c *config.Config) {
			*c = config.FBFly(2, 8, 8)
			c.Traffic.SourceQueue, c.Traffic.SourceQueues, c.Traffic.MessagePackets = true, "perDestination", 4
			c.Congestion.Scheme, c.Traffic.Load = "srp", 0
		}, 300, false, false},
		// SRP's pending message sizes (sim's srpSizes), with its per-flow
		// state: beside the Graph500 job of Kim et al. §V-C's hotspot mix
		// (16 nodes, scale 10, the job's messages of 1–4 packets through
		// the per-destination queues, senders 3, 7, 11, 15 → node 0), run
		// to the job's end; and a saturated UR on the 16-node network,
		// every flow's queue holding messages
		{"SRP beside a Graph500 job, 16-node flattened butterfly", func(c *config.Config) {
			*c = config.KimTraceHotspot(4, 4, 1, 10, 20000, true)
			c.Congestion.Scheme, c.Routing.Name, c.Routing.UgalIntermediate = "srp", "UGAL", "any"
		}, 0, true, false},
		{"SRP, UR at 1.0, 16-node flattened butterfly", func(c *config.Config) {
			*c = srpConfig("srp", "MIN", 1)
			c.Sim.Cycles = 20000
		}, 0, true, false},
		{"a saturated source queue, request-reply", func(c *config.Config) {
			c.Traffic.SourceQueue, c.Traffic.Load, c.Traffic.Pattern, c.Traffic.Reactive = true, 1, "ADV", true
			c.Sim.Cycles = 20000
		}, 0, true, false},
		// RECN's network interfaces (RECN paper §4.1): the 16-host fat
		// tree (4-ary 2-tree) under UN at load 1 with 128-packet memories;
		// the network delivers most of what the hosts generate (at most
		// 6,796 packets alive of the 42,100 the estimate bounds by
		// generation; TestRECNMemoryStalled reaches the bound)
		{"RECN, 16-host fat tree, UN at load 1, 128-packet interfaces", func(c *config.Config) {
			*c = config.RECNMechanism(2)
			c.Topology.Stages = 2
			c.Traffic.Pattern, c.Traffic.Load = "UN", 1
			c.Router.LocalBuffer, c.Router.OutputBuffer, c.Router.InjectionBuffer = 1024, 1024, 1024
			c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval = 0, 20000, 1000
		}, 0, true, false},
		// RECN on the RECN paper's networks (§4.1): the sides replace
		// the input buffers' rings, the arrivals wheel is a few slots,
		// and the packets alive are bounded by what the hosts generate
		// (config's recnPackets). Idle, the 256-host network's state
		// alone (within 4× of what is allocated whatever the traffic);
		// corner case 2 (Table 1) with the hotspot from 100 to 250 µs,
		// 300 µs; its 256-host scaling (64 senders h ≡ 3 (mod 4) → host
		// 128) from 20 to 50 µs, 60 µs
		{"RECN idle, 256-host fat tree", func(c *config.Config) {
			*c = recn256(2)
			c.Traffic.Pattern, c.Traffic.Load = "UN", 0
			c.Sim.Cycles = 300
		}, 0, false, false},
		{"RECN, 64-host corner case 2, 300 µs", func(c *config.Config) {
			*c = config.RECNMechanism(2)
			c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = 100e3/8, 250e3/8, 300e3/8
		}, 0, true, false},
		{"RECN, 256-host corner case 2 scaled, 60 µs", func(c *config.Config) {
			*c = recn256(2)
			c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = 20e3/8, 50e3/8, 60e3/8
		}, 0, true, false},
		{"Graph500 s=12", func(c *config.Config) {
			*c, _ = config.PresetByName("graph500-h2")
			c.Workload.Scale, c.Sim.Interval = 12, 20
			c.Sim.Cycles = 1000000
		}, 0, true, false},
		{"Graph500 in ns at 1-byte phits", func(c *config.Config) {
			*c, _ = config.PresetByName("graph500-h2")
			c.Workload.Scale, c.Workload.PhitBytes, c.Workload.QueryBytes = 8, 1, 1
			c.Workload.LinkGbps, c.Workload.GlobalNs = 100000, 8     // 100,000 cycles
			c.Workload.LocalNs, c.Workload.RouterNs = 0.0008, 0.0008 // 10 cycles
			c.Sim.Cycles = 1000000
		}, 300, false, false},
	} {
		c := tiny()
		tc.edit(&c)
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		got, _, err := measureRun(t, c, tc.cycles)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		est, allocated := estimate(c)
		t.Logf("%-46s measured %6.1f MiB, estimate %6.1f MiB (%.2f×), allocated whatever the traffic %6.1f MiB (%.2f×)",
			tc.name, mib(got), mib(est), float64(est)/float64(got), mib(allocated), float64(allocated)/float64(got))
		if uint64(est) < got {
			t.Errorf("%s: allocated %.1f MiB, estimate %.1f MiB", tc.name, mib(got), mib(est))
		}
		if !tc.traffic && uint64(allocated) < got {
			t.Errorf("%s: allocated %.1f MiB, more than the %.1f MiB the estimate says is allocated whatever the traffic", tc.name, mib(got), mib(allocated))
		}
		tight := allocated
		if tc.full {
			tight = est
		}
		if (!tc.traffic || tc.full) && tight > 4*int64(got)+1<<20 {
			t.Errorf("%s: estimate %.1f MiB, more than 4× the %.1f MiB allocated", tc.name, mib(tight), mib(got))
		}
	}
}

func mib[T int64 | uint64](b T) float64 { return float64(b) / (1 << 20) }

// recn256 is corner case cc of the RECN paper (§4.2, Table 1) on its
// 256-host fat tree (§4.4, Fig. 6a) with RECN: the 64 senders h ≡ 3
// (mod 4) → host 128 over the other hosts' uniform background.
func recn256(cc int) config.Config {
	c := config.RECNMechanism(cc)
	c.Topology.Stages = 4
	var senders []string
	for h := 3; h < 256; h += 4 {
		senders = append(senders, fmt.Sprint(h))
	}
	c.Traffic.HotspotNode, c.Traffic.HotspotSenders = 128, strings.Join(senders, ",")
	return c
}
