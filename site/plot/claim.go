package plot

import (
	"encoding/json"
	"fmt"

	"phitsim/engine/figures"
)

// ClaimColor is the claim's marks' colour: near-black, apart from every
// series colour for all readers (TestClaimColorApartUnderDeuteranopia:
// the dark grey #444444 was ΔE 6 from the wine #882255 for a deuteranope).
const ClaimColor = "#111111"

// claimShade fills a claim's band.
const claimShade = "rgba(17,17,17,0.12)"

// ClaimLabel is the text of a figure's claim on its chart.
func ClaimLabel(f figures.Figure) string {
	c := f.Claim
	switch c.Kind {
	case figures.Band:
		return fmt.Sprintf("claim: %s%s in [%.3g, %.3g] at %g", c.Series, metricSuffix(c), c.Lo, c.Hi, c.Load)
	case figures.Order:
		return fmt.Sprintf("claim: %s%s ≥ %.3g × %s at %g", c.Series, metricSuffix(c), c.Factor, c.Over, c.Load)
	case figures.Ratio:
		if c.Window != [2]float64{} {
			return fmt.Sprintf("claim: %s ÷ %s%s in [%.3g, %.3g] over %g–%g cycles from %s", c.Series, c.Over, metricSuffix(c), c.Lo, c.Hi, c.Window[0], c.Window[1], origin(c))
		}
		return fmt.Sprintf("claim: %s ÷ %s%s in [%.3g, %.3g] at %g", c.Series, c.Over, metricSuffix(c), c.Lo, c.Hi, c.Load)
	case figures.Settle:
		if c.Lo > 0 {
			return fmt.Sprintf("claim: %s%s after %g–%g cycles", c.Series, metricSuffix(c), c.Lo, c.Hi)
		}
		return fmt.Sprintf("claim: %s%s within %g cycles", c.Series, metricSuffix(c), c.Hi)
	case figures.Period:
		return fmt.Sprintf("claim: %s%s period in [%g, %g] cycles over %g–%g cycles from the switch", c.Series, metricSuffix(c), c.Lo, c.Hi, c.Window[0], c.Window[1])
	case figures.Window:
		unit := "cycles from the switch"
		if c.Metric == figures.BytesPerNs {
			unit = "µs"
		}
		return fmt.Sprintf("claim: %s%s in [%.3g, %.3g] over %g–%g %s", c.Series, metricSuffix(c), c.Lo, c.Hi, c.Window[0], c.Window[1], unit)
	}
	return "claim: " + f.ClaimText
}

// origin is what a claim's cycles count from: a hotspot's start
// (figures.BgLatency), else the switch.
func origin(c figures.Claim) string {
	if c.Metric == figures.BgLatency {
		return "the hotspot's start"
	}
	return "the switch"
}

// metricSuffix names a claim's metric when it is not the accepted load.
func metricSuffix(c figures.Claim) string {
	switch {
	case c.Metric == figures.Accepted:
		return ""
	case c.Kind != figures.Settle:
		return " " + c.Metric
	case c.Metric == figures.LevelUp:
		return " group 0 all up"
	case c.Metric == figures.LevelDown:
		return " group 0 all down"
	}
	return " " + c.Metric + " settles"
}

// ClaimChart is chart name of in as Some builds it (in the engine's units,
// then in the physical basis when the series share one), with figure f's
// claim drawn on it when the claim is read there (f.Claim.Chart()): the
// claim is drawn in the engine's units and converted with the chart. Once
// every run has finished, a claim read on its seeds as independent
// replications (Verdict, figures.Replicated) shows its interval there
// (WithReplicated).
func ClaimChart(in Input, name string, f figures.Figure) []byte {
	b, ok := Builders[name]
	if !ok {
		return nil
	}
	opt := safe(name, b, in)
	if name == f.Claim.Chart() {
		opt = WithClaim(opt, f)
		if m, ok := Verdict(f, in.Results); ok {
			opt = WithReplicated(opt, f, m)
		}
	}
	if basis, phys := basis(in); phys {
		opt = Physical(opt, basis)
	}
	return opt
}

