package plot

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/site/experiment"
)

// qcnTransient runs the page's qcn-transient-h4 preset natively once: the
// QCN-Switch paper's UN→ADV+1 at 0.4 (Figs. 10a, 12b) on the Table I system
// at h=4 (1,056 nodes), 5,000 + 12,000 cycles of 20 ns, one seed (~4 s).
var qcnTransient = sync.OnceValues(func() (*experiment.Results, error) {
	e, ok := experiment.PresetByName("qcn-transient-h4")
	if !ok {
		return nil, errors.New("no preset qcn-transient-h4")
	}
	r, err := experiment.NewResults(e)
	if err != nil {
		return nil, err
	}
	for i, j := range r.Jobs {
		s, err := sim.New(j.Config, j.Seed)
		if err != nil {
			return nil, err
		}
		if r.Runs[i], err = s.Run(context.Background(), nil); err != nil {
			return nil, err
		}
	}
	return r, nil
})

func qcnResults(t *testing.T) *experiment.Results {
	t.Helper()
	r, err := qcnTransient()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// seriesXY decodes a line series' [x, y] points.
func seriesXY(t *testing.T, data []json.RawMessage) (xs, ys []float64) {
	t.Helper()
	for _, d := range data {
		var v struct{ Value []float64 }
		if err := json.Unmarshal(d, &v); err != nil || len(v.Value) != 2 {
			t.Fatalf("point %s: %v", d, err)
		}
		xs, ys = append(xs, v.Value[0]), append(ys, v.Value[1])
	}
	return
}

// The per-port probability chart (QCN-Switch paper Fig. 12b, h=4): shown
// for a QCN-Switch transient before it runs, not for other routings; from
// the run, the middle router of group 0 (router 4 of a = 8) with its 11
// transit ports, the port toward S_out (router 7, whose global link reaches
// group 1: port p + 7 − 1 = 10) named and in the legend alone, snapshots
// every sim.interval (20 µs). Its probability is 100% before the switch
// and below 20% at every snapshot from 1,000 cycles after it (measured:
// 100 → 10.5%, then the additive increase's slow climb to 12.5% by 9,000
// cycles; the engine's TestQCNTransientProbabilities measures 0.7% after
// 10,000 cycles of a longer run).
func TestQCNProbabilityChart(t *testing.T) {
	e, _ := experiment.PresetByName("qcn-transient-h4")
	if v := Visible(&e, nil); !has(v, "qcnprobability") || !has(v, "qcncnm") {
		t.Errorf("qcn-transient-h4 before running: %v", v)
	}
	if v := Visible(&experiment.Presets()[0].Exp, nil); has(v, "qcnprobability") || has(v, "qcncnm") {
		t.Errorf("MIN vs VAL shows the QCN charts: %v", v)
	}
	if ad, _ := experiment.PresetByName("qcn-adv1-h4"); !has(Visible(&ad, nil), "qcnprobability") || !has(Visible(&ad, nil), "qcncnm") {
		t.Errorf("a steady QCN-Switch sweep: %v (the CNM chart and the probability trace)", Visible(&ad, nil))
	}
	r := qcnResults(t)
	b := QCNProbability(Input{Results: r, Router: -1})
	checkConfined(t, map[string][]byte{"qcnprobability": b})
	o := decode(t, "qcnprobability", b)
	if len(o.Series) != 11 {
		t.Fatalf("%d lines, want the 11 transit ports of one router at h=4", len(o.Series))
	}
	raw := rawOption(t, b)
	if sub, _ := first(raw, "title")["subtext"].(string); !strings.Contains(sub, "router 4 of group 0") || !strings.Contains(sub, "S_out = router 7") {
		t.Errorf("subtitle %q", sub)
	}
	legend, _ := first(raw, "legend")["data"].([]any)
	if len(legend) != 1 || !strings.Contains(legend[0].(string), "toward S_out (port 10 → router 7)") {
		t.Fatalf("legend %v, want the port toward S_out alone", legend)
	}
	if o.XAxis[0].Name != "time from the pattern switch (cycles)" {
		t.Errorf("x axis %q", o.XAxis[0].Name)
	}
	var out []float64
	var xs []float64
	for _, s := range o.Series {
		if s.Name == legend[0] {
			xs, out = seriesXY(t, s.Data)
		}
	}
	var before, after []float64
	for i, x := range xs {
		if i > 0 && x-xs[i-1] != 1000 {
			t.Fatalf("snapshots %v apart, want sim.interval = 1,000 cycles (20 µs)", x-xs[i-1])
		}
		switch {
		case x < 0:
			before = append(before, out[i])
		case x >= 1000:
			after = append(after, out[i])
		}
	}
	mean := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	t.Logf("port toward S_out: %v", out)
	if len(before) == 0 || mean(before) < 99 || len(after) < 8 || slices.Max(after) >= 20 {
		t.Errorf("P toward S_out: %.1f%% before the switch (want ≈ 100), %v from 1,000 cycles after (want all < 20)", mean(before), after)
	}
	// another router: router 7 is S_out itself, its global port 14 leads to group 1
	raw = rawOption(t, QCNProbability(Input{Results: r, Router: 7}))
	if l, _ := first(raw, "legend")["data"].([]any); len(l) != 1 || !strings.Contains(l[0].(string), "port 14 → group 1") {
		t.Errorf("router 7's legend %v, want its global port to group 1", l)
	}
}

// A steady run's trace (result.SeriesProbabilities) in the same chart
// (QCN-Switch paper Fig. 12b's port, without a switch): qcn-adv1-h4's
// QCN-Switch series at h=2 (72 nodes, 5 transit ports per router), ADV+1
// at 0.4, 10,000 + 2,500 cycles: time from the start of the run, a point
// every sim.interval (1,000 cycles) and the run's end, the measured
// window marked at the end of the warm-up; the middle router's port toward
// S_out falls from 100% and is below 10% over the measured window
// (measured: under 1.1%; 1.3% over a longer window in engine/sim's TestQCNSteadyProbabilities).
func TestQCNProbabilityChartSteady(t *testing.T) {
	e, _ := experiment.PresetByName("qcn-adv1-h4")
	e.Series = e.Series[:1]
	c := &e.Series[0]
	if c.Routing.Name != "QCN_SWITCH" {
		t.Fatalf("series 1 is %s", c.Routing.Name)
	}
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 10000, 2500, 1000, 1
	e.Sweep = experiment.Sweep{Param: "traffic.load", From: 0.4, To: 0.4, Step: 0.1}
	r := runJobs(t, e, nil)
	if r.Runs[0].SeriesProbabilities == nil {
		t.Fatal("no trace in the steady run")
	}
	b := QCNProbability(Input{Results: r, Router: -1})
	checkConfined(t, map[string][]byte{"qcnprobability": b})
	o := decode(t, "qcnprobability", b)
	if len(o.Series) != 5 || o.XAxis[0].Name != "time from the start of the run (cycles)" {
		t.Fatalf("%d lines (want 5), x axis %q", len(o.Series), o.XAxis[0].Name)
	}
	raw := rawOption(t, b)
	legend, _ := first(raw, "legend")["data"].([]any)
	if len(legend) != 1 || !strings.Contains(legend[0].(string), "toward S_out") {
		t.Fatalf("legend %v", legend)
	}
	if !strings.Contains(string(b), `"xAxis":10000`) || !strings.Contains(string(b), "measured →") {
		t.Error("the end of the warm-up is not marked")
	}
	var xs, ys []float64
	for _, s := range o.Series {
		if s.Name == legend[0] {
			xs, ys = seriesXY(t, s.Data)
		}
	}
	t.Logf("port toward S_out at %v: %v", xs, ys)
	if len(xs) != 13 || xs[0] != 1000 || xs[11] != 12000 || xs[12] != 12500 || ys[0] != 100 {
		t.Fatalf("points at %v, first %v (want 1,000 … 12,000, 12,500; 100%%)", xs, ys)
	}
	if m := slices.Max(ys[10:]); m >= 10 {
		t.Errorf("P toward S_out up to %v%% in the measured window (want < 10)", m)
	}
}

// With several series (the paper's Figs. 12b and 14b compare CPC and L_f
// values), each series' port toward S_out only, in its colour: here the
// same run as two series.
func TestQCNProbabilityChartSeries(t *testing.T) {
	r := qcnResults(t)
	two := *r
	two.Exp = r.Exp.Clone()
	two.Exp.Series = append(two.Exp.Series, two.Exp.Series[0])
	two.Exp.Series[1].Name = "again"
	two.Jobs = append(append([]experiment.Job(nil), r.Jobs...), r.Jobs[0])
	two.Jobs[1].Series, two.Jobs[1].Index = 1, 1
	two.Runs = append(append([]*result.Result(nil), r.Runs...), r.Runs[0])
	o := decode(t, "qcnprobability", QCNProbability(Input{Results: &two, Router: -1}))
	if len(o.Series) != 2 || !strings.HasPrefix(o.Series[1].Name, "again · toward S_out") {
		t.Fatalf("%d lines, the second %q", len(o.Series), o.Series[len(o.Series)-1].Name)
	}
	_, a := seriesXY(t, o.Series[0].Data)
	_, b := seriesXY(t, o.Series[1].Data)
	if !slices.Equal(a, b) {
		t.Errorf("the same run drawn twice differs: %v, %v", a, b)
	}
}

// The CNM chart: one point per series and load from mechanisms.qcn, the
// CNMs' share of the link phits (%) and their mean latency on the right
// axis in cycles (µs with a physical basis).
func TestQCNNotificationsChart(t *testing.T) {
	r := qcnResults(t)
	b := QCNNotifications(Input{Results: r})
	checkConfined(t, map[string][]byte{"qcncnm": b})
	o := decode(t, "qcncnm", b)
	if len(o.Series) != 2 || len(o.YAxis) != 2 || o.YAxis[1].Name != "mean CNM latency (cycles)" {
		t.Fatalf("series %d, axes %+v", len(o.Series), o.YAxis)
	}
	q := r.Runs[0].Mechanisms["qcn"]
	_, share := seriesXY(t, o.Series[0].Data)
	_, lat := seriesXY(t, o.Series[1].Data)
	if len(share) != 1 || share[0] <= 0 || share[0] != num(100*q["cnmLinkShare"]) || len(lat) != 1 || lat[0] != num(q["cnmMeanLatency"]) {
		t.Errorf("share %v, latency %v; report %v", share, lat, q)
	}
	if e := (QCNNotifications(Input{Results: tinyResults(t, experiment.Default(), nil)})); !strings.Contains(string(e), "no CNM report") {
		t.Errorf("MIN vs VAL: %s", e)
	}
}

// The CNMs over time (h=4, the transient of qcnResults): one line for the
// QCN-Switch run, its points the run's CNMs per sim.interval
// (result.SeriesCNMs) at the interval ends, adding up to the CNMs the
// report counts (sent, dropped, processed at their own router), some after
// the switch to ADV+1; MIN vs VAL has none.
func TestQCNNotificationsOverTimeChart(t *testing.T) {
	r := qcnResults(t)
	b := QCNNotificationsOverTime(Input{Results: r})
	checkConfined(t, map[string][]byte{"qcncnmtime": b})
	o := decode(t, "qcncnmtime", b)
	if len(o.Series) != 1 {
		t.Fatalf("series %d", len(o.Series))
	}
	run := r.Runs[0]
	xs, ys := seriesXY(t, o.Series[0].Data)
	var sum float64
	if len(xs) != len(run.Series) || len(run.SeriesCNMs) != len(run.Series) {
		t.Fatalf("%d points, %d samples, %d intervals of CNMs", len(xs), len(run.Series), len(run.SeriesCNMs))
	}
	for i, smp := range run.Series {
		if xs[i] != float64(smp.Cycle) || ys[i] != num(float64(run.SeriesCNMs[i])) {
			t.Fatalf("point %d: (%v, %v), want (%d, %v)", i, xs[i], ys[i], smp.Cycle, run.SeriesCNMs[i])
		}
		sum += ys[i]
	}
	q := run.Mechanisms["qcn"]
	if want := q["cnmSent"] + q["cnmDropped"] + q["cnmSelf"]; sum != want || sum == 0 {
		t.Errorf("CNMs over time add up to %v, the report counts %v (%v)", sum, want, q)
	}
	if e := (QCNNotificationsOverTime(Input{Results: tinyResults(t, experiment.Default(), nil)})); !strings.Contains(string(e), "no CNM report") {
		t.Errorf("MIN vs VAL: %s", e)
	}
}
