package config

import (
	"strings"
	"testing"
)

// sim.autoWarmup and sim.precision: bad combinations name their field and
// the range allowed.
func TestMeasureSettingsAreValidated(t *testing.T) {
	for _, tc := range []struct {
		name, path, msg string
		set             func(c *Config)
	}{
		{"auto warm-up cap below 50 intervals", "sim.warmup", "at least 50000", func(c *Config) { c.Sim.AutoWarmup, c.Sim.Warmup = true, 20000 }},
		{"auto warm-up with a switch", "sim.autoWarmup", "traffic.switchCycle", func(c *Config) {
			c.Sim.AutoWarmup, c.Traffic.SwitchCycle, c.Traffic.SwitchPattern, c.Traffic.SwitchAdvOffset = true, 100, "ADV", 1
		}},
		{"precision with few intervals", "sim.cycles", "at least 10000", func(c *Config) { c.Sim.Precision, c.Sim.Cycles = 0.02, 5000 }},
		{"precision out of range", "sim.precision", "0.5", func(c *Config) { c.Sim.Precision = 0.7 }},
		{"cap past 2·10⁸", "sim.maxCycles", "200,000,000", func(c *Config) { c.Sim.Precision, c.Sim.MaxCycles = 0.02, 100000000; c.Sim.Warmup = 100000000 + 1 }},
	} {
		c := Default()
		tc.set(&c)
		found := false
		for _, e := range c.Validate() {
			if e.Path == tc.path && strings.Contains(e.Error(), tc.msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no error on %s mentioning %q: %v", tc.name, tc.path, tc.msg, c.Validate())
		}
	}
	c := Default()
	c.Sim.AutoWarmup, c.Sim.Precision = true, 0.02
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("defaults with auto warm-up and ±2%%: %v", errs)
	}
}
