package sim

// Ejection tests: FOGSim v5's ejection gate (router.ejection=fogsim) against
// the pipelined ejection FIFO (fifo), on the tiny idle network of rbSim with
// packets placed by hand, every cycle derived from the rules of TIMING.md
// "ejection": packetSize 8, crossbar transfer ⌈8/2⌉ = 4 cycles, crossbar
// latency 3, a 32-phit (4-packet) ejection FIFO. FOGSim v5: the output
// arbiter grants the ejection port only when the node can consume
// (outputArbiter::checkPort → generatorModule::checkConsume: now ≥ last
// consumption + packetSize); the node consumes the FIFO's head once it has
// crossed the crossbar and packetSize cycles after the previous one
// (ioqSwitchModule::updateOutputBuffer); the request side asks only for FIFO
// room (ioqSwitchModule::checkConsumePort).

import (
	"slices"
	"testing"

	"phitsim/engine/config"
)

// ejTrace steps s until n packets have been delivered (at most 500 cycles)
// and returns, relative to the first stepped cycle, the cycle of every
// crossbar grant out of the watched buffers (one entry per grant, several in
// a cycle with several iterations) and of every delivery.
func ejTrace(t *testing.T, s *Sim, watch []rbWatch, n int) (grants, consumed []int64) {
	t.Helper()
	t0 := s.now
	for s.st.del < int64(n) && s.now < t0+500 {
		before := make([]int32, len(watch))
		for i, w := range watch {
			before[i] = s.bufs[w.bi(s)].len
		}
		del := s.st.del
		c := s.now - t0
		s.Step()
		for i, w := range watch {
			for g := s.bufs[w.bi(s)].len; g < before[i]; g++ {
				grants = append(grants, c)
			}
		}
		for d := del; d < s.st.del; d++ {
			consumed = append(consumed, c)
		}
	}
	if len(consumed) != n {
		t.Fatalf("%d of %d packets delivered in 500 cycles", len(consumed), n)
	}
	return grants, consumed
}

func ejSim(t *testing.T, ejection string, iterations int) *Sim {
	return rbSim(t, func(c *config.Config) {
		c.Router.Ejection, c.Router.Iterations = ejection, iterations
	})
}

// One input (node 0, one VC) holds three packets for node 3 on the same
// router. fifo: the input is busy 4 cycles per packet, so grants at 0, 4, 8;
// the node consumes each when it has crossed the crossbar and the previous
// one has been consumed 8 cycles before: 3, 11, 19. fogsim: after the first
// consumption (3) the port is refused until 3 + 8 = 11, the second packet
// is consumed after the crossbar at 14, the third granted at 14 + 8 = 22 and
// consumed at 25: with the FIFO empty a packet every P + crossbar latency.
func TestFogsimEjectionGrantWaitsForConsumption(t *testing.T) {
	for _, tc := range []struct {
		ejection         string
		grants, consumed []int64
	}{
		{"fifo", []int64{0, 4, 8}, []int64{3, 11, 19}},
		{"fogsim", []int64{0, 11, 22}, []int64{3, 14, 25}},
	} {
		s := ejSim(t, tc.ejection, 1)
		for i := 0; i < 3; i++ {
			rbInject(s, 0, 3, 0, s.now-60)
		}
		grants, consumed := ejTrace(t, s, []rbWatch{{0, 0}}, 3)
		if !slices.Equal(grants, tc.grants) || !slices.Equal(consumed, tc.consumed) {
			t.Errorf("ejection=%s: grants at %v, consumed at %v; want %v, %v", tc.ejection, grants, consumed, tc.grants, tc.consumed)
		}
	}
}

