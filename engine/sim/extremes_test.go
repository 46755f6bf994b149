package sim

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// Every parameter at the edges of its declaration, on every preset: what
// validates must run a few hundred cycles within its memory estimate, with a
// result that JSON can hold (no NaN or infinity); what does not validate is
// refused with errors that name declared parameters.

const (
	extremeCycles = 250      // cycles each accepted configuration runs
	extremeBudget = 96 << 20 // estimates above this are checked, not run
)

// extremes lists the values at the edges of a parameter's declaration: its
// minimum and maximum, every allowed value, or both booleans.
func extremes(p config.Param) []string {
	switch p.Kind {
	case "bool":
		return []string{"false", "true"}
	case "string":
		if p.Enum != nil {
			return p.Enum
		}
		return []string{"", strings.Repeat("x", 200)}
	case "uint":
		return []string{"0", strconv.FormatUint(math.MaxUint64, 10)}
	}
	var out []string
	for _, b := range []*float64{p.Min, p.Max} {
		if b != nil {
			out = append(out, strconv.FormatFloat(*b, 'f', -1, 64))
		}
	}
	return out
}

// cheap gives a preset the 72-node network of h=2 when it is larger: the
// extremes of the other parameters do not need a large network to show.
func cheap(c config.Config) config.Config {
	if c.Topology.H > 2 {
		c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	}
	return c
}

// runExtreme checks one configuration: refused with named errors, or run
// for a few hundred cycles within its estimate with a finite result. It
// returns whether it ran.
func runExtreme(t testing.TB, c config.Config, what string) (ran bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", what, r)
		}
	}()
	if errs := c.Validate(); len(errs) > 0 {
		for _, e := range errs {
			if _, ok := config.Lookup(e.Path); !ok && e.Path != "topology" {
				t.Errorf("%s: error on %q, not a declared parameter: %v", what, e.Path, e)
			}
			if e.Msg == "" {
				t.Errorf("%s: error on %s without a message", what, e.Path)
			}
		}
		return false
	}
	est := c.StateBytes()
	if est <= 0 || est > config.MaxStateBytes {
		t.Errorf("%s: validates with an estimate of %d bytes", what, est)
		return false
	}
	if est > extremeBudget {
		return false
	}
	got, res, err := measureRun(t, c, extremeCycles)
	if err != nil {
		t.Errorf("%s: the result cannot be written: %v", what, err)
	}
	if got > uint64(est) {
		t.Errorf("%s: allocated %d bytes, estimate %d", what, got, est)
	}
	if bad := nonFinite(reflect.ValueOf(res).Elem(), "result"); bad != "" {
		t.Errorf("%s: %s", what, bad)
	}
	return true
}

// nonFinite names the first float of v that is NaN or infinite ("" if none):
// a result must survive JSON, which has neither.
func nonFinite(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprintf("%s = %v", path, x)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return nonFinite(v.Elem(), path)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if s := nonFinite(v.Field(i), path+"."+v.Type().Field(i).Name); s != "" {
				return s
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if s := nonFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); s != "" {
				return s
			}
		}
	case reflect.Map: // the mechanisms' reports
		for _, k := range v.MapKeys() {
			if s := nonFinite(v.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); s != "" {
				return s
			}
		}
	}
	return ""
}

// TestEveryParameterAtItsExtremesOnEveryPreset walks every preset × every
// parameter × each of its extreme values (plus every parameter at its
// minimum, and at its maximum, at once).
func TestEveryParameterAtItsExtremesOnEveryPreset(t *testing.T) {
	if testing.Short() {
		t.Skip("walks every preset × parameter × extreme")
	}
	var ran, refused, large int
	for _, pr := range config.Presets() {
		base := cheap(pr.Config)
		for _, p := range config.Params() {
			for _, v := range extremes(p) {
				c := base
				if err := p.SetString(&c, v); err != nil {
					t.Fatalf("%s %s=%s: %v", pr.Name, p.Path, v, err)
				}
				if c == base {
					continue // the preset's own value
				}
				if !p.Applies(&c) {
					// it changes nothing the simulator reads: validate only
					if errs := c.Validate(); len(errs) > 0 {
						t.Errorf("%s %s=%s, which does not apply: %v", pr.Name, p.Path, v, errs)
					}
					continue
				}
				switch {
				case runExtreme(t, c, fmt.Sprintf("%s %s=%s", pr.Name, p.Path, v)):
					ran++
				case len(c.Validate()) > 0:
					refused++
				default:
					large++
					if testing.Verbose() {
						t.Logf("%s %s=%s: estimate %d MiB", pr.Name, p.Path, v, c.StateBytes()>>20)
					}
				}
			}
		}
		for i, name := range []string{"minimum", "maximum"} {
			c := base
			for _, p := range config.Params() {
				if x := extremes(p); p.Kind != "string" && p.Kind != "bool" && len(x) == 2 {
					_ = p.SetString(&c, x[i])
				}
			}
			runExtreme(t, c, pr.Name+": every number at its "+name)
		}
	}
	t.Logf("%d configurations ran, %d refused, %d validated above %d MiB (estimate checked only)", ran, refused, large, extremeBudget>>20)
}

