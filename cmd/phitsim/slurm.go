package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"phitsim/engine/plan"
)

func init() {
	help["slurm"] = `Usage: phitsim slurm -plan DIR [-tasks N] [-cpus-per-task C] [-time T] [-mem M] [-partition P] [-submit]
       phitsim slurm -plan DIR -status
       phitsim slurm -plan DIR -resubmit I,J,...

Runs a plan ('phitsim sweep … -plan DIR') on a Slurm cluster as a job array:
writes DIR/job.sbatch, one array task per slice of the runs, each task
'phitsim exec -plan DIR -task $SLURM_ARRAY_TASK_ID -tasks N -cpus C' on the
task's C CPUs (--cpus-per-task): min(C, runs left) runs at once, and a run
that starts when fewer runs are left than CPUs are free takes the free CPUs
÷ the runs left (rounded up) as threads, each stepping a part of the
network (engine/PARALLEL.md; the results do not depend on it); with -submit,
submits it with sbatch and prints the job id.
DIR and the phitsim binary (-bin) must be on a file system the nodes share.
A task that is killed (time limit, pre-emption, a node failure) loses only its
runs in progress; -status reports the runs done, failed and missing and the
tasks that have runs left, and -resubmit submits those tasks again (they skip
their finished runs). Then 'phitsim merge -plan DIR -out PREFIX'.

Defaults: C = 4 CPUs per task; N = one run per CPU (runs ÷ C tasks, at most
1000); -time and -mem are estimated per task from the engine's measured
instructions per packet-hop (engine/BENCHMARKS.md) at 10⁹ instructions per
second ('Running big sweeps' in GUIDE.md) and its memory estimate of a run:
time = 2 × the task's runs scheduled as exec runs them + 5 min (a run on T
threads taken as max(1, 0.6 × T) times as fast, the parallel efficiency
measured on 2 cores, engine/BENCHMARKS.md; 1 for a run the engine keeps
sequential), mem = C × the largest run's memory × 1.25 + 256 MiB.

Examples:
  phitsim sweep -experiment thesis-adv1 -plan adv1
  phitsim slurm -plan adv1 -partition short -submit
  phitsim slurm -plan adv1 -status
  phitsim slurm -plan adv1 -resubmit 3,17
  phitsim merge -plan adv1 -out adv1
`
}

// slurmFile records the array's shape and the jobs submitted (DIR/slurm.json),
// for -status and -resubmit.
type slurmFile struct {
	Tasks       int      `json:"tasks"`
	CPUsPerTask int      `json:"cpusPerTask"`
	Jobs        []string `json:"jobs,omitempty"`
}

const (
	slurmScript     = "job.sbatch"
	slurmResubmit   = "job-resubmit.sbatch"
	slurmRecord     = "slurm.json"
	slurmSafety     = 2.0  // on the estimated time
	slurmMemSafety  = 1.25 // on the estimated memory (itself a bound: full buffers, garbage included)
	slurmStartup    = 300  // seconds added to every task: start, opening the plan, writing
	slurmOverhead   = 256 << 20
	slurmMaxTasks   = 1000 // below Slurm's default MaxArraySize (1001)
	slurmDefaultCPU = 4
)

