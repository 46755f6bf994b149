package plot

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// values reads a data item as its value array (a bar's scalar is [i, y]).
func values(d any, i int) []any {
	switch x := d.(type) {
	case map[string]any:
		switch v := x["value"].(type) {
		case []any:
			return v
		case float64:
			return []any{float64(i), v}
		}
	case []any:
		return x
	case float64:
		return []any{float64(i), x}
	}
	return nil
}

func near(a, b any, k float64) bool {
	x, ok1 := a.(float64)
	y, ok2 := b.(float64)
	if !ok1 || !ok2 {
		return a == b
	}
	return math.Abs(x-y*k) <= 1e-5*math.Max(1e-9, math.Abs(y*k))
}

func axes(m map[string]any, k string) []map[string]any {
	var out []map[string]any
	switch v := m[k].(type) {
	case []any:
		for _, a := range v {
			out = append(out, a.(map[string]any))
		}
	case map[string]any:
		out = append(out, v)
	}
	return out
}

// scaleFor is the factor of an axis named in engine units at 40 Gb/s with
// 100-byte phits (20-ns cycles): cycles → µs ×0.02, phits/node/cycle →
// Gb/s per node ×40; and the unit it must then name.
func scaleFor(name string) (float64, string) {
	switch {
	case strings.Contains(name, "(cycles"):
		return 0.02, "(µs"
	case strings.Contains(name, "(phits/node/cycle"):
		return 40, "(Gb/s per node"
	}
	return 1, ""
}

