package sweep

import (
	"errors"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// TestSweepOfTheBasisRefused: 'phitsim sweep -param physical.*' (or a tie
// to it) is refused with the page's own error (config.ErrSweepBasis): the
// basis only converts what is shown, so every point would be the same run.
// A field in cycles of the same configuration still sweeps.
func TestSweepOfTheBasisRefused(t *testing.T) {
	c := config.Default()
	c.Physical = config.Physical{LinkGbps: 40, PhitBytes: 100}
	for _, sp := range []Spec{
		{Series: []config.Config{c}, Param: "physical.linkGbps", Values: []float64{10, 40}},
		{Series: []config.Config{c}, Param: "physical.phitBytes", Values: []float64{50, 100}},
		{Series: []config.Config{c}, Param: "router.xbarLatency", Values: []float64{1, 2},
			Tied: []Tie{{Path: "physical.cableNsPerMeter", Scale: 1}}},
	} {
		_, err := sp.Jobs()
		if !errors.Is(err, config.ErrSweepBasis) || !strings.Contains(err.Error(), "physical.") {
			t.Errorf("sweep of %s (tied %v): error %v, want config.ErrSweepBasis naming the field", sp.Param, sp.Tied, err)
		}
	}
	sp := Spec{Series: []config.Config{c}, Param: "router.xbarLatency", Values: []float64{1, 2}}
	if _, err := sp.Jobs(); err != nil {
		t.Errorf("a sweep of router.xbarLatency with a basis: %v", err)
	}
}
