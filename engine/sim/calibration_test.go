package sim

import (
	"testing"

	"phitsim/engine/config"
)

// The best single calibration point of the router model (measured with FOGSim):
// MIN under UN at h=4 with the Table 1.2 router saturates at 0.685
// phits/(node·cycle) in FOGSim v4 with one allocator iteration (0.73 with
// 2–3). FOGSim v4 returns a credit at the crossbar traversal, our default
// (creditTiming=xbar), with which we saturate at 0.742 (+8%); FOGSim's
// earlier IOQ code returned it when the packet leaves the output FIFO
// (creditTiming=output), with which we measure 0.718 with one iteration (+5%)
// and 0.718 with two (−2%). See TIMING.md for what may explain the rest.
func TestMinimalUniformSaturationMatchesFOGSim(t *testing.T) {
	mk := func(timing string, iters int) config.Config {
		return adConfig(4, "MIN", "UN", 1.0, func(c *config.Config) {
			c.Router.CreditTiming, c.Router.Iterations = timing, iters
		})
	}
	rs := adRun(t, mk("output", 1), mk("output", 2), mk("xbar", 1))
	t.Logf("MIN/UN h=4 saturation: FOGSim output-FIFO credit timing %.3f (1 iteration), %.3f (2); credit at the crossbar %.3f",
		rs[0].Accepted, rs[1].Accepted, rs[2].Accepted)
	if !btWithin(rs[0].Accepted, 0.685, 0.07) {
		t.Errorf("output credit timing, 1 iteration: %.3f, want 0.685 ± 7%%", rs[0].Accepted)
	}
	if !btWithin(rs[1].Accepted, 0.73, 0.05) {
		t.Errorf("output credit timing, 2 iterations: %.3f, want 0.73 ± 5%%", rs[1].Accepted)
	}
	if !btWithin(rs[2].Accepted, 0.685, 0.10) {
		t.Errorf("crossbar credit timing (FOGSim v4's rule): %.3f, want 0.685 ± 10%%", rs[2].Accepted)
	}
	if rs[2].Accepted < rs[0].Accepted {
		t.Errorf("credits at the crossbar %.3f saturate below credits at the output FIFO %.3f", rs[2].Accepted, rs[0].Accepted)
	}
}

// FOGSim v5 built from its public repository (commit dcdd75f; MIN/UN h=4,
// Table 1.2 router, 5,000 + 5,000 cycles, offered 1.0, seeds 1 and 2:
// TIMING.md "Ejection") saturates at 0.6856 with one allocator iteration and
// 0.7275 with two (see the table there for 0.8 and 0.9). With its ejection
// gate (router.ejection=fogsim) phitsim must land within 2% of both, and the
// second iteration must raise saturation as it does in FOGSim (+6%), where
// with the ejection FIFO it changes almost nothing.
func TestFogsimEjectionSaturationMatchesFOGSim(t *testing.T) {
	mk := func(ejection string, iters int) config.Config {
		return adConfig(4, "MIN", "UN", 1.0, func(c *config.Config) {
			c.Router.Ejection, c.Router.Iterations = ejection, iters
		})
	}
	rs := adRun(t, mk("fogsim", 1), mk("fogsim", 2), mk("fifo", 1), mk("fifo", 2))
	t.Logf("MIN/UN h=4 saturation: ejection gate %.4f (1 iteration), %.4f (2); ejection FIFO %.4f, %.4f",
		rs[0].Accepted, rs[1].Accepted, rs[2].Accepted, rs[3].Accepted)
	if !btWithin(rs[0].Accepted, 0.6856, 0.02) {
		t.Errorf("ejection gate, 1 iteration: %.4f, want FOGSim's 0.6856 ± 2%%", rs[0].Accepted)
	}
	if !btWithin(rs[1].Accepted, 0.7275, 0.02) {
		t.Errorf("ejection gate, 2 iterations: %.4f, want FOGSim's 0.7275 ± 2%%", rs[1].Accepted)
	}
	if g := rs[1].Accepted/rs[0].Accepted - 1; g < 0.04 {
		t.Errorf("ejection gate: the second iteration raises saturation by %.1f%%, FOGSim by 6%%", 100*g)
	}
	if g := rs[3].Accepted/rs[2].Accepted - 1; g > 0.02 || g < -0.02 {
		t.Errorf("ejection FIFO: the second iteration changes saturation by %.1f%% (measured ±0.5%%)", 100*g)
	}
}
