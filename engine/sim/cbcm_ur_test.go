package sim

// CBCM under uniform random traffic, Kim et al., "Contention-based
// Congestion Management in Large-Scale Networks" Fig. 8a (target 6): no
// hotspot exists, so CBCM must stay out of the way. The paper's network is
// the 512-node 2D flattened butterfly (8×8 routers, 8 nodes each); the
// 16-node 1D one (4 routers of 4 nodes) runs in a fraction of a second.
// Both with VOQs, per-destination source queues, 4-packet messages of
// 32-flit packets, rrgrant and rrvc (the cbcm-* experiments' router).

import (
	"fmt"
	"math"
	"testing"

	"phitsim/engine/config"
)

// cbcmUR is the 16-node network (dims 1, k 4, c 4) or the 512-node one
// (dims 2, k 8, c 8) under UR at load with scheme and routing, warmup +
// cycles.
func cbcmUR(scheme, routing string, dims, k, c int, load float64, warmup, cycles int) config.Config {
	cfg := cmConfig(scheme, routing)
	cfg.Topology.Dimensions, cfg.Topology.K, cfg.Topology.P = dims, k, c
	cfg.Router.OutputArbiter = "rrvc"
	cfg.Traffic.Pattern, cfg.Traffic.Load, cfg.Traffic.MessagePackets = "UN", load, 4
	cfg.Sim.Warmup, cfg.Sim.Cycles = warmup, cycles
	return cfg
}

// No false detection under UR (Kim et al. §V-B, Fig. 8a: a flow is
// throttled < 0.001% of the time at 0.5): 16 nodes, MIN and UGAL at 0.3,
// 0.5 and 0.7 (just below saturation, ≈ 0.78), 20,000 + 20,000 cycles, and
// the 512-node network under UGAL at 0.5, 10,000 + 10,000 cycles: no
// hotspot declared, no flow throttled. Two messages crossing one link or
// one ejection port contend for over 100 cycles (a 128-flit message each),
// so the switches do mark (markedShare 15–37%); the destination's epoch
// test (§IV-B2: every packet of an epoch marked) must reject that. With the
// 1,000-cycle epoch a destination receives 2–3 messages per epoch and two
// marked ones (and nothing else) made a hotspot: 7–11 declarations per run
// at 16 nodes, 198 at 512 nodes (4,819 flows throttled, latency 796
// against 448). The 16-node runs again with early detection at the
// routers (§VI-A, congestion.cbcmEarly): no router declares either (with
// the epoch ended by packets only, not by the pair's metric falling, one
// did).
func TestCBCMNoFalseDetectionUnderUR(t *testing.T) {
	type run struct {
		name string
		c    config.Config
	}
	var runs []run
	for _, rt := range []string{"MIN", "UGAL"} {
		for _, load := range []float64{0.3, 0.5, 0.7} {
			runs = append(runs, run{fmt.Sprintf("16 nodes, %s at %.1f", rt, load), cbcmUR("cbcm", rt, 1, 4, 4, load, 20000, 20000)})
			c := cbcmUR("cbcm", rt, 1, 4, 4, load, 20000, 20000)
			c.Congestion.CbcmEarly = true
			runs = append(runs, run{fmt.Sprintf("16 nodes, %s at %.1f, early detection", rt, load), c})
		}
	}
	runs = append(runs, run{"512 nodes, UGAL at 0.5", cbcmUR("cbcm", "UGAL", 2, 8, 8, 0.5, 10000, 10000)})
	for _, r := range runs {
		_, res := btSimState(t, r.c, 1)
		got := res.Mechanisms["cbcm"]
		t.Logf("%s: accepted %.4f, latency %.0f; %v", r.name, res.Accepted, res.Latency.Avg, got)
		if got["hotspots"] != 0 || got["flowsThrottled"] != 0 || got["throttles"] != 0 || got["earlyHotspots"] != 0 || got["earlyThrottles"] != 0 {
			t.Errorf("%s: %v hotspots (%v at routers), %v flows throttled, %v throttle packets (%v from routers); want none", r.name, got["hotspots"], got["earlyHotspots"], got["flowsThrottled"], got["throttles"], got["earlyThrottles"])
		}
		if got["markedShare"] < 0.05 {
			t.Errorf("%s: marked share %.3f; the test needs the switches to mark", r.name, got["markedShare"])
		}
	}
}

