package config

import (
	"bytes"
	"strings"
	"testing"

	"phitsim/engine/units"
)

// A configuration without a physical basis writes no physical section (so
// existing documents and results are unchanged) and has no physical view.
func TestNoPhysicalSectionByDefault(t *testing.T) {
	c := Default()
	if bytes.Contains(c.JSON(), []byte("physical")) {
		t.Errorf("the default config writes a physical section:\n%s", c.JSON())
	}
	if _, ok := c.Basis(); ok || c.PhysicalView() != nil {
		t.Error("the default config has a physical view")
	}
	p, _ := Lookup("topology.globalLatency")
	if _, ok := c.PhysicalText(p); ok {
		t.Error("PhysicalText without a basis")
	}
	if _, err := c.SetPhysical(p, "400 ns"); err == nil || !strings.Contains(err.Error(), "physical.linkGbps") {
		t.Errorf("SetPhysical without a basis: %v", err)
	}
}

// The presets of the QCN-Switch paper's Table I (§4.1) at h=6 (5,256 nodes)
// and h=4 (1,056): 100-byte phits make 20-ns cycles, 10-phit packets, a
// 10-cycle switch, 2/20-cycle links, 1,000/2,000-phit queues, and the
// paper's 2.4 ms runs 120,000 cycles; the configuration reads back as
// Table I in physical units; its JSON round-trips with the section.
func TestEthernetPresets(t *testing.T) {
	for _, tc := range []struct {
		name         string
		nodes        int
		warm, seeds  int
		paperLengths bool
	}{{"ethernet-h6", 5256, 120000, 10, true}, {"ethernet-h4", 1056, 10000, 2, false}} {
		c, err := PresetByName(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		sz, _ := c.Topology.Sizes()
		r, tp := c.Router, c.Topology
		if sz.Nodes != tc.nodes || r.PacketSize != 10 || r.XbarLatency != 10 || tp.LocalLatency != 2 || tp.GlobalLatency != 20 ||
			r.LocalBuffer != 1000 || r.GlobalBuffer != 1000 || r.InjectionBuffer != 2000 || r.OutputBuffer != 1000 || r.Speedup != 2 {
			t.Errorf("%s: %d nodes, %+v %+v", tc.name, sz.Nodes, r, tp)
		}
		if c.Sim.Warmup != tc.warm || c.Sim.Cycles != tc.warm || c.Sim.Seeds != tc.seeds || c.Sim.Interval != 1000 {
			t.Errorf("%s: run %+v", tc.name, c.Sim)
		}
		s, ok := c.System()
		want := units.TableI(100)
		want.LocalNs, want.GlobalNs, want.InjectionNs = 40, 400, 40
		want.LocalMeters, want.GlobalMeters, want.InjectionMeters = 0, 0, 0
		if !ok || s != want {
			t.Errorf("%s: system %+v, want %+v", tc.name, s, want)
		}
		back, err := Parse(c.JSON())
		if err != nil || back.Physical != c.Physical || !bytes.Contains(c.JSON(), []byte(`"linkGbps": 40`)) {
			t.Errorf("%s: JSON round trip %+v, %v", tc.name, back.Physical, err)
		}
	}
}

// The physical section's validation names its fields and ranges; its
// fields other than linkGbps do not apply without it.
func TestPhysicalValidation(t *testing.T) {
	for _, tc := range []struct {
		set        []string
		path, want string
	}{
		{[]string{"physical.linkGbps=40"}, "physical.phitBytes", "must be set, in [1, 1048576] bytes"},
		{[]string{"physical.linkGbps=-1"}, "physical.linkGbps", "in [0, 100000]"},
		{[]string{"physical.linkGbps=40", "physical.phitBytes=2000000"}, "physical.phitBytes", "in [0, 1048576]"},
		{[]string{"physical.linkGbps=40", "physical.phitBytes=100", "physical.cableNsPerMeter=5000"}, "physical.cableNsPerMeter", "in [0, 1000]"},
		{[]string{"physical.phitBytes=100"}, "", ""}, // no basis: ignored
		{[]string{"physical.linkGbps=40", "physical.phitBytes=100"}, "", ""},
	} {
		c := Default()
		for _, s := range tc.set {
			path, v, _ := strings.Cut(s, "=")
			if err := c.Set(path, v); err != nil {
				t.Fatal(err)
			}
		}
		errs := c.Validate()
		if tc.path == "" {
			if len(errs) > 0 {
				t.Errorf("%v: %v", tc.set, errs)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Path != tc.path || !strings.Contains(errs[0].Msg, tc.want) {
			t.Errorf("%v: %v, want %s: …%s…", tc.set, errs, tc.path, tc.want)
		}
	}
}

// Any field whose unit tag is cycles, phits or phits/node/cycle is shown
// and set in ns, bytes and Gb/s; link latencies also take cable lengths;
// errors name the field.
func TestSetPhysical(t *testing.T) {
	for _, tc := range []struct {
		path, text, want string // want: the engine value, or the error's text
		describe         string
	}{
		{"topology.globalLatency", "400 ns", "20", "= 20 cycles"},
		{"topology.globalLatency", "80 m", "20", "= 400 ns = 20 cycles"},
		{"topology.localLatency", "30 ns", "2", "= 2 cycles (40 ns, rounded up)"},
		{"topology.localLatency", "3", "3", "= 3 cycles"}, // a bare number: cycles, as in -set
		{"topology.injectionLatency", "8 m", "2", "= 40 ns = 2 cycles"},
		{"router.xbarLatency", "0.2 µs", "10", "= 10 cycles"},
		{"router.xbarLatency", "8 m", `unknown unit "m"`, ""}, // not a link
		{"topology.globalLatency", "5 ns", "is below one cycle (20 ns", ""},
		{"topology.globalLatency", "3 ms", "is 150000 cycles, and topology.globalLatency must be in [1, 100000] cycles (20 ns to 2 ms)", ""},
		{"router.packetSize", "1000 B", "10", "= 10 phits"},
		{"router.packetSize", "1050 B", "whole number of phits (1000 B or 1100 B)", ""},
		{"router.localBuffer", "100 KB", "1000", "= 1000 phits"},
		{"router.localBuffer", "50", "50", "= 50 phits"}, // a bare number: phits, as in -set
		{"sim.warmup", "2.4 ms", "120000", "= 120000 cycles"},
		{"traffic.load", "16 Gb/s", "0.4", "= 0.4 phits/(node·cycle)"},
		{"traffic.load", "0.5 phits/node/cycle", "0.5", "= 0.5 phits/(node·cycle)"},
	} {
		c, _ := PresetByName("ethernet-h4")
		p, _ := Lookup(tc.path)
		_, err := c.SetPhysical(p, tc.text)
		if tc.describe == "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.path+" = "+tc.text+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %q: %v, want an error with %q", tc.path, tc.text, err, tc.want)
			}
			if pre, _ := PresetByName("ethernet-h4"); p.Format(&c) != p.Format(&pre) {
				t.Errorf("%s %q: refused, but the value changed to %s", tc.path, tc.text, p.Format(&c))
			}
			continue
		}
		if err != nil || p.Format(&c) != tc.want {
			t.Errorf("%s %q: %s, %v (want %s)", tc.path, tc.text, p.Format(&c), err, tc.want)
		}
		c2, _ := PresetByName("ethernet-h4")
		conv, _ := c2.SetPhysical(p, tc.text)
		b, _ := c2.Basis()
		if got := conv.Describe(b); got != tc.describe {
			t.Errorf("%s %q: %q, want %q", tc.path, tc.text, got, tc.describe)
		}
	}
}

