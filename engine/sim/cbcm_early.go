package sim

import (
	"math"
	"math/bits"

	"phitsim/engine/rng"
)

// cbEarly is CBCM's early detection at intermediate routers, Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks" §VI-A
// (Fig. 11): every router keeps the contention metric per network
// destination node, not per output port — the degree of (r, d) is the
// number of r's inputs whose request (one drawn per input, or 1/v each
// with cbcmEstimator=weighted, as the output's) is a head of a packet to d
// — so that senders to one node that UGAL spreads over several outputs
// still add up, and network congestion (many destinations through one
// output) does not. The paper gives only that; the rest is the endpoint
// detector's (§IV-B1, §IV-B2): the same window, bounds and threshold; the
// same epoch test, run on the packets to d the router forwards (a packet
// counts as marked while (r, d) is congested); the same D_t ≥ cbcmMinDt,
// ε guard and hotspot-mode list rule — and, since the router sees the
// metric itself, an epoch also ends (L emptied) in a cycle the pair is not
// congested: with the packets alone, the few that cross an intermediate
// router made 2-message contention under UR a hotspot; the throttle packets go from the
// router's control injection input on the priority class, and a source's
// unthrottle goes back to the router (read there on arrival). The hotspot
// VC counts at d's own router only, as at the endpoint (ejection ports).
type cbEarly struct {
	N, words int
	ns, nb   int
	bsi      int64
	limit    float64
	rs       rng.Stream // the draws, apart from the routers' streams
	cand     []int32    // one input's requests' destinations
	deg      []float64  // per pair r·N + d: this cycle's degree
	hit      []int32    // pairs with a degree this cycle
	// per pair: the window (ring of ns), its sum, the bound intervals'
	// min and max (rings of nb) and their sums, the open interval's
	ring              []float64
	mins, maxs        []float64
	sum, sMin, sMax   []float64
	lo, hi            []float64
	active            []bool
	act               []int32 // pairs with a non-zero window
	cong              []bool
	mode              []uint8
	list              []uint64
	count, dtSent     []int32
	epoch, quiet      []int64
	watched           []bool
	watch             []int32
	hotspots, thrSent int64
}

func newCbEarly(s *Sim, m *cbcm) *cbEarly {
	np := s.R * s.N
	e := &cbEarly{N: s.N, words: m.words, ns: int(m.ns), nb: m.nb, bsi: m.bsi, limit: m.p.Threshold,
		rs: rng.New(s.seed, rng.Router, 1<<32|uint64(m.id))}
	e.cand = make([]int32, 128)
	e.deg, e.ring = make([]float64, np), make([]float64, np*e.ns)
	e.mins, e.maxs = make([]float64, np*e.nb), make([]float64, np*e.nb)
	e.sum, e.sMin, e.sMax = make([]float64, np), make([]float64, np), make([]float64, np)
	e.lo, e.hi = make([]float64, np), make([]float64, np)
	e.active, e.cong, e.watched = make([]bool, np), make([]bool, np), make([]bool, np)
	e.mode, e.list = make([]uint8, np), make([]uint64, np*e.words)
	e.count, e.dtSent = make([]int32, np), make([]int32, np)
	e.epoch, e.quiet = make([]int64, np), make([]int64, np)
	return e
}