// Kim et al. Fig. 8a (target 6): CBCM's UR latency within 5% of Ideal's
// below saturation and its accepted load within 5%, MIN and UGAL, 16
// nodes at 0.3, 0.5 and 0.7 (20,000 + 20,000 cycles; under plain UR Ideal
// has no hotspot flow to isolate, so it is the Baseline). The 512-node
// figure's numbers are in engine/REPRODUCTION.md (cbcm-fig8a).
func TestCBCMFig8aTransparentOnUR(t *testing.T) {
	for _, rt := range []string{"MIN", "UGAL"} {
		for _, load := range []float64{0.3, 0.5, 0.7} {
			_, id := btSimState(t, cbcmUR("ideal", rt, 1, 4, 4, load, 20000, 20000), 1)
			_, cb := btSimState(t, cbcmUR("cbcm", rt, 1, 4, 4, load, 20000, 20000), 1)
			dl, da := cb.Latency.Avg/id.Latency.Avg, cb.Accepted/id.Accepted
			t.Logf("%s at %.1f: latency CBCM %.0f, Ideal %.0f (%.3f×); accepted %.4f, %.4f", rt, load, cb.Latency.Avg, id.Latency.Avg, dl, cb.Accepted, id.Accepted)
			if math.Abs(dl-1) > 0.05 || math.Abs(da-1) > 0.05 {
				t.Errorf("%s at %.1f: CBCM/Ideal latency %.3f×, accepted %.3f×; want within 5%%", rt, load, dl, da)
			}
		}
	}
}

// Kim et al. Fig. 8b (target 7: CBCM's UR curve within ~10% of Ideal under
// UR and a hotspot) scaled to the 16-node network: 4-to-1 hotspots at 100%
// — Fig. 2's senders 0, 5, 8, 12 → node 4 (one on the hotspot's router,
// three a hop away) and Fig. 14's 0, 1, 2, 8 → node 9 — with UR among the
// other 11 nodes at 0.2 and 0.4, MIN and UGAL, 20,000 + 20,000 cycles: the
// background's latency within 10% of Ideal's, its accepted load within
// 5%, the hotspot ejecting ≥ 0.95 flits/cycle. Two fixes hold it (UGAL
// under Fig. 2's set spreads the hotspot's flows before they are
// throttled, and nodes 6 and 7, whose every path shares a link with them,
// are declared too): the hotspot VC counts as contention at ejection ports
// only (counted at links, its waiting heads marked the background's
// packets after the throttling: 1.22× Ideal's latency under MIN at 0.2,
// 1.20× under UGAL), and a hotspot's list takes unmarked packets of
// throttled flows only (with every sender's, those victims stayed
// hotspots: 1.18× and 1.25× under UGAL at 0.2 and 0.4). At 0.6 under UGAL
// with Fig. 2's set it holds with UGAL's default draw (routing.
// ugalIntermediate=any, BookSim's: 324 against 326 cycles, 0.99×), not with
// detour draws (515 against 342, 1.51×; REPRODUCTION.md): asserted too.
func TestCBCMFig8bHotspotIsolation(t *testing.T) {
	for _, set := range []struct {
		hot     int
		senders string
	}{{4, "0,5,8,12"}, {9, "0,1,2,8"}} {
		for _, rt := range []string{"MIN", "UGAL"} {
			loads := []float64{0.2, 0.4}
			if set.hot == 4 && rt == "UGAL" {
				loads = append(loads, 0.6)
			}
			for _, load := range loads {
				run := func(scheme string) (bg, hot float64, lat float64) {
					c := cbcmHotspot(scheme, rt, set.hot, set.senders, load)
					c.Router.OutputArbiter = "rrvc"
					c.Sim.Warmup, c.Sim.Cycles = 20000, 20000
					_, r := btSimState(t, c, 1)
					h := r.Hotspot
					return h.Background.Accepted, h.Hotspot.Accepted, h.Background.Latency.Avg
				}
				ia, _, il := run("ideal")
				ca, ch, cl := run("cbcm")
				name := fmt.Sprintf("%s → %d, %s at %.1f", set.senders, set.hot, rt, load)
				t.Logf("%s: background latency CBCM %.0f, Ideal %.0f (%.3f×); accepted %.4f, %.4f; hotspot %.3f", name, cl, il, cl/il, ca, ia, ch)
				if cl/il > 1.1 || math.Abs(ca/ia-1) > 0.05 || ch < 0.95 {
					t.Errorf("%s: CBCM/Ideal latency %.3f× (want ≤ 1.1), accepted %.3f× (want within 5%%), hotspot %.3f (want ≥ 0.95)", name, cl/il, ca/ia, ch)
				}
			}
		}
	}
}

