package units

import (
	"math"
	"strings"
	"testing"
)

// The QCN-Switch paper's Table I (§4.1) in the engine's units, at the two
// phit sizes of its interpretation: 100-byte phits (20 ns cycles, the
// browser presets) and 5-byte phits (1 ns cycles, its 1 GHz switch clock).
func TestTableI(t *testing.T) {
	for _, tc := range []struct {
		phit int
		want Engine
	}{
		{100, Engine{CycleNs: 20, PacketPhits: 10, SwitchCycles: 10, LocalCycles: 2, GlobalCycles: 20, InjectionCycles: 2,
			InjectionBufPhits: 2000, TransitPhits: 1000, OutputPhits: 1000}},
		{5, Engine{CycleNs: 1, PacketPhits: 200, SwitchCycles: 200, LocalCycles: 40, GlobalCycles: 400, InjectionCycles: 40,
			InjectionBufPhits: 40000, TransitPhits: 20000, OutputPhits: 20000}},
	} {
		got, errs := TableI(tc.phit).Engine()
		if len(errs) > 0 {
			t.Fatalf("%d-byte phits: %v", tc.phit, errs[0])
		}
		if got != tc.want {
			t.Errorf("%d-byte phits:\n got %+v\nwant %+v", tc.phit, got, tc.want)
		}
		// back to physical units: Table I in ns (the cables' lengths as
		// their times), exactly
		back := SystemOf(TableI(tc.phit).Basis, got)
		want := TableI(tc.phit)
		want.LocalNs, want.GlobalNs, want.InjectionNs = 40, 400, 40
		want.LocalMeters, want.GlobalMeters, want.InjectionMeters = 0, 0, 0
		if back != want {
			t.Errorf("%d-byte phits, back:\n got %+v\nwant %+v", tc.phit, back, want)
		}
	}
}

// Engine → physical → engine is the identity for any engine values.
func TestRoundTrip(t *testing.T) {
	for _, b := range []Basis{{40, 100, 0}, {40, 5, 5}, {100, 64, 4.5}, {25, 1, 0}, {0.001, 1048576, 0}} {
		e := Engine{CycleNs: b.CycleNs(), PacketPhits: 7, SwitchCycles: 3, LocalCycles: 11, GlobalCycles: 123,
			InjectionCycles: 1, InjectionBufPhits: 4096, TransitPhits: 33, OutputPhits: 1}
		got, errs := SystemOf(b, e).Engine()
		if len(errs) > 0 || got != e {
			t.Errorf("%+v: %+v, %v (want %+v)", b, got, errs, e)
		}
	}
}

// Bad inputs: each error names its field and what is allowed.
func TestBadInputs(t *testing.T) {
	ok := TableI(100)
	for _, tc := range []struct {
		edit  func(*System)
		field string
		msg   string
	}{
		{func(s *System) { s.LinkGbps = 0 }, "linkGbps", "(0, 100000]"},
		{func(s *System) { s.LinkGbps = math.NaN() }, "linkGbps", "(0, 100000]"},
		{func(s *System) { s.PhitBytes = 0 }, "phitBytes", "[1, 1048576]"},
		{func(s *System) { s.CableNsPerMeter = -1 }, "cableNsPerMeter", "[0, 1000]"},
		{func(s *System) { s.PacketBytes = 1050 }, "PacketBytes", "whole number of phits (1000 B or 1100 B)"},
		{func(s *System) { s.PacketBytes = 50 }, "PacketBytes", "whole number of phits (100 B)"},
		{func(s *System) { s.SwitchNs = 10 }, "SwitchNs", "below one cycle (20 ns"},
		{func(s *System) { s.SwitchNs = -1 }, "SwitchNs", "≥ 0 ns"},
		{func(s *System) { s.LocalMeters = 2 }, "LocalMeters", "below one cycle"},
		// 1,000-byte phits: a 200-ns cycle, longer than the 8 m cable
		{func(s *System) { s.PhitBytes = 1000 }, "LocalMeters", "is below one cycle (200 ns"},
		{func(s *System) { s.GlobalMeters = math.Inf(1) }, "GlobalMeters", "≥ 0 m"},
		{func(s *System) { s.TransitKB = 0.05 }, "TransitKB", "whole number of phits"},
		{func(s *System) { s.OutputKB = 1e300 }, "OutputKB", "more than"},
	} {
		s := ok
		tc.edit(&s)
		_, errs := s.Engine()
		if len(errs) == 0 {
			t.Errorf("%s: accepted", tc.field)
			continue
		}
		if errs[0].Field != tc.field || !strings.Contains(errs[0].Msg, tc.msg) {
			t.Errorf("%s: %v, want field %s and %q", tc.field, errs[0], tc.field, tc.msg)
		}
	}
}

