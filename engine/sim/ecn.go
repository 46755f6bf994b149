package sim

import (
	"fmt"
	"math"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// ecn is the ECN baseline of Kim et al., "Contention-based Congestion
// Management in Large-Scale Networks" §III-A and §V-A (InfiniBand
// FECN/BECN with an inter-packet delay at the source):
//
//   - Switch: a packet whose head leaves an input VC buffer holding more
//     than congestion.ecnThreshold of its capacity (the departing packet
//     included; 90% of 256 flits, so a full buffer of 32-flit packets) is
//     marked (FECN, one packet bit, sticky); an injection buffer by the
//     flits a flit-by-flit source would have placed (injectionOccupancy).
//     A plain per-buffer threshold: no root detection,
//     no hysteresis (the mis-marking of the paper's Fig. 4 relies on it).
//     With virtual output queues the buffer is one queue (an output's VC);
//     vcMemory is the other reading of "input buffer", measured beside it
//     (engine/REPRODUCTION.md, Kim et al., "ECN's input buffer, read two
//     ways"): a transit input's VC counted over all its output queues, the
//     memory they would share, and no mark at the injection buffers.
//   - Destination: on consuming a marked packet it returns a BECN to the
//     packet's source, a control packet on the priority class ("ECN
//     requires one control packet VC"), routed minimally and served first.
//   - Source: per flow (source, destination) an inter-packet delay: +400
//     cycles per BECN, at most 1,500; every 1,000 cycles −50, at least 0.
//     A flow's next packet leaves its per-destination queue no earlier than
//     IPD cycles after the previous one's tail (the flow gate, messages.go).
type ecn struct {
	id   int
	p    config.ECNParams
	mark uint16  // the FECN bit of pk.mech
	over []int32 // per port class: a buffer holding more phits than this marks
	// per flow src·N + dst
	ipd   []int64 // its inter-packet delay
	tail  []int64 // the cycle after its last packet's tail left the node
	since []int64 // while its IPD > 0: the cycle it rose from 0
	busy  []bool  // it sent a packet
	// the nodes' flit-by-flit feed (injectionOccupancy): per node, the
	// cycle its last queued flit is fed; per packet id, its last flit's
	vEnd, feedEnd []int64
	act           []int32 // the flows with IPD > 0
	// vcMemory: the input buffer is a transit VC's memory, all its output
	// queues together (vcOccupancy); injection buffers do not mark. Not a
	// configuration field: the default reading is the one the figures'
	// targets were met with (engine/REPRODUCTION.md, Kim et al.)
	vcMemory bool
	// marks: data packets marked as they left an injection input [0] and a
	// transit input [1] (sequential runs; a partition counts its own)
	marks [2]int64
	// results
	becnTo            []int64 // BECNs received, per node (source)
	delivered, marked int64   // data packets consumed in the window, and marked ones
	throttled         int64   // flow-cycles with IPD > 0, of the flows back at 0
}

func init() { register("ecn", func() mechanism { return &ecn{} }) }

func (m *ecn) attach(s *Sim, id int) error {
	m.id, m.p = id, s.cfg.Congestion.ECN()
	if err := s.needFlowHolds(); err != nil {
		return fmt.Errorf("congestion.scheme=ecn: %v", err)
	}
	if err := s.needPriorityPackets(id); err != nil {
		return err
	}
	sh, err := s.claimPacketBits(1)
	if err != nil {
		return err
	}
	m.mark = 1 << sh
	m.over = make([]int32, len(s.bufCap))
	for c, capPhits := range s.bufCap {
		m.over[c] = int32(math.Floor(m.p.Threshold * float64(capPhits)))
	}
	m.feedEnd = make([]int64, s.N)
	nf := s.N * s.N
	m.ipd, m.tail, m.since, m.busy = make([]int64, nf), make([]int64, nf), make([]int64, nf), make([]bool, nf)
	m.becnTo = make([]int64, s.N)
	s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) { m.grant(s, r, in, vc, k) })
	s.hk.eject = append(s.hk.eject, func(k int32, t int64) { m.eject(s, k, t) })
	s.hk.sent = append(s.hk.sent, func(n, dst int, k int32) { m.sent(s, n, dst, k) })
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: m.p.Period, f: func() { m.decrement(s) }, on: ecnDecrement})
	return nil
}

func (m *ecn) control(*Sim, controlMsg) {}

// grant marks a data packet whose input VC buffer was over the threshold
// as its head left (b.len no longer counts it; an injection buffer counts
// its flits as injectionOccupancy has them).
func (m *ecn) grant(s *Sim, r, in, vc int, k int32) {
	pi := r*s.radix + in
	b := &s.bufs[pi*s.maxVC+vc]
	occ := (b.len + 1) * int32(s.P)
	inj := s.ports[pi].class == topology.Injection
	switch {
	case inj && m.vcMemory:
		return
	case inj:
		occ = m.injectionOccupancy(s, b, k)
	case m.vcMemory:
		occ = m.vcOccupancy(s, pi, vc) + int32(s.P)
	}
	if occ > m.over[s.ports[pi].class] && !s.isControl(k) {
		s.pk[k].mech |= m.mark
		if inj {
			m.marks[0]++
		} else {
			m.marks[1]++
		}
	}
}