// Kim et al. Fig. 13 (target 12: the dedicated hotspot VC against the
// shared one throttled to 0.99/D_t, a transient), scaled from the paper's
// 256 nodes to the 16-node network: Fig. 2's senders 0, 5, 8, 12 → node 4
// from cycle 20,000 (the hotspot starting at interval 20 of 1,000 cycles)
// over UR among the other 11 at 0.4, UGAL, 120 intervals. No hotspot is
// declared before the start (the false detection under UR that hid this
// figure; with the 1,000-cycle epoch one is, and the dedicated VC's
// latency takes 46 intervals to settle); the
// background's latency per interval returns to within 1.25× its
// pre-hotspot mean (every 5-interval mean from then on) within 40
// intervals of the start with the dedicated VC (measured 0), with the
// shared VC at least 5× later (the paper: the dedicated VC settles ≈ 13.2×
// faster; measured 85 intervals), and over intervals 60–119 the shared VC's
// stays above the pre-hotspot mean and the dedicated VC's by 10% or more and
// below twice (the paper's "slightly higher latency even after it is
// stabilized"; measured 252 against 204 and 215 cycles: HoL blocking
// behind the throttled flows' packets), and the dedicated VC's peak per
// interval after the start is the lower (the paper's "lower peak";
// measured 297 against 346; seeds 2, 3: 292 / 418, 287 / 475). With
// routing.ugalIntermediate=detour (every UGAL draw a detour) the shared VC
// stays further above: dedicated 11 intervals, shared 96 (never within 100
// in an earlier build), 404 against 228 cycles, but the peaks are 815
// dedicated, 729 shared, and the last assertion fails.
func TestCBCMFig13DedicatedVCSettles(t *testing.T) {
	const iv, nI, start = 1000, 120, 20
	late, peak, settled := map[string]float64{}, map[string]float64{}, map[string]int{}
	var pre float64
	for _, hv := range []string{"dedicated", "shared"} {
		c := cbcmHotspot("cbcm", "UGAL", 4, "0,5,8,12", 0.4)
		c.Router.OutputArbiter = "rrvc"
		c.Congestion.CbcmHotspotVC = hv
		c.Traffic.HotspotStart = start * iv
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		m := mechOf[*cbcm](t, s)
		sum, n := make([]float64, nI), make([]float64, nI)
		s.hk.eject = append(s.hk.eject, func(k int32, tt int64) {
			if pk := &s.pk[k]; !s.isControl(k) && pk.dst != 4 {
				sum[tt/iv] += float64(tt - pk.gen)
				n[tt/iv]++
			}
		})
		early := int64(-1)
		for s.now < nI*iv {
			s.Step()
			if s.now == start*iv {
				early = m.hotspots
			}
		}
		lat := make([]float64, nI)
		for i := range lat {
			lat[i] = sum[i] / n[i]
		}
		pre = 0
		for _, x := range lat[5:start] {
			pre += x / (start - 5)
		}
		settle := 0 // intervals after the start until every 5-interval mean stays within 1.25× pre
		for i := nI - 5; i >= start; i-- {
			if (lat[i]+lat[i+1]+lat[i+2]+lat[i+3]+lat[i+4])/5 > 1.25*pre {
				settle = i + 1 - start
				break
			}
		}
		for _, x := range lat[60:] {
			late[hv] += x / (nI - 60)
		}
		settled[hv] = settle
		for _, x := range lat[start:] {
			peak[hv] = max(peak[hv], x)
		}
		t.Logf("%s: %d hotspots before the start, %d in all; latency before %.0f, settled %d intervals after the start, mean over intervals 60–119 %.0f, peak %.0f", hv, early, m.hotspots, pre, settle, late[hv], peak[hv])
		if early != 0 {
			t.Errorf("%s: %d hotspots declared under UR alone, before the hotspot starts", hv, early)
		}
		if hv == "dedicated" && settle > 40 {
			t.Errorf("dedicated VC: latency settles %d intervals after the start, want within 40", settle)
		}
	}
	if sh := late["shared"]; sh < 1.1*pre || sh < 1.1*late["dedicated"] || sh > 2*late["dedicated"] {
		t.Errorf("shared VC: latency %.0f over intervals 60–119, want ≥ 1.1× the pre-hotspot %.0f and 1.1–2× the dedicated VC's %.0f", sh, pre, late["dedicated"])
	}
	if settled["shared"] < 5*max(settled["dedicated"], 1) {
		t.Errorf("shared VC settles %d intervals after the start, the dedicated VC %d: want ≥ 5× later", settled["shared"], settled["dedicated"])
	}
	if peak["dedicated"] >= peak["shared"] {
		t.Errorf("peak latency after the start: dedicated VC %.0f, shared %.0f: want the dedicated VC's lower", peak["dedicated"], peak["shared"])
	}
}

