package plot

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// The quality panel's rows (engine/METHODS.md, "Verdicts"): h=2 MIN under
// UN, 2,000 + 2,000 cycles in 50-cycle intervals, 1 seed (the network
// test of the verdicts, TestVerdictsOnTheNetwork): 0.1 is steady, 0.95
// saturated, each with its evidence (the trend slopes), the warm-up
// check, intervals, ordered percentiles, fairness and the busiest link;
// a warm-up shorter than the transient is flagged.
func TestQualityRows(t *testing.T) {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Name, c.Routing.Name, c.Traffic.Pattern = "MIN", "MIN", "UN"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 2000, 2000, 50, 1
	e := experiment.Experiment{Series: []config.Config{c}, Sweep: experiment.Sweep{Param: experiment.LoadParam, List: []float64{0.1, 0.95}}}
	rows := QualityRows(runAll(t, e))
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	for i, want := range []string{result.Steady, result.Saturated} {
		r := rows[i]
		t.Logf("%+v", r)
		if r.Verdict != want || r.Series != "MIN" || r.Runs != "1" {
			t.Errorf("load %s: %s, %s, %s runs; want MIN, %s, 1 run", r.X, r.Series, r.Verdict, r.Runs, want)
		}
		if !strings.Contains(r.Evidence, "queue growth ") || !strings.Contains(r.Evidence, "per 1000 cycles") {
			t.Errorf("load %s: evidence %q, want the trend slopes", r.X, r.Evidence)
		}
		if !strings.Contains(r.Warmup, "MSER-5") || !strings.Contains(r.Warmup, "warm-up 2000") {
			t.Errorf("load %s: warm-up %q", r.X, r.Warmup)
		}
		if !strings.Contains(r.Latency, " ± ") || !strings.Contains(r.Accepted, " ± ") {
			t.Errorf("load %s: intervals %q, %q", r.X, r.Latency, r.Accepted)
		}
		last := 0
		for _, p := range []string{r.P50, r.P90, r.P99, r.P999} {
			n, err := strconv.Atoi(strings.TrimPrefix(p, ">"))
			if err != nil || n < last {
				t.Errorf("load %s: percentiles %s %s %s %s not increasing numbers", r.X, r.P50, r.P90, r.P99, r.P999)
				break
			}
			last = n
		}
		if !strings.Contains(r.Busiest, "router ") || r.Jain == "" || r.CoV == "" || r.MaxMin == "" || r.LinkMean == "" {
			t.Errorf("load %s: fairness or links missing: %+v", r.X, r)
		}
	}
	if rows[1].WarmupShort {
		t.Logf("0.95: %s", rows[1].Warmup)
	}

	// a warm-up of 100 cycles is shorter than the transient MSER-5 finds
	e.Series[0].Sim.Warmup = 100
	e.Sweep.List = []float64{0.5}
	r := QualityRows(runAll(t, e))[0]
	if !r.WarmupShort || !strings.Contains(r.Warmup, "⚠") {
		t.Errorf("warm-up 100 at 0.5: %q, want flagged short", r.Warmup)
	}
}

// The curve charts' tooltips give each point's verdict by name with a
// short form of its evidence (engine/METHODS.md, "Verdicts"), beside the
// numbers (the value arrays, which the browser test compares with the
// CLI's points, keep their 11 numbers): h=2 MIN under UN, 2,000 + 2,000
// cycles in 100-cycle intervals, seed 1, as TestVerdictsOnTheNetwork: 0.1
// steady with its intervals, 0.85 (just past saturation) unstable with the
// queue growth, 0.95 saturated with accepted against offered.
func TestVerdictNotesInTheTooltips(t *testing.T) {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Name, c.Routing.Name, c.Traffic.Pattern = "MIN", "MIN", "UN"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 2000, 2000, 100, 1
	e := experiment.Experiment{Series: []config.Config{c}, Sweep: experiment.Sweep{Param: experiment.LoadParam, List: []float64{0.1, 0.85, 0.95}}}
	r := runAll(t, e)
	o := decode(t, "latency-notes", Latency(Input{Results: r}))
	want := []struct{ verdict, evidence string }{
		{result.Steady, "latency ±"}, {result.Unstable, "phits/node per 1000 cycles"}, {result.Saturated, "accepted 0."},
	}
	if len(o.Series[0].Data) != len(want) {
		t.Fatalf("%d points", len(o.Series[0].Data))
	}
	for i, d := range o.Series[0].Data {
		var pt struct {
			Value []float64
			Note  string
		}
		if err := json.Unmarshal(d, &pt); err != nil {
			t.Fatal(err)
		}
		t.Logf("load %g: %s", pt.Value[0], pt.Note)
		if len(pt.Value) != 11 || pt.Value[5] != float64(slices.Index(result.Verdicts[:], want[i].verdict)) {
			t.Errorf("load %g: values %v, want 11 numbers, the verdict %s by its index", pt.Value[0], pt.Value, want[i].verdict)
		}
		if !strings.HasPrefix(pt.Note, want[i].verdict+": ") || !strings.Contains(pt.Note, want[i].evidence) {
			t.Errorf("load %g: note %q, want %s with %q", pt.Value[0], pt.Note, want[i].verdict, want[i].evidence)
		}
	}
	// the formatter's HTML: the note (escaped), then the dimensions the
	// series lists for its tooltip, by name, the verdict's number not among them
	tip := AxisTip("0.85", []TipEntry{{Marker: "<span></span>", Series: "MIN <b>", Note: "unstable: a < b",
		Names: []string{"runs", "latency p99 (cycles)"}, Values: []float64{1, math.NaN()}}})
	for _, s := range []string{">0.85<", "<span></span>MIN &lt;b&gt;", "unstable: a &lt; b", "runs: <b>1</b>", "latency p99 (cycles): <b>–</b>"} {
		if !strings.Contains(tip, s) {
			t.Errorf("tooltip %s: no %q", tip, s)
		}
	}
	var enc struct {
		Series []struct{ Encode struct{ Tooltip []int } }
	}
	json.Unmarshal(Latency(Input{Results: r}), &enc)
	if tt := enc.Series[0].Encode.Tooltip; slices.Contains(tt, 5) || !slices.Contains(tt, 7) || !slices.Contains(tt, 8) || !slices.Contains(tt, 10) {
		t.Errorf("tooltip dimensions %v: want the percentiles and busiest link, not the verdict's number", tt)
	}
}
