// Package plot builds the ECharts options of the page's charts with
// go-echarts option types and renders them as JSON for echarts.setOption.
// No DOM code: the UI only hands the JSON to ECharts.
package plot

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"gonum.org/v1/gonum/stat/distuv"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/stats"
	"phitsim/engine/units"
	"phitsim/site/experiment"
	"phitsim/site/facts"
	"phitsim/site/protocol"
)

// Palette of the series, so that partial points and whiskers can be given
// their series' colour: Paul Tol's "muted" scheme, whose colours stay
// apart for colour-blind readers (TestPaletteDistinctUnderDeuteranopia;
// ECharts' default merges green and red under deuteranopia).
var Palette = []string{"#332288", "#CC6677", "#117733", "#DDCC77", "#88CCEE",
	"#882255", "#44AA99", "#999933", "#AA4499"}

// Color of series i.
func Color(i int) string { return Palette[i%len(Palette)] }

// Running is the partial estimate of a point still running (from the
// workers' progress messages), shown as hollow symbols.
type Running struct {
	Series   int
	X        float64
	Accepted float64
	Latency  float64
}

// Input of the curve charts.
type Input struct {
	Results *experiment.Results // nil: empty charts with the right axes
	Running []Running
	// Point selects the swept value of the per-point charts (fairness,
	// histogram, time series).
	Point int
	// Router selects the router of group 0 in the QCN-Switch probability
	// chart; outside the group, its middle router (QCNProbability).
	Router int
}

const unitLoad = "phits/node/cycle"

func xAxisName(r *experiment.Results) string {
	param := experiment.LoadParam
	if r != nil {
		param = r.Exp.Sweep.Param
	}
	if param == experiment.LoadParam {
		return "offered load (" + unitLoad + ")"
	}
	if s := sizeAxisName(r); s != "" {
		return s
	}
	p, _ := config.Lookup(param)
	if p.Unit != "" {
		return param + " (" + p.Unit + ")"
	}
	return param
}

// sizeAxisName names the x axis of a network-size sweep (topology.h over
// balanced Dragonflies, which sweep.Spec.Apply keeps balanced: thesis Figs.
// 3.10, 3.13): the variable is the size, not h alone. "" for other sweeps.
func sizeAxisName(r *experiment.Results) string {
	if r == nil || r.Exp.Sweep.Param != "topology.h" {
		return ""
	}
	for _, c := range r.Exp.Series {
		if t := c.Topology; t.Kind != "dragonfly" || t.A != 2*t.H || t.P != t.H {
			return ""
		}
	}
	return "network size: topology.h (balanced, a = 2h, p = h)"
}

func seriesNames(r *experiment.Results) []string {
	if r == nil {
		return nil
	}
	out := make([]string, len(r.Exp.Series))
	for i := range out {
		out[i] = r.Exp.SeriesName(i)
	}
	return out
}

func num(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	// 6 significant digits keep the JSON short; exact numbers are in the exports.
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}

func common(title, xName, yName string, legend bool) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithAnimation(false),
		charts.WithTitleOpts(opts.Title{Title: title, Left: "center", TitleStyle: &opts.TextStyle{FontSize: 14}}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(legend), Top: "24", Type: "scroll"}),
		charts.WithGridOpts(opts.Grid{Left: "64", Right: "28", Top: "64", Bottom: "52"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: xName, NameLocation: "middle", NameGap: 28, Scale: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: yName, NameLocation: "middle", NameGap: 48, Scale: opts.Bool(true)}),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "inside", XAxisIndex: 0, FilterMode: "none"},
			opts.DataZoom{Type: "inside", YAxisIndex: 0, FilterMode: "none"}),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Right: "8", Top: "0", Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Name: "phitsim", Title: "PNG"},
			DataZoom:    &opts.ToolBoxFeatureDataZoom{Show: opts.Bool(true), Title: map[string]string{"zoom": "zoom", "back": "undo zoom"}},
			Restore:     &opts.ToolBoxFeatureRestore{Show: opts.Bool(true), Title: "reset"},
		}}),
	}
}

// render marshals a chart and applies the few options go-echarts has no
// field for (tooltips confined to the chart; series dimensions, so that
// tooltips name the CI).
func render(c interface {
	Validate()
	JSON() map[string]interface{}
}, patch func(m map[string]any)) []byte {
	c.Validate()
	b, err := json.Marshal(c.JSON())
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	m["color"] = Palette
	if t, ok := m["tooltip"].(map[string]any); ok {
		// inside the chart: on a phone a wide tooltip otherwise runs off
		// the screen, and near the top it is clipped (go-echarts has no field)
		t["confine"] = true
	}
	if patch != nil {
		patch(m)
	}
	if _, ok := m["toolbox"]; ok {
		narrowTitle(m)
	}
	out, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return out
}

