package sim

import "fmt"

// ACOR-Switch across memories (engine/PARALLEL.md, "Across memories"):
// what Snapshot and the coordinator's acorGather read from the
// partitions' own routers travels in the state answer. The levels by
// router (ACOR paper §4.2.2; the result's AcorLevels) go by router range,
// as the ports' phits do; the partition's routers at each level (perLevel,
// whose sum acorGather sets); and group 0's routers' levels at each
// transient bin's start (Fig. 10: trGroup), written by the partition that
// steps them. The routers by level per interval and per bin (sLevels,
// trLevels) are counts: countWalk carries them, absorb sums them.

// acorState writes this partition's ACOR-Switch state for the coordinator
// (acorFrom): ranges are its router ranges, in pairs.
func (pt *Partition) acorState(e *enc, ranges []int) {
	s := pt.s
	a := &s.acor
	if a.level == nil {
		return
	}
	for _, n := range a.perLevel {
		e.i(int64(n))
	}
	for i := 0; i < len(ranges); i += 2 {
		for _, lv := range a.level[ranges[i]:ranges[i+1]] {
			e.i(int64(lv))
		}
	}
	if st := &s.st; st.trGroup != nil {
		g := len(st.trGroup) / len(st.trPkts)
		lo := min(s.r0, g)
		hi := max(lo, min(g, s.r1))
		e.i(int64(lo))
		e.i(int64(hi))
		for b := range len(st.trPkts) {
			for _, v := range st.trGroup[g*b+lo : g*b+hi] {
				e.i(int64(v))
			}
		}
	}
}

// acorFrom reads partition p's ACOR-Switch state (acorState) into this
// Sim, the coordinator: its routers' levels, its routers by level (added
// to perLevel, which the caller zeroed: acorGather's sum) and its entries
// of group 0's levels. routers are the partition's router ranges, in
// pairs, as its ports' phits came.
func (s *Sim) acorFrom(d *dec, p int, routers []int) error {
	a := &s.acor
	if a.level == nil {
		return nil
	}
	for lv := range a.perLevel {
		a.perLevel[lv] += int32(d.i())
	}
	level := func() int64 {
		v := d.i()
		if d.err == nil && (v < 0 || v >= int64(len(a.perLevel))) {
			d.err = fmt.Errorf("partition %d: ACOR level %d", p, v)
		}
		return v
	}
	for i := 0; i < len(routers) && d.err == nil; i += 2 {
		for r := routers[i]; r < routers[i+1]; r++ {
			a.level[r] = uint8(level())
		}
	}
	if st := &s.st; st.trGroup != nil && d.err == nil {
		g := len(st.trGroup) / len(st.trPkts)
		lo, hi := int(d.i()), int(d.i())
		if d.err == nil && (lo < 0 || hi > g || lo > hi) {
			d.err = fmt.Errorf("partition %d: group 0's routers [%d, %d)", p, lo, hi)
		}
		for b := 0; b < len(st.trPkts) && d.err == nil; b++ {
			for r := lo; r < hi; r++ {
				st.trGroup[g*b+r] = int8(d.i())
			}
		}
	}
	return d.err
}
