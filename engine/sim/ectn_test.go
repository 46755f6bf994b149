package sim

import (
	"fmt"
	"testing"

	"phitsim/engine/topology"
)

// ectnCensus recomputes ECtN's partial counters from the buffers (thesis
// §4.2.1.4): every injection or global input VC whose counted packet (its
// sending packet, or else its head) is bound for another group adds one to
// its router's counter of that group; nothing else is counted.
func ectnCensus(s *Sim) error {
	c := s.cga.cc
	e := c.ectn
	want := make([]int16, len(e.live))
	sendingBufs := ccSending(s)
	for pi := range s.ports {
		r := pi / s.radix
		cl := s.pclass[pi]
		for v := 0; v < s.maxVC; v++ {
			bi := pi*s.maxVC + v
			b := &s.bufs[bi]
			switch {
			case cl != topology.Injection && cl != topology.Global:
				if e.cgrp[bi] != -2 { // never counted
					return fmt.Errorf("cycle %d: %s (a local input) counted for group %d", s.now, s.where(pi, v), e.cgrp[bi])
				}
				continue
			case sendingBufs[bi]:
				// its tail is leaving: the group it was counted for stays
			case c.cport[bi] >= 0 && b.len > 0:
				dg := s.df.GroupOf(int(s.pk[b.hd].dstRouter))
				if dg == s.df.GroupOf(r) {
					dg = -1
				}
				if int(e.cgrp[bi]) != dg {
					return fmt.Errorf("cycle %d: head of %s counted for group %d, bound for %d", s.now, s.where(pi, v), e.cgrp[bi], dg)
				}
			default:
				if e.cgrp[bi] != -1 {
					return fmt.Errorf("cycle %d: %s counts nothing but is counted for group %d", s.now, s.where(pi, v), e.cgrp[bi])
				}
			}
			if g := int(e.cgrp[bi]); g >= 0 {
				if g == s.df.GroupOf(r) {
					return fmt.Errorf("cycle %d: %s counted for its own group", s.now, s.where(pi, v))
				}
				want[r*e.g+g]++
			}
		}
	}
	for i, w := range want {
		if e.live[i] != w {
			return fmt.Errorf("cycle %d: router %d's partial counter of group %d is %d, its heads %d", s.now, i/e.g, i%e.g, e.live[i], w)
		}
	}
	return nil
}

// The partial counters equal the heads recomputed from the buffers every 50
// cycles of a loaded run, with Base's per-port counters (ccCensus), and are
// all zero once the network drains. h=2, OLM (MM_L) under UN and ADV+1, PAR
// and UGAL (routing.injectionTrigger=ectn) under ADV+1; under
// ADV+1 with th = 2, so that globally misrouted packets cross intermediate
// groups and global inputs count too (at h=2 no router reaches th = 6).
func TestECtNCountersMatchHeads(t *testing.T) {
	for _, tc := range []struct{ routing, pattern string }{{"OLM", "UN"}, {"OLM", "ADV"}, {"PAR", "ADV"}, {"UGAL", "ADV"}} {
		pattern := tc.pattern
		t.Run(tc.routing+"/"+pattern, func(t *testing.T) {
			c := btConfig(2, 0, 100) // stepped by hand
			c.Routing.Name, c.Routing.Trigger, c.Traffic.Pattern, c.Traffic.Load = tc.routing, "ectn", pattern, 0.7
			if tc.routing == "UGAL" { // the counters at injection
				c.Routing.Trigger, c.Routing.InjectionTrigger = "cga", "ectn"
			}
			if pattern == "ADV" {
				c.Routing.ContentionTh = 2
			}
			s, err := New(c, 3)
			if err != nil {
				t.Fatal(err)
			}
			check := func() {
				t.Helper()
				if err := ccCensus(s); err != nil {
					t.Fatal(err)
				}
				if err := ectnCensus(s); err != nil {
					t.Fatal(err)
				}
			}
			counted, transit := 0, 0
			for s.now < 2000 {
				s.Step()
				if s.now%50 == 0 {
					check()
					for bi, g := range s.cga.cc.ectn.cgrp {
						if g >= 0 {
							counted++
							if s.pclass[bi/s.maxVC] == topology.Global {
								transit++
							}
						}
					}
				}
			}
			t.Logf("%d heads counted in partial counters at the census points, %d at global inputs", counted, transit)
			if counted == 0 || pattern == "ADV" && transit == 0 {
				t.Fatal("no packet (at a global input) ever counted in a partial counter: the census proves nothing")
			}
			stopInjection(s)
			for s.live > 0 && s.now < 2000+drainBound {
				s.Step()
				if s.now%50 == 0 {
					check()
				}
			}
			relStep(t, s, s.now+s.wheelMask+1, 100)
			if s.live > 0 {
				t.Fatalf("%d packets not delivered", s.live)
			}
			check()
			for i, n := range s.cga.cc.ectn.live {
				if n != 0 {
					t.Fatalf("drained network: router %d's partial counter of group %d is %d", i/s.groups, i%s.groups, n)
				}
			}
		})
	}
}

