package plot

import (
	"encoding/json"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// SRP's and UR1UR2's charts (Kim et al., Contention-based Congestion
// Management in Large-Scale Networks Fig. 5b): shown for an SRP UR1UR2
// experiment only; the UR1 latency curve plots the aggregates' UR1 class,
// the speculative-share curve SRP's share (16 nodes, UR1 loads 0.1 and
// 0.2, 1 seed, tinyResults).
func TestSRPAndUR1Charts(t *testing.T) {
	c := config.FBFly(1, 4, 4)
	c.Sim.Seeds = 1
	c.Traffic.Pattern, c.Traffic.SourceQueue, c.Traffic.SourceQueues, c.Traffic.MessagePackets = "UR1UR2", true, "perDestination", 4
	c.Congestion.Scheme = "srp"
	e := experiment.Experiment{Series: []config.Config{c},
		Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.1, To: 0.2, Step: 0.1}}
	vis := strings.Join(Visible(&e, nil), ",")
	if !strings.Contains(vis, "ur1accepted,ur1latency,srpspeculative,srpdropped") {
		t.Errorf("SRP UR1UR2 experiment: charts %s", vis)
	}
	if d := experiment.Default(); strings.Contains(strings.Join(Visible(&d, nil), ","), "ur1") || strings.Contains(strings.Join(Visible(&d, nil), ","), "srp") {
		t.Errorf("default experiment shows the UR1 or SRP charts")
	}
	r := tinyResults(t, e, nil)
	charts := map[string][]byte{}
	for _, n := range []string{"ur1accepted", "ur1latency", "srpspeculative", "srpdropped"} {
		charts[n] = Builders[n](Input{Results: r})
	}
	checkConfined(t, charts)
	for name, want := range map[string][]float64{
		"ur1latency":     {r.RunsAt(0, 0)[0].Groups[0].Class.Latency.Avg, r.RunsAt(0, 1)[0].Groups[0].Class.Latency.Avg},
		"srpspeculative": {r.RunsAt(0, 0)[0].Mechanisms["srp"]["speculativeShare"], r.RunsAt(0, 1)[0].Mechanisms["srp"]["speculativeShare"]},
	} {
		got := firstSeriesY(t, name, charts[name])
		if len(got) != 2 || got[0] != num(want[0]) || got[1] != num(want[1]) || want[0] <= 0 {
			t.Errorf("%s curve %v, runs %v", name, got, want)
		}
	}
}

// firstSeriesY is the y values of the first series of chart name's option.
func firstSeriesY(t *testing.T, name string, chart []byte) []float64 {
	t.Helper()
	o := decode(t, name, chart)
	if len(o.Series) < 1 {
		t.Fatalf("%s: no series", name)
	}
	var got []float64
	for _, d := range o.Series[0].Data {
		var v struct{ Value []float64 }
		if err := json.Unmarshal(d, &v); err != nil || len(v.Value) < 2 {
			t.Fatalf("%s point %s: %v", name, d, err)
		}
		got = append(got, v.Value[1])
	}
	return got
}
