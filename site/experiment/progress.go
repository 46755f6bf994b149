package experiment

import "phitsim/site/facts"

// Tracker estimates the progress of a whole sweep, weighting each job by its
// size (nodes × cycles), and its remaining time from the rate so far.
type Tracker struct {
	weight []float64
	frac   []float64
	total  float64
}

// NewTracker for the jobs of r.
func NewTracker(jobs []Job) *Tracker {
	t := &Tracker{weight: make([]float64, len(jobs)), frac: make([]float64, len(jobs))}
	for i := range jobs {
		w := facts.Of(&jobs[i].Config).Work
		if w <= 0 {
			w = 1
		}
		t.weight[i] = w
		t.total += w
	}
	return t
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

// ETA in seconds after elapsed seconds, −1 when unknown.
func (t *Tracker) ETA(elapsed float64) float64 {
	f := t.Fraction()
	if f <= 0 || elapsed <= 0 {
		return -1
	}
	return elapsed * (1 - f) / f
}

// Work is the size of the whole experiment in node-cycles (0 if it does not
// expand into jobs).
func (e *Experiment) Work() float64 {
	jobs, err := e.Jobs()
	if err != nil {
		return 0
	}
	return WorkOf(jobs)
}

// WorkOf is the size of jobs in node-cycles.
func WorkOf(jobs []Job) float64 {
	var w float64
	for i := range jobs {
		w += facts.Of(&jobs[i].Config).Work
	}
	return w
}
