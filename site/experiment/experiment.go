// Package experiment is what the page runs: several configurations (series)
// swept over one variable (the offered load by default), each point repeated
// over seeds. It expands an experiment into jobs with the engine's own
// sweep.Spec, collects the jobs' results into points with sweep.Collect (so
// the numbers and confidence intervals equal the CLI's), encodes the whole
// experiment in a URL fragment, and lists the page's presets. No DOM code.
package experiment

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// LoadParam is the default swept variable.
const LoadParam = "traffic.load"

// MaxPoints bounds the number of values of a sweep.
const MaxPoints = 200

// Experiment is a set of series swept over one variable.
type Experiment struct {
	// Series are full configurations; the first one is the base of the
	// others in URLs. Each series' sim.seeds gives the runs per point.
	Series []config.Config `json:"series"`
	Sweep  Sweep           `json:"sweep"`
}

// Sweep of one numeric parameter over From, From+Step, …, To.
type Sweep struct {
	Param string  `json:"param"`
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Step  float64 `json:"step"`
	// List, when not empty, gives the values instead of from:to:step (the
	// thesis's uneven points, e.g. tq = 0.5, 1, 1.5, 2.25, 4, 8, 15 ns).
	List []float64 `json:"list,omitempty"`
	// Tied parameters move with the swept one (sweep.Tie), e.g. thesis
	// Fig. 4.7's traffic.mixUN = 100 − traffic.mixADV.
	Tied []sweep.Tie `json:"tied,omitempty"`
}

// DefaultSweep is the offered load from 0.1 to 1 by 0.1.
func DefaultSweep() Sweep { return Sweep{Param: LoadParam, From: 0.1, To: 1, Step: 0.1} }

// Values lists the swept values; From > To sweeps downwards. Nothing is
// rounded: a value that is not a whole number for an integer parameter is
// an error (Check words it for the page).
func (s Sweep) Values() ([]float64, error) {
	p, ok := config.Lookup(s.Param)
	if !ok {
		return nil, fmt.Errorf("sweep: unknown parameter %q", s.Param)
	}
	if p.Kind != "int" && p.Kind != "float" && p.Kind != "uint" {
		return nil, fmt.Errorf("sweep: %s is not numeric", s.Param)
	}
	if len(s.List) > 0 {
		if len(s.List) > MaxPoints {
			return nil, fmt.Errorf("sweep: %d points; at most %d", len(s.List), MaxPoints)
		}
		out := make([]float64, 0, len(s.List))
		for _, x := range s.List {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, errors.New("sweep: the values must be finite numbers")
			}
			if p.Kind != "float" && x != math.Trunc(x) {
				return nil, fmt.Errorf("sweep: %s takes whole numbers, not %g", s.Param, x)
			}
			out = append(out, x)
		}
		return out, nil
	}
	for _, x := range []float64{s.From, s.To, s.Step} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, errors.New("sweep: from, to and step must be finite numbers")
		}
	}
	if s.From == s.To {
		return []float64{s.From}, nil
	}
	if s.Step <= 0 {
		return nil, errors.New("sweep: step must be > 0")
	}
	if p.Kind != "float" && (s.From != math.Trunc(s.From) || s.Step != math.Trunc(s.Step)) {
		return nil, fmt.Errorf("sweep: %s takes whole numbers: from and step must be whole", s.Param)
	}
	n := int(math.Floor(math.Abs(s.To-s.From)/s.Step + 1e-9))
	if n+1 > MaxPoints {
		return nil, fmt.Errorf("sweep: %d points; at most %d", n+1, MaxPoints)
	}
	dir := 1.0
	if s.To < s.From {
		dir = -1
	}
	var out []float64
	for i := 0; i <= n; i++ {
		x := s.From + dir*float64(i)*s.Step
		// 0.1+2·0.1 is 0.30000000000000004: keep 12 significant digits
		x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
		out = append(out, x)
	}
	return out, nil
}

// Job is one run of the experiment.
type Job struct {
	Index  int           `json:"index"`
	Series int           `json:"series"`
	Point  int           `json:"point"`
	Run    int           `json:"run"`
	X      float64       `json:"x"` // the swept value
	Config config.Config `json:"config"`
	Seed   uint64        `json:"seed"`
}

// Load is the job's offered load (what the worker is asked to run).
func (j Job) Load() float64 { return j.Config.Traffic.Load }

// Spec is the experiment in the engine's terms: the series with the loads,
// or with Param/Values for another swept parameter (as 'phitsim sweep
// -param' builds it).
func (e *Experiment) Spec() (sweep.Spec, error) {
	vals, err := e.Sweep.Values()
	if err != nil {
		return sweep.Spec{}, err
	}
	return e.spec(vals), nil
}

func (e *Experiment) spec(vals []float64) sweep.Spec {
	sp := sweep.Spec{Series: e.Series, Tied: e.Sweep.Tied}
	if e.Sweep.Param == LoadParam {
		sp.Loads = vals
	} else {
		sp.Param, sp.Values = e.Sweep.Param, vals
	}
	return sp
}

// Jobs expands the experiment with the engine's sweep.Spec.Jobs, in the
// order series, point, seed. It refuses what Check reports, in its words.
func (e *Experiment) Jobs() ([]Job, error) {
	if err := Problems(e.Check()); err != nil {
		return nil, err
	}
	sp, err := e.Spec()
	if err != nil {
		return nil, err
	}
	sj, err := sp.Jobs()
	if err != nil {
		return nil, err
	}
	xs := sp.Xs()
	jobs := make([]Job, len(sj))
	for i, j := range sj {
		jobs[i] = Job{Index: i, Series: j.Series, Point: j.Point, Run: j.Run, X: xs[j.Point], Config: j.Config, Seed: j.Seed}
	}
	return jobs, nil
}

// SeriesName is the legend of series i: its name, or its routing.
func (e *Experiment) SeriesName(i int) string {
	if i < 0 || i >= len(e.Series) {
		return ""
	}
	if n := e.Series[i].Name; n != "" {
		return n
	}
	return fmt.Sprintf("%d: %s %s", i+1, e.Series[i].Routing.Name, e.Series[i].Traffic.Pattern)
}

// WatchSeries is the series whose first run the page's live view of the
// network draws unless the reader picks another: the first series running
// RECN, whose snapshots carry the SAQs each switch holds (the congestion
// tree of the RECN paper, Duato et al., §3.4, which the drawing colours
// frame by frame), else the first series.
func (e *Experiment) WatchSeries() int {
	for i := range e.Series {
		if e.Series[i].Congestion.Scheme == "recn" {
			return i
		}
	}
	return 0
}

// Validate lists the problems of every series (prefixing paths with the
// series number when there are several) and of the sweep.
func (e *Experiment) Validate() (perSeries []config.Errors, sweepErr error) {
	perSeries = make([]config.Errors, len(e.Series))
	for i := range e.Series {
		perSeries[i] = e.Series[i].Validate()
	}
	_, sweepErr = e.Sweep.Values()
	return
}

// Clone copies the experiment deeply enough for independent edits.
func (e Experiment) Clone() Experiment {
	e.Series = append([]config.Config(nil), e.Series...)
	e.Sweep.List = append([]float64(nil), e.Sweep.List...)
	e.Sweep.Tied = append([]sweep.Tie(nil), e.Sweep.Tied...)
	return e
}
