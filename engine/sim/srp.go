package sim

import (
	"fmt"
	"math"
	"math/bits"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// srp is the Speculative Reservation Protocol baseline of Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks" §III-B
// and §V-A, with the details the paper takes from the original SRP paper
// (its ref. [12]: the grant time, the ACK/NACK, where the drop check runs),
// marked [SRP-orig] below:
//
//   - Source: a message of congestion.srpMinPackets packets or more (the
//     node's message size) sends a reservation to its destination and
//     meanwhile sends its packets speculatively: on the isolated class at
//     strictly lowest priority (routed minimally: the class's sequence), at
//     most one message per destination (the flow is held after its last
//     packet until every speculative packet is ACKed or NACKed and the
//     grant has come). On the grant the flow leaves the speculative class;
//     its packets not yet sent or NACKed go on the data VCs at the granted
//     time, and a node transmits one granted message at a time: a message
//     granted takes the node's earliest slot from its t_g that overlaps no
//     other granted message's (a later grant that overlaps waits: the
//     grant-overlap latency of Fig. 5a), but never waits for a slot booked
//     further ahead, before which its node's link is idle (book). A
//     NACK before the grant stops the message's speculation [SRP-orig].
//     Smaller messages go on the data VCs without a reservation.
//   - Destination [SRP-orig]: t_g = max(now, t_res), t_res = t_g +
//     ⌈flits × (1 + srpOverhead)⌉; the grant carries t_g. A speculative
//     packet consumed is ACKed.
//   - Router [SRP-orig]: a speculative head whose queuing time summed over
//     its hops (head arrival to crossing; BookSim's
//     RESERVATION_QUEUING_DROP) exceeds srpDropThreshold is dropped, its
//     buffer slot's credit returned, and NACKed to its source from the
//     router. congestion.srpDropClock counts instead every cycle since the
//     packet left its source queue (sent: that simulator without the
//     option), since its message's reservation (message) or since its
//     generation (generated); congestion.srpDropAhead adds the wait still
//     ahead, the phits held downstream less the link's round trip (that
//     simulator's RESERVATION_BUFFER_SIZE_DROP; waited). The check runs every srpScan cycles over the busy
//     speculative queues' heads. The dropped packet is freed and counted
//     parked (in flight) until its NACK re-creates it at the source.
//
// Control packets: the paper's are 1 flit on 2 control VCs of the highest
// priority. Here they are 1-flit packets on the priority class (minimal;
// served before data at both allocator stages) with its 2 copies of VCs
// (ctlClass.replies): reservations on the request VCs (sendPriority),
// grants and ACKs on the reply VCs (sendReply), NACKs on the reply VCs
// from the dropping router's control injection input (sendFromRouterOn;
// held in the router's own queue, nackQ[r], while that input is full: the
// SRP paper's router turns the dropped head into a NACK on the spot, so a
// router's NACKs never wait for another router's). The copies are not needed
// against deadlock here (a control packet is consumed unconditionally at
// its node, the answer waits in the node's control queue: engine/TIMING.md,
// "Why it cannot deadlock"), but keep a reservation from waiting behind
// ACKs. The paper's 2 speculative VCs become the isolated class: with UGAL on
// a flattened butterfly a copy of UGAL's VC sequence, the speculative
// packets routed by UGAL at their source router on the class's own
// occupancy (isoDecide; the paper's SRP(UGAL) sends them non-minimally,
// §III-B); otherwise MIN's sequence (one VC on a flattened butterfly, 2
// local + 1 global on a Dragonfly), routed minimally.
type srp struct {
	id   int
	p    config.SRPParams
	spec uint16 // the packet bit: sent speculatively
	// per flow src·N + dst
	cur     []int32 // packets of the message in progress: > 0 reserved, < 0 minus the packets of an unreserved one still to leave (0: none)
	left    []int32 // of a reserved one, still in the source queue (NACKed ones included)
	out     []int32 // its speculative packets not yet ACKed or NACKed
	granted []bool
	start   []int64     // granted: when its non-speculative packets may leave
	tg      []int64     // granted: the grant's t_g, before which none may leave
	pend    srpSizes    // the sizes of the messages queued behind the one in progress
	tx      [][]srpSlot // per node: its granted messages' transmission slots, by start
	tRes    []int64     // per destination: its ejection schedule
	acc     []int64     // per packet id: a speculative packet's queuing over its earlier hops (clock queuing), else the cycle its clock starts
	begun   []int64     // per flow: when its message in progress sent its reservation
	clock   srpClock    // what the time-to-wait counts (congestion.srpDropClock)
	// results: window counts (packets leaving source queues; drops)
	sentPk, specPk, dropped int64
	resPk                   int64   // of sentPk, the packets of reserved messages (speculative or not)
	reservations, drops     int64   // the whole run
	ctl                     int64   // control messages sent
	portNode                []int32 // by injection port: its node
	// per router: the NACKs waiting for room in its control injection
	// input (sendFromRouter), in the order dropped, retried at every scan;
	// the dropped packet stays parked meanwhile
	nackQ      [][]srpNackWait
	nackWaited int64 // NACKs that waited in nackQ
	jobRes     int64 // reservations for a Graph500 job's messages (a job with a mechanism runs sequentially: not in counts)
}

// srpSizes is SRP's one queue of pending messages: per flow, the sizes of
// the messages queued behind the one in progress, in order, as runs of
// equal sizes (a synthetic node's messages are all one size: one run per
// flow; a Graph500 job's differ: a run per change of size). A flow's runs
// are a list in its source node's pool (nodes are owned by one partition,
// parallel_srp.go), a freed run reused by the node's next.
type srpSizes struct {
	head, tail []int32    // per flow: 1 + its first and last run in its node's pool (0: none)
	pool       [][]srpRun // per node
	free       []int32    // per node: 1 + its first free run (0: none)
}

// srpRun is count messages of size packets, and the flow's next run (1 +
// its index; 0: none).
type srpRun struct {
	size, count, next int32
}

func (q *srpSizes) init(N int) {
	q.head, q.tail = make([]int32, N*N), make([]int32, N*N)
	q.pool, q.free = make([][]srpRun, N), make([]int32, N)
}

// push queues a message of size packets behind flow f's (of node n).
func (q *srpSizes) push(n, f int, size int32) {
	pool := q.pool[n]
	if t := q.tail[f]; t > 0 && pool[t-1].size == size {
		pool[t-1].count++
		return
	}
	i := q.free[n]
	if i > 0 {
		q.free[n] = pool[i-1].next
		pool[i-1] = srpRun{size, 1, 0}
	} else {
		q.pool[n] = append(pool, srpRun{size, 1, 0})
		pool, i = q.pool[n], int32(len(q.pool[n]))
	}
	if t := q.tail[f]; t > 0 {
		pool[t-1].next = i
	} else {
		q.head[f] = i
	}
	q.tail[f] = i
}

// pop takes the size of flow f's first message queued (0: none).
func (q *srpSizes) pop(n, f int) int32 {
	h := q.head[f]
	if h == 0 {
		return 0
	}
	r := &q.pool[n][h-1]
	size := r.size
	if r.count--; r.count == 0 {
		q.head[f] = r.next
		if r.next == 0 {
			q.tail[f] = 0
		}
		r.next, q.free[n] = q.free[n], h
	}
	return size
}

// srpNackWait is a NACK to node `to` (payload data) not yet sent.
type srpNackWait struct {
	to   int32
	data int64
}

// srpScan is the drop check's period: a speculative packet is dropped at
// most this many cycles past its threshold (2,000 by default: 1.6%).
const srpScan = 32

// control packet kinds, the payload's low 2 bits
const (
	srpRes = iota
	srpGrant
	srpAck
	srpNack
)

func init() { register("srp", func() mechanism { return &srp{} }) }

func (m *srp) attach(s *Sim, id int) error {
	m.id, m.p = id, s.cfg.Congestion.SRP()
	if err := s.needFlowHolds(); err != nil {
		return fmt.Errorf("congestion.scheme=srp: %v", err)
	}
	if !s.iso.on || !s.iso.low {
		return fmt.Errorf("mechanisms: srp needs the strictly-lowest isolated class for its speculative packets")
	}
	if s.cga.cc != nil {
		return fmt.Errorf("congestion.scheme=srp: routing.name=%s keeps contention counters, which a dropped packet would leave wrong; use MIN, VAL or UGAL", s.cfg.Routing.Name)
	}
	sh, err := s.claimPacketBits(1)
	if err != nil {
		return err
	}
	m.spec = 1 << sh
	nf := s.N * s.N
	m.cur, m.left, m.out = make([]int32, nf), make([]int32, nf), make([]int32, nf)
	m.granted, m.start, m.tg = make([]bool, nf), make([]int64, nf), make([]int64, nf)
	m.begun, m.clock = make([]int64, nf), srpClocks[m.p.DropClock]
	m.pend.init(s.N)
	m.tx, m.tRes = make([][]srpSlot, s.N), make([]int64, s.N)
	m.nackQ = make([][]srpNackWait, s.R)
	if err := s.needPriorityPackets(id); err != nil {
		return fmt.Errorf("congestion.scheme=srp: %v", err)
	}
	s.onMessage = func(n, dst, packets int) { m.message(s, n, dst, packets) }
	s.hk.sent = append(s.hk.sent, func(n, dst int, k int32) { m.sent(s, n, dst, k) })
	// a node whose open flows find no room in their injection VCs sleeps
	// until a packet leaves its injection port (a grant, a drop there)
	s.fg.sleepFull = true
	m.portNode = make([]int32, len(s.ports))
	for n := range s.N {
		m.portNode[s.nodeAt[n].pi] = int32(n)
	}
	s.hk.grant = append(s.hk.grant, m.grantHook(s))
	s.hk.eject = append(s.hk.eject, m.ejectHook(s))
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: srpScan, f: func() { m.scan(s) }, on: srpScanOn})
	return nil
}

