package config

import (
	"math"
	"testing"
)

// Latencies in ns become cycles of the workload's cycle time, rounded up and
// at least one (research notes §9.8): Table 2.4's 10/100/40 ns are 1/1/1
// cycles of 102.4 ns (512-byte phits at 40 Gb/s), 1/3/1 of 40.96 ns (100
// Gb/s) and 1/8/4 of 12.8 ns (64-byte phits at 40 Gb/s).
func TestGraph500LatenciesNs(t *testing.T) {
	for _, tc := range []struct {
		gbps                  float64
		phit                  int
		local, global, router int
	}{
		{40, 512, 1, 1, 1},
		{100, 512, 1, 3, 1},
		{10, 512, 1, 1, 1},
		{40, 64, 1, 8, 4},
		{40, 1, 50, 500, 200}, // the thesis's own cycles: 1-byte phits, 0.2 ns
	} {
		c, err := PresetByName("graph500-h2")
		if err != nil {
			t.Fatal(err)
		}
		c.Workload.LinkGbps, c.Workload.PhitBytes = tc.gbps, tc.phit
		c.ApplyLatenciesNs()
		if c.Topology.LocalLatency != tc.local || c.Topology.GlobalLatency != tc.global || c.Router.XbarLatency != tc.router {
			t.Errorf("%g Gb/s, %d-byte phits (%g ns): %d/%d/%d cycles, want %d/%d/%d", tc.gbps, tc.phit, c.Workload.CycleNs(),
				c.Topology.LocalLatency, c.Topology.GlobalLatency, c.Router.XbarLatency, tc.local, tc.global, tc.router)
		}
	}
}

// The Graph500 presets: Table 2.4 latencies (1 cycle each at 40 Gb/s),
// UGAL's and PB's thresholds of Table 1.2 in bytes (320 and 400 B: 0.078
// and 0.098 of a 4 kB packet), and the four node types of Table 2.3.
func TestGraph500Presets(t *testing.T) {
	tqs := map[string]float64{"graph500-h2": 1.5, "graph500-h2-corei5": 2.25, "graph500-h2-xeon": 2.4, "graph500-h2-montblanc": 15}
	for name, tq := range tqs {
		c, err := PresetByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		if !c.Graph500() || c.Workload.Tq != tq || c.Topology.LocalLatency != 1 || c.Topology.GlobalLatency != 1 || c.Router.XbarLatency != 1 {
			t.Errorf("%s: tq %g, latencies %d/%d/%d", name, c.Workload.Tq, c.Topology.LocalLatency, c.Topology.GlobalLatency, c.Router.XbarLatency)
		}
		if math.Abs(c.Routing.UgalT-320.0/4096) > 1e-12 || math.Abs(c.Routing.PbThreshold-400.0/4096) > 1e-12 {
			t.Errorf("%s: UGAL T %g, PB T %g packets", name, c.Routing.UgalT, c.Routing.PbThreshold)
		}
	}
	c, _ := PresetByName("graph500-h2")
	c.Workload.PhitBytes = 10 // Table 1.2's packet: 8 phits of 10 B
	c.SetAdaptiveThresholdsBytes()
	if c.Routing.UgalT != 4 || c.Routing.PbThreshold != 5 {
		t.Errorf("80-byte packets: UGAL T %g, PB T %g packets, want Table 1.2's 4 and 5", c.Routing.UgalT, c.Routing.PbThreshold)
	}
}
