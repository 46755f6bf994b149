package plot

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// The transient charts (thesis §4.3.2, Figs. 4.8–4.10): at the selected
// point, each series' runs pooled (sweep.PoolTransient) into the average
// latency and the misrouted share per 10-cycle bin, against the cycle the
// packets were generated relative to the pattern switch (the thesis's
// "cycle 0"), so that each bin shows what the routing decided for the
// packets generated then.

// switches reports whether a configuration changes pattern during its
// measured window (a transient record).
func switches(c *config.Config) bool { return c.TransientBins() > 0 }

func hasTransient(x *result.Result) bool { return x.Transient != nil }

// stepsLoad reports whether a configuration's switch also steps the load.
func stepsLoad(c *config.Config) bool { return switches(c) && c.Traffic.SwitchLoad > 0 }

// TransientLatency is the average latency of the packets generated in each
// bin against the cycle from the switch, one line per series.
func TransientLatency(in Input) []byte {
	return transientChart(in, "Latency around the pattern switch", "latency (cycles)",
		func(t *sweep.Transient, i int) float64 { return t.Latency[i] }, false)
}

// TransientMisrouted is the share of the packets generated in each bin that
// were misrouted (a global misroute or a Valiant path), one line per series,
// with each series' settle time (sweep.Settle) marked.
func TransientMisrouted(in Input) []byte {
	return transientChart(in, "Misrouted packets around the pattern switch", "misrouted (% of packets generated in the bin)",
		func(t *sweep.Transient, i int) float64 { return t.Misrouted[i] }, true)
}

// TransientAccepted is the load delivered in each bin (by delivery cycle)
// against the cycle from the switch, one line per series: a load step's
// (traffic.switchLoad) reaction in throughput (ACOR paper §6.2.1).
func TransientAccepted(in Input) []byte {
	return transientChartOf(in, "Accepted load around the switch", "accepted (phits/node/cycle, by delivery cycle)",
		func(t *sweep.Transient, i int) float64 { return t.Accepted[i] }, false,
		func(t *sweep.Transient) bool { return len(t.Accepted) == len(t.Packets) }, "no load-step record: set traffic.switchLoad")
}

// TransientAcor is ACOR-Switch's mean level over the routers at the start
// of each bin against the cycle from the switch, one line per ACOR series
// (ACOR paper Figs. 9–10: the level follows the load).
func TransientAcor(in Input) []byte {
	return transientChartOf(in, "ACOR level around the switch", "mean ACOR-Switch level (1 CRG-Gr … 3 RRG-Sw)",
		func(t *sweep.Transient, i int) float64 { return t.AcorLevel[i] }, false,
		func(t *sweep.Transient) bool { return len(t.AcorLevel) == len(t.Packets) }, "no ACOR-Switch series with a transient record")
}

func transientChart(in Input, title, yName string, f func(t *sweep.Transient, i int) float64, settle bool) []byte {
	return transientChartOf(in, title, yName, f, settle, nil, "")
}

// transientChartOf draws the series whose pooled record has (nil: every
// series), else says why not.
func transientChartOf(in Input, title, yName string, f func(t *sweep.Transient, i int) float64, settle bool,
	has func(t *sweep.Transient) bool, none string) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty(title, "no results yet")
	}
	var ts []*sweep.Transient
	for si, rs := range runs {
		if t := sweep.PoolTransient(si, x, rs); t != nil && len(t.Packets) > 0 && (has == nil || has(t)) {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		if none == "" {
			none = "no transient record: set traffic.switchCycle within the measured window"
		}
		return Empty(title, none)
	}
	line := charts.NewLine()
	g := common(title+" at "+pointLabel(in.Results, x), "time of generation from the switch (cycles)", yName, true)
	line.SetGlobalOptions(g...)
	if settle {
		line.SetGlobalOptions(yFromZero(yName, 100))
	}
	to := ""
	if c := in.Results.Exp.Series; len(c) > 0 {
		to = c[0].Traffic.SwitchPattern
		if c[0].Traffic.SwitchLoad > 0 {
			to += fmt.Sprintf(" at %g", c[0].Traffic.SwitchLoad)
		}
	}
	for k, t := range ts {
		data := make([]opts.LineData, len(t.Packets))
		for i := range t.Packets {
			var v any = num(f(t, i))
			if t.Packets[i] == 0 {
				v = "-" // no packet generated in the bin: a gap
			}
			data[i] = opts.LineData{Value: []any{t.From + i*t.Bin, v}}
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(t.Series)})}
		var ml []any
		if k == 0 {
			ml = append(ml, map[string]any{"xAxis": 0, "name": "pattern switch",
				"label":     map[string]any{"show": true, "formatter": "→ " + to, "position": "insideEndTop"},
				"lineStyle": map[string]any{"color": "#888"}})
		}
		if settle && t.Settle != nil {
			ml = append(ml, map[string]any{"xAxis": *t.Settle, "name": fmt.Sprintf("%s settles", names[t.Series]),
				"label": map[string]any{"show": false}, "lineStyle": map[string]any{"color": Color(t.Series)}})
		}
		if len(ml) > 0 {
			so = append(so, charts.WithSeriesOpts(func(s *charts.SingleSeries) {
				s.MarkLines = &opts.MarkLines{Data: ml, MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
					LineStyle: &opts.LineStyle{Type: "dashed", Width: 1}}}
			}))
		}
		line.AddSeries(names[t.Series], data, so...)
	}
	return render(line, nil)
}