// Rounding: a time rounds up to whole cycles and says so; 0 stays 0.
func TestCyclesRoundUp(t *testing.T) {
	b := Basis{LinkGbps: 40, PhitBytes: 100}
	for ns, want := range map[float64]int{0: 0, 20: 1, 20.0000000001: 1, 21: 2, 30: 2, 40: 2, 399.9: 20, 400: 20, 0.3 * 1e3: 15} {
		if got, err := b.Cycles("x", ns); err != nil || got != want {
			t.Errorf("%g ns: %d, %v (want %d)", ns, got, err, want)
		}
	}
	c, err := b.Parse(Time, "topology.localLatency", "30 ns", "ns", true)
	if err != nil || c.Engine != 2 || c.Exact(b) || c.Describe(b) != "= 2 cycles (40 ns, rounded up)" {
		t.Errorf("30 ns: %+v %v %q", c, err, c.Describe(b))
	}
}

// Parsing what a user types into a field: units, the engine's own unit, a
// bare number in the caller's default unit, cable lengths where allowed.
func TestParse(t *testing.T) {
	b := Basis{LinkGbps: 40, PhitBytes: 100}
	for _, tc := range []struct {
		q          Quantity
		text, def  string
		meters     bool
		engine     float64
		describe   string
		errContain string
	}{
		{Time, "400 ns", "ns", false, 20, "= 20 cycles", ""},
		{Time, "400", "ns", false, 20, "= 20 cycles", ""},
		{Time, "0.4µs", "ns", false, 20, "= 20 cycles", ""},
		{Time, "0.4 us", "ns", false, 20, "= 20 cycles", ""},
		{Time, "1.2 ms", "ns", false, 60000, "= 60000 cycles", ""},
		{Time, "80 m", "ns", true, 20, "= 400 ns = 20 cycles", ""},
		{Time, "80 m", "ns", false, 0, "", `unknown unit "m"`},
		{Time, "17 cycles", "ns", false, 17, "= 17 cycles", ""},
		{Time, "1 cycle", "ns", false, 1, "= 1 cycle", ""},
		{Time, "5 ns", "ns", false, 0, "", "below one cycle"},
		{Time, "fast", "ns", false, 0, "", "must be a number and a unit: ns, us, µs, ms, s, cycles"},
		{Size, "100 KB", "KB", false, 1000, "= 1000 phits", ""},
		{Size, "100", "KB", false, 1000, "= 1000 phits", ""},
		{Size, "1,000 B", "KB", false, 10, "= 10 phits", ""},
		{Size, "1,5 KB", "KB", false, 0, "", "must be a number and a unit"}, // a decimal comma, not 15 KB
		{Time, "2,400,000 ns", "ns", false, 120000, "= 120000 cycles", ""},
		{Size, "1050 B", "B", false, 0, "", "1000 B or 1100 B"},
		{Size, "8 phits", "B", false, 8, "= 8 phits", ""},
		{Rate, "16 Gb/s", "Gb/s", false, 0.4, "= 0.4 phits/(node·cycle)", ""},
		{Rate, "0.5 phits/node/cycle", "Gb/s", false, 0.5, "= 0.5 phits/(node·cycle)", ""},
		{Rate, "16 furlongs", "Gb/s", false, 0, "", "unknown unit"},
	} {
		c, err := b.Parse(tc.q, "f", tc.text, tc.def, tc.meters)
		switch {
		case tc.errContain != "":
			if err == nil || !strings.Contains(err.Error(), tc.errContain) || !strings.HasPrefix(err.Error(), "f = ") {
				t.Errorf("%q: %v, want an error on f with %q", tc.text, err, tc.errContain)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.text, err)
		case math.Abs(c.Engine-tc.engine) > 1e-12 || c.Describe(b) != tc.describe:
			t.Errorf("%q: %g %q, want %g %q", tc.text, c.Engine, c.Describe(b), tc.engine, tc.describe)
		}
	}
}

