package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"phitsim/engine/routing"
	"phitsim/engine/topology"
	"phitsim/engine/traffic"
	"phitsim/engine/units"
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
			CreditTiming: "xbar", Ejection: "fifo", OutputFifo: "tail", IdleUpdates: "every", Iterations: 1, InputArbiter: "rr", OutputArbiter: "rr", InjectionPolicy: "dest"},
		Routing: Routing{Name: "MIN", PhaseA: "auto", UgalMode: "pathLength", UgalF: 2, UgalT: 4,
			Congestion: "perVC", PbCoef: 200, PbThreshold: 5, PbBroadcast: "sideband", Policy: "MM_L", Trigger: "cga",
			CongestedCoef: 150, CongestedT: 5, CandidateMax: 100, Candidates: "all",
			AcorSequence: "3L", AcorMode: "switch", AcorHI: 500, AcorIT1: 15, AcorDT1: 5, AcorDT2: 15, AcorCount: "paper"},
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
		preset("mesh", "16-node 4×4 mesh, dimension-order MIN under UN: a second topology through the same contract", 2, func(c *Config) {
			short(c)
			c.Topology.Kind, c.Topology.P = "mesh", 1
			c.Topology.FillKind()
		}),
		preset("bursty", "Bursty uniform traffic (B=5 packets), h=4", 4, func(c *Config) {
			short(c)
			c.Traffic.Process = "bursty"
		}),
		preset("request-reply", "Request-reply uniform traffic with separate reply VCs, h=4", 4, func(c *Config) {
			short(c)
			c.Traffic.Reactive = true
		}),
		preset("damq", "DAMQ input buffers of thesis Fig. 5.6, h=4: MIN under UN, 2/1 VCs, 128/512 phits per local/global port, 75% of each VC reserved (0% deadlocks at saturation)", 4, func(c *Config) {
			short(c)
			c.Router.LocalVCs, c.Router.GlobalVCs, c.Router.LocalBuffer, c.Router.GlobalBuffer = 2, 1, 64, 512
			c.Router.Damq, c.Router.DamqReserve = true, 75
		}),
		preset("transient", "UN switching to ADV+1 at cycle 2,000 after warm-up, MIN, h=4", 4, func(c *Config) {
			short(c)
			c.Traffic.Load = 0.2
			c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 2000, "ADV"
			c.Sim.Interval = 100
		}),
	}, append(append(append(append(graph500Presets(), ethernetPresets()...), fbflyPresets()...), fattreePresets()...), append(acorPresets(), recnPresets()...)...)...)
}

// FatTree is a fat tree of Duato et al., "A New Scalable and Cost-Effective
// Congestion Management Strategy for Lossless Multistage Interconnection
// Networks" (RECN paper) §4.1 with the paper's switch where the model
// expresses it: a phit of 8 bytes and a cycle of 8 ns (8 Gb/s links carry
// one phit per cycle), 64-byte packets of 8 phits, virtual cut-through with
// credits, a CIOQ switch with crossbar speedup 1.5 (12 Gb/s; a transfer takes
// ⌈8/1.5⌉ = 6 cycles, 48 ns for the paper's 42.7), one VC, 128 KB (16,384
// phits) per input port and per output FIFO, 192 KB with subtrees=2 (the
// 512-host network); links of 4 cycles (32 ns; the paper gives none).
// D-mod-k MIN. What the model does not express (one shared memory per port
// side with dynamic queues, admittance queues) is in TIMING.md, "Fat tree".
func FatTree(k, stages, subtrees int) Config {
	cfg := Default()
	t := &cfg.Topology
	t.Kind, t.K, t.Stages, t.Subtrees = "fattree", k, stages, subtrees
	t.LocalLatency, t.InjectionLatency = 4, 4
	r := &cfg.Router
	mem := 128 << 10 / 8 // phits of 8 bytes
	if subtrees != 0 && subtrees != k {
		mem = 192 << 10 / 8
	}
	r.Speedup, r.PacketSize, r.XbarLatency = 1.5, 8, 3
	r.LocalBuffer, r.LocalVCs, r.InjectionBuffer, r.InjectionVCs, r.OutputBuffer = mem, 1, mem, 1, mem
	cfg.Traffic.Load = 0.5 // the paper's corner case 1 background
	cfg.Sim.Warmup, cfg.Sim.Cycles, cfg.Sim.Seeds = 10000, 10000, 2
	return cfg
}

// fattreePresets are the RECN paper's 64- and 256-host networks under UR
// with MIN (the 512-host one's worst-case memory, every 192 KB buffer full,
// is beyond a browser tab's).
func fattreePresets() []Preset {
	p := func(name, doc string, k, stages int) Preset {
		cfg := FatTree(k, stages, 0)
		cfg.Name = name
		// the paper's switch in its units (§4.1), as the corner cases': the
		// simulator never reads them
		cfg.Physical = Physical{LinkGbps: 8, PhitBytes: 8}
		return Preset{name, doc, cfg}
	}
	return []Preset{
		p("fattree64", "64-host fat tree (4-ary 3-tree: 48 switches of 8 ports in 3 stages) of the RECN paper, its switch (8-byte phits at 8 ns, 64-byte packets, speedup 1.5, 128 KB per port side), D-mod-k MIN under UR at load 0.5", 4, 3),
		p("fattree256", "256-host fat tree (4-ary 4-tree: 256 switches in 4 stages) of the RECN paper, its switch, D-mod-k MIN under UR at load 0.5", 4, 4),
	}
}

// FBFly is a flattened butterfly of Kim et al., Contention-based Congestion
// Management in Large-Scale Networks §V-A, with the paper's router where the
// model expresses it: 100-cycle router channels (topology.localLatency) and
// 1-cycle node channels, input-queued with 2× speedup and a 4-packet output
// buffer (router.outputBuffer 128 phits), virtual output queues of 4 data
// VCs of 256 flits per output at every input (router.voq), 32-flit packets,
// credits; UGAL-L as the paper's UGAL (path lengths, threshold 0, the port's
// occupancy summed over its queues). A phit is a flit. How messages and
// per-destination source queues are built is in TIMING.md, "Flattened
// butterfly". 20,000 warm-up + 20,000 measured cycles (the 100-cycle links
// need long runs), 2 seeds.
func FBFly(dims, k, c int) Config {
	cfg := Default()
	t := &cfg.Topology
	t.Kind, t.Dimensions, t.K, t.P = "fbfly", dims, k, c
	t.LocalLatency, t.InjectionLatency = 100, 1
	r := &cfg.Router
	r.PacketSize, r.LocalBuffer, r.LocalVCs = 32, 256, 4
	r.InjectionBuffer, r.InjectionVCs, r.OutputBuffer = 256, 4, 128
	r.Voq = true
	cfg.Routing.UgalT, cfg.Routing.Congestion = 0, "perPort"
	cfg.Sim.Warmup, cfg.Sim.Cycles, cfg.Sim.Seeds = 20000, 20000, 2
	return cfg
}

