package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"phitsim/engine/config"
	"phitsim/engine/figures"
	"phitsim/engine/result"
	"phitsim/engine/routing"
	"phitsim/engine/stats"
	"phitsim/engine/sweep"
	"phitsim/engine/topology"
)

// est is a mean over the seeds in the format f ("%.4f") with its 95%
// confidence interval to two significant digits (a narrow interval would
// read "± 0.0" in f); one run has no interval.
func est(e stats.Estimate, f string) string {
	if e.N < 2 {
		return fmt.Sprintf(f, e.Mean)
	}
	return fmt.Sprintf(f, e.Mean) + " ± " + twoDigits(e.CI95)
}

// twoDigits is x to two significant digits, without an exponent: 0.00049, 3.9, 13000.
func twoDigits(x float64) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	decimals := 1 - int(math.Floor(math.Log10(math.Abs(x))))
	if decimals <= 0 {
		p := math.Pow(10, float64(-decimals))
		return strconv.FormatFloat(math.Round(x/p)*p, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', decimals, 64)
}

// kindTitle is a topology kind as a reader names it ("Dragonfly",
// "flattened butterfly"; the registry's Title).
func kindTitle(kind string) string {
	if k, err := topology.KindOf(kind); err == nil {
		return k.Title
	}
	return kind
}

// describe is a configuration's name and key parameters, on two lines.
func describe(w io.Writer, c config.Config) {
	sz, _ := c.Topology.Sizes()
	fmt.Fprintf(w, "%s: %s %s (%d routers, %d nodes), routing %s", nameOf(c),
		kindTitle(c.Topology.Kind), c.Topology.Describe(), sz.Routers, sz.Nodes, c.Routing.Name)
	if c.Graph500() {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "BFS run to its end (at most %d cycles); ", c.Sim.Cycles)
	} else {
		fmt.Fprintf(w, ", traffic %s, load %g phits/node/cycle", c.Traffic.Pattern, c.Traffic.Load)
		if bg := c.Traffic.HotspotBackground; c.Traffic.Pattern == "HOTSPOT" && bg != "" {
			fmt.Fprintf(w, " (background %s)", bg)
		}
		fmt.Fprintf(w, ", congestion management %s\n", c.Congestion.SchemeName())
		warm, measured := fmt.Sprintf("%d warm-up", c.Sim.Warmup), fmt.Sprintf("%d measured cycles", c.Sim.Cycles)
		if c.Sim.AutoWarmup {
			warm = fmt.Sprintf("warm-up until MSER-5 sees the transient over (at most %d)", c.Sim.Warmup)
		}
		if c.Sim.Precision > 0 {
			measured = fmt.Sprintf("measured until ±%g%% (%d to %d cycles)", 100*c.Sim.Precision, c.Sim.Cycles, c.Sim.MeasuredCap())
		}
		fmt.Fprintf(w, "%s + %s; ", warm, measured)
	}
	if c.Sim.Seeds == 1 {
		fmt.Fprintf(w, "1 seed (%d): no confidence interval\n", c.Sim.Seed)
	} else {
		fmt.Fprintf(w, "%d seeds (%d…%d): mean ± 95%% confidence interval over the seeds\n",
			c.Sim.Seeds, c.Sim.Seed, c.Sim.Seed+uint64(c.Sim.Seeds)-1)
	}
	if line := basisLine(&c); line != "" {
		fmt.Fprintln(w, line)
	}
	printBufferWarnings(w, c)
}

// printBufferWarnings says which buffers cannot cover their loop at full
// rate (config.BufferLoops): valid, but they cap the throughput.
func printBufferWarnings(w io.Writer, c config.Config) {
	for _, fe := range c.BufferWarnings() {
		fmt.Fprintf(w, "warning: %s\n", fe)
	}
}

