package sim

// The flattened butterfly of Kim et al., "Contention-based Congestion
// Management in Large-Scale Networks" (§V-A; its networks: 16-node 1D,
// 256-node 1D, 512-node 2D), under MIN and UGAL: zero-load latencies from
// its own formula, the saturation bounds of its adversarial patterns, the
// channel dependencies of its VC sequences, long saturated runs, and the
// refusals of what it cannot run.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// fbflyTestConfig is a flattened butterfly with latencies that differ from
// each other so that each term of a formula shows, at load 0.
func fbflyTestConfig(dims, k, c int, routing string) config.Config {
	cfg := config.FBFly(dims, k, c)
	cfg.Topology.LocalLatency, cfg.Topology.InjectionLatency = 13, 2
	cfg.Routing.Name = routing
	cfg.Traffic.Load = 0
	cfg.Sim.Warmup, cfg.Sim.Cycles, cfg.Sim.Seeds = 0, 2000, 1
	return cfg
}

// zeroLoad sends one packet src→dst through an idle network and returns
// its latency, its hops and the simulator.
func zeroLoad(t *testing.T, c config.Config, src, dst int, forceValiant bool) (lat, hops int64, s *Sim) {
	t.Helper()
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if forceValiant {
		s.ug.t = -1 << 30 // q_min·H_min > q_nm·H_nm + T always: the Valiant path
	}
	s.inject(src, dst, 0)
	for s.InFlight() > 0 && s.now < 5000 {
		s.Step()
	}
	if s.st.del != 1 {
		t.Fatalf("%d→%d: delivered %d", src, dst, s.st.del)
	}
	return s.st.latSum, s.st.hopsL + s.st.hopsG, s
}

// Zero-load latency of every pair of nodes, 1D (k=4, c=2) and 2D (k=3,
// c=2), both router models: injection + crossbar·(hops+1) + link·hops +
// packet, hops the number of coordinates in which the routers differ
// (MIN), or the hops to the intermediate plus from it (UGAL forced onto its
// Valiant path; the intermediate is the packet's draw, never its source or
// destination router; a 2D leg to the intermediate that crosses the
// destination router ends there, as routing.completePhaseA=false says).
// With routing.ugalIntermediate=any (the default) a draw on the source's
// or the destination's router is −1 and the packet goes minimally; with
// detour the draw is always a third router.
func TestFBFlyZeroLoadLatencyEveryPair(t *testing.T) {
	for _, tc := range []struct {
		dims, k, c int
		routing    string
		valiant    bool
		draw       string
	}{{1, 4, 2, "MIN", false, ""}, {2, 3, 2, "MIN", false, ""}, {1, 4, 2, "UGAL", true, "detour"}, {2, 3, 2, "UGAL", true, "detour"},
		{1, 4, 2, "UGAL", true, ""}, {2, 3, 2, "UGAL", true, ""}} {
		for _, model := range []string{"ioq", "iq"} {
			c := fbflyTestConfig(tc.dims, tc.k, tc.c, tc.routing)
			c.Routing.UgalIntermediate = tc.draw
			c.Router.Model = model
			if model == "iq" {
				c.Router.Speedup = 1
			}
			f, _ := topology.NewFBFly(tc.dims, tc.k, tc.c)
			for src := 0; src < f.Nodes(); src++ {
				for dst := 0; dst < f.Nodes(); dst++ {
					if dst == src {
						continue
					}
					lat, hops, s := zeroLoad(t, c, src, dst, tc.valiant)
					sr, dr := src/tc.c, dst/tc.c
					want := int64(f.Hops(sr, dr))
					if inter := int(s.pk[0].inter); tc.valiant && sr != dr && (inter >= 0 || tc.draw == "detour") {
						if inter == sr || inter == dr || inter < 0 {
							t.Fatalf("%+v %d→%d: intermediate %d", tc, src, dst, inter)
						}
						want = int64(valiantHops(f, sr, inter, dr))
					}
					wantLat := int64(c.Topology.InjectionLatency) + int64(c.Router.XbarLatency)*(want+1) +
						int64(c.Topology.LocalLatency)*want + int64(c.Router.PacketSize)
					if hops != want || lat != wantLat {
						t.Fatalf("%+v %s %d→%d: latency %d over %d hops, want %d over %d", tc, model, src, dst, lat, hops, wantLat, want)
					}
				}
			}
		}
	}
}

