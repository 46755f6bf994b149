package sim

// Nodes: packet generation, injection VCs, source queues and delivery.

import (
	"math"

	"phitsim/engine/rng"
	"phitsim/engine/topology"
	"phitsim/engine/traffic"
)

// injBuf is the buffer of injection VC vc of node.
func (s *Sim) injBuf(node, vc int) int {
	return int(s.nodeAt[node].pi)*s.maxVC + vc
}

// slotsFree counts the packets injection VC vc of node can still take
// (router.queueing 4q, voqnet: over all its queues; voqChooseVC counts the
// packet's own).
func (s *Sim) slotsFree(node, vc int) int32 {
	if s.rn != nil {
		return s.recnRoom(node)
	}
	bi := s.injBuf(node, vc)
	free := s.bufs[bi].cap - s.bufs[bi].len
	if s.vq.on { // the VC's packets over its per-output queues
		free = s.vq.injCap - s.vq.injUsed[bi]
	}
	if s.resv != nil {
		free -= s.resv[bi]
	}
	return free
}

// chooseVC picks the injection VC of a new packet (requests and plain traffic
// use the request set, replies the reply set); −1 when it has no room.
func (s *Sim) chooseVC(node, dst int, reply bool) int {
	return s.pickVC(node, dst, reply, 0, false)
}

// pickVC is router.injectionPolicy's choice among node's injection VCs of
// the set (requests or replies) for a packet to dst: the room of VC v is
// that of queue q0+v, its own buffer's with own (a per-output queue under
// router.injectionVoq=perQueue), else slotsFree's; −1 when none has room.
func (s *Sim) pickVC(node, dst int, reply bool, q0 int, own bool) int {
	if !own {
		if s.iso.on && !reply && s.iso.flow[node*s.N+dst] {
			return s.isoRoom(node) // the isolated class (ctlclass.go)
		}
		if s.vq.split {
			return s.voqChooseVC(node, dst, reply)
		}
	}
	room := func(v int) int32 {
		if own {
			b := &s.bufs[s.injBuf(node, q0+v)]
			return b.cap - b.len
		}
		return s.slotsFree(node, q0+v)
	}
	lo, hi := 0, s.reqVCs
	if reply {
		lo, hi = s.reqVCs, s.injVC
	}
	n := hi - lo
	switch s.injPolicy {
	case 0: // DEST: static partition by destination
		v := lo + int(int64(dst)*int64(n)/int64(s.N))
		if room(v) > 0 {
			return v
		}
		return -1
	case 1: // RAND among the VCs with room
		cnt := 0
		for v := lo; v < hi; v++ {
			if room(v) > 0 {
				cnt++
			}
		}
		if cnt == 0 {
			return -1
		}
		pick := s.gens[node].Intn(cnt)
		for v := lo; v < hi; v++ {
			if room(v) > 0 {
				if pick == 0 {
					return v
				}
				pick--
			}
		}
	}
	// JSQ: the VC with the most room
	best, bestFree := -1, int32(0)
	for v := lo; v < hi; v++ {
		if f := room(v); f > bestFree {
			best, bestFree = v, f
		}
	}
	return best
}

// chooseVCFor is chooseVC for packet k waiting at node (in a source
// queue, or a mechanism's control queue): under router.injectionVoq=perQueue
// the room is that of the packet's own queue (voqChooseQueue), which its
// route at the source names.
func (s *Sim) chooseVCFor(node int, k int32) int {
	if s.vq.perQ && !(s.iso.on && s.iso.flow[node*s.N+int(s.pk[k].dst)]) {
		return s.voqChooseQueue(node, k)
	}
	return s.chooseVC(node, int(s.pk[k].dst), false)
}

// hasRoom: FOGSim only draws the Bernoulli when the injection port can take a
// packet in one of its (request) VCs.
func (s *Sim) hasRoom(node int) bool {
	if s.rn != nil {
		return !s.recnStalled(node) // the admittance queues (recnsim.go)
	}
	if s.reqVCs == s.injVC { // no reply set, no reservations: count the port
		return s.ports[s.nodeAt[node].pi].inCount < s.injSlots
	}
	for v := 0; v < s.reqVCs; v++ {
		if s.slotsFree(node, v) > 0 {
			return true
		}
	}
	return false
}