// printSummary is what 'run' shows a person: the configuration, the metrics
// a paper reports with their units, and where the full JSON went (jsonAt: a
// file, "stdout", or "" when it was not written).
func printSummary(w io.Writer, c config.Config, a sweep.Aggregate, runs []*result.Result, jsonAt string) {
	describe(w, c)
	if len(runs) < c.Sim.Seeds { // interrupted: the header's seeds did not all run
		fmt.Fprintf(w, "interrupted: %s; every figure below is over those\n", finishedRuns(runs, c.Sim.Seeds))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(name, value, unit string) { fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, value, unit) }
	if g := a.Graph500; g != nil {
		wl := c.Workload
		fmt.Fprintf(w, "  Graph500 BFS s=%d fe=%d cs=%d, tq=%g ns, %g Gb/s links, %d-byte phits: one cycle is %.4g ns\n",
			wl.Scale, wl.EdgeFactor, wl.Coalescing, wl.Tq, wl.LinkGbps, wl.PhitBytes, wl.CycleNs())
		ms := stats.Estimate{Mean: g.Seconds.Mean * 1e3, CI95: g.Seconds.CI95 * 1e3, N: g.Seconds.N}
		row("execution time", est(g.Cycles, "%.0f"), "cycles")
		row("", est(ms, "%.4g"), "ms simulated")
		teps := stats.Estimate{Mean: g.TEPS.Mean / 1e9, CI95: g.TEPS.CI95 / 1e9, N: g.TEPS.N}
		row("traversed edges/s", est(teps, "%.4g"), "GTEPS")
		row("usage", est(g.Usage, "%.4f"), "phits/node/cycle injected by the job")
		row("average latency", est(a.Latency, "%.1f"), "cycles")
		row("job packet latency", est(g.PacketLatency, "%.1f"), "cycles (the job's packets only)")
		tw.Flush()
		for _, r := range runs {
			if r.Graph500 != nil && !r.Graph500.Finished {
				fmt.Fprintf(w, "  seed %d: %s\n", r.Seed, r.Graph500.Status)
			}
		}
	} else {
		row("offered load", strconv.FormatFloat(a.Offered, 'g', 4, 64), "phits/node/cycle")
		row("accepted load", est(a.Accepted, "%.4f"), "phits/node/cycle (throughput)")
		if a.RequestAccepted != nil && a.ReplyAccepted != nil {
			row("  requests", est(*a.RequestAccepted, "%.4f"), "phits/node/cycle")
			row("  replies", est(*a.ReplyAccepted, "%.4f"), "phits/node/cycle")
		}
		row("average latency", est(a.Latency, "%.1f"), "cycles, generation to delivery")
		row("  in the network", est(a.NetLatency, "%.1f"), "cycles")
		row("  injection", est(a.InjLatency, "%.1f"), "cycles, waiting to leave the first router")
		hotspotRows(row, a)
		for _, g := range a.Groups { // UR1UR2's classes (result.groups)
			row(g.Name+" accepted", est(g.Accepted, "%.4f"), "phits/node/cycle, per node of the class")
			row(g.Name+" latency", est(g.Latency, "%.1f"), "cycles")
		}
		mechanismRows(row, runs)
		recnRows(row, &c, runs)
		physicalRows(row, &c, a)
		row("average hops", est(a.Hops, "%.2f"), "links")
		classRows(row, runs)
		if e := routing.Get(c.Routing.Name); e.Has(routing.Misrouting) {
			pct := stats.Estimate{Mean: a.Misrouted.Mean * 100, CI95: a.Misrouted.CI95 * 100, N: a.Misrouted.N}
			row("misrouted", est(pct, "%.1f"), "% of delivered packets")
		}
		switch {
		case a.MaxMin.N == 0:
			row("Max/Min injection", "∞", "(fairness: some router injected nothing)")
		case a.Starved:
			row("Max/Min injection", est(a.MaxMin, "%.3f"), fmt.Sprintf("(fairness, over %d runs; in the others a router injected nothing)", a.MaxMin.N))
		default:
			row("Max/Min injection", est(a.MaxMin, "%.3f"), "(fairness: 1 is perfectly fair)")
		}
		row("injection CoV", est(a.CoV, "%.4f"), "(σ/μ of injections over routers)")
		row("Jain's index", est(a.Jain, "%.4f"), "(of injections over routers: 1 is perfectly fair)")
		qualityRows(row, a.Quality)
		tw.Flush()
	}
	if a.Saturated {
		fmt.Fprintf(w, "  saturated: %s\n", a.SatReason)
	}
	printVerdict(w, a.Quality)
	printThroughputTime(w, &c, runs)
	printBackgroundAroundStart(w, &c, runs)
	if len(runs) < c.Sim.Seeds {
		fmt.Fprintf(w, "  %s: the means are over those\n", finishedRuns(runs, c.Sim.Seeds))
	}
	switch jsonAt {
	case "":
		fmt.Fprintln(w, "\nfull result (every run, histograms, time series): not saved; add -out FILE or -json")
	case "stdout":
		fmt.Fprintln(w, "\nfull result: JSON on stdout")
	default:
		fmt.Fprintf(w, "\nfull result: %s\n", jsonAt)
	}
}

