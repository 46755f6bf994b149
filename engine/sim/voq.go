package sim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"phitsim/engine/topology"
)

// Virtual output queues (router.voq; Kim et al., Contention-based Congestion
// Management in Large-Scale Networks §V-A: "per-output virtual output
// queues", 4 VCs per output at each input). Every input port, transit and
// injection, holds one queue per (output port of its router, VC of its
// class): queue q = output·VCs + VC, so a head waiting for one output never
// blocks a packet for another. Each queue is a buffer of the seam (ring, head
// record, busy bit, credit counter upstream) of the class's per-VC size, so
// the grant, the credits and the census work per queue unchanged.
//
// The queue at the next router must be known when the upstream input stage
// checks its credits: the head's route at the next router is computed there
// (look-ahead routing), and the packet carries it. It is the route the next
// router would compute when the packet is its head, because every routing
// allowed with VOQs (config's checkVoq) decides at the source and then
// follows its path deterministically; the census checks every queued
// packet's route against its queue (voqArbitrate routes the heads).
// The source decision itself (UGAL's, Valiant's draw) is taken when the node
// places the packet in its injection port, since that placement picks the
// queue of the first router's output.
//
// Injection queues: under router.injectionVoq=shared (the default) the
// node's injection VC keeps its size (router.injectionBuffer), shared by
// that VC's per-output queues (injUsed counts it; each ring can hold all
// of it), as nodes fill it without credits. Under perQueue each per-output
// queue holds the whole per-VC buffer of its own, as at the transit
// inputs (the paper's "4 VCs for each output port at each input"): the
// source routes a packet waiting in its source queue when it tries to
// place it (voqSourceRoute: the source decision; UGAL's redone at every
// attempt, as at the head of an injection buffer) and places it only when
// that output's queue has room (chooseVCFor), so one full queue holds back
// only its own output's packets, and those of its flow behind them.

// The RECN paper's baselines (Duato et al., A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks §4.1, §4.3; router.queueing) use the same queues with
// another index: 4q, 4 queues per VC (q = j·D + VC), the sender putting
// each packet in the downstream queue with the most free credits, its view
// of the least-occupied one (ties to the lowest j), chosen again at every
// request so that a head does not wait on a full queue while another has
// room; voqnet, a queue per destination host (q = host·D + VC). Both split
// the VC's buffer equally (whole packets) with credits per queue, as the
// paper's VOQ policies do, the injection ports too (the network
// interface's injection queues follow the switch's scheme), where the node
// places a packet only when its queue has room. The head's route is still
// computed a hop ahead, so the routings allowed are voqsw's.

// qBits is the width of a queue index in the timing wheels' entries (an
// arrival's and a credit's): up to 1,023 queues per input port (voqnet at
// 512 hosts: 512 data queues), leaving 20 bits of a credit's entry for the
// output port (fewer than 2²⁰ ports). qWords is the 64-bit words of a
// port's busy mask (vq.busy) at that width.
const (
	qBits  = 10
	qWords = 1 << qBits / 64
)

// arrivalAt decodes an arrival-wheel entry: the input port and queue (the
// packet id is the low 32 bits).
func arrivalAt(e uint64) (pi, q int) {
	return int(e >> (32 + qBits)), int(e >> 32 & (1<<qBits - 1))
}

// creditAt decodes a credit-wheel entry: the output port and queue (bits 30
// and 31 are the occupancy views' flags).
func creditAt(e int32) (po, q int) {
	return int(e&0x3fffffff) >> qBits, int(e & (1<<qBits - 1))
}

