package sim

import (
	"errors"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/topology"
)

// QCN congestion points and QCN-Switch's per-port minimal probabilities
// (QCN-Switch paper: Benito, Vallejo, Izu, Beivide, "Non-minimal Adaptive
// Routing Based on Explicit Congestion Notifications", §2–3), attached by
// routing.name=QCN_SWITCH (its routing decision: qcnroute.go).
//
// Congestion points (paper §2, §3.2). Each transit port's output FIFO
// (routing.qcnSampling=output) or input buffer, all its data VCs together
// (input), counts the data packets arriving in it; every CPC-th is a sample
// (paper §4: "one sample every 100 packets"); with
// routing.qcnSamplingClock=fogsim the count also falls by one every cycle,
// as FOGSim v5's qcnCpSamplingCounter does (switchModule::action), and the
// sample is taken at the first arrival once it is out. A sample computes, Q the buffer's data phits,
// Fb = −(Q − Q_eq + w·(Q − Q_old)); when negative, its magnitude quantised to
// 6 bits over (1 + 2w)·Q_eq (saturating at 2·Q_eq for w = 0, FOGSim v5's
// qcnOccupancySampling) and, if not 0, sent with probability %CNMs as a CNM
// to the source node of the victim: the arriving packet at an output FIFO
// (the 802.1Qau sampled frame; FOGSim takes the FIFO's head, whose id this
// simulator does not keep), a random packet of the buffer at an input
// (FOGSim, after Neeser et al.). Q_old is the occupancy at the previous
// sample (802.1Qau and FOGSim; the paper says at the previous CNM: the same
// for the paper's w = 0).
//
// CNMs travel on the priority class (ctlclass.go). The victim's source
// router intercepts its CNM (FOGSim v5: destSwitch == this switch) and
// processes it on the port it arrived by (paper §3.1.2); a CNM whose
// victim's source is the congestion point's own router is not sent, it is
// processed there on the sampled output port (paper §3.2.2; FOGSim v5
// ioqSwitchModule::qcnOccupancySampling processes it on the victim's minimal
// port instead). With input sampling and routing.qcnSourceProcessing the
// congestion point also processes each CNM it sends, on the port its victim
// takes at this router (paper §3.2.1).
//
// Processing (paper §3.1.2, §3.3): the port's packet counter restarts;
// without feedback comparison P ×= 1 − Lf·|Fb|; with it, the port's last
// feedback becomes |Fb|, the mean of the last feedbacks of all transit ports
// is taken after that update, and P ×= 1 − Lf·(|Fb| − mean) if
// |Fb| > mean + Th2, P += PI if |Fb| < mean − Th1, else nothing. After PC_l
// data packets cross to a port's output with no CNM for it, P += PI (capped
// at 100). Every draw is from the router's seeded stream.
type qcn struct {
	id  int
	q   config.QCN
	nt  int // transit ports per router
	tp0 int // the first transit port (Dragonfly: p)
	// per port pi: the minimal probability (%), the data packets crossed to
	// its output since its last CNM or increase, its last feedback (FbC)
	prob   []float64
	sent   []int32
	lastFb []uint8
	// per port pi, its congestion point: arrivals since the last sample
	// (counting down from CPC), the occupancy at the last sample (phits)
	left []int32
	qOld []int32
	last []int64 // routing.qcnSamplingClock=fogsim: the cycle of the last sample
	// Q_eq per port class (phits), 0 on injection ports
	qeq [8]int32
	// counters for the report (all run long)
	samples, negative, selfCNMs, processed int64
	ctlPhits                               int64 // CNM phits granted onto links in the measurement window
	spCuts                                 int64 // source-processing cuts, routing.qcnSourceProcessingRule=cut
	trace                                  *qcnTrace
	rp                                     *qcnRP // routing.qcnReactionPoints (nil: off)
}

func init() { register("qcn", func() mechanism { return &qcn{} }) }

