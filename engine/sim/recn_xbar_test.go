package sim

import (
	"math"
	"testing"

	"phitsim/engine/config"
)

// RECN paper §4.1: every scheme runs on the same switch, whose crossbar
// "is controlled by an arbiter that receives requests from packets at the
// head of any input queue". RECN's sides with detection off are one queue
// per side (IQ). With congestion.recnCrossbar=perOutput (each output
// grants by a round-robin pointer, as the baselines' separable allocator)
// they saturate under UR at load 1 where the router's IQ does (measured
// 0.894 both); with the default normalFirst, whose sides take free outputs
// first come in an order rotating by one each cycle, they saturate lower
// (0.820: a 64-byte transfer holds the crossbar ports 6–8 cycles of 8, so
// an output freed after 8 cycles meets the order that granted it) — the
// HOL limit behind RECN's 44.8 B/ns before the tree in corner case 2 under
// normalFirst (47.8 under perOutput, VOQnet 48.1)
// (engine/REPRODUCTION.md, "The crossbar's arbiter across ingress sides").
func TestRECNCrossbarArbiterSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("three 64-host runs of 10,000 cycles")
	}
	base := config.FatTree(4, 3, 0)
	base.Sim.Seeds, base.Sim.Warmup, base.Sim.Cycles = 1, 5000, 5000
	base.Traffic.Load = 1
	iq := btRun(t, base, 1).Accepted
	sides := func(arbiter string) float64 {
		c := base
		c.Physical = config.Physical{LinkGbps: 8, PhitBytes: 8}
		c.Congestion.Scheme, c.Congestion.RecnDetect, c.Congestion.RecnCrossbar = "recn", 1048576, arbiter
		res, _ := runRates(t, c)
		return res.Accepted
	}
	per, rot := sides("perOutput"), sides("normalFirst")
	t.Logf("UR at 1.0: router IQ %.3f, RECN's sides without lines: perOutput %.3f, normalFirst %.3f", iq, per, rot)
	if math.Abs(per-iq) > 0.01 {
		t.Errorf("perOutput: accepted %.3f, want the router's IQ %.3f ± 0.01", per, iq)
	}
	if rot > iq-0.04 {
		t.Errorf("normalFirst: accepted %.3f, want at least 0.04 below the router's IQ %.3f (the rotating order's HOL limit)", rot, iq)
	}
}
