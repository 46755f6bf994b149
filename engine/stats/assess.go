package stats

import (
	"fmt"
	"math"

	"phitsim/engine/result"
)

// Thresholds of the trend test: a slope counts when it is significant
// (one-sided, 99.9%) and matters over the window: latency rising by 10% of
// its mean, or the queued phits growing by 1% of the applied load.
const (
	trendQ          = 0.999
	latencyRiseFrac = 0.10
	backlogFrac     = 0.01
)

// Assess computes r's Quality from the rest of its document (engine/
// METHODS.md): the measured window (kept from r.Quality when the run set it:
// sim.autoWarmup, sim.precision), the latency percentiles, the link summary,
// MSER-5's end of the transient, the batch-means intervals of latency and
// accepted load, the trend of latency and of the queued packets, and the
// verdict.
func Assess(r *result.Result) *result.Quality {
	c := r.Config.Sim
	q := &result.Quality{From: int64(c.Warmup), Cycles: int64(c.Cycles), Precision: c.Precision}
	if p := r.Quality; p != nil {
		q.From, q.Cycles = p.From, p.Cycles
		q.Warmup.Auto, q.Warmup.Capped = p.Warmup.Auto, p.Warmup.Capped
	}
	if r.Graph500 != nil {
		q.From = 0 // a job is measured from its start
	}
	q.Cycles = max(min(q.Cycles, r.SimCycles-q.From), 0)
	q.Percentiles = Percentiles(r.LatencyHist, c.HistMax, TailPs)
	q.Links = linkSummary(r)

	// the time series: whole intervals only
	iv := int64(max(c.Interval, 1))
	var lat, acc, dels, backlog []float64 // the window's
	var allLat, allAcc []float64          // the run's
	for b, smp := range r.Series {
		start := int64(b) * iv
		if smp.Cycle != start+iv {
			continue
		}
		allLat, allAcc = append(allLat, smp.Latency), append(allAcc, smp.Accepted)
		if start >= q.From && smp.Cycle <= q.From+q.Cycles {
			lat, acc = append(lat, smp.Latency), append(acc, smp.Accepted)
			dels = append(dels, smp.Accepted) // ∝ packets delivered: the latency's weights
			backlog = append(backlog, smp.Applied-smp.Accepted)
		}
	}

	dl, okL := MSER5(allLat)
	da, okA := MSER5(allAcc)
	q.Warmup.Latency, q.Warmup.Accepted = int64(dl)*iv, int64(da)*iv
	q.Warmup.End = max(q.Warmup.Latency, q.Warmup.Accepted)
	q.Warmup.Detected = okL && okA
	q.Warmup.Short = q.Warmup.Detected && q.Warmup.End > q.From

	var latMeans []float64
	q.Latency, latMeans = BatchMeans(lat, dels)
	q.Accepted, _ = BatchMeans(acc, nil)
	bl, _ := BatchMeans(backlog, nil)
	window := float64(q.Cycles)
	if q.Latency.Batches >= 3 {
		m := float64(q.Latency.BatchSize) * float64(iv)
		ts := make([]float64, len(latMeans))
		for i := range ts {
			ts[i] = (float64(i) + 0.5) * m
		}
		s, se := Slope(ts, latMeans)
		tq := tQuantile(trendQ, len(latMeans)-2)
		q.Trend.LatencySlope, q.Trend.LatencySE, q.Trend.LatencyGrowth = 1000*s, 1000*se, s*window
		q.Trend.LatencyRising = s > tq*se && s*window > latencyRiseFrac*q.Latency.Mean
	}
	if bl.Batches >= 2 {
		se := bl.CI95 / tQuantile(0.975, bl.Batches-1)
		tq := tQuantile(trendQ, bl.Batches-1)
		q.Trend.BacklogSlope, q.Trend.BacklogSE, q.Trend.BacklogGrowth = 1000*bl.Mean, 1000*se, bl.Mean*window
		q.Trend.BacklogGrowing = bl.Mean > tq*se && bl.Mean > backlogFrac*r.Applied
	}
	q.Verdict, q.Reason = verdict(r, q)
	return q
}

