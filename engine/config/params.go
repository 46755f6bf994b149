package config

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"phitsim/engine/routing"
	"phitsim/engine/traffic"
)

// Param is the declaration of one configuration field, read from the struct
// tags of Config. The UI builds its forms from these, the CLI its help, the
// validator its range checks.
type Param struct {
	Path  string   // dotted JSON path, e.g. "traffic.load"
	Group string   // section: the path's first part (topology, router, …), or the field's group tag (congestion)
	Kind  string   // int, uint, float, bool, string
	Doc   string   // one line
	Unit  string   // cycles, phits, …
	Min   *float64 // nil: no bound
	Max   *float64
	Enum  []string // allowed values of a string field
	When  string   // "path=V1|V2", "path!=V1|V2" or "path>0", or several joined by "," (all must hold): the field matters only then
	Paper string   // where the mechanism comes from
	// FOGSim: the value that reproduces FOGSim v5 where its behaviour differs
	// from phitsim's default (UseFOGSimModel); "" when they agree.
	FOGSim string
	index  []int // reflect field index path
}

var params = buildParams()

// Section is one group of the configuration panel: the parameters whose
// Group is one of Groups, the first one under the section's title and the
// others under sub-headings (GroupTitles).
type Section struct {
	Key, Title string
	Groups     []string
}

// Sections of the configuration panel, in order: Topology ·
// Router · Routing · Congestion management · Workload · Simulation. The
// synthetic traffic is a sub-heading of Workload, the physical units (the
// basis that shows cycles and phits as ns and bytes) one of Topology. Every parameter but
// version and name belongs to one of them (params_test.go).
var Sections = []Section{
	{"topology", "Topology", []string{"topology", "physical"}},
	{"router", "Router", []string{"router"}},
	{"routing", "Routing", []string{"routing"}},
	{"congestion", "Congestion management", []string{"congestion"}},
	{"workload", "Workload", []string{"workload", "traffic"}},
	{"sim", "Simulation", []string{"sim"}},
}

// GroupTitles names the groups shown as sub-headings of a section.
var GroupTitles = map[string]string{"traffic": "Traffic", "physical": "Physical units"}

// SectionOf gives the key of the panel section that shows p ("" for
// version and name, which are outside the sections).
func SectionOf(p Param) string {
	for _, s := range Sections {
		for _, g := range s.Groups {
			if g == p.Group {
				return s.Key
			}
		}
	}
	return ""
}

// Params lists every parameter in declaration order.
func Params() []Param { return params }

// Lookup finds a parameter by dotted path.
func Lookup(path string) (Param, bool) {
	for _, p := range params {
		if p.Path == path {
			return p, true
		}
	}
	return Param{}, false
}

func buildParams() []Param {
	var out []Param
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			path := name
			if prefix != "" {
				path = prefix + "." + name
			}
			idx := append(append([]int(nil), index...), i)
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, path, idx)
				continue
			}
			p := Param{Path: path, Doc: f.Tag.Get("doc"), Unit: f.Tag.Get("unit"),
				When: f.Tag.Get("when"), Paper: f.Tag.Get("paper"), FOGSim: f.Tag.Get("fogsim"), index: idx}
			p.Group, _, _ = strings.Cut(path, ".")
			if p.Group == path {
				p.Group = ""
			}
			if g := f.Tag.Get("group"); g != "" {
				// a section other than the path's (the dotted path,
				// hence URLs, -set and JSON, stays as it is)
				p.Group = g
			}
			switch f.Type.Kind() {
			case reflect.Int:
				p.Kind = "int"
			case reflect.Uint64:
				p.Kind = "uint"
			case reflect.Float64:
				p.Kind = "float"
			case reflect.Bool:
				p.Kind = "bool"
			case reflect.String:
				p.Kind = "string"
			default:
				panic("config: unsupported field kind " + f.Type.String())
			}
			if v, ok := f.Tag.Lookup("min"); ok {
				x, _ := strconv.ParseFloat(v, 64)
				p.Min = &x
			}
			if v, ok := f.Tag.Lookup("max"); ok {
				x, _ := strconv.ParseFloat(v, 64)
				p.Max = &x
			}
			if v := f.Tag.Get("enum"); v != "" {
				p.Enum = strings.Split(v, ",")
			}
			fromRoutingTable(&p, f.Tag)
			if f.Tag.Get("traffic") == "patterns" { // the pattern table's names
				for _, i := range traffic.Patterns() {
					p.Enum = append(p.Enum, i.Name)
				}
			}
			out = append(out, p)
		}
	}
	walk(reflect.TypeOf(Config{}), "", nil)
	return out
}

