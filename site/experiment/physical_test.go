package experiment

import (
	"strings"
	"testing"

	"phitsim/engine/config"
)

// The form's view of a field, keyed by its unit tag: with the physical
// basis of the QCN-Switch paper's Table I preset (h=4), cycles show as ns,
// phits as bytes, loads as Gb/s, with the conversion beside; without a
// basis, or for another unit, the engine value and unit tag as before.
func TestViewField(t *testing.T) {
	eth := enginePreset("ethernet-h4")
	plain := enginePreset("h4")
	for _, tc := range []struct {
		c                          *config.Config
		path, typed                string
		physical                   bool
		value, unit, def, helpPart string
	}{
		{&eth, "topology.globalLatency", "", true, "400 ns", "= 20 cycles", "2000 ns", "m (cable, 5 ns/m)"},
		{&eth, "topology.localLatency", "30 ns", true, "40 ns", "= 2 cycles (40 ns, rounded up)", "200 ns", "a bare number is in cycles"},
		{&eth, "topology.localLatency", "8 m", true, "40 ns", "= 40 ns = 2 cycles", "200 ns", ""},
		{&eth, "topology.localLatency", "25", true, "40 ns", "cycles = 500 ns", "200 ns", ""},
		{&eth, "router.localBuffer", "1 phit", true, "100 KB", "phit = 100 B", "3200 B", ""},
		{&eth, "router.xbarLatency", "", true, "200 ns", "= 10 cycles", "60 ns", "in ns, us, µs, ms, s, cycles;"},
		{&eth, "router.packetSize", "", true, "1000 B", "= 10 phits", "800 B", "a bare number is in phits"},
		{&eth, "router.localBuffer", "", true, "100 KB", "= 1000 phits", "3200 B", "a bare number is in phits"},
		{&eth, "traffic.load", "", true, "16 Gb/s", "= 0.4 phits/(node·cycle)", "16 Gb/s", "Gb/s"},
		{&eth, "router.localVCs", "", false, "0", "VCs", "0", ""},
		{&plain, "topology.globalLatency", "", false, "100", "cycles", "100", ""},
	} {
		p, _ := config.Lookup(tc.path)
		v := ViewField(tc.c, p, tc.typed, tc.typed != "")
		if v.Physical != tc.physical || v.Value != tc.value || v.Unit != tc.unit || v.Default != tc.def || !strings.Contains(v.Help, tc.helpPart) {
			t.Errorf("%s %q: %+v", tc.path, tc.typed, v)
		}
		if !tc.physical && v.Help != "" {
			t.Errorf("%s: help %q without a physical view", tc.path, v.Help)
		}
	}
}

