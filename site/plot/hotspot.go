package plot

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"phitsim/engine/config"
	"phitsim/engine/figures"
	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// HOTSPOT's charts (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §V-A): the background class's accepted load and
// latency against the offered load, which its figures plot, and at the
// selected point the accepted hotspot bandwidth of each sender (its Fig. 14).

func init() {
	Builders["bgaccepted"] = BackgroundAccepted
	Builders["bglatency"] = BackgroundLatency
	Builders["hotspotsenders"] = HotspotSenders
	Builders["bgseries"] = BackgroundSeries
}

// hasBgSeries: a result has the background per interval (a hotspot that
// starts during the run).
func hasBgSeries(r *result.Result) bool { return r.Hotspot != nil && r.Hotspot.Series != nil }

// hotspotStarts: a configuration's hotspot starts during the run.
func hotspotStarts(c *config.Config) bool { return hotspotPattern(c) && c.Traffic.HotspotStart > 0 }

// BackgroundSeries is the background class's mean latency in each
// interval of the run against the time from the hotspot's start
// (traffic.hotspotStart), one line per series at the selected point, its
// runs pooled (figures.PoolBackground): Kim et al.'s Fig. 13, how the
// background's latency reacts to the hotspot and whether it returns. A
// dotted line per series marks figures.BgSettleFactor × its mean before
// the start, the level it must return within.
func BackgroundSeries(in Input) []byte {
	const title = "Background latency around the hotspot's start"
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty(title, "no results yet")
	}
	line := charts.NewLine()
	yName := "background average latency (cycles)"
	line.SetGlobalOptions(common(title+" at "+pointLabel(in.Results, x), "time of delivery from the hotspot's start (cycles)", yName, true)...)
	drawn := 0
	for si, rs := range runs {
		c, ok := figures.PoolBackground(rs)
		if !ok || len(c.Cycle) == 0 {
			continue
		}
		data := make([]opts.LineData, len(c.Cycle))
		for i := range c.Cycle {
			var v any = num(c.Latency[i])
			if c.Packets[i] == 0 {
				v = "-"
			}
			data[i] = opts.LineData{Value: []any{c.Cycle[i], v}}
		}
		ml := []any{map[string]any{"yAxis": num(figures.BgSettleFactor * c.Before()), "name": fmt.Sprintf("%s: %g× before the start", names[si], figures.BgSettleFactor),
			"label": map[string]any{"show": false}, "lineStyle": map[string]any{"color": Color(si), "type": "dotted"}}}
		if drawn == 0 {
			ml = append(ml, map[string]any{"xAxis": 0, "name": "hotspot starts",
				"label": map[string]any{"show": true, "formatter": "hotspot starts", "position": "insideEndTop"}, "lineStyle": map[string]any{"color": "#888"}})
		}
		line.AddSeries(names[si], data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}),
			charts.WithSeriesOpts(func(s *charts.SingleSeries) {
				s.MarkLines = &opts.MarkLines{Data: ml, MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
					LineStyle: &opts.LineStyle{Type: "dashed", Width: 1}}}
			}))
		drawn++
	}
	if drawn == 0 {
		if waiting(in, runs, hotspotStarts) {
			return Empty(title+" at "+pointLabel(in.Results, x), "no run of a series whose hotspot starts during the run has finished at this point yet")
		}
		return Empty(title, "no background per interval: set traffic.pattern=HOTSPOT with traffic.hotspotStart after the first intervals")
	}
	return render(line, nil)
}

// hasHotspot: a result has HOTSPOT's classes.
func hasHotspot(r *result.Result) bool { return r.Hotspot != nil }

// hotspotPattern: a configuration runs HOTSPOT (before or after a switch).
func hotspotPattern(c *config.Config) bool {
	return c.Traffic.Pattern == "HOTSPOT" || c.Traffic.SwitchCycle > 0 && c.Traffic.SwitchPattern == "HOTSPOT"
}

func bg(f func(h *experiment.Point) float64) func(p experiment.Point) float64 {
	return func(p experiment.Point) float64 {
		if p.Agg.Hotspot == nil {
			return math.NaN()
		}
		return f(&p)
	}
}

var bgAccepted = metric{"Background accepted vs offered load", "background accepted load (" + unitLoad + ")",
	bg(func(p *experiment.Point) float64 { return p.Agg.Hotspot.Accepted.Mean }),
	bg(func(p *experiment.Point) float64 { return p.Agg.Hotspot.Accepted.CI95 }), nil}

var bgLatency = metric{"Background latency vs offered load", "background average latency (cycles)",
	bg(func(p *experiment.Point) float64 { return p.Agg.Hotspot.Latency.Mean }),
	bg(func(p *experiment.Point) float64 { return p.Agg.Hotspot.Latency.CI95 }), nil}

// BackgroundAccepted is HOTSPOT's background class (UR among the nodes that
// are neither the hotspot nor a sender): accepted load per background node
// against the offered load, mean over the seeds with 95% CI whiskers.
func BackgroundAccepted(in Input) []byte { return curve(in, bgAccepted, false) }

// BackgroundLatency is the background class's average latency.
func BackgroundLatency(in Input) []byte { return curve(in, bgLatency, false) }

// HotspotSenders shows, at the selected point, the accepted hotspot
// bandwidth of each sender (phits per cycle delivered to the hotspot), mean
// over the runs, one bar per sender and series; the per-router chart's bars.
func HotspotSenders(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Hotspot bandwidth per sender", "no results yet")
	}
	var senders []int32
	hot := int32(-1)
	values := make([][]float64, len(runs))
	for si, rs := range runs {
		for _, rr := range rs {
			h := rr.Hotspot
			if h == nil {
				continue
			}
			if senders == nil {
				senders, hot = h.Senders, h.Node
			}
			if values[si] == nil {
				values[si] = make([]float64, len(h.SenderAccepted))
			}
			for i, v := range h.SenderAccepted {
				if i < len(values[si]) {
					values[si][i] += v / float64(len(rs))
				}
			}
		}
	}
	if senders == nil {
		return Empty("Hotspot bandwidth per sender", "no HOTSPOT result")
	}
	cats := make([]string, len(senders))
	for i, n := range senders {
		cats[i] = fmt.Sprint(n)
	}
	return bars(fmt.Sprintf("Hotspot bandwidth per sender (into node %d) at %s", hot, pointLabel(in.Results, x)),
		"sender node", "accepted hotspot bandwidth (phits/node/cycle; each sender's)", names, values, cats, 0)
}
