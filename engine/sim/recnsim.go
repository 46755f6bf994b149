package sim

import (
	"fmt"
	"math"
	"math/bits"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/topology"
)

// congestion.scheme=recn: the router of a fat tree whose ports keep RECN's
// sides (recn.go) instead of the input buffers and output FIFOs. Each cycle
// (recnStep, in place of land, the allocation and the drain): the
// protocol's messages of the cycle, the packets whose heads arrive, then
// the interfaces' and egress sides' links, each sending the head of the
// queue RECN's arbitration picks when the link is idle and the downstream
// side has a global credit, and every switch's multiplexed crossbar, each
// ingress side sending one head per transfer time (packetSize / speedup,
// virtual cut-through: not before its tail has arrived) to an egress side
// with room. A network interface is the most upstream egress side
// (router.injectionBuffer its memory); transit ingress sides hold
// router.localBuffer, egress sides router.outputBuffer.

// recnSim is the engine's part of RECN.
type recnSim struct {
	rc             *recn
	ft             *topology.FatTree
	inBusy, egBusy []uint64 // per router: ingress, egress sides holding packets (radix ≤ 64)
	niBusy         []uint64 // per 64 hosts: interfaces holding packets
	xin, xout      []int64  // per port: the crossbar input, output busy until
	// ordering (RECN paper §3.6): per (source, destination), the next
	// sequence number generated and the next one expected
	seqGen, seqDel []int32
	seq            []int32 // per packet id: its number
	outOfOrder     int64
	// SAQ utilisation (RECN paper Fig. 4): per interval the most lines at
	// one ingress side, at one egress side (interfaces included), and in
	// the whole network
	sIn, sEg, sTot []int32
	total          int32
	maxIn, maxEg   int32
	maxTot         int32
	lastAllocs     int64
	lastB          int
	// the interfaces' admittance queues (RECN paper §4.1): per (host,
	// destination) a FIFO of at most admCap packets, a linked list
	// in admNodes; a generated packet whose queue is full is held (pend)
	// and stalls its host's generator until it fits; one packet a cycle
	// moves, round-robin over the destinations, into the interface's
	// injection side
	admH, admT []int32 // per (host, destination): the list's head, tail (−1: empty)
	admLen     []int32 // per (host, destination): packets queued
	admNodes   []recnNode
	admFree    int32    // free-node list
	admCap     int32    // an admittance queue's size (congestion.recnAdmittance)
	admMask    []uint64 // per host, admWords words: the destinations queued
	admWords   int
	admRR      []int32  // per host: the destination the round-robin tries first
	admHosts   []uint64 // per 64 hosts: holding queued or held packets
	admLast    []int64  // per host: the last cycle a packet moved in
	pend       []int32  // per host: the packet its generator holds (−1 none)
	stalls     int64    // generation attempts that found their queue full
	// the switches this Sim steps (pairs of first and past-last router)
	// and its hosts [h0, h1): all of them, or a partition's
	// (recn_parallel.go)
	ranges []int
	h0, h1 int
	niCls  uint64  // 0: an interface's packets land before a switch's sent the same cycle (their arrival order)
	optr   []uint8 // congestion.recnCrossbar=perOutput: per port, its crossbar output's round-robin pointer over the inputs (nil otherwise)
	// recnXbarPerOutput's requests per rotated input: the queue and the
	// output port (read only where the cycle's request mask has a bit; here
	// so that they are not cleared at every call)
	reqQ  [64]int8
	reqPo [64]int32
}

