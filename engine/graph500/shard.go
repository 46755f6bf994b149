package graph500

import (
	"errors"
	"math"

	"phitsim/engine/result"
)

type result0 = result.Graph500Level

// The job in a partitioned run (engine/sim/parallel_graph500.go): each
// partition steps its own processes with its own copy of the job (Part),
// which shares the processes' state, wake-ups and expected counts with the
// others (each process's entries are written by its partition only) and
// keeps its own counters; Merge folds the copies' counters into the job
// the result reports. What one process's actions do to another's state
// crosses the partitions as the packets do, at least a window later:
//
//   - a query raises its destination's expected count when it is sent;
//     the destination reads the count only once it has its sender's
//     signal, sent after the query, so a raise delivered at the barrier
//     after its window (Raise) is there before the signal lands;
//   - a reduction carries the queries its sender has received (the root
//     host's sum is the whole job's, so the budget left needs no job-wide
//     counter);
//   - the root host's decision for the next level (Decision) is read by a
//     process when the level's broadcast reaches it, which crosses the cut
//     after the decision is made: it goes to every partition at the
//     barrier after its window (Decide).
//
// The run ends at the cycle the last final broadcast lands: the sums of
// the partitions' finals (Ended) say when, and EndBound how far a window
// may go before it could.

// Decision is the root host's choice at the end of a level that is not
// the last: the next level's mean, σ, draw (one per level with
// LevelSampling) and the budget in edges.
type Decision struct {
	Level                 int // the level closed
	Mean, Sigma, X, Limit float64
}

// Part is this job as partition part's copy: it steps the processes mine
// (in increasing order) through net; raise(dst, par) is called for every
// query packet sent and takes the raise of process dst's expected count
// (true) when dst is another partition's; decided hears every decision
// the root host makes here. The copy's counters start at zero (the run
// has not started: every process has only drawn its first message).
func (j *Job) Part(mine []int32, net Net, raise func(dst, par int) bool, decided func(Decision)) *Job {
	c := *j
	c.mine, c.net, c.raise, c.decided = mine, net, raise, decided
	c.levels = make([]result0, len(j.levels))
	copy(c.levels, j.levels)
	for i := range c.levels {
		c.levels[i] = levelHead(c.levels[i])
	}
	c.bcasts, c.bcastAt = make([]int, len(j.bcasts)), make([]int64, len(j.bcastAt))
	c.decs = append([]Decision(nil), j.decs...)
	c.sent, c.delivered, c.phits, c.queries, c.messages, c.queriesIn = 0, 0, 0, 0, 0, 0
	c.qPkts, c.syncPkts, c.finals, c.finalAt, c.latSum = 0, 0, 0, 0, 0
	c.msgHist, c.series = nil, nil
	c.done, c.doneAt = false, 0
	return &c
}

// Raise adds a raise of process dst's expected count for level parity par
// (another partition's query, at the barrier after the window it was sent
// in).
func (j *Job) Raise(dst, par int) { j.expect[par][dst]++ }

// Decide takes the root host's decision d (at the barrier after the
// window it was made in): a later one than the copy knows sets the next
// level's parameters; any opens the level's entry.
func (j *Job) Decide(d Decision) {
	for len(j.decs) <= d.Level {
		j.decs = append(j.decs, Decision{Level: -1})
	}
	j.decs[d.Level] = d
	for len(j.levels) <= d.Level+1 {
		j.levels = append(j.levels, result0{Level: len(j.levels)})
		j.bcasts = append(j.bcasts, 0)
		j.bcastAt = append(j.bcastAt, 0)
	}
	j.levels[d.Level+1].Mean, j.levels[d.Level+1].Sigma = d.Mean, d.Sigma
	if d.Level > j.cur {
		j.mean, j.sigma, j.x, j.limit, j.cur = d.Mean, d.Sigma, d.X, d.Limit, d.Level
	}
}

// Processes is the number of processes of the job.
func (j *Job) Processes() int { return j.n }

// Ended folds the partitions' copies' finals into j: whether the last
// final broadcast has landed (then j is done, at the cycle it landed), and
// the cycle the root host decided the BFS ends (−1 not yet).
func (j *Job) Ended(parts []*Job) (done bool, doneAt, lastAt int64) {
	finals, lastAt := 0, int64(-1)
	for _, q := range parts {
		finals += q.finals
		doneAt = max(doneAt, q.finalAt)
		lastAt = max(lastAt, q.lastAt)
	}
	j.lastAt = lastAt
	if finals == j.n-1 {
		j.done, j.doneAt = true, doneAt
	}
	return j.done, j.doneAt, lastAt
}

// EndBound is the earliest cycle the BFS's last delivery can happen, seen
// at a barrier at cycle now (Ended has folded the finals): the root host
// sends the n−1 final broadcasts from the cycle it decides, one a cycle,
// and each lands a cycle after it is sent at the earliest, so the last
// lands n−1 cycles after the decision or later — and the decision, not
// yet made, comes at now or later.
func (j *Job) EndBound(now int64) int64 {
	if j.lastAt >= 0 {
		return j.lastAt + int64(j.n) - 1
	}
	return now + int64(j.n) - 1
}