// Narrow is the widest chart (px) that gets the phone layout of its title
// (ECharts' media query, applied on every resize): a phone's card is about
// 360 px wide (400 on the widest phones), while the page's columns of
// charts are at least 460 px wide (static/style.css, .charts), so two
// columns on a wide screen keep the centred title.
const Narrow = 440

// narrowTitle adds the phone layout to a chart with a toolbox: the centred
// title ran under the toolbox's icons at the top right, and a title wider
// than the chart ("Phase-A policy of the non-minimal packets at offered
// load 0.6") was cut at both edges. On a narrow chart the title starts at
// the left, one size smaller, and ends with "…" before the icons (the
// card's heading and the point chooser above the charts say it in full);
// a long x-axis name, cut at both edges too, ends with "…" as well. The toolbox takes the rightmost 60 px (its icons, gaps and padding), so
// the title is 280 px wide on charts of 345 px or more (a 390-px phone's
// card is 360 px), 220 px down to 285 px (a 320-px phone); the axis name
// 330 and 270 px.
func narrowTitle(m map[string]any) {
	rule := func(maxWidth, width, axis int) map[string]any {
		return map[string]any{"query": map[string]any{"maxWidth": maxWidth},
			"option": map[string]any{"title": map[string]any{"left": 4,
				"textStyle": map[string]any{"fontSize": 12, "width": width, "overflow": "truncate"}},
				// a long x-axis name (the histogram's) ends with "…"
				// within the chart (ECharts sets an axis name's overflow
				// itself, from nameTruncate)
				"xAxis": map[string]any{"nameTruncate": map[string]any{"maxWidth": axis}}}}
	}
	m["media"] = []any{rule(Narrow, 280, 330), rule(344, 220, 270)}
}

// metric picks the estimate a curve chart shows.
type metric struct {
	title, yName string
	mean, ci     func(p experiment.Point) float64
	running      func(r Running) float64
}

var accepted = metric{"Accepted vs offered load", "accepted load (" + unitLoad + ")",
	func(p experiment.Point) float64 { return p.Agg.Accepted.Mean },
	func(p experiment.Point) float64 { return p.Agg.Accepted.CI95 },
	func(r Running) float64 { return r.Accepted }}

var latency = metric{"Latency vs offered load", "average latency (cycles)",
	func(p experiment.Point) float64 { return p.Agg.Latency.Mean },
	func(p experiment.Point) float64 { return p.Agg.Latency.CI95 },
	func(r Running) float64 { return r.Latency }}

// Accepted is the throughput curve: mean accepted load per point with 95%
// CI whiskers, the analytic bounds of each series and, for load sweeps, the
// accepted = offered diagonal.
func Accepted(in Input) []byte { return curve(in, accepted, true) }

// Latency is the average latency curve with 95% CI whiskers.
func Latency(in Input) []byte { return curve(in, latency, false) }