// initRecn builds RECN's sides for a fat tree (config checks the rest).
func (s *Sim) initRecn(cfg *config.Config) error {
	ft, ok := s.topo.(*topology.FatTree)
	if !ok || s.radix > 64 {
		return fmt.Errorf("congestion.scheme=recn: needs topology.kind=fattree with at most 64 ports per switch")
	}
	r := &cfg.Router
	cg := cfg.Congestion.RECN(r.PacketSize * s.physBytes(cfg))
	pk := func(phits int) int32 { return int32(phits / r.PacketSize) }
	p := recnParams{saqs: cg.SAQs, mem: pk(r.LocalBuffer), detect: cg.Detect, prop: cg.Prop, xoff: cg.Xoff, xon: cg.Xon,
		memEg: pk(r.OutputBuffer), memNI: pk(r.InjectionBuffer), few: 2, idle: cg.IdleCycles, internal: 1, latency: s.lat[topology.FatTreeLink], ctl: 1}
	rc, err := newRecn(ft, p)
	if err != nil {
		return fmt.Errorf("congestion.scheme=recn: %v", err)
	}
	// the queues' nodes: room for a packet per host's interface memory up
	// front, so that the pool's growth (and the collector) stays out of
	// the steady state
	rc.nodes = make([]recnNode, 0, s.N*int(p.memNI))
	rs := &recnSim{rc: rc, ft: ft, inBusy: make([]uint64, s.R), egBusy: make([]uint64, s.R),
		niBusy: make([]uint64, (s.N+63)/64), xin: make([]int64, s.R*s.radix), xout: make([]int64, s.R*s.radix),
		seqGen: make([]int32, s.N*s.N), seqDel: make([]int32, s.N*s.N), ranges: []int{0, s.R}, h0: 0, h1: s.N}
	if s.lat[topology.Injection] < s.lat[topology.FatTreeLink] {
		rs.niCls = 1
	}
	n := int((s.W + s.M + int64(s.cfg.Sim.Interval) - 1) / int64(s.cfg.Sim.Interval))
	rs.sIn, rs.sEg, rs.sTot = make([]int32, n), make([]int32, n), make([]int32, n)
	rs.admWords = (s.N + 63) / 64
	rs.admH, rs.admT, rs.admLen = make([]int32, s.N*s.N), make([]int32, s.N*s.N), make([]int32, s.N*s.N)
	for f := range rs.admH {
		rs.admH[f], rs.admT[f] = -1, -1
	}
	// an admittance queue holds congestion.recnAdmittance, by default as
	// much as the interface's injection side (router.injectionBuffer): the
	// RECN paper does not give its size (§4.1), and one that fills while
	// its flow is stopped stalls the generator, so a small one (4 packets)
	// stalls the background's senders behind their packets to the hotspot
	// (REPRODUCTION.md)
	rs.admNodes, rs.admFree, rs.admCap = make([]recnNode, 0, 16*s.N), -1, max(rc.sides[rc.ni(0)].mem, 1)
	if cg.Admittance > 0 {
		rs.admCap = cg.Admittance
	}
	rs.admMask, rs.admRR = make([]uint64, s.N*rs.admWords), make([]int32, s.N)
	rs.admHosts, rs.admLast, rs.pend = make([]uint64, (s.N+63)/64), make([]int64, s.N), make([]int32, s.N)
	for h := range rs.pend {
		rs.pend[h], rs.admLast[h] = -1, -1
	}
	rc.normalFirst = cg.NormalFirst
	if cg.PerOutput {
		rs.optr = make([]uint8, s.R*s.radix)
	}
	s.rn = rs
	return nil
}

// physBytes is the bytes of a phit (1 without a physical basis: the
// thresholds then read in phits).
func (s *Sim) physBytes(cfg *config.Config) int {
	if cfg.Physical.PhitBytes > 0 {
		return cfg.Physical.PhitBytes
	}
	return 1
}

// recnInject places packet k, generated at cycle t, in its node's
// interface.
func (s *Sim) recnInject(k int32, t int64) {
	rs := s.rn
	pk := &s.pk[k]
	pk.entry = t
	h := int(pk.src)
	pair := h*s.N + int(pk.dst)
	if len(rs.seq) <= int(k) {
		rs.seq = append(rs.seq, make([]int32, int(k)+1-len(rs.seq))...)
	}
	rs.seq[k] = rs.seqGen[pair]
	rs.seqGen[pair]++
	if rs.rc.px != nil { // its place in the order (recn_parallel.go); an interface's arrival posts nothing
		rs.rc.act(recnPhaseA, uint64(h))
	}
	rs.rc.arrive(rs.rc.ni(h), k, int(pk.dst), -1)
	rs.niBusy[h>>6] |= 1 << (h & 63)
}

