package sim

import (
	"fmt"
	"math"
	"math/bits"

	"phitsim/engine/rng"
)

// Messages and per-destination source queues: the network interface of
// Kim et al., "Contention-based Congestion Management in Large-Scale
// Networks" §V-A. A generation event creates a message of msgPackets
// packets to one destination; with per-destination queues a node keeps
// one FIFO per destination that has packets (InfiniBand queue pairs) and
// serves them round-robin into its injection VCs, one packet per cycle as
// the single source queue does.
//
// The per-destination FIFOs are entries of s.sq past the N node queues,
// taken from a pool and returned when they empty, so that their backing
// arrays are reused and the census finds their packets as it finds the
// node queues'.

// msgQueues is the state of messages and per-destination queues.
type msgQueues struct {
	msgPackets int
	sqAct      [][]sqDest // per node: the destinations with packets, in round-robin order
	sqRR       []int32    // per node: the index in sqAct of the next to serve
	sqFree     []int32    // per-destination FIFOs (indices into sq) not in use
	// nodeMsg: per node, its message size when the nodes' differ (UR1UR2's
	// classes); nil: msgPackets for every node
	nodeMsg []int32
	nodeThr []uint64 // with nodeMsg: per node, its Bernoulli threshold (messages per cycle)
	// onMessage: a mechanism's look at each message queued (SRP's
	// reservations, srp.go); nil: none
	onMessage func(n, dst, packets int)
	// admCap: the most packets a per-destination FIFO holds
	// (traffic.admittanceQueue; 0 unbounded); stalled: per node, 1 + the
	// destination of the message its generator holds for want of room, 0
	// none (nil when unbounded)
	admCap  int
	stalled []int32
	stallF  []uint8 // per node: the held message's flags
	// sqByVC: drainDest may find a destination's room by its injection VC
	// (drainDestByVC): under router.injectionPolicy=dest without
	// per-output injection queues (perQueue routes the packet at each
	// attempt), queues split by destination (4q, voqnet) or RECN's
	// interfaces, whose attempts chooseVCFor makes one by one
	// (initDrainByVC); sqSlow forces the one-by-one scan (tests)
	sqByVC, sqSlow bool
	// with sqByVC: per node, bit v set while a destination of request VC v
	// (⌊dst·VCs/N⌋) has packets, and per node and VC (n·VCs + v) how many
	sqVCs []uint64
	sqPer []int32
	// sqFull, with sqByVC: per node, true while none of its destinations
	// finds room (drainDestByVC found none), until a packet leaves its
	// injection port (grant, SRP's drop), a destination is added
	// (destQueue) or a flow changes class (setIsoFlow), the only events
	// that can give one room; the generator does not call drainDest
	// meanwhile. Never set under a flow gate or with reservations for
	// replies. sqPort: per port, its node (injection ports)
	sqFull []bool
	sqPort []int32
}

// initGroups gives UR1UR2's classes their message sizes and loads: UR1
// (group 0) m-packet messages at traffic.load (genThr), UR2
// single packets at traffic.ur2Load (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-B, Figs. 5b and 8c).
func (s *Sim) initGroups(m int) {
	s.nodeMsg, s.nodeThr = make([]int32, s.N), make([]uint64, s.N)
	ur2 := rng.Threshold(s.cfg.Traffic.UR2Load() / float64(s.P))
	for n := range s.N {
		if s.pat.Group(n) == 0 {
			s.nodeMsg[n], s.nodeThr[n] = int32(m), s.genThr
		} else {
			s.nodeMsg[n], s.nodeThr[n] = 1, ur2
		}
	}
}

// messageSize is node n's message size in packets.
func (s *Sim) messageSize(n int) int {
	if s.nodeMsg != nil {
		return int(s.nodeMsg[n])
	}
	return s.msgPackets
}

// sqDest is a destination with packets at a node, and its FIFO (an index
// into s.sq).
type sqDest struct {
	dst, q int32
}

// initMessages sets up messages of m packets (m ≤ 1: single packets) and,
// with perDst, the per-destination queues.
func (s *Sim) initMessages(m int, perDst bool) {
	s.msgPackets = max(m, 1)
	if perDst {
		s.sqAct = make([][]sqDest, s.N)
		s.sqRR = make([]int32, s.N)
	}
}