// voq is router.voq's state.
type voq struct {
	on bool
	// kind: voqSw, voq4Q or voqNet; n the queues per data VC (the
	// router's radix, 4, the hosts); split: the queues share the VC's
	// buffer equally
	kind  uint8
	n     int
	split bool
	// busy: per input port, w words: bit q set while queue q holds packets
	// (the 32-bit vcBusy of the plain layout is left unused); w covers the
	// most queues of a port (s.nq), at least 2 and a power of 2, at
	// most qWords
	busy []uint64
	w    int
	// ptr: per input port, the input stage's round-robin pointer over its
	// queues (port.inPtr's 8 bits hold 127 queues, not 1,023)
	ptr []uint16
	// pass, since, hold: router.inputArbiter=rrhold. pass, per queue (its
	// buffer index), 1 while its head has been found unable to ask (output
	// busy, credits short or reserved for another input) since the queue's
	// last grant, 0 otherwise; since, then, the count of grants of its
	// head's output resource (served, below) when it was first found so;
	// hold, per input port, 1 + the queue whose head has seen holdAt (the
	// radix) grants of that resource to others since, which the input
	// then holds for (voqHold), 0 for none. served: per output
	// queue (its credit index po·maxVC + queue; an ejection port's at
	// po·maxVC, one count for the port), the packets granted to it. nil
	// otherwise
	pass   []uint8
	since  []uint32
	served []uint32
	hold   []uint16
	holdAt uint32
	// resv: per output queue (its credit index po·maxVC + queue), 1 + the
	// input port a hold reserved its credits for, 0 for none; resvAt: per
	// input port, 1 + the credit index it reserved
	resv, resvAt []int32
	// order: the input stage's scratch, the masks of its 4 passes over a
	// port's words
	order []uint64
	// injUsed: per injection VC (its buffer index pi·maxVC + VC), the
	// packets in that VC's queues; injCap its size in packets
	injUsed []int32
	injCap  int32
	// perQ: router.injectionVoq=perQueue, each injection queue its own
	// per-VC buffer (the ring's capacity), no shared count
	perQ bool
	// retry: under perQ, the source decision is the routing's per
	// injection attempt (UGAL on a flattened butterfly): a packet whose
	// queue had no room is decided again at its next attempt
	retry bool
	// held: UGAL's occupancy of each transit output per VC (po·vcs + VC),
	// the phits held over the next router's queues of that VC; kept at
	// every grant and credit (voqHeld), so a decision reads vcs counters,
	// not ports × vcs credits
	held []int32
	vcs  int
	// d: per port class, its data VCs (the VCs replicated per output);
	// ctl, low: per port class, the masks of its control queues and of a
	// strictly-lowest isolated class's queues
	d        [8]uint8
	ctl, low [8][qWords]uint64
	agedLow  [qWords]uint64 // voqAgedLow's scratch
}

// initVoq sets the queue counts before build (after the isolated and
// priority classes have added their VCs). The layout of Kim et al.,
// Contention-based Congestion Management in Large-Scale Networks §V-A, whose
// BookSim replicates only the data VCs: the D data VCs of a port class are
// replicated per output (q = output·D + VC), and every extra VC (the
// isolated class, the priority control VCs) exists once per input (q =
// radix·D + VC − D). isoBase and ctlBase then index queues, not VCs, so
// that the extra classes' routing (routeMinimalOn: base + the class's VC),
// the allocators' priority tests (isCtlVC, isIsoVC) and their injection VCs
// (isoRoom, ctlRoom) read them unchanged; an absent class's base is 65,535,
// above every queue.
func (s *Sim) initVoq(scheme string) error {
	s.nq = append([]int(nil), s.vcCount...)
	field, what := "router.queueing", "ports"
	switch scheme {
	case "voqsw":
		s.vq.kind, s.vq.n = voqSw, s.radix
		if s.cfg.Router.Queueing == "" {
			field = "router.voq"
		}
	case "4q":
		s.vq.kind, s.vq.n, s.vq.split, what = voq4Q, 4, true, "queues"
	case "voqnet":
		s.vq.kind, s.vq.n, s.vq.split, what = voqNet, s.N, true, "hosts"
	default:
		return nil
	}
	for c := range s.nq {
		d := s.dataVCs(topology.PortClass(c))
		s.vq.d[c] = uint8(d)
		s.nq[c] = s.vq.n*d + s.vcCount[c] - d
		if s.nq[c] > 1<<qBits-1 {
			return fmt.Errorf("%s: %d %s × %d data VCs + %d extra VCs = %d queues per %s input; at most %d (%d bits in the timing wheels' entries)",
				field, s.vq.n, what, d, s.vcCount[c]-d, s.nq[c], s.topo.Classes()[c].Name, 1<<qBits-1, qBits)
		}
		if s.vq.split { // equal static partitions of whole packets
			if s.bufCap[c] = s.bufCap[c] / int32(s.vq.n*s.P) * int32(s.P); s.bufCap[c] == 0 {
				return fmt.Errorf("%s: the %s buffer split over %d queues holds no packet", field, s.topo.Classes()[c].Name, s.vq.n)
			}
		}
		for _, b := range []*uint16{&s.isoBase[c], &s.ctlBase[c], &s.cc.rBase[c]} {
			if int(*b) < s.vcCount[c] {
				*b = uint16(s.vq.n*d + int(*b) - d)
			} else {
				*b = math.MaxUint16
			}
		}
		// the input stage's passes: the control queues first, a
		// strictly-lowest isolated class last
		for q := s.vq.n * d; q < s.nq[c]; q++ {
			switch {
			case s.isCtlVC(topology.PortClass(c), q):
				s.vq.ctl[c][q>>6] |= 1 << (q & 63)
			case s.iso.low:
				s.vq.low[c][q>>6] |= 1 << (q & 63)
			}
		}
	}
	s.vq.on = true // dataVCs reads vq.d from now on
	s.vq.perQ = s.vq.kind == voqSw && s.cfg.Router.Voq && s.cfg.Router.InjectionVoq == "perQueue"
	if s.iso.on {
		s.iso.vc = int(s.isoBase[topology.Injection])
	}
	return nil
}