// The physical view: every applying parameter with a physical quantity,
// the Table I values among them.
func TestPhysicalView(t *testing.T) {
	c, _ := PresetByName("ethernet-h6")
	got := map[string]string{}
	for _, f := range c.PhysicalView() {
		got[f.Param.Path] = f.Text + " " + f.Conv
	}
	for path, want := range map[string]string{
		"topology.localLatency":  "40 ns = 2 cycles",
		"topology.globalLatency": "400 ns = 20 cycles",
		"router.xbarLatency":     "200 ns = 10 cycles",
		"router.packetSize":      "1000 B = 10 phits",
		"router.injectionBuffer": "200 KB = 2000 phits",
		"router.localBuffer":     "100 KB = 1000 phits",
		"router.outputBuffer":    "100 KB = 1000 phits",
		"sim.warmup":             "2.4 ms = 120000 cycles",
		"traffic.load":           "16 Gb/s = 0.4 phits/(node·cycle)",
	} {
		if got[path] != want {
			t.Errorf("%s: %q, want %q", path, got[path], want)
		}
	}
	if _, ok := got["routing.acorHI"]; ok { // ACOR's, in cycles
		t.Error("a parameter that does not apply is listed")
	}
	if _, ok := got["router.localVCs"]; ok {
		t.Error("a parameter without a physical quantity is listed")
	}
}