// sample adds this cycle's per-destination degrees to the windows.
func (e *cbEarly) sample(s *Sim, m *cbcm) {
	now := s.now
	for r := 0; r < s.R; r++ {
		for w := 0; w < 2; w++ {
			for im := s.inMask[2*r+w]; im != 0; im &= im - 1 {
				e.input(s, m, r, r*s.radix+(w<<6|bits.TrailingZeros64(im)))
			}
		}
	}
	for _, p := range e.hit {
		if !e.active[p] {
			e.active[p] = true
			e.act = append(e.act, p)
			// the open interval's earlier cycles had degree 0
			if now%e.bsi != 0 {
				e.lo[int(p)], e.hi[int(p)] = 0, 0
			} else {
				e.lo[int(p)], e.hi[int(p)] = math.Inf(1), math.Inf(-1)
			}
		}
	}
	e.hit = e.hit[:0]
	slot, closes := int(now%int64(e.ns)), now%e.bsi == e.bsi-1
	bslot := int(now / e.bsi % int64(e.nb))
	kept := e.act[:0]
	for _, p32 := range e.act {
		p := int(p32)
		x := e.deg[p]
		e.deg[p] = 0
		r := &e.ring[p*e.ns+slot]
		e.sum[p] += x - *r
		*r = x
		e.lo[p], e.hi[p] = min(e.lo[p], x), max(e.hi[p], x)
		if closes {
			i := p*e.nb + bslot
			e.sMin[p] += e.lo[p] - e.mins[i]
			e.sMax[p] += e.hi[p] - e.maxs[i]
			e.mins[i], e.maxs[i] = e.lo[p], e.hi[p]
			e.lo[p], e.hi[p] = math.Inf(1), math.Inf(-1)
		}
		ns, nb := float64(e.ns), float64(e.nb)
		e.cong[p] = e.sum[p]/ns-(e.sMax[p]/nb-e.sMin[p]/nb)/2 > e.limit
		if !e.cong[p] && e.mode[p] == cbObserving {
			// the router sees the contention itself: its end during the
			// epoch is an unmarked packet's evidence (a path to d without
			// contention here), and ends the epoch as one would
			e.clear(p)
			e.mode[p] = cbIdle
		}
		if e.sum[p] < 1e-9 && e.sMax[p] < 1e-9 && closes { // a window of zeros: the state of a pair never seen
			e.active[p], e.cong[p] = false, false
			e.sum[p], e.sMin[p], e.sMax[p] = 0, 0, 0
			continue
		}
		kept = append(kept, p32)
	}
	e.act = kept
}

// input adds input pi's requests to its router's per-destination degrees:
// the heads that have arrived on its data VCs (the hotspot VC's at their
// destination's router only), as the per-output sample.
func (e *cbEarly) input(s *Sim, m *cbcm, r, pi int) {
	cl := s.ports[pi].class
	nc := 0
	add := func(b *buffer, low bool) {
		if int64(b.hEntry) > s.now {
			return
		}
		pk := &s.pk[b.hd]
		if low && int(pk.dstRouter) != r {
			return
		}
		e.cand[nc] = pk.dst
		nc++
	}
	if s.vq.on {
		for w, bm := range s.busyQueues(pi) {
			for vm := bm &^ s.vq.ctl[cl][w]; vm != 0; vm &= vm - 1 {
				q := w<<6 | bits.TrailingZeros64(vm)
				add(&s.bufs[pi*s.maxVC+q], s.vq.low[cl][w]&(1<<(q&63)) != 0)
			}
		}
	} else {
		cb, hv := s.ctlBase[cl], s.ctlBase[cl]
		if s.iso.low {
			hv = s.isoBase[cl]
		}
		for vm := uint64(s.vcBusy[pi]) & (1<<cb - 1); vm != 0; vm &= vm - 1 {
			v := bits.TrailingZeros64(vm)
			add(&s.bufs[pi*s.maxVC+v], v >= int(hv))
		}
	}
	base := r * e.N
	switch {
	case nc == 0:
	case m.p.Weighted:
		for _, d := range e.cand[:nc] {
			e.bump(base+int(d), 1/float64(nc))
		}
	default:
		e.bump(base+int(e.cand[e.rs.Intn(nc)]), 1)
	}
}

func (e *cbEarly) bump(p int, w float64) {
	if e.deg[p] == 0 {
		e.hit = append(e.hit, int32(p))
	}
	e.deg[p] += w
}