// fbflyPresets are the paper's three networks under UR with MIN.
func fbflyPresets() []Preset {
	p := func(name, doc string, dims, k, c int) Preset {
		cfg := FBFly(dims, k, c)
		cfg.Name = name
		return Preset{name, doc, cfg}
	}
	return []Preset{
		p("fbfly16", "16-node 1D flattened butterfly (4 routers, 4 nodes each, radix 7) of Kim et al.'s congestion-management paper, its router (100-cycle channels, 32-flit packets, virtual output queues of 4 VCs of 256 flits per output), MIN under UR", 1, 4, 4),
		p("fbfly256", "256-node 1D flattened butterfly (16 routers, 16 nodes each, radix 31), the paper's router, MIN under UR", 1, 16, 16),
		p("fbfly512", "512-node 2D flattened butterfly (8×8 routers, 8 nodes each, radix 22), the paper's router, MIN under UR", 2, 8, 8),
	}
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

// Parse reads a JSON config. Missing fields keep their defaults. Every
// problem is listed at once: unknown fields and values of the wrong type (the
// rest of the document is decoded all the same; those fields keep their
// defaults), then what Validate finds in the result.
func Parse(data []byte) (Config, error) {
	c := Default()
	errs := decodeStrict(data, &c)
	errs = append(errs, c.Validate()...)
	if len(errs) > 0 {
		return c, errs
	}
	return c, nil
}

// Decode reads a JSON config over the defaults without validating it, so
// that overrides can be applied first. Unknown fields and values of the wrong
// type are returned as Errors; the valid remainder of the document is decoded
// all the same, so that a caller can add Validate's errors to the list.
func Decode(data []byte) (Config, error) {
	c := Default()
	if errs := decodeStrict(data, &c); len(errs) > 0 {
		return c, errs
	}
	return c, nil
}

// decodeStrict decodes data over c. It checks every member of the document
// against the declared parameters first: unknown fields and values of the
// wrong JSON type are reported (sorted by path) and left out, and the rest is
// decoded. Only a document that is not JSON, or not an object, stops it.
func decodeStrict(data []byte, c *Config) Errors {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		msg := "not valid JSON"
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := se.Offset
			if off >= int64(len(data)) {
				off = int64(len(data)) + 1 // the end of the input
			}
			line, col := position(data, off)
			msg = fmt.Sprintf("not valid JSON at line %d, column %d: %s", line, col, se.Error())
		} else if err != nil {
			msg += ": " + err.Error()
		}
		return Errors{{Path: "(document)", Msg: msg}}
	}
	dups := duplicateKeys(data)
	raw := bytes.TrimSpace(data)
	if string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' {
		return Errors{{Path: "(document)", Value: shortJSON(raw),
			Msg: "wrong type: expected a JSON object (the configuration), got " + jsonKind(raw)}}
	}
	errs := dups
	clean := cleanObject(raw, "", &errs)
	// one list in path order: a duplicate next to the key's other errors
	slices.SortStableFunc(errs, func(a, b *FieldError) int { return strings.Compare(a.Path, b.Path) })
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		// not expected: cleanObject leaves only known fields of the right type
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			errs = append(errs, &FieldError{Path: te.Field, Msg: "wrong type: expected " + te.Type.String()})
		} else {
			errs = append(errs, &FieldError{Path: "(document)", Msg: err.Error()})
		}
	}
	return errs
}

// position turns the byte offset of a json.SyntaxError (the bytes read
// when the error was found) into the 1-based line and column, in characters,
// of the offending byte, as an editor shows them.
func position(data []byte, offset int64) (line, col int) {
	at := int(min(max(offset-1, 0), int64(len(data))))
	before := data[:at]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
	return line, col
}

// duplicateKeys reports every key that a JSON object of the (valid) document
// repeats, by its dotted path and where the repetition starts: encoding/json
// would silently keep the last value, so a file that sets a field twice
// would not run what its reader sees first.
func duplicateKeys(data []byte) Errors {
	d := dupScanner{data: data}
	d.value("")
	return d.errs
}

// dupScanner walks a document that json.Valid accepted, looking only at the
// keys of its objects (json.Decoder.Token would do the same at twice the
// cost of a whole Parse).
type dupScanner struct {
	data []byte
	i    int
	errs Errors
}

func (d *dupScanner) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value skips the value at d.i, checking the keys of the objects in it;
// path is its dotted path.
func (d *dupScanner) value(path string) {
	d.space()
	if d.i >= len(d.data) {
		return
	}
	switch d.data[d.i] {
	case '{':
		d.i++
		var seen map[string]bool
		for {
			d.space()
			if d.data[d.i] == '}' {
				d.i++
				return
			}
			if d.data[d.i] == ',' {
				d.i++
				d.space()
			}
			start := d.i
			k := d.key()
			if seen == nil {
				seen = map[string]bool{}
			}
			if seen[k] {
				line, col := position(d.data, int64(start)+1)
				d.errs = append(d.errs, &FieldError{Path: memberPath(path, k), Msg: fmt.Sprintf(
					"duplicate key at line %d, column %d: the document sets it more than once (JSON keeps only the last value)", line, col)})
			}
			seen[k] = true
			d.space()
			d.i++ // ':'
			d.space()
			if c := d.data[d.i]; c == '{' || c == '[' {
				d.value(memberPath(path, k))
			} else {
				d.value("")
			}
		}
	case '[':
		d.i++
		for n := 0; ; n++ {
			d.space()
			if d.data[d.i] == ']' {
				d.i++
				return
			}
			if d.data[d.i] == ',' {
				d.i++
			}
			d.value(path + "[" + strconv.Itoa(n) + "]")
		}
	case '"':
		d.key()
	default: // a number, true, false or null
		for d.i < len(d.data) && !strings.ContainsRune(",}] \t\n\r", rune(d.data[d.i])) {
			d.i++
		}
	}
}

