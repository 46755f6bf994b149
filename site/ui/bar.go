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
// the experiment's field name (experiment.Field*), the key of the text
// typed into it in App.sweepRaw, and its label.
var barFields = []struct{ id, field, key, label string }{
	{"sweep-from", experiment.FieldFrom, "from", "from"},
	{"sweep-to", experiment.FieldTo, "to", "to"},
	{"sweep-step", experiment.FieldStep, "step", "step"},
	{"sweep-values", experiment.FieldValues, "values", "or values"},
	{"seeds", experiment.FieldSeeds, "seeds", "seeds per point"},
}

// number reads text that the experiment can hold as a sweep value: any
// finite number, in range or not (Check judges the range, the field shows
// its message, and the link carries the value as typed).
func number(text string) (float64, bool) {
	x, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	return x, err == nil && !math.IsNaN(x) && !math.IsInf(x, 0)
}

// numbers reads a comma list the way number reads one value; bad is the
// first item that is not a number ("" when all are).
func numbers(text string) (l []float64, bad string, ok bool) {
	for _, f := range strings.Split(text, ",") {
		x, ok := number(f)
		if !ok {
			return nil, f, false
		}
		l = append(l, x)
	}
	return l, "", true
}

// unlinked names the first field that holds text which is not a number
// (a form field of any series, or an experiment-bar field), "" if none.
// Such text cannot go into the experiment, so while it is there the link
// is not updated: it would carry the value of an earlier keystroke.
func (a *App) unlinked() string {
	var keys []string
	for k := range a.rawErr {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		num, path, _ := strings.Cut(k, "/")
		if i, _ := strconv.Atoi(num); i < len(a.exp.Series) {
			if len(a.exp.Series) > 1 {
				return a.seriesLabel(i) + " " + path
			}
			return path
		}
	}
	for _, f := range barFields {
		if a.barErr[f.key] != "" {
			return `"` + f.label + `"`
		}
	}
	return ""
}

// unlinkedWhy is the reason the link is not updated, "" when it is.
func (a *App) unlinkedWhy() string {
	if f := a.unlinked(); f != "" {
		return "the link is not updated while " + f + " holds text that is not a number"
	}
	return ""
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
	seen := map[string]bool{}
	for _, e := range a.check().errs {
		switch {
		case e.Series == 0:
			m[e.Field] = append(m[e.Field], e.Error())
		case e.Field == experiment.FieldSeeds && e.At == "":
			// the bar sets every series' seeds: their problem, once
			fe := experiment.FieldError{Field: experiment.FieldSeeds, Value: e.Value, Msg: e.Msg}
			if msg := fe.Error(); !seen[msg] {
				seen[msg] = true
				m[e.Field] = append(m[e.Field], msg)
			}
		}
	}
	return m
}

// barInput is one text field of the experiment bar. parse applies the text
// to the experiment as read, never rounded or clamped, whenever it is a
// number (out of range too: Check reports it and Run waits); text that is
// not a number stays in the field with the parser's message, the
// experiment is left as it was and the link is not updated (unlinked).
func (a *App) barInput(id, key, label, value, mode, placeholder string, modelErrs []string, parse func(string) (string, error)) *vecty.HTML {
	val := value
	if r, ok := a.sweepRaw[key]; ok {
		val = r
	}
	bad := a.barErr[key] != "" || len(modelErrs) > 0
	return elem.Div(vecty.Markup(vecty.Class("field", "inline"), vecty.MarkupIf(bad, vecty.Class("invalid"))),
		elem.Label(vecty.Markup(prop.For(id)), vecty.Text(label)),
		elem.Input(vecty.Markup(elemID(id), prop.Type(prop.TypeText), vecty.Attribute("inputmode", mode), prop.Value(val),
			vecty.Attribute("spellcheck", "false"), vecty.Attribute("autocomplete", "off"),
			vecty.MarkupIf(placeholder != "", vecty.Attribute("placeholder", placeholder)),
			vecty.MarkupIf(bad, vecty.Attribute("aria-invalid", "true"), vecty.Attribute("aria-describedby", id+"-error")),
			event.KeyDown(a.enterRuns),
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
					a.formPoint()
				}
				a.preset = ""
				a.changed()
			}))),
	)
}

