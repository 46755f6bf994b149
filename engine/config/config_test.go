package config

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The default (thesis Table 1.2) and every preset are valid configurations
// (thesis §1.6.4).
func TestDefaultAndEveryPresetValidate(t *testing.T) {
	d := Default()
	if errs := d.Validate(); len(errs) > 0 {
		t.Errorf("Default: %v", errs)
	}
	if d.Topology.H != 8 || d.Topology.A != 16 || d.Topology.P != 8 || d.Sim.Warmup != 60000 || d.Sim.Cycles != 60000 {
		t.Errorf("Default is not the Table 1.2 system: %+v", d)
	}
	names := map[string]bool{}
	for _, p := range Presets() {
		if names[p.Name] {
			t.Errorf("preset %q listed twice", p.Name)
		}
		names[p.Name] = true
		if errs := p.Config.Validate(); len(errs) > 0 {
			t.Errorf("preset %q: %v", p.Name, errs)
		}
		if p.Doc == "" {
			t.Errorf("preset %q has no description", p.Name)
		}
		c, err := PresetByName(p.Name)
		if err != nil || !reflect.DeepEqual(c, p.Config) {
			t.Errorf("PresetByName(%q) = %v", p.Name, err)
		}
	}
	if _, err := PresetByName("no-such-preset"); err == nil {
		t.Error("PresetByName accepted an unknown name")
	}
}

// btHasPath reports whether errs holds a FieldError on path (and its message).
func btHasPath(errs Errors, path string) (*FieldError, bool) {
	for _, e := range errs {
		if e.Path == path {
			return e, true
		}
	}
	return nil, false
}

