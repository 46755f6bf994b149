package units

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// thousands matches a number written with thousands separators.
var thousands = regexp.MustCompile(`^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$`)

// Quantity is what an engine unit measures, hence which physical unit shows
// it: the config's fields are converted by their unit tag, not one by one.
type Quantity int

const (
	None Quantity = iota // no physical counterpart (VCs, packets, %, …)
	Time                 // cycles ↔ ns
	Size                 // phits ↔ bytes
	Rate                 // phits/(node·cycle) ↔ Gb/s per node
)

// QuantityOf is the quantity of an engine unit tag.
func QuantityOf(unit string) Quantity {
	switch unit {
	case "cycles":
		return Time
	case "phits":
		return Size
	case "phits/node/cycle":
		return Rate
	}
	return None
}

// EngineUnit names the engine unit of a quantity, singular for 1.
func (q Quantity) EngineUnit(n float64) string {
	switch q {
	case Time:
		if n == 1 {
			return "cycle"
		}
		return "cycles"
	case Size:
		if n == 1 {
			return "phit"
		}
		return "phits"
	case Rate:
		return "phits/(node·cycle)"
	}
	return ""
}

// The physical units a value may be typed in, as multiples of the base
// unit of its quantity (ns, bytes, Gb/s).
var suffixes = map[Quantity][]struct {
	name string
	mult float64
}{
	Time: {{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"μs", 1e3}, {"ms", 1e6}, {"s", 1e9}},
	Size: {{"B", 1}, {"bytes", 1}, {"byte", 1}, {"KB", 1e3}, {"kB", 1e3}, {"MB", 1e6}},
	Rate: {{"Gb/s", 1}, {"Gbps", 1}, {"Mb/s", 1e-3}, {"Tb/s", 1e3}},
}

// FormatTime writes a time in ns in the unit that reads best (ns below
// 10 µs, µs below 1 ms, then ms), with the digits it needs.
func FormatTime(ns float64) string {
	switch a := math.Abs(ns); {
	case a < 1e4:
		return fmtF(round(ns)) + " ns"
	case a < 1e6:
		return fmtF(round(ns/1e3)) + " µs"
	}
	return fmtF(round(ns/1e6)) + " ms"
}

// FormatBytes writes a size in bytes as B below 10 KB, then KB, then MB
// (1 KB = 1,000 bytes).
func FormatBytes(b float64) string {
	switch a := math.Abs(b); {
	case a < 1e4:
		return fmtF(round(b)) + " B"
	case a < 1e7:
		return fmtF(round(b/1e3)) + " KB"
	}
	return fmtF(round(b/1e6)) + " MB"
}

// FormatGbps writes a rate in Gb/s.
func FormatGbps(g float64) string { return fmtF(round(g)) + " Gb/s" }

// round keeps 15 significant digits: 0.3·1000 shows as 300, not
// 300.00000000000006, and the text still parses back to the same cycles
// and phits (both conversions allow a relative tolerance of 10⁻⁹).
func round(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
	return v
}

// Format writes a physical value (ns, bytes or Gb/s) of quantity q.
func Format(q Quantity, base float64) string {
	switch q {
	case Time:
		return FormatTime(base)
	case Size:
		return FormatBytes(base)
	case Rate:
		return FormatGbps(base)
	}
	return fmtF(base)
}

// Physical is the physical value of an engine value of quantity q: ns,
// bytes or Gb/s per node.
func (b Basis) Physical(q Quantity, engine float64) float64 {
	switch q {
	case Time:
		return b.Ns(engine)
	case Size:
		return b.Bytes(engine)
	case Rate:
		return b.Gbps(engine)
	}
	return engine
}

// Conversion is a value typed in physical units and the engine value it
// becomes.
type Conversion struct {
	Quantity Quantity
	Engine   float64 // cycles, phits or phits/(node·cycle)
	Typed    float64 // what was typed, in ns, bytes or Gb/s; NaN when typed in engine units
	Meters   float64 // the cable length typed, 0 if none
}