// WithClaim draws figure f's claim, in the engine's units, on the chart it
// is read on (f.Claim.Chart()'s option), as one legend entry named by the
// claim:
//   - a chart against the offered load (accepted, latency, background): a
//     labelled vertical line at the load where the claim is read and, for a
//     band, the shaded band between its bounds;
//   - RECN's SAQ lines over the run: the band of a SAQ claim, on the
//     right axis for the whole network's lines;
//   - a chart of one point (per-router injection, bandwidth per sender): the
//     band across the bars (the least router's share times the offered
//     load); a Max/Min band, the values the least router's bar must take
//     for it, from the series' highest bar (only its legend entry before
//     there are bars);
//   - a transient chart (against the cycle from the switch, which the chart
//     marks): a Settle claim shades the cycles [Lo, Hi] in which the time
//     must fall, with a line at Hi; a Window claim shades the window between
//     its bounds; a Period claim, and a Ratio of two curves over a window,
//     shade the window they are read over, named by their bounds;
//   - the time series of a run: a bytes/ns Window claim shades the window
//     between its bounds, both in the engine's units (cycles of the run,
//     phits/(node·cycle)), which the physical basis shows as µs and Gb/s
//     per node.
func WithClaim(opt []byte, f figures.Figure) []byte {
	var m map[string]any
	if err := json.Unmarshal(opt, &m); err != nil {
		return opt
	}
	c := f.Claim
	label := ClaimLabel(f)
	s := map[string]any{"name": label, "type": "line", "data": []any{}, "silent": true,
		"itemStyle": map[string]any{"color": ClaimColor}, "tooltip": map[string]any{"show": false}}
	line := func(x float64) {
		s["markLine"] = map[string]any{"symbol": []string{"none", "none"}, "silent": true,
			"lineStyle": map[string]any{"color": ClaimColor, "type": "dashed", "width": 1.5},
			"data": []any{map[string]any{"xAxis": x, "name": label,
				"label": map[string]any{"show": true, "formatter": label, "position": "insideEndTop"}}}}
	}
	area := func(from, to map[string]any, name string) {
		from["name"] = name
		s["markArea"] = map[string]any{"silent": true,
			"itemStyle": map[string]any{"color": claimShade},
			"label":     map[string]any{"show": true, "position": "insideTopLeft", "color": ClaimColor},
			"data":      []any{[]any{from, to}}}
	}
	band := fmt.Sprintf("%s band [%.3g, %.3g]", c.Series, c.Lo, c.Hi)
	switch chart := c.Chart(); {
	case c.PerLoad():
		line(c.Load)
		if c.Kind == figures.Band {
			area(map[string]any{"yAxis": c.Lo}, map[string]any{"yAxis": c.Hi}, band)
		}
	case chart == figures.ChartFairness:
		if c.Metric == figures.MinShare && c.Kind == figures.Band {
			area(map[string]any{"yAxis": c.Lo * c.Load}, map[string]any{"yAxis": c.Hi * c.Load},
				fmt.Sprintf("least router: [%.3g, %.3g] × offered %g", c.Lo, c.Hi, c.Load))
		}
		if top, ok := barsMax(m, c.Series); ok && c.Metric == figures.MaxMin && c.Kind == figures.Band && c.Lo > 0 && c.Hi > 0 {
			// Max/Min in [Lo, Hi] puts the least router's bar between
			// top/Hi and top/Lo, top being the series' highest bar
			area(map[string]any{"yAxis": top / c.Hi}, map[string]any{"yAxis": top / c.Lo},
				fmt.Sprintf("least router for Max/Min in [%.3g, %.3g]", c.Lo, c.Hi))
		}
	case chart == figures.ChartSenders:
		if c.Kind == figures.Band {
			area(map[string]any{"yAxis": c.Lo}, map[string]any{"yAxis": c.Hi}, band)
		}
	case chart == figures.ChartRECNSAQ:
		// the lines per side on the left axis, the network's on the right
		if c.Metric == figures.SAQTotal {
			s["yAxisIndex"] = 1
		}
		area(map[string]any{"yAxis": c.Lo}, map[string]any{"yAxis": c.Hi}, band)
	case chart == figures.ChartTimeSeries:
		x0, y0, x1, y1, err := engineWindow(f)
		if err != nil {
			return opt
		}
		area(map[string]any{"xAxis": x0, "yAxis": y0}, map[string]any{"xAxis": x1, "yAxis": y1}, band)
	case c.Kind == figures.Settle:
		line(c.Hi)
		area(map[string]any{"xAxis": c.Lo}, map[string]any{"xAxis": c.Hi}, "claim's time")
	case c.Kind == figures.Ratio:
		// two transient curves compared over a window: the window
		area(map[string]any{"xAxis": c.Window[0]}, map[string]any{"xAxis": c.Window[1]},
			fmt.Sprintf("%s ÷ %s in [%.3g, %.3g] here", c.Series, c.Over, c.Lo, c.Hi))
	case c.Kind == figures.Period:
		// the window the period is read over (a lag has no place on the
		// time axis): the curve's swings inside it should repeat every
		// Lo–Hi cycles
		area(map[string]any{"xAxis": c.Window[0]}, map[string]any{"xAxis": c.Window[1]},
			fmt.Sprintf("%s's swings repeat every %g–%g cycles here", c.Series, c.Lo, c.Hi))
	case c.Kind == figures.Window:
		area(map[string]any{"xAxis": c.Window[0], "yAxis": c.Lo}, map[string]any{"xAxis": c.Window[1], "yAxis": c.Hi}, band)
	}
	series, _ := m["series"].([]any)
	m["series"] = append(series, s)
	out, err := json.Marshal(m)
	if err != nil {
		return opt
	}
	return out
}

