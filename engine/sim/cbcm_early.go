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
//
// The metric is kept by the per-output detector's type (cbDeg,
// cbcm_deg.go): a pair's degree as runs of equal values, its window sum and its bound intervals'
// min and max sums accounted when its degree changes or it is read (a
// forwarded packet, an observing pair each cycle), so that a pair costs
// nothing while its degree stands; under router.voq an input's requests
// (its arrived heads' pairs, in queue order) are read again only after an
// arrival or a grant there, an input with one request adds 1 to its pair's
// static degree, and one with 2 or more draws each cycle, in the order of
// the plain scan (ascending router, ascending input), from the stream of
// its own (Router kind, id earlyStreamID: every router's own stream for
// early detection's draws, apart from its routing stream, so a router's
// draws depend on its own inputs only). The congestion test is the plain
// form's floating-point expression of those integer sums (weighted: in units of 1/720720).
type cbEarly struct {
	N, words int
	limit    float64
	q        int32        // one request's weight (1; weighted: lcm 1…16)
	rs       []rng.Stream // per router, its draws (earlyStreamID), apart from its routing stream
	cand     []int32      // one input's requests' pairs (the plain layout)
	// per pair r·N + d: its degree and window (cbcm_deg.go), the bound
	// intervals' min and max summed apart
	cbDeg
	// per input (router.voq): its requests, entries of pairs (cbcm_deg.go)
	cbReqs
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
	e := &cbEarly{N: s.N, words: m.words, limit: m.p.Threshold, q: m.q}
	if !m.p.Weighted {
		e.rs = make([]rng.Stream, s.R)
		for r := range e.rs {
			e.rs[r] = rng.New(s.seed, rng.Router, earlyStreamID(m.id, r))
		}
	}
	e.cand = make([]int32, 128)
	e.init(np, m.p.Samples, m.p.BoundInterval, true, false)
	if s.vq.on {
		rs := make([]*rng.Stream, s.R) // each router's own (none drawn, weighted)
		for r := range e.rs {
			rs[r] = &e.rs[r]
		}
		e.initReqs(len(s.ports), m.qs, s.radix, e.q, rs)
		s.hk.arrive = append(s.hk.arrive, e.arriveHook(s))
	}
	e.mode, e.list = make([]uint8, np), make([]uint64, np*e.words)
	e.count, e.dtSent = make([]int32, np), make([]int32, np)
	e.epoch, e.quiet = make([]int64, np), make([]int64, np)
	e.watched = make([]bool, np)
	return e
}

// arriveHook is the arrival hook (router.voq) of e in s: a new head (its
// queue was empty) makes its input's requests be read again.
func (e *cbEarly) arriveHook(s *Sim) func(pi, q int, k int32) {
	return func(pi, q int, k int32) {
		if s.bufs[pi*s.maxVC+q].hd == k {
			e.dirtyIn(pi)
		}
	}
}

// earlyStreamID is the id (Router kind) of router r's stream for the
// early-detection draws of CBCM instance id: bit 39 with the instance in
// bits 32–38 and the router below, apart from every router's routing
// stream (id r), below 2⁴⁰ (rng.New).
func earlyStreamID(id, r int) uint64 { return 1<<39 | uint64(id)<<32 | uint64(r) }

// sample sets this cycle's per-destination degrees, then ends the epochs
// of the observing pairs that are no longer congested.
func (e *cbEarly) sample(s *Sim, m *cbcm) {
	now := s.now
	e.begin(now)
	if s.vq.on {
		e.sampleVoq(s)
	} else {
		e.samplePlainIn(s, m, s.r0, s.r1)
		for i := 0; i < len(s.rMore); i += 2 { // a partition's further ranges (parallel.go)
			e.samplePlainIn(s, m, s.rMore[i], s.rMore[i+1])
		}
	}
	e.settle(now, !s.vq.on)
	for _, p32 := range e.watch {
		// the router sees the contention itself: its end during the
		// epoch is an unmarked packet's evidence (a path to d without
		// contention here), and ends the epoch as one would
		if p := int(p32); e.mode[p] == cbObserving && !e.eval(p, now) {
			e.clear(p)
			e.mode[p] = cbIdle
		}
	}
}