// key reads the string at d.i (its opening quote) and returns its value as
// encoding/json decodes it.
func (d *dupScanner) key() string {
	start := d.i
	d.i++
	escaped := false
	for d.data[d.i] != '"' {
		if d.data[d.i] == '\\' {
			escaped = true
			d.i++
		}
		d.i++
	}
	d.i++
	raw := d.data[start:d.i]
	if !escaped && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1])
	}
	var k string
	_ = json.Unmarshal(raw, &k) // escapes, and invalid UTF-8 made U+FFFD
	return k
}

// memberPath is the dotted path of member k of the object at path ("" =
// the document). An empty key is shown quoted, so that an error always
// names something.
func memberPath(path, k string) string {
	if k == "" {
		k = `""`
	}
	if path == "" {
		return k
	}
	return path + "." + k
}

// cleanObject checks the members of the JSON object obj, the section below
// prefix ("" = the document, else "router." …), and returns the object
// without its unknown members and values of the wrong type, which it reports.
func cleanObject(obj []byte, prefix string, errs *Errors) []byte {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(obj, &members); err != nil {
		*errs = append(*errs, &FieldError{Path: strings.TrimSuffix(prefix, "."), Msg: err.Error()})
		return []byte("{}")
	}
	known := reflectKeys(prefix)
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kept := map[string]json.RawMessage{}
	for _, k := range keys {
		path, v := memberPath(strings.TrimSuffix(prefix, "."), k), bytes.TrimSpace(members[k])
		if !known[k] {
			msg := "unknown field"
			if s := suggest(k, sortedKeys(known)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			*errs = append(*errs, &FieldError{Path: path, Msg: msg})
			continue
		}
		p, leaf := Lookup(path)
		switch {
		case string(v) == "null":
			// decoding null leaves the default, as encoding/json does
		case !leaf && v[0] != '{':
			*errs = append(*errs, &FieldError{Path: path, Value: shortJSON(v),
				Msg: fmt.Sprintf("wrong type: expected an object (the %s section), got %s", path, jsonKind(v))})
			continue
		case !leaf:
			v = cleanObject(v, path+".", errs)
		case path == WarmupPath && string(v) == `"auto"`:
			kept["autoWarmup"] = json.RawMessage("true") // the same as -set sim.warmup=auto
			continue
		default:
			if got := wrongType(p, v); got != "" {
				*errs = append(*errs, &FieldError{Path: path, Value: shortJSON(v),
					Msg: "wrong type: expected " + expected(p) + ", got " + got + orAuto(p)})
				continue
			}
		}
		kept[k] = v
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return []byte("{}")
	}
	return out
}

// wrongType says what a JSON value is when it does not fit the parameter
// (for example "a string"), or "" when it fits.
func wrongType(p Param, v []byte) string {
	kind := jsonKind(v)
	s := string(v)
	switch p.Kind {
	case "int", "uint":
		if kind != "a number" {
			return kind
		}
		var err error
		if p.Kind == "int" {
			_, err = strconv.ParseInt(s, 10, strconv.IntSize)
		} else {
			_, err = strconv.ParseUint(s, 10, 64)
		}
		if err == nil {
			return ""
		}
		f, ferr := strconv.ParseFloat(s, 64)
		switch {
		case ferr != nil:
			return "a number out of range"
		case f != math.Trunc(f):
			return "a fractional number"
		case strings.HasPrefix(s, "-") && p.Kind == "uint":
			return "a negative number"
		case strings.ContainsAny(s, ".eE") && math.Abs(f) < 1<<53:
			return "a number with a decimal point or exponent"
		}
		return "a number out of range"
	case "float":
		if kind != "a number" {
			return kind
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "a number out of range"
		}
		return ""
	case "bool":
		if kind != "a boolean" {
			return kind
		}
		return ""
	case "string":
		if kind != "a string" {
			return kind
		}
	}
	return ""
}

// jsonKind names the kind of a valid JSON value.
func jsonKind(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// expected describes what a parameter accepts: its kind and range, or its
// allowed values.
func expected(p Param) string {
	switch p.Kind {
	case "int":
		return "a whole number" + p.rangeText()
	case "uint":
		if p.Max != nil && *p.Max < math.MaxUint64 {
			return "a whole number" + p.rangeText()
		}
		return "a whole number ≥ 0"
	case "float":
		return "a number" + p.rangeText()
	case "bool":
		return "true or false"
	}
	if p.Enum != nil {
		return "a string, one of " + strings.Join(p.Enum, ", ")
	}
	return "a string"
}

// shortJSON is a JSON value as it appeared (compacted), cut to 40 characters.
func shortJSON(v []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		b.Reset()
		b.Write(v)
	}
	r := []rune(b.String())
	if len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return string(r)
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

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// suggest picks the candidate closest to a misspelt name: the same but for
// case, or a few edits away (two; one for names of 3–4 letters; none for
// shorter ones). "" if none is close.
func suggest(name string, candidates []string) string {
	best, bestD := "", 3
	switch n := len([]rune(name)); {
	case n <= 2:
		bestD = 1
	case n <= 4:
		bestD = 2
	}
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			return c
		}
		if d := editDistance(strings.ToLower(name), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Set applies "path=value" to a config (CLI -set and URL decoding); with a
// physical basis a value in cycles, phits or phits/node/cycle may also be
// given with a physical unit (SetPhysical: "400 ns", "8 m", "100 KB"). An
// unknown path fails with a FieldError that names it, the value and, when
// one is close, the parameter probably meant; a value that does not parse
// fails with the parameter's kind and range (ranges and allowed values are
// otherwise left to Validate, so that all errors can be listed at once).
func (c *Config) Set(path, value string) error {
	p, ok := Lookup(path)
	if !ok {
		msg := "unknown parameter (see 'phitsim params')"
		if h := setHint(path); h != "" {
			msg = "unknown parameter; " + h
		}
		return &FieldError{Path: path, Value: value, Msg: msg}
	}
	err := p.SetString(c, value)
	unit := strings.TrimRight(strings.TrimSpace(value), "0123456789.") != "" // "400 ns", "100 KB"
	switch _, physical := c.PhysicalText(p); {
	case err != nil && physical:
		if _, perr := c.SetPhysical(p, value); perr == nil || unit {
			return perr
		}
	case err != nil && unit && p.Quantity() != units.None:
		err.(*FieldError).Msg += " (a value with a physical unit needs a basis: set physical.linkGbps and physical.phitBytes first)"
	}
	return err
}

// setHint suggests what an unknown -set path may have meant.
func setHint(path string) string {
	if path == "" {
		return ""
	}
	var all, sub []string
	for _, p := range params {
		all = append(all, p.Path)
		if strings.HasPrefix(p.Path, path+".") {
			sub = append(sub, p.Path)
		}
	}
	if len(sub) > 0 {
		return fmt.Sprintf("%s is a section: set one of its fields, e.g. %s", path, sub[0])
	}
	if s := suggest(path, all); s != "" {
		return fmt.Sprintf("did you mean %s?", s)
	}
	if !strings.Contains(path, ".") {
		for _, p := range params {
			if _, last, ok := strings.Cut(p.Path, "."); ok && strings.EqualFold(last, path) {
				return fmt.Sprintf("did you mean %s?", p.Path)
			}
		}
	}
	return ""
}

// PhaseA resolves routing.phaseA: the Valiant phase-A policy the routing
// runs with (routing.Entry.ResolvePhaseA: "auto" is the routing's default;
// ACOR and PB_ACOR change it by level and are sized for their last, RRG-Sw).
func (c *Config) PhaseA() string {
	e := routing.Get(c.Routing.Name)
	return e.ResolvePhaseA(c.Routing.PhaseA)
}

// VCs resolves the VC counts, filling the automatic (0) ones: at least
// what the routing's VC sequence on this topology needs on the classes each
// field sets (twice that with request-reply).
func (c *Config) VCs() (injection, local, global int) {
	injection, local, global = c.Router.InjectionVCs, c.Router.LocalVCs, c.Router.GlobalVCs
	need, _, err := c.vcNeeds()
	if err != nil {
		return
	}
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
		local = max(3, need["router.localVCs"]*mult)
	}
	if global == 0 {
		global = max(2, need["router.globalVCs"]*mult)
	}
	return
}

// vcNeeds is what the routing's VC sequence on the topology (vcs.ForKind)
// needs of each VC field (router.localVCs, …): the most any class it sets
// needs; with, per field, the names of those classes.
func (c *Config) vcNeeds() (need map[string]int, classes map[string][]string, err error) {
	seq, err := vcs.ForKind(c.Topology.Kind, c.Routing.Name, c.PhaseA())
	if err != nil {
		return nil, nil, err
	}
	k, err := topology.KindOf(c.Topology.Kind)
	if err != nil {
		return nil, nil, err
	}
	per := seq.PerClass(len(k.Classes))
	need, classes = map[string]int{}, map[string][]string{}
	for i, cl := range k.Classes[1:] {
		need[cl.VCs] = max(need[cl.VCs], per[i+1])
		classes[cl.VCs] = append(classes[cl.VCs], cl.Name)
	}
	return need, classes, nil
}

// checkEscape verifies that the routing's VC sequence keeps the escape
// sub-network deadlock-free on this topology: it follows the kind's minimal
// path, and, when some hop may repeat on its VC and the sequence is not the
// kind's own minimal one (whose acyclicity the kind's tests walk), the
// channel dependency graph of the built topology has no cycle
// (vcs.CheckAcyclic; sim.New checks again on the topology it runs).
func (c *Config) checkEscape() error {
	seq, err := vcs.ForKind(c.Topology.Kind, c.Routing.Name, c.PhaseA())
	if err != nil {
		return err
	}
	k, err := topology.KindOf(c.Topology.Kind)
	if err != nil {
		return err
	}
	names := topology.ClassNames(k.Classes)
	minimal, err := vcs.Parse(k.Minimal, names)
	if err != nil {
		return err
	}
	if err := seq.Follows(minimal, names); err != nil {
		return err
	}
	if !seq.Repeats() || seq.Spec(names) == minimal.Spec(names) {
		return nil
	}
	if k.Check(c.Topology.Params()) != nil {
		return nil // the topology's own errors say why
	}
	topo, err := topology.New(c.Topology.Params())
	if err != nil {
		return err
	}
	return vcs.CheckAcyclic(topo, seq)
}

// Validate lists every problem: ranges and allowed values of each field,
// then the rules that tie fields together. It checks the configuration as
// the simulator runs it: with the Graph500 latencies in ns converted to
// cycles (ApplyLatenciesNs), whose conversion it checks first.
func (c *Config) Validate() Errors {
	errs := c.checkLatenciesNs()
	run := *c
	run.ApplyLatenciesNs()
	if run.Router.VCSelection == "" {
		run.Router.VCSelection = "jsq" // router.vcSelection is omitted for its default
	}
	if run.Router.Queueing == "" {
		run.Router.Queueing = run.Router.QueueScheme() // router.queueing is omitted for its default
	}
	if run.Router.InjectionVoq == "" {
		run.Router.InjectionVoq = "shared" // router.injectionVoq is omitted for its default
	}
	if run.Routing.InjectionTrigger == "" {
		run.Routing.InjectionTrigger = "ugal" // routing.injectionTrigger is omitted for its default
	}
	if run.Routing.UgalIntermediate == "" {
		run.Routing.UgalIntermediate = "any" // routing.ugalIntermediate is omitted for its default
	}
	run.Routing.FillQCN() // the QCN-Switch enums are omitted for their defaults
	if run.Traffic.SourceQueues == "" {
		run.Traffic.SourceQueues = "single" // traffic.sourceQueues is omitted for its default
	}
	run.Congestion.fill() // the congestion section is omitted for its defaults
	if run.Traffic.HotspotBackground == "" {
		run.Traffic.HotspotBackground = "UR"
	}
	errs = append(errs, run.validate()...)
	errs = append(errs, run.validateMeasure()...)
	if len(errs) == 0 { // on a network and VCs that validate
		errs = run.checkMechanismVCs()
	}
	return errs
}

// FlexReply is the reply subsequence of router.flexVC with request-reply
// (router.replyLocalVCs/replyGlobalVCs, 0 meaning MIN's 2/1); 0, 0 without
// request-reply.
func (c *Config) FlexReply() (local, global int) {
	if !c.Traffic.Reactive {
		return 0, 0
	}
	local, global = c.Router.ReplyLocalVCs, c.Router.ReplyGlobalVCs
	if local == 0 {
		local = 2
	}
	if global == 0 {
		global = 1
	}
	return local, global
}

// QueueScheme is the input ports' queueing scheme (router.queueing, with
// router.voq=true as voqsw): iq, 4q, voqsw or voqnet.
func (r *Router) QueueScheme() string {
	switch {
	case r.Queueing != "":
		return r.Queueing
	case r.Voq:
		return "voqsw"
	}
	return "iq"
}

// checkVoq validates router.voq and router.queueing's multi-queue schemes.
// The queue a packet takes at the next router is chosen at the upstream
// grant, so its route there must be known then: decided at the source and
// followed deterministically (MIN; UGAL on a flattened butterfly, whose
// occupancy the VOQ credits give; VAL/VAL_GROUP on a Dragonfly). A queue
// index (port × VCs + VC, then the congestion schemes' extra VCs once per
// input) must fit the 7 bits of the timing wheels' entries.
func (c *Config) checkVoq() Errors {
	var errs Errors
	r := &c.Router
	path, val := "router.voq", "true"
	if !r.Voq || r.Queueing != "voqsw" {
		path, val = "router.queueing", r.Queueing
	}
	add := func(msg string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Value: val, Msg: fmt.Sprintf(msg, a...)})
	}
	if r.Voq && r.Queueing != "" && r.Queueing != "voqsw" {
		add("router.voq=true is queueing voqsw; unset one of them")
	}
	scheme := r.QueueScheme()
	if scheme == "4q" || scheme == "voqnet" {
		if cs := c.Congestion.SchemeName(); cs != "none" {
			add("with congestion.scheme=%s it must be iq or voqsw (empty: iq): the scheme's per-input queue scan reads a queue's output from its index (voqsw's layout)", cs)
		}
	}
	e, ok := routing.Lookup(c.Routing.Name)
	if ok {
		switch {
		case e.Kind == routing.MIN:
		case e.Kind == routing.UGAL && c.Topology.Kind == "fbfly":
		case e.Kind == routing.VAL && c.Topology.Kind == routing.Dragonfly:
		default:
			add("routing.name=%s on topology.kind=%s: the queue at the next router is chosen at the upstream grant, so the route must be decided at the source (MIN; UGAL on a flattened butterfly; VAL, VAL_GROUP on a Dragonfly); in-transit adaptive routings and the Dragonfly's UGAL/PB/ACOR (their occupancy views count per VC, not per queue) are not supported",
				c.Routing.Name, c.Topology.Kind)
		}
	}
	if trigger, path := c.contentionTrigger(); trigger != "" {
		add("%s=%s: the contention counters count per VC buffer, not per virtual output queue", path, trigger)
	}
	if cg := c.Routing.Congestion; c.Topology.Kind == routing.Dragonfly && (cg == "perVCMin" || cg == "perPortMin") {
		add("routing.congestion=%s: the minimal-only occupancy views count per VC, not per virtual output queue", cg)
	}
	if r.Voq && r.InjectionVoq == "perQueue" {
		// the source routes a packet before placing it, for its queue's
		// room: only a packet waiting in a source queue can be routed
		// and then wait (sim's chooseVCFor)
		bad := func(field, value, why string) {
			errs = append(errs, &FieldError{Path: "router.injectionVoq", Value: "perQueue", Msg: fmt.Sprintf("with %s=%s: %s", field, value, why)})
		}
		if !c.Traffic.SourceQueue {
			bad("traffic.sourceQueue", "false", "a packet is routed at its source before it is placed in its own output's queue, so it must wait in a source queue while that queue is full")
		}
		if c.Traffic.Reactive {
			bad("traffic.reactive", "true", "a reply's injection VC is reserved before its packet is routed")
		}
		if k := c.Workload.Kind; k != "" && k != "synthetic" {
			bad("workload.kind", k, "the job's packets choose their injection VC before they are routed")
		}
		if cs := c.Congestion.SchemeName(); cs == "recn" {
			bad("congestion.scheme", cs, "its interface's admittance queues place the packets")
		}
	}
	if r.FlexVC {
		add("router.flexVC=true: FlexVC chooses a VC at the grant, the virtual output queues fix it at the upstream grant")
	}
	if r.Damq {
		add("router.damq=true: DAMQ pools a port's VCs, the virtual output queues have a static buffer each")
	}
	if r.InputArbiter != "rr" && r.InputArbiter != "rrgrant" && r.InputArbiter != "rrhold" {
		add("router.inputArbiter=%s: the input stage over virtual output queues is round-robin (rr, rrgrant or rrhold)", r.InputArbiter)
	}
	if sz, ok := c.Topology.Sizes(); ok {
		v := 0
		for _, cl := range c.Classes() {
			v = max(v, cl.VCs)
		}
		// the congestion schemes' extra VCs exist once per input (the
		// isolated class's, the priority class's: at most 2 local + 1 global
		// each on a Dragonfly; the simulator checks the exact count)
		x := 0
		switch c.Congestion.SchemeName() {
		case "ideal", "ecn":
			x = 1
		}
		per, what := sz.Radix, "ports"
		switch scheme {
		case "4q":
			per, what = 4, "queues"
		case "voqnet":
			per, what = sz.Nodes, "hosts"
		}
		if per*v+x > 1023 {
			add("%d %s × %d VCs + %d extra = %d queues per input port; at most 1023 (10 bits in the timing wheels' entries)", per, what, v, x, per*v+x)
		}
		if scheme == "4q" || scheme == "voqnet" {
			// the equal static partitions must hold a packet each
			for _, cl := range c.Classes() {
				if cl.Buffer/per < r.PacketSize {
					add("the %s buffer of %d phits split over %d queues is less than a packet (router.packetSize %d)", cl.Name, cl.Buffer, per, r.PacketSize)
				}
			}
		}
	}
	return errs
}