func (m *qcn) attach(s *Sim, id int) error {
	m.id, m.q = id, s.cfg.Routing.QCN()
	if s.df == nil {
		return errQCNTopology
	}
	if err := s.needRouterPackets(id, m); err != nil {
		return err
	}
	m.tp0, m.nt = s.p, s.radix-s.p
	n := len(s.ports)
	m.prob, m.sent, m.lastFb = make([]float64, n), make([]int32, n), make([]uint8, n)
	m.left, m.qOld, m.last = make([]int32, n), make([]int32, n), make([]int64, n)
	for pi := range m.prob {
		m.prob[pi] = 100
		m.left[pi] = int32(m.q.CPC) // FOGSim v5 starts every counter at the interval
	}
	for cl := range s.vcCount {
		c := topology.PortClass(cl)
		if c == topology.Injection {
			continue
		}
		// a share of one transit queue (Table I: 20% of 100 KB, 20 KB):
		// the output FIFO, or one VC's input buffer, against which input
		// sampling weighs all the port's data VCs together, as FOGSim v5
		// weighs them against its one QCN_Q_EQ (qcnOccupancySampling)
		size := s.outCap
		if m.q.InputSampling {
			size = s.bufCap[c]
		}
		m.qeq[cl] = int32(float64(size) * m.q.Qeq / 100)
	}
	if m.q.InputSampling {
		s.hk.arrive = append(s.hk.arrive, m.arrive(s))
	}
	s.hk.grant = append(s.hk.grant, m.grant(s))
	if p := s.cfg.QCNReaction(); p.On {
		m.rp = newQCNRP(s, p)
	}
	s.qc = m
	s.st.sCnm = make([]int64, len(s.st.sDel))
	m.initTrace(s)
	return nil
}

// errQCNTopology: the non-minimal rules need the Dragonfly's global ports
// (runsOn refuses other topologies first).
var errQCNTopology = errors.New("routing.name=QCN_SWITCH runs on a Dragonfly only")

func (m *qcn) control(*Sim, controlMsg) {}

// receive: the CNM's node consumes it (it was processed at its router);
// with reaction points, its rate limiter reacts.
func (m *qcn) receive(s *Sim, p ctlPacket) {
	if m.rp != nil {
		m.rp.cnm(s.now, int(p.dst), int(p.data>>8), uint8(p.data))
	}
}

// intercept: a CNM reaches its victim's source router through input in.
func (m *qcn) intercept(s *Sim, r, in int, p ctlPacket) {
	m.process(s, r, in, uint8(p.data))
}

// grant: a packet crossed to output out of router r: a data packet counts
// towards the port's additive increase and, with output sampling, arrives
// at the port's congestion point; a CNM leaving on a link counts in the
// CNM traffic.
func (m *qcn) grant(s *Sim) func(r, in, out, vc, outVC int, k int32) {
	return func(r, in, out, vc, outVC int, k int32) {
		po := r*s.radix + out
		if s.pclass[po] == topology.Injection {
			return
		}
		if s.mech.live > 0 && s.isControl(k) {
			if s.now >= s.W && s.now < s.W+s.M {
				m.ctlPhits += int64(s.P)
			}
			return
		}
		if m.sent[po]++; m.sent[po] >= int32(m.q.PCl) {
			m.raise(s, po)
		}
		if !m.q.InputSampling {
			if m.left[po]--; m.due(s, po) {
				m.sample(s, r, po, k)
			}
		}
	}
}

// arrive: a data packet entered a data VC of transit input pi (input
// sampling).
func (m *qcn) arrive(s *Sim) func(pi, vc int, k int32) {
	return func(pi, vc int, k int32) {
		c := s.pclass[pi]
		if c == topology.Injection || s.isCtlVC(c, vc) {
			return
		}
		if m.left[pi]--; m.due(s, pi) {
			m.sample(s, pi/s.radix, pi, k)
		}
	}
}

// due tells whether port pi's congestion point samples at this arrival:
// its count of arrivals is out or, with FOGSim's clock, its count of
// arrivals and cycles since the last sample.
func (m *qcn) due(s *Sim, pi int) bool {
	return m.left[pi] <= 0 || m.q.Clock && int64(m.left[pi]) <= s.now-m.last[pi]
}

// occupancy is the data phits at port pi's congestion point now: the
// packets in its output FIFO (granted, not yet departed), or in the data
// VCs of its input buffer.
func (m *qcn) occupancy(s *Sim, pi int) int32 {
	var q int32
	if m.q.InputSampling {
		for v := 0; v < int(s.ctlBase[s.pclass[pi]]); v++ {
			q += s.bufs[pi*s.maxVC+v].len
		}
	} else {
		// departures rise along the ring: count back from the newest
		ring := s.oRing[int32(pi)*s.oCap : int32(pi+1)*s.oCap]
		j := s.ports[pi].oTail
		for range ring {
			if j--; j < 0 {
				j = s.oCap - 1
			}
			if int64(ring[j]) < s.now {
				break
			}
			q++
		}
	}
	return q * int32(s.P)
}

// feedback is a sample's quantised |Fb| (0…63) for occupancy q at a
// congestion point of Q_eq qeq, with Q_old qOld and weight w: 0 when not
// congested.
func feedback(q, qOld, qeq int32, w float64) uint8 {
	fb := float64(q-qeq) + w*float64(q-qOld)
	most := float64(qeq) * (1 + 2*w)
	if fb <= 0 || most <= 0 {
		return 0
	}
	return uint8(63 * min(fb, most) / most)
}

