package sim

import (
	"testing"

	"phitsim/engine/config"
)

// A load step (traffic.switchLoad; ACOR paper §6.2.1's 5% → 25%) changes
// the offered load at the switch cycle: the transient record's packets
// generated per 10-cycle bin are at the first load in the 100 cycles before
// the switch and at the second from the bin that starts at it, for the
// skipping Bernoulli generator (the default), the per-cycle Bernoulli one
// (with a source queue), the bursty process, and a step up from no load
// (h=4, 1,056 nodes, 8-phit packets, MIN under UN; 3 seeds; the 100 cycles
// on each side hold about 4,000 and 20,000 packets at 0.1 and 0.5: the
// tolerance is 8 % before, 5 % after, and the single bins at the switch
// must sit on the right side of the midpoint).
func TestLoadStepChangesOfferedLoadAtTheCycle(t *testing.T) {
	for _, tc := range []struct {
		name     string
		from, to float64
		edit     func(c *config.Config)
	}{
		{"skipping Bernoulli 0.1 → 0.5", 0.1, 0.5, nil},
		{"skipping Bernoulli 0.5 → 0.1", 0.5, 0.1, nil},
		{"per-cycle Bernoulli (source queue) 0.1 → 0.5", 0.1, 0.5, func(c *config.Config) { c.Traffic.SourceQueue = true }},
		{"bursty 0.1 → 0.5", 0.1, 0.5, func(c *config.Config) { c.Traffic.Process = "bursty" }},
		{"from no load 0 → 0.3", 0, 0.3, nil},
	} {
		c := btConfig(4, 1000, 1500)
		c.Traffic.Load = tc.from
		c.Traffic.SwitchCycle, c.Traffic.SwitchPattern, c.Traffic.SwitchLoad = 500, "UN", tc.to
		if tc.edit != nil {
			tc.edit(&c)
		}
		var before, after, atM1, at0 float64
		const seeds = 3
		for seed := uint64(1); seed <= seeds; seed++ {
			r := btRun(t, c, seed)
			tr := r.Transient
			if tr == nil || len(tr.Generated) != len(tr.Packets) || tr.From != -config.TransientPrev {
				t.Fatalf("%s: no load-step record: %+v", tc.name, tr)
			}
			sw := -tr.From / tr.Bin                                    // the bin that starts at the switch
			per := float64(1056*tr.Bin) / float64(c.Router.PacketSize) // packets a bin at load 1
			for i := 0; i < sw; i++ {
				before += float64(tr.Generated[i]) / per / float64(sw*seeds)
			}
			for i := sw; i < 2*sw; i++ {
				after += float64(tr.Generated[i]) / per / float64(sw*seeds)
			}
			atM1 += float64(tr.Generated[sw-1]) / per / seeds
			at0 += float64(tr.Generated[sw]) / per / seeds
		}
		t.Logf("%s: offered %.4f in the 100 cycles before the switch, %.4f after; bins −10…0 %.4f, 0…10 %.4f", tc.name, before, after, atM1, at0)
		mid := (tc.from + tc.to) / 2
		if tc.from == 0 && before != 0 || tc.from > 0 && !btWithin(before, tc.from, 0.08) || !btWithin(after, tc.to, 0.05) ||
			(tc.to > tc.from) != (at0 > mid) || (tc.to > tc.from) != (atM1 < mid) {
			t.Errorf("%s: offered %.4f before (want %g), %.4f after (want %g); the bins at the switch %.4f, %.4f on the wrong side of %g",
				tc.name, before, tc.from, after, tc.to, atM1, at0, mid)
		}
	}
}