func (s *Sim) alloc() int32 {
	s.live++
	if s.free >= 0 {
		k := s.free
		s.free = s.pk[k].aux
		return k
	}
	s.pk = append(s.pk, packet{})
	return int32(len(s.pk) - 1)
}

func (s *Sim) release(k int32) {
	s.live--
	s.pk[k].aux = s.free
	s.free = k
}

// newPacket creates a packet generated at cycle t and counts it.
func (s *Sim) newPacket(src, dst int, t int64, flags uint8) int32 {
	k := s.initPacket(s.alloc(), src, dst, t, flags)
	if s.ord != nil {
		s.ord.sent(k, &s.pk[k], s.N)
	}
	s.st.generated(s, int32(src), int32(dst), t, flags&fReply != 0)
	return k
}

// initPacket sets packet k up as generated at cycle t, not yet injected.
func (s *Sim) initPacket(k int32, src, dst int, t int64, flags uint8) int32 {
	dr := s.nodeAt[dst].router
	// minimal until a Valiant-type routing decides otherwise at injection
	s.pk[k] = packet{src: int32(src), dst: int32(dst), dstRouter: dr, dstGroup: s.rgroup[dr], inter: -1, gen: t, inj: -1,
		outPort: -1, vcPos: -1, flags: flags | fInterDone, aux: -1}
	return k
}

// enqueue puts packet k into injection VC vc of its source node; its head
// reaches the router after the injection latency.
func (s *Sim) enqueue(k int32, vc int, t int64) {
	if s.rn != nil {
		s.recnInject(k, t)
		return
	}
	if s.vq.on {
		vc = s.voqPlace(k, vc)
	}
	pk := &s.pk[k]
	node := int(pk.src)
	pk.vc = int16(vc)
	pk.entry = t + s.lat[topology.Injection]
	pi := int(s.nodeAt[node].pi)
	s.push(pi, vc, k, pk.entry)
	s.countIn(pi)
	if s.hk.arrive != nil {
		// the contention counters' arrival step: no call unless the
		// injection VC counts no packet
		if c := s.cga.cc; c != nil {
			if bi := pi*s.maxVC + vc; c.idle(bi) {
				s.ccHead(c, bi, int(s.nodeAt[node].router), pk)
			}
		}
		if len(s.hk.arrive) != 0 {
			s.arriveHooks(pi, vc, k)
		}
	}
	if s.held != nil {
		s.held[s.nodeAt[node].router]++
	}
}

// generate runs every node's injection process for this cycle.
func (s *Sim) generate() {
	now := s.now
	pat := s.pat
	if s.pat2 != nil && now >= s.switchAt {
		pat = s.pat2
		if now == s.switchAt && s.rate2 > 0 {
			s.stepLoad()
		}
	}
	if len(s.mech.pending) > 0 {
		s.injectControl()
	}
	if s.wl != nil && s.wl.generate() {
		return
	}
	flags := uint8(0)
	if s.cfg.Traffic.Reactive {
		flags = fRequest
	}
	if hot, senders := pat.Hotspot(); senders != nil && now >= s.hotFrom && now < s.hotTo {
		s.backlogged(hot, senders, flags)
	}
	if s.wakeups != nil {
		s.generateSkipping(pat, flags)
		return
	}
	for n := s.n0; n < s.n1; n++ {
		if s.wl != nil && s.wl.inJob(n) {
			continue
		}
		g := &s.gens[n]
		if s.hk.gen != nil && s.genHeld(n) > now {
			// held by a mechanism: no attempt this cycle (a source queue
			// still drains)
		} else if s.bursty {
			// the ON/OFF chain of thesis eqs. 1.4–1.8; the ON coin is flipped
			// only when the burst's VC has room, so back-pressure stretches a
			// burst in time but keeps its length in packets
			newBurst := false
			if !s.burstOn[n] {
				if s.chain.Off(g) {
					s.burstOn[n], newBurst = true, true
				}
			} else if s.srcQueue || s.burstRoom(n) {
				s.burstOn[n], newBurst = s.chain.On(g)
			}
			if newBurst {
				s.burstDst[n] = int32(pat.Dest(n, g))
			}
			if s.burstOn[n] && (s.srcQueue || s.burstRoom(n)) {
				s.inject(n, int(s.burstDst[n]), flags)
			}
		} else if g.Bernoulli(s.nodeThreshold(n)) && (s.srcQueue || s.hasRoom(n)) {
			// (FOGSim draws only when there is room; drawing first and
			// dropping the packet is the same process, and cheaper)
			s.inject(n, pat.Dest(n, g), flags)
		}
		if s.srcQueue {
			if s.sqAct != nil {
				// a node whose every flow with packets is held (flowGate)
				// sleeps until its wake cycle, one whose VCs are full until
				// one may have room (sqFull): not called
				if s.sqReady(n) {
					s.drainDest(n)
				}
			} else if s.sqHead[n] < int32(len(s.sq[n])) {
				s.drainSource(n)
			}
		}
	}
}

