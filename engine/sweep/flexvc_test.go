package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sim"
)

// A run that deadlocks is a finding, not a failure of the sweep (thesis
// Fig. 5.6: DAMQ with no reserve deadlocks): its point stays, marked
// Deadlocked, the CSV gets a deadlocked_runs column, and the sweep still
// returns the deadlock's error (the CLI's exit status 3). h=2, MIN, UN at
// 1.0, 2/1 VCs of 64/512 phits, the watchdog at 1,000 cycles (TIMING.md
// "DAMQ input buffers": the deadlock comes at cycle 5,286).
func TestDeadlockedRunIsAPoint(t *testing.T) {
	c := base(2, "UN", 1)
	c.Router.LocalVCs, c.Router.GlobalVCs, c.Router.LocalBuffer, c.Router.GlobalBuffer = 2, 1, 64, 512
	c.Router.Damq, c.Traffic.Load = true, 1
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds, c.Sim.Watchdog = 2000, 6000, 1, 1000
	sp := Spec{Series: []config.Config{c}, Param: "router.damqReserve", Values: []float64{0, 100}}
	out, err := Run(context.Background(), sp, Options{})
	var de *sim.DeadlockError
	if !errors.As(err, &de) {
		t.Fatalf("want the deadlock's error, got %v", err)
	}
	if !strings.Contains(err.Error(), "router.damqReserve 0 seed 1") {
		t.Errorf("the error does not name the point: %v", err)
	}
	if len(out.Points) != 2 || len(out.Runs) != 2 {
		t.Fatalf("%d points, %d runs; want both kept", len(out.Points), len(out.Runs))
	}
	if p := out.Points[0]; p.Deadlocked != 1 || p.X != 0 {
		t.Errorf("reserve 0: %+v, want one deadlocked run", p)
	}
	if p := out.Points[1]; p.Deadlocked != 0 || p.Accepted.Mean < 0.5 {
		t.Errorf("reserve 100 (static): %+v, want a run to the end", p)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, out.Points); err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(&b).ReadAll()
	// the quality columns come last (CSVQualityHeader)
	at := len(rows[0]) - len(CSVQualityHeader) - 1
	if h := rows[0]; h[at] != "deadlocked_runs" || rows[1][at] != "1" || rows[2][at] != "0" {
		t.Errorf("csv %v", rows)
	}
}

// Figs. 5.8 and 5.15 hold the memory per port constant: a tie divided by
// the series' VCs gives each series its per-VC buffers, so every series has
// the swept memory per local port and 4× per global port (64 phits: 2/1
// VCs of 32 phits, 8/4 VCs of one 8-phit packet).
func TestPortMemoryTies(t *testing.T) {
	e, err := ExperimentByName("thesis-fig5.8")
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := e.Spec.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, j := range jobs {
		r := j.Config.Router
		x := PortMemories[j.Point]
		if r.LocalBuffer*r.LocalVCs != int(x) || r.GlobalBuffer*r.GlobalVCs != 4*int(x) {
			t.Errorf("series %s at %g: %d×%d local, %d×%d global phits", j.Config.Name, x, r.LocalVCs, r.LocalBuffer, r.GlobalVCs, r.GlobalBuffer)
		}
		if x == 64 && r.LocalVCs == 8 && r.LocalBuffer == 8 && r.GlobalBuffer == 64 {
			seen++
		}
	}
	if seen == 0 {
		t.Error("no FlexVC 8/4 series with one packet per local VC at 64/256")
	}
	// an integer parameter takes the quotient rounded down; a divisor that
	// is not a positive parameter is refused, naming it
	c := config.Default()
	c.Router.LocalVCs = 3
	sp := Spec{Series: []config.Config{c}, Param: "traffic.load", Values: []float64{0.5},
		Tied: []Tie{{Path: "router.localBuffer", Scale: 100, Per: "router.localVCs"}}}
	if err := sp.Apply(&c, 0.5); err != nil || c.Router.LocalBuffer != 16 {
		t.Errorf("50 ÷ 3: %d, %v", c.Router.LocalBuffer, err)
	}
	c.Router.LocalVCs = 0
	if err := sp.Apply(&c, 0.5); err == nil || !strings.Contains(err.Error(), "router.localVCs") {
		t.Errorf("÷ 0 VCs: %v", err)
	}
	sp.Tied[0].Per = "router.nothing"
	if err := sp.Apply(&c, 0.5); err == nil || !strings.Contains(err.Error(), "router.nothing") {
		t.Errorf("÷ an unknown parameter: %v", err)
	}
	// without Per a tie still may not re-set the swept parameter
	sp.Tied = []Tie{{Path: "traffic.load", Scale: 1}}
	if err := sp.Apply(&c, 0.5); err == nil {
		t.Error("a tie re-setting the swept parameter without Per was accepted")
	}
}