// mechanismRows: each attached mechanism's own metrics (result.Mechanisms:
// congestion.scheme's report, QCN-Switch's), the mean over the runs that
// report it (a metric with no value yet is left out of a run's report, as
// QCN's CNM latency before the first delivery).
func mechanismRows(row func(k, v, unit string), runs []*result.Result) {
	seen := map[string]bool{}
	var keys []string // "name metric"
	for _, r := range runs {
		for n, m := range r.Mechanisms {
			for k := range m {
				if nk := n + " " + k; !seen[nk] {
					seen[nk], keys = true, append(keys, nk)
				}
			}
		}
	}
	sort.Strings(keys)
	for _, nk := range keys {
		n, k, _ := strings.Cut(nk, " ")
		sum, count := 0.0, 0
		for _, r := range runs {
			if v, ok := r.Mechanisms[n][k]; ok {
				sum, count = sum+v, count+1
			}
		}
		row(nk, strconv.FormatFloat(sum/float64(count), 'g', 4, 64), "mechanism metric (result.mechanisms)")
	}
}

// recnRows: RECN's set-aside queues (result.recn; Duato et al., "A New
// Scalable and Cost-Effective Congestion Management Strategy for Lossless
// Multistage Interconnection Networks" Fig. 4) and the packets delivered
// out of order (result.order under router.queueing, §4.3), each the mean
// over the runs.
func recnRows(row func(k, v, unit string), c *config.Config, runs []*result.Result) {
	mean := func(f func(r *result.Result) (float64, bool)) (string, bool) {
		sum, n := 0.0, 0
		for _, r := range runs {
			if v, ok := f(r); ok {
				sum += v
				n++
			}
		}
		if n == 0 {
			return "", false
		}
		return strconv.FormatFloat(sum/float64(n), 'g', 4, 64), true
	}
	saqs := c.Congestion.RecnSaqs
	if saqs == 0 {
		saqs = config.RECNDefaultSAQs
	}
	for _, x := range []struct {
		key, unit string
		f         func(x *result.RECN) float64
	}{
		{"RECN SAQs, most at an ingress side", fmt.Sprintf("lines allocated at once, of congestion.recnSaqs = %d (each sim.interval's in result.recn)", saqs), func(x *result.RECN) float64 { return float64(x.PeakIngress) }},
		{"RECN SAQs, most at an egress side", "lines allocated at once at an egress side or network interface (each sim.interval's in result.recn)", func(x *result.RECN) float64 { return float64(x.PeakEgress) }},
		{"RECN SAQs, most in the network", "lines allocated at once in all the switches and interfaces (each sim.interval's in result.recn)", func(x *result.RECN) float64 { return float64(x.PeakTotal) }},
		{"RECN SAQs at the end", "lines still allocated when the run ends", func(x *result.RECN) float64 { return float64(x.Allocated) }},
		{"RECN notifications", "congestion notifications sent, over a link or within a switch", func(x *result.RECN) float64 { return float64(x.Notified) }},
		{"RECN refused", "notifications not taken: the path had a line already, or no line was free", func(x *result.RECN) float64 { return float64(x.Refused) }},
		{"RECN control packets", "RECN's messages sent as control packets on the links", func(x *result.RECN) float64 { return float64(x.ControlPkts) }},
	} {
		if v, ok := mean(func(r *result.Result) (float64, bool) {
			if r.RECN == nil {
				return 0, false
			}
			return x.f(r.RECN), true
		}); ok {
			row(x.key, v, x.unit)
		}
	}
	packets, ok := mean(func(r *result.Result) (float64, bool) {
		switch {
		case r.Order != nil:
			return float64(r.Order.OutOfOrder), true
		case r.RECN != nil:
			return float64(r.RECN.OutOfOrder), true
		}
		return 0, false
	})
	if !ok {
		return
	}
	v := packets + " packets"
	if pairs, ok := mean(func(r *result.Result) (float64, bool) {
		if r.Order == nil {
			return 0, false
		}
		return float64(r.Order.Pairs), true
	}); ok {
		v += " (" + pairs + " source–destination pairs)"
	}
	row("out of order", v, "delivered after a later packet of the same pair, warm-up included")
}