// What the form stores from a typed text, and whether the text stays
// typed: a physical value in its own text does not, a rounded one or one
// in another unit does; an error names the field and keeps the value;
// without a basis, the engine value as before.
func TestSetField(t *testing.T) {
	for _, tc := range []struct {
		path, text, want string
		typed            bool
		errPart          string
	}{
		{"topology.globalLatency", "400 ns", "20", false, ""},
		{"topology.globalLatency", "0.6 µs", "30", true, ""},
		{"topology.globalLatency", "600 ns", "30", false, ""},
		{"topology.globalLatency", "50 m", "13", true, ""}, // 250 ns: 12.5 cycles, rounded up
		{"topology.globalLatency", "10 ns", "20", false, "topology.globalLatency = 10 ns: is below one cycle (20 ns"},
		{"topology.globalLatency", "20", "20", true, ""}, // a bare number: cycles, as in -set
		{"router.globalBuffer", "64 KB", "640", false, ""},
		{"router.globalBuffer", "64.05 KB", "1000", false, "whole number of phits (64 KB or 64.1 KB)"},
		{"traffic.load", "20 Gb/s", "0.5", false, ""},
	} {
		c := enginePreset("ethernet-h4")
		p, _ := config.Lookup(tc.path)
		err := SetField(&c, p, tc.text)
		switch {
		case tc.errPart != "":
			if err == nil || !strings.Contains(err.Error(), tc.errPart) || p.Format(&c) != tc.want {
				t.Errorf("%s %q: %v, value %s", tc.path, tc.text, err, p.Format(&c))
			}
		case err != nil || p.Format(&c) != tc.want || Typed(&c, p, tc.text) != tc.typed:
			t.Errorf("%s %q: %s, %v, typed %v (want %s, typed %v)", tc.path, tc.text, p.Format(&c), err, Typed(&c, p, tc.text), tc.want, tc.typed)
		}
	}
	c := enginePreset("h4")
	p, _ := config.Lookup("topology.globalLatency")
	if err := SetField(&c, p, "400 ns"); err == nil {
		t.Error("400 ns accepted without a physical basis")
	}
	if err := SetField(&c, p, "40"); err != nil || c.Topology.GlobalLatency != 40 || Typed(&c, p, "40") {
		t.Errorf("without a basis: %v, %d", err, c.Topology.GlobalLatency)
	}
	// "auto" in the warm-up field is sim.autoWarmup, the value its cap,
	// also where the field shows µs (the Ethernet presets), and stays typed
	for _, name := range []string{"h4", "ethernet-h4"} {
		c := enginePreset(name)
		w := mustParam(t, config.WarmupPath)
		if err := SetField(&c, w, "auto"); err != nil || !c.Sim.AutoWarmup || c.Sim.Warmup != enginePreset(name).Sim.Warmup || !Typed(&c, w, "auto") {
			t.Errorf("%s: sim.warmup auto: %v, %+v", name, err, c.Sim)
		}
		if err := SetField(&c, w, "soon"); err == nil || !strings.Contains(err.Error(), "sim.warmup") {
			t.Errorf("%s: sim.warmup soon: %v, want an error naming sim.warmup", name, err)
		}
	}
	if !PhysicalSetting(mustParam(t, "physical.phitBytes")) || PhysicalSetting(p) {
		t.Error("PhysicalSetting")
	}
}

func mustParam(t *testing.T, path string) config.Param {
	p, ok := config.Lookup(path)
	if !ok {
		t.Fatalf("no %s", path)
	}
	return p
}

// An experiment has a basis for its charts only when every series has the
// same one (the Ethernet presets' 40 Gb/s, 100-byte phits: 20-ns cycles).
func TestExperimentBasis(t *testing.T) {
	p, _ := presetNamed("ethernet-adv1-h4")
	e := p.Exp.Clone()
	if b, ok := e.Basis(); !ok || b.CycleNs() != 20 || b.Gbps(0.5) != 20 {
		t.Errorf("ethernet-adv1-h4: %+v %v", b, ok)
	}
	e.Series[1].Physical.PhitBytes = 5
	if _, ok := e.Basis(); ok {
		t.Error("two bases on one axis")
	}
	e.Series[1].Physical = config.Physical{}
	if _, ok := e.Basis(); ok {
		t.Error("a series without a basis")
	}
	d := Default()
	if _, ok := d.Basis(); ok {
		t.Error("the default experiment has a basis")
	}
}

// A swept value in its physical unit, for the point labels and menu: an
// offered load in Gb/s per node, a time in ns; nothing for a parameter
// without a physical quantity or an experiment without a basis.
func TestPhysicalX(t *testing.T) {
	p, _ := presetNamed("ethernet-adv1-h4")
	e := p.Exp.Clone()
	if s := e.PhysicalX(0.2); s != "8 Gb/s" {
		t.Errorf("offered load 0.2 at 40 Gb/s: %q", s)
	}
	e.Sweep = Sweep{Param: "router.xbarLatency", From: 10, To: 10}
	if s := e.PhysicalX(10); s != "200 ns" {
		t.Errorf("router.xbarLatency 10 cycles of 20 ns: %q", s)
	}
	e.Sweep = Sweep{Param: "router.localVCs", From: 2, To: 2}
	if s := e.PhysicalX(2); s != "" {
		t.Errorf("VCs have no physical unit: %q", s)
	}
	d := Default()
	if s := d.PhysicalX(0.2); s != "" {
		t.Errorf("no basis: %q", s)
	}
}
