//go:build js && wasm

package ui

import (
	"math"
	"strconv"
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"

	"phitsim/site/plot"
)

// renderQuality is the measurement-quality panel (engine/METHODS.md): per
// finished point, its verdict with the evidence, the warm-up MSER-5 found
// against the configured one, the 95% intervals of latency and accepted
// load within the runs (batch means, combined over the seeds), the tail
// latency, fairness and link use. It sits below the exports, and is there
// from the start (a line until a point finishes), so that nothing above it
// moves when a run starts or a point finishes.
func (a *App) renderQuality() *vecty.HTML {
	rows := plot.QualityRows(a.res)
	if f, m, ok := a.figureVerdict(); ok {
		// the open figure's claim read on its seeds: its points say so
		rows = plot.ReplicatedRows(rows, f, m)
	}
	head := elem.Div(vecty.Markup(vecty.Class("card-head")),
		elem.Heading2(vecty.Text("Measurement quality")),
		a.helpButton("quality-panel", "the measurement quality panel"))
	if len(rows) == 0 {
		return elem.Section(vecty.Markup(elemID("quality"), vecty.Class("result-table", "quality"), vecty.Attribute("aria-label", "measurement quality")),
			head, elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Each point's verdict (steady, saturated, unstable, too short), intervals and tail latency appear here as it finishes.")))
	}
	x := "offered load (phits/(node·cycle))"
	if p := a.res.Exp.Sweep.Param; p != "traffic.load" {
		x = p
	}
	cols := elem.TableRow(th("series", ""), th(x, ""),
		th("verdict", "steady, saturated (accepted below offered), unstable (latency or queues grow: a trend test), too short (no reliable interval, or ±sim.precision unmet); replicated: an open figure's claim read on the point's seeds as independent replications (mean ± 95% interval over the seeds) because each run alone is too short"),
		th("runs", "seeds run for the point (sim.precision may add some); by verdict when they differ"),
		th("evidence", "the verdict's reason and the trend of its run: queue growth (phits/node) and latency slope (cycles) per 1000 cycles, ± 2 standard errors"),
		th("warm-up (cycles)", "where MSER-5 puts the end of the initial transient, against the configured warm-up; ⚠: the warm-up is shorter"),
		th("latency ± 95% (cycles)", "mean latency with the half-width of its 95% interval: batch means within each run, combined over the seeds"),
		th("accepted ± 95% (phits/(node·cycle))", "accepted load with the half-width of its 95% interval (batch means, combined over the seeds)"),
		th("p50 (cycles)", "latency percentiles of the runs' pooled packets; >N: in the histogram's overflow bin, at least N (raise sim.histMax)"),
		th("p90", ""), th("p99", ""), th("p99.9", ""),
		th("Jain", "Jain's fairness index of the per-router injections (1: all equal)"),
		th("Max/Min", "highest over lowest per-router injection"),
		th("CoV", "coefficient of variation of the per-router injections"),
		th("links mean (phits/cycle)", "mean utilisation of the transit links (a link's bound is 1)"),
		th("busiest class", "utilisation of the busiest link class"),
		th("busiest link", "the busiest single link over the window (router, output port, class)"))
	var body []vecty.MarkupOrChild
	for _, r := range rows {
		warm := td(r.Warmup, "")
		if r.WarmupShort {
			warm = elem.TableData(vecty.Markup(vecty.Class("warn"), vecty.Attribute("title", "the configured warm-up ended before the transient: raise sim.warmup or set sim.autoWarmup")), vecty.Text(r.Warmup))
		}
		body = append(body, elem.TableRow(vecty.Markup(vecty.Data("verdict", r.Verdict)),
			elem.TableHeader(vecty.Markup(vecty.Attribute("scope", "row")), vecty.Text(r.Series)),
			td(r.X, ""), td(r.Verdict, ""), td(r.Runs, ""),
			elem.TableData(vecty.Markup(vecty.Class("evidence"), vecty.Style("white-space", "normal"), vecty.Style("min-width", "22em"), vecty.Style("text-align", "left")), vecty.Text(r.Evidence)),
			warm, td(r.Latency, ""), td(r.Accepted, ""), td(r.P50, ""), td(r.P90, ""), td(r.P99, ""), td(r.P999, ""),
			td(r.Jain, ""), td(r.MaxMin, ""), td(r.CoV, ""), td(r.LinkMean, ""), td(r.LinkMax, ""), td(r.Busiest, "")))
	}
	return elem.Section(vecty.Markup(elemID("quality"), vecty.Class("result-table", "quality"), vecty.Attribute("aria-label", "measurement quality")),
		head,
		elem.Div(vecty.Markup(vecty.Class("table-wrap"), vecty.Attribute("tabindex", 0), vecty.Attribute("role", "region"),
			vecty.Attribute("aria-label", "measurement quality table (scrolls sideways)")),
			elem.Table(elem.TableHead(cols), elem.TableBody(body...))))
}

// verdictTips gives a chart option whose points carry a verdict note
// (plot.NoteKey) a tooltip formatter that shows it (plot.AxisTip): ECharts'
// own lists a point's numbers only. The formatter holds each series'
// tooltip dimensions and their names (ECharts does not pass the encode's
// tooltip list to a formatter); the chart releases it with the option (ok
// false: the option has no notes, nothing set).
func verdictTips(opt js.Value) (fn js.Func, ok bool) {
	tt, series := opt.Get("tooltip"), opt.Get("series")
	if tt.Type() != js.TypeObject || series.Type() != js.TypeObject || str(tt.Get("trigger")) != "axis" {
		return fn, false
	}
	type tipDims struct {
		index []int
		names []string
	}
	dims := make([]tipDims, series.Length())
	for i := range dims {
		s := series.Index(i)
		names := s.Get("dimensions")
		if enc := s.Get("encode"); enc.Type() == js.TypeObject && enc.Get("tooltip").Type() == js.TypeObject && names.Type() == js.TypeObject {
			for k, tl := 0, enc.Get("tooltip"); k < tl.Length(); k++ {
				d := tl.Index(k).Int()
				dims[i].index, dims[i].names = append(dims[i].index, d), append(dims[i].names, str(names.Index(d)))
			}
		}
		data := s.Get("data")
		for k := 0; !ok && data.Type() == js.TypeObject && k < data.Length(); k++ {
			d := data.Index(k)
			ok = d.Type() == js.TypeObject && d.Get(plot.NoteKey).Type() == js.TypeString
		}
	}
	if !ok {
		return fn, false
	}
	fn = js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if recover() != nil {
				out = "" // a tooltip is not worth the page
			}
		}()
		if len(args) == 0 || args[0].Type() != js.TypeObject {
			return ""
		}
		ps := args[0]
		if !js.Global().Get("Array").Call("isArray", ps).Bool() {
			ps = js.Global().Get("Array").New(ps)
		}
		var header string
		var entries []plot.TipEntry
		for i := 0; i < ps.Length(); i++ {
			p := ps.Index(i)
			if i == 0 {
				if header = str(p.Get("axisValueLabel")); header == "" {
					header = str(p.Get("name"))
				}
			}
			e := plot.TipEntry{Marker: str(p.Get("marker")), Series: str(p.Get("seriesName"))}
			if d := p.Get("data"); d.Type() == js.TypeObject {
				e.Note = str(d.Get(plot.NoteKey))
			}
			val := p.Get("value")
			si := p.Get("seriesIndex")
			switch {
			case val.Type() != js.TypeObject: // a bare number
				e.Names, e.Values = []string{""}, []float64{jsNumber(val)}
			case si.Type() == js.TypeNumber && si.Int() >= 0 && si.Int() < len(dims) && len(dims[si.Int()].index) > 0:
				d := dims[si.Int()]
				e.Names = d.names
				for _, k := range d.index {
					e.Values = append(e.Values, jsNumber(val.Index(k)))
				}
			default: // y
				e.Names, e.Values = []string{""}, []float64{jsNumber(val.Index(1))}
			}
			entries = append(entries, e)
		}
		return plot.AxisTip(header, entries)
	})
	tt.Set("formatter", fn)
	return fn, true
}

func str(v js.Value) string {
	switch v.Type() {
	case js.TypeString:
		return v.String()
	case js.TypeNumber:
		return strconv.FormatFloat(v.Float(), 'g', 6, 64)
	}
	return ""
}

func jsNumber(v js.Value) float64 {
	if v.Type() != js.TypeNumber {
		return math.NaN()
	}
	return v.Float()
}
