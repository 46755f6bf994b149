package sim

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// Bursty-UN traffic (ON/OFF chain, B = 5 packets) through the network: below
// saturation it delivers what it offers, and every packet is accounted for
// (thesis §1.6.1.3; FOGSim v4's burstGenerator).
func TestBurstyTrafficDeliversWithConservation(t *testing.T) {
	t.Parallel()
	for _, routing := range []string{"MIN", "VAL"} {
		c := btConfig(2, 2000, 10000)
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = routing, "UN", 0.2
		c.Traffic.Process, c.Traffic.BurstLength = "bursty", 5
		r := btRun(t, c, 3)
		btLog(t, "bursty "+routing, r)
		if !btWithin(r.Applied, 0.2, 0.05) || !btWithin(r.Accepted, 0.2, 0.05) {
			t.Errorf("bursty %s at 0.2: applied %.4f accepted %.4f, want ≈0.2 (±5%%)", routing, r.Applied, r.Accepted)
		}
		if r.Delivered == 0 || r.Saturated {
			t.Errorf("bursty %s: delivered %d, saturated %v", routing, r.Delivered, r.Saturated)
		}
	}
	// saturated bursty traffic still conserves packets (btRun checks)
	c := btConfig(2, 1000, 3000)
	c.Traffic.Process, c.Traffic.Load = "bursty", 1.0
	r := btRun(t, c, 3)
	btLog(t, "bursty saturated", r)
}

// Request-reply traffic: requests get half of the load and every consumed
// request is answered by one reply, so below saturation request and reply
// accepted loads are each half of the total, which is the offered load
// (thesis §1.6.2; FOGSim halves the request rate; ±3%).
func TestRequestReplySplitsAcceptedLoadInHalves(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		h       int
		routing string
		load    float64
	}{{2, "MIN", 0.3}, {2, "MIN", 0.5}, {2, "VAL", 0.3}} {
		c := btConfig(tc.h, 2000, 8000)
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = tc.routing, "UN", tc.load
		c.Traffic.Reactive = true
		r := btRun(t, c, 1)
		btLog(t, "request-reply "+tc.routing, r)
		t.Logf("  requests %.4f replies %.4f round trip %.1f", r.RequestAccepted, r.ReplyAccepted, r.ReplyRoundTrip)
		half := r.Accepted / 2
		if !btWithin(r.RequestAccepted, half, 0.03) || !btWithin(r.ReplyAccepted, half, 0.03) {
			t.Errorf("%s load %.1f: requests %.4f, replies %.4f, want each half of %.4f (±3%%)",
				tc.routing, tc.load, r.RequestAccepted, r.ReplyAccepted, r.Accepted)
		}
		if math.Abs(r.RequestAccepted+r.ReplyAccepted-r.Accepted) > 1e-9 {
			t.Errorf("requests %.4f + replies %.4f ≠ accepted %.4f", r.RequestAccepted, r.ReplyAccepted, r.Accepted)
		}
		if !btWithin(r.Accepted, tc.load, 0.03) {
			t.Errorf("%s load %.1f: total accepted %.4f, want ≈ offered (±3%%)", tc.routing, tc.load, r.Accepted)
		}
		if r.ReplyRoundTrip < 2*r.Latency.Avg*0.8 {
			t.Errorf("round trip %.1f should be request + reply latency (≈2×%.1f)", r.ReplyRoundTrip, r.Latency.Avg)
		}
	}
}

// At saturation (load 1.0) request-reply traffic must not protocol-deadlock: a
// request is consumed only when its reply fits in the reply injection VCs, and
// replies travel on their own VC set (thesis §1.6.2; FOGSim v4's reactive traffic). The
// run ends without a DeadlockError, conserves packets, and replies keep being
// delivered in every stretch of the measured window.
func TestRequestReplyHasNoProtocolDeadlockAtSaturation(t *testing.T) {
	t.Parallel()
	for _, routing := range []string{"MIN", "VAL_GROUP"} {
		c := btConfig(2, 2000, 12000)
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = routing, "UN", 1.0
		c.Traffic.Reactive = true
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		var checkpoints []float64 // replies delivered in the window so far
		r, err := s.Run(context.Background(), func(p Progress) {
			if p.Cycle <= int64(c.Sim.Warmup) {
				return
			}
			snap := s.Snapshot()
			measured := float64(p.Cycle - int64(c.Sim.Warmup))
			checkpoints = append(checkpoints, snap.ReplyAccepted*float64(s.N)*measured/float64(c.Router.PacketSize))
		})
		if err != nil {
			t.Fatalf("%s: %v", routing, err)
		}
		btLog(t, "request-reply saturated "+routing, r)
		if !r.Conserved() {
			t.Errorf("%s: conservation violated: %+v", routing, r.Conservation)
		}
		if !r.Saturated {
			t.Errorf("%s: load 1.0 not saturated?", routing)
		}
		if r.ReplyAccepted < 0.3*r.Accepted {
			t.Errorf("%s: replies %.4f of accepted %.4f", routing, r.ReplyAccepted, r.Accepted)
		}
		if len(checkpoints) < 8 {
			t.Fatalf("only %d progress checkpoints", len(checkpoints))
		}
		for i := 1; i < len(checkpoints); i++ {
			if d := checkpoints[i] - checkpoints[i-1]; d < 100 {
				t.Errorf("%s: only %.0f replies delivered between checkpoints %d and %d", routing, d, i-1, i)
			}
		}
	}
}

