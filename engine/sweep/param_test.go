package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"testing"

	"phitsim/engine/config"
)

// A sweep over any numeric parameter: each point runs with the value set,
// the aggregate carries it (and the Graph500 means), the CSV gets the param,
// x and Graph500 columns; a load sweep is unchanged.
func TestParamSweepOverTq(t *testing.T) {
	c, err := config.PresetByName("graph500-h2")
	if err != nil {
		t.Fatal(err)
	}
	// s=14: at s=12 a process computes for about 5% of a level, and the
	// (paired: same messages at every tq) times differ by noise only
	c.Workload.Scale, c.Sim.Seeds = 14, 2
	sp := Spec{Series: []config.Config{c}, Param: "workload.tq", Values: []float64{1.5, 15}}
	jobs, err := sp.Jobs()
	if err != nil || len(jobs) != 4 || jobs[0].Config.Workload.Tq != 1.5 || jobs[3].Config.Workload.Tq != 15 {
		t.Fatalf("jobs %d, err %v", len(jobs), err)
	}
	out, err := Run(context.Background(), sp, Options{})
	if err != nil || len(out.Points) != 2 {
		t.Fatalf("run: %v, %d points", err, len(out.Points))
	}
	for i, p := range out.Points {
		if p.Param != "workload.tq" || p.X != sp.Values[i] || p.Graph500 == nil || !p.Graph500.Finished || p.Runs != 2 {
			t.Fatalf("point %d: %+v", i, p)
		}
	}
	if out.Points[1].Graph500.Seconds.Mean <= out.Points[0].Graph500.Seconds.Mean {
		t.Errorf("15 ns per query is not slower than 1.5 ns: %+v", out.Points)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, out.Points); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 3 || len(rows[0]) != len(CSVHeader)+len(CSVParamHeader)+len(CSVGraph500Header)+len(CSVQualityHeader) {
		t.Fatalf("csv: %v %v", err, rows)
	}
	if _, err := (Spec{Series: []config.Config{c}, Param: "routing.name", Values: []float64{1}}).Jobs(); err == nil {
		t.Error("a sweep over a string parameter was accepted")
	}
	if jobs, err := (Spec{Series: []config.Config{config.Default()}, Loads: []float64{0.1, 0.2}}).Jobs(); err != nil || jobs[5].Config.Traffic.Load != 0.2 {
		t.Errorf("load sweep: %v", err)
	}
}

// A swept parameter that does not apply to a series (workload.tq on
// synthetic traffic) would give that series identical points: Jobs refuses,
// naming every such series and the condition; the load always applies.
func TestParamSweepRefusesAParameterThatDoesNotApply(t *testing.T) {
	g, err := config.PresetByName("graph500-h2")
	if err != nil {
		t.Fatal(err)
	}
	syn := config.Default()
	syn.Name = "MIN"
	other := syn
	other.Name, other.Routing.Name = "", "VAL"
	sp := Spec{Series: []config.Config{g, syn, other}, Param: "workload.tq", Values: []float64{1, 2}}
	na := sp.NotApplied()
	if len(na) != 2 || na[0].Series != 1 || na[1].Series != 2 {
		t.Fatalf("not applied: %v", na)
	}
	_, err = sp.Jobs()
	want := "workload.tq does not apply to series 2 (MIN) (it applies when workload.kind=graph500)\n" +
		"workload.tq does not apply to series 3 (VAL) (it applies when workload.kind=graph500)"
	if err == nil || err.Error() != want {
		t.Fatalf("Jobs: %v\nwant %s", err, want)
	}
	var ne *NotAppliedError
	if !errors.As(err, &ne) || ne.Param != "workload.tq" {
		t.Errorf("not a NotAppliedError: %v", err)
	}
	if _, err := Run(context.Background(), sp, Options{}); err == nil {
		t.Error("Run ran a sweep of a parameter that does not apply")
	}
	// a "> 0" condition, and the same sweep once every series applies
	sw := config.Default()
	if na := (Spec{Series: []config.Config{sw}, Param: "traffic.switchAdvOffset", Values: []float64{1}}).NotApplied(); len(na) != 1 || na[0].When != "traffic.switchCycle > 0" {
		t.Errorf("switchAdvOffset with switchCycle 0: %v", na)
	}
	sw.Traffic.SwitchCycle = 100
	if na := (Spec{Series: []config.Config{sw}, Param: "traffic.switchAdvOffset", Values: []float64{1}}).NotApplied(); len(na) != 0 {
		t.Errorf("switchAdvOffset with switchCycle 100: %v", na)
	}
	if _, err := (Spec{Series: []config.Config{g, g}, Param: "workload.tq", Values: []float64{1, 2}}).Jobs(); err != nil {
		t.Errorf("tq on two Graph500 series: %v", err)
	}
	if _, err := (Spec{Series: []config.Config{g, syn}, Loads: []float64{0.1}}).Jobs(); err != nil {
		t.Errorf("load sweep of a Graph500 and a synthetic series: %v", err)
	}
}

// Apply writes the swept value as %g: an integer parameter's large values
// ("1e+08") are read as the whole numbers they are.
func TestApplyLargeIntegerValues(t *testing.T) {
	sp := Spec{Series: []config.Config{config.Default()}, Param: "sim.cycles", Values: []float64{1e8}}
	c := config.Default()
	if err := sp.Apply(&c, 1e8); err != nil || c.Sim.Cycles != 100000000 {
		t.Errorf("sim.cycles = 1e8: %v, %d", err, c.Sim.Cycles)
	}
	if err := sp.Apply(&c, 1.5); err == nil {
		t.Error("sim.cycles = 1.5 accepted")
	}
}