// grantHook wakes the node whose injection port a packet leaves and adds
// a speculative packet's wait at this hop to its queuing time.
func (m *srp) grantHook(s *Sim) func(r, in, out, vc, outVC int, k int32) {
	return func(r, in, out, vc, outVC int, k int32) {
		pi := r*s.radix + in
		if s.ports[pi].class == topology.Injection {
			s.fg.wake[m.portNode[pi]] = 0
		}
		if s.pk[k].mech&m.spec != 0 && m.clock == clockQueuing {
			m.acc[k] += s.now - s.pk[k].entry
		}
	}
}

// ejectHook ACKs a speculative packet consumed at its destination.
func (m *srp) ejectHook(s *Sim) func(k int32, _ int64) {
	return func(k int32, _ int64) {
		if pk := &s.pk[k]; pk.mech&m.spec != 0 {
			m.send(s, srpAck, int(pk.dst), int(pk.src), 0)
		}
	}
}

// send sends a control packet of a kind from node `from` to node `to`,
// payload ≤ 2³⁶ (a NACK: drop), on the priority class.
func (m *srp) send(s *Sim, kind int64, from, to int, payload int64) {
	m.ctl++
	if d := (payload<<24|int64(from))<<2 | kind; kind == srpRes {
		s.sendPriority(m.id, from, to, d) // a request
	} else {
		s.sendReply(m.id, from, to, d)
	}
}

