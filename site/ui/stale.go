//go:build js && wasm

package ui

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"phitsim/site/experiment"
	"phitsim/site/facts"
)

// expKey identifies an experiment by its link: two experiments with the
// same fragment run the same jobs.
func expKey(e experiment.Experiment) string { return experiment.Encode(experiment.Link{Exp: e}) }

// stale tells whether the results shown came from another configuration
// than the one in the form (editing back to it makes them current again);
// during a run too: an edit does not change what is running.
func (a *App) stale() bool {
	return a.res != nil && expKey(a.exp) != a.runKey
}

// describe names an experiment the way the page shows it: the preset it was
// loaded from, its series, their network and its sweep.
func describe(e *experiment.Experiment, preset string) string {
	var names []string
	for i := range e.Series {
		names = append(names, e.SeriesName(i))
	}
	s := strings.Join(names, ", ")
	if preset != "" {
		s = "preset " + preset + " (" + s + ")"
	}
	// the network of each series, once when they share it
	var nets []string
	for i := range e.Series {
		c := &e.Series[i]
		n := fmt.Sprintf("%s, %d nodes", c.Topology.Describe(), facts.Of(c).Nodes)
		nets = append(nets, n)
	}
	if len(nets) > 0 {
		if len(slices.Compact(slices.Clone(nets))) == 1 {
			s += " · " + nets[0]
		} else {
			s += " · " + strings.Join(nets, "; ")
		}
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
	return fmt.Sprintf("%s · %s · %s per point", s, sw, seedsText(e))
}

// seedsText is the seeds per point: "2 seeds", or each series' when they
// differ ("3 + 2 seeds").
func seedsText(e *experiment.Experiment) string {
	var n []string
	for i := range e.Series {
		n = append(n, strconv.Itoa(e.Series[i].Sim.Seeds))
	}
	if len(slices.Compact(slices.Clone(n))) > 1 {
		return strings.Join(n, " + ") + " seeds"
	}
	seeds := 0
	if len(e.Series) > 0 {
		seeds = e.Series[0].Sim.Seeds
	}
	return fmt.Sprintf("%d seed%s", seeds, plural(seeds))
}

// differences lists what differs between two experiments, by the keys of
// their links (experiment.Encode): "topology.h 2 → 4". At most a few.
func differences(from, to *experiment.Experiment) []string {
	pairs := func(e *experiment.Experiment) (keys []string, m map[string]string) {
		m = map[string]string{}
		for _, part := range strings.Split(experiment.Encode(experiment.Link{Exp: *e}), "&") {
			k, v, _ := strings.Cut(part, "=")
			k, _ = url.QueryUnescape(k)
			v, _ = url.PathUnescape(v)
			if k == "v" {
				continue // the format version: no parameter
			}
			if _, ok := m[k]; !ok {
				keys = append(keys, k)
			}
			m[k] = v
		}
		return keys, m
	}
	ka, a := pairs(from)
	kb, b := pairs(to)
	show := func(m map[string]string, k string) string {
		if v, ok := m[k]; ok {
			return v
		}
		if n, _, ok := strings.Cut(k, "."); ok && len(n) > 1 && n[0] == 's' && n[1] >= '0' && n[1] <= '9' {
			return "as series 1" // a later series' key is its difference from series 1
		}
		return "default"
	}
	var out []string
	for _, k := range append(ka, kb...) {
		if a[k] != b[k] && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	const most = 4
	var text []string
	for i, k := range out {
		if i == most {
			text = append(text, fmt.Sprintf("%d more", len(out)-most))
			break
		}
		text = append(text, k+" "+show(a, k)+" → "+show(b, k))
	}
	return text
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
		return elem.Paragraph(vecty.Markup(elemID("results-of"), vecty.Class("results-of")), vecty.Text("No results yet: press Run."))
	}
	what := describe(&a.res.Exp, a.runPreset)
	if !a.stale() {
		return elem.Paragraph(vecty.Markup(elemID("results-of"), vecty.Class("results-of"), vecty.Attribute("title", what)),
			vecty.Text("Results of "+what+"."))
	}
	since := "the configuration has changed since"
	if d := differences(&a.res.Exp, &a.exp); len(d) > 0 {
		since += " (" + strings.Join(d, ", ") + ")"
	}
	next := "Run to update."
	if a.state == "running" {
		next = "they are still running; \"Stop and run this\" stops them and runs the configuration in the form."
	}
	return elem.Div(vecty.Markup(elemID("results-of"), vecty.Class("results-of", "stale"), vecty.Attribute("role", "status")),
		elem.Strong(vecty.Text("Stale results. ")),
		vecty.Text("These results are from "+what+" — "+since+"; "+next+" "),
		elem.Button(vecty.Markup(elemID("restore-config"), prop.Type(prop.TypeButton), vecty.Class("small"),
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