// initAdmittance bounds the per-destination queues to c packets (the
// network interface's admittance queues of Duato et al., A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks §4.1, whose size the paper does not give): a
// message that finds its queue full is held, and its node's generator
// stalls until it fits, so that a blocked destination bounds its senders'
// backlog instead of dropping their packets.
func (s *Sim) initAdmittance(c int) {
	if c > 0 && s.sqAct != nil {
		s.admCap, s.stalled, s.stallF = c, make([]int32, s.N), make([]uint8, s.N)
		// the generator hook: no cost to runs without the bound
		s.hk.gen = append(s.hk.gen, s.admitStalled)
	}
}

// admitStalled is the generator hook of bounded admittance queues: it
// retries node n's held message, whose packets are generated when it fits,
// and holds n's generator for this cycle (its attempt was the held
// message's); 0 when n holds none.
func (s *Sim) admitStalled(n int) int64 {
	if s.stalled[n] == 0 {
		return 0
	}
	dst, flags := int(s.stalled[n]-1), s.stallF[n]
	s.stalled[n] = 0
	s.queueMessage(n, dst, flags)
	return s.now + 1
}

// queueMessage puts a message from node n to dst into n's source queue
// (its queue for dst with per-destination queues), or, when that queue is
// bounded and full, holds it and stalls n's generator (admitStalled).
func (s *Sim) queueMessage(n, dst int, flags uint8) {
	q, m := n, s.messageSize(n)
	if s.sqAct != nil {
		if s.stalled != nil && s.admQueued(n, dst)+m > s.admCap {
			s.stalled[n], s.stallF[n] = int32(dst+1), flags
			return
		}
		q = s.destQueue(n, dst)
	}
	for range m {
		s.sq[q] = append(s.sq[q], s.newPacket(n, dst, s.now, flags))
	}
	if s.onMessage != nil {
		s.onMessage(n, dst, m)
	}
}

// destQueue is node n's FIFO for dst, opened at the end of the round-robin
// order when dst has no packets queued. The scan is over the destinations
// with packets, once per message.
func (s *Sim) destQueue(n, dst int) int {
	act := s.sqAct[n]
	for _, a := range act {
		if int(a.dst) == dst {
			return int(a.q)
		}
	}
	var q int32
	if l := len(s.sqFree); l > 0 {
		q, s.sqFree = s.sqFree[l-1], s.sqFree[:l-1]
	} else {
		q = int32(len(s.sq))
		s.sq = append(s.sq, nil)
		s.sqHead = append(s.sqHead, 0)
	}
	s.sqAct[n] = append(act, sqDest{int32(dst), q})
	if s.sqByVC {
		v := s.dstVC(dst)
		s.sqPer[n*s.reqVCs+v]++
		s.sqVCs[n] |= 1 << v
		s.sqFull[n] = false
	}
	if s.fg.wake != nil {
		s.fg.wake[n] = 0 // a new flow: the node is worth a look
	}
	return int(q)
}

// admQueued is the packets node n holds for dst (the scan over its
// destinations with packets, as destQueue's).
func (s *Sim) admQueued(n, dst int) int {
	for _, a := range s.sqAct[n] {
		if int(a.dst) == dst {
			return len(s.sq[a.q]) - int(s.sqHead[a.q])
		}
	}
	return 0
}

// queued reports whether node n has packets in its source queue(s).
func (s *Sim) queued(n int) bool {
	if s.stalled != nil && s.stalled[n] != 0 {
		return true
	}
	if s.sqAct != nil {
		return len(s.sqAct[n]) > 0
	}
	return s.sqHead[n] < int32(len(s.sq[n]))
}

// flowGate is the flow eligibility of per-destination source queues: a
// mechanism holds one flow (node, destination) until a cycle (ECN's
// inter-packet delay; a token bucket's next packet), and the round-robin
// serves only the flows not held, so that a held flow never blocks the
// node's others (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §IV-B3: the arbiter considers only eligible queues).
// Nothing polls the held flows: a node whose flows with packets are all
// held sleeps until the earliest opens (wake), and is woken early by a new
// destination or a hold that shrinks. nil until a mechanism asks
// (needFlowHolds): drainDest then pays one nil test.
type flowGate struct {
	until []int64 // by flow n·N + dst: its queue is not served before this cycle
	wake  []int64 // per node: no flow of it opens before this cycle
	// sleepFull: a node none of whose open flows finds room sleeps too,
	// until its owner wakes it at a departure from its injection port
	// (SRP, whose speculative flows wait long for their one VC)
	sleepFull bool
}