// receive hands a control packet consumed at its node to control.
func (m *srp) receive(s *Sim, p ctlPacket) {
	m.control(s, controlMsg{at: s.now, mech: int32(m.id), to: p.dst, data: p.data})
}

// control receives a control message at node msg.to: a reservation at its
// destination, a grant, ACK or NACK at the source.
func (m *srp) control(s *Sim, msg controlMsg) {
	to, kind := int(msg.to), msg.data&3
	if kind == srpNack {
		m.nack(s, to, msg.data>>2)
		return
	}
	from, payload := int(msg.data>>2&(1<<24-1)), msg.data>>26
	switch kind {
	case srpRes:
		tg := max(s.now, m.tRes[to])
		m.tRes[to] = tg + int64(math.Ceil(float64(payload*int64(s.P))*(1+m.p.Overhead)))
		m.send(s, srpGrant, to, from, tg)
	case srpGrant:
		m.grant(s, to, from, payload)
	case srpAck:
		m.out[to*s.N+from]--
		m.done(s, to, from)
	}
}

// message: a message of `packets` packets joined flow n → dst's queue
// (synthetic: all its packets; a Graph500 job's: its first, workload.go
// queue); an idle flow starts it.
func (m *srp) message(s *Sim, n, dst, packets int) {
	m.pend.push(n, n*s.N+dst, int32(packets))
	m.next(s, n, dst)
}

