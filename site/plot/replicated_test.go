package plot

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/figures"
	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// replicatedResults are the finished runs of series A and B at offered
// 0.4, 5 seeds each, every run "too short" with its 16 batches (batches
// correlated, as In-Trns-MM's 0.40 point of thesis Table 3.3 and the ACOR
// paper's Figs. 12–13 points at h=3): A's latency 1,000 × (1.06 + d) and
// accepted 0.38 + d/10 for d = −0.02 … 0.02 (sd 0.0158: ± 0.0196 for the
// latency ratio with t₄ = 2.776), B's latency 1,000 and accepted 0.38.
func replicatedResults(t *testing.T) *experiment.Results {
	t.Helper()
	var series []config.Config
	for _, name := range []string{"A", "B"} {
		c := config.Default()
		c.Name, c.Sim.Seeds = name, 5
		series = append(series, c)
	}
	e := experiment.Experiment{Series: series, Sweep: experiment.Sweep{Param: experiment.LoadParam, List: []float64{0.4}}}
	r, err := experiment.NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	dev := []float64{-0.02, -0.01, 0, 0.01, 0.02}
	ok := result.Interval{Batches: 16}
	for i, j := range r.Jobs {
		d := dev[j.Run]
		lat, acc := 1000*(1.06+d), 0.38+d/10
		if j.Series == 1 {
			lat, acc = 1000, 0.38
		}
		r.Runs[i] = &result.Result{Config: j.Config, Seed: j.Seed, Offered: 0.4, Accepted: acc,
			Latency: result.Summary{Avg: lat},
			Quality: &result.Quality{Verdict: result.TooShort, Reason: "batches correlated", Latency: ok, Accepted: ok}}
		r.Runs[i].Fairness.MaxMin = 1.11 + d
		r.Runs[i].Fairness.PerRouter = []int64{1000, 900}
	}
	return r
}

