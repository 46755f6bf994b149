package sim

import (
	"math/bits"

	"phitsim/engine/topology"
)

// stepRouter runs one cycle of router r: take arrived credits, allocate the
// crossbar (input-first separable allocator, several iterations), then move
// output FIFO heads onto their links.
func (s *Sim) stepRouter(r int) {
	base := r * s.radix
	now := s.now
	for it := 0; it < s.iters; it++ {
		nouts := 0
		for w := 0; w < 2; w++ {
			for m := s.inMask[2*r+w]; m != 0; m &= m - 1 {
				port := w<<6 | bits.TrailingZeros64(m)
				pi := base + port
				if int64(s.ports[pi].inFree) > now {
					continue
				}
				vc, out := s.inputArbitrate(r, pi)
				if vc < 0 {
					continue
				}
				s.reqVC[port] = int8(vc)
				if s.reqN[out] == 0 {
					s.reqOuts[nouts] = int16(out)
					nouts++
				}
				s.reqList[out*s.radix+int(s.reqN[out])] = int16(port)
				s.reqN[out]++
			}
		}
		if nouts == 0 {
			break
		}
		for i := 0; i < nouts; i++ {
			out := int(s.reqOuts[i])
			in := s.outputArbitrate(base, out)
			s.reqN[out] = 0
			s.grant(r, in, int(s.reqVC[in]), out)
		}
	}
}

// schedule queues a drain attempt of output pi at cycle t.
func (s *Sim) schedule(pi int, t int64) {
	slot := t & s.wheelMask
	s.drains[slot] = append(s.drains[slot], int32(pi))
}

// drain puts the output FIFO heads that are due onto their links.
func (s *Sim) drain() {
	slot := s.now & s.wheelMask
	// drainOutput may schedule into this slot only for a later lap of the
	// wheel (t ≥ now+1), never the current one, so ranging is safe
	for _, pi := range s.drains[slot] {
		s.drainOutput(int(pi))
	}
	s.drains[slot] = s.drains[slot][:0]
}

// land moves this cycle's arrivals into their input buffers and adds this
// cycle's credits to their outputs.
func (s *Sim) land() {
	slot := s.now & s.wheelMask
	for _, e := range s.arrivals[slot] {
		bi := int(e >> 32)
		s.push(bi, int32(uint32(e)), s.now)
		s.countIn(bi / s.maxVC)
	}
	s.arrivals[slot] = s.arrivals[slot][:0]
	for _, k := range s.ejects[slot] {
		s.deliver(k, s.now)
	}
	s.ejects[slot] = s.ejects[slot][:0]
	for _, e := range s.creditsIn[slot] {
		s.give(e)
	}
	s.creditsIn[slot] = s.creditsIn[slot][:0]
}

// countIn records one more packet in input port pi.
func (s *Sim) countIn(pi int) {
	if s.ports[pi].inCount == 0 {
		r, port := pi/s.radix, pi%s.radix
		s.inMask[2*r+port>>6] |= 1 << (port & 63)
	}
	s.ports[pi].inCount++
}

// returnCredit sends a credit for VC vc upstream over the link of input pi
// (bit 31 marks a minimally routed packet, for minimal-only occupancy; bit
// 30 a global link, whose occupancy adaptive routing tracks).
func (s *Sim) returnCredit(pi, vc int, minimal, global bool) {
	t := (s.now + s.lat[s.ports[pi].class]) & s.wheelMask
	e := int32(int(s.ports[pi].peer)<<5 | vc) // port and VC (< 32), no division to decode
	if minimal {
		e |= -1 << 31
	}
	if global {
		e |= 1 << 30
	}
	s.creditsIn[t] = append(s.creditsIn[t], e)
}

// setHead refreshes the head metadata of a non-empty buffer, so that a
// blocked head costs no packet access while it waits.
func (s *Sim) setHead(b *buffer) {
	e := s.qRing[b.start+b.head]
	b.hd, b.hEntry, b.hOut = int32(uint32(e)), int32(e>>32), -1
}

// canRequest: can the head of buffer b (routed) request its output now?
func (s *Sim) canRequest(base int, b *buffer) bool {
	po := base + int(b.hOut)
	if !s.outputReady(po) {
		return false
	}
	pt := &s.ports[po]
	if pt.class == topology.Injection {
		if b.hReq {
			// protocol-deadlock coupling: a request is consumed only when its
			// reply fits in the node's reply injection VCs
			pk := &s.pk[b.hd]
			pk.replyVC = int8(s.chooseVC(int(pk.dst), int(pk.src), true))
			return pk.replyVC >= 0
		}
		return true
	}
	return s.credits[po*s.maxVC+int(b.hVC)] >= int32(s.P)
}

