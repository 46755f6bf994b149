package sim

// Kim et al., "Contention-based Congestion Management in Large-Scale
// Networks" §V-D, Fig. 13 (target 12): beside the hotspot, CBCM declares
// the other nodes of the hotspot's router. The trace of cbcm-fig13 (256
// nodes, engine/REPRODUCTION.md, "Fig. 13: the destinations declared beside
// the hotspot") finds every one of them on the hotspot's router, each epoch
// that declared it made of packets marked on the links into that router
// while the startup tree's hot packets (sent on the data VCs before the
// throttle arrived) wait there, and each released once that tree has
// drained: §IV-B2's rule applied to a destination every path to which
// crosses the tree, not a false detection (UR alone declares none).

import (
	"testing"

	"phitsim/engine/config"
)

// fig13Scaled is Fig. 13's set scaled to the 64-node 1D flattened
// butterfly (8 routers of 8 nodes): senders random senders → a random
// hotspot (traffic.hotspotSeed 1) from cycle start over UR at load among
// the other nodes, UGAL, CBCM with the dedicated hotspot VC, the paper's
// network interface; hot=false: UR alone among all 64 nodes.
func fig13Scaled(senders int, load float64, start, cycles int, hot bool) config.Config {
	c := config.FBFly(1, 8, 8)
	t := &c.Traffic
	t.SourceQueue, t.SourceQueues, t.MessagePackets = true, "perDestination", 4
	c.Router.InputArbiter, c.Router.OutputArbiter = "rrgrant", "rrvc"
	c.Routing.Name, c.Congestion.Scheme, c.Congestion.CbcmHotspotVC = "UGAL", "cbcm", "dedicated"
	t.Load = load
	if hot {
		t.Pattern, t.HotspotCount, t.HotspotSeed, t.HotspotStart = "HOTSPOT", senders, 1, start
	} else {
		t.Pattern = "UN"
	}
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Watchdog = start, cycles, 5000000
	return c
}

// fig13Decl is one HOTSPOT declaration seen by the trace.
type fig13Decl struct {
	d, at      int
	pk, intoHR int   // the declaring epoch's packets, those first marked on a link into the hotspot's router
	idleAt     int64 // the cycle it went idle again (0: still declared)
}

// fig13Trace runs c, recording every declaration with the first marking
// output of the packets of the epoch that declared it, and when each
// destination went idle again (seed: the run's; hot: the hotspot node, −1
// for none), and every 1,000 cycles the hot flows' packets sent on the data
// VCs (before their throttle) and not yet consumed (hotLeft).
func fig13Trace(t *testing.T, c config.Config, seed uint64, hot int) (decls []fig13Decl, hotLeft []int64, s *Sim) {
	t.Helper()
	s, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	m := s.mech.list[0].(*cbcm)
	hr := -1
	if hot >= 0 {
		hr = int(s.nodeAt[hot].pi) / s.radix
	}
	// per packet id, the output port where it was first marked (−1: none)
	var firstPo []int32
	at := func(k int32) *int32 {
		for int(k) >= len(firstPo) {
			n := max(1024, 2*len(firstPo))
			for len(firstPo) < n {
				firstPo = append(firstPo, -1)
			}
		}
		return &firstPo[k]
	}
	s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) {
		if p := at(k); *p < 0 && s.pk[k].mech&m.mark != 0 {
			*p = int32(r*s.radix + out)
		}
	})
	// per destination, the current observing epoch's packets and those
	// first marked on a link into the hotspot's router
	epoch := make([]int64, s.N)
	pk, into := make([]int, s.N), make([]int, s.N)
	var thr bool
	hotData := int64(0) // the hot flows' packets on the data VCs, injected and not consumed
	s.hk.sent = append(s.hk.sent, func(n, dst int, k int32) {
		if dst == hot && !(int(k) < len(m.throttledPackets) && m.throttledPackets[k]) {
			hotData++
		}
	})
	s.hk.eject = append([]func(k int32, t int64){func(k int32, _ int64) {
		thr = int(k) < len(m.throttledPackets) && m.throttledPackets[k]
	}}, s.hk.eject...)
	s.hk.eject = append(s.hk.eject, func(k int32, _ int64) {
		p := at(k)
		if s.isControl(k) {
			*p = -1
			return
		}
		d := int(s.pk[k].dst)
		if d == hot && !thr {
			hotData--
		}
		if m.mode[d] == cbObserving {
			if epoch[d] != m.epoch[d] {
				epoch[d], pk[d], into[d] = m.epoch[d], 0, 0
			}
			pk[d]++
			if po := *p; po >= 0 && s.ports[po].peer >= 0 && int(s.ports[po].peer)/s.radix == hr {
				into[d]++
			}
		}
		*p = -1
	})
	prev := make([]uint8, s.N)
	open := make([]int, s.N) // index+1 of d's open declaration
	end := int64(c.Sim.Warmup + c.Sim.Cycles)
	for s.now < end {
		s.Step()
		if hot >= 0 && s.now%1000 == 0 {
			hotLeft = append(hotLeft, hotData)
		}
		for d := range s.N {
			if md := m.mode[d]; md != prev[d] {
				if md == cbHotspot {
					decls = append(decls, fig13Decl{d: d, at: int(s.now), pk: pk[d], intoHR: into[d]})
					open[d] = len(decls)
				} else if prev[d] == cbHotspot && open[d] > 0 {
					decls[open[d]-1].idleAt = s.now
					open[d] = 0
				}
				prev[d] = md
			}
		}
	}
	return decls, hotLeft, s
}

