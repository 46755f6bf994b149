package plot

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/site/experiment"
	"phitsim/site/protocol"
)

func tinyResults(t testing.TB, e experiment.Experiment, skip func(j experiment.Job) bool) *experiment.Results {
	t.Helper()
	for i := range e.Series {
		e.Series[i].Sim.Warmup, e.Series[i].Sim.Cycles = 300, 1200
		e.Series[i].Sim.Interval = 100
	}
	return runJobs(t, e, skip)
}

// runJobs runs the jobs of an experiment natively, but those skip names.
func runJobs(t testing.TB, e experiment.Experiment, skip func(j experiment.Job) bool) *experiment.Results {
	t.Helper()
	r, err := experiment.NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range r.Jobs {
		if skip != nil && skip(j) {
			continue
		}
		s, err := sim.New(j.Config, j.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if r.Runs[i], err = s.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		s.AddBusiestLink(r.Runs[i]) // as the page's worker
	}
	return r
}

type option struct {
	Title   []struct{ Text string } `json:"title"`
	Legend  []struct{ Show bool }   `json:"legend"`
	Tooltip []struct{ Trigger string }
	XAxis   []struct{ Name, Type string } `json:"xAxis"`
	YAxis   []struct{ Name string }       `json:"yAxis"`
	Series  []struct {
		Name       string
		Type       string
		Data       []json.RawMessage
		Dimensions []string
		MarkLine   *struct{ Data []json.RawMessage } `json:"markLine"`
	}
	Toolbox  []map[string]any `json:"toolbox"`
	DataZoom []map[string]any `json:"dataZoom"`
}

func decode(t *testing.T, name string, b []byte) option {
	t.Helper()
	if dir := os.Getenv("PHITSIM_PLOT_DUMP"); dir != "" {
		os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644)
	}
	var o option
	// go-echarts renders title/legend/… as objects or arrays depending on
	// the component; normalise objects into one-element arrays
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: invalid JSON: %v", name, err)
	}
	for k, v := range raw {
		if len(v) > 0 && v[0] == '{' {
			raw[k] = json.RawMessage("[" + string(v) + "]")
		}
	}
	nb, _ := json.Marshal(raw)
	if err := json.Unmarshal(nb, &o); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, b)
	}
	return o
}