// valiantHops is the length of the dimension-order path src → inter → dst
// that ends on first reaching dst.
func valiantHops(f *topology.FBFly, src, inter, dst int) int {
	h, r := 0, src
	for _, target := range []int{inter, dst} {
		for r != target && r != dst {
			r, _ = f.Link(r, f.MinimalPort(r, target))
			h++
		}
	}
	return h
}

// With routing.ugalIntermediate=detour UGAL's intermediate is uniform among
// the routers other than the source's and the destination's: on the 16-node
// network, from router 0 to router 1, routers 2 and 3 about evenly, never 0
// or 1.
func TestFBFlyUGALIntermediateUniform(t *testing.T) {
	c := fbflyTestConfig(1, 4, 4, "UGAL")
	c.Routing.UgalIntermediate = "detour"
	count := map[int]int{}
	for seed := uint64(1); seed <= 400; seed++ {
		s, err := New(c, seed)
		if err != nil {
			t.Fatal(err)
		}
		s.inject(0, 4, 0)
		for s.InFlight() > 0 {
			s.Step()
		}
		count[int(s.pk[0].inter)]++
	}
	if len(count) != 2 || count[2] < 160 || count[3] < 160 {
		t.Errorf("intermediates drawn %v, want routers 2 and 3 about evenly", count)
	}
}

// routing.ugalIntermediate=any (Kim et al. §II-B's UGAL, ref. [8]: Valiant's
// random intermediate, as BookSim's flattened-butterfly UGAL draws it): in
// each dimension where source and destination routers differ a coordinate
// uniform among all k, so on the 16-node network from router 0 to router 1
// the draw lands on 0 or 1 (no detour: −1, the minimal path) half the time
// and on 2 and 3 a quarter each; a packet to its own router never detours;
// on the 8×8 network a pair in one row keeps the row (routers 0 → 3: the
// intermediate is in row 0, x uniform over the 6 other columns when it is
// a detour). any is the default (the field empty, as config.FBFly leaves
// it); the detour draw never returns −1 for them.
func TestFBFlyUGALIntermediateAny(t *testing.T) {
	count := func(dims, k, p, src, dst int, mode string) map[int32]int {
		c := fbflyTestConfig(dims, k, p, "UGAL")
		c.Routing.UgalIntermediate = mode
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		n := map[int32]int{}
		for range 4000 {
			n[s.fbDraw(src, dst)]++
		}
		return n
	}
	n := count(1, 4, 4, 0, 1, "")
	if len(n) != 3 || n[-1] < 1800 || n[-1] > 2200 || n[2] < 850 || n[3] < 850 {
		t.Errorf("1D, 0 → 1, default: draws %v, want −1 about half, 2 and 3 a quarter each (any)", n)
	}
	if n := count(1, 4, 4, 0, 1, "any"); len(n) != 3 || n[-1] < 1800 || n[-1] > 2200 {
		t.Errorf("1D, 0 → 1, any: draws %v, want −1 about half", n)
	}
	if n := count(1, 4, 4, 2, 2, "any"); len(n) != 1 || n[-1] != 4000 {
		t.Errorf("1D, 2 → 2, any: draws %v, want always −1 (minimal)", n)
	}
	n = count(2, 8, 8, 0, 3, "any")
	for r, c := range n {
		if r >= 8 || r == 0 || r == 3 || (r == -1 && (c < 800 || c > 1200)) || (r > 0 && c < 450) {
			t.Errorf("2D, 0 → 3, any: draws %v, want −1 about 1/4, routers 1, 2, 4–7 about 1/8 each", n)
			break
		}
	}
	if len(n) != 7 {
		t.Errorf("2D, 0 → 3, any: %d distinct draws %v, want 7 (−1 and 6 routers)", len(n), n)
	}
	if n := count(1, 4, 4, 0, 1, "detour"); n[-1] != 0 || n[0] != 0 || n[1] != 0 {
		t.Errorf("1D, 0 → 1, detour: draws %v, want only routers 2 and 3", n)
	}
}

