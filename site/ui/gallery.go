//go:build js && wasm

package ui

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"phitsim/engine/figures"
	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/site/experiment"
	"phitsim/site/plot"
)

// The figure gallery (#gallery): one card per figure of engine/figures,
// and a figure opened from it (#fig=ID: its experiment in embed mode, with
// the card's claim above the chart and drawn on it).

// speedKey caches the calibration in localStorage, per engine version and
// per version of the estimate's model (figures.Speed counts the model's
// instructions: "fixed" since it charges the fixed cost per cycle,
// "saturated" since it charges the heads that wait past saturation,
// "contention" since a hop costs more on a busier network without a bound).
const speedKey = "phitsim-speed " + result.EngineVersion + " fixed saturated contention"

// browserSpeed is this browser's engine speed in instructions per second:
// cached in localStorage, else measured once with figures.CalibrationProbe
// (twice a few tens of ms) on this thread, which runs the same WebAssembly
// engine as the workers, and refined by the workers' runs (learnSpeed);
// figures.BrowserInstrPerSecond if nothing measured it.
func (a *App) browserSpeed() float64 {
	if a.speed > 0 {
		return a.speed
	}
	if v, err := strconv.ParseFloat(storage("getItem", speedKey), 64); err == nil && v > 0 {
		a.speed = v
		return v
	}
	// twice, the faster: the first also warms the browser's compiler tiers
	var best float64
	for range 2 {
		s, err := sim.New(figures.CalibrationProbe(), 1)
		if err != nil {
			break
		}
		if r, err := s.Run(context.Background(), nil); err == nil {
			best = max(best, figures.Speed(r))
		}
	}
	a.speed = figures.BrowserInstrPerSecond
	if best > 0 {
		a.speed = best
		storage("setItem", speedKey, strconv.FormatFloat(best, 'g', 4, 64))
	}
	return a.speed
}

// learnSpeed refines the speed from a worker's finished run (the model's
// instructions for its packet-hops and cycles over its time, figures.Speed): the probe runs once on
// the page's thread, possibly while the workers start, so the workers' own
// runs are the better measure. Runs shorter than 0.2 s are too coarse to
// time; the first one replaces the probe's value, later ones average in.
func (a *App) learnSpeed(r *result.Result) {
	v := figures.Speed(r)
	if !(v > 0) || r.CPUSeconds < 0.2 {
		return
	}
	if a.speedRuns == 0 {
		a.speed = v
	} else {
		a.speed = 0.7*a.speed + 0.3*v
	}
	a.speedRuns++
	storage("setItem", speedKey, strconv.FormatFloat(a.speed, 'g', 4, 64))
}