// router.queueing's schemes (vq.kind); 0 is off.
const (
	voqSw = 1 + iota
	voq4Q
	voqNet
)

// buildVoq allocates the masks and injection counters after build.
func (s *Sim) buildVoq() {
	if !s.vq.on {
		return
	}
	// the mask's words per port: at least 2 (voqArbitrate's fast path),
	// rounded up to a power of 2 (it finds a pass mask's word by a bit
	// mask)
	s.vq.w = max(2, 1<<bits.Len(uint((slices.Max(s.nq)+63)/64-1)))
	s.vq.busy = make([]uint64, s.vq.w*len(s.ports))
	s.vq.ptr = make([]uint16, len(s.ports))
	if s.cfg.Router.InputArbiter == "rrhold" {
		s.vq.pass = make([]uint8, len(s.bufs))
		s.vq.since = make([]uint32, len(s.bufs))
		s.vq.served = make([]uint32, len(s.credits))
		s.vq.hold = make([]uint16, len(s.ports))
		s.vq.holdAt = uint32(s.radix)
		s.vq.resv = make([]int32, len(s.credits))
		s.vq.resvAt = make([]int32, len(s.ports))
	}
	s.vq.order = make([]uint64, 4*s.vq.w)
	s.vq.injUsed = make([]int32, len(s.bufs))
	s.vq.injCap = s.bufCap[topology.Injection] / int32(s.P)
	if s.vq.split { // the VC's queues split its buffer
		s.vq.injCap *= int32(s.vq.n)
	}
	if s.routing == routeUGAL { // on a flattened butterfly (checkVoq)
		s.vq.vcs = int(s.vq.d[topology.FBFlyLink])
		s.vq.held = make([]int32, len(s.ports)*s.vq.vcs)
		// the grants and credits reach voqHeld through the occupancy
		// views' hook (take, land → occUpdate), which runs only while
		// gocc is not nil: the Dragonfly views that use gocc are refused
		// with VOQs, so this empty one only routes those calls here, and
		// the plain router pays nothing
		s.ov.gocc = []int32{}
	}
}

// voqHeld records delta phits more held downstream of output po in queue
// q (a grant: +P; a credit back: −P); the extra classes' queues are not
// UGAL's to weigh.
func (s *Sim) voqHeld(po, q int, delta int32) {
	if d := s.vq.vcs; q < s.vq.n*d {
		s.vq.held[po*d+q%d] += delta
	}
}