// cbcmTransient runs c with seed for nI intervals of iv cycles: the
// background's (destination ≠ hot) mean latency per interval, by
// consumption cycle, and the first cycles a destination and a router
// (early detection) declared a hotspot (−1: none).
func cbcmTransient(t *testing.T, c config.Config, seed uint64, hot, iv, nI int) (lat []float64, atDest, atRouter int64) {
	t.Helper()
	s, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	m := mechOf[*cbcm](t, s)
	sum, n := make([]float64, nI), make([]float64, nI)
	s.hk.eject = append(s.hk.eject, func(k int32, tt int64) {
		if pk := &s.pk[k]; !s.isControl(k) && int(pk.dst) != hot {
			sum[tt/int64(iv)] += float64(tt - pk.gen)
			n[tt/int64(iv)]++
		}
	})
	atDest, atRouter = -1, -1
	for s.now < int64(nI*iv) {
		s.Step()
		if atDest < 0 && m.hotspots > 0 {
			atDest = s.now
		}
		if atRouter < 0 && m.early != nil && m.early.hotspots > 0 {
			atRouter = s.now
		}
	}
	lat = make([]float64, nI)
	for i := range lat {
		lat[i] = sum[i] / n[i]
	}
	return lat, atDest, atRouter
}

// settleAfter is the intervals after start until every 5-interval mean of
// lat stays within 1.25× pre.
func settleAfter(lat []float64, start int, pre float64) int {
	for i := len(lat) - 5; i >= start; i-- {
		if (lat[i]+lat[i+1]+lat[i+2]+lat[i+3]+lat[i+4])/5 > 1.25*pre {
			return i + 1 - start
		}
	}
	return 0
}