func cmdSlurm(args []string, e env) error {
	fs := flag.NewFlagSet("slurm", flag.ContinueOnError)
	dir := fs.String("plan", "", "the plan folder `DIR` (on a file system the nodes share)")
	tasks := fs.Int("tasks", 0, "`N` array tasks, one slice of the runs each (default: one run per CPU, at most 1000)")
	cpus := fs.Int("cpus-per-task", slurmDefaultCPU, "`C` CPUs per task (--cpus-per-task): shared by its runs and their threads")
	timeLimit := fs.String("time", "", "time limit per task, `T` in Slurm's format (D-HH:MM:SS or minutes; default: estimated)")
	mem := fs.String("mem", "", "memory per task, `M` in Slurm's format (e.g. 4G; default: estimated)")
	partition := fs.String("partition", "", "the Slurm partition `P` (default: the cluster's)")
	bin := fs.String("bin", "", "the phitsim binary the tasks run, `PATH` on the nodes (default: this one)")
	submit := fs.Bool("submit", false, "submit the job with sbatch and print its id")
	status := fs.Bool("status", false, "report the runs done, failed and missing, and the tasks with runs left")
	resubmit := fs.String("resubmit", "", "submit again the array tasks `I,J,...` (those -status lists), with the array's first -tasks")
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("-plan: which plan? (slurm -plan DIR)")
	}
	p, err := plan.Open(*dir)
	if err != nil {
		return err
	}
	rec, err := readSlurmRecord(*dir, len(p.Runs))
	if err != nil {
		return err
	}
	if *status {
		return slurmStatus(e, p, rec)
	}
	if *cpus < 1 {
		return fmt.Errorf("-cpus-per-task %d: want ≥ 1", *cpus)
	}
	n := *tasks
	var array string
	switch {
	case *resubmit != "":
		if rec.Tasks == 0 {
			return fmt.Errorf("-resubmit: %s has no record of a submitted array (%s); submit it first with -submit", *dir, slurmRecord)
		}
		if n != 0 && n != rec.Tasks {
			return fmt.Errorf("-tasks %d: the array was submitted with %d tasks; a resubmission keeps its slices", n, rec.Tasks)
		}
		n = rec.Tasks
		idx, err := parseIndices(*resubmit, n)
		if err != nil {
			return err
		}
		array = strings.Join(idx, ",")
		*submit = true
	case n == 0:
		n = min(max((len(p.Runs)+*cpus-1) / *cpus, 1), slurmMaxTasks)
	case n < 1 || n > len(p.Runs):
		return fmt.Errorf("-tasks %d: want 1 … %d (the plan's runs)", n, len(p.Runs))
	}
	if array == "" {
		array = fmt.Sprintf("0-%d", n-1)
	}
	est := estimateTask(p, n, *cpus)
	if *timeLimit == "" {
		*timeLimit = slurmTime(est.seconds)
	}
	if *mem == "" {
		*mem = fmt.Sprintf("%dM", (est.bytes+(1<<20)-1)>>20)
	}
	if *bin == "" {
		if *bin, err = os.Executable(); err != nil {
			return fmt.Errorf("-bin: this program's path is unknown (%v): give the phitsim binary's path", err)
		}
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	if *bin, err = filepath.Abs(*bin); err != nil {
		return err
	}
	if strings.ContainsAny(abs, "\"\n") {
		return fmt.Errorf("-plan %q: a batch script's #SBATCH line cannot hold a path with a double quote or a newline: move the plan", abs)
	}
	if err := os.MkdirAll(filepath.Join(abs, "logs"), 0o755); err != nil {
		return err
	}
	script := sbatchScript(sbatchArgs{dir: abs, bin: *bin, array: array, tasks: n, cpus: *cpus, time: *timeLimit, mem: *mem,
		partition: *partition, runs: len(p.Runs), est: est})
	name := slurmScript
	if *resubmit != "" {
		name = slurmResubmit
	}
	if err := plan.WriteFile(abs, name, []byte(script)); err != nil {
		return err
	}
	path := filepath.Join(*dir, name)
	fmt.Fprintf(e.stderr, "wrote %s: %d runs in %d array tasks of %d CPUs, --time=%s --mem=%s (estimated: %s per task at most)\n",
		path, len(p.Runs), n, *cpus, *timeLimit, *mem, fmtSeconds(est.raw))
	if !*submit {
		fmt.Fprintf(e.stderr, "submit it with: sbatch %s   (or phitsim slurm -plan %s -submit)\n", path, *dir)
		return nil
	}
	if rec.Tasks != 0 && rec.Tasks != n {
		return fmt.Errorf("-tasks %d: %s records an array of %d tasks; submit into a new plan folder, or with -tasks %d", n, slurmRecord, rec.Tasks, rec.Tasks)
	}
	out, err := exec.Command("sbatch", "--parsable", filepath.Join(abs, name)).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("sbatch %s: %v: %s", path, err, strings.TrimSpace(string(ee.Stderr)))
		}
		return fmt.Errorf("sbatch %s: %w (is Slurm installed here?)", path, err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "id;cluster" on a federation
	rec.Tasks, rec.CPUsPerTask, rec.Jobs = n, *cpus, append(rec.Jobs, id)
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := plan.WriteFile(abs, slurmRecord, append(data, '\n')); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, id)
	fmt.Fprintf(e.stderr, "submitted job %s (array %s); 'phitsim slurm -plan %s -status' reports its progress\n", id, array, *dir)
	return nil
}