// A router's partial counters reach the other routers of its group at the
// first broadcast instant (a multiple of routing.ectnPeriod from cycle 0)
// plus the local-link latency, and not a cycle earlier; the router itself
// reads its own at once (thesis §4.2.1.4, Fig. 4.4; §4.2.3: every 100
// cycles). A hand-built case on an idle h=2 network, period 100 (the
// default) and 30, local latency 10 (the default).
func TestECtNBroadcastArrival(t *testing.T) {
	for _, period := range []int{0, 30} {
		t.Run(fmt.Sprint("period", period), func(t *testing.T) {
			c := btConfig(2, 0, 100)
			c.Routing.Name, c.Routing.Trigger, c.Routing.EctnPeriod = "OLM", "ectn", period
			s, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			stopInjection(s)
			e := s.cga.cc.ectn
			per, lat := int64(100), int64(c.Topology.LocalLatency)
			if period != 0 {
				per = int64(period)
			}
			if e.period != per || lat != 10 {
				t.Fatalf("period %d, local latency %d: want %d, 10", e.period, lat, per)
			}
			// router 1 of group 0 counts 7 packets bound for group 2 just
			// after the broadcast at 2·period
			const from, peer, dg = 1, 3, 2
			for s.now <= 2*per {
				s.Step()
			}
			e.live[from*e.g+dg] = 7
			if got := e.combined(from, 0, dg); got != 7 {
				t.Fatalf("router %d's own combined counter %d, want its live 7", from, got)
			}
			seen := int64(-1)
			for s.now < 4*per+lat && seen < 0 {
				// (the combined counter as routing reads it in cycle now:
				// after the cycle's hooks)
				s.Step()
				if e.combined(peer, 0, dg) == 7 {
					seen = s.now - 1
				} else if got := e.combined(peer, 0, dg); got != 0 {
					t.Fatalf("cycle %d: peer's combined counter %d", s.now-1, got)
				}
			}
			if want := 3*per + lat; seen != want {
				t.Errorf("the peer reads the count at cycle %d, want %d (broadcast at %d + latency %d)", seen, want, 3*per, lat)
			}
			if got := e.combined(from, 0, dg); got != 7 {
				t.Errorf("after the broadcast router %d's combined counter is %d: its own broadcast counted twice?", from, got)
			}
			// a router of another group hears nothing
			if got := e.combined(s.groupSize, 1, dg); got != 0 {
				t.Errorf("a router of group 1 reads %d", got)
			}
		})
	}
}