func (a *App) renderExperimentBar() *vecty.HTML {
	s := a.exp.Sweep
	var opts []vecty.MarkupOrChild
	opts = append(opts, vecty.Markup(elemID("sweep-param"), event.Change(func(e *vecty.Event) {
		a.exp.Sweep.Param = e.Target.Get("value").String()
		if a.exp.Sweep.Param == experiment.LoadParam {
			a.exp.Sweep = experiment.DefaultSweep()
		} else {
			p, _ := config.Lookup(a.exp.Sweep.Param)
			x, _ := strconv.ParseFloat(p.Format(&a.exp.Series[0]), 64)
			a.exp.Sweep.From, a.exp.Sweep.To, a.exp.Sweep.Step = x, 2*x, math.Max(1, x/4)
			// ties belong to the previous parameter (a share and its complement)
			a.exp.Sweep.List, a.exp.Sweep.Tied = nil, nil
			if p.Kind == "float" {
				a.exp.Sweep.Step = x / 4
			} else {
				a.exp.Sweep.Step = math.Round(a.exp.Sweep.Step)
			}
		}
		a.sweepRaw, a.barErr = map[string]string{}, map[string]string{}
		a.formPoint()
		a.changed()
	})))
	for _, p := range config.Params() {
		if (p.Kind != "int" && p.Kind != "float") || p.Path == "version" || !p.Applies(&a.exp.Series[0]) || experiment.PhysicalSetting(p) {
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
				var ok bool
				if x, ok = number(t); !ok {
					return "", err
				}
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
		status = elem.Span(vecty.Markup(elemID("run-blocked"), vecty.Class("error"), vecty.Attribute("role", "alert")),
			vecty.Text("Run is disabled until this is fixed: "+strings.Join(blocked, "; ")))
	} else {
		vals := a.values()
		sec := chk.cost / a.rate / float64(max(1, min(a.pool.Size(), chk.jobs)))
		estimate = sec
		text := fmt.Sprintf("%s · %d run%s on %d worker%s, %s %s",
			runsText(&a.exp, len(vals)), chk.jobs, plural(chk.jobs), a.pool.Size(), plural(a.pool.Size()), a.exp.EstimateWord(), fmtDur(sec))
		if a.exp.EstimateWord() != "about" {
			text += " (sim.precision may lengthen runs and add seeds)"
		}
		status = vecty.Text(text)
	}
	// the bar's own errors, under it, each naming its field
	var barErrs []vecty.MarkupOrChild
	barErrs = append(barErrs, vecty.Markup(elemID("bar-errors"), vecty.Class("bar-errors")))
	for _, f := range barFields {
		msgs := modelErrs[f.field]
		if e := a.barErr[f.key]; e != "" {
			msgs = []string{e} // the text typed replaces the value Check saw
		}
		if len(msgs) > 0 {
			barErrs = append(barErrs, elem.ListItem(vecty.Markup(elemID(f.id+"-error"), vecty.Class("error")), vecty.Text(strings.Join(msgs, "; "))))
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
			if err != nil && strings.TrimSpace(t) != "" {
				nums, bad, ok := numbers(t)
				if !ok {
					if strings.TrimSpace(bad) != "" {
						_, err = experiment.ParseList(a.exp.Sweep.Param, bad) // that item's message
					}
					return "", err
				}
				l = nums
			}
			a.exp.Sweep.List = l // empty: from:to:step applies
			return listText(l), nil
		}),
		a.barInput("seeds", "seeds", "seeds per point", strconv.Itoa(seeds), "numeric", "", modelErrs[experiment.FieldSeeds], func(t string) (string, error) {
			n, err := experiment.ParseSeeds(t)
			if err != nil {
				// a whole number out of range goes in; the parser of
				// sim.seeds says what is a number
				p, _ := config.Lookup(experiment.FieldSeeds)
				c := config.Default()
				if p.SetString(&c, t) != nil {
					return "", err
				}
				n = c.Sim.Seeds
			}
			for i := range a.exp.Series {
				a.exp.Series[i].Sim.Seeds = n
			}
			return strconv.Itoa(n), nil
		}),
		a.renderSplit(running),
		elem.Div(vecty.Markup(vecty.Class("run-buttons")),
			a.runButton(blocked), a.cancelButton(),
		),
		vecty.If(len(barErrs) > 1, elem.UnorderedList(barErrs...)),
		a.renderPresetNote(),
		elem.Paragraph(vecty.Markup(vecty.Class("estimate"), vecty.Data("seconds", strconv.FormatFloat(estimate, 'f', 3, 64))), status),
	)
}