// inputArbitrate picks the VC of input pi that requests this iteration, and
// its output port; (−1, −1) when none can.
func (s *Sim) inputArbitrate(r, pi int) (int, int) {
	base := r * s.radix
	n := s.vcCount[s.ports[pi].class]
	best, bestOut := -1, -1
	var bestKey int64
	ptr := int(s.ports[pi].inPtr)
	// round-robin scans from the pointer and serves the first VC that can
	// request, as FOGSim's arbiter does: the VCs after it are not routed this
	// attempt (no blocked attempt counted, no adaptive decision redone)
	for i := 0; i < n; i++ {
		v := i
		if s.inArb == arbRR {
			if v += ptr; v >= n {
				v -= n
			}
		}
		bi := pi*s.maxVC + v
		b := &s.bufs[bi]
		if b.len == 0 || int64(b.hEntry) > s.now {
			continue
		}
		fromInj := s.ports[pi].class == topology.Injection
		if b.hOut < 0 || (!b.hFinal && (s.rerouteAll || (fromInj && s.rerouteInj))) {
			pk := &s.pk[b.hd]
			b.hFinal = s.route(r, pk, fromInj, b.hOut >= 0)
			b.hOut, b.hVC, b.hNext, b.hReq = pk.outPort, pk.outVC, pk.nextPos, pk.flags&fRequest != 0
		}
		if !s.canRequest(base, b) {
			continue
		}
		rr := int64(v - ptr) // round-robin distance (no modulo: a call on wasm)
		if rr < 0 {
			rr += int64(n)
		}
		var key int64
		switch s.inArb {
		case arbRR:
			best, bestOut = v, int(b.hOut)
			i = n // the first in round-robin order wins
			continue
		case arbLRS:
			key = s.inStamp[bi]
		case arbAge:
			key = s.pk[b.hd].gen*int64(n) + rr
		}
		if best < 0 || key < bestKey {
			best, bestKey, bestOut = v, key, int(b.hOut)
		}
	}
	if best >= 0 {
		// the input stage's pointer moves when its VC places a request
		switch s.inArb {
		case arbLRS:
			s.clock++
			s.inStamp[pi*s.maxVC+best] = s.clock
		default:
			s.ports[pi].inPtr = int8(wrap(best+1, n))
		}
	}
	return best, bestOut
}

// outputArbitrate picks the winning input (port number) of output out.
func (s *Sim) outputArbitrate(base, out int) int {
	po := base + out
	cands := s.reqList[out*s.radix : out*s.radix+int(s.reqN[out])]
	if len(cands) == 1 && !s.transitPrio && s.outArb != arbLRS {
		in := int(cands[0])
		s.ports[po].outPtr = int16(wrap(in+1, s.radix))
		return in
	}
	ptr := int(s.ports[po].outPtr)
	best := -1
	var bestKey int64
	for _, c := range cands {
		in := int(c)
		rr := int64(in - ptr)
		if rr < 0 {
			rr += int64(s.radix)
		}
		var key int64
		switch s.outArb {
		case arbRR:
			key = rr
		case arbLRS:
			key = s.outStamp[po*s.radix+in]
		case arbAge:
			pk := &s.pk[s.bufs[(base+in)*s.maxVC+int(s.reqVC[in])].hd]
			key = pk.gen*int64(s.radix) + rr
		}
		if s.transitPrio && s.ports[base+in].class == topology.Injection {
			key += 1 << 60
		}
		if best < 0 || key < bestKey {
			best, bestKey = in, key
		}
	}
	if s.outArb == arbLRS {
		s.clock++
		s.outStamp[po*s.radix+best] = s.clock
	} else {
		s.ports[po].outPtr = int16(wrap(best+1, s.radix))
	}
	return best
}

