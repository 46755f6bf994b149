package sweep

import (
	"context"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// TestPrecisionPerPoint: precision per sweep point
// (engine/METHODS.md, "Precision-driven length"). h=2 MIN under UN,
// 1,000 + 1,000 cycles in 50-cycle intervals, sim.precision 0.03 with
// sim.maxCycles = sim.cycles (no run may extend its window, so only more
// seeds narrow the intervals), 2 seeds. At 0.1 the accepted load's interval
// of one run is about ±7%: no run meets ±3% alone and two combined do not
// either, so the point adds seeds until the combined intervals do (6 runs,
// within the cap 4 × 2); at 0.2 (±4–5% per run) fewer suffice. Capped at 3
// runs (sim.maxSeeds) the 0.1 point stays too short, saying why; without
// sim.precision nothing is added.
func TestPrecisionPerPoint(t *testing.T) {
	c := base(2, "UN", 1)
	c.Routing.Name = "MIN"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 1000, 1000, 50, 2
	c.Sim.Precision, c.Sim.MaxCycles = 0.03, 1000
	run := func(c config.Config) *Outcome {
		o, err := Run(context.Background(), Spec{Series: series(c, "MIN"), Loads: []float64{0.1, 0.2}}, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	o := run(c)
	for _, p := range o.Points {
		q := p.Quality
		t.Logf("load %.1f: %d runs (by verdict %v), point %s: latency ±%.2f%%, accepted ±%.2f%% combined", p.Offered, p.Runs, q.Verdicts, q.Verdict, 100*q.Latency.Relative(), 100*q.Accepted.Relative())
		if p.Runs <= c.Sim.Seeds || p.Runs > c.Sim.SeedCap() {
			t.Errorf("load %.1f: %d runs, want more than the %d seeds and at most the cap %d", p.Offered, p.Runs, c.Sim.Seeds, c.Sim.SeedCap())
		}
		if q.Verdict != result.Steady || q.PrecisionShort || q.Latency.Relative() > 0.03 || q.Accepted.Relative() > 0.03 {
			t.Errorf("load %.1f: point %s (%s), combined ±%.2f%% / ±%.2f%%: want steady within ±3%%", p.Offered, q.Verdict, q.Reason, 100*q.Latency.Relative(), 100*q.Accepted.Relative())
		}
		if q.Verdicts[3] == 0 {
			t.Errorf("load %.1f: some run met ±3%% alone (%v): the point needs no combination", p.Offered, q.Verdicts)
		}
	}
	if a, b := o.Points[0].Runs, o.Points[1].Runs; a <= b {
		t.Errorf("0.1 took %d runs, 0.2 %d: the noisier point should need more", a, b)
	}
	// the added runs are seeds seed+2, seed+3, … of their point, in order
	for i, r := range o.Runs[:o.Points[0].Runs] {
		if r.Seed != c.Sim.Seed+uint64(i) || r.Offered != 0.1 {
			t.Errorf("run %d of the 0.1 point: seed %d at %g, want seed %d", i, r.Seed, r.Offered, c.Sim.Seed+uint64(i))
		}
	}

	c.Sim.MaxSeeds = 3
	q := run(c).Points[0]
	if q.Runs != 3 || q.Quality.Verdict != result.TooShort || !q.Quality.PrecisionShort || !strings.Contains(q.Quality.Reason, "3 runs combined") {
		t.Errorf("capped at 3 seeds: %d runs, %s (%s), want 3, too short over the runs combined", q.Runs, q.Quality.Verdict, q.Quality.Reason)
	}

	c.Sim.Precision, c.Sim.MaxCycles, c.Sim.MaxSeeds = 0, 0, 0
	if p := run(c).Points[0]; p.Runs != 2 {
		t.Errorf("without sim.precision: %d runs, want the 2 seeds", p.Runs)
	}
}

// TestPointRuns: the decision sweep.Run, the plan runner and the page
// share, on TestPrecisionPerPoint's 0.1 point (h=2 MIN/UN, ±3%, 2 seeds,
// cap 4 × 2): from its first 2 runs it asks for more, at most the cap (3
// when sim.maxSeeds=3); from all the runs it took, none; without
// sim.precision, none.
func TestPointRuns(t *testing.T) {
	c := base(2, "UN", 1)
	c.Routing.Name = "MIN"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 1000, 1000, 50, 2
	c.Sim.Precision, c.Sim.MaxCycles = 0.03, 1000
	o, err := Run(context.Background(), Spec{Series: series(c, "MIN"), Loads: []float64{0.1}}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	runs := o.Runs
	if n := PointRuns(runs[:2]); n <= 2 || n > c.Sim.SeedCap() {
		t.Errorf("from 2 runs: %d, want more, at most %d", n, c.Sim.SeedCap())
	}
	if n := PointRuns(runs); n != len(runs) {
		t.Errorf("from the point's %d runs: %d, want no more", len(runs), n)
	}
	capped := make([]*result.Result, 2)
	for i := range capped {
		r := *runs[i]
		r.Config.Sim.MaxSeeds, r.Quality = 3, nil
		capped[i] = &r
	}
	if n := PointRuns(capped); n != 3 {
		t.Errorf("from 2 runs, sim.maxSeeds=3: %d, want 3", n)
	}
	for i := range capped {
		capped[i].Config.Sim.Precision, capped[i].Quality = 0, nil
	}
	if n := PointRuns(capped); n != 2 {
		t.Errorf("without sim.precision: %d, want 2", n)
	}
}