func init() {
	for _, p := range params {
		p.checkWhen()
	}
}

// fromRoutingTable fills what the routing table declares: routing.name's
// values and doc, and the "when" of a parameter that applies only to the
// routings whose entries list it.
func fromRoutingTable(p *Param, tag reflect.StructTag) {
	if tag.Get("routing") == "names" {
		p.Enum, p.Doc = routing.Names(), routing.Doc()
	}
	using := routing.Using(p.Path)
	// "routing" (alone or first of several conditions) stands for the
	// routings whose entries list the parameter
	first, rest, _ := strings.Cut(p.When, ",")
	switch {
	case first == "routing" && len(using) == 0:
		panic("config: no routing lists " + p.Path + ", tagged when:\"routing\"")
	case first == "routing":
		p.When = strings.TrimSuffix("routing.name="+strings.Join(using, "|")+","+rest, ",")
	case len(using) > 0:
		panic("config: routings list " + p.Path + ", which is not tagged when:\"routing\"")
	}
}

// RoutingsIn lists, in routing.name's order, the routings to which some
// parameter of group applies (RoutingsIn("congestion"): the routings that
// sense congestion).
func RoutingsIn(group string) []string {
	var out []string
	for _, e := range routing.All() {
		for _, p := range params {
			if p.Group == group && e.Uses(p.Path) {
				out = append(out, e.Name)
				break
			}
		}
	}
	return out
}

// Get reads a parameter's value from a config.
func (p Param) Get(c *Config) any {
	return reflect.ValueOf(c).Elem().FieldByIndex(p.index).Interface()
}

// Format renders a value for display, URLs and CSV.
func (p Param) Format(c *Config) string {
	switch v := p.Get(c).(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	default:
		return fmt.Sprint(v)
	}
}

// SetString parses s according to the parameter's kind and stores it.
// Range checks are left to Validate, so that all errors can be listed at once.
func (p Param) SetString(c *Config, s string) error {
	f := reflect.ValueOf(c).Elem().FieldByIndex(p.index)
	if p.Path == WarmupPath && IsAutoWarmup(s) {
		c.Sim.AutoWarmup = true // sim.warmup stays the cap
		return nil
	}
	switch p.Kind {
	case "int":
		x, err := strconv.ParseInt(wholeDigits(s), 10, 64)
		if err != nil {
			return &FieldError{Path: p.Path, Value: s, Msg: "must be a whole number" + p.rangeText() + orAuto(p)}
		}
		f.SetInt(x)
	case "uint":
		x, err := strconv.ParseUint(wholeDigits(s), 10, 64)
		if err != nil {
			return &FieldError{Path: p.Path, Value: s, Msg: "must be a whole number" + p.rangeText()}
		}
		f.SetUint(x)
	case "float":
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return &FieldError{Path: p.Path, Value: s, Msg: "must be a number" + p.rangeText()}
		}
		f.SetFloat(x)
	case "bool":
		x, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return &FieldError{Path: p.Path, Value: s, Msg: "must be true or false"}
		}
		f.SetBool(x)
	case "string":
		f.SetString(s)
	}
	return nil
}

