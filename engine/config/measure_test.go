package config

import (
	"errors"
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

// sim.warmup=auto (the automatic warm-up as the measurement-quality issue
// spells it) is sim.autoWarmup=true with sim.warmup kept as its cap, from
// -set / URLs and from a configuration file; another word is refused with
// an error naming sim.warmup and saying "auto" is allowed.
func TestWarmupAuto(t *testing.T) {
	want := Default()
	want.Sim.Warmup, want.Sim.AutoWarmup = 5000, true
	c := Default()
	if err := c.Set("sim.warmup", "5000"); err != nil {
		t.Fatal(err)
	}
	if err := c.Set("sim.warmup", " auto "); err != nil || c != want {
		t.Errorf("-set sim.warmup=auto: %v, warm-up %d auto %v; want the cap 5000 kept, auto on", err, c.Sim.Warmup, c.Sim.AutoWarmup)
	}
	// a number afterwards sets the cap only (URLs list both fields)
	if err := c.Set("sim.warmup", "6000"); err != nil || !c.Sim.AutoWarmup || c.Sim.Warmup != 6000 {
		t.Errorf("then sim.warmup=6000: %v, %+v", err, c.Sim)
	}
	for _, bad := range []string{"automatic", "Auto?", ""} {
		c := Default()
		err := c.Set("sim.warmup", bad)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != "sim.warmup" || !strings.Contains(fe.Msg, `or "auto"`) || c != Default() {
			t.Errorf("sim.warmup=%q: %v, want an error naming sim.warmup that allows auto", bad, err)
		}
	}
	c, err := Decode([]byte(`{"sim":{"warmup":"auto","autoWarmup":false}}`))
	if d := Default(); err != nil || !c.Sim.AutoWarmup || c.Sim.Warmup != d.Sim.Warmup {
		t.Errorf(`"warmup": "auto": %v, %+v; want auto on, the default cap`, err, c.Sim)
	}
	back, err := Parse(c.JSON())
	if err != nil || back != c || !strings.Contains(string(c.JSON()), `"autoWarmup": true`) {
		t.Errorf("written back: %v\n%s", err, c.JSON())
	}
	_, err = Decode([]byte(`{"sim":{"warmup":"soon"}}`))
	if err == nil || !strings.Contains(err.Error(), "sim.warmup") || !strings.Contains(err.Error(), `or "auto"`) {
		t.Errorf(`"warmup": "soon": %v, want an error naming sim.warmup that allows auto`, err)
	}
}