// Merge sets j's counters — packets, queries, messages, the usage series,
// each level's counts and end, the finals — to the sums of the
// partitions' copies' (their least and greatest where it is a cycle), and
// its levels' parameters to the decisions the copies know (the root
// host's partition knows them all).
func (j *Job) Merge(parts []*Job) {
	j.sent, j.delivered, j.phits, j.queries, j.messages, j.queriesIn = 0, 0, 0, 0, 0, 0
	j.qPkts, j.syncPkts, j.latSum = 0, 0, 0
	j.msgHist, j.series = j.msgHist[:0], j.series[:0]
	nl := 1
	for _, q := range parts {
		nl = max(nl, len(q.levels))
	}
	lv0 := j.levels[0]
	j.levels = append(j.levels[:0], levelHead(lv0))
	for len(j.levels) < nl {
		j.levels = append(j.levels, result0{Level: len(j.levels)})
	}
	bc, at := make([]int, nl), make([]int64, nl)
	for _, q := range parts {
		j.sent += q.sent
		j.delivered += q.delivered
		j.phits += q.phits
		j.queries += q.queries
		j.messages += q.messages
		j.queriesIn += q.queriesIn
		j.qPkts += q.qPkts
		j.syncPkts += q.syncPkts
		j.latSum += q.latSum
		j.msgHist = addTo(j.msgHist, q.msgHist)
		j.series = addTo(j.series, q.series)
		for i, l := range q.levels {
			m := &j.levels[i]
			m.QueryPackets += l.QueryPackets
			m.Queries += l.Queries
			m.SyncPackets += l.SyncPackets
			m.Messages += l.Messages
			bc[i] += q.bcasts[i]
			at[i] = max(at[i], q.bcastAt[i])
		}
		for _, d := range q.decs {
			if d.Level >= 0 && d.Level+1 < nl {
				j.levels[d.Level+1].Mean, j.levels[d.Level+1].Sigma = d.Mean, d.Sigma
			}
		}
	}
	for i := range j.levels {
		if bc[i] == j.n-1 { // the level's last broadcast landed then
			j.levels[i].End = at[i]
		}
	}
	j.Ended(parts)
}

// addTo adds b into a, element by element, growing a.
func addTo[T int64 | int](a, b []T) []T {
	for len(a) < len(b) {
		a = append(a, 0)
	}
	for i, v := range b {
		a[i] += v
	}
	return a
}

// levelHead is a level's entry without its counts and end.
func levelHead(l result0) result0 {
	return result0{Level: l.Level, Mean: l.Mean, Sigma: l.Sigma}
}

// State appends the copy's counters and decisions to v (a partition in
// its own memory sends them: engine/sim/remote_graph500.go); SetState
// reads them back into a copy made by Part, for Merge and Ended.
func (j *Job) State(v []int64) []int64 {
	v = append(v, j.sent, j.delivered, j.phits, j.queries, j.messages, j.queriesIn, j.qPkts, j.syncPkts, j.latSum,
		int64(j.finals), j.finalAt, j.lastAt, int64(len(j.msgHist)))
	v = append(v, j.msgHist...)
	v = append(v, int64(len(j.series)))
	v = append(v, j.series...)
	v = append(v, int64(len(j.levels)))
	for i, l := range j.levels {
		v = append(v, l.QueryPackets, l.Queries, l.SyncPackets, l.Messages, int64(j.bcasts[i]), j.bcastAt[i])
	}
	v = append(v, int64(len(j.decs)))
	for _, d := range j.decs {
		v = append(v, int64(d.Level), int64(math.Float64bits(d.Mean)), int64(math.Float64bits(d.Sigma)),
			int64(math.Float64bits(d.X)), int64(math.Float64bits(d.Limit)))
	}
	return v
}

// SetState is State read back from v; a count beyond what v holds is an
// error.
func (j *Job) SetState(v []int64) error {
	bad := errors.New("graph500 state: a count out of range")
	i := 0
	next := func() int64 {
		if i >= len(v) {
			return 0
		}
		i++
		return v[i-1]
	}
	count := func(per int) (int, error) {
		c := next()
		if c < 0 || c*int64(per) > int64(len(v)-i) {
			return 0, bad
		}
		return int(c), nil
	}
	if len(v) < 13 {
		return bad
	}
	j.sent, j.delivered, j.phits, j.queries, j.messages, j.queriesIn = next(), next(), next(), next(), next(), next()
	j.qPkts, j.syncPkts, j.latSum = next(), next(), next()
	j.finals, j.finalAt, j.lastAt = int(next()), next(), next()
	k, err := count(1)
	if err != nil {
		return err
	}
	j.msgHist = append(j.msgHist[:0], v[i:i+k]...)
	i += k
	if k, err = count(1); err != nil {
		return err
	}
	j.series = append(j.series[:0], v[i:i+k]...)
	i += k
	if k, err = count(6); err != nil {
		return err
	}
	j.levels, j.bcasts, j.bcastAt = j.levels[:0], j.bcasts[:0], j.bcastAt[:0]
	for l := range k {
		j.levels = append(j.levels, result0{Level: l, QueryPackets: next(), Queries: next(), SyncPackets: next(), Messages: next()})
		j.bcasts = append(j.bcasts, int(next()))
		j.bcastAt = append(j.bcastAt, next())
	}
	if k, err = count(5); err != nil {
		return err
	}
	j.decs = j.decs[:0]
	for range k {
		d := Decision{Level: int(next()), Mean: math.Float64frombits(uint64(next())),
			Sigma: math.Float64frombits(uint64(next())), X: math.Float64frombits(uint64(next())),
			Limit: math.Float64frombits(uint64(next()))}
		if d.Level < -1 || d.Level >= len(j.levels) {
			return bad
		}
		j.decs = append(j.decs, d)
	}
	if i != len(v) {
		return bad
	}
	return nil
}

// EndState appends what Ended reads of the copy (its finals, the cycle the
// last landed, the cycle the root host decided the end) to v; SetEndState
// reads it back into a copy.
func (j *Job) EndState(v []int64) []int64 { return append(v, int64(j.finals), j.finalAt, j.lastAt) }

// SetEndState is EndState read back.
func (j *Job) SetEndState(next func() int64) {
	j.finals, j.finalAt, j.lastAt = int(next()), next(), next()
}
