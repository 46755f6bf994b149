package sim

import (
	"fmt"
	"math"
)

// QCN-Switch across memories (engine/PARALLEL.md, "Across memories";
// parallel_qcn.go): a notification (CNM) crossing the cut carries its
// control tag in the crossing's bytes ((enc).tag), and the state answer
// carries what qcnGather sums and what Snapshot reads of the partitions'
// own ports and nodes: the mechanism's counts (samples, CNMs, cuts,
// control packets sent, delivered and dropped; the reaction points'
// counts), the control packets alive (the partition's and those it sent
// across the cut in the last window), group 0's probabilities' trace
// (QCN-Switch paper Figs. 12b, 14b) and current probabilities, written by
// the partition that steps group 0, and the reaction points' limiters of
// the partition's nodes (their flows and current rates: the report's mean
// rate). The CNMs per interval (sCnm) are a count of the counters:
// countWalk carries them.

// tagFields is the number of ctlTag fields (enc).tag writes.
const tagFields = 4

func (e *enc) tag(t ctlTag) {
	b := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	e.i(int64(t.mech))
	e.i(b(t.prio))
	e.i(b(t.reply))
	e.i(t.data)
}

func (d *dec) tag() ctlTag {
	return ctlTag{mech: int32(d.i()), prio: d.i() != 0, reply: d.i() != 0, data: d.i()}
}

// qcnState writes this partition's QCN-Switch state for the coordinator
// (qcnFrom) and zeroes its counts, as qcnGather zeroes a shard's.
func (pt *Partition) qcnState(e *enc) {
	s := pt.s
	m := s.qc
	if m == nil {
		return
	}
	for _, v := range []*int64{&m.samples, &m.negative, &m.selfCNMs, &m.processed, &m.ctlPhits, &m.spCuts} {
		e.i(*v)
		*v = 0
	}
	if rp := m.rp; rp != nil {
		for _, v := range []*int64{&rp.cnms, &rp.cuts, &rp.increases, &rp.held, &rp.untracked} {
			e.i(*v)
			*v = 0
		}
		e.i(int64(s.n0))
		e.i(int64(s.n1))
		for i := s.n0 * rp.k; i < s.n1*rp.k; i++ {
			e.i(int64(rp.flow[i]))
			e.i(int64(math.Float64bits(rp.cr[i])))
		}
	}
	pt.ctlState(e)
	if t := m.trace; t != nil {
		if s.r0 != 0 { // group 0 is another partition's
			e.i(-1)
			return
		}
		e.i(t.first)
		e.i(t.last)
		e.i(int64(len(t.vals) - pt.traceSent))
		for _, v := range t.vals[pt.traceSent:] {
			e.i(int64(len(v)))
			for _, f := range v {
				e.i(int64(math.Float32bits(f)))
			}
		}
		pt.traceSent = len(t.vals)
		for r := 0; r < s.groupSize; r++ {
			for _, p := range m.prob[r*s.radix+m.tp0 : (r+1)*s.radix] {
				e.i(int64(math.Float64bits(p)))
			}
		}
	}
}

// qcnFrom reads partition p's QCN-Switch state (qcnState) into this Sim,
// the coordinator, adding its counts. The control packets alive are the
// partitions' sum: the caller zeroed mech.live.
func (s *Sim) qcnFrom(d *dec, p int) error {
	m := s.qc
	if m == nil {
		return nil
	}
	for _, v := range []*int64{&m.samples, &m.negative, &m.selfCNMs, &m.processed, &m.ctlPhits, &m.spCuts} {
		*v += d.i()
	}
	if rp := m.rp; rp != nil {
		for _, v := range []*int64{&rp.cnms, &rp.cuts, &rp.increases, &rp.held, &rp.untracked} {
			*v += d.i()
		}
		n0, n1 := int(d.i()), int(d.i())
		if d.err == nil && (n0 < 0 || n1 > len(rp.busy) || n0 > n1) {
			return fmt.Errorf("partition %d: nodes [%d, %d)", p, n0, n1)
		}
		for i := n0 * rp.k; i < n1*rp.k && d.err == nil; i++ {
			rp.flow[i] = int32(d.i())
			rp.cr[i] = math.Float64frombits(uint64(d.i()))
		}
	}
	if err := s.ctlFrom(d, p); err != nil {
		return err
	}
	if t := m.trace; t != nil && d.err == nil {
		first := d.i()
		if first < 0 {
			return d.err
		}
		t.first, t.last = first, d.i()
		for k := d.count(); k > 0 && d.err == nil; k-- {
			v := make([]float32, d.count())
			for j := range v {
				v[j] = math.Float32frombits(uint32(d.i()))
			}
			t.vals = append(t.vals, v)
		}
		for r := 0; r < s.groupSize && d.err == nil; r++ {
			for pi := r*s.radix + m.tp0; pi < (r+1)*s.radix; pi++ {
				m.prob[pi] = math.Float64frombits(uint64(d.i()))
			}
		}
	}
	return d.err
}

// ctlState writes the control packets' part of a mechanism's state answer
// (QCN-Switch's, ECN's, CBCM's): per mechanism its control packets sent,
// delivered and their latency, the drops, and the control packets alive —
// those sent across the cut in the last window included, as live counts a
// data packet with its sender — then zeroes the counts, as absorb does.
func (pt *Partition) ctlState(e *enc) {
	s := pt.s
	e.i(int64(len(s.mech.count)))
	for i := range s.mech.count {
		c := &s.mech.count[i]
		e.i(c.sent)
		e.i(c.delivered)
		e.i(c.latSum)
		*c = ctlCount{}
	}
	e.i(int64(len(s.cc.dropped)))
	for i, v := range s.cc.dropped {
		e.i(v)
		s.cc.dropped[i] = 0
	}
	e.i(s.mech.live + pt.ctlFlight)
}

// ctlFrom adds partition p's control-packet counts (ctlState) into the
// coordinator's.
func (s *Sim) ctlFrom(d *dec, p int) error {
	if k := d.i(); d.err == nil && k != int64(len(s.mech.count)) {
		return fmt.Errorf("partition %d: %d mechanisms' control counts, want %d", p, k, len(s.mech.count))
	}
	for i := range s.mech.count {
		c := &s.mech.count[i]
		c.sent += d.i()
		c.delivered += d.i()
		c.latSum += d.i()
	}
	if k := d.i(); d.err == nil && k != int64(len(s.cc.dropped)) {
		return fmt.Errorf("partition %d: %d mechanisms' drops, want %d", p, k, len(s.cc.dropped))
	}
	for i := range s.cc.dropped {
		s.cc.dropped[i] += d.i()
	}
	s.mech.live += d.i()
	return d.err
}