func curve(in Input, m metric, bounds bool) []byte {
	r := in.Results
	title := m.title
	if r != nil && r.Exp.Sweep.Param != experiment.LoadParam {
		title = m.title[:len(m.title)-len("offered load")] + r.Exp.Sweep.Param
	}
	line := charts.NewLine()
	line.SetGlobalOptions(common(title, xAxisName(r), m.yName, true)...)
	var pts []experiment.Point
	if r != nil {
		pts = r.Points()
	}
	names := seriesNames(r)
	shown := map[string]bool{}
	sat, unfinished := false, false
	verdicts := map[string]bool{} // unstable and too short points shown
	notes := map[int][]string{}   // series → its points' verdicts in words
	pins := map[int][]any{}       // series → its deadlocked points' marks
	var deadlocks []string
	for si, name := range names {
		var data []opts.LineData
		var whiskers []opts.MarkLineNameCoordItem
		for _, p := range pts {
			if p.Series != si || math.IsNaN(m.mean(p)) {
				continue
			}
			y, ci := num(m.mean(p)), num(m.ci(p))
			flag := 0
			symbol := "circle"
			if p.Agg.Graph500 != nil && !p.Agg.Graph500.Finished {
				flag, symbol, unfinished = 1, "triangle", true
			} else if p.Agg.Saturated {
				flag, symbol, sat = 1, "triangle", true
			} else if q := p.Agg.Quality; q != nil && p.Agg.Graph500 == nil && verdictSymbol[q.Verdict] != "" {
				symbol, verdicts[q.Verdict] = verdictSymbol[q.Verdict], true
			}
			verdict, tail, busiest := verdictTips(p.Agg.Quality)
			data = append(data, opts.LineData{Value: []any{num(p.X), y, ci, p.Agg.Runs, flag, verdict, tail[2], busiest, tail[0], tail[1], tail[3]}, Symbol: symbol})
			notes[si] = append(notes[si], verdictNote(p))
			if ci > 0 {
				whiskers = append(whiskers, opts.MarkLineNameCoordItem{
					Coordinate0: []any{num(p.X), num(y - ci)}, Coordinate1: []any{num(p.X), num(y + ci)}})
			}
		}
		so := []charts.SeriesOpts{
			// the verdict is in words (NoteKey), its number is for the
			// exports' comparison: mean, CI, runs, ▲, p50, p90, p99, p99.9, busiest link
			charts.WithEncodeOpts(opts.Encode{X: 0, Y: 1, Tooltip: []int{1, 2, 3, 4, 8, 9, 6, 10, 7}}),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), SymbolSize: 7}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}),
		}
		var marks []any
		for _, w := range whiskers {
			marks = append(marks, []map[string]any{{"coord": w.Coordinate0}, {"coord": w.Coordinate1}})
		}
		if bounds && r != nil {
			marks = append(marks, boundMarks(r, si, shown)...)
		}
		if len(marks) > 0 {
			so = append(so, charts.WithSeriesOpts(func(s *charts.SingleSeries) {
				s.MarkLines = &opts.MarkLines{Data: marks, MarkLineStyle: opts.MarkLineStyle{
					Symbol: []string{"none", "none"}, Label: &opts.Label{Show: opts.Bool(false)},
					LineStyle: &opts.LineStyle{Color: Color(si), Width: 1.5}}}
			}))
		}
		line.AddSeries(name, data, so...)
		if r != nil {
			var notes []string
			pins[si], notes = deadlockMarks(r, pts, si, m)
			deadlocks = append(deadlocks, notes...)
		}
	}
	var runData []opts.LineData
	if m.running != nil {
		for _, rn := range in.Running {
			runData = append(runData, opts.LineData{Value: []any{num(rn.X), num(m.running(rn))}})
		}
	}
	if len(runData) > 0 {
		data := runData
		line.AddSeries("running (partial)", data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), SymbolSize: 9, Symbol: "emptyCircle"}),
			charts.WithLineStyleOpts(opts.LineStyle{Width: 0, Opacity: opts.Float(0)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: "#ffffff", BorderColor: "#888888", BorderWidth: 1.5}),
		)
	}
	loadSweep := r == nil || r.Exp.Sweep.Param == experiment.LoadParam
	diag := bounds && loadSweep
	return render(line, func(opt map[string]any) {
		series, _ := opt["series"].([]any)
		for i, s := range series {
			sm := s.(map[string]any)
			if i < len(names) {
				if len(pins[i]) > 0 {
					sm["markPoint"] = markPoint(pins[i])
				}
				c := &r.Exp.Series[i]
				flag := satDim
				if c.Graph500() {
					flag = unfinishedDim
				}
				sm["dimensions"] = []string{"x", "mean", ciDim(c.Sim.Seeds), "runs", flag, verdictDim, p99Dim, busiestDim, "latency p50 (cycles)", "latency p90 (cycles)", "latency p99.9 (cycles)"}
				// the verdict with its evidence, beside each point's values
				// (the page's tooltip formatter shows it, site/ui)
				if data, ok := sm["data"].([]any); ok {
					for k, d := range data {
						if item, ok := d.(map[string]any); ok && k < len(notes[i]) && notes[i][k] != "" {
							item[NoteKey] = notes[i][k]
						}
					}
				}
			} else {
				sm["symbol"] = "emptyCircle"
				sm["tooltip"] = map[string]any{"show": false}
			}
		}
		if diag && r != nil && len(r.Values) > 0 {
			lo, hi := r.Values[0], r.Values[len(r.Values)-1]
			series = append(series, map[string]any{"name": "accepted = offered", "type": "line", "silent": true,
				"showSymbol": false, "data": [][]float64{{0, 0}, {math.Max(lo, hi), math.Max(lo, hi)}},
				"lineStyle": map[string]any{"type": "dotted", "color": "#999", "width": 1},
				"itemStyle": map[string]any{"color": "#999"}, "tooltip": map[string]any{"show": false}})
		}
		// the triangles explained in the legend, when there are any
		for _, k := range []struct {
			on     bool
			name   string
			symbol string
		}{{sat, satLegend, "triangle"}, {unfinished, unfinishedLegend, "triangle"},
			{verdicts[result.Unstable], unstableLegend, verdictSymbol[result.Unstable]},
			{verdicts[result.TooShort], tooShortLegend, verdictSymbol[result.TooShort]}} {
			if k.on {
				series = append(series, map[string]any{"name": k.name, "type": "line", "silent": true, "data": []any{},
					"symbol": k.symbol, "itemStyle": map[string]any{"color": "#666"},
					"lineStyle": map[string]any{"opacity": 0}, "tooltip": map[string]any{"show": false}})
			}
		}
		if len(deadlocks) > 0 {
			series = append(series, map[string]any{"name": deadlockLegend(deadlocks), "type": "line", "silent": true, "data": []any{},
				"symbol": "pin", "itemStyle": map[string]any{"color": deadlockColor},
				"lineStyle": map[string]any{"opacity": 0}, "tooltip": map[string]any{"show": false}})
		}
		opt["series"] = series
		if x, ok := opt["xAxis"].([]any); ok && len(x) > 0 && loadSweep {
			x[0].(map[string]any)["min"] = 0
		}
	})
}

