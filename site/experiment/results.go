package experiment

import (
	"bytes"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// Point is the aggregate of one (series, swept value): the engine's
// sweep.Aggregate (means and 95% CIs over the seeds).
type Point struct {
	Series int             `json:"series"`
	Index  int             `json:"point"`
	X      float64         `json:"x"`
	Agg    sweep.Aggregate `json:"aggregate"`
}

// RunError is a job that failed.
type RunError struct {
	Job  int    `json:"job"`
	Kind string `json:"kind"`
	Msg  string `json:"msg"`
}

// Results of a run of an experiment: finished runs indexed like the jobs.
type Results struct {
	Exp    Experiment
	Values []float64
	Jobs   []Job
	Runs   []*result.Result // nil: not finished
	Errors map[int]RunError
}

// NewResults prepares the results of an experiment.
func NewResults(e Experiment) (*Results, error) {
	e = e.Clone()
	jobs, err := e.Jobs()
	if err != nil {
		return nil, err
	}
	vals, _ := e.Sweep.Values()
	return &Results{Exp: e, Values: vals, Jobs: jobs, Runs: make([]*result.Result, len(jobs)),
		Errors: map[int]RunError{}}, nil
}

// Done counts the finished runs.
func (r *Results) Done() int {
	n := 0
	for _, x := range r.Runs {
		if x != nil {
			n++
		}
	}
	return n
}

// sweepJobs are the jobs in the engine's terms, in the engine's order
// (order), with their runs, for sweep.Collect.
func (r *Results) sweepJobs() ([]sweep.Job, []*result.Result) {
	order := r.order()
	out := make([]sweep.Job, len(order))
	runs := make([]*result.Result, len(order))
	for k, i := range order {
		j := r.Jobs[i]
		out[k], runs[k] = sweep.Job{Series: j.Series, Point: j.Point, Run: j.Run, Config: j.Config, Seed: j.Seed}, r.Runs[i]
	}
	return out, runs
}

// Outcome is the engine's sweep.Collect over the finished runs.
func (r *Results) Outcome() *sweep.Outcome {
	spec, _ := r.Exp.Spec()
	jobs, runs := r.sweepJobs()
	return sweep.Collect(spec, jobs, runs)
}

// Points aggregates the finished runs, in series then swept-value order.
func (r *Results) Points() []Point {
	out := r.Outcome()
	// Collect leaves out points without runs: find each aggregate's point.
	var pts []Point
	k := 0
	for _, idx := range r.byPoint() {
		has := false
		for _, i := range idx {
			has = has || r.Runs[i] != nil
		}
		if has {
			j := r.Jobs[idx[0]]
			pts = append(pts, Point{Series: j.Series, Index: j.Point, X: j.X, Agg: out.Points[k]})
			k++
		}
	}
	return pts
}

// RunsAt lists the finished runs of one (series, point).
func (r *Results) RunsAt(series, point int) []*result.Result {
	var out []*result.Result
	for i, j := range r.Jobs {
		if j.Series == series && j.Point == point && r.Runs[i] != nil {
			out = append(out, r.Runs[i])
		}
	}
	return out
}

// DeadlockRun is a finished run that a deadlock stopped: its job and the
// engine's report (result.Deadlock: when, why, the stuck buffers). Its
// metrics are those up to the deadlock, and its point counts it
// (sweep.Aggregate.Deadlocked), as in 'phitsim sweep'.
type DeadlockRun struct {
	Job      int
	Series   int
	Point    int
	X        float64
	Seed     uint64
	Deadlock *result.Deadlock
}

// Deadlocks lists the finished runs that deadlocked, in job order.
func (r *Results) Deadlocks() []DeadlockRun {
	var out []DeadlockRun
	for i, j := range r.Jobs {
		if x := r.Runs[i]; x != nil && x.Deadlock != nil {
			out = append(out, DeadlockRun{Job: i, Series: j.Series, Point: j.Point, X: j.X, Seed: j.Seed, Deadlock: x.Deadlock})
		}
	}
	return out
}

// CSV of the points: sweep.WriteCSV (the CLI's columns; parameter sweeps
// add param and x, a sweep with a deadlocked run deadlocked_runs).
func (r *Results) CSV() ([]byte, error) {
	pts := r.Points()
	aggs := make([]sweep.Aggregate, len(pts))
	for i, p := range pts {
		aggs[i] = p.Agg
		if aggs[i].Name == "" {
			aggs[i].Name = r.Exp.SeriesName(p.Series)
		}
	}
	var buf bytes.Buffer
	if err := sweep.WriteCSV(&buf, aggs); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Export is the JSON document of a run of the page: the link that
// reproduces it, the experiment, the points and every finished run (a run
// a deadlock stopped has its report in runs[].deadlock, and its point
// counts it in aggregate.deadlocked, as in the CLI's JSON).
type Export struct {
	Engine  string           `json:"engine"`
	Link    string           `json:"link"`
	Exp     Experiment       `json:"experiment"`
	Values  []float64        `json:"values"`
	Points  []Point          `json:"points"`
	Runs    []*result.Result `json:"runs"`
	Jobs    []JobRef         `json:"jobs"`
	Errors  []RunError       `json:"errors,omitempty"`
	Version int              `json:"configVersion"`
}

// JobRef names the run of each job (index into Runs, −1 = not finished).
type JobRef struct {
	Series int     `json:"series"`
	Point  int     `json:"point"`
	Run    int     `json:"run"`
	X      float64 `json:"x"`
	Seed   uint64  `json:"seed"`
	Result int     `json:"result"`
}

// JSON renders the Export document. It does not fail on a non-finite
// number in a run (see marshalFinite): the finished runs are never lost.
func (r *Results) JSON() ([]byte, error) {
	e := Export{Engine: result.EngineVersion, Link: Encode(Link{Exp: r.Exp}), Exp: r.Exp,
		Values: r.Values, Points: r.Points(), Version: config.Version, Runs: []*result.Result{}}
	for i, j := range r.Jobs {
		ref := JobRef{Series: j.Series, Point: j.Point, Run: j.Run, X: j.X, Seed: j.Seed, Result: -1}
		if r.Runs[i] != nil {
			ref.Result = len(e.Runs)
			e.Runs = append(e.Runs, r.Runs[i])
		}
		e.Jobs = append(e.Jobs, ref)
	}
	for i := range r.Jobs {
		if er, ok := r.Errors[i]; ok {
			e.Errors = append(e.Errors, er)
		}
	}
	return marshalFinite(e)
}