// flexRoutings are the routing kinds the simulator runs with FlexVC.
var flexRoutings = []routing.Kind{routing.MIN, routing.VAL, routing.UGAL, routing.PB, routing.PAR, routing.OLM}

// checkFlexVC validates router.flexVC with lv/gv local/global VCs: a
// Dragonfly, a routing it runs with, reply VCs only with request-reply,
// and a routing path with an escape at every hop — the ✗ cells of thesis
// Tables 5.3 and 5.4 are refused, naming the VC fields and what the routing
// needs.
func (c *Config) checkFlexVC(lv, gv int) Errors {
	var errs Errors
	add := func(path, value, msg string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Value: value, Msg: fmt.Sprintf(msg, a...)})
	}
	if c.Topology.Kind != routing.Dragonfly {
		add("router.flexVC", "true", "FlexVC's reference paths are the Dragonfly's (thesis §5.2.3): topology.kind=dragonfly only")
		return errs
	}
	e, ok := routing.Lookup(c.Routing.Name)
	if !ok {
		return errs // routing.name's enum says why
	}
	if !slices.Contains(flexRoutings, e.Kind) {
		add("router.flexVC", "true", "routing.name=%s: FlexVC runs with MIN, VAL, VAL_GROUP, UGAL, PB, PAR and OLM", e.Name)
		return errs
	}
	r := &c.Router
	if !c.Traffic.Reactive {
		for _, f := range []struct {
			path string
			v    int
		}{{"router.replyLocalVCs", r.ReplyLocalVCs}, {"router.replyGlobalVCs", r.ReplyGlobalVCs}} {
			if f.v != 0 {
				add(f.path, strconv.Itoa(f.v), "a reply subsequence needs request-reply traffic (traffic.reactive=true); 0 without it")
			}
		}
		if len(errs) > 0 {
			return errs
		}
	}
	rl, rg := c.FlexReply()
	seq, err := vcs.ForKind(c.Topology.Kind, c.Routing.Name, c.PhaseA())
	if err != nil {
		return errs
	}
	path := seq.Path()
	if e.Decision == routing.EachHopAttempt {
		// in-transit adaptive routing: the worst case is PAR's
		// l–l–g–l–l–g–l whatever the routing's own sequence (Table 5.3)
		path = vcs.DragonflyInTrns
	}
	v, req, _, err := vcs.DragonflyVerdict(path, lv, gv, rl, rg)
	if err != nil {
		field, msg, _ := strings.Cut(err.Error(), ": ")
		if strings.HasPrefix(field, "router.reply") {
			add("router.replyLocalVCs", strconv.Itoa(rl), "with router.replyGlobalVCs=%d: %s", rg, msg)
		} else {
			add("router.localVCs", strconv.Itoa(lv), "with router.globalVCs=%d: %s", gv, msg)
		}
		return errs
	}
	if v != vcs.Refused {
		return errs
	}
	// the least counts (same reply subsequence) that give the refused side
	// (requests, or packets without request-reply; else replies) an escape,
	// and that make its path safe
	least := func(want vcs.Verdict) string {
		for n := 3; n <= 24; n++ {
			for g := 1 + rg; g < n; g++ {
				_, xq, xp, err := vcs.DragonflyVerdict(path, n-g, g, rl, rg)
				if req != vcs.Refused {
					xq = xp
				}
				if err == nil && xq >= want {
					return fmt.Sprintf("%d/%d", n-g, g)
				}
			}
		}
		return "?"
	}
	who := "packets"
	if rl != 0 {
		who = "requests"
		if req != vcs.Refused {
			who = "replies"
		}
	}
	add("router.localVCs", strconv.Itoa(lv), "with router.globalVCs=%d and FlexVC, a hop of %s's %s (path %s) has no escape path (thesis Tables 5.3–5.4): router.localVCs/router.globalVCs need at least %s (opportunistic) or %s (safe)",
		gv, c.Routing.Name, who, path.Spec(), least(vcs.Opportunistic), least(vcs.Safe))
	return errs
}

