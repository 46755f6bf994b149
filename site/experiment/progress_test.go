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
