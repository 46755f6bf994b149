package config

import (
	"math"
	"phitsim/engine/routing"
	"strings"
	"testing"
)

// Latencies in ns become cycles of the workload's cycle time, rounded up and
// at least one (derived reading of thesis Table 2.4, see graph500.go): Table 2.4's 10/100/40 ns are 1/1/1
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

// Regression: the ns latencies were converted to cycles after validation, so
// graph500-h2 with 1-byte phits at 100,000 Gb/s (8·10⁻⁵ ns per cycle) and
// 10⁶-ns latencies validated (estimate 1.1 MB), then the simulator asked for
// 824 GB and died. Validate now sees the converted latencies and names each
// ns field with the most this cycle time allows.
func TestGraph500NsLatenciesAreValidatedAsConverted(t *testing.T) {
	c, _ := PresetByName("graph500-h2")
	c.Workload.PhitBytes, c.Workload.LinkGbps, c.Workload.QueryBytes = 1, 100000, 1
	c.Workload.LocalNs, c.Workload.GlobalNs, c.Workload.RouterNs = 1e6, 1e6, 1e6
	errs := c.Validate()
	want := map[string]string{"workload.localNs": "topology.localLatency", "workload.globalNs": "topology.globalLatency", "workload.routerNs": "router.xbarLatency"}
	for _, e := range errs {
		target, ok := want[e.Path]
		if !ok {
			t.Errorf("unexpected error %v", e)
			continue
		}
		delete(want, e.Path)
		// 10⁶ ns / 8·10⁻⁵ ns = 1.25·10¹⁰ cycles; the cycle field allows
		// 100,000 (1,000 for the crossbar): at most 8 ns (0.08 ns)
		max := "at most 8 ns"
		if target == "router.xbarLatency" {
			max = "at most 0.08 ns"
		}
		if e.Value != "1e+06" || !strings.Contains(e.Msg, "1.25e+10 cycles") || !strings.Contains(e.Msg, target) || !strings.Contains(e.Msg, max) {
			t.Errorf("%s: %q", e.Path, e.Error())
		}
	}
	if len(want) > 0 {
		t.Errorf("no error on %v: %v", want, errs)
	}
	// at the limit it validates, and the simulator runs what was validated
	c.Workload.LocalNs, c.Workload.GlobalNs, c.Workload.RouterNs = 8, 8, 0.08
	c.Workload.Scale = 4
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatalf("at the limits: %v", errs)
	}
	run := c
	run.ApplyLatenciesNs()
	if run.Topology.LocalLatency != 100000 || run.Topology.GlobalLatency != 100000 || run.Router.XbarLatency != 1000 {
		t.Errorf("converted %d/%d/%d cycles", run.Topology.LocalLatency, run.Topology.GlobalLatency, run.Router.XbarLatency)
	}
	// just past it
	c.Workload.GlobalNs = 8.001
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "workload.globalNs" {
		t.Errorf("8.001 ns: %v", errs)
	}
	// the converted latencies size the timing wheels: a memory error names
	// the ns field that sets them, not the cycle field the user did not set
	c, _ = PresetByName("graph500-h2")
	c.Workload.PhitBytes, c.Workload.LinkGbps, c.Workload.QueryBytes = 1, 100000, 1
	c.Workload.GlobalNs = 8
	run = c
	run.ApplyLatenciesNs()
	if h := run.horizonPath(); h != "workload.globalNs" {
		t.Errorf("horizon named %s, want workload.globalNs", h)
	}
}

// What sim.New derives from the configuration after validation is checked
// on the derived value: automatic VC counts (0) fit the simulator's 32 (for
// every routing that runs on the preset's topology).
func TestDerivedValuesAreValidated(t *testing.T) {
	for _, p := range Presets() {
		for _, e := range routing.All() {
			if !e.Supports(p.Config.Topology.Kind) {
				continue
			}
			name := e.Name
			c := p.Config
			c.Routing.Name = name
			c.Traffic.Reactive = true
			c.Router.InjectionVCs, c.Router.LocalVCs, c.Router.GlobalVCs = 0, 0, 0
			inj, l, g := c.VCs()
			if inj > 32 || l > 32 || g > 32 || inj < 1 || l < 1 || g < 1 {
				t.Errorf("%s %s: automatic VCs %d/%d/%d", p.Name, name, inj, l, g)
			}
		}
	}
}