// Format picks a unit that reads well, and what it writes parses back to
// the same engine value.
func TestFormatParsesBack(t *testing.T) {
	b := Basis{LinkGbps: 40, PhitBytes: 100}
	for _, tc := range []struct {
		q    Quantity
		eng  float64
		want string
	}{
		{Time, 20, "400 ns"}, {Time, 1000, "20 µs"}, {Time, 120000, "2.4 ms"}, {Time, 3, "60 ns"},
		{Size, 10, "1000 B"}, {Size, 1000, "100 KB"}, {Size, 2000, "200 KB"}, {Size, 1000000, "100 MB"},
		{Rate, 0.4, "16 Gb/s"},
	} {
		s := Format(tc.q, b.Physical(tc.q, tc.eng))
		if s != tc.want {
			t.Errorf("%g: %q, want %q", tc.eng, s, tc.want)
		}
		c, err := b.Parse(tc.q, "f", s, "", false)
		if err != nil || math.Abs(c.Engine-tc.eng) > 1e-12 {
			t.Errorf("%q parses as %g, %v", s, c.Engine, err)
		}
	}
}

// FuzzConvert: any basis and engine value that the basis accepts converts
// to text and back to the same value; any text typed into a field either
// converts or is refused with an error naming the field.
func FuzzConvert(f *testing.F) {
	f.Add(40.0, 100, 5.0, int64(20), "400 ns", uint8(0))
	f.Add(0.001, 1048576, 0.0, int64(1)<<40, "1e300 KB", uint8(1))
	f.Add(100000.0, 1, 1000.0, int64(3), "0.4", uint8(2))
	f.Add(13.7, 77, 4.9, int64(99), "8 m", uint8(0))
	f.Fuzz(func(t *testing.T, gbps float64, phit int, nsm float64, eng int64, text string, qi uint8) {
		b := Basis{LinkGbps: gbps, PhitBytes: phit, CableNsPerMeter: nsm}
		if len(b.Check()) > 0 {
			return
		}
		q := Quantity(1 + int(qi)%3)
		if eng < 0 || eng > 1<<40 {
			eng %= 1 << 40
			if eng < 0 {
				eng = -eng
			}
		}
		s := Format(q, b.Physical(q, float64(eng)))
		c, err := b.Parse(q, "f", s, "", false)
		if q != Rate && (err != nil || c.Engine != float64(eng)) {
			t.Fatalf("%+v: %d %s is %q, parsed back as %g, %v", b, eng, q.EngineUnit(2), s, c.Engine, err)
		}
		if q == Rate && (err != nil || math.Abs(c.Engine-float64(eng)) > 1e-9*math.Max(1, float64(eng))) {
			t.Fatalf("%+v: rate %d is %q, parsed back as %g, %v", b, eng, s, c.Engine, err)
		}
		c, err = b.Parse(q, "f", text, "ns", true)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f = ") {
				t.Fatalf("%q: error %v does not name the field", text, err)
			}
			return
		}
		if math.IsNaN(c.Engine) || math.IsInf(c.Engine, 0) || (q != Rate && (c.Engine < 0 || c.Engine != math.Trunc(c.Engine) && math.IsNaN(c.Typed))) {
			// engine units typed as such may be fractional: the config's
			// own parser refuses those for int fields
			if math.IsNaN(c.Engine) || math.IsInf(c.Engine, 0) {
				t.Fatalf("%q: engine value %g", text, c.Engine)
			}
		}
	})
}