// next starts flow n → dst's next message queued when the flow has none
// in progress: a reservation for one of srpMinPackets packets or more,
// else its packets go on the data VCs and the message after it waits for
// them to leave.
func (m *srp) next(s *Sim, n, dst int) {
	f := n*s.N + dst
	if m.cur[f] != 0 {
		return
	}
	if p := int(m.pend.pop(n, f)); p >= m.p.MinPackets {
		m.begin(s, n, dst, p)
	} else {
		m.cur[f] = int32(-p)
	}
}

// begin starts the flow's next message: its reservation, and speculation.
func (m *srp) begin(s *Sim, n, dst, packets int) {
	f := n*s.N + dst
	m.cur[f], m.left[f], m.out[f], m.granted[f] = int32(packets), int32(packets), 0, false
	s.setIsoFlow(n, dst, true)
	s.holdFlow(n, dst, s.now)
	m.begun[f] = s.now
	m.reservations++
	if s.wl != nil && s.wl.inJob(n) {
		m.jobRes++
	}
	m.send(s, srpRes, n, dst, int64(packets))
}

// sent: packet k of flow n → dst left its source queue (speculatively when
// the flow is on the isolated class).
func (m *srp) sent(s *Sim, n, dst int, k int32) {
	f := n*s.N + dst
	win := s.now >= s.W && s.now < s.W+s.M
	if win {
		m.sentPk++
	}
	if m.cur[f] < 0 { // a message below the minimum
		if m.cur[f]++; m.cur[f] == 0 {
			m.next(s, n, dst)
		}
		return
	}
	m.left[f]--
	if win {
		m.resPk++
	}
	if s.iso.flow[f] {
		s.pk[k].mech |= m.spec
		for int(k) >= len(m.acc) {
			m.acc = append(m.acc, make([]int64, len(s.pk)-len(m.acc))...)
		}
		switch m.clock {
		case clockQueuing:
			m.acc[k] = 0 // summed over its hops by grantHook
		case clockSent:
			m.acc[k] = s.now
		case clockMessage:
			m.acc[k] = m.begun[f]
		default: // generated
			m.acc[k] = s.pk[k].gen
		}
		m.out[f]++
		if win {
			m.specPk++
		}
	}
	if m.left[f] == 0 {
		s.holdFlow(n, dst, math.MaxInt64) // one message per destination
		m.done(s, n, dst)
	}
}

// done ends the flow's message when it is granted, sent and every
// speculative packet resolved, and starts the next one queued.
func (m *srp) done(s *Sim, n, dst int) {
	f := n*s.N + dst
	if !m.granted[f] || m.left[f] > 0 || m.out[f] > 0 {
		return
	}
	m.cur[f] = 0
	s.holdFlow(n, dst, s.now)
	m.next(s, n, dst)
}

// grant: flow n → dst's reservation is granted from cycle tg; its packets
// left go on the data VCs then, in the node's first slot free for them.
func (m *srp) grant(s *Sim, n, dst int, tg int64) {
	f := n*s.N + dst
	m.granted[f], m.tg[f] = true, tg
	s.setIsoFlow(n, dst, false)
	if m.left[f] > 0 {
		st := m.book(s, n, f, max(tg, s.now), int64(m.left[f])*int64(s.P))
		m.start[f] = st
		s.holdFlow(n, dst, st)
		return
	}
	m.done(s, n, dst)
}

// srpSlot is a granted message's transmission at its source node: flow f
// from cycle start to end.
type srpSlot struct {
	start, end int64
	f          int32
}

// book gives flow f (of node n) the node's earliest slot of d cycles from
// cycle t that overlaps none of its slots booked, and returns its start.
// A node transmits one granted message at a time (Kim et al.,
// Contention-based Congestion Management in Large-Scale Networks §III-B:
// the message whose grant overlaps another's "will need to be stalled at
// the source and wait until the other message has been transmitted"), so
// a message waits for the slots before its end; but not for one booked
// further ahead (a grant whose t_g lies far in the future, as a hotspot's
// backlogged schedule gives: the link is idle until then), which the SRP
// paper's source does not wait for either (Jiang et al., Network
// Congestion Avoidance through Speculative Reservation: each message
// leaves at its own grant time). The slots ended are forgotten.
func (m *srp) book(s *Sim, n, f int, t, d int64) int64 {
	sl := m.tx[n][:0]
	for _, x := range m.tx[n] {
		if x.end > s.now {
			sl = append(sl, x)
		}
	}
	i := 0
	for ; i < len(sl) && sl[i].start < t+d; i++ {
		t = max(t, sl[i].end) // overlaps: after it
	}
	sl = append(sl, srpSlot{})
	copy(sl[i+1:], sl[i:])
	sl[i] = srpSlot{t, t + d, int32(f)}
	m.tx[n] = sl
	return t
}

