package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"phitsim/engine/plan"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
)

func init() {
	help["exec"] = `Usage: phitsim exec -plan DIR [-task I -tasks N] [-parallel P] [-threads T] [-cpus C]

Runs the runs of a plan ('phitsim sweep … -plan DIR') that have not finished,
P at a time on T threads each, and writes each as it finishes into DIR/runs (atomically: a
temporary file, then a rename). With -tasks N it runs one slice of N: every
N-th run from run I (I from 0), as one task of a Slurm job array does
('phitsim slurm'). Finished runs are skipped, so exec resumes a sweep after a
crash, a pre-emption or Ctrl-C: an interrupted exec loses only the runs in
progress (exit status 130). A run that fails is recorded as failed with its
error in DIR/runs/ID.failed.json and tried again by the next exec (exit status
1); a run that stops on a deadlock is kept with its metrics up to it, as
'phitsim sweep' keeps it (exit status 3). Not at a terminal, stderr gets one
line per finished run. Under sim.precision a point whose runs combined miss
it takes more seeds, the ones 'phitsim sweep' would add: exec runs those of
its slice once the point's runs have all finished; those of a point another
task finishes later are left to the next exec (merge lists them as missing).

The runs share C cores (default: $SLURM_CPUS_PER_TASK in a Slurm task, else
the cores available): with P and T left 0, min(C, runs) run at once, and a
run that starts when fewer runs are left than cores are free takes the free
cores ÷ the runs left (rounded up) as threads, each stepping a part of
the network (engine/PARALLEL.md); with one of them given, the other
takes the cores it leaves. The results do not depend on P or T.

Examples:
  phitsim exec -plan adv1                          every run, on all cores
  phitsim exec -plan adv1 -task 0 -tasks 4 -parallel 2   the first of 4 slices
`
	help["merge"] = `Usage: phitsim merge -plan DIR [-out PREFIX] [-csv] [-transient] [-partial]

Aggregates the finished runs of a plan into what 'phitsim sweep' writes: the
same PREFIX.json and PREFIX.csv (and PREFIX-transient.csv), bit for bit for the
same runs, and the same table or CSV on stdout; the JSON opens wherever a
sweep's does. Runs not finished are listed on stderr; then nothing is written
and the exit status is 1, unless -partial (then the points aggregate the runs
that finished, as an interrupted sweep's do). A corrupted run file is an error
naming the file; nothing in the plan is changed.

Examples:
  phitsim merge -plan adv1 -out adv1               adv1.json and adv1.csv
  phitsim merge -plan adv1 -partial > so-far.csv
`
}

// buildName is this program's build for a plan's record: module version and
// source revision.
func buildName() string {
	bi, ok := debug.ReadBuildInfo()
	lines := strings.SplitN(versionText(bi, ok), "\n", 3)
	return strings.TrimSpace(lines[0] + "; " + lines[1])
}

// writePlan is 'sweep … -plan DIR': the sweep's runs written as a plan,
// none run.
func writePlan(e env, sp sweep.Spec, table bool, dir string) error {
	m, _, err := plan.New(sp, table, buildName())
	if err != nil {
		return err
	}
	existing, err := plan.Write(dir, m)
	if err != nil {
		return err
	}
	p, err := plan.Open(dir)
	if err != nil {
		return err
	}
	all := make([]int, len(p.Runs))
	for i := range all {
		all[i] = i
	}
	cost := p.Cost(all)
	if existing {
		st, err := p.Status()
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "%s already holds this plan: %d of %d runs finished, %d failed\n", dir, len(st.Done), len(p.Runs), len(st.Failed))
	} else {
		fmt.Fprintf(e.stderr, "planned %s (%s × %s of %s × seeds) in %s\n", plural(len(p.Runs), "run"), plural(len(sp.Series), "series"), plural(len(sp.Xs()), "value"), sp.XName(), dir)
	}
	fmt.Fprintf(e.stderr, "estimated cost: %s of CPU time in all, the longest run %s, up to %s of memory per run\n",
		fmtSeconds(cost.Seconds), fmtSeconds(cost.Longest), fmtMiB(cost.Bytes))
	for _, c := range sp.Series {
		if c.Sim.Precision > 0 {
			fmt.Fprintf(e.stderr, "sim.precision: a point short of it after its %d seeds takes more, up to sim.maxSeeds (%d), when exec has run all its runs; the cost above counts the first %d\n",
				c.Sim.Seeds, c.Sim.SeedCap(), c.Sim.Seeds)
			break
		}
	}
	fmt.Fprintf(e.stderr, "next: phitsim exec -plan %s   (or on a Slurm cluster: phitsim slurm -plan %s -submit), then phitsim merge -plan %s -out PREFIX\n", dir, dir, dir)
	return nil
}

