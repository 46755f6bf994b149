package plot

import (
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/routing"
	"phitsim/site/experiment"
)

// Adaptive-routing observability: where the misrouting decisions
// were taken, the phase-A policies used, the non-minimal share over time and
// the ACOR-Switch levels.

// misrouteRouting reports whether a routing can take non-minimal paths.
func misrouteRouting(c *config.Config) bool {
	e := routing.Get(c.Routing.Name)
	return e.Has(routing.Misrouting)
}

// acorSwitch reports whether a config reports ACOR-Switch levels (every
// router's level, with routing.acorMode=switch).
func acorSwitch(c *config.Config) bool {
	e := routing.Get(c.Routing.Name)
	return e.Has(routing.AcorLevels) && c.Routing.AcorMode == "switch"
}

// phaseAShares reports whether a run's phase-A shares mean something: the
// policies (RRG-Sw, CRG-Gr, …) pick the intermediate group of a Dragonfly
// (ACOR: Adaptive Congestion-Oblivious Routing in Dragonfly networks,
// Table 1); a flattened butterfly's UGAL reports shares too, all
// "RRG-Sw", which would read as a policy it does not have.
func phaseAShares(x *result.Result) bool {
	return len(x.Misrouted.PhaseA) > 0 && onDragonfly(x)
}

// onDragonfly: the run's network has groups.
func onDragonfly(x *result.Result) bool { return x.Config.Topology.IsDragonfly() }

// anyRun reports whether some finished run satisfies f.
func anyRun(r *experiment.Results, f func(*result.Result) bool) bool {
	if r == nil {
		return false
	}
	for _, x := range r.Runs {
		if x != nil && f(x) {
			return true
		}
	}
	return false
}

func anySeries(e *experiment.Experiment, f func(*config.Config) bool) bool {
	for i := range e.Series {
		if f(&e.Series[i]) {
			return true
		}
	}
	return false
}

// Visible lists the charts that make sense for an experiment and its
// results (nil: not run yet), in page order. Load-based charts are replaced
// by execution time and usage when the workload is Graph500; the
// adaptive-routing charts appear when a series can misroute (or the results
// have misrouted packets), the transient charts when a series switches
// pattern within its measured window (or a result has a transient record), and the ACOR charts when the results have levels
// (or a series is ACOR-Switch and has not run yet).
func Visible(e *experiment.Experiment, r *experiment.Results) []string {
	if r != nil {
		e = &r.Exp
	}
	g500 := anySeries(e, (*config.Config).Graph500)
	synth := anySeries(e, func(c *config.Config) bool { return !c.Graph500() })
	var out []string
	add := func(ok bool, names ...string) {
		if ok {
			out = append(out, names...)
		}
	}
	add(synth, "accepted", "latency", "injlatency", "netlatency")
	add(anySeries(e, hotspotPattern) || anyRun(r, hasHotspot), "bgaccepted", "bglatency", "hotspotsenders")
	add(anySeries(e, hotspotStarts) || anyRun(r, hasBgSeries), "bgseries")
	add(anySeries(e, ur1ur2) || anyRun(r, hasGroups), "ur1accepted", "ur1latency")
	add(anySeries(e, srpScheme) || anyRun(r, hasSRP), "srpspeculative", "srpdropped")
	add(g500, "exectime", "usage")
	add(true, "fairness", "histogram")
	add(synth, "timeseries")
	add(anySeries(e, switches) || anyRun(r, hasTransient), "transientlatency", "transientmisrouted")
	add(anySeries(e, stepsLoad) || anyRun(r, func(x *result.Result) bool { return x.Transient != nil && len(x.Transient.Delivered) > 0 }), "transientaccepted")
	add(anySeries(e, func(c *config.Config) bool { return switches(c) && acorSwitch(c) }) ||
		anyRun(r, func(x *result.Result) bool { return x.Transient != nil && len(x.Transient.Levels) > 0 }), "transientacor")
	add(anySeries(e, notifies) || anyRun(r, hasProbabilities), "qcnprobability")
	add(anySeries(e, notifies) || anyRun(r, hasCNMs), "qcncnm")
	add(anySeries(e, notifies) || anyRun(r, hasCNMs), "qcncnmtime")
	add(anySeries(e, recnScheme) || anyRun(r, hasRECN), "recnsaq")
	add(g500, "bfs", "levels")
	mis := anySeries(e, misrouteRouting) || anyRun(r, func(x *result.Result) bool { return x.Misrouted.Packets > 0 })
	add(mis, "misrouting", "nonminimal")
	add(anyRun(r, phaseAShares), "phasea")
	acor := anyRun(r, func(x *result.Result) bool { return len(x.AcorLevels) > 0 })
	if r == nil || r.Done() == 0 {
		acor = acor || anySeries(e, acorSwitch)
	}
	add(acor, "acor", "acorrouters")
	return out
}