// readSlurmRecord reads the plan's record of its submitted arrays; a record
// edited past what a submission writes (tasks 1 … the plan's runs) is
// refused rather than looped over.
func readSlurmRecord(dir string, runs int) (slurmFile, error) {
	var rec slurmFile
	path := filepath.Join(dir, slurmRecord)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return rec, nil
	}
	if err == nil {
		err = json.Unmarshal(b, &rec)
	}
	if err == nil && (rec.Tasks < 0 || rec.Tasks > runs || rec.Tasks == 0 && len(rec.Jobs) > 0) {
		err = fmt.Errorf("tasks = %d: a submitted array has 1 … %d (the plan's runs); restore the file, or remove it and submit again", rec.Tasks, runs)
	}
	if err == nil && rec.CPUsPerTask < 0 {
		err = fmt.Errorf("cpusPerTask = %d: want ≥ 1; restore the file, or remove it and submit again", rec.CPUsPerTask)
	}
	if err != nil {
		return rec, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// parseIndices checks a list of array task indices (each in 0 … n−1).
func parseIndices(s string, n int) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 0 || i >= n {
			return nil, fmt.Errorf("-resubmit %q: %q is not a task index 0 … %d", s, f, n-1)
		}
		out = append(out, strconv.Itoa(i))
	}
	return out, nil
}

// taskEstimate is what one array task needs at most.
type taskEstimate struct {
	raw     float64 // the costliest task's estimated seconds, without margins
	seconds float64 // with the safety factor and the start-up time
	bytes   int64
}

// estimateTask: the costliest of the n slices run on C CPUs as exec runs
// them (plan.TaskSeconds: the runs at once, and the threads of those that
// start when fewer are left than free CPUs; see the slurm help's formulas).
func estimateTask(p *plan.Plan, n, cpus int) taskEstimate {
	var est taskEstimate
	for t := 0; t < n; t++ {
		slice, _ := p.Slice(t, n)
		est.raw = math.Max(est.raw, p.TaskSeconds(slice, cpus))
		est.bytes = max(est.bytes, p.Cost(slice).Bytes)
	}
	est.seconds = est.raw*slurmSafety + slurmStartup
	est.bytes = int64(float64(min(cpus, len(p.Runs)))*float64(est.bytes)*slurmMemSafety) + slurmOverhead
	return est
}

// slurmTime is a time limit in Slurm's D-HH:MM:SS, rounded up to minutes.
func slurmTime(seconds float64) string {
	m := int64(math.Ceil(seconds / 60))
	return fmt.Sprintf("%d-%02d:%02d:00", m/(24*60), m/60%24, m%60)
}

type sbatchArgs struct {
	dir, bin, array      string
	tasks, cpus, runs    int
	time, mem, partition string
	est                  taskEstimate
}

