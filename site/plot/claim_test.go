package plot

import (
	"encoding/json"
	"math"
	"testing"

	"phitsim/engine/figures"
	"phitsim/site/experiment"
)

// lastSeries is the last series of a chart's option (the claim's), nil
// when it has none.
func lastSeries(t *testing.T, opt []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(opt, &m); err != nil {
		t.Fatal(err)
	}
	series, _ := m["series"].([]any)
	if len(series) == 0 {
		return nil
	}
	return series[len(series)-1].(map[string]any)
}

// markArea is the first area of a series' markArea: its two corners.
func markArea(s map[string]any) (from, to map[string]any, ok bool) {
	ma, ok := s["markArea"].(map[string]any)
	if !ok {
		return nil, nil, false
	}
	d := ma["data"].([]any)[0].([]any)
	return d[0].(map[string]any), d[1].(map[string]any), true
}

// TestWithClaimDrawsEveryFigure: every gallery figure's claim is drawn on
// the chart it is read on (figures.Claim.Chart, a chart of the page), as
// that chart's last series named by the claim, and on no other chart:
// against the offered load, a vertical line at the claim's load and, for
// a band, the band between its bounds; on the per-sender bars and the
// per-router injection, the band across the bars (a least-router share
// times the offered load); on a transient chart, a Settle claim's cycles
// [Lo, Hi] shaded with a line at Hi, a Window claim's window and bounds, a
// Period claim's window (thesis Fig. 4.9) and a Ratio's of two transient
// curves (Fig. 4.8's ECtN against Base).
func TestWithClaimDrawsEveryFigure(t *testing.T) {
	for _, f := range figures.Table {
		c := f.Claim
		name := c.Chart()
		if Builders[name] == nil {
			t.Errorf("%s: claim drawn on %q, not a chart of the page", f.ID, name)
			continue
		}
		if name != "accepted" {
			if s := lastSeries(t, ClaimChart(Input{}, "accepted", f)); s["name"] == ClaimLabel(f) {
				t.Errorf("%s: a %s claim drawn on the accepted-load chart", f.ID, name)
			}
		}
		s := lastSeries(t, ClaimChart(Input{}, name, f))
		if s == nil || s["name"] != ClaimLabel(f) {
			t.Fatalf("%s: last series of %s %v, want the claim %q", f.ID, name, s["name"], ClaimLabel(f))
		}
		var lineX any
		if ml, ok := s["markLine"].(map[string]any); ok {
			lineX = ml["data"].([]any)[0].(map[string]any)["xAxis"]
		}
		from, to, area := markArea(s)
		switch {
		case c.PerLoad():
			if lineX != c.Load {
				t.Errorf("%s: claim line at x = %v, want %g", f.ID, lineX, c.Load)
			}
			if want := c.Kind == figures.Band; area != want {
				t.Errorf("%s: band drawn %v, want %v", f.ID, area, want)
			} else if area && (from["yAxis"] != c.Lo || to["yAxis"] != c.Hi) {
				t.Errorf("%s: band [%v, %v], want [%g, %g]", f.ID, from["yAxis"], to["yAxis"], c.Lo, c.Hi)
			}
		case name == figures.ChartRECNSAQ:
			if wantAxis := map[bool]any{true: 1.0, false: nil}[c.Metric == figures.SAQTotal]; !area || from["yAxis"] != c.Lo || to["yAxis"] != c.Hi || s["yAxisIndex"] != wantAxis {
				t.Errorf("%s: SAQ band %v–%v on axis %v, want [%g, %g] on axis %v", f.ID, from, to, s["yAxisIndex"], c.Lo, c.Hi, wantAxis)
			}
		case name == figures.ChartSenders:
			if !area || from["yAxis"] != c.Lo || to["yAxis"] != c.Hi {
				t.Errorf("%s: sender band %v–%v, want [%g, %g]", f.ID, from, to, c.Lo, c.Hi)
			}
		case name == figures.ChartFairness:
			if want := c.Metric == figures.MinShare; area != want {
				t.Errorf("%s: band drawn %v, want %v", f.ID, area, want)
			} else if area && (from["yAxis"] != c.Lo*c.Load || to["yAxis"] != c.Hi*c.Load) {
				t.Errorf("%s: least-router band %v–%v, want [%g, %g] × %g", f.ID, from["yAxis"], to["yAxis"], c.Lo, c.Hi, c.Load)
			}
		case c.Kind == figures.Settle:
			if lineX != c.Hi || !area || from["xAxis"] != c.Lo || to["xAxis"] != c.Hi {
				t.Errorf("%s: settle line %v and cycles %v–%v, want the cycles [%g, %g] and a line at %g", f.ID, lineX, from, to, c.Lo, c.Hi, c.Hi)
			}
		case c.Kind == figures.Period, c.Kind == figures.Ratio:
			if !area || from["xAxis"] != c.Window[0] || to["xAxis"] != c.Window[1] {
				t.Errorf("%s: period window %v–%v, want cycles %v", f.ID, from, to, c.Window)
			}
		case c.Kind == figures.Window && c.Metric != figures.BytesPerNs:
			if !area || from["xAxis"] != c.Window[0] || to["xAxis"] != c.Window[1] || from["yAxis"] != c.Lo || to["yAxis"] != c.Hi {
				t.Errorf("%s: window %v–%v, want cycles %v and values [%g, %g]", f.ID, from, to, c.Window, c.Lo, c.Hi)
			}
		case c.Kind == figures.Window:
			if !area {
				t.Errorf("%s: no window on the time series", f.ID)
			}
		default:
			t.Errorf("%s: a %s claim on %s is not drawn", f.ID, c.Kind, name)
		}
	}
}