// nodeThreshold is node n's Bernoulli threshold: its class's under
// UR1UR2 (initGroups), else genThr.
func (s *Sim) nodeThreshold(n int) uint64 {
	if s.nodeThr != nil {
		return s.nodeThr[n]
	}
	return s.genThr
}

func (s *Sim) burstRoom(n int) bool {
	if s.injPolicy == 0 && s.rn == nil {
		return s.chooseVC(n, int(s.burstDst[n]), false) >= 0
	}
	return s.hasRoom(n)
}

// backlogged keeps HOTSPOT's senders at 100% of their injection bandwidth:
// each generates a packet to the hotspot in every cycle its injection
// buffer has room (with a source queue: when the queue is empty), as a
// sender that always has a message waiting.
func (s *Sim) backlogged(hot int, senders []int32, flags uint8) {
	for _, n32 := range senders {
		n := int(n32)
		if n < s.n0 || n >= s.n1 { // another partition's (parallel.go)
			continue
		}
		if s.hotTok != nil {
			// a fixed rate: a message (a packet without a source queue)
			// once its flits have accrued, whatever the sender holds
			s.hotTok[n] += s.hotRate
			if need := s.hotNeed(n); s.hotTok[n] >= need {
				s.hotTok[n] -= need
				s.inject(n, hot, flags)
			}
			continue
		}
		if s.hotNext != nil {
			s.atLinkRate(n, hot, flags)
			continue
		}
		if s.srcQueue && s.queued(n) || !s.srcQueue && !s.hasRoom(n) {
			continue
		}
		s.inject(n, hot, flags)
	}
}

// atLinkRate is traffic.hotspotLinkRate's sender n (Duato et al., A New
// Scalable and Cost-Effective Congestion Management Strategy for Lossless
// Multistage Interconnection Networks §4.2: the hotspot's sources inject
// "at the full link rate"): a packet (with a source queue, a message) to
// the hotspot once a packet time of its link (one phit a cycle) has passed
// since its last one. One its interface cannot take waits in the generator:
// under RECN the packet is made and held in its admittance queue, or in the
// generator when that is full (recnGenerate), and the sender makes nothing
// more until it fits; with a bounded source queue likewise (admitStalled);
// otherwise the sender makes nothing until its injection buffer has room.
// The wait is a stall, not a debt: the next packet comes a packet time
// after the one that waited (a token bucket one packet deep).
func (s *Sim) atLinkRate(n, hot int, flags uint8) {
	if s.now < s.hotNext[n] {
		return
	}
	if s.srcQueue {
		if s.stalled != nil && s.stalled[n] != 0 {
			return // its held message has not fitted yet
		}
		s.inject(n, hot, flags) // queued or held, never lost
		s.hotNext[n] = s.now + int64(s.P)*int64(s.messageSize(n))
		return
	}
	if !s.hasRoom(n) {
		return
	}
	live := s.live
	s.inject(n, hot, flags)
	if s.live != live { // made (the injection VC may still have refused it: then next cycle)
		s.hotNext[n] = s.now + int64(s.P)
	}
}

// initHotRate sets traffic.hotspotRate (flits per cycle per sender, Kim et
// al. §VI-B, Fig. 12: the senders throttled to a fixed rate). Each sender's
// bucket is one message deep; sender i of k starts i/k of a message full,
// so that the senders' messages arrive evenly spread rather than together.
func (s *Sim) initHotRate(rate float64) {
	s.hotRate = int64(math.Round(rate * 1e6))
	s.hotTok = make([]int64, s.N)
	if _, senders := s.pat.Hotspot(); senders != nil {
		for i, n := range senders {
			s.hotTok[n] = s.hotNeed(int(n)) * int64(i) / int64(len(senders))
		}
	}
}

