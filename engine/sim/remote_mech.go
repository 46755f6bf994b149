package sim

import "fmt"

// ECN, Ideal and CBCM across memories (engine/PARALLEL.md, "Across
// memories"; parallel_mech.go): what the shared-memory engine's gathers
// (ecnGather, idealGather, cbcmGather) merge travels in the state answer,
// and what the report reads of the per-flow arrays that only the source's
// partition writes. A BECN, throttle or unthrottle crossing the cut
// carries its control tag in the crossing's bytes ((enc).tag), as a
// QCN-Switch notification does; a CBCM throttled flow's packet carries its
// flag (crossing.flag) in them.
//
//   - Ideal (Kim et al., Contention-based Congestion Management in
//     Large-Scale Networks §V-A): the count of the isolated class's packets
//     consumed;
//   - ECN (§III-A): the data packets consumed and marked, the closed
//     throttle cycles;
//   - CBCM (§IV): hotspots declared, throttles and unthrottles sent, flows
//     ever throttled, closed throttle cycles, data packets consumed and
//     marked, hotspot flits consumed; with early detection (§VI-A) the
//     routers' hotspots declared and throttle packets sent;
//   - ECN and CBCM: the control packets' counts (sent, delivered, latency),
//     drops and the control packets alive (the partition's and those it
//     sent across the cut in the last window), the flows with a delay or
//     throttled (the partition's list, in order: the coordinator's list is
//     the partitions' lists in partition order, as ecnGather's) with the
//     cycle each began, and which of the partition's nodes' flows sent a
//     packet (busy: a bit per flow, 64 to a word; the words that changed since
//     the partition's last state answer, with their index). With
//     them the report's throttled share (throttledShare) is the sequential
//     run's.

// mechState writes this partition's ECN, Ideal or CBCM state for the
// coordinator (mechFrom) and zeroes its counts, as the gathers zero a
// shard's.
func (pt *Partition) mechState(e *enc) {
	s := pt.s
	if s.srpOf() != nil {
		pt.srpState(e) // remote_srp.go
		return
	}
	if m := s.idealOf(); m != nil {
		e.i(m.packets)
		m.packets = 0
	}
	var act []int32
	var since []int64
	var busy []bool
	if m := s.ecnOf(); m != nil {
		for _, v := range []*int64{&m.delivered, &m.marked, &m.throttled} {
			e.i(*v)
			*v = 0
		}
		act, since, busy = m.act, m.since, m.busy
	} else if m := s.cbcmOf(); m != nil {
		for _, v := range []*int64{&m.hotspots, &m.throttles, &m.unthrottle, &m.flowsThrottled,
			&m.throttledCycles, &m.delivered, &m.mkd, &m.hotFlits} {
			e.i(*v)
			*v = 0
		}
		if x := m.early; x != nil {
			e.i(x.hotspots)
			e.i(x.thrSent)
			x.hotspots, x.thrSent = 0, 0
		}
		act, since, busy = m.act, m.since, m.busy
	} else {
		return
	}
	pt.ctlState(e)
	e.i(int64(len(act)))
	for _, f := range act {
		e.i(int64(f))
		e.i(since[f])
	}
	lo, hi := s.n0*s.N, s.n1*s.N
	e.i(int64(lo))
	e.i(int64(hi))
	if pt.busySent == nil {
		pt.busySent = make([]uint64, (hi-lo+63)/64)
	}
	var changed []int
	for i := range pt.busySent {
		w := lo + 64*i
		var bits uint64
		for j, b := range busy[w:min(w+64, hi)] {
			if b {
				bits |= 1 << j
			}
		}
		if bits != pt.busySent[i] {
			pt.busySent[i] = bits
			changed = append(changed, i)
		}
	}
	e.i(int64(len(changed)))
	for _, i := range changed {
		e.i(int64(i))
		e.i(int64(pt.busySent[i]))
	}
}

// mechZero readies this Sim, the coordinator, for the partitions' ECN or
// CBCM states (mechFrom): the control packets alive and the flows with a
// delay or throttled are their sum and their lists together.
func (s *Sim) mechZero() {
	if s.srpOf() != nil {
		s.mech.live = 0 // srpFrom
	} else if m := s.ecnOf(); m != nil {
		s.mech.live, m.act = 0, m.act[:0]
	} else if m := s.cbcmOf(); m != nil {
		s.mech.live, m.act = 0, m.act[:0]
	}
}

// mechFrom reads partition p's ECN, Ideal or CBCM state (mechState) into
// this Sim, the coordinator, adding its counts (the caller called
// mechZero).
func (s *Sim) mechFrom(d *dec, p int) error {
	if s.srpOf() != nil {
		return s.srpFrom(d, p) // remote_srp.go
	}
	if m := s.idealOf(); m != nil {
		m.packets += d.i()
	}
	var act *[]int32
	var since []int64
	var busy []bool
	if m := s.ecnOf(); m != nil {
		for _, v := range []*int64{&m.delivered, &m.marked, &m.throttled} {
			*v += d.i()
		}
		act, since, busy = &m.act, m.since, m.busy
	} else if m := s.cbcmOf(); m != nil {
		for _, v := range []*int64{&m.hotspots, &m.throttles, &m.unthrottle, &m.flowsThrottled,
			&m.throttledCycles, &m.delivered, &m.mkd, &m.hotFlits} {
			*v += d.i()
		}
		if x := m.early; x != nil {
			x.hotspots += d.i()
			x.thrSent += d.i()
		}
		act, since, busy = &m.act, m.since, m.busy
	} else {
		return d.err
	}
	if err := s.ctlFrom(d, p); err != nil {
		return err
	}
	for k := d.count(); k > 0 && d.err == nil; k-- {
		f, at := d.i(), d.i()
		if d.err == nil && (f < 0 || f >= int64(len(since))) {
			return fmt.Errorf("partition %d: flow %d of %d", p, f, len(since))
		}
		*act = append(*act, int32(f))
		since[f] = at
	}
	lo, hi := int(d.i()), int(d.i())
	if d.err == nil && (lo < 0 || hi > len(busy) || lo > hi) {
		return fmt.Errorf("partition %d: flows [%d, %d)", p, lo, hi)
	}
	for k := d.count(); k > 0 && d.err == nil; k-- {
		i, bits := d.i(), uint64(d.i())
		w := lo + 64*int(i)
		if d.err == nil && (i < 0 || w >= hi) {
			return fmt.Errorf("partition %d: flows' word %d of [%d, %d)", p, i, lo, hi)
		}
		for j := range busy[w:min(w+64, hi)] {
			busy[w+j] = bits&(1<<j) != 0
		}
	}
	return d.err
}

// crossingFields is the number of crossing fields sendBytes writes (at
// as its packet's entry; rseq in a RECN run; meta in a Graph500 run,
// remote_graph500.go).
const crossingFields = 10

// flag writes a crossing's flag (crossing.flag: CBCM's throttled flow's
// packet).
func (e *enc) flag(f bool) {
	if f {
		e.i(1)
	} else {
		e.i(0)
	}
}

func (d *dec) flag() bool { return d.i() != 0 }