// sample runs a sample of port pi's congestion point at router r; k is the
// arriving packet.
func (m *qcn) sample(s *Sim, r, pi int, k int32) {
	m.left[pi], m.last[pi] = int32(m.q.CPC), s.now
	q := m.occupancy(s, pi)
	fb := feedback(q, m.qOld[pi], m.qeq[s.pclass[pi]], m.q.W)
	m.qOld[pi] = q
	m.samples++
	if fb == 0 {
		return
	}
	m.negative++
	rs := &s.rts[r]
	if rs.Float64()*100 >= m.q.CnmPercent {
		return
	}
	s.st.sCnm[s.st.bucket(s.now)]++
	victim := k
	if m.q.InputSampling {
		victim = m.randomPacket(s, pi, q/int32(s.P))
	}
	src := int(s.pk[victim].src)
	if int(s.nodeAt[src].router) == r {
		// the victim's source is this router: processed here, on the
		// sampled output (input sampling: the victim's output)
		port := pi - r*s.radix
		if m.q.InputSampling {
			port = m.victimPort(s, r, victim)
		}
		m.selfCNMs++
		if port >= 0 {
			m.process(s, r, port, fb)
		}
		if m.rp != nil { // the flow's limiter, one local hop away, reacts now
			m.rp.cnm(s.now, src, int(s.pk[victim].dst), fb)
		}
		return
	}
	// the CNM's payload: |Fb| in the low byte, the sampled frame's
	// destination above it (its flow, for the reaction points)
	s.sendFromRouter(m.id, r, src, int64(fb)|int64(s.pk[victim].dst)<<8)
	if m.q.InputSampling && m.q.SourceProcessing {
		if m.q.SPCut {
			m.sourceCut(s, r, victim, fb)
		} else if port := m.victimPort(s, r, victim); port >= 0 {
			m.process(s, r, port, fb)
		}
	}
}

// sourceCut is FOGSim v5's source processing
// (switchModule::qcnOccupancySampling, QCNSWSELF and QCNSWCOMPLETE): for a
// victim bound to another group, the probability of its minimal port
// toward its destination at router r is multiplied by 1 − Lf·|Fb|, with or
// without feedback comparison; the port's packet count and last feedback
// are left alone.
func (m *qcn) sourceCut(s *Sim, r int, victim int32, fb uint8) {
	pk := &s.pk[victim]
	if int(pk.dstRouter)/s.groupSize == r/s.groupSize {
		return
	}
	pi := r*s.radix + s.minimalPort(r, int(pk.dstRouter), pk.dst)
	m.spCuts++
	m.prob[pi] = qcnCut(m.prob[pi], m.q.Lf, float64(fb))
}

// qcnCut is a probability p multiplied by R = 1 − Lf·x (a cut past 0
// leaves 0: routing.qcnLf > 1/63).
func qcnCut(p, lf, x float64) float64 { return p * max(0, 1-lf*x) }

// randomPacket draws one of the n packets in the data VCs of input pi.
func (m *qcn) randomPacket(s *Sim, pi int, n int32) int32 {
	j := int32(s.rts[pi/s.radix].Intn(int(n)))
	for v := 0; ; v++ {
		b := &s.bufs[pi*s.maxVC+v]
		if j < b.len {
			i := b.head + j
			if i >= b.cap {
				i -= b.cap
			}
			return int32(uint32(s.qRing[b.start+i]))
		}
		j -= b.len
	}
}

// victimPort is the transit output packet k takes at router r (its routes
// in transit are minimal towards its target), or −1 for its ejection.
func (m *qcn) victimPort(s *Sim, r int, k int32) int {
	pk := &s.pk[k]
	target := int(pk.dstRouter)
	if pk.flags&fInterDone == 0 && !s.interReached(r, pk) {
		target = int(pk.inter)
	}
	if target == r {
		return -1
	}
	return s.minimalPort(r, target, pk.dst)
}

// process applies a CNM of magnitude fb to transit port `port` of router r.
func (m *qcn) process(s *Sim, r, port int, fb uint8) {
	pi := r*s.radix + port
	m.sent[pi] = 0
	m.processed++
	if !m.q.FbComparison {
		m.prob[pi] = qcnCut(m.prob[pi], m.q.Lf, float64(fb))
	} else {
		m.lastFb[pi] = fb
		sum := 0
		for _, f := range m.lastFb[r*s.radix+m.tp0 : (r+1)*s.radix] {
			sum += int(f)
		}
		avg := float64(sum) / float64(m.nt)
		switch f := float64(fb); {
		case f > avg+m.q.Th2:
			m.prob[pi] = qcnCut(m.prob[pi], m.q.Lf, f-avg)
		case f < avg-m.q.Th1:
			m.prob[pi] = min(100, m.prob[pi]+m.q.PI)
		}
	}
}

