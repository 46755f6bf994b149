package facts

import (
	"math"
	"strconv"

	"phitsim/engine/result"
)

// Graph500Row is one run in the page's table of Graph500 results: the
// execution time in cycles and seconds, the TEPS-style rate and the
// messages sent in each BFS level (engine/result.Graph500, as
// graph500.Job.Report fills it).
type Graph500Row struct {
	Seed       uint64
	Done       bool // the run has a result (else the row is a placeholder)
	Finished   bool // the BFS ended before the cycle cap
	Status     string
	RootDegree int
	Cycles     int64
	Seconds    float64
	TEPS       float64 // 0 when the BFS did not finish
	Usage      float64 // phits per process and cycle
	Messages   []int64 // per BFS level
}

// Graph500Of is the row of a run with seed seed (r nil: not finished yet,
// or not a Graph500 run).
func Graph500Of(seed uint64, r *result.Result) Graph500Row {
	row := Graph500Row{Seed: seed}
	if r == nil || r.Graph500 == nil {
		return row
	}
	g := r.Graph500
	row.Done, row.Finished, row.Status = true, g.Finished, g.Status
	row.RootDegree, row.Cycles, row.Seconds, row.TEPS, row.Usage = g.RootDegree, g.Cycles, g.Seconds, g.TEPS, g.Usage
	for _, lv := range g.Levels {
		row.Messages = append(row.Messages, lv.Messages)
	}
	return row
}

// SI writes x with an SI prefix and 3–4 significant digits: 0.0123 "s" is
// "12.3 ms", 1.5e9 "TEPS" is "1.5 GTEPS".
func SI(x float64, unit string) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	if x == 0 {
		return "0 " + unit
	}
	prefixes := []struct {
		p string
		f float64
	}{{"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}, {"", 1}, {"m", 1e-3}, {"µ", 1e-6}, {"n", 1e-9}}
	a := math.Abs(x)
	for _, p := range prefixes {
		if a >= p.f*0.9995 || p.p == "n" {
			return strconv.FormatFloat(round3(x/p.f), 'g', -1, 64) + " " + p.p + unit
		}
	}
	return ""
}

// round3 keeps 3 significant digits (4 from 1000 up: 1234 stays 1234).
func round3(x float64) float64 {
	if x == 0 {
		return 0
	}
	d := math.Max(0, 2-math.Floor(math.Log10(math.Abs(x))))
	p := math.Pow(10, d)
	return math.Round(x*p) / p
}

// Count writes a count compactly: 950, 16.1k, 2.35M.
func Count(n int64) string {
	if n < 1000 && n > -1000 {
		return strconv.FormatInt(n, 10)
	}
	return SIPlain(float64(n))
}

// SIPlain is SI without a unit and without the space: "16.1k".
func SIPlain(x float64) string {
	s := SI(x, "")
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return s[:i] + s[i+1:]
		}
	}
	return s
}
