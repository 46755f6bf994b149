package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// precisionExp is the engine's TestPrecisionPerPoint sweep as a page
// experiment (engine/METHODS.md, "Precision-driven length"): h=2 MIN under
// UN with FOGSim's model, 1,000 + 1,000 cycles in 50-cycle intervals,
// sim.precision 0.03 with windows not extended, 2 seeds, loads 0.1 and 0.2;
// no run meets ±3% alone.
func precisionExp() Experiment {
	c := config.Default()
	c.UseFOGSimModel()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Name, c.Routing.Name, c.Traffic.Pattern = "MIN", "MIN", "UN"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 1000, 1000, 50, 2
	c.Sim.Precision, c.Sim.MaxCycles = 0.03, 1000
	return Experiment{Series: []config.Config{c}, Sweep: Sweep{Param: LoadParam, List: []float64{0.1, 0.2}}}
}

// The page's runner adds the seeds sim.precision asks for as 'phitsim
// sweep' does: runs handed out three at a time and finished in reverse
// order, MoreSeeds called after each (as the page does when a worker's
// result arrives), the experiment ends with sweep.Run's runs, seeds and
// points (JSON equal but for each run's CPU time); its JSON export opens
// with the added runs at their points (ImportResults).
func TestPageAddsSeedsForPrecision(t *testing.T) {
	e := precisionExp()
	sp, err := e.Spec()
	if err != nil {
		t.Fatal(err)
	}
	want, err := sweep.Run(context.Background(), sp, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	res, err := NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	var queue []int
	for i := range res.Jobs {
		queue = append(queue, i)
	}
	// the progress bar, as the page drives it: never back, to 1 at the end
	tr, shown := NewTracker(res.Jobs), 0.0
	progress := func(what string) {
		if f := tr.Fraction(); f < shown-1e-12 {
			t.Errorf("%s: the bar went back from %.4f to %.4f (%s)", what, shown, f, tr.RunsText(res.Done()))
		} else {
			shown = f
		}
	}
	for len(queue) > 0 {
		batch := queue[:min(3, len(queue))]
		queue = queue[len(batch):]
		done := make([]*result.Result, len(batch))
		for k, i := range batch {
			j := res.Jobs[i]
			r, err := sweep.RunJob(context.Background(), sweep.Job{Series: j.Series, Point: j.Point, Run: j.Run, Config: j.Config, Seed: j.Seed}, nil)
			if err != nil {
				t.Fatal(err)
			}
			done[k] = r
		}
		for _, i := range batch {
			tr.Set(i, 0.5) // part-way when the others' results come
		}
		for k := len(batch) - 1; k >= 0; k-- {
			res.Runs[batch[k]] = done[k]
			tr.Set(batch[k], 1)
			progress("a run finished")
			more := res.MoreSeeds()
			for _, i := range more {
				tr.Add(res.Jobs[i : i+1])
			}
			progress(fmt.Sprintf("%d seeds added", len(more)))
			queue = append(queue, more...)
		}
	}
	added := len(res.Jobs) - len(e.Series)*2*e.Series[0].Sim.Seeds
	if want := fmt.Sprintf("%d / %d runs (+%d seeds for precision)", len(res.Jobs), len(res.Jobs), added); tr.RunsText(res.Done()) != want || added <= 0 || tr.Fraction() != 1 {
		t.Errorf("at the end the progress says %q at %.4f, want %q at 1", tr.RunsText(res.Done()), tr.Fraction(), want)
	}
	got := res.Outcome()
	if len(got.Runs) != len(want.Runs) || len(got.Runs) <= 4 {
		t.Fatalf("the page ran %d runs, sweep.Run %d: want the same, more than the 4 of the seeds", len(got.Runs), len(want.Runs))
	}
	for i, r := range got.Runs {
		if r.Seed != want.Runs[i].Seed || r.Offered != want.Runs[i].Offered {
			t.Errorf("run %d: page's seed %d at %g, sweep's %d at %g", i, r.Seed, r.Offered, want.Runs[i].Seed, want.Runs[i].Offered)
		}
		r.CPUSeconds, want.Runs[i].CPUSeconds = 0, 0 // the one number a machine's clock sets
	}
	for _, p := range res.Points() {
		q := p.Agg.Quality
		t.Logf("load %.1f: %d runs, %s: latency ±%.2f%%, accepted ±%.2f%%", p.X, p.Agg.Runs, q.Verdict, 100*q.Latency.Relative(), 100*q.Accepted.Relative())
		if q.Verdict != result.Steady {
			t.Errorf("load %.1f: %s (%s), want steady", p.X, q.Verdict, q.Reason)
		}
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if !bytes.Equal(a, b) {
		t.Errorf("the page's outcome differs from sweep.Run's")
	}

	doc, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ImportResults(doc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Done() != len(want.Runs) || len(back.Jobs) != len(res.Jobs) {
		t.Errorf("imported export: %d jobs, %d runs, want %d", len(back.Jobs), back.Done(), len(want.Runs))
	}
	c, _ := json.Marshal(back.Outcome())
	if !bytes.Equal(a, c) {
		t.Errorf("the imported export's outcome differs")
	}
	// the CLI's document of the same sweep opens with every run too
	cli, _ := json.Marshal(want)
	back, err = ImportResults(cli)
	if err != nil {
		t.Fatal(err)
	}
	if back.Done() != len(want.Runs) {
		t.Errorf("imported sweep document: %d of its %d runs", back.Done(), len(want.Runs))
	}
}
