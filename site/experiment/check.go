package experiment

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// The experiment bar's fields, as FieldError.Field names them (the sweep's
// own fields; the seeds field is the parameter sim.seeds).
const (
	FieldParam  = "sweep.param"  // the swept variable
	FieldFrom   = "sweep.from"   // from
	FieldTo     = "sweep.to"     // to
	FieldStep   = "sweep.step"   // step
	FieldValues = "sweep.values" // the comma list of values
	FieldSeeds  = "sim.seeds"    // seeds per point (every series)
)

// MaxRuns bounds the runs of an experiment (series × values × seeds): the
// page holds every run's configuration and result. The CLI's bound too.
const MaxRuns = sweep.MaxRuns

// FieldError is one problem of an experiment, worded as the page shows it:
// which series (numbered from 1, with its name) or which field of the
// experiment bar, the value, and what is allowed (the range comes from the
// parameter's declaration in engine/config, through its validator).
type FieldError struct {
	// Series is the series as the page numbers it, from 1; 0 for the
	// experiment bar (the sweep and the seeds of every series).
	Series int `json:"series"`
	// Name is the series' name (SeriesName) when Series > 0.
	Name string `json:"name,omitempty"`
	// Field is a dotted parameter path ("traffic.load") or one of the bar's
	// fields (FieldFrom, …).
	Field string `json:"field"`
	// At is the swept value at which a series' configuration fails, when
	// it is valid otherwise ("traffic.load = 0.9"); empty if not.
	At    string `json:"at,omitempty"`
	Value string `json:"value,omitempty"`
	Msg   string `json:"msg"`
}

// barLabels are the labels the experiment bar shows.
var barLabels = map[string]string{FieldParam: "swept variable", FieldFrom: "from", FieldTo: "to",
	FieldStep: "step", FieldValues: "values", FieldSeeds: "seeds per point"}

