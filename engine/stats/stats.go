// Package stats computes the summary statistics of results: fairness indices
// over routers and means with confidence intervals over seeds.
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"phitsim/engine/result"
)

// Fairness of a per-router injection count vector (thesis §1.5.1): min, max,
// Max/Min ("Unbalance Quotient"), CoV = population σ/μ ("Unfairness Quotient
// (stdev/avg)") and Jain's index (Σx)²/(n·Σx²).
func Fairness(x []int64) result.Fairness {
	f := result.Fairness{PerRouter: x}
	if len(x) == 0 {
		return f
	}
	f.Min, f.Max = x[0], x[0]
	var sum, sq float64
	for i, v := range x {
		if v < f.Min {
			f.Min, f.MinRouter = v, i
		}
		if v > f.Max {
			f.Max, f.MaxRouter = v, i
		}
		if v == 0 {
			f.Starved++
		}
		sum += float64(v)
		sq += float64(v) * float64(v)
	}
	n := float64(len(x))
	if f.Min > 0 {
		f.MaxMin = float64(f.Max) / float64(f.Min)
	}
	if sum > 0 {
		mean := sum / n
		f.CoV = math.Sqrt(math.Max(0, sq/n-mean*mean)) / mean
		f.Jain = sum * sum / (n * sq)
	}
	return f
}

// Estimate is a mean over runs with the half-width of its 95% confidence
// interval (Student's t; 0 with a single run).
type Estimate struct {
	Mean float64 `json:"mean" msgpack:"mean"`
	CI95 float64 `json:"ci95" msgpack:"ci95"`
	N    int     `json:"n" msgpack:"n"`
}

// Estimate95 averages xs.
func Estimate95(xs []float64) Estimate {
	e := Estimate{N: len(xs)}
	if len(xs) == 0 {
		return e
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	e.Mean = sum / float64(len(xs))
	if len(xs) < 2 {
		return e
	}
	var ss float64
	for _, x := range xs {
		ss += (x - e.Mean) * (x - e.Mean)
	}
	sd := math.Sqrt(ss / float64(len(xs)-1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(0.975)
	e.CI95 = t * sd / math.Sqrt(float64(len(xs)))
	return e
}