// Every field group rejects bad values with a FieldError naming the field's
// dotted path and what is allowed.
func TestValidateNamesTheBadFieldInEveryGroup(t *testing.T) {
	type tc struct {
		set   string // "path=value" applied with Set, or "" when edit is used
		edit  func(*Config)
		want  string // path of the expected FieldError
		inMsg string // substring of its message
	}
	cases := []tc{
		{set: "version=2", want: "version"},
		// topology
		{set: "topology.kind=torus", want: "topology.kind", inMsg: "one of"},
		{set: "topology.h=0", want: "topology.h", inMsg: "[1, 32]"},
		{set: "topology.a=65", want: "topology.a"},
		{set: "topology.p=0", want: "topology.p"},
		{set: "topology.arrangement=ring", want: "topology.arrangement", inMsg: "palmtree"},
		{set: "topology.localLatency=0", want: "topology.localLatency"},
		{set: "topology.globalLatency=-100", want: "topology.globalLatency"},
		{set: "topology.injectionLatency=0", want: "topology.injectionLatency"},
		{edit: func(c *Config) { c.Topology.H, c.Topology.A, c.Topology.P = 32, 64, 64 }, want: "topology", inMsg: "nodes"},
		{edit: func(c *Config) { c.Topology.H, c.Topology.A, c.Topology.P = 2, 64, 64 }, want: "topology", inMsg: "radix"},
		// router
		{set: "router.model=oq", want: "router.model"},
		{set: "router.speedup=0.5", want: "router.speedup", inMsg: "[1, 8]"},
		{edit: func(c *Config) { c.Router.Model, c.Router.Speedup = "iq", 2 }, want: "router.speedup", inMsg: "input-queued"},
		{set: "router.xbarLatency=-1", want: "router.xbarLatency"},
		{set: "router.packetSize=0", want: "router.packetSize"},
		{set: "router.injectionBuffer=4", want: "router.injectionBuffer", inMsg: "whole packet"},
		{set: "router.localBuffer=7", want: "router.localBuffer", inMsg: "whole packet"},
		{set: "router.globalBuffer=0", want: "router.globalBuffer"},
		{set: "router.outputBuffer=4", want: "router.outputBuffer", inMsg: "whole packet"},
		{set: "router.injectionVCs=33", want: "router.injectionVCs"},
		{set: "router.localVCs=-1", want: "router.localVCs"},
		{set: "router.globalVCs=99", want: "router.globalVCs"},
		{set: "router.iterations=0", want: "router.iterations"},
		{set: "router.inputArbiter=fifo", want: "router.inputArbiter", inMsg: "rr, lrs, age"},
		{set: "router.outputArbiter=prio", want: "router.outputArbiter"},
		{set: "router.injectionPolicy=shortest", want: "router.injectionPolicy"},
		// routing
		{set: "routing.name=DOR", want: "routing.name", inMsg: "MIN"},
		{set: "routing.name=min", want: "routing.name"},
		// traffic
		{set: "traffic.pattern=ADV1", want: "traffic.pattern"},
		{set: "traffic.load=1.5", want: "traffic.load", inMsg: "[0, 1]"},
		{set: "traffic.load=-0.1", want: "traffic.load"},
		{edit: func(c *Config) { c.Traffic.Load = math.NaN() }, want: "traffic.load", inMsg: "finite"},
		{set: "traffic.process=poisson", want: "traffic.process"},
		{set: "traffic.burstLength=0.5", want: "traffic.burstLength"},
		{set: "traffic.advOffset=0", want: "traffic.advOffset"},
		{edit: func(c *Config) { c.Traffic.Pattern, c.Traffic.AdvOffset = "ADV", 129 }, want: "traffic.advOffset", inMsg: "multiple"},
		{set: "traffic.advRouter=nearest", want: "traffic.advRouter"},
		{edit: func(c *Config) { c.Traffic.Pattern, c.Traffic.LocalOffset = "ADVL", 16 }, want: "traffic.localOffset", inMsg: "multiple of a"},
		{set: "traffic.mixUN=150", want: "traffic.mixUN"},
		{edit: func(c *Config) { c.Traffic.Pattern, c.Traffic.MixUN, c.Traffic.MixADV = "MIX", 50, 20 }, want: "traffic.mixUN", inMsg: "must be 100"},
		{edit: func(c *Config) { c.Topology.H, c.Traffic.Pattern, c.Traffic.AdvcFogsim = 1, "ADVC", true }, want: "traffic.advcFogsim", inMsg: "h ≥ 2"},
		{set: "traffic.switchCycle=-5", want: "traffic.switchCycle"},
		{set: "traffic.switchPattern=RANDOM", want: "traffic.switchPattern"},
		{edit: func(c *Config) { c.Traffic.SwitchCycle, c.Traffic.SwitchAdvOffset = 100, 129 }, want: "traffic.switchAdvOffset", inMsg: "multiple"},
		// sim
		{set: "sim.warmup=-1", want: "sim.warmup"},
		{set: "sim.cycles=0", want: "sim.cycles"},
		{set: "sim.seeds=0", want: "sim.seeds"},
		{set: "sim.interval=0", want: "sim.interval"},
		{set: "sim.histMax=8", want: "sim.histMax"},
		{set: "sim.watchdog=50", want: "sim.watchdog"},
	}
	groups := map[string]bool{}
	for _, k := range cases {
		c := Default()
		name := k.set
		if k.set != "" {
			path, v, _ := strings.Cut(k.set, "=")
			if err := c.Set(path, v); err != nil {
				t.Errorf("%s: Set failed (range checks belong to Validate): %v", k.set, err)
				continue
			}
		} else {
			k.edit(&c)
			name = "edit → " + k.want
		}
		errs := c.Validate()
		var e *FieldError
		for _, x := range errs {
			if x.Path == k.want && (e == nil || strings.Contains(x.Msg, k.inMsg)) {
				e = x
			}
		}
		if e == nil {
			t.Errorf("%s: no error on %q (got %v)", name, k.want, errs)
			continue
		}
		if e.Msg == "" || !strings.Contains(e.Error(), k.want) || !strings.Contains(e.Msg, k.inMsg) {
			t.Errorf("%s: message %q (want it to contain %q)", name, e.Error(), k.inMsg)
		}
		groups[strings.Split(k.want, ".")[0]] = true
	}
	for _, g := range []string{"topology", "router", "routing", "traffic", "sim"} {
		if !groups[g] {
			t.Errorf("no case for group %s", g)
		}
	}
}