// recnRoom is the packets node h's injection side can still take (its
// source queue's path, which bypasses the admittance queues).
func (s *Sim) recnRoom(h int) int32 {
	rc := s.rn.rc
	sd := &rc.sides[rc.ni(h)]
	return sd.mem - sd.used
}

// recnStalled tells whether node h's generator holds a packet whose
// admittance queue is full: it makes no attempt until the packet fits.
func (s *Sim) recnStalled(h int) bool { return s.rn.pend[h] >= 0 }

// recnGenerate is a packet generated at node h for dst, the destination
// drawn before any room test (RECN paper §4.1: a message is stored in the
// admittance queue of its destination): into the interface's injection
// side at once when nothing waits ahead of it and the side admits it,
// else into its admittance queue, else held, stalling the generator.
func (s *Sim) recnGenerate(h, dst int, flags uint8) {
	rs := s.rn
	k := s.newPacket(h, dst, s.now, flags)
	if rs.admHosts[h>>6]&(1<<(h&63)) == 0 && rs.admLast[h] < s.now && s.recnAdmits(h, dst) {
		rs.admLast[h] = s.now
		s.recnInject(k, s.now)
		return
	}
	if !rs.admPush(h, dst, s.N, k) {
		rs.pend[h] = k
		rs.stalls++
	}
	rs.admHosts[h>>6] |= 1 << (h & 63)
}

// admPush appends packet k to host h's admittance queue for dst; false
// when it is full.
func (rs *recnSim) admPush(h, dst, n int, k int32) bool {
	f := h*n + dst
	if rs.admLen[f] == rs.admCap {
		return false
	}
	i := rs.admFree
	if i >= 0 {
		rs.admFree = rs.admNodes[i].next
		rs.admNodes[i] = recnNode{k, -1}
	} else {
		i = int32(len(rs.admNodes))
		rs.admNodes = append(rs.admNodes, recnNode{k, -1})
	}
	if rs.admT[f] < 0 {
		rs.admH[f] = i
	} else {
		rs.admNodes[rs.admT[f]].next = i
	}
	rs.admT[f] = i
	rs.admLen[f]++
	rs.rc.admIdle[h] = false
	rs.admMask[h*rs.admWords+dst>>6] |= 1 << (dst & 63)
	return true
}

// recnAdmits tells whether host h's injection side takes a packet for dst
// now: its memory has room, and the SAQ the packet would join (the longest
// match, RECN paper §3.6) is neither stopped by Xoff nor holding T_xoff
// packets. The admittance queues are the interface's ingress side: as an
// egress SAQ at T_xoff stops the ingress SAQs that feed it (§3.7), the
// interface's SAQ stops its admittance queues for the destinations it
// matches, and a stopped flow waits in them, then in its generator.
func (s *Sim) recnAdmits(h, dst int) bool {
	rc := s.rn.rc
	side := rc.ni(h)
	sd := &rc.sides[side]
	if sd.used >= sd.mem {
		return false
	}
	if sd.lines == 0 {
		return true
	}
	l := rc.niLine(h, dst)
	if l < 0 {
		return true
	}
	return !rc.niStops(side, l)
}

// recnAdmit moves, for every host with queued packets, one packet from its
// admittance queues into its injection side (round-robin over the
// destinations, passing those not admitted), then lets a held packet into
// its queue.
func (s *Sim) recnAdmit(now int64) {
	rs := s.rn
	N, W := s.N, rs.admWords
	for w, m := range rs.admHosts {
		for ; m != 0; m &= m - 1 {
			h := w<<6 | bits.TrailingZeros64(m)
			mask := rs.admMask[h*W : h*W+W]
			if sd := &rs.rc.sides[rs.rc.ni(h)]; rs.admLast[h] < now && sd.used < sd.mem && !rs.rc.admIdle[h] {
				// from the round-robin's destination on, wrapping round to
				// the bits of its word below it
				sw, sb := int(rs.admRR[h])>>6, uint(rs.admRR[h]&63)
				stop := s.recnStopped(h)
				for i := 0; i <= W; i++ {
					wi := (sw + i) % W
					bm := mask[wi]
					if i == 0 {
						bm &^= 1<<sb - 1
					} else if i == W {
						bm &= 1<<sb - 1
					}
					if d := s.recnAdmitFrom(h, wi, bm, stop, now); d >= 0 {
						rs.admRR[h] = int32((d + 1) % N)
						break
					}
				}
				// nothing moved: not again until something that may
				// admit happens (rc.admIdle)
				rs.rc.admIdle[h] = rs.admLast[h] < now
			}
			if k := rs.pend[h]; k >= 0 && rs.admPush(h, int(s.pk[k].dst), N, k) {
				rs.pend[h] = -1
			}
			if rs.pend[h] < 0 {
				empty := true
				for _, x := range mask {
					empty = empty && x == 0
				}
				if empty {
					rs.admHosts[w] &^= 1 << (h & 63)
				}
			}
		}
	}
}

