package sim

import (
	"fmt"
	"math"
	"math/bits"

	"phitsim/engine/topology"
	"phitsim/engine/vcs"
)

// The priority class: control packets a mechanism sends from a ROUTER (a
// QCN congestion point's CNMs, QCN-Switch paper §2–3), as FOGSim v5 models
// them (switchModule: one extra input port per switch for the CNMs it
// generates, with its own queue; qcnVcMngmt: their VCs are the minimal VC
// sequence offset above the highest data VC; cosArbiter: they are routed
// minimally whatever the data routing; arbiter::reorderListQcn: they are
// served first).
//
//   - Every transit port has, above its data VCs (router.localVCs,
//     router.globalVCs), the VCs of the minimal sequence (Dragonfly: 2 local,
//     1 global): the control VCs. A control packet climbs them as a MIN packet
//     climbs the data VCs, and is consumed unconditionally at its
//     destination, so the class is deadlock-free by MIN's argument and
//     shares no VC with the data (TestEveryAcceptedConfigurationHasAnAcyclicEscape
//     walks it).
//   - Each router's control injection input is one more VC on the input of
//     its first node's injection port, a buffer of router.injectionBuffer
//     phits (FOGSim's QCN port has a queue of its own; here it shares that
//     port's crossbar input, which its node's data then waits for while a
//     CNM crosses, and the port's packet count, so that a CNM waiting there
//     takes one of the node's injection slots in hasRoom's test). A packet
//     that finds it full is dropped, as FOGSim drops the CNM
//     (qcnOccupancySampling: delete cnmFlit).
//   - Both allocator stages serve a control VC before any data VC; a
//     control winner leaves the data's round-robin pointers where they are.
//   - A control packet is the data's size (FOGSim's CNM is one g_flit_size
//     packet), or 1 phit (short: Kim et al., Contention-based Congestion
//     Management in Large-Scale Networks §V-A, "control packets ... are
//     single-flit": ECN's BECNs, CBCM's throttles): the class's own packet
//     length ctlP, on every path — the injection VC and the control VCs
//     hold ⌊buffer/ctlP⌋ packets, a hop takes and returns ctlP credits,
//     crosses the crossbar in ⌈ctlP/speedup⌉ cycles and holds the link
//     for ctlP cycles, and the packet's latency counts its ctlP phits
//     (phitsOn, packetPhits; engine/TIMING.md, "Control packets").
//
// When no routing uses it, ctlBase is 32 for every class: the input stage
// pays one shift and test per arbitration (vcBusy >> 32 is 0).
type ctlClass struct {
	on bool
	// nodeSent: nodes send on the class too (sendPriority: ECN's BECNs,
	// Kim et al. §V-A, "1 dedicated control VC"), so every node's
	// injection port has a control VC, not only each router's first
	nodeSent bool
	seq      vcs.Sequence // the control packets' VC sequence (vcs.MinimalClassSeq)
	// replies: a second copy of the control VCs, from rBase on, for the
	// reply-class packets (sendReply: SRP's grants, ACKs and NACKs), the
	// first copy carrying the requests (its reservations), as Kim et al.
	// §V-A's 2 control VCs
	replies bool
	rBase   [8]uint16
	// per router: the input port (pi) and node of its control injection
	// input
	inj, src []int32
	// by mechanism id: the interceptor of its control packets at their
	// destination router, and the packets dropped for want of room
	icpt    []routerInterceptor
	dropped []int64
}

// routerInterceptor is a mechanism whose control packets the destination
// router reads when they reach it (before they go on to their node): QCN
// interception of a CNM by its destination's switch (FOGSim v5:
// flit->destSwitch == this->label).
type routerInterceptor interface {
	intercept(s *Sim, r, in int, p ctlPacket)
}