// FuzzExtremes sets parameters of a preset to the edges of their
// declarations, as many and in the combination the fuzzer picks (each pair
// of bytes: a parameter, and which of its extreme values): whatever
// validates runs a few hundred cycles within its estimate with a finite
// result; the rest is refused with errors naming declared parameters.
func FuzzExtremes(f *testing.F) {
	params := config.Params()
	presets := config.Presets()
	for i := range presets {
		f.Add(uint8(i), []byte{})
	}
	index := func(path string) byte {
		for i, p := range params {
			if p.Path == path {
				return byte(i)
			}
		}
		f.Fatalf("no parameter %s", path)
		return 0
	}
	// configurations that used to validate and then crash or lose their result, each as a combination of extremes
	f.Add(uint8(11), []byte{index("workload.phitBytes"), 0, index("workload.linkGbps"), 1, index("workload.queryBytes"), 0,
		index("workload.localNs"), 1, index("workload.globalNs"), 1, index("workload.routerNs"), 1})
	f.Add(uint8(12), []byte{index("sim.interval"), 0})
	f.Add(uint8(0), []byte{index("routing.name"), 4, index("topology.localLatency"), 1})
	f.Add(uint8(11), []byte{index("workload.tq"), 0})
	f.Fuzz(func(t *testing.T, preset uint8, picks []byte) {
		pr := presets[int(preset)%len(presets)]
		c := cheap(pr.Config)
		what := pr.Name
		for i := 0; i+1 < len(picks); i += 2 {
			p := params[int(picks[i])%len(params)]
			x := extremes(p)
			if len(x) == 0 {
				continue
			}
			v := x[int(picks[i+1])%len(x)]
			if err := p.SetString(&c, v); err != nil {
				t.Fatalf("%s=%s: %v", p.Path, v, err)
			}
			what += fmt.Sprintf(" %s=%s", p.Path, v)
		}
		runExtreme(t, c, what)
	})
}

// Regressions, at the simulator's door: sim.New validates what it will run,
// so the configurations that once died in it (a fatal out-of-memory error no
// recover catches) are refused with an error naming the parameter.
func TestNewRefusesWhatItCannotAllocate(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		edit       func(*config.Config)
	}{
		{"graph500-h2, 1-byte phits at 100,000 Gb/s, 10⁶-ns latencies (824 GB)", "workload.localNs", func(c *config.Config) {
			*c, _ = config.PresetByName("graph500-h2")
			c.Workload.PhitBytes, c.Workload.LinkGbps, c.Workload.QueryBytes = 1, 100000, 1
			c.Workload.LocalNs, c.Workload.GlobalNs, c.Workload.RouterNs = 1e6, 1e6, 1e6
		}},
		{"graph500-h2-val, sim.interval=2 (0.75 GiB of counters)", "sim.interval", func(c *config.Config) {
			*c, _ = config.PresetByName("graph500-h2-val")
			c.Sim.Interval = 2
		}},
		{"PB on 8,224 routers, localLatency 100,000 (6.6 GB of saturation bits)", "topology.localLatency", func(c *config.Config) {
			*c, _ = config.PresetByName("h8")
			c.Topology.A, c.Routing.Name, c.Topology.LocalLatency = 32, "PB", 100000
		}},
	} {
		c := config.Default()
		tc.edit(&c)
		_, err := New(c, 1)
		var errs config.Errors
		if !errors.As(err, &errs) || len(errs) == 0 || errs[0].Path != tc.path {
			t.Errorf("%s: %v, want an error on %s", tc.name, err, tc.path)
		}
	}
}
