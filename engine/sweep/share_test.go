package sweep

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sim"
)

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

// Cores hands the cores out as runs start (engine/PARALLEL.md, "Sweeps and
// Slurm tasks"): the runs that start when fewer are left than free cores
// take those cores as threads, the cores left over by rounding down going
// to the first ones; a run that starts while as many runs are left as free
// cores takes one.
func TestCores(t *testing.T) {
	// a schedule: +n starts n runs, -t finishes a run of t threads
	type step struct {
		start  int // runs to start now
		finish []int
		want   []int // the starting runs' threads
	}
	for _, c := range []struct {
		name                          string
		jobs, cores, workers, threads int
		steps                         []step
	}{
		{"one big point", 1, 8, 1, 0, []step{{start: 1, want: []int{8}}}},
		{"3 runs on 8 cores: 3, 3, 2", 3, 8, 3, 0, []step{{start: 3, want: []int{3, 3, 2}}}},
		{"8 runs on 8 cores", 8, 8, 8, 0, []step{{start: 8, want: []int{1, 1, 1, 1, 1, 1, 1, 1}}}},
		{"the tail of 10 runs on 8 cores", 10, 8, 8, 0, []step{
			{start: 8, want: []int{1, 1, 1, 1, 1, 1, 1, 1}},
			{finish: []int{1}, start: 1, want: []int{1}},          // 2 left, 1 free core
			{finish: []int{1, 1, 1, 1}, start: 1, want: []int{4}}, // 1 left, 4 free
		}},
		{"a later round of 2 runs on 8 cores (a new Cores)", 2, 8, 8, 0, []step{{start: 2, want: []int{4, 4}}}},
		{"the tail takes the cores the others free", 10, 4, 4, 0, []step{
			{start: 4, want: []int{1, 1, 1, 1}},
			{finish: []int{1, 1, 1}, start: 2, want: []int{1, 1}}, // 6 left: ⌈3 ÷ min(6, 3)⌉ = 1
		}},
		{"2 runs left on 3 free cores", 6, 4, 4, 0, []step{
			{start: 4, want: []int{1, 1, 1, 1}},
			{finish: []int{1, 1, 1}, start: 2, want: []int{2, 1}},
		}},
		{"the last of 5 runs on 4 cores", 5, 4, 4, 0, []step{
			{start: 4, want: []int{1, 1, 1, 1}},
			{finish: []int{1, 1, 1}, start: 1, want: []int{3}},
		}},
		{"-j 2 on 8 cores", 10, 8, 2, 0, []step{{start: 2, want: []int{4, 4}}, {finish: []int{4}, start: 1, want: []int{4}}}},
		{"-j 3 on 8 cores: leftover cores used", 10, 8, 3, 0, []step{{start: 3, want: []int{3, 3, 2}}}},
		{"-threads 4: as given", 10, 8, 2, 4, []step{{start: 2, want: []int{4, 4}}, {finish: []int{4}, start: 1, want: []int{4}}}},
		{"one core", 5, 1, 1, 0, []step{{start: 1, want: []int{1}}, {finish: []int{1}, start: 1, want: []int{1}}}},
	} {
		cs := NewCores(c.jobs, c.cores, c.workers, c.threads)
		for k, s := range c.steps {
			for _, f := range s.finish {
				cs.Give(f)
			}
			var got []int
			for range s.start {
				got = append(got, cs.Take())
			}
			if !slices.Equal(got, s.want) {
				t.Errorf("%s, step %d: threads %v, want %v", c.name, k, got, s.want)
			}
		}
	}
}