// needFlowHolds lets mechanisms hold flows (holdFlow); it needs
// per-destination source queues.
func (s *Sim) needFlowHolds() error {
	if s.sqAct == nil {
		return fmt.Errorf("mechanisms: holding a flow needs traffic.sourceQueue=true and traffic.sourceQueues=perDestination")
	}
	if s.fg.until == nil {
		s.fg.until, s.fg.wake = make([]int64, s.N*s.N), make([]int64, s.N)
	}
	return nil
}

// holdFlow holds flow n → dst until cycle `until` (≤ now: releases it). A
// hold may be extended or shortened at any time.
func (s *Sim) holdFlow(n, dst int, until int64) {
	s.fg.until[n*s.N+dst] = until
	if until < s.fg.wake[n] {
		s.fg.wake[n] = until
	}
}

// initDrainByVC decides, once the simulator is built, whether drainDest
// finds a destination's room by its injection VC (sqByVC).
func (s *Sim) initDrainByVC() {
	s.sqByVC = s.sqAct != nil && s.injPolicy == 0 && !s.vq.perQ && !s.vq.split && s.rn == nil && s.reqVCs <= 64
	if s.sqByVC {
		s.sqVCs, s.sqPer = make([]uint64, s.N), make([]int32, s.N*s.reqVCs)
		s.sqFull, s.sqPort = make([]bool, s.N), make([]int32, len(s.ports))
		for n := range s.N {
			s.sqPort[s.nodeAt[n].pi] = int32(n)
		}
	}
}

// sqRoom is cleared at a departure from injection port pi: its node's
// injection VCs may have room (sqFull).
func (s *Sim) sqRoom(pi int) {
	if s.sqFull != nil {
		s.sqFull[s.sqPort[pi]] = false
	}
}

// sqReady reports whether node n's per-destination queues are worth a
// drainDest this cycle: it has packets queued, not every flow of it is
// held (flowGate), and its VCs were not all found full since the last
// event that can give them room (sqFull).
func (s *Sim) sqReady(n int) bool {
	return len(s.sqAct[n]) > 0 && (s.fg.until == nil || s.fg.wake[n] <= s.now) && (s.sqFull == nil || !s.sqFull[n])
}

// dstVC is the request VC of router.injectionPolicy=dest for a packet to
// dst (pickVC's).
func (s *Sim) dstVC(dst int) int { return int(int64(dst) * int64(s.reqVCs) / int64(s.N)) }

// drainDest moves the head packet of node n's next destination in the
// round-robin into an injection VC, and turns to the destination after it.
// A destination whose VC has no room (router.injectionPolicy=dest) passes
// its turn to the next one, so that it does not block the others (the
// point of queue pairs); with rand or jsq no room for one is no room for
// any, and the turn stays. A held flow (flowGate) passes its turn.
func (s *Sim) drainDest(n int) {
	if s.sqByVC && !s.sqSlow {
		s.drainDestByVC(n)
		return
	}
	act := s.sqAct[n]
	i := int(s.sqRR[n])
	if i >= len(act) {
		i = 0
	}
	gate := s.fg.until != nil // the caller skips a node whose every flow with packets is held
	vc, tries, tried := -1, len(act), false
	open := int64(math.MaxInt64)
	for ; tries > 0; tries-- {
		if gate {
			if u := s.fg.until[n*s.N+int(act[i].dst)]; u > s.now {
				open = min(open, u)
				if i++; i == len(act) {
					i = 0
				}
				continue
			}
		}
		tried = true
		// (voqnet's injection queues are per destination, and perQueue's
		// per output: a full one passes too)
		if vc = s.chooseVCFor(n, s.sq[act[i].q][s.sqHead[act[i].q]]); vc >= 0 || s.injPolicy != 0 && s.vq.kind != voqNet && !s.vq.perQ {
			break
		}
		if i++; i == len(act) {
			i = 0
		}
	}
	if vc < 0 {
		if !tried || s.fg.sleepFull {
			s.fg.wake[n] = open
		}
		return // the turn stays where it was
	}
	s.sendDest(n, i, vc)
}

