package sim

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// qcnRP is the 802.1Qau reaction points of QCN-Switch's CNMs
// (routing.qcnReactionPoints; off in the QCN-Switch paper, §2–3, which
// routes around congestion instead of throttling): one rate limiter per
// node, the QCN rate-control algorithm of Alizadeh et al., "Data Center
// Transport Mechanisms: Congestion Control Theory and IEEE Standardization"
// (ref. [23] of the paper: the QCN reaction point). Rates are shares of the link rate.
//
//   - Decrease: a CNM of feedback |Fb| addressed to a node (its router
//     intercepts it and processes it for routing first) activates the
//     node's limiter at the line rate if it was off, then R_T ← R_C,
//     R_C ← max(min rate, R_C·(1 − G_d·|Fb|)), and restarts the byte
//     counter and the timer with their cycle counts at 0.
//   - Increase: each cycle completed by the byte counter (ByteCount phits
//     sent by the node; half that after fast recovery) or by the timer
//     (Timer cycles; half after fast recovery) is an increase event. While
//     both counters have completed at most FastRecovery cycles: fast
//     recovery, R_C ← (R_C + R_T)/2. Once one has completed more: active
//     increase, R_T ← R_T + R_AI first. Once both have: hyper-active
//     increase, R_T ← R_T + i·R_HAI, i = min(cycles) − FastRecovery. R_T
//     is at most the line rate; the limiter is released once R_T is the
//     line rate and R_C within R_AI of it.
//   - Limiting: a token bucket two packets deep filling at R_C: a limited
//     node's generation attempt is held (lost, as one finding the injection
//     buffer full, FOGSim's semantics) while its limiter has sent more than
//     one packet beyond R_C's pace. The timer is evaluated lazily, at the
//     node's attempts, sends and CNMs, so an idle node costs nothing.
//
// One limiter per node, not per flow: the standard lets a NIC hold several,
// keyed by the CNM's flow, but a node's packets leave in order through one
// injection queue here. The byte counter's cycle is not randomised.
type qcnRP struct {
	p config.QCNRP
	// per node: active, current and target rate, the bucket's clock (the
	// cycle at which the limiter's packets sent so far are paid for at R_C),
	// phits left in the byte counter's cycle, the timer's next expiry, the
	// cycles each counter completed since the last cut
	active          []bool
	cr, tr, next    []float64
	bc, timer       []int64
	bcStage, tStage []int32
	pkt             float64 // a data packet's phits
	// results
	cnms, cuts, increases, held int64 // held: node-cycles of generation held
}

func newQCNRP(s *Sim, p config.QCNRP) *qcnRP {
	rp := makeQCNRP(s.N, s.P, p)
	s.hk.gen = append(s.hk.gen, rp.gen(s))
	s.hk.arrive = append(s.hk.arrive, rp.arrive(s))
	return rp
}

// makeQCNRP is n released limiters for packets of pkt phits.
func makeQCNRP(n, pkt int, p config.QCNRP) *qcnRP {
	rp := &qcnRP{p: p, pkt: float64(pkt), active: make([]bool, n), cr: make([]float64, n), tr: make([]float64, n),
		next: make([]float64, n), bc: make([]int64, n), timer: make([]int64, n), bcStage: make([]int32, n), tStage: make([]int32, n)}
	for i := range rp.cr {
		rp.cr[i], rp.tr[i] = 1, 1
	}
	return rp
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

// increase runs an increase event of node n's limiter.
func (rp *qcnRP) increase(n int) {
	rp.increases++
	rp.cr[n], rp.tr[n] = rpIncrease(rp.cr[n], rp.tr[n], rp.bcStage[n], rp.tStage[n], rp.p)
	if rp.tr[n] >= 1 && rp.cr[n] >= 1-rp.p.RAI {
		rp.active[n], rp.cr[n], rp.tr[n] = false, 1, 1
	}
}

// tick runs node n's timer expiries due by now.
func (rp *qcnRP) tick(now int64, n int) {
	for rp.active[n] && now >= rp.timer[n] {
		rp.tStage[n]++
		rp.increase(n)
		rp.timer[n] += rp.period(rp.p.Timer, rp.tStage[n])
	}
}

// cnm is a CNM of feedback fb reaching node n at cycle now.
func (rp *qcnRP) cnm(now int64, n int, fb uint8) {
	rp.tick(now, n)
	rp.cnms++
	if !rp.active[n] {
		rp.active[n], rp.cr[n], rp.tr[n], rp.next[n] = true, 1, 1, float64(now)
	}
	rp.cuts++
	rp.tr[n] = rp.cr[n]
	rp.cr[n] = rpCut(rp.cr[n], fb, rp.p.Gd, rp.p.MinRate)
	rp.bcStage[n], rp.tStage[n] = 0, 0
	rp.bc[n], rp.timer[n] = rp.p.ByteCount, now+rp.p.Timer
}

// gen holds a limited node's generation while its bucket lacks a packet.
func (rp *qcnRP) gen(s *Sim) func(n int) int64 {
	return func(n int) int64 {
		if !rp.active[n] {
			return 0
		}
		rp.tick(s.now, n)
		if !rp.active[n] {
			return 0
		}
		until := rp.holdUntil(n)
		if until > s.now {
			rp.held++
		}
		return until
	}
}

// arrive: node n placed a data packet in its injection buffer: the bucket
// pays for it and the byte counter counts it.
func (rp *qcnRP) arrive(s *Sim) func(pi, vc int, k int32) {
	return func(pi, vc int, k int32) {
		if s.pclass[pi] != topology.Injection || s.isCtlVC(topology.Injection, vc) {
			return
		}
		if n := int(s.pk[k].src); rp.active[n] {
			rp.sent(s.now, n)
		}
	}
}

// sent: limited node n sent a packet at cycle now.
func (rp *qcnRP) sent(now int64, n int) {
	rp.tick(now, n)
	if !rp.active[n] {
		return
	}
	rp.next[n] = max(rp.next[n], float64(now)) + rp.pkt/rp.cr[n]
	rp.bc[n] -= int64(rp.pkt)
	for rp.active[n] && rp.bc[n] <= 0 {
		rp.bcStage[n]++
		rp.increase(n)
		rp.bc[n] += rp.period(rp.p.ByteCount, rp.bcStage[n])
	}
}

// holdUntil is the cycle until which limited node n's bucket lacks a
// packet (≤ now: it may send).
func (rp *qcnRP) holdUntil(n int) int64 {
	return int64(math.Ceil(rp.next[n] - rp.pkt/rp.cr[n]))
}

// meanRate is the nodes' mean current rate (1 for a released limiter) and
// how many are limited.
func (rp *qcnRP) meanRate() (float64, int) {
	sum, lim := 0.0, 0
	for n, a := range rp.active {
		if a {
			sum += rp.cr[n]
			lim++
		} else {
			sum++
		}
	}
	return sum / float64(len(rp.active)), lim
}
