package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// printQCNReactions summarises a transient sweep with a QCN-Switch series in
// the QCN-Switch paper's terms (§4.3, Figs. 10, 12, 14): 20-µs bins, the
// reaction time as the latency's settling (sweep.NewQCNReaction), in cycles
// and µs, and for QCN-Switch the mean minimal probability of a mid-group
// router's port toward S_out after the first bin (Fig. 12b).
func printQCNReactions(w io.Writer, oc *sweep.Outcome) {
	runOf := func(name string, x float64) *result.Result {
		for _, r := range oc.Runs {
			if r.Config.Name == name && (r.Config.Traffic.Load == x || oc.Spec.Param != "") {
				return r
			}
		}
		return nil
	}
	qcn := false
	for _, r := range oc.Runs {
		qcn = qcn || r.Config.Routing.Name == "QCN_SWITCH" && r.Transient != nil
	}
	if !qcn || len(oc.Transients) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "reaction (20 µs bins)\tx\tlatency before → settled (cycles)\tsettles after\texcess after the switch\tmisrouted before → settled (%)\tP toward S_out after (%)\t\n")
	for _, t := range oc.Transients {
		q := sweep.NewQCNReaction(t)
		r := runOf(t.Name, t.X)
		settle := "never (in the record)"
		if q.LatencySettle != nil {
			settle = strconv.FormatFloat(*q.LatencySettle, 'f', 0, 64) + " cycles"
			if r != nil {
				if b, ok := r.Config.Basis(); ok {
					settle += fmt.Sprintf(" (%.0f µs)", *q.LatencySettle*b.CycleNs()/1000)
				}
			}
		}
		before := 0.0
		if len(q.Latency) > 0 && q.From < 0 {
			before = q.Latency[0]
		}
		p := "—"
		if from, every, ps := sweep.SOutProbability(r); len(ps) > 0 {
			var sum float64
			var n int
			for k, v := range ps {
				if from+k*every >= sweep.QCNBin {
					sum, n = sum+v, n+1
				}
			}
			if n > 0 {
				p = fmt.Sprintf("%.1f", sum/float64(n))
			}
		}
		fmt.Fprintf(tw, "series %d (%s)\t%g\t%.0f → %.0f\t%s\t%+.0f%%\t%.1f → %.1f\t%s\t\n",
			t.Series+1, t.Name, t.X, before, q.LatencySettled, settle, 100*q.LatencyExcess, q.Before, q.Settled, p)
	}
	tw.Flush()
	fmt.Fprintf(w, "settled: the second half of the record after the switch; settles: every later bin within ±%.0f%% of it\n", 100*sweep.LatencyBand)
}

// printQCNGroup0 is QCN-Switch paper Figs. 7 and 9 for a sweep under ADV+1:
// per run, the packets each router of group 0 generated, relative to the
// group's mean, and S_out's deficit below the others' mean (S_out, the
// router linked to group 1, starves under input sampling without source
// processing), and the minimal probability of a mid-group router's port
// toward S_out, its mean over the measured window and its value at the end
// (Fig. 12b's port, sweep.MeasuredSOutProbability). Nothing without a
// QCN-Switch series under ADV.
func printQCNGroup0(w io.Writer, oc *sweep.Outcome) {
	var rows []*result.Result
	qcn := false
	for _, r := range oc.Runs {
		if r.Config.Traffic.Pattern == "ADV" && r.Config.Traffic.SwitchCycle == 0 && len(r.Fairness.PerRouter) >= r.Config.Topology.A {
			rows = append(rows, r)
			qcn = qcn || r.Config.Routing.Name == "QCN_SWITCH"
		}
	}
	if !qcn {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "group 0 injection (Figs. 7, 9)\tload\tseed\tper router ÷ the group's mean\tS_out below the others\tP toward S_out measured, end (%)\t\n")
	for _, r := range rows {
		sOut, _, _, err := sweep.SOut(r.Config)
		if err != nil {
			continue
		}
		per := r.Fairness.PerRouter[:r.Config.Topology.A]
		var sum, others float64
		for i, n := range per {
			sum += float64(n)
			if i != sOut {
				others += float64(n)
			}
		}
		mean := sum / float64(len(per))
		rel := make([]string, len(per))
		for i, n := range per {
			rel[i] = strconv.FormatFloat(float64(n)/mean, 'f', 2, 64)
		}
		deficit := 1 - float64(per[sOut])/(others/float64(len(per)-1))
		p := "—"
		if mean, last, ok := sweep.MeasuredSOutProbability(r); ok {
			p = fmt.Sprintf("%.1f, %.1f", mean, last)
		}
		fmt.Fprintf(tw, "%s\t%g\t%d\t%v\t%.1f%%\t%s\t\n", r.Config.Name, r.Config.Traffic.Load, r.Seed, rel, 100*deficit, p)
	}
	tw.Flush()
}