// fbflyLoad runs the paper's network (config.FBFly) at one load and
// returns the accepted load and the misrouted share.
func fbflyLoad(t *testing.T, c config.Config, load float64) (accepted, misrouted float64) {
	t.Helper()
	c.Traffic.Load = load
	r := btRun(t, c, 1)
	return r.Accepted, r.Misrouted.Fraction
}

// The adversarial permutation n → n+4 of the 16-node 1D network (paper
// Figs. 3a, 4; traffic.pattern=TORNADO): MIN puts a router's 4 flows on one
// link, so it saturates at 1/4; UGAL spreads them over the Valiant paths
// towards the load-balancing bound 1/2 (each link carries a minimal and a
// Valiant leg). Router r sends 4λ to r+1: link r → r+1 carries the minimal
// share m of it, each other link one Valiant leg of r's and one of another
// router's, 4λ(1−m) in all, so UGAL saturates where the minimal link does,
// λ = 1/(4m), and reaches 1/2 only with m = 1/2. With the default draw
// (routing.ugalIntermediate=any, BookSim's) half the draws are the source's
// or the destination's router and go minimally whatever the occupancies, so
// m ≥ 1/2 and 1/2 needs every detour draw taken; UGAL-L keeps some of them
// minimal: per port m = 0.644, 0.388 accepted; per VC (the first hop's VC)
// m = 0.561, 0.446. With detour (every draw a third router) per port 0.425,
// per VC 0.5. Asserted: accepted = 1/(4m) within 3% for both draws and both
// occupancies, ≤ 1/2, m ≥ 1/2 − 0.01 with any, detour per VC ≈ 1/2, any per
// VC ≥ 0.43. 20,000 + 20,000 cycles, full size.
func TestFBFly16PermutationSaturation(t *testing.T) {
	c := config.FBFly(1, 4, 4)
	c.Traffic.Pattern, c.Sim.Seeds = "TORNADO", 1
	if acc, _ := fbflyLoad(t, c, 0.6); acc < 0.24 || acc > 0.26 {
		t.Errorf("MIN under the permutation at 0.6: accepted %.3f, want 0.25 (1/c)", acc)
	}
	c.Routing.Name = "UGAL"
	for _, draw := range []string{"any", "detour"} {
		for _, occ := range []string{"perPort", "perVC"} {
			c.Routing.UgalIntermediate, c.Routing.Congestion = draw, occ
			acc, mis := fbflyLoad(t, c, 0.6)
			bound := 1 / (4 * (1 - mis))
			t.Logf("UGAL, %s, %s: accepted %.3f, misrouted %.3f, the minimal link's bound 1/(4m) %.3f", draw, occ, acc, mis, bound)
			if acc > 0.51 || acc < 0.97*bound || acc > 1.03*bound {
				t.Errorf("UGAL, %s, %s, under the permutation at 0.6: accepted %.3f, misrouted %.3f: want ≤ 0.5 and the minimal link's bound %.3f within 3%%", draw, occ, acc, mis, bound)
			}
			if draw == "any" && mis > 0.51 {
				t.Errorf("UGAL, any, %s: misrouted %.3f, want ≤ 1/2 (half the draws are minimal)", occ, mis)
			}
			if occ == "perVC" && (draw == "detour" && acc < 0.46 || draw == "any" && acc < 0.43) {
				t.Errorf("UGAL, %s, per-VC occupancy, under the permutation at 0.6: accepted %.3f, want ≈ 0.5 (detour), ≥ 0.43 (any)", draw, acc)
			}
		}
	}
	// below saturation everything offered is accepted
	c.Routing.UgalIntermediate = ""
	if acc, _ := fbflyLoad(t, c, 0.3); acc < 0.28 || acc > 0.32 {
		t.Errorf("UGAL at 0.3: accepted %.3f", acc)
	}
}

// Tornado n → n+8 on the 512-node 2D network (paper Fig. 9a): MIN carries
// the 8 flows of a router on one link, 1/8 = 0.125. Full size, 5,000 +
// 5,000 cycles (the bound is reached well within them).
func TestFBFly512TornadoMIN(t *testing.T) {
	c := config.FBFly(2, 8, 8)
	c.Traffic.Pattern, c.Sim.Seeds, c.Sim.Warmup, c.Sim.Cycles = "TORNADO", 1, 5000, 5000
	if acc, _ := fbflyLoad(t, c, 0.4); acc < 0.115 || acc > 0.13 {
		t.Errorf("MIN under tornado at 0.4: accepted %.3f, want 0.125 (1/c)", acc)
	}
	// the non-permutation variant has the same link bound
	c.Traffic.Pattern = "TORNADO_RAND"
	if acc, _ := fbflyLoad(t, c, 0.4); acc < 0.115 || acc > 0.13 {
		t.Errorf("MIN under TORNADO_RAND at 0.4: accepted %.3f, want 0.125", acc)
	}
}