// Five inputs (nodes 0, 1, 2, local input 4, global input 5) hold one packet
// each for node 3. Back to back, the node consumes one per packetSize cycles
// in both models: 3, 11, 19, 27, 35. fifo: the port is busy for the 4-cycle
// crossbar transfer, grants at 0, 4, 8, 12, 16 (its FIFO has room: at 16 it
// holds 2 packets and 3 phits still on the link, 19 ≤ 32 − 8). fogsim, one
// iteration: no crossbar busy time and the node has consumed nothing yet, so
// a grant every cycle 0–3 (at 3 the first packet, consumed after the
// allocation, still holds its slot: 3 of 4); from 4 the gate is closed by
// the consumption at 3 until 3 + 8 = 11. Two iterations: the refused inputs
// request the same port again in the second iteration of the same cycle and
// win it: two grants at 0 and two at 1; the fifth input finds the 4-packet
// FIFO full at 2 and 3 (the first packet leaves it at 3, after the
// allocation), then the gate closed until 11. fifo with two iterations: the
// second iteration finds the port busy, as with one.
func TestFogsimEjectionBackToBack(t *testing.T) {
	for _, tc := range []struct {
		ejection   string
		iterations int
		grants     []int64
	}{
		{"fifo", 1, []int64{0, 4, 8, 12, 16}},
		{"fifo", 2, []int64{0, 4, 8, 12, 16}},
		{"fogsim", 1, []int64{0, 1, 2, 3, 11}},
		{"fogsim", 2, []int64{0, 0, 1, 1, 11}},
	} {
		s := ejSim(t, tc.ejection, tc.iterations)
		for n := 0; n < 3; n++ {
			rbInject(s, n, 3, 0, s.now-60)
		}
		rbTransit(s, 0, 4, 0, 8, 3, s.now-60)
		rbTransit(s, 0, 5, 0, 16, 3, s.now-60)
		watch := []rbWatch{{0, 0}, {1, 0}, {2, 0}, {4, 0}, {5, 0}}
		grants, consumed := ejTrace(t, s, watch, 5)
		slices.Sort(grants)
		if want := []int64{3, 11, 19, 27, 35}; !slices.Equal(consumed, want) {
			t.Errorf("ejection=%s iterations=%d: consumed at %v, want %v", tc.ejection, tc.iterations, consumed, want)
		}
		if !slices.Equal(grants, tc.grants) {
			t.Errorf("ejection=%s iterations=%d: grants at %v, want %v", tc.ejection, tc.iterations, grants, tc.grants)
		}
	}
}

// A request refused by the gate still uses its input's turn (FOGSim's input
// arbiter places it, the output arbiter refuses it). Node 1 sends a packet to
// node 3, granted at cycle −4 of the trace and consumed at −1, so node 3's
// gate is closed until −1 + 8 = 7. Then node 0 holds a packet for node 3 in
// VC 0 and one for node 2 in VC 1, its round-robin pointer on VC 0. fogsim:
// at 0 VC 0 requests node 3 and is refused, the pointer moves on, VC 1 is
// granted at 1 (not at 0: the refused request took the turn), the input is
// busy until 5, VC 0 is refused at 5 and 6 and granted at 7. fifo: the port
// is free again at −4 + 4 = 0 and its FIFO has room, VC 0 is granted at 0
// and VC 1 when the input is free at 4.
func TestFogsimEjectionRefusedRequestUsesTheInputTurn(t *testing.T) {
	for _, tc := range []struct {
		ejection string
		grants   []int64 // VC 0 (to node 3), VC 1 (to node 2)
	}{
		{"fifo", []int64{0, 4}},
		{"fogsim", []int64{7, 1}},
	} {
		s := ejSim(t, tc.ejection, 1)
		rbInject(s, 1, 3, 0, s.now-60)
		for i := 0; i < 4; i++ {
			s.Step()
		}
		if s.st.del != 1 {
			t.Fatalf("ejection=%s: node 1's packet not consumed at cycle −1", tc.ejection)
		}
		rbInject(s, 0, 3, 0, s.now-60)
		rbInject(s, 0, 2, 1, s.now-60)
		t0 := s.now
		got := []int64{-1, -1}
		for s.now < t0+40 && (got[0] < 0 || got[1] < 0) {
			l0, l1 := s.bufs[0].len, s.bufs[1].len // input 0 of router 0, VCs 0 and 1
			c := s.now - t0
			s.Step()
			if s.bufs[0].len < l0 {
				got[0] = c
			}
			if s.bufs[1].len < l1 {
				got[1] = c
			}
		}
		if !slices.Equal(got, tc.grants) {
			t.Errorf("ejection=%s: node 0's VC 0 (to node 3) and VC 1 (to node 2) granted at %v, want %v", tc.ejection, got, tc.grants)
		}
	}
}

// Zero-load latency is the same with the gate: an idle node's gate is open,
// and the packet is consumed when its head has crossed the crossbar, as in
// the FIFO model: 1 + 3·routers + 10·local + 100·global + 8.
func TestFogsimEjectionZeroLoadLatency(t *testing.T) {
	c := smallConfig(2)
	c.Router.Ejection = "fogsim"
	checkZeroLoadPaths(t, c)
}