// voqPlace is the queue of injection VC vc that packet k enters: the source
// router routes it now (the source decision, and its first hop).
func (s *Sim) voqPlace(k int32, vc int) int {
	if vc >= s.injVC {
		return vc // an extra class's queue, routed at its router (routeIso, routeControl)
	}
	pk := &s.pk[k]
	at := s.nodeAt[pk.src]
	s.vq.injUsed[int(at.pi)*s.maxVC+vc]++
	if s.vq.perQ { // routed by the attempt that found room (chooseVCFor)
		if pk.outPort < 0 { // placed without one (a direct placement): route it now
			s.route(int(at.router), pk, true, false)
		}
		return int(pk.outPort)*s.injVC + vc
	}
	s.route(int(at.router), pk, true, false)
	switch s.vq.kind {
	case voqNet:
		return int(pk.dst)*s.injVC + vc
	case voq4Q: // the least-occupied of the node's 4 queues (voqInjFree's)
		bi := int(at.pi) * s.maxVC
		j := 0
		for i := 1; i < 4; i++ {
			if s.bufs[bi+i*s.injVC+vc].len < s.bufs[bi+j*s.injVC+vc].len {
				j = i
			}
		}
		return j*s.injVC + vc
	}
	return int(pk.outPort)*s.injVC + vc
}

// voqSourceRoute routes packet k, waiting at its source, at its source
// router (router.injectionVoq=perQueue): the source decision and its first
// hop, which name its injection queue. A packet not yet routed has outPort
// −1 (initPacket). A routing that decides at every injection attempt (UGAL
// on a flattened butterfly: fbDecide's retry, its comparison redone with
// the occupancies of now, the intermediate kept unless routing.recompute)
// decides again at every attempt until the packet is placed, as at the
// head of an injection buffer without per-output queues; MIN's route
// stands.
func (s *Sim) voqSourceRoute(k int32) {
	pk := &s.pk[k]
	r := s.nodeAt[pk.src].router
	if pk.outPort < 0 {
		s.route(int(r), pk, true, false)
	} else if s.vq.retry && pk.dstRouter != r { // (to its own router: ejected, no decision)
		s.fbDecide(int(r), pk, true)
	}
}

// voqChooseQueue is chooseVC under router.injectionVoq=perQueue for packet
// k waiting at node: routed at its source (voqSourceRoute), the VC of the
// request set whose queue for the packet's output has room, by
// router.injectionPolicy (dest: its destination's VC; rand: a random one
// with room; jsq: the one with the most room, ties to the lowest); −1 when
// none has.
func (s *Sim) voqChooseQueue(node int, k int32) int {
	s.voqSourceRoute(k)
	return s.pickVC(node, int(s.pk[k].dst), false, int(s.pk[k].outPort)*s.injVC, true)
}

// voqChooseVC is chooseVC under 4q and voqnet, whose injection VCs have a
// queue per destination or 4 each: the VC of the set (requests or
// replies) whose queue for the packet has the most room (ties to the
// lowest; router.injectionPolicy is not consulted); −1 when none has.
func (s *Sim) voqChooseVC(node, dst int, reply bool) int {
	lo, hi := 0, s.reqVCs
	if reply {
		lo, hi = s.reqVCs, s.injVC
	}
	best, most := -1, int32(0)
	for v := lo; v < hi; v++ {
		bi := s.injBuf(node, v)
		free := s.voqInjFree(bi, v, dst)
		if s.resv != nil {
			free -= s.resv[bi]
		}
		if free > most {
			best, most = v, free
		}
	}
	return best
}

// voqInjFree is the room, in packets, that injection VC vc (buffer bi) of
// a split scheme has for a packet to dst: voqnet, its queue for dst (for
// any destination, dst < 0: the emptiest queue's); 4q, the emptiest of its
// 4 queues, where voqPlace puts the packet.
func (s *Sim) voqInjFree(bi, vc, dst int) int32 {
	b0 := bi - vc
	if s.vq.kind == voqNet && dst >= 0 {
		b := &s.bufs[b0+dst*s.injVC+vc]
		return b.cap - b.len
	}
	free := int32(0)
	for j := 0; j < s.vq.n; j++ {
		b := &s.bufs[b0+j*s.injVC+vc]
		free = max(free, b.cap-b.len)
	}
	return free
}

