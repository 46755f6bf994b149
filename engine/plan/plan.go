// Package plan runs a sweep in pieces: a plan folder holds the sweep
// (sweep.Spec) and every run of it with a stable id; any number of
// processes, at once or one after another (a laptop resuming after Ctrl-C,
// a Slurm job array), run slices of it and write each finished run as its
// own file; Merge aggregates whatever has finished with sweep.Collect, the
// code that aggregates sweep.Run's runs, so that a merged plan is the sweep
// run at once, bit for bit.
//
// The folder:
//
//	plan.json            the manifest: format, engine version, the spec, the runs
//	runs/ID.msgpack      a finished run (its result.Result, lossless)
//	runs/ID.failed.json  a run that failed, with its error (until it succeeds)
//
// Files are written atomically (a temporary file in the same folder,
// fsync, rename), so a process killed at any instant leaves whole files
// only, and loses at most the runs it was simulating.
package plan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// Format of the plan folder (the manifest and the run files). Bump it when
// either changes meaning: a plan of another format is refused, not misread.
const Format = 1

// File names in a plan folder.
const (
	ManifestFile = "plan.json"
	RunsDir      = "runs"
	runExt       = ".msgpack"
	failedExt    = ".failed.json"
)

// Manifest is plan.json: the sweep and its runs.
type Manifest struct {
	Format int `json:"format"`
	// Engine is result.EngineVersion of the phitsim that wrote the plan:
	// runs of another engine are not merged with its own.
	Engine string `json:"engine"`
	// Phitsim is the writing program's build (module version and source
	// revision), for the record; it is not checked.
	Phitsim string `json:"phitsim,omitempty"`
	// Table: the sweep is an experiment whose table includes the fairness
	// panels (sweep.Experiment.Table), so that merge prints what sweep does.
	Table bool       `json:"table,omitempty"`
	Spec  sweep.Spec `json:"spec"`
	Runs  []Run      `json:"runs"`
}

// Run is one run of the plan: its job in sweep.Spec.Jobs's order.
type Run struct {
	ID     string  `json:"id"`
	Series int     `json:"series"` // index in Spec.Series
	Point  int     `json:"point"`  // index in Spec.Xs()
	Run    int     `json:"run"`    // 0 … sim.seeds−1
	X      float64 `json:"x"`      // the swept value (the load, or Spec.Param's value)
	Seed   uint64  `json:"seed"`
}

// Plan is an opened plan folder: its manifest and its jobs as this build
// expands the spec (Jobs[i] is Manifest.Runs[i]). Under sim.precision,
// Extend appends to both the runs that points short of it ask for; they
// are not in plan.json (what they are follows from the runs before them),
// and their files are named by their ids like any run's.
type Plan struct {
	Dir string
	Manifest
	Jobs []sweep.Job
	// order is each run's place for slicing (Task): a listed run's index;
	// an added one's, its point's first run's index + its run number, as
	// if the point had listed it
	order []int
}