// UR under MIN on the 16-node network: the link bound is 15/16 (a link
// carries 4·4/15 of a node's load); the paper's router (config.FBFly, with
// VOQs) accepts about 0.935 at load 1, 0.84 without them (TIMING.md,
// "Flattened butterfly"; voq_test.go), and everything at 0.6. UGAL matches
// MIN below saturation.
func TestFBFly16UniformThroughput(t *testing.T) {
	c := config.FBFly(1, 4, 4)
	c.Sim.Seeds = 1
	if acc, _ := fbflyLoad(t, c, 1); acc < 0.8 || acc > 0.94 {
		t.Errorf("MIN under UR at 1.0: accepted %.3f, want 0.8–0.94 (bound 15/16)", acc)
	}
	for _, r := range []string{"MIN", "UGAL"} {
		c.Routing.Name = r
		if acc, _ := fbflyLoad(t, c, 0.6); acc < 0.58 || acc > 0.62 {
			t.Errorf("%s under UR at 0.6: accepted %.3f", r, acc)
		}
	}
}

// The channel dependencies of UGAL's VC sequence on the flattened
// butterfly, followed by the simulator's own routing (route, minimalPort,
// the phase-1 VC rule) for every source, intermediate and destination
// router and for the minimal paths: every hop climbs to a higher VC, phase
// 0 stays on VCs 0…dims−1 and phase 1 on dims…2·dims−1, and the graph of
// (router, port, VC) channels has no cycle. MIN's sequence is checked by
// New (vcs.CheckAcyclic) and walked here too.
func TestFBFlyChannelDependenciesAcyclic(t *testing.T) {
	for _, dims := range []int{1, 2} {
		for _, routing := range []string{"MIN", "UGAL"} {
			c := fbflyTestConfig(dims, 4, 1, routing)
			s, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			f := s.ug.fb
			nvc := 4
			succ := map[int]map[int]bool{}
			path := func(src, inter, dst int) {
				pk := &packet{dstRouter: int32(dst), inter: int32(inter), vcPos: -1, flags: fNonMin}
				if inter < 0 {
					pk.flags = fInterDone
				}
				prev, r, phase1 := -1, src, inter < 0
				for hop := 0; r != dst; hop++ {
					s.route(r, pk, false, false)
					if !phase1 && pk.flags&fInterDone != 0 {
						phase1 = true
					}
					vc := int(pk.outVC)
					lo, hi := 0, dims-1
					if phase1 && inter >= 0 {
						lo, hi = dims, 2*dims-1
					}
					if vc < lo || vc > hi {
						t.Fatalf("%dD %s %d→%d→%d hop %d at router %d: VC %d, want %d…%d", dims, routing, src, inter, dst, hop, r, vc, lo, hi)
					}
					ch := (r*f.Radix()+int(pk.outPort))*nvc + vc
					if prev >= 0 {
						if succ[prev] == nil {
							succ[prev] = map[int]bool{}
						}
						succ[prev][ch] = true
					}
					prev = ch
					pk.vcPos = pk.nextPos
					r, _ = f.Link(r, int(pk.outPort))
				}
			}
			for src := 0; src < f.Routers(); src++ {
				for dst := 0; dst < f.Routers(); dst++ {
					if src == dst {
						continue
					}
					path(src, -1, dst)
					for inter := 0; routing == "UGAL" && inter < f.Routers(); inter++ {
						if inter != src && inter != dst {
							path(src, inter, dst)
						}
					}
				}
			}
			if cyc := dependencyCycle(succ); cyc >= 0 {
				t.Errorf("%dD %s: the channel dependency graph has a cycle through channel %d", dims, routing, cyc)
			}
		}
	}
}

