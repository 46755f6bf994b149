package sim

import "fmt"

// RECN across memories (engine/PARALLEL.md, "Across memories";
// recn_parallel.go): what the shared-memory engine's partitions read from
// each other's memory travels as bytes.
//
//   - a window's messages posted across the cut, after its crossings and
//     credits (sendBytes): each with the cycle it is due, its key (the
//     cycle posted, phase and side, parent's key, partition and running
//     number: its place in the sequential order) and its fields (the path
//     up to its length); the receiver merges them by key (recn.insert);
//   - the window's answer: whether a merge could not order two messages
//     (then the coordinator starts the run again sequentially) and the
//     partition's lines allocated at every cycle of the window, which the
//     coordinator sums cycle by cycle (recnTotals);
//   - the state answer: the partition's counts (kept whole: the
//     coordinator's are their sums) and its per-side maxima of the SAQ
//     utilisation, peak and per interval (the coordinator's are their
//     maxima).

// recnMsgBytes writes the RECN messages this partition posted across the
// cut to partition r in the window, and empties its outbox.
func (s *Sim) recnMsgBytes(e *enc, r int) {
	if s.rn == nil {
		return
	}
	px := s.rn.rc.px
	out := px.out[s.xp.bank][r]
	e.i(int64(len(out)))
	for i := range out {
		c := &out[i]
		k, m := &c.k, &c.m
		for _, v := range [...]int64{c.at, k.c, k.pc, int64(k.ord), int64(k.pord), int64(k.seq), int64(k.part),
			int64(m.kind), int64(m.line), int64(m.gen), int64(m.fromLine), int64(m.fromGen), int64(m.plen), int64(m.to), int64(m.from)} {
			e.i(v)
		}
		for _, p := range m.path[:m.plen] {
			e.i(int64(p))
		}
	}
	px.out[s.xp.bank][r] = out[:0]
}

// recnMsgsFrom reads one sender's RECN messages (recnMsgBytes) into this
// partition's wheel, in the sequential order (recn.insert).
func (s *Sim) recnMsgsFrom(d *dec) {
	if s.rn == nil {
		return
	}
	rc := s.rn.rc
	for range d.count() {
		var c recnCross
		k, m := &c.k, &c.m
		c.at, k.c, k.pc, k.ord, k.pord = d.i(), d.i(), d.i(), uint64(d.i()), uint64(d.i())
		k.seq, k.part = uint32(d.i()), uint16(d.i())
		m.kind, m.line, m.gen, m.fromLine, m.fromGen = uint8(d.i()), int16(d.i()), uint16(d.i()), int16(d.i()), uint16(d.i())
		m.plen, m.to, m.from = int8(d.i()), int32(d.i()), int32(d.i())
		if d.err == nil && (m.plen < 0 || m.plen > recnMaxPath || m.to < 0 || int(m.to) >= len(rc.sides) || rc.px.owner[m.to] != rc.px.id) {
			d.err = fmt.Errorf("a RECN message of path length %d to side %d, not this partition's", m.plen, m.to)
		}
		if d.err != nil {
			return
		}
		for i := range m.path[:m.plen] {
			m.path[i] = int32(d.i())
		}
		if d.err != nil {
			return
		}
		rc.insert(c.at, c.k, c.m)
	}
}

// recnWindowState writes the window's answer (above): whether a merge
// could not order two messages, and the lines allocated at each of its w
// cycles.
func (s *Sim) recnWindowState(e *enc, w int64) {
	if s.rn == nil {
		return
	}
	px := s.rn.rc.px
	e.flag(px.ambiguous)
	for _, v := range px.tot[:w] {
		e.i(int64(v))
	}
}

// recnWindowFrom reads a partition's window answer (recnWindowState),
// adding its lines into tot; true when its merge was ambiguous.
func (s *Sim) recnWindowFrom(d *dec, tot []int32) bool {
	if s.rn == nil {
		return false
	}
	amb := d.flag()
	for i := range tot {
		tot[i] += int32(d.i())
	}
	return amb
}

// recnState writes this partition's RECN counts and per-side maxima for
// the coordinator's gather (recnFrom).
func (s *Sim) recnState(e *enc) {
	rs := s.rn
	if rs == nil {
		return
	}
	rc := rs.rc
	for _, v := range [...]int64{rc.ctlSent, rc.notifies, rc.refused, rc.allocs, rc.frees, rs.outOfOrder, rs.stalls,
		int64(rs.maxIn), int64(rs.maxEg)} {
		e.i(v)
	}
	e.i(int64(len(rs.sIn)))
	for b := range rs.sIn {
		e.i(int64(rs.sIn[b]))
		e.i(int64(rs.sEg[b]))
	}
}

// recnZero readies this Sim, the coordinator, for the partitions' RECN
// states: its counts are their sums.
func (s *Sim) recnZero() {
	if rs := s.rn; rs != nil {
		rc := rs.rc
		rc.ctlSent, rc.notifies, rc.refused, rc.allocs, rc.frees = 0, 0, 0, 0, 0
		rs.outOfOrder, rs.stalls = 0, 0
	}
}

// recnFrom reads partition p's RECN state (recnState) into this Sim, the
// coordinator (the caller called recnZero).
func (s *Sim) recnFrom(d *dec, p int) error {
	rs := s.rn
	if rs == nil {
		return d.err
	}
	rc := rs.rc
	for _, v := range []*int64{&rc.ctlSent, &rc.notifies, &rc.refused, &rc.allocs, &rc.frees, &rs.outOfOrder, &rs.stalls} {
		*v += d.i()
	}
	rs.maxIn, rs.maxEg = max(rs.maxIn, int32(d.i())), max(rs.maxEg, int32(d.i()))
	if nb := d.i(); d.err == nil && nb != int64(len(rs.sIn)) {
		return fmt.Errorf("partition %d: %d intervals of SAQ utilisation, want %d", p, nb, len(rs.sIn))
	}
	for b := range rs.sIn {
		rs.sIn[b], rs.sEg[b] = max(rs.sIn[b], int32(d.i())), max(rs.sEg[b], int32(d.i()))
	}
	return d.err
}