// NACK payload: the dropped packet's generation cycle (29 bits: runs are
// below 2·10⁸ cycles), flags and destination (24 bits).
func nackData(gen int64, flags uint8, dst int32) int64 {
	return (gen<<32|int64(flags)<<24|int64(dst))<<2 | srpNack
}

// nack: a speculative packet of node n (payload nackData) was dropped; it
// is queued again at the head of its flow, to go after the grant.
func (m *srp) nack(s *Sim, n int, d int64) {
	gen, flags, dst := d>>32, uint8(d>>24), int(d&(1<<24-1))
	f := n*s.N + dst
	m.out[f]--
	s.parked--
	k := s.initPacket(s.alloc(), n, dst, gen, flags&(fRequest|fReply)) // routed afresh
	if s.wl != nil {
		s.wl.unpark(n, gen, k)
	}
	q := s.destQueue(n, dst)
	if h := s.sqHead[q]; h > 0 {
		s.sqHead[q]--
		s.sq[q][h-1] = k
	} else {
		s.sq[q] = append(s.sq[q], 0)
		copy(s.sq[q][1:], s.sq[q])
		s.sq[q][0] = k
	}
	m.left[f]++
	if !m.granted[f] {
		s.holdFlow(n, dst, math.MaxInt64) // no more speculation: wait for the grant
		return
	}
	if m.start[f] > s.now && m.left[f] > 1 {
		// joins the packets waiting for their slot, which it lengthens
		for i := range m.tx[n] {
			if x := &m.tx[n][i]; int(x.f) == f && x.start == m.start[f] {
				x.end += int64(s.P)
				break
			}
		}
		return
	}
	// not before t_g, even when every packet had left speculatively by the
	// grant: its reservation is the slot the destination keeps for it
	st := m.book(s, n, f, max(s.now, m.tg[f]), int64(s.P))
	m.start[f] = st
	s.holdFlow(n, dst, st)
}

// scan sends the NACKs waiting at each router and drops the speculative
// heads whose queuing time exceeds the threshold, at every router's busy
// inputs (the Sim's routers: a partition's own, parallel_srp.go).
func (m *srp) scan(s *Sim) {
	m.scanRange(s, s.r0, s.r1)
	for i := 0; i < len(s.rMore); i += 2 {
		m.scanRange(s, s.rMore[i], s.rMore[i+1])
	}
}

// scanRange is scan on routers [r0, r1).
func (m *srp) scanRange(s *Sim, r0, r1 int) {
	now := s.now
	for r := r0; r < r1; r++ {
		if q := m.nackQ[r]; len(q) > 0 { // the router's NACKs waiting for room, in order
			i := 0
			for ; i < len(q); i++ {
				if s.sendFromRouterOn(m.id, r, int(q[i].to), q[i].data, true) < 0 {
					s.cc.dropped[m.id]-- // it waits on
					break
				}
			}
			m.nackQ[r] = q[:copy(q, q[i:])]
		}
		for w := 0; w < 2; w++ {
			for im := s.inMask[2*r+w]; im != 0; im &= im - 1 {
				in := w<<6 | bits.TrailingZeros64(im)
				pi := r*s.radix + in
				cl := s.ports[pi].class
				for q := int(s.isoBase[cl]); q < min(int(s.ctlBase[cl]), s.nq[cl]); q++ {
					b := &s.bufs[pi*s.maxVC+q]
					for b.len > 0 && int64(b.hEntry) <= now && m.waited(s, r, b, now) > m.p.DropThreshold {
						m.drop(s, r, in, q)
					}
				}
			}
		}
	}
}

// srpClock is congestion.srpDropClock, resolved once at attach.
type srpClock uint8

const (
	clockQueuing srpClock = iota
	clockSent
	clockMessage
	clockGenerated
)

var srpClocks = map[string]srpClock{"queuing": clockQueuing, "sent": clockSent, "message": clockMessage, "generated": clockGenerated}

