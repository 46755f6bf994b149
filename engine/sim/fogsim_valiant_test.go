package sim

// FOGSim v5 behaviours behind its Valiant numbers (RRG-Sw, `routing=OBL
// GlobalMisroutingPolicy=RRG ValiantType=SRCEXC`),
// each pinned on a tiny network with values derived by hand:
//   - routing.completePhaseA: obl::enroute / valAny::enroute route towards the
//     intermediate node until valNodeReached, even through the destination
//     router (and a destination on the source router leaves it);
//   - router.outputFifo=fogsim: a transit output is busy packetSize/speedup
//     cycles (ioqSwitchModule::txFlit computes the length after the input
//     buffer's extract has cleared the head entry), and its FIFO counts whole
//     packets, a slot freed when its head leaves for the link
//     (bufferedOutPort::extract, buffer::getSpace).

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"phitsim/engine/config"
)

// valPath sends one packet src→dst through an empty h=2 network (a=4, p=2,
// 9 groups) with VAL, trying seeds until the source router draws intermediate
// router inter, and returns its latency with completePhaseA off and on.
func valPath(t *testing.T, src, dst, inter int, restricted bool) (off, on int64) {
	t.Helper()
	for seed := uint64(1); seed < 2000; seed++ {
		var lat [2]int64
		drawn := true
		for i, complete := range []bool{false, true} {
			c := smallConfig(2)
			c.Routing.Name, c.Routing.CompletePhaseA, c.Routing.Restricted = "VAL", complete, restricted
			s, err := New(c, seed)
			if err != nil {
				t.Fatal(err)
			}
			k := s.alloc() // the packet inject allocates next
			s.release(k)
			s.inject(src, dst, 0)
			for s.InFlight() > 0 && s.now < 5000 {
				s.Step()
				if s.pk[k].inter >= 0 && int(s.pk[k].inter) != inter {
					drawn = false
					break
				}
			}
			if !drawn {
				break
			}
			if s.st.del != 1 {
				t.Fatalf("seed %d: packet %d→%d not delivered", seed, src, dst)
			}
			lat[i] = s.st.latSum
		}
		if drawn {
			return lat[0], lat[1]
		}
	}
	t.Fatalf("no seed draws intermediate router %d for %d→%d", inter, src, dst)
	return
}

// Palm tree, h=2, a=4, 9 groups: router 3 of group 0 and router 4 (group 1,
// position 0) share the global link between groups 0 and 1. Latency =
// 1 + 3·routers + 10·local + 100·global + 8 (TIMING.md).
//   - node 0 → node 1, same router 0, intermediate 4: 12 when delivered at
//     once; completing phase A, 0 -l- 3 -g- 4 -g- 3 -l- 0: 1+15+20+200+8 = 244.
//   - node 0 → node 6 (router 3), intermediate 4: the path to 4 crosses router
//     3, delivered there after one local hop, 25; completing phase A,
//     0 -l- 3 -g- 4 -g- 3: 1+12+10+200+8 = 231.
//   - node 0 → node 8 (router 4, group 1), intermediate 5: the path to 5
//     enters group 1 at router 4, delivered there, 0 -l- 3 -g- 4: 128;
//     completing phase A, 0 -l- 3 -g- 4 -l- 5 -l- 4: 1+15+30+100+8 = 154.
//   - restricted, node 2 → node 3, both on router 1, intermediate router 1
//     itself (drawn in the own group): phase A ends where it starts, 12
//     either way.
func TestCompletePhaseAThroughDestinationRouter(t *testing.T) {
	for _, tc := range []struct {
		src, dst, inter int
		restricted      bool
		off, on         int64
	}{
		{0, 1, 4, false, 12, 244},
		{0, 6, 4, false, 25, 231},
		{0, 8, 5, false, 128, 154},
		{2, 3, 1, true, 12, 12},
	} {
		off, on := valPath(t, tc.src, tc.dst, tc.inter, tc.restricted)
		if off != tc.off || on != tc.on {
			t.Errorf("%d→%d via router %d: latency %d / %d with completePhaseA off / on, want %d / %d",
				tc.src, tc.dst, tc.inter, off, on, tc.off, tc.on)
		}
	}
}

// outTrace steps s until n packets have crossed the crossbar out of the
// watched buffers (at most 300 cycles) and returns the grant cycles relative
// to the first stepped cycle.
func outTrace(t *testing.T, s *Sim, watch []rbWatch, n int) []int64 {
	t.Helper()
	t0 := s.now
	var grants []int64
	for len(grants) < n && s.now < t0+300 {
		before := make([]int32, len(watch))
		for i, w := range watch {
			before[i] = s.bufs[w.bi(s)].len
		}
		c := s.now - t0
		s.Step()
		for i, w := range watch {
			for g := s.bufs[w.bi(s)].len; g < before[i]; g++ {
				grants = append(grants, c)
			}
		}
	}
	if len(grants) != n {
		t.Fatalf("%d of %d grants in 300 cycles", len(grants), n)
	}
	return grants
}