// voqBusy marks queue q of input pi busy (it got its first packet) or idle.
func (s *Sim) voqBusy(pi, q int, busy bool) {
	w := &s.vq.busy[s.vq.w*pi+q>>6]
	if busy {
		*w |= 1 << (q & 63)
	} else {
		*w &^= 1 << (q & 63)
	}
}

// voqArbitrate is the input stage of a port with virtual output queues:
// round-robin over its busy queues from its pointer, as inputArbitrate's rr
// (the first queue whose head can request wins; the pointer moves when it
// requests, or with rrgrant when it is granted). Returns the queue and its
// output, or (−1, −1) with the port's wait set.
func (s *Sim) voqArbitrate(r, pi int) (int, int) {
	base := r * s.radix
	ip := &s.ports[pi]
	ptr := uint(s.vq.ptr[pi])
	W := s.vq.w
	wait := int64(math.MaxInt64)
	cl := ip.class
	ctl, low := &s.vq.ctl[cl], &s.vq.low[cl]
	// the control queues first, in index order (ctlclass.go); then the
	// busy data queues (and an equal-priority isolated class's) from the
	// pointer on, then those before it; a strictly-lowest isolated class's
	// queues last, when no other can request: the 4 passes' masks over the
	// port's words, in order (W words a pass, W a power of 2, so that
	// pass mask i is of word i&(W−1)). Two words (up to 128 queues: the
	// Dragonfly's, most flattened butterflies') in registers and on the
	// stack; more in vq.order.
	var order []uint64
	if s.iso.aging > 0 { // the aged heads go with the data (congestion.cbcmHotspotAging)
		low = s.voqAgedLow(pi, low)
	}
	if W == 2 {
		busy := s.vq.busy[2*pi : 2*pi+2 : 2*pi+2]
		d0, d1 := busy[0]&^(ctl[0]|low[0]), busy[1]&^(ctl[1]|low[1])
		// the queues below the pointer, per word (a shift by 64 or
		// more is 0)
		lo := uint64(1)<<ptr - 1
		hi := (uint64(1)<<(ptr&63) - 1) & -uint64(ptr>>6)
		small := [8]uint64{busy[0] & ctl[0], busy[1] & ctl[1], d0 &^ lo, d1 &^ hi, d0 & lo, d1 & hi, busy[0] & low[0], busy[1] & low[1]}
		order = small[:]
	} else {
		busy := s.vq.busy[W*pi : W*pi+W : W*pi+W]
		order = s.vq.order[: 4*W : 4*W]
		for w, bw := range busy {
			d := bw &^ (ctl[w] | low[w])
			lo := below(int(ptr), w)
			order[w], order[W+w], order[2*W+w], order[3*W+w] = bw&ctl[w], d&^lo, d&lo, bw&low[w]
		}
	}
	wm := W - 1
	for i, m := range order {
		for ; m != 0; m &= m - 1 {
			q := (i&wm)<<6 | bits.TrailingZeros64(m)
			b := &s.bufs[pi*s.maxVC+q]
			if int64(b.hEntry) > s.now {
				wait = min(wait, int64(b.hEntry))
				continue
			}
			if b.hOut < 0 && q >= s.vq.n*int(s.vq.d[cl]) {
				// an extra class's queue, one per input: its head is routed
				// here, and the queue it takes at the next router is its
				// class's VC there (routeMinimalOn)
				if q >= int(s.ctlBase[cl]) {
					s.routeControl(r, pi, b)
				} else {
					s.routeIso(r, b)
				}
			} else if b.hOut < 0 {
				// a new head: its route here is in the packet (routed one
				// hop ahead, or when placed); route it at the next router
				// now, for the queue it takes there (b.hVC), whose credits
				// the request needs. The packet then carries its route
				// there; the non-VOQ router would compute the same one there
				// (a routing decided at the source; the census checks every
				// queued packet's route against its queue). Inlined by hand:
				// once per hop.
				pk := &s.pk[b.hd]
				b.hOut, b.hVC, b.hNext, b.hReq, b.hFinal = pk.outPort, int16(pk.outVC), pk.nextPos, pk.flags&fRequest != 0, true
				if po := base + int(pk.outPort); s.pclass[po] != topology.Injection {
					pk.vcPos = pk.nextPos // as the grant sets it (this hop's route is in b)
					s.route(int(uint(s.ports[po].peer)/uint(s.radix)), pk, false, false)
					switch s.vq.kind {
					case voqSw:
						b.hVC = int16(int(pk.outPort)*int(s.vq.d[s.pclass[po]]) + int(b.hVC))
					case voqNet:
						b.hVC = int16(int(pk.dst)*int(s.vq.d[s.pclass[po]]) + int(b.hVC))
					} // voq4Q: at every request, below
				}
			}
			po := base + int(b.hOut)
			op := &s.ports[po]
			t := int64(op.readyAt)
			if t <= s.now {
				t = -1
				if op.class == topology.Injection {
					t = s.replyBlocked(b)
				} else {
					if s.vq.kind == voq4Q {
						s.pick4Q(po, b)
					}
					if ci := po*s.maxVC + int(b.hVC); s.credits[ci] < s.phitsOn(op.class, int(b.hVC)) ||
						s.vq.resv != nil && s.voqReserved(ci, pi) { // rrhold: reserved for another input
						t = waitCredit
						s.sleepOnCredit(pi-base, po)
					}
				}
			}
			if t >= 0 {
				if s.vq.pass != nil && t > s.now {
					s.voqPassed(pi, q, po) // its output busy or its credits short
				}
				wait = min(wait, t)
				continue
			}
			if !s.inPtrOnGrant && q < int(s.ctlBase[cl]) { // a control winner leaves the pointer
				s.vq.ptr[pi] = uint16(wrap(q+1, s.nq[cl]))
			}
			if s.ejGate && op.class == topology.Injection && s.ejectionClosed(po) {
				return -1, -1 // as inputArbitrate: the request was placed and refused
			}
			return q, int(b.hOut)
		}
	}
	ip.inWait = int32(wait)
	return -1, -1
}