// Scaled to 64 nodes (8 routers of 8), 16 random senders (a quarter of the
// nodes, as many per link into the hotspot's router as the 256-node run's
// 16 over 15 links give with its heavier UR) → node 19 on router 2 from
// cycle 5,000, UR 0.4 among the other 47, UGAL, 5,000 + 45,000 cycles:
// node 19 declared at 9,197, then nodes 23, 22, 18, 21 — all on router 2 —
// at 11,067–14,797, while 275–343 hot packets sent on the data VCs before
// the throttle still wait; 11 of 11, 36 of 37, 46 of 47 and 46 of 48 of
// their epochs' packets first marked on a link into router 2; each idle
// again at 25,884–40,017 (the tree drained by 23,000), node 19 declared to
// the end. UR alone at 0.4 and 0.5 declares nothing. Asserted: the hotspot
// declared first; some other destination declared, every one on the
// hotspot's router, while hot packets remain on the data VCs, with ≥ 90%
// of its epoch first marked on a link into that router, and idle again by
// the end; none under UR alone.
func TestCBCMFig13VictimsOnHotRouterScaled(t *testing.T) {
	const start, cycles = 5000, 45000
	c := fig13Scaled(16, 0.4, start, cycles, true)
	s0, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	hot32, senders := s0.pat.Hotspot()
	hot := int(hot32)
	decls, left, s := fig13Trace(t, c, 1, hot)
	hr := int(s.nodeAt[hot].pi) / s.radix
	t.Logf("senders %v → node %d (router %d); hot packets on the data VCs every 1,000 cycles: %v", senders, hot, hr, left)
	if len(decls) == 0 || decls[0].d != hot || decls[0].at < start {
		t.Fatalf("declarations %+v; want node %d first, after cycle %d", decls, hot, start)
	}
	if decls[0].idleAt != 0 {
		t.Errorf("the hotspot node %d idle again at %d; want it declared to the end", hot, decls[0].idleAt)
	}
	victims := 0
	for _, d := range decls[1:] {
		r := int(s.nodeAt[d.d].pi) / s.radix
		// hot packets left on the data VCs at the last sample before the declaration
		standing := left[(d.at-1)/1000-1]
		t.Logf("node %d (router %d) declared at %d (%d hot packets on the data VCs at the last 1,000): %d of its epoch's %d packets first marked on a link into router %d; idle again at %d",
			d.d, r, d.at, standing, d.intoHR, d.pk, hr, d.idleAt)
		victims++
		if r != hr {
			t.Errorf("node %d on router %d declared: want only the hotspot router's (%d) nodes", d.d, r, hr)
		}
		if standing == 0 {
			t.Errorf("node %d declared at %d with no hot packet on the data VCs: want it declared while the startup tree stands", d.d, d.at)
		}
		if d.pk == 0 || float64(d.intoHR) < 0.9*float64(d.pk) {
			t.Errorf("node %d: %d of its epoch's %d packets first marked on a link into router %d; want ≥ 90%%", d.d, d.intoHR, d.pk, hr)
		}
		if d.idleAt == 0 {
			t.Errorf("node %d still declared at the end (cycle %d): want it released once the tree has drained", d.d, start+cycles)
		}
	}
	if victims == 0 {
		t.Errorf("no destination declared beside the hotspot: the trace needs the startup tree's victims")
	}
	for _, load := range []float64{0.4, 0.5} {
		decls, _, s := fig13Trace(t, fig13Scaled(0, load, start, cycles, false), 1, -1)
		_, r := s.mech.list[0].(*cbcm).report(s)
		t.Logf("UR alone at %.1f: %d declarations; marked share %.3f", load, len(decls), r["markedShare"])
		if len(decls) != 0 || r["hotspots"] != 0 {
			t.Errorf("UR alone at %.1f: declarations %+v; want none (Kim et al. §V-B)", load, decls)
		}
		if r["markedShare"] < 0.05 {
			t.Errorf("UR alone at %.1f: marked share %.3f; the test needs the switches to mark", load, r["markedShare"])
		}
	}
}