// recnStopped is the lines of host h's injection side that admit nothing
// (recnAdmits: stopped by Xoff, or holding T_xoff packets).
func (s *Sim) recnStopped(h int) uint64 {
	rc := s.rn.rc
	side := rc.ni(h)
	var stop uint64
	for m := rc.sides[side].lines; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		if rc.niStops(side, l) {
			stop |= 1 << l
		}
	}
	return stop
}

// recnAdmitFrom moves the first packet it admits among host h's
// destinations in bm (word wi of its mask) into the injection side, which
// has room and whose lines in stop admit nothing (recnStopped), and
// returns its destination; −1 if none. It is recnAdmits over the
// destinations in turn: nothing changes the side until a packet moves.
func (s *Sim) recnAdmitFrom(h, wi int, bm, stop uint64, now int64) int {
	rs := s.rn
	rc := rs.rc
	if stop != 0 {
		// the destinations known to match a stopped line go at once
		for m := stop; m != 0; m &= m - 1 {
			bm &^= rc.niDst[(h*rc.p.saqs+bits.TrailingZeros64(m))*rc.niWords+wi]
		}
	}
	for ; bm != 0; bm &= bm - 1 {
		d := wi<<6 | bits.TrailingZeros64(bm)
		if stop != 0 && rc.niMatch[h*rc.hosts+d] == 0 { // not known: its match
			if l := rc.niLine(h, d); l >= 0 && stop&(1<<l) != 0 {
				continue
			}
		}
		f := h*s.N + d
		i := rs.admH[f]
		k := rs.admNodes[i].v
		rs.admH[f] = rs.admNodes[i].next
		rs.admNodes[i].next, rs.admFree = rs.admFree, i
		if rs.admLen[f]--; rs.admLen[f] == 0 {
			rs.admT[f] = -1
			rs.admMask[h*rs.admWords+wi] &^= 1 << (d & 63)
		}
		rs.admLast[h] = now
		s.recnInject(k, now)
		return d
	}
	return -1
}