func TestCurveCharts(t *testing.T) {
	e := experiment.Default()
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.2, To: 0.6, Step: 0.2}
	r := tinyResults(t, e, func(j experiment.Job) bool { return j.Series == 1 && j.Point == 2 })
	partial := map[int]protocol.Partial{}
	for i, j := range r.Jobs {
		if j.Series == 1 && j.Point == 2 {
			partial[i] = protocol.Partial{Measured: true, Accepted: 0.5, Latency: 300}
		}
	}
	in := Input{Results: r, Running: RunningFrom(r, partial), Point: 1}
	checkConfined(t, All(in))
	if len(in.Running) != 2 {
		t.Fatalf("running %+v", in.Running)
	}
	o := decode(t, "accepted", Accepted(in))
	if o.Title[0].Text != "Accepted vs offered load" || !strings.Contains(o.XAxis[0].Name, "offered load (phits/node/cycle)") ||
		!strings.Contains(o.YAxis[0].Name, "accepted load") {
		t.Errorf("axes %+v %+v %+v", o.Title, o.XAxis, o.YAxis)
	}
	// MIN, VAL, running, diagonal (and the triangles' legend if a point saturated)
	if len(o.Series) < 4 || o.Series[0].Name != "MIN" || o.Series[1].Name != "VAL" || o.Series[2].Name != "running (partial)" {
		t.Fatalf("series %+v", o.Series)
	}
	if len(o.Series[0].Data) != 3 || len(o.Series[1].Data) != 2 || len(o.Series[2].Data) != 2 {
		t.Errorf("points: %d %d %d", len(o.Series[0].Data), len(o.Series[1].Data), len(o.Series[2].Data))
	}
	// the tooltip says what the whiskers are, with the seed count and t
	// and the point's verdict and tail latency (engine/METHODS.md)
	if d := o.Series[0].Dimensions; len(d) != 11 || !strings.HasPrefix(d[7], "busiest link") || !strings.HasPrefix(d[8], "latency p50") || !strings.HasPrefix(d[10], "latency p99.9") || !strings.Contains(d[2], "95% CI of the mean over 2 seeds") ||
		!strings.Contains(d[2], "Student t = 12.7") || !strings.Contains(d[2], "wide") || !strings.HasPrefix(d[4], "saturated ▲") ||
		!strings.HasPrefix(d[5], "verdict (0 steady") || !strings.Contains(d[6], "p99") {
		t.Errorf("dimensions %v", d)
	}
	// whiskers from the CIs (2 seeds → CI > 0), and VAL's 0.5 bound
	if o.Series[1].MarkLine == nil || len(o.Series[1].MarkLine.Data) != 3 {
		t.Errorf("VAL marks %+v", o.Series[1].MarkLine)
	}
	if !strings.Contains(string(o.Series[1].MarkLine.Data[2]), `"yAxis":0.5`) {
		t.Errorf("no VAL bound: %s", o.Series[1].MarkLine.Data[2])
	}
	var first []float64
	json.Unmarshal(o.Series[0].Data[0], &struct{ Value *[]float64 }{&first})
	p := r.Points()[0]
	if first[0] != 0.2 || first[1] != num(p.Agg.Accepted.Mean) || first[2] != num(p.Agg.Accepted.CI95) {
		t.Errorf("first point %v vs %+v", first, p.Agg.Accepted)
	}
	// the busiest link of the point's runs, in the tooltip's eighth value,
	// then the latency p50, p90 and p99.9 (p99 is the seventh)
	if l := p.Agg.Quality.Links.Link; l == nil || len(first) != 11 || first[7] != l.Utilisation || !(l.Utilisation > 0 && l.Utilisation <= 1) {
		t.Errorf("first point %v: busiest link %+v not its eighth value", first, l)
	}
	if ps := p.Agg.Quality.Percentiles; len(ps) != 4 || len(first) != 11 || first[8] != float64(ps[0].Cycles) || first[9] != float64(ps[1].Cycles) ||
		first[6] != float64(ps[2].Cycles) || first[10] != float64(ps[3].Cycles) || !(first[8] <= first[9] && first[9] <= first[6] && first[6] <= first[10]) {
		t.Errorf("first point %v: percentiles %+v not in the tooltip", first, ps)
	}
	if len(o.Toolbox) == 0 || len(o.DataZoom) != 2 {
		t.Errorf("toolbox %v datazoom %v", o.Toolbox, o.DataZoom)
	}
	tb, _ := json.Marshal(o.Toolbox)
	if !strings.Contains(string(tb), "saveAsImage") {
		t.Errorf("toolbox %s", tb)
	}
	o = decode(t, "latency", Latency(in))
	if !strings.Contains(o.YAxis[0].Name, "latency (cycles)") || len(o.Series) < 3 || o.Series[2].Name != "running (partial)" {
		t.Errorf("latency %+v", o)
	}
	// each point marked by its verdict (these short runs' MIN points are
	// too short: open circles), and the legend says what the mark means
	for i, d := range o.Series[0].Data {
		var pt struct {
			Symbol string
			Value  []float64
		}
		json.Unmarshal(d, &pt)
		q := r.Points()[i].Agg.Quality
		if q.Verdict == result.TooShort && (pt.Symbol != "emptyCircle" || pt.Value[5] != 3) {
			t.Errorf("MIN point %d (%s): %s", i, q.Verdict, d)
		}
	}
	legend := false
	for _, s := range o.Series {
		legend = legend || strings.HasPrefix(s.Name, "○ too short")
	}
	if !legend {
		t.Errorf("no legend entry for too short points: %+v", o.Series)
	}
}

func TestPointCharts(t *testing.T) {
	e, _ := experiment.PresetByName("transient")
	r := tinyResults(t, e, nil)
	in := Input{Results: r, Point: 0}
	checkConfined(t, All(in))
	o := decode(t, "fairness", Fairness(in))
	if o.Series[0].Type != "bar" || len(o.Series) != 2 || len(o.Series[0].Data) != 36 {
		t.Errorf("fairness %d series, %d bars", len(o.Series), len(o.Series[0].Data))
	}
	if !strings.Contains(o.Title[0].Text, "offered load 0.3") {
		t.Errorf("title %q", o.Title[0].Text)
	}
	o = decode(t, "histogram", Histogram(in))
	if len(o.Series) != 2 || len(o.Series[0].Data) == 0 {
		t.Errorf("histogram %+v", o.Series)
	}
	o = decode(t, "timeseries", TimeSeries(in))
	if len(o.Series) != 4 || len(o.YAxis) != 2 || len(o.Series[0].Data) != 15 {
		t.Errorf("timeseries: %d series, %d y axes, %d samples", len(o.Series), len(o.YAxis), len(o.Series[0].Data))
	}
	if o.Series[0].MarkLine == nil || len(o.Series[0].MarkLine.Data) != 2 {
		t.Errorf("warm-up and switch marks missing")
	}
}

