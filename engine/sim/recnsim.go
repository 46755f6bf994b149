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
		seqGen: make([]int32, s.N*s.N), seqDel: make([]int32, s.N*s.N)}
	n := int((s.W + s.M + int64(s.cfg.Sim.Interval) - 1) / int64(s.cfg.Sim.Interval))
	rs.sIn, rs.sEg, rs.sTot = make([]int32, n), make([]int32, n), make([]int32, n)
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
	rs.rc.arrive(rs.rc.ni(h), k, int(pk.dst), -1)
	rs.niBusy[h>>6] |= 1 << (h & 63)
}

// recnRoom tells whether node h's interface can take a packet.
func (s *Sim) recnRoom(h int) int32 {
	rc := s.rn.rc
	sd := &rc.sides[rc.ni(h)]
	return sd.mem - sd.used
}

// recnStep runs one cycle of the network under RECN.
func (s *Sim) recnStep() {
	rs := s.rn
	rc := rs.rc
	now := s.now
	rc.step(now)
	radix := s.radix
	slot := now & s.wheelMask
	for _, e := range s.arrivals[slot] {
		pi, _ := arrivalAt(e)
		k := int32(uint32(e))
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
			if k := s.recnSend(side, now); k >= 0 && rc.sides[side].used == 0 {
				rs.niBusy[w] &^= 1 << (h & 63)
			}
		}
	}
	// the egress sides' links
	for r := 0; r < s.R; r++ {
		for m := rs.egBusy[r]; m != 0; m &= m - 1 {
			port := bits.TrailingZeros64(m)
			po := r*radix + port
			side := rc.egress(po)
			if rc.linkFree[side] > now || (rc.sides[side].peer >= 0 && rc.credits[side] == 0) || rc.sleep[side] > now {
				continue
			}
			if k := s.recnSend(side, now); k >= 0 && rc.sides[side].used == 0 {
				rs.egBusy[r] &^= 1 << port
			}
		}
	}
	// the crossbars: each ingress side in turn from a rotating start
	for r := 0; r < s.R; r++ {
		busy := rs.inBusy[r]
		if busy == 0 {
			continue
		}
		rot := int(now) % radix
		m := (busy>>uint(rot) | busy<<uint(radix-rot)) & (1<<uint(radix) - 1)
		for ; m != 0; m &= m - 1 {
			in := bits.TrailingZeros64(m) + rot
			if in >= radix {
				in -= radix
			}
			pi := r*radix + in
			if rs.xin[pi] > now || rc.sleep[pi] > now {
				continue
			}
			var skip uint64
			wake := int64(math.MaxInt64)
			for {
				q := rc.pick(pi, skip)
				if q < 0 {
					rc.sleep[pi] = wake // nothing went: not before a head can
					break
				}
				k := rc.head(pi, q)
				pk := &s.pk[k]
				po := r*radix + rs.ft.Port(r, int(pk.dst))
				eg := rc.egress(po)
				if t := max(pk.entry, rs.xout[po]); t > now || !rc.room(eg) {
					if t <= now { // no room: the egress side may send this cycle
						t = now + 1
					}
					wake = min(wake, t)
					skip |= 1 << q
					continue
				}
				rc.dequeue(pi, q)
				dur := max(s.xbarDur, pk.entry+int64(s.P)-now)
				rs.xin[pi], rs.xout[po] = now+dur, now+dur
				pk.entry = now + s.xbar // its head reaches the egress side
				rc.arrive(eg, k, int(pk.dst), in)
				rs.egBusy[r] |= 1 << (po - r*radix)
				s.st.xbar++
				s.lastProgress = now
				break
			}
			if rc.sides[pi].used == 0 {
				rs.inBusy[r] &^= 1 << in
			}
		}
	}
	rs.sample(now, s.st.bucket(now))
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
		at := pk.entry & s.wheelMask
		s.arrivals[at] = append(s.arrivals[at], uint64(sd.peer)<<(32+qBits)|uint64(uint32(k)))
		return k
	}
}

// sample records the SAQ utilisation of the cycle in interval b.
func (rs *recnSim) sample(now int64, b int) {
	rc := rs.rc
	rs.total = int32(rc.allocs - rc.frees)
	rs.maxTot = max(rs.maxTot, rs.total)
	if b < len(rs.sTot) {
		rs.sTot[b] = max(rs.sTot[b], rs.total)
	}
	// the per-side maxima change only at an allocation (a free lowers
	// them, which the next interval's first scan sees)
	if rc.allocs == rs.lastAllocs && b == rs.lastB {
		return
	}
	rs.lastAllocs, rs.lastB = rc.allocs, b
	var in, eg int32
	for i := range rc.sides {
		n := int32(bits.OnesCount64(rc.sides[i].lines))
		if rc.sides[i].kind == recnIngress {
			in = max(in, n)
		} else {
			eg = max(eg, n)
		}
	}
	if b < len(rs.sIn) {
		rs.sIn[b], rs.sEg[b] = max(rs.sIn[b], in), max(rs.sEg[b], eg)
	}
	rs.maxIn, rs.maxEg = max(rs.maxIn, in), max(rs.maxEg, eg)
}

// saqLines writes the SAQ lines allocated now per switch (its ingress and
// egress sides) and per host (its interface), for the live view.
func (rs *recnSim) saqLines(sw, host []int32) {
	clear(sw)
	for i := range rs.rc.sides {
		sd := &rs.rc.sides[i]
		n := int32(bits.OnesCount64(sd.lines))
		if sd.kind == recnNI {
			host[i-2*rs.rc.nPorts] = n
		} else {
			sw[sd.sw] += n
		}
	}
}

// result is the RECN section of a result of nb intervals.
func (rs *recnSim) result(nb int) *result.RECN {
	rc := rs.rc
	nb = min(nb, len(rs.sIn))
	return &result.RECN{MaxIngress: append([]int32(nil), rs.sIn[:nb]...), MaxEgress: append([]int32(nil), rs.sEg[:nb]...),
		Total: append([]int32(nil), rs.sTot[:nb]...), PeakIngress: rs.maxIn, PeakEgress: rs.maxEg, PeakTotal: rs.maxTot,
		Allocated: int32(rc.allocs - rc.frees), OutOfOrder: rs.outOfOrder, Notified: rc.notifies, Refused: rc.refused, ControlPkts: rc.ctlSent}
}