// ID is a run's stable id: a hash of its configuration (the series with
// the swept value applied, as the run's result records it) and its seed.
// Planning the same sweep again gives the same ids, and a run keeps its id
// in a sweep that adds loads around it (not seeds: sim.seeds is part of
// the configuration its result records).
func ID(j sweep.Job) string {
	b, err := json.Marshal(j.Config)
	if err != nil { // a config is plain data: it always encodes
		panic(err)
	}
	h := sha256.New()
	h.Write(b)
	fmt.Fprintf(h, "\nseed %d", j.Seed)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// New plans a sweep: every job of sp with its id. build names the program
// (Manifest.Phitsim).
func New(sp sweep.Spec, table bool, build string) (*Manifest, []sweep.Job, error) {
	jobs, err := sp.Jobs()
	if err != nil {
		return nil, nil, err
	}
	m := &Manifest{Format: Format, Engine: result.EngineVersion, Phitsim: build, Table: table, Spec: sp}
	for _, j := range jobs {
		m.Runs = append(m.Runs, runOf(sp, j))
	}
	return m, jobs, nil
}

// runOf is job j of sp as the manifest lists it.
func runOf(sp sweep.Spec, j sweep.Job) Run {
	return Run{ID: ID(j), Series: j.Series, Point: j.Point, Run: j.Run, X: sp.Xs()[j.Point], Seed: j.Seed}
}

// encode is the manifest's JSON text.
func (m *Manifest) encode() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Write puts the manifest in dir (created if needed). A folder that holds
// the same plan is left as it is (existing is true: planning again is
// harmless); one that holds another plan is an error and is not touched.
func Write(dir string, m *Manifest) (existing bool, err error) {
	data, err := m.encode()
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Join(dir, RunsDir), 0o755); err != nil {
		return false, err
	}
	path := filepath.Join(dir, ManifestFile)
	old, err := os.ReadFile(path)
	switch {
	case err == nil && samePlan(old, m):
		return true, nil
	case err == nil:
		return false, fmt.Errorf("%s: the folder holds another plan (its runs are kept): write this one to a new folder", path)
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	return false, WriteFile(dir, ManifestFile, data)
}

// samePlan reports whether the manifest text old is m but for the build
// that wrote it (another build of the same engine plans the same runs).
func samePlan(old []byte, m *Manifest) bool {
	var o Manifest
	if json.Unmarshal(old, &o) != nil {
		return false
	}
	a, b := o, *m
	a.Phitsim, b.Phitsim = "", ""
	x, err1 := a.encode()
	y, err2 := b.encode()
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Open reads a plan folder and expands its spec as this build does. Its
// errors name the file: a plan of another format or engine, a manifest that
// does not decode, configurations that fail validation, runs whose ids do
// not match their configurations (the manifest was edited, or written by a
// build that expands the spec differently).
func Open(dir string) (*Plan, error) {
	path := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no plan here (write one with 'phitsim sweep … -plan %s')", path, dir)
		}
		return nil, err
	}
	var head struct {
		Format int    `json:"format"`
		Engine string `json:"engine"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: not a plan manifest: %w", path, err)
	}
	if head.Format != Format {
		return nil, fmt.Errorf("%s: plan format %d, this phitsim reads format %d: plan the sweep again with this phitsim into a new folder", path, head.Format, Format)
	}
	if head.Engine != result.EngineVersion {
		return nil, fmt.Errorf("%s: planned for engine %q, this phitsim is %q: its runs would not be comparable; plan again into a new folder", path, head.Engine, result.EngineVersion)
	}
	p := &Plan{Dir: dir}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p.Manifest); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if p.Jobs, err = p.Spec.Jobs(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(p.Jobs) != len(p.Runs) {
		return nil, fmt.Errorf("%s: lists %d runs, its spec expands to %d: the manifest was edited or written by another build; plan again", path, len(p.Runs), len(p.Jobs))
	}
	for i, j := range p.Jobs {
		if want := runOf(p.Spec, j); want != p.Runs[i] {
			return nil, fmt.Errorf("%s: run %d is listed as %+v, its spec makes it %+v: the manifest was edited or written by another build; plan again", path, i, p.Runs[i], want)
		}
		p.order = append(p.order, i)
	}
	return p, nil
}

// RunPath is the file of run i once finished; FailedPath its record of
// failure.
func (p *Plan) RunPath(i int) string {
	return filepath.Join(p.Dir, RunsDir, p.Runs[i].ID+runExt)
}

// FailedPath is the file that records run i's failure.
func (p *Plan) FailedPath(i int) string {
	return filepath.Join(p.Dir, RunsDir, p.Runs[i].ID+failedExt)
}

// Slice is the runs of task (0 … tasks−1) of tasks: every tasks-th run from
// the task's index, so that each task gets its share of every series and
// load (the costly high loads are spread, not given to one task). A run
// Extend added belongs to the task its point would have given it (Task).
func (p *Plan) Slice(task, tasks int) ([]int, error) {
	return p.sliceFrom(0, task, tasks)
}

// sliceFrom is Slice among the runs from index from on.
func (p *Plan) sliceFrom(from, task, tasks int) ([]int, error) {
	if tasks < 1 || task < 0 || task >= tasks {
		return nil, fmt.Errorf("-task %d of -tasks %d: want 1 ≤ tasks and 0 ≤ task < tasks", task, tasks)
	}
	var out []int
	for i := from; i < len(p.Runs); i++ {
		if p.Task(i, tasks) == task {
			out = append(out, i)
		}
	}
	return out, nil
}

// Task is the task (of tasks) whose slice holds run i.
func (p *Plan) Task(i, tasks int) int {
	o := i
	if i < len(p.order) {
		o = p.order[i]
	}
	return o % tasks
}

// WriteFile writes data to dir/name atomically: a temporary file in dir,
// synced, then renamed over name, and dir synced, so that name is either
// absent or whole, even if the process is killed or the machine stops.
func WriteFile(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // the rename itself; not every file system supports it
		d.Close()
	}
	return nil
}