// Misrouting shows, at the selected point, the share of the delivered
// packets that took a non-minimal path, split by where the decision was
// taken (at injection, in the source group, in the intermediate group), one
// stacked bar per series, mean over the runs.
func Misrouting(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Misrouted packets", "no results yet")
	}
	bar := charts.NewBar()
	g := common("Misrouted packets by decision at "+pointLabel(in.Results, x), "series", "misrouted (% of delivered packets)", true)
	g = append(g, charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "", AxisLabel: &opts.AxisLabel{Interval: "0", Rotate: rotate(names)}}),
		yFromZero("misrouted (% of delivered packets)", nil))
	bar.SetGlobalOptions(g...)
	parts := []struct {
		name string
		f    func(m *result.Misrouted) float64
	}{
		{"at injection", func(m *result.Misrouted) float64 { return float64(m.AtInjection) }},
		{"in the source group", func(m *result.Misrouted) float64 { return float64(m.InSourceGroup) }},
		{"in the intermediate group", func(m *result.Misrouted) float64 { return float64(m.InIntermediateGrp) }},
		{"other", func(m *result.Misrouted) float64 {
			return float64(m.Packets - m.AtInjection - m.InSourceGroup - m.InIntermediateGrp)
		}},
	}
	groups := false
	for _, rs := range runs {
		for _, rr := range rs {
			groups = groups || onDragonfly(rr)
		}
	}
	colors := []string{"#5470c6", "#fac858", "#ee6666", "#999999"}
	for k, part := range parts {
		data := make([]opts.BarData, len(names))
		nonzero := false
		for si, rs := range runs {
			var v float64
			for _, rr := range rs {
				m := &rr.Misrouted
				if m.Packets > 0 {
					v += 100 * m.Fraction * part.f(m) / float64(m.Packets) / float64(len(rs))
				}
			}
			if v != 0 {
				nonzero = true
			}
			data[si] = opts.BarData{Value: num(v)}
		}
		// "other" only when there is some; the groups' parts only for a
		// network with groups (a flattened butterfly's UGAL decides at injection)
		if !nonzero && (part.name == "other" || (k == 1 || k == 2) && !groups) {
			continue
		}
		bar.AddSeries(part.name, data, charts.WithBarChartOpts(opts.BarChart{Stack: "misrouted"}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colors[k]}))
	}
	bar.SetXAxis(names)
	return render(bar, tooltipShadow)
}

// yFromZero is a value axis that starts at 0 (bars), up to max if not nil.
func yFromZero(name string, max any) charts.GlobalOpts {
	return charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: name, NameLocation: "middle", NameGap: 48, Min: 0, Max: max})
}

func tooltipShadow(m map[string]any) {
	if t, ok := m["tooltip"].(map[string]any); ok {
		t["axisPointer"] = map[string]any{"type": "shadow"}
	}
}

// rotate tilts category labels when there are many series.
func rotate(names []string) float64 {
	if len(names) > 4 {
		return 20
	}
	return 0
}

// PhaseA shows the share of the non-minimal packets that used each Valiant
// phase-A policy (RRG-Sw, CRG-Gr, …) at the selected point, one stacked bar
// per series that reports them.
func PhaseA(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Phase-A policies", "no results yet")
	}
	var policies []string
	seen := map[string]bool{}
	for _, rs := range runs {
		for _, rr := range rs {
			if !phaseAShares(rr) {
				continue
			}
			for _, n := range rr.Misrouted.PhaseANames {
				if !seen[n] {
					seen[n] = true
					policies = append(policies, n)
				}
			}
		}
	}
	bar := charts.NewBar()
	g := common("Phase-A policy of the non-minimal packets at "+pointLabel(in.Results, x), "series", "share of non-minimal packets (%)", true)
	g = append(g, charts.WithXAxisOpts(opts.XAxis{Type: "category", AxisLabel: &opts.AxisLabel{Interval: "0", Rotate: rotate(names)}}),
		yFromZero("share of non-minimal packets (%)", 100))
	bar.SetGlobalOptions(g...)
	for k, pol := range policies {
		data := make([]opts.BarData, len(names))
		for si, rs := range runs {
			var v float64
			n := 0
			for _, rr := range rs {
				if !phaseAShares(rr) {
					continue
				}
				n++
				for i, name := range rr.Misrouted.PhaseANames {
					if name == pol && i < len(rr.Misrouted.PhaseA) {
						v += rr.Misrouted.PhaseA[i]
					}
				}
			}
			if n > 0 {
				v = 100 * v / float64(n)
			}
			data[si] = opts.BarData{Value: num(v)}
		}
		bar.AddSeries(pol, data, charts.WithBarChartOpts(opts.BarChart{Stack: "phaseA"}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(k + 4)}))
	}
	bar.SetXAxis(names)
	return render(bar, tooltipShadow)
}

