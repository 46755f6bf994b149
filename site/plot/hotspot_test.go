package plot

import (
	"encoding/json"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/units"
	"phitsim/site/experiment"
)

// hotspotExperiment: Kim et al.'s Fig. 2 pattern (16-node flattened
// butterfly, senders 0, 5, 8, 12 → 4), MIN and UGAL, background loads 0.1
// and 0.2, 1 seed, 300 + 1,200 cycles (tinyResults).
func hotspotExperiment() experiment.Experiment {
	c := config.FBFly(1, 4, 4)
	c.Sim.Seeds = 1
	c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders = "HOTSPOT", 4, "0,5,8,12"
	u := c
	u.Routing.Name = "UGAL"
	return experiment.Experiment{Series: []config.Config{c, u},
		Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.1, To: 0.2, Step: 0.1}}
}

// HOTSPOT's charts (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §V-A, Figs. 2, 14): shown for a HOTSPOT experiment
// only; the background curves plot the aggregates' background class, the
// sender chart one bar per sender and series, the runs' bandwidths.
func TestHotspotCharts(t *testing.T) {
	e := hotspotExperiment()
	vis := strings.Join(Visible(&e, nil), ",")
	if !strings.Contains(vis, "bgaccepted,bglatency,hotspotsenders") {
		t.Errorf("HOTSPOT experiment: charts %s", vis)
	}
	if d := experiment.Default(); strings.Contains(strings.Join(Visible(&d, nil), ","), "hotspot") {
		t.Errorf("default experiment shows the hotspot charts")
	}
	r := tinyResults(t, e, nil)
	charts := map[string][]byte{"bgaccepted": BackgroundAccepted(Input{Results: r}),
		"bglatency": BackgroundLatency(Input{Results: r}), "hotspotsenders": HotspotSenders(Input{Results: r})}
	checkConfined(t, charts)
	o := decode(t, "bglatency", charts["bglatency"])
	if len(o.Series) < 2 {
		t.Fatalf("bglatency: %d series", len(o.Series))
	}
	var lat []float64
	for _, d := range o.Series[0].Data {
		var v struct{ Value []float64 } // x, y, CI, …
		if err := json.Unmarshal(d, &v); err != nil || len(v.Value) < 2 {
			t.Fatalf("point %s: %v", d, err)
		}
		lat = append(lat, v.Value[1])
	}
	want := []float64{num(r.RunsAt(0, 0)[0].Hotspot.Background.Latency.Avg), num(r.RunsAt(0, 1)[0].Hotspot.Background.Latency.Avg)}
	if len(lat) != 2 || lat[0] != want[0] || lat[1] != want[1] {
		t.Errorf("MIN background latency curve %v, runs %v", lat, want)
	}
	o = decode(t, "hotspotsenders", charts["hotspotsenders"])
	if len(o.Series) != 2 || len(o.Series[0].Data) != 4 || !strings.Contains(o.Title[0].Text, "into node 4") {
		t.Fatalf("senders chart: %d series, %s", len(o.Series), charts["hotspotsenders"])
	}
	// in physical units each sender's bandwidth is a node's rate, in Gb/s (it
	// stayed in phits/cycle on a page shown in Gb/s)
	var ax struct {
		YAxis []struct{ Name string } `json:"yAxis"`
	}
	b := units.Basis{LinkGbps: 40, PhitBytes: 100}
	if err := json.Unmarshal(Physical(charts["hotspotsenders"], b), &ax); err != nil || len(ax.YAxis) == 0 || !strings.Contains(ax.YAxis[0].Name, "(Gb/s per node; each sender's)") {
		t.Errorf("senders chart in physical units: %+v %v", ax, err)
	}
	run := r.RunsAt(1, 0)[0].Hotspot // UGAL, load 0.1 (the selected point)
	for i, d := range o.Series[1].Data {
		var bar struct{ Value float64 }
		if err := json.Unmarshal(d, &bar); err != nil || bar.Value != num(run.SenderAccepted[i]) || bar.Value <= 0 {
			t.Errorf("UGAL sender %d: bar %s (%v), run %v", run.Senders[i], d, err, run.SenderAccepted[i])
		}
	}
	if b := HotspotSenders(Input{Results: tinyResults(t, experiment.Default(), nil)}); !strings.Contains(string(b), "no HOTSPOT result") {
		t.Errorf("MIN vs VAL: %s", b)
	}
}
