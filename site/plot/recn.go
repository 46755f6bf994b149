package plot

import (
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/site/netview"
	"phitsim/site/protocol"
)

// RECN's views (Duato et al., "A New Scalable and Cost-Effective
// Congestion Management Strategy for Lossless Multistage Interconnection
// Networks"): the SAQ utilisation over the run (RECN paper Fig. 4) and the
// fat tree with its switches coloured by the SAQs they hold (the
// congestion tree of §3.4 at one snapshot).

func init() {
	Builders["recnsaq"] = RECNSAQs
}

// recnScheme: a configuration runs RECN.
func recnScheme(c *config.Config) bool { return c.Congestion.Scheme == "recn" }

func hasRECN(x *result.Result) bool { return x.RECN != nil }

// noRECN says why the SAQ chart has no line at the point shown: the RECN
// series have no finished run there yet (the experiment running, or
// cancelled before them), or no series runs RECN.
func noRECN(in Input, runs [][]*result.Result) string {
	if waiting(in, runs, recnScheme) {
		return "no run of a RECN series has finished at this point yet"
	}
	return "no RECN result at this point: set congestion.scheme=recn"
}

// waiting tells whether the experiment has series of a kind (of) and none
// of them has a finished run among runs (pointRuns'): a chart of that
// kind is empty because its runs are still to come, not for want of such
// a series.
func waiting(in Input, runs [][]*result.Result, of func(*config.Config) bool) bool {
	some := false
	for si := range runs {
		if si < len(in.Results.Exp.Series) && of(&in.Results.Exp.Series[si]) {
			if len(runs[si]) > 0 {
				return false
			}
			some = true
		}
	}
	return some
}

// hotspotArea is HOTSPOT's window (traffic.hotspotStart–hotspotEnd, cycles
// from the run's start) as a shaded mark area; nil without a window.
func hotspotArea(c *config.Config) []any {
	if c.Traffic.Pattern != "HOTSPOT" || c.Traffic.HotspotEnd <= 0 {
		return nil
	}
	return []any{[]map[string]any{{"xAxis": c.Traffic.HotspotStart, "name": "hotspot",
		"itemStyle": map[string]any{"color": "rgba(238,102,102,0.12)"}}, {"xAxis": c.Traffic.HotspotEnd}}}
}

// saqAxis names the per-side axis; its unit is no engine unit, so a
// physical basis leaves it as it is.
const saqAxis = "SAQs at the busiest side (lines)"

// RECNSAQs is the RECN paper's Fig. 4 at the selected point, one group of
// three lines per RECN series (mean over its runs): the most SAQ lines
// allocated at one ingress side and at one egress side or interface in
// each sim.interval (left axis), and in the whole network (right axis),
// against the time in cycles (µs on a physical basis), HOTSPOT's window
// shaded.
func RECNSAQs(in Input) []byte {
	const title = "SAQ utilisation"
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty(title, "no results yet")
	}
	line := charts.NewLine()
	line.SetGlobalOptions(common(title+" at "+pointLabel(in.Results, x), "time (cycles)", saqAxis, true)...)
	line.ExtendYAxis(opts.YAxis{Type: "value", Name: "SAQs in the network (lines)", NameLocation: "middle", NameGap: 44, Position: "right",
		SplitLine: &opts.SplitLine{Show: opts.Bool(false)}})
	drawn := false
	for si, rs := range runs {
		var with []*result.Result
		for _, rr := range rs {
			if rr.RECN != nil && len(rr.RECN.Total) > 0 {
				with = append(with, rr)
			}
		}
		if len(with) == 0 {
			continue
		}
		// the intervals' ends: Series' cycles (RECN's per-interval maxima
		// are kept beside Series, one per interval)
		n := min(len(with[0].Series), len(with[0].RECN.Total))
		mean := func(f func(x *result.RECN) []int32) []opts.LineData {
			d := make([]opts.LineData, n)
			for i := range d {
				var s float64
				for _, rr := range with {
					if v := f(rr.RECN); i < len(v) {
						s += float64(v[i])
					}
				}
				d[i] = opts.LineData{Value: []any{with[0].Series[i].Cycle, num(s / float64(len(with)))}}
			}
			return d
		}
		style := func(dash string, axis int) []charts.SeriesOpts {
			return []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Step: "end", YAxisIndex: axis}),
				charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}), charts.WithLineStyleOpts(opts.LineStyle{Type: dash, Width: 1.5})}
		}
		ingress := style("solid", 0)
		if !drawn {
			drawn = true
			if hot := hotspotArea(&with[0].Config); hot != nil {
				ingress = append(ingress, charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.MarkAreas = &opts.MarkAreas{Data: hot} }))
			}
		}
		line.AddSeries(names[si]+" max per ingress side", mean(func(x *result.RECN) []int32 { return x.MaxIngress }), ingress...)
		line.AddSeries(names[si]+" max per egress side", mean(func(x *result.RECN) []int32 { return x.MaxEgress }), style("dashed", 0)...)
		line.AddSeries(names[si]+" network total", mean(func(x *result.RECN) []int32 { return x.Total }), style("dotted", 1)...)
	}
	if !drawn {
		return Empty(title+" at "+pointLabel(in.Results, x), noRECN(in, runs))
	}
	return render(line, func(m map[string]any) {
		setGrid(m, "right", "64") // room for the total's axis
		if ys, ok := m["yAxis"].([]any); ok {
			for _, y := range ys {
				y.(map[string]any)["min"] = 0 // counts: from 0
				y.(map[string]any)["minInterval"] = 1
			}
		}
	})
}

// SAQTop is the colour scale's top for the live view's SAQ drawing: the
// most SAQ lines one switch or interface holds in any frame, so that the
// slider's frames share one scale; 0 when the frames carry no SAQ counts
// (a run without RECN).
func SAQTop(frames []*protocol.NetInfo) int {
	top, seen := 0, false
	for _, f := range frames {
		if f == nil || f.SAQs == nil {
			continue
		}
		seen = true
		for _, v := range f.SAQs {
			top = max(top, int(v))
		}
		for _, v := range f.HostSAQs {
			top = max(top, int(v))
		}
	}
	if seen {
		return max(top, 1)
	}
	return 0
}

// NetGraphSAQ is the live view's drawing of a RECN run: switches (and a fat
// tree's hosts) coloured by the SAQ lines they hold at the snapshot, on the
// viridis scale from 0 to top (SAQTop), with its legend "SAQs allocated":
// the congestion tree at that time (a top below 1 is taken as 1).
func NetGraphSAQ(l netview.Layout, n *protocol.NetInfo, title string, top int) []byte {
	return netGraph(l, n, title, max(top, 1))
}
