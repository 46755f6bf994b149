package sim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"phitsim/engine/config"
	"phitsim/engine/rng"
	"phitsim/engine/topology"
	"phitsim/engine/traffic"
)

// cbcm is contention-based congestion management, Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks" §IV:
//
//   - Switch (§IV-B1): per output port, the contention degree measured at
//     VC allocation — each cycle each input counts one of its requesting
//     data VCs (injection inputs included, control VCs excluded; the
//     dedicated hotspot VC only at ejection ports: its traffic is
//     identified already and, at strictly lowest priority, delays no
//     other, so counted at a link its waiting heads marked the packets of
//     every flow sharing that link and made their destinations hotspots —
//     half the background's packets under UR and a 4-to-1 hotspot; at its
//     hotspot's ejection port it marks a new sender's packets, which
//     contend with it there) drawn at random from the router's own stream
//     (D_cr), or
//     each of its v requests 1/v (D_cw). A request is a head that has
//     arrived and been routed and has not crossed: in this packet-level
//     model a head waiting for credits or for the crossbar (a
//     fallback; a head is routed at its first allocation attempt, so one
//     arriving this cycle counts from the next). The metric
//     MA(D) − (MA(max) − MA(min))/2 over cbcmSamples cycles, with min and
//     max per cbcmBoundInterval, marks (a sticky packet bit) every packet
//     granted to an output while it exceeds cbcmThreshold. The sampling is
//     a cycle hook over the routers with packets (the routers the step
//     allocates); an output without requests is not touched: its FIFOs
//     catch up with zeros when next read or written.
//   - Destination (§IV-B2): IDLE → OBSERVING on a marked packet; an
//     unmarked packet empties the source list L while observing; after
//     cbcmDestEpoch cycles of marked packets only, with |L| ≥ cbcmMinDt, a
//     HOTSPOT that throttles every source in L with D_t = |L| (priority
//     class packets), and from then adds every sender of a marked packet
//     or of a throttled flow's (marked or not; see eject); a new
//     round when |L| changed, at most D_t packets per D_t/ε cycles; an
//     unthrottle removes its source (|L| = 0: IDLE).
//   - Source (§IV-B3, Algorithm 1): per flow a token count, +rate/D_t per
//     cycle, no cap, reset to 0 by every throttle packet; a throttled flow's
//     next packet is held (flow holds, messages.go) until its tokens reach a
//     packet's flits, and goes on the hotspot VC (the isolated class at
//     strictly lowest priority, MIN) unless cbcmHotspotVC=shared.
//   - Unthrottle (§IV-B4): per source epoch, a throttled flow that generated
//     (sent, plus its queue's growth) less than 1/D_t flits per cycle is
//     released and tells its destination.
//   - Early detection (§VI-A, congestion.cbcmEarly; cbcm_early.go): every
//     router also runs the detector per destination node and throttles.
type cbcm struct {
	id   int
	p    config.CBCMParams
	mark uint16
	// switch, per output port (pi): its degree and window (cbcm_deg.go),
	// accounted at a change of its degree or a grant
	cbDeg
	q     int32   // one request's weight (1; weighted: lcm 1…16)
	cand  []int16 // one input's requests' outputs (the plain layout)
	limit int64   // congested ⇔ 2·nb·sum − samples·Σ(max − min) > limit
	// per input (router.voq): its requests, entries of output ports (cbcm_deg.go)
	cbReqs
	pend []cbPend // data queues' heads still on their injection link (up to N)
	// destination
	words      int
	mode       []uint8
	list       []uint64 // per destination, words bits: L
	count      []int32  // |L|
	epoch      []int64
	dtSent     []int32
	quiet      []int64
	watch      []int32 // destinations observing or hotspots (or idle until the next pass)
	watchGen   []int32 // each entry's generation: stale unless its destination's (wgen)
	wgen       []int32
	idleAt     []int64 // the cycle hooks run when the destination went idle
	hooks      int64
	destDue    int64 // the next cycle the destinations' pass may act
	srcDue     int64 // the next cycle a throttled flow's source epoch ends
	watched    []bool
	hotspots   int64 // HOTSPOT declarations
	throttles  int64 // throttle packets sent
	unthrottle int64
	// source, per flow src·N + dst
	thr              []bool
	dt               []int32
	tok              []float64
	tokAt            []int64
	epStart, since   []int64
	epSent, epQ0     []int32
	act              []int32 // throttled flows
	busy, ever       []bool
	backlogged       []bool // HOTSPOT's sender → hotspot flows (inject.go: generate while their queue is empty)
	flowsThrottled   int64
	throttledCycles  int64
	delivered, mkd   int64 // window data packets, marked ones
	hotFlits         int64 // window flits of throttled flows' packets consumed at hotspots
	throttledPackets []bool
	// early detection (§VI-A, cbcm_early.go); who throttled a flow: its
	// destination (per flow), the routers (flow, router pairs: few, and
	// a flow may be throttled by more than one router on its path)
	early    *cbEarly
	byDest   []bool
	byRouter [][2]int32
}