// meanSamples averages a time-series field over the runs of one point.
func meanSamples(rs []*result.Result, f func(s *result.Sample) float64) (cyc []int64, v []float64) {
	if len(rs) == 0 {
		return nil, nil
	}
	n := len(rs[0].Series)
	cyc, v = make([]int64, n), make([]float64, n)
	for _, rr := range rs {
		for i := 0; i < n && i < len(rr.Series); i++ {
			v[i] += f(&rr.Series[i]) / float64(len(rs))
			cyc[i] = rr.Series[i].Cycle
		}
	}
	return
}

// overTime adds to line one series per experiment series: f's values over
// its runs rs against the cycles of their samples (nil: none to draw), the
// warm-up's end and the pattern switch marked on the first drawn.
func overTime(line *charts.Line, names []string, runs [][]*result.Result, f func(rs []*result.Result) ([]int64, []float64)) {
	marked := false
	for si, rs := range runs {
		if len(rs) == 0 {
			continue
		}
		cyc, v := f(rs)
		if cyc == nil {
			continue
		}
		data := make([]opts.LineData, len(v))
		for i := range v {
			data[i] = opts.LineData{Value: []any{cyc[i], num(v[i])}}
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)})}
		if !marked {
			marked = true
			so = append(so, phaseMarks(rs[0].Config))
		}
		line.AddSeries(names[si], data, so...)
	}
}

// phaseMarks marks the end of warm-up and the traffic switch of a run.
func phaseMarks(c config.Config) charts.SeriesOpts {
	var ml []any
	if c.Sim.Warmup > 0 {
		ml = append(ml, map[string]any{"xAxis": c.Sim.Warmup, "name": "end of warm-up",
			"label": map[string]any{"show": true, "formatter": "warm-up end", "position": "insideEndTop"}})
	}
	if c.Traffic.SwitchCycle > 0 {
		ml = append(ml, map[string]any{"xAxis": c.Sim.Warmup + c.Traffic.SwitchCycle, "name": "pattern switch",
			"label": map[string]any{"show": true, "formatter": "→ " + c.Traffic.SwitchPattern, "position": "insideEndTop"}})
	}
	return charts.WithSeriesOpts(func(s *charts.SingleSeries) {
		if len(ml) > 0 {
			s.MarkLines = &opts.MarkLines{Data: ml, MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
				LineStyle: &opts.LineStyle{Color: "#888", Type: "dashed", Width: 1}}}
		}
	})
}

// NonMinimal is the share of delivered packets that took a non-minimal
// path, per interval of the run (sim.interval), at the selected point: mean
// over the runs, one line per series.
func NonMinimal(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Non-minimal paths over time", "no results yet")
	}
	line := charts.NewLine()
	line.SetGlobalOptions(common("Non-minimal paths over time at "+pointLabel(in.Results, x), "time (cycles)", "non-minimal (% of delivered packets)", true)...)
	overTime(line, names, runs, func(rs []*result.Result) ([]int64, []float64) {
		return meanSamples(rs, func(s *result.Sample) float64 { return s.Misrouted })
	})
	return render(line, nil)
}

