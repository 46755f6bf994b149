package sim

import (
	"math"
	"testing"

	"phitsim/engine/config"
)

// msgConfig is the 16-node 1D flattened butterfly of Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks" §V-A
// (4 routers of 4 nodes), with its network interface: messages of m
// packets and per-destination source queues.
func msgConfig(m int, queues string, load float64) config.Config {
	c := config.FBFly(1, 4, 4)
	c.Routing.Name = "MIN"
	c.Traffic.Pattern, c.Traffic.Load = "UN", load
	c.Traffic.SourceQueue, c.Traffic.MessagePackets, c.Traffic.SourceQueues = true, m, queues
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 2000, 20000, 1
	return c
}

// §V-A: messages are generated at λ/(message flits) per cycle, so the load
// in phits stays traffic.load: 4-packet messages apply the same load as
// single packets (below saturation, where the source queue keeps up).
func TestMessagesOfferedLoadIsTrafficLoad(t *testing.T) {
	for _, q := range []string{"single", "perDestination"} {
		for _, load := range []float64{0.1, 0.3} {
			r := btRun(t, msgConfig(4, q, load), 3)
			t.Logf("%s, load %.1f: applied %.4f accepted %.4f latency %.1f", q, load, r.Applied, r.Accepted, r.Latency.Avg)
			if math.Abs(r.Applied-load) > 0.05*load {
				t.Errorf("%s, load %.2f: applied %.4f phits/node/cycle, want traffic.load ±5%%", q, load, r.Applied)
			}
			if math.Abs(r.Accepted-load) > 0.05*load {
				t.Errorf("%s, load %.2f: accepted %.4f, want traffic.load ±5%% (below saturation)", q, load, r.Accepted)
			}
		}
	}
}

// §V-A: a message's packets are generated together, to one destination,
// and wait consecutively in the node's source queue. Every packet a node
// generates in a cycle belongs to its one message of that cycle: in the
// queue, a run of equal generation cycles has one destination and, except
// the partly injected run at the head, 4 packets.
func TestMessagesPacketsAreConsecutiveToOneDestination(t *testing.T) {
	s, err := New(msgConfig(4, "single", 0.6), 5) // above MIN's UN saturation: the queues grow
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for cyc := 0; cyc < 3000; cyc++ {
		s.Step()
		for n := 0; n < s.N; n++ {
			q := s.sq[n][s.sqHead[n]:]
			for i := 0; i < len(q); {
				j := i
				for j < len(q) && s.pk[q[j]].gen == s.pk[q[i]].gen {
					if s.pk[q[j]].dst != s.pk[q[i]].dst {
						t.Fatalf("cycle %d node %d: packets of the message of cycle %d go to %d and %d", s.now, n, s.pk[q[i]].gen, s.pk[q[i]].dst, s.pk[q[j]].dst)
					}
					j++
				}
				if i > 0 && j-i != 4 || i == 0 && j-i > 4 {
					t.Fatalf("cycle %d node %d: %d packets generated at cycle %d queued together, want a message of 4", s.now, n, j-i, s.pk[q[i]].gen)
				}
				if i > 0 {
					runs++
				}
				i = j
			}
		}
	}
	t.Logf("%d whole messages seen queued", runs)
	if runs < 1000 {
		t.Fatalf("only %d whole messages seen queued: the test saw no backlog", runs)
	}
	if err := s.Census(); err != nil {
		t.Fatal(err)
	}
}

// §V-A (InfiniBand queue pairs): a node with two backlogged destinations
// serves them round-robin, one packet each in turn; a single source queue
// sends the first message whole before the second.
func TestPerDestinationQueuesAlternate(t *testing.T) {
	for _, tc := range []struct {
		queues string
		want   string
	}{{"perDestination", "ABABABAB"}, {"single", "AAAABBBB"}} {
		s, err := New(msgConfig(4, tc.queues, 0), 1) // no generation of its own
		if err != nil {
			t.Fatal(err)
		}
		const n, a, b = 0, 5, 9
		s.inject(n, a, 0)
		s.inject(n, b, 0)
		sent := ""
		seen := map[int32]bool{}
		for s.InFlight() > 0 && s.now < 5000 {
			s.Step()
			// the packets that entered an injection VC this cycle
			for k := range s.pk {
				if pk := &s.pk[k]; pk.entry > 0 && !seen[int32(k)] && pk.src == n {
					seen[int32(k)] = true
					sent += map[int32]string{a: "A", b: "B"}[pk.dst]
				}
			}
		}
		if sent != tc.want {
			t.Errorf("%s: packets entered the injection VCs to %q, want %q", tc.queues, sent, tc.want)
		}
		if err := s.Census(); err != nil {
			t.Fatal(err)
		}
		if s.sqAct != nil && (len(s.sqAct[n]) != 0 || len(s.sqFree) != 2) {
			t.Errorf("%s: %d destinations still listed, %d FIFOs back in the pool, want 0 and 2", tc.queues, len(s.sqAct[n]), len(s.sqFree))
		}
	}
}