// waited is the time-to-wait the head of buffer b of router r has spent
// (congestion.srpDropClock), plus, with srpDropAhead, the wait still ahead
// of it once routed: the phits held in the next router's buffer on its
// route less the link's round trip (the original SRP simulator's
// buffer-size drop; not towards a node).
func (m *srp) waited(s *Sim, r int, b *buffer, now int64) int64 {
	var w int64
	if m.clock == clockQueuing {
		w = m.acc[b.hd] + now - int64(b.hEntry)
	} else { // every cycle since acc
		w = now - m.acc[b.hd]
	}
	if m.p.DropAhead && b.hOut >= 0 {
		po := r*s.radix + int(b.hOut)
		if cl := s.ports[po].class; cl != topology.Injection {
			w += max(0, int64(s.bufCap[cl]-s.credits[po*s.maxVC+int(b.hVC)])-2*s.lat[cl])
		}
	}
	return w
}

// drop removes the head of queue q of input in of router r, returns its
// slot's credit upstream, and NACKs it to its source from the router. The
// pop repeats grant's (router.go) on purpose: a shared function is too big
// to inline and costs MIN 1.4% per packet-hop at every grant.
func (m *srp) drop(s *Sim, r, in, q int) {
	pi := r*s.radix + in
	ip := &s.ports[pi]
	b := &s.bufs[pi*s.maxVC+q]
	k := b.hd
	b.head++
	if b.head == b.cap {
		b.head = 0
	}
	b.len--
	if b.len > 0 {
		s.setHead(b)
	} else if s.vq.on {
		s.voqBusy(pi, q, false)
	} else {
		s.vcBusy[pi] &^= 1 << (uint(q) & 31)
	}
	ip.inCount--
	ip.inWait = 0 // the next head may request at once
	if ip.inCount == 0 {
		s.inMask[2*r+in>>6] &^= 1 << (in & 63)
	}
	if ip.class != topology.Injection {
		if s.xp == nil {
			s.returnCredit(pi, q, s.now, true, ip.class == topology.Global)
		} else { // a partition: the upstream router may be across the cut
			s.creditBack(pi, q, s.now, true, ip.class == topology.Global)
		}
	} else {
		s.fg.wake[m.portNode[pi]] = 0 // room in its node's injection VC
		s.sqRoom(pi)
	}
	if s.held != nil {
		s.held[r]--
	}
	s.lastProgress = max(s.lastProgress, s.now)
	pk := &s.pk[k]
	src, d := int(pk.src), nackData(pk.gen, pk.flags, pk.dst)
	if s.now >= s.W && s.now < s.W+s.M {
		m.dropped++
	}
	m.drops++
	if s.wl != nil { // a job packet's metadata waits for its re-creation
		s.wl.park(k)
	}
	s.st.forgetHops(k)
	s.release(k)
	s.parked++
	m.ctl++
	m.nackFrom(s, r, src, d)
}

// nackFrom sends a NACK from router r to node `to`, or queues it in r's
// queue when r's control injection input is full or r has NACKs waiting
// (sent at a later scan, in order).
func (m *srp) nackFrom(s *Sim, r, to int, d int64) {
	if len(m.nackQ[r]) == 0 {
		if s.sendFromRouterOn(m.id, r, to, d, true) >= 0 {
			return
		}
		s.cc.dropped[m.id]-- // not lost: it waits in nackQ
	}
	m.nackWaited++
	m.nackQ[r] = append(m.nackQ[r], srpNackWait{int32(to), d})
}

// report: the share of the window's packets that left their source queue
// speculatively, the share of those dropped (window drops over window
// speculative packets), and the run's reservations and drops (beside a
// Graph500 job, also those for the job's messages).
func (m *srp) report(s *Sim) (string, map[string]float64) {
	r := map[string]float64{
		"speculativeShare": shareOf(m.specPk, m.sentPk),
		// the paper's "52% of the packets were sent speculatively" (Kim et
		// al. §V-B, Fig. 8c) can only be of the reserved messages' packets
		// (UR1's: a third of all at UR1 0.4, UR2 0.9)
		"speculativeShareReserved": shareOf(m.specPk, m.resPk),
		"droppedShare":             shareOf(m.dropped, m.specPk),
		"reservations":             float64(m.reservations), "drops": float64(m.drops),
		"controlMessages": float64(m.ctl)}
	if s.wl != nil { // beside a Graph500 job: its messages' share
		r["jobReservations"] = float64(m.jobRes)
	}
	return "srp", r
}
