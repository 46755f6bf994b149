package sim

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/rng"
	"phitsim/engine/topology"
)

// qcnRP is the 802.1Qau reaction points of QCN-Switch's CNMs
// (routing.qcnReactionPoints; off in the QCN-Switch paper, §2–3, which
// routes around congestion instead of throttling): rate limiters at the
// nodes, one per flow, the QCN rate-control algorithm of Alizadeh et al.,
// "Data Center Transport Mechanisms: Congestion Control Theory and IEEE
// Standardization" (ref. [23] of the paper: the QCN reaction point). Rates
// are shares of the link rate.
//
//   - Flows: a flow is (source node, destination node). A congestion point
//     addresses its CNM to the source of the sampled frame (QCN-Switch paper
//     §2.3: "sent to the source of the packet sampled in the switch buffer,
//     this is, a source NIC") and the CNM identifies that frame's flow, so
//     the limiter it cuts is the one of the sampled frame's destination:
//     the traffic that crossed the congested buffer. A congested CP is not
//     a key the node could use: which of its packets cross a given CP is
//     decided by the switches (QCN-Switch's routing is adaptive), not by
//     the node. Each node holds routing.qcnRpFlows limiters; a CNM for a
//     flow without one takes a free one, and finds none when all are busy
//     (the CNM is then counted in rpUntracked and changes no rate): memory
//     is nodes × qcnRpFlows limiters whatever the pattern.
//   - Decrease: a CNM of feedback |Fb| (its node's router intercepts it and
//     processes it for routing first) activates the flow's limiter at the
//     line rate if it was off, then R_T ← R_C, R_C ← max(min rate,
//     R_C·(1 − G_d·|Fb|)), and restarts the byte counter and the timer with
//     their cycle counts at 0.
//   - Increase: each cycle completed by the byte counter (ByteCount phits
//     of the flow; half that after fast recovery) or by the timer (Timer
//     cycles; half after fast recovery) is an increase event. While both
//     counters have completed at most FastRecovery cycles: fast recovery,
//     R_C ← (R_C + R_T)/2. Once one has completed more: active increase,
//     R_T ← R_T + R_AI first. Once both have: hyper-active increase, R_T ←
//     R_T + i·R_HAI, i = min(cycles) − FastRecovery. R_T is at most the
//     line rate; the limiter is released once R_T is the line rate and R_C
//     within R_AI of it.
//   - Randomised byte counter: each byte-counter cycle is its period times
//     a factor drawn uniformly in [1 − Jitter, 1 + Jitter] (802.1Qau's
//     reaction point randomises its counter cycles so that flows cut by
//     the same congestion point do not increase in lockstep; Jitter 0.15
//     by default), from the node's own random stream (the engine's rule:
//     every router and node draws from its own stream, so a node's draws
//     do not depend on the other nodes' events).
//   - Limiting: a token bucket two packets deep filling at R_C: a generation
//     attempt of a limited flow is lost (as one finding the injection
//     buffer full, FOGSim's semantics) while the flow has sent more than
//     one packet beyond R_C's pace; the node's other flows are not held.
//     Every generation goes through it, HOTSPOT's backlogged senders
//     included. The timer is evaluated lazily, at the flow's attempts,
//     sends and CNMs, so an idle flow costs nothing.
type qcnRP struct {
	p config.QCNRP
	k int // limiters per node: node n's are n·k … n·k + k − 1
	// per limiter: the flow's destination + 1 (0: free), current and
	// target rate, the bucket's clock (the cycle at which the packets sent
	// so far are paid for at R_C), phits left in the byte counter's cycle,
	// the timer's next expiry, the cycles each counter completed since the
	// last cut
	flow            []int32
	cr, tr, next    []float64
	bc, timer       []int64
	bcStage, tStage []int32
	busy            []int32      // per node: limiters in use
	rs              []rng.Stream // per node: the byte counter's jitter (nil without jitter)
	pkt             float64      // a data packet's phits
	// results
	cnms, cuts, increases, held, untracked int64 // held: generation attempts lost
}

