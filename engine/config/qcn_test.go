package config

import (
	"strings"
	"testing"
)

// The QCN-Switch parameters (QCN-Switch paper Table I): omitted from the
// document at 0/"", which resolve to the paper's values; out-of-range values
// and the combinations the simulator cannot run are refused naming the field.
func TestQCNFields(t *testing.T) {
	c := Default()
	c.Routing.Name = "QCN_SWITCH"
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatalf("default QCN_SWITCH: %v", errs)
	}
	if strings.Contains(string(c.JSON()), "qcn") {
		t.Error("the default QCN-Switch parameters are written into the document")
	}
	q := c.Routing.QCN()
	want := QCN{FbComparison: true, Qeq: 20, CnmPercent: 30, Lf: 1.0 / 64, PI: 1, Th2: 30, CPC: 100, PCl: 100}
	if q != want {
		t.Errorf("resolved defaults %+v, want %+v", q, want)
	}
	c.Routing.QcnTh2 = -1
	if q := c.Routing.QCN(); q.Th2 != 0 {
		t.Errorf("qcnTh2=-1 resolves to %g, want 0", q.Th2)
	}
	for _, tc := range []struct {
		path string
		set  func(*Config)
	}{
		{"routing.qcnSampling", func(c *Config) { c.Routing.QcnSampling = "both" }},
		{"routing.qcnSampling", func(c *Config) { c.Router.Model, c.Router.Speedup = "iq", 1 }},
		{"routing.qcnSamplingClock", func(c *Config) { c.Routing.QcnClock = "cycles" }},
		{"routing.qcnFeedbackComparison", func(c *Config) { c.Routing.QcnFbComparison = "yes" }},
		{"routing.qcnNonMinimal", func(c *Config) { c.Routing.QcnNonMinimal = "valiant" }},
		{"routing.qcnQeq", func(c *Config) { c.Routing.QcnQeq = 51 }},
		{"routing.qcnCPC", func(c *Config) { c.Routing.QcnCPC = -1 }},
		{"routing.qcnCnmPercent", func(c *Config) { c.Routing.QcnCnmPercent = 101 }},
		{"routing.qcnLf", func(c *Config) { c.Routing.QcnLf = 2 }},
		{"routing.qcnTh2", func(c *Config) { c.Routing.QcnTh2 = 64 }},
		{"router.localVCs", func(c *Config) { c.Router.LocalVCs = 31 }},
		{"router.damq", func(c *Config) { c.Router.Damq, c.Router.DamqReserve = true, 50 }},
	} {
		c := Default()
		c.Routing.Name = "QCN_SWITCH"
		tc.set(&c)
		if errs := c.Validate(); len(errs) != 1 || errs[0].Path != tc.path {
			t.Errorf("%s: %v", tc.path, errs)
		}
	}
	// input sampling runs on the input-queued model
	c = Default()
	c.Routing.Name, c.Routing.QcnSampling, c.Router.Model, c.Router.Speedup = "QCN_SWITCH", "input", "iq", 1
	if errs := c.Validate(); len(errs) != 0 {
		t.Errorf("input sampling, router.model=iq: %v", errs)
	}
}