// With messages of 1 packet the generator is today's: the same run, packet
// for packet (the zero-load latency included), as traffic.messagePackets=0.
func TestMessagesOfOnePacketChangeNothing(t *testing.T) {
	base := msgConfig(0, "", 0.05)
	one := msgConfig(1, "", 0.05)
	r0, r1 := btRun(t, base, 2), btRun(t, one, 2)
	if r0.Generated != r1.Generated || r0.Latency.Avg != r1.Latency.Avg || r0.Accepted != r1.Accepted {
		t.Errorf("messagePackets=1: generated %d latency %.3f accepted %.4f; 0: %d %.3f %.4f",
			r1.Generated, r1.Latency.Avg, r1.Accepted, r0.Generated, r0.Latency.Avg, r0.Accepted)
	}
	// per-destination queues at low load: the same latency within 1%
	// (only the order among a node's waiting packets differs)
	rp := btRun(t, msgConfig(1, "perDestination", 0.05), 2)
	if math.Abs(rp.Latency.Avg-r0.Latency.Avg) > 0.01*r0.Latency.Avg {
		t.Errorf("perDestination at load 0.05: latency %.2f, single queue %.2f", rp.Latency.Avg, r0.Latency.Avg)
	}
	t.Logf("latency at load 0.05: single %.2f, perDestination %.2f", r0.Latency.Avg, rp.Latency.Avg)
}

// Queue pairs do not block each other: with router.injectionPolicy=dest
// (a destination's injection VC is ⌊dst·VCs/N⌋), a destination whose VC is
// full passes its turn, and a message to a destination on another VC goes
// at once instead of waiting for the full VC to drain.
func TestPerDestinationFullVCPassesTheTurn(t *testing.T) {
	c := msgConfig(4, "perDestination", 0)
	c.Router.InjectionPolicy = "dest"
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	const n, a, a2, b = 0, 5, 6, 9 // a and a2 on injection VC 1, b on VC 2 (4 VCs, 16 nodes)
	for range 2 {
		s.inject(n, a, 0) // 16 packets: more than the VC's 256/32 = 8
		s.inject(n, a2, 0)
	}
	for range 20 {
		s.Step()
	}
	if free := s.slotsFree(n, 1); free != 0 {
		t.Fatalf("after 20 cycles VC 1 has room for %d packets: the test needs it full", free)
	}
	s.inject(n, b, 0)
	t0 := s.now
	firstB := int64(-1)
	for s.InFlight() > 0 && s.now < 10000 {
		s.Step()
		for k := range s.pk {
			if pk := &s.pk[k]; pk.dst == b && pk.entry > 0 && firstB < 0 {
				firstB = s.now - t0
			}
		}
	}
	if firstB < 0 || firstB > 2 {
		t.Errorf("the message to %d entered its own VC %d cycles after it was queued behind a full VC, want at once (≤ 2)", b, firstB)
	}
	if err := s.Census(); err != nil {
		t.Fatal(err)
	}
}

// Every packet stays accounted for (the census, run through btRun) with
// messages and per-destination queues under the traffic they meet: a
// Dragonfly (h=2) with request-reply traffic at and above saturation, and
// the 16-node HOTSPOT of §V-A (Fig. 2's senders 0, 5, 8, 12 to node 4),
// whose senders are always backlogged.
func TestMessagesConserved(t *testing.T) {
	for _, load := range []float64{0.3, 1} {
		c := btConfig(2, 1000, 3000)
		c.Routing.Name, c.Traffic.Load, c.Traffic.Reactive = "VAL", load, true
		c.Traffic.SourceQueue, c.Traffic.MessagePackets, c.Traffic.SourceQueues = true, 4, "perDestination"
		r := btRun(t, c, 4)
		if r.Generated == 0 || r.ReplyAccepted == 0 {
			t.Errorf("request-reply at %.1f: generated %d, reply accepted %.3f", load, r.Generated, r.ReplyAccepted)
		}
	}
	c := msgConfig(4, "perDestination", 0.3)
	c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders = "HOTSPOT", 4, "0,5,8,12"
	c.Sim.Cycles = 5000
	r := btRun(t, c, 4)
	if r.Hotspot == nil {
		t.Fatal("HOTSPOT: no result.hotspot")
	}
	// the senders generate a message only when their queues are empty
	// (always backlogged), not one per cycle: they apply at most their
	// injection bandwidth, 4 × 1 phit/cycle
	h := r.Hotspot.Hotspot
	t.Logf("HOTSPOT: applied %.3f accepted %.3f at the hotspot", h.Applied, h.Accepted)
	if h.Accepted < 0.9 || h.Applied > 4.4 {
		t.Errorf("HOTSPOT: applied %.3f, accepted %.3f at the hotspot, want ≤ 4.4 (4 senders at 100%%) and ≥ 0.9", h.Applied, h.Accepted)
	}
}