// Kim et al. Fig. 11 (target 14, early detection at intermediate routers,
// §VI-A): Fig. 1(c)'s senders 0–3 (all on router 0) → node 4 at 100% from
// interval 20 of 1,000 cycles (the paper's interval 100, scaled as Fig.
// 13's test), UR among the other 11 nodes at 0.4, UGAL, 16 nodes, 60
// intervals, 4 seeds, endpoint detection alone against
// congestion.cbcmEarly. No hotspot before the start, at a destination or
// a router; with early detection router 0 declares the hotspot before any
// destination does (the endpoint's declaration comes a round trip and
// more later: the first marked packet has to reach node 4), and within
// the endpoint epoch and 500 cycles of the start. The background's peak
// latency per interval (mean over the seeds) after the start and the
// intervals until it settles (every 5-interval mean within 1.25× the
// pre-hotspot mean) are logged against the paper's 0.42× and 0.22×: in
// this router (VOQs, the dedicated hotspot VC) Fig. 1(c)'s tree barely
// touches the background (Baseline's, without any management, stays at
// 190–250 cycles per interval but for one of 368), so the two transients
// look alike — peak 1.01×, settling 0 intervals under both, outside the
// paper's bands (engine/REPRODUCTION.md) — while router 0 declares at
// 4,034 cycles after the start, while node 4 alone declares in seed 3 only,
// 31,397 cycles after it (with routing.ugalIntermediate=detour in every
// seed, at 4,396–12,396; over 200,000 cycles with any every seed declares,
// at 8,524–125,932: TestCBCMFig11DetectionTime, which traces why).
func TestCBCMFig11EarlyDetection(t *testing.T) {
	const iv, nI, start, seeds = 1000, 60, 20, 4
	peak, settle := map[bool]float64{}, map[bool]float64{}
	for _, early := range []bool{false, true} {
		c := cbcmHotspot("cbcm", "UGAL", 4, "0,1,2,3", 0.4)
		c.Router.OutputArbiter = "rrvc"
		c.Traffic.HotspotStart = start * iv
		c.Congestion.CbcmEarly = early
		mean := make([]float64, nI)
		for seed := uint64(1); seed <= seeds; seed++ {
			lat, atDest, atRouter := cbcmTransient(t, c, seed, 4, iv, nI)
			for i, x := range lat {
				mean[i] += x / seeds
			}
			t.Logf("early %v, seed %d: first hotspot at a destination at cycle %d, at a router at %d", early, seed, atDest, atRouter)
			if atDest >= 0 && atDest < start*iv || atRouter >= 0 && atRouter < start*iv {
				t.Errorf("early %v, seed %d: a hotspot declared before the start (destination %d, router %d)", early, seed, atDest, atRouter)
			}
			if early && (atRouter < 0 || atDest >= 0 && atRouter >= atDest || atRouter > start*iv+int64(c.Congestion.CBCM().DestEpoch)+500) {
				t.Errorf("seed %d: router declared at %d, destination at %d; want the router first, by cycle %d", seed, atRouter, atDest, start*iv+int64(c.Congestion.CBCM().DestEpoch)+500)
			}
		}
		pre := 0.0
		for _, x := range mean[5:start] {
			pre += x / (start - 5)
		}
		for _, x := range mean[start:] {
			peak[early] = max(peak[early], x)
		}
		settle[early] = float64(settleAfter(mean, start, pre))
		t.Logf("early %v: latency before %.0f, peak %.0f, settled %v intervals after the start; per interval %.0f", early, pre, peak[early], settle[early], mean[start-2:start+15])
	}
	t.Logf("early/endpoint: peak %.2f× (paper 0.42×), time to settle %v against %v intervals (paper 0.22×)", peak[true]/peak[false], settle[true], settle[false])
}

// cbcmDeclared runs c with seed until a hotspot is declared — at a router
// (early detection) if router, else at a destination — or until cycle
// limit: the cycle of the declaration, −1 if none.
func cbcmDeclared(t *testing.T, c config.Config, seed uint64, router bool, limit int64) int64 {
	t.Helper()
	s, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	m := mechOf[*cbcm](t, s)
	for s.now < limit {
		s.Step()
		if router && m.early.hotspots > 0 || !router && m.hotspots > 0 {
			return s.now
		}
	}
	return -1
}