// shellQuote quotes s for bash.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var jobNameUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// sbatchScript is the job array's batch script: each task runs its slice.
func sbatchScript(a sbatchArgs) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by 'phitsim slurm': the plan %s, %d runs in %d array tasks of %d CPUs.\n", a.dir, a.runs, a.tasks, a.cpus)
	fmt.Fprintf(&b, "# Estimated: the costliest task %s on its CPUs (its runs and their threads, parallel efficiency %g);\n# the limits add a factor %g and %d min, and a memory factor %g (see 'phitsim slurm -h').\n",
		fmtSeconds(a.est.raw), plan.ParallelEfficiency, slurmSafety, slurmStartup/60, slurmMemSafety)
	fmt.Fprintf(&b, "#SBATCH --job-name=phitsim-%s\n", jobNameUnsafe.ReplaceAllString(filepath.Base(a.dir), "_"))
	fmt.Fprintf(&b, "#SBATCH --array=%s\n", a.array)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%d\n", a.cpus)
	fmt.Fprintf(&b, "#SBATCH --time=%s\n#SBATCH --mem=%s\n", a.time, a.mem)
	if a.partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", a.partition)
	}
	// sbatch splits a directive at spaces unless they are quoted
	fmt.Fprintf(&b, "#SBATCH --output=\"%s\"\n", filepath.Join(a.dir, "logs", "task-%A_%a.out"))
	// the time limit's SIGTERM stops phitsim cleanly: its finished runs are kept
	// the task's CPUs are shared between its runs and their threads
	// (sweep.Share): a task with fewer runs left than CPUs splits them
	fmt.Fprintf(&b, "exec %s exec -plan %s -task \"$SLURM_ARRAY_TASK_ID\" -tasks %d -cpus \"${SLURM_CPUS_PER_TASK:-%d}\"\n",
		shellQuote(a.bin), shellQuote(a.dir), a.tasks, a.cpus)
	return b.String()
}

// slurmStatus reports the plan's runs and, when an array was submitted, its
// tasks with runs left (to resubmit).
func slurmStatus(e env, p *plan.Plan, rec slurmFile) error {
	st, err := p.Status()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d runs: %d done, %d failed, %d missing\n", p.Dir, len(p.Runs), len(st.Done), len(st.Failed), len(st.Missing))
	if len(st.Failed) > 0 {
		fmt.Fprintln(e.stdout, "failed:")
		listRuns(env{stderr: e.stdout}, p, st.Failed, st.Errors)
	}
	if rec.Tasks == 0 {
		return nil
	}
	fmt.Fprintf(e.stdout, "jobs submitted: %s (array of %d tasks)\n", strings.Join(rec.Jobs, ", "), rec.Tasks)
	fmt.Fprintln(e.stdout, queueState(rec.Jobs))
	left := map[int]bool{}
	for _, i := range append(append([]int(nil), st.Failed...), st.Missing...) {
		left[p.Task(i, rec.Tasks)] = true
	}
	var idx []string
	for t := 0; t < rec.Tasks; t++ {
		if left[t] {
			idx = append(idx, strconv.Itoa(t))
		}
	}
	if len(idx) > 0 {
		fmt.Fprintf(e.stdout, "tasks with runs left: %s\n  (running or queued tasks are among them; once the array has ended: phitsim slurm -plan %s -resubmit %s)\n",
			strings.Join(idx, ","), p.Dir, strings.Join(idx, ","))
	} else {
		fmt.Fprintf(e.stdout, "every run is done: phitsim merge -plan %s -out PREFIX\n", p.Dir)
	}
	return nil
}

// queueState is what squeue says of the jobs' array tasks (where squeue
// runs: on the cluster).
func queueState(jobs []string) string {
	out, err := exec.Command("squeue", "-h", "-r", "-j", strings.Join(jobs, ","), "-o", "%T").Output()
	if err != nil {
		return "in the queue: unknown (squeue: " + strings.TrimSpace(err.Error()) + ")"
	}
	counts := map[string]int{}
	var states []string
	for _, st := range strings.Fields(string(out)) {
		if counts[st] == 0 {
			states = append(states, st)
		}
		counts[st]++
	}
	if len(states) == 0 {
		return "in the queue: no task (the array has ended)"
	}
	parts := make([]string, len(states))
	for i, st := range states {
		parts[i] = fmt.Sprintf("%d %s", counts[st], st)
	}
	return "in the queue: " + strings.Join(parts, ", ")
}