// raise is the additive increase of port pi after PC_l packets without a
// CNM.
func (m *qcn) raise(s *Sim, pi int) {
	m.sent[pi] = 0
	if m.prob[pi] < 100 {
		m.prob[pi] = min(100, m.prob[pi]+m.q.PI)
	}
}

func (m *qcn) report(s *Sim) (string, map[string]float64) {
	sent, delivered, lat := s.controlPackets(m.id)
	var link int64
	for _, v := range s.classPhits()[1:] { // the network's links, not the nodes'
		link += v
	}
	share := 0.0
	if link > 0 {
		share = float64(m.ctlPhits) / float64(link)
	}
	out := map[string]float64{
		"cnmSent": float64(sent), "cnmDelivered": float64(delivered),
		"cnmDropped": float64(s.controlDropped(m.id)), "cnmSelf": float64(m.selfCNMs),
		"samples": float64(m.samples), "congestedSamples": float64(m.negative),
		"cnmProcessed": float64(m.processed), "cnmLinkShare": share,
	}
	if delivered > 0 { // no mean before the first delivery
		out["cnmMeanLatency"] = lat
	}
	if m.q.SPCut && m.q.InputSampling && m.q.SourceProcessing {
		out["sourceCuts"] = float64(m.spCuts)
	}
	if rp := m.rp; rp != nil {
		mean, lim := rp.meanRate()
		out["rpCnms"], out["rpCuts"], out["rpIncreases"], out["rpHeld"] = float64(rp.cnms), float64(rp.cuts), float64(rp.increases), float64(rp.held)
		out["rpMeanRate"], out["rpLimited"], out["rpUntracked"] = mean, float64(lim), float64(rp.untracked)
	}
	return "qcn", out
}

// qcnTrace is the minimal probabilities of group 0's routers' transit
// ports over the run (QCN-Switch paper Figs. 12b, 14b), a snapshot every
// sim.interval cycles: with a pattern switch from the end of the warm-up
// (the transient record shows the probabilities before the switch), else
// from the end of the first interval, beside the time series.
type qcnTrace struct {
	from, every int64
	first       int64       // the cycle of the first snapshot
	vals        [][]float32 // per snapshot: router·transit ports + port − p
	last        int64       // the cycle of the last snapshot
}

func (m *qcn) initTrace(s *Sim) {
	t := &qcnTrace{from: s.W, every: int64(s.cfg.Sim.Interval)}
	if s.pat2 == nil {
		t.from = t.every
	}
	m.trace = t
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: t.every, f: func() { m.traceCycle(s) }, on: func(x *Sim) { x.qc.traceCycle(x) }})
}

// traceCycle records a snapshot of group 0's probabilities, when this Sim
// steps group 0's routers (in a partitioned run, the partition that holds
// group 0: parallel_qcn.go).
func (m *qcn) traceCycle(s *Sim) {
	t := m.trace
	if s.now < t.from || s.r0 != 0 {
		return
	}
	if t.vals == nil {
		t.first = s.now
	}
	t.vals, t.last = append(t.vals, m.snapshot(s)), s.now
}

// snapshot is group 0's transit-port probabilities now.
func (m *qcn) snapshot(s *Sim) []float32 {
	v := make([]float32, 0, s.groupSize*m.nt)
	for r := 0; r < s.groupSize; r++ {
		for _, p := range m.prob[r*s.radix+m.tp0 : (r+1)*s.radix] {
			v = append(v, float32(p))
		}
	}
	return v
}

// seriesProbabilities is the trace of a run without a pattern switch for
// the result, from the start of the run, ending with the probabilities at
// the run's end (now) when that is not a snapshot's cycle (a copy: a
// snapshot of a running simulation keeps its own).
func (m *qcn) seriesProbabilities(s *Sim) *result.PortProbabilities {
	t := m.trace
	if t == nil || s.pat2 != nil || s.now == 0 {
		return nil
	}
	vals := append([][]float32(nil), t.vals...)
	if len(vals) == 0 || t.last < s.now {
		vals = append(vals, m.snapshot(s))
	}
	first := t.first
	if len(t.vals) == 0 {
		first = s.now
	}
	return &result.PortProbabilities{From: int(first), Every: int(t.every), Ports: m.nt, Values: vals}
}

// probabilities is the trace for the result's transient record (a copy: a
// snapshot of a running simulation keeps its own).
func (m *qcn) probabilities(s *Sim) *result.PortProbabilities {
	t := m.trace
	if t == nil {
		return nil
	}
	return &result.PortProbabilities{From: int(t.first - s.switchAt), Every: int(t.every), Ports: m.nt,
		Values: append([][]float32(nil), t.vals...)}
}