// voqArbitrateHeld is the input stage of input pi held for a queue (rrhold,
// voqHold): a control queue first if one can request (the plain stage's
// first pass; a data winner of that pass is dropped); then the held queue
// when it can request; the plain stage when the hold has ended or the
// queue waits for credits; else (the queue waits for its busy output) a
// plain pass whose winner is not granted (it routes the heads it meets, as
// the pass of an input that could not request would), the input then
// waiting for that output.
func (s *Sim) voqArbitrateHeld(r, pi int) (int, int) {
	cl := s.ports[pi].class
	busy := s.vq.busy[s.vq.w*pi : s.vq.w*(pi+1)]
	for w, m := range busy {
		if m&s.vq.ctl[cl][w] != 0 { // the control queues keep their priority
			if q, out := s.voqArbitrate(r, pi); q >= int(s.ctlBase[cl]) {
				return q, out
			}
			break
		}
	}
	q, out, t := s.voqHold(r, pi)
	if t < 0 {
		return q, out
	}
	if t == 0 {
		return s.voqArbitrate(r, pi)
	}
	s.voqArbitrate(r, pi)
	s.ports[pi].inWait = int32(t)
	return -1, -1
}

// voqReserved: whether a hold reserved credit index ci's credits for an
// input other than pi (rrhold).
func (s *Sim) voqReserved(ci, pi int) bool {
	o := s.vq.resv[ci]
	return o != 0 && int(o) != pi+1
}