// TestReplicatedClaimOnTheChart: a claim whose point is "too short" and is
// read on its 5 seeds as independent replications (figures.Replicated, by
// figures.Figure.Check, the CLI's `figures -check`) is drawn as such on the
// chart it is read on: the points it is read on become filled squares with
// the replication in their tooltip, not hollow "too short" circles, the
// "too short" legend entry goes, and a legend entry carries the mean ±
// 95% interval as a bar at the claim's load in the chart's units (an
// Order of latencies, ACOR paper Fig. 12's kind: the ratio's interval
// times B's 1,000 cycles, with the tolerance tick at 1.03 × 1,000; a Band
// of accepted load, its own values, B's point, outside the claim, staying
// too short; a Max/Min band, the least router's bar); the quality table's
// rows say how the claim was read. Before every run finishes, nothing
// changes.
func TestReplicatedClaimOnTheChart(t *testing.T) {
	r := replicatedResults(t)
	hw := 2.7764451051977987 * math.Sqrt(0.001/4) / math.Sqrt(5)
	for _, tc := range []struct {
		chart      string
		claim      figures.Claim
		marked     []string
		lo, hi     float64
		ticks      []float64
		meanInText string
		stillShort bool // a point outside the claim stays too short
	}{
		{figures.ChartLatency, figures.Claim{Kind: figures.Order, Metric: figures.Latency, Series: "A", Over: "B", Load: 0.4, Factor: 1.03},
			[]string{"A", "B"}, 1000 * (1.06 - hw), 1000 * (1.06 + hw), []float64{1030}, "1.060 ± 0.020", false},
		{figures.ChartAccepted, figures.Claim{Kind: figures.Band, Series: "A", Load: 0.4, Lo: 0.37, Hi: 0.39},
			[]string{"A"}, 0.38 - hw/10, 0.38 + hw/10, nil, "0.3800 ± 0.0020", true},
	} {
		f := figures.Figure{ID: "t", Claim: tc.claim}
		m, ok := Verdict(f, r)
		if !ok || m.Verdict != figures.Replicated || !m.Pass || m.Seeds != 5 {
			t.Fatalf("%s: verdict %+v (ok %v), want replicated over 5 seeds, passing", tc.chart, m, ok)
		}
		if !strings.Contains(m.Text, tc.meanInText) {
			t.Errorf("%s: %q, want %q", tc.chart, m.Text, tc.meanInText)
		}
		plain := Builders[tc.chart](Input{Results: r})
		if !hasSymbol(lastSeriesList(t, plain), verdictSymbol[result.TooShort]) || !strings.Contains(string(plain), tooShortLegend) {
			t.Fatalf("%s: the points are not drawn too short without the claim", tc.chart)
		}
		opt := ClaimChart(Input{Results: r}, tc.chart, f)
		series := lastSeriesList(t, opt)
		for _, name := range tc.marked {
			item := curveItem(series, name, 0.4)
			if item == nil || item["symbol"] != ReplicatedSymbol {
				t.Errorf("%s: %s's point at 0.4 %v, want the symbol %q", tc.chart, name, item, ReplicatedSymbol)
				continue
			}
			if note, _ := item[NoteKey].(string); !strings.HasPrefix(note, "replicated: read on 5 seeds as independent replications: mean ± 95% interval") || !strings.Contains(note, tc.meanInText) {
				t.Errorf("%s: %s's tooltip %q", tc.chart, name, note)
			}
		}
		if b := curveItem(series, "B", 0.4); tc.stillShort != (b["symbol"] == verdictSymbol[result.TooShort]) {
			t.Errorf("%s: B's point %v, too short %v", tc.chart, b["symbol"], tc.stillShort)
		}
		if got := hasSymbol(series, verdictSymbol[result.TooShort]) || strings.Contains(string(opt), tooShortLegend); got != tc.stillShort {
			t.Errorf("%s: a point drawn or listed as too short %v, want %v", tc.chart, got, tc.stillShort)
		}
		var rep map[string]any
		for _, v := range series {
			if s := v.(map[string]any); s["name"] == ReplicatedLegend(m) {
				rep = s
			}
		}
		if rep == nil {
			t.Fatalf("%s: no legend entry %q", tc.chart, ReplicatedLegend(m))
		}
		data := rep["markLine"].(map[string]any)["data"].([]any)
		if len(data) != 1+len(tc.ticks) {
			t.Fatalf("%s: %d marks, want the bar and %d ticks", tc.chart, len(data), len(tc.ticks))
		}
		seg := func(k int) (x0, y0, x1, y1 float64) {
			p := data[k].([]any)
			a, b := p[0].(map[string]any)["coord"].([]any), p[1].(map[string]any)["coord"].([]any)
			return a[0].(float64), a[1].(float64), b[0].(float64), b[1].(float64)
		}
		x0, y0, x1, y1 := seg(0)
		if x0 != 0.4 || x1 != 0.4 || math.Abs(y0-tc.lo) > 1e-3*tc.lo || math.Abs(y1-tc.hi) > 1e-3*tc.hi {
			t.Errorf("%s: bar (%g, %g)–(%g, %g), want at 0.4 from %g to %g", tc.chart, x0, y0, x1, y1, tc.lo, tc.hi)
		}
		for k, want := range tc.ticks {
			if x0, y0, x1, y1 := seg(k + 1); y0 != want || y1 != want || !(x0 < 0.4 && x1 > 0.4) {
				t.Errorf("%s: tick (%g, %g)–(%g, %g), want across 0.4 at %g", tc.chart, x0, y0, x1, y1, want)
			}
		}
		rows := ReplicatedRows(QualityRows(r), f, m)
		for _, row := range rows {
			read := row.Series == "A" || (row.Series == "B" && tc.claim.Over == "B")
			if got := row.Verdict == figures.Replicated; got != read || (read && !strings.Contains(row.Evidence, "read on 5 seeds as independent replications")) {
				t.Errorf("%s: quality row %s: %s, %q", tc.chart, row.Series, row.Verdict, row.Evidence)
			}
		}
	}

	// thesis Table 3.3's kind: a Max/Min band read on the per-router
	// injection (Max/Min 1.11 ± 0.0196 within [1.0, 1.2]): the least
	// router's bar the interval allows, top ÷ (1.11 ± 0.0196), as two
	// lines under the replication's legend entry
	f3 := figures.Figure{ID: "t", Claim: figures.Claim{Kind: figures.Band, Metric: figures.MaxMin, Series: "A", Load: 0.4, Lo: 1.0, Hi: 1.2}}
	m, ok := Verdict(f3, r)
	if !ok || m.Verdict != figures.Replicated || !m.Pass {
		t.Fatalf("Max/Min: verdict %+v", m)
	}
	var o map[string]any
	opt := ClaimChart(Input{Results: r}, figures.ChartFairness, f3)
	if err := json.Unmarshal(opt, &o); err != nil {
		t.Fatal(err)
	}
	top, _ := barsMax(o, "A")
	var ys []float64
	for _, v := range o["series"].([]any) {
		if s := v.(map[string]any); s["name"] == ReplicatedLegend(m) {
			for _, d := range s["markLine"].(map[string]any)["data"].([]any) {
				ys = append(ys, d.(map[string]any)["yAxis"].(float64))
			}
		}
	}
	if want := []float64{top / (1.11 + hw), top / (1.11 - hw)}; len(ys) != 2 || math.Abs(ys[0]-want[0]) > 1e-4*top || math.Abs(ys[1]-want[1]) > 1e-4*top {
		t.Errorf("Max/Min: least router's lines %v, want %v (highest bar %g)", ys, want, top)
	}

	// a run missing: no verdict, the points stay too short
	r.Runs[3] = nil
	f := figures.Figure{ID: "t", Claim: figures.Claim{Kind: figures.Band, Series: "A", Load: 0.4, Lo: 0.37, Hi: 0.39}}
	if m, ok := Verdict(f, r); ok {
		t.Errorf("a run unfinished: verdict %+v", m)
	}
	if !strings.Contains(string(ClaimChart(Input{Results: r}, figures.ChartAccepted, f)), tooShortLegend) {
		t.Error("a run unfinished: no too-short legend")
	}
}

// lastSeriesList is a chart option's series.
func lastSeriesList(t *testing.T, opt []byte) []any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(opt, &m); err != nil {
		t.Fatal(err)
	}
	s, _ := m["series"].([]any)
	return s
}