// ECtN's trigger (thesis §4.2.1.4): Base's local rule anywhere, and at the
// source router the combined counter of the destination group at th_c = 10
// (reached, not exceeded, as Base's ≥); in transit the combined counter is
// not read.
func TestECtNTriggerAtSource(t *testing.T) {
	s, _, minPort := ccSim(t, "ectn")
	cc, e := s.cga.cc, s.cga.cc.ectn
	if e.thc != 10 || cc.th != 6 {
		t.Fatalf("thresholds th_c %d, th %d: want the thesis's 10, 6", e.thc, cc.th)
	}
	dg := s.df.GroupOf(s.R - 1)
	if dg == 0 {
		t.Fatal("the packet's destination is in the source's group")
	}
	for _, tc := range []struct {
		live  int16
		injDG int
		want  bool
	}{{9, dg, false}, {10, dg, true}, {11, dg, true}, {10, -1, false}} {
		e.live[0*e.g+dg] = tc.live
		if got := s.cgaTrigger(0, minPort, 0, 0, tc.injDG >= 0, dg); got != tc.want {
			t.Errorf("combined %d, at source %v: trigger %v, want %v", tc.live, tc.injDG >= 0, got, tc.want)
		}
	}
	e.live[0*e.g+dg] = 0
	// a packet bound for its own group: no combined counter applies
	e.live[0] = 10
	if s.cgaTrigger(0, minPort, 0, 0, true, 0) {
		t.Error("the combined counter of the source's own group fired")
	}
	e.live[0] = 0
	cc.cnt[minPort] = 6
	if !s.cgaTrigger(0, minPort, 0, 0, false, 0) {
		t.Error("Base's local rule (counter 6) did not fire in transit")
	}
}

// Thesis Fig. 4.6b (reproduction target 9), h=4 (1,056 nodes; h=8 is too
// slow for a test): under ADV+1 ECtN's and Hybrid's throughput at load 0.9 is
// OLM's (≥ 0.9×; thesis: identical, slightly above 0.5; h=4: OLM 0.513,
// ECtN 0.515, Hybrid 0.515; Base in TestContentionADVBeatsMIN; Filtered does
// not reach it at h=4, REPRODUCTION.md), and at load 0.4 ECtN has the
// lowest latency of the contention triggers and OLM (thesis: "ECtN is the
// best performer under ADV+1"): its group-wide counters misroute at
// injection, where Base waits for the local count. At h=4 the claim holds at 0.4
// (ECtN 246.5 cycles, Base 389.4, Filtered 826.0, Hybrid 256.2, OLM 260.3);
// at 0.2 and 0.3 Hybrid is as low or lower (0.2: 235.8 against ECtN's
// 246.8; 0.3: 244.1 against 244.5), and at 0.05–0.1 the combined counters
// stay below th_c and ECtN is Base.
func TestECtNADV(t *testing.T) {
	if testing.Short() {
		t.Skip("nine h=4 runs")
	}
	olmAcc, _, _ := ccRun(t, "OLM/cga", "ADV", 0.9)
	for _, rt := range []string{"OLM/ectn", "OLM/hybrid"} {
		if acc, _, _ := ccRun(t, rt, "ADV", 0.9); acc < 0.9*olmAcc || acc < 0.45 {
			t.Errorf("%s under ADV+1 at 0.9: accepted %.3f, OLM's %.3f: want ≥ 0.9× and ≥ 0.45", rt, acc, olmAcc)
		}
	}
	_, lat, _ := ccRun(t, "OLM/ectn", "ADV", 0.4)
	for _, rt := range []string{"OLM/base", "OLM/filtered", "OLM/hybrid", "OLM/cga"} {
		if _, l, _ := ccRun(t, rt, "ADV", 0.4); l <= lat {
			t.Errorf("ADV+1 at 0.4: %s latency %.1f ≤ ECtN's %.1f", rt, l, lat)
		}
	}
}