// storage calls localStorage's method; "" when there is none (a
// sandboxed iframe throws on access).
func storage(method string, args ...any) (out string) {
	defer func() {
		if recover() != nil {
			out = ""
		}
	}()
	ls := global.Get("localStorage")
	if ls.IsUndefined() || ls.IsNull() {
		return ""
	}
	v := ls.Call(method, args...)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// figureTime is a figure's estimated run time in this browser: its
// instructions (figures.Instructions: BENCHMARKS.md's cost per hop and the
// fixed cost per cycle) at this browser's measured speed (browserSpeed), over this page's
// workers.
func (a *App) figureTime(f figures.Figure) string {
	s, err := f.EstimateSecondsAt(a.browserSpeed())
	if err != nil {
		return "unknown"
	}
	workers := 1
	if a.pool != nil {
		workers = max(a.pool.size, 1)
	}
	return figures.Duration(s/float64(workers)) + fmt.Sprintf(" on %d worker%s", workers, plural(workers))
}

// openFigure shows figure id's experiment with its claim and runs it,
// without reloading the page (the URL becomes its embed link).
func (a *App) openFigure(id string) {
	a.loadHash("#fig=" + id)
	url := global.Get("location").Get("pathname").String() + global.Get("location").Get("search").String() + "#" + a.fragment()
	global.Get("history").Call("replaceState", js.Null(), "", url)
	a.chartsDirty = true
	vecty.Rerender(a)
	afterRender(a.updateCharts)
	a.run()
}

func (a *App) renderGallery() *vecty.HTML {
	var cards []vecty.MarkupOrChild
	cards = append(cards, vecty.Markup(elemID("gallery"), vecty.Class("gallery"), vecty.Attribute("aria-label", "figure gallery"),
		vecty.Data("speed", strconv.FormatFloat(a.browserSpeed(), 'g', 4, 64))))
	for _, f := range figures.Table {
		f := f
		holds := ""
		if f.Known != "" {
			holds = "Does not hold at our scale: " + f.Known + "."
		}
		cards = append(cards, elem.Article(vecty.Markup(vecty.Class("figure-card"), vecty.Data("figure", f.ID),
			vecty.Attribute("aria-labelledby", "fig-title-"+f.ID)),
			elem.Heading2(vecty.Markup(elemID("fig-title-"+f.ID)), vecty.Text(f.ID+" · "+f.Title)),
			elem.Paragraph(vecty.Markup(vecty.Class("paper")), vecty.Text(f.Paper)),
			elem.Paragraph(vecty.Text(f.Shows)),
			elem.Paragraph(elem.Strong(vecty.Text("Claim: ")), vecty.Text(f.ClaimText)),
			elem.Paragraph(elem.Strong(vecty.Text("We run: ")), vecty.Text(f.Scaled)),
			elem.Paragraph(elem.Strong(vecty.Text("Estimated time here: ")), vecty.Text(a.figureTime(f))),
			vecty.If(holds != "", elem.Paragraph(vecty.Markup(vecty.Class("error")), vecty.Text(holds))),
			elem.Div(vecty.Markup(vecty.Class("figure-actions")),
				elem.Button(vecty.Markup(vecty.Class("primary", "figure-run"), prop.Type(prop.TypeButton),
					vecty.Attribute("aria-label", "Run figure "+f.ID+": "+f.Title),
					event.Click(func(*vecty.Event) { a.openFigure(f.ID) })), vecty.Text("Run")),
				elem.Anchor(vecty.Markup(prop.Href("#fig="+f.ID), vecty.Class("figure-embed"),
					vecty.Attribute("title", "short link for an <iframe>: the claim and a Run button")), vecty.Text("embed link #fig="+f.ID)),
			),
		))
	}
	cards = append(cards, renderWithoutCard())
	return elem.Div(
		elem.Header(vecty.Markup(vecty.Class("top")),
			elem.Heading1(vecty.Text("phitsim figure gallery")),
			elem.Span(vecty.Markup(vecty.Class("tagline")), vecty.Text("the seeds' figures, scaled to run in your browser, each with its paper's claim")),
			elem.Anchor(vecty.Markup(prop.Href("#"), elemID("gallery-back")), vecty.Text("← the simulator")),
		),
		elem.Main(cards...),
	)
}

// renderFigureClaim is the card's claim above a figure's chart (#fig=ID).
func (a *App) renderFigureClaim() vecty.ComponentOrHTML {
	f, err := figures.ByID(a.figure)
	if err != nil {
		return nil
	}
	return elem.Div(vecty.Markup(elemID("figure-claim"), vecty.Class("figure-claim")),
		elem.Strong(vecty.Text(f.ID+" · "+f.Title+" — ")), vecty.Text(f.Paper+". "),
		elem.Paragraph(vecty.Text("Claim: "+f.ClaimText+" "+claimHint(f.Claim)+" "), a.chartHelp(f.Claim.Chart())),
		a.renderFigureVerdict(),
		elem.Anchor(vecty.Markup(prop.Href(galleryURL()), vecty.Attribute("target", "_blank"), vecty.Attribute("rel", "noopener")), vecty.Text("all figures ↗")),
	)
}

// claimHint says how the claim is drawn on its chart (plot.WithClaim).
func claimHint(c figures.Claim) string {
	chart := chartTitles[c.Chart()]
	switch {
	case c.PerLoad():
		return "On the chart \"" + chart + "\" the dashed line marks the load where it is read; a grey band, its bounds."
	case c.Kind == figures.Settle && c.Metric == figures.BgLatency:
		return "On the chart \"" + chart + "\" the grey band marks the cycles after the hotspot's start (cycle 0) in which it must settle."
	case c.Kind == figures.Settle:
		return "On the chart \"" + chart + "\" the grey band marks the cycles after the switch (cycle 0) in which it must settle."
	case c.Kind == figures.Window:
		return "On the chart \"" + chart + "\" the grey box marks the window and its bounds."
	case c.Kind == figures.Ratio && c.Metric == figures.BgLatency:
		return "On the chart \"" + chart + "\" the grey band marks the cycles after the hotspot's start over which it is read."
	case c.Kind == figures.Period, c.Kind == figures.Ratio:
		return "On the chart \"" + chart + "\" the grey band marks the cycles after the switch over which it is read."
	}
	return "On the chart \"" + chart + "\" the grey band marks its bounds (at offered " + strconv.FormatFloat(c.Load, 'g', -1, 64) + ")."
}

func galleryURL() string {
	return global.Get("location").Get("pathname").String() + "#" + experiment.Encode(experiment.Link{Gallery: true})
}

// withClaim draws the open figure's claim on the chart it is read on
// (figures.Claim.Chart: the accepted load, the latency, the per-sender
// bars, the time series, a transient chart …), rebuilt by
// plot.ClaimChart so that the claim converts with the chart's units.
func (a *App) withClaim(in plot.Input, name string, opt []byte) []byte {
	if a.figure == "" {
		return opt
	}
	f, err := figures.ByID(a.figure)
	if err != nil || name != f.Claim.Chart() {
		return opt
	}
	if out := plot.ClaimChart(in, name, f); out != nil {
		return out
	}
	return opt
}

// figurePoint is the point a figure's chart shows: the claim's load when
// its chart shows one point (per-router or per-sender bars, a transient);
// else, and without a figure, def.
func (a *App) figurePoint(values []float64, def int) int {
	f, err := figures.ByID(a.figure)
	if a.figure == "" || err != nil || f.Claim.PerLoad() {
		return def
	}
	for i, v := range values {
		if math.Abs(v-f.Claim.Load) < 1e-9 {
			return i
		}
	}
	return def
}

// renderIntro is the first-time visitor's introduction on the main page.
func (a *App) renderIntro() *vecty.HTML {
	return elem.Details(vecty.Markup(elemID("intro"), vecty.Class("intro")),
		elem.Summary(vecty.Text("New here? What this page simulates")),
		elem.Paragraph(vecty.Text("A Dragonfly is a network of groups of routers: inside a group every router is linked to every other (local links), "+
			"and every group has a link to every other group (global links), so any two nodes are at most three hops apart. "+
			"Routing decides which path a packet takes: minimal (MIN) or through a random intermediate group (Valiant, VAL), or adaptively.")),
		elem.Paragraph(vecty.Text("Offered load is how much each node tries to send, in phits (link words) per node per cycle; accepted load is how much the network delivers. "+
			"Latency is the cycles from a packet's creation to its delivery. Past saturation, accepted load stops following offered load and latency grows without bound.")),
		elem.Paragraph(vecty.Text("Try first: press Run on the default experiment, then open the "),
			elem.Anchor(vecty.Markup(prop.Href("#gallery"), elemID("gallery-link")), vecty.Text("figure gallery")),
			vecty.Text(" and run \"MIN caps at 1/(a·p) under ADV+1\": the claim is drawn on the chart.")),
	)
}

// renderWithoutCard lists the figures the engine runs that have no card,
// and why (figures.WithoutCard, engine/FIGURES.md's last table).
func renderWithoutCard() *vecty.HTML {
	var items []vecty.MarkupOrChild
	for _, u := range figures.WithoutCard {
		items = append(items, elem.ListItem(elem.Strong(vecty.Text(u.Figure)), vecty.Text(" ("+u.Paper+"): "+u.Why+".")))
	}
	return elem.Section(vecty.Markup(elemID("gallery-uncarded"), vecty.Attribute("aria-labelledby", "gallery-uncarded-title")),
		elem.Heading2(vecty.Markup(elemID("gallery-uncarded-title")), vecty.Text("Figures without a card")),
		elem.UnorderedList(items...))
}

// figureVerdict is the open figure's claim read on the finished runs by
// plot.Verdict (figures.Figure.Check, as `phitsim figures -check`); ok
// false without a figure or before every run has finished.
func (a *App) figureVerdict() (f figures.Figure, m figures.Measured, ok bool) {
	if a.figure == "" || a.res == nil {
		return f, m, false
	}
	f, err := figures.ByID(a.figure)
	if err != nil {
		return f, m, false
	}
	m, ok = plot.Verdict(f, a.res)
	return f, m, ok
}

// renderFigureVerdict is the claim against the measured value once the
// run has finished, in the words of `phitsim figures -check`; a claim read
// on the seeds as independent replications says so, and how it is drawn.
func (a *App) renderFigureVerdict() vecty.ComponentOrHTML {
	f, m, ok := a.figureVerdict()
	if !ok {
		return nil
	}
	outcome := "FAIL"
	if m.Pass {
		outcome = "PASS"
	} else if f.Known != "" {
		outcome = "FAIL (known: " + f.Known + ")"
	}
	how := ""
	if m.Verdict == figures.Replicated {
		how = fmt.Sprintf(" Each run alone is too short to give its own interval, so the claim is read on its %d seeds as independent replications: their mean ± 95%% interval (Student t), drawn on the chart \"%s\" as a black bar at the claim's load with the tolerance beside it, and the points read marked ■.",
			m.Seeds, chartTitles[f.Claim.Chart()])
	}
	return elem.Paragraph(vecty.Markup(elemID("figure-verdict"), vecty.Data("verdict", m.Verdict), vecty.Data("pass", strconv.FormatBool(m.Pass)),
		vecty.Attribute("role", "status")),
		elem.Strong(vecty.Text("Measured: ")), vecty.Text(m.Text+" (verdict "+m.Verdict+") — "+outcome+"."+how))
}
