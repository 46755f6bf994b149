package stats

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// Fairness metrics over per-router injection counts (thesis §1.5.1;
// FOGSim v4's output): Max/Min ("Unbalance Quotient"), CoV = population
// σ/μ ("Unfairness Quotient (stdev/avg)", not variance/μ), Jain's index
// (Σx)²/(n·Σx²), and starved routers (Max/Min reported as 0 = ∞).
func TestFairnessHandBuiltVectors(t *testing.T) {
	for _, tc := range []struct {
		name              string
		x                 []int64
		min, max          int64
		minR, maxR        int
		maxMin, cov, jain float64
		starved           int
	}{
		// μ=25, population σ²=125 → σ=√125; Jain = 100²/(4·3000)
		{"ramp", []int64{10, 20, 30, 40}, 10, 40, 0, 3, 4, math.Sqrt(125) / 25, 10000.0 / 12000, 0},
		// μ=5, σ²=(25+0+0+25)/4 → σ=√12.5; Jain = 20²/(4·150); one router starves
		{"starved", []int64{5, 0, 10, 5}, 0, 10, 1, 2, 0, math.Sqrt(12.5) / 5, 400.0 / 600, 1},
		{"equal", []int64{7, 7, 7}, 7, 7, 0, 0, 1, 0, 1, 0},
		// ties: the first router attaining min/max is named; μ=3, σ²=(0+4+4+4+4)/5, Σx²=61
		{"ties", []int64{3, 1, 5, 1, 5}, 1, 5, 1, 2, 5, math.Sqrt((0+4+4+4+4)/5.0) / 3, 225.0 / (5 * 61), 0},
		{"all starved", []int64{0, 0}, 0, 0, 0, 0, 0, 0, 0, 2},
	} {
		f := Fairness(tc.x)
		if f.Min != tc.min || f.Max != tc.max || f.MinRouter != tc.minR || f.MaxRouter != tc.maxR || f.Starved != tc.starved {
			t.Errorf("%s: min %d@%d max %d@%d starved %d, want %d@%d %d@%d %d", tc.name,
				f.Min, f.MinRouter, f.Max, f.MaxRouter, f.Starved, tc.min, tc.minR, tc.max, tc.maxR, tc.starved)
		}
		if !near(f.MaxMin, tc.maxMin) || !near(f.CoV, tc.cov) || !near(f.Jain, tc.jain) {
			t.Errorf("%s: Max/Min %v CoV %v Jain %v, want %v %v %v", tc.name, f.MaxMin, f.CoV, f.Jain, tc.maxMin, tc.cov, tc.jain)
		}
		if len(f.PerRouter) != len(tc.x) {
			t.Errorf("%s: PerRouter has %d entries", tc.name, len(f.PerRouter))
		}
	}
	if f := Fairness(nil); f.Min != 0 || f.Max != 0 || f.CoV != 0 || f.Jain != 0 || f.Starved != 0 {
		t.Errorf("empty vector: %+v", f)
	}
}

// Means over seeds with a 95% Student-t confidence interval.
func TestEstimate95(t *testing.T) {
	e := Estimate95([]float64{1, 2, 3})
	// mean 2, sample sd 1, t(0.975, 2 dof) = 4.302652729911275
	if e.N != 3 || !near(e.Mean, 2) || math.Abs(e.CI95-4.302652729911275/math.Sqrt(3)) > 1e-9 {
		t.Errorf("Estimate95(1,2,3) = %+v", e)
	}
	if e := Estimate95([]float64{5}); e.Mean != 5 || e.CI95 != 0 || e.N != 1 {
		t.Errorf("single run: %+v", e)
	}
	if e := Estimate95(nil); e.Mean != 0 || e.CI95 != 0 || e.N != 0 {
		t.Errorf("no runs: %+v", e)
	}
	if e := Estimate95([]float64{4, 4, 4, 4}); e.Mean != 4 || e.CI95 != 0 {
		t.Errorf("constant runs: %+v", e)
	}
}