// Physical is the engine value in physical units (the time, size or rate
// the simulator runs with).
func (c Conversion) Physical(b Basis) float64 { return b.Physical(c.Quantity, c.Engine) }

// Exact tells whether the engine value is what was typed.
func (c Conversion) Exact(b Basis) bool {
	if math.IsNaN(c.Typed) {
		return true
	}
	p := c.Physical(b)
	return math.Abs(p-c.Typed) <= eps*math.Max(1, math.Abs(p))
}

// Describe is the conversion as the page and the CLI show it beside the
// value: "= 20 cycles", "= 10 phits", "= 0.4 phits/(node·cycle)", and,
// when the engine value is not what was typed, what it is
// ("= 2 cycles (40 ns, rounded up)").
func (c Conversion) Describe(b Basis) string {
	s := "= " + fmtF(round(c.Engine)) + " " + c.Quantity.EngineUnit(c.Engine)
	if c.Meters > 0 {
		s = "= " + FormatTime(c.Meters*b.NsPerMeter()) + " " + s
	}
	if !c.Exact(b) {
		s += " (" + Format(c.Quantity, c.Physical(b)) + ", rounded up)"
	}
	return s
}

// Parse reads a value typed for a field of quantity q: a number and an
// optional unit — ns/µs/ms/s, B/KB/MB, Gb/s, m (a cable length, when
// meters is true), or the engine's own unit (cycles, phits,
// phits/(node·cycle)) — a bare number being in unit def (one of those).
// Errors name field and say what is allowed.
func (b Basis) Parse(q Quantity, field, text, def string, meters bool) (Conversion, error) {
	c := Conversion{Quantity: q, Typed: math.NaN()}
	s := strings.TrimSpace(text)
	i := len(s)
	for i > 0 && !strings.ContainsRune("0123456789.", rune(s[i-1])) {
		i--
	}
	num, unit := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
	if unit == "" {
		unit = def
	}
	if strings.Contains(num, ",") && thousands.MatchString(num) {
		num = strings.ReplaceAll(num, ",", "") // 1,000 B; a decimal comma (1,5) is refused
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return c, &Error{field, text, "must be a number and a unit: " + b.allowed(q, meters)}
	}
	engineUnit := q.EngineUnit(2)
	switch {
	case unit == engineUnit || unit == q.EngineUnit(1) || (q == Rate && unit == "phits/node/cycle"):
		c.Engine = x
		return c, nil
	case q == Time && meters && unit == "m":
		n, err := b.CableCycles(field, x)
		c.Engine, c.Typed, c.Meters = float64(n), x*b.NsPerMeter(), x
		return c, err
	}
	for _, u := range suffixes[q] {
		if u.name != unit {
			continue
		}
		c.Typed = x * u.mult
		var n int
		switch q {
		case Time:
			n, err = b.Cycles(field, c.Typed)
		case Size:
			n, err = b.Phits(field, c.Typed)
		case Rate:
			c.Engine = b.Load(c.Typed)
			return c, nil
		}
		c.Engine = float64(n)
		return c, err
	}
	return c, &Error{field, text, fmt.Sprintf("unknown unit %q: %s", unit, b.allowed(q, meters))}
}

// allowed lists the units a field of quantity q takes.
func (b Basis) allowed(q Quantity, meters bool) string {
	var names []string
	for _, u := range suffixes[q] {
		if u.name != "μs" && u.name != "byte" { // spellings of others
			names = append(names, u.name)
		}
	}
	if q == Time && meters {
		names = append(names, fmt.Sprintf("m (cable, %s ns/m)", fmtF(b.NsPerMeter())))
	}
	if e := q.EngineUnit(2); e != "" {
		names = append(names, e)
	}
	return strings.Join(names, ", ")
}