// TRANSIENT traffic: UN switching to ADV+1 at switchCycle changes the time
// series; under MIN the accepted load per interval falls from the offered
// load to the ADV+1 cap 1/(a·p) after the switch (thesis §1.5 reaction time;
// FOGSim's TRANSIENT traffic).
func TestTransientSwitchToADVDropsMinimalThroughputToCap(t *testing.T) {
	t.Parallel()
	const h, load = 2, 0.4
	capacity := 1 / float64(2*h*h) // 0.125
	c := btConfig(h, 1000, 5000)
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", "UN", load
	c.Sim.Interval = 250
	steady := btRun(t, c, 1)
	c.Traffic.SwitchCycle, c.Traffic.SwitchPattern, c.Traffic.SwitchAdvOffset = 1000, "ADV", 1
	r := btRun(t, c, 1)
	switchAt := int64(c.Sim.Warmup + c.Traffic.SwitchCycle)
	if len(r.Series) != len(steady.Series) || len(r.Series) != (c.Sim.Warmup+c.Sim.Cycles)/c.Sim.Interval {
		t.Fatalf("series lengths %d and %d", len(r.Series), len(steady.Series))
	}
	for i, smp := range r.Series {
		t.Logf("cycle %5d: accepted %.3f (no switch %.3f) applied %.3f latency %.0f", smp.Cycle, smp.Accepted,
			steady.Series[i].Accepted, smp.Applied, smp.Latency)
		switch {
		case smp.Cycle > int64(c.Sim.Warmup) && smp.Cycle <= switchAt:
			// before the switch: the same run as without it
			if !reflect.DeepEqual(smp, steady.Series[i]) {
				t.Errorf("cycle %d, before the switch: %+v differs from the run without switch %+v", smp.Cycle, smp, steady.Series[i])
			}
			if !btWithin(smp.Accepted, load, 0.12) {
				t.Errorf("cycle %d, UN phase: accepted %.3f, want ≈%.2f", smp.Cycle, smp.Accepted, load)
			}
		case smp.Cycle > switchAt+500:
			if !btWithin(smp.Accepted, capacity, 0.1) {
				t.Errorf("cycle %d, ADV+1 phase: accepted %.3f, want the MIN cap 1/(a·p) = %.3f", smp.Cycle, smp.Accepted, capacity)
			}
			if !btWithin(steady.Series[i].Accepted, load, 0.12) {
				t.Errorf("cycle %d without switch: accepted %.3f, want ≈%.2f", smp.Cycle, steady.Series[i].Accepted, load)
			}
		}
	}
	last := r.Series[len(r.Series)-1]
	if last.Latency < 5*steady.Series[len(steady.Series)-1].Latency {
		t.Errorf("latency after the switch %.0f, without switch %.0f: should diverge", last.Latency, steady.Series[len(steady.Series)-1].Latency)
	}
}

// An unbounded source queue (traffic.sourceQueue=true) changes nothing below
// saturation; above it, FOGSim's injection drops the attempts that find the
// injection buffer full and bounds latency, whereas the source queue keeps
// them and latency grows with the run (FOGSim v4's generatorModule has no source queue).
func TestSourceQueueSameBelowSaturationLatencyDivergesAbove(t *testing.T) {
	t.Parallel()
	run := func(pattern string, load float64, sq bool, cycles int) (acc, lat, firstLat, lastLat float64) {
		c := btConfig(2, 2000, cycles)
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", pattern, load
		c.Traffic.SourceQueue = sq
		c.Sim.Interval = 1000
		r := btRun(t, c, 1)
		btLog(t, pattern+map[bool]string{false: " dropping", true: " source queue"}[sq], r)
		w := c.Sim.Warmup / c.Sim.Interval
		return r.Accepted, r.Latency.Avg, r.Series[w].Latency, r.Series[len(r.Series)-1].Latency
	}
	// below saturation
	a0, l0, _, _ := run("UN", 0.3, false, 6000)
	a1, l1, _, _ := run("UN", 0.3, true, 6000)
	if !btWithin(a1, a0, 0.01) || !btWithin(l1, l0, 0.02) {
		t.Errorf("UN 0.3: with source queue accepted %.4f latency %.1f, without %.4f %.1f", a1, l1, a0, l0)
	}
	// above saturation: ADV+1 under MIN at 8× its cap, and UN at 1.0
	for _, tc := range []struct {
		pattern string
		load    float64
		cycles  int
	}{{"ADV", 1.0, 20000}, {"UN", 1.0, 20000}} {
		ad, ld, _, lastD := run(tc.pattern, tc.load, false, tc.cycles)
		as, ls, firstS, lastS := run(tc.pattern, tc.load, true, tc.cycles)
		if !btWithin(as, ad, 0.05) {
			t.Errorf("%s %.1f: accepted %.4f with source queue, %.4f without: throughput should not change", tc.pattern, tc.load, as, ad)
		}
		if ls < 2*ld {
			t.Errorf("%s %.1f: latency %.0f with source queue, %.0f without: want much larger (≥2×)", tc.pattern, tc.load, ls, ld)
		}
		if lastS < 1.5*firstS || lastS < 2*lastD {
			t.Errorf("%s %.1f: source-queue latency per interval %.0f → %.0f (dropping: %.0f at the end) should keep growing",
				tc.pattern, tc.load, firstS, lastS, lastD)
		}
	}
}
