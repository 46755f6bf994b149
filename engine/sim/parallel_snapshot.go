package sim

// Network snapshots (the live view, snapshot.go) in a partitioned run. The
// counts a snapshot reports are per output port and per router, written by
// the router's partition only (send); the snapshot reads the input buffers
// of every port at its cycle. So each partition runs the snapshot's cycle
// hook on its own routers (snapPartition: their entries of the snapshot
// and the start of their next interval), the window ends right after each
// snapshot cycle (snapWindowEnd), and the barrier hands the completed
// snapshot over (snapBarrier), from the goroutine that called Run, as a
// sequential run does.

// snapPartition is the snapshot's cycle hook in a partition: the entries
// of its own routers and their ports, over the interval since the last
// snapshot (its cycle, read-only in the window, is set at the barrier).
func (s *Sim) snapPartition() {
	r := s.snap
	if s.now == r.last {
		return
	}
	iv := s.now - r.last
	r.fill(s, s.r0, s.r1, iv)
	for i := 0; i < len(s.rMore); i += 2 {
		r.fill(s, s.rMore[i], s.rMore[i+1], iv)
	}
	if s.rn != nil { // RECN's sides, at the start of the cycle as Step takes it
		n := &r.out
		s.recnSnapshot(n, s.r0, s.r1)
		for i := 0; i < len(s.rMore); i += 2 {
			s.recnSnapshot(n, s.rMore[i], s.rMore[i+1])
		}
		s.recnHostSAQs(n, s.n0, s.n1)
	}
}

// snapWindowEnd shortens a window [from, to) to end right after the first
// snapshot cycle in it, so that a window holds at most one snapshot, as its
// last cycle.
func (s *Sim) snapWindowEnd(from, to int64) int64 {
	if s.snap == nil {
		return to
	}
	e := s.snap.every
	return min(to, (from+e-1)/e*e+1)
}

// snapBarrier, after a window ending at cycle to whose partitions are past
// their checks: when the window's last cycle was a snapshot's, every
// partition has filled in its entries; the snapshot is handed over.
func (s *Sim) snapBarrier(to int64) {
	r := s.snap
	if r == nil {
		return
	}
	c := to - 1
	if c%r.every != 0 || c == r.last {
		return
	}
	n := &r.out
	n.Cycle, n.Interval = c, c-r.last
	r.last = c
	r.notify(n)
}

// rewatch gives a run started again sequentially (again) the snapshots the
// partitioned run watched, but those it has already handed over (up to its
// cycle last): the receiver sees the sequential run's sequence once.
func (s *Sim) rewatch(old *snapRec) {
	if old == nil {
		return
	}
	last, notify := old.last, old.notify
	_ = s.Watch(old.every, func(n *NetSnapshot) {
		if n.Cycle > last {
			notify(n)
		}
	})
}