// initCtlClass adds the control VCs above the data VCs of every class
// (before build lays the buffers out).
func (s *Sim) initCtlClass(nodeSent, short, replies bool) error {
	c := &s.cc
	c.on, c.nodeSent, c.replies = true, nodeSent, replies
	if short && s.P > 1 {
		s.ctlP, s.ctlXbar, s.ctlShort = 1, 1, true
	}
	var err error
	if c.seq, err = vcs.MinimalClassSeq(s.topo, s.cfg.Topology.Kind); err != nil {
		return err
	}
	per := c.seq.PerClass(len(s.vcCount))
	for cl := range s.vcCount {
		s.ctlBase[cl] = uint16(s.vcCount[cl])
		n := per[cl]
		if topology.PortClass(cl) == topology.Injection {
			n = 1
		}
		s.vcCount[cl] += n
		c.rBase[cl] = s.ctlBase[cl]
		if replies {
			c.rBase[cl] += uint16(n)
			s.vcCount[cl] += n
		}
		if s.vcCount[cl] > 32 {
			return fmt.Errorf("router: %d VCs on %s ports with the control VCs, at most 32", s.vcCount[cl], s.topo.Classes()[cl].Name)
		}
	}
	c.inj, c.src = make([]int32, s.R), make([]int32, s.R)
	for r := range c.inj {
		c.inj[r] = -1
	}
	for n := s.N - 1; n >= 0; n-- { // the router's lowest-numbered node
		r, port := s.topo.NodePort(n)
		if pi := int32(r*s.radix + port); c.inj[r] < 0 || pi < c.inj[r] {
			c.inj[r], c.src[r] = pi, int32(n)
		}
	}
	return nil
}

// isCtlVC tells whether VC vc of a port of class cl is a control VC.
func (s *Sim) isCtlVC(cl topology.PortClass, vc int) bool { return vc >= int(s.ctlBase[cl]) }

// phitsOn is the length in phits of the packets VC (or queue) vc of a port
// of class cl carries: a control VC's packets are the priority class's
// (ctlP), the others the data's. The credits of a VC are counted in its
// packets' phits.
func (s *Sim) phitsOn(cl topology.PortClass, vc int) int32 {
	if s.ctlShort && vc >= int(s.ctlBase[cl]) {
		return s.ctlP
	}
	return int32(s.P)
}

// packetPhits is the length in phits of packet k: the priority class's
// for its packets (they are in the control VCs from their injection on),
// the data's otherwise.
func (s *Sim) packetPhits(k int32) int32 {
	if s.ctlShort && int(k) < len(s.mech.tag) && s.mech.tag[k].prio {
		return s.ctlP
	}
	return int32(s.P)
}

// needRouterPackets lets mechanism id send control packets from routers
// (sendFromRouter); ic, if not nil, reads them at their destination router.
func (s *Sim) needRouterPackets(id int, ic routerInterceptor) error {
	if !s.cc.on {
		return fmt.Errorf("mechanisms: mechanism %d sends control packets from routers, and routing.name=%s has no priority class", id, s.cfg.Routing.Name)
	}
	if err := s.needPackets(id); err != nil {
		return err
	}
	for len(s.cc.icpt) <= id {
		s.cc.icpt = append(s.cc.icpt, nil)
		s.cc.dropped = append(s.cc.dropped, 0)
	}
	s.cc.icpt[id] = ic
	return nil
}

// needPriorityPackets lets mechanism id, a packetReceiver, send control
// packets from nodes on the priority class (sendPriority); the class must
// have been laid out with nodeSent (initCtlClass).
func (s *Sim) needPriorityPackets(id int) error {
	if !s.cc.nodeSent {
		return fmt.Errorf("mechanisms: mechanism %d sends control packets from nodes on the priority class, which is not laid out for nodes", id)
	}
	return s.needRouterPackets(id, nil)
}

// sendPriority sends mechanism id's control packet with payload data from
// node `from` to node `to` on the priority class: as sendPacket (it waits
// in from's control queue, in order with its other control packets), but
// into the control VC of from's injection port, and from there routed
// minimally on the control VCs and served before data at both allocator
// stages (a BECN overtakes the congestion it reports).
func (s *Sim) sendPriority(id, from, to int, data int64) int32 {
	k := s.sendPacket(id, from, to, data)
	s.mech.tag[k].prio = true
	return k
}

// sendReply is sendPriority on the reply VCs (ctlClass.replies).
func (s *Sim) sendReply(id, from, to int, data int64) int32 {
	k := s.sendPriority(id, from, to, data)
	s.mech.tag[k].reply = true
	return k
}

// ctlRoom is the injection VC of node n's priority control packet: its
// port's control VC, or −1 when that is full.
func (s *Sim) ctlRoom(n int, reply bool) int {
	vc := int(s.ctlBase[topology.Injection])
	if reply {
		vc = int(s.cc.rBase[topology.Injection])
	}
	if b := &s.bufs[s.injBuf(n, vc)]; b.len == b.cap {
		return -1
	}
	return vc
}

