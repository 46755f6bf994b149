package sim

import (
	"fmt"
	"slices"
)

// The coordinator's own partition (engine/PARALLEL.md, "In the page"): the
// worker that coordinates a run split across workers also steps partition
// 0. Built from a Sim of its own, that partition holds a second copy of the
// network; OwnPartition makes it a shard of the coordinator's Sim instead,
// as runParallel's partitions are shards of the whole network's Sim. The
// coordinator steps nothing, and the state it writes while the partition
// waits between windows is its own (its counters, clock, live count and
// mechanisms' instances: the shard has copies, as in runParallel) or the
// partition's entries of shared arrays (the ports' phits, ACOR-Switch's
// levels, QCN-Switch's limiters, the snapshot's entries), which it sets to
// the values the partition's answer carries: those the partition wrote.

// OwnPartition makes s, the coordinator of a run split across memories
// (RunRemote, not yet run), host partition 0 in its own memory: the link
// to it is LocalLink(pt), links[0] of RunRemote.
func OwnPartition(s *Sim) (*Partition, error) {
	return NewPartition(s, 0)
}

// detector sets the stuck-head detector's bound and mask to the
// coordinator's. The coordinator's own Sim (OwnPartition) has them already:
// it is left as it is, since the coordinator reads them while it starts
// the other partitions.
func (pt *Partition) detector(age, mask int64) {
	f := pt.full
	if f.dl.age == age && f.dl.mask == mask {
		return
	}
	f.initDetector()
	f.dl.age, f.dl.mask = age, mask
}

// watch makes a watched run's partition fill in its routers' entries of
// each snapshot (remote_snapshot.go): its Sim watches every `every`
// cycles, unless it is the coordinator's (OwnPartition), which already
// does, at the same interval.
func (pt *Partition) watch(every int64) error {
	f := pt.full
	switch {
	case every <= 0:
		return nil
	case f.snap == nil:
		return f.Watch(every, func(*NetSnapshot) {})
	case f.snap.every != every:
		return fmt.Errorf("start: snapshots every %d cycles, the host watches every %d", every, f.snap.every)
	}
	return nil
}

// ownRecords gives a partition's shard records of its own where the
// shard would share its full Sim's, which the coordinator writes too when
// it is that Sim (OwnPartition): the snapshot's record, whose last cycle
// is the partition's (snapState sets it; the coordinator hands the
// snapshot over after the partitions' answers, snapDue, snapBarrier), its
// arrays shared (the shard writes its routers' entries only); and
// QCN-Switch's trace of group 0's probabilities, which the partition
// holding group 0 records and the coordinator appends as decoded
// (qcnFrom). In a Sim of the partition's own, the copies change nothing.
func (s *Sim) ownRecords() {
	if s.snap != nil {
		r := *s.snap
		s.snap = &r
	}
	if m := s.qc; m != nil && m.trace != nil {
		t := *m.trace
		t.vals = slices.Clone(t.vals)
		m.trace = &t
	}
}
