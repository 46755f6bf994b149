package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"phitsim/engine/sweep"
)

// printSettleTable summarises the transient records of a sweep whose series
// switch pattern (thesis §4.3.2): per point, the misrouted share before the
// switch and the one it settles to, when it settles (sweep.Settle: the
// first 10-cycle bin from which it stays within the band), its swing and
// the period of its oscillation if any, and the latency before and at the
// end.
func printSettleTable(w io.Writer, ts []sweep.Transient) {
	if len(ts) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "transient\tx\tmisrouted before → settled (%)\tsettles after (cycles)\tswing (points)\toscillation period (cycles)\tlatency before → end (cycles)\truns\t\n")
	for _, t := range ts {
		settle, period := "never", "none"
		if t.Settle != nil {
			settle = strconv.FormatFloat(*t.Settle, 'f', 0, 64)
		}
		if t.Period != nil {
			period = fmt.Sprintf("%.0f (autocorrelation %.2f)", *t.Period, t.PeriodCorr)
		}
		before, end := binMean(t, true), binMean(t, false)
		fmt.Fprintf(tw, "series %d (%s)\t%g\t%.1f → %.1f ± %.1f\t%s\t%.1f\t%s\t%.0f → %.0f\t%d\t\n",
			t.Series+1, t.Name, t.X, t.Before, t.Settled, t.Band, settle, t.Swing, period, before, end, t.Runs)
	}
	tw.Flush()
	fmt.Fprintln(w, "by the cycle the packets were generated, relative to the pattern switch; pooled over the seeds")
	printLoadStepTable(w, ts)
}

// printLoadStepTable summarises the load steps and ACOR levels of the
// records that have them (sweep.LoadStep; ACOR paper §6.2.1): the offered
// and accepted load before the switch and over its last 50 bins, when the
// latency settles (sweep.LatencySettle within sweep.AcorSettleBand), by when
// every router of group 0 has stepped its ACOR level up or down
// (sweep.GroupLevelChange, mean over the runs), and the mean level before
// and at the end.
func printLoadStepTable(w io.Writer, ts []sweep.Transient) {
	some := false
	for _, t := range ts {
		some = some || len(t.Offered) > 0
	}
	if !some {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "load step\toffered before → after\taccepted before → end\tlatency before → end\tlatency settles after (cycles)\tgroup 0 all up by\tall down by\tACOR level before → end\t\n")
	cyc := func(x *float64) string {
		if x == nil {
			return "—"
		}
		return strconv.FormatFloat(*x, 'f', 0, 64)
	}
	for _, t := range ts {
		if len(t.Offered) == 0 {
			continue
		}
		_, settle := sweep.LatencySettle(t, sweep.AcorSettleBand)
		level := "—"
		if len(t.AcorLevel) > 0 {
			level = fmt.Sprintf("%.2f → %.2f", binsMean(t, t.AcorLevel, true), binsMean(t, t.AcorLevel, false))
		}
		fmt.Fprintf(tw, "series %d (%s)\t%.3f → %.3f\t%.3f → %.3f\t%.0f → %.0f\t%s\t%s\t%s\t%s\t\n", t.Series+1, t.Name,
			binsMean(t, t.Offered, true), binsMean(t, t.Offered, false), binsMean(t, t.Accepted, true), binsMean(t, t.Accepted, false),
			binMean(t, true), binMean(t, false), cyc(settle), cyc(t.LevelUp), cyc(t.LevelDown), level)
	}
	tw.Flush()
	fmt.Fprintln(w, "loads in phits/node/cycle, means over the bins before the switch and the last 50 (latency: the last 20); times in cycles after it")
}

// binsMean is the mean of xs over the bins before the switch, or over the
// last 50.
func binsMean(t sweep.Transient, xs []float64, before bool) float64 {
	lo, hi := len(xs)-50, len(xs)
	if before {
		lo, hi = 0, min(len(xs), max(0, -t.From/max(t.Bin, 1)))
	}
	lo = max(lo, 0)
	if hi <= lo {
		return 0
	}
	var s float64
	for _, x := range xs[lo:hi] {
		s += x
	}
	return s / float64(hi-lo)
}

// binMean is the mean latency over the packets of the bins before the
// switch, or over the last 20 bins.
func binMean(t sweep.Transient, before bool) float64 {
	lo, hi := len(t.Packets)-20, len(t.Packets)
	if before {
		lo, hi = 0, min(len(t.Packets), max(0, -t.From/max(t.Bin, 1)))
	}
	lo = max(lo, 0)
	var n, s float64
	for i := lo; i < hi; i++ {
		n += float64(t.Packets[i])
		s += float64(t.Packets[i]) * t.Latency[i]
	}
	if n == 0 {
		return 0
	}
	return s / n
}

// experimentShape is what 'phitsim experiments' says of a sweep's size:
// series × points of the swept variable, and a transient's time series.
func experimentShape(sp sweep.Spec) string {
	x := "loads"
	if sp.Param != "" {
		x = "values of " + sp.Param
	} else if len(sp.Xs()) == 1 {
		x = "load"
	}
	s := fmt.Sprintf("%d series × %d %s", len(sp.Series), len(sp.Xs()), x)
	if len(sp.Series) > 0 && sp.Series[0].Traffic.SwitchCycle > 0 {
		s += ", time series around a pattern switch"
	}
	return s
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
