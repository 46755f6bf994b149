package sim

import (
	"fmt"
	"math"
)

// Network snapshots (the live view) across memories (engine/PARALLEL.md,
// "Across memories"; parallel_snapshot.go): each partition fills in its
// own routers' and ports' entries at a snapshot's cycle (snapPartition), a
// window ends right after it (snapWindowEnd), and the answer of that
// window carries the entries, by router range, to the coordinator, which
// hands the snapshot over (snapBarrier). The last, shorter interval's
// entries come with the final state. Under RECN each router's entry
// carries its SAQ lines, and the partition's hosts their interfaces'.

// snapDue: the window ending at cycle to ended right after a snapshot's
// cycle not yet handed over (coordinator and partition agree: both set
// last to it).
func (r *snapRec) snapDue(to int64) bool {
	c := to - 1
	return c%r.every == 0 && c != r.last
}

// snapState writes this partition's entries of the snapshot (filled in by
// snapPartition) for its router ranges, and starts its next interval at
// cycle c, as the coordinator's snapBarrier does.
func (pt *Partition) snapState(e *enc, c int64) {
	s := pt.s
	n := &s.snap.out
	ranges := append([]int{s.r0, s.r1}, s.rMore...)
	e.i(int64(len(ranges) / 2))
	for i := 0; i < len(ranges); i += 2 {
		r0, r1 := ranges[i], ranges[i+1]
		e.i(int64(r0))
		e.i(int64(r1))
		for pi := r0 * s.radix; pi < r1*s.radix; pi++ {
			e.i(int64(math.Float32bits(n.LinkUse[pi])))
			e.i(int64(math.Float32bits(n.BufferUse[pi])))
		}
		for r := r0; r < r1; r++ {
			e.i(int64(n.Packets[r]))
			e.i(int64(math.Float32bits(n.Misrouted[r])))
			e.i(int64(math.Float32bits(n.Injection[r])))
			if s.rn != nil {
				e.i(int64(n.SAQs[r]))
			}
		}
	}
	if s.rn != nil { // RECN's interfaces: the partition's hosts
		e.i(int64(s.n0))
		e.i(int64(s.n1))
		for h := s.n0; h < s.n1; h++ {
			e.i(int64(n.HostSAQs[h]))
		}
	}
	s.snap.last = c
}

// snapFrom reads partition p's entries of the snapshot (snapState) into
// this Sim's, the coordinator's.
func (s *Sim) snapFrom(d *dec, p int) error {
	n := &s.snap.out
	for k := d.count(); k > 0 && d.err == nil; k-- {
		r0, r1 := int(d.i()), int(d.i())
		if d.err == nil && (r0 < 0 || r1 > s.R || r0 > r1) {
			return fmt.Errorf("partition %d: snapshot routers [%d, %d)", p, r0, r1)
		}
		f := func() float32 { return math.Float32frombits(uint32(d.i())) }
		for pi := r0 * s.radix; pi < r1*s.radix && d.err == nil; pi++ {
			n.LinkUse[pi] = f()
			n.BufferUse[pi] = f()
		}
		for r := r0; r < r1 && d.err == nil; r++ {
			n.Packets[r] = int32(d.i())
			n.Misrouted[r] = f()
			n.Injection[r] = f()
			if s.rn != nil {
				n.SAQs[r] = int32(d.i())
			}
		}
	}
	if s.rn != nil && d.err == nil {
		h0, h1 := int(d.i()), int(d.i())
		if d.err == nil && (h0 < 0 || h1 > s.N || h0 > h1) {
			return fmt.Errorf("partition %d: snapshot hosts [%d, %d)", p, h0, h1)
		}
		for h := h0; h < h1 && d.err == nil; h++ {
			n.HostSAQs[h] = int32(d.i())
		}
	}
	return d.err
}
