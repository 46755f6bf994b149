package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
	"phitsim/site/protocol"
)

// deadlockExp is the damq-reserve-h2 preset (thesis Fig. 5.6 on h=2) at
// 0% and 75% reserve with one seed: with no reserve the network deadlocks
// at cycle 5,286 (the watchdog: nothing moved for 1,000 cycles); 75% runs
// to its end.
func deadlockExp() Experiment {
	c := DamqH2()
	c.Sim.Seeds = 1
	return Experiment{Series: []config.Config{c}, Sweep: Sweep{Param: "router.damqReserve", List: []float64{0, 75}}}
}

// A sweep of thesis Fig. 5.6 (h=2) with a deadlocked point, its runs
// coming through the worker (protocol.Execute and the wire format), equals
// 'phitsim sweep' (sweep.Run): the deadlocked run is kept with its report,
// its point counts it, the CSV has the CLI's deadlocked_runs column, the
// JSON export carries the report; nothing finished is lost.
func TestDeadlockedPointAsTheCLI(t *testing.T) {
	e := deadlockExp()
	r, err := NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range r.Jobs {
		protocol.Execute(context.Background(), uint64(i), &protocol.StartJob{Config: j.Config, Seed: j.Seed, Load: j.Load()}, func(m *protocol.Message) {
			b, err := protocol.Encode(m)
			if err != nil {
				t.Fatal(err)
			}
			if m, err = protocol.Decode(b); err != nil {
				t.Fatal(err)
			}
			switch m.Type {
			case protocol.Result:
				r.Runs[i] = m.Result
			case protocol.Error:
				t.Errorf("job %d: %v", i, m.Error)
			}
		}, nil)
	}
	spec, _ := e.Spec()
	want, err := sweep.Run(context.Background(), spec, sweep.Options{Workers: 1})
	var de *sim.DeadlockError
	if !errors.As(err, &de) {
		t.Fatalf("the engine's sweep: %v, want the reserve-0 deadlock (this config no longer deadlocks: pick another)", err)
	}
	pts := r.Points()
	if len(pts) != 2 || len(want.Points) != 2 {
		t.Fatalf("%d points, the engine %d", len(pts), len(want.Points))
	}
	for i, p := range pts {
		if !reflect.DeepEqual(p.Agg, want.Points[i]) {
			t.Errorf("point %d:\n page %+v\n CLI  %+v", i, p.Agg, want.Points[i])
		}
	}
	if pts[0].Agg.Deadlocked != 1 || pts[1].Agg.Deadlocked != 0 {
		t.Errorf("deadlocked runs per point %d, %d; want 1 (reserve 0%%), 0 (75%%)", pts[0].Agg.Deadlocked, pts[1].Agg.Deadlocked)
	}

	dl := r.Deadlocks()
	if len(dl) != 1 || dl[0].Point != 0 || dl[0].X != 0 || dl[0].Deadlock == nil || dl[0].Deadlock.Cycle != de.Cycle || dl[0].Seed != r.Jobs[0].Seed {
		t.Fatalf("deadlocks %+v, want the reserve-0 run at cycle %d", dl, de.Cycle)
	}
	t.Logf("%s", dl[0].Deadlock.Lines()[0])

	// the CSV: the CLI's, with its deadlocked_runs column
	page, err := r.CSV()
	if err != nil {
		t.Fatal(err)
	}
	var cli bytes.Buffer
	if err := sweep.WriteCSV(&cli, want.Points); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(page)), "\n")
	if string(page) != cli.String() {
		t.Errorf("page CSV\n%s\nCLI CSV\n%s", page, cli.String())
	}
	// deadlocked_runs, then the quality columns (sweep.CSVQualityHeader)
	cell := func(line string) string {
		c := strings.Split(line, ",")
		return c[len(c)-len(sweep.CSVQualityHeader)-1]
	}
	if len(lines) != 3 || cell(lines[0]) != "deadlocked_runs" || cell(lines[1]) != "1" || cell(lines[2]) != "0" {
		t.Errorf("CSV without the deadlocked_runs column:\n%s", page)
	}

	// the JSON export: the run with its report, the point with its count
	b, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var ex struct {
		Points []struct {
			Agg struct{ Deadlocked int } `json:"aggregate"`
		}
		Runs []struct {
			Deadlock *struct {
				Reason  string
				Cycle   int64
				Buffers []struct{ Router, Port, VC int }
			}
		}
		Jobs []JobRef
	}
	if err := json.Unmarshal(b, &ex); err != nil {
		t.Fatal(err)
	}
	if len(ex.Runs) != 2 || len(ex.Jobs) != 2 || ex.Jobs[0].Result < 0 {
		t.Fatalf("export: %d runs, jobs %+v; want both runs kept", len(ex.Runs), ex.Jobs)
	}
	d := ex.Runs[ex.Jobs[0].Result].Deadlock
	if d == nil || d.Cycle != de.Cycle || d.Reason != de.Reason || len(d.Buffers) == 0 || ex.Points[0].Agg.Deadlocked != 1 {
		t.Errorf("export: deadlock %+v, points %+v", d, ex.Points)
	}
	if ex.Runs[ex.Jobs[1].Result].Deadlock != nil {
		t.Error("export: the 75% run has a deadlock report")
	}
}
