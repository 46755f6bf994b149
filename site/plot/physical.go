package plot

import (
	"encoding/json"
	"strings"

	"phitsim/engine/units"
)

// Charts in physical units. When every series of the experiment has the
// same physical basis (experiment.(*Experiment).Basis: the config's
// physical section), each chart is still built in the engine's units and
// then converted as a whole by its axes: an axis whose name gives its unit
// in parentheses — "(cycles", "(phits", "(phits/node/cycle" — shows µs, KB
// or Gb/s per node instead (units.Basis: a cycle is 8·phitBytes/linkGbps
// ns, a load of 1 phit/(node·cycle) is the link rate). Everything placed on
// such an axis converts with it: the data, the CI half-widths (dimensions
// named "±…"), mark lines, areas and points, the axis bounds. The value in
// the engine's unit stays in the tooltip, as a dimension named by the
// axis's original name. No chart converts a value itself, so a chart added
// later with such an axis is in physical units too.

// axisScale is one value axis shown in a physical unit.
type axisScale struct {
	k      float64 // physical value (µs, KB, Gb/s) per engine unit
	engine string  // the axis's name in the engine's unit, for the tooltip
}

// axisName is the (converted) name of an axis of the rendered options.
func axisName(list []any, i int) string {
	if i < len(list) {
		if am, ok := list[i].(map[string]any); ok {
			n, _ := am["name"].(string)
			return n
		}
	}
	return ""
}

// physicalUnit is the unit shown for a quantity and its size in the
// quantity's base unit (ns, bytes, Gb/s).
func physicalUnit(q units.Quantity) (name string, base float64) {
	switch q {
	case units.Time:
		return "µs", 1e3
	case units.Size:
		return "KB", 1e3 // 1,000 bytes, as package units
	case units.Rate:
		return "Gb/s per node", 1
	}
	return "", 0
}

// axisUnit reads an axis name's unit: the text after its first "(" up to
// ")", ";" or ",". ok is false when that unit has no physical quantity.
func axisUnit(name string) (q units.Quantity, at, end int, ok bool) {
	at = strings.Index(name, "(")
	if at < 0 {
		return units.None, 0, 0, false
	}
	end = at + 1 + strings.IndexAny(name[at+1:]+")", ");,")
	q = units.QuantityOf(strings.TrimSpace(name[at+1 : end]))
	return q, at, end, q != units.None
}

// physicalAxis converts one axis (a map of the rendered options) and
// returns its scale; nil when it stays in engine units (a category axis, a
// unit with no physical quantity).
func physicalAxis(ax map[string]any, b units.Basis) *axisScale {
	name, _ := ax["name"].(string)
	if t, _ := ax["type"].(string); t == "category" {
		return nil
	}
	q, at, end, ok := axisUnit(name)
	if !ok {
		return nil
	}
	shown, base := physicalUnit(q)
	s := &axisScale{k: b.Physical(q, 1) / base, engine: name}
	ax["name"] = name[:at+1] + shown + name[end:]
	for _, bound := range []string{"min", "max"} {
		if v, ok := ax[bound].(float64); ok {
			ax[bound] = num(v * s.k)
		}
	}
	return s
}

// scaleOf is the scale of a series' axis: axes[i], i from key (default 0).
func scaleOf(axes []*axisScale, sm map[string]any, key string) *axisScale {
	if i := axisIndex(sm, key); i < len(axes) {
		return axes[i]
	}
	return nil
}

func axisIndex(sm map[string]any, key string) int {
	if v, ok := sm[key].(float64); ok && v >= 0 {
		return int(v)
	}
	return 0
}

func (s *axisScale) conv(v any) any {
	if x, ok := v.(float64); ok && s != nil {
		return num(x * s.k)
	}
	return v // a category, or "-" for a gap
}

// convMark converts a mark line/area/point item: a map with xAxis, yAxis
// or coord, or a pair of them.
func convMark(item any, sx, sy *axisScale) {
	switch it := item.(type) {
	case []any:
		for _, e := range it {
			convMark(e, sx, sy)
		}
	case map[string]any:
		if v, ok := it["xAxis"]; ok {
			it["xAxis"] = sx.conv(v)
		}
		if v, ok := it["yAxis"]; ok {
			it["yAxis"] = sy.conv(v)
		}
		if c, ok := it["coord"].([]any); ok && len(c) == 2 {
			c[0], c[1] = sx.conv(c[0]), sy.conv(c[1])
		}
	}
}

