package sweep

import (
	"strings"
	"testing"

	"phitsim/engine/config"
)

// A sweep's runs are counted before any is built: 10⁵ values of one series
// took 7 s and 640 MB to be refused by the results bound; now they are
// refused at once, naming the count, and the bound is the page's
// (site/experiment.MaxRuns).
func TestJobsRefusedPastMaxRuns(t *testing.T) {
	c := config.Default()
	c.Sim.Seeds = 2
	values := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i)
		}
		return v
	}
	for _, tc := range []struct {
		sp   Spec
		runs int
	}{
		{Spec{Series: []config.Config{c}, Param: "sim.seed", Values: values(MaxRuns/2 + 1)}, MaxRuns + 2},
		{Spec{Series: []config.Config{c, c, c}, Param: "sim.seed", Values: values(MaxRuns)}, 3 * MaxRuns},
		// the swept parameter may be the seeds themselves
		{Spec{Series: []config.Config{c}, Param: "sim.seeds", Values: []float64{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1}}, 20001},
	} {
		if n := tc.sp.Runs(); n != tc.runs {
			t.Errorf("%d series × %d values: Runs %d, want %d", len(tc.sp.Series), len(tc.sp.Xs()), n, tc.runs)
		}
		jobs, err := tc.sp.Jobs()
		if err == nil || !strings.Contains(err.Error(), "at most 20000") {
			t.Errorf("%d series × %d values: %d jobs, %v", len(tc.sp.Series), len(tc.sp.Xs()), len(jobs), err)
		}
	}
	c.Sim.Seeds = 1
	sp := Spec{Series: []config.Config{c}, Param: "sim.seed", Values: values(1000)}
	if jobs, err := sp.Jobs(); err != nil || len(jobs) != 1000 || sp.Runs() != 1000 {
		t.Fatalf("1,000 runs: %d jobs, %v", len(jobs), err)
	}
}