// recnStep runs one cycle of the network under RECN.
func (s *Sim) recnStep() {
	rs := s.rn
	rc := rs.rc
	now := s.now
	rc.step(now)
	radix := s.radix
	s.recnAdmit(now)
	slot := now & s.wheelMask
	for _, e := range s.arrivals[slot] {
		pi, _ := arrivalAt(e)
		k := int32(uint32(e))
		if rc.px != nil { // its place in the order (recn_parallel.go)
			rc.act(recnPhaseR, rs.arrivalRank(pi))
		}
		rc.arrive(pi, k, int(s.pk[k].dst), -1)
		rs.inBusy[pi/radix] |= 1 << (pi % radix)
	}
	s.arrivals[slot] = s.arrivals[slot][:0]
	// the interfaces' links
	for w, m := range rs.niBusy {
		for ; m != 0; m &= m - 1 {
			h := w<<6 | bits.TrailingZeros64(m)
			side := rc.ni(h)
			if rc.linkFree[side] > now || rc.credits[side] == 0 || rc.sleep[side] > now {
				continue
			}
			if rc.px != nil {
				rc.act(recnPhaseN, uint64(h))
			}
			if k := s.recnSend(side, now); k >= 0 && rc.sides[side].used == 0 {
				rs.niBusy[w] &^= 1 << (h & 63)
			}
		}
	}
	// the egress sides' links
	for ri := 0; ri+1 < len(rs.ranges); ri += 2 {
		for r, r1 := rs.ranges[ri], rs.ranges[ri+1]; r < r1; r++ {
			for m := rs.egBusy[r]; m != 0; m &= m - 1 {
				port := bits.TrailingZeros64(m)
				po := r*radix + port
				side := rc.egress(po)
				if rc.linkFree[side] > now || (rc.sides[side].peer >= 0 && rc.credits[side] == 0) || rc.sleep[side] > now {
					continue
				}
				if rc.px != nil {
					rc.act(recnPhaseE, uint64(po))
				}
				if k := s.recnSend(side, now); k >= 0 && rc.sides[side].used == 0 {
					rs.egBusy[r] &^= 1 << port
				}
			}
		}
	}
	// the crossbars: each ingress side in turn from a rotating start,
	// offering first its leaf SAQ holding few packets or its normal queue;
	// a side with lines that sent neither offers its other SAQs after every
	// side of the switch has had its turn (RECN paper §4.1: "requests from
	// packets in normal queues have preference over requests from packets
	// in SAQs", over the switch's inputs as within one)
	for ri := 0; ri+1 < len(rs.ranges); ri += 2 {
		for r, r1 := rs.ranges[ri], rs.ranges[ri+1]; r < r1; r++ {
			busy := rs.inBusy[r]
			if busy == 0 {
				continue
			}
			rot := int(now) % radix
			if rs.optr != nil {
				s.recnXbarPerOutput(r, rot, now)
				continue
			}
			m := (busy>>uint(rot) | busy<<uint(radix-rot)) & (1<<uint(radix) - 1)
			var later uint64 // rotated positions of the sides deferred to their SAQs
			for ; m != 0; m &= m - 1 {
				j := bits.TrailingZeros64(m)
				if s.recnXbarSide(r, j, rot, now, rc.normalFirst) {
					later |= 1 << j
				}
			}
			for ; later != 0; later &= later - 1 {
				s.recnXbarSide(r, bits.TrailingZeros64(later), rot, now, false)
			}
		}
	}
	rs.sample(now, s.st.bucket(now))
}

// recnXbarSide lets ingress side j (rotated by rot) of switch r send one
// head across the crossbar if it can. With first set, a side holding lines
// offers only what pickFirst allows and, if nothing went, reports true (to
// be offered again, all its queues, after the other sides) without going
// to sleep.
func (s *Sim) recnXbarSide(r, j, rot int, now int64, first bool) bool {
	rs := s.rn
	rc := rs.rc
	radix := rc.radix
	in := j + rot
	if in >= radix {
		in -= radix
	}
	pi := r*radix + in
	if rs.xin[pi] > now || rc.sleep[pi] > now {
		return false
	}
	if rc.px != nil { // the sequential order: a switch's sides, then those deferred
		idx := 2*r*radix + j
		if !first {
			idx += radix
		}
		rc.act(recnPhaseX, uint64(idx))
	}
	first = first && rc.sides[pi].lines != 0
	q, po := s.recnXbarHead(r, pi, first, now)
	if q < 0 {
		if first {
			return true
		}
	} else {
		s.recnXbarMove(pi, in, q, po, now)
	}
	if rc.sides[pi].used == 0 {
		rs.inBusy[r] &^= 1 << in
	}
	return false
}

// recnXbarHead picks the head side pi of switch r may send across the
// crossbar now (its output free, its egress side with room): its queue and
// output port. With first, only what pickFirst allows; q < 0 if none, and
// then, unless first, the side sleeps until a passed head could go.
func (s *Sim) recnXbarHead(r, pi int, first bool, now int64) (q, po int) {
	rs := s.rn
	rc := rs.rc
	var skip uint64
	wake := int64(math.MaxInt64)
	for {
		if first {
			q = rc.pickFirst(pi, skip)
		} else {
			q = rc.pick(pi, skip)
		}
		if q < 0 {
			if !first {
				rc.sleep[pi] = wake // nothing went: not before a head can
			}
			return q, 0
		}
		pk := &s.pk[rc.head(pi, q)]
		po = r*rc.radix + int(rc.hop[r*rc.hosts+int(pk.dst)])
		if t := max(pk.entry, rs.xout[po]); t > now || !rc.room(rc.egress(po)) {
			if t <= now { // no room: the egress side may send this cycle
				t = now + 1
			}
			wake = min(wake, t)
			skip |= 1 << q
			continue
		}
		return q, po
	}
}