// boundMarks are the mark lines of series si's analytic bound (facts.Of),
// once per bound (shown): a horizontal line when the swept variable leaves
// the bound alone, dashed segments through its value at each swept value
// when it moves it (a size sweep: MIN's ADVc bound h/(a·p) = 1/(2h)).
func boundMarks(r *experiment.Results, si int, shown map[string]bool) []any {
	c := r.Exp.Series[si]
	sp, err := r.Exp.Spec()
	if err != nil || len(r.Values) == 0 {
		return nil
	}
	bs := make([]float64, len(r.Values))
	whys := make([]string, len(r.Values))
	for i, x := range r.Values {
		at := c
		if sp.Apply(&at, x) != nil {
			return nil
		}
		f := facts.Of(&at)
		bs[i], whys[i] = f.Bound, f.Why
	}
	key := strings.Join(whys, "; ")
	if bs[0] <= 0 || shown[key] {
		return nil
	}
	shown[key] = true
	dashed := map[string]any{"type": "dashed", "width": 1}
	if !slices.ContainsFunc(bs, func(b float64) bool { return b != bs[0] }) {
		label := fmt.Sprintf("%s bound %.3g", c.Routing.Name, bs[0])
		if b, ok := r.Exp.Basis(); ok {
			label += " (" + units.FormatGbps(b.Gbps(bs[0])) + " per node)"
		}
		return []any{map[string]any{"yAxis": num(bs[0]), "name": whys[0], "lineStyle": dashed,
			"label": map[string]any{"show": true, "formatter": label, "position": "insideEndTop"}}}
	}
	var out []any
	for i := 1; i < len(bs); i++ {
		seg := []map[string]any{{"coord": []any{num(r.Values[i-1]), num(bs[i-1])}, "name": whys[i-1], "lineStyle": dashed},
			{"coord": []any{num(r.Values[i]), num(bs[i])}}}
		if i == len(bs)-1 {
			seg[0]["label"] = map[string]any{"show": true, "formatter": c.Routing.Name + " bound", "position": "end"}
		}
		out = append(out, seg)
	}
	return out
}

// What the triangles of the curve charts mean (legend entries and the
// tooltip's last line).
const (
	satLegend        = "▲ saturated: accepted below offered load"
	unfinishedLegend = "▲ BFS did not finish within the run"
	satDim           = "saturated ▲ (1 = accepted below offered)"
	unfinishedDim    = "BFS unfinished ▲ (1 = yes)"
	// the verdicts that are neither steady nor saturated (engine/METHODS.md)
	unstableLegend = "◆ unstable: latency or queues still growing in the window (trend test)"
	tooShortLegend = "○ too short: no reliable interval in the window (or ±sim.precision not met)"
	// the value arrays are numbers (the chart's data): the verdict by its
	// index in result.Verdicts; the tooltip gives it in words (NoteKey)
	verdictDim = "verdict (0 steady, 1 saturated, 2 unstable, 3 too short; engine/METHODS.md)"
	p99Dim     = "latency p99 (cycles; sim.histMax−1: at least that)"
	busiestDim = "busiest link (phits/cycle, bound 1; the busiest run's)"
)

// NoteKey is the member of a curve point's data item that holds its
// verdict in words with a short form of its evidence (verdictNote), for the
// page's tooltip formatter (AxisTip): the value arrays stay numbers.
const NoteKey = "note"

// verdictNote is a point's verdict with a short form of its evidence
// (engine/METHODS.md, "Verdicts"): the 95% batch-means half-widths of a
// steady point, the accepted and offered load of a saturated one, the
// reason of the run that decided an unstable or too short one (the slope
// with ± 2 standard errors, the samples, the correlation, the precision).
func verdictNote(p experiment.Point) string {
	q := p.Agg.Quality
	if q == nil || q.Verdict == "" || p.Agg.Graph500 != nil {
		return ""
	}
	var ev string
	switch q.Verdict {
	case result.Steady:
		ev = fmt.Sprintf("latency ±%.2g%%, accepted ±%.2g%% (95%%, batch means)", 100*q.Latency.Relative(), 100*q.Accepted.Relative())
		if q.WarmupShort {
			ev += "; ⚠ the warm-up is shorter than the transient (MSER-5)"
		}
	case result.Saturated:
		ev = fmt.Sprintf("accepted %.3g of the %.3g offered (phits/node/cycle)", p.Agg.Accepted.Mean, p.Agg.Offered)
	default:
		ev = q.Reason
	}
	if ev == "" {
		return q.Verdict
	}
	return q.Verdict + ": " + ev
}