const (
	cbIdle uint8 = iota
	cbObserving
	cbHotspot
)

func init() { register("cbcm", func() mechanism { return &cbcm{} }) }

func (m *cbcm) attach(s *Sim, id int) error {
	m.id, m.p = id, s.cfg.Congestion.CBCM()
	if err := s.needFlowHolds(); err != nil {
		return fmt.Errorf("congestion.scheme=cbcm: %v", err)
	}
	if err := s.needPriorityPackets(id); err != nil {
		return err
	}
	if !m.p.Shared && !s.iso.on {
		return fmt.Errorf("mechanisms: cbcm needs the isolated class for its hotspot VC")
	}
	sh, err := s.claimPacketBits(1)
	if err != nil {
		return err
	}
	m.mark = 1 << sh
	np := len(s.ports)
	ns, nb := m.p.Samples, m.p.Samples/m.p.BoundInterval
	m.init(np, ns, m.p.BoundInterval, false, true)
	m.q = 1
	if m.p.Weighted {
		m.q = 720720
	}
	m.cand = make([]int16, 1<<qBits) // a port holds at most 1<<qBits − 1 queues (router.voq, router.queueing)
	m.limit = int64(math.Floor(m.p.Threshold * float64(2*int64(nb)*int64(ns)*int64(m.q))))
	// the highest degree that held through a whole window keeps its sum
	// at the limit or below: 2·nb·ns·hq ≤ limit
	m.hq = int32(max(math.MinInt32+1, min(math.MaxInt32, m.limit/(2*int64(nb)*int64(ns)))))
	if s.vq.on {
		rs := make([]*rng.Stream, s.R) // each router's own
		for r := range rs {
			rs[r] = &s.rts[r]
		}
		m.initReqs(np, slices.Max(s.nq), s.radix, m.q, rs)
		m.pend = make([]cbPend, 0, s.N)
		s.hk.arrive = append(s.hk.arrive, m.arriveHook(s))
	}
	N := s.N
	m.words = (N + 63) / 64
	m.mode, m.list, m.count = make([]uint8, N), make([]uint64, N*m.words), make([]int32, N)
	m.epoch, m.dtSent, m.quiet, m.watched = make([]int64, N), make([]int32, N), make([]int64, N), make([]bool, N)
	m.wgen, m.idleAt = make([]int32, N), make([]int64, N)
	nf := N * N
	m.thr, m.dt, m.tok, m.tokAt = make([]bool, nf), make([]int32, nf), make([]float64, nf), make([]int64, nf)
	m.epStart, m.since, m.epSent, m.epQ0 = make([]int64, nf), make([]int64, nf), make([]int32, nf), make([]int32, nf)
	m.busy, m.ever, m.backlogged = make([]bool, nf), make([]bool, nf), make([]bool, nf)
	for _, pt := range [...]*traffic.Pattern{s.pat, s.pat2} {
		if pt == nil {
			continue
		}
		if hot, senders := pt.Hotspot(); senders != nil {
			for _, n := range senders {
				m.backlogged[int(n)*N+hot] = true
			}
		}
	}
	if m.p.Early {
		m.early = newCbEarly(s, m)
		m.byDest = make([]bool, nf)
		s.cc.icpt[id] = m // a source's unthrottle for a router's hotspot is read there
	}
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: func() { m.cycle(s) }, on: cbcmCycle})
	s.hk.grant = append(s.hk.grant, m.grantHook(s))
	s.hk.eject = append(s.hk.eject, func(k int32, t int64) { m.eject(s, k, t) })
	s.hk.sent = append(s.hk.sent, func(n, dst int, k int32) { m.sent(s, n, dst, k) })
	return nil
}