// Thesis Fig. 4.6b (reproduction target 9) beside FOGSim v5, ADV+1 at low
// load: the thesis has the contention counters' latency above OLM's at 0.05–0.15
// and ECtN the best performer under ADV+1. FOGSim v5 (commit dcdd75f,
// validation/fogsim-h4.cfg's system, h=4, OLM with MM_L, `MisroutingTrigger=CGA`
// or `CA_REMOTE ContentionThreshold=6 ContentionGlobalThreshold=10`, 1,000 +
// 2,000 cycles, seed 1) measures at 0.1 ECtN 241.3 cycles against OLM's
// 226.4 and at 0.2 ECtN 250.0 against OLM's 243.9: ECtN is not yet the lowest
// there, in the simulator the thesis's numbers came from. phitsim with
// FOGSim's model on the same runs must give each latency within 2% of
// FOGSim's and the same order (ECtN above OLM at 0.1 and 0.2); at 0.4 ECtN is
// below OLM (TestECtNADV). REPRODUCTION.md, "Targets 5, 9, 19 and 22 beside
// FOGSim v5".
func TestECtNADVLowLoadAsFOGSim(t *testing.T) {
	c := btConfig(4, 1000, 2000)
	c.UseFOGSimModel()
	for _, tc := range []struct {
		load            float64
		fogECtN, fogOLM float64
	}{{0.1, 241.3, 226.4}, {0.2, 250.0, 243.9}} {
		_, e, _ := ccRunAt(t, c, "OLM/ectn", "ADV", tc.load, 0)
		_, o, _ := ccRunAt(t, c, "OLM/cga", "ADV", tc.load, 0)
		if !btWithin(e, tc.fogECtN, 0.02) || !btWithin(o, tc.fogOLM, 0.02) {
			t.Errorf("ADV+1 at %.1f: latency ECtN %.1f, OLM %.1f; FOGSim v5 %.1f, %.1f: want each within 2%%", tc.load, e, o, tc.fogECtN, tc.fogOLM)
		}
		if e <= o {
			t.Errorf("ADV+1 at %.1f: ECtN %.1f not above OLM's %.1f (FOGSim v5: %.1f above %.1f)", tc.load, e, o, tc.fogECtN, tc.fogOLM)
		}
	}
}

// Thesis §4.2.2, Fig. 4.5a (reproduction target 10), h=4: below the
// threshold window the counters misroute UN traffic for nothing — Base with
// th = 2 misroutes clearly more than with th = 6 (which misroutes none) at
// load 0.3, and its latency is above MIN's.
func TestContentionThresholdWindow(t *testing.T) {
	mis := func(th int) (float64, float64) {
		c := btConfig(4, 1000, 2000)
		c.Traffic.Pattern, c.Traffic.Load = "UN", 0.3
		c.Routing.Name, c.Routing.Trigger, c.Routing.ContentionTh = "OLM", "base", th
		r := btRun(t, c, 1)
		t.Logf("th %d: misrouted %.3f, latency %.1f", th, r.Misrouted.Fraction, r.Latency.Avg)
		return r.Misrouted.Fraction, r.Latency.Avg
	}
	m2, l2 := mis(2)
	m6, l6 := mis(6)
	if m2 < 0.1 || m2 < 10*m6 {
		t.Errorf("UN at 0.3: th 2 misroutes %.3f, th 6 %.3f: want th 2 ≥ 0.1 and ≥ 10× th 6", m2, m6)
	}
	if l2 <= l6 {
		t.Errorf("UN at 0.3: th 2 latency %.1f not above th 6's %.1f", l2, l6)
	}
}

// injRun runs UGAL or PB with routing.injectionTrigger it on the h=4
// Dragonfly for 1,000 + 2,000 cycles (as ccRun).
func injRun(t *testing.T, name, it, pattern string, load float64) (accepted, latency, misrouted float64) {
	t.Helper()
	c := btConfig(4, 1000, 2000)
	c.Traffic.Pattern, c.Traffic.Load = pattern, load
	c.Routing.Name, c.Routing.InjectionTrigger = name, it
	r := btRun(t, c, 1)
	t.Logf("%s@%s %s %.2f: accepted %.3f, latency %.1f, misrouted %.3f", name, it, pattern, load, r.Accepted, r.Latency.Avg, r.Misrouted.Fraction)
	return r.Accepted, r.Latency.Avg, r.Misrouted.Fraction
}