// sendFromRouter sends mechanism id's control packet with payload data from
// router r to node `to` on the priority class: into r's control injection
// input (its head reaches the allocator after the injection latency), or
// nowhere when that input is full (counted in dropped). It returns the
// packet, or −1.
func (s *Sim) sendFromRouter(id, r, to int, data int64) int32 {
	return s.sendFromRouterOn(id, r, to, data, false)
}

// sendFromRouterOn is sendFromRouter on the request VCs, or on the reply
// VCs (reply, with ctlClass.replies: SRP's NACKs).
func (s *Sim) sendFromRouterOn(id, r, to int, data int64, reply bool) int32 {
	pi, vc := int(s.cc.inj[r]), int(s.ctlBase[topology.Injection])
	if reply {
		vc = int(s.cc.rBase[topology.Injection])
	}
	if b := &s.bufs[pi*s.maxVC+vc]; b.len == b.cap {
		s.cc.dropped[id]++
		return -1
	}
	k := s.initPacket(s.alloc(), int(s.cc.src[r]), to, s.now, 0)
	s.tagControl(id, k, data)
	s.mech.tag[k].prio = true // in the control VC: the priority class (the VOQ census checks it)
	s.mech.tag[k].reply = reply
	pk := &s.pk[k]
	pk.vc = int16(vc)
	pk.entry = s.now + s.lat[topology.Injection]
	s.push(pi, vc, k, pk.entry)
	s.countIn(pi)
	if s.held != nil {
		s.held[r]++
	}
	return k
}

// routeControl routes the head of control VC buffer b of input pi at router
// r: minimally, on the control sequence's next VC; at its destination
// router, which first reads it (intercept), to its node.
func (s *Sim) routeControl(r, pi int, b *buffer) {
	k := b.hd
	pk := &s.pk[k]
	if int(pk.dstRouter) == r {
		tag := s.mech.tag[k]
		if ic := s.cc.icpt[tag.mech-1]; ic != nil {
			ic.intercept(s, r, pi-r*s.radix, ctlPacket{k: k, src: pk.src, dst: pk.dst, sent: pk.gen, data: tag.data})
		}
		s.routeEject(r, pk)
		b.hVC = int16(pk.outVC)
	} else if s.cc.replies && s.mech.tag[k].reply {
		b.hVC = s.routeMinimalOn(r, pk, s.cc.seq, &s.cc.rBase)
	} else {
		b.hVC = s.routeMinimalOn(r, pk, s.cc.seq, &s.ctlBase)
	}
	b.hOut, b.hNext, b.hReq, b.hFinal = pk.outPort, pk.nextPos, false, true
}

// routeMinimalOn routes pk at router r (not its destination's) minimally,
// on the next VC of a class's sequence seq, whose VCs start at base[port
// class] (the priority class, the isolated class).
func (s *Sim) routeMinimalOn(r int, pk *packet, seq vcs.Sequence, base *[8]uint16) int16 {
	port := s.minimalPort(r, int(pk.dstRouter), pk.dst)
	class := s.pclass[r*s.radix+port]
	pos := seq.Next(int(pk.vcPos), class)
	if pos < 0 {
		panic(fmt.Sprintf("sim: packet %d→%d at router %d has no VC of its class left (position %d)", pk.src, pk.dst, r, pk.vcPos))
	}
	q := int(base[class]) + seq[pos].VC
	pk.outPort, pk.outVC, pk.nextPos = int16(port), int8(q), int8(pos) // outVC: unread, the caller's head record takes q
	return int16(q)
}

// ctlArbitrate is the input stage for the control VCs of input pi (from
// VC cb on) of router r, served before its data VCs: the first control VC,
// in index order, whose head can request its output, and that output; else
// (−1, −1) and the earliest cycle one of them might.
func (s *Sim) ctlArbitrate(r, pi int, cb uint) (int, int, int64) {
	base := r * s.radix
	wait := int64(math.MaxInt64)
	for m := s.vcBusy[pi] >> cb; m != 0; m &= m - 1 {
		v := int(cb) + bits.TrailingZeros32(m)
		b := &s.bufs[pi*s.maxVC+v]
		if int64(b.hEntry) > s.now {
			wait = min(wait, int64(b.hEntry))
			continue
		}
		if b.hOut < 0 {
			s.routeControl(r, pi, b)
		}
		po := base + int(b.hOut)
		op := &s.ports[po]
		t := int64(op.readyAt)
		if t <= s.now {
			t = -1
			switch {
			case op.class == topology.Injection:
				if s.ejGate && s.ejectionClosed(po) {
					t = s.now // FOGSim's ejection gate: tried again at the next attempt
				}
			case s.credits[po*s.maxVC+int(b.hVC)] < s.ctlP:
				t = waitCredit
			}
		}
		if t >= 0 {
			if t == waitCredit {
				s.sleepOnCredit(pi-base, po)
			}
			wait = min(wait, t)
			continue
		}
		return v, int(b.hOut), wait
	}
	return -1, -1, wait
}