// arriveHook is the arrival hook (router.voq) of m in s: a new head (its
// queue was empty) changes its input's requests. A data queue's head that
// has arrived adds its request to the input's list (insReq), unless the
// list is to be read again anyway (dirty) or the input has an extra queue
// busy (an extra queue's head is routed while it waits, its request read
// again at every event); every other head makes the list be read again
// (requests).
// Not inlined: the calls in the closure it returns are inlined only so.
//
//go:noinline
func (m *cbcm) arriveHook(s *Sim) func(pi, q int, k int32) {
	return func(pi, q int, k int32) {
		b := &s.bufs[pi*s.maxVC+q]
		if b.hd != k || m.isDirty[pi] { // not a new head, or read again anyway
			return
		}
		d := int(s.vq.d[s.ports[pi].class])
		if q >= s.vq.n*d || m.extra[pi] {
			m.dirtyIn(pi)
			return
		}
		if int64(b.hEntry) > s.now { // on its injection link: joins at the sample of its arrival
			if len(m.pend) == cap(m.pend) { // none kept (a partition's copy), or N already: read again
				m.dirtyIn(pi)
				return
			}
			m.pend = append(m.pend, cbPend{due: int64(b.hEntry), pi: int32(pi), e: int32(pi - pi%s.radix + q/d)})
			return
		}
		m.insReq(&m.cbDeg, pi, int32(pi-pi%s.radix+q/d))
	}
}

// cbPend is a data queue's head on its injection link: its request for
// entry e joins input pi's list at the sample of cycle due (arriveHook).
type cbPend struct {
	due   int64
	pi, e int32
}

// joinArrived puts the requests of the heads that reached their input by
// now into their lists (arriveHook), unless the input is to be read again.
func (m *cbcm) joinArrived(now int64) {
	kept := m.pend[:0]
	for _, h := range m.pend {
		switch pi := int(h.pi); {
		case h.due > now:
			kept = append(kept, h)
		case m.isDirty[pi]: // read again below, the head with it
		case m.extra[pi]:
			m.dirtyIn(pi)
		default:
			m.insReq(&m.cbDeg, pi, h.e)
		}
	}
	m.pend = kept
}

// grantHook is the grant hook of m in s.
// Not inlined: the calls in the closure it returns are inlined only so.
//
//go:noinline
func (m *cbcm) grantHook(s *Sim) func(r, in, out, vc, outVC int, k int32) {
	if s.vq.on && m.early == nil { // the general hook below with its tests of these done here
		return func(r, in, out, vc, outVC int, k int32) {
			pi := r*s.radix + in
			b, d := &s.bufs[pi*s.maxVC+vc], int(s.vq.d[s.ports[pi].class])
			if (b.len == 0 || int64(b.hEntry) > s.now || vc >= s.radix*d) && !m.isDirty[pi] &&
				(b.len != 0 || m.extra[pi] || vc >= s.vq.n*d || !m.delReq(&m.cbDeg, pi, int32(pi-in+vc/d))) {
				m.dirtyIn(pi)
			}
			po := r*s.radix + out
			if o := &m.out[po]; o.cur <= m.hq && int64(o.hiAt) <= s.now-m.ns {
				o.cong = false
			} else if m.read(po, o, s.now) {
				s.pk[k].mech |= m.mark
			}
		}
	}
	return func(r, in, out, vc, outVC int, k int32) {
		// a data queue's next head asks for the same output: only an
		// emptied queue, an extra queue's next head (its own route) or a
		// head still on its injection link changes the input's requests
		if pi := r*s.radix + in; s.vq.on {
			// the request of an emptied data queue leaves the input's
			// list (delReq), unless the list is to be read again anyway
			// (dirty) or an extra queue is busy; else the list is read
			// again (requests)
			b, d := &s.bufs[pi*s.maxVC+vc], int(s.vq.d[s.ports[pi].class])
			if (b.len == 0 || int64(b.hEntry) > s.now || vc >= s.radix*d) && !m.isDirty[pi] &&
				(b.len != 0 || m.extra[pi] || vc >= s.vq.n*d || !m.delReq(&m.cbDeg, pi, int32(pi-in+vc/d))) {
				m.dirtyIn(pi)
			}
			if m.early != nil { // the next head goes to another destination
				m.early.dirtyIn(pi)
			}
		}
		// a packet crossing to a congested output is marked (eval, its
		// quiet-window test written out: most grants answered without a call)
		po := r*s.radix + out
		if o := &m.out[po]; o.cur <= m.hq && int64(o.hiAt) <= s.now-m.ns {
			o.cong = false
		} else if m.read(po, o, s.now) {
			s.pk[k].mech |= m.mark
		}
		if m.early != nil && !s.isControl(k) {
			m.early.see(s, m, r, k)
		}
	}
}

