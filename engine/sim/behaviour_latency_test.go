package sim

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// btAnalyticZeroLoad is the zero-load average latency of UN traffic under MIN,
// enumerating every ordered pair of distinct nodes with the topology's minimal
// hop counts and the zero-load timing of FOGSim v4's IOQ router (TIMING.md):
// latency = injection + xbar·routers + local·L + global·G + packetSize.
func btAnalyticZeroLoad(t *testing.T, c config.Config) float64 {
	t.Helper()
	tp := c.Topology
	d, err := topology.NewDragonfly(tp.H, tp.A, tp.P, tp.Arrangement)
	if err != nil {
		t.Fatal(err)
	}
	p, n := d.NodesPerRouter(), d.Nodes()
	var sum float64
	for src := 0; src < n; src++ {
		for dst := 0; dst < n; dst++ {
			if src == dst {
				continue
			}
			l, g := d.MinimalHops(src/p, dst/p)
			routers := l + g + 1
			sum += float64(tp.InjectionLatency + c.Router.XbarLatency*routers +
				tp.LocalLatency*l + tp.GlobalLatency*g + c.Router.PacketSize)
		}
	}
	return sum / float64(n*(n-1))
}

// UN/MIN average latency at low load equals the analytic zero-load latency
// within 2% (h=4 134.4 analytic, 136.4 measured
// with FOGSim at 0.1; h=2 123.5 analytic, 124.3 measured at 0.01; thesis §1.5).
func TestUniformMinimalLowLoadLatencyMatchesAnalyticZeroLoad(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		h              int
		analytic, load float64
		warmup, cycles int
	}{
		{h: 2, analytic: 123.5, load: 0.02, warmup: 2000, cycles: 30000},
		{h: 4, analytic: 134.4, load: 0.02, warmup: 2000, cycles: 8000},
	} {
		c := btConfig(tc.h, tc.warmup, tc.cycles)
		c.Traffic.Pattern, c.Routing.Name, c.Traffic.Load = "UN", "MIN", tc.load
		want := btAnalyticZeroLoad(t, c)
		if !btWithin(want, tc.analytic, 0.0005) {
			t.Errorf("h=%d: analytic zero-load average %.3f cycles, notes give ≈%.1f", tc.h, want, tc.analytic)
		}
		r := btRun(t, c, 1)
		t.Logf("h=%d: analytic zero-load average %.3f cycles", tc.h, want)
		btLog(t, "UN/MIN", r)
		if r.Delivered < 5000 {
			t.Fatalf("h=%d: only %d packets measured", tc.h, r.Delivered)
		}
		if !btWithin(r.Latency.Avg, want, 0.02) {
			t.Errorf("h=%d load %.2f: average latency %.2f cycles, analytic zero-load %.2f (±2%%)", tc.h, tc.load, r.Latency.Avg, want)
		}
		// contention only adds delay, and the minimum is the same-router path
		if r.Latency.Avg < want-0.5 {
			t.Errorf("h=%d: average latency %.2f below the zero-load bound %.2f", tc.h, r.Latency.Avg, want)
		}
		if r.Latency.Min != 12 {
			t.Errorf("h=%d: minimum latency %d, want 12 (same-router path)", tc.h, r.Latency.Min)
		}
		if r.Saturated {
			t.Errorf("h=%d: load %.2f flagged saturated: %s", tc.h, tc.load, r.SatReason)
		}
		if r.Misrouted.Packets != 0 {
			t.Errorf("h=%d: MIN misrouted %d packets", tc.h, r.Misrouted.Packets)
		}
	}
}