// validate is Validate on the configuration as the simulator runs it.
func (c *Config) validate() Errors {
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
	errs = append(errs, c.validateTopology()...)
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
	var needs Errors // what does not run on this kind
	if topology.Known(t.Kind) {
		var rt *routing.Entry
		if e, ok := routing.Lookup(c.Routing.Name); ok {
			rt = &e
		}
		needs = c.RunsOn(rt, t.Kind, t.Kind)
		errs = append(errs, needs...)
	}
	// a routing's VCs are counted only on a topology it runs on
	refused := slices.ContainsFunc(needs, func(e *FieldError) bool { return e.Path == "routing.name" })
	if need, classes, err := c.vcNeeds(); err == nil && !refused {
		inj, lv, gv := c.VCs()
		mult, why := 1, ""
		if c.Traffic.Reactive {
			mult, why = 2, " (request-reply doubles the set: replies get their own VCs)"
		}
		for _, f := range []struct {
			path string
			v    int
		}{{"router.localVCs", lv}, {"router.globalVCs", gv}} {
			if n := need[f.path] * mult; f.v < n && !r.FlexVC { // FlexVC: checkFlexVC
				add(f.path, strconv.Itoa(f.v), "%s needs at least %d %s VCs%s", c.Routing.Name, n, strings.Join(classes[f.path], "/"), why)
			}
		}
		if r.FlexVC {
			errs = append(errs, c.checkFlexVC(lv, gv)...)
		}
		if r.Voq || r.Queueing != "" && r.Queueing != "iq" {
			errs = append(errs, c.checkVoq()...)
		} else if r.InputArbiter == "rrhold" {
			add("router.inputArbiter", "rrhold", "the hold is the input stage of virtual output queues (router.voq or router.queueing=voqsw, 4q, voqnet); rrgrant is its round-robin over VCs")
		}
		if e, ok := routing.Lookup(c.Routing.Name); ok && e.Keeps(routing.Notifications) {
			errs = append(errs, c.checkQCN()...)
		}
		if c.Traffic.Reactive && inj < 2 {
			add("router.injectionVCs", strconv.Itoa(inj), "request-reply needs at least 2 injection VCs (requests and replies)")
		}
		if err := c.checkEscape(); err != nil {
			add("routing.name", c.Routing.Name, "on topology.kind=%s: %v", t.Kind, err)
		}
	} else if rp, _ := Lookup("routing.name"); !refused && topology.Known(t.Kind) && rp.check(c) == nil {
		// a known routing without a sequence on this topology (enum errors
		// are already listed)
		add("routing.name", c.Routing.Name, "%s", strings.TrimPrefix(err.Error(), "routing.name: "))
	}
	tr := &c.Traffic
	if a := c.Traffic.AdmittanceQueue; a > 0 {
		// the RECN paper's network interface: admittance queues per
		// destination (without them the bound does not apply and is
		// ignored, as its when tag says: Unapplied lists it)
		if m, perDst := c.Traffic.Messages(); perDst && a < m {
			add("traffic.admittanceQueue", strconv.Itoa(a), "must hold a whole message: at least traffic.messagePackets = %d", m)
		}
	}
	if tr.Pattern == "MIX" || (tr.SwitchCycle > 0 && tr.SwitchPattern == "MIX") {
		if s := tr.MixUN + tr.MixADVL + tr.MixADV; s < 99.999 || s > 100.001 {
			add("traffic.mixUN", fmt.Sprint(tr.MixUN), "mixUN + mixADVL + mixADV must be 100 (is %g)", s)
		}
	}
	if tr.Pattern == "HOTSPOT" || (tr.SwitchCycle > 0 && tr.SwitchPattern == "HOTSPOT") {
		errs = append(errs, c.checkHotspot()...)
	}
	if sz, ok := t.Sizes(); ok && t.Kind == "dragonfly" {
		g := sz.Groups
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
	errs = append(errs, c.validatePhysical()...)
	errs = append(errs, c.validateCongestion()...)
	errs = append(errs, c.validateUR1UR2()...)
	if e := c.checkECtNInFlight(); e != nil {
		errs = append(errs, e)
	}
	if len(errs) == 0 {
		errs = c.validateMemory() // only meaningful for an otherwise valid config
	}
	return errs
}

// maxECtNInFlight bounds ECtN's broadcasts in flight at once
// (topology.localLatency / routing.ectnPeriod + 1): each is a copy of every
// router's partial counters, kept until it arrives (sim's ectn.flight).
const maxECtNInFlight = 64

// checkECtNInFlight refuses an ECtN period so short against the local-link
// latency that too many broadcasts would be in flight at once.
func (c *Config) checkECtNInFlight() *FieldError {
	rc := c.Routing
	ectn := rc.Trigger == "ectn" && (rc.Name == "PAR" || rc.Name == "OLM") ||
		rc.InjectionTrigger == "ectn" && (rc.Name == "UGAL" || rc.Name == "PB")
	if !ectn || c.Topology.Kind != "dragonfly" {
		return nil
	}
	period := rc.EctnPeriod
	if period == 0 {
		period = 100 // the thesis's
	}
	if n := c.Topology.LocalLatency/period + 1; n > maxECtNInFlight {
		return &FieldError{Path: "routing.ectnPeriod", Value: strconv.Itoa(rc.EctnPeriod), Msg: fmt.Sprintf(
			"with topology.localLatency=%d, %d broadcasts would be in flight at once; at most %d (ectnPeriod ≥ %d)",
			c.Topology.LocalLatency, n, maxECtNInFlight, c.Topology.LocalLatency/maxECtNInFlight+1)}
	}
	return nil
}

// graph500Topologies: the topology kinds the Graph500 job runs on. The
// job's contract with a topology: its nodes are numbered group by group
// (topology.Groups; a kind without Dragonfly groups is one group), so that
// workload.groups places the job on whole groups, and every router holds
// nodes (the job's fairness is over its routers, sim.JobRouters);
// workload.placement=pattern places it on a traffic class's nodes instead.
var graph500Topologies = []string{"dragonfly", "fbfly"}

// RunsOn lists what of c does not run on topology kind, as the tables
// declare it: the routing e (c's entry in the routing table, or a test's
// edited copy), the traffic patterns (traffic.pattern, and
// traffic.switchPattern when it applies) and the Graph500 job, placed on
// groups. where names the topology in the messages. Validation asks it for
// topology.kind; sim.New for the kind of the graph it is given ("" for a
// test's own graph, where only what declares no topology runs).
func (c *Config) RunsOn(e *routing.Entry, kind, where string) Errors {
	var errs Errors
	refuse := func(path, value, on string, here []string) {
		errs = append(errs, &FieldError{Path: path, Value: value, Msg: fmt.Sprintf("runs on topology.kind=%s only; on %s, only %s",
			on, where, strings.Join(here, ", "))})
	}
	if e != nil && !e.Supports(kind) {
		var here []string // the routings that run on this topology
		for _, o := range routing.All() {
			if o.Supports(kind) && !slices.Contains(here, o.Name) {
				here = append(here, o.Name)
			}
		}
		refuse("routing.name", c.Routing.Name, strings.Join(e.Topologies, " or "), here)
	}
	tr := &c.Traffic
	for _, f := range []struct {
		path, name string
		use        bool
	}{{"traffic.pattern", tr.Pattern, true}, {"traffic.switchPattern", tr.SwitchPattern, tr.SwitchCycle > 0}} {
		if p, ok := traffic.Lookup(f.name); ok && f.use && !p.Supports(kind) {
			refuse(f.path, f.name, strings.Join(p.Topologies, " or "), traffic.On(kind))
		}
	}
	if kind == routing.FBFly && e != nil && e.Kind == routing.UGAL {
		// UGAL on a flattened butterfly draws any router as intermediate
		// and compares occupancies of every packet (sim's fbDecide)
		rc := &c.Routing
		for _, f := range []struct {
			path, value string
			bad         bool
			allowed     string
		}{{"routing.phaseA", rc.PhaseA, rc.PhaseA != "auto" && rc.PhaseA != "RRG-Sw" && rc.PhaseA != "", "auto (a uniform router)"},
			{"routing.restricted", fmt.Sprint(rc.Restricted), rc.Restricted, "false"},
			{"routing.congestion", rc.Congestion, rc.Congestion != "perVC" && rc.Congestion != "perPort", "perVC or perPort"},
			{"routing.injectionTrigger", rc.InjectionTrigger, rc.InjectionTrigger != "" && rc.InjectionTrigger != "ugal", "ugal"}} {
			if f.bad {
				errs = append(errs, &FieldError{Path: f.path, Value: f.value, Msg: fmt.Sprintf("UGAL on topology.kind=fbfly takes only %s", f.allowed)})
			}
		}
	}
	if c.Graph500() && !slices.Contains(graph500Topologies, kind) {
		errs = append(errs, &FieldError{Path: "workload.kind", Value: c.Workload.Kind, Msg: fmt.Sprintf("places its job on groups of nodes: it runs on topology.kind=%s only; on %s, only synthetic",
			strings.Join(graph500Topologies, " or "), where)})
	}
	return errs
}

// validateTopology checks what the fields' ranges do not: the kind's own
// constraints (a mesh's width and height), then the sizes the simulator
// supports.
func (c *Config) validateTopology() Errors {
	t := &c.Topology
	k, err := topology.KindOf(t.Kind)
	if err != nil {
		return nil // topology.kind's enum says why
	}
	for _, p := range params {
		if strings.HasPrefix(p.Path, "topology.") && p.Applies(c) && p.check(c) != nil {
			return nil // already reported, with its range
		}
	}
	if err := k.Check(t.Params()); err != nil {
		path, msg, _ := strings.Cut(err.Error(), ": ")
		return Errors{&FieldError{Path: path, Value: fmt.Sprint(fieldValue(c, path)), Msg: msg}}
	}
	sz := k.Sizes(t.Params())
	var errs Errors
	if sz.Nodes > 1<<20 {
		errs = append(errs, &FieldError{Path: "topology", Value: t.Describe(), Msg: fmt.Sprintf("%d nodes; at most %d are supported", sz.Nodes, 1<<20)})
	}
	if sz.Radix > 128 {
		errs = append(errs, &FieldError{Path: "topology", Value: t.Describe(), Msg: fmt.Sprintf("router radix %d; at most 128", sz.Radix)})
	}
	return errs
}

// fieldValue is the value of parameter path, or "" when there is none.
func fieldValue(c *Config, path string) any {
	if p, ok := Lookup(path); ok {
		return p.Get(c)
	}
	return ""
}

// JSON renders the config with indentation (the file the CLI accepts).
func (c *Config) JSON() []byte {
	b, _ := json.MarshalIndent(c, "", "  ")
	return b
}

// checkQCN validates QCN-Switch's needs: output sampling needs output
// FIFOs; DAMQ buffers would pool the CNMs' control VCs with the data (the
// control VCs' room within a port's 32: checkMechanismVCs).
func (c *Config) checkQCN() Errors {
	var errs Errors
	add := func(path, value, msg string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Value: value, Msg: fmt.Sprintf(msg, a...)})
	}
	run := c.Routing
	run.FillQCN()
	if run.QcnSampling == "output" && c.Router.Model != "ioq" {
		add("routing.qcnSampling", run.QcnSampling, "output sampling needs output FIFOs (router.model=ioq); use input")
	}
	if c.Router.Damq {
		add("router.damq", "true", "QCN-Switch's CNM VCs are static buffers: DAMQ is not supported with routing.name=%s", c.Routing.Name)
	}
	return errs
}

