package sim

import (
	"fmt"
	"math"
	"math/bits"

	"phitsim/engine/config"
	"phitsim/engine/traffic"
)

// cbcm is contention-based congestion management, Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks" §IV:
//
//   - Switch (§IV-B1): per output port, the contention degree measured at
//     VC allocation — each cycle each input counts one of its requesting
//     data VCs (data and hotspot VCs, injection inputs included, control
//     VCs excluded) drawn at random from the router's own stream (D_cr), or
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
//     class packets), and from then adds every sender, marked or not; a new
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
type cbcm struct {
	id   int
	p    config.CBCMParams
	mark uint16
	// switch: per output port (pi); rings by cycle mod samples, by interval
	// mod samples/boundInterval
	q               int32 // one request's weight (1; weighted: lcm 1…16)
	nb              int64 // bound samples
	dcr, mins, maxs []int32
	sum, sMin, sMax []int64
	cMin, cMax      []int32 // the open interval's
	last            []int64 // the last cycle pushed
	cong            []bool
	acc             []int32 // this cycle's degree
	touched         []int32
	cand            []int16 // one input's requests' outputs
	limit           int64   // congested ⇔ 2·nb·sum − samples·(sMax − sMin) > limit
	// destination
	words      int
	mode       []uint8
	list       []uint64 // per destination, words bits: L
	count      []int32  // |L|
	epoch      []int64
	dtSent     []int32
	quiet      []int64
	watch      []int32 // destinations observing or hotspots
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
	m.nb = int64(nb)
	m.q = 1
	if m.p.Weighted {
		m.q = 720720
	}
	m.dcr, m.mins, m.maxs = make([]int32, np*ns), make([]int32, np*nb), make([]int32, np*nb)
	m.sum, m.sMin, m.sMax = make([]int64, np), make([]int64, np), make([]int64, np)
	m.cMin, m.cMax, m.last = make([]int32, np), make([]int32, np), make([]int64, np)
	for i := range m.cMin {
		m.cMin[i], m.last[i] = math.MaxInt32, -1
	}
	m.cong, m.acc = make([]bool, np), make([]int32, np)
	m.cand = make([]int16, 128) // a port holds at most 127 queues (router.voq)
	m.limit = int64(math.Floor(m.p.Threshold * float64(2*m.nb*int64(ns)*int64(m.q))))
	N := s.N
	m.words = (N + 63) / 64
	m.mode, m.list, m.count = make([]uint8, N), make([]uint64, N*m.words), make([]int32, N)
	m.epoch, m.dtSent, m.quiet, m.watched = make([]int64, N), make([]int32, N), make([]int64, N), make([]bool, N)
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
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: func() { m.cycle(s) }})
	s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) { m.grant(s, r*s.radix+out, k) })
	s.hk.eject = append(s.hk.eject, func(k int32, t int64) { m.eject(s, k, t) })
	s.hk.sent = append(s.hk.sent, func(n, dst int, k int32) { m.sent(s, n, dst, k) })
	return nil
}

func (m *cbcm) control(*Sim, controlMsg) {}

// cycle samples the contention degree of this cycle, then runs the
// destinations' epochs and the sources' unthrottle epochs.
func (m *cbcm) cycle(s *Sim) {
	now := s.now
	for r := 0; r < s.R; r++ {
		if s.inMask[2*r]|s.inMask[2*r+1] == 0 {
			continue
		}
		base := r * s.radix
		for w := 0; w < 2; w++ {
			for im := s.inMask[2*r+w]; im != 0; im &= im - 1 {
				pi := base + (w<<6 | bits.TrailingZeros64(im))
				nc := 0
				if s.vq.on {
					nc = m.voqHeads(s, r, pi)
				} else {
					cb := s.ctlBase[s.ports[pi].class] // data and hotspot VCs lie below it
					for vm := uint64(s.vcBusy[pi]) & (1<<cb - 1); vm != 0; vm &= vm - 1 {
						b := &s.bufs[pi*s.maxVC+bits.TrailingZeros64(vm)]
						if int64(b.hEntry) > now {
							continue
						}
						o := int(b.hOut) // routed: the common case, no call
						if o < 0 {
							o = m.headPort(s, r, b)
						}
						if o >= 0 {
							m.cand[nc] = int16(o)
							nc++
						}
					}
				}
				switch {
				case nc == 0:
				case m.p.Weighted:
					for _, o := range m.cand[:nc] {
						m.add(base+int(o), m.q/int32(nc))
					}
				case nc == 1:
					m.add(base+int(m.cand[0]), 1)
				default:
					m.add(base+int(m.cand[s.rts[r].Intn(nc)]), 1)
				}
			}
		}
	}
	for _, po := range m.touched {
		m.push(int(po), now, m.acc[po])
		m.acc[po] = 0
	}
	m.touched = m.touched[:0]
	if len(m.watch) > 0 {
		m.destinations(s)
	}
	if len(m.act) > 0 {
		m.sources(s)
	}
}