func TestEmptyAndOtherVariable(t *testing.T) {
	for name, b := range All(Input{}) {
		decode(t, "empty-"+name, b)
	}
	e := experiment.Experiment{Series: []config.Config{experiment.Default().Series[1]},
		Sweep: experiment.Sweep{Param: "router.localBuffer", From: 16, To: 32, Step: 16}}
	r := tinyResults(t, e, nil)
	o := decode(t, "buffers", Accepted(Input{Results: r}))
	if o.Title[0].Text != "Accepted vs router.localBuffer" || o.XAxis[0].Name != "router.localBuffer (phits)" {
		t.Errorf("%q %q", o.Title[0].Text, o.XAxis[0].Name)
	}
	for _, s := range o.Series { // no diagonal when the load is not swept
		if s.Name == "accepted = offered" {
			t.Errorf("series %+v", o.Series)
		}
	}
}

// runAll runs every job of an experiment natively, as it is.
func runAll(t *testing.T, e experiment.Experiment) *experiment.Results {
	t.Helper()
	return runJobs(t, e, nil)
}

func has(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestVisible(t *testing.T) {
	d := experiment.Default()
	v := Visible(&d, nil)
	for _, c := range []string{"accepted", "latency", "fairness", "histogram", "timeseries", "misrouting", "nonminimal"} {
		if !has(v, c) {
			t.Errorf("default experiment: %s missing from %v", c, v)
		}
	}
	for _, c := range []string{"exectime", "acor", "bfs", "phasea"} {
		if has(v, c) {
			t.Errorf("default experiment shows %s", c)
		}
	}
	onlyMin := experiment.Experiment{Series: d.Series[:1], Sweep: d.Sweep}
	if v := Visible(&onlyMin, nil); has(v, "misrouting") {
		t.Errorf("MIN alone shows the misrouting charts: %v", v)
	}
	acor, _ := experiment.PresetByName("acor-adv1")
	if v := Visible(&acor, nil); !has(v, "acor") || !has(v, "acorrouters") {
		t.Errorf("ACOR experiment: %v", v)
	}
	g, _ := experiment.PresetByName("graph500-tq-bw")
	v = Visible(&g, nil)
	if !reflect.DeepEqual(v, []string{"exectime", "usage", "fairness", "histogram", "bfs", "levels"}) {
		t.Errorf("Graph500 charts %v", v)
	}
	for _, c := range v {
		if !has(experiment.Charts, c) {
			t.Errorf("%s is not a chart a link can name", c)
		}
	}
	for _, c := range experiment.Charts {
		if Builders[c] == nil {
			t.Errorf("no builder for %s", c)
		}
	}
}

// adaptiveExp: VAL, ACOR-Switch 3L and PB under ADV+1 on h=2, one point.
func adaptiveExp() experiment.Experiment {
	base := experiment.Default().Series[0]
	base.Traffic.Pattern, base.Sim.Seeds = "ADV", 2
	base.Sim.Warmup, base.Sim.Cycles, base.Sim.Interval = 500, 1500, 100
	var series []config.Config
	for _, n := range []string{"VAL", "ACOR", "PB"} {
		c := base
		c.Name, c.Routing.Name = n, n
		series = append(series, c)
	}
	return experiment.Experiment{Series: series, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.4, To: 0.4}}
}

