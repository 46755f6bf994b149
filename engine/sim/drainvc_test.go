package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// drainByVCCases are saturated runs of per-destination source queues
// (Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §V-A) under router.injectionPolicy=dest, where drainDest finds a
// destination's room by its injection VC (drainDestByVC) and a node whose
// VCs are full sleeps (sqFull): shared VOQ injection buffers and plain
// FIFOs, the flow gate (ECN, CBCM), the isolated class (Ideal, CBCM), SRP's
// sleep on full VCs and the reply VCs' reservations of request-reply
// traffic.
var drainByVCCases = []struct {
	name string
	sets []string
	flip bool // flows change class during the run (flipIsoFlows)
}{
	{"MIN UN 1.0, VOQs", []string{"routing.name=MIN", "traffic.load=1"}, false},
	{"UGAL UN 0.9, no VOQs", []string{"routing.name=UGAL", "traffic.load=0.9", "router.voq=false"}, false},
	{"MIN TORNADO 0.8", []string{"routing.name=MIN", "traffic.pattern=TORNADO", "traffic.load=0.8"}, false},
	{"ECN UGAL HOTSPOT", []string{"routing.name=UGAL", "congestion.scheme=ecn", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=4",
		"traffic.hotspotSenders=0,5,8,12", "traffic.load=0.7"}, false},
	{"Ideal MIN HOTSPOT", []string{"routing.name=MIN", "congestion.scheme=ideal", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=4",
		"traffic.hotspotSenders=0,5,8,12", "traffic.load=0.8"}, false},
	{"Ideal MIN HOTSPOT, UR 1.0, flows changing class", []string{"routing.name=MIN", "congestion.scheme=ideal", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=4",
		"traffic.hotspotSenders=0", "traffic.load=1"}, true},
	{"CBCM UGAL HOTSPOT", []string{"routing.name=UGAL", "congestion.scheme=cbcm", "traffic.pattern=HOTSPOT", "traffic.hotspotNode=0",
		"traffic.hotspotSenders=4,5,6,7", "traffic.hotspotBackground=TORNADO", "traffic.load=0.6"}, false},
	{"SRP MIN UN 0.9", []string{"routing.name=MIN", "congestion.scheme=srp", "traffic.load=0.9"}, false},
	{"MIN UN 0.9, request-reply", []string{"routing.name=MIN", "traffic.reactive=true", "traffic.load=0.9"}, false},
}

// drainByVCConfig is Kim et al.'s 16-node flattened butterfly with
// per-destination source queues (the cbcm-fig* experiments' router), 6,000
// + 6,000 cycles, with sets applied.
func drainByVCConfig(t *testing.T, sets []string) config.Config {
	t.Helper()
	c := config.FBFly(1, 4, 4)
	c.Traffic.SourceQueue, c.Traffic.SourceQueues, c.Traffic.MessagePackets = true, "perDestination", 4
	c.Router.InputArbiter, c.Router.OutputArbiter = "rrgrant", "rrvc"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 6000, 6000, 1
	for _, kv := range sets {
		k, v, _ := strings.Cut(kv, "=")
		if err := c.Set(k, v); err != nil {
			t.Fatalf("%s: %v", kv, err)
		}
	}
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatalf("%v: %v", sets, errs)
	}
	return c
}

// runDrainByVC runs c (seed 1) with drainDest's VC path, or with the scan
// that asks chooseVCFor for every destination (slow), and returns its
// result document and whether any node's VCs were found full (sqFull).
// flip: every 250 cycles, every node's flows to the next two nodes change
// class (the isolated class or the data VCs), as no mechanism without a
// flow gate does, so that a sleeping node must wake for them.
func runDrainByVC(t *testing.T, c config.Config, slow, flip bool) ([]byte, bool) {
	t.Helper()
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !s.sqByVC {
		t.Fatal("drainDest does not take its VC path on this configuration")
	}
	s.sqSlow = slow
	slept := false
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: func() {
		for _, f := range s.sqFull {
			slept = slept || f
		}
		if flip && s.now%250 == 0 {
			on := s.now%500 == 0
			for n := range s.N {
				s.setIsoFlow(n, (n+1)%s.N, on)
				s.setIsoFlow(n, (n+2)%s.N, on)
			}
		}
	}})
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.CPUSeconds = 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b, slept
}

// TestDrainDestByVCMatchesScan: drainDest's VC path (a bit per destination
// in a mask of the VCs with room; a node whose VCs are full not called until
// one may have room) gives the result document of the scan that asks
// chooseVCFor for every destination, on saturated runs that exercise the
// early return, the sleep, the flow gate, the isolated class and SRP.
func TestDrainDestByVCMatchesScan(t *testing.T) {
	for _, tc := range drainByVCCases {
		c := drainByVCConfig(t, tc.sets)
		fast, slept := runDrainByVC(t, c, false, tc.flip)
		slow, _ := runDrainByVC(t, c, true, tc.flip)
		if !bytes.Equal(fast, slow) {
			t.Errorf("%s: the VC path's result differs from the scan's:\n%s", tc.name, firstDiff(fast, slow))
		}
		// the sleep is used where no flow gate is (a gate's scan must
		// learn when its held flows open) and no reply's reservation
		gated := c.Congestion.SchemeName() == "ecn" || c.Congestion.SchemeName() == "cbcm" || c.Congestion.SchemeName() == "srp"
		if !gated && !c.Traffic.Reactive && !slept {
			t.Errorf("%s: no node ever slept on full VCs: the case does not saturate its injection VCs", tc.name)
		}
	}
}
