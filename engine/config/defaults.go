package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"phitsim/engine/vcs"
)

// Default is the system of thesis Table 1.2: h=8, a=16, p=8 (16,512 nodes),
// palm tree, CIOQ with speedup 2, crossbar 3 cycles, links 10/100 cycles, VCT
// with 8-phit packets, buffers 256/32/256 phits per VC and 32-phit output
// FIFOs, 60,000 warm-up + 60,000 measured cycles, 5 seeds per point.
func Default() Config {
	return Config{
		Version: Version,
		Topology: Topology{Kind: "dragonfly", H: 8, A: 16, P: 8, Arrangement: "palmtree",
			LocalLatency: 10, GlobalLatency: 100, InjectionLatency: 1},
		Router: Router{Model: "ioq", Speedup: 2, XbarLatency: 3, PacketSize: 8,
			InjectionBuffer: 256, LocalBuffer: 32, GlobalBuffer: 256, OutputBuffer: 32,
			CreditTiming: "xbar", Iterations: 1, InputArbiter: "rr", OutputArbiter: "rr", InjectionPolicy: "dest"},
		Routing: Routing{Name: "MIN", PhaseA: "auto", UgalMode: "pathLength", UgalF: 2, UgalT: 4,
			Congestion: "perVC", PbCoef: 200, PbThreshold: 5, PbBroadcast: "sideband", Policy: "MM_L", Trigger: "cga",
			CongestedCoef: 150, CongestedT: 5, CandidateMax: 100,
			AcorSequence: "3L", AcorMode: "switch", AcorHI: 500, AcorIT1: 15, AcorDT1: 5, AcorDT2: 15},
		Traffic: Traffic{Pattern: "UN", Load: 0.4, Process: "bernoulli", BurstLength: 5,
			AdvOffset: 1, AdvRouter: "random", LocalOffset: 1, MixUN: 100, HotPercent: 25, HotRegion: 12.5,
			SwitchPattern: "ADV", SwitchAdvOffset: 1},
		Sim:      Sim{Warmup: 60000, Cycles: 60000, Seed: 1, Seeds: 5, Interval: 1000, HistMax: 2000, Watchdog: 20000},
		Workload: DefaultWorkload(),
	}
}

// Preset is a named configuration with a one-line description.
type Preset struct {
	Name, Doc string
	Config    Config
}

func balanced(h int) Config {
	c := Default()
	c.Topology.H, c.Topology.A, c.Topology.P = h, 2*h, h
	return c
}

func preset(name, doc string, h int, edit func(*Config)) Preset {
	c := balanced(h)
	c.Name = name
	if edit != nil {
		edit(&c)
	}
	return Preset{name, doc, c}
}

// Presets are the thesis systems at three scales plus instructive experiments
// with lengths a browser finishes quickly.
func Presets() []Preset {
	short := func(c *Config) { c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 5000, 5000, 2 }
	return append([]Preset{
		preset("h2", "72-node Dragonfly (h=2, a=4, p=2), Table 1.2 router", 2, nil),
		preset("h4", "1,056-node Dragonfly (h=4, a=8, p=4), Table 1.2 router", 4, nil),
		preset("h8", "16,512-node Dragonfly of thesis Table 1.2 (h=8, a=16, p=8)", 8, nil),
		preset("min-un", "MIN under uniform traffic, h=4: the benign case", 4, short),
		preset("min-adv1", "MIN under ADV+1, h=4: saturates at 1/(a·p) = 0.031", 4, func(c *Config) {
			short(c)
			c.Traffic.Pattern = "ADV"
		}),
		preset("val-adv1", "Valiant under ADV+1, h=4: about half the capacity whatever the pattern", 4, func(c *Config) {
			short(c)
			c.Traffic.Pattern, c.Routing.Name = "ADV", "VAL"
		}),
		preset("valgroup-advh", "VAL_GROUP under ADV+h, h=4: the intermediate group's local link caps it near 1/h", 4, func(c *Config) {
			short(c)
			c.Traffic.Pattern, c.Traffic.AdvOffset, c.Routing.Name = "ADV", 4, "VAL_GROUP"
		}),
		preset("min-advc", "MIN under ADVc, h=4: plateau at h/(a·p) and unfair injection", 4, func(c *Config) {
			short(c)
			c.Traffic.Pattern = "ADVC"
		}),
		preset("bursty", "Bursty uniform traffic (B=5 packets), h=4", 4, func(c *Config) {
			short(c)
			c.Traffic.Process = "bursty"
		}),
		preset("request-reply", "Request-reply uniform traffic with separate reply VCs, h=4", 4, func(c *Config) {
			short(c)
			c.Traffic.Reactive = true
		}),
		preset("transient", "UN switching to ADV+1 at cycle 2,000 after warm-up, MIN, h=4", 4, func(c *Config) {
			short(c)
			c.Traffic.Load = 0.2
			c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 2000, "ADV"
			c.Sim.Interval = 100
		}),
	}, graph500Presets()...)
}