// voqPassed: input pi's stage found queue q's head unable to request
// output po for the output being busy or its next queue short of credits
// (router.inputArbiter=rrhold). The first time since q's last grant it
// notes the grants of that resource so far (voqResource); once others have
// been granted it holdAt times since (the radix: a round-robin over the
// router's inputs serves a head that keeps requesting within radix − 1
// grants to others, so more is a head that did not get to request while
// the resource went round), the input holds for q (the first such queue:
// one hold at a time). Counting the stage's failed looks instead (radix of
// them) took holds under plain contention, a head waiting its turn among
// a dozen requesters being looked at every packet time of its input; and
// a strictly-lowest class (CBCM's hotspot VC) waits by its priority, which
// a hold must not lift.
func (s *Sim) voqPassed(pi, q, po int) {
	if s.vq.low[s.ports[pi].class][q>>6]&(1<<(q&63)) != 0 {
		return // a strictly-lowest class waits by priority
	}
	bi := pi*s.maxVC + q
	ri := s.voqResource(po, int(s.bufs[bi].hVC))
	if s.vq.pass[bi] == 0 {
		s.vq.pass[bi], s.vq.since[bi] = 1, s.vq.served[ri]
	} else if s.vq.served[ri]-s.vq.since[bi] >= s.vq.holdAt && s.vq.hold[pi] == 0 {
		s.vq.hold[pi] = uint16(q + 1)
	}
}

// voqResource is the index in vq.served of what a head for output po and
// next queue vc waits for: that queue's credits, or an ejection port.
func (s *Sim) voqResource(po, vc int) int {
	if s.pclass[po] == topology.Injection {
		return po * s.maxVC
	}
	return po*s.maxVC + vc
}

// voqHold is rrhold's input stage once queue q = hold[pi]−1 has seen its
// output resource granted to others holdAt (the radix) times since its
// head was first found unable to ask (voqPassed).
// Input and output each hold a packet's crossbar time (the output until
// the packet has left, the input until its tail has arrived), and a head
// asks only in a cycle when both are free and its next queue has credits,
// so a queue whose input is busy in every cycle its output frees (or its
// credits return) — both paced by the same 32-flit packets — is passed
// over for ever while the other queues keep its input busy. The hold:
// while q's next queue lacks credits, they are reserved for this input
// (vq.resv: no other input of the router takes them; inputs held for one
// queue take its reservation in turn, round-robin, voqRelease), and the
// input keeps serving its other queues; once q has credits, the input asks
// for q alone, and while q's output is busy it waits for it
// (voqArbitrateHeld), so that it asks in the cycle the output frees, where
// the output's round-robin serves it within a round of its requesters. The
// input idles only for an output in use, never for credits, so the hold
// adds no wait on another buffer's room. It ends at q's grant (voqServed),
// or here when q no longer waits for its output or credits alone (empty,
// unrouted, its reply's room, 4q's per-request queue choice). The control
// queues keep their priority where one can ask (voqArbitrateHeld); one
// that cannot, caught in the same lock, is held in turn. t: −1 when q
// asks (for output out), the cycle its output frees when it waits for it,
// 0 when the plain stage runs (the hold ended, or q waiting for credits).
func (s *Sim) voqHold(r, pi int) (q, out int, t int64) {
	q = int(s.vq.hold[pi]) - 1
	b := &s.bufs[pi*s.maxVC+q]
	if b.len == 0 || b.hOut < 0 || int64(b.hEntry) > s.now {
		s.voqRelease(pi)
		return -1, -1, 0
	}
	po := r*s.radix + int(b.hOut)
	op := &s.ports[po]
	if op.class == topology.Injection {
		if s.replyBlocked(b) >= 0 {
			s.voqRelease(pi)
			return -1, -1, 0
		}
	} else {
		if s.vq.kind == voq4Q {
			s.voqRelease(pi)
			return -1, -1, 0
		}
		ci := po*s.maxVC + int(b.hVC)
		if s.voqReserved(ci, pi) {
			return -1, -1, 0 // another input's reservation first
		}
		if s.credits[ci] < s.phitsOn(op.class, int(b.hVC)) {
			s.vq.resv[ci], s.vq.resvAt[pi] = int32(pi+1), int32(ci+1)
			return -1, -1, 0
		}
	}
	if t := int64(op.readyAt); t > s.now {
		return q, -1, t
	}
	if s.ejGate && op.class == topology.Injection && s.ejectionClosed(po) {
		return q, -1, s.now
	}
	return q, int(b.hOut), -1
}