// verdict: saturated before unstable before too short before steady.
func verdict(r *result.Result, q *result.Quality) (string, string) {
	t := q.Trend
	switch {
	case r.Deadlock != nil:
		return result.TooShort, "the run stopped on a deadlock at cycle " + fmt.Sprint(r.Deadlock.Cycle)
	case r.Saturated:
		return result.Saturated, r.SatReason
	case t.BacklogGrowing:
		return result.Unstable, fmt.Sprintf("queued packets grow by %.3g ± %.2g phits/node per 1000 cycles", t.BacklogSlope, 2*t.BacklogSE)
	case t.LatencyRising:
		return result.Unstable, fmt.Sprintf("latency rises by %.3g ± %.2g cycles per 1000 cycles", t.LatencySlope, 2*t.LatencySE)
	case q.Latency.Batches == 0 || q.Accepted.Batches == 0:
		return result.TooShort, "fewer than 10 time-series intervals in the window: lower sim.interval or run longer"
	case !q.Latency.Independent || !q.Accepted.Independent:
		return result.TooShort, "the window's batches stay correlated (lag-1 autocorrelation ≥ 0.2): run longer"
	case q.Precision > 0 && (q.Latency.Relative() > q.Precision || q.Accepted.Relative() > q.Precision):
		return result.TooShort, fmt.Sprintf("precision ±%.3g%% of latency, ±%.3g%% of accepted load: not the ±%.3g%% asked for",
			100*q.Latency.Relative(), 100*q.Accepted.Relative(), 100*q.Precision)
	case !q.Warmup.Detected:
		// a warning only: on a stationary series MSER-5 now and then lands
		// on its edge by chance; a transient still under way is a trend
		return result.Steady, "warning: MSER-5 finds no end of the transient in the run's first half"
	case q.Warmup.Short:
		return result.Steady, fmt.Sprintf("warning: the transient ends at cycle %d (MSER-5), after the warm-up's %d", q.Warmup.End, q.From)
	}
	return result.Steady, ""
}

// linkSummary: the transit links' mean (weighted by their numbers) and the
// busiest class.
func linkSummary(r *result.Result) result.LinkSummary {
	var ls result.LinkSummary
	var sum, n float64
	add := func(class string, util, links float64) {
		if links <= 0 {
			return
		}
		sum += util * links
		n += links
		if util > ls.Max || ls.MaxClass == "" {
			ls.Max, ls.MaxClass = util, class
		}
	}
	if len(r.Classes) > 0 {
		for _, c := range r.Classes[1:] { // the injection class is the nodes'
			add(c.Class, c.Utilisation, float64(c.Links))
		}
	} else {
		// the Dragonfly: a−1 local and h global links per router
		t := r.Config.Topology
		add("local", r.Links.Local, float64(t.A-1))
		add("global", r.Links.Global, float64(t.H))
	}
	if n > 0 {
		ls.Mean = sum / n
	}
	if l := r.BusiestLink; l != nil {
		c := *l
		ls.Link = &c
	}
	if math.IsNaN(ls.Mean) {
		ls.Mean = 0
	}
	return ls
}

// severity orders the verdicts of a point's runs: the worst one is the point's.
var severity = map[string]int{result.Steady: 0, result.TooShort: 1, result.Unstable: 2, result.Saturated: 3}