// see runs pair (r, d)'s epoch test on a data packet router r forwards.
func (e *cbEarly) see(s *Sim, m *cbcm, r int, k int32) {
	pk := &s.pk[k]
	p, src := r*e.N+int(pk.dst), int(pk.src)
	marked := e.cong[p]
	switch e.mode[p] {
	case cbIdle:
		if marked {
			e.clear(p)
			e.add(p, src)
			e.epoch[p], e.mode[p] = s.now, cbObserving
			if !e.watched[p] {
				e.watched[p] = true
				e.watch = append(e.watch, int32(p))
			}
		}
	case cbObserving:
		if marked {
			e.add(p, src)
		} else {
			e.clear(p)
			e.mode[p] = cbIdle
		}
	case cbHotspot: // the endpoint's rule (cbcm.eject)
		if marked || (int(k) < len(m.throttledPackets) && m.throttledPackets[k]) {
			e.add(p, src)
		}
	}
}

func (e *cbEarly) add(p, src int) {
	if w := &e.list[p*e.words+src>>6]; *w&(1<<(src&63)) == 0 {
		*w |= 1 << (src & 63)
		e.count[p]++
	}
}

func (e *cbEarly) clear(p int) {
	clear(e.list[p*e.words : (p+1)*e.words])
	e.count[p] = 0
}

// pass closes the epochs due and sends the rounds due (the endpoint's
// destinations pass, every cycle over the few pairs watched).
func (e *cbEarly) pass(s *Sim, m *cbcm) {
	kept := e.watch[:0]
	for _, p32 := range e.watch {
		p := int(p32)
		switch e.mode[p] {
		case cbObserving:
			if s.now-e.epoch[p] >= m.p.DestEpoch {
				if int(e.count[p]) >= m.p.MinDt {
					e.mode[p] = cbHotspot
					e.hotspots++
					e.round(s, m, p)
				} else {
					e.clear(p)
					e.mode[p] = cbIdle
				}
			}
		case cbHotspot:
			if s.now >= e.quiet[p] && e.count[p] != e.dtSent[p] {
				e.round(s, m, p)
			}
		}
		if e.mode[p] == cbIdle {
			e.watched[p] = false
			continue
		}
		kept = append(kept, p32)
	}
	e.watch = kept
}

// round sends throttle(D_t = |L|) from router r to every source in pair
// p's list (the payload carries the hotspot: D_t | (d+1) << 32).
func (e *cbEarly) round(s *Sim, m *cbcm, p int) {
	r, d := p/e.N, p%e.N
	dt := e.count[p]
	for w := range e.words {
		for b := e.list[p*e.words+w]; b != 0; b &= b - 1 {
			if k := s.sendFromRouter(m.id, r, w<<6|bits.TrailingZeros64(b), int64(dt)|int64(d+1)<<32); k >= 0 {
				e.thrSent++
			}
		}
	}
	e.dtSent[p] = dt
	e.quiet[p] = s.now + int64(math.Ceil(float64(dt)/m.p.Epsilon))
}

// unthrottle removes src from router r's list for d (its unthrottle
// packet has reached r).
func (e *cbEarly) unthrottle(s *Sim, m *cbcm, r, d, src int) {
	p := r*e.N + d
	if w := &e.list[p*e.words+src>>6]; *w&(1<<(src&63)) != 0 {
		*w &^= 1 << (src & 63)
		e.count[p]--
	}
	switch {
	case e.count[p] == 0:
		e.mode[p], e.dtSent[p] = cbIdle, 0
	case s.now >= e.quiet[p]:
		e.round(s, m, p)
	}
}

// intercept reads, at its destination router, a source's unthrottle for
// a router's hotspot (payload −(d+1)).
func (m *cbcm) intercept(s *Sim, r, in int, p ctlPacket) {
	if p.data < 0 && m.early != nil {
		m.early.unthrottle(s, m, r, int(-p.data-1), int(p.src))
	}
}
