package sim

// SRP across memories (engine/PARALLEL.md, "Across memories";
// parallel_srp.go): what srpGather merges travels in the state answer —
// SRP's counts (packets leaving source queues and speculatively, drops in
// the window and in the run, reservations, control messages, NACKs that
// waited for room), the packets parked (dropped, not yet NACKed back), and
// the control packets' counts, drops and control packets alive (ctlState).
// A reservation, grant, ACK or NACK crossing the cut carries its control
// tag in the crossing's bytes ((enc).tag), and a speculative packet its
// queuing time so far (crossing.acc).

// srpState writes this partition's SRP state for the coordinator (srpFrom)
// and zeroes its counts, as srpGather zeroes a shard's.
func (pt *Partition) srpState(e *enc) {
	s := pt.s
	for _, v := range s.srpOf().counts() {
		e.i(*v)
		*v = 0
	}
	e.i(s.parked)
	s.parked = 0
	pt.ctlState(e)
}

// srpFrom adds partition p's SRP state (srpState) into this Sim, the
// coordinator (the caller called mechZero).
func (s *Sim) srpFrom(d *dec, p int) error {
	for _, v := range s.srpOf().counts() {
		*v += d.i()
	}
	s.parked += d.i()
	if d.err != nil {
		return d.err
	}
	return s.ctlFrom(d, p)
}