// dependencyCycle returns a channel on a cycle of succ, or −1.
func dependencyCycle(succ map[int]map[int]bool) int {
	color := map[int]int{}
	var visit func(ch int) int
	visit = func(ch int) int {
		color[ch] = 1
		for next := range succ[ch] {
			switch color[next] {
			case 1:
				return next
			case 0:
				if c := visit(next); c >= 0 {
					return c
				}
			}
		}
		color[ch] = 2
		return -1
	}
	for ch := range succ {
		if color[ch] == 0 {
			if c := visit(ch); c >= 0 {
				return c
			}
		}
	}
	return -1
}

// Long saturated runs do not deadlock (the watchdog and the stuck-head
// check would stop them) and conserve every packet (census): MIN and UGAL
// at load 1 under UR and the permutation, 1D 16-node and 2D 3×3 (c=2),
// 60,000 cycles; then a saturating burst drains completely.
func TestFBFlySaturatedNoDeadlock(t *testing.T) {
	if testing.Short() {
		t.Skip("eight 60,000-cycle saturated runs")
	}
	for _, net := range [][3]int{{1, 4, 4}, {2, 3, 2}} {
		for _, routing := range []string{"MIN", "UGAL"} {
			for _, pat := range []string{"UN", "TORNADO"} {
				c := config.FBFly(net[0], net[1], net[2])
				c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = routing, pat, 1
				c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 10000, 50000, 1
				if r := btRun(t, c, 3); r.Accepted < 0.2 {
					t.Errorf("%v %s %s: accepted %.3f", net, routing, pat, r.Accepted)
				}
			}
		}
	}
}

// After a burst that saturates the 2D network under UGAL, every packet is
// delivered: credits and VCs all return.
func TestFBFlyDrainsAfterSaturatingBurst(t *testing.T) {
	for _, routing := range []string{"MIN", "UGAL"} {
		c := fbflyTestConfig(2, 3, 2, routing)
		c.Sim.Cycles = 1000000
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		loaded, r := burstAndDrain(s, 4000, "UN", 0, rand.New(rand.NewPCG(5, 6)))
		checkDrained(t, routing, s, s.N, loaded, r)
	}
}

// What does not run on a flattened butterfly is refused naming the field:
// the Dragonfly-only routings (routing.name, listing MIN and UGAL), the
// group patterns (traffic.pattern), UGAL's group policies and triggers, the
// kind's parameters out of range; TORNADO is refused off the flattened
// butterfly.
func TestFBFlyRefusals(t *testing.T) {
	for _, name := range []string{"VAL", "VAL_GROUP", "PB", "PAR", "OLM", "ACOR", "PB_ACOR", "QCN_SWITCH"} {
		c := config.FBFly(1, 4, 4)
		c.Routing.Name = name
		errs := c.Validate()
		if len(errs) == 0 || errs[0].Path != "routing.name" || !strings.Contains(errs.Error(), "only MIN, UGAL") {
			t.Errorf("%s on fbfly: %v, want a refusal of routing.name naming MIN, UGAL", name, errs)
		}
	}
	for _, tc := range []struct{ path, want string }{
		{"traffic.pattern=ADV", "traffic.pattern"},
		{"routing.phaseA=CRG-Gr", "routing.phaseA"},
		{"routing.restricted=true", "routing.restricted"},
		{"routing.congestion=perVCMin", "routing.congestion"},
		{"routing.injectionTrigger=base", "routing.injectionTrigger"},
		{"topology.dimensions=3", "topology.dimensions"},
		{"topology.k=1", "topology.k = 1: 1 routers per dimension of the flattened butterfly; it must be 2 to 32"},
	} {
		c := config.FBFly(1, 4, 4)
		c.Routing.Name = "UGAL"
		path, value, _ := strings.Cut(tc.path, "=")
		if err := c.Set(path, value); err != nil {
			t.Fatal(err)
		}
		if errs := c.Validate(); len(errs) == 0 || !strings.Contains(errs.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", tc.path, errs, tc.want)
		}
	}
	c := config.Default()
	c.Traffic.Pattern = "TORNADO"
	if errs := c.Validate(); len(errs) == 0 || errs[0].Path != "traffic.pattern" {
		t.Errorf("TORNADO on the Dragonfly: %v", errs)
	}
	// the paper's presets run as given
	for _, name := range []string{"fbfly16", "fbfly256", "fbfly512"} {
		p, err := config.PresetByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []string{"MIN", "UGAL"} {
			p.Routing.Name = r
			if errs := p.Validate(); len(errs) > 0 {
				t.Errorf("%s %s: %v", name, r, errs)
			}
		}
	}
}