// runsText says how the runs multiply out: "10 values × 2 series × 3
// seeds", or with seeds that differ between series "2 series × 10 values,
// 3 + 2 seeds per point".
func runsText(e *experiment.Experiment, values int) string {
	vals := fmt.Sprintf("%d value%s", values, plural(values))
	series := fmt.Sprintf("%d series", len(e.Series))
	seeds := seedsText(e)
	if strings.Contains(seeds, "+") {
		return series + " × " + vals + ", " + seeds + " per point"
	}
	return vals + " × " + series + " × " + seeds
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
			return elem.Paragraph(vecty.Markup(elemID("preset-note"), vecty.Class("preset-run")), vecty.Text(p.PaperRun()))
		}
	}
	return nil
}

// maxSplit caps the default of "workers per run" (the page's control
// offers every worker).
const maxSplit = 4

// renderSplit is the "workers per run" control: how many Web Workers one
// run may be split across (engine/PARALLEL.md, "Across memories"); 1 runs
// each run on one worker. A run takes the workers the other runs leave,
// and its result does not depend on the count.
func (a *App) renderSplit(running bool) *vecty.HTML {
	var opts []vecty.MarkupOrChild
	opts = append(opts, vecty.Markup(elemID("workers-per-run"), prop.Disabled(running),
		event.Change(func(e *vecty.Event) {
			if n, err := strconv.Atoi(e.Target.Get("value").String()); err == nil && n >= 1 {
				a.pool.Split = n
			}
			a.schedule() // not the experiment's: its link and results stay
		})))
	for n := 1; n <= max(a.pool.Size(), 1); n++ {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(strconv.Itoa(n)), vecty.MarkupIf(n == a.pool.Split, vecty.Attribute("selected", true))),
			vecty.Text(strconv.Itoa(n))))
	}
	return elem.Div(vecty.Markup(vecty.Class("field", "inline"), vecty.Attribute("title", "one run split across this many workers when fewer runs than workers are left; the results and the live view are the same")),
		elem.Label(vecty.Markup(prop.For("workers-per-run")), vecty.Text("workers per run")),
		elem.Select(opts...))
}

// runButton is Run, never disabled: a click in the frame after a field's
// error is corrected, before the page renders, must not be dropped (run
// validates the form at the click and says why it cannot run).
func (a *App) runButton(blocked []string) *vecty.HTML {
	return elem.Button(vecty.Markup(elemID("run"), prop.Type(prop.TypeButton), vecty.Class("primary"), vecty.MarkupIf(len(blocked) > 0 || a.runningAlready(), vecty.Attribute("aria-disabled", "true")),
		vecty.MarkupIf(len(blocked) > 0, vecty.Attribute("aria-describedby", "run-blocked")),
		vecty.MarkupIf(a.replacesRun(), vecty.Attribute("title", "stops the run in flight (another experiment) and starts this one")),
		event.Click(func(*vecty.Event) { a.run() })), vecty.Text(a.runLabel()))
}

// cancelButton is Cancel, never disabled either: a click in the frame after
// Run, before the page renders the run, must not be dropped (cancel ignores
// a page with no run).
func (a *App) cancelButton() *vecty.HTML {
	return elem.Button(vecty.Markup(elemID("cancel"), prop.Type(prop.TypeButton), vecty.MarkupIf(a.state != "running", vecty.Attribute("aria-disabled", "true")),
		event.Click(func(*vecty.Event) { a.cancel() })), vecty.Text("Cancel"))
}
