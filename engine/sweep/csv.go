package sweep

import (
	"encoding/csv"
	"io"
	"strconv"

	"phitsim/engine/result"
	"phitsim/engine/stats"
)

// CSVHeader names the columns of WriteCSV.
var CSVHeader = []string{"series", "name", "offered", "runs",
	"accepted", "accepted_ci95", "applied", "applied_ci95",
	"latency", "latency_ci95", "inj_latency", "net_latency", "hops",
	"misrouted", "max_min", "cov", "jain", "min_injection", "starved", "saturated"}

// CSVParamHeader, CSVGraph500Header, CSVReplyHeader, CSVDeadlockHeader and
// CSVHotspotHeader are the columns WriteCSV appends, in this order, when
// some point is of a parameter sweep, of a Graph500 run, of request-reply
// traffic (the accepted load of requests and of replies; empty in the rows
// of other points), had a run that deadlocked (how many), or is of HOTSPOT
// (its background class, then the hotspot's accepted load and latency),
// then CSVQualityHeader when a point has a Quality, then CSVSRPHeader when
// one ran SRP and CSVGroupsHeader when one ran UR1UR2 (its UR1 and UR2
// classes). The columns of CSVHeader never move.
var (
	CSVParamHeader    = []string{"param", "x"}
	CSVGraph500Header = []string{"exec_s", "exec_s_ci95", "exec_cycles", "usage", "usage_ci95", "teps", "finished", "job_latency"}
	CSVReplyHeader    = []string{"request_accepted", "request_accepted_ci95", "reply_accepted", "reply_accepted_ci95"}
	CSVDeadlockHeader = []string{"deadlocked_runs"}
	CSVHotspotHeader  = []string{"bg_applied", "bg_accepted", "bg_accepted_ci95", "bg_latency", "bg_latency_ci95", "hot_accepted", "hot_latency"}
	// CSVQualityHeader: the point's quality (Aggregate.Quality), last of
	// all: its verdict, the latency percentiles of the pooled histograms
	// (">N" when one lies in the histogram's last bin: only known to be at
	// least N), the transit links' mean and busiest class's utilisation,
	// the batch-means half-widths within the runs, and the latest end of
	// the transient (MSER-5).
	CSVSRPHeader     = []string{"srp_speculative", "srp_dropped"}
	CSVGroupsHeader  = []string{"ur1_accepted", "ur1_latency", "ur2_accepted", "ur2_latency"}
	CSVQualityHeader = []string{"verdict", "latency_p50", "latency_p90", "latency_p99", "latency_p999",
		"link_util_mean", "link_util_max", "latency_ci95_batch", "accepted_ci95_batch", "warmup_end"}
)

// WriteCSV writes one row per point: the curves of a sweep.
func WriteCSV(w io.Writer, points []Aggregate) error {
	cw := csv.NewWriter(w)
	param, g500, reply, deadlock, hot, quality := false, false, false, false, false, false
	srp, groups := false, false
	for _, p := range points {
		srp = srp || p.SRP != nil
		groups = groups || len(p.Groups) == 2
		quality = quality || p.Quality != nil
		hot = hot || p.Hotspot != nil
		deadlock = deadlock || p.Deadlocked > 0
		param = param || p.Param != ""
		g500 = g500 || p.Graph500 != nil
		reply = reply || p.RequestAccepted != nil
	}
	header := CSVHeader
	if param {
		header = append(append([]string(nil), header...), CSVParamHeader...)
	}
	if g500 {
		header = append(append([]string(nil), header...), CSVGraph500Header...)
	}
	if reply {
		header = append(append([]string(nil), header...), CSVReplyHeader...)
	}
	if deadlock {
		header = append(append([]string(nil), header...), CSVDeadlockHeader...)
	}
	if hot {
		header = append(append([]string(nil), header...), CSVHotspotHeader...)
	}
	if quality {
		header = append(append([]string(nil), header...), CSVQualityHeader...)
	}
	if srp {
		header = append(append([]string(nil), header...), CSVSRPHeader...)
	}
	if groups {
		header = append(append([]string(nil), header...), CSVGroupsHeader...)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, p := range points {
		row := []string{strconv.Itoa(p.Series), p.Name, f(p.Offered), strconv.Itoa(p.Runs),
			f(p.Accepted.Mean), f(p.Accepted.CI95), f(p.Applied.Mean), f(p.Applied.CI95),
			f(p.Latency.Mean), f(p.Latency.CI95), f(p.InjLatency.Mean), f(p.NetLatency.Mean), f(p.Hops.Mean),
			f(p.Misrouted.Mean), f(p.MaxMin.Mean), f(p.CoV.Mean), f(p.Jain.Mean), f(p.MinInj.Mean),
			strconv.FormatBool(p.Starved), strconv.FormatBool(p.Saturated)}
		if param {
			row = append(row, p.Param, f(p.X))
		}
		if g := p.Graph500; g500 && g != nil {
			row = append(row, f(g.Seconds.Mean), f(g.Seconds.CI95), f(g.Cycles.Mean), f(g.Usage.Mean), f(g.Usage.CI95),
				f(g.TEPS.Mean), strconv.FormatBool(g.Finished), f(g.PacketLatency.Mean))
		} else if g500 {
			row = append(row, "", "", "", "", "", "", "", "")
		}
		if reply && p.RequestAccepted != nil && p.ReplyAccepted != nil {
			row = append(row, f(p.RequestAccepted.Mean), f(p.RequestAccepted.CI95), f(p.ReplyAccepted.Mean), f(p.ReplyAccepted.CI95))
		} else if reply {
			row = append(row, "", "", "", "")
		}
		if deadlock {
			row = append(row, strconv.Itoa(p.Deadlocked))
		}
		if h := p.Hotspot; h != nil {
			row = append(row, f(h.Applied.Mean), f(h.Accepted.Mean), f(h.Accepted.CI95), f(h.Latency.Mean), f(h.Latency.CI95),
				f(h.HotAccepted.Mean), f(h.HotLatency.Mean))
		} else if hot {
			row = append(row, "", "", "", "", "", "", "")
		}
		if q := p.Quality; q != nil {
			row = append(row, q.Verdict)
			row = append(row, PercentileCells(q.Percentiles)...)
			row = append(row, f(q.Links.Mean), f(q.Links.Max), f(q.Latency.CI95), f(q.Accepted.CI95), strconv.FormatInt(q.WarmupEnd, 10))
		} else if quality {
			row = append(row, make([]string, len(CSVQualityHeader))...)
		}
		if p.SRP != nil {
			row = append(row, f(p.SRP.Speculative.Mean), f(p.SRP.Dropped.Mean))
		} else if srp {
			row = append(row, "", "")
		}
		if len(p.Groups) == 2 {
			g := p.Groups
			row = append(row, f(g[0].Accepted.Mean), f(g[0].Latency.Mean), f(g[1].Accepted.Mean), f(g[1].Latency.Mean))
		} else if groups {
			row = append(row, "", "", "", "")
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// PercentileCells are the cells of stats.TailPs' percentiles: cycles, or
// ">N" for one in the histogram's last bin (at least N cycles); empty
// without packets.
func PercentileCells(ps []result.Percentile) []string {
	out := make([]string, len(stats.TailPs))
	for i, p := range ps {
		if i < len(out) {
			out[i] = PercentileText(p)
		}
	}
	return out
}

// PercentileText is a percentile's value: "N", or ">N" past the histogram.
func PercentileText(p result.Percentile) string {
	s := strconv.FormatInt(p.Cycles, 10)
	if p.Above {
		return ">" + s
	}
	return s
}
