package sweep

import (
	"phitsim/engine/result"
	"phitsim/engine/stats"
)

// PointRuns is how many runs a sweep point needs in all, given its runs so
// far (runs 0 … n−1, every one finished, in run order): n when there is no
// sim.precision, when their batch-means intervals combined meet it, when the
// point is judged on something else than precision (saturated, unstable,
// correlated batches, a deadlock), or at sim.maxSeeds; otherwise more
// (stats.SeedsFor: the half-width shrinks as 1/√runs). The added runs are
// the point's next seeds (Job.Nth). sweep.Run, the plan runner (package
// plan) and the page (site/experiment) all decide with it, so that a sweep
// takes the same seeds, and gives the same result, whichever runs it
// (engine/METHODS.md, "Precision-driven length").
func PointRuns(runs []*result.Result) int {
	n := len(runs)
	if n == 0 {
		return 0
	}
	s := runs[0].Config.Sim
	if s.Precision <= 0 {
		return n
	}
	return stats.SeedsFor(stats.AssessPoint(runs), n, s.SeedCap())
}

// Nth is run k of j's point: the same configuration, seed sim.seed + k (as
// Spec.Jobs numbers the first sim.seeds).
func (j Job) Nth(k int) Job {
	j.Run, j.Seed = k, j.Config.Sim.Seed+uint64(k)
	return j
}
