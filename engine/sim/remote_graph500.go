package sim

// The Graph500 workload across memories (parallel_graph500.go for the
// argument): a crossing packet's metadata travels with it, a window's
// raises and decisions for a partition after its crossings and credits;
// each window's answer carries the partition's finals (the coordinator
// sees the BFS's end as runParallel's barrier does), its state the job's
// counters (the coordinator merges them into the job the result reports).

import (
	"errors"
	"math"

	"phitsim/engine/graph500"
)

// wlMetaBytes writes a crossing packet's workload metadata (a Graph500
// run only).
func (s *Sim) wlMetaBytes(e *enc, m pktMeta) {
	if s.wl != nil {
		e.i(m.queries)
		e.i(int64(m.level))
		e.i(int64(m.kind))
	}
}

// wlMetaFrom reads what wlMetaBytes wrote.
func (s *Sim) wlMetaFrom(d *dec) pktMeta {
	if s.wl == nil {
		return pktMeta{}
	}
	return pktMeta{queries: d.i(), level: uint8(d.i()), kind: graph500.Kind(d.i())}
}

// wlSideBytes writes (and empties) this partition's raises and decisions
// for partition r.
func (s *Sim) wlSideBytes(e *enc, r int) {
	if s.wl == nil {
		return
	}
	x := s.wl.pt
	b := s.xp.bank
	e.i(int64(len(x.raises[b][r])))
	for _, v := range x.raises[b][r] {
		e.i(int64(v))
	}
	e.i(int64(len(x.decs[b][r])))
	for _, d := range x.decs[b][r] {
		e.i(int64(d.Level))
		for _, f := range [...]float64{d.Mean, d.Sigma, d.X, d.Limit} {
			e.i(int64(math.Float64bits(f)))
		}
	}
	x.raises[b][r], x.decs[b][r] = x.raises[b][r][:0], x.decs[b][r][:0]
}

// wlSideFrom takes the raises and decisions another partition sent this
// one (wlSideBytes), as wlReceive does.
func (s *Sim) wlSideFrom(d *dec) {
	if s.wl == nil {
		return
	}
	for range d.count() {
		v := d.i()
		if d.err != nil || v < 0 || int(v>>1) >= len(s.wl.node) {
			d.err = firstErr(d.err, errBadRaise)
			return
		}
		s.wl.job.Raise(int(v>>1), int(v&1))
	}
	for range d.count() {
		dc := graph500.Decision{Level: int(d.i())}
		dc.Mean, dc.Sigma = math.Float64frombits(uint64(d.i())), math.Float64frombits(uint64(d.i()))
		dc.X, dc.Limit = math.Float64frombits(uint64(d.i())), math.Float64frombits(uint64(d.i()))
		if d.err != nil || dc.Level < 0 || dc.Level >= maxLevels {
			d.err = firstErr(d.err, errBadRaise)
			return
		}
		s.wl.job.Decide(dc)
	}
}

// maxLevels bounds a decision's level (workload.maxLevels is at most 200).
const maxLevels = 256

var errBadRaise = errors.New("graph500: a raise, decision or count out of range")

// wlWindow writes what the coordinator's barrier reads of this
// partition's job after a window: its finals (graph500.Job.EndState).
func (pt *Partition) wlWindow(e *enc) {
	if pt.s.wl == nil {
		return
	}
	for _, v := range pt.s.wl.job.EndState(nil) {
		e.i(v)
	}
}

// wlRemoteJobs are the coordinator's copies of the partitions' jobs, which
// their answers fill in.
func (s *Sim) wlRemoteJobs(n int) []*graph500.Job {
	if s.wl.pt == nil {
		s.wl.pt = &wlPart{}
		for range n {
			s.wl.pt.jobs = append(s.wl.pt.jobs, s.wl.job.Part(nil, nil, nil, nil))
		}
	}
	return s.wl.pt.jobs
}

// wlWindowFrom reads partition p's finals (wlWindow).
func (s *Sim) wlWindowFrom(d *dec, p, n int) {
	if s.wl != nil {
		s.wlRemoteJobs(n)[p].SetEndState(d.i)
	}
}

// wlEndRemote is wlEnded on the partitions' answers.
func (s *Sim) wlEndRemote(n int, to int64) int64 {
	if s.wl == nil {
		return to
	}
	return s.wlEnd(s.wlRemoteJobs(n), to)
}

// wlState writes the partition's job counters (graph500.Job.State).
func (pt *Partition) wlState(e *enc) {
	if pt.s.wl == nil {
		return
	}
	v := pt.s.wl.job.State(nil)
	e.i(int64(len(v)))
	for _, x := range v {
		e.i(x)
	}
}

// wlFrom reads partition p's job counters (wlState) and merges every
// partition's into the job the result reports.
func (s *Sim) wlFrom(d *dec, p, n int) error {
	if s.wl == nil {
		return nil
	}
	k := d.count()
	v := make([]int64, 0, k)
	for range k {
		v = append(v, d.i())
	}
	if d.err != nil {
		return d.err
	}
	jobs := s.wlRemoteJobs(n)
	if err := jobs[p].SetState(v); err != nil {
		return err
	}
	s.wl.job.Merge(jobs)
	return nil
}
