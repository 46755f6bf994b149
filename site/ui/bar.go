//go:build js && wasm

package ui

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// barFields are the experiment bar's text fields in page order: element id,
// the experiment's field name (experiment.Field*), and the key of the text
// typed into it in App.sweepRaw.
var barFields = []struct{ id, field, key string }{
	{"sweep-from", experiment.FieldFrom, "from"},
	{"sweep-to", experiment.FieldTo, "to"},
	{"sweep-step", experiment.FieldStep, "step"},
	{"sweep-values", experiment.FieldValues, "values"},
	{"seeds", experiment.FieldSeeds, "seeds"},
}

// checked is the experiment's validation, computed once per configuration
// change (cfgVersion), not on every render of a run's progress.
type checked struct {
	version int
	errs    []*experiment.FieldError
	jobs    int
	cost    float64 // experiment.Cost of all the jobs
}

func (a *App) check() *checked {
	if a.chk != nil && a.chk.version == a.cfgVersion {
		return a.chk
	}
	c := &checked{version: a.cfgVersion, errs: a.exp.Check()}
	if len(c.errs) == 0 {
		if jobs, err := a.exp.Jobs(); err == nil {
			c.jobs, c.cost = len(jobs), experiment.CostOf(jobs)
		}
	}
	a.chk = c
	return c
}

// seriesLabel names series i as the page's errors do: "series 2 (VAL)".
func (a *App) seriesLabel(i int) string {
	fe := experiment.FieldError{Series: i + 1, Name: a.exp.SeriesLabel(i)}
	return strings.TrimSuffix(fe.Error(), ": ")
}

// blockers are the reasons the experiment cannot run, as the page shows
// them: text typed into a form field or the experiment bar that does not
// parse or is out of range (the experiment keeps its last valid value, so
// running it would silently use another value than the one shown), then
// every problem experiment.Check finds.
func (a *App) blockers() []string {
	var out []string
	var keys []string
	for k := range a.rawErr {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		num, path, _ := strings.Cut(k, "/")
		i, _ := strconv.Atoi(num)
		if i < len(a.exp.Series) {
			out = append(out, fmt.Sprintf("%s: %s = %s: %s", a.seriesLabel(i), path, strings.TrimSpace(a.raw[k]), a.rawErr[k]))
		}
	}
	for _, f := range barFields {
		if e := a.barErr[f.key]; e != "" {
			out = append(out, e)
		}
	}
	for _, e := range a.check().errs {
		out = append(out, e.Error())
	}
	return out
}

// barModelErrs are Check's problems of the experiment bar's fields (a link
// can bring values out of range), by field.
func (a *App) barModelErrs() map[string][]string {
	m := map[string][]string{}
	for _, e := range a.check().errs {
		if e.Series == 0 {
			m[e.Field] = append(m[e.Field], e.Error())
		}
	}
	return m
}

// barInput is one text field of the experiment bar. parse reads the text
// with site/experiment's parser for the field; a text it refuses stays in
// the field with the parser's message and the experiment is left as it
// was; a text it accepts is applied as read, never rounded or clamped.
func (a *App) barInput(id, key, label, value, mode, placeholder string, modelErrs []string, parse func(string) (string, error)) *vecty.HTML {
	val := value
	if r, ok := a.sweepRaw[key]; ok {
		val = r
	}
	bad := a.barErr[key] != "" || len(modelErrs) > 0
	return elem.Div(vecty.Markup(vecty.Class("field", "inline"), vecty.MarkupIf(bad, vecty.Class("invalid"))),
		elem.Label(vecty.Markup(prop.For(id)), vecty.Text(label)),
		elem.Input(vecty.Markup(prop.ID(id), prop.Type(prop.TypeText), vecty.Attribute("inputmode", mode), prop.Value(val),
			vecty.Attribute("spellcheck", "false"), vecty.Attribute("autocomplete", "off"),
			vecty.MarkupIf(placeholder != "", vecty.Attribute("placeholder", placeholder)),
			vecty.MarkupIf(bad, vecty.Attribute("aria-invalid", "true"), vecty.Attribute("aria-describedby", id+"-error")),
			event.Input(func(e *vecty.Event) {
				t := e.Target.Get("value").String()
				shown, err := parse(t)
				switch {
				case err != nil:
					a.sweepRaw[key], a.barErr[key] = t, err.Error()
				case shown == t:
					delete(a.sweepRaw, key)
					delete(a.barErr, key)
				default: // "0.50" stays as typed
					a.sweepRaw[key] = t
					delete(a.barErr, key)
				}
				if err == nil {
					a.point = min(a.point, max(0, len(a.values())-1))
				}
				a.preset = ""
				a.changed()
			}))),
	)
}

