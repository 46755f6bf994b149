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
