package plot

import (
	"slices"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// The latency's two parts against the load (thesis §1.5; Figs. 3.3–3.4 split
// in-transit routing's latency so under ADVc): every synthetic experiment
// shows them, each curve plots the runs' injection wait and network latency,
// and the two add up to the latency curve's value (h=2 MIN under ADVc, loads
// 0.1 and 0.3: below and above its plateau at h/(a·p) = 0.25, where the
// injection wait grows; tinyResults).
func TestLatencyPartsCharts(t *testing.T) {
	c, err := config.PresetByName("h2")
	if err != nil {
		t.Fatal(err)
	}
	c.Sim.Seeds = 1
	c.Traffic.Pattern = "ADVC"
	e := experiment.Experiment{Series: []config.Config{c},
		Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.1, To: 0.3, Step: 0.2}}
	if v := Visible(&e, nil); !slices.Contains(v, "injlatency") || !slices.Contains(v, "netlatency") {
		t.Fatalf("synthetic experiment: charts %v", v)
	}
	r := tinyResults(t, e, nil)
	charts := map[string][]byte{}
	for _, n := range []string{"latency", "injlatency", "netlatency"} {
		charts[n] = Builders[n](Input{Results: r})
	}
	checkConfined(t, charts)
	curve := func(name string) []float64 {
		got := firstSeriesY(t, name, charts[name])
		if len(got) != 2 {
			t.Fatalf("%s: %d points", name, len(got))
		}
		return got
	}
	lat, inj, net := curve("latency"), curve("injlatency"), curve("netlatency")
	for i := range 2 {
		run := r.RunsAt(0, i)[0]
		if inj[i] != num(run.InjLatency) || net[i] != num(run.NetLatency) {
			t.Errorf("point %d: curves %v + %v, run %v + %v", i, inj[i], net[i], run.InjLatency, run.NetLatency)
		}
		if d := inj[i] + net[i] - lat[i]; d > 0.01 || d < -0.01 {
			t.Errorf("point %d: injection wait %v + network %v ≠ latency %v", i, inj[i], net[i], lat[i])
		}
	}
	// past MIN's ADVc plateau the source queues fill: the wait grows from a
	// few cycles to most of the latency
	if !(inj[0] < 0.2*lat[0] && inj[1] > 5*inj[0]) {
		t.Errorf("injection wait %v of latency %v at 0.1 and 0.3", inj, lat)
	}
}