// TipEntry is one series at the hovered x of an axis tooltip, as ECharts
// hands it to a formatter: its marker (ECharts' HTML), name, verdict note
// and the values of its tooltip dimensions with their names.
type TipEntry struct {
	Marker, Series, Note string
	Names                []string
	Values               []float64
}

// AxisTip is the HTML of a curve chart's tooltip: the x value, then per
// series its name, its point's verdict in words and the values ECharts'
// own tooltip would list (the dimensions' names: CI, runs, percentiles, …).
func AxisTip(header string, entries []TipEntry) string {
	var b strings.Builder
	b.WriteString(`<div style="font-weight:600">` + html.EscapeString(header) + `</div>`)
	for _, e := range entries {
		b.WriteString(`<div style="margin-top:4px">` + e.Marker + html.EscapeString(e.Series) + `</div>`)
		if e.Note != "" {
			b.WriteString(`<div class="tip-verdict" style="white-space:normal;max-width:26em;padding-left:14px;font-weight:600">` + html.EscapeString(e.Note) + `</div>`)
		}
		for i, n := range e.Names {
			v := "–"
			if i < len(e.Values) && !math.IsNaN(e.Values[i]) {
				v = strconv.FormatFloat(num(e.Values[i]), 'f', -1, 64)
			}
			b.WriteString(`<div style="padding-left:14px">` + html.EscapeString(n) + `: <b>` + v + `</b></div>`)
		}
	}
	return b.String()
}

// verdictSymbol marks a point by its verdict (saturated keeps its triangle).
var verdictSymbol = map[string]string{result.Unstable: "diamond", result.TooShort: "emptyCircle"}

// verdictTips are a point's verdict (its index in result.Verdicts, −1
// none), latency p50, p90, p99 and p99.9 (0 without packets; the last
// bin's sim.histMax−1 when past it) and its busiest link's utilisation (0
// when unknown) for its tooltip.
func verdictTips(q *result.PointQuality) (verdict int, tail [4]float64, busiest float64) {
	if q == nil {
		return -1, tail, 0
	}
	if l := q.Links.Link; l != nil {
		busiest = l.Utilisation
	}
	verdict = slices.Index(result.Verdicts[:], q.Verdict)
	for _, p := range q.Percentiles {
		if i := slices.Index(stats.TailPs, p.P); i >= 0 && i < len(tail) {
			tail[i] = float64(p.Cycles)
		}
	}
	return verdict, tail, busiest
}

// ciDim names the whiskers in the tooltip: the interval's meaning and why
// it is wide with few seeds. t is Student's 97.5% quantile with seeds−1
// degrees of freedom, as engine/stats.Estimate95 computes the interval.
func ciDim(seeds int) string {
	if seeds < 2 {
		return "±95% CI (one seed per point: no interval)"
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(seeds - 1)}.Quantile(0.975)
	s := fmt.Sprintf("±95%% CI of the mean over %d seeds (Student t = %.3g", seeds, t)
	if t > 3 {
		s += ": with so few seeds the interval is wide"
	}
	return s + ")"
}

// Empty is a placeholder chart with a message (before any result), and no
// axes: an empty pair of axes read as a chart that drew nothing, and the
// message ran across the y axis.
func Empty(title, msg string) []byte {
	line := charts.NewLine()
	line.SetGlobalOptions(charts.WithAnimation(false),
		charts.WithTitleOpts(opts.Title{Title: title, Subtitle: msg, Left: "center", Top: "40%",
			TitleStyle: &opts.TextStyle{FontSize: 14}}))
	return render(line, func(m map[string]any) {
		delete(m, "toolbox")
		m["series"] = []any{}
		m["xAxis"] = []any{map[string]any{"show": false}}
		m["yAxis"] = []any{map[string]any{"show": false}}
	})
}

// pointRuns is, for each series, the finished runs of the selected point;
// nil names (the charts' "no results yet") when no run there has finished,
// rather than the axes of an empty chart.
func pointRuns(in Input) (names []string, runs [][]*result.Result, x float64) {
	r := in.Results
	if r == nil || in.Point < 0 || in.Point >= len(r.Values) {
		return nil, nil, 0
	}
	names = seriesNames(r)
	any := false
	for si := range names {
		runs = append(runs, r.RunsAt(si, in.Point))
		any = any || len(runs[si]) > 0
	}
	if !any {
		return nil, nil, 0
	}
	return names, runs, r.Values[in.Point]
}

