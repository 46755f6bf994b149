package config

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
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
	index []int    // reflect field index path
}

var params = buildParams()

// Section is one group of the configuration panel: the parameters whose
// Group is one of Groups, the first one under the section's title and the
// others under sub-headings (GroupTitles).
type Section struct {
	Key, Title string
	Groups     []string
}

// Sections of the configuration panel, in order (issue 3): Topology ·
// Router · Routing · Congestion management · Workload · Simulation. The
// synthetic traffic is a sub-heading of Workload. Every parameter but
// version and name belongs to one of them (params_test.go).
var Sections = []Section{
	{"topology", "Topology", []string{"topology"}},
	{"router", "Router", []string{"router"}},
	{"routing", "Routing", []string{"routing"}},
	{"congestion", "Congestion management", []string{"congestion"}},
	{"workload", "Workload", []string{"workload", "traffic"}},
	{"sim", "Simulation", []string{"sim"}},
}

// GroupTitles names the groups shown as sub-headings of a section.
var GroupTitles = map[string]string{"traffic": "Traffic"}

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
				When: f.Tag.Get("when"), Paper: f.Tag.Get("paper"), index: idx}
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
			out = append(out, p)
		}
	}
	walk(reflect.TypeOf(Config{}), "", nil)
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
		x, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return &FieldError{Path: p.Path, Value: s, Msg: "must be a whole number" + p.rangeText()}
		}
		f.SetInt(x)
	case "uint":
		x, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return &FieldError{Path: p.Path, Value: s, Msg: "must be a whole number ≥ 0"}
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

func (p Param) rangeText() string {
	switch {
	case p.Min != nil && p.Max != nil:
		return fmt.Sprintf(" in [%g, %g]", *p.Min, *p.Max)
	case p.Min != nil:
		return fmt.Sprintf(" ≥ %g", *p.Min)
	case p.Max != nil:
		return fmt.Sprintf(" ≤ %g", *p.Max)
	}
	return ""
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
