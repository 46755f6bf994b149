package sim

import (
	"math"
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
				if ip := &s.ports[pi]; int64(max(ip.inFree, ip.inWait)) > now {
					continue
				}
				vc, out := s.inputArbitrate(r, pi)
				if vc < 0 {
					continue
				}
				s.reqVC[port] = int16(vc)
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
			var in int
			if s.reqN[out] == 1 && s.outArb == arbRR && !s.transitPrio {
				// a single request under plain round-robin wins (inlined:
				// a call costs most on wasm)
				in = int(s.reqList[out*s.radix])
				s.ports[base+out].outPtr = int8(wrap(in+1, s.radix))
			} else {
				in = s.outputArbitrate(base, out)
			}
			s.reqN[out] = 0
			s.grant(r, in, int(s.reqVC[in]), out)
		}
	}
}

// drain delivers the packets whose ejection-port departure is this cycle
// (after every router's allocation, as FOGSim drains its output FIFOs).
func (s *Sim) drain() {
	slot := s.now & s.wheelMask
	for _, k := range s.outEjects[slot] {
		s.deliver(k, s.now)
	}
	s.outEjects[slot] = s.outEjects[slot][:0]
}

// land moves this cycle's arrivals into their input buffers and adds this
// cycle's credits to their outputs.
func (s *Sim) land() {
	slot := s.now & s.wheelMask
	cc := s.cga.cc
	for _, e := range s.arrivals[slot] {
		pi, vc := arrivalAt(e)
		s.push(pi, vc, int32(uint32(e)), s.now)
		s.countIn(pi)
		if cc != nil { // the contention counters' arrival step
			if bi := pi*s.maxVC + vc; cc.idle(bi) {
				s.ccHead(cc, bi, int(uint(pi)/uint(s.radix)), &s.pk[uint32(e)])
			}
		}
	}
	if len(s.hk.arrive) != 0 { // once per cycle, not per packet
		s.landHooks(s.arrivals[slot])
	}
	s.arrivals[slot] = s.arrivals[slot][:0]
	for _, k := range s.ejects[slot] {
		s.deliver(k, s.now)
	}
	s.ejects[slot] = s.ejects[slot][:0]
	for _, e := range s.creditsIn[slot] {
		// a credit returns to output pi (port<<qBits | queue; bit 31: a minimal
		// packet's, bit 30: a global link's) and wakes the inputs waiting
		// for it
		pi, vc := creditAt(e)
		ph := int32(s.P)
		if s.ctlShort { // a control VC's credits count its short packets
			ph = s.phitsOn(s.pclass[pi], vc)
		}
		s.credits[pi*s.maxVC+vc] += ph
		if s.dq.used != nil {
			s.damqFree(pi, vc)
		}
		if s.cwAny[pi>>6]&(1<<(pi&63)) != 0 {
			s.wakeOnCredit(pi)
		}
		if s.ov.gocc != nil {
			s.occUpdate(pi, vc, -ph, e < 0, e&(1<<30) != 0)
		}
	}
	s.creditsIn[slot] = s.creditsIn[slot][:0]
}

// countIn records one more packet in input port pi.
func (s *Sim) countIn(pi int) {
	s.ports[pi].inWait = 0 // a new head may request at once
	if s.ports[pi].inCount == 0 {
		r, port := int(uint(pi)/uint(s.radix)), int(uint(pi)%uint(s.radix)) // unsigned: no call on wasm
		s.inMask[2*r+port>>6] |= 1 << (port & 63)
	}
	s.ports[pi].inCount++
}

// returnCredit sends a credit for VC vc upstream over the link of input pi at
// cycle at (bit 31 marks a minimally routed packet, for minimal-only
// occupancy; bit 30 a global link, whose occupancy adaptive routing tracks).
func (s *Sim) returnCredit(pi, vc int, at int64, minimal, global bool) {
	t := (at + s.lat[s.ports[pi].class]) & s.wheelMask
	e := creditEntry(s.ports[pi].peer, vc, minimal, global)
	s.creditsIn[t] = append(s.creditsIn[t], e)
}