func (a *App) renderExperimentBar() *vecty.HTML {
	s := a.exp.Sweep
	var opts []vecty.MarkupOrChild
	opts = append(opts, vecty.Markup(prop.ID("sweep-param"), event.Change(func(e *vecty.Event) {
		a.exp.Sweep.Param = e.Target.Get("value").String()
		if a.exp.Sweep.Param == experiment.LoadParam {
			a.exp.Sweep = experiment.DefaultSweep()
		} else {
			p, _ := config.Lookup(a.exp.Sweep.Param)
			x, _ := strconv.ParseFloat(p.Format(&a.exp.Series[0]), 64)
			a.exp.Sweep.From, a.exp.Sweep.To, a.exp.Sweep.Step = x, 2*x, math.Max(1, x/4)
			a.exp.Sweep.List = nil
			if p.Kind == "float" {
				a.exp.Sweep.Step = x / 4
			} else {
				a.exp.Sweep.Step = math.Round(a.exp.Sweep.Step)
			}
		}
		a.sweepRaw, a.barErr = map[string]string{}, map[string]string{}
		a.point = defaultPoint(a.exp)
		a.changed()
	})))
	for _, p := range config.Params() {
		if (p.Kind != "int" && p.Kind != "float") || p.Path == "version" || !p.Applies(&a.exp.Series[0]) {
			continue
		}
		label := p.Path
		if p.Path == experiment.LoadParam {
			label = "offered load (traffic.load)"
		}
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(p.Path), vecty.Property("selected", p.Path == s.Param)), vecty.Text(label)))
	}
	modelErrs := a.barModelErrs()
	num := func(id, key, field string, v float64, set func(float64)) *vecty.HTML {
		parse := experiment.ParseStep
		if field != experiment.FieldStep {
			parse = func(param, text string) (float64, error) { return experiment.ParseValue(param, field, text) }
		}
		return a.barInput(id, key, key, ftoa(v), "decimal", "", modelErrs[field], func(t string) (string, error) {
			x, err := parse(a.exp.Sweep.Param, t)
			if err != nil {
				return "", err
			}
			set(x)
			return ftoa(x), nil
		})
	}
	list := listText(s.List)
	seeds := a.exp.Series[0].Sim.Seeds
	chk := a.check()
	blocked := a.blockers()
	running := a.state == "running"
	var status vecty.MarkupOrChild
	estimate := -1.0 // seconds, for the end-to-end test's measure
	if len(blocked) > 0 {
		status = elem.Span(vecty.Markup(prop.ID("run-blocked"), vecty.Class("error"), vecty.Attribute("role", "alert")),
			vecty.Text("Run is disabled until this is fixed: "+strings.Join(blocked, "; ")))
	} else {
		vals := a.values()
		sec := chk.cost / a.rate / float64(max(1, min(a.pool.Size(), chk.jobs)))
		estimate = sec
		status = vecty.Text(fmt.Sprintf("%d values × %d series × %d seeds · %d runs on %d workers, about %s",
			len(vals), len(a.exp.Series), seeds, chk.jobs, a.pool.Size(), fmtDur(sec)))
	}
	// the bar's own errors, under it, each naming its field
	var barErrs []vecty.MarkupOrChild
	barErrs = append(barErrs, vecty.Markup(prop.ID("bar-errors"), vecty.Class("bar-errors")))
	for _, f := range barFields {
		msgs := modelErrs[f.field]
		if e := a.barErr[f.key]; e != "" {
			msgs = []string{e} // the text typed replaces the value Check saw
		}
		if len(msgs) > 0 {
			barErrs = append(barErrs, elem.ListItem(vecty.Markup(prop.ID(f.id+"-error"), vecty.Class("error")), vecty.Text(strings.Join(msgs, "; "))))
		}
	}
	return elem.Section(vecty.Markup(vecty.Class("experiment"), vecty.Attribute("aria-label", "experiment")),
		elem.Div(vecty.Markup(vecty.Class("field", "inline")),
			elem.Label(vecty.Markup(prop.For("sweep-param")), vecty.Text("swept variable")),
			elem.Select(opts...)),
		num("sweep-from", "from", experiment.FieldFrom, s.From, func(x float64) { a.exp.Sweep.From = x }),
		num("sweep-to", "to", experiment.FieldTo, s.To, func(x float64) { a.exp.Sweep.To = x }),
		num("sweep-step", "step", experiment.FieldStep, s.Step, func(x float64) { a.exp.Sweep.Step = x }),
		a.barInput("sweep-values", "values", "or values", list, "decimal", "e.g. 0.5, 1, 4", modelErrs[experiment.FieldValues], func(t string) (string, error) {
			l, err := experiment.ParseList(a.exp.Sweep.Param, t)
			if err != nil {
				return "", err
			}
			a.exp.Sweep.List = l // empty: from:to:step applies
			return listText(l), nil
		}),
		a.barInput("seeds", "seeds", "seeds per point", strconv.Itoa(seeds), "numeric", "", modelErrs[experiment.FieldSeeds], func(t string) (string, error) {
			n, err := experiment.ParseSeeds(t)
			if err != nil {
				return "", err
			}
			for i := range a.exp.Series {
				a.exp.Series[i].Sim.Seeds = n
			}
			return strconv.Itoa(n), nil
		}),
		elem.Div(vecty.Markup(vecty.Class("run-buttons")),
			elem.Button(vecty.Markup(prop.ID("run"), prop.Type(prop.TypeButton), vecty.Class("primary"), prop.Disabled(running || len(blocked) > 0),
				vecty.MarkupIf(len(blocked) > 0, vecty.Attribute("aria-describedby", "run-blocked")),
				event.Click(func(*vecty.Event) { a.run() })), vecty.Text("Run")),
			elem.Button(vecty.Markup(prop.ID("cancel"), prop.Type(prop.TypeButton), prop.Disabled(!running),
				event.Click(func(*vecty.Event) { a.cancel() })), vecty.Text("Cancel")),
		),
		vecty.If(len(barErrs) > 1, elem.UnorderedList(barErrs...)),
		a.renderPresetNote(),
		elem.Paragraph(vecty.Markup(vecty.Class("estimate"), vecty.Data("seconds", strconv.FormatFloat(estimate, 'f', 3, 64))), status),
	)
}

// listText shows a sweep's list of values as the values field reads it.
func listText(l []float64) string {
	var b strings.Builder
	for i, x := range l {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ftoa(x))
	}
	return b.String()
}

// resetTyped forgets the text typed into fields (a new experiment replaces
// the one it was typed for).
func (a *App) resetTyped() {
	a.raw, a.rawErr, a.sweepRaw, a.barErr = map[string]string{}, map[string]string{}, map[string]string{}, map[string]string{}
}

// renderPresetNote says, while the form holds a preset that runs shorter
// than its paper, how much shorter (experiment.Preset.PaperRun).
func (a *App) renderPresetNote() vecty.MarkupOrChild {
	if a.preset == "" {
		return nil
	}
	for _, p := range presets {
		if p.Name == a.preset && p.PaperRun() != "" {
			return elem.Paragraph(vecty.Markup(prop.ID("preset-note"), vecty.Class("preset-run")), vecty.Text(p.PaperRun()))
		}
	}
	return nil
}
