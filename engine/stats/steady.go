package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"phitsim/engine/result"
)

// TailPs are the latency percentiles a result reports.
var TailPs = []float64{0.5, 0.9, 0.99, 0.999}

// Percentiles of a latency histogram (hist[i]: packets of latency i; the
// bin histMax−1 holds every longer one): for each p the nearest rank of a
// sort, the ⌈p·n⌉-th smallest latency, flagged Above when it falls in the
// last bin (then only a lower bound is known).
func Percentiles(hist []int64, histMax int, ps []float64) []result.Percentile {
	var n int64
	for _, c := range hist {
		n += c
	}
	if n == 0 {
		return nil
	}
	out := make([]result.Percentile, len(ps))
	for j, p := range ps {
		// the tolerance keeps 0.9·10 at rank 9 despite rounding
		k := max(int64(math.Ceil(p*float64(n)-1e-9)), 1)
		var cum int64
		for i, c := range hist {
			cum += c
			if cum >= k {
				out[j] = result.Percentile{P: p, Cycles: int64(i), Above: i >= histMax-1}
				break
			}
		}
	}
	return out
}

// MSER5 is the truncation point of the MSER-5 heuristic (White 1997; White,
// Cobb and Spratt 2000) for the series x: x is averaged in batches of 5
// (a remainder at the end is dropped), and d batches are truncated where
// the marginal standard error of the rest, Σ(z−z̄_d)²/(b−d)², is smallest.
// d ranges over the first half of the batches (the statistic is erratic
// on the last few); it returns the truncation in observations of x (5·d)
// and whether the minimum lies inside that half, not on its edge, without
// which the series is too short to tell (Franklin and White, WSC 2008).
func MSER5(x []float64) (int, bool) {
	const m = 5
	b := len(x) / m
	if b < 4 {
		return 0, false
	}
	z := make([]float64, b)
	for i := range z {
		for _, v := range x[i*m : i*m+m] {
			z[i] += v / m
		}
	}
	// suffix sums give every d in one pass; d searches the first half
	// only (the statistic is erratic on the last few batches), and a
	// minimum on its edge means it is still falling: no steady part yet
	var s, ss float64
	half := b / 2
	best, bestD := math.Inf(1), 0
	for d := b - 1; d >= 0; d-- {
		s += z[d]
		ss += z[d] * z[d]
		if d > half {
			continue
		}
		k := float64(b - d)
		if v := max(ss-s*s/k, 0) / (k * k); v <= best {
			best, bestD = v, d
		}
	}
	return bestD * m, bestD < half
}

// BatchMeans is the mean of x (weighted by w, nil: equally) with the
// half-width of its 95% confidence interval by non-overlapping batch means
// (Law, Simulation Modeling and Analysis, 5th ed., §9.5.3): the batch size
// doubles from one observation until the lag-1 autocorrelation of the batch
// means is below 0.05 + 1/√k for k batches (its estimate's noise allowed
// for), at most 0.2, with at least 10 batches (Independent), or no
// larger size leaves that many (then the last size that did, Independent
// false). Observations that do not fill a batch are dropped from the start
// (the oldest, nearest the transient). means holds the batch means.
func BatchMeans(x, w []float64) (iv result.Interval, means []float64) {
	const minBatches = 10
	n := len(x)
	for m := 1; n/m >= minBatches; m *= 2 {
		means = batch(x, w, m)
		if len(means) < minBatches {
			// batches with no weight (no packet) drop out
			break
		}
		iv = meanCI(means)
		iv.BatchSize, iv.Lag1 = m, lag1(means)
		// 0.05 + 1/√k: the estimate's own noise allowed for, at most 0.2
		if iv.Lag1 < min(0.2, 0.05+1/math.Sqrt(float64(len(means)))) {
			iv.Independent = true
			break
		}
		if n/(2*m) < minBatches {
			break
		}
	}
	if iv.Batches > 0 {
		iv.Mean = weightedMean(x[n%iv.BatchSize:], weightsFrom(w, n%iv.BatchSize))
	}
	return iv, means
}

func weightsFrom(w []float64, from int) []float64 {
	if w == nil {
		return nil
	}
	return w[from:]
}

func weightedMean(x, w []float64) float64 {
	var s, sw float64
	for i, v := range x {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		s += wi * v
		sw += wi
	}
	if sw == 0 {
		return 0
	}
	return s / sw
}

// batch: the means of batches of m observations (x weighted by w), the
// first n mod m dropped; a batch of zero weight has no mean and is left out.
func batch(x, w []float64, m int) []float64 {
	from := len(x) % m
	out := make([]float64, 0, len(x)/m)
	for i := from; i+m <= len(x); i += m {
		var s, sw float64
		for j := i; j < i+m; j++ {
			wj := 1.0
			if w != nil {
				wj = w[j]
			}
			s += wj * x[j]
			sw += wj
		}
		if sw > 0 {
			out = append(out, s/sw)
		}
	}
	return out
}

// meanCI: the Student-t 95% interval of the mean of k independent values.
func meanCI(y []float64) result.Interval {
	e := Estimate95(y)
	return result.Interval{Mean: e.Mean, CI95: e.CI95, Batches: e.N}
}

// lag1 is the lag-1 autocorrelation of y.
func lag1(y []float64) float64 {
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	var num, den, sq float64
	for i, v := range y {
		den += (v - mean) * (v - mean)
		sq += v * v
		if i > 0 {
			num += (v - mean) * (y[i-1] - mean)
		}
	}
	if den <= 1e-24*sq {
		return 0 // a constant series, up to the rounding of its mean
	}
	return num / den
}

// Slope of the least-squares line through (t_i, y_i) with its standard
// error (independent residuals: give it batch means).
func Slope(t, y []float64) (slope, se float64) {
	k := float64(len(y))
	if len(y) < 3 {
		return 0, math.Inf(1)
	}
	var tm, ym float64
	for i := range y {
		tm += t[i] / k
		ym += y[i] / k
	}
	var stt, sty float64
	for i := range y {
		stt += (t[i] - tm) * (t[i] - tm)
		sty += (t[i] - tm) * (y[i] - ym)
	}
	if stt == 0 {
		return 0, math.Inf(1)
	}
	slope = sty / stt
	var ssr float64
	for i := range y {
		r := y[i] - ym - slope*(t[i]-tm)
		ssr += r * r
	}
	return slope, math.Sqrt(ssr / (k - 2) / stt)
}

// tQuantile is Student's t quantile q with df degrees of freedom.
func tQuantile(q float64, df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(max(df, 1))}.Quantile(q)
}