// Physical converts a chart's options (JSON, built in engine units) to the
// basis b; a chart with no axis in cycles, phits or phits/node/cycle comes
// back unchanged.
func Physical(opt []byte, b units.Basis) []byte {
	var m map[string]any
	if err := json.Unmarshal(opt, &m); err != nil {
		return opt
	}
	axes := func(key string) ([]*axisScale, bool) {
		list, _ := m[key].([]any)
		out := make([]*axisScale, len(list))
		some := false
		for i, a := range list {
			if am, ok := a.(map[string]any); ok {
				out[i] = physicalAxis(am, b)
				some = some || out[i] != nil
			}
		}
		return out, some
	}
	xs, xok := axes("xAxis")
	ys, yok := axes("yAxis")
	if !xok && !yok {
		return opt
	}
	series, _ := m["series"].([]any)
	for _, s := range series {
		sm, ok := s.(map[string]any)
		if !ok {
			continue
		}
		yl, _ := m["yAxis"].([]any)
		physicalSeries(sm, scaleOf(xs, sm, "xAxisIndex"), scaleOf(ys, sm, "yAxisIndex"), axisName(yl, axisIndex(sm, "yAxisIndex")))
	}
	out, err := json.Marshal(m)
	if err != nil {
		return opt
	}
	return out
}

// physicalSeries converts one series' data and marks, and puts the engine
// values in its tooltip (yName: its y axis's name, for a series whose
// dimensions were not named).
func physicalSeries(sm map[string]any, sx, sy *axisScale, yName string) {
	if sx == nil && sy == nil {
		return
	}
	for _, k := range []string{"markLine", "markArea", "markPoint"} {
		if mk, ok := sm[k].(map[string]any); ok {
			if d, ok := mk["data"].([]any); ok {
				convMark(d, sx, sy)
			}
		}
	}
	data, _ := sm["data"].([]any)
	if len(data) == 0 {
		return
	}
	dims, named := sm["dimensions"].([]any)
	ci := map[int]bool{} // CI half-widths: in the unit of the y value
	for i, d := range dims {
		if n, _ := d.(string); strings.HasPrefix(n, "±") {
			ci[i] = true
		}
	}
	tip := true
	if t, ok := sm["tooltip"].(map[string]any); ok && t["show"] == false {
		tip = false
	}
	width := 0 // the values' dimensions before the engine values appended
	for i, d := range data {
		var v []any
		item, isMap := d.(map[string]any)
		switch x := d.(type) {
		case map[string]any:
			switch y := x["value"].(type) {
			case []any:
				v = y
			case float64: // a bar on a category axis: its y value alone
				v = []any{float64(i), y}
			}
		case []any:
			v = x
		case float64:
			v = []any{float64(i), x}
		}
		if len(v) < 2 {
			continue
		}
		width = max(width, len(v))
		engine := []any{}
		if sy != nil {
			engine = append(engine, v[1])
		}
		if sx != nil {
			engine = append(engine, v[0])
		}
		v[0], v[1] = sx.conv(v[0]), sy.conv(v[1])
		for j := range v {
			if ci[j] {
				v[j] = sy.conv(v[j])
			}
		}
		if tip {
			v = append(v, engine...)
		}
		if isMap {
			item["value"] = v
		} else {
			data[i] = v
		}
	}
	if !tip || width == 0 {
		return
	}
	// the tooltip: the series' own dimensions, then the engine values
	if !named {
		dims = []any{"x", yName}
		sm["encode"] = map[string]any{"x": 0, "y": 1, "tooltip": []any{1}}
	}
	for len(dims) < width {
		dims = append(dims, "")
	}
	enc, _ := sm["encode"].(map[string]any)
	if enc == nil {
		enc = map[string]any{"x": 0, "y": 1, "tooltip": []any{1}}
		sm["encode"] = enc
	}
	tips, _ := enc["tooltip"].([]any)
	for _, s := range []*axisScale{sy, sx} {
		if s != nil {
			tips = append(tips, float64(len(dims)))
			dims = append(dims, s.engine)
		}
	}
	enc["tooltip"] = tips
	sm["dimensions"] = dims
}