// wholeDigits rewrites a whole number typed in float syntax ("1e3",
// "1000.0", "+2.5e1") as plain digits ("1000", "+25"), exactly (no float64
// rounding), for ParseInt/ParseUint to read and range-check; anything else
// (a fraction, "0x10", "1,000", "inf") is returned trimmed, for them to
// refuse.
func wholeDigits(s string) string {
	s = strings.TrimSpace(s)
	sign, t := "", s
	if t != "" && (t[0] == '+' || t[0] == '-') {
		sign, t = t[:1], t[1:]
	}
	mant, exp := t, 0
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		e, err := strconv.Atoi(t[i+1:])
		if err != nil || e < -1000 || e > 1000 {
			return s
		}
		mant, exp = t[:i], e
	}
	ip, fp, _ := strings.Cut(mant, ".")
	digits := ip + fp
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return s
	}
	point := len(ip) + exp // digits[:point] is the whole part
	trimmed := strings.TrimLeft(digits, "0")
	point -= len(digits) - len(trimmed)
	digits = strings.TrimRight(trimmed, "0")
	switch {
	case digits == "":
		return sign + "0"
	case point < len(digits):
		return s // a fraction
	case point > 40:
		return sign + digits + strings.Repeat("0", 40) // out of range: ParseInt says so
	}
	return sign + digits + strings.Repeat("0", point-len(digits))
}

func (p Param) rangeText() string {
	if p.Kind == "uint" && p.Max != nil && *p.Max >= math.MaxUint64 {
		p.Max = nil // any uint64: "≥ 0"
	}
	switch {
	case p.Min != nil && p.Max != nil:
		return " in [" + p.Bound(*p.Min) + ", " + p.Bound(*p.Max) + "]"
	case p.Min != nil:
		return " ≥ " + p.Bound(*p.Min)
	case p.Max != nil:
		return " ≤ " + p.Bound(*p.Max)
	}
	return ""
}