// voqHeads puts in m.cand the outputs the ready heads of input pi of
// router r request under router.voq (voq.go), as the plain layout's loop
// does: a data queue's output is its index's (q = output·D + VC), the
// isolated class's queue (one per input) is routed as a plain VC's head,
// the control queues do not count. It returns how many.
func (m *cbcm) voqHeads(s *Sim, r, pi int) int {
	cl := s.ports[pi].class
	d := int(s.vq.d[cl])
	nd := s.vq.n * d
	nc := 0
	for w := 0; w < 2; w++ {
		for vm := s.vq.busy[2*pi+w] &^ s.vq.ctl[cl][w]; vm != 0; vm &= vm - 1 {
			q := w<<6 | bits.TrailingZeros64(vm)
			b := &s.bufs[pi*s.maxVC+q]
			if int64(b.hEntry) > s.now {
				continue
			}
			o := q / d
			if q >= nd {
				o = m.headPort(s, r, b)
			}
			if o >= 0 {
				m.cand[nc] = int16(o)
				nc++
			}
		}
	}
	return nc
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

func (m *cbcm) add(po int, w int32) {
	if m.acc[po] == 0 {
		m.touched = append(m.touched, int32(po))
	}
	m.acc[po] += w
}

// push records output po's degree v at cycle t (after zeros for the
// cycles since its last), and whether it is congested from there.
func (m *cbcm) push(po int, t int64, v int32) {
	ns, bsi := int64(m.p.Samples), int64(m.p.BoundInterval)
	from := m.last[po] + 1
	if t-from > ns+bsi { // all samples are zeros: start them so
		clear(m.dcr[po*int(ns) : (po+1)*int(ns)])
		clear(m.mins[po*int(m.nb) : (po+1)*int(m.nb)])
		clear(m.maxs[po*int(m.nb) : (po+1)*int(m.nb)])
		m.sum[po], m.sMin[po], m.sMax[po] = 0, 0, 0
		from = t - t%bsi
		m.cMin[po], m.cMax[po] = math.MaxInt32, 0
	}
	ring := m.dcr[po*int(ns) : (po+1)*int(ns)]
	sum, lo, hi := m.sum[po], m.cMin[po], m.cMax[po]
	for c := from; c <= t; c++ {
		x := int32(0)
		if c == t {
			x = v
		}
		d := &ring[c%ns]
		sum += int64(x - *d)
		*d = x
		lo, hi = min(lo, x), max(hi, x)
		if c%bsi == bsi-1 {
			j := po*int(m.nb) + int((c/bsi)%m.nb)
			m.sMin[po] += int64(lo - m.mins[j])
			m.sMax[po] += int64(hi - m.maxs[j])
			m.mins[j], m.maxs[j] = lo, hi
			lo, hi = math.MaxInt32, 0
		}
	}
	m.sum[po], m.cMin[po], m.cMax[po] = sum, lo, hi
	m.last[po] = t
	m.cong[po] = 2*m.nb*sum-ns*(m.sMax[po]-m.sMin[po]) > m.limit
}

// metric is output po's MA − (MA(max) − MA(min))/2, in requests (for tests
// and reports).
func (m *cbcm) metric(po int) float64 {
	ns := float64(m.p.Samples)
	return (float64(m.sum[po])/ns - (float64(m.sMax[po])-float64(m.sMin[po]))/float64(m.nb)/2) / float64(m.q)
}

// grant marks a packet crossing to a congested output.
func (m *cbcm) grant(s *Sim, po int, k int32) {
	if m.last[po] < s.now {
		m.push(po, s.now, 0)
	}
	if m.cong[po] {
		s.pk[k].mech |= m.mark
	}
}

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

func (m *cbcm) watchDest(d int) {
	if !m.watched[d] {
		m.watched[d] = true
		m.watch = append(m.watch, int32(d))
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
	if t >= s.W && t < s.W+s.M {
		m.delivered++
		if marked {
			m.mkd++
		}
		if m.mode[d] == cbHotspot && int(k) < len(m.throttledPackets) && m.throttledPackets[k] {
			m.hotFlits += int64(s.P)
		}
	}
	if int(k) < len(m.throttledPackets) {
		m.throttledPackets[k] = false
	}
	switch m.mode[d] {
	case cbIdle:
		if marked {
			m.clearList(d)
			m.addSrc(d, src)
			m.epoch[d], m.mode[d] = s.now, cbObserving
			m.watchDest(d)
		}
	case cbObserving:
		if marked {
			m.addSrc(d, src)
		} else { // an uncongested path to d: network congestion
			m.clearList(d)
			m.mode[d] = cbIdle
		}
	case cbHotspot:
		m.addSrc(d, src)
	}
}

// destinations closes the epochs due and sends the throttle rounds due.
func (m *cbcm) destinations(s *Sim) {
	kept := m.watch[:0]
	for _, d32 := range m.watch {
		d := int(d32)
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
		if m.mode[d] == cbIdle {
			m.watched[d] = false
			continue
		}
		kept = append(kept, d32)
	}
	m.watch = kept
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

// receive: a throttle (payload D_t ≥ 1) at its source, an unthrottle
// (payload 0) at its hotspot.
func (m *cbcm) receive(s *Sim, p ctlPacket) {
	if p.data == 0 {
		d, src := int(p.dst), int(p.src)
		if !m.has(d, src) {
			return
		}
		m.list[d*m.words+src>>6] &^= 1 << (src & 63)
		m.count[d]--
		if m.count[d] == 0 {
			m.mode[d], m.dtSent[d] = cbIdle, 0
		} else if s.now >= m.quiet[d] {
			m.round(s, d)
		}
		return
	}
	n, d := int(p.dst), int(p.src)
	f := n*s.N + d
	if !m.thr[f] {
		m.thr[f], m.since[f] = true, s.now
		m.epStart[f], m.epSent[f], m.epQ0[f] = s.now, 0, m.backlog(s, n, d)
		m.act = append(m.act, int32(f))
		if !m.ever[f] {
			m.ever[f] = true
			m.flowsThrottled++
		}
		if !m.p.Shared {
			s.setIsoFlow(n, d, true)
		}
	}
	m.dt[f], m.tok[f], m.tokAt[f] = int32(p.data), 0, s.now
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
	if !m.p.Shared {
		for int(k) >= len(m.throttledPackets) {
			m.throttledPackets = append(m.throttledPackets, make([]bool, len(s.pk)-len(m.throttledPackets)+1)...)
		}
		m.throttledPackets[k] = true
	}
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
	kept := m.act[:0]
	for _, f32 := range m.act {
		f := int(f32)
		if s.now-m.epStart[f] < m.p.SourceEpoch {
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
			s.sendPriority(m.id, n, d, 0)
			m.unthrottle++
			continue
		}
		m.epStart[f], m.epSent[f], m.epQ0[f] = s.now, 0, q
		kept = append(kept, f32)
	}
	m.act = kept
}

// report: throttle and unthrottle packets, hotspots declared, flows ever
// throttled, the mean share of time a flow (one that sent a packet) spent
// throttled (Kim et al. Fig. 8a's false-detection measure), the window's
// marked share of data packets and the flits per cycle of throttled flows'
// packets consumed at declared hotspots (the hotspot VC's ejection rate;
// all hotspots together).
func (m *cbcm) report(s *Sim) (string, map[string]float64) {
	share := throttledShare(s.now, m.throttledCycles, m.act, m.since, m.busy)
	return "cbcm", map[string]float64{"throttles": float64(m.throttles), "unthrottles": float64(m.unthrottle),
		"hotspots": float64(m.hotspots), "flowsThrottled": float64(m.flowsThrottled), "throttledShare": share,
		"markedShare": float64(m.mkd) / float64(m.delivered), "hotspotEjection": float64(m.hotFlits) / float64(s.M)}
}
