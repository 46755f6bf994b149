package plot

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"phitsim/engine/figures"
	"phitsim/site/experiment"
)

// The background's latency around a hotspot's start (Kim et al.,
// Contention-based Congestion Management in Large-Scale Networks Fig. 13):
// shown for a HOTSPOT that starts during the run, not for one running from
// the start; one line per series at the selected point, x the end of each
// interval of the run less the hotspot's start (the first at −500 for
// 100-cycle intervals and a start at 600), y the run's background latency
// in that interval; the kim-13 card's claim is drawn on it.
func TestBackgroundSeriesChart(t *testing.T) {
	e := hotspotExperiment()
	if slices.Contains(Visible(&e, nil), "bgseries") {
		t.Errorf("a hotspot from the start shows the chart of its start")
	}
	if s := string(BackgroundSeries(Input{Results: tinyResults(t, e, nil)})); !strings.Contains(s, "no background per interval") {
		t.Errorf("without traffic.hotspotStart: %.200s", s)
	}
	for i := range e.Series {
		e.Series[i].Traffic.HotspotStart = 600
	}
	if !slices.Contains(Visible(&e, nil), "bgseries") {
		t.Errorf("a hotspot starting at 600: charts %v", Visible(&e, nil))
	}
	// the series whose hotspot starts mid-run not finished yet (running,
	// or cancelled), another one finished: no advice to set what is set,
	// the runs are to come
	e2 := e
	e2.Series = slices.Clone(e.Series)
	e2.Series[0].Traffic.HotspotStart = 0
	if s := string(BackgroundSeries(Input{Results: tinyResults(t, e2, func(j experiment.Job) bool { return j.Series == 1 }), Point: 1})); !strings.Contains(s, "no run of a series whose hotspot starts during the run has finished at this point yet") {
		t.Errorf("UGAL's run not finished: %.300s", s)
	}
	r := tinyResults(t, e, nil)
	opt := BackgroundSeries(Input{Results: r, Point: 1})
	checkConfined(t, map[string][]byte{"bgseries": opt})
	o := decode(t, "bgseries", opt)
	if len(o.Series) != 2 {
		t.Fatalf("%d series, want MIN and UGAL", len(o.Series))
	}
	run := r.RunsAt(1, 1)[0] // UGAL at 0.2
	if len(o.Series[1].Data) != len(run.Hotspot.Series) || len(run.Hotspot.Series) != 15 {
		t.Fatalf("%d points, the run %d intervals; want 15", len(o.Series[1].Data), len(run.Hotspot.Series))
	}
	for i, d := range o.Series[1].Data {
		var v struct{ Value []any }
		if err := json.Unmarshal(d, &v); err != nil || len(v.Value) != 2 {
			t.Fatalf("point %s: %v", d, err)
		}
		x := v.Value[0].(float64)
		if want := float64((i+1)*100 - 600); x != want {
			t.Errorf("point %d at x = %g, want %g", i, x, want)
		}
		if y, ok := v.Value[1].(float64); ok && y != num(run.Hotspot.Series[i].Latency) {
			t.Errorf("point %d: %g, the run's %g", i, y, run.Hotspot.Series[i].Latency)
		}
	}
	// the hotspot's start marked once, a vertical line at x = 0 on the
	// first series
	var raw struct {
		Series []struct {
			MarkLine *struct{ Data []map[string]any } `json:"markLine"`
		} `json:"series"`
	}
	if err := json.Unmarshal(opt, &raw); err != nil {
		t.Fatal(err)
	}
	starts := 0
	for _, s := range raw.Series {
		if s.MarkLine == nil {
			continue
		}
		for _, m := range s.MarkLine.Data {
			if x, ok := m["xAxis"]; ok && x == 0.0 && m["name"] == "hotspot starts" {
				starts++
			}
		}
	}
	if starts != 1 {
		t.Errorf("%d vertical lines at the hotspot's start, want 1", starts)
	}
	f, _ := figures.ByID("kim-13")
	if s := lastSeries(t, ClaimChart(Input{Results: r, Point: 1}, "bgseries", f)); s == nil || s["name"] != ClaimLabel(f) {
		t.Errorf("kim-13's claim not drawn on the chart: %v", s)
	}
}
