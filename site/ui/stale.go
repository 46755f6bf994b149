//go:build js && wasm

package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"phitsim/site/experiment"
)

// expKey identifies an experiment by its link: two experiments with the
// same fragment run the same jobs.
func expKey(e experiment.Experiment) string { return experiment.Encode(experiment.Link{Exp: e}) }

// stale tells whether the results shown came from another configuration
// than the one in the form (editing back to it makes them current again).
func (a *App) stale() bool {
	return a.res != nil && a.state != "running" && expKey(a.exp) != a.runKey
}

// describe names an experiment the way the page shows it: the preset it was
// loaded from, its series and its sweep.
func describe(e *experiment.Experiment, preset string) string {
	var names []string
	for i := range e.Series {
		names = append(names, e.SeriesName(i))
	}
	s := strings.Join(names, ", ")
	if preset != "" {
		s = "preset " + preset + " (" + s + ")"
	}
	x := e.Sweep.Param
	if x == experiment.LoadParam {
		x = "offered load"
	}
	sw := fmt.Sprintf("%s %s to %s by %s", x, ftoa(e.Sweep.From), ftoa(e.Sweep.To), ftoa(e.Sweep.Step))
	if len(e.Sweep.List) > 0 {
		var v []string
		for _, f := range e.Sweep.List {
			v = append(v, ftoa(f))
		}
		sw = x + " " + strings.Join(v, ", ")
	} else if e.Sweep.From == e.Sweep.To {
		sw = x + " " + ftoa(e.Sweep.From)
	}
	seeds := 0
	if len(e.Series) > 0 {
		seeds = e.Series[0].Sim.Seeds
	}
	return fmt.Sprintf("%s · %s · %d seed%s per point", s, sw, seeds, plural(seeds))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// renderProvenance says which configuration the results shown came from,
// and, once the form no longer matches it, that they are stale. The line is
// always there (one line high while fresh), so the charts below do not move
// when a run starts.
func (a *App) renderProvenance() *vecty.HTML {
	if a.res == nil {
		return elem.Paragraph(vecty.Markup(prop.ID("results-of"), vecty.Class("results-of")), vecty.Text("No results yet: press Run."))
	}
	what := describe(&a.res.Exp, a.runPreset)
	if !a.stale() {
		return elem.Paragraph(vecty.Markup(prop.ID("results-of"), vecty.Class("results-of"), vecty.Attribute("title", what)),
			vecty.Text("Results of "+what+"."))
	}
	return elem.Div(vecty.Markup(prop.ID("results-of"), vecty.Class("results-of", "stale"), vecty.Attribute("role", "status")),
		elem.Strong(vecty.Text("Stale results. ")),
		vecty.Text("These results are from "+what+" — the configuration has changed since; Run to update. "),
		elem.Button(vecty.Markup(prop.ID("restore-config"), prop.Type(prop.TypeButton), vecty.Class("small"),
			vecty.Attribute("title", "put the configuration of these results back into the form"),
			event.Click(func(*vecty.Event) { a.restoreRunConfig() })), vecty.Text("Back to that configuration")),
	)
}

// restoreRunConfig puts the configuration of the results shown back into the form.
func (a *App) restoreRunConfig() {
	if a.res == nil {
		return
	}
	a.exp, a.preset = a.res.Exp.Clone(), a.runPreset
	a.sel = min(a.sel, len(a.exp.Series)-1)
	a.resetTyped()
	a.changed()
}
