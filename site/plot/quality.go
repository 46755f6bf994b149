package plot

import (
	"fmt"
	"strconv"
	"strings"

	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// QualityRow is one sweep point in the page's quality panel, as text with
// the units in the column heads (engine/METHODS.md): the verdict with its
// evidence, the warm-up MSER-5 found against the configured one, the 95%
// intervals of latency and accepted load (batch means within the runs,
// combined over the seeds), the tail latency, fairness and link use.
type QualityRow struct {
	Series, X string
	Verdict   string // result.Steady, …
	Runs      string // the runs, by verdict when they differ
	// Evidence: the verdict's reason and the trend of the worst run (the
	// queued phits and the latency per 1,000 cycles, ± 2 standard errors)
	Evidence string
	// Warmup: where MSER-5 put the end of the transient, beside the
	// configured warm-up; WarmupShort: some run's window began before it
	Warmup      string
	WarmupShort bool
	Latency     string // mean ± half-width, cycles
	Accepted    string // mean ± half-width, phits/(node·cycle)
	// P50 … P999: latency percentiles, cycles (">N": in the histogram's
	// overflow bin, at least N)
	P50, P90, P99, P999 string
	Jain, MaxMin, CoV   string
	LinkMean, LinkMax   string // phits/cycle per link; max with its class
	Busiest             string // router, port, class: utilisation
}

// QualityRows is a row per finished point, in series then swept-value
// order.
func QualityRows(r *experiment.Results) []QualityRow {
	if r == nil {
		return nil
	}
	names := seriesNames(r)
	var rows []QualityRow
	for _, p := range r.Points() {
		q := p.Agg.Quality
		if q == nil {
			continue
		}
		row := QualityRow{Series: names[p.Series], X: strconv.FormatFloat(p.X, 'g', -1, 64), Verdict: q.Verdict,
			Runs: strconv.Itoa(p.Agg.Runs), Evidence: q.Reason}
		var parts []string
		for i, n := range q.Verdicts {
			if n > 0 && n < p.Agg.Runs {
				parts = append(parts, fmt.Sprintf("%d %s", n, result.Verdicts[i]))
			}
		}
		if len(parts) > 0 {
			row.Runs += " (" + strings.Join(parts, ", ") + ")"
		}
		runs := r.RunsAt(p.Series, p.Index)
		if w := worstRun(runs, q.Verdict); w != nil {
			t := w.Quality.Trend
			ev := fmt.Sprintf("per 1000 cycles: queue growth %+.3g ± %.2g phits/node, latency slope %+.3g ± %.2g cycles",
				t.BacklogSlope, 2*t.BacklogSE, t.LatencySlope, 2*t.LatencySE)
			if row.Evidence == "" {
				row.Evidence = ev
			} else {
				row.Evidence += "; " + ev
			}
		}
		row.Warmup, row.WarmupShort = warmupText(runs, q), q.WarmupShort
		row.Latency = intervalText(q.Latency, 'f', 1)
		row.Accepted = intervalText(q.Accepted, 'f', 4)
		pct := map[float64]*string{0.5: &row.P50, 0.9: &row.P90, 0.99: &row.P99, 0.999: &row.P999}
		for _, x := range q.Percentiles {
			if s := pct[x.P]; s != nil {
				*s = strconv.FormatInt(x.Cycles, 10)
				if x.Above {
					*s = ">" + *s
				}
			}
		}
		for _, s := range pct {
			if *s == "" {
				*s = "—"
			}
		}
		row.Jain = fmt.Sprintf("%.4f", p.Agg.Jain.Mean)
		row.MaxMin = fmt.Sprintf("%.3f", p.Agg.MaxMin.Mean)
		if p.Agg.Starved {
			row.MaxMin += " (a router starved in some run)"
		}
		row.CoV = fmt.Sprintf("%.4f", p.Agg.CoV.Mean)
		row.LinkMean = fmt.Sprintf("%.4f", q.Links.Mean)
		row.LinkMax = fmt.Sprintf("%.4f %s", q.Links.Max, q.Links.MaxClass)
		row.Busiest = "—"
		if l := q.Links.Link; l != nil {
			row.Busiest = fmt.Sprintf("%.4f (router %d port %d, %s)", l.Utilisation, l.Router, l.Port, l.Class)
		}
		rows = append(rows, row)
	}
	return rows
}

// worstRun is the first run with the point's verdict (whose evidence
// decided it), or the first run.
func worstRun(runs []*result.Result, verdict string) *result.Result {
	var first *result.Result
	for _, r := range runs {
		if r.Quality == nil {
			continue
		}
		if first == nil {
			first = r
		}
		if r.Quality.Verdict == verdict {
			return r
		}
	}
	return first
}

// warmupText: MSER-5's end of the transient (the latest of the runs where
// it found one) against the window's start (the latest of the runs').
func warmupText(runs []*result.Result, q *result.PointQuality) string {
	var from int64
	auto, found := false, false
	for _, r := range runs {
		if r.Quality != nil {
			from = max(from, r.Quality.From)
			auto = auto || r.Quality.Warmup.Auto
			found = found || r.Quality.Warmup.Detected
		}
	}
	end := "MSER-5: no end found in the runs' first half"
	if found {
		end = fmt.Sprintf("MSER-5: ends by cycle %d", q.WarmupEnd)
	}
	cfg := fmt.Sprintf("warm-up %d", from)
	if auto {
		cfg = fmt.Sprintf("automatic warm-up, measured from %d", from)
	}
	s := end + " · " + cfg
	if q.WarmupShort {
		s += " ⚠ the warm-up is shorter than the transient"
	}
	return s
}

func intervalText(iv result.Interval, f byte, prec int) string {
	if iv.Batches == 0 {
		return strconv.FormatFloat(iv.Mean, f, prec, 64) + " (no interval)"
	}
	return fmt.Sprintf("%s ± %s", strconv.FormatFloat(iv.Mean, f, prec, 64), strconv.FormatFloat(iv.CI95, f, prec, 64))
}