// TestCoresNeverOversubscribe: with at most as many workers as cores, the
// runs in progress never hold more threads than cores, each takes at least
// one, and a run started while at least as many runs are left (and idle
// workers to start them) as free cores takes one (random schedules: a run
// finishes at random).
func TestCoresNeverOversubscribe(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 2000; trial++ {
		cores := 1 + rng.IntN(16)
		jobs := 1 + rng.IntN(40)
		workers := 1 + rng.IntN(cores)
		cs := NewCores(jobs, cores, workers, 0)
		var running []int
		held, started := 0, 0
		for started < jobs || len(running) > 0 {
			if started < jobs && len(running) < min(workers, jobs) && (len(running) == 0 || rng.IntN(2) == 0) {
				free, k := cores-held, min(jobs-started, min(workers, jobs)-len(running))
				th := cs.Take()
				if th < 1 || (k >= free && th != 1) {
					t.Fatalf("cores %d, jobs %d, workers %d: run %d took %d threads with %d free, %d to start now", cores, jobs, workers, started, th, free, k)
				}
				running, held, started = append(running, th), held+th, started+1
				if held > cores {
					t.Fatalf("cores %d, jobs %d, workers %d: %d threads held after run %d started", cores, jobs, workers, held, started)
				}
				continue
			}
			k := rng.IntN(len(running))
			cs.Give(running[k])
			held -= running[k]
			running = slices.Delete(running, k, k+1)
		}
	}
}

// TestSweepRoundsReshareCores: the runs a sim.precision round adds (fewer
// than the cores) take the free cores as threads, where the first round's
// first run took one. ACOR (whose levels keep a run sequential, engine/PARALLEL.md) says
// in its result's "sequential" field that it was given more than one
// thread. TestPrecisionPerPoint's h=2 sweep, 1,000 + 1,000 cycles, ±3%, 4
// seeds on 4 cores, with the bound of sim.UsefulPartitions lifted; with it,
// an h=2 run (whose partitions carry too little work per window to pay a
// barrier) is never given threads.
func TestSweepRoundsReshareCores(t *testing.T) {
	c := base(2, "UN", 1)
	c.Routing.Name = "ACOR"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 1000, 1000, 50, 4
	c.Sim.Precision, c.Sim.MaxCycles = 0.03, 1000
	sp := Spec{Series: series(c, "ACOR"), Loads: []float64{0.1}}
	run := func() []bool {
		o, err := Run(context.Background(), sp, Options{Workers: 4, Cores: 4})
		if err != nil {
			t.Fatal(err)
		}
		var split []bool
		for _, r := range o.Runs {
			split = append(split, r.Sequential != "")
		}
		return split
	}
	if split := run(); slices.Contains(split, true) {
		t.Errorf("h=2 runs given threads (%v): sim.UsefulPartitions gives them one", split)
	}
	usefulPartitions = func(*config.Config) int { return 0 }
	defer func() { usefulPartitions = sim.UsefulPartitions }()
	split := run()
	t.Logf("%d runs, given threads: %v", len(split), split)
	if len(split) <= 4 || len(split) >= 8 {
		t.Fatalf("%d runs: the case needs a second round of 1 to 3 runs", len(split))
	}
	// the first run starts with 4 runs left on 4 cores: one thread; the
	// others of the first round take what the runs finished before them
	// freed (timing: unchecked); a second round's runs, fewer than the
	// cores, take them all
	for i, s := range split {
		if (i == 0 && s) || (i >= 4 && !s) {
			t.Errorf("run %d (round %d): split %v, want %v", i, 1+i/4, s, i >= 4)
		}
	}
}

// TestCoresTakeAtMost: a run's chosen threads are capped at what it can
// use with profit (sim.UsefulPartitions), the cores it leaves going to the
// next run; threads given are taken as given.
func TestCoresTakeAtMost(t *testing.T) {
	c := NewCores(2, 8, 2, 0)
	if got := c.TakeAtMost(3); got != 3 { // ⌈8 ÷ 2⌉ = 4, capped
		t.Errorf("first run: %d threads, want 3", got)
	}
	if got := c.TakeAtMost(0); got != 5 { // the 5 left free
		t.Errorf("second run: %d threads, want 5", got)
	}
	c = NewCores(1, 8, 1, 0)
	if got := c.TakeAtMost(1); got != 1 {
		t.Errorf("a run that cannot use threads: %d threads, want 1", got)
	}
	c = NewCores(1, 8, 1, 4)
	if got := c.TakeAtMost(1); got != 4 {
		t.Errorf("threads given: %d, want 4 as given", got)
	}
}