// Bound renders one of the parameter's range bounds: integer parameters'
// as whole numbers (100000000, not 1e+08: the text must read as a value
// the field accepts), floats as %g.
func (p Param) Bound(x float64) string {
	switch {
	case p.Kind == "uint" && x >= math.MaxUint64:
		return strconv.FormatUint(math.MaxUint64, 10) // the tag's 2⁶⁴−1 reads as the float 2⁶⁴
	case p.Kind == "int" || p.Kind == "uint":
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// Condition is one condition of a parameter's "when" tag: Path's value
// (Param.Format) is one of Values (Op "="), none of them ("!="), or greater
// than Values[0] (">").
type Condition struct {
	Path, Op string
	Values   []string
}

// Conditions parses the parameter's "when" tag: conditions joined by ","
// that must all hold (nil: it always applies). buildParams checks every tag.
func (p Param) Conditions() []Condition {
	if p.When == "" {
		return nil
	}
	var out []Condition
	for _, s := range strings.Split(p.When, ",") {
		var c Condition
		var vals string
		switch i := strings.IndexAny(s, "!=>"); {
		case i < 0:
			c.Path = s
		case strings.HasPrefix(s[i:], "!="):
			c.Path, c.Op, vals = s[:i], "!=", s[i+2:]
		default:
			c.Path, c.Op, vals = s[:i], s[i:i+1], s[i+1:]
		}
		c.Values = strings.Split(vals, "|")
		out = append(out, c)
	}
	return out
}

// checkWhen panics on a "when" tag that does not parse: an unknown path or
// the parameter's own, a missing operator, a ">" bound that is not one
// number. ("path=" is allowed: the value is empty.)
func (p Param) checkWhen() {
	for _, c := range p.Conditions() {
		q, ok := Lookup(c.Path)
		bad := !ok || c.Op == "" || q.Path == p.Path
		if c.Op == ">" {
			_, err := strconv.ParseFloat(c.Values[0], 64)
			bad = bad || err != nil || len(c.Values) != 1
		}
		if bad {
			panic(fmt.Sprintf("config: %s's when %q: bad condition %q", p.Path, p.When, c.Path+c.Op+strings.Join(c.Values, "|")))
		}
	}
}

// Holds tells whether the condition holds for c.
func (cd Condition) Holds(c *Config) bool {
	q, _ := Lookup(cd.Path)
	cur := q.Format(c)
	switch cd.Op {
	case ">":
		lim, _ := strconv.ParseFloat(cd.Values[0], 64)
		x, _ := strconv.ParseFloat(cur, 64)
		return x > lim
	case "!=":
		return !slices.Contains(cd.Values, cur)
	}
	return slices.Contains(cd.Values, cur)
}

// Text words the condition: "workload.kind=graph500", "routing.name is one
// of VAL, UGAL, PB", "routing.qcnFeedbackComparison≠off", "traffic.switchCycle > 0".
func (cd Condition) Text() string {
	switch {
	case cd.Op == ">":
		return cd.Path + " > " + cd.Values[0]
	case cd.Op == "!=" && len(cd.Values) == 1:
		return cd.Path + "≠" + cd.Values[0]
	case cd.Op == "!=":
		return cd.Path + " is none of " + strings.Join(cd.Values, ", ")
	case len(cd.Values) > 1:
		return cd.Path + " is one of " + strings.Join(cd.Values, ", ")
	}
	return cd.Path + "=" + cd.Values[0]
}

// WhenText words the parameter's "when" condition for messages, its
// conditions joined by "and" ("routing.name=QCN_SWITCH and
// routing.qcnSampling=input"); "" when it always applies.
func (p Param) WhenText() string {
	var out []string
	for _, c := range p.Conditions() {
		out = append(out, c.Text())
	}
	return strings.Join(out, " and ")
}

// Applies tells whether the parameter matters for this config (every
// condition of its "when" holds). The UI hides parameters that do not apply.
func (p Param) Applies(c *Config) bool {
	for _, cd := range p.Conditions() {
		if !cd.Holds(c) {
			return false
		}
	}
	return true
}

// Unmet lists the conditions of the parameter's "when" that do not hold
// for c.
func (p Param) Unmet(c *Config) []Condition {
	var out []Condition
	for _, cd := range p.Conditions() {
		if !cd.Holds(c) {
			out = append(out, cd)
		}
	}
	return out
}

// check validates the parameter's range or enum.
func (p Param) check(c *Config) *FieldError {
	v := reflect.ValueOf(c).Elem().FieldByIndex(p.index)
	var x float64
	switch p.Kind {
	case "int":
		x = float64(v.Int())
	case "uint":
		x = float64(v.Uint())
	case "float":
		x = v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &FieldError{Path: p.Path, Value: p.Format(c), Msg: "must be a finite number" + p.rangeText()}
		}
	case "string":
		s := v.String()
		if p.Enum == nil {
			if !utf8.ValidString(s) {
				// JSON would turn the invalid bytes into U+FFFD: the
				// config written would not be the one validated
				return &FieldError{Path: p.Path, Value: strconv.QuoteToASCII(s), Msg: "must be UTF-8 text"}
			}
			return nil
		}
		for _, e := range p.Enum {
			if s == e {
				return nil
			}
		}
		return &FieldError{Path: p.Path, Value: s, Msg: "must be one of " + strings.Join(p.Enum, ", ")}
	default:
		return nil
	}
	if (p.Min != nil && x < *p.Min) || (p.Max != nil && x > *p.Max) {
		return &FieldError{Path: p.Path, Value: p.Format(c), Msg: "must be" + p.rangeText()}
	}
	return nil
}

// Unapplied lists the parameters set (to neither the default nor FOGSim's
// model's value) where an option of the routing or topology in use rules
// them out, each naming the conditions that do not hold and the values that
// break them: routing.qcnSourceProcessing = true with output sampling,
// routing.qcnTh2 with feedback comparison off. The simulator ignores such a
// value and the form hides the field. A value for another routing or
// topology kind (routing.pbCoef under MIN) is not listed: series copied
// from one another carry them by design. Notes, not errors, as a wrong
// routing's values are accepted (phitsim validate prints them).
func (c *Config) Unapplied() []*FieldError {
	def := Default()
	var out []*FieldError
	for _, p := range params {
		unmet := p.Unmet(c)
		v := p.Format(c)
		if len(unmet) == 0 || v == p.Format(&def) || p.FOGSim != "" && v == p.FOGSim {
			continue
		}
		var why []string
		for _, cd := range unmet {
			if cd.Path == "routing.name" || cd.Path == "topology.kind" {
				why = nil
				break
			}
			q, _ := Lookup(cd.Path)
			is := fmt.Sprintf("%q", q.Format(c))
			if is == `""` {
				is = "empty (its default)"
			}
			why = append(why, cd.Path+" is "+is)
		}
		if why != nil {
			out = append(out, &FieldError{Path: p.Path, Value: v, Msg: "does not apply and is ignored: it applies when " +
				p.WhenText() + ", and " + strings.Join(why, ", ")})
		}
	}
	return out
}