func (m *cbcm) control(*Sim, controlMsg) {}

// cycle samples the contention degree of this cycle, then runs the
// destinations' epochs and the sources' unthrottle epochs when one is due.
func (m *cbcm) cycle(s *Sim) {
	now := s.now
	m.hooks++
	m.begin(now)
	if s.vq.on {
		m.sampleVoq(s)
	} else {
		m.samplePlain(s)
	}
	m.settle(now, !s.vq.on)
	if m.early != nil {
		m.early.sample(s, m)
		if len(m.early.watch) > 0 {
			m.early.pass(s, m)
		}
	}
	if len(m.watch) > 0 && now >= m.destDue {
		m.destinations(s)
	}
	if len(m.act) > 0 && now >= m.srcDue {
		m.sources(s)
	}
}

// samplePlain counts every input's requests (the plain layout: a head's
// output is known only once routed, so each cycle reads every head).
func (m *cbcm) samplePlain(s *Sim) {
	m.samplePlainIn(s, s.r0, s.r1)
	for i := 0; i < len(s.rMore); i += 2 { // a partition's further ranges (parallel.go)
		m.samplePlainIn(s, s.rMore[i], s.rMore[i+1])
	}
}

// samplePlainIn is samplePlain over routers [r0, r1).
func (m *cbcm) samplePlainIn(s *Sim, r0, r1 int) {
	now := s.now
	for r := r0; r < r1; r++ {
		if s.inMask[2*r]|s.inMask[2*r+1] == 0 {
			continue
		}
		base := r * s.radix
		for w := 0; w < 2; w++ {
			for im := s.inMask[2*r+w]; im != 0; im &= im - 1 {
				pi := base + (w<<6 | bits.TrailingZeros64(im))
				nc := 0
				cl := s.ports[pi].class
				cb, hv := s.ctlBase[cl], s.ctlBase[cl] // data and hotspot VCs lie below cb, the hotspot VC from hv
				if s.iso.low {
					hv = s.isoBase[cl]
				}
				for vm := uint64(s.vcBusy[pi]) & (1<<cb - 1); vm != 0; vm &= vm - 1 {
					v := bits.TrailingZeros64(vm)
					b := &s.bufs[pi*s.maxVC+v]
					if int64(b.hEntry) > now {
						continue
					}
					if o := m.headPort(s, r, b); o >= 0 && (v < int(hv) || s.pclass[base+o] == topology.Injection) {
						m.cand[nc] = int16(o)
						nc++
					}
				}
				switch {
				case nc == 0:
				case m.p.Weighted:
					for _, o := range m.cand[:nc] {
						m.draw(base+int(o), m.q/int32(nc))
					}
				case nc == 1:
					m.draw(base+int(m.cand[0]), 1)
				default:
					m.draw(base+int(m.cand[s.rts[r].Intn(nc)]), 1)
				}
			}
		}
	}
}

// sampleVoq: under router.voq an input's requests change only at an
// arrival, a grant or when a head from its node arrives; the events that
// the lists do not follow (the arrival and grant hooks) leave their inputs to
// be read again here (requests); an input with one request (or every
// request, weighted) adds to its outputs' static degree, and one of 2 or
// more draws its request each cycle from its router's stream, in the order
// of the plain scan (ascending input), so the stream is the same.
func (m *cbcm) sampleVoq(s *Sim) {
	if len(m.pend) > 0 {
		m.joinArrived(s.now)
	}
	dirty := m.takeDirty()
	for _, pi := range dirty {
		m.requests(s, int(pi))
	}
	m.doneDirty(dirty)
	m.drawInputs(&m.cbDeg, s.now)
}

