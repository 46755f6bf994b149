package sim

import (
	"testing"

	"phitsim/engine/config"
)

// Notes §14 target 5, the best single calibration point of the router model:
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
