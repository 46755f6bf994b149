package plot

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
	"phitsim/site/experiment"
	"phitsim/site/netview"
	"phitsim/site/protocol"
)

// The time series of a HOTSPOT with a window (the RECN paper's Fig. 2,
// corner case 1 shortened: a window of cycles 400–800 in a 1,200-cycle run
// of the 64-host fat tree) shades the window, in cycles, and in µs once
// converted to the physical basis (8-ns cycles: 3.2–6.4 µs); without a
// window nothing is shaded.
func TestTimeSeriesShadesHotspotWindow(t *testing.T) {
	area := func(b []byte) [][]map[string]any {
		var raw struct {
			Series []struct {
				MarkArea *struct{ Data [][]map[string]any } `json:"markArea"`
			}
		}
		if err := json.Unmarshal(b, &raw); err != nil || len(raw.Series) == 0 {
			t.Fatalf("chart: %v", err)
		}
		if raw.Series[0].MarkArea == nil {
			return nil
		}
		return raw.Series[0].MarkArea.Data
	}
	c := config.RECNCornerCase(1)
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd = 400, 800
	e := experiment.Experiment{Series: []config.Config{c}, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.5, To: 0.5, Step: 0.1}}
	r := tinyResults(t, e, nil)
	r.Exp.Series[0].Sim.Warmup = 0
	in := Input{Results: r}
	a := area(TimeSeries(in))
	if len(a) != 1 || a[0][0]["xAxis"] != 400.0 || a[0][1]["xAxis"] != 800.0 || a[0][0]["name"] != "hotspot" {
		t.Fatalf("hotspot area %v; want cycles 400–800", a)
	}
	b, _ := basis(in)
	if a := area(Physical(TimeSeries(in), b)); len(a) != 1 || a[0][0]["xAxis"] != 3.2 || a[0][1]["xAxis"] != 6.4 {
		t.Errorf("physical hotspot area %v; want 3.2–6.4 µs", a)
	}
	r.Runs[0].Config.Traffic.HotspotEnd = 0
	if a := area(TimeSeries(in)); a != nil {
		t.Errorf("no window, area %v", a)
	}
}

// The RECN paper's Fig. 4 (SAQ utilisation: the busiest ingress side, the
// busiest egress side, the network) on its 64-host network, corner case 1
// shortened (the hotspot from 40 to 70 µs in a 150-µs run, 10-µs
// intervals), beside the IQ baseline: three lines for the RECN series and
// none for IQ, each point the result's own count at the end of its
// interval, the hotspot shaded, counts from 0; on the physical basis the
// time reads in µs and the counts stay counts. An experiment without RECN
// has no such chart.
func TestRECNSAQChart(t *testing.T) {
	c := config.RECNMechanism(1)
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd = int(40e3/8), int(70e3/8)
	c.Sim.Cycles, c.Sim.Interval = int(150e3/8), int(10e3/8)
	iq := c
	iq.Congestion.Scheme, iq.Name = "", "IQ"
	e := experiment.Experiment{Series: []config.Config{c, iq}, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.5, To: 0.5, Step: 0.1}}
	r := runJobs(t, e, nil)
	x := r.Runs[0].RECN
	if x == nil || x.PeakTotal == 0 {
		t.Fatalf("RECN run: %+v, want SAQs allocated", x)
	}
	in := Input{Results: r}
	var opt struct {
		XAxis []struct{ Name string } `json:"xAxis"`
		YAxis []struct {
			Name string
			Min  *float64
		} `json:"yAxis"`
		Series []struct {
			Name       string
			YAxisIndex int                                `json:"yAxisIndex"`
			Data       []struct{ Value []any }            `json:"data"`
			MarkArea   *struct{ Data [][]map[string]any } `json:"markArea"`
		}
	}
	decode := func(b []byte) {
		opt.Series = nil
		if err := json.Unmarshal(b, &opt); err != nil {
			t.Fatal(err)
		}
	}
	decode(RECNSAQs(in))
	if len(opt.Series) != 3 {
		t.Fatalf("%d lines, want 3 (the RECN series' ingress, egress, total; none for IQ)", len(opt.Series))
	}
	for k, want := range [][]int32{x.MaxIngress, x.MaxEgress, x.Total} {
		s := opt.Series[k]
		if s.YAxisIndex != k/2 || len(s.Data) != len(want) {
			t.Fatalf("%s: axis %d, %d points; want axis %d, %d points", s.Name, s.YAxisIndex, len(s.Data), k/2, len(want))
		}
		for i, p := range s.Data {
			d := p.Value
			if d[0] != float64(r.Runs[0].Series[i].Cycle) || d[1] != float64(want[i]) {
				t.Fatalf("%s point %d: %v, want (%d, %d)", s.Name, i, d, r.Runs[0].Series[i].Cycle, want[i])
			}
		}
	}
	if a := opt.Series[0].MarkArea; a == nil || a.Data[0][0]["xAxis"] != 5000.0 || a.Data[0][1]["xAxis"] != 8750.0 {
		t.Errorf("hotspot area %+v, want cycles 5000–8750", a)
	}
	for _, y := range opt.YAxis {
		if y.Min == nil || *y.Min != 0 {
			t.Errorf("axis %q does not start at 0", y.Name)
		}
	}
	b, ok := basis(in)
	if !ok {
		t.Fatal("no physical basis")
	}
	decode(Physical(RECNSAQs(in), b))
	if opt.XAxis[0].Name != "time (µs)" || opt.YAxis[0].Name != saqAxis {
		t.Errorf("physical axes %q, %q", opt.XAxis[0].Name, opt.YAxis[0].Name)
	}
	if a := opt.Series[0].MarkArea; a == nil || a.Data[0][0]["xAxis"] != 40.0 || a.Data[0][1]["xAxis"] != 70.0 {
		t.Errorf("physical hotspot area %+v, want 40–70 µs", a)
	}
	if last := opt.Series[2].Data[len(opt.Series[2].Data)-1].Value; last[0] != 150.0 || last[1] != float64(x.Total[len(x.Total)-1]) {
		t.Errorf("physical last total point %v, want (150 µs, %d)", last, x.Total[len(x.Total)-1])
	}
	if !slices.Contains(Visible(&e, r), "recnsaq") {
		t.Error("RECN experiment: no SAQ chart listed")
	}
	if e2 := (experiment.Experiment{Series: []config.Config{iq}, Sweep: e.Sweep}); slices.Contains(Visible(&e2, nil), "recnsaq") {
		t.Error("an IQ experiment lists the SAQ chart")
	}
}