// requests reads input pi's requests again (router.voq): its data and
// extra non-control queues whose head has arrived (the hotspot VC's for an
// ejection port only), in queue order, a data queue's output its index's
// (q = output·D + VC), an extra queue's its head's (headPort).
func (m *cbcm) requests(s *Sim, pi int) {
	m.drop(&m.cbDeg, pi)
	r := pi / s.radix
	cl := s.ports[pi].class
	d := int(s.vq.d[cl])
	nd := s.vq.n * d
	reqs := m.reqs[pi*m.qs : (pi+1)*m.qs]
	n := 0
	m.extra[pi] = false
	for w, bm := range s.busyQueues(pi) {
		for vm := bm &^ s.vq.ctl[cl][w]; vm != 0; vm &= vm - 1 {
			q := w<<6 | bits.TrailingZeros64(vm)
			b := &s.bufs[pi*s.maxVC+q]
			if int64(b.hEntry) > s.now { // still on its way from its node
				m.dirtyIn(pi)
				continue
			}
			o := q / d
			if q >= nd {
				m.extra[pi] = true
				if o = m.headPort(s, r, b); o < 0 {
					continue
				}
				if s.vq.low[cl][w]&(1<<(q&63)) != 0 && s.pclass[r*s.radix+o] != topology.Injection {
					continue // the hotspot VC counts at ejection ports only
				}
			}
			reqs[n] = int32(r*s.radix + o)
			n++
		}
	}
	m.setReqs(&m.cbDeg, pi, n)
}

// headPort is the output a head that has arrived at router r requests: its
// route once computed; before (the allocator routes a head at its input's
// first attempt, so heads behind a crossing packet or a round-robin
// winner wait unrouted) the port its route will take where that is fixed —
// ejection at its destination router, towards its flattened-butterfly
// Valiant intermediate or destination in dimension order, a Dragonfly's
// minimal port — and the minimal port for a UGAL decision still to be
// made at its source router (the one estimate; −1: none, not counted).
func (m *cbcm) headPort(s *Sim, r int, b *buffer) int {
	if b.hOut >= 0 {
		return int(b.hOut)
	}
	pk := &s.pk[b.hd]
	if int(pk.dstRouter) == r {
		return int(s.nodeAt[pk.dst].pi) - r*s.radix
	}
	target := int(pk.dstRouter)
	if pk.inter >= 0 && pk.flags&fInterDone == 0 && int(pk.inter) != r {
		target = int(pk.inter)
	}
	switch {
	case s.ug.fb != nil:
		return s.ug.fb.MinimalPort(r, target)
	case s.df != nil && pk.inter < 0:
		return s.df.MinimalPort(r, target)
	}
	return -1
}

// eval is whether output po is congested at cycle t (after its sample).
func (m *cbcm) eval(po int, t int64) bool {
	o := &m.out[po]
	// a degree at or below hq through the window (its last high cycle
	// before it) keeps the window's sum at or below the limit: not
	// congested, read no further (o.sum is not kept; metric reads anew)
	if o.cur <= m.hq && int64(o.hiAt) <= t-m.ns {
		o.cong = false
		return false
	}
	return m.read(po, o, t)
}

// read is eval past its quiet-window test.
func (m *cbcm) read(po int, o *cbOut, t int64) bool {
	// Σ(max − min) ≥ 0: with the window's sum alone at or below the limit
	// the output is not congested, and its bound intervals can wait
	o.sum = m.windowSum(po, o, t)
	if 2*int64(m.nb)*o.sum <= m.limit {
		o.cong = false
		return false
	}
	o.cong = 2*int64(m.nb)*o.sum-m.ns*m.boundDiff(po, o, t) > m.limit
	return o.cong
}

// metric is output po's MA − (MA(max) − MA(min))/2 through cycle t, in
// requests (for tests and reports).
func (m *cbcm) metric(po int, t int64) float64 {
	o := &m.out[po]
	m.account(po, o, t)
	return (float64(o.sum)/float64(m.ns) - float64(o.sDiff)/float64(m.nb)/2) / float64(m.q)
}

// grant marks a packet crossing to a congested output.
func (m *cbcm) has(d, src int) bool {
	return m.list[d*m.words+src>>6]&(1<<(src&63)) != 0
}

