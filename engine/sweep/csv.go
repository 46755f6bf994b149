package sweep

import (
	"encoding/csv"
	"io"
	"strconv"
)

// CSVHeader names the columns of WriteCSV.
var CSVHeader = []string{"series", "name", "offered", "runs",
	"accepted", "accepted_ci95", "applied", "applied_ci95",
	"latency", "latency_ci95", "inj_latency", "net_latency", "hops",
	"misrouted", "max_min", "cov", "jain", "min_injection", "starved", "saturated"}

// WriteCSV writes one row per point: the curves of a sweep.
func WriteCSV(w io.Writer, points []Aggregate) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, p := range points {
		row := []string{strconv.Itoa(p.Series), p.Name, f(p.Offered), strconv.Itoa(p.Runs),
			f(p.Accepted.Mean), f(p.Accepted.CI95), f(p.Applied.Mean), f(p.Applied.CI95),
			f(p.Latency.Mean), f(p.Latency.CI95), f(p.InjLatency.Mean), f(p.NetLatency.Mean), f(p.Hops.Mean),
			f(p.Misrouted.Mean), f(p.MaxMin.Mean), f(p.CoV.Mean), f(p.Jain.Mean), f(p.MinInj.Mean),
			strconv.FormatBool(p.Starved), strconv.FormatBool(p.Saturated)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