// hotNeed is the tokens (millionths of a flit) of one generation by
// sender n: a message with a source queue, else a packet.
func (s *Sim) hotNeed(n int) int64 {
	f := int64(s.P)
	if s.srcQueue {
		f *= int64(s.messageSize(n))
	}
	return f * 1e6
}

// inject generates a packet from node n to dst (none when dst < 0: the
// pattern silences n): into its injection VC, or the source queue (there a
// message of traffic.messagePackets packets), or nowhere (FOGSim: the
// attempt is lost when the VC is full).
func (s *Sim) inject(n, dst int, flags uint8) {
	if dst < 0 {
		return
	}
	if s.rpf != nil && s.rpf.busy[n] > 0 && s.rpf.hold(s.now, n, dst) {
		return // the flow's reaction point holds it: the attempt is lost
	}
	if s.srcQueue {
		s.queueMessage(n, dst, flags)
		return
	}
	if s.rn != nil { // RECN's interface: its admittance queues (recnsim.go)
		s.recnGenerate(n, dst, flags)
		return
	}
	vc := s.chooseVC(n, dst, false)
	if vc < 0 {
		return
	}
	s.enqueue(s.newPacket(n, dst, s.now, flags), vc, s.now)
}

// drainSource moves the head of node n's source queue into an injection VC.
func (s *Sim) drainSource(n int) {
	k := s.sq[n][s.sqHead[n]]
	vc := s.chooseVCFor(n, k)
	if vc < 0 {
		return
	}
	s.enqueue(k, vc, s.now)
	s.sqHead[n]++
	if int(s.sqHead[n]) == len(s.sq[n]) { // empty: reuse the backing array
		s.sq[n], s.sqHead[n] = s.sq[n][:0], 0
	} else if int(s.sqHead[n]) > 1024 && int(s.sqHead[n])*2 > len(s.sq[n]) {
		m := copy(s.sq[n], s.sq[n][s.sqHead[n]:])
		s.sq[n], s.sqHead[n] = s.sq[n][:m], 0
	}
}

// injectControl moves the control packets waiting at their nodes into the
// injection VCs of the data set, in order, while they have room.
func (s *Sim) injectControl() {
	c := &s.mech.ctlPackets
	n0, kept := len(c.pending), 0
	// enqueue runs the arrival hooks, which may send more: to a node whose
	// queue is empty, they list it after n0 (a node is listed once, when its
	// queue turns non-empty; qHead moves after the loop, so node n's queue
	// stays non-empty meanwhile)
	for i := 0; i < n0; i++ {
		n := int(c.pending[i])
		q, h := c.q[n], int(c.qHead[n])
		for ; h < len(q); h++ {
			var vc int
			if c.tag[q[h]].prio {
				vc = s.ctlRoom(n, c.tag[q[h]].reply)
			} else {
				vc = s.chooseVCFor(n, q[h])
			}
			if vc < 0 {
				break
			}
			s.enqueue(q[h], vc, s.now)
			q = c.q[n] // a hook may have appended to it
		}
		if h == len(q) {
			c.q[n], c.qHead[n] = q[:0], 0
		} else {
			if h > 1024 && 2*h > len(q) { // reuse the consumed front
				q, h = q[:copy(q, q[h:])], 0
				c.q[n] = q
			}
			c.qHead[n] = int32(h)
			c.pending[kept] = int32(n)
			kept++
		}
	}
	c.pending = append(c.pending[:kept], c.pending[n0:]...)
}

// deliverControl hands control packet k, consumed at cycle t, to its
// mechanism, and frees it.
func (s *Sim) deliverControl(k int32, t int64) {
	c := &s.mech.ctlPackets
	tag := c.tag[k]
	c.tag[k] = ctlTag{}
	c.live--
	pk := &s.pk[k]
	n := &c.count[tag.mech-1]
	n.delivered++
	ph := int64(s.P)
	if tag.prio { // the priority class's length (its tag is cleared above)
		ph = int64(s.ctlP)
	}
	n.latSum += t - pk.gen + ph
	s.st.forgetHops(k)
	c.recv[tag.mech-1].receive(s, ctlPacket{k: k, src: pk.src, dst: pk.dst, sent: pk.gen, data: tag.data})
	s.release(k)
}