// On rbSim (h=1, a=2, p=4) router 0's global port 5 leads to router 5, whose
// node 20 is one global hop away (256-phit global buffers: credits never
// stop these packets). Nodes 0–3 hold two fully received packets each for
// node 20: every crossbar transfer takes ⌈8/2⌉ = 4 cycles, a packet enters
// the 32-phit output FIFO 3 cycles after its grant and the link takes one
// every 8 cycles, so departures are 3, 11, 19, 27, … for grants 0, 4, 8, …
// tail: room for a packet when the FIFO's whole packets plus the phits of
// the one on the link fit in 32 − 8 = 24 phits. Grants 0–20 every 4 cycles
// (at 20: departures 27, 35 and 19+8−20 = 7 phits on the link, 23); at 24
// the packets departing 27, 35, 43 hold 24 and 3 phits are still on the
// link, room only at 27 (0 left); then one per link slot: 35.
// fogsim: room while at most 3 whole packets wait (d ≥ t), the one on the
// link not counted: grants every 4 cycles up to 28 (at 28: 35, 43, 51); at
// 32 four wait (35, 43, 51, 59), room when 35 has left: 36.
func TestOutputFifoFogsimWholePacketFIFO(t *testing.T) {
	for _, tc := range []struct {
		timing string
		grants []int64
	}{
		{"tail", []int64{0, 4, 8, 12, 16, 20, 27, 35}},
		{"fogsim", []int64{0, 4, 8, 12, 16, 20, 24, 28}},
	} {
		s := rbSim(t, func(c *config.Config) { c.Router.OutputFifo = tc.timing })
		var watch []rbWatch
		for n := 0; n < 4; n++ {
			rbInject(s, n, 20, 0, s.now-60)
			rbInject(s, n, 20, 0, s.now-60)
			watch = append(watch, rbWatch{n, 0})
		}
		if grants := outTrace(t, s, watch, 8); !slices.Equal(grants, tc.grants) {
			t.Errorf("outputFifo=%s: grants at %v, want %v", tc.timing, grants, tc.grants)
		}
	}
}

// A packet whose head has just reached local input 4 of router 0 (its tail
// arrives 8 cycles later) is granted global port 5 at cycle 0: its crossbar
// transfer lasts until the tail has crossed, max(4, 0+8−0) = 8 cycles. A
// fully received packet of node 0 for the same port, placed after that
// grant, is granted at 8 when the output waits for the tail (tail), and at
// 4 with FOGSim's packetSize/speedup busy time.
func TestOutputFifoFogsimBusyTime(t *testing.T) {
	for _, tc := range []struct {
		timing string
		grants []int64
	}{
		{"tail", []int64{0, 8}},
		{"fogsim", []int64{0, 4}},
	} {
		s := rbSim(t, func(c *config.Config) { c.Router.OutputFifo = tc.timing })
		k := rbTransit(s, 0, 4, 0, 8, 20, s.now-60)
		// the head arrives now: move its entry (and the buffer head's) to now
		s.pk[k].entry = s.now
		b := &s.bufs[4*s.maxVC]
		s.qRing[b.start+b.head] = slot(k, s.now)
		s.setHead(b)
		watch := []rbWatch{{4, 0}, {0, 0}}
		grants := outTrace(t, s, watch, 1)
		rbInject(s, 0, 20, 0, s.now-60)
		more := outTrace(t, s, watch, 1)
		grants = append(grants, more[0]+1)
		if !slices.Equal(grants, tc.grants) {
			t.Errorf("outputFifo=%s: grants at %v, want %v", tc.timing, grants, tc.grants)
		}
	}
}

// With FOGSim's Valiant phase A (whose longer paths still fit the VC
// sequences: l0 g0 l1 l2 g1 l3 for VAL, l0 g0 l1 g1 l2 for VAL_GROUP) and
// output timing, a saturating burst of UN or ADV+1 traffic on h=2, with or
// without request-reply, drains completely: no packet runs out of VCs, none
// is lost, nothing deadlocks.
func TestCompletePhaseADrainsAfterSaturatingBurst(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		routing, pattern string
		reactive         bool
	}{
		{"VAL", "UN", false}, {"VAL", "ADV", true}, {"VAL_GROUP", "UN", true}, {"VAL_GROUP", "ADV", false},
	} {
		c := btConfig(2, 0, 1000000)
		c.Routing.Name, c.Routing.CompletePhaseA, c.Traffic.Load, c.Traffic.Reactive = tc.routing, true, 0, tc.reactive
		c.Router.Ejection, c.Router.OutputFifo = "fogsim", "fogsim"
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		flags := uint8(0)
		if tc.reactive {
			flags = fRequest
		}
		// 2,000 cycles at load 1.0 from every node, destinations on the
		// source router included
		loaded, r := burstAndDrain(s, 2000, tc.pattern, flags, rand.New(rand.NewPCG(3, 4)))
		checkDrained(t, fmt.Sprintf("%+v", tc), s, s.N, loaded, r)
	}
}