// PresetByName finds a preset.
func PresetByName(name string) (Config, error) {
	var names []string
	for _, p := range Presets() {
		if p.Name == name {
			return p.Config, nil
		}
		names = append(names, p.Name)
	}
	return Config{}, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(names, ", "))
}

// FieldError names a field, its value and what is allowed.
type FieldError struct {
	Path  string `json:"path" msgpack:"path"`
	Value string `json:"value" msgpack:"value"`
	Msg   string `json:"msg" msgpack:"msg"`
}

func (e *FieldError) Error() string {
	if e.Value == "" {
		return e.Path + ": " + e.Msg
	}
	return fmt.Sprintf("%s = %s: %s", e.Path, e.Value, e.Msg)
}

// Errors is the list of everything wrong with a config.
type Errors []*FieldError

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Parse reads a JSON config. Missing fields keep their defaults; unknown
// fields and malformed values are errors. The result is validated.
func Parse(data []byte) (Config, error) {
	c := Default()
	if err := decodeStrict(data, &c); err != nil {
		return c, err
	}
	if errs := c.Validate(); len(errs) > 0 {
		return c, errs
	}
	return c, nil
}

// Decode reads a JSON config over the defaults without validating it, so
// that overrides can be applied first. Unknown fields and malformed values are
// errors.
func Decode(data []byte) (Config, error) {
	c := Default()
	return c, decodeStrict(data, &c)
}

func decodeStrict(data []byte, c *Config) error {
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return Errors{{Path: "(document)", Msg: "not valid JSON: " + err.Error()}}
	}
	var errs Errors
	unknownFields(raw, reflectKeys(""), "", &errs)
	if len(errs) > 0 {
		return errs
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return Errors{{Path: te.Field, Msg: "wrong type: expected " + te.Type.String()}}
		}
		return Errors{{Path: "(document)", Msg: err.Error()}}
	}
	return nil
}

// reflectKeys lists the known keys below a prefix ("" = top level).
func reflectKeys(prefix string) map[string]bool {
	keys := map[string]bool{}
	for _, p := range params {
		rest, ok := strings.CutPrefix(p.Path, prefix)
		if prefix != "" && !ok {
			continue
		}
		k, _, _ := strings.Cut(rest, ".")
		keys[k] = true
	}
	return keys
}

func unknownFields(raw map[string]any, known map[string]bool, prefix string, errs *Errors) {
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := prefix + k
		if !known[k] {
			*errs = append(*errs, &FieldError{Path: path, Msg: "unknown field"})
			continue
		}
		if sub, ok := raw[k].(map[string]any); ok {
			unknownFields(sub, reflectKeys(path+"."), path+".", errs)
		}
	}
}

// Set applies "path=value" to a config (CLI -set and URL decoding).
func (c *Config) Set(path, value string) error {
	p, ok := Lookup(path)
	if !ok {
		return &FieldError{Path: path, Msg: "unknown parameter (see 'phitsim params')"}
	}
	return p.SetString(c, value)
}

// PhaseA resolves routing.phaseA: the Valiant phase-A policy of the routing
// (ACOR and PB_ACOR change it by level; their last level is RRG-Sw).
func (c *Config) PhaseA() string {
	switch c.Routing.Name {
	case "VAL_GROUP":
		if c.Routing.PhaseA == "auto" {
			return "RRG-Gr"
		}
	case "ACOR", "PB_ACOR":
		return "RRG-Sw"
	}
	if c.Routing.PhaseA == "auto" || c.Routing.PhaseA == "" {
		return "RRG-Sw"
	}
	return c.Routing.PhaseA
}

// VCs resolves the VC counts, filling the automatic (0) ones.
func (c *Config) VCs() (injection, local, global int) {
	injection, local, global = c.Router.InjectionVCs, c.Router.LocalVCs, c.Router.GlobalVCs
	seq, err := vcs.For(c.Routing.Name, c.PhaseA())
	if err != nil {
		return
	}
	l, g := seq.Needs()
	mult := 1
	if c.Traffic.Reactive {
		mult = 2
	}
	if injection == 0 {
		injection = 3
		if c.Traffic.Reactive {
			injection = 4
		}
	}
	if local == 0 {
		local = max(3, l*mult)
	}
	if global == 0 {
		global = max(2, g*mult)
	}
	return
}