// Validation lists every problem at once, not only the first.
func TestValidateListsEveryErrorAtOnce(t *testing.T) {
	c := Default()
	c.Topology.P = 0
	c.Router.Iterations = 0
	c.Router.InputArbiter = "x"
	c.Routing.Name = "DOR"
	c.Traffic.Load = 3
	c.Sim.Cycles = 0
	errs := c.Validate()
	want := []string{"topology.p", "router.iterations", "router.inputArbiter", "routing.name", "traffic.load", "sim.cycles"}
	for _, p := range want {
		if _, ok := btHasPath(errs, p); !ok {
			t.Errorf("%s missing from %v", p, errs)
		}
		if !strings.Contains(errs.Error(), p) {
			t.Errorf("Errors.Error() does not mention %s: %s", p, errs.Error())
		}
	}
	if len(errs) != len(want) {
		t.Errorf("%d errors, want %d: %v", len(errs), len(want), errs)
	}
	// Parse reports the same list
	_, err := Parse(c.JSON())
	var perrs Errors
	if !errors.As(err, &perrs) || len(perrs) != len(want) {
		t.Errorf("Parse: %v", err)
	}
}

// Parse reads JSON over the defaults, rejects unknown fields (with their full
// path) and values of the wrong type, and validates.
func TestParseRejectsUnknownFieldsAndBadDocuments(t *testing.T) {
	c, err := Parse([]byte(`{"topology": {"h": 2, "a": 4, "p": 2}, "traffic": {"load": 0.25}}`))
	if err != nil {
		t.Fatalf("valid partial document: %v", err)
	}
	if c.Topology.H != 2 || c.Traffic.Load != 0.25 || c.Router.PacketSize != 8 || c.Sim.Cycles != 60000 {
		t.Errorf("partial document not merged over the defaults: %+v", c)
	}
	d := Default()
	if back, err := Parse(d.JSON()); err != nil || !reflect.DeepEqual(back, d) {
		t.Errorf("Default does not round-trip through JSON: %v", err)
	}
	for _, tc := range []struct {
		doc  string
		want []string // paths
	}{
		{`{"router": {"bogus": 1}}`, []string{"router.bogus"}},
		{`{"extra": true, "sim": {"cycles": 10, "seedz": 3}}`, []string{"extra", "sim.seedz"}},
		{`{"topology": {"h": 2, "diameter": 3}, "routing": {"name": "MIN", "ugal": 1}}`, []string{"topology.diameter", "routing.ugal"}},
		{`{"traffic": {"load": "high"}}`, []string{"traffic.load"}},
		{`{"traffic": {"load": 2}}`, []string{"traffic.load"}},
		{`{"topology": `, []string{"(document)"}},
	} {
		_, err := Parse([]byte(tc.doc))
		var errs Errors
		if !errors.As(err, &errs) {
			t.Errorf("%s: error %v, want Errors", tc.doc, err)
			continue
		}
		for _, p := range tc.want {
			if _, ok := btHasPath(errs, p); !ok {
				t.Errorf("%s: no error on %q: %v", tc.doc, p, errs)
			}
		}
		if strings.Contains(tc.doc, "bogus") && !strings.Contains(errs.Error(), "unknown field") {
			t.Errorf("%s: %v does not say 'unknown field'", tc.doc, errs)
		}
	}
}