// TestChartsInPhysicalUnits: the QCN-Switch paper's results are in µs and
// Gb/s per node (Benito et al., §4.1, Table I: 40 Gb/s links); with a
// physical basis (40 Gb/s, 100-byte phits: 20-ns cycles) every chart of a
// switching experiment on h=2 (OLM and PB, UN → ADV+1: the curves, the
// point charts and thesis §4.3.2's transients) shows its latency and time
// axes in µs and its loads in Gb/s per node: every value, whisker and mark
// on such an axis is the engine chart's × 0.02 or × 40, the engine value
// stays in the tooltip, and every other axis is untouched. Without a basis
// the charts are the builders' own, byte for byte.
func TestChartsInPhysicalUnits(t *testing.T) {
	e := transientExp()
	for i := range e.Series {
		e.Series[i].Physical = config.Physical{LinkGbps: 40, PhitBytes: 100}
	}
	r := runJobs(t, e, nil)
	plain := *r
	plain.Exp.Series = slices.Clone(r.Exp.Series)
	for i := range plain.Exp.Series {
		plain.Exp.Series[i].Physical = config.Physical{}
	}
	names := Visible(&e, r)
	phys := Some(Input{Results: r}, names)
	eng := Some(Input{Results: &plain}, names)
	for _, n := range names {
		if b := Builders[n](Input{Results: &plain}); !bytes.Equal(b, eng[n]) {
			t.Errorf("%s: without a basis the chart is not the builder's", n)
		}
	}
	converted := map[string]bool{}
	for _, n := range names {
		pm, em := rawOption(t, phys[n]), rawOption(t, eng[n])
		var kx, ky []float64
		for _, ax := range []string{"xAxis", "yAxis"} {
			pa, ea := axes(pm, ax), axes(em, ax)
			for i := range ea {
				en, _ := ea[i]["name"].(string)
				pn, _ := pa[i]["name"].(string)
				k, unit := scaleFor(en)
				if ea[i]["type"] == "category" {
					k, unit = 1, ""
				}
				if unit == "" && pn != en || unit != "" && !strings.Contains(pn, unit) {
					t.Errorf("%s: %s %d named %q in physical units (engine %q)", n, ax, i, pn, en)
				}
				if unit != "" {
					converted[n+" "+ax] = true
				}
				if ax == "xAxis" {
					kx = append(kx, k)
				} else {
					ky = append(ky, k)
				}
			}
		}
		ps, _ := pm["series"].([]any)
		es, _ := em["series"].([]any)
		if len(ps) != len(es) {
			t.Fatalf("%s: %d series, engine chart %d", n, len(ps), len(es))
		}
		for si := range es {
			p, e := ps[si].(map[string]any), es[si].(map[string]any)
			sx, sy := kx[axisIndex(e, "xAxisIndex")], ky[axisIndex(e, "yAxisIndex")]
			pd, _ := p["data"].([]any)
			ed, _ := e["data"].([]any)
			dims, _ := p["dimensions"].([]any)
			tip := !(e["tooltip"] != nil && e["tooltip"].(map[string]any)["show"] == false)
			for i := range ed {
				ev, pv := values(ed[i], i), values(pd[i], i)
				if len(ev) < 2 {
					continue
				}
				ci := len(dims) > 2 && strings.HasPrefix(dims[2].(string), "±") // a half-width, in y's unit
				if !near(pv[0], ev[0], sx) || !near(pv[1], ev[1], sy) || ci && !near(pv[2], ev[2], sy) {
					t.Fatalf("%s series %q point %d: %v, engine %v (×%g, ×%g)", n, e["name"], i, pv, ev, sx, sy)
				}
				if tip && (sx != 1 || sy != 1) {
					// the engine values follow, named by the engine axes
					want := []any{}
					if sy != 1 {
						want = append(want, ev[1])
					}
					if sx != 1 {
						want = append(want, ev[0])
					}
					if got := pv[len(pv)-len(want):]; !slices.EqualFunc(got, want, func(a, b any) bool { return near(a, b, 1) }) ||
						len(dims) != len(pv) || !strings.Contains(dims[len(dims)-1].(string), "(") {
						t.Fatalf("%s series %q point %d: %v with dimensions %v: the engine values %v not in the tooltip", n, e["name"], i, pv, dims, want)
					}
				}
			}
			for _, mk := range []string{"markLine", "markPoint"} {
				pmk, _ := p[mk].(map[string]any)
				emk, _ := e[mk].(map[string]any)
				if emk == nil {
					continue
				}
				checkMarks(t, n, pmk["data"], emk["data"], sx, sy)
			}
		}
	}
	for _, want := range []string{"accepted xAxis", "accepted yAxis", "latency yAxis", "fairness yAxis", "histogram xAxis",
		"timeseries xAxis", "timeseries yAxis", "transientlatency xAxis", "transientlatency yAxis", "transientmisrouted xAxis", "nonminimal xAxis"} {
		if !converted[want] {
			t.Errorf("%s not in physical units", want)
		}
	}
	// the time series' warm-up mark: 1,000 cycles = 20 µs
	ts := rawOption(t, phys["timeseries"])
	ml := ts["series"].([]any)[0].(map[string]any)["markLine"].(map[string]any)["data"].([]any)
	if x := ml[0].(map[string]any)["xAxis"]; x != 20.0 {
		t.Errorf("warm-up mark at %v µs, want 20", x)
	}
	lat := decode(t, "latency", phys["latency"])
	if lat.YAxis[0].Name != "average latency (µs)" || lat.XAxis[0].Name != "offered load (Gb/s per node)" ||
		!slices.Contains(lat.Series[0].Dimensions, "average latency (cycles)") || !strings.HasPrefix(lat.Series[0].Dimensions[2], "±95% CI") {
		t.Errorf("latency chart: axes %q, %q, dimensions %q", lat.XAxis[0].Name, lat.YAxis[0].Name, lat.Series[0].Dimensions)
	}
	if !strings.Contains(decode(t, "histogram", phys["histogram"]).Title[0].Text, "offered load 0.3 (12 Gb/s)") {
		t.Errorf("the point's label has no Gb/s")
	}
}

// checkMarks compares mark items (maps with xAxis/yAxis/coord, or pairs).
func checkMarks(t *testing.T, n string, p, e any, sx, sy float64) {
	t.Helper()
	switch ev := e.(type) {
	case []any:
		pv := p.([]any)
		for i := range ev {
			checkMarks(t, n, pv[i], ev[i], sx, sy)
		}
	case map[string]any:
		pv := p.(map[string]any)
		ok := near(pv["xAxis"], ev["xAxis"], sx) && near(pv["yAxis"], ev["yAxis"], sy)
		if c, has := ev["coord"].([]any); has {
			pc := pv["coord"].([]any)
			ok = ok && near(pc[0], c[0], sx) && near(pc[1], c[1], sy)
		}
		if !ok {
			t.Errorf("%s: mark %v, engine %v (×%g, ×%g)", n, pv, ev, sx, sy)
		}
	}
}