// drainDestByVC is drainDest under router.injectionPolicy=dest where a
// destination's room is its injection VC's (sqByVC): chooseVCFor's answer
// for a packet to dst is then ⌊dst·VCs/N⌋ when that VC has room (the
// isolated class's VC for a flow on it), else −1, and it draws nothing and
// changes nothing. So the room of the request VCs its destinations use is
// read once, as a mask, and the round-robin tests a bit per destination
// instead of calling chooseVCFor; a node none of whose destinations finds
// room (a saturated network's usual case) leaves its turn where it was,
// without the scan when none of those VCs has room (unless a flow gate
// must learn from the scan when its held flows open), and sleeps (sqFull).
// The destinations served, the turn and the wake cycles are the scan's.
func (s *Sim) drainDestByVC(n int) {
	room := s.reqRoom(n, s.sqVCs[n])
	iso := s.iso.on && s.isoRoom(n) >= 0 // the isolated class's VC has room
	gate := s.fg.until != nil            // the caller skips a node whose every flow with packets is held
	if room == 0 && !iso && !gate {
		// no destination's VC has room: the turn stays where it was, and
		// the node sleeps until one may (sqFull)
		s.sqFull[n] = s.resv == nil
		return
	}
	act := s.sqAct[n]
	i := int(s.sqRR[n])
	if i >= len(act) {
		i = 0
	}
	vc, tries, tried := -1, len(act), false
	open := int64(math.MaxInt64)
	for ; tries > 0; tries-- {
		dst := int(act[i].dst)
		if gate {
			if u := s.fg.until[n*s.N+dst]; u > s.now {
				open = min(open, u)
				if i++; i == len(act) {
					i = 0
				}
				continue
			}
		}
		tried = true
		if s.iso.on && s.iso.flow[n*s.N+dst] {
			if iso {
				vc = s.iso.vc
				break
			}
		} else if v := s.dstVC(dst); room>>v&1 != 0 {
			vc = v
			break
		}
		if i++; i == len(act) {
			i = 0
		}
	}
	if vc < 0 {
		if !tried || s.fg.sleepFull {
			s.fg.wake[n] = open
		}
		// without a flow gate the node sleeps until a VC may have room or
		// a flow changes class (sqFull; with a gate the scan must learn
		// when its held flows open; with reservations for replies, which
		// slotsFree subtracts, it keeps to the scan)
		s.sqFull[n] = !gate && s.resv == nil
		return // the turn stays where it was
	}
	s.sendDest(n, i, vc)
}

// reqRoom is the request VCs of node n among want (a mask) that have room
// for a packet (slotsFree > 0), as a mask.
func (s *Sim) reqRoom(n int, want uint64) uint64 {
	bi := int(s.nodeAt[n].pi) * s.maxVC
	var room uint64
	switch {
	case s.resv != nil:
		for m := want; m != 0; m &= m - 1 {
			if v := bits.TrailingZeros64(m); s.slotsFree(n, v) > 0 {
				room |= 1 << v
			}
		}
	case s.vq.on: // the VC's packets over its per-output queues
		used, c := s.vq.injUsed[bi:bi+s.reqVCs], s.vq.injCap
		for m := want; m != 0; m &= m - 1 {
			if v := bits.TrailingZeros64(m); used[v] < c {
				room |= 1 << v
			}
		}
	default:
		bufs := s.bufs[bi : bi+s.reqVCs]
		for m := want; m != 0; m &= m - 1 {
			if v := bits.TrailingZeros64(m); bufs[v].len < bufs[v].cap {
				room |= 1 << v
			}
		}
	}
	return room
}

// sendDest moves the head packet of node n's i-th destination with packets
// into injection VC vc, and turns to the destination after it.
func (s *Sim) sendDest(n, i, vc int) {
	act := s.sqAct[n]
	q := int(act[i].q)
	k := s.sq[q][s.sqHead[q]]
	s.enqueue(k, vc, s.now)
	if s.hk.sent != nil {
		s.sentHooks(n, int(act[i].dst), k)
	}
	s.sqHead[q]++
	if int(s.sqHead[q]) < len(s.sq[q]) {
		s.sqRR[n] = int32(i + 1)
		return
	}
	// empty: the FIFO goes back to the pool and dst leaves the order; the
	// destination after it takes its place at i
	s.sq[q], s.sqHead[q] = s.sq[q][:0], 0
	s.sqFree = append(s.sqFree, int32(q))
	if s.sqByVC {
		v := s.dstVC(int(act[i].dst))
		if s.sqPer[n*s.reqVCs+v]--; s.sqPer[n*s.reqVCs+v] == 0 {
			s.sqVCs[n] &^= 1 << v
		}
	}
	s.sqAct[n] = append(act[:i], act[i+1:]...)
	s.sqRR[n] = int32(i)
}