// The contention triggers at injection (routing.injectionTrigger; the
// thesis evaluates them in-transit only, so this is behaviour, h=4): under
// UN at 0.3 UGAL and PB with base or ectn route like MIN (nothing
// misrouted, MIN's latency within 2%) where UGAL's occupancy comparison
// misroutes about 12%; under ADV+1 at 0.4 ECtN at injection detects the
// pattern from the group's counters: UGAL@ectn accepts the offered load
// (UGAL: about 0.18) and misroutes nearly everything, PB@ectn at least PB's.
func TestInjectionTrigger(t *testing.T) {
	_, minLat, _ := ccRun(t, "MIN", "UN", 0.3)
	for _, tc := range []struct{ name, it string }{{"UGAL", "base"}, {"UGAL", "ectn"}, {"PB", "ectn"}} {
		_, lat, mis := injRun(t, tc.name, tc.it, "UN", 0.3)
		if !btWithin(lat, minLat, 0.02) || mis > 0.005 {
			t.Errorf("%s@%s under UN: latency %.1f (MIN %.1f), misrouted %.3f: want MIN's", tc.name, tc.it, lat, minLat, mis)
		}
	}
	if _, lat, mis := injRun(t, "UGAL", "ugal", "UN", 0.3); mis < 0.05 || lat < 1.02*minLat {
		t.Errorf("UGAL's comparison under UN: latency %.1f, misrouted %.3f: no different from MIN, the test tells nothing", lat, mis)
	}
	if testing.Short() {
		t.Skip("the ADV+1 half: four more h=4 runs")
	}
	ugal, _, _ := injRun(t, "UGAL", "ugal", "ADV", 0.4)
	acc, _, mis := injRun(t, "UGAL", "ectn", "ADV", 0.4)
	if acc < 0.9*0.4 || acc < 1.5*ugal || mis < 0.9 {
		t.Errorf("UGAL@ectn under ADV+1 at 0.4: accepted %.3f (UGAL %.3f), misrouted %.3f: want ≥ 0.36, ≥ 1.5× UGAL's, ≥ 0.9 misrouted", acc, ugal, mis)
	}
	pb, _, _ := injRun(t, "PB", "ugal", "ADV", 0.4)
	if acc, _, _ := injRun(t, "PB", "ectn", "ADV", 0.4); acc < pb {
		t.Errorf("PB@ectn under ADV+1 at 0.4: accepted %.3f, PB's %.3f", acc, pb)
	}
}

// The injection decision itself: the minimal first hop's counter at th
// sends the packet on its Valiant path unless the Valiant first hop's own
// counter is at th too; with ectn the destination group's combined counter
// at th_c does the same. Hand-built, h=2 UGAL.
func TestInjectionTriggerDecision(t *testing.T) {
	for _, it := range []string{"base", "ectn"} {
		c := btConfig(2, 0, 100)
		c.Routing.Name, c.Routing.InjectionTrigger = "UGAL", it
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		cc := s.cga.cc
		if cc == nil || (cc.ectn != nil) != (it == "ectn") {
			t.Fatalf("%s: counters not built as asked", it)
		}
		pk := &packet{dstRouter: int32(s.R - 1), inter: -1, vcPos: -1, outPort: -1}
		minPo, valPo := s.df.MinimalPort(0, s.R-1), s.firstGlobal+1
		if valPo == minPo {
			valPo = s.firstGlobal
		}
		for _, tc := range []struct {
			min, val int32
			want     bool
		}{{5, 0, false}, {6, 0, true}, {6, 5, true}, {6, 6, false}} {
			cc.cnt[minPo], cc.cnt[valPo] = tc.min, tc.val
			if got := s.contendedAtInjection(cc, 0, pk, minPo, valPo); got != tc.want {
				t.Errorf("%s: minimal counter %d, Valiant's %d: misroute %v, want %v", it, tc.min, tc.val, got, tc.want)
			}
		}
		cc.cnt[minPo], cc.cnt[valPo] = 0, 0
		if e := cc.ectn; e != nil {
			dg := s.df.GroupOf(s.R - 1)
			for live, want := range map[int16]bool{9: false, 10: true} {
				e.live[dg] = live
				if got := s.contendedAtInjection(cc, 0, pk, minPo, valPo); got != want {
					t.Errorf("ectn: combined counter %d: misroute %v, want %v", live, got, want)
				}
			}
		}
	}
	// UGAL's own comparison builds no counters
	c := btConfig(2, 0, 100)
	c.Routing.Name = "UGAL"
	if s, err := New(c, 1); err != nil || s.cga.cc != nil {
		t.Errorf("UGAL without an injection trigger: counters %v (err %v)", s.cga.cc != nil, err)
	}
}