// recnXbarMove sends the head of queue q of ingress side pi (port in)
// across the crossbar to output port po.
func (s *Sim) recnXbarMove(pi, in, q, po int, now int64) {
	rs := s.rn
	rc := rs.rc
	k := rc.head(pi, q)
	pk := &s.pk[k]
	rc.dequeue(pi, q)
	dur := max(s.xbarDur, pk.entry+int64(s.P)-now)
	rs.xin[pi], rs.xout[po] = now+dur, now+dur
	pk.entry = now + s.xbar // its head reaches the egress side
	rc.arrive(rc.egress(po), k, int(pk.dst), in)
	rs.egBusy[po/rc.radix] |= 1 << (po % rc.radix)
	s.st.xbar++
	s.lastProgress = now
}

// recnXbarPerOutput is switch r's crossbar with congestion.recnCrossbar=
// perOutput: the arbiter receives a request from every ingress side able
// to send (RECN paper §4.1: "requests from packets at the head of any
// input queue"; the side's head as its priorities pick it, passing heads
// whose output is busy or whose egress side is full), and each requested
// output grants the requesting side nearest after its round-robin pointer,
// which then moves past it (the baselines' separable allocator, one
// iteration). Normal queues' requests (and those of leaf SAQs holding few
// packets) are granted first; the sides with lines that requested neither
// then request from their other SAQs, the outputs still free granting them
// alike. A side whose request loses waits for the next cycle.
func (s *Sim) recnXbarPerOutput(r, rot int, now int64) {
	rs := s.rn
	rc := rs.rc
	radix := rc.radix
	busy := rs.inBusy[r]
	reqQ, reqPo := &rs.reqQ, &rs.reqPo
	var later uint64
	for pass := 0; pass < 2; pass++ {
		var sides uint64
		if pass == 0 {
			sides = (busy>>uint(rot) | busy<<uint(radix-rot)) & (1<<uint(radix) - 1)
		} else {
			sides = later
		}
		var reqMask uint64
		for m := sides; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			in := j + rot
			if in >= radix {
				in -= radix
			}
			pi := r*radix + in
			if rs.xin[pi] > now || rc.sleep[pi] > now {
				continue
			}
			first := pass == 0 && rc.normalFirst && rc.sides[pi].lines != 0
			q, po := s.recnXbarHead(r, pi, first, now)
			if q < 0 {
				if first {
					later |= 1 << j
				}
				continue
			}
			reqQ[j], reqPo[j] = int8(q), int32(po)
			reqMask |= 1 << j
		}
		// grants: each requested output to the requester nearest after its pointer
		var win uint64
		for m := reqMask; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			po := reqPo[j]
			in := (j + rot) % radix
			best := true
			for m2 := reqMask; m2 != 0; m2 &= m2 - 1 {
				j2 := bits.TrailingZeros64(m2)
				if j2 == j || reqPo[j2] != po {
					continue
				}
				in2 := (j2 + rot) % radix
				p := int(rs.optr[po])
				if (in2-p+radix)%radix < (in-p+radix)%radix {
					best = false
					break
				}
			}
			if best {
				win |= 1 << j
			}
		}
		for m := win; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			in := (j + rot) % radix
			pi := r*radix + in
			if rc.px != nil {
				rc.act(recnPhaseX, uint64(2*r*radix+pass*radix+j))
			}
			po := int(reqPo[j])
			s.recnXbarMove(pi, in, int(reqQ[j]), po, now)
			rs.optr[po] = uint8((in + 1) % radix)
			if rc.sides[pi].used == 0 {
				rs.inBusy[r] &^= 1 << in
			}
		}
		if later == 0 {
			break
		}
	}
}

