package plot

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"phitsim/engine/figures"
	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// Verdict is figure f's claim read on the finished runs r by
// figures.Figure.Check, the function `phitsim figures -check` calls (the
// page does not read claims its own way): ok false until every run has
// finished, or when the check fails (a run missing, a failed job).
func Verdict(f figures.Figure, r *experiment.Results) (m figures.Measured, ok bool) {
	if r == nil || len(r.Jobs) == 0 || r.Done() < len(r.Jobs) {
		return m, false
	}
	m, err := f.Check(r.Outcome())
	return m, err == nil
}

// ReplicatedSymbol marks a point whose claim is read on its seeds as
// independent replications (figures.Replicated), in place of the hollow
// circle of a "too short" point: a filled square, apart from the curves'
// circles, the saturated triangle and the unstable diamond by its shape
// alone (no colour needed).
const ReplicatedSymbol = "rect"

// ReplicatedLegend is the legend entry of a replicated claim's marks: m's
// seeds and what the bar shows.
func ReplicatedLegend(m figures.Measured) string {
	return fmt.Sprintf("■ read on %d seeds as independent replications: mean ± 95%% interval", m.Seeds)
}

// ReplicatedNote is the verdict in words of a point a replicated claim is
// read on (its tooltip and its quality-table evidence).
func ReplicatedNote(m figures.Measured) string {
	return fmt.Sprintf("replicated: read on %d seeds as independent replications: mean ± 95%% interval (Student t over the seeds; each run alone is too short to give its own interval): %s — %s",
		m.Seeds, m.Text, holds(m.Pass))
}

func holds(pass bool) string {
	if pass {
		return "the claim holds (its whole interval within the tolerance)"
	}
	return "the claim does not hold (its interval leaves the tolerance)"
}

// replicatedSeries are the series a replicated claim is read on: Series,
// and Over for an Order or Ratio (paired by seed).
func replicatedSeries(c figures.Claim) []string {
	if c.Kind == figures.Order || c.Kind == figures.Ratio {
		return []string{c.Series, c.Over}
	}
	return []string{c.Series}
}

// WithReplicated shows a replicated claim (m.Verdict figures.Replicated,
// from Verdict) on the chart it is read on, after WithClaim drew the
// claim:
//   - on a chart against the offered load, the points it is read on
//     (Series, and Over for an Order or Ratio) at the claim's load become
//     ReplicatedSymbol instead of the "too short" hollow circle, their
//     tooltip says how the claim was read (ReplicatedNote), and the "too
//     short" legend entry goes when no point keeps its circle;
//   - a legend entry (ReplicatedLegend) whose series carries the interval
//     in the chart's units: a solid bar at the claim's load from mean −
//     95% to mean + 95% (a Band, the metric's own values; an Order or a
//     Ratio, the interval of Series ÷ Over times Over's mean at the load)
//     with the tolerance beside it as short dashed ticks (a Band's bounds
//     are the shaded band WithClaim draws);
//   - on the per-router injection (a Max/Min band), the least router's
//     bar the interval of Max/Min allows, from the series' highest bar,
//     as two solid lines inside the tolerance's shaded band.
//
// Any other verdict leaves opt as it is.
func WithReplicated(opt []byte, f figures.Figure, m figures.Measured) []byte {
	if m.Verdict != figures.Replicated {
		return opt
	}
	var o map[string]any
	if err := json.Unmarshal(opt, &o); err != nil {
		return opt
	}
	c := f.Claim
	series, _ := o["series"].([]any)
	lo, hi := m.Value-m.CI95, m.Value+m.CI95
	label := fmt.Sprintf("%s %.4g ± %.2g (%d seeds)", replicatedName(c), m.Value, m.CI95, m.Seeds)
	if c.Kind != figures.Band {
		// the series' names are in the claim's line and the tooltip
		label = fmt.Sprintf("%s ratio %.4g ± %.2g (%d seeds), drawn × %s", replicatedName(c), m.Value, m.CI95, m.Seeds, c.Over)
	}
	solid := map[string]any{"color": ClaimColor, "type": "solid", "width": 3}
	dashed := map[string]any{"color": ClaimColor, "type": "dashed", "width": 1.5}
	var marks []any
	switch {
	case c.PerLoad():
		note := ReplicatedNote(m)
		scale := 1.0
		if c.Kind != figures.Band {
			b, ok := pointY(series, c.Over, c.Load)
			if !ok || !(b > 0) {
				return opt
			}
			scale = b
		}
		for _, name := range replicatedSeries(c) {
			markReplicated(series, name, c.Load, note)
		}
		bar := []map[string]any{{"coord": []any{num(c.Load), num(lo * scale)}, "name": label,
			"label": map[string]any{"show": true, "formatter": label, "position": "end", "color": ClaimColor}},
			{"coord": []any{num(c.Load), num(hi * scale)}}}
		marks = append(marks, bar)
		if c.Kind != figures.Band {
			// the tolerance in the chart's units, ticks across the bar
			w := tickWidth(o, c.Load)
			tick := func(y float64, name string) {
				marks = append(marks, []map[string]any{{"coord": []any{num(c.Load - w), num(y * scale)}, "name": name, "lineStyle": dashed,
					"label": map[string]any{"show": true, "formatter": name, "position": "end", "color": ClaimColor}},
					{"coord": []any{num(c.Load + w), num(y * scale)}}})
			}
			if c.Kind == figures.Ratio {
				tick(c.Lo, fmt.Sprintf("claim ≥ %.3g×", c.Lo))
				tick(c.Hi, fmt.Sprintf("claim ≤ %.3g×", c.Hi))
			} else {
				tick(c.Factor, fmt.Sprintf("claim ≥ %.3g×", c.Factor))
			}
		}
		if !hasSymbol(series, verdictSymbol[result.TooShort]) {
			series = dropNamed(series, tooShortLegend)
		}
	case c.Chart() == figures.ChartFairness && c.Metric == figures.MaxMin && c.Kind == figures.Band && lo > 0:
		top, ok := barsMax(o, c.Series)
		if !ok {
			return opt
		}
		for _, y := range []float64{top / hi, top / lo} {
			marks = append(marks, map[string]any{"yAxis": num(y), "name": label,
				"label": map[string]any{"show": true, "formatter": label + ": least router", "position": "insideEndBottom", "color": ClaimColor}})
		}
	default:
		return opt
	}
	s := map[string]any{"name": ReplicatedLegend(m), "type": "line", "data": []any{}, "silent": true,
		"symbol": ReplicatedSymbol, "itemStyle": map[string]any{"color": ClaimColor},
		"lineStyle": map[string]any{"opacity": 0}, "tooltip": map[string]any{"show": false},
		"markLine": map[string]any{"symbol": []string{"none", "none"}, "silent": true, "lineStyle": solid, "data": marks}}
	o["series"] = append(series, s)
	out, err := json.Marshal(o)
	if err != nil {
		return opt
	}
	return out
}

