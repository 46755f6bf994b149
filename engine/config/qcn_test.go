package config

import (
	"reflect"
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

// The "when" tag combines conditions with "," (all must hold), so the
// QCN-Switch options that depend on another option (QCN-Switch paper
// §3.2.1: source processing is input sampling's; §3.3: Th1 and Th2 are
// feedback comparison's) apply, and show in the form, only with it.
func TestWhenCombinedConditions(t *testing.T) {
	sp, _ := Lookup("routing.qcnSourceProcessing")
	want := []Condition{{"routing.name", "=", []string{"QCN_SWITCH"}}, {"routing.qcnSampling", "=", []string{"input"}}}
	if got := sp.Conditions(); !reflect.DeepEqual(got, want) {
		t.Errorf("conditions %+v, want %+v", got, want)
	}
	if got, w := sp.WhenText(), "routing.name=QCN_SWITCH and routing.qcnSampling=input"; got != w {
		t.Errorf("when text %q, want %q", got, w)
	}
	th2, _ := Lookup("routing.qcnTh2")
	if got, w := th2.WhenText(), "routing.name=QCN_SWITCH and routing.qcnFeedbackComparison≠off"; got != w {
		t.Errorf("when text %q, want %q", got, w)
	}
	// the other operators still parse, alone and among others
	for when, want := range map[string][]Condition{
		"traffic.switchCycle>0":                           {{"traffic.switchCycle", ">", []string{"0"}}},
		"routing.name=VAL|PB,traffic.switchCycle>100":     {{"routing.name", "=", []string{"VAL", "PB"}}, {"traffic.switchCycle", ">", []string{"100"}}},
		"routing.qcnSampling!=input|output,sim.seeds>1":   {{"routing.qcnSampling", "!=", []string{"input", "output"}}, {"sim.seeds", ">", []string{"1"}}},
		"routing.qcnFeedbackComparison=,routing.name=MIN": {{"routing.qcnFeedbackComparison", "=", []string{""}}, {"routing.name", "=", []string{"MIN"}}},
	} {
		if got := (Param{When: when}).Conditions(); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %+v, want %+v", when, got, want)
		}
	}

	c := Default()
	c.Routing.Name = "QCN_SWITCH"
	th1, _ := Lookup("routing.qcnTh1")
	for _, tc := range []struct {
		sampling, fbc string
		sp, th        bool
	}{
		{"", "", false, true}, // output sampling, feedback comparison on
		{"output", "on", false, true},
		{"input", "", true, true},
		{"input", "off", true, false},
		{"", "off", false, false},
	} {
		c.Routing.QcnSampling, c.Routing.QcnFbComparison = tc.sampling, tc.fbc
		if sp.Applies(&c) != tc.sp || th1.Applies(&c) != tc.th || th2.Applies(&c) != tc.th {
			t.Errorf("sampling %q, comparison %q: source processing applies %v, Th1 %v, Th2 %v; want %v, %v",
				tc.sampling, tc.fbc, sp.Applies(&c), th1.Applies(&c), th2.Applies(&c), tc.sp, tc.th)
		}
	}
	c.Routing.Name, c.Routing.QcnSampling = "MIN", "input"
	if sp.Applies(&c) {
		t.Error("source processing applies under MIN")
	}

	// a tag that does not parse is caught when the parameters are built
	for _, when := range []string{"routing.nope=1", "traffic.load", "traffic.load>x", "routing.qcnSampling=input,"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("when %q accepted", when)
				}
			}()
			Param{Path: "routing.qcnPI", When: when}.checkWhen()
		}()
	}
}

// A value that an option of its own routing rules out is valid (the
// simulator ignores it, as it ignores another routing's values) but listed
// by Unapplied, naming the field, the condition and the value that breaks
// it; another routing's values, defaults and FOGSim's model are not.
func TestQCNUnapplied(t *testing.T) {
	c := Default()
	c.Routing.Name = "QCN_SWITCH"
	c.Routing.QcnSourceProcessing, c.Routing.QcnTh1, c.Routing.QcnTh2 = true, 5, 10
	if n := c.Unapplied(); len(n) != 1 || n[0].Path != "routing.qcnSourceProcessing" ||
		!strings.Contains(n[0].Msg, "routing.qcnSampling=input") || !strings.Contains(n[0].Msg, "routing.qcnSampling is empty") {
		t.Errorf("output sampling with source processing: %v", n)
	}
	c.Routing.QcnSampling, c.Routing.QcnFbComparison = "input", "off"
	n := c.Unapplied()
	if len(n) != 2 || n[0].Path != "routing.qcnTh1" || n[1].Path != "routing.qcnTh2" ||
		!strings.Contains(n[1].Error(), `routing.qcnTh2 = 10: does not apply`) || !strings.Contains(n[1].Msg, `routing.qcnFeedbackComparison is "off"`) {
		t.Errorf("feedback comparison off with thresholds: %v", n)
	}
	if errs := c.Validate(); len(errs) != 0 {
		t.Errorf("refused: %v", errs)
	}
	c.Routing.QcnFbComparison = "on"
	if n := c.Unapplied(); len(n) != 0 {
		t.Errorf("every value applies: %v", n)
	}
	// under MIN: QCN-Switch's values, PB's and FOGSim's model are carried silently
	c.Routing.Name, c.Routing.QcnFbComparison, c.Routing.PbCoef = "MIN", "off", 300
	c.UseFOGSimModel()
	if n := c.Unapplied(); len(n) != 0 {
		t.Errorf("MIN: %v", n)
	}
}