// recnSend puts the head of the queue that side (an interface or egress
// side, its link idle and a credit at hand) picks onto its link; −1 if
// none can go (blocked, stopped, or not yet in).
func (s *Sim) recnSend(side int, now int64) int32 {
	rs := s.rn
	rc := rs.rc
	var skip uint64
	wake := int64(math.MaxInt64)
	for {
		q := rc.pick(side, skip)
		if q < 0 {
			rc.sleep[side] = wake // nothing went: not before a head has crossed
			return -1
		}
		k := rc.head(side, q)
		pk := &s.pk[k]
		if pk.entry > now {
			wake = min(wake, pk.entry)
			skip |= 1 << q
			continue
		}
		rc.dequeue(side, q)
		dep := rc.send(side, int64(s.P))
		s.lastProgress = now
		sd := &rc.sides[side]
		c := topology.FatTreeLink
		if sd.kind != recnEgress || sd.peer < 0 {
			c = topology.Injection
		}
		if sd.kind == recnEgress {
			// a switch's output link (to a switch or to a host), counted
			// per output port as send counts it; an interface's link into
			// its leaf is its node's, which no scheme counts
			po := side - rc.nPorts
			if dep >= s.W && dep < s.W+s.M {
				s.st.linkPhits[po] += int64(s.P)
			}
			if s.snap != nil { // the live view: a first hop leaves its source's leaf
				s.snap.sent(po, po/s.radix, int32(s.P), false, pk.lhops == 0)
			}
		}
		if sd.peer < 0 { // a host consumes it
			pair := int(pk.src)*s.N + int(pk.dst)
			if rs.seq[k] != rs.seqDel[pair] {
				rs.outOfOrder++
			}
			rs.seqDel[pair] = rs.seq[k] + 1
			s.deliver(k, dep)
			return k
		}
		if sd.kind == recnNI {
			pk.inj = dep
		} else {
			pk.lhops++
		}
		pk.entry = dep + s.lat[c]
		if x := s.xp; x != nil && x.owner[sd.peer] != x.id { // across the cut (recn_parallel.go)
			s.recnPacketOut(int(sd.peer), k)
			return k
		}
		at := pk.entry & s.wheelMask
		s.arrivals[at] = append(s.arrivals[at], uint64(sd.peer)<<(32+qBits)|uint64(uint32(k)))
		return k
	}
}

// sample records the SAQ utilisation of the cycle in interval b.
func (rs *recnSim) sample(now int64, b int) {
	rc := rs.rc
	rs.total = int32(rc.allocs - rc.frees)
	if px := rc.px; px != nil {
		// a partition's lines: the barrier adds the partitions' of each
		// cycle (recnBarrier)
		px.tot[now-px.from] = rs.total
	} else {
		rs.maxTot = max(rs.maxTot, rs.total)
		if b < len(rs.sTot) {
			rs.sTot[b] = max(rs.sTot[b], rs.total)
		}
	}
	// the per-side maxima change only at an allocation (a free lowers
	// them, which the next interval's first scan sees)
	if rc.allocs == rs.lastAllocs && b == rs.lastB {
		return
	}
	rs.lastAllocs, rs.lastB = rc.allocs, b
	// its sides' (a partition allocates and frees the lines of its own)
	in, eg := rc.mostLines(&rc.linesIn), rc.mostLines(&rc.linesEg)
	if b < len(rs.sIn) {
		rs.sIn[b], rs.sEg[b] = max(rs.sIn[b], in), max(rs.sEg[b], eg)
	}
	rs.maxIn, rs.maxEg = max(rs.maxIn, in), max(rs.maxEg, eg)
}

// result is the RECN section of a result of nb intervals.
func (rs *recnSim) result(nb int) *result.RECN {
	rc := rs.rc
	nb = min(nb, len(rs.sIn))
	return &result.RECN{MaxIngress: append([]int32(nil), rs.sIn[:nb]...), MaxEgress: append([]int32(nil), rs.sEg[:nb]...),
		Total: append([]int32(nil), rs.sTot[:nb]...), PeakIngress: rs.maxIn, PeakEgress: rs.maxEg, PeakTotal: rs.maxTot,
		Allocated: int32(rc.allocs - rc.frees), OutOfOrder: rs.outOfOrder, Notified: rc.notifies, Refused: rc.refused, ControlPkts: rc.ctlSent}
}
