package sim

import (
	"math"
	"math/bits"
	"testing"
)

// The early detector's incremental state (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §VI-A: the §IV-B1 metric
// per (router, destination node)) against a recount every cycle: each
// input's requests (its arrived data heads' destinations; the hotspot VC's
// at their destination's router only) give the static degrees (an input
// with one request, or 1/v each weighted) and the inputs that draw (2 or
// more); each router's drawn part adds up to its drawing inputs; and the
// metric of every pair, read now and then as a forwarded packet reads it,
// equals MA − (MA(max) − MA(min))/2 recomputed from the pair's degree
// history. 16 nodes, UGAL, Fig. 1(c)'s senders 0–3 → node 4 over UR at
// 0.4 among the others, 6,000 cycles, both estimators; router 0 declares
// the hotspot (a 1,000-cycle epoch), so throttled flows' hotspot-VC heads
// are seen too.
func TestCBCMEarlyIncrementalMatchesRecount(t *testing.T) {
	for _, est := range []string{"randomized", "weighted"} {
		c := cbcmHotspot("cbcm", "UGAL", 4, "0,1,2,3", 0.4)
		c.Congestion.CbcmEarly, c.Congestion.CbcmEstimator, c.Congestion.CbcmDestEpoch = true, est, 1000
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		m := mechOf[*cbcm](t, s)
		e := m.early
		np := s.R * s.N
		hist := make([][]int32, np)
		bad, drawn, lowSeen := 0, 0, 0
		s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: func() { // after cbcm's sample
			stat := make([]int32, np)
			draws := make([]int32, s.R)
			for pi := range s.ports {
				r := pi / s.radix
				cl := s.ports[pi].class
				var pairs []int
				busy := s.busyQueues(pi)
				for w, bm := range busy {
					for vm := bm &^ s.vq.ctl[cl][w]; vm != 0; vm &= vm - 1 {
						q := w<<6 | bits.TrailingZeros64(vm)
						b := &s.bufs[pi*s.maxVC+q]
						if int64(b.hEntry) > s.now {
							continue
						}
						pk := &s.pk[b.hd]
						if s.vq.low[cl][w]&(1<<(q&63)) != 0 {
							lowSeen++
							if int(pk.dstRouter) != r {
								continue
							}
						}
						pairs = append(pairs, r*s.N+int(pk.dst))
					}
				}
				multi := e.draws(pi)
				switch {
				case est == "weighted":
					for _, p := range pairs {
						stat[p] += e.q / int32(len(pairs))
					}
				case len(pairs) == 1:
					stat[pairs[0]]++
				case len(pairs) > 1:
					draws[r]++
					drawn++
				}
				if est != "weighted" && multi != (len(pairs) > 1) {
					bad++
					t.Errorf("%s, cycle %d: input %d has %d requests, drawing %v", est, s.now, pi, len(pairs), multi)
				}
			}
			got := make([]int32, s.R)
			for p := range np {
				if stat[p] != e.stat[p] {
					bad++
					t.Errorf("%s, cycle %d: pair (router %d, node %d): static degree %d, recounted %d", est, s.now, p/s.N, p%s.N, e.stat[p], stat[p])
				}
				got[p/s.N] += e.out[p].cur - stat[p]
				hist[p] = append(hist[p], e.out[p].cur)
				if period := int64(7 + 94*(p%2)); (s.now+int64(p))%period != 0 {
					continue
				}
				o := &e.out[p]
				e.account(p, o, s.now)
				ns, nb, q := float64(e.ns), float64(e.nb), float64(e.q)
				sMax, sMin := o.sMax, o.sMax-o.sDiff
				metric := float64(o.sum)/q/ns - (float64(sMax)/q/nb-float64(sMin)/q/nb)/2
				if want := recountPairMetric(e, hist[p]); math.Abs(metric-want) > 1e-9 {
					bad++
					t.Errorf("%s, cycle %d: pair (router %d, node %d): metric %.4f, recounted %.4f", est, s.now, p/s.N, p%s.N, metric, want)
				}
			}
			for r := range s.R {
				if got[r] != draws[r] {
					bad++
					t.Errorf("%s, cycle %d: router %d's drawn degrees add up to %d; %d inputs draw", est, s.now, r, got[r], draws[r])
				}
			}
			if bad > 5 {
				t.FailNow()
			}
		}})
		for range 6000 {
			s.Step()
		}
		t.Logf("%s: routers' hotspots %d, throttle packets %d; input-cycles drawing %d; hotspot-VC heads seen %d", est, e.hotspots, e.thrSent, drawn, lowSeen)
		if e.hotspots == 0 || lowSeen == 0 || (est == "randomized" && drawn == 0) {
			t.Errorf("%s: %d router hotspots, %d hotspot-VC heads, %d draws: the state was not exercised", est, e.hotspots, lowSeen, drawn)
		}
	}
}

// recountPairMetric is MA − (MA(max) − MA(min))/2 over a pair's degree
// history h at its last cycle, in requests.
func recountPairMetric(e *cbEarly, h []int32) float64 {
	ns, bsi, t := int(e.ns), int(e.bsi), len(h)-1
	sum := 0
	for c := max(0, t-ns+1); c <= t; c++ {
		sum += int(h[c])
	}
	sMin, sMax := 0, 0
	last := (t+1)/bsi - 1
	for k := max(0, last-e.nb+1); k <= last; k++ {
		lo, hi := int32(math.MaxInt32), int32(0)
		for _, x := range h[k*bsi : (k+1)*bsi] {
			lo, hi = min(lo, x), max(hi, x)
		}
		sMin += int(lo)
		sMax += int(hi)
	}
	q, ns64, nb := float64(e.q), float64(ns), float64(e.nb)
	return float64(sum)/q/ns64 - (float64(sMax)/q/nb-float64(sMin)/q/nb)/2
}

// Every router draws early detection's requests (Kim et al. §IV-B1's
// randomized estimator, per (router, destination) in §VI-A) from a stream
// of its own (the engine's rule: a router's draws depend on its own state
// only), apart from its routing stream and from every other router's:
// the 16-node set's routers' early streams, under router.voq and in the
// plain layout, are distinct from each other and from the routing
// streams, and under router.voq each router's inputs draw from its own.
func TestCBCMEarlyStreamPerRouter(t *testing.T) {
	for _, voq := range []bool{true, false} {
		c := cbcmHotspot("cbcm", "UGAL", 4, "0,1,2,3", 0.4)
		c.Congestion.CbcmEarly, c.Router.Voq = true, voq
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		e := mechOf[*cbcm](t, s).early
		if len(e.rs) != s.R {
			t.Fatalf("voq %v: %d early streams for %d routers", voq, len(e.rs), s.R)
		}
		seen := map[uint64]string{}
		for r := range s.R {
			a, b := s.rts[r], e.rs[r] // copies: the run's streams stay put
			for _, x := range []struct {
				v    uint64
				what string
			}{{a.Uint64(), "routing"}, {b.Uint64(), "early"}} {
				if o, dup := seen[x.v]; dup {
					t.Errorf("voq %v: router %d's %s stream starts as %s", voq, r, x.what, o)
				}
				seen[x.v] = x.what
			}
			if voq && e.cbReqs.rs[r] != &e.rs[r] {
				t.Errorf("router %d's inputs draw from another stream than its own", r)
			}
		}
	}
}
