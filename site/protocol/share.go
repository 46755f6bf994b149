package protocol

import (
	"phitsim/engine/config"
	"phitsim/engine/sim"
)

// RunWorkers is how many Web Workers the page's pool (site/ui) splits a run
// of c across: runs first, then workers (engine/PARALLEL.md, "In the
// page"), and no more than the run can use with profit —
//
//	min(split, max(1, workers ÷ queued), sim.UsefulPartitions(c))
//
// with split the page's "workers per run" (≤ 1: each run on one worker),
// workers the pool's size and queued the runs waiting, this one included.
// The pool takes fewer when fewer are idle. The result does not depend on
// it.
func RunWorkers(c *config.Config, split, workers, queued int) int {
	k := min(split, workers/max(queued, 1))
	if k <= 1 {
		return 1 // without building the topology
	}
	return max(1, min(k, sim.UsefulPartitions(c)))
}
