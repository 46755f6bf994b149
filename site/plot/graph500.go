package plot

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// Graph500 charts: execution time and network usage against the
// swept variable (node speed tq, link bandwidth, …), the usage over time of
// one run with its BFS levels, and the time per level.

func g500(f func(g *experiment.Point) float64) func(p experiment.Point) float64 {
	return func(p experiment.Point) float64 {
		if p.Agg.Graph500 == nil {
			return math.NaN()
		}
		return f(&p)
	}
}

// The titles end in "offered load": curve replaces it with the swept
// parameter.
var execTime = metric{"Execution time vs offered load", "execution time (ms, simulated)",
	g500(func(p *experiment.Point) float64 { return 1e3 * p.Agg.Graph500.Seconds.Mean }),
	g500(func(p *experiment.Point) float64 { return 1e3 * p.Agg.Graph500.Seconds.CI95 }), nil}

var usage = metric{"Network usage vs offered load", "network usage (phits/process/cycle)",
	g500(func(p *experiment.Point) float64 { return p.Agg.Graph500.Usage.Mean }),
	g500(func(p *experiment.Point) float64 { return p.Agg.Graph500.Usage.CI95 }), nil}

// ExecTime is the Graph500 execution time (simulated ms, mean over the seeds
// with 95% CI whiskers) against the swept variable, one curve per series;
// a triangle marks a point where some run hit the sim.cycles cap.
func ExecTime(in Input) []byte { return curve(in, execTime, false) }

// Usage is the Graph500 job's network usage (phits injected per process
// and cycle) against the swept variable.
func Usage(in Input) []byte { return curve(in, usage, false) }

// firstG500 is, per series, the first finished Graph500 run of the point
// (the lowest seed): runs of other seeds have other root degrees and
// lengths, so they are not averaged.
func firstG500(runs [][]*result.Result) []*result.Result {
	out := make([]*result.Result, len(runs))
	for si, rs := range runs {
		for _, rr := range rs {
			if rr.Graph500 != nil && (out[si] == nil || rr.Seed < out[si].Seed) {
				out[si] = rr
			}
		}
	}
	return out
}

// BFS is the network usage over time of one Graph500 run per series at the
// selected point (its first seed), in simulated ms, with the BFS levels of
// the first series shaded and labelled.
func BFS(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Network usage over time", "no results yet")
	}
	first := firstG500(runs)
	seed := ""
	for _, rr := range first {
		if rr != nil {
			seed = fmt.Sprintf(" (seed %d)", rr.Seed)
			break
		}
	}
	line := charts.NewLine()
	line.SetGlobalOptions(common("Network usage over time at "+pointLabel(in.Results, x)+seed, "time (ms, simulated)",
		"usage (phits/process/cycle)", true)...)
	marked := false
	for si, rr := range first {
		if rr == nil {
			continue
		}
		g := rr.Graph500
		ms := g.CycleNs / 1e6
		data := make([]opts.LineData, 0, len(g.Series)+1)
		data = append(data, opts.LineData{Value: []any{0, 0}})
		for _, s := range g.Series {
			data = append(data, opts.LineData{Value: []any{num(float64(s.Cycle) * ms), num(s.Usage)}})
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Step: "end"}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)})}
		if !marked && len(g.Levels) > 0 {
			marked = true
			var areas []any
			for i, l := range g.Levels {
				end := l.End
				if end == 0 {
					end = g.Cycles
				}
				color := "rgba(84,112,198,0.06)"
				if i%2 == 1 {
					color = "rgba(84,112,198,0.16)"
				}
				areas = append(areas, []map[string]any{
					{"xAxis": num(float64(l.Start) * ms), "name": fmt.Sprintf("L%d", l.Level), "itemStyle": map[string]any{"color": color}},
					{"xAxis": num(float64(end) * ms)}})
			}
			so = append(so, charts.WithSeriesOpts(func(s *charts.SingleSeries) {
				s.MarkAreas = &opts.MarkAreas{Data: areas}
			}))
		}
		line.AddSeries(names[si], data, so...)
	}
	return render(line, func(m map[string]any) {
		series, _ := m["series"].([]any)
		for _, s := range series {
			if ma, ok := s.(map[string]any)["markArea"].(map[string]any); ok {
				ma["label"] = map[string]any{"show": true, "position": "insideTop", "color": "#555", "fontSize": 11}
				ma["silent"] = true
			}
		}
		if x, ok := m["xAxis"].([]any); ok && len(x) > 0 {
			x[0].(map[string]any)["min"] = 0
		}
	})
}

// Levels is the duration of each BFS level (simulated ms) at the selected
// point, mean over the runs that reached the level, one bar per series.
func Levels(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Time per BFS level", "no results yet")
	}
	bar := charts.NewBar()
	g := common("Time per BFS level at "+pointLabel(in.Results, x), "BFS level", "time (ms, simulated)", true)
	g = append(g, charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "BFS level", NameLocation: "middle", NameGap: 28}),
		yFromZero("time (ms, simulated)", nil))
	bar.SetGlobalOptions(g...)
	n := 0
	for _, rs := range runs {
		for _, rr := range rs {
			if rr.Graph500 != nil {
				n = max(n, len(rr.Graph500.Levels))
			}
		}
	}
	for si, rs := range runs {
		data := make([]opts.BarData, n)
		for l := 0; l < n; l++ {
			var sum float64
			k := 0
			for _, rr := range rs {
				if rr.Graph500 != nil && l < len(rr.Graph500.Levels) {
					sum += 1e3 * rr.Graph500.Levels[l].Seconds
					k++
				}
			}
			if k > 0 {
				data[l] = opts.BarData{Value: num(sum / float64(k))}
			} else {
				data[l] = opts.BarData{Value: 0}
			}
		}
		bar.AddSeries(names[si], data, charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}))
	}
	cats := make([]string, n)
	for i := range cats {
		cats[i] = fmt.Sprint(i)
	}
	bar.SetXAxis(cats)
	return render(bar, tooltipShadow)
}
