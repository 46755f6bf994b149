package experiment

import (
	"sort"

	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// MoreSeeds appends to Jobs and Runs the runs that sim.precision asks for
// (sweep.PointRuns, the decision 'phitsim sweep' and the plan runner take)
// of every point whose runs have all finished, and returns their indices
// for the workers. It is called after each finished run; a point with runs
// still running, or one that failed, waits (and a failed one stays as it
// is, as a sweep with an error adds nothing). The same experiment thus
// takes the same seeds as 'phitsim sweep', whatever order the workers
// finish in. The added jobs follow the others (indices stay put: the pool,
// the tracker and the watched run hold them); Points and the export sort
// the runs by point.
func (r *Results) MoreSeeds() []int {
	var added []int
	for _, idx := range r.byPoint() {
		runs := make([]*result.Result, len(idx))
		whole := true
		for k, i := range idx {
			runs[k], whole = r.Runs[i], whole && r.Runs[i] != nil
		}
		if !whole {
			continue
		}
		last := r.Jobs[idx[len(idx)-1]]
		want := sweep.PointRuns(runs)
		for k := len(idx); k < want; k++ {
			j := last
			j.Index, j.Run, j.Seed = len(r.Jobs), k, sweep.Job{Config: last.Config}.Nth(k).Seed
			r.Jobs, r.Runs = append(r.Jobs, j), append(r.Runs, nil)
			added = append(added, j.Index)
		}
	}
	return added
}

// byPoint lists the jobs of each point in run order, points in series then
// value order.
func (r *Results) byPoint() [][]int {
	order := r.order()
	var out [][]int
	for k, i := range order {
		j := r.Jobs[i]
		if k == 0 || r.Jobs[order[k-1]].Series != j.Series || r.Jobs[order[k-1]].Point != j.Point {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], i)
	}
	return out
}

// order is the jobs' indices by series, point and run (the engine's
// sweep.Spec.Jobs order, which sweep.Collect needs), the runs MoreSeeds
// added beside their point's.
func (r *Results) order() []int {
	idx := make([]int, len(r.Jobs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := r.Jobs[idx[a]], r.Jobs[idx[b]]
		if x.Series != y.Series {
			return x.Series < y.Series
		}
		if x.Point != y.Point {
			return x.Point < y.Point
		}
		return x.Run < y.Run
	})
	return idx
}