func (m *cbcm) addSrc(d, src int) {
	if w := &m.list[d*m.words+src>>6]; *w&(1<<(src&63)) == 0 {
		*w |= 1 << (src & 63)
		m.count[d]++
	}
}

func (m *cbcm) clearList(d int) {
	clear(m.list[d*m.words : (d+1)*m.words])
	m.count[d] = 0
}

// watchDest puts d in the watch list. A destination that went idle stays
// in the list until the next pass that acts; if it observes again after a
// cycle hook (when the pass ran every cycle, it left the list then), its
// entry moves to the end, as it would have been put back.
func (m *cbcm) watchDest(d int) {
	if m.watched[d] && m.idleAt[d] < m.hooks {
		m.wgen[d]++ // its entry in place is stale
		m.watched[d] = false
	}
	if !m.watched[d] {
		m.watched[d] = true
		m.watch = append(m.watch, int32(d))
		m.watchGen = append(m.watchGen, m.wgen[d])
	}
}

// eject runs the destination's state machine on a consumed data packet.
func (m *cbcm) eject(s *Sim, k int32, t int64) {
	if s.isControl(k) {
		return
	}
	pk := &s.pk[k]
	d, src := int(pk.dst), int(pk.src)
	marked := pk.mech&m.mark != 0
	throttled := int(k) < len(m.throttledPackets) && m.throttledPackets[k]
	if t >= s.W && t < s.W+s.M {
		m.delivered++
		if marked {
			m.mkd++
		}
		if m.mode[d] == cbHotspot && throttled {
			m.hotFlits += int64(s.P)
		}
	}
	if throttled {
		m.throttledPackets[k] = false
	}
	switch m.mode[d] {
	case cbIdle:
		if marked {
			m.clearList(d)
			m.addSrc(d, src)
			m.epoch[d], m.mode[d] = s.now, cbObserving
			m.watchDest(d)
			m.wake(s.now + m.p.DestEpoch)
		}
	case cbObserving:
		if marked {
			m.addSrc(d, src)
		} else { // an uncongested path to d: network congestion
			m.clearList(d)
			m.mode[d], m.idleAt[d] = cbIdle, m.hooks
		}
	case cbHotspot:
		// every sender's packet, marked or not (§IV-B2): a throttled
		// flow's arrive unmarked once its throttling removed the
		// contention — but not an unthrottled flow's unmarked packet,
		// which met no contention here: with it, the list of a victim of
		// the tree declared before the throttling took effect (a node
		// whose every path shared a link with the hotspot's flows) never
		// emptied, every background sender joining it again after its
		// unthrottle (Kim et al. §IV-B4), and its senders stayed throttled
		// (Fig. 8b: CBCM near Ideal under UR and a hotspot). A new
		// contributor still joins: its packets contend with the hotspot
		// VC at the ejection port and are marked.
		if !marked && !throttled {
			break
		}
		m.addSrc(d, src)
		if m.count[d] != m.dtSent[d] {
			m.wake(m.quiet[d])
		}
	}
}

// destinations closes the epochs due and sends the throttle rounds due.
func (m *cbcm) destinations(s *Sim) {
	m.destDue = math.MaxInt64
	kept, keptGen := m.watch[:0], m.watchGen[:0]
	for i, d32 := range m.watch {
		d := int(d32)
		if m.watchGen[i] != m.wgen[d] {
			continue // moved to the end
		}
		switch m.mode[d] {
		case cbObserving:
			if s.now-m.epoch[d] >= m.p.DestEpoch {
				if int(m.count[d]) >= m.p.MinDt {
					m.mode[d] = cbHotspot
					m.hotspots++
					m.round(s, d)
				} else {
					m.clearList(d)
					m.mode[d] = cbIdle
				}
			}
		case cbHotspot:
			if s.now >= m.quiet[d] && m.count[d] != m.dtSent[d] {
				m.round(s, d)
			}
		}
		switch {
		case m.mode[d] == cbIdle:
			m.watched[d] = false
			continue
		case m.mode[d] == cbObserving:
			m.wake(m.epoch[d] + m.p.DestEpoch)
		case m.count[d] != m.dtSent[d]:
			m.wake(m.quiet[d])
		}
		kept, keptGen = append(kept, d32), append(keptGen, m.wgen[d])
	}
	m.watch, m.watchGen = kept, keptGen
}