// grant moves the head of buffer (pi, vc) across the crossbar to output po.
func (s *Sim) grant(r, in, vc, out int) {
	now := s.now
	pi, po := r*s.radix+in, r*s.radix+out
	bi := pi*s.maxVC + vc
	b := &s.bufs[bi]
	k := b.hd
	pk := &s.pk[k]
	outVC, nextPos := b.hVC, b.hNext
	// the tail cannot cross before it has arrived
	dur := max(s.xbarDur, int64(b.hEntry)+int64(s.P)-now)
	s.ports[pi].inFree = int32(now + dur)
	s.ports[po].outFree = int32(now + dur)
	b.head++
	if b.head == b.cap {
		b.head = 0
	}
	b.len--
	if b.len > 0 {
		s.setHead(b)
	}
	s.ports[pi].inCount--
	if s.ports[pi].inCount == 0 {
		s.inMask[2*r+in>>6] &^= 1 << (in & 63)
	}
	minimal := true // MIN never misroutes: no need to read the packet
	if s.routing != routeMIN {
		s.commitRoute(r, in, out, pk)
		minimal = pk.flags&fNonMin == 0
	}
	if s.pclass[in] != topology.Injection {
		if s.creditAtOutput {
			pk.aux, pk.prevVC = int32(pi), int8(vc)
		} else {
			s.returnCredit(pi, vc, minimal, s.pclass[in] == topology.Global)
		}
	}
	if s.pclass[out] == topology.Injection {
		if s.reactive && pk.flags&fRequest != 0 {
			s.resv[s.injBuf(int(pk.dst), int(pk.replyVC))]++
		}
	} else {
		s.take(po, int(outVC), minimal, s.pclass[out] == topology.Global)
		pk.vcPos = nextPos
		pk.vc = outVC
	}
	s.lastProgress = now
	s.st.xbar++
	if s.ioq {
		pk.entry = now + s.xbar
		pt := &s.ports[po]
		i := pt.oHead + pt.oLen
		if i >= s.oCap {
			i -= s.oCap
		}
		s.oRing[int32(po)*s.oCap+i] = slot(k, pk.entry)
		if pt.oLen == 0 {
			s.schedule(po, max(pk.entry, int64(pt.txEnd)))
		}
		pt.oLen++
		return
	}
	// input-queued: straight onto the link after the crossbar
	s.ports[po].txEnd = int32(now + dur)
	if pk.inj < 0 {
		pk.inj = now + s.xbar
	}
	s.send(po, k, now+s.xbar)
}

// drainOutput puts the head of output FIFO pi onto its link when it has
// crossed the crossbar and the previous packet has been serialised.
func (s *Sim) drainOutput(pi int) {
	pt := &s.ports[pi]
	ring := s.oRing[int32(pi)*s.oCap : int32(pi+1)*s.oCap]
	e := ring[pt.oHead]
	if t := max(int64(e>>32), int64(pt.txEnd)); t > s.now {
		s.schedule(pi, t)
		return
	}
	k := int32(uint32(e))
	pk := &s.pk[k]
	if s.creditAtOutput && pk.aux >= 0 {
		// FOGSim v4 IOQ: the credit of the input buffer the packet left goes
		// upstream only now, when the packet leaves the output FIFO
		s.returnCredit(int(pk.aux), int(pk.prevVC), pk.flags&fNonMin == 0, s.ports[pk.aux].class == topology.Global)
	}
	pt.oHead++
	if pt.oHead == s.oCap {
		pt.oHead = 0
	}
	pt.oLen--
	pt.txEnd = int32(s.now) + int32(s.P)
	if pt.oLen > 0 {
		s.schedule(pi, max(int64(pt.txEnd), int64(ring[pt.oHead]>>32)))
	}
	if pk.inj < 0 {
		pk.inj = s.now
	}
	s.lastProgress = s.now
	s.send(pi, k, s.now)
}

// send puts packet k on the link of output port po at cycle t: into the
// downstream input buffer (its head arrives after the link latency), or to the
// node on an ejection port.
func (s *Sim) send(po int, k int32, t int64) {
	pk := &s.pk[k]
	c := s.ports[po].class
	if t >= s.W {
		s.st.linkPhits[c] += int64(s.P)
	}
	if c == topology.Injection {
		if t > s.now { // input-queued model: the crossbar latency is still ahead
			slot := t & s.wheelMask
			s.ejects[slot] = append(s.ejects[slot], k)
			return
		}
		s.deliver(k, t)
		return
	}
	if c == topology.Global {
		pk.ghops++
	} else {
		pk.lhops++
	}
	pk.entry = t + s.lat[c]
	if c == topology.Local && s.ad.known != nil {
		s.piggyback(po/s.radix, po, pk.entry)
	}
	bi := int(s.ports[po].peer)*s.maxVC + int(pk.vc)
	slot := pk.entry & s.wheelMask
	s.arrivals[slot] = append(s.arrivals[slot], uint64(bi)<<32|uint64(uint32(k)))
}

// push appends packet k to input buffer bi (space was reserved by credits).
func (s *Sim) push(bi int, k int32, entry int64) {
	b := &s.bufs[bi]
	i := b.head + b.len
	if i >= b.cap {
		i -= b.cap
	}
	s.qRing[b.start+i] = slot(k, entry)
	b.len++
	if b.len == 1 {
		s.setHead(b)
	}
}

// wrap is i mod n for 0 ≤ i ≤ n.
func wrap(i, n int) int {
	if i == n {
		return 0
	}
	return i
}
