package config

import (
	"strings"
	"testing"
)

// routing.injectionTrigger: omitted for its default (ugal), so that
// documents without it are unchanged; a value outside its enum is refused
// naming the field; the ECtN parameters' ranges.
func TestInjectionTriggerAndECtNFields(t *testing.T) {
	c := Default()
	c.Routing.Name = "UGAL"
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatalf("default UGAL: %v", errs)
	}
	if strings.Contains(string(c.JSON()), "injectionTrigger") || strings.Contains(string(c.JSON()), "ectn") {
		t.Error("the default injection trigger or ECtN parameters are written into the document")
	}
	c.Routing.EctnPeriod, c.Topology.LocalLatency = 16, 1000 // 63 broadcasts in flight: allowed
	for _, v := range []string{"ugal", "base", "ectn"} {
		c.Routing.InjectionTrigger = v
		if errs := c.Validate(); len(errs) != 0 {
			t.Errorf("injectionTrigger=%s: %v", v, errs)
		}
	}
	for _, tc := range []struct {
		path string
		set  func(*Config)
	}{
		{"routing.injectionTrigger", func(c *Config) { c.Routing.InjectionTrigger = "cga" }},
		{"routing.ectnThreshold", func(c *Config) { c.Routing.EctnTh = -1 }},
		{"routing.ectnPeriod", func(c *Config) { c.Routing.EctnPeriod = 1000001 }},
		// 1000/10 + 1 broadcasts in flight at once: more than 64
		{"routing.ectnPeriod", func(c *Config) { c.Routing.EctnPeriod, c.Topology.LocalLatency = 10, 1000 }},
	} {
		c := Default()
		c.Routing.Name, c.Routing.Trigger = "OLM", "ectn"
		tc.set(&c)
		if errs := c.Validate(); len(errs) != 1 || errs[0].Path != tc.path {
			t.Errorf("%s out of range: %v", tc.path, errs)
		}
	}
}