// hotspotRows: HOTSPOT's classes (Kim et al., Contention-based Congestion
// Management in Large-Scale Networks §V-A plots the background's).
func hotspotRows(row func(k, v, unit string), a sweep.Aggregate) {
	h := a.Hotspot
	if h == nil {
		return
	}
	row("background accepted", est(h.Accepted, "%.4f"), "phits/node/cycle, per node neither sender nor silent hotspot")
	row("background latency", est(h.Latency, "%.1f"), "cycles")
	row("hotspot accepted", est(h.HotAccepted, "%.4f"), fmt.Sprintf("phits/cycle into node %d", h.Node))
	row("hotspot latency", est(h.HotLatency, "%.1f"), "cycles")
	for i, n := range h.Senders {
		row(fmt.Sprintf("  from sender %d", n), fmt.Sprintf("%.4f", h.SenderAccepted[i]), "phits/cycle")
	}
}

// printTable is what 'sweep' shows a person: one row per point of each
// series, accepted load and latency with their 95% confidence intervals.
func printTable(w io.Writer, oc *sweep.Outcome) {
	sp := oc.Spec
	// senders: each hotspot sender's bandwidth (Kim et al. Fig. 14), when
	// every HOTSPOT point has at most maxSenderCells of them
	const maxSenderCells = 8
	g500, hot, srp, senders := false, false, false, false
	var groups []string // a pattern's classes (UR1UR2: UR1, UR2), as the CSV's ur1_*, ur2_*
	for _, p := range oc.Points {
		g500 = g500 || p.Graph500 != nil
		if h := p.Hotspot; h != nil {
			senders = (senders || !hot) && len(h.Senders) > 0 && len(h.Senders) <= maxSenderCells && len(h.SenderAccepted) == len(h.Senders)
			hot = true
		}
		srp = srp || p.SRP != nil
		if groups == nil && len(p.Groups) > 0 {
			for _, g := range p.Groups {
				groups = append(groups, g.Name)
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	x := "load"
	if sp.Param != "" {
		x = sp.Param
	}
	fmt.Fprintf(tw, "\t%s\taccepted (phits/node/cycle)\tlatency (cycles)\t", x)
	if hot {
		fmt.Fprint(tw, "background accepted\tbackground latency\t")
	}
	if senders {
		fmt.Fprint(tw, "accepted per sender (phits/cycle)\t")
	}
	for _, g := range groups {
		fmt.Fprintf(tw, "%s accepted\t%s latency (cycles)\t", g, g)
	}
	if srp {
		fmt.Fprint(tw, "speculative (%)\tdropped (% of speculative)\t")
	}
	if g500 {
		fmt.Fprint(tw, "execution (ms)\tjob latency (cycles)\t")
	}
	fmt.Fprint(tw, "runs\t\n")
	for _, p := range oc.Points {
		name := p.Name
		if name == "" && p.Series < len(sp.Series) {
			name = nameOf(sp.Series[p.Series])
		}
		xv := p.Offered
		if sp.Param != "" {
			xv = p.X
		}
		// numbered from 1 as in messages (the CSV's series column counts from 0)
		fmt.Fprintf(tw, "series %d (%s)\t%g\t%s\t%s\t", p.Series+1, name, xv, est(p.Accepted, "%.4f"), est(p.Latency, "%.1f"))
		if h := p.Hotspot; h != nil {
			fmt.Fprintf(tw, "%s\t%s\t", est(h.Accepted, "%.4f"), est(h.Latency, "%.1f"))
		} else if hot {
			fmt.Fprint(tw, "\t\t")
		}
		if h := p.Hotspot; senders && h != nil {
			cells := make([]string, len(h.Senders))
			for i, n := range h.Senders {
				cells[i] = fmt.Sprintf("%d: %.3f", n, h.SenderAccepted[i])
			}
			fmt.Fprintf(tw, "%s\t", strings.Join(cells, ", "))
		} else if senders {
			fmt.Fprint(tw, "\t")
		}
		for i := range groups {
			if i < len(p.Groups) {
				fmt.Fprintf(tw, "%s\t%s\t", est(p.Groups[i].Accepted, "%.4f"), est(p.Groups[i].Latency, "%.1f"))
			} else {
				fmt.Fprint(tw, "\t\t")
			}
		}
		if s := p.SRP; s != nil {
			pct := func(e stats.Estimate) stats.Estimate {
				return stats.Estimate{Mean: 100 * e.Mean, CI95: 100 * e.CI95, N: e.N}
			}
			fmt.Fprintf(tw, "%s\t%s\t", est(pct(s.Speculative), "%.1f"), est(pct(s.Dropped), "%.1f"))
		} else if srp {
			fmt.Fprint(tw, "\t\t")
		}
		if g := p.Graph500; g500 && g != nil {
			ms := stats.Estimate{Mean: g.Seconds.Mean * 1e3, CI95: g.Seconds.CI95 * 1e3, N: g.Seconds.N}
			fmt.Fprintf(tw, "%s\t%s\t", est(ms, "%.4g"), est(g.PacketLatency, "%.1f"))
		} else if g500 {
			fmt.Fprint(tw, "\t\t")
		}
		var notes []string
		if p.Saturated {
			notes = append(notes, "saturated")
		}
		if q := p.Quality; q != nil && q.Verdict != result.Steady && q.Verdict != result.Saturated {
			notes = append(notes, q.Verdict)
		}
		if p.Starved {
			notes = append(notes, "starved router")
		}
		if d := p.Deadlocked - p.Starvations; d > 0 {
			notes = append(notes, fmt.Sprintf("DEADLOCK (%d of %d runs)", d, p.Runs))
		}
		if p.Starvations > 0 {
			notes = append(notes, fmt.Sprintf("STARVATION (%d of %d runs)", p.Starvations, p.Runs))
		}
		if p.Graph500 != nil && !p.Graph500.Finished {
			notes = append(notes, "BFS unfinished")
		}
		fmt.Fprintf(tw, "%d\t%s\n", p.Runs, strings.Join(notes, ", "))
	}
	tw.Flush()
	fmt.Fprintln(w, "mean ± 95% confidence interval over the seeds of each point; unstable, too short: the point's verdict (engine/METHODS.md)")
	// the evidence of those verdicts: a line per reason, with its points
	var reasons []string
	at := map[string][]string{}
	for _, p := range oc.Points {
		if q := p.Quality; q != nil && q.Reason != "" && (q.Verdict == result.Unstable || q.Verdict == result.TooShort) {
			xv := p.Offered
			if sp.Param != "" {
				xv = p.X
			}
			why := q.Verdict + ": " + q.Reason
			if at[why] == nil {
				reasons = append(reasons, why)
			}
			at[why] = append(at[why], fmt.Sprintf("series %d %s %g", p.Series+1, x, xv))
		}
	}
	for _, why := range reasons {
		fmt.Fprintf(w, "  %s: %s\n", strings.Join(at[why], ", "), why)
	}
}

// qualityRows: a point's tail latency, link use and within-run intervals
// (result.PointQuality).
func qualityRows(row func(k, v, unit string), q *result.PointQuality) {
	if q == nil {
		return
	}
	if len(q.Percentiles) > 0 {
		cells := sweep.PercentileCells(q.Percentiles)
		row("latency p50/p90/p99/p99.9", strings.Join(cells, " / "), "cycles, all runs' packets (>N: past sim.histMax)")
	}
	if q.Links.MaxClass != "" {
		row("link utilisation", fmt.Sprintf("%.4f mean, %.4f %s", q.Links.Mean, q.Links.Max, q.Links.MaxClass),
			"phits/cycle per transit link: all, the busiest class")
	}
	if l := q.Links.Link; l != nil {
		row("busiest link", fmt.Sprintf("%.4f, router %d port %d (%s)", l.Utilisation, l.Router, l.Port, l.Class),
			"phits/cycle over the window (bound 1), the busiest run's")
	}
	if q.Latency.Batches > 0 {
		row("within-run 95% CI", fmt.Sprintf("latency ± %.2f, accepted ± %.4f", q.Latency.CI95, q.Accepted.CI95),
			fmt.Sprintf("(batch means, %d batches over the runs)", q.Latency.Batches))
	}
}

// printVerdict: the point's verdict with its evidence and any warm-up
// warning (engine/METHODS.md).
func printVerdict(w io.Writer, q *result.PointQuality) {
	if q == nil {
		return
	}
	var counts []string
	for i, n := range q.Verdicts {
		if n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, result.Verdicts[i]))
		}
	}
	line := fmt.Sprintf("  verdict: %s (runs: %s)", q.Verdict, strings.Join(counts, ", "))
	if q.Reason != "" && q.Verdict != result.Saturated {
		line += ": " + q.Reason
	}
	fmt.Fprintln(w, line)
	if q.WarmupShort {
		fmt.Fprintf(w, "  warning: a run's transient lasts past its warm-up (MSER-5: to cycle %d); raise sim.warmup or set sim.autoWarmup\n", q.WarmupEnd)
	}
}

