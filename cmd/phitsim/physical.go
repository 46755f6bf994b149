package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/stats"
	"phitsim/engine/sweep"
	"phitsim/engine/units"
)

// basisLine is the configuration's physical basis in one line ("" without
// one): the cycle it makes and the cable delay.
func basisLine(c *config.Config) string {
	b, ok := c.Basis()
	if !ok {
		return ""
	}
	return fmt.Sprintf("physical units: %g Gb/s links, %d-byte phits: one cycle is %s, a load of 1 phit/(node·cycle) is %s per node; cables %g ns/m",
		b.LinkGbps, b.PhitBytes, units.FormatTime(b.CycleNs()), units.FormatGbps(b.LinkGbps), b.NsPerMeter())
}

// printPhysical lists every parameter of a configuration with a physical
// basis in physical units beside its engine value (validate).
func printPhysical(w io.Writer, c *config.Config) {
	line := basisLine(c)
	if line == "" {
		return
	}
	fmt.Fprintln(w, "  "+line)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range c.PhysicalView() {
		fmt.Fprintf(tw, "    %s\t%s\t%s\n", f.Param.Path, f.Text, f.Conv)
	}
	tw.Flush()
}

// physicalRows adds a run's load and latency in Gb/s and ns/µs to its
// summary, when the configuration has a physical basis.
func physicalRows(row func(name, value, unit string), c *config.Config, a sweep.Aggregate) {
	b, ok := c.Basis()
	if !ok {
		return
	}
	scale := func(e stats.Estimate, k float64) stats.Estimate {
		return stats.Estimate{Mean: e.Mean * k, CI95: e.CI95 * k, N: e.N}
	}
	row("accepted load", est(scale(a.Accepted, b.LinkGbps), "%.4g"), "Gb/s per node")
	us := b.CycleNs() / 1e3
	row("average latency", est(scale(a.Latency, us), "%.4g"), "µs, generation to delivery")
	row("  in the network", est(scale(a.NetLatency, us), "%.4g"), "µs")
}

// printPhysicalTable repeats a sweep's curves in physical units, accepted
// load in Gb/s per node and latency in µs, when every series has the same
// physical basis (nothing otherwise: one unit per column).
func printPhysicalTable(w io.Writer, oc *sweep.Outcome) {
	var b units.Basis
	for i := range oc.Spec.Series {
		bi, ok := oc.Spec.Series[i].Basis()
		if !ok || (i > 0 && bi != b) {
			return
		}
		b = bi
	}
	if len(oc.Spec.Series) == 0 || len(oc.Points) == 0 {
		return
	}
	fmt.Fprintf(w, "\nin physical units (%g Gb/s links, %d-byte phits: one cycle is %s):\n", b.LinkGbps, b.PhitBytes, units.FormatTime(b.CycleNs()))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	x := "offered (Gb/s per node)"
	if oc.Spec.Param != "" {
		x = oc.Spec.Param
	}
	fmt.Fprintf(tw, "\t%s\taccepted (Gb/s per node)\tlatency (µs)\t\n", x)
	us := b.CycleNs() / 1e3
	for _, p := range oc.Points {
		xv := strconv.FormatFloat(b.Gbps(p.Offered), 'g', 4, 64)
		if oc.Spec.Param != "" {
			xv = strconv.FormatFloat(p.X, 'g', -1, 64)
		}
		acc := stats.Estimate{Mean: b.Gbps(p.Accepted.Mean), CI95: b.Gbps(p.Accepted.CI95), N: p.Accepted.N}
		lat := stats.Estimate{Mean: p.Latency.Mean * us, CI95: p.Latency.CI95 * us, N: p.Latency.N}
		fmt.Fprintf(tw, "series %d\t%s\t%s\t%s\t\n", p.Series+1, xv, est(acc, "%.4g"), est(lat, "%.4g"))
	}
	tw.Flush()
}

// runTime is a configuration's run in physical time, " (2.4 ms + 2.4 ms)",
// "" without a physical basis.
func runTime(c *config.Config) string {
	b, ok := c.Basis()
	if !ok {
		return ""
	}
	return " (" + units.FormatTime(b.Ns(float64(c.Sim.Warmup))) + " + " + units.FormatTime(b.Ns(float64(c.Sim.Cycles))) + ")"
}

