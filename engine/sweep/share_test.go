package sweep

import "testing"

// Share's rule (engine/PARALLEL.md, "Sweeps and Slurm tasks"): runs first,
// the cores left over to threads only when there are fewer runs than cores.
func TestShare(t *testing.T) {
	for _, c := range []struct {
		jobs, cores, workers, threads int
		wantW, wantT                  int
	}{
		{1, 8, 0, 0, 1, 8},    // one big point: every core to its threads
		{3, 8, 0, 0, 3, 2},    // fewer runs than cores: 8/3 = 2 threads each
		{7, 8, 0, 0, 7, 1},    // 8/7 = 1
		{8, 8, 0, 0, 8, 1},    // as many runs as cores: one thread each
		{40, 8, 0, 0, 8, 1},   // more runs than cores
		{2, 2, 0, 0, 2, 1},    // this machine's sweep of two runs
		{1, 2, 0, 0, 1, 2},    //   and of one
		{5, 1, 0, 0, 1, 1},    // one core
		{0, 0, 0, 0, 1, 1},    // nothing counts as one
		{10, 8, 0, 4, 2, 4},   // -threads 4: two runs at once
		{1, 8, 0, 4, 1, 4},    //   but never more runs than there are
		{10, 8, 0, 16, 1, 16}, // more threads than cores: one run at a time
		{10, 8, 2, 0, 2, 4},   // -j 2: the 8 cores over 2 runs
		{1, 8, 4, 0, 4, 8},    //   with one run, it takes them all
		{10, 8, 16, 0, 16, 1}, // more runs than cores: one thread each
		{10, 8, 3, 5, 3, 5},   // both given: as given
	} {
		w, th := Share(c.jobs, c.cores, c.workers, c.threads)
		if w != c.wantW || th != c.wantT {
			t.Errorf("Share(jobs %d, cores %d, workers %d, threads %d) = %d runs × %d threads, want %d × %d",
				c.jobs, c.cores, c.workers, c.threads, w, th, c.wantW, c.wantT)
		}
	}
}