// Kim et al. §V-D, Fig. 13: with the dedicated low-priority VC the hotspot
// accepted 93% of its ejection link (100% with the shared VCs). Scaled to
// 64 nodes (fig13Scaled: 16 random senders → node 19 from cycle 5,000, UR
// 0.4, UGAL, 5,000 + 95,000 cycles). Algorithm 1 (§IV-B3) gives each of
// the D_t listed senders 1/D_t flits per cycle with no cap on its tokens;
// the hotspot's list (§IV-B2) holds exactly the 16 senders (it receives
// nothing else), so the rates add up to the whole link, and a flow the
// network holds back keeps its tokens. Asserted: every hot flow's D_t is
// 16 at every sample, none is unthrottled (its generator is backlogged,
// §IV-B4) and none receives a second throttle packet (the list never
// changes, so no round resets a token count), and the hotspot ejects ≥ 30
// packets (960 flits) in every 1,000 cycles from its declaration + 2,000
// to the end: the link never idles the 7% the paper's 93% needs.
func TestCBCMFig13HotspotEjectsFullLink(t *testing.T) {
	const start, cycles = 5000, 95000
	c := fig13Scaled(16, 0.4, start, cycles, true)
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := s.mech.list[0].(*cbcm)
	hot32, senders := s.pat.Hotspot()
	hot := int(hot32)
	var perIv []int
	s.hk.eject = append(s.hk.eject, func(k int32, _ int64) {
		if s.isControl(k) || int(s.pk[k].dst) != hot {
			return
		}
		iv := int(s.now / 1000)
		for len(perIv) <= iv {
			perIv = append(perIv, 0)
		}
		perIv[iv]++
	})
	declared, quiet := int64(-1), int64(0)
	seen := make([]bool, len(senders)) // the flow's throttle has arrived
	dtBad, unthr, rounds := 0, 0, 0
	end := int64(start + cycles)
	for s.now < end {
		s.Step()
		if declared < 0 {
			if m.mode[hot] == cbHotspot {
				declared, quiet = s.now, m.quiet[hot]
			}
			continue
		}
		if m.quiet[hot] != quiet { // round() ran again: throttle packets that reset the tokens
			rounds++
			quiet = m.quiet[hot]
		}
		for i, n := range senders {
			f := int(n)*s.N + hot
			if !m.thr[f] {
				if seen[i] {
					unthr++
				}
				continue
			}
			seen[i] = true
			if s.now%100 == 0 && int(m.dt[f]) != len(senders) {
				dtBad++
			}
		}
	}
	if declared < 0 {
		t.Fatalf("node %d never declared", hot)
	}
	low, fewest := 0, 1<<30
	for iv := int(declared/1000) + 2; iv < len(perIv) && iv < int(end/1000); iv++ {
		fewest = min(fewest, perIv[iv])
		if perIv[iv] < 30 {
			low++
		}
	}
	t.Logf("node %d declared at %d; %d senders; D_t ≠ %d in %d samples; unthrottled flow-cycles %d; later throttle rounds %d; fewest packets ejected per 1,000 cycles %d, intervals below 30: %d",
		hot, declared, len(senders), len(senders), dtBad, unthr, rounds, fewest, low)
	if dtBad != 0 || unthr != 0 || rounds != 0 {
		t.Errorf("D_t ≠ the %d senders in %d samples, %d flow-cycles unthrottled, %d later throttle rounds: want none (the list holds exactly the senders)", len(senders), dtBad, unthr, rounds)
	}
	if low != 0 {
		t.Errorf("%d intervals of 1,000 cycles with fewer than 30 packets into node %d (fewest %d): want the link full, the rates summing to 1", low, hot, fewest)
	}
}
