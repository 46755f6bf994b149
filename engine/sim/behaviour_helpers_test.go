package sim

// Shared helpers of the behaviour tests (behaviour_*_test.go). Names carry a
// "bt" prefix so that they do not collide with other test files of the package.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// btConfig is the Table 1.2 router on a balanced Dragonfly of size h (h=2: 72
// nodes, h=4: 1,056 nodes) with a short run.
func btConfig(h int, warmup, cycles int) config.Config {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = h, 2*h, h
	c.Sim.Warmup, c.Sim.Cycles = warmup, cycles
	c.Sim.Seeds = 1
	return c
}

// btRun runs one simulation and fails the test on any error (a DeadlockError
// included) or a census violation, then checks its metrics agree.
func btRun(t *testing.T, c config.Config, seed uint64) *result.Result {
	t.Helper()
	r := btSim(t, c, seed)
	btCheckResult(t, c, r)
	return r
}

// btSim runs one simulation and fails the test on any error or census
// violation.
func btSim(t *testing.T, c config.Config, seed uint64) *result.Result {
	t.Helper()
	_, r := btSimState(t, c, seed)
	return r
}

// btSimState is btSim that also returns the simulator, for tests that read
// its internal state after the run. The census (Sim.Census: every packet in
// exactly one place, buffer bookkeeping, every credit accounted for) runs
// at every progress report (every 1,024 cycles) and at the end; it only
// reads the state, so the result is the one Run gives without it.
// result.Conserved is checked too, but it only proves that the generated,
// delivered and in-flight counters agree: they change side by side, so a
// lost or stuck packet does not break it.
func btSimState(t *testing.T, c config.Config, seed uint64) (*Sim, *result.Result) {
	t.Helper()
	s, err := New(c, seed)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var censusErr error
	r, err := s.Run(context.Background(), func(p Progress) {
		if censusErr == nil {
			if err := s.Census(); err != nil {
				censusErr = fmt.Errorf("cycle %d: %w", p.Cycle, err)
			}
		}
	})
	if err != nil {
		var de *DeadlockError
		if errors.As(err, &de) {
			t.Fatalf("unexpected deadlock: %v", de)
		}
		t.Fatalf("Run: %v", err)
	}
	if censusErr == nil {
		censusErr = s.Census()
	}
	if censusErr != nil {
		t.Fatalf("census: %v", censusErr)
	}
	if !r.Conserved() {
		t.Fatalf("conservation violated: generated %d ≠ delivered %d + in flight %d",
			r.TotalGenerated, r.TotalDelivered, r.InFlight)
	}
	return s, r
}

