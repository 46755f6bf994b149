package sim

// ACOR (ACOR paper §4.2.2, §4.3) in a partitioned run (parallel.go,
// engine/PARALLEL.md).
//
// ACOR-Switch's level, blocked count, interval end and increase threshold
// are per router: a blocked attempt is counted at the router whose
// injection VC holds the packet, and a level changes only in that router's
// own update. They are shared arrays, each entry written by its owner only.
// What is network-wide is scratch and statistics: the routers whose count
// reached the threshold this cycle (raise), the pending interval ends in
// cycle order (ends) and the routers at each level (perLevel). Each
// partition keeps its own: its raise list and ends queue hold its own
// routers, in the sequential relative order (a router's entries affect
// only that router), and its perLevel counts its own routers, so the
// level statistics — Σ levels per interval (sLevel), the routers at each
// level at an interval's end (sLevels) and at a transient bin's start
// (trLevels) — are the partitions' sums, merged at the barriers. Group 0's
// routers' levels (trGroup) are written by the partition that holds group
// 0. ACOR-Packet's level travels in the packet (pk.mis), and crosses the
// cut with it. The delivered packets by status (acorStatus) are counted at
// delivery, per partition, and summed.

// acorShard gives partition sh its own ACOR-Switch scratch: the raise list
// and the ends queue restricted to its routers (in their order), and its
// routers' counts by level.
func (s *Sim) acorShard(sh *Sim) {
	a := &s.acor
	if a.seq == nil {
		return
	}
	b := &sh.acor
	b.raise, b.ends, b.endsAt, b.perLevel = nil, nil, 0, [3]int32{}
	own := func(r int32) bool { return int(r) >= sh.r0 && int(r) < sh.r1 }
	for _, r := range a.raise {
		if own(r) {
			b.raise = append(b.raise, r)
		}
	}
	for _, e := range a.ends[a.endsAt:] {
		if own(e.r) {
			b.ends = append(b.ends, e)
		}
	}
	for r := sh.r0; r < sh.r1; r++ {
		b.perLevel[a.level[r]]++
	}
}

// acorGather sets this Sim's routers by level to the network's (the
// partitions' sum), as a sequential run has them.
func (s *Sim) acorGather(parts []*Sim) {
	if s.acor.seq == nil {
		return
	}
	s.acor.perLevel = [3]int32{}
	for _, sh := range parts {
		for lv, n := range sh.acor.perLevel {
			s.acor.perLevel[lv] += n
		}
	}
}

// acorCopy zeroes partition copy c's ACOR and QCN-Switch counts (their own
// slices; c is a copy of st).
func (st *counters) acorCopy(c *counters) {
	zero64 := func(a []int64) []int64 {
		if a == nil {
			return nil
		}
		return make([]int64, len(a))
	}
	zero32 := func(a []int32) []int32 {
		if a == nil {
			return nil
		}
		return make([]int32, len(a))
	}
	c.sLevel, c.acorStatus, c.sCnm = zero64(st.sLevel), zero64(st.acorStatus), zero64(st.sCnm)
	c.sLevels, c.trLevels = zero32(st.sLevels), zero32(st.trLevels)
}

// acorAbsorb adds partition counts o's ACOR and QCN-Switch counts into st
// and zeroes o's. A partition writes each interval's and each bin's
// routers by level once (its own routers'), so the sum is the network's.
func (st *counters) acorAbsorb(o *counters) {
	for _, p := range [][2][]int64{{st.sLevel, o.sLevel}, {st.acorStatus, o.acorStatus}, {st.sCnm, o.sCnm}} {
		for i, v := range p[1] {
			p[0][i] += v
			p[1][i] = 0
		}
	}
	for _, p := range [][2][]int32{{st.sLevels, o.sLevels}, {st.trLevels, o.trLevels}} {
		for i, v := range p[1] {
			p[0][i] += v
			p[1][i] = 0
		}
	}
}
