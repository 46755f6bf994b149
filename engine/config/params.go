package config

import (
	"fmt"
	"math"
	"reflect"
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
	When  string   // "path=V1|V2" or "path>0": the field matters only then
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

// fromRoutingTable fills what the routing table declares: routing.name's
// values and doc, and the "when" of a parameter that applies only to the
// routings whose entries list it.
func fromRoutingTable(p *Param, tag reflect.StructTag) {
	if tag.Get("routing") == "names" {
		p.Enum, p.Doc = routing.Names(), routing.Doc()
	}
	using := routing.Using(p.Path)
	switch {
	case p.When == "routing" && len(using) == 0:
		panic("config: no routing lists " + p.Path + ", tagged when:\"routing\"")
	case p.When == "routing":
		p.When = "routing.name=" + strings.Join(using, "|")
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
	switch p.Kind {
	case "int":
		x, err := strconv.ParseInt(wholeDigits(s), 10, 64)
		if err != nil {
			return &FieldError{Path: p.Path, Value: s, Msg: "must be a whole number" + p.rangeText()}
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

// WhenText words the parameter's "when" condition for messages:
// "workload.kind=graph500", "routing.name is one of VAL, UGAL, PB",
// "traffic.switchCycle > 0"; "" when it always applies.
func (p Param) WhenText() string {
	if path, v, ok := strings.Cut(p.When, ">"); ok {
		return path + " > " + v
	}
	path, vals, ok := strings.Cut(p.When, "=")
	if !ok || !strings.Contains(vals, "|") {
		return p.When
	}
	return path + " is one of " + strings.ReplaceAll(vals, "|", ", ")
}

// Applies tells whether the parameter matters for this config (its "when"
// condition holds). The UI hides parameters that do not apply.
func (p Param) Applies(c *Config) bool {
	if p.When == "" {
		return true
	}
	if path, v, ok := strings.Cut(p.When, ">"); ok {
		q, _ := Lookup(path)
		lim, _ := strconv.ParseFloat(v, 64)
		x, _ := strconv.ParseFloat(q.Format(c), 64)
		return x > lim
	}
	path, vals, _ := strings.Cut(p.When, "=")
	q, _ := Lookup(path)
	cur := q.Format(c)
	for _, v := range strings.Split(vals, "|") {
		if v == cur {
			return true
		}
	}
	return false
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