// replicatedName is what a replicated claim's interval is of: a Band's
// series and metric, an Order's or Ratio's metric.
func replicatedName(c figures.Claim) string {
	what := c.Metric
	if what == "" {
		what = figures.Accepted
	}
	if c.Kind == figures.Band {
		return c.Series + " " + what
	}
	return what
}

// curveItem is the data item of series name at x in a chart's series
// (nil when there is none).
func curveItem(series []any, name string, x float64) map[string]any {
	for _, v := range series {
		s, _ := v.(map[string]any)
		if s["name"] != name {
			continue
		}
		data, _ := s["data"].([]any)
		for _, d := range data {
			item, _ := d.(map[string]any)
			val, _ := item["value"].([]any)
			if len(val) > 1 {
				if vx, ok := val[0].(float64); ok && math.Abs(vx-x) < 1e-9 {
					return item
				}
			}
		}
	}
	return nil
}

// pointY is the y value of series name's point at x.
func pointY(series []any, name string, x float64) (float64, bool) {
	item := curveItem(series, name, x)
	if item == nil {
		return 0, false
	}
	y, ok := item["value"].([]any)[1].(float64)
	return y, ok
}

// markReplicated marks series name's point at x as replicated, with note.
func markReplicated(series []any, name string, x float64, note string) {
	if item := curveItem(series, name, x); item != nil {
		item["symbol"] = ReplicatedSymbol
		item["symbolSize"] = 9
		item[NoteKey] = note
	}
}

// hasSymbol reports whether a curve point of the chart is drawn as sym.
func hasSymbol(series []any, sym string) bool {
	for _, v := range series {
		s, _ := v.(map[string]any)
		data, _ := s["data"].([]any)
		for _, d := range data {
			if item, ok := d.(map[string]any); ok && item["symbol"] == sym {
				return true
			}
		}
	}
	return false
}

// dropNamed removes the series named name.
func dropNamed(series []any, name string) []any {
	out := series[:0:0]
	for _, v := range series {
		if s, _ := v.(map[string]any); s["name"] != name {
			out = append(out, v)
		}
	}
	return out
}

// tickWidth is half the width of a tolerance tick at x: 3% of the x axis'
// largest value shown (the claim's load when there is none).
func tickWidth(o map[string]any, x float64) float64 {
	top := x
	series, _ := o["series"].([]any)
	for _, v := range series {
		s, _ := v.(map[string]any)
		data, _ := s["data"].([]any)
		for _, d := range data {
			item, _ := d.(map[string]any)
			if val, _ := item["value"].([]any); len(val) > 0 {
				if vx, ok := val[0].(float64); ok {
					top = max(top, vx)
				}
			}
		}
	}
	return 0.03 * top
}

// ReplicatedRows marks the quality table's rows a replicated claim m of
// figure f is read on (Series, and Over for an Order or Ratio, at the
// claim's load): their verdict becomes figures.Replicated, their evidence
// starts with how the claim was read (ReplicatedNote) before the runs'
// own "too short" reason. Other verdicts leave rows as they are.
func ReplicatedRows(rows []QualityRow, f figures.Figure, m figures.Measured) []QualityRow {
	if m.Verdict != figures.Replicated {
		return rows
	}
	c := f.Claim
	load := strconv.FormatFloat(c.Load, 'g', -1, 64)
	for i := range rows {
		for _, name := range replicatedSeries(c) {
			if rows[i].Series == name && rows[i].X == load {
				rows[i].Evidence = strings.TrimPrefix(ReplicatedNote(m), figures.Replicated+": ") + ". Each run: " + rows[i].Verdict + ": " + rows[i].Evidence
				rows[i].Verdict = figures.Replicated
			}
		}
	}
	return rows
}