// printFairnessTable shows a sweep as the thesis's fairness tables (Tables
// 3.1–3.3, §1.5.1 metrics): per series its highest accepted load (the
// tables' "Avg sat. load"), then per offered load the lowest per-router
// injection (also as a share of the offered load), Max/Min and CoV, means
// over the seeds. Max/Min is "∞" when a router injected nothing.
func printFairnessTable(w io.Writer, oc *sweep.Outcome) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "mechanism	avg sat. load	offered	min inj. load (% of offered)	max/min	cov	\n")
	sat := map[int]float64{}
	for _, p := range oc.Points {
		sat[p.Series] = max(sat[p.Series], p.Accepted.Mean)
	}
	last := -1
	for _, p := range oc.Points {
		name, satCell := "", ""
		if p.Series != last {
			name, satCell, last = p.Name, fmt.Sprintf("%.3f", sat[p.Series]), p.Series
			if name == "" && p.Series < len(oc.Spec.Series) {
				name = nameOf(oc.Spec.Series[p.Series])
			}
		}
		share := ""
		if p.Offered > 0 {
			share = fmt.Sprintf(" (%.1f%%)", 100*p.MinInj.Mean/p.Offered)
		}
		mm := fmt.Sprintf("%.3f", p.MaxMin.Mean)
		if p.Starved {
			mm = "∞ (starved)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%g\t%.4f%s\t%s\t%.4f\t\n", name, satCell, p.Offered, p.MinInj.Mean, share, mm, p.CoV.Mean)
	}
	tw.Flush()
	fmt.Fprintln(w, "per-router injection over all routers (thesis §1.5.1): min in phits/(node·cycle), max/min, cov = σ/μ; means over the seeds")
}