func cmdExec(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	dir := fs.String("plan", "", "the plan folder `DIR` (written by 'phitsim sweep … -plan DIR')")
	task := fs.Int("task", 0, "the slice `I` to run, from 0 (with -tasks)")
	tasks := fs.Int("tasks", 1, "split the runs into `N` slices (every N-th run from run I)")
	parallel := fs.Int("parallel", 0, "`P` runs at once (0: shared with -threads on the -cpus, see -h)")
	threads := fs.Int("threads", 0, "`T` goroutines per run (0: the cores the runs leave over, see -h); the results do not depend on it")
	cpus := fs.Int("cpus", 0, "`C` cores to share (0: $SLURM_CPUS_PER_TASK if set, else the cores available)")
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("-plan: which plan? (exec -plan DIR)")
	}
	if *parallel < 0 || *threads < 0 || *cpus < 0 {
		return fmt.Errorf("-parallel %d -threads %d -cpus %d: give 0 (chosen, see -h) or more", *parallel, *threads, *cpus)
	}
	if *cpus == 0 {
		n, err := slurmCPUs(os.Getenv("SLURM_CPUS_PER_TASK"))
		if err != nil {
			return err
		}
		*cpus = n // 0 outside Slurm: the cores available (plan.ExecOptions)
	}
	p, err := plan.Open(*dir)
	if err != nil {
		return err
	}
	st, err := p.Status() // first: under sim.precision it adds the runs finished points ask for
	if err != nil {
		return err
	}
	slice, err := p.Slice(*task, *tasks)
	if err != nil {
		return err
	}
	finished := map[int]bool{}
	for _, i := range st.Done {
		finished[i] = true
	}
	var total int64
	for _, i := range slice {
		if !finished[i] {
			total += sim.EstimatedCycles(&p.Jobs[i].Config)
		}
	}
	opt, done := e.options(total, fmt.Sprintf("task %d/%d", *task, *tasks), *parallel)
	log := !e.errTTY // a log line per run, for batch jobs' logs and pipes
	start := time.Now()
	rep, execErr := p.Exec(ctx, plan.ExecOptions{Task: *task, Tasks: *tasks, Parallel: opt.Workers, Threads: *threads, CPUs: *cpus, OnCycles: opt.OnCycles,
		OnRun: func(i int, err error) {
			if log {
				what := "finished"
				var de *sim.DeadlockError
				switch {
				case errors.As(err, &de):
					what = "deadlocked (kept)"
				case err != nil:
					what = "failed"
				}
				fmt.Fprintf(e.stderr, "%s %s after %s\n", what, p.Describe(i), time.Since(start).Round(time.Second))
			}
			if e.afterRun != nil {
				e.afterRun()
			}
		}})
	done()
	fmt.Fprintf(e.stderr, "task %d of %d: %d runs, %d already finished, %d run now, %d failed\n",
		*task, *tasks, len(rep.Slice), rep.Skipped, rep.Done, len(rep.Failed))
	if execErr != nil {
		if errors.Is(execErr, context.Canceled) {
			return fmt.Errorf("%w: the runs in progress are lost; 'phitsim exec -plan %s' again resumes", errInterrupted, *dir)
		}
		return execErr
	}
	if len(rep.Failed) > 0 {
		return fmt.Errorf("%d runs failed (recorded in %s; exec again retries them):\n%w", len(rep.Failed), *dir, errors.Join(rep.Failed...))
	}
	if len(rep.Deadlocked) > 0 {
		fmt.Fprintf(e.stderr, "%d runs stopped on a stuck head; they are kept and merged as 'phitsim sweep' keeps them\n", len(rep.Deadlocked))
		return rep.Deadlocked[0]
	}
	return nil
}

func cmdMerge(args []string, e env) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	dir := fs.String("plan", "", "the plan folder `DIR`")
	out := fs.String("out", "", "write `PREFIX`.json (all runs and points) and PREFIX.csv (the curves), as 'sweep -out' does; the table goes to stdout")
	asCSV := fs.Bool("csv", false, "write the curves as CSV to stdout, even at a terminal")
	asTransient := fs.Bool("transient", false, "with a pattern switch, the CSV on stdout is the time series around it (as 'sweep -transient')")
	partial := fs.Bool("partial", false, "write the runs that finished even when some are missing")
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("-plan: which plan? (merge -plan DIR)")
	}
	p, err := plan.Open(*dir)
	if err != nil {
		return err
	}
	oc, missing, err := p.Merge()
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		st, err := p.Status()
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "%d of %d runs not finished:\n", len(missing), len(p.Runs))
		listRuns(e, p, missing, st.Errors)
		if !*partial {
			return fmt.Errorf("%d runs missing: nothing written ('phitsim exec -plan %s' runs them; merge -partial writes what finished)", len(missing), *dir)
		}
	}
	if len(oc.Runs) == 0 {
		return errors.New("no run finished: nothing to write")
	}
	deadlocked := 0
	for _, r := range oc.Runs {
		if r.Deadlock != nil {
			deadlocked++
		}
	}
	if deadlocked > 0 {
		fmt.Fprintf(e.stderr, "%d runs stopped on a stuck head (DEADLOCK or STARVATION in the table, deadlocked_runs in the CSV)\n", deadlocked)
	}
	return writeOutcome(e, oc, outcomeFlags{out: *out, csv: *asCSV, transient: *asTransient, table: p.Table}, nil)
}

// listRuns prints runs of a plan, at most 20, with their recorded errors.
func listRuns(e env, p *plan.Plan, runs []int, errs map[int]string) {
	const most = 20
	for k, i := range runs {
		if k == most {
			fmt.Fprintf(e.stderr, "  … and %d more\n", len(runs)-most)
			break
		}
		line := "  " + p.Describe(i)
		if msg, ok := errs[i]; ok {
			line += ": failed: " + strings.SplitN(msg, "\n", 2)[0]
		}
		fmt.Fprintln(e.stderr, line)
	}
}

// fmtSeconds is a duration in s, min or h.
func fmtSeconds(s float64) string {
	switch {
	case s < 120:
		return fmt.Sprintf("%.0f s", s)
	case s < 7200:
		return fmt.Sprintf("%.0f min", s/60)
	}
	return fmt.Sprintf("%.1f h", s/3600)
}

func fmtMiB(b int64) string { return fmt.Sprintf("%d MiB", (b+(1<<20)-1)>>20) }

// slurmCPUs is a Slurm task's CPUs from SLURM_CPUS_PER_TASK (v): 0 when
// unset, so that exec uses the cores available (the CPU affinity count,
// runtime.GOMAXPROCS's default).
func slurmCPUs(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("SLURM_CPUS_PER_TASK=%q: want a count ≥ 1 (or unset it to use the cores available)", v)
	}
	return n, nil
}
