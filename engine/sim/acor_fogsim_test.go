package sim

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// tinyAdaptive is an idle h=2, a=4, p=2 Dragonfly (9 groups of 4 routers)
// running routing name, edited by edit.
func tinyAdaptive(t *testing.T, name string, edit func(*config.Config)) *Sim {
	t.Helper()
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Routing.Name = name
	c.Traffic.Load = 0
	if edit != nil {
		edit(&c)
	}
	s, err := New(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ACOR-Switch's blocked count (routing.acorCount), derived by hand from the
// rule: the first routing attempt of a packet at the head of its injection
// VC never counts, each re-attempt may.
//
// ACOR, paper (ACOR paper §4.2.2: the switch counts its blocked packets, and
// every ACOR packet follows a Valiant path): all n−1 re-attempts count, also
// those following a CRG-Gr draw of the destination's own group, whose path
// is the minimal one (the rule before counted only re-attempts after a
// detour). fogsim (FOGSim's misrouted flag, set by every attempt that sends
// the packet towards an intermediate it has not reached, never cleared): the
// same n−1 for traffic to another group; for traffic inside the group, the
// re-attempts after the first one whose intermediate was another router.
//
// PB_ACOR: attempt 1 non-minimal, attempts 2 and 3 minimal. paper (§4.3:
// packets blocked on minimal paths do not count) counts attempt 2 only (the
// previous attempt was non-minimal); fogsim counts 2 and 3 (sticky flag).
func TestAcorCountingRule(t *testing.T) {
	const r, n = 0, 40
	for _, mode := range []string{"paper", "fogsim"} {
		s := tinyAdaptive(t, "ACOR", func(c *config.Config) { c.Routing.AcorCount = mode })
		// a destination router in a group linked to r: CRG-Gr draws its
		// group with probability 1/h
		linked := s.df.GroupOf(int(s.vl.landing[r*s.vl.h]))
		dst := linked * s.groupSize
		pk := &s.pk[s.newPacket(0, s.p*dst, 0, 0)]
		onMinimal := 0
		for i := 0; i < n; i++ {
			s.decideAtInjection(r, pk, i > 0)
			if pk.flags&fNonMin == 0 {
				onMinimal++
			}
		}
		if onMinimal == 0 {
			t.Fatalf("%s: no draw of the destination's group in %d attempts: the case is not exercised", mode, n)
		}
		if got := s.acor.blocked[r]; got != n-1 {
			t.Errorf("ACOR %s, to another group: blocked %d after %d attempts (%d on the minimal path), want %d", mode, got, n, onMinimal, n-1)
		}

		// inside the group: the intermediate is a router of the group,
		// r itself with probability 1/a
		s = tinyAdaptive(t, "ACOR", func(c *config.Config) { c.Routing.AcorCount = mode })
		pk = &s.pk[s.newPacket(0, s.p*(r+1), 0, 0)]
		want, flagged, atR := 0, false, 0
		for i := 0; i < n; i++ {
			if i > 0 && (mode == "paper" || flagged) {
				want++
			}
			s.decideAtInjection(r, pk, i > 0)
			if pk.inter == r {
				atR++
			} else {
				flagged = true
			}
		}
		if atR == 0 {
			t.Fatalf("%s: no intermediate at the source router in %d attempts", mode, n)
		}
		if got := s.acor.blocked[r]; int(got) != want {
			t.Errorf("ACOR %s, inside the group: blocked %d, want %d", mode, got, want)
		}

		// PB_ACOR: a destination whose minimal first hop is local, so
		// that the CRG-Gr path (a global port of r) is another output
		s = tinyAdaptive(t, "PB_ACOR", func(c *config.Config) { c.Routing.AcorCount = mode })
		dst = -1
		for d := 0; d < s.R && dst < 0; d++ {
			g := s.df.GroupOf(d)
			if g != s.df.GroupOf(r) && s.pclass[r*s.radix+s.df.MinimalPort(r, d)] == topology.Local {
				dst = d
			}
		}
		minPo := r*s.radix + s.df.MinimalPort(r, dst)
		minBuf := minPo*s.maxVC + s.vcAt(int(s.firstPos[0]), false, &packet{})
		pk = &s.pk[s.newPacket(0, s.p*dst, 0, 0)]
		full := s.credits[minBuf]
		s.credits[minBuf] = 0 // the minimal output looks full: UGAL misroutes
		s.decideAtInjection(r, pk, false)
		if pk.flags&fNonMin == 0 {
			t.Fatalf("PB_ACOR %s: attempt 1 minimal with a full minimal output", mode)
		}
		s.credits[minBuf] = full
		for i := 2; i <= 3; i++ {
			s.decideAtInjection(r, pk, true)
			if pk.flags&fNonMin != 0 {
				t.Fatalf("PB_ACOR %s: attempt %d non-minimal with empty outputs", mode, i)
			}
		}
		want = 1
		if mode == "fogsim" {
			want = 2
		}
		if got := s.acor.blocked[r]; int(got) != want {
			t.Errorf("PB_ACOR %s: blocked %d after non-minimal, minimal, minimal attempts, want %d", mode, got, want)
		}
	}
}

// router.idleUpdates=fogsim, ACOR-Switch: FOGSim runs a switch's hysteresis
// procedure only in cycles where it holds packets, so its interval counts
// those cycles only. HI = 100 at level 2 with no blocked attempt: with
// every, the interval ends (and the level falls) in cycle 99; with fogsim,
// a router that holds packets in cycles 0–29 and 80–149 only reaches its
// 100th counted cycle in cycle 149 (30 + 70), where it falls.
func TestIdleRouterHysteresis(t *testing.T) {
	for _, mode := range []string{"every", "fogsim"} {
		s := tinyAdaptive(t, "ACOR", func(c *config.Config) {
			c.Routing.AcorHI = 100
			c.Router.IdleUpdates = mode
		})
		s.setLevel(0, 1)
		fell := int64(-1)
		for s.now = 0; s.now < 200 && fell < 0; s.now++ {
			if s.held != nil {
				s.held[0] = 0
				if s.now < 30 || (s.now >= 80 && s.now < 150) {
					s.held[0] = 1
				}
			}
			s.startCycle()
			if s.acor.level[0] == 0 {
				fell = s.now
			}
		}
		want := map[string]int64{"every": 99, "fogsim": 149}[mode]
		if fell != want {
			t.Errorf("%s: level fell in cycle %d, want %d", mode, fell, want)
		}
	}
}

// router.idleUpdates=fogsim, PB: a router broadcasts its saturation bits only
// in cycles where it holds packets as FOGSim's messagesInQueuesCounter counts
// them; in the others its group keeps what it sent last. One packet is
// injected at cycle 0 and crosses one local link (latency 10, crossbar 3):
// its head is in the injection buffer from cycle 1, is granted then, leaves
// the output FIFO in cycle 4 and reaches the next router's buffer in cycle
// 14, where it is granted to the ejection port and consumed in cycle 17. So
// the source holds it in cycles 1–4 and the destination in cycles 4–17 when
// its id is higher (FOGSim inserts the packet into the next switch's buffer
// when it is sent, and visits switches by ascending id), 5–17 when lower.
func TestIdleRouterBroadcast(t *testing.T) {
	for _, tc := range []struct {
		src, dst       int
		srcOn, dstFrom int64
	}{{0, 1, 1, 4}, {1, 0, 1, 5}} {
		for _, mode := range []string{"every", "fogsim"} {
			s := tinyAdaptive(t, "PB", func(c *config.Config) { c.Router.IdleUpdates = mode })
			k := s.newPacket(s.p*tc.src, s.p*tc.dst, 0, 0)
			s.enqueue(k, 0, 0)
			s.now++
			for s.now < 25 {
				c := s.now
				// a marker for the bits each router would broadcast now
				s.pb.live[tc.src], s.pb.live[tc.dst] = uint64(2*c), uint64(2*c+1)
				s.Step()
				slot := int(c%s.pb.slots) * s.R
				for _, r := range []int{tc.src, tc.dst} {
					on := c >= tc.srcOn && c <= 4
					if r == tc.dst {
						on = c >= tc.dstFrom && c <= 17
					}
					sent := s.pb.satHist[slot+r] == s.pb.live[r]
					if mode == "every" {
						on = true
					}
					if sent != on {
						t.Errorf("%s, packet %d→%d: router %d broadcast in cycle %d: %v, want %v", mode, tc.src, tc.dst, r, c, sent, on)
					}
				}
			}
			if s.st.totDel != 1 {
				t.Fatalf("%s: %d packets delivered", mode, s.st.totDel)
			}
		}
	}
}

// router.idleUpdates=fogsim: every packet in the network is held by exactly
// one router in every cycle (in a buffer, an output FIFO or on a link into
// it), two in the cycle it is sent to a router later in FOGSim's loop, and
// its last router still holds it in the cycle its node consumes it, so the
// counts sum to the packets in flight plus those and never go negative, under load on every kind of path (PB_ACOR under ADV+h misroutes
// over local and global links).
func TestIdleRouterHeldCounts(t *testing.T) {
	for _, router := range []func(*config.Router){
		func(*config.Router) {},
		func(r *config.Router) { r.XbarLatency = 0 }, // packets leave in their grant's cycle
		func(r *config.Router) { r.Model, r.Speedup = "iq", 1 },
	} {
		heldCounts(t, router)
	}
}

func heldCounts(t *testing.T, router func(*config.Router)) {
	s := tinyAdaptive(t, "PB_ACOR", func(c *config.Config) {
		c.Router.IdleUpdates = "fogsim"
		router(&c.Router)
		c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = "ADV", 2, 0.4
	})
	idle := 0
	for s.now < 3000 {
		s.Step()
		var sum int64
		for r, n := range s.held {
			if n < 0 {
				t.Fatalf("cycle %d: router %d holds %d packets", s.now, r, n)
			}
			if n == 0 {
				idle++
			}
			sum += int64(n)
		}
		// a packet sent this cycle to a router later in the loop is
		// held by both in this cycle (FOGSim inserts it at send time);
		// one consumed this cycle is still held (and no longer in flight)
		extra := int64(0)
		for _, e := range s.moves[(s.now-1)&s.wheelMask] {
			if to := int32(uint32(e)) - 1; to > int32(e>>32) || to < 0 {
				extra++
			}
		}
		if sum != s.live+extra {
			t.Fatalf("cycle %d: routers hold %d packets, %d in flight + %d sent to a later router or consumed", s.now-1, sum, s.live, extra)
		}
	}
	if s.st.totDel == 0 || idle == 0 {
		t.Fatalf("delivered %d, idle router-cycles %d: the case is not exercised", s.st.totDel, idle)
	}
}