// Kim et al. Fig. 11 (target 14, §VI-A), the time to act: "as the
// intermediate router can throttle the hotspot sources sooner … it also
// took approximately 0.22× of time for the latency to stabilize" (accept
// 0.1–0.4×). Here the background's latency does not move under either
// (TestCBCMFig11EarlyDetection), so the claim is taken at the time to the
// first declaration after the hotspot starts: Fig. 1(c)'s senders 0–3 →
// node 4 from cycle 20,000, UR 0.4 among the other 11, UGAL, 16 nodes.
// With every Valiant draw a detour (routing.ugalIntermediate=detour),
// seeds 1–24: router 0 declares 4,033–4,044 cycles after the start (the
// 4,000-cycle epoch), node 4 alone 4,396–21,932 (mean 8,585; its epoch
// restarts on the few unmarked Valiant packets), so early detection takes
// 0.47× of the endpoint's time: the band 0.1–0.4× does not hold (the mean
// over seeds 1–8 is 10,371, 0.39×, over 1–4 0.48×: a few slow seeds move
// it). With both detectors on one epoch the ratio is at most ≈ 0.92 (the
// endpoint's epoch starts a path later) and reaches 0.4 only if node 4
// needs 2.5 epochs on average; it needs 2.1. With BookSim's draw (any, the
// default), seeds 1–8, node 4 declares 8,524–125,932 cycles after the
// start (mean 63,419; 0.06×): ≈ 6 unmarked Valiant packets per 4,000-cycle
// epoch restart it. Traced (seed 1, cycles 20,000–60,000): 62% of the hot
// packets go minimally and are marked at router 0's link to router 1 (770
// of 771; 4 injection inputs contend there, the tree's root); of the 476
// Valiant ones 358 are marked at router 1's output to node 4, 56 at the
// intermediate's link to router 1, 62 nowhere: router 1's output to node 4
// — counted and marking, as Kim et al. §IV-A's Case III has it — is
// congested in 69% of the cycles only, its degree 1 in 46% (the link from
// router 0 holds a head for node 4 in 98% of the cycles, those from routers
// 2 and 3 in 37% and 30%: a Valiant packet there waits 0–193 cycles), and
// the unmarked ones crossed it at metric 0.02–1.00, their other outputs at
// ≤ 0.94. With detour 59% go the Valiant way in the first epoch and the
// output is congested in 92% of its cycles. Asserted, what holds: the
// router first in every seed under both draws, and early ÷ endpoint mean
// ≤ 0.5 (the router at least twice as quick: "sooner") with detour, ≤ 0.4
// with any. With a buffer per output queue at the injection input too
// (router.injectionVoq=perQueue, the paper's "4 VCs per output at each
// input" taken at every input; the default shares the injection VC's buffer)
// more of the hot packets go the Valiant way — router 1's inputs from
// routers 2 and 3 hold a head for node 4 in 63% and 61% of the cycles
// (shared: 37%, 30%) — and, seed 1, cycles 20,000–60,000, node 4 receives
// 25 unmarked of 1,247 (63 shared), router 1's output to node 4 congested
// in 86% of the cycles (69%); over seeds 1–24 node 4 alone
// declares 4,314–32,257 cycles after the start (mean 11,824) and the ratio
// is 0.34× with any — inside the paper's band, with the same 4,000-cycle
// epoch and no declaration under UR (16 nodes, 0.3–0.75, 3 seeds) — and
// 0.70× with detour (engine/REPRODUCTION.md, "Fig. 11's endpoint
// detection: the readings measured"). Asserted for it, seeds 1–8 (0.26×):
// the paper's band 0.1–0.4×. 1.3 s of CPU.
func TestCBCMFig11DetectionTime(t *testing.T) {
	const start = 20000
	for _, tc := range []struct {
		draw, injVoq string
		seeds        uint64
		least, most  float64
	}{{"detour", "", 24, 0, 0.5}, {"any", "", 8, 0, 0.4}, {"any", "perQueue", 8, 0.1, 0.4}} {
		var early, endpoint float64
		for seed := uint64(1); seed <= tc.seeds; seed++ {
			c := cbcmHotspot("cbcm", "UGAL", 4, "0,1,2,3", 0.4)
			c.Router.OutputArbiter = "rrvc"
			c.Routing.UgalIntermediate = tc.draw
			if tc.injVoq != "" {
				c.Router.InjectionVoq = tc.injVoq
			}
			c.Traffic.HotspotStart = start
			atDest := cbcmDeclared(t, c, seed, false, start+200000)
			c.Congestion.CbcmEarly = true
			atRouter := cbcmDeclared(t, c, seed, true, start+200000)
			t.Logf("%s %s, seed %d: router 0 declares %d cycles after the start, node 4 alone %d", tc.draw, tc.injVoq, seed, atRouter-start, atDest-start)
			if atRouter < start || atDest < start || atRouter >= atDest {
				t.Errorf("%s %s, seed %d: router at %d, node 4 alone at %d (the start %d): want both after the start, the router first", tc.draw, tc.injVoq, seed, atRouter, atDest, start)
			}
			early += float64(atRouter-start) / float64(tc.seeds)
			endpoint += float64(atDest-start) / float64(tc.seeds)
		}
		r := early / endpoint
		t.Logf("%s %s: early detection %.0f cycles after the start, endpoint %.0f: %.2f× (the paper 0.22×, accept 0.1–0.4×)", tc.draw, tc.injVoq, early, endpoint, r)
		if r > tc.most || r < tc.least {
			t.Errorf("%s %s: early ÷ endpoint detection time %.2f×; want %.1f–%.1f×", tc.draw, tc.injVoq, r, tc.least, tc.most)
		}
	}
}