// The live view of a RECN run (the RECN paper's congestion tree, §3.4) on
// its 64-host fat tree, corner case 1 shortened as TestRECNSAQChart: the
// worker's snapshots carry the SAQ counts, the scale's top is the most
// lines one switch or interface holds, and in the busiest frame the
// drawing colours each switch and host by its own count on that scale,
// with the legend "SAQs allocated". A run without RECN has no SAQ scale.
func TestNetGraphSAQ(t *testing.T) {
	c := config.RECNMechanism(1)
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd = int(40e3/8), int(70e3/8)
	c.Sim.Cycles = int(150e3 / 8)
	var frames []*protocol.NetInfo
	protocol.Execute(context.Background(), 1, &protocol.StartJob{Config: c, Seed: 1, Load: 0.5, Snapshots: 15}, func(m *protocol.Message) {
		if m.Type == protocol.Snapshot {
			frames = append(frames, m.Net)
		}
	}, nil)
	top, busiest, most := SAQTop(frames), -1, 0
	for i, f := range frames {
		tot := 0
		for _, v := range f.SAQs {
			tot += int(v)
		}
		if tot > most {
			busiest, most = i, tot
		}
	}
	if len(frames) != 15 || top < 2 || busiest < 0 {
		t.Fatalf("%d frames, scale top %d, busiest frame %d: want 15 frames with SAQs", len(frames), top, busiest)
	}
	ft, err := topology.NewFatTree(4, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	l := netview.New(ft)
	var m struct {
		VisualMap struct {
			Max  float64
			Text []string
		} `json:"visualMap"`
		Series []struct {
			Data []struct {
				Name      string
				ItemStyle struct{ Color string }
			}
		}
	}
	f := frames[busiest]
	if err := json.Unmarshal(NetGraphSAQ(l, f, "RECN", top), &m); err != nil {
		t.Fatal(err)
	}
	if m.VisualMap.Max != float64(top) || !strings.Contains(strings.Join(m.VisualMap.Text, " "), "SAQs allocated") {
		t.Errorf("legend %+v, want 0–%d \"SAQs allocated\"", m.VisualMap, top)
	}
	data := m.Series[0].Data
	if len(data) != len(l.Nodes) {
		t.Fatalf("%d nodes drawn, layout has %d", len(data), len(l.Nodes))
	}
	coloured := 0
	for i, nd := range l.Nodes {
		v := sumOf(f, func(n *protocol.NetInfo) []int32 { return n.SAQs }, nd.Routers)
		if len(nd.Routers) == 0 {
			v = sumOf(f, func(n *protocol.NetInfo) []int32 { return n.HostSAQs }, nd.Hosts)
		}
		if want := Viridis(float64(v) / float64(top)); data[i].ItemStyle.Color != want {
			t.Fatalf("%s with %d SAQs: colour %s, want %s", data[i].Name, v, data[i].ItemStyle.Color, want)
		}
		if v > 0 {
			coloured++
		}
	}
	t.Logf("frame %d of %d: %d SAQs, %d nodes holding some, scale top %d", busiest, len(frames), most, coloured, top)
	if SAQTop([]*protocol.NetInfo{{Radix: 8}}) != 0 {
		t.Error("frames without SAQ counts: a scale")
	}
}

// The SAQ chart with no line at the point shown says why: the RECN
// series' runs have not finished there (the experiment running, or
// cancelled before them: the recn-fig2a preset runs IQ, 4Q, VOQsw and
// VOQnet first; here IQ's run has finished), or no series runs RECN.
func TestRECNSAQChartEmpty(t *testing.T) {
	subtext := func(b []byte) string {
		var o struct {
			Title struct{ Text, Subtext string }
		}
		if err := json.Unmarshal(b, &o); err != nil {
			t.Fatalf("chart %v: %.200s", err, b)
		}
		return o.Title.Text + " / " + o.Title.Subtext
	}
	e, ok := experiment.PresetByName("recn-fig2a")
	if !ok || e.Series[len(e.Series)-1].Congestion.Scheme != "recn" {
		t.Fatal("recn-fig2a: no RECN series last")
	}
	e.Series = []config.Config{e.Series[0], e.Series[4]} // IQ, RECN
	r := tinyResults(t, e, func(j experiment.Job) bool { return j.Series == 1 })
	if s := subtext(RECNSAQs(Input{Results: r})); !strings.Contains(s, "no run of a RECN series has finished at this point yet") || strings.Contains(s, "set congestion.scheme") {
		t.Errorf("IQ finished, RECN not yet: %q", s)
	}
	e.Series = e.Series[:1] // IQ
	if s := subtext(RECNSAQs(Input{Results: tinyResults(t, e, nil)})); !strings.Contains(s, "set congestion.scheme=recn") {
		t.Errorf("no RECN series: %q", s)
	}
}