// deliver consumes packet k at its destination node at cycle t. A request
// turns into a reply in the injection VC reserved for it.
func (s *Sim) deliver(k int32, t int64) {
	if s.mech.live > 0 && s.isControl(k) {
		s.deliverControl(k, t)
		return
	}
	if s.wl != nil {
		s.wl.delivered(k, t)
	}
	if s.hk.eject != nil {
		s.ejectHooks(k, t)
	}
	pk := &s.pk[k]
	s.st.delivered(s, pk, t)
	if s.ord != nil {
		s.ord.delivered(k, pk, s.N)
	}
	if pk.flags&fRequest != 0 {
		node := int(pk.dst)
		vc := int(pk.replyVC)
		s.resv[s.injBuf(node, vc)]--
		lat := t - pk.gen + int64(s.P)
		src := int(pk.src)
		r := s.newPacket(node, src, t, fReply)
		s.pk[r].reqLat = lat
		s.enqueue(r, vc, t)
	}
	s.release(k)
}

// stepLoad sets the injection processes to traffic.switchLoad at the switch
// (a load step, ACOR paper §6.2.1): the Bernoulli threshold, the bursty
// chain, and for the skipping generator a new gap for every node, drawn from
// this cycle on (the process is memoryless, so redrawing is the same
// process at the new rate).
func (s *Sim) stepLoad() {
	msgPackets, _ := s.cfg.Traffic.Messages()
	s.genThr = rng.Threshold(s.rate2 / float64(msgPackets))
	if s.bursty {
		s.chain = traffic.NewBursty(s.rate2, s.cfg.Traffic.BurstLength)
	}
	if s.wakeups == nil {
		if !s.bursty && !s.srcQueue && s.wl == nil && s.cfg.Traffic.Load == 0 {
			// from no load: the skipping generator starts now
			s.geo = traffic.NewGeometric(s.rate2)
			s.startSkippingAt(s.now)
		}
		return
	}
	s.geo = traffic.NewGeometric(s.rate2)
	for i := range s.wakeups {
		s.wakeups[i] = s.wakeups[i][:0]
	}
	s.startSkippingAt(s.now)
}

// generateSkipping is the Bernoulli process without a coin per node per
// cycle: each node sleeps a geometric gap to its next packet (the same
// process), woken by a timing wheel.
func (s *Sim) generateSkipping(pat *traffic.Pattern, flags uint8) {
	slot := s.now & s.wakeMask
	due := s.wakeups[slot]
	for _, n32 := range due {
		n := int(n32)
		if s.nextGen[n] > s.now { // a long sleep, woken early by the wheel's size
			s.wake(n)
			continue
		}
		g := &s.gens[n]
		if s.hk.gen != nil {
			if until := s.genHeld(n); until > s.now {
				// held: the attempts before until are lost, and the next
				// one is drawn from until on (the process is memoryless)
				s.nextGen[n] = until - 1 + s.geo.Gap(g)
				s.wake(n)
				continue
			}
		}
		if s.hasRoom(n) {
			s.inject(n, pat.Dest(n, g), flags)
		}
		s.nextGen[n] = s.now + s.geo.Gap(g)
		s.wake(n)
	}
	s.wakeups[slot] = due[:0]
}

// wake schedules node n at its next generation cycle (or the farthest the
// wheel reaches).
func (s *Sim) wake(n int) {
	t := min(s.nextGen[n], s.now+s.wakeMask)
	slot := t & s.wakeMask
	s.wakeups[slot] = append(s.wakeups[slot], int32(n))
}

// startSkipping draws every node's first generation cycle.
func (s *Sim) startSkipping() {
	const size = 1 << 6 // small: the slots stay in cache; longer sleeps are re-queued
	s.wakeups, s.wakeMask = make([][]int32, size), size-1
	s.nextGen = make([]int64, s.N)
	s.startSkippingAt(0)
}

// startSkippingAt draws every node's next generation cycle from cycle t on
// (a packet may come at t itself).
func (s *Sim) startSkippingAt(t0 int64) {
	if s.wakeups == nil {
		const size = 1 << 6
		s.wakeups, s.wakeMask = make([][]int32, size), size-1
		s.nextGen = make([]int64, s.N)
	}
	for n := s.n0; n < s.n1; n++ {
		s.nextGen[n] = t0 + s.geo.Gap(&s.gens[n]) - 1
		t := min(s.nextGen[n], t0+s.wakeMask)
		slot := t & s.wakeMask
		s.wakeups[slot] = append(s.wakeups[slot], int32(n))
	}
}