// wake makes the destinations' pass run at cycle t (or earlier).
func (m *cbcm) wake(t int64) {
	m.destDue = min(m.destDue, t)
}

// round sends throttle(D_t = |L|) to every source in d's list, then keeps
// quiet for D_t/ε cycles (§IV-B2's bandwidth guard).
func (m *cbcm) round(s *Sim, d int) {
	dt := m.count[d]
	for w := range m.words {
		for b := m.list[d*m.words+w]; b != 0; b &= b - 1 {
			s.sendPriority(m.id, d, w<<6|bits.TrailingZeros64(b), int64(dt))
			m.throttles++
		}
	}
	m.dtSent[d] = dt
	m.quiet[d] = s.now + int64(math.Ceil(float64(dt)/m.p.Epsilon))
}

// receive: a throttle (payload D_t ≥ 1; from a router, D_t | (d+1) << 32)
// at its source, an unthrottle (payload 0) at its hotspot; an unthrottle
// for a router (payload < 0) was read by that router on its way.
func (m *cbcm) receive(s *Sim, p ctlPacket) {
	if p.data < 0 { // an unthrottle for a router's hotspot, read by the router (intercept)
		return
	}
	if p.data == 0 {
		d, src := int(p.dst), int(p.src)
		if !m.has(d, src) {
			return
		}
		m.list[d*m.words+src>>6] &^= 1 << (src & 63)
		m.count[d]--
		if m.count[d] == 0 {
			m.mode[d], m.dtSent[d], m.idleAt[d] = cbIdle, 0, m.hooks
		} else if s.now >= m.quiet[d] {
			m.round(s, d)
		} else {
			m.wake(m.quiet[d])
		}
		return
	}
	n, d, dt := int(p.dst), int(p.src), p.data
	if dt>>32 != 0 { // from a router (early detection): the hotspot in the payload
		d, dt = int(dt>>32)-1, dt&(1<<32-1)
	}
	f := n*s.N + d
	if m.early != nil {
		if p.data>>32 != 0 {
			if fr := [2]int32{int32(f), s.nodeAt[p.src].pi / int32(s.radix)}; !slices.Contains(m.byRouter, fr) {
				m.byRouter = append(m.byRouter, fr)
			}
		} else {
			m.byDest[f] = true
		}
	}
	if !m.thr[f] {
		m.thr[f], m.since[f] = true, s.now
		m.epStart[f], m.epSent[f], m.epQ0[f] = s.now, 0, m.backlog(s, n, d)
		m.act = append(m.act, int32(f))
		m.srcDue = min(m.srcDue, s.now+m.p.SourceEpoch)
		if !m.ever[f] {
			m.ever[f] = true
			m.flowsThrottled++
		}
		if !m.p.Shared {
			s.setIsoFlow(n, d, true)
		}
	}
	m.dt[f], m.tok[f], m.tokAt[f] = int32(dt), 0, s.now
	m.hold(s, n, d, f)
}

// tokens is flow f's token count now.
func (m *cbcm) tokens(s *Sim, f int) float64 {
	return m.tok[f] + float64(s.now-m.tokAt[f])*m.p.RateFactor/float64(m.dt[f])
}

// hold holds throttled flow f = n → d until its tokens reach a packet.
func (m *cbcm) hold(s *Sim, n, d, f int) {
	need := float64(s.P) - m.tokens(s, f)
	if need <= 0 {
		s.holdFlow(n, d, s.now)
		return
	}
	s.holdFlow(n, d, s.now+int64(math.Ceil(need*float64(m.dt[f])/m.p.RateFactor)))
}

// sent spends a throttled flow's tokens on its packet.
func (m *cbcm) sent(s *Sim, n, dst int, k int32) {
	f := n*s.N + dst
	m.busy[f] = true
	if !m.thr[f] {
		return
	}
	m.tok[f], m.tokAt[f] = m.tokens(s, f)-float64(s.P), s.now
	m.epSent[f]++
	m.hold(s, n, dst, f)
	// the hotspot VC (shared: a header bit) tells the destination the
	// packet is a throttled flow's
	for int(k) >= len(m.throttledPackets) {
		m.throttledPackets = append(m.throttledPackets, make([]bool, len(s.pk)-len(m.throttledPackets)+1)...)
	}
	m.throttledPackets[k] = true
}