// TestClaimOnPhysicalTimeSeries: the RECN paper's Fig. 2a claim (VOQsw's
// mean over 970–1,300 µs in [16, 23] bytes/ns) is drawn on the time series
// of the 64-host fat tree (8-ns cycles, 8-byte phits) in the chart's
// physical units: the window at 970–1,300 µs and the band at 16 × 8 ÷ 64 =
// 2 to 23 × 8 ÷ 64 = 2.875 Gb/s per node.
func TestClaimOnPhysicalTimeSeries(t *testing.T) {
	f, err := figures.ByID("recn-2a")
	if err != nil {
		t.Fatal(err)
	}
	e, err := f.Sweep()
	if err != nil {
		t.Fatal(err)
	}
	exp := experiment.FromSpec(e.Spec)
	exp.Series = exp.Series[:1]
	r := tinyResults(t, exp, nil)
	s := lastSeries(t, ClaimChart(Input{Results: r}, "timeseries", f))
	if s == nil {
		t.Fatal("an empty time series")
	}
	from, to, ok := markArea(s)
	if !ok {
		t.Fatal("no claim window on the time series")
	}
	near := func(v any, want float64) bool { x, _ := v.(float64); return math.Abs(x-want) < 1e-6*want }
	if !near(from["xAxis"], 970) || !near(to["xAxis"], 1300) || !near(from["yAxis"], 2) || !near(to["yAxis"], 2.875) {
		t.Errorf("claim window %v–%v; want 970–1,300 µs and 2–2.875 Gb/s per node", from, to)
	}
}

// TestClaimColorApartUnderDeuteranopia: the claim's dark grey marks stay at
// least ΔE76 = 15 from every series colour a figure draws (the first 8,
// TestPaletteDistinctUnderDeuteranopia's), as a deuteranope sees them.
func TestClaimColorApartUnderDeuteranopia(t *testing.T) {
	c := deutan(t, ClaimColor, true)
	for _, p := range Palette[:paletteSeriesDistinct] {
		if d := deltaE(c, deutan(t, p, true)); d < 15 {
			t.Errorf("claim colour %s and series colour %s are ΔE %.1f apart under deuteranopia, want ≥ 15", ClaimColor, p, d)
		}
	}
}

// A Max/Min claim (thesis Table 3.2: In-Trns-MM's Max/Min in [1.2, 2.0]) is
// drawn on the per-router injection bars as the values the least router
// must take for it: from the highest bar over Hi to it over Lo (0.4 / 2.0
// to 0.4 / 1.2); before any bar, only the legend entry.
func TestMaxMinClaimBandFromTheBars(t *testing.T) {
	var f figures.Figure
	for _, g := range figures.Table {
		if g.ID == "3.2" {
			f = g
		}
	}
	if f.Claim.Metric != figures.MaxMin || f.Claim.Lo != 1.2 || f.Claim.Hi != 2.0 {
		t.Fatalf("figure 3.2's claim %+v; want Max/Min in [1.2, 2.0]", f.Claim)
	}
	opt := []byte(`{"series":[{"name":"In-Trns-MM","type":"bar","data":[{"value":0.3},{"value":0.4},{"value":0.25}]},` +
		`{"name":"other","type":"bar","data":[{"value":0.9}]}]}`)
	from, to, ok := markArea(lastSeries(t, WithClaim(opt, f)))
	if !ok || math.Abs(from["yAxis"].(float64)-0.2) > 1e-12 || math.Abs(to["yAxis"].(float64)-0.4/1.2) > 1e-12 {
		t.Fatalf("Max/Min band %v–%v (drawn %v), want [0.2, 0.333]", from, to, ok)
	}
	if _, _, ok := markArea(lastSeries(t, WithClaim([]byte(`{"series":[]}`), f))); ok {
		t.Fatalf("a Max/Min band drawn without bars")
	}
}
