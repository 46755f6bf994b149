package sweep

import "sync"

// Share divides cores between the runs of a sweep and the threads of each
// run (sim.Sim.SetThreads, engine/PARALLEL.md): given jobs runs to do and
// cores to do them on, it returns how many runs go at once (workers) and
// how many threads each run takes. workers and threads are the caller's
// choices, 0 meaning "choose":
//
//   - neither given: min(cores, jobs) runs at once; the cores left over go
//     to their threads only when there are fewer runs than cores —
//     threads = cores / workers (rounded down), else 1. One big point's
//     single run gets every core; 8 runs on 4 cores run 4 at a time on one
//     thread each (runs in parallel scale perfectly, a partitioned run does
//     not, engine/BENCHMARKS.md "Parallel runs"); 3 runs on 8 cores take 2
//     threads each.
//   - threads given: cores / threads runs at once (at least 1, at most
//     jobs).
//   - workers given: each run takes cores / min(workers, jobs) threads (at
//     least 1).
//   - both given: as given.
//
// cores and jobs below 1 count as 1. The results do not depend on the
// split: a partitioned run is bit-identical to the sequential one. The
// threads returned are the split fixed before the runs start; the command
// line and the plan runner take the runs at once from Share and, threads
// not given, each run's threads from Cores as it starts (the cores left
// over by rounding down, and those the finished runs free, then go to the
// runs that start later).
func Share(jobs, cores, workers, threads int) (int, int) {
	jobs, cores = max(jobs, 1), max(cores, 1)
	switch {
	case workers > 0 && threads > 0:
	case workers > 0:
		threads = max(1, cores/min(workers, jobs))
	case threads > 0:
		workers = min(jobs, max(1, cores/threads))
	default:
		workers = min(cores, jobs)
		threads = 1
		if jobs < cores {
			threads = cores / workers
		}
	}
	return workers, threads
}

// Cores hands a sweep's cores out to its runs as they start, so that the
// runs started when fewer are left than cores (the tail of a sweep, a
// sim.precision round of a few seeds) take the free cores as threads
// (engine/PARALLEL.md, "Sweeps and Slurm tasks"). A run starting when left
// runs are still to start and idle workers can take one takes
//
//	threads = ⌈free ÷ min(left, idle)⌉ (at least 1)
//
// — at most the partitions the run can use with profit (TakeAtMost,
// sim.UsefulPartitions: runJobs and package plan pass it) — of the free cores: the cores are spread over the runs that can start now,
// those left over by rounding down going to the first ones (3 runs on 8
// cores take 3, 3 and 2 threads). While there are at least as many runs
// left as free cores, every run takes one thread (runs side by side scale
// perfectly, a partitioned run does not). With at most as many workers as
// cores, a starting run always finds a free core: after a start, free ≥
// min(left, idle) still holds. Given threads (threads > 0), every run takes
// them. A run's count is fixed when it starts: the results do not depend
// on it (a partitioned run is bit-identical to the sequential one).
type Cores struct {
	mu               sync.Mutex
	free, left, idle int
	threads          int
}

// NewCores shares cores between jobs runs on workers goroutines (each
// running one run at a time; at most jobs count), threads per run if given
// (> 0), else chosen at each start (Take). Counts below 1 count as 1.
func NewCores(jobs, cores, workers, threads int) *Cores {
	jobs = max(jobs, 1)
	return &Cores{free: max(cores, 1), left: jobs, idle: min(max(workers, 1), jobs), threads: threads}
}

// Take returns the threads of a run starting now, and counts its cores
// and its worker as busy until Give.
func (c *Cores) Take() int { return c.TakeAtMost(0) }

// TakeAtMost is Take for a run that can use at most most threads with
// profit (sim.UsefulPartitions; ≤ 0: no bound): chosen threads are capped
// at it, the cores it leaves staying free for the runs after it; threads
// given (NewCores) are taken as given.
func (c *Cores) TakeAtMost(most int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.threads
	if t <= 0 {
		k := max(min(c.left, c.idle), 1)
		t = max((c.free+k-1)/k, 1)
		if most > 0 {
			t = min(t, most)
		}
	}
	c.free -= t
	c.left--
	c.idle--
	return t
}

// Give returns the cores of a finished run (its Take's threads) and its
// worker.
func (c *Cores) Give(threads int) {
	c.mu.Lock()
	c.free += threads
	c.idle++
	c.mu.Unlock()
}
