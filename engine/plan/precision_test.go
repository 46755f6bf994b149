package plan

import (
	"bytes"
	"context"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// precisionSpec is sweep.TestPrecisionPerPoint's sweep (engine/METHODS.md,
// "Precision-driven length"): h=2 MIN under UN with FOGSim's model, 1,000 +
// 1,000 cycles in 50-cycle intervals, sim.precision 0.03 with windows not
// extended (sim.maxCycles = sim.cycles), 2 seeds, loads 0.1 and 0.2: no
// run meets ±3% alone, so each point needs more seeds.
func precisionSpec(maxSeeds int) sweep.Spec {
	c := config.Default()
	c.UseFOGSimModel()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Name, c.Routing.Name, c.Traffic.Pattern = "MIN", "MIN", "UN"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 1000, 1000, 50, 2
	c.Sim.Precision, c.Sim.MaxCycles, c.Sim.MaxSeeds = 0.03, 1000, maxSeeds
	return sweep.Spec{Series: []config.Config{c}, Loads: []float64{0.1, 0.2}}
}

// The plan runner adds the seeds sim.precision asks for as sweep.Run does
// (sweep.PointRuns): run as two tasks, one after the other and each
// resumed until nothing is missing (a point finished by the other task
// leaves its added runs to the next exec of their slice), it takes the
// same runs with the same seeds, and the merge is sweep.Run's outcome bit
// for bit (but for each run's CPU time). Capped at sim.maxSeeds=3, a single
// exec runs 3 runs per point and the 0.1 point is too short.
func TestPlanAddsSeedsForPrecision(t *testing.T) {
	sp := precisionSpec(0)
	oc, err := sweep.Run(context.Background(), sp, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := newPlan(t, sp)
	if len(p.Runs) != 4 {
		t.Fatalf("planned %d runs, want 2 points × 2 seeds", len(p.Runs))
	}
	for round := 0; ; round++ {
		st, err := p.Status()
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Missing)+len(st.Failed) == 0 {
			break
		}
		if round == 20 {
			t.Fatalf("%d runs still missing after %d execs", len(st.Missing), round)
		}
		if _, err := p.Exec(context.Background(), ExecOptions{Task: round % 2, Tasks: 2, Parallel: 2}); err != nil {
			t.Fatal(err)
		}
	}
	merged, missing, err := p.Merge()
	if err != nil || len(missing) > 0 {
		t.Fatal(err, missing)
	}
	if len(merged.Runs) != len(oc.Runs) || len(merged.Runs) <= 4 {
		t.Fatalf("plan ran %d runs, sweep.Run %d: want the same, more than the 4 planned", len(merged.Runs), len(oc.Runs))
	}
	for i, r := range merged.Runs {
		if r.Seed != oc.Runs[i].Seed || r.Offered != oc.Runs[i].Offered {
			t.Errorf("run %d: plan's seed %d at %g, sweep's %d at %g", i, r.Seed, r.Offered, oc.Runs[i].Seed, oc.Runs[i].Offered)
		}
	}
	for _, pt := range merged.Points {
		t.Logf("load %.1f: %d runs, %s: latency ±%.2f%%, accepted ±%.2f%%", pt.Offered, pt.Runs, pt.Quality.Verdict,
			100*pt.Quality.Latency.Relative(), 100*pt.Quality.Accepted.Relative())
		if pt.Quality.Verdict != result.Steady {
			t.Errorf("load %.1f: %s (%s), want steady", pt.Offered, pt.Quality.Verdict, pt.Quality.Reason)
		}
	}
	for i := range oc.Runs { // the one number a machine's clock sets
		oc.Runs[i].CPUSeconds, merged.Runs[i].CPUSeconds = 0, 0
	}
	js, csv := encode(t, oc)
	mjs, mcsv := encode(t, merged)
	if !bytes.Equal(js, mjs) || !bytes.Equal(csv, mcsv) {
		t.Errorf("merged differs from the sweep: JSON equal %v, CSV equal %v", bytes.Equal(js, mjs), bytes.Equal(csv, mcsv))
	}

	// the cap: one exec (one task) goes round by round to it
	p = newPlan(t, precisionSpec(3))
	rep, err := p.Exec(context.Background(), ExecOptions{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	merged, missing, err = p.Merge()
	if err != nil || len(missing) > 0 {
		t.Fatal(err, missing)
	}
	if rep.Done != 6 || len(merged.Runs) != 6 {
		t.Errorf("capped at 3 seeds: exec ran %d, merged %d runs, want 2 points × 3", rep.Done, len(merged.Runs))
	}
	if q := merged.Points[0].Quality; merged.Points[0].Runs != 3 || q.Verdict != result.TooShort || !q.PrecisionShort {
		t.Errorf("capped at 3 seeds, load 0.1: %d runs, %s (%s), want 3, too short", merged.Points[0].Runs, q.Verdict, q.Reason)
	}
}