// FuzzSetPhysical: any text typed into any field with a physical quantity
// of the Table I preset (h=4) either sets a value in the field's declared
// range, whose physical text reads back as the same value, or is refused
// with an error on the field's path that leaves the configuration as it
// was.
func FuzzSetPhysical(f *testing.F) {
	var fields []Param
	for _, p := range Params() {
		if p.Quantity() != units.None {
			fields = append(fields, p)
		}
	}
	for i, s := range []string{"400 ns", "80 m", "1e9 ms", "100 KB", "16 Gb/s", "-3 cycles", "0.5 phits", "7", ",", "1e400 ns", "nan ns"} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, pick uint8, text string) {
		c, _ := PresetByName("ethernet-h4")
		p := fields[int(pick)%len(fields)]
		before := c
		_, err := c.SetPhysical(p, text)
		if err != nil {
			fe, ok := err.(*FieldError)
			if !ok || fe.Path != p.Path || fe.Msg == "" {
				t.Fatalf("%s %q: %v does not name the field", p.Path, text, err)
			}
			if c != before {
				t.Fatalf("%s %q: refused, but the configuration changed", p.Path, text)
			}
			return
		}
		if e := p.check(&c); e != nil {
			t.Fatalf("%s %q: set out of range: %v", p.Path, text, e)
		}
		shown, _ := c.PhysicalText(p)
		again := c
		if _, err := again.SetPhysical(p, shown); err != nil || p.Format(&again) != p.Format(&c) {
			t.Fatalf("%s %q: %s shows as %q, which sets %s (%v)", p.Path, text, p.Format(&c), shown, p.Format(&again), err)
		}
	})
}

// -set and URLs: with a physical basis a value may carry a physical unit;
// a bare number is the engine value as always; without a basis, a value
// with a unit is refused with what to set first.
func TestSetWithUnits(t *testing.T) {
	c, _ := PresetByName("ethernet-h4")
	for _, s := range [][3]string{
		{"topology.globalLatency", "800 ns", "40"}, {"topology.globalLatency", "8 m", "2"}, {"topology.globalLatency", "35", "35"},
		{"router.localBuffer", "50KB", "500"}, {"traffic.load", "10 Gb/s", "0.25"}, {"traffic.load", "0.3", "0.3"},
	} {
		p, _ := Lookup(s[0])
		if err := c.Set(s[0], s[1]); err != nil || p.Format(&c) != s[2] {
			t.Errorf("%s=%s: %s, %v (want %s)", s[0], s[1], p.Format(&c), err, s[2])
		}
	}
	if err := c.Set("topology.globalLatency", "5 ns"); err == nil || !strings.Contains(err.Error(), "topology.globalLatency = 5 ns: is below one cycle") {
		t.Errorf("5 ns: %v", err)
	}
	if err := c.Set("topology.globalLatency", "2.5"); err == nil || !strings.Contains(err.Error(), "must be a whole number") {
		t.Errorf("2.5: %v", err)
	}
	d := Default()
	if err := d.Set("topology.globalLatency", "400 ns"); err == nil || !strings.Contains(err.Error(), "set physical.linkGbps and physical.phitBytes first") || d != Default() {
		t.Errorf("without a basis: %v", err)
	}
}