// The distance-based deadlock avoidance needs a VC per hop of the routing's
// sequence: MIN 2 local/1 global, VAL_GROUP 3/2, VAL 4/2, doubled for
// request-reply (thesis §1.3, Fig. 1.15, §1.6.2, §5.2.3; FOGSim v4
// typeVc/petitionVc/responseVc). A budget
// too small is rejected with a message saying what is needed.
func TestVCBudgetTooSmallForRoutingIsRejected(t *testing.T) {
	for _, tc := range []struct {
		routing        string
		reactive       bool
		inj, loc, glob int
		want, inMsg    string
	}{
		{"VAL", false, 0, 2, 0, "router.localVCs", "VAL needs at least 4 local VCs"},
		{"VAL", false, 0, 3, 0, "router.localVCs", "VAL needs at least 4 local VCs"},
		{"VAL", false, 0, 0, 1, "router.globalVCs", "VAL needs at least 2 global VCs"},
		{"VAL_GROUP", false, 0, 2, 0, "router.localVCs", "VAL_GROUP needs at least 3 local VCs"},
		{"MIN", false, 0, 1, 0, "router.localVCs", "MIN needs at least 2 local VCs"},
		{"VAL", true, 0, 4, 0, "router.localVCs", "request-reply"},
		{"MIN", true, 0, 0, 1, "router.globalVCs", "MIN needs at least 2 global VCs"},
		{"MIN", true, 1, 0, 0, "router.injectionVCs", "at least 2 injection VCs"},
	} {
		c := Default()
		c.Routing.Name, c.Traffic.Reactive = tc.routing, tc.reactive
		c.Router.InjectionVCs, c.Router.LocalVCs, c.Router.GlobalVCs = tc.inj, tc.loc, tc.glob
		e, ok := btHasPath(c.Validate(), tc.want)
		if !ok || !strings.Contains(e.Msg, tc.inMsg) {
			t.Errorf("%s reactive=%v VCs %d/%d/%d: error %v, want %s: …%s…", tc.routing, tc.reactive,
				tc.inj, tc.loc, tc.glob, e, tc.want, tc.inMsg)
		}
	}
	// exactly enough is fine, and automatic counts always suffice
	for _, tc := range []struct {
		routing   string
		reactive  bool
		loc, glob int
	}{{"MIN", false, 2, 1}, {"VAL_GROUP", false, 3, 2}, {"VAL", false, 4, 2}, {"VAL", true, 8, 4}, {"VAL", true, 0, 0}} {
		c := Default()
		c.Routing.Name, c.Traffic.Reactive = tc.routing, tc.reactive
		c.Router.LocalVCs, c.Router.GlobalVCs = tc.loc, tc.glob
		if errs := c.Validate(); len(errs) > 0 {
			t.Errorf("%s reactive=%v %d/%d VCs rejected: %v", tc.routing, tc.reactive, tc.loc, tc.glob, errs)
		}
	}
}

// Set applies "path=value" (CLI -set, URLs): unknown paths and unparsable
// values fail with a FieldError naming the path.
func TestSetRejectsUnknownPathsAndMalformedValues(t *testing.T) {
	c := Default()
	for _, tc := range [][2]string{
		{"router.bogus", "1"}, {"traffic", "UN"}, {"h", "4"}, {"", "1"}, {"topology.h.x", "1"},
	} {
		err := c.Set(tc[0], tc[1])
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != tc[0] || !strings.Contains(fe.Msg, "unknown parameter") {
			t.Errorf("Set(%q): %v, want an unknown-parameter FieldError", tc[0], err)
		}
	}
	for _, tc := range [][2]string{
		{"topology.h", "four"}, {"topology.h", "4.5"}, {"traffic.load", "high"}, {"traffic.load", "NaN"},
		{"traffic.load", "+Inf"}, {"sim.seed", "-1"}, {"traffic.reactive", "maybe"},
	} {
		err := c.Set(tc[0], tc[1])
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != tc[0] || fe.Value != tc[1] {
			t.Errorf("Set(%q, %q): %v, want a FieldError on the path", tc[0], tc[1], err)
		}
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Error("failed Sets modified the config")
	}
	for _, tc := range [][2]string{
		{"topology.h", "4"}, {"traffic.load", "0.25"}, {"traffic.reactive", "true"}, {"routing.name", "VAL"},
		{"sim.seed", "18446744073709551615"}, {"router.speedup", "1.5"},
	} {
		if err := c.Set(tc[0], tc[1]); err != nil {
			t.Errorf("Set(%q, %q): %v", tc[0], tc[1], err)
		}
		p, _ := Lookup(tc[0])
		if got := p.Format(&c); got != tc[1] {
			t.Errorf("after Set(%q, %q) the value reads %q", tc[0], tc[1], got)
		}
	}
}

// Every declared parameter is documented, has a group and a settable kind,
// and its "when" condition names an existing parameter.
func TestEveryParameterIsDeclared(t *testing.T) {
	for _, p := range Params() {
		if p.Doc == "" || p.Kind == "" {
			t.Errorf("%s: doc %q kind %q", p.Path, p.Doc, p.Kind)
		}
		if p.Group == "" && p.Path != "version" && p.Path != "name" {
			t.Errorf("%s has no group", p.Path)
		}
		for _, cd := range p.Conditions() {
			if _, ok := Lookup(cd.Path); !ok {
				t.Errorf("%s: when %q names an unknown parameter", p.Path, p.When)
			}
		}
	}
}
