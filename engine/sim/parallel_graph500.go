package sim

// The Graph500 workload (thesis §2.2.2, engine/graph500) in a partitioned
// run. Each partition steps the job's processes on its nodes with its own
// copy of the job (graph500.Job.Part: the processes' state shared, each
// entry its partition's; the counters its own, merged at the barriers by
// Merge and Ended). What a process does to another's state beside the
// packets travels as the packets do, a window later at the earliest:
//
//   - a query packet's metadata (its kind, level and queries, kept by
//     packet id) crosses the cut with the packet (crossing.meta);
//   - a query raises its destination's expected count when it is sent; a
//     raise for another partition's process goes to that partition at the
//     barrier (raises), before the sender's end-of-level signal — sent
//     after the query, across a link of the cut — can land;
//   - the root host's decision for the next level goes to every partition
//     at the barrier after its window (decs): the level's broadcast, which
//     makes a process read it, is sent after it and crosses the cut;
//   - a reduction carries the queries its sender received: the root host
//     needs no job-wide count to know the budget left.
//
// The run ends at the cycle the last final broadcast lands. A window is
// cut short so that it cannot pass that cycle (graph500.Job.EndBound: the
// n−1 final broadcasts leave the root host one a cycle from its decision
// on, so the last lands n−1 cycles after it at the earliest), and the
// barrier sums the partitions' finals to see whether the BFS has ended in
// the window's last cycle (wlEnded).

import (
	"fmt"

	"phitsim/engine/graph500"
)

// wlPart is a partition's side of the workload: the partition of every
// process (shared) and, by bank (as the packets' outboxes) and receiving
// partition, the raises (process<<1 | level parity) and decisions sent
// across the cut in the window. The coordinator's (the Sim that does not
// step) holds the partitions' copies of the job, for Ended and Merge.
type wlPart struct {
	home   []uint16
	raises [2][][]int32
	decs   [2][][]graph500.Decision
	jobs   []*graph500.Job
}

// wlShard gives partition sh (p of n, nodes from n0[p] to n0[p+1]) its copy
// of the workload: the processes on its nodes, its own packet metadata
// (its pool's ids), its outboxes of raises and decisions.
func (s *Sim) wlShard(sh *Sim, p, n int, n0 []int) {
	wl := s.wl
	if wl == nil {
		return
	}
	home := make([]uint16, len(wl.node))
	mine := make([]int32, 0, len(wl.node)) // not nil: nil steps every process
	for r, nd := range wl.node {
		q := 0
		for int(nd) >= n0[q+1] {
			q++
		}
		home[r] = uint16(q)
		if q == p {
			mine = append(mine, int32(r))
		}
	}
	w := *wl
	w.s, w.meta = sh, nil
	x := &wlPart{home: home}
	for b := range 2 {
		x.raises[b] = make([][]int32, n)
		x.decs[b] = make([][]graph500.Decision, n)
	}
	w.pt = x
	raise := func(dst, par int) bool {
		to := home[dst]
		if int(to) == p {
			return false
		}
		b := sh.xp.bank
		x.raises[b][to] = append(x.raises[b][to], int32(dst<<1|par))
		return true
	}
	decided := func(d graph500.Decision) {
		b := sh.xp.bank
		for q := range n {
			if q != p {
				x.decs[b][q] = append(x.decs[b][q], d)
			}
		}
	}
	w.job = wl.job.Part(mine, &w, raise, decided)
	sh.wl = &w
}

// wlOut is packet k's workload metadata, leaving this partition with the
// packet (its slot here is free).
func (s *Sim) wlOut(k int32) pktMeta {
	if s.wl == nil || int(k) >= len(s.wl.meta) {
		return pktMeta{}
	}
	m := s.wl.meta[k]
	s.wl.meta[k] = pktMeta{}
	return m
}

// wlIn gives packet k, just taken from across the cut, its metadata.
func (s *Sim) wlIn(k int32, m pktMeta) {
	if s.wl == nil {
		return
	}
	for int(k) >= len(s.wl.meta) {
		s.wl.meta = append(s.wl.meta, pktMeta{})
	}
	s.wl.meta[k] = m
}

// wlReceive takes the raises and decisions partition q sent this one in
// the last window (receive's order: by sending partition).
func (s *Sim) wlReceive(q *Sim) {
	if s.wl == nil {
		return
	}
	id, qx := s.xp.id, q.wl.pt
	b := 1 - q.xp.bank
	for _, v := range qx.raises[b][id] {
		s.wl.job.Raise(int(v>>1), int(v&1))
	}
	for _, d := range qx.decs[b][id] {
		s.wl.job.Decide(d)
	}
	qx.raises[b][id], qx.decs[b][id] = qx.raises[b][id][:0], qx.decs[b][id][:0]
}

// wlWindowEnd cuts the window [from, to) short where the BFS could end
// within it: it then ends at the cycle of the earliest end possible.
func (s *Sim) wlWindowEnd(from, to int64) int64 {
	if s.wl == nil {
		return to
	}
	return min(to, max(from+1, s.wl.job.EndBound(from)+1))
}

// wlEnded folds the partitions' finals (the barrier after the window
// ending at to): the cycles the barrier checks as the sequential run does
// after each — to, or to−1 when the BFS ended in the window's last cycle
// (the sequential run stops then, before its checks).
func (s *Sim) wlEnded(parts []*Sim, to int64) int64 {
	if s.wl == nil {
		return to
	}
	return s.wlEnd(s.wlJobs(parts), to)
}

// wlEnd is wlEnded on the partitions' copies of the job.
func (s *Sim) wlEnd(jobs []*graph500.Job, to int64) int64 {
	done, at, _ := s.wl.job.Ended(jobs)
	if !done {
		return to
	}
	if at != to-1 { // the window went past the end: EndBound is wrong
		panic(fmt.Sprintf("graph500: the BFS ended at cycle %d, in a window to %d", at, to))
	}
	return to - 1
}

// wlJobs lists the partitions' copies of the job.
func (s *Sim) wlJobs(parts []*Sim) []*graph500.Job {
	if s.wl.pt == nil {
		s.wl.pt = &wlPart{}
		for _, sh := range parts {
			s.wl.pt.jobs = append(s.wl.pt.jobs, sh.wl.job)
		}
	}
	return s.wl.pt.jobs
}

// wlGather folds the partitions' job counters into the job the result
// reports.
func (s *Sim) wlGather(parts []*Sim) {
	if s.wl != nil {
		s.wl.job.Merge(s.wlJobs(parts))
	}
}
