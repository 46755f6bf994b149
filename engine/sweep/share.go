package sweep

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
// split: a partitioned run is bit-identical to the sequential one.
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
