package experiment

import (
	"math"
	"strconv"
	"strings"

	"phitsim/engine/config"
	"phitsim/engine/units"
)

// FieldView is how the parameter form shows one field of a series. With a
// physical basis (the config's physical section), a field whose unit tag
// is cycles, phits or phits/node/cycle shows and takes ns, bytes or Gb/s,
// with the conversion beside it; any other field, or any field without a
// basis, shows its engine value and unit. The page builds every field
// from this, keyed by the unit tag, never field by field.
type FieldView struct {
	Physical bool
	Value    string // the input's text: "400 ns", or the engine value
	Unit     string // beside the input: "= 20 cycles", or the unit tag
	Default  string // the default value in the same units: "200 ns"
	Help     string // what the input takes: "in ns, us, µs, ms, s, m (cable, 5 ns/m), cycles; a bare number is in cycles"
}

// ViewField is the view of p in c; typed is the text in the input when it
// is not the value's own (hasTyped), whose conversion the view then shows
// ("30 ns" → "= 2 cycles (40 ns, rounded up)").
func ViewField(c *config.Config, p config.Param, typed string, hasTyped bool) FieldView {
	def := config.Default()
	text, ok := c.PhysicalText(p)
	if !ok {
		return FieldView{Value: p.Format(c), Unit: p.Unit, Default: p.Format(&def)}
	}
	b, _ := c.Basis()
	q := p.Quantity()
	conv, _ := c.PhysicalValue(p)
	v := FieldView{Physical: true, Value: text, Unit: conv.Describe(b)}
	def.Physical = c.Physical // the default's engine value in this basis
	v.Default, _ = def.PhysicalText(p)
	if hasTyped {
		cc := *c
		if tc, err := cc.SetPhysical(p, typed); err == nil && math.IsNaN(tc.Typed) {
			// typed in cycles or phits: their physical value beside
			v.Unit = q.EngineUnit(tc.Engine) + " = " + units.Format(q, tc.Physical(b))
		} else if err == nil {
			v.Unit = tc.Describe(b)
		}
	}
	v.Help = "in " + unitsHelp(c, p, b) + "; a bare number is in " + q.EngineUnit(2) + ", as in -set and URLs"
	return v
}

// unitsHelp lists the units p takes: the parser's own list, from an error.
func unitsHelp(c *config.Config, p config.Param, b units.Basis) string {
	_, err := b.Parse(p.Quantity(), p.Path, "?", "", c.Cable(p))
	msg := err.Error()
	return msg[strings.LastIndex(msg, ": ")+2:]
}

// SetField stores text typed into p's input: in physical units when the
// view is physical (config.SetPhysical), otherwise as the engine value
// (Param.SetString). A physical text that converts inexactly (a time
// rounded up to whole cycles) is stored and stays typed, as the view
// shows.
// A decimal field also takes a fraction "n/d", as the papers write their
// factors (the QCN-Switch paper's L_f = 1/64): stored as its value, the
// text stays in the input as typed.
func SetField(c *config.Config, p config.Param, text string) error {
	if p.Path == config.WarmupPath && config.IsAutoWarmup(text) {
		return p.SetString(c, text) // sim.autoWarmup, in any view
	}
	if _, ok := c.PhysicalText(p); ok {
		_, err := c.SetPhysical(p, text)
		return err
	}
	if n, d, ok := strings.Cut(text, "/"); ok && p.Kind == "float" {
		x, err1 := strconv.ParseFloat(strings.TrimSpace(n), 64)
		y, err2 := strconv.ParseFloat(strings.TrimSpace(d), 64)
		if err1 != nil || err2 != nil || y == 0 || math.IsInf(x/y, 0) || math.IsNaN(x/y) {
			return &config.FieldError{Path: p.Path, Value: text, Msg: "must be a number or a fraction n/d with d ≠ 0"}
		}
		return p.SetString(c, strconv.FormatFloat(x/y, 'g', -1, 64))
	}
	return p.SetString(c, text)
}

// Typed tells whether text, stored into p of c, should stay in the input
// as typed: when it is not the view's own text for the value (a bare
// number, another unit, a rounded time).
func Typed(c *config.Config, p config.Param, text string) bool {
	return ViewField(c, p, "", false).Value != text
}

// PhysicalSetting tells whether p sets the physical basis: a change of it
// changes what every physical field's text means, so the page drops the
// texts typed into them.
func PhysicalSetting(p config.Param) bool { return p.SetsBasis() }

// Basis is the physical basis the experiment's results can be shown in:
// every series' (ok only when all series have the same valid one), so that
// a chart can label latency in ns or µs (units.Basis.Ns) and loads in Gb/s
// per node (units.Basis.Gbps) on one axis.
func (e *Experiment) Basis() (units.Basis, bool) {
	var b units.Basis
	for i := range e.Series {
		bi, ok := e.Series[i].Basis()
		if !ok || (i > 0 && bi != b) {
			return units.Basis{}, false
		}
		b = bi
	}
	return b, len(e.Series) > 0
}

// PhysicalX is a swept value in its physical unit ("8 Gb/s" for an
// offered load of 0.2 at 40 Gb/s, "200 ns" for 10 cycles at 20 ns), for
// the charts' point labels and the page's point menu; "" without a basis
// or when the swept parameter has no physical quantity.
func (e *Experiment) PhysicalX(x float64) string {
	b, ok := e.Basis()
	p, found := config.Lookup(e.Sweep.Param)
	if !ok || !found || p.Quantity() == units.None {
		return ""
	}
	return units.Format(p.Quantity(), b.Physical(p.Quantity(), x))
}
