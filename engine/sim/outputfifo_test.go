package sim

// router.outputFifo on the tiny idle network of rbSim (h = 1, a = 2, p = 4:
// ports 0–3 nodes, 4 local, 5 global) with packets placed by hand, every
// cycle derived from TIMING.md's rules: packetSize 8, crossbar transfer
// ⌈8/2⌉ = 4 cycles, crossbar latency 3, a 32-phit (4-packet) output FIFO.
// FOGSim v5 (ioqSwitchModule::txFlit) computes the output's transfer length
// after the input buffer has dropped the head's entry cycle, so a granted
// output is busy packetSize/speedup cycles even while a cut-through tail is
// still arriving (the input side stays busy until the tail has crossed);
// its FIFO room (ioqSwitchModule::getCredits, min with the output buffer's
// getSpace) counts whole packets, a slot freed when the packet's head leaves
// for the link.

import (
	"slices"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// ofSim is rbSim with router.outputFifo set (and any further edit).
func ofSim(t *testing.T, mode string, edit func(*config.Config)) *Sim {
	return rbSim(t, func(c *config.Config) {
		c.Router.OutputFifo = mode
		if edit != nil {
			edit(c)
		}
	})
}

// ofGrants steps s for n cycles, calling before(c) ahead of cycle c, and
// returns the cycles (from the first stepped one) at which each watched
// buffer sent a packet across the crossbar.
func ofGrants(s *Sim, watch []rbWatch, n int, before func(c int)) [][]int64 {
	grants := make([][]int64, len(watch))
	for c := 0; c < n; c++ {
		if before != nil {
			before(c)
		}
		for _, i := range rbStep(s, watch) {
			grants[i] = append(grants[i], int64(c))
		}
	}
	return grants
}

// A packet whose head reaches global input 5 in cycle 0 (its tail at 8) is
// granted local output 4 at once: the crossbar transfer lasts until its tail
// has arrived, max(4, 0 + 8 − 0) = 8 cycles. Its input port is busy for
// those 8 cycles in both models, so the packet behind it in VC 1 (for node 0)
// is granted at 8. A packet of node 1 for router 1 (placed after cycle 0)
// wants output 4: tail, the output is busy until 8 too; fogsim, only until
// 0 + 4.
func TestOutputFifoCutThroughBusy(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want [][]int64
	}{
		{"tail", [][]int64{{0}, {8}, {8}}},
		{"fogsim", [][]int64{{0}, {8}, {4}}},
	} {
		s := ofSim(t, tc.mode, nil)
		rbTransitAt(s, 0, 5, 0, 8, 4, s.now-150, s.now) // cut-through, to router 1
		rbTransit(s, 0, 5, 1, 8, 0, s.now-150)          // behind it, to node 0
		watch := []rbWatch{{5, 0}, {5, 1}, {1, 0}}
		got := ofGrants(s, watch, 30, func(c int) {
			if c == 1 {
				rbInject(s, 1, 5, 0, s.now-60)
			}
		})
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("outputFifo=%s: grants %v, want %v (cut-through, VC behind it, node 1)", tc.mode, got, tc.want)
		}
	}
}

// Nodes 0–3 hold three packets each for router 1 (output 4; 256-phit local
// buffers, so credits never bind). Grants g, departures d = max(g + 3,
// previous d + 8): 0→3, 4→11, 8→19, 12→27, 16→35, 20→43, … The link drains a
// packet per 8 cycles, the crossbar brings one per 4, so the FIFO fills.
// tail: room needs 8·#{d ≥ t} + the phits of the last departed packet still
// to send ≤ 32 − 8: at 24 the FIFO holds 27, 35, 43 and 3 phits of the one
// that left at 19 (27 > 24), room at 27 (dep 51); from then on a packet each
// time the previous one's tail is off the link: 35, 43, 51, 59, 67. fogsim:
// room once fewer than 4 packets wait, i.e. the 4th most recent has left:
// every 4 cycles up to 28 (its departure + 1 is earlier), then 35 + 1,
// 43 + 1, 51 + 1, 59 + 1.
func TestOutputFifoRoomWholePackets(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want []int64
	}{
		{"tail", []int64{0, 4, 8, 12, 16, 20, 27, 35, 43, 51, 59, 67}},
		{"fogsim", []int64{0, 4, 8, 12, 16, 20, 24, 28, 36, 44, 52, 60}},
	} {
		s := ofSim(t, tc.mode, func(c *config.Config) { c.Router.LocalBuffer = 256 })
		for n := 0; n < 4; n++ {
			for i := 0; i < 3; i++ {
				rbInject(s, n, 4+n, 0, s.now-60)
			}
		}
		watch := []rbWatch{{0, 0}, {1, 0}, {2, 0}, {3, 0}}
		var all []int64
		for _, g := range ofGrants(s, watch, 100, nil) {
			all = append(all, g...)
		}
		slices.Sort(all)
		if !slices.Equal(all, tc.want) {
			t.Errorf("outputFifo=%s: grants to output 4 at %v, want %v", tc.mode, all, tc.want)
		}
	}
}

// OLM's CGA trigger sees the busy time (FOGSim's misrouteCondition asks
// nextPortCanReceiveFlit, the same test as the request). The cut-through
// packet of TestOutputFifoCutThroughBusy takes output 4 at cycle 0; a packet
// of node 1 for a router of another group reached through router 1 (minimal
// output 4, local: no congested-link restriction) is routed at cycle 5. tail:
// output 4 is busy until 8, the trigger fires and the only global port (5,
// empty) qualifies, so it is misrouted at injection; fogsim: output 4 is free
// since 4, minimal. This is the low-load excess of misrouting OLM showed
// against FOGSim (ROUTING.md).
func TestOutputFifoOLMTrigger(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		misAtInj int64
	}{{"tail", 1}, {"fogsim", 0}} {
		s := ofSim(t, tc.mode, func(c *config.Config) {
			c.Routing.Name, c.Routing.Candidates = "OLM", "single"
		})
		dst := -1
		for d := 0; d < s.R && dst < 0; d++ {
			if s.df.GroupOf(d) != 0 && s.df.MinimalPort(0, d) == 4 {
				dst = d
			}
		}
		if dst < 0 || s.pclass[4] != topology.Local {
			t.Fatal("no destination reached through router 1")
		}
		rbTransitAt(s, 0, 5, 0, 8, 4, s.now-150, s.now)
		watch := []rbWatch{{5, 0}, {1, 0}}
		got := ofGrants(s, watch, 400, func(c int) {
			if c == 5 {
				rbInject(s, 1, dst*s.p, 0, s.now-60)
			}
		})
		if want := [][]int64{{0}, {5}}; !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("outputFifo=%s: grants %v, want %v", tc.mode, got, want)
		}
		if s.st.del != 2 || s.st.misCat[catInjection] != tc.misAtInj || s.st.mis != tc.misAtInj {
			t.Errorf("outputFifo=%s: %d delivered, %d misrouted (%d at injection), want 2, %d at injection",
				tc.mode, s.st.del, s.st.mis, s.st.misCat[catInjection], tc.misAtInj)
		}
	}
}