// voqServed is rrhold's grant of queue vc of input pi to output po: the
// output resource's count of grants rises, q's wait restarts, and a hold
// for it ends.
func (s *Sim) voqServed(pi, vc, po int) {
	s.vq.served[s.voqResource(po, int(s.bufs[pi*s.maxVC+vc].hVC))]++
	if int(s.vq.hold[pi]) == vc+1 {
		s.voqRelease(pi)
	}
	s.vq.pass[pi*s.maxVC+vc] = 0
}

// voqRelease ends input pi's hold and its credit reservation, which
// passes, round-robin from pi, to the next input of the router held for
// the same queue, and wakes the inputs that wait for those credits.
func (s *Sim) voqRelease(pi int) {
	s.vq.pass[pi*s.maxVC+int(s.vq.hold[pi])-1] = 0
	s.vq.hold[pi] = 0
	ci := int(s.vq.resvAt[pi]) - 1
	if ci < 0 {
		return
	}
	s.vq.resv[ci], s.vq.resvAt[pi] = 0, 0
	po := ci / s.maxVC
	base := pi - pi%s.radix
	for k := 1; k < s.radix; k++ {
		j := base + (pi-base+k)%s.radix
		h := int(s.vq.hold[j]) - 1
		if h < 0 || s.vq.resvAt[j] != 0 {
			continue
		}
		if b := &s.bufs[j*s.maxVC+h]; b.len > 0 && b.hOut >= 0 && base+int(b.hOut) == po && po*s.maxVC+int(b.hVC) == ci {
			s.vq.resv[ci], s.vq.resvAt[j] = int32(j+1), int32(ci+1)
			break
		}
	}
	if s.cwAny[po>>6]&(1<<(po&63)) != 0 {
		s.wakeOnCredit(po)
	}
}

// pick4Q points head record b at the queue of output po's next router
// with the most free credits among the 4 of its VC (the sender's view of
// the least-occupied queue; ties to the lowest), a data head's choice
// under 4q at every request.
func (s *Sim) pick4Q(po int, b *buffer) {
	d := int(s.vq.d[s.pclass[po]])
	if int(b.hVC) >= 4*d {
		return // an extra class's queue
	}
	vc := int(b.hVC) % d
	cr := s.credits[po*s.maxVC : po*s.maxVC+4*d]
	j := 0
	for i := 1; i < 4; i++ {
		if cr[i*d+vc] > cr[j*d+vc] {
			j = i
		}
	}
	b.hVC = int16(j*d + vc)
}

// voqOcc is the occupancy UGAL reads for output po under router.voq: the
// phits held downstream (and in the output FIFO) over the next router's
// queues of VC vc, or of every VC (routing.congestion=perPort).
func (s *Sim) voqOcc(po, vc int, perPort bool) int32 {
	held := s.vq.held[po*s.vq.vcs : (po+1)*s.vq.vcs]
	if !perPort {
		return held[vc]
	}
	var q int32
	for _, h := range held {
		q += h
	}
	return q
}

// below is the mask of the queues of word w (queues 64w to 64w+63) below
// queue ptr (a shift by 64 or more is 0, so all ones past the word).
func below(ptr, w int) uint64 {
	return 1<<uint(max(ptr-w<<6, 0)) - 1
}

// busyQueues is the mask of input pi's queues holding packets, by words of
// 64 queues (reports and the census).
func (s *Sim) busyQueues(pi int) []uint64 {
	if s.vq.on {
		return s.vq.busy[s.vq.w*pi : s.vq.w*(pi+1)]
	}
	return []uint64{uint64(s.vcBusy[pi])}
}

// voqAgedLow is the strictly-lowest class's queue mask of input pi less the
// queues whose head has been in its buffer iso.aging cycles or more (their
// input stage serves them with the data's), in vq.agedLow.
func (s *Sim) voqAgedLow(pi int, low *[qWords]uint64) *[qWords]uint64 {
	out := &s.vq.agedLow
	busy := s.vq.busy[s.vq.w*pi : s.vq.w*(pi+1)]
	for w := range out {
		out[w] = low[w]
		if w < len(busy) {
			if m := busy[w] & low[w]; m != 0 {
				out[w] &^= s.agedIso(pi, w<<6, m)
			}
		}
	}
	return out
}
