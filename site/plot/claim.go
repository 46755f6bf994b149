package plot

import (
	"encoding/json"
	"fmt"

	"phitsim/engine/figures"
)

// ClaimColor is the claim's marks' colour: dark grey, apart from every
// series colour for all readers.
const ClaimColor = "#444444"

// ClaimLabel is the text of a figure's claim on its chart.
func ClaimLabel(f figures.Figure) string {
	c := f.Claim
	switch c.Kind {
	case figures.Band:
		return fmt.Sprintf("claim: %s%s in [%.3g, %.3g] at %g", c.Series, metricSuffix(c), c.Lo, c.Hi, c.Load)
	case figures.Order:
		return fmt.Sprintf("claim: %s%s ≥ %.3g × %s at %g", c.Series, metricSuffix(c), c.Factor, c.Over, c.Load)
	case figures.Ratio:
		return fmt.Sprintf("claim: %s ÷ %s%s in [%.3g, %.3g] at %g", c.Series, c.Over, metricSuffix(c), c.Lo, c.Hi, c.Load)
	}
	return "claim: " + f.ClaimText
}

// metricSuffix names a claim's metric when it is not the accepted load.
func metricSuffix(c figures.Claim) string {
	if c.Metric == figures.Accepted {
		return ""
	}
	return " " + c.Metric
}

// WithClaim draws figure f's claim on an accepted-load chart (Accepted's
// option): a shaded band between the claim's bounds when it is a band on
// the accepted load, and a labelled vertical line at the load where the
// claim is read, in one legend entry named by the claim.
func WithClaim(opt []byte, f figures.Figure) []byte {
	var m map[string]any
	if err := json.Unmarshal(opt, &m); err != nil {
		return opt
	}
	c := f.Claim
	label := ClaimLabel(f)
	s := map[string]any{"name": label, "type": "line", "data": []any{}, "silent": true,
		"itemStyle": map[string]any{"color": ClaimColor}, "tooltip": map[string]any{"show": false},
		"markLine": map[string]any{"symbol": []string{"none", "none"}, "silent": true,
			"lineStyle": map[string]any{"color": ClaimColor, "type": "dashed", "width": 1.5},
			"data": []any{map[string]any{"xAxis": c.Load, "name": label,
				"label": map[string]any{"show": true, "formatter": label, "position": "insideEndTop"}}}}}
	if c.Kind == figures.Band && c.Metric == figures.Accepted {
		s["markArea"] = map[string]any{"silent": true,
			"itemStyle": map[string]any{"color": "rgba(68,68,68,0.15)"},
			"label":     map[string]any{"show": true, "position": "insideTopLeft", "color": ClaimColor},
			"data": []any{[]any{map[string]any{"yAxis": c.Lo, "name": fmt.Sprintf("%s band [%.3g, %.3g]", c.Series, c.Lo, c.Hi)},
				map[string]any{"yAxis": c.Hi}}}}
	}
	series, _ := m["series"].([]any)
	m["series"] = append(series, s)
	out, err := json.Marshal(m)
	if err != nil {
		return opt
	}
	return out
}