// AssessPoint is the quality of a sweep point from its runs' (each assessed
// by Assess if it was not).
func AssessPoint(runs []*result.Result) *result.PointQuality {
	p := &result.PointQuality{}
	if len(runs) == 0 {
		return p
	}
	var hist []int64
	var latIv, accIv []result.Interval
	worst := -1
	prec := runs[0].Config.Sim.Precision
	for _, r := range runs {
		if r.Quality == nil || r.Quality.Verdict == "" {
			r.Quality = Assess(r)
		}
		q := r.Quality
		for i, v := range result.Verdicts {
			if v == q.Verdict {
				p.Verdicts[i]++
			}
		}
		// with sim.precision the point, not the run, must meet it: a run
		// short of it alone counts as steady here
		v, reason := q.Verdict, q.Reason
		if prec > 0 && precisionOnly(r, q) {
			v, reason = result.Steady, ""
		}
		if s := severity[v]; s > worst {
			worst, p.Verdict, p.Reason = s, v, reason
		}
		for i, c := range r.LatencyHist {
			if i >= len(hist) {
				hist = append(hist, make([]int64, i+1-len(hist))...)
			}
			hist[i] += c
		}
		p.Links.Mean += q.Links.Mean / float64(len(runs))
		p.Links.Max += q.Links.Max / float64(len(runs))
		p.Links.MaxClass = q.Links.MaxClass
		if l := q.Links.Link; l != nil && (p.Links.Link == nil || l.Utilisation > p.Links.Link.Utilisation) {
			c := *l
			p.Links.Link = &c
		}
		latIv, accIv = append(latIv, q.Latency), append(accIv, q.Accepted)
		if q.Warmup.Detected {
			p.WarmupEnd = max(p.WarmupEnd, q.Warmup.End)
		}
		p.WarmupShort = p.WarmupShort || q.Warmup.Short
	}
	p.Percentiles = Percentiles(hist, runs[0].Config.Sim.HistMax, TailPs)
	p.Latency, p.Accepted = combine(latIv), combine(accIv)
	if prec > 0 {
		p.Precision = prec
		l, a := p.Latency.Relative(), p.Accepted.Relative()
		if p.Verdict == result.Steady && (l > prec || a > prec) {
			p.Verdict, p.PrecisionShort = result.TooShort, true
			p.Reason = fmt.Sprintf("precision over %d runs combined ±%.3g%% of latency, ±%.3g%% of accepted load: not the ±%.3g%% asked for (sim.maxSeeds caps the runs)",
				len(runs), 100*l, 100*a, 100*prec)
		}
	}
	return p
}

// precisionOnly: q is too short only because its own intervals miss
// sim.precision (verdict's order: no deadlock, not saturated or unstable,
// batches formed and independent).
func precisionOnly(r *result.Result, q *result.Quality) bool {
	return q.Verdict == result.TooShort && r.Deadlock == nil && q.Precision > 0 &&
		q.Latency.Batches > 0 && q.Accepted.Batches > 0 && q.Latency.Independent && q.Accepted.Independent
}

// SeedsFor is how many runs a point whose combined intervals miss
// sim.precision (PointQuality.PrecisionShort) needs, from its n runs: the
// half-width shrinks as 1/√runs, so n·(half-width ÷ target)² of the wider
// interval, at least n+1 and at most limit.
func SeedsFor(p *result.PointQuality, n, limit int) int {
	if !p.PrecisionShort || p.Precision <= 0 {
		return n
	}
	r := max(p.Latency.Relative(), p.Accepted.Relative()) / p.Precision
	want := int(math.Ceil(float64(n) * r * r))
	return min(max(want, n+1), limit)
}

// combine: independent runs' batch-means intervals as one: the mean of the
// means, whose variance is Σ se_i²/n², on Σ(k_i − 1) degrees of freedom
// (no interval when a run has none).
func combine(ivs []result.Interval) result.Interval {
	out := result.Interval{Independent: true}
	n := float64(len(ivs))
	var v float64
	df := 0
	for _, iv := range ivs {
		if iv.Batches < 2 {
			return result.Interval{}
		}
		se := iv.CI95 / tQuantile(0.975, iv.Batches-1)
		out.Mean += iv.Mean / n
		v += se * se / (n * n)
		df += iv.Batches - 1
		out.Batches += iv.Batches
		out.BatchSize = max(out.BatchSize, iv.BatchSize)
		out.Lag1 = max(out.Lag1, iv.Lag1)
		out.Independent = out.Independent && iv.Independent
	}
	out.CI95 = tQuantile(0.975, df) * math.Sqrt(v)
	return out
}