func newQCNRP(s *Sim, p config.QCNRP) *qcnRP {
	rp := makeQCNRP(s.N, p.Flows, s.P, p)
	rp.seedStreams(s.seed)
	s.rpf = rp
	s.hk.arrive = append(s.hk.arrive, rp.arrive(s))
	return rp
}

// makeQCNRP is n nodes' k free limiters each for packets of pkt phits.
func makeQCNRP(n, k, pkt int, p config.QCNRP) *qcnRP {
	m := n * k
	rp := &qcnRP{p: p, k: k, pkt: float64(pkt), flow: make([]int32, m), cr: make([]float64, m), tr: make([]float64, m),
		next: make([]float64, m), bc: make([]int64, m), timer: make([]int64, m), bcStage: make([]int32, m), tStage: make([]int32, m),
		busy: make([]int32, n)}
	rp.seedStreams(0)
	return rp
}

// seedStreams gives each node its own stream for the byte counter's
// jitter (none without jitter): the ReactionPoint kind's id n.
func (rp *qcnRP) seedStreams(seed uint64) {
	if rp.p.Jitter == 0 {
		rp.rs = nil
		return
	}
	rp.rs = make([]rng.Stream, len(rp.busy))
	for n := range rp.rs {
		rp.rs[n] = rng.New(seed, rng.ReactionPoint, uint64(n))
	}
}

// rpCut is a CNM's decrease of current rate cr: R_C·(1 − G_d·|Fb|), at
// least min.
func rpCut(cr float64, fb uint8, gd, min float64) float64 {
	return max(min, cr*(1-gd*float64(fb)))
}

// rpIncrease is one increase event of a limiter at current and target
// rates cr, tr whose byte counter and timer have completed bc and tm
// cycles since the last cut (this one included).
func rpIncrease(cr, tr float64, bc, tm int32, p config.QCNRP) (float64, float64) {
	fr := int32(p.FastRecovery)
	switch {
	case bc > fr && tm > fr:
		tr += float64(min(bc, tm)-fr) * p.RHAI
	case bc > fr || tm > fr:
		tr += p.RAI
	}
	tr = min(tr, 1)
	return (cr + tr) / 2, tr
}

// period is a counter's cycle after it completed stage cycles: full during
// fast recovery, half after.
func (rp *qcnRP) period(full int64, stage int32) int64 {
	if stage < int32(rp.p.FastRecovery) {
		return full
	}
	return max(1, full/2)
}

// bcCycle is node n's byte counter's next cycle after stage cycles,
// randomised by ±Jitter from the node's stream.
func (rp *qcnRP) bcCycle(n int, stage int32) int64 {
	c := rp.period(rp.p.ByteCount, stage)
	if rp.p.Jitter == 0 {
		return c
	}
	return max(1, int64(float64(c)*(1+rp.p.Jitter*(2*rp.rs[n].Float64()-1))+0.5))
}

// find is node n's limiter of the flow to dst, or −1.
func (rp *qcnRP) find(n, dst int) int {
	if rp.busy[n] == 0 {
		return -1
	}
	f := int32(dst + 1)
	for i := n * rp.k; i < (n+1)*rp.k; i++ {
		if rp.flow[i] == f {
			return i
		}
	}
	return -1
}

// release frees limiter i of node n.
func (rp *qcnRP) release(i, n int) {
	rp.flow[i], rp.cr[i], rp.tr[i] = 0, 1, 1
	rp.busy[n]--
}

// increase runs an increase event of limiter i of node n.
func (rp *qcnRP) increase(i, n int) {
	rp.increases++
	rp.cr[i], rp.tr[i] = rpIncrease(rp.cr[i], rp.tr[i], rp.bcStage[i], rp.tStage[i], rp.p)
	if rp.tr[i] >= 1 && rp.cr[i] >= 1-rp.p.RAI {
		rp.release(i, n)
	}
}