func TestAdaptiveCharts(t *testing.T) {
	r := runAll(t, adaptiveExp())
	in := Input{Results: r, Point: 0}
	checkConfined(t, All(in))
	v := Visible(&r.Exp, r)
	for _, c := range []string{"misrouting", "nonminimal", "phasea", "acor", "acorrouters"} {
		if !has(v, c) {
			t.Errorf("%s not shown: %v", c, v)
		}
	}
	o := decode(t, "misrouting", Misrouting(in))
	if len(o.Series) < 3 || o.Series[0].Name != "at injection" || o.Series[0].Type != "bar" || len(o.Series[0].Data) != 3 {
		t.Fatalf("misrouting %+v", o.Series)
	}
	// the stacks add up to the misrouted share of each series
	for si := 0; si < 3; si++ {
		var sum, want float64
		for _, s := range o.Series {
			var d struct{ Value float64 }
			json.Unmarshal(s.Data[si], &d)
			sum += d.Value
		}
		for _, rr := range r.RunsAt(si, 0) {
			want += 100 * rr.Misrouted.Fraction / 2
		}
		if math.Abs(sum-want) > 1e-3*math.Max(1, want) || want == 0 {
			t.Errorf("series %d: stacks %g, misrouted %g%%", si, sum, want)
		}
	}
	o = decode(t, "phasea", PhaseA(in))
	if len(o.Series) == 0 || len(o.Series[0].Data) != 3 {
		t.Errorf("phase A %+v", o.Series)
	}
	o = decode(t, "nonminimal", NonMinimal(in))
	if len(o.Series) != 3 || len(o.Series[0].Data) != 20 || o.Series[0].MarkLine == nil {
		t.Errorf("nonminimal: %d series, %d samples", len(o.Series), len(o.Series[0].Data))
	}
	var last struct{ Value []float64 }
	json.Unmarshal(o.Series[0].Data[19], &last)
	if last.Value[0] != 2000 || last.Value[1] <= 0 {
		t.Errorf("VAL's last sample %v", last.Value)
	}
	// only the ACOR series has levels: its mean level and routers at 2 and 3
	o = decode(t, "acor", Acor(in))
	if len(o.Series) != 3 || o.Series[0].Name != "ACOR level" || o.Series[2].Name != "ACOR routers at 3" || len(o.YAxis) != 2 {
		t.Fatalf("acor %+v", o.Series)
	}
	o = decode(t, "acorrouters", AcorRouters(in))
	if len(o.Series) != 1 || o.Series[0].Type != "heatmap" || len(o.Series[0].Data) != 36 {
		t.Errorf("acor routers: %d series, %d cells", len(o.Series), len(o.Series[0].Data))
	}
}

func TestGraph500Charts(t *testing.T) {
	c, err := config.PresetByName("graph500-h2")
	if err != nil {
		t.Fatal(err)
	}
	c.Workload.Scale, c.Sim.Seeds, c.Sim.Interval = 14, 2, 200
	c.Name = "40 Gb/s"
	c100 := c
	c100.Name, c100.Workload.LinkGbps = "100 Gb/s", 100
	e := experiment.Experiment{Series: []config.Config{c, c100}, Sweep: experiment.Sweep{Param: "workload.tq", From: 1, To: 15, Step: 14}}
	r := runAll(t, e)
	in := Input{Results: r, Point: 1}
	checkConfined(t, All(in))
	v := Visible(&r.Exp, r)
	if has(v, "accepted") || has(v, "timeseries") || !has(v, "exectime") || !has(v, "bfs") {
		t.Errorf("charts %v", v)
	}
	o := decode(t, "exectime", ExecTime(in))
	if o.Title[0].Text != "Execution time vs workload.tq" || o.XAxis[0].Name != "workload.tq (ns)" || !strings.Contains(o.YAxis[0].Name, "ms") {
		t.Errorf("%q %q %q", o.Title[0].Text, o.XAxis[0].Name, o.YAxis[0].Name)
	}
	if len(o.Series) != 2 || len(o.Series[0].Data) != 2 || len(o.Series[1].Data) != 2 {
		t.Fatalf("exectime %+v", o.Series)
	}
	pts := r.Points()
	var p0 struct{ Value []float64 }
	json.Unmarshal(o.Series[0].Data[1], &p0)
	if p0.Value[0] != 15 || p0.Value[1] != num(1e3*pts[1].Agg.Graph500.Seconds.Mean) || p0.Value[1] <= 0 {
		t.Errorf("point %v vs %+v", p0.Value, pts[1].Agg.Graph500.Seconds)
	}
	// CPU-bound at 15 ns: the time grows with tq
	var q0 struct{ Value []float64 }
	json.Unmarshal(o.Series[0].Data[0], &q0)
	if p0.Value[1] <= q0.Value[1] {
		t.Errorf("time at tq=15 (%g ms) not above tq=1 (%g ms)", p0.Value[1], q0.Value[1])
	}
	o = decode(t, "usage", Usage(in))
	if len(o.Series) != 2 || !strings.Contains(o.YAxis[0].Name, "usage") {
		t.Errorf("usage %+v", o)
	}
	o = decode(t, "bfs", BFS(in))
	first := r.RunsAt(0, 1)[0].Graph500
	if len(o.Series) != 2 || len(o.Series[0].Data) != len(first.Series)+1 || !strings.Contains(o.Title[0].Text, "seed 1") {
		t.Fatalf("bfs: %d series %q", len(o.Series), o.Title[0].Text)
	}
	b := BFS(in)
	var raw struct {
		Series []struct {
			MarkArea *struct{ Data [][]map[string]any } `json:"markArea"`
		}
	}
	json.Unmarshal(b, &raw)
	if raw.Series[0].MarkArea == nil || len(raw.Series[0].MarkArea.Data) != len(first.Levels) || raw.Series[0].MarkArea.Data[1][0]["name"] != "L1" {
		t.Errorf("BFS level areas %+v (levels %d)", raw.Series[0].MarkArea, len(first.Levels))
	}
	o = decode(t, "levels", Levels(in))
	if len(o.Series) != 2 || len(o.Series[0].Data) < len(first.Levels) {
		t.Errorf("levels %+v", o.Series)
	}
	// injection per router over the BFS's cycles, not the sim.cycles cap
	o = decode(t, "fairness", Fairness(in))
	var bar struct{ Value float64 }
	json.Unmarshal(o.Series[0].Data[0], &bar)
	if bar.Value < 1e-3 {
		t.Errorf("router 0 injection %g", bar.Value)
	}
}

