package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
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
	if err != nil || len(rows) != 3 || len(rows[0]) != len(CSVHeader)+len(CSVParamHeader)+len(CSVGraph500Header) {
		t.Fatalf("csv: %v %v", err, rows)
	}
	if _, err := (Spec{Series: []config.Config{c}, Param: "routing.name", Values: []float64{1}}).Jobs(); err == nil {
		t.Error("a sweep over a string parameter was accepted")
	}
	if jobs, err := (Spec{Series: []config.Config{config.Default()}, Loads: []float64{0.1, 0.2}}).Jobs(); err != nil || jobs[5].Config.Traffic.Load != 0.2 {
		t.Errorf("load sweep: %v", err)
	}
}
