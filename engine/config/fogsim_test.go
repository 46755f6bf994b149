package config

import "testing"

// The FOGSim model sets FOGSim's value of every tagged parameter, each value
// is one the parameter accepts, and none is phitsim's default (a tag on a
// parameter where both agree would say nothing).
func TestFOGSimModel(t *testing.T) {
	model := FOGSimModel()
	if len(model) < 6 {
		t.Fatalf("FOGSim model %v: want at least the ejection gate, transit outputs, idle routers, OLM's draw and intra-group misroute, ACOR's count", model)
	}
	def := Default()
	c := Default()
	c.UseFOGSimModel()
	for _, kv := range model {
		p, _ := Lookup(kv[0])
		if got := p.Format(&c); got != kv[1] {
			t.Errorf("%s = %s after UseFOGSimModel, want %s", kv[0], got, kv[1])
		}
		if p.Format(&def) == kv[1] {
			t.Errorf("%s: FOGSim's value %s is the default", kv[0], kv[1])
		}
	}
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("the FOGSim model does not validate: %v", errs)
	}
	for _, want := range []string{"router.ejection", "router.outputFifo", "routing.candidates"} {
		found := false
		for _, kv := range model {
			found = found || kv[0] == want
		}
		if !found {
			t.Errorf("%s is not in the FOGSim model", want)
		}
	}
}
