package sim

import (
	"testing"

	"phitsim/engine/config"
)

// router.xbarOutput, derived by hand: one packet (P = 8, speedup 2) is
// injected at cycle 0 towards the next router of the group; its head is in
// the injection buffer from cycle 1 and is granted then, as it arrives, so
// its tail crosses the crossbar only in cycle 1 + 8. The input is busy until
// cycle 9 in both modes. tail: so is the output (it receives the whole
// transfer). fogsim: the output is busy P/speedup = 4 cycles, until cycle 5
// (FOGSim v5's ioqSwitchModule::txFlit reads the input buffer's head entry
// after buffer::extract has cleared it).
func TestXbarOutputBusy(t *testing.T) {
	for _, tc := range []struct {
		mode        string
		outAt, inAt int32
	}{{"tail", 9, 9}, {"fogsim", 5, 9}} {
		s := tinyAdaptive(t, "MIN", func(c *config.Config) { c.Router.XbarOutput = tc.mode })
		s.enqueue(s.newPacket(0, s.p*1, 0, 0), 0, 0)
		s.now++
		s.Step() // cycle 1: the grant
		po := s.df.MinimalPort(0, 1)
		if got := s.ports[po].readyAt; got != tc.outAt {
			t.Errorf("%s: output free to receive from cycle %d, want %d", tc.mode, got, tc.outAt)
		}
		if got := s.ports[s.nodeAt[0].pi].inFree; got != tc.inAt {
			t.Errorf("%s: injection input free from cycle %d, want %d", tc.mode, got, tc.inAt)
		}
		if s.st.xbar != 1 {
			t.Fatalf("%s: %d crossbar transfers in cycle 1, want 1", tc.mode, s.st.xbar)
		}
	}
}