// HOTSPOT on the 16-node network (the paper's Fig. 2 senders 0, 5, 8, 12 →
// node 4, no background): the backlogged senders saturate the hotspot's
// ejection link, 1 phit/cycle (1/16 of the network's per-node load), with
// MIN, from four senders or from one (8, on another router). Every packet
// generated comes from a sender (the hotspot and the idle background draw
// nothing). 20,000 + 20,000 cycles, full size. (UGAL here starves a
// transit VC at the hotspot's router past the stuck-head bound: TIMING.md,
// "Flattened butterfly".)
func TestFBFlyHotspotSaturatesItsEjection(t *testing.T) {
	for _, tc := range []struct {
		routing, senders string
	}{{"MIN", "0,5,8,12"}, {"MIN", "0,8,12"}, {"MIN", "8"}} {
		c := config.FBFly(1, 4, 4)
		c.Routing.Name, c.Sim.Seeds = tc.routing, 1
		c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders, c.Traffic.Load = "HOTSPOT", 4, tc.senders, 0
		s, r := btSimState(t, c, 1)
		if got := r.Accepted * 16; got < 0.93 || got > 1.0 {
			t.Errorf("%+v: the hotspot receives %.3f phits/cycle, want ≈ 1 (its ejection link)", tc, got)
		}
		for n := 0; n < s.N; n++ {
			if s.ports[s.nodeAt[n].pi].inCount > 0 && !strings.Contains(","+tc.senders+",", fmt.Sprintf(",%d,", n)) {
				t.Errorf("%+v: node %d, not a sender, holds packets at injection", tc, n)
			}
		}
	}
	// with background UR at 0.3 among the other 11 nodes, the hotspot still
	// takes 1 phit/cycle and the background's packets are delivered too
	c := config.FBFly(1, 4, 4)
	c.Sim.Seeds = 1
	c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders, c.Traffic.Load = "HOTSPOT", 4, "0,5,8,12", 0.3
	r := btRun(t, c, 1)
	if got := r.Accepted * 16; got < 0.9*(1+11*0.3) || got > 1.1*(1+11*0.3) {
		t.Errorf("hotspot + UR 0.3: the network delivers %.3f phits/cycle, want ≈ 1 + 11·0.3", got)
	}
	t.Logf("hotspot + background UR 0.3: %.3f phits/cycle delivered (1 + 3.3 offered), latency %.0f", r.Accepted*16, r.Latency.Avg)
}

// The memory estimate of the 512-node flattened butterfly (its ports per
// class from the kind registry, the paper's 256-phit VC buffers): idle,
// the terms allocated whatever the traffic bound what the run allocates
// and are within 4× of it; under UR at 0.5, the whole estimate bounds it.
func TestFBFlyMemoryEstimate(t *testing.T) {
	for _, load := range []float64{0, 0.5} {
		c := config.FBFly(2, 8, 8)
		c.Traffic.Load, c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = load, 0, 2000, 1
		checkEstimateBounds(t, c)
	}
	// router.injectionVoq=perQueue: the injection queues' own buffers
	// (the estimate counts 22 × 4 × 8 packets per node) at saturation
	c := config.FBFly(2, 8, 8)
	c.Router.InjectionVoq, c.Traffic.Load, c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = "perQueue", 1, 0, 2000, 1
	c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
	checkEstimateBounds(t, c)
	// the term a saturated run reaches only over long runs: every node's
	// 21 more per-output queues × 4 VCs × 8 packets, at least a packet's
	// bytes each beyond the shared layout's estimate
	perQ, _ := estimate(c)
	c.Router.InjectionVoq = "shared"
	shared, _ := estimate(c)
	if want := int64(512 * 21 * 4 * 8 * config.PacketBytes); perQ-shared < want {
		t.Errorf("router.injectionVoq=perQueue: the estimate grows by %.1f MiB over shared, want ≥ %.1f MiB (the injection queues' packets)", mib(uint64(perQ-shared)), mib(uint64(want)))
	}
}