// Acor shows the ACOR-Switch levels over the run at the selected point:
// the mean router level (left axis, 1…3) and the routers at levels 2 and 3
// (right axis), mean over the runs, for the series that report them.
func Acor(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("ACOR level over time", "no results yet")
	}
	line := charts.NewLine()
	g := common("ACOR-Switch level over time at "+pointLabel(in.Results, x), "time (cycles)", "mean router level (1 CRG-Gr … 3 RRG-Sw)", true)
	g = append(g, charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "mean router level (1 CRG-Gr … 3 RRG-Sw)", NameLocation: "middle", NameGap: 40, Min: 1}))
	line.SetGlobalOptions(g...)
	line.ExtendYAxis(opts.YAxis{Type: "value", Name: "routers at level 2 (dashed) / 3 (dotted)", NameLocation: "middle", NameGap: 44,
		Position: "right", Min: 0, SplitLine: &opts.SplitLine{Show: opts.Bool(false)}})
	marked := false
	for si, rs := range runs {
		var with []*result.Result
		for _, rr := range rs {
			if len(rr.Series) > 0 && len(rr.Series[len(rr.Series)-1].AcorRouters) > 0 {
				with = append(with, rr)
			}
		}
		if len(with) == 0 {
			continue
		}
		series := func(f func(s *result.Sample) float64) []opts.LineData {
			cyc, v := meanSamples(with, f)
			data := make([]opts.LineData, len(v))
			for i := range v {
				data[i] = opts.LineData{Value: []any{cyc[i], num(v[i])}}
			}
			return data
		}
		level := func(l int) func(s *result.Sample) float64 {
			return func(s *result.Sample) float64 {
				if l < len(s.AcorRouters) {
					return float64(s.AcorRouters[l])
				}
				return 0
			}
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}), charts.WithLineStyleOpts(opts.LineStyle{Width: 2})}
		if !marked {
			marked = true
			so = append(so, phaseMarks(with[0].Config))
		}
		line.AddSeries(names[si]+" level", series(func(s *result.Sample) float64 { return s.AcorLevel }), so...)
		line.AddSeries(names[si]+" routers at 2", series(level(1)),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), YAxisIndex: 1}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}), charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed", Width: 1}))
		line.AddSeries(names[si]+" routers at 3", series(level(2)),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), YAxisIndex: 1}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}), charts.WithLineStyleOpts(opts.LineStyle{Type: "dotted", Width: 1}))
	}
	return render(line, func(m map[string]any) {
		setGrid(m, "right", "64")
	})
}

// AcorRouters is the ACOR-Switch level of every router at the end of the
// run (Result.AcorLevels) at the selected point: a heat map of series ×
// router, the mean level over the runs.
func AcorRouters(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("ACOR level per router", "no results yet")
	}
	hm := charts.NewHeatMap()
	g := common("ACOR-Switch level per router at the end, at "+pointLabel(in.Results, x), "router", "", false)
	g = append(g, charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "router", NameLocation: "middle", NameGap: 28, SplitArea: &opts.SplitArea{Show: opts.Bool(false)}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: nil}),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "inside", XAxisIndex: 0}))
	hm.SetGlobalOptions(g...)
	var ys []string
	n := 0
	var data []opts.HeatMapData
	for si, rs := range runs {
		var sum []float64
		k := 0
		for _, rr := range rs {
			if len(rr.AcorLevels) == 0 {
				continue
			}
			k++
			for i, l := range rr.AcorLevels {
				for len(sum) <= i {
					sum = append(sum, 0)
				}
				sum[i] += float64(l)
			}
		}
		if k == 0 {
			continue
		}
		y := len(ys)
		ys = append(ys, names[si])
		for i, s := range sum {
			data = append(data, opts.HeatMapData{Value: []any{i, y, num(s / float64(k))}})
		}
		n = max(n, len(sum))
	}
	cats := make([]string, n)
	for i := range cats {
		cats[i] = strconv.Itoa(i)
	}
	hm.SetXAxis(cats)
	hm.AddSeries("level", data)
	return render(hm, func(m map[string]any) {
		if ya, ok := m["yAxis"].([]any); ok && len(ya) > 0 {
			a := ya[0].(map[string]any)
			a["data"], a["name"] = ys, ""
		}
		m["visualMap"] = []any{map[string]any{"type": "continuous", "min": 1, "max": 3, "calculable": false,
			"orient": "horizontal", "left": "center", "bottom": 0, "itemHeight": 120, "itemWidth": 10,
			"text": []string{"level 3", "level 1"}, "inRange": map[string]any{"color": []string{"#e8eefc", "#fac858", "#ee6666"}}}}
		setGrid(m, "left", "96")
		setGrid(m, "bottom", "72")
		m["legend"] = map[string]any{"show": false}
	})
}