// Error reads "series 2 (VAL): traffic.load = 2: must be in [0, 1]", or for
// the bar "from: traffic.load = 4: must be in [0, 1]".
func (e *FieldError) Error() string {
	var b strings.Builder
	if e.Series > 0 {
		fmt.Fprintf(&b, "series %d (%s)", e.Series, e.Name)
		if e.At != "" {
			b.WriteString(" at " + e.At)
		}
		b.WriteString(": ")
	} else if l, ok := barLabels[e.Field]; ok {
		b.WriteString(l + ": ")
	}
	f := e.Field
	if e.Series == 0 && f != FieldSeeds && f != FieldParam {
		f = "" // the bar's from/to/step/values name the parameter in Value
	}
	switch {
	case f != "" && e.Value != "":
		fmt.Fprintf(&b, "%s = %s: ", f, e.Value)
	case f != "":
		b.WriteString(f + ": ")
	case e.Value != "":
		b.WriteString(e.Value + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// numericParam finds a parameter that can be swept.
func numericParam(path string) (config.Param, error) {
	p, ok := config.Lookup(path)
	if !ok {
		return p, &FieldError{Field: FieldParam, Value: path, Msg: "unknown parameter (see 'phitsim params')"}
	}
	if p.Kind != "int" && p.Kind != "float" && p.Kind != "uint" {
		return p, &FieldError{Field: FieldParam, Value: path, Msg: "not a numeric parameter; only numbers can be swept"}
	}
	if err := p.Sweepable(); err != nil {
		return p, &FieldError{Field: FieldParam, Value: path, Msg: err.Error()}
	}
	return p, nil
}

// declared checks x against p's declaration with the configuration's own
// parser and validator (so the message and range are the form's): text
// that is not a number of p's kind, or a value outside p's range, is an
// error with p's path, x as typed, and the allowed range. Only p's own
// errors count; what x does to the rest of a series is Check's business.
func declared(p config.Param, text string) (float64, *config.FieldError) {
	c := config.Default()
	text = strings.TrimSpace(text)
	if err := p.SetString(&c, text); err != nil {
		fe := err.(*config.FieldError)
		return 0, fe
	}
	x, _ := strconv.ParseFloat(p.Format(&c), 64)
	if (p.Min == nil || x >= *p.Min) && (p.Max == nil || x <= *p.Max) {
		return x, nil
	}
	// the range check comes first in Validate, before the rules that tie
	// fields together (those depend on the series, not on the declaration)
	for _, e := range c.Validate() {
		if e.Path == p.Path {
			return 0, &config.FieldError{Path: p.Path, Value: text, Msg: e.Msg}
		}
	}
	return x, nil
}

// ParseValue reads one value of the swept parameter as typed in the
// experiment bar's from or to field (field is FieldFrom or FieldTo): a
// number of the parameter's kind (a whole number for integer parameters)
// inside its declared range. Nothing is rounded or clamped: anything else
// is an error naming the field, the parameter and the allowed range.
func ParseValue(param, field, text string) (float64, error) {
	p, err := numericParam(param)
	if err != nil {
		return 0, err
	}
	x, fe := declared(p, text)
	if fe != nil {
		return 0, &FieldError{Field: field, Value: p.Path + " = " + fe.Value, Msg: fe.Msg}
	}
	return x, nil
}

// ParseStep reads the experiment bar's step: a number > 0, whole for an
// integer parameter (a fractional step would give values that are not).
func ParseStep(param, text string) (float64, error) {
	p, err := numericParam(param)
	if err != nil {
		return 0, err
	}
	t := strings.TrimSpace(text)
	x, perr := strconv.ParseFloat(t, 64)
	switch {
	case perr != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, &FieldError{Field: FieldStep, Value: t, Msg: "must be a number > 0"}
	case x <= 0:
		return 0, &FieldError{Field: FieldStep, Value: t, Msg: "must be > 0"}
	case p.Kind != "float" && x != math.Trunc(x):
		return 0, &FieldError{Field: FieldStep, Value: t, Msg: p.Path + " takes whole numbers: the step must be a whole number ≥ 1"}
	}
	return x, nil
}

// ParseList reads the experiment bar's comma list of values: each one as
// ParseValue reads it, at most MaxPoints of them. Empty text is an empty
// list (the bar's from:to:step applies).
func ParseList(param, text string) ([]float64, error) {
	p, err := numericParam(param)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	fields := strings.Split(text, ",")
	if len(fields) > MaxPoints {
		return nil, &FieldError{Field: FieldValues, Msg: fmt.Sprintf("%d values; at most %d", len(fields), MaxPoints)}
	}
	out := make([]float64, 0, len(fields))
	for i, f := range fields {
		if strings.TrimSpace(f) == "" {
			return nil, &FieldError{Field: FieldValues, Msg: fmt.Sprintf("value %d is empty: want numbers separated by commas", i+1)}
		}
		x, fe := declared(p, f)
		if fe != nil {
			return nil, &FieldError{Field: FieldValues, Value: p.Path + " = " + fe.Value, Msg: fe.Msg}
		}
		out = append(out, x)
	}
	return out, nil
}

// ParseSeeds reads the experiment bar's seeds per point: sim.seeds, within
// its declared range.
func ParseSeeds(text string) (int, error) {
	p, _ := config.Lookup(FieldSeeds)
	x, fe := declared(p, text)
	if fe != nil {
		return 0, &FieldError{Field: FieldSeeds, Value: fe.Value, Msg: fe.Msg}
	}
	return int(x), nil
}

// SeriesLabel is the name series i goes by in messages (FieldError.Name):
// its name, or its routing and pattern.
func (e *Experiment) SeriesLabel(i int) string {
	if n := e.Series[i].Name; n != "" {
		return n
	}
	return e.Series[i].Routing.Name + " " + e.Series[i].Traffic.Pattern
}

// Check lists every problem of the experiment, each naming its series
// (from 1, by name) or experiment-bar field and the allowed range: the
// sweep (parameter, from/to/step or values, each value against the
// parameter's declaration, the parameter against each series: it must
// apply to every one), each series' configuration as it is, and each
// series at each swept value (a value can be in range and still break a
// series, e.g. a buffer smaller than its packets), and, when all of that
// is fine, the finished runs that the page keeps against
// sweep.MaxResultsBytes (naming the parameter to change, in the series that
// keeps most of it). Empty when the experiment can run. Jobs and NewResults refuse what Check reports.
func (e *Experiment) Check() []*FieldError {
	var out []*FieldError
	if len(e.Series) == 0 {
		return []*FieldError{{Field: "series", Msg: "no series: add one"}}
	}
	vals, sweepErrs := e.Sweep.check()
	out = append(out, sweepErrs...)
	if len(sweepErrs) == 0 {
		// a parameter that does not apply to a series leaves its curve flat
		for _, na := range e.spec(vals).NotApplied() {
			out = append(out, &FieldError{Field: FieldParam, Value: na.Param, Msg: fmt.Sprintf(
				"does not apply to series %d (%s) (it applies when %s)", na.Series+1, e.SeriesLabel(na.Series), na.When)})
		}
	}
	// each series as it is first: a seed count out of its range is said as
	// such, not as the run count it makes
	bad := make([]bool, len(e.Series))
	for i := range e.Series {
		for _, fe := range e.Series[i].Validate() {
			out = append(out, &FieldError{Series: i + 1, Name: e.SeriesLabel(i), Field: fe.Path, Value: fe.Value, Msg: fe.Msg})
			bad[i] = true
		}
	}
	if len(sweepErrs) > 0 {
		return out
	}
	anyBad := slices.Contains(bad, true)
	sp := e.spec(vals)
	if runs := sp.Runs(); runs > MaxRuns && !anyBad { // the engine's count, as the CLI's
		out = append(out, &FieldError{Field: FieldSeeds, Value: strconv.Itoa(e.Series[0].Sim.Seeds), Msg: fmt.Sprintf(
			"%s × %s × their seeds make %d runs; at most %d (fewer seeds, values or series)",
			Count(len(e.Series), "series"), Count(len(vals), "value"), runs, MaxRuns)})
		return out // each run holds its configuration: do not build them
	}
	for i := range e.Series {
		if bad[i] {
			continue
		}
		name := e.SeriesLabel(i)
		for _, x := range vals {
			c := e.Series[i]
			if err := sp.Apply(&c, x); err != nil {
				out = append(out, &FieldError{Series: i + 1, Name: name, Field: e.Sweep.Param, Value: ftoa(x), Msg: err.Error()})
				break
			}
			if errs := c.Validate(); len(errs) > 0 {
				fe := errs[0]
				out = append(out, &FieldError{Series: i + 1, Name: name, At: e.Sweep.Param + " = " + ftoa(x),
					Field: fe.Path, Value: fe.Value, Msg: fe.Msg})
				break // one value says it; the others likely repeat it
			}
		}
	}
	if len(out) == 0 {
		// the page keeps every finished run: they must fit in the tab
		var re *sweep.ResultsError
		if errors.As(e.spec(vals).CheckResults(), &re) {
			fe := &FieldError{Series: re.Series + 1, Name: e.SeriesLabel(re.Series), Field: re.Path, Value: re.Value, Msg: re.Msg}
			if re.Path == FieldSeeds {
				fe.Series, fe.Name = 0, "" // the experiment bar's seeds per point
			}
			out = append(out, fe)
		}
	}
	return out
}

// check validates the sweep against its parameter's declaration and gives
// its values when it has no problem.
func (s Sweep) check() ([]float64, []*FieldError) {
	p, err := numericParam(s.Param)
	if err != nil {
		return nil, []*FieldError{err.(*FieldError)}
	}
	var errs []*FieldError
	value := func(field string, x float64) {
		if _, err := ParseValue(p.Path, field, ftoa(x)); err != nil {
			errs = append(errs, err.(*FieldError))
		}
	}
	if len(s.List) > 0 {
		if len(s.List) > MaxPoints {
			return nil, []*FieldError{{Field: FieldValues, Msg: fmt.Sprintf("%d values; at most %d", len(s.List), MaxPoints)}}
		}
		for _, x := range s.List {
			value(FieldValues, x)
		}
	} else {
		value(FieldFrom, s.From)
		value(FieldTo, s.To)
		if s.From != s.To {
			if _, err := ParseStep(p.Path, ftoa(s.Step)); err != nil {
				errs = append(errs, err.(*FieldError))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	vals, verr := s.Values()
	if verr != nil {
		f := FieldStep
		if len(s.List) > 0 {
			f = FieldValues
		}
		return nil, []*FieldError{{Field: f, Msg: strings.TrimPrefix(verr.Error(), "sweep: ")}}
	}
	return vals, nil
}

// Problems joins Check's list into one error (nil when there is none).
func Problems(errs []*FieldError) error {
	if len(errs) == 0 {
		return nil
	}
	s := make([]string, len(errs))
	for i, e := range errs {
		s[i] = e.Error()
	}
	return fmt.Errorf("%s", strings.Join(s, "; "))
}
