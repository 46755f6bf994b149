package sim

import (
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
		r, err := s.Run(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("load %.3f applied %.4f accepted %.4f lat %.1f inj %.1f maxmin %.2f cov %.3f mis %.2f cpu %.2fs conserved %v",
			l, r.Applied, r.Accepted, r.Latency.Avg, r.InjLatency, r.Fairness.MaxMin, r.Fairness.CoV, r.Misrouted.Fraction, r.CPUSeconds, r.Conserved())
	}
}