func pointLabel(r *experiment.Results, x float64) string {
	s := fmt.Sprintf("%s = %g", r.Exp.Sweep.Param, x)
	if r.Exp.Sweep.Param == experiment.LoadParam {
		s = fmt.Sprintf("offered load %g", x)
	}
	if v := r.Exp.PhysicalX(x); v != "" {
		s += " (" + v + ")"
	}
	return s
}

// Fairness shows the injection of every router (thesis §1.5.1) at the
// selected point, mean over its runs, in phits/node/cycle. Routers are
// numbered group·a + index; with hundreds of them (264 at h=4) bars carry
// no labels: the x axis labels the first router of each group, dashed lines
// mark the group boundaries, the y axis starts at 0 (so a starving router
// shows as a gap) and the view zooms.
func Fairness(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Per-router injection", "no results yet")
	}
	n, a := 0, 0
	for _, rs := range runs {
		if len(rs) > 0 && rs[0].Config.Topology.Kind == "dragonfly" {
			a = rs[0].Config.Topology.A // routers per group; other topologies have no groups to mark
		}
	}
	xName := fairnessX
	if a == 0 {
		xName = "router"
	}
	values := make([][]float64, len(runs))
	for si, rs := range runs {
		if len(rs) == 0 {
			continue
		}
		per := make([]float64, len(rs[0].Fairness.PerRouter))
		for _, rr := range rs {
			c := rr.Config
			cycles := int64(c.Sim.Cycles)
			if rr.Graph500 != nil { // the run lasts as long as the BFS
				cycles = max(1, rr.Graph500.Cycles)
			}
			scale := float64(c.Router.PacketSize) / float64(int64(c.Topology.P)*cycles) / float64(len(rs))
			for i, v := range rr.Fairness.PerRouter {
				if i < len(per) {
					per[i] += float64(v) * scale
				}
			}
		}
		values[si] = per
		n = max(n, len(per))
	}
	// category names say the group and the index: "37 (g4·r5)"
	cats := make([]string, n)
	for i := range cats {
		cats[i] = strconv.Itoa(i)
		if a > 0 {
			cats[i] += fmt.Sprintf(" (g%d·r%d)", i/a, i%a)
		}
	}
	return bars("Per-router injection at "+pointLabel(in.Results, x), xName, "injected load ("+unitLoad+")", names, values, cats, a)
}

// bars is a bar chart of one bar per category and series (values[si], nil
// for a series without runs), the y axis from 0 (a starving router or
// sender shows as a gap), zooming along the categories; with groups of a
// categories (a > 0), one label per group and dashed group boundaries.
func bars(title, xName, yName string, names []string, values [][]float64, cats []string, a int) []byte {
	n := len(cats)
	bar := charts.NewBar()
	g := common(title, xName, yName, true)
	g = append(g, charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: xName, NameLocation: "middle", NameGap: 28}))
	bar.SetGlobalOptions(g...)
	for si, per := range values {
		if per == nil {
			continue
		}
		data := make([]opts.BarData, len(per))
		for i, v := range per {
			data[i] = opts.BarData{Value: num(v)}
		}
		bar.AddSeries(names[si], data, charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}))
	}
	bar.SetXAxis(cats)
	return render(bar, func(m map[string]any) {
		// zoom along the routers only (a zoomed y axis would lose its 0)
		m["dataZoom"] = []any{map[string]any{"type": "inside", "xAxisIndex": 0},
			map[string]any{"type": "slider", "xAxisIndex": 0, "height": 14, "bottom": 4}}
		setGrid(m, "bottom", "64")
		if ys, ok := m["yAxis"].([]any); ok && len(ys) > 0 {
			ys[0].(map[string]any)["min"] = 0
			ys[0].(map[string]any)["scale"] = false
		}
		if xs, ok := m["xAxis"].([]any); ok && len(xs) > 0 && a > 0 {
			// one label per group (its first router), whatever the width;
			// more than 6 ("0 (g0·r0)", …) ran together on a half-width
			// chart: tilted, they fit, and what still overlaps is hidden
			label := map[string]any{"interval": a - 1, "hideOverlap": true}
			if (n+a-1)/a > 6 {
				label["rotate"] = 30
			}
			xs[0].(map[string]any)["axisLabel"] = label
			xs[0].(map[string]any)["axisTick"] = map[string]any{"interval": a - 1, "alignWithLabel": true}
		}
		series, _ := m["series"].([]any)
		for i, s := range series {
			sm := s.(map[string]any)
			sm["barCategoryGap"] = "10%"
			sm["large"] = n > 500 // thousands of bars at h=8
			if i == 0 && a > 0 && n > a {
				var bounds []any
				for gi := a; gi < n; gi += a {
					bounds = append(bounds, map[string]any{"xAxis": cats[gi]})
				}
				sm["markLine"] = map[string]any{"silent": true, "symbol": []string{"none", "none"}, "data": bounds,
					"label":     map[string]any{"show": false},
					"lineStyle": map[string]any{"type": "dashed", "color": "#bbb", "width": 1}}
			}
		}
	})
}