// controlDropped is the number of mechanism id's router-sent control
// packets dropped for want of room in their control injection input.
func (s *Sim) controlDropped(id int) int64 {
	if id >= len(s.cc.dropped) {
		return 0
	}
	return s.cc.dropped[id]
}

// The isolated class: VCs of their own above the data VCs of every port
// (below the priority class's), on which a mechanism puts chosen flows at
// injection (Ideal's hotspot flows, Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-A; CBCM's throttled
// flows, §IV-B3). Its packets are routed minimally whatever the data
// routing, on vcs.MinimalClassSeq (1 VC on a flattened butterfly, 2 local + 1
// global on a Dragonfly), and consumed at their destination like data, so
// the class is deadlock-free by MIN's argument and shares no VC with the
// data: a congested flow on it leaves the data VCs' buffers to the other
// traffic. Each node's injection port has one more VC for it.
//
//   - Priority: equal (low false) — its VCs take part in both allocator
//     stages' round-robin with the data VCs; or strictly lowest (low) — an
//     input offers one of them only when none of its data VCs can request,
//     and an output grants one only when no data request competes.
//   - Choice: per flow (source node, destination), by the mechanism
//     (setIsoFlow), read by chooseVC when a packet enters an injection VC.
//
// When no mechanism uses it, isoBase is 32 for every class: the input
// stage pays one comparison per routed head.
type isoClass struct {
	on, low bool
	// adaptive: routed by the data routing's UGAL on a flattened butterfly
	// (SRP's speculative packets, Kim et al. §III-B: SRP(UGAL)'s are
	// non-minimal), on its VC sequence (2 VCs per dimension pair: Valiant's
	// phases), not minimally
	adaptive bool
	// aging: with low, a head this long in its buffer (hEntry ≤ now −
	// aging) is served at the data's priority (congestion.cbcmHotspotAging;
	// 0: never)
	aging int64
	seq   vcs.Sequence
	flow  []bool // by flow src·N + dst: on the class
	vc    int    // its injection VC
}

// initIsoClass adds the isolated class's VCs above the data VCs of every
// port class (before the priority class's, and before build lays the
// buffers out).
func (s *Sim) initIsoClass(low, adaptive bool) error {
	c := &s.iso
	c.on, c.low, c.adaptive = true, low, adaptive
	var err error
	if adaptive {
		c.seq = s.seq // UGAL's sequence on the flattened butterfly: acyclic by its argument
	} else if c.seq, err = vcs.MinimalClassSeq(s.topo, s.cfg.Topology.Kind); err != nil {
		return err
	}
	per := c.seq.PerClass(len(s.vcCount))
	for cl := range s.vcCount {
		s.isoBase[cl] = uint16(s.vcCount[cl])
		if topology.PortClass(cl) == topology.Injection {
			s.vcCount[cl]++
		} else {
			s.vcCount[cl] += per[cl]
		}
		if s.vcCount[cl] > 32 {
			return fmt.Errorf("router: %d VCs on %s ports with the isolated class, at most 32", s.vcCount[cl], s.topo.Classes()[cl].Name)
		}
	}
	c.vc = int(s.isoBase[topology.Injection])
	c.flow = make([]bool, s.N*s.N)
	return nil
}

// setIsoFlow puts flow src → dst on the isolated class (on) or back on the
// data VCs, for its packets entering an injection VC from now on (those in
// the network stay on their VCs, Kim et al. §IV-B3).
func (s *Sim) setIsoFlow(src, dst int, on bool) {
	s.iso.flow[src*s.N+dst] = on
	if s.sqFull != nil && s.fg.until == nil { // (under a flow gate never set)
		s.sqFull[src] = false // the flow's packets may find room on the other class
	}
}

// isoRoom is the injection VC of node n's packet on the isolated class, or
// −1 when it is full.
func (s *Sim) isoRoom(n int) int {
	if b := &s.bufs[s.injBuf(n, s.iso.vc)]; b.len == b.cap {
		return -1
	}
	return s.iso.vc
}