// Every chart builds before any run has finished and with some runs only
// (the page draws them while an experiment runs).
func TestChartsWithoutRuns(t *testing.T) {
	g, _ := experiment.PresetByName("graph500-tq-routing")
	for _, e := range []experiment.Experiment{experiment.Default(), adaptiveExp(), g} {
		r, err := experiment.NewResults(e)
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range Builders {
			decode(t, "norun-"+name, b(Input{Results: r, Point: 0}))
			decode(t, "nil-"+name, b(Input{Point: 3}))
		}
	}
	r := runAll(t, adaptiveExp())
	r.Runs[0], r.Runs[3] = nil, nil
	for name, b := range Builders {
		decode(t, "some-"+name, b(Input{Results: r, Point: 0}))
	}
}

// checkConfined: every chart but the empty placeholder has a tooltip, and
// every tooltip is confined to the chart (a phone's 390 px screen).
func checkConfined(t *testing.T, charts map[string][]byte) {
	t.Helper()
	if len(charts) == 0 {
		t.Fatal("no charts")
	}
	for name, b := range charts {
		var m struct {
			Tooltip *struct{ Confine bool }
			Series  []json.RawMessage
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		switch {
		case m.Tooltip == nil && len(m.Series) > 0:
			t.Errorf("%s: a chart with %d series and no tooltip", name, len(m.Series))
		case m.Tooltip != nil && !m.Tooltip.Confine:
			t.Errorf("%s: tooltip not confined: %s", name, b)
		}
	}
}

// A chart of the selected point (per-router injection, the histogram, the
// time series…) before any run there has finished says "no results yet"
// rather than drawing empty axes; at a point with a finished run it draws.
func TestPointChartsBeforeTheirRuns(t *testing.T) {
	e := experiment.Default()
	e.Series = e.Series[:1]
	e.Series[0].Topology.H, e.Series[0].Topology.A, e.Series[0].Topology.P = 1, 2, 1
	e.Series[0].Sim.Seeds = 1
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.1, To: 0.2, Step: 0.1}
	r := tinyResults(t, e, func(j experiment.Job) bool { return j.Point == 1 })
	for _, b := range []struct {
		name string
		f    func(Input) []byte
	}{{"fairness", Fairness}, {"histogram", Histogram}, {"timeseries", TimeSeries}} {
		if s := string(b.f(Input{Results: r, Point: 1})); !strings.Contains(s, `"subtext":"no results yet"`) {
			t.Errorf("%s at a point with no finished run: %.300s", b.name, s)
		}
		if s := string(b.f(Input{Results: r, Point: 0})); strings.Contains(s, "no results yet") || !strings.Contains(s, `"data":[`) {
			t.Errorf("%s at a point with its run: %.300s", b.name, s)
		}
	}
}
