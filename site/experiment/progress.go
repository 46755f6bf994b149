package experiment

import (
	"phitsim/engine/config"
	"phitsim/engine/routing"
	"phitsim/site/facts"
)

// Tracker estimates the progress of a whole sweep, weighting each job by
// its estimated cost (Cost), and its remaining time from the rate so far.
type Tracker struct {
	weight []float64
	frac   []float64
	total  float64
	// Begin's time and fraction: the time before the first progress
	// (workers starting, WebAssembly compiling) is no measure of the rate
	t0, f0 float64
	begun  bool
}

// Begin starts the rate's clock at elapsed seconds, with the fraction done
// then; called when the first progress arrives (later calls do nothing).
// Without it the rate counts from 0.
func (t *Tracker) Begin(elapsed float64) {
	if !t.begun {
		t.begun, t.t0, t.f0 = true, elapsed, t.Fraction()
	}
}

// NewTracker for the jobs of r.
func NewTracker(jobs []Job) *Tracker {
	t := &Tracker{weight: make([]float64, len(jobs)), frac: make([]float64, len(jobs))}
	for i := range jobs {
		w := Cost(&jobs[i].Config)
		if w <= 0 {
			w = 1
		}
		t.weight[i] = w
		t.total += w
	}
	return t
}

// Add jobs appended to the results (Results.MoreSeeds: extra seeds for
// sim.precision), not started: their cost joins the total.
func (t *Tracker) Add(jobs []Job) {
	for i := range jobs {
		w := Cost(&jobs[i].Config)
		if w <= 0 {
			w = 1
		}
		t.weight, t.frac = append(t.weight, w), append(t.frac, 0)
		t.total += w
	}
}

// Set the fraction done of job i (1 when finished or failed).
func (t *Tracker) Set(i int, frac float64) {
	if i >= 0 && i < len(t.frac) {
		t.frac[i] = min(max(frac, 0), 1)
	}
}

// Fraction of the whole work done.
func (t *Tracker) Fraction() float64 {
	if t.total == 0 {
		return 0
	}
	var d float64
	for i, f := range t.frac {
		d += f * t.weight[i]
	}
	return d / t.total
}

// Total is the cost of all the jobs (Cost units).
func (t *Tracker) Total() float64 { return t.total }

// ETA in seconds after elapsed seconds, −1 when unknown: the work left at
// the rate since Begin.
func (t *Tracker) ETA(elapsed float64) float64 {
	f := t.Fraction()
	if f <= t.f0 || elapsed <= t.t0 {
		return -1
	}
	return (elapsed - t.t0) * (1 - f) / (f - t.f0)
}

// Work is the size of the whole experiment in node-cycles (0 if it does not
// expand into jobs).
func (e *Experiment) Work() float64 {
	jobs, err := e.Jobs()
	if err != nil {
		return 0
	}
	var w float64
	for i := range jobs {
		w += facts.Of(&jobs[i].Config).Work
	}
	return w
}

// CostOf is the estimated engine time of jobs, in Cost units.
func CostOf(jobs []Job) float64 {
	var w float64
	for i := range jobs {
		w += Cost(&jobs[i].Config)
	}
	return w
}

// idleCost is the engine's time per node-cycle with no traffic, relative
// to one phit per node and cycle crossing one global hop.
const idleCost = 0.05

// Cost estimates the engine time of one run of c, in node-cycles weighted
// by the traffic they carry: the engine's time per cycle grows with the
// phits in flight, so with the accepted load and the hops each packet makes.
// Measured natively on the h=2 network (3,000 + 5,000 cycles), MIN takes
// 7 ms at load 0.1 and 107 ms at 1; VAL 15 ms at 0.1 and 106 ms from its
// saturation (0.44) up: node-cycles alone put those runs 15 times apart,
// this estimate within a factor 2.5. The accepted load is the offered load
// capped by the analytic bound (facts.Bound); a Graph500 job's load is its
// own, counted as full.
func Cost(c *config.Config) float64 {
	f := facts.Of(c)
	if c.Graph500() {
		return f.Work * (idleCost + 1)
	}
	load := min(max(c.Traffic.Load, 0), 1)
	if f.Bound > 0 {
		load = min(load, f.Bound)
	}
	hops := 1.5 // adaptive routings: minimal when they can, Valiant when not
	switch routing.Get(c.Routing.Name).Paths {
	case routing.MinimalOnly:
		hops = 1
	case routing.ValiantOnly:
		hops = 2
	}
	return f.Work * (idleCost + load*hops)
}