// Early detection keys its metric by destination node, not output port
// (Kim et al. §VI-A: so that network congestion alone does not throttle):
// under Fig. 3a's permutation n → n+4 at 0.5, MIN, 16 nodes (every node of
// router i to router i+1: each router's link to the next carries four
// flows, the per-output metric far above 1, every packet marked), no
// router declares a hotspot and no flow is throttled. 20,000 + 20,000
// cycles.
func TestCBCMEarlyIgnoresNetworkCongestion(t *testing.T) {
	c := cbcmUR("cbcm", "MIN", 1, 4, 4, 0.5, 20000, 20000)
	c.Traffic.Pattern = "TORNADO"
	c.Congestion.CbcmEarly = true
	_, res := btSimState(t, c, 1)
	got := res.Mechanisms["cbcm"]
	t.Logf("accepted %.4f, latency %.0f; %v", res.Accepted, res.Latency.Avg, got)
	if got["markedShare"] < 0.5 {
		t.Errorf("marked share %.3f; the test needs the outputs congested", got["markedShare"])
	}
	if got["earlyHotspots"] != 0 || got["flowsThrottled"] != 0 {
		t.Errorf("%v hotspots at routers, %v flows throttled; want none under a permutation", got["earlyHotspots"], got["flowsThrottled"])
	}
}

// A router's hotspot ends as the destination's does (Kim et al. §IV-B4):
// Fig. 1(c)'s senders 0–3 → node 4 over cycles 0–15,000 only, UR 0.2
// among the others, UGAL, early detection: router 0 declares and throttles
// the four; once their queues drain, each unthrottles, its unthrottle
// reaches router 0 (node 0's router: the router's own first node for
// node 0, a packet for the others), and by cycle 40,000 every router's
// list is empty, none a hotspot, no flow throttled. Router 1 (node 4's)
// declares too, so a flow has two routers to tell (with only the last
// throttling router remembered, router 0 kept its list of 4).
func TestCBCMEarlyUnthrottleEmptiesTheRoutersList(t *testing.T) {
	c := cbcmHotspot("cbcm", "UGAL", 4, "0,1,2,3", 0.2)
	c.Router.OutputArbiter = "rrvc"
	c.Traffic.HotspotEnd = 15000
	c.Congestion.CbcmEarly = true
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := mechOf[*cbcm](t, s)
	p := 0*s.N + 4
	peak := int32(0)
	for s.now < 40000 {
		s.Step()
		peak = max(peak, m.early.count[p])
	}
	t.Logf("router hotspots %d, throttles %d, unthrottles %d; list of (router 0, node 4) at most %d, now %d, mode %d; flows throttled now %d", m.early.hotspots, m.early.thrSent, m.unthrottle, peak, m.early.count[p], m.early.mode[p], len(m.act))
	if m.early.hotspots < 1 || peak != 4 {
		t.Fatalf("router 0 declared %d hotspots with at most %d sources; want node 4 with senders 0–3", m.early.hotspots, peak)
	}
	for q := range m.early.count { // router 1 (node 4's) declares too: both lists empty
		if m.early.count[q] != 0 || m.early.mode[q] == cbHotspot {
			t.Errorf("after the hotspot: router %d's list for node %d holds %d, mode %d; want 0, not a hotspot", q/s.N, q%s.N, m.early.count[q], m.early.mode[q])
		}
	}
	if len(m.act) != 0 {
		t.Errorf("after the hotspot: %d flows throttled", len(m.act))
	}
}
