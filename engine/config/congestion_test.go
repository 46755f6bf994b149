package config

import (
	"encoding/json"
	"strings"
	"testing"
)

// The congestion section (Kim et al., "Contention-based Congestion
// Management in Large-Scale Networks" §V-A): absent from existing
// documents, the paper's ECN values for the zeros, and bad combinations
// refused naming the field and what it needs.
func TestCongestionValidation(t *testing.T) {
	c := FBFly(1, 4, 4)
	if b, _ := json.Marshal(c); strings.Contains(string(b), `"congestion":{`) || strings.Contains(string(b), "hotspotBackground") {
		t.Fatalf("the default document names the new section:\n%s", b)
	}
	p := c.Congestion.ECN()
	if p.Threshold != 0.9 || p.Increment != 400 || p.Max != 1500 || p.Decrement != 50 || p.Period != 1000 {
		t.Errorf("ECN defaults %+v, want Kim et al.'s 90%%, 400, 1,500, 50, 1,000", p)
	}
	perDst := func(c *Config) { c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination" }
	for _, tc := range []struct {
		name  string
		edit  func(*Config)
		path  string
		words string
	}{
		{"ecn without queue pairs", func(c *Config) { c.Congestion.Scheme = "ecn" }, "congestion.scheme", "traffic.sourceQueues=perDestination"},
		{"ecn", func(c *Config) { perDst(c); c.Congestion.Scheme = "ecn" }, "", ""},
		{"ideal, single queue", func(c *Config) { c.Congestion.Scheme = "ideal" }, "", ""},
		{"unknown scheme", func(c *Config) { c.Congestion.Scheme = "cbcm2" }, "congestion.scheme", "ecn"},
		// without CBCM early detection does not apply: ignored and listed (Unapplied), not refused
		{"early detection without cbcm", func(c *Config) { perDst(c); c.Congestion.Scheme, c.Congestion.CbcmEarly = "ecn", true }, "", ""},
		{"early detection", func(c *Config) { perDst(c); c.Congestion.Scheme, c.Congestion.CbcmEarly = "cbcm", true }, "", ""},
		{"low priority", func(c *Config) { c.Congestion.Scheme, c.Congestion.IdealPriority = "ideal", "low" }, "", ""},
		{"bad priority", func(c *Config) { c.Congestion.Scheme, c.Congestion.IdealPriority = "ideal", "high" }, "congestion.idealPriority", "low"},
		{"threshold", func(c *Config) { perDst(c); c.Congestion.Scheme, c.Congestion.EcnThreshold = "ecn", 120 }, "congestion.ecnThreshold", "100"},
		{"increment over the cap", func(c *Config) {
			perDst(c)
			c.Congestion.Scheme, c.Congestion.EcnIpdIncrement, c.Congestion.EcnIpdMax = "ecn", 800, 500
		}, "congestion.ecnIpdIncrement", "ecnIpdMax"},
		{"background", func(c *Config) {
			c.Traffic.Pattern, c.Traffic.HotspotSenders, c.Traffic.HotspotBackground = "HOTSPOT", "4,5,6,7", "TORNADO"
		}, "", ""},
		{"bad background", func(c *Config) {
			c.Traffic.Pattern, c.Traffic.HotspotSenders, c.Traffic.HotspotBackground = "HOTSPOT", "4,5,6,7", "ADV"
		}, "traffic.hotspotBackground", "TORNADO"},
	} {
		c := FBFly(1, 4, 4)
		tc.edit(&c)
		errs := c.Validate()
		if tc.path == "" {
			if len(errs) > 0 {
				t.Errorf("%s: %v", tc.name, errs)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Path != tc.path || !strings.Contains(errs[0].Error(), tc.words) {
			t.Errorf("%s: want one error on %s saying %q, got %v", tc.name, tc.path, tc.words, errs)
		}
	}
	// TORNADO's background addresses routers of a flattened butterfly
	d := Default()
	d.Traffic.Pattern, d.Traffic.HotspotSenders, d.Traffic.HotspotBackground = "HOTSPOT", "4,5", "TORNADO"
	if errs := d.Validate(); len(errs) != 1 || errs[0].Path != "traffic.hotspotBackground" {
		t.Errorf("TORNADO background on a Dragonfly: %v", errs)
	}
}

// congestion.cbcmEarly without CBCM does not apply: the validator lets it
// through and Unapplied names it (as every `when` field), with CBCM it
// applies.
func TestCBCMEarlyUnappliedWithoutCBCM(t *testing.T) {
	c := Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
	c.Congestion.Scheme, c.Congestion.CbcmEarly = "ecn", true
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatalf("refused: %v", errs)
	}
	if n := c.Unapplied(); len(n) != 1 || n[0].Path != "congestion.cbcmEarly" {
		t.Errorf("ecn with early detection: unapplied %v, want congestion.cbcmEarly", n)
	}
	c.Congestion.Scheme = "cbcm"
	for _, f := range c.Unapplied() {
		if f.Path == "congestion.cbcmEarly" {
			t.Errorf("cbcm with early detection: listed as not applying: %v", f)
		}
	}
}

// congestion.cbcmHotspotAging applies to CBCM's dedicated hotspot VC only:
// with cbcmHotspotVC=shared (no hotspot VC) or another scheme it is listed
// as not applying and ignored, not refused; a negative value is refused
// naming the field.
func TestCBCMHotspotAgingApplies(t *testing.T) {
	c := FBFly(1, 4, 4)
	c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
	c.Congestion.Scheme, c.Congestion.CbcmHotspotAging = "cbcm", 2000
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatalf("refused: %v", errs)
	}
	if n := c.Unapplied(); len(n) != 0 {
		t.Errorf("cbcm, dedicated hotspot VC: unapplied %v", n)
	}
	for _, set := range []func(*Config){
		func(c *Config) { c.Congestion.CbcmHotspotVC = "shared" },
		func(c *Config) { c.Congestion.Scheme = "srp" },
	} {
		d := c
		set(&d)
		if errs := d.Validate(); len(errs) != 0 {
			t.Errorf("%s/%s: refused: %v", d.Congestion.Scheme, d.Congestion.CbcmHotspotVC, errs)
		}
		if n := d.Unapplied(); len(n) != 1 || n[0].Path != "congestion.cbcmHotspotAging" {
			t.Errorf("%s/%s: unapplied %v, want congestion.cbcmHotspotAging", d.Congestion.Scheme, d.Congestion.CbcmHotspotVC, n)
		}
	}
	c.Congestion.CbcmHotspotAging = -1
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "congestion.cbcmHotspotAging" {
		t.Errorf("aging −1: %v, want one error naming congestion.cbcmHotspotAging", errs)
	}
}