// btCheckResult checks that the metrics of a finished run agree with each
// other (thesis §1.5, §1.6.3.2; the formulas of FOGSim v4's writeOutput): loads are packets·size/(nodes·
// measured cycles), the histograms count the measured deliveries, the time
// series counts every delivery and generation of the run, latency splits into
// injection + network.
func btCheckResult(t *testing.T, c config.Config, r *result.Result) {
	t.Helper()
	sz, _ := c.Topology.Sizes()
	nodes := float64(sz.Nodes)
	den := nodes * float64(c.Sim.Cycles) / float64(c.Router.PacketSize)
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }
	if !near(r.Applied*den, float64(r.Generated)) || !near(r.Accepted*den, float64(r.Delivered)) {
		t.Errorf("applied %.5f / accepted %.5f disagree with %d generated / %d delivered", r.Applied, r.Accepted, r.Generated, r.Delivered)
	}
	if r.SimCycles != int64(c.Sim.Warmup+c.Sim.Cycles) {
		t.Errorf("simulated %d cycles, want warm-up + measured = %d", r.SimCycles, c.Sim.Warmup+c.Sim.Cycles)
	}
	var hist, hops int64
	for _, x := range r.LatencyHist {
		hist += x
	}
	for _, x := range r.HopsHist {
		hops += x
	}
	if hist != r.Delivered || hops != r.Delivered {
		t.Errorf("latency histogram holds %d packets, hops histogram %d, delivered %d", hist, hops, r.Delivered)
	}
	var sDel, sGen float64
	start := int64(0)
	for _, smp := range r.Series {
		span := float64(smp.Cycle - start)
		sDel += smp.Accepted * nodes * span / float64(c.Router.PacketSize)
		sGen += smp.Applied * nodes * span / float64(c.Router.PacketSize)
		start = smp.Cycle
	}
	if start != r.SimCycles || math.Abs(sDel-float64(r.TotalDelivered)) > 0.5 || math.Abs(sGen-float64(r.TotalGenerated)) > 0.5 {
		t.Errorf("time series up to cycle %d: %.1f delivered, %.1f generated; run totals %d, %d",
			start, sDel, sGen, r.TotalDelivered, r.TotalGenerated)
	}
	if r.Delivered > 0 {
		if !near(r.InjLatency+r.NetLatency, r.Latency.Avg) || float64(r.Latency.Min) > r.Latency.Avg || r.Latency.Avg > float64(r.Latency.Max) {
			t.Errorf("latency avg %.2f (inj %.2f + net %.2f) min %d max %d", r.Latency.Avg, r.InjLatency, r.NetLatency, r.Latency.Min, r.Latency.Max)
		}
		// the hops by class add up to the mean: the Dragonfly's local and
		// global, any other topology's per-class rows
		byClass := r.Hops.Local + r.Hops.Global
		if c.Topology.Kind != "dragonfly" {
			if r.Hops.Local != 0 || r.Hops.Global != 0 || r.Links.Local != 0 || r.Links.Global != 0 {
				t.Errorf("topology.kind=%s reports Dragonfly local/global hops or links: %+v %+v", c.Topology.Kind, r.Hops, r.Links)
			}
			byClass = 0
			for _, cl := range r.Classes {
				byClass += cl.Hops
			}
		}
		if !near(byClass, r.Hops.Avg) {
			t.Errorf("hops avg %.3f ≠ %.3f by class (local %.3f, global %.3f, %+v)", r.Hops.Avg, byClass, r.Hops.Local, r.Hops.Global, r.Classes)
		}
		// no path is longer than the routing's VC sequence (MIN lgl, VAL_GROUP
		// lglgl, VAL lgllgl: thesis Fig. 1.15, §5.2.3), none shorter than the
		// same-router path (injection + crossbar + serialisation)
		if maxHops := map[string]int{"MIN": 3, "VAL_GROUP": 5, "VAL": 6}[c.Routing.Name]; c.Topology.Kind == "dragonfly" && maxHops > 0 && r.Hops.Max > maxHops {
			t.Errorf("%s: a packet took %d hops, the VC sequence allows %d", c.Routing.Name, r.Hops.Max, maxHops)
		}
		if floor := int64(c.Topology.InjectionLatency + c.Router.XbarLatency + c.Router.PacketSize); r.Latency.Min < floor {
			t.Errorf("minimum latency %d below the same-router latency %d", r.Latency.Min, floor)
		}
		// every delivered phit crossed one ejection link in the window
		if c.Router.Model == "ioq" && !near(r.Links.Injection, r.Accepted) {
			t.Errorf("ejection link utilisation %.5f ≠ accepted load %.5f", r.Links.Injection, r.Accepted)
		}
	}
	if c.Traffic.Reactive && !near(r.RequestAccepted+r.ReplyAccepted, r.Accepted) {
		t.Errorf("requests %.5f + replies %.5f ≠ accepted %.5f", r.RequestAccepted, r.ReplyAccepted, r.Accepted)
	}
}

// btWithin reports whether got is within rel (relative) of want.
func btWithin(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// btLog prints the headline metrics of a run.
func btLog(t *testing.T, label string, r *result.Result) {
	t.Helper()
	t.Logf("%s: offered %.4f applied %.4f accepted %.4f latency %.1f (inj %.1f) max/min %.2f CoV %.3f generated %d delivered %d",
		label, r.Offered, r.Applied, r.Accepted, r.Latency.Avg, r.InjLatency, r.Fairness.MaxMin, r.Fairness.CoV,
		r.Generated, r.Delivered)
}
