package experiment

import (
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/facts"
)

// Cost against engine times measured natively (phitsim run -preset h2,
// 3,000 + 5,000 cycles, one seed): the time per Cost unit of every run is
// within a factor 2.6 of the others, where node-cycles alone (the
// estimate before) put them 15 times apart.
func TestCostFollowsMeasuredTimes(t *testing.T) {
	measured := []struct {
		routing string
		load    float64
		ms      float64
	}{
		{"MIN", 0.1, 7.3}, {"MIN", 0.3, 25.3}, {"MIN", 0.5, 42.4}, {"MIN", 0.7, 66.2}, {"MIN", 0.9, 96.0}, {"MIN", 1, 107.1},
		{"VAL", 0.1, 15.3}, {"VAL", 0.3, 42.9}, {"VAL", 0.5, 92.6}, {"VAL", 0.7, 106.0}, {"VAL", 0.9, 106.1}, {"VAL", 1, 108.2},
	}
	spread := func(per func(c *config.Config) float64) float64 {
		lo, hi := math.Inf(1), 0.0
		for _, m := range measured {
			c, err := config.PresetByName("h2")
			if err != nil {
				t.Fatal(err)
			}
			c.Routing.Name, c.Traffic.Load, c.Sim.Warmup, c.Sim.Cycles = m.routing, m.load, 3000, 5000
			r := m.ms / per(&c)
			lo, hi = min(lo, r), max(hi, r)
		}
		return hi / lo
	}
	withCost := spread(Cost)
	nodeCycles := spread(func(c *config.Config) float64 { return facts.Of(c).Work })
	t.Logf("time per unit, highest/lowest: Cost %.2f, node-cycles %.2f", withCost, nodeCycles)
	if withCost > 2.6 {
		t.Errorf("Cost: time per unit varies %.2f-fold across loads and routings", withCost)
	}
	if nodeCycles < 10 {
		t.Errorf("node-cycles vary only %.2f-fold: the measurements do not need Cost", nodeCycles)
	}
}

// The sweep's fraction done weighs each job by its cost: the low-load half
// of a sweep is less than half of its time.
func TestTrackerWeighsByCost(t *testing.T) {
	e := Default()
	e.Series = e.Series[:1]
	e.Sweep = Sweep{Param: LoadParam, From: 0.1, To: 1, Step: 0.1}
	jobs, err := e.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTracker(jobs)
	if math.Abs(tr.Total()-CostOf(jobs)) > 1e-9*tr.Total() {
		t.Errorf("Total %g, CostOf %g", tr.Total(), CostOf(jobs))
	}
	for i, j := range jobs {
		if j.Config.Traffic.Load <= 0.5 {
			tr.Set(i, 1)
		}
	}
	if f := tr.Fraction(); f <= 0 || f >= 0.35 {
		t.Errorf("loads 0.1–0.5 done: fraction %.3f, want well under half", f)
	}
	// the clock starts at the first progress seen: 2 s of start-up do not count
	tr.Begin(2)
	if eta := tr.ETA(2); eta != -1 {
		t.Errorf("ETA at the first progress %g, want unknown", eta)
	}
	f0 := tr.Fraction()
	tr.Begin(5) // only the first call counts
	for i, j := range jobs {
		if j.Config.Traffic.Load <= 0.7 {
			tr.Set(i, 1)
		}
	}
	f1 := tr.Fraction()
	want := 10 * (1 - f1) / (f1 - f0)
	if eta := tr.ETA(12); math.Abs(eta-want) > 1e-9 || eta <= 10 {
		t.Errorf("ETA %g after 10 s of progress from %.3f to %.3f, want %g (the heavy loads left)", eta, f0, f1, want)
	}
}

// Seeds added while a sweep runs (sim.precision, Results.MoreSeeds) grow
// the total and the runs count, but the bar never goes back: 3 of 4 equal
// jobs done and the 4th half-way (0.875), 4 more added: still 0.875, the
// rest of the bar now for the 4.5 jobs' work left; the ETA is that work at
// the rate so far.
func TestTrackerAddedSeedsNeverGoBack(t *testing.T) {
	e := Default()
	e.Series = e.Series[:1]
	e.Sweep = Sweep{Param: LoadParam, List: []float64{0.3}}
	e.Series[0].Sim.Seeds = 4
	jobs, err := e.Jobs()
	if err != nil || len(jobs) != 4 {
		t.Fatalf("%d jobs, %v", len(jobs), err)
	}
	tr := NewTracker(jobs)
	tr.Begin(0)
	tr.Set(0, 1)
	tr.Set(1, 1)
	tr.Set(2, 1)
	tr.Set(3, 0.5)
	if f := tr.Fraction(); math.Abs(f-0.875) > 1e-12 || tr.RunsText(3) != "3 / 4 runs" {
		t.Fatalf("before: %g, %q", f, tr.RunsText(3))
	}
	if eta := tr.ETA(7); math.Abs(eta-1) > 1e-9 {
		t.Errorf("ETA %g with 3.5 jobs done in 7 s, 0.5 left: want 1 s", eta)
	}
	tr.Add(jobs) // the same cost: 4 more seeds
	if f := tr.Fraction(); math.Abs(f-0.875) > 1e-12 {
		t.Errorf("4 seeds added: the bar at %g, want 0.875 kept", f)
	}
	if got := tr.RunsText(3); got != "3 / 8 runs (+4 seeds for precision)" || tr.Added() != 4 {
		t.Errorf("runs %q, added %d", got, tr.Added())
	}
	if eta := tr.ETA(7); math.Abs(eta-9) > 1e-9 {
		t.Errorf("ETA %g with 3.5 jobs done in 7 s, 4.5 left: want 9 s", eta)
	}
	// the rest in proportion to the work left when they were added
	tr.Set(3, 1)
	tr.Set(4, 1)
	if f, want := tr.Fraction(), 0.875+0.125*1.5/4.5; math.Abs(f-want) > 1e-12 {
		t.Errorf("1.5 of the 4.5 jobs left done: %g, want %g", f, want)
	}
	for i := 5; i < 8; i++ {
		tr.Set(i, 1)
	}
	if f := tr.Fraction(); f != 1 {
		t.Errorf("all done: %g", f)
	}
	// the estimate before the run is a lower bound under sim.precision
	if w := e.EstimateWord(); w != "about" {
		t.Errorf("without sim.precision: %q", w)
	}
	e.Series[0].Sim.Precision = 0.02
	if w := e.EstimateWord(); w != "at least" {
		t.Errorf("with sim.precision: %q", w)
	}
}