// fairnessX names the per-router chart's axis: how routers are numbered.
const fairnessX = "router: group·a + index (dashed lines: group boundaries)"

// Histogram of latency at the selected point: share of the delivered packets
// per latency (cycles), summed over the runs. The engine's last bin
// (sim.histMax − 1) collects every longer latency: it is kept out of the
// merging of bins and marked "≥ … cycles" with its share, so that a spike
// at the right edge reads as an overflow, not as a latency.
func Histogram(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Latency histogram", "no results yet")
	}
	histMax := in.Results.Exp.Series[0].Sim.HistMax
	for _, rs := range runs {
		if len(rs) > 0 {
			histMax = rs[0].Config.Sim.HistMax
			break
		}
	}
	last := histMax - 1 // the overflow bin
	line := charts.NewLine()
	xName := fmt.Sprintf("latency (cycles; the last bin collects all ≥ %d cycles: sim.histMax)", last)
	g := common("Latency histogram at "+pointLabel(in.Results, x), xName, "share of packets (%)", true)
	line.SetGlobalOptions(g...)
	marked := 0 // overflow marks so far: each series' label beside the last
	for si, rs := range runs {
		var sum []float64
		var tot float64
		for _, rr := range rs {
			for i, v := range rr.LatencyHist {
				for len(sum) <= i {
					sum = append(sum, 0)
				}
				sum[i] += float64(v)
				tot += float64(v)
			}
		}
		over := 0.0
		if len(sum) > last && last > 0 {
			over, sum = sum[last], sum[:last]
		}
		var data []opts.LineData
		// merge bins so that a curve has at most ~400 points
		step := max(1, len(sum)/400)
		for i := 0; i < len(sum); i += step {
			var s float64
			for k := i; k < min(i+step, len(sum)); k++ {
				s += sum[k]
			}
			if s == 0 && step == 1 {
				continue
			}
			data = append(data, opts.LineData{Value: []any{i, num(100 * s / tot)}})
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Step: "end"}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}),
			charts.WithAreaStyleOpts(opts.AreaStyle{Opacity: opts.Float(0.15)})}
		if over > 0 {
			share := 100 * over / tot
			data = append(data, opts.LineData{Value: []any{last, num(share)}, Symbol: "triangle", SymbolSize: 9})
			// the label runs along the vertical line, down from its top: a
			// short one stays inside the plot (the whole sentence, 330 px at
			// 12 px, ran past the x axis into its name, which says the rest)
			label := fmt.Sprintf("≥ %d cycles: %.3g%%", last, share)
			name := label + " (overflow bin; raise sim.histMax)"
			// side by side, 16 px apart: on the same line they were
			// printed over each other
			dist := 5 + 16*marked
			marked++
			so = append(so, charts.WithSeriesOpts(func(s *charts.SingleSeries) {
				s.MarkLines = &opts.MarkLines{Data: []any{map[string]any{"xAxis": last, "name": name,
					"label": map[string]any{"show": true, "formatter": label, "position": "insideEndTop", "distance": dist}}},
					MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
						LineStyle: &opts.LineStyle{Color: Color(si), Type: "dashed", Width: 1}}}
			}))
		}
		line.AddSeries(names[si], data, so...)
	}
	return render(line, nil)
}

