package plot

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sim"
	"phitsim/site/experiment"
	"phitsim/site/protocol"
)

func tinyResults(t *testing.T, e experiment.Experiment, skip func(j experiment.Job) bool) *experiment.Results {
	t.Helper()
	for i := range e.Series {
		e.Series[i].Sim.Warmup, e.Series[i].Sim.Cycles = 300, 1200
		e.Series[i].Sim.Interval = 100
	}
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
	if len(in.Running) != 2 {
		t.Fatalf("running %+v", in.Running)
	}
	o := decode(t, "accepted", Accepted(in))
	if o.Title[0].Text != "Accepted vs offered load" || !strings.Contains(o.XAxis[0].Name, "offered load (phits/node/cycle)") ||
		!strings.Contains(o.YAxis[0].Name, "accepted load") {
		t.Errorf("axes %+v %+v %+v", o.Title, o.XAxis, o.YAxis)
	}
	// MIN, VAL, running, diagonal
	if len(o.Series) != 4 || o.Series[0].Name != "MIN" || o.Series[1].Name != "VAL" || o.Series[2].Name != "running (partial)" {
		t.Fatalf("series %+v", o.Series)
	}
	if len(o.Series[0].Data) != 3 || len(o.Series[1].Data) != 2 || len(o.Series[2].Data) != 2 {
		t.Errorf("points: %d %d %d", len(o.Series[0].Data), len(o.Series[1].Data), len(o.Series[2].Data))
	}
	if o.Series[0].Dimensions[2] != "±CI95" {
		t.Errorf("dimensions %v", o.Series[0].Dimensions)
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
	if len(o.Toolbox) == 0 || len(o.DataZoom) != 2 {
		t.Errorf("toolbox %v datazoom %v", o.Toolbox, o.DataZoom)
	}
	tb, _ := json.Marshal(o.Toolbox)
	if !strings.Contains(string(tb), "saveAsImage") {
		t.Errorf("toolbox %s", tb)
	}
	o = decode(t, "latency", Latency(in))
	if !strings.Contains(o.YAxis[0].Name, "latency (cycles)") || len(o.Series) != 3 {
		t.Errorf("latency %+v", o)
	}
}

func TestPointCharts(t *testing.T) {
	e, _ := experiment.PresetByName("transient")
	r := tinyResults(t, e, nil)
	in := Input{Results: r, Point: 0}
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
	if len(o.Series) != 1 { // no diagonal when the load is not swept
		t.Errorf("%d series", len(o.Series))
	}
}