// creditEntry is a credit for queue vc of output po as the credit wheel
// holds it.
func creditEntry(po int32, vc int, minimal, global bool) int32 {
	e := int32(int(po)<<qBits | vc) // port and queue, no division to decode
	if minimal {
		e |= -1 << 31
	}
	if global {
		e |= 1 << 30
	}
	return e
}

// setHead refreshes the head metadata of a non-empty buffer, so that a
// blocked head costs no packet access while it waits.
func (s *Sim) setHead(b *buffer) {
	e := s.qRing[b.start+b.head]
	b.hd, b.hEntry, b.hOut = int32(uint32(e)), int32(e>>32), -1
}

// replyBlocked is the wait of a routed head at its ejection port: with
// request-reply, a request is consumed only when its reply fits in the
// node's reply injection VCs (protocol-deadlock coupling).
func (s *Sim) replyBlocked(b *buffer) int64 {
	if b.hReq {
		pk := &s.pk[b.hd]
		pk.replyVC = int8(s.chooseVC(int(pk.dst), int(pk.src), true))
		if pk.replyVC < 0 {
			return s.now // grants may free a reply slot in this very cycle
		}
	}
	return -1
}

// waitCredit is the wait of a head that waits for a credit:
// only a credit's arrival (land) can let it request.
const waitCredit = math.MaxInt32

// sleepOnCredit makes input in (a port number) wait for a credit at output
// po of its router: the next credit arriving there wakes it (possibly for
// another VC: a spurious wake is only a failed attempt, which changes
// nothing).
func (s *Sim) sleepOnCredit(in, po int) {
	s.cwIn[2*po+in>>6] |= 1 << (in & 63)
	s.cwAny[po>>6] |= 1 << (po & 63)
}

// wakeOnCredit wakes the inputs sleeping on a credit at output po.
func (s *Sim) wakeOnCredit(po int) {
	s.cwAny[po>>6] &^= 1 << (po & 63)
	base := po - int(uint(po)%uint(s.radix)) // unsigned: no call on wasm
	for w := 0; w < 2; w++ {
		for m := s.cwIn[2*po+w]; m != 0; m &= m - 1 {
			s.ports[base+(w<<6|bits.TrailingZeros64(m))].inWait = 0
		}
		s.cwIn[2*po+w] = 0
	}
}