// btPathLatencies injects one packet from node 0 to a node of every path type
// (0, l, g, lg, gl, lgl) into an empty network and returns the latencies.
func btPathLatencies(t *testing.T, c config.Config) map[string]float64 {
	t.Helper()
	tp := c.Topology
	d, err := topology.NewDragonfly(tp.H, tp.A, tp.P, tp.Arrangement)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for dr := 0; dr < d.Routers(); dr++ {
		kind := "0"
		if dr != 0 {
			kind = ""
			for r := 0; r != dr; {
				port := d.MinimalPort(r, dr)
				if d.PortClass(r, port) == topology.Global {
					kind += "g"
				} else {
					kind += "l"
				}
				r, _ = d.Link(r, port)
			}
		}
		if _, ok := out[kind]; ok {
			continue
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		s.inject(0, dr*tp.P+tp.P-1, 0)
		for s.InFlight() > 0 && s.Now() < 10000 {
			s.Step()
		}
		r := s.Snapshot()
		if r.Delivered != 1 {
			t.Fatalf("path %q: packet 0→router %d not delivered (delivered %d)", kind, dr, r.Delivered)
		}
		out[kind] = r.Latency.Avg
	}
	return out
}

// The input-queued router model (router.model=iq, speedup 1) has no output
// FIFO: a granted packet goes onto the link straight after the crossbar
// latency. Observed: its zero-load latency per path is the same as the IOQ
// model's, 1 + 3·routers + 10·L + 100·G + 8 = 12/25/115/128/141 cycles, because
// the IOQ output FIFO adds no delay to a head that finds the link idle, and
// speedup only shortens the transfer of the tail (FOGSim v4's IOQ_SW timing;
// thesis §1.1.2).
func TestInputQueuedZeroLoadLatencyPerPathType(t *testing.T) {
	t.Parallel()
	want := map[string]float64{"0": 12, "l": 25, "g": 115, "lg": 128, "gl": 128, "lgl": 141}
	for _, model := range []string{"ioq", "iq"} {
		c := btConfig(2, 0, 10000)
		c.Traffic.Load = 0
		c.Router.Model = model
		if model == "iq" {
			c.Router.Speedup = 1
		}
		got := btPathLatencies(t, c)
		t.Logf("%s: %v", model, got)
		if len(got) != len(want) {
			t.Errorf("%s: path types found %v, want %v", model, got, want)
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: path %q latency %.0f, want %.0f", model, k, got[k], w)
			}
		}
	}
}

// A packet stays in flight until the cycle of its delivery, the cycle its
// latency is computed from (result.go: latency = delivery − generation +
// packet size; Conservation: generated = delivered + in flight). A packet to
// the other node of its own router, generated at cycle 0, reaches the router at
// 1, crosses the crossbar (3 cycles) and is delivered at cycle 4: latency 12
// (FOGSim v4's zero-load timing, TIMING.md). Both router models must keep it in flight through
// cycle 3 and count its delivery, in the run totals and in the time series, at
// cycle 4.
func TestPacketIsInFlightUntilItsDeliveryCycle(t *testing.T) {
	t.Parallel()
	for _, model := range []string{"ioq", "iq"} {
		c := btConfig(2, 0, 100)
		c.Traffic.Load = 0
		c.Sim.Interval = 1
		c.Router.Model = model
		if model == "iq" {
			c.Router.Speedup = 1
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		s.inject(0, 1, 0)
		for s.Now() < 4 {
			s.Step()
			if s.InFlight() != 1 {
				t.Errorf("%s: after cycle %d the packet is no longer in flight (delivery is at cycle 4)", model, s.Now()-1)
				break
			}
		}
		for s.Now() < 5 {
			s.Step()
		}
		r := s.Snapshot()
		if s.InFlight() != 0 || r.TotalDelivered != 1 || r.Latency.Avg != 12 {
			t.Fatalf("%s: after cycle 4: in flight %d, delivered %d, latency %.0f (want 0, 1, 12)", model, s.InFlight(), r.TotalDelivered, r.Latency.Avg)
		}
		var inSeries float64
		for _, smp := range r.Series {
			inSeries += smp.Accepted * float64(s.N) / float64(c.Router.PacketSize)
			if smp.Accepted > 0 && smp.Cycle != 5 {
				t.Errorf("%s: delivery counted in the interval ending at cycle %d, want the one of cycle 4 (ending at 5)", model, smp.Cycle)
			}
		}
		if inSeries < 0.5 {
			t.Errorf("%s: the delivery is in no interval of the time series", model)
		}
	}
}