// samplePlainIn adds the requests of routers [r0, r1)'s inputs (the plain
// layout).
func (e *cbEarly) samplePlainIn(s *Sim, m *cbcm, r0, r1 int) {
	for r := r0; r < r1; r++ {
		for w := 0; w < 2; w++ {
			for im := s.inMask[2*r+w]; im != 0; im &= im - 1 {
				e.input(s, m, r, r*s.radix+(w<<6|bits.TrailingZeros64(im)))
			}
		}
	}
}

// sampleVoq reads again the inputs whose heads changed and draws the
// requests of the inputs with 2 or more (cbReqs, as cbcm.sampleVoq).
func (e *cbEarly) sampleVoq(s *Sim) {
	dirty := e.takeDirty()
	for _, pi := range dirty {
		e.requests(s, int(pi))
	}
	e.doneDirty(dirty)
	e.drawInputs(&e.cbDeg, s.now)
}

// requests reads input pi's requests again (router.voq): the pairs of its
// arrived data and hotspot heads (the hotspot VC's at their destination's
// router only), in queue order.
func (e *cbEarly) requests(s *Sim, pi int) {
	e.drop(&e.cbDeg, pi)
	r := pi / s.radix
	cl := s.ports[pi].class
	reqs := e.reqs[pi*e.qs : (pi+1)*e.qs]
	n := 0
	for w, bm := range s.busyQueues(pi) {
		for vm := bm &^ s.vq.ctl[cl][w]; vm != 0; vm &= vm - 1 {
			q := w<<6 | bits.TrailingZeros64(vm)
			b := &s.bufs[pi*s.maxVC+q]
			if int64(b.hEntry) > s.now { // still on its way from its node
				e.dirtyIn(pi)
				continue
			}
			pk := &s.pk[b.hd]
			if s.vq.low[cl][w]&(1<<(q&63)) != 0 && int(pk.dstRouter) != r {
				continue
			}
			reqs[n] = int32(r*e.N) + pk.dst
			n++
		}
	}
	e.setReqs(&e.cbDeg, pi, n)
}

// input adds input pi's requests to its router's per-destination degrees
// for this cycle (the plain layout): the heads that have arrived on its
// data VCs (the hotspot VC's at their destination's router only), as the
// per-output sample.
func (e *cbEarly) input(s *Sim, m *cbcm, r, pi int) {
	cl := s.ports[pi].class
	nc := 0
	cb, hv := s.ctlBase[cl], s.ctlBase[cl]
	if s.iso.low {
		hv = s.isoBase[cl]
	}
	for vm := uint64(s.vcBusy[pi]) & (1<<cb - 1); vm != 0; vm &= vm - 1 {
		v := bits.TrailingZeros64(vm)
		b := &s.bufs[pi*s.maxVC+v]
		if int64(b.hEntry) > s.now {
			continue
		}
		pk := &s.pk[b.hd]
		if v >= int(hv) && int(pk.dstRouter) != r {
			continue
		}
		e.cand[nc] = int32(r*e.N) + pk.dst
		nc++
	}
	switch {
	case nc == 0:
	case m.p.Weighted:
		for _, p := range e.cand[:nc] {
			e.draw(int(p), e.q/int32(nc))
		}
	case nc == 1:
		e.draw(int(e.cand[0]), 1)
	default:
		e.draw(int(e.cand[e.rs[r].Intn(nc)]), 1)
	}
}

// eval is whether pair p is congested at cycle t (after its sample): the
// plain form's MA − (MA(max) − MA(min))/2 > threshold on the same sums.
func (e *cbEarly) eval(p int, t int64) bool {
	o := &e.out[p]
	e.account(p, o, t)
	ns, nb, q := float64(e.ns), float64(e.nb), float64(e.q)
	sMax, sMin := o.sMax, o.sMax-o.sDiff
	if e.q == 1 {
		return float64(o.sum)/ns-(float64(sMax)/nb-float64(sMin)/nb)/2 > e.limit
	}
	return float64(o.sum)/q/ns-(float64(sMax)/q/nb-float64(sMin)/q/nb)/2 > e.limit
}

// see runs pair (r, d)'s epoch test on a data packet router r forwards.
func (e *cbEarly) see(s *Sim, m *cbcm, r int, k int32) {
	pk := &s.pk[k]
	p, src := r*e.N+int(pk.dst), int(pk.src)
	marked := e.eval(p, s.now)
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