// checkHotspot: HOTSPOT's nodes exist, the senders are distinct and not
// the hotspot (traffic.New's own check, on the network's size).
func (c *Config) checkHotspot() Errors {
	tr := &c.Traffic
	senders, err := tr.Senders()
	if err != nil {
		return Errors{&FieldError{Path: "traffic.hotspotSenders", Value: tr.HotspotSenders, Msg: err.Error() + "; give comma-separated node numbers"}}
	}
	if tr.Reactive {
		return Errors{&FieldError{Path: "traffic.reactive", Value: "true", Msg: "HOTSPOT's senders and hotspot do not take part in request-reply traffic"}}
	}
	sz, ok := c.Topology.Sizes()
	if !ok {
		return nil // the topology's own errors say why
	}
	if tr.HotspotLinkRate && tr.HotspotRate > 0 {
		return Errors{&FieldError{Path: "traffic.hotspotLinkRate", Value: "true",
			Msg: fmt.Sprintf("the senders have one rate: their link's (traffic.hotspotLinkRate) or traffic.hotspotRate (%g), not both", tr.HotspotRate)}}
	}
	if tr.HotspotEnd != 0 && tr.HotspotEnd <= tr.HotspotStart {
		return Errors{&FieldError{Path: "traffic.hotspotEnd", Value: strconv.Itoa(tr.HotspotEnd),
			Msg: fmt.Sprintf("must be after traffic.hotspotStart (%d), up to 100000000 cycles, or 0 (never stop)", tr.HotspotStart)}}
	}
	if bg := tr.HotspotBackground; (bg == "TORNADO" || bg == "TORNADO_RAND") && c.Topology.Kind != "fbfly" {
		return Errors{&FieldError{Path: "traffic.hotspotBackground", Value: bg, Msg: fmt.Sprintf("%s runs on topology.kind=fbfly only (as traffic.pattern); on %s, only UR, UN", bg, c.Topology.Kind)}}
	}
	if _, err := traffic.New(traffic.Spec{Kind: traffic.HOTSPOT, Hotspot: tr.HotspotNode, Senders: senders,
		Count: tr.HotspotCount, DrawSeed: uint64(tr.HotspotSeed)}, hotspotNet{sz.Nodes}, 0); err != nil {
		path, msg, _ := strings.Cut(err.Error(), ": ")
		return Errors{&FieldError{Path: path, Value: fmt.Sprint(fieldValue(c, path)), Msg: msg}}
	}
	return nil
}

// hotspotNet is a network of n nodes, as HOTSPOT's check needs it.
type hotspotNet struct{ n int }

func (h hotspotNet) Nodes() int           { return h.n }
func (hotspotNet) NodesPerRouter() int    { return 1 }
func (hotspotNet) RoutersPerGroup() int   { return 1 }
func (h hotspotNet) Groups() int          { return h.n }
func (hotspotNet) LinkedGroups(int) []int { return nil }

// Messages is the network interface of Kim et al. §V-A as a run uses it:
// packets per message (1: single packets) and whether each node keeps one
// source queue per destination. Both need traffic.sourceQueue, and messages
// the Bernoulli process (a burst is already a train of packets to one
// destination); set without them they are ignored, as their when tags say
// (Config.Unapplied lists them).
func (t Traffic) Messages() (packets int, perDestination bool) {
	if !t.SourceQueue {
		return 1, false
	}
	packets = 1
	if t.Process != "bursty" {
		packets = max(t.MessagePackets, 1)
	}
	return packets, t.SourceQueues == "perDestination"
}