// backlog is the packets node n has queued for d.
func (m *cbcm) backlog(s *Sim, n, d int) int32 {
	for _, a := range s.sqAct[n] {
		if int(a.dst) == d {
			return int32(len(s.sq[a.q])) - s.sqHead[a.q]
		}
	}
	return 0
}

// sources runs the unthrottle test of the flows whose source epoch ended:
// generated (sent + the queue's growth) below 1/D_t flits per cycle
// releases the flow, unless its generation was blocked by a full queue
// (§IV-B4). The queues are unbounded; a HOTSPOT sender, though, is a
// source that always has a message waiting, whose generator is blocked
// while its queue holds one (inject.go, backlogged): its rate is the
// throttled rate, not its demand, so while it has packets it stays
// throttled, as the paper's 100% sender with an infinite queue does.
func (m *cbcm) sources(s *Sim) {
	m.srcDue = math.MaxInt64
	kept := m.act[:0]
	for _, f32 := range m.act {
		f := int(f32)
		if s.now-m.epStart[f] < m.p.SourceEpoch {
			m.srcDue = min(m.srcDue, m.epStart[f]+m.p.SourceEpoch)
			kept = append(kept, f32)
			continue
		}
		n, d := f/s.N, f%s.N
		q := m.backlog(s, n, d)
		gen := float64(m.epSent[f]+q-m.epQ0[f]) * float64(s.P)
		blocked := m.backlogged[f] && (m.epSent[f] > 0 || q > 0)
		if !blocked && gen/float64(s.now-m.epStart[f]) < 1/float64(m.dt[f]) {
			m.thr[f] = false
			m.throttledCycles += s.now - m.since[f]
			if !m.p.Shared {
				s.setIsoFlow(n, d, false)
			}
			s.holdFlow(n, d, s.now)
			m.release(s, n, d, f)
			m.unthrottle++
			continue
		}
		m.epStart[f], m.epSent[f], m.epQ0[f] = s.now, 0, q
		m.srcDue = min(m.srcDue, s.now+m.p.SourceEpoch)
		kept = append(kept, f32)
	}
	m.act = kept
}

// release tells whoever throttled flow f = n → d that it is unthrottled:
// its destination (payload 0), and with early detection every router that
// throttled it (to that router's first node, payload −(d+1), read by the
// router on arrival; for n itself, at once).
func (m *cbcm) release(s *Sim, n, d, f int) {
	if m.early == nil {
		s.sendPriority(m.id, n, d, 0)
		return
	}
	if m.byDest[f] {
		s.sendPriority(m.id, n, d, 0)
		m.byDest[f] = false
	}
	kept := m.byRouter[:0]
	for _, fr := range m.byRouter {
		if int(fr[0]) != f {
			kept = append(kept, fr)
			continue
		}
		if r := int(fr[1]); int(s.cc.src[r]) == n {
			m.early.unthrottle(s, m, r, d, n)
		} else {
			s.sendPriority(m.id, n, int(s.cc.src[r]), -int64(d+1))
		}
	}
	m.byRouter = kept
}

// report: throttle and unthrottle packets, hotspots declared, flows ever
// throttled, the mean share of time a flow (one that sent a packet) spent
// throttled (Kim et al. Fig. 8a's false-detection measure), the window's
// marked share of data packets and the flits per cycle of throttled flows'
// packets consumed at declared hotspots (the hotspot VC's ejection rate;
// all hotspots together).
func (m *cbcm) report(s *Sim) (string, map[string]float64) {
	share := throttledShare(s.now, m.throttledCycles, m.act, m.since, m.busy)
	r := map[string]float64{"throttles": float64(m.throttles), "unthrottles": float64(m.unthrottle),
		"hotspots": float64(m.hotspots), "flowsThrottled": float64(m.flowsThrottled), "throttledShare": share,
		"markedShare": shareOf(m.mkd, m.delivered), "hotspotEjection": float64(m.hotFlits) / float64(s.M)}
	if m.early != nil { // routers' declarations and throttle packets (§VI-A)
		r["earlyHotspots"], r["earlyThrottles"] = float64(m.early.hotspots), float64(m.early.thrSent)
	}
	return "cbcm", r
}