// barsMax is the highest bar of the bar series named name in a chart's
// option (false when the chart has no such series or no bars).
func barsMax(m map[string]any, name string) (float64, bool) {
	series, _ := m["series"].([]any)
	for _, x := range series {
		s, _ := x.(map[string]any)
		if s["name"] != name {
			continue
		}
		data, _ := s["data"].([]any)
		top, ok := 0.0, false
		for _, d := range data {
			v := d
			if dm, isMap := d.(map[string]any); isMap {
				v = dm["value"]
			}
			if f, isNum := v.(float64); isNum && (!ok || f > top) {
				top, ok = f, true
			}
		}
		return top, ok && top > 0
	}
	return 0, false
}

// engineWindow is a bytes/ns Window claim's rectangle in the time series'
// engine units: cycles of the run (µs × 1,000 ÷ the cycle's ns) and
// phits/(node·cycle) (bytes/ns × the cycle's ns ÷ (nodes × phit bytes)),
// from the figure's experiment's first series.
func engineWindow(f figures.Figure) (x0, y0, x1, y1 float64, err error) {
	e, err := f.Sweep()
	if err != nil {
		return
	}
	if len(e.Spec.Series) == 0 {
		return 0, 0, 0, 0, fmt.Errorf("figure %s: no series", f.ID)
	}
	cfg := e.Spec.Series[0]
	b, ok := cfg.Basis()
	sz, ok2 := cfg.Topology.Sizes()
	if !ok || !ok2 {
		return 0, 0, 0, 0, fmt.Errorf("figure %s: a bytes/ns claim needs the physical basis and a valid topology", f.ID)
	}
	ns := b.CycleNs()
	perLoad := ns / (float64(sz.Nodes) * float64(b.PhitBytes))
	c := f.Claim
	return c.Window[0] * 1e3 / ns, c.Lo * perLoad, c.Window[1] * 1e3 / ns, c.Hi * perLoad, nil
}
