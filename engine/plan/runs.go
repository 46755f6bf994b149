package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
)

// runFile is a finished run's file: msgpack, with the JSON field names (as
// the page's workers send results, site/protocol), because it keeps every
// float64 bit for bit, NaN and ±Inf included, which JSON cannot: a merged
// plan re-encodes these results exactly as sweep.Run's were encoded.
type runFile struct {
	Format int            `json:"format"`
	ID     string         `json:"id"`
	Seed   uint64         `json:"seed"`
	Result *result.Result `json:"result"`
}

// Failure is a run's record of failure (runs/ID.failed.json): the error of
// its last attempt. It is removed when the run succeeds.
type Failure struct {
	ID     string  `json:"id"`
	Series int     `json:"series"`
	X      float64 `json:"x"`
	Seed   uint64  `json:"seed"`
	Error  string  `json:"error"`
}

func encodeRun(f *runFile) ([]byte, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.SetCustomStructTag("json")
	enc.UseCompactInts(true)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeRun(b []byte) (*runFile, error) {
	// walked first without allocating: msgpack v5.4.1 allocates an array as
	// long as its header claims, whatever the bytes that follow (a damaged
	// file's header could claim gigabytes; site/protocol.Decode does the same)
	if err := msgpack.NewDecoder(bytes.NewReader(b)).Skip(); err != nil {
		return nil, err
	}
	rd := bytes.NewReader(b)
	dec := msgpack.NewDecoder(rd)
	dec.SetCustomStructTag("json")
	var f runFile
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if rd.Len() > 0 {
		return nil, errors.New("trailing bytes after the run")
	}
	return &f, nil
}

// Describe names run i for messages: "run 7 (series 2 (VAL), load 0.3, seed 2, id …)".
func (p *Plan) Describe(i int) string {
	r, c := p.Runs[i], p.Jobs[i].Config
	name := c.Name
	if name == "" {
		name = c.Routing.Name
	}
	return fmt.Sprintf("run %d (series %d (%s), %s %g, seed %d, id %s)", i, r.Series+1, name, p.xName(), r.X, r.Seed, r.ID)
}

func (p *Plan) xName() string {
	if p.Spec.Param != "" {
		return p.Spec.Param
	}
	return "load"
}

// Status of the runs, from the files in the plan folder (without reading
// them: Results checks their contents; but Extend reads them first under
// sim.precision).
type Status struct {
	Done    []int          // a run file exists
	Failed  []int          // no run file, a failure record
	Missing []int          // neither (Failed not included)
	Errors  map[int]string // the failures' errors
}

// Status lists which runs are done, failed or missing, after Extend.
func (p *Plan) Status() (Status, error) {
	if _, err := p.Extend(); err != nil {
		return Status{}, err
	}
	return p.status()
}

func (p *Plan) status() (Status, error) {
	st := Status{Errors: map[int]string{}}
	entries, err := os.ReadDir(filepath.Join(p.Dir, RunsDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, err
	}
	have := make(map[string]bool, len(entries))
	for _, e := range entries {
		have[e.Name()] = true
	}
	for i, r := range p.Runs {
		switch {
		case have[r.ID+runExt]:
			st.Done = append(st.Done, i)
		case have[r.ID+failedExt]:
			st.Failed = append(st.Failed, i)
			var f Failure
			msg := "(its failure record does not decode)"
			if b, err := os.ReadFile(p.FailedPath(i)); err == nil && json.Unmarshal(b, &f) == nil {
				msg = f.Error
			}
			st.Errors[i] = msg
		default:
			st.Missing = append(st.Missing, i)
		}
	}
	return st, nil
}

// Results reads every finished run, indexed like Jobs (nil: not finished).
// A run file that does not decode, or holds another run, is an error naming
// the file (every such file is listed); nothing is deleted.
func (p *Plan) Results() ([]*result.Result, error) {
	out := make([]*result.Result, len(p.Runs))
	var errs []error
	for i := range p.Runs {
		r, err := p.read(i)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[i] = r
	}
	return out, errors.Join(errs...)
}

// read is run i's result: nil if it has not finished, an error naming the
// file if its file does not hold it.
func (p *Plan) read(i int) (*result.Result, error) {
	r := p.Runs[i]
	path := p.RunPath(i)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f, err := decodeRun(b)
	switch {
	case err != nil:
		err = fmt.Errorf("%s: corrupted run file (%v): move it away and run 'phitsim exec -plan %s' again to redo that run", path, err, p.Dir)
	case f.Format != Format:
		err = fmt.Errorf("%s: run file format %d, this phitsim reads format %d", path, f.Format, Format)
	case f.ID != r.ID || f.Seed != r.Seed || f.Result == nil:
		err = fmt.Errorf("%s: holds run %s seed %d, not %s: the file was renamed or copied from another plan", path, f.ID, f.Seed, p.Describe(i))
	case f.Result.Engine != p.Engine:
		err = fmt.Errorf("%s: a run of engine %q, the plan is of %q", path, f.Result.Engine, p.Engine)
	}
	if err != nil {
		return nil, err
	}
	return f.Result, nil
}

// Merge aggregates the finished runs as sweep.Run aggregates its own
// (sweep.Collect): for the same runs, the same Outcome, the runs sim.precision
// added (Extend) included. Missing lists the runs not finished (failed ones
// included), in plan order.
func (p *Plan) Merge() (oc *sweep.Outcome, missing []int, err error) {
	if _, err := p.Extend(); err != nil {
		return nil, nil, err
	}
	results, err := p.Results()
	if err != nil {
		return nil, nil, err
	}
	for i, r := range results {
		if r == nil {
			missing = append(missing, i)
		}
	}
	jobs := slices.Clone(p.Jobs)
	sweep.SortJobs(jobs, results) // added runs beside their point's
	return sweep.Collect(p.Spec, jobs, results), missing, nil
}

// ExecOptions of Exec.
type ExecOptions struct {
	Task, Tasks int // the slice (Slice); Tasks 0 means 1
	// Parallel runs at once and Threads per run on CPUs cores (0: the
	// cores available, runtime.GOMAXPROCS): Parallel left 0 is chosen by
	// sweep.Share for the runs left to do, Threads left 0 as each run
	// starts (sweep.Cores: one run alone takes every core as threads, the
	// last runs the cores the others leave free). The results do not
	// depend on them.
	Parallel, Threads, CPUs int
	// OnCycles is called (concurrently) with simulated cycles as runs advance.
	OnCycles func(delta int64)
	// OnRun is called (one call at a time) after each run of the slice that
	// was simulated, with its error (nil, a *sim.DeadlockError for a run
	// kept with its deadlock, or the failure recorded).
	OnRun func(i int, err error)
}

// ExecReport says what Exec did with its slice.
type ExecReport struct {
	Slice      []int // the runs of the slice
	Skipped    int   // already finished
	Done       int   // simulated and written, deadlocked ones included
	Deadlocked []error
	Failed     []error // recorded as failed
}

// Exec runs the slice's runs that have not finished, Parallel at a time on
// Threads goroutines each (ExecOptions), and writes each as it finishes; a run that fails is recorded as failed
// with its error (and tried again by the next Exec). Under sim.precision it
// then runs, in rounds, the runs of its slice that Extend adds for the
// points whose runs have all finished; a point another task finishes later
// leaves its added runs to the next Exec of their slice (Status lists them
// as missing). A cancelled context stops the runs in progress, which are
// lost (and run again by the next Exec); Exec then returns ctx.Err(). An
// error writing a file stops Exec.
func (p *Plan) Exec(ctx context.Context, opt ExecOptions) (ExecReport, error) {
	var rep ExecReport
	tasks := max(opt.Tasks, 1)
	if _, err := p.Slice(opt.Task, tasks); err != nil {
		return rep, err
	}
	if err := p.removeStaleTemps(); err != nil {
		return rep, err
	}
	for from := 0; ; {
		if _, err := p.Extend(); err != nil {
			return rep, err
		}
		if from == len(p.Runs) {
			return rep, nil
		}
		slice, _ := p.sliceFrom(from, opt.Task, tasks)
		from = len(p.Runs)
		rep.Slice = append(rep.Slice, slice...)
		st, err := p.status()
		if err != nil {
			return rep, err
		}
		done := make(map[int]bool, len(st.Done))
		for _, i := range st.Done {
			done[i] = true
		}
		var todo []int
		for _, i := range slice {
			if done[i] {
				rep.Skipped++
			} else {
				todo = append(todo, i)
			}
		}
		cpus := opt.CPUs
		if cpus <= 0 {
			cpus = runtime.GOMAXPROCS(0)
		}
		workers, _ := sweep.Share(len(todo), cpus, max(opt.Parallel, 0), max(opt.Threads, 0))
		if err := p.execRuns(ctx, todo, sweep.NewCores(len(todo), cpus, workers, max(opt.Threads, 0)), workers, opt, &rep); err != nil {
			return rep, err
		}
	}
}

// execRuns runs todo, workers at a time, each on the threads cores gives
// it as it starts, into the plan's files.
func (p *Plan) execRuns(ctx context.Context, todo []int, cores *sweep.Cores, workers int, opt ExecOptions, rep *ExecReport) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var mu sync.Mutex
	var writeErr error
	var wg sync.WaitGroup
	for w := 0; w < min(workers, max(len(todo), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					continue // cancelled before it started: run again next time
				}
				threads := cores.TakeAtMost(sim.UsefulPartitions(&p.Jobs[i].Config))
				r, err := p.runOne(ctx, i, opt.OnCycles, threads)
				cores.Give(threads)
				if ctx.Err() != nil && (r == nil || errors.Is(err, sim.ErrCancelled)) {
					continue // stopped: lost, run again next time
				}
				var de *sim.DeadlockError
				kept := r != nil && (err == nil || errors.As(err, &de))
				var werr error
				if kept {
					werr = p.writeRun(i, r)
				} else {
					werr = p.writeFailure(i, err)
				}
				mu.Lock()
				switch {
				case werr != nil:
					if writeErr == nil {
						writeErr = werr
						cancel()
					}
				case kept:
					rep.Done++
					if err != nil {
						rep.Deadlocked = append(rep.Deadlocked, fmt.Errorf("%s: %w", p.Describe(i), err))
					}
				default:
					rep.Failed = append(rep.Failed, fmt.Errorf("%s: %w", p.Describe(i), err))
				}
				if werr == nil && opt.OnRun != nil {
					opt.OnRun(i, err)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, i := range todo {
		if ctx.Err() != nil { // select picks at random when both are ready
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if writeErr != nil {
		return writeErr
	}
	return context.Cause(ctx)
}

// staleTemp is the age past which a temporary file in runs/ is a killed
// writer's: WriteFile renames its temporary file within seconds.
const staleTemp = time.Hour

// removeStaleTemps removes the temporary files that writers killed between
// creating and renaming them left in runs/ (never a finished run: those
// have their final names).
func (p *Plan) removeStaleTemps() error {
	dir := filepath.Join(p.Dir, RunsDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") || !strings.Contains(e.Name(), ".tmp-") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// runOne runs run i as sweep.Run runs a job; a panic of the engine is the
// run's failure (recorded with its stack), not the end of the other runs.
func (p *Plan) runOne(ctx context.Context, i int, onCycles func(int64), threads int) (r *result.Result, err error) {
	defer func() {
		if x := recover(); x != nil {
			r, err = nil, fmt.Errorf("the engine panicked: %v\n%s", x, debug.Stack())
		}
	}()
	return sweep.RunJobThreads(ctx, p.Jobs[i], onCycles, threads)
}

func (p *Plan) writeRun(i int, r *result.Result) error {
	data, err := encodeRun(&runFile{Format: Format, ID: p.Runs[i].ID, Seed: p.Runs[i].Seed, Result: r})
	if err != nil {
		return fmt.Errorf("%s: encoding: %w", p.Describe(i), err)
	}
	if err := WriteFile(filepath.Join(p.Dir, RunsDir), p.Runs[i].ID+runExt, data); err != nil {
		return err
	}
	// finished: an earlier attempt's failure no longer holds
	if err := os.Remove(p.FailedPath(i)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func (p *Plan) writeFailure(i int, runErr error) error {
	r := p.Runs[i]
	b, err := json.MarshalIndent(Failure{ID: r.ID, Series: r.Series, X: r.X, Seed: r.Seed, Error: strings.TrimSpace(runErr.Error())}, "", "  ")
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(p.Dir, RunsDir), r.ID+failedExt, append(b, '\n'))
}