// routeIso routes the head of an isolated-class buffer b at router r:
// minimally on the class's next VC, or to its node at its destination.
func (s *Sim) routeIso(r int, b *buffer) {
	pk := &s.pk[b.hd]
	if s.iso.adaptive {
		// the data routing's decision and path (UGAL at the source router,
		// its Valiant intermediate), on the class's copy of its VCs
		if pk.vcPos < 0 && int(pk.dstRouter) != r {
			s.isoDecide(r, pk) // at the source router: UGAL on the class's own occupancy
		} else {
			s.route(r, pk, false, false) // on its path: to its intermediate, then its destination
		}
		b.hVC = int16(pk.outVC)
		if op := s.pclass[r*s.radix+int(pk.outPort)]; op != topology.Injection {
			b.hVC = int16(int(s.isoBase[op]) + s.iso.seq[pk.nextPos].VC)
			pk.outVC = int8(b.hVC) // unread: the head record holds the queue
		}
		b.hOut, b.hNext, b.hReq, b.hFinal = pk.outPort, pk.nextPos, false, true
		return
	}
	if int(pk.dstRouter) == r {
		s.routeEject(r, pk)
		b.hVC = int16(pk.outVC)
	} else {
		b.hVC = s.routeMinimalOn(r, pk, s.iso.seq, &s.isoBase)
	}
	b.hOut, b.hNext, b.hReq, b.hFinal = pk.outPort, pk.nextPos, false, true
}

// isoDecide is fbDecide (UGAL-L at the source router of a flattened
// butterfly: a Valiant intermediate drawn among the other routers, the
// minimal path iff q_min·H_min ≤ q_nm·H_nm + T, or q_min ≤ F·q_nm + T) for
// a packet of the adaptive isolated class, whose q is the occupancy of the
// class's own first-hop VC downstream (its packets go only there), or
// summed over the class's VCs of the port (routing.congestion=perPort). It
// routes the first hop on the data's sequence position; routeIso moves the
// VC into the class.
func (s *Sim) isoDecide(r int, pk *packet) {
	pk.inter = -1
	if s.R > 2 {
		pk.inter = s.fbDraw(r, int(pk.dstRouter))
	}
	pk.aux = -1
	pk.flags &^= fInterDone | fNonMin
	c := s.fbHops(r, pk)
	port := int(c & 127)
	if pk.inter < 0 {
		pk.flags |= fInterDone
	} else {
		port = s.fbUGAL(pk, c, s.isoOcc(r, port), s.isoOcc(r, int(c>>7&127)))
	}
	pos := s.iso.seq.Next(int(pk.vcPos), topology.FBFlyLink)
	pk.outPort, pk.outVC, pk.nextPos = int16(port), int8(s.iso.seq[pos].VC), int8(pos)
}

// isoOcc is the phits held downstream of output port of router r on the
// adaptive isolated class: its first-hop VC's, or all its VCs' (perPort).
func (s *Sim) isoOcc(r, port int) int32 {
	po := r*s.radix + port
	cl := s.pclass[po]
	base := po*s.maxVC + int(s.isoBase[cl])
	if !s.ug.perPort {
		return s.bufCap[cl] - s.credits[base+s.iso.seq[0].VC]
	}
	var q int32
	for v := range s.iso.seq.PerClass(len(s.vcCount))[cl] {
		q += s.bufCap[cl] - s.credits[base+v]
	}
	return q
}

// isIsoVC tells whether VC vc of a port of class cl is on the isolated
// class.
func (s *Sim) isIsoVC(cl topology.PortClass, vc int) bool {
	return vc >= int(s.isoBase[cl]) && vc < int(s.ctlBase[cl])
}

// dataVCs is the number of data VCs of port class cl (below the isolated
// and priority classes).
func (s *Sim) dataVCs(cl topology.PortClass) int {
	if s.vq.on { // isoBase, ctlBase index queues (initVoq)
		return int(s.vq.d[cl])
	}
	return min(s.vcCount[cl], int(s.isoBase[cl]), int(s.ctlBase[cl]))
}

// agedIso is the mask of the queues of input pi among m (bit j: queue
// base+j, those of a strictly-lowest isolated class) whose head has been in
// its buffer at least iso.aging cycles: they are served at the data's
// priority (congestion.cbcmHotspotAging).
func (s *Sim) agedIso(pi, base int, m uint64) uint64 {
	var aged uint64
	limit := s.now - s.iso.aging
	for ; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		if int64(s.bufs[pi*s.maxVC+base+j].hEntry) <= limit {
			aged |= 1 << j
		}
	}
	return aged
}