// tick runs limiter i's timer expiries due by now.
func (rp *qcnRP) tick(now int64, i, n int) {
	for rp.flow[i] != 0 && now >= rp.timer[i] {
		rp.tStage[i]++
		rp.increase(i, n)
		rp.timer[i] += rp.period(rp.p.Timer, rp.tStage[i])
	}
}

// cnm is a CNM of feedback fb for the flow from node n to dst reaching n
// at cycle now.
func (rp *qcnRP) cnm(now int64, n, dst int, fb uint8) {
	rp.cnms++
	i := rp.find(n, dst)
	if i >= 0 {
		rp.tick(now, i, n)
	}
	if i < 0 || rp.flow[i] == 0 {
		i = -1
		for j := n * rp.k; j < (n+1)*rp.k; j++ {
			if rp.flow[j] == 0 {
				i = j
				break
			}
		}
		if i < 0 {
			rp.untracked++
			return
		}
		rp.flow[i], rp.cr[i], rp.tr[i], rp.next[i] = int32(dst+1), 1, 1, float64(now)
		rp.busy[n]++
	}
	rp.cuts++
	rp.tr[i] = rp.cr[i]
	rp.cr[i] = rpCut(rp.cr[i], fb, rp.p.Gd, rp.p.MinRate)
	rp.bcStage[i], rp.tStage[i] = 0, 0
	rp.bc[i], rp.timer[i] = rp.bcCycle(n, 0), now+rp.p.Timer
}

// hold reports whether node n's generation attempt to dst at cycle now is
// lost to its flow's limiter (the bucket lacks a packet).
func (rp *qcnRP) hold(now int64, n, dst int) bool {
	i := rp.find(n, dst)
	if i < 0 {
		return false
	}
	rp.tick(now, i, n)
	if rp.flow[i] == 0 || rp.holdUntil(i) <= now {
		return false
	}
	rp.held++
	return true
}

// arrive: node n placed a data packet in its injection buffer: its flow's
// bucket pays for it and its byte counter counts it.
func (rp *qcnRP) arrive(s *Sim) func(pi, vc int, k int32) {
	return func(pi, vc int, k int32) {
		if s.pclass[pi] != topology.Injection || s.isCtlVC(topology.Injection, vc) {
			return
		}
		pk := &s.pk[k]
		if n := int(pk.src); rp.busy[n] > 0 {
			if i := rp.find(n, int(pk.dst)); i >= 0 {
				rp.sent(s.now, i, n)
			}
		}
	}
}

// sent: limiter i of node n sent a packet at cycle now.
func (rp *qcnRP) sent(now int64, i, n int) {
	rp.tick(now, i, n)
	if rp.flow[i] == 0 {
		return
	}
	rp.next[i] = max(rp.next[i], float64(now)) + rp.pkt/rp.cr[i]
	rp.bc[i] -= int64(rp.pkt)
	for rp.flow[i] != 0 && rp.bc[i] <= 0 {
		rp.bcStage[i]++
		rp.increase(i, n)
		rp.bc[i] += rp.bcCycle(n, rp.bcStage[i])
	}
}

// holdUntil is the cycle until which limiter i's bucket lacks a packet
// (≤ now: it may send).
func (rp *qcnRP) holdUntil(i int) int64 {
	return int64(math.Ceil(rp.next[i] - rp.pkt/rp.cr[i]))
}

// meanRate is the busy limiters' mean current rate (1 with none) and how
// many are busy.
func (rp *qcnRP) meanRate() (float64, int) {
	sum, lim := 0.0, 0
	for i, f := range rp.flow {
		if f != 0 {
			sum += rp.cr[i]
			lim++
		}
	}
	if lim == 0 {
		return 1, 0
	}
	return sum / float64(lim), lim
}
