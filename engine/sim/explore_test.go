package sim

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// TestExplore prints curves for manual calibration: PHITSIM_EXPLORE="key=val,..."
func TestExplore(t *testing.T) {
	spec := os.Getenv("PHITSIM_EXPLORE")
	if spec == "" {
		t.Skip("set PHITSIM_EXPLORE")
	}
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4
	c.Sim.Warmup, c.Sim.Cycles = 3000, 3000
	loads := []float64{0.1, 0.3, 0.5, 0.7, 0.9}
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if k == "loads" {
			loads = nil
			for _, x := range strings.Split(v, ":") {
				f, _ := strconv.ParseFloat(x, 64)
				loads = append(loads, f)
			}
			continue
		}
		if err := c.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range loads {
		c.Traffic.Load = l
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("load %.3f applied %.4f accepted %.4f lat %.1f inj %.1f maxmin %.2f cov %.3f mis %.2f cpu %.2fs conserved %v",
			l, r.Applied, r.Accepted, r.Latency.Avg, r.InjLatency, r.Fairness.MaxMin, r.Fairness.CoV, r.Misrouted.Fraction, r.CPUSeconds, r.Conserved())
	}
}

// TestCallgrindWindow is the deterministic cost probe of BENCHMARKS.md (run
// by costs.sh under valgrind): it warms an h=4 network under UN 0.2 with
// the routing named in PHITSIM_COST for 3,000 cycles, then runs 4,000 cycles
// inside costWindow, the only function callgrind collects, and prints the
// packet-hops of that window.
func TestCallgrindWindow(t *testing.T) {
	routing := os.Getenv("PHITSIM_COST")
	if routing == "" {
		t.Skip("PHITSIM_COST=<routing> runs the callgrind cost probe")
	}
	s := benchSim(t, 4, strings.TrimSpace(routing), 0.2)
	// PHITSIM_COST_SNAP=N: with the live view's snapshots every N cycles
	if n, err := strconv.Atoi(os.Getenv("PHITSIM_COST_SNAP")); err == nil {
		if err := s.Watch(int64(n), func(*NetSnapshot) {}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("hops %d", costWindow(s, 4000))
}

//go:noinline
func costWindow(s *Sim, cycles int) int64 {
	h0 := s.st.xbar
	for i := 0; i < cycles; i++ {
		s.Step()
	}
	return s.st.xbar - h0
}