// classRows are the hops and link utilisation of each port class, by name,
// means over the runs: a topology other than the Dragonfly (whose result
// has no per-class rows: its local and global fields are in the JSON).
func classRows(row func(name, value, unit string), runs []*result.Result) {
	if len(runs) == 0 {
		return
	}
	for c, cl := range runs[0].Classes {
		col := func(f func(result.ClassStat) float64) stats.Estimate {
			xs := make([]float64, 0, len(runs))
			for _, r := range runs {
				if c < len(r.Classes) {
					xs = append(xs, f(r.Classes[c]))
				}
			}
			return stats.Estimate95(xs)
		}
		util := est(col(func(x result.ClassStat) float64 { return x.Utilisation }), "%.4f")
		if c == 0 { // injection: its output ports are the ejection links
			row("  ejection links", util, fmt.Sprintf("phits/cycle per link (%d links)", cl.Links))
			continue
		}
		name := cl.Class + " links"
		if cl.Class == "link" { // a flattened butterfly's or a fat tree's one class
			name = "router-to-router links"
		}
		row("  on "+name, est(col(func(x result.ClassStat) float64 { return x.Hops }), "%.2f"),
			fmt.Sprintf("hops; %s phits/cycle per link (%d links)", util, cl.Links))
	}
}

// printFairnessPanels shows a fairness experiment that sweeps a parameter
// other than the load (thesis Figs. 3.10 and 3.13 sweep the network size,
// topology.h) as the figures' panels: one table per metric (accepted load,
// lowest per-router injection with its share of the offered load, Max/Min,
// CoV), a row per series and a column per swept value, means over the
// seeds. A topology.h column also says the network's nodes; "–" is a point
// with no finished run, "∞" one where a router injected nothing.
func printFairnessPanels(w io.Writer, oc *sweep.Outcome) {
	sp := oc.Spec
	xs := sp.Xs()
	at := map[[2]int]sweep.Aggregate{} // series, index of the value
	for _, p := range oc.Points {
		for i, x := range xs {
			if x == p.X {
				at[[2]int{p.Series, i}] = p
			}
		}
	}
	head := make([]string, len(xs))
	for i, x := range xs {
		head[i] = fmt.Sprintf("%s=%g", sp.XName()[strings.LastIndex(sp.XName(), ".")+1:], x)
		if sp.XName() != "topology.h" || len(sp.Series) == 0 {
			continue
		}
		c := sp.Series[0]
		if sp.Apply(&c, x) != nil {
			continue
		}
		if sz, ok := c.Topology.Sizes(); ok {
			head[i] += fmt.Sprintf(" (%d nodes)", sz.Nodes)
		}
	}
	panel := func(title string, cell func(p sweep.Aggregate) string) {
		fmt.Fprintf(w, "\n%s\n", title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "mechanism\t%s\t\n", strings.Join(head, "\t"))
		for si, c := range sp.Series {
			cells := make([]string, len(xs))
			for i := range xs {
				cells[i] = "–"
				if p, ok := at[[2]int{si, i}]; ok {
					cells[i] = cell(p)
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t\n", nameOf(c), strings.Join(cells, "\t"))
		}
		tw.Flush()
	}
	offered := ""
	if len(sp.Series) > 0 {
		offered = fmt.Sprintf(" at %g offered", sp.Series[0].Traffic.Load)
	}
	panel("accepted load (phits/(node·cycle))"+offered, func(p sweep.Aggregate) string { return fmt.Sprintf("%.4f", p.Accepted.Mean) })
	panel("min inj. load (phits/(node·cycle), % of offered)", func(p sweep.Aggregate) string {
		if p.Offered <= 0 {
			return fmt.Sprintf("%.4f", p.MinInj.Mean)
		}
		return fmt.Sprintf("%.4f (%.1f%%)", p.MinInj.Mean, 100*p.MinInj.Mean/p.Offered)
	})
	panel("max/min injection", func(p sweep.Aggregate) string {
		if p.Starved {
			return "∞ (starved)"
		}
		return fmt.Sprintf("%.3f", p.MaxMin.Mean)
	})
	panel("injection cov (σ/μ)", func(p sweep.Aggregate) string { return fmt.Sprintf("%.4f", p.CoV.Mean) })
	fmt.Fprintln(w, "per-router injection over all routers (thesis §1.5.1); means over the seeds")
}

// printBackgroundAroundStart summarises a hotspot that starts during the
// run (Kim et al., Contention-based Congestion Management in Large-Scale
// Networks Figs. 11 and 13): the background's latency per sim.interval,
// the runs pooled as the page's chart pools them (figures.PoolBackground),
// before the start, at its peak after it, and when it is back within
// figures.BgSettleFactor of before; every interval is in the JSON's
// hotspot.series.
func printBackgroundAroundStart(w io.Writer, c *config.Config, runs []*result.Result) {
	if c.Traffic.Pattern != "HOTSPOT" || c.Traffic.HotspotStart <= 0 || len(runs) == 0 {
		return
	}
	bc, ok := figures.PoolBackground(runs)
	if !ok {
		return
	}
	peak, at := 0.0, 0.0
	for i, l := range bc.Latency {
		if bc.Cycle[i] > 0 && bc.Packets[i] > 0 && l > peak {
			peak, at = l, bc.Cycle[i]
		}
	}
	if at == 0 {
		return // no interval after the start
	}
	back := "not back within the run"
	if t, ok := bc.BgSettle(); ok && t > 0 {
		back = fmt.Sprintf("back within %g× of before %.0f cycles after", figures.BgSettleFactor, t)
	} else if ok {
		back = fmt.Sprintf("never above %g× of before", figures.BgSettleFactor)
	}
	fmt.Fprintf(w, "\n  background latency around the hotspot's start (cycle %d, per %d-cycle interval): %.1f cycles before, peak %.1f in the interval ending %.0f cycles after; %s (every interval: hotspot.series in the JSON)\n",
		c.Traffic.HotspotStart, c.Sim.Interval, bc.Before(), peak, at, back)
}

// finishedRuns says which of seeds runs finished: "1 of 4 runs finished
// (seed 1)".
func finishedRuns(runs []*result.Result, seeds int) string {
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = strconv.FormatUint(r.Seed, 10)
	}
	plural := "s"
	if len(runs) == 1 {
		plural = ""
	}
	return fmt.Sprintf("%d of %d runs finished (seed%s %s)", len(runs), seeds, plural, strings.Join(ids, ", "))
}