// printThroughputTime is the throughput against time in bytes/ns (the RECN
// paper's Fig. 2) of each run whose HOTSPOT has a window
// (traffic.hotspotEnd) and whose configuration has a physical basis: the
// means before, during and after the window, then 10-µs bins, ten to a
// line, '*' marking the lines the window overlaps.
func printThroughputTime(w io.Writer, c *config.Config, runs []*result.Result) {
	if _, ok := c.Basis(); !ok || c.Traffic.Pattern != "HOTSPOT" || c.Traffic.HotspotEnd == 0 {
		return
	}
	b, _ := c.Basis()
	from, to := b.Ns(float64(c.Traffic.HotspotStart)), b.Ns(float64(c.Traffic.HotspotEnd))
	bin := 10e3
	for _, r := range runs {
		rates, err := r.Throughput(bin)
		if err != nil {
			fmt.Fprintf(w, "  throughput vs time: %v\n", err)
			return
		}
		before, during, after := aroundWindow(rates, from, to)
		fmt.Fprintf(w, "\n  seed %d: throughput (bytes/ns, all hosts; –: no whole %s bin) %s before the hotspot, %s during %s–%s, %s after\n", r.Seed,
			units.FormatTime(bin), fmtRate(before), fmtRate(during), units.FormatTime(from), units.FormatTime(to), fmtRate(after))
		for i := 0; i < len(rates); i += 10 {
			j := min(i+10, len(rates))
			mark := " "
			if rates[i].FromNs < to && rates[j-1].ToNs > from {
				mark = "*"
			}
			fmt.Fprintf(w, "   %s%8s", mark, units.FormatTime(rates[i].FromNs))
			for _, x := range rates[i:j] {
				fmt.Fprintf(w, " %5.1f", x.BytesPerNs)
			}
			fmt.Fprintln(w)
		}
	}
}

// printWindowTable is the RECN paper's Fig. 2 in a sweep's table (Duato et
// al., A New Scalable and Cost-Effective Congestion Management Strategy
// for Lossless Multistage Interconnection Networks §4.2): for each point
// whose series has a hotspot window (traffic.hotspotEnd) and a physical
// basis, the throughput of all hosts in 10-µs bins (result.Throughput)
// averaged before, during and after the window and the lowest bin from
// the window's start, each the mean over the point's runs.
func printWindowTable(w io.Writer, oc *sweep.Outcome) {
	const bin = 10e3 // ns, as the run summary's
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	next := 0 // the point's first run in oc.Runs (Collect appends them in order)
	for _, p := range oc.Points {
		runs := oc.Runs[min(next, len(oc.Runs)):min(next+p.Runs, len(oc.Runs))]
		next += p.Runs
		if p.Series >= len(oc.Spec.Series) {
			continue
		}
		c := &oc.Spec.Series[p.Series]
		b, ok := c.Basis()
		if !ok || c.Traffic.Pattern != "HOTSPOT" || c.Traffic.HotspotEnd == 0 || len(runs) == 0 {
			continue
		}
		from, to := b.Ns(float64(c.Traffic.HotspotStart)), b.Ns(float64(c.Traffic.HotspotEnd))
		var before, during, after, low []float64
		for _, r := range runs {
			rates, err := r.Throughput(bin)
			if err != nil || len(rates) == 0 {
				continue
			}
			b, d, a := aroundWindow(rates, from, to)
			before, during, after = append(before, b), append(during, d), append(after, a)
			l := math.NaN()
			for _, x := range rates {
				if x.FromNs >= from && !(x.BytesPerNs >= l) {
					l = x.BytesPerNs
				}
			}
			low = append(low, l)
		}
		if len(before) == 0 {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\nthroughput around the hotspot window (bytes/ns, all hosts; %s bins, mean over the runs; –: no whole bin):\n", units.FormatTime(bin))
			fmt.Fprint(tw, "\tload\tbefore\tduring the window\tafter\tlowest bin from the start\t\n")
			header = true
		}
		mean := func(xs []float64) string { // a run without a whole bin there: "–"
			s := 0.0
			for _, x := range xs {
				s += x // NaN stays NaN
			}
			return fmtRate(s / float64(len(xs)))
		}
		name := p.Name
		if name == "" {
			name = nameOf(*c)
		}
		fmt.Fprintf(tw, "series %d (%s)\t%g\t%s\t%s (%s–%s)\t%s\t%s\t\n", p.Series+1, name, p.Offered, mean(before), mean(during),
			units.FormatTime(from), units.FormatTime(to), mean(after), mean(low))
	}
	tw.Flush()
}

// aroundWindow is the throughput's mean before, during and after the
// window [from, to) ns, each over the whole bins in that part (NaN when it
// holds none: a window starting within the first bin, or shorter than one).
func aroundWindow(rates []result.Rate, from, to float64) (before, during, after float64) {
	end := rates[len(rates)-1].ToNs
	return result.MeanRate(rates, 0, from), result.MeanRate(rates, from, to), result.MeanRate(rates, to, end+1)
}

// fmtRate is a rate in bytes/ns to a tenth, "–" for none (NaN).
func fmtRate(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}
