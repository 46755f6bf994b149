package plot

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// fakeResults gives every job of e a result made by f, without simulating.
func fakeResults(t *testing.T, e experiment.Experiment, f func(j experiment.Job) *result.Result) *experiment.Results {
	t.Helper()
	r, err := experiment.NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range r.Jobs {
		res := f(j)
		res.Config, res.Offered = j.Config, j.Load()
		r.Runs[i] = res
	}
	return r
}

func h4(seeds int) experiment.Experiment {
	c, _ := config.PresetByName("min-advc")
	c.Sim.Seeds = seeds
	return experiment.Experiment{Series: []config.Config{c},
		Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.1, To: 0.3, Step: 0.2}}
}

// rawOption decodes a chart's options loosely, to read what option cannot.
func rawOption(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func first(m map[string]any, k string) map[string]any {
	switch v := m[k].(type) {
	case []any:
		return v[0].(map[string]any)
	case map[string]any:
		return v
	}
	return nil
}

// The per-router chart at h=4 (264 routers): y from 0, routers numbered
// group·a + index with one label per group, group boundaries marked, zoom.
func TestFairnessReadableAtH4(t *testing.T) {
	e := h4(2)
	r := fakeResults(t, e, func(j experiment.Job) *result.Result {
		per := make([]int64, 264)
		for i := range per {
			per[i] = 1000 + int64(i%8) // router a−1 of each group injects most
		}
		per[7] = 0 // a starving router
		return &result.Result{Fairness: result.Fairness{PerRouter: per}}
	})
	b := Fairness(Input{Results: r, Point: 1})
	o := decode(t, "fairness-h4", b)
	if len(o.Series) != 1 || len(o.Series[0].Data) != 264 {
		t.Fatalf("%d series, %d bars", len(o.Series), len(o.Series[0].Data))
	}
	if !strings.Contains(o.XAxis[0].Name, "group·a + index") || !strings.Contains(o.XAxis[0].Name, "group boundaries") {
		t.Errorf("x axis %q", o.XAxis[0].Name)
	}
	m := rawOption(t, b)
	y := first(m, "yAxis")
	if y["min"] != 0.0 || y["scale"] == true {
		t.Errorf("y axis does not start at 0: %v", y)
	}
	x := first(m, "xAxis")
	cats, _ := x["data"].([]any)
	if len(cats) != 264 || cats[8] != "8 (g1·r0)" || cats[263] != "263 (g32·r7)" {
		t.Errorf("categories %v…", cats[:min(len(cats), 10)])
	}
	if lab, _ := x["axisLabel"].(map[string]any); lab == nil || lab["interval"] != 7.0 || lab["rotate"] != 30.0 {
		t.Errorf("one label per group of a=8 routers, tilted (33 groups): %v", x["axisLabel"])
	}
	if o.Series[0].MarkLine == nil || len(o.Series[0].MarkLine.Data) != 32 {
		t.Errorf("group boundaries: %+v", o.Series[0].MarkLine)
	} else if !strings.Contains(string(o.Series[0].MarkLine.Data[0]), `"8 (g1·r0)"`) {
		t.Errorf("first boundary %s", o.Series[0].MarkLine.Data[0])
	}
	if len(o.DataZoom) != 2 {
		t.Errorf("zoom %v", o.DataZoom)
	}
}

// The saturated triangles have a legend entry, and the whiskers' tooltip
// gives the seed count and t for 5 seeds too.
func TestSaturatedTrianglesExplained(t *testing.T) {
	e := h4(5)
	r := fakeResults(t, e, func(j experiment.Job) *result.Result {
		res := &result.Result{Accepted: j.Load(), Fairness: result.Fairness{PerRouter: []int64{1}}}
		if j.Point == 1 {
			res.Accepted, res.Saturated, res.SatReason = 0.06, true, "accepted load below offered load"
		}
		res.Accepted += float64(j.Run) * 0.001
		return res
	})
	o := decode(t, "saturated", Accepted(Input{Results: r}))
	var legend bool
	for _, s := range o.Series {
		if s.Name == satLegend {
			legend = true
		}
	}
	if !legend {
		t.Errorf("no legend entry for the triangles: %+v", o.Series)
	}
	if !strings.Contains(string(o.Series[0].Data[1]), `"triangle"`) || strings.Contains(string(o.Series[0].Data[0]), `"triangle"`) {
		t.Errorf("symbols %s %s", o.Series[0].Data[0], o.Series[0].Data[1])
	}
	if d := o.Series[0].Dimensions[2]; !strings.Contains(d, "over 5 seeds") || !strings.Contains(d, "t = 2.78") || strings.Contains(d, "wide") {
		t.Errorf("CI tooltip %q", d)
	}
	// no saturation, no legend entry
	r = fakeResults(t, e, func(j experiment.Job) *result.Result {
		return &result.Result{Accepted: j.Load(), Fairness: result.Fairness{PerRouter: []int64{1}}}
	})
	for _, s := range decode(t, "unsaturated", Accepted(Input{Results: r})).Series {
		if s.Name == satLegend {
			t.Error("legend entry without a saturated point")
		}
	}
	if got := ciDim(1); !strings.Contains(got, "no interval") {
		t.Errorf("one seed: %q", got)
	}
}

// The histogram's last bin is the overflow of sim.histMax: labelled on the
// axis and marked with its share, not merged with ordinary bins.
func TestHistogramOverflowBin(t *testing.T) {
	e := h4(1)
	e.Series[0].Sim.HistMax = 2000
	r := fakeResults(t, e, func(j experiment.Job) *result.Result {
		h := make([]int64, 2000)
		h[150] = 70
		h[1999] = 30 // every latency ≥ 1999
		return &result.Result{LatencyHist: h, Fairness: result.Fairness{PerRouter: []int64{1}}}
	})
	o := decode(t, "histogram-overflow", Histogram(Input{Results: r, Point: 0}))
	if !strings.Contains(o.XAxis[0].Name, "≥ 1999") || !strings.Contains(o.XAxis[0].Name, "sim.histMax") {
		t.Errorf("x axis %q", o.XAxis[0].Name)
	}
	s := o.Series[0]
	if s.MarkLine == nil || len(s.MarkLine.Data) != 1 || !strings.Contains(string(s.MarkLine.Data[0]), "≥ 1999 cycles: 30%") {
		t.Fatalf("overflow mark %+v", s.MarkLine)
	}
	// the label along the line fits the plot's height (360 − 64 − 52 =
	// 244 px; about 7 px a character at 12 px): 52 characters ran past
	// the x axis into its name
	var mark struct {
		Label struct{ Formatter string }
	}
	json.Unmarshal(s.MarkLine.Data[0], &mark)
	if n := utf8.RuneCountInString(mark.Label.Formatter); n == 0 || n > 30 {
		t.Errorf("overflow label %q: %d characters, want 1 … 30", mark.Label.Formatter, n)
	}
	last := string(s.Data[len(s.Data)-1])
	if !strings.Contains(last, "[1999,30]") {
		t.Errorf("overflow point %s", last)
	}
	// the bins before it are merged on their own: the 150-cycle peak stays 70%
	// and the overflow is in no ordinary bin
	var peak bool
	overflow := 0
	for _, d := range s.Data {
		peak = peak || strings.Contains(string(d), ",70]")
		if strings.Contains(string(d), ",30]") {
			overflow++
		}
	}
	if !peak || overflow != 1 {
		t.Errorf("the 150-cycle bin was merged with others (%v) or the overflow counted %d times: %s", peak, overflow, s.Data)
	}
}

// Series whose latencies overflow sim.histMax all mark the same last bin:
// their labels stand side by side along that line, not printed over each
// other (three QCN series at load 1 each wrote "≥ 1999 cycles: …%" there).
func TestHistogramOverflowLabelsApart(t *testing.T) {
	e := h4(1)
	e.Series[0].Sim.HistMax = 2000
	e.Series = append(e.Series, e.Series[0], e.Series[0])
	e.Series[1].Name, e.Series[2].Name = "B", "C"
	r := fakeResults(t, e, func(j experiment.Job) *result.Result {
		h := make([]int64, 2000)
		h[150] = 70
		h[1999] = 30
		return &result.Result{LatencyHist: h, Fairness: result.Fairness{PerRouter: []int64{1}}}
	})
	o := decode(t, "histogram-overflow-3", Histogram(Input{Results: r, Point: 0}))
	seen := map[float64]bool{}
	for si, s := range o.Series {
		if s.MarkLine == nil || len(s.MarkLine.Data) != 1 {
			t.Fatalf("series %d: overflow mark %+v", si, s.MarkLine)
		}
		var mark struct {
			Label struct {
				Position string
				Distance float64
			}
		}
		json.Unmarshal(s.MarkLine.Data[0], &mark)
		for d := range seen {
			if math.Abs(d-mark.Label.Distance) < 14 { // a 12-px line of text
				t.Errorf("series %d: label %g px from the line, %g px from another's", si, mark.Label.Distance, math.Abs(d-mark.Label.Distance))
			}
		}
		seen[mark.Label.Distance] = true
	}
}

// A run without warm-up (the RECN paper's Fig. 2 runs measure from cycle
// 0) has no "warm-up end" mark in the time series: at cycle 0 its label sat
// over the y axis's numbers. With a warm-up the mark is there.
func TestTimeSeriesWarmupMark(t *testing.T) {
	for _, warmup := range []int{0, 300} {
		e := h4(1)
		e.Series[0].Sim.Warmup = warmup
		r := fakeResults(t, e, func(j experiment.Job) *result.Result {
			return &result.Result{Series: []result.Sample{{Cycle: 400}, {Cycle: 800}}, Fairness: result.Fairness{PerRouter: []int64{1}}}
		})
		b := TimeSeries(Input{Results: r, Point: 0})
		if got := strings.Contains(string(b), "warm-up end"); got != (warmup > 0) {
			t.Errorf("warm-up %d: a warm-up mark %v, want %v", warmup, got, warmup > 0)
		}
	}
}
