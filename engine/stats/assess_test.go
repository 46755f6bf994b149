package stats

import (
	"encoding/json"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// Assess on documents with little or nothing in them (no packet, one
// sample, a deadlock, a Graph500 job) gives a verdict and numbers that JSON
// can hold (encoding/json refuses NaN and ±Inf).
func TestAssessDegenerateDocuments(t *testing.T) {
	c := config.Default()
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval = 100, 1000, 100
	series := func(n int, lat, acc, app float64) []result.Sample {
		s := make([]result.Sample, n)
		for i := range s {
			s[i] = result.Sample{Cycle: int64(i+1) * 100, Latency: lat, Accepted: acc, Applied: app}
		}
		return s
	}
	for _, tc := range []struct {
		name string
		r    result.Result
		want string
	}{
		{"empty", result.Result{Config: c, SimCycles: 1100}, result.TooShort},
		{"one sample", result.Result{Config: c, SimCycles: 200, Series: series(2, 50, 0.1, 0.1)}, result.TooShort},
		{"constant", result.Result{Config: c, SimCycles: 1100, Series: series(11, 50, 0.1, 0.1), LatencyHist: []int64{0, 3, 4}}, result.Steady},
		{"no packet delivered", result.Result{Config: c, SimCycles: 1100, Series: series(11, 0, 0, 0)}, result.TooShort},
		{"deadlock", result.Result{Config: c, SimCycles: 1100, Series: series(11, 50, 0.1, 0.1), Deadlock: &result.Deadlock{Cycle: 700}}, result.TooShort},
	} {
		q := Assess(&tc.r)
		if q.Verdict != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, q.Verdict, q.Reason, tc.want)
		}
		if _, err := json.Marshal(q); err != nil {
			t.Errorf("%s: %v: %+v", tc.name, err, q)
		}
		r := tc.r
		if _, err := json.Marshal(AssessPoint([]*result.Result{&r, &r})); err != nil {
			t.Errorf("%s (point): %v", tc.name, err)
		}
	}
}