// TimeSeries of accepted load (left axis) and latency (right axis) over the
// run at the selected point, mean over the runs, with the end of warm-up and
// the traffic switch of transient runs marked.
func TimeSeries(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Time series", "no results yet")
	}
	line := charts.NewLine()
	g := common("Time series at "+pointLabel(in.Results, x), "time (cycles)", "accepted load ("+unitLoad+")", true)
	line.SetGlobalOptions(g...)
	line.ExtendYAxis(opts.YAxis{Type: "value", Name: "latency (cycles)", NameLocation: "middle", NameGap: 44, Position: "right",
		SplitLine: &opts.SplitLine{Show: opts.Bool(false)}})
	marked := false
	for si, rs := range runs {
		if len(rs) == 0 {
			continue
		}
		n := len(rs[0].Series)
		acc := make([]float64, n)
		lat := make([]float64, n)
		cyc := make([]int64, n)
		for _, rr := range rs {
			for i := 0; i < n && i < len(rr.Series); i++ {
				acc[i] += rr.Series[i].Accepted / float64(len(rs))
				lat[i] += rr.Series[i].Latency / float64(len(rs))
				cyc[i] = rr.Series[i].Cycle
			}
		}
		var da, dl []opts.LineData
		for i := 0; i < n; i++ {
			da = append(da, opts.LineData{Value: []any{cyc[i], num(acc[i])}})
			dl = append(dl, opts.LineData{Value: []any{cyc[i], num(lat[i])}})
		}
		so := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)})}
		if !marked {
			marked = true
			c := rs[0].Config
			var ml []any
			if c.Sim.Warmup > 0 { // at 0 its label sat over the y axis's numbers
				ml = append(ml, map[string]any{"xAxis": c.Sim.Warmup, "name": "end of warm-up",
					"label": map[string]any{"show": true, "formatter": "warm-up end", "position": "insideEndTop"}})
			}
			if c.Traffic.SwitchCycle > 0 {
				ml = append(ml, map[string]any{"xAxis": c.Sim.Warmup + c.Traffic.SwitchCycle, "name": "pattern switch",
					"label": map[string]any{"show": true, "formatter": "→ " + c.Traffic.SwitchPattern, "position": "insideEndTop"}})
			}
			hot := hotspotArea(&c) // the RECN paper's Fig. 2: 800–970 µs
			so = append(so, charts.WithSeriesOpts(func(s *charts.SingleSeries) {
				s.MarkLines = &opts.MarkLines{Data: ml, MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
					LineStyle: &opts.LineStyle{Color: "#888", Type: "dashed", Width: 1}}}
				if hot != nil {
					s.MarkAreas = &opts.MarkAreas{Data: hot}
				}
			}))
		}
		line.AddSeries(names[si]+" accepted", da, so...)
		line.AddSeries(names[si]+" latency", dl, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), YAxisIndex: 1}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}),
			charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed", Width: 1}))
	}
	return render(line, func(m map[string]any) {
		setGrid(m, "right", "64") // room for the latency axis
	})
}

// Builders of every chart, keyed by the names of experiment.Charts.
var Builders = map[string]func(Input) []byte{
	"accepted":    Accepted,
	"latency":     Latency,
	"fairness":    Fairness,
	"histogram":   Histogram,
	"timeseries":  TimeSeries,
	"misrouting":  Misrouting,
	"nonminimal":  NonMinimal,
	"phasea":      PhaseA,
	"acor":        Acor,
	"acorrouters": AcorRouters,
	"exectime":    ExecTime,
	"usage":       Usage,
	"bfs":         BFS,
	"levels":      Levels,

	// thesis §4.3.2's transients
	"transientlatency":   TransientLatency,
	"transientmisrouted": TransientMisrouted,
	// the ACOR paper's load steps (Figs. 9–10)
	"transientaccepted": TransientAccepted,
	"transientacor":     TransientAcor,
}

// All builds every chart, keyed by the names of experiment.Charts.
func All(in Input) map[string][]byte {
	out := map[string][]byte{}
	b, phys := basis(in)
	for name, f := range Builders {
		out[name] = f(in)
		if phys {
			out[name] = Physical(out[name], b)
		}
	}
	return out
}

// Some builds the named charts. A chart whose builder fails shows the
// error instead of stopping the page.
func Some(in Input, names []string) map[string][]byte {
	out := map[string][]byte{}
	b, phys := basis(in)
	for _, name := range names {
		if f, ok := Builders[name]; ok {
			out[name] = safe(name, f, in)
			if phys {
				out[name] = Physical(out[name], b)
			}
		}
	}
	return out
}

// basis is the physical basis the charts of in are shown in (Physical),
// when every series has the same one.
func basis(in Input) (units.Basis, bool) {
	if in.Results == nil {
		return units.Basis{}, false
	}
	return in.Results.Exp.Basis()
}

func safe(name string, b func(Input) []byte, in Input) (opt []byte) {
	defer func() {
		if e := recover(); e != nil {
			opt = Empty(name, fmt.Sprintf("this chart failed: %v", e))
		}
	}()
	return b(in)
}

// RunningFrom turns the workers' partial metrics into chart points.
func RunningFrom(r *experiment.Results, partial map[int]protocol.Partial) []Running {
	if r == nil {
		return nil
	}
	var out []Running
	for i, p := range partial {
		if i < 0 || i >= len(r.Jobs) || !p.Measured || r.Runs[i] != nil {
			continue
		}
		j := r.Jobs[i]
		out = append(out, Running{Series: j.Series, X: j.X, Accepted: p.Accepted, Latency: p.Latency})
	}
	// deterministic order
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && (out[b].Series < out[b-1].Series || (out[b].Series == out[b-1].Series && out[b].X < out[b-1].X)); b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out
}

// setGrid sets a margin of the chart's grid in the rendered options.
func setGrid(m map[string]any, side string, v any) {
	if g, ok := m["grid"].([]any); ok && len(g) > 0 {
		g[0].(map[string]any)[side] = v
	}
}