// Validate lists every problem: ranges and allowed values of each field,
// then the rules that tie fields together.
func (c *Config) Validate() Errors {
	var errs Errors
	for _, p := range params {
		if e := p.check(c); e != nil {
			errs = append(errs, e)
		}
	}
	add := func(path, value, msg string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Value: value, Msg: fmt.Sprintf(msg, a...)})
	}
	t := &c.Topology
	if t.Kind == "dragonfly" && t.H > 0 && t.A > 0 && t.P > 0 {
		if n := t.P * t.A * (t.A*t.H + 1); n > 1<<20 {
			add("topology", fmt.Sprintf("h=%d a=%d p=%d", t.H, t.A, t.P), "%d nodes; at most %d are supported", n, 1<<20)
		}
		if r := t.P + t.A - 1 + t.H; r > 128 {
			add("topology", fmt.Sprintf("h=%d a=%d p=%d", t.H, t.A, t.P), "router radix p+a−1+h = %d; at most 128", r)
		}
	}
	r := &c.Router
	if r.PacketSize > 0 {
		for _, b := range []struct {
			path string
			v    int
		}{{"router.injectionBuffer", r.InjectionBuffer}, {"router.localBuffer", r.LocalBuffer},
			{"router.globalBuffer", r.GlobalBuffer}, {"router.outputBuffer", r.OutputBuffer}} {
			if b.v < r.PacketSize && (b.path != "router.outputBuffer" || r.Model == "ioq") {
				add(b.path, strconv.Itoa(b.v), "must hold a whole packet (≥ packetSize = %d phits): flow control is virtual cut-through", r.PacketSize)
			}
		}
	}
	if r.Model == "iq" && r.Speedup != 1 {
		add("router.speedup", fmt.Sprint(r.Speedup), "the input-queued model has no output buffer, so speedup must be 1")
	}
	if seq, err := vcs.For(c.Routing.Name, c.PhaseA()); err == nil {
		l, g := seq.Needs()
		inj, lv, gv := c.VCs()
		why := ""
		if c.Traffic.Reactive {
			l, g, why = 2*l, 2*g, " (request-reply doubles the set: replies get their own VCs)"
		}
		if lv < l {
			add("router.localVCs", strconv.Itoa(lv), "%s needs at least %d local VCs%s", c.Routing.Name, l, why)
		}
		if gv < g {
			add("router.globalVCs", strconv.Itoa(gv), "%s needs at least %d global VCs%s", c.Routing.Name, g, why)
		}
		if c.Traffic.Reactive && inj < 2 {
			add("router.injectionVCs", strconv.Itoa(inj), "request-reply needs at least 2 injection VCs (requests and replies)")
		}
	}
	tr := &c.Traffic
	if tr.Pattern == "MIX" || (tr.SwitchCycle > 0 && tr.SwitchPattern == "MIX") {
		if s := tr.MixUN + tr.MixADVL + tr.MixADV; s < 99.999 || s > 100.001 {
			add("traffic.mixUN", fmt.Sprint(tr.MixUN), "mixUN + mixADVL + mixADV must be 100 (is %g)", s)
		}
	}
	if t.Kind == "dragonfly" && t.A > 0 && t.H > 0 {
		g := t.A*t.H + 1
		for _, o := range []struct {
			path string
			v    int
			use  bool
		}{{"traffic.advOffset", tr.AdvOffset, tr.Pattern == "ADV" || tr.Pattern == "MIX"},
			{"traffic.switchAdvOffset", tr.SwitchAdvOffset, tr.SwitchCycle > 0}} {
			if o.use && o.v%g == 0 {
				add(o.path, strconv.Itoa(o.v), "must not be a multiple of the %d groups (traffic would stay in its own group)", g)
			}
		}
		if (tr.Pattern == "ADVL" || tr.Pattern == "MIX") && t.A > 1 && tr.LocalOffset%t.A == 0 {
			add("traffic.localOffset", strconv.Itoa(tr.LocalOffset), "must not be a multiple of a = %d", t.A)
		}
		if tr.Pattern == "ADVC" && tr.AdvcFogsim && t.H < 2 {
			add("traffic.advcFogsim", "true", "the +1…+(h−1) variant needs h ≥ 2")
		}
	}
	errs = append(errs, c.validateWorkload()...)
	return errs
}

// JSON renders the config with indentation (the file the CLI accepts).
func (c *Config) JSON() []byte {
	b, _ := json.MarshalIndent(c, "", "  ")
	return b
}