// vcOccupancy is the phits left in data VC vc's memory at transit input
// pi: with virtual output queues, the VC's queue for every output (queue
// o·VCs + VC) together; without them, or for an extra VC (control), the
// buffer itself.
func (m *ecn) vcOccupancy(s *Sim, pi, vc int) int32 {
	d := int(s.vq.d[s.ports[pi].class])
	base := pi * s.maxVC
	if !s.vq.on || vc >= s.vq.n*d {
		return s.bufs[base+vc].len * int32(s.P)
	}
	var n int32
	for q := vc % d; q < s.vq.n*d; q += d {
		n += s.bufs[base+q].len
	}
	return n * int32(s.P)
}

// injectionOccupancy is the flits of an injection VC buffer b (its head k
// just granted) as the paper's node would have placed them: a node moves a
// whole packet per cycle from its source queue into its injection VC, 32×
// the channel's rate, so counting those packets would measure the source's
// backlog; the paper's source feeds the switch's input buffer flit by
// flit, one per cycle, so the buffer fills only when the switch forwards
// slower than that. Each packet's last flit is fed at vEnd (sent: the
// node's feed runs back to back), so at cycle now it has min(P, P − (vEnd
// − now)) flits in, at least 0.
func (m *ecn) injectionOccupancy(s *Sim, b *buffer, k int32) int32 {
	in := func(j int32) int32 {
		if int(j) >= len(m.vEnd) {
			return int32(s.P) // not fed by the source queue (a control packet)
		}
		return int32(min(int64(s.P), max(0, int64(s.P)-(m.vEnd[j]-s.now))))
	}
	occ := in(k)
	for i := int32(0); i < b.len; i++ {
		h := b.head + i
		if h >= b.cap {
			h -= b.cap
		}
		occ += in(int32(uint32(s.qRing[b.start+h])))
	}
	return occ
}

// eject echoes a marked packet's FECN to its source as a BECN.
func (m *ecn) eject(s *Sim, k int32, t int64) {
	pk := &s.pk[k]
	if t >= s.W && t < s.W+s.M {
		m.delivered++
		if pk.mech&m.mark != 0 {
			m.marked++
		}
	}
	if pk.mech&m.mark != 0 {
		s.sendPriority(m.id, int(pk.dst), int(pk.src), int64(pk.dst))
	}
}

// receive raises the delay of the flow the BECN names (its source is the
// BECN's destination; its destination, the payload).
func (m *ecn) receive(s *Sim, p ctlPacket) {
	n, dst := int(p.dst), int(p.data)
	f := n*s.N + dst
	m.becnTo[n]++
	if m.ipd[f] == 0 {
		m.since[f] = s.now
		m.act = append(m.act, int32(f))
	}
	m.ipd[f] = min(m.ipd[f]+m.p.Increment, m.p.Max)
	s.holdFlow(n, dst, m.tail[f]+m.ipd[f])
}

// sent spaces the flow's next packet IPD cycles after this one's tail, and
// schedules its flits on the node's feed (injectionOccupancy).
func (m *ecn) sent(s *Sim, n, dst int, k int32) {
	for int(k) >= len(m.vEnd) {
		m.vEnd = append(m.vEnd, make([]int64, len(s.pk)-len(m.vEnd))...)
	}
	m.feedEnd[n] = max(s.now, m.feedEnd[n]) + int64(s.P)
	m.vEnd[k] = m.feedEnd[n]
	f := n*s.N + dst
	m.busy[f] = true
	m.tail[f] = s.now + int64(s.P)
	if m.ipd[f] > 0 {
		s.holdFlow(n, dst, m.tail[f]+m.ipd[f])
	}
}

// decrement is the IPD timer: every flow with a delay loses 50 cycles of
// it (only those: no scan of the idle flows).
func (m *ecn) decrement(s *Sim) {
	kept := m.act[:0]
	for _, f32 := range m.act {
		f := int(f32)
		m.ipd[f] = max(m.ipd[f]-m.p.Decrement, 0)
		n, dst := f/s.N, f%s.N
		s.holdFlow(n, dst, m.tail[f]+m.ipd[f])
		if m.ipd[f] > 0 {
			kept = append(kept, f32)
			continue
		}
		m.throttled += s.now - m.since[f]
	}
	m.act = kept
}

// throttledShare is the mean share of the run so far that a flow which
// sent a packet (busy) spent throttled: closed flow-cycles of throttles
// that ended, plus those of the flows still throttled (act) since their
// start; 0 before any flow sent (a share of nothing, as shareOf: a result
// holds no NaN, JSON has none). ECN's delays and CBCM's throttles.
func throttledShare(now, closed int64, act []int32, since []int64, busy []bool) float64 {
	thr := closed
	for _, f := range act {
		thr += now - since[f]
	}
	flows := 0
	for _, b := range busy {
		if b {
			flows++
		}
	}
	if flows == 0 || now == 0 {
		return 0
	}
	return float64(thr) / float64(flows) / float64(now)
}

// report: BECNs sent, their mean latency (once one is delivered), the share
// of the window's data packets marked, and the mean share of time a flow
// (one that sent a packet) spent with a delay, over the run so far.
func (m *ecn) report(s *Sim) (string, map[string]float64) {
	sent, delivered, lat := s.controlPackets(m.id)
	share := throttledShare(s.now, m.throttled, m.act, m.since, m.busy)
	r := map[string]float64{"becns": float64(sent),
		"markedShare": shareOf(m.marked, m.delivered), "throttledShare": share}
	if delivered > 0 { // no mean before the first delivery (as QCN's CNMs): a 0 would pull the seeds' mean down
		r["becnLatency"] = lat
	}
	return "ecn", r
}

// shareOf is a/b, 0 when b is 0 (a report's share of nothing).
func shareOf(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