// inputArbitrate picks the VC of input pi that requests this iteration, and
// its output port; (−1, −1) when none can. Then, since a failed attempt
// changes nothing, the input is not tried again before the earliest cycle
// one of its heads might request (s.inWait), unless a packet arrives.
func (s *Sim) inputArbitrate(r, pi int) (int, int) {
	if s.vq.on {
		if s.vq.hold != nil && s.vq.hold[pi] != 0 { // rrhold
			return s.voqArbitrateHeld(r, pi)
		}
		return s.voqArbitrate(r, pi)
	}
	base := r * s.radix
	cl := s.ports[pi].class
	n := s.vcCount[cl]
	best, bestOut := -1, -1
	var bestKey int64
	wait := int64(math.MaxInt64)
	// only the VCs holding packets, in order from VC start: bit j of m is VC
	// start+j (mod n). Round-robin starts at its pointer; the others visit
	// every VC from 0 (their routing decisions happen in that order)
	// (64-bit: the rotation of up to 32 VCs fits; masked shifts need no
	// range checks)
	m, ptr, start := uint64(s.vcBusy[pi]), int(s.ports[pi].inPtr), 0
	// the priority class's VCs first (ctlclass.go; none: a shift by 32);
	// prioBase is ctlBase unless a strictly-lowest isolated class below it
	// needs its own stage (inputArbitrateLow)
	if cb := s.prioBase[cl]; m>>cb != 0 {
		if cb != s.ctlBase[cl] {
			return s.inputArbitrateLow(r, pi)
		}
		v, out, w := s.ctlArbitrate(r, pi, uint(cb))
		if v >= 0 {
			return v, out
		}
		wait, m = w, m&(1<<cb-1)
	}
	if s.inArb == arbRR {
		start = ptr
		sh := uint(ptr) & 31
		m = (m>>sh | m<<((uint(n)-sh)&63)) & (1<<(uint(n)&63) - 1)
	}
	// round-robin scans from the pointer and serves the first VC that can
	// request, as FOGSim's arbiter does: the VCs after it are not routed this
	// attempt (no blocked attempt counted, no adaptive decision redone)
	for ; m != 0; m &= m - 1 {
		v := start + bits.TrailingZeros64(m)
		if v >= n {
			v -= n
		}
		bi := pi*s.maxVC + v
		b := &s.bufs[bi]
		if int64(b.hEntry) > s.now {
			wait = min(wait, int64(b.hEntry))
			continue
		}
		fromInj := cl == topology.Injection
		reroute := s.rerouteAll || (fromInj && s.rerouteInj)
		if b.hOut < 0 || (!b.hFinal && reroute) {
			if v >= int(s.isoBase[cl]) {
				s.routeIso(r, b) // the isolated class: minimal, final
			} else {
				pk := &s.pk[b.hd]
				b.hFinal = s.route(r, pk, fromInj, b.hOut >= 0)
				b.hOut, b.hVC, b.hNext, b.hReq = pk.outPort, int16(pk.outVC), pk.nextPos, pk.flags&fRequest != 0
			}
		}
		// the head's wait (inlined by hand: a call costs most on wasm): −1
		// when it can request its output now; otherwise the earliest cycle
		// it might: when the output is free to receive and its FIFO (or,
		// input-queued, its link) has room, which later grants can only
		// delay; waitCredit when it waits for credits (they arrive between
		// cycles, and wake the input); now when it waits for its reply to
		// fit (a grant of this cycle may free a slot)
		po := base + int(b.hOut)
		op := &s.ports[po]
		t := int64(op.readyAt)
		if t <= s.now {
			t = -1
			if op.class == topology.Injection {
				t = s.replyBlocked(b)
			} else if s.fv.on {
				t = s.flexChoose(r, b, po, fromInj) // FlexVC: a VC 0…k with room
			} else if s.credits[po*s.maxVC+int(b.hVC)] < int32(s.P) {
				t = waitCredit
			}
		}
		if t >= 0 {
			if !b.hFinal && reroute {
				t = s.now // routed again at the next attempt, even in this cycle
			} else if t == waitCredit {
				s.sleepOnCredit(pi-base, po)
			}
			wait = min(wait, t)
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
			m = 1 // the first in round-robin order wins
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
	if best < 0 {
		s.ports[pi].inWait = int32(wait) // now: no skipping
		return best, bestOut
	}
	{
		// the input stage's pointer moves when its VC places a request
		switch s.inArb {
		case arbLRS:
			s.clock++
			s.inStamp[pi*s.maxVC+best] = s.clock
		default:
			if !s.inPtrOnGrant {
				s.ports[pi].inPtr = int8(wrap(best+1, n))
			}
		}
	}
	if s.ejGate && s.pclass[base+bestOut] == topology.Injection && s.ejectionClosed(base+bestOut) {
		// FOGSim v5: the request was placed, and the output stage refuses it
		// while the node is still consuming; the input tries again at its
		// next attempt (the next iteration, or cycle)
		return -1, -1
	}
	return best, bestOut
}

// ejectionClosed reports whether the node of ejection port po consumed a
// packet in the last packetSize−1 cycles, so that it cannot be granted a new
// one now (FOGSim v5: outputArbiter::checkPort asks
// generatorModule::checkConsume, now ≥ last consumption + packetSize). The
// consumptions are the departures in the port's ring, spaced ≥ packetSize
// apart; one of this cycle is after the allocation, as in FOGSim.
func (s *Sim) ejectionClosed(po int) bool {
	// departures rise along the ring: look back from the newest to the
	// last one before now
	ring := s.oRing[int32(po)*s.oCap : int32(po+1)*s.oCap]
	j := s.ports[po].oTail
	for range ring {
		if j--; j < 0 {
			j = s.oCap - 1
		}
		if d := ring[j]; d < int32(s.now) {
			return d > int32(s.now)-int32(s.P)
		}
	}
	return false
}

// outputArbitrate picks the winning input (port number) of output out.
func (s *Sim) outputArbitrate(base, out int) int {
	po := base + out
	cands := s.reqList[out*s.radix : out*s.radix+int(s.reqN[out])]
	// with transit priority, transit and injection inputs rotate (or age)
	// within their own block, each with its own pointer (FOGSim's PrioRR)
	ptr, ptrInj := int(s.ports[po].outPtr), int(s.ports[po].outPtrInj)
	best, bestInj, bestCtl := -1, false, false
	var bestKey int64
	var lost [2]uint64 // rrvc: the candidates another one beats for their downstream VC
	if s.outArb == arbRRVC {
		lost = s.vcRoundRobin(po, cands)
	}
	for i, c := range cands {
		if lost[i>>6]&(1<<(i&63)) != 0 {
			continue
		}
		in := int(c)
		inj := s.transitPrio && s.pclass[base+in] == topology.Injection
		p := ptr
		if inj {
			p = ptrInj
		}
		rr := int64(in - p)
		if rr < 0 {
			rr += int64(s.radix)
		}
		var key int64
		switch s.outArb {
		case arbRR, arbRRVC:
			key = rr
		case arbLRS:
			key = s.outStamp[po*s.radix+in]
		case arbAge:
			pk := &s.pk[s.bufs[(base+in)*s.maxVC+int(s.reqVC[in])].hd]
			key = pk.gen*int64(s.radix) + rr
		}
		if inj {
			key += 1 << 60
		}
		ctl := false
		if s.prioOut { // the priority class wins, a strictly-lowest isolated class loses (ctlclass.go)
			if ctl = s.isCtlVC(s.pclass[base+in], int(s.reqVC[in])); ctl {
				key -= 1 << 61
			} else if s.iso.low && s.isIsoVC(s.pclass[base+in], int(s.reqVC[in])) &&
				(s.iso.aging == 0 || int64(s.bufs[(base+in)*s.maxVC+int(s.reqVC[in])].hEntry) > s.now-s.iso.aging) {
				key += 1 << 59
			}
		}
		if best < 0 || key < bestKey {
			best, bestKey, bestInj, bestCtl = in, key, inj, ctl
		}
	}
	if s.outArb == arbRRVC {
		s.outPtrVC[po*s.maxVC+s.downVC(base+best)] = int8(wrap(best+1, s.radix))
	}
	switch {
	case bestCtl: // a control VC won: the data's pointers stay
	case s.outArb == arbLRS:
		s.clock++
		s.outStamp[po*s.radix+best] = s.clock
	case bestInj:
		s.ports[po].outPtrInj = int8(wrap(best+1, s.radix))
	default:
		s.ports[po].outPtr = int8(wrap(best+1, s.radix))
	}
	return best
}

// vcRoundRobin is router.outputArbiter=rrvc's first step: among the
// candidates for output po that request the same downstream VC, only the
// first from that VC's pointer stays (BookSim's VC allocator: an output VC
// goes round-robin among the input VCs requesting it, whichever VCs of the
// port win meanwhile). It returns the others, by candidate index.
func (s *Sim) vcRoundRobin(po int, cands []int16) (lost [2]uint64) {
	base := po - po%s.radix
	for i, c := range cands {
		vi := s.downVC(base + int(c))
		ri := wrapBelow(int(c)-int(s.outPtrVC[po*s.maxVC+vi]), s.radix)
		for j, d := range cands[:i] {
			if s.downVC(base+int(d)) != vi {
				continue
			}
			if wrapBelow(int(d)-int(s.outPtrVC[po*s.maxVC+vi]), s.radix) < ri {
				lost[i>>6] |= 1 << (i & 63)
			} else {
				lost[j>>6] |= 1 << (j & 63)
			}
		}
	}
	return lost
}

// downVC is the downstream VC (queue) the request of input pi takes.
func (s *Sim) downVC(pi int) int {
	return int(s.bufs[pi*s.maxVC+int(s.reqVC[pi%s.radix])].hVC)
}

// wrapBelow is i mod n for −n ≤ i < n.
func wrapBelow(i, n int) int {
	if i < 0 {
		return i + n
	}
	return i
}

// grant moves the head of buffer (pi, vc) across the crossbar to output po.
func (s *Sim) grant(r, in, vc, out int) {
	now := s.now
	pi, po := r*s.radix+in, r*s.radix+out
	ip, op := &s.ports[pi], &s.ports[po]
	bi := pi*s.maxVC + vc
	if s.inPtrOnGrant {
		if vc < int(s.ctlBase[ip.class]) { // the priority class's VCs keep no pointer
			if s.vq.on {
				s.vq.ptr[pi] = uint16(wrap(vc+1, s.nq[ip.class]))
				if s.vq.pass != nil { // rrhold: the queue is served
					s.voqServed(pi, vc, po)
				}
			} else {
				ip.inPtr = int8(wrap(vc+1, s.nq[ip.class]))
			}
		} else if s.vq.pass != nil { // rrhold: a control queue is served
			s.voqServed(pi, vc, po)
		}
	}
	b := &s.bufs[bi]
	k := b.hd
	pk := &s.pk[k]
	outVC, nextPos := b.hVC, b.hNext
	// the tail cannot cross before it has arrived
	ph, xd := int64(s.P), s.xbarDur
	if s.ctlShort && vc >= int(s.ctlBase[ip.class]) { // a short control packet (phitsOn)
		ph, xd = int64(s.ctlP), s.ctlXbar
	}
	dur := max(xd, int64(b.hEntry)+ph-now)
	ip.inFree = int32(now + dur)
	b.head++
	if b.head == b.cap {
		b.head = 0
	}
	b.len--
	if b.len > 0 {
		s.setHead(b)
	} else if s.vq.on {
		s.voqBusy(pi, vc, false)
	} else {
		s.vcBusy[pi] &^= 1 << (uint(vc) & 31)
	}
	ip.inCount--
	if ip.inCount == 0 {
		s.inMask[2*r+in>>6] &^= 1 << (in & 63)
	}
	minimal := true // MIN never misroutes: no need to read the packet
	if s.routing != routeMIN {
		s.commitRoute(ip.class, op.class, pk)
		minimal = pk.flags&fNonMin == 0
	}
	if ip.class != topology.Injection {
		if !s.creditAtOutput {
			if s.xp == nil {
				s.returnCredit(pi, vc, now, minimal, ip.class == topology.Global)
			} else { // a partition of a parallel run: the credit may cross the cut
				s.creditBack(pi, vc, now, minimal, ip.class == topology.Global)
			}
		}
	} else {
		if s.vq.on && vc < s.vq.n*s.injVC { // a data VC's count over its queues
			s.vq.injUsed[pi*s.maxVC+vc%s.injVC]--
		}
		s.sqRoom(pi) // its node's VC has room
	}
	if op.class == topology.Injection {
		if s.reactive && pk.flags&fRequest != 0 {
			s.resv[s.injBuf(int(pk.dst), int(pk.replyVC))]++
		}
	} else {
		s.take(po, int(outVC), minimal, op.class == topology.Global)
		if s.dq.used != nil {
			s.damqTake(po, int(outVC))
		}
		pk.vcPos = nextPos
		pk.vc = outVC
	}
	s.st.xbar++
	if s.hk.grant != nil { // one test: the counters make it non-nil (initContention)
		if c := s.cga.cc; c != nil {
			s.ccGrant(c, r, bi, now+dur)
		}
		if len(s.hk.grant) != 0 {
			s.grantHooks(r, in, out, vc, int(outVC), k)
		}
	}
	if !s.ioq {
		// input-queued: straight onto the link after the crossbar
		op.txEnd = int32(now + dur)
		op.readyAt = op.txEnd
		s.lastProgress = now
		s.send(po, k, now+s.xbar)
		return
	}
	// The output FIFO is served in order and nothing can stop its head once
	// granted (the downstream credits are already reserved), so the cycle the
	// packet goes onto the link is known now: when its head has crossed the
	// crossbar and the previous packet has been serialised.
	pt := op
	entry := now + s.xbar
	prevEnd := int64(pt.txEnd) // the previous packet is off the link then
	dep := max(entry, prevEnd)
	pt.txEnd = int32(dep) + int32(ph)
	ring := s.oRing[int32(po)*s.oCap : int32(po+1)*s.oCap]
	ring[pt.oTail] = int32(dep)
	if s.ctlShort { // the FIFO holds packets of two lengths (fifoReadyMixed)
		s.oLen[int32(po)*s.oCap+pt.oTail] = int32(ph)
	}
	if pt.oTail++; pt.oTail == s.oCap {
		pt.oTail = 0
	}
	switch {
	case s.ejGate && op.class == topology.Injection:
		// FOGSim v5's ejection port: no crossbar busy time, the same port
		// may be granted again in the next iteration; its FIFO has room
		// for a whole packet (a slot freed by its consumption)
		pt.readyAt = max(int32(now), s.packetRoom(ring, pt.oTail))
	case s.outFogsim && op.class != topology.Injection:
		// FOGSim v5's transit output (router.outputFifo=fogsim): busy for
		// packetSize/speedup cycles even while a cut-through tail is still
		// arriving (ioqSwitchModule::txFlit computes the length after the
		// input buffer dropped the head's entry cycle; the input stays
		// busy), and room for a whole packet, a slot freed when its head
		// leaves for the link
		pt.readyAt = max(int32(now)+int32(s.xbarDur), s.packetRoom(ring, pt.oTail))
	case prevEnd <= now+1 && 2*s.P <= int(s.outCap):
		// usual case: only the new packet is queued from the next cycle on
		pt.readyAt = int32(now + dur) // the crossbar transfer takes at least a cycle
	case s.ctlShort:
		pt.readyAt = max(int32(now+dur), s.fifoReadyMixed(po, ring, pt.oTail))
	default:
		pt.readyAt = max(int32(now+dur), s.fifoReady(ring, pt.oTail))
	}
	if s.creditAtOutput && ip.class != topology.Injection {
		// FOGSim's earlier IOQ code: the input buffer's credit goes upstream
		// only when the packet leaves the output FIFO
		if s.xp == nil {
			s.returnCredit(pi, vc, dep, minimal, ip.class == topology.Global)
		} else {
			s.creditBack(pi, vc, dep, minimal, ip.class == topology.Global)
		}
	}
	s.lastProgress = max(s.lastProgress, dep)
	s.send(po, k, dep)
}

// packetRoom is the first cycle an output FIFO that counts whole packets
// has room again, given the departure cycles of its last oCap packets (ring,
// the next slot at tail): when the oldest of the last oCap−1 (its capacity
// in packets) has left, the cycle after its departure.
func (s *Sim) packetRoom(ring []int32, tail int32) int32 {
	oldest := tail + 1
	if oldest == s.oCap {
		oldest = 0
	}
	return ring[oldest] + 1
}

// fifoReady is the first allocation cycle after now at which an output FIFO
// has room for another packet, given the departure cycles of its last oCap
// packets (ring, oldest at index tail). A packet is in the FIFO up to and
// including its departure cycle, and the phits still being serialised onto
// the link after it count too (router.outputFifo=tail): the occupancy at cycle t is
// P·#{d ≥ t} + max(0, d′+P−t), d′ the last departure before t. It only
// falls as t grows, and the ring covers every packet that can be queued (at
// most outCap/P) plus the last one that left.
func (s *Sim) fifoReady(ring []int32, tail int32) int32 {
	n := s.oCap
	limit := int64(s.outCap) - int64(s.P) // most phits that leave room for a packet
	next := s.now + 1
	// Departures rise along the ring from its oldest entry, and an entry
	// whose successor left before next cannot answer (t ≥ next): start at
	// the one before the first successor still to leave, found by binary
	// search, so that a deep FIFO costs its queued packets, not its length.
	lo := firstLeaving(ring, tail, n, next)
	for i := lo - 1; i < n; i++ {
		j := tail + i
		if j >= n {
			j -= n
		}
		d := int64(ring[j])
		queued := int64(n-1-i) * int64(s.P) // packets after this one
		slack := limit - queued
		if slack < 0 {
			continue
		}
		t := max(next, d+1, d+int64(s.P)-slack)
		if i == n-1 {
			return int32(t)
		}
		k := j + 1
		if k == n {
			k = 0
		}
		if t <= int64(ring[k]) {
			return int32(t)
		}
	}
	panic("sim: output FIFO ring shorter than its capacity")
}

// firstLeaving is the first j in [1, n) whose entry of the departure ring
// (n entries, oldest at index tail; departures rise from it) leaves at
// cycle next or later, n if none: a binary search.
func firstLeaving(ring []int32, tail, n int32, next int64) int32 {
	lo, hi := int32(1), n
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		j := tail + mid
		if j >= n {
			j -= n
		}
		if int64(ring[j]) < next {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// fifoReadyMixed is fifoReady for output FIFOs whose packets have two
// lengths (the priority class's short packets, ctlShort): each entry's
// phits are its own (oLen, beside the ring), so the occupancy at cycle t is
// Σ{len_j : d_j ≥ t} + max(0, d′ + len′ − t), and the room asked for is a
// data packet's. The ring holds outputBuffer/ctlP + 1 entries.
func (s *Sim) fifoReadyMixed(po int, ring []int32, tail int32) int32 {
	n := s.oCap
	lens := s.oLen[int32(po)*n : int32(po+1)*n]
	limit := int64(s.outCap) - int64(s.P)
	next := s.now + 1
	// lo, the first entry in [1, n) still to leave at next or later (n if
	// none: firstLeaving's answer), found from the newest entry back, and
	// the phits of the entries from lo on: the ring is as long as the
	// buffer's short packets (outputBuffer/ctlP + 1 entries) but holds few
	// still to leave, so the walk costs the queued entries, not the
	// binary search over the ring
	lo := n
	var queued int64 // the phits of the entries after entry i
	for lo > 1 {
		j := tail + lo - 1
		if j >= n {
			j -= n
		}
		if int64(ring[j]) < next {
			break
		}
		queued += int64(lens[j])
		lo--
	}
	for i := lo - 1; i < n; i++ {
		j := tail + i
		if j >= n {
			j -= n
		}
		if i >= lo {
			queued -= int64(lens[j])
		}
		d := int64(ring[j])
		slack := limit - queued
		if slack < 0 {
			continue
		}
		t := max(next, d+1, d+int64(lens[j])-slack)
		if i == n-1 {
			return int32(t)
		}
		k := j + 1
		if k == n {
			k = 0
		}
		if t <= int64(ring[k]) {
			return int32(t)
		}
	}
	panic("sim: output FIFO ring shorter than its capacity")
}

// send puts packet k onto the link of output port po at cycle dep: into the
// downstream input buffer (its head arrives after the link latency), or to
// the node on an ejection port.
func (s *Sim) send(po int, k int32, dep int64) {
	pk := &s.pk[k]
	c := s.ports[po].class
	if s.held != nil {
		s.leave(po, c, dep)
	}
	ph := int32(s.P)
	if s.ctlShort {
		ph = s.packetPhits(k)
	}
	if dep >= s.W && dep < s.W+s.M {
		s.st.linkPhits[po] += int64(ph)
	}
	if s.snap != nil {
		s.snap.sent(po, po/s.radix, ph, pk.flags&fNonMin != 0, pk.inj < 0)
	}
	if pk.inj < 0 {
		pk.inj = dep
	}
	if c == topology.Injection {
		slot := dep & s.wheelMask
		switch {
		case s.ioq: // delivered after the allocations of cycle dep
			s.outEjects[slot] = append(s.outEjects[slot], k)
		case dep > s.now: // input-queued: the crossbar latency is still ahead
			s.ejects[slot] = append(s.ejects[slot], k)
		default:
			s.deliver(k, dep)
		}
		return
	}
	if c == topology.Global {
		pk.ghops++
	} else {
		pk.lhops++
	}
	pk.entry = dep + s.lat[c]
	if c == topology.Local && s.pb.known != nil {
		s.piggyback(po/s.radix, po, dep, pk.entry)
	}
	slot := pk.entry & s.wheelMask
	if s.xp != nil && s.xp.owner[s.ports[po].peer] != s.xp.id { // across the cut (parallel.go)
		s.packetOut(po, k)
		return
	}
	// downstream input port and queue, no division to decode
	s.arrivals[slot] = append(s.arrivals[slot], uint64(s.ports[po].peer)<<(32+qBits)|uint64(pk.vc)<<32|uint64(uint32(k)))
}

// push appends packet k to the buffer of VC vc of input pi (space was
// reserved by credits).
func (s *Sim) push(pi, vc int, k int32, entry int64) {
	b := &s.bufs[pi*s.maxVC+vc]
	i := b.head + b.len
	if i >= b.cap {
		i -= b.cap
	}
	s.qRing[b.start+i] = slot(k, entry)
	b.len++
	if b.len == 1 {
		s.setHead(b)
		if s.vq.on {
			s.voqBusy(pi, vc, true)
		} else {
			s.vcBusy[pi] |= 1 << (uint(vc) & 31)
		}
	}
}

// wrap is i mod n for 0 ≤ i ≤ n.
func wrap(i, n int) int {
	if i == n {
		return 0
	}
	return i
}

// leave records that a packet leaves the router of output po at cycle dep
// (router.idleUpdates=fogsim; moveHeld applies it). Not inlined: it is rare,
// and send runs at every hop.
//
//go:noinline
func (s *Sim) leave(po int, c topology.PortClass, dep int64) {
	to := uint64(0)
	if c != topology.Injection {
		to = uint64(int(s.ports[po].peer)/s.radix) + 1
	}
	if dep <= s.now && int(to)-1 > po/s.radix {
		s.held[to-1]++ // leaving in this cycle (no crossbar latency): moveHeld has run
	}
	slot := dep & s.wheelMask
	s.moves[slot] = append(s.moves[slot], uint64(po/s.radix)<<32|to)
}

// inputArbitrateLow is the input stage with a strictly-lowest isolated
// class (ctlclass.go): the input's data (and priority) VCs first, its
// isolated VCs only when none of those can request, as two passes of the
// plain stage over the port's busy mask with the other VCs hidden (kept out
// of inputArbitrate, which reaches it through the priority class's test:
// prioBase is the isolated class's first VC then).
func (s *Sim) inputArbitrateLow(r, pi int) (int, int) {
	busy := s.vcBusy[pi]
	cl := s.ports[pi].class
	iso := busy &^ (1<<s.isoBase[cl] - 1) & (1<<s.ctlBase[cl] - 1)
	if s.iso.aging > 0 && iso != 0 { // the aged heads go with the data (congestion.cbcmHotspotAging)
		iso &^= uint32(s.agedIso(pi, 0, uint64(iso)))
	}
	s.prioBase[cl] = s.ctlBase[cl] // the plain stage, for the passes
	defer func() { s.prioBase[cl] = s.isoBase[cl] }()
	if iso == 0 || iso == busy {
		return s.inputArbitrate(r, pi)
	}
	s.vcBusy[pi] = busy &^ iso
	v, out := s.inputArbitrate(r, pi)
	if v < 0 {
		wait := s.ports[pi].inWait
		s.vcBusy[pi] = iso
		if v, out = s.inputArbitrate(r, pi); v < 0 {
			s.ports[pi].inWait = min(wait, s.ports[pi].inWait)
		}
	}
	s.vcBusy[pi] = busy
	return v, out
}
