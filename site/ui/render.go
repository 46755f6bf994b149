//go:build js && wasm

package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"phitsim/engine/config"
	"phitsim/engine/routing"
	"phitsim/engine/units"
	"phitsim/site/docs"
	"phitsim/site/experiment"
	"phitsim/site/facts"
	"phitsim/site/plot"
)

// enumLabels are the display labels of some choices (the value stays the
// one the engine, the CLI and URLs use).
var enumLabels = map[string]map[string]string{
	"workload.kind": {"synthetic": "synthetic traffic", "graph500": "Graph500 BFS"},
}

var chartTitles = map[string]string{
	"accepted": "Accepted load", "latency": "Latency", "fairness": "Per-router injection",
	"injlatency": "Injection wait", "netlatency": "Network latency",
	"histogram": "Latency histogram", "timeseries": "Time series",
	"transientlatency": "Latency around the pattern switch", "transientmisrouted": "Misrouted packets around the pattern switch",
	"transientaccepted": "Accepted load around the switch", "transientacor": "ACOR level around the switch",
	"misrouting": "Misrouted packets by decision", "nonminimal": "Non-minimal paths over time",
	"phasea": "Phase-A policies", "acor": "ACOR level over time", "acorrouters": "ACOR level per router",
	"exectime": "Graph500 execution time", "usage": "Graph500 network usage",
	"bfs": "Graph500 usage over time (BFS levels)", "levels": "Graph500 time per BFS level",
	"bgaccepted": "Background accepted load (HOTSPOT)", "bglatency": "Background latency (HOTSPOT)", "bgseries": "Background latency around the hotspot's start", "hotspotsenders": "Hotspot bandwidth per sender",
	"ur1accepted": "UR1 accepted load (UR1UR2)", "ur1latency": "UR1 latency (UR1UR2)", "srpspeculative": "SRP: sent speculatively", "srpdropped": "SRP: speculative packets dropped",
	"qcnprobability": "QCN-Switch port probabilities over time", "qcncnm": "QCN congestion notifications", "qcncnmtime": "CNMs over time",
	"recnsaq": "RECN: SAQ utilisation",
}

// Render the page.
func (a *App) Render() vecty.ComponentOrHTML {
	done, total := 0, 0
	if a.res != nil {
		done, total = a.res.Done(), len(a.res.Jobs)
	}
	root := vecty.Markup(elemID("app"), vecty.Class("app"),
		vecty.Data("state", a.state), vecty.Data("run", strconv.Itoa(a.runs)), vecty.Data("done", strconv.Itoa(done)), vecty.Data("total", strconv.Itoa(total)),
		vecty.Data("errors", strconv.Itoa(a.errorCount())), vecty.Data("deadlocks", strconv.Itoa(a.deadlockCount())), vecty.MarkupIf(a.embed, vecty.Class("embed")))
	if a.gallery {
		return elem.Div(root, a.renderGallery())
	}
	if a.embed {
		return elem.Div(root, a.renderEmbed())
	}
	return elem.Div(root,
		a.renderHeader(),
		elem.Div(vecty.Markup(vecty.Class("layout")),
			&configPanel{App: a, Version: a.cfgVersion},
			elem.Main(vecty.Markup(vecty.Class("results")),
				a.renderIntro(),
				a.renderExperimentBar(),
				a.renderProgress(),
				a.renderNet(),
				a.renderCharts(),
				a.renderGraph500(),
				a.renderClasses(),
				a.renderExports(),
				a.renderQuality(),
				a.renderLog(),
				a.renderDeadlocks(),
			),
		),
		a.renderHelp(),
	)
}

func (a *App) errorCount() int {
	if a.res == nil {
		return 0
	}
	return len(a.res.Errors)
}

// orWhy is why a button is disabled, or its title when it is not.
func orWhy(why, title string) string {
	if why != "" {
		return "disabled: " + why
	}
	return title
}

func (a *App) renderHeader() *vecty.HTML {
	why := a.unlinkedWhy()
	return elem.Header(vecty.Markup(vecty.Class("top")),
		elem.Heading1(vecty.Text("phitsim")),
		elem.Span(vecty.Markup(vecty.Class("tagline")), vecty.Text(docs.Tagline)),
		elem.Div(vecty.Markup(vecty.Class("top-actions")),
			a.renderPresetMenu(),
			elem.Anchor(vecty.Markup(prop.Href("#gallery"), elemID("gallery-open"), vecty.Class("button"),
				vecty.Attribute("title", "the seeds' figures, each with its claim and a Run button")), vecty.Text("Figure gallery")),
			elem.Button(vecty.Markup(elemID("help-open"), prop.Type(prop.TypeButton), vecty.Attribute("aria-haspopup", "dialog"),
				vecty.Attribute("title", "what the routings, traffic patterns, arbiters and charts are"),
				event.Click(func(e *vecty.Event) { a.openHelp("metric-accepted", e.Target) })), vecty.Text("Help")),
			elem.Button(vecty.Markup(elemID("share"), prop.Type(prop.TypeButton), vecty.Attribute("title", orWhy(why, "copy a link that reproduces this experiment")),
				vecty.MarkupIf(why != "", vecty.Attribute("aria-disabled", "true"), vecty.Attribute("aria-describedby", "share-blocked")),
				event.Click(func(*vecty.Event) { a.share() })), vecty.Text("Copy link")),
			elem.Button(vecty.Markup(elemID("embed-code"), prop.Type(prop.TypeButton), vecty.Attribute("title", orWhy(why, "copy an <iframe> showing the chart and a Run button")),
				vecty.MarkupIf(why != "", vecty.Attribute("aria-disabled", "true"), vecty.Attribute("aria-describedby", "share-blocked")),
				event.Click(func(*vecty.Event) { a.copyEmbed() })), vecty.Text("Copy embed code")),
		),
		vecty.If(why != "", elem.Paragraph(vecty.Markup(elemID("share-blocked"), vecty.Class("error")),
			vecty.Text("Copy link and Copy embed code are disabled: "+why+"."))),
		vecty.If(a.notice != "", elem.Paragraph(vecty.Markup(vecty.Class("notice"), vecty.Attribute("role", "status")), vecty.Text(a.notice))),
		vecty.If(a.embedCode != "", elem.TextArea(vecty.Markup(elemID("embed-snippet"), vecty.Attribute("readonly", true),
			vecty.Attribute("aria-label", "embed code"), vecty.Attribute("rows", 2)), vecty.Text(a.embedCode))),
		vecty.If(len(a.linkErrs) > 0, elem.Div(vecty.Markup(elemID("link-errors"), vecty.Class("errors"), vecty.Attribute("role", "alert")),
			vecty.Text("The link had problems (the rest was applied): "+strings.Join(a.linkErrs, "; ")))),
	)
}

func (a *App) shareURL(embed bool) string {
	loc := global.Get("location")
	base := loc.Get("origin").String() + loc.Get("pathname").String()
	l := experiment.Link{Exp: a.exp}
	if embed {
		l.Embed, l.Chart = true, a.chart
		if l.Chart == "" {
			l.Chart = "accepted"
		}
	}
	return base + "#" + experiment.Encode(l)
}

// share copies the link of the experiment. Copy link, as Run, is never
// disabled (aria-disabled while a field holds text that is not a number):
// a click that comes before the page renders the field's correction
// decides on the form at the click (runningAlready).
func (a *App) share() {
	if a.refuseUnlinked() {
		return
	}
	u := a.shareURL(false)
	copyText(u, func(ok bool) {
		if ok {
			a.say("Link copied: it reproduces this experiment.")
		} else {
			a.notice, a.noticeOfExp = "Copy this link: "+u, true // until the next edit changes the link
		}
		a.schedule()
	})
}

// refuse shows why an action cannot be taken (the form as it is at the
// click): the notice stays until the next edit of the experiment.
func (a *App) refuse(msg string) {
	a.notice, a.noticeOfExp = msg, true
	a.schedule()
}

// noticeSeconds: how long a notice that reports a done action stays up.
const noticeSeconds = 6

// say shows a notice that reports a done action ("Link copied") for
// noticeSeconds, unless another notice replaced it meanwhile.
func (a *App) say(msg string) {
	a.notice, a.noticeOfExp = msg, false
	a.noticeSeq++
	seq := a.noticeSeq
	after(noticeSeconds*1000, func() {
		if a.noticeSeq == seq && a.notice == msg {
			a.notice = ""
			a.schedule()
		}
	})
	a.schedule()
}

// refuseUnlinked says, in a notice, why the link cannot be copied while a
// field holds text that is not a number (unlinked); false when it can.
func (a *App) refuseUnlinked() bool {
	why := a.unlinkedWhy()
	if why == "" {
		return false
	}
	a.refuse("Cannot copy: " + why + ".")
	return true
}

func (a *App) copyEmbed() {
	if a.refuseUnlinked() {
		return
	}
	code := fmt.Sprintf(`<iframe src="%s" width="640" height="460" style="border:0;max-width:100%%" title="phitsim: %s" loading="lazy"></iframe>`,
		a.shareURL(true), a.exp.SeriesName(0))
	a.embedCode = code
	copyText(code, func(ok bool) {
		if ok {
			a.say("Embed code copied.")
		} else {
			a.notice, a.noticeOfExp = "Copy the embed code below.", true
		}
		a.schedule()
	})
	a.schedule()
}

// ---- configuration panel, generated from config.Params ----

// configPanel is rendered again only when the configuration changed
// (cfgVersion), not on every progress update of a run.
type configPanel struct {
	vecty.Core
	App     *App `vecty:"prop"`
	Version int  `vecty:"prop"`
}

func (p *configPanel) Render() vecty.ComponentOrHTML { return p.App.renderConfigPanel() }

func (p *configPanel) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*configPanel)
	return ok && q.Version == p.Version
}

func (a *App) renderConfigPanel() *vecty.HTML {
	c := &a.exp.Series[a.sel]
	errs := map[string][]string{}
	for _, e := range c.Validate() {
		errs[e.Path] = append(errs[e.Path], e.Msg)
	}
	var tabs []vecty.MarkupOrChild
	tabs = append(tabs, vecty.Markup(vecty.Class("tabs"), vecty.Attribute("role", "tablist"), vecty.Attribute("aria-label", "series")))
	for i := range a.exp.Series {
		i := i
		n := len(a.exp.Series[i].Validate())
		label := a.exp.SeriesName(i)
		if n > 0 {
			label += " ⚠"
		}
		tabs = append(tabs, elem.Button(vecty.Markup(prop.Type(prop.TypeButton), vecty.Attribute("role", "tab"),
			vecty.Attribute("aria-selected", i == a.sel), vecty.ClassMap{"tab": true, "active": i == a.sel},
			vecty.Style("border-bottom-color", seriesColor(i)),
			event.Click(func(*vecty.Event) { a.sel = i; a.cfgVersion++; a.schedule() })), vecty.Text(label)))
	}
	tabs = append(tabs,
		elem.Button(vecty.Markup(elemID("add-series"), prop.Type(prop.TypeButton), vecty.Class("small"),
			vecty.Attribute("title", "add a series: a copy of the selected one, to change one field"),
			event.Click(func(*vecty.Event) { a.addSeries() })), vecty.Text("+ add series")),
		vecty.If(len(a.exp.Series) > 1, elem.Button(vecty.Markup(prop.Type(prop.TypeButton), vecty.Class("small"),
			vecty.Attribute("title", "remove the selected series"),
			event.Click(func(*vecty.Event) { a.removeSeries() })), vecty.Text("remove"))))

	children := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("panel"), vecty.Attribute("aria-label", "configuration")),
		elem.Heading2(vecty.Text("Configuration")),
		elem.Div(tabs...),
		a.renderEditing(),
	}
	if p, ok := config.Lookup("name"); ok {
		children = append(children, elem.Div(vecty.Markup(vecty.Class("fields")), a.field(p, c, errs)))
	}
	children = append(children, a.renderFacts(c))
	// a value set where it cannot apply is hidden with its field: say so,
	// as phitsim validate does, instead of ignoring it silently
	if un := c.Unapplied(); len(un) > 0 {
		notes := make([]string, len(un))
		for i, fe := range un {
			notes[i] = fe.Error()
		}
		children = append(children, elem.Div(vecty.Markup(elemID("unapplied"), vecty.Class("hint")),
			vecty.Text("Ignored (kept in the configuration):"), elem.UnorderedList(listItems(notes)...)))
	}
	// buffers short of their loop: valid, but they cap the throughput (as
	// phitsim validate warns; the facts panel has a line per buffer)
	if ws := c.BufferWarnings(); len(ws) > 0 {
		notes := make([]string, len(ws))
		for i, fe := range ws {
			notes[i] = fe.Error()
		}
		children = append(children, elem.Div(vecty.Markup(elemID("bufferloops"), vecty.Class("hint")),
			vecty.Text("Buffers too small for their loop (the configuration runs, but they cap its throughput):"), elem.UnorderedList(listItems(notes)...)))
	}
	def := config.Default()
	for _, sec := range config.Sections {
		sec := sec
		byGroup := map[string][]config.Param{}
		n, nerr, nmod := 0, 0, 0
		for _, p := range seriesParams {
			if config.SectionOf(p) != sec.Key || !p.Applies(c) {
				continue
			}
			byGroup[p.Group] = append(byGroup[p.Group], p)
			n++
			if len(errs[p.Path]) > 0 || a.rawErr[fmt.Sprintf("%d/%s", a.sel, p.Path)] != "" {
				nerr++
			}
			if p.Format(c) != p.Format(&def) {
				nmod++
			}
		}
		open := !a.closed[sec.Key] || nerr > 0
		summary := fmt.Sprintf("%d parameters", n)
		if n == 1 {
			summary = "1 parameter"
		}
		if nmod > 0 {
			summary += fmt.Sprintf(", %d changed", nmod)
		}
		if nerr > 0 {
			summary += fmt.Sprintf(", %d invalid", nerr)
		}
		arrow := "▾"
		if !open {
			arrow = "▸"
		}
		rows := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("group"), elemID("group-"+sec.Key)),
			elem.Legend(elem.Button(vecty.Markup(prop.Type(prop.TypeButton), vecty.Class("group-toggle"),
				vecty.Attribute("aria-expanded", open), vecty.Attribute("aria-controls", "fields-"+sec.Key),
				event.Click(func(*vecty.Event) {
					a.closed[sec.Key] = open
					a.cfgVersion++
					a.schedule()
				})),
				vecty.Text(arrow+" "+sec.Title), elem.Span(vecty.Markup(vecty.Class("group-summary")), vecty.Text(" · "+summary))))}
		if open {
			fields := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("fields"), elemID("fields-"+sec.Key))}
			for k, g := range sec.Groups {
				if k > 0 {
					// a sub-heading (Traffic under Workload)
					title := config.GroupTitles[g]
					if g == "traffic" && c.Graph500() {
						title += " (of the nodes outside the job, with workload.background)"
					}
					fields = append(fields, elem.Heading3(vecty.Markup(vecty.Class("subgroup"), elemID("subgroup-"+g)), vecty.Text(title)))
				}
				for _, p := range byGroup[g] {
					fields = append(fields, a.field(p, c, errs))
				}
			}
			if n == 0 {
				msg := "Nothing to set for this configuration."
				if sec.Key == "congestion" {
					msg = c.Routing.Name + " routing does not sense congestion: nothing to set (" + andList(config.RoutingsIn("congestion")) + " do)."
				}
				fields = append(fields, elem.Paragraph(vecty.Markup(vecty.Class("empty")), vecty.Text(msg)))
			}
			rows = append(rows, elem.Div(fields...))
		}
		children = append(children, elem.FieldSet(rows...))
	}
	if other := errs["topology"]; len(other) > 0 {
		children = append(children, elem.Paragraph(vecty.Markup(vecty.Class("error")), vecty.Text("topology: "+strings.Join(other, "; "))))
	}
	children = append(children,
		elem.Div(vecty.Markup(vecty.Class("io")),
			elem.Button(vecty.Markup(elemID("export-config"), prop.Type(prop.TypeButton),
				vecty.Attribute("title", "the selected series as a JSON file that 'phitsim run -config' accepts"),
				event.Click(func(*vecty.Event) { a.exportConfig() })), vecty.Text("Export config JSON")),
			elem.Input(vecty.Markup(elemID("import-config"), prop.Type(prop.TypeFile), vecty.Class("file"),
				vecty.Attribute("accept", ".json,application/json"),
				event.Change(func(e *vecty.Event) { a.importConfig(e.Target) }))),
			elem.Label(vecty.Markup(vecty.Class("button"), prop.For("import-config"), vecty.Attribute("title", "replace the selected series with a config JSON file")),
				vecty.Text("Import config JSON…")),
		),
		vecty.If(len(a.importErrs) > 0, elem.Div(vecty.Markup(elemID("import-errors"), vecty.Class("errors"), vecty.Attribute("role", "alert")),
			elem.Strong(vecty.Text("The file was not imported:")),
			elem.UnorderedList(listItems(a.importErrs)...))),
	)
	return elem.Aside(children...)
}

// renderEditing says which series the form edits: an edit changes that
// series only (fields that differ between series say so, with "apply to
// all series").
func (a *App) renderEditing() *vecty.HTML {
	text := fmt.Sprintf("Editing series %d · %s", a.sel+1, a.exp.SeriesLabel(a.sel))
	if len(a.exp.Series) > 1 {
		text += fmt.Sprintf(" — changes apply to this series only (of %d)", len(a.exp.Series))
	}
	return elem.Paragraph(vecty.Markup(elemID("editing"), vecty.Class("editing"), vecty.Style("border-left-color", seriesColor(a.sel))),
		vecty.Text(text))
}

func listItems(xs []string) []vecty.MarkupOrChild {
	var out []vecty.MarkupOrChild
	for _, x := range xs {
		out = append(out, elem.ListItem(vecty.Text(x)))
	}
	return out
}

func seriesColor(i int) string { return plot.Color(i) }

func fieldID(p config.Param) string { return "f-" + strings.ReplaceAll(p.Path, ".", "-") }

func (a *App) field(p config.Param, c *config.Config, errs map[string][]string) *vecty.HTML {
	id := fieldID(p)
	def := config.Default()
	key := fmt.Sprintf("%d/%s", a.sel, p.Path)
	typed, hasTyped := a.raw[key]
	if hasTyped && p.Path == config.WarmupPath && config.IsAutoWarmup(typed) && !c.Sim.AutoWarmup {
		hasTyped = false // sim.autoWarmup turned off since: the cap is the warm-up
	}
	// with a physical basis, a field in cycles, phits or phits/node/cycle
	// shows and takes ns, bytes or Gb/s (by its unit tag)
	view := experiment.ViewField(c, p, typed, hasTyped)
	val := view.Value
	if hasTyped {
		val = typed
	}
	tip := p.Doc
	if p.Paper != "" {
		tip += " (" + p.Paper + ")"
	}
	if view.Physical {
		tip += " — " + view.Help
	}
	// messages name the field and its allowed range; a text that does not
	// parse replaces the value's own problems (the value is not the text)
	var msgs []string
	for _, m := range errs[p.Path] {
		msgs = append(msgs, p.Path+": "+m)
	}
	if e := a.rawErr[key]; e != "" {
		msgs = []string{p.Path + " = " + strings.TrimSpace(val) + ": " + e}
	}
	swept := p.Path == a.exp.Sweep.Param
	set := func(v string) {
		cc := a.exp.Series[a.sel]
		if err := experiment.SetField(&cc, p, v); err != nil {
			a.raw[key] = v
			if fe, ok := err.(*config.FieldError); ok {
				a.rawErr[key] = fe.Msg
			} else {
				a.rawErr[key] = err.Error()
			}
		} else {
			old := &a.exp.Series[a.sel]
			if p.Path == "routing.name" && old.Name == old.Routing.Name && cc.Routing.Name != old.Routing.Name {
				// a name that said the routing follows it; a typed one stays
				cc.Name = a.uniqueName(cc.Routing.Name, a.sel)
			}
			if p.Path == "topology.kind" {
				cc.Topology.FillKind() // the new kind's own fields, if unset
			}
			delete(a.rawErr, key)
			if experiment.Typed(&cc, p, v) {
				a.raw[key] = v
			} else {
				delete(a.raw, key)
			}
			if experiment.PhysicalSetting(p) {
				a.dropPhysicalTexts() // typed in the old basis
			}
			a.exp.Series[a.sel] = cc
			if p.Path == experiment.FieldSeeds {
				delete(a.sweepRaw, "seeds") // the bar shows the new value
				delete(a.barErr, "seeds")
			}
		}
		a.preset = ""
		a.changed()
	}
	// the series whose value differs from this one's: the edit applies to
	// the selected series only, and the page says so
	var others []string
	if p.Path != "name" && !swept { // a swept value is the sweep's, in every series
		for j := range a.exp.Series {
			if j != a.sel && p.Format(&a.exp.Series[j]) != p.Format(c) {
				others = append(others, a.seriesLabel(j)+": "+p.Format(&a.exp.Series[j]))
			}
		}
	}
	described := id + "-doc"
	if len(others) > 0 {
		described += " " + id + "-differs"
	}
	if len(msgs) > 0 {
		described += " " + id + "-error"
	}
	var input *vecty.HTML
	common := vecty.Markup(elemID(id), vecty.Attribute("title", tip), vecty.Attribute("aria-describedby", described),
		vecty.MarkupIf(len(msgs) > 0, vecty.Attribute("aria-invalid", "true")), prop.Disabled(swept))
	switch {
	case p.Kind == "bool":
		input = elem.Input(common, vecty.Markup(prop.Type(prop.TypeCheckbox), prop.Checked(val == "true"),
			event.Change(func(e *vecty.Event) { set(strconv.FormatBool(e.Target.Get("checked").Bool())) })))
	case p.Enum != nil:
		var opts []vecty.MarkupOrChild
		opts = append(opts, common, vecty.Markup(event.Change(func(e *vecty.Event) { set(e.Target.Get("value").String()) })))
		for _, e := range p.Enum {
			text := e
			if l, ok := enumLabels[p.Path][e]; ok {
				text = l
			}
			opts = append(opts, elem.Option(vecty.Markup(prop.Value(e), vecty.Property("selected", e == val)), vecty.Text(text)))
		}
		input = elem.Select(opts...)
	default:
		mode := "decimal"
		if p.Kind != "float" {
			mode = "numeric"
		}
		if p.Kind == "string" || view.Physical {
			mode = "text" // a physical value takes its unit
		}
		input = elem.Input(common, vecty.Markup(prop.Type(prop.TypeText), vecty.Attribute("inputmode", mode), prop.Value(val),
			vecty.Attribute("spellcheck", "false"), vecty.Attribute("autocomplete", "off"),
			event.KeyDown(a.enterRuns),
			event.Input(func(e *vecty.Event) { set(e.Target.Get("value").String()) })))
	}
	label := p.Path[strings.LastIndex(p.Path, ".")+1:]
	if p.Path == "name" {
		label = "series name"
	}
	defText := "default " + view.Default
	if view.Default == "" {
		defText = ""
	}
	modified := p.Format(c) != p.Format(&def)
	var topic string
	if id, ok := docs.For(p.Path, p.Format(c)); ok {
		topic = id
	}
	return elem.Div(vecty.Markup(vecty.ClassMap{"field": true, "invalid": len(msgs) > 0, "modified": modified, "differs": len(others) > 0}),
		elem.Label(vecty.Markup(prop.For(id), vecty.Attribute("title", tip)), vecty.Text(label)),
		elem.Div(vecty.Markup(vecty.Class("control")),
			input,
			vecty.If(view.Unit != "", elem.Span(vecty.Markup(elemID(id+"-unit"), vecty.ClassMap{"unit": true, "conversion": view.Physical}), vecty.Text(view.Unit))),
			a.helpButton(topic, label+" "+p.Format(c)),
		),
		elem.Small(vecty.Markup(elemID(id+"-doc"), vecty.Class("doc")),
			vecty.Text(strings.TrimSuffix(p.Doc+" · "+defText, " · ")),
			vecty.If(swept, elem.Strong(vecty.Text(" · swept by the experiment"))),
			vecty.If(p.Paper != "", elem.Span(vecty.Markup(vecty.Class("paper")), vecty.Text(" · "+p.Paper)))),
		vecty.If(len(others) > 0, elem.Div(vecty.Markup(vecty.Class("differs-note"), elemID(id+"-differs")),
			vecty.Text("Series "+strconv.Itoa(a.sel+1)+" only; differs in "+strings.Join(others, "; ")+". "),
			elem.Button(vecty.Markup(elemID(id+"-all"), prop.Type(prop.TypeButton), vecty.Class("small"), vecty.MarkupIf(a.rawErr[key] != "", vecty.Attribute("aria-disabled", "true")),
				vecty.Attribute("title", "set "+p.Path+" = "+p.Format(c)+" in every series"),
				event.Click(func(*vecty.Event) { a.applyToAll(p) })), vecty.Text("apply to all series")))),
		vecty.If(len(msgs) > 0, elem.Div(vecty.Markup(vecty.Class("error"), elemID(id+"-error"), vecty.Attribute("role", "alert")),
			vecty.Text(strings.Join(msgs, "; ")))),
	)
}

// dropPhysicalTexts forgets the texts typed into the selected series'
// physical fields: after a change of its basis they would read as other
// cycles and phits than the ones they set.
func (a *App) dropPhysicalTexts() {
	for _, q := range seriesParams {
		if q.Quantity() != units.None {
			k := fmt.Sprintf("%d/%s", a.sel, q.Path)
			delete(a.raw, k)
			delete(a.rawErr, k)
		}
	}
}

// applyToAll copies the selected series' value of p to every series.
//
// The button is never disabled (a click right after the field's text is
// corrected, before the page renders, must not be dropped): the field is
// checked at the click.
func (a *App) applyToAll(p config.Param) {
	if e := a.rawErr[fmt.Sprintf("%d/%s", a.sel, p.Path)]; e != "" {
		a.refuse("Cannot apply to all series: " + p.Path + ": " + e)
		return
	}
	v := p.Format(&a.exp.Series[a.sel])
	for j := range a.exp.Series {
		if err := p.SetString(&a.exp.Series[j], v); err == nil {
			delete(a.raw, fmt.Sprintf("%d/%s", j, p.Path))
			delete(a.rawErr, fmt.Sprintf("%d/%s", j, p.Path))
		}
	}
	a.say(fmt.Sprintf("%s = %s in all %d series.", p.Path, v, len(a.exp.Series)))
	a.preset = ""
	a.changed()
}

func (a *App) renderFacts(c *config.Config) *vecty.HTML {
	f := facts.Of(c)
	item := func(k, v, tip string) vecty.MarkupOrChild {
		return elem.Div(vecty.Markup(vecty.Class("fact"), vecty.Attribute("title", tip)),
			elem.Span(vecty.Markup(vecty.Class("k")), vecty.Text(k)), elem.Span(vecty.Markup(vecty.Class("v")), vecty.Text(v)))
	}
	var g500 []vecty.MarkupOrChild
	if g := f.Graph500; g != nil {
		pinj := g.PinjText()
		g500 = append(g500,
			elem.Div(vecty.Markup(vecty.Class("fact", "fact-head")), vecty.Text("Graph500 BFS")),
			item("job processes", strconv.Itoa(g.Processes), "one process per node of the job's groups"),
			item("cycle time phitBytes·8/linkGbps", fmt.Sprintf("%.4g ns", g.CycleNs), "one phit per cycle on a link: the length of a simulated cycle"),
			item("tq in cycles", fmt.Sprintf("%.4g cycles", g.TqCycles), "computation per query tq divided by the cycle time"),
			item("message of cs queries", fmt.Sprintf("%d phits", g.MessagePhits), "a full message, in whole packets of router.packetSize phits"),
			item("p_inj (eq. 2.20)", pinj, "load a generating node offers: message phits / (tq in cycles · cs), clamped to 1 phit/cycle"),
		)
	}
	items := []vecty.MarkupOrChild{vecty.Markup(elemID("facts"), vecty.Class("facts"), vecty.Attribute("aria-label", "derived facts"))}
	for _, it := range f.Items(c) {
		items = append(items, item(it.Key, it.Value, it.Tip))
	}
	return elem.Section(append(items, g500...)...)
}

// andList words names as "A, B and C".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func (a *App) addSeries() {
	c := a.exp.Series[a.sel]
	c.Name = ""
	// the other of MIN and VAL, when it runs on this topology (a mesh runs
	// MIN only: the copy then differs by its name)
	if v := routing.Get("VAL"); c.Routing.Name == "MIN" && v.Supports(c.Topology.Kind) {
		c.Routing.Name = "VAL"
	} else {
		c.Routing.Name = "MIN"
	}
	c.Name = a.uniqueName(c.Routing.Name, -1)
	a.exp.Series = append(a.exp.Series, c)
	a.sel = len(a.exp.Series) - 1
	a.preset = ""
	a.changed()
}

// uniqueName is name, or name 2, name 3…: the first that no series but
// except (an index, -1 for none) is called, so that legends stay apart.
func (a *App) uniqueName(name string, except int) string {
	taken := func(n string) bool {
		for j := range a.exp.Series {
			if j != except && a.exp.SeriesName(j) == n {
				return true
			}
		}
		return false
	}
	out := name
	for k := 2; taken(out); k++ {
		out = name + " " + strconv.Itoa(k)
	}
	return out
}

func (a *App) removeSeries() {
	if len(a.exp.Series) < 2 {
		return
	}
	a.exp.Series = append(a.exp.Series[:a.sel:a.sel], a.exp.Series[a.sel+1:]...)
	a.sel = max(0, a.sel-1)
	a.raw, a.rawErr = map[string]string{}, map[string]string{}
	a.preset = ""
	a.changed()
}

func (a *App) exportConfig() {
	c := a.exp.Series[a.sel]
	name := c.Name
	if name == "" {
		name = "config"
	}
	download("phitsim-"+safeName(name)+".json", "application/json", append(c.JSON(), '\n'))
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

func (a *App) values() []float64 {
	v, _ := a.exp.Sweep.Values()
	return v
}

func fmtDur(sec float64) string {
	switch {
	case sec < 0:
		return "…"
	case sec < 1:
		return "<1 s"
	case sec < 90:
		return fmt.Sprintf("%.0f s", sec)
	case sec < 5400:
		return fmt.Sprintf("%.0f min", sec/60)
	}
	return fmt.Sprintf("%.1f h", sec/3600)
}

// ---- progress ----

func (a *App) renderProgress() *vecty.HTML {
	frac, label := 0.0, "Ready. Press Run."
	elapsed, eta := 0.0, -1.0 // seconds, exact, for the end-to-end test's measure of the ETA
	if a.res != nil {
		// the runs sim.precision added count in the total, named
		runs := a.tracker.RunsText(a.res.Done())
		frac = a.tracker.Fraction()
		switch a.state {
		case "running":
			el := time.Since(a.started).Seconds()
			elapsed, eta = el, a.tracker.ETA(el)
			etaText := fmtDur(eta)
			if a.res.Exp.EstimateWord() != "about" && eta >= 0 {
				etaText = "at least " + etaText // sim.precision may add runs
			}
			label = fmt.Sprintf("%s · %.0f%% · %s elapsed · ETA %s", runs, 100*frac, fmtDur(el), etaText)
			label += a.deadlockNote("kept, pinned in the charts")
		case "cancelled":
			label = fmt.Sprintf("Cancelled: %s finished (kept).", runs)
			label += a.deadlockNote("pinned in the charts, listed below")
		case "done":
			elapsed = a.finished.Sub(a.started).Seconds()
			label = fmt.Sprintf("Done: %s in %s.", runs, fmtDur(a.finished.Sub(a.started).Seconds()))
			if n := len(a.res.Errors); n > 0 {
				label += fmt.Sprintf(" %d failed (see below).", n)
			}
			label += a.deadlockNote("pinned in the charts, listed below")
		}
	}
	// one row per worker, always, so that the layout does not jump
	var rows []vecty.MarkupOrChild
	rows = append(rows, vecty.Markup(vecty.Class("runs")))
	var ids []int
	for i := range a.active {
		ids = append(ids, i)
	}
	sortInts(ids)
	for k := 0; k < a.pool.Size(); k++ {
		if k < len(ids) {
			r := a.active[ids[k]]
			f := 0.0
			if r.total > 0 {
				f = float64(r.cycle) / float64(r.total)
			}
			rows = append(rows, elem.Div(vecty.Markup(vecty.Class("run")),
				elem.Span(vecty.Markup(vecty.Class("run-label")), vecty.Text(a.jobLabel(ids[k]))),
				elem.Progress(vecty.Markup(vecty.Attribute("max", 1), vecty.Attribute("value", f),
					vecty.Attribute("aria-label", "run progress"))),
				elem.Span(vecty.Markup(vecty.Class("run-eta")),
					elem.Span(vecty.Markup(vecty.Class("run-cycles")), vecty.Text(fmt.Sprintf("%d/%d cycles · ", r.cycle, r.total))),
					vecty.Text("ETA "+fmtDur(r.eta)))))
		} else {
			label := fmt.Sprintf("worker %d idle", k+1)
			if k-len(ids) < a.pool.Helping() {
				label = fmt.Sprintf("worker %d: part of a run above", k+1)
			}
			rows = append(rows, elem.Div(vecty.Markup(vecty.Class("run", "idle")), elem.Span(vecty.Markup(vecty.Class("run-label")),
				vecty.Text(label))))
		}
	}
	return elem.Section(vecty.Markup(elemID("progress"), vecty.Class("progress"), vecty.Attribute("aria-live", "polite")),
		elem.Div(vecty.Markup(vecty.Class("overall")),
			elem.Progress(vecty.Markup(elemID("sweep-progress"), vecty.Attribute("max", 1), vecty.Attribute("value", frac),
				vecty.Attribute("aria-label", "sweep progress"))),
			elem.Span(vecty.Markup(elemID("status"), vecty.Data("elapsed", strconv.FormatFloat(elapsed, 'f', 3, 64)),
				vecty.Data("eta", strconv.FormatFloat(eta, 'f', 3, 64))), vecty.Text(label))),
		elem.Div(rows...),
	)
}

func sortInts(x []int) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// ---- charts ----

// chartOrder is the page order of the chart cards (plot.Visible's).
var chartOrder = []string{"accepted", "latency", "injlatency", "netlatency", "bgaccepted", "bglatency", "bgseries", "hotspotsenders", "ur1accepted", "ur1latency", "srpspeculative", "srpdropped", "exectime", "usage", "fairness", "histogram", "timeseries",
	"transientlatency", "transientmisrouted", "transientaccepted", "transientacor", "qcnprobability", "qcncnm", "qcncnmtime", "recnsaq", "bfs", "levels", "misrouting", "nonminimal", "phasea", "acor", "acorrouters"}

// cardNames lists the chart cards: plot.Visible's, plus every card the
// experiment's configuration can produce before its results say so (the
// phase-A chart appears with the first Valiant result that misroutes, the
// ACOR ones go once results without levels arrive): their space is kept from
// the start, so that nothing on the page moves while a run progresses.
func (a *App) cardNames() []string {
	e := &a.exp
	if a.res != nil {
		e = &a.res.Exp
	}
	show := map[string]bool{}
	for _, n := range plot.Visible(e, a.res) {
		show[n] = true
	}
	for _, n := range plot.Visible(e, nil) {
		show[n] = true
	}
	for i := range e.Series {
		if r := routing.Get(e.Series[i].Routing.Name); r.Has(routing.PhaseAShares) {
			show["phasea"] = true
		}
	}
	var out []string
	for _, n := range chartOrder {
		if show[n] {
			out = append(out, n)
			delete(show, n)
		}
	}
	for _, n := range experiment.Charts { // any chart chartOrder misses
		if show[n] {
			out = append(out, n)
		}
	}
	return out
}

// renderClasses is the table of hops and link utilisation by port class
// at the selected point, for the series on a topology other than the
// Dragonfly (whose results name their classes: a mesh's x and y, never
// "global"); nil when no result has classes.
func (a *App) renderClasses() vecty.MarkupOrChild {
	if a.res == nil {
		return nil
	}
	rows, at := plot.ClassTable(plot.Input{Results: a.res, Point: a.point})
	if rows == nil {
		return nil
	}
	head := elem.TableRow(th("series", ""), th("link class", ""),
		th("hops per packet", "hops on links of this class per delivered packet (injection and ejection are no hops)"),
		th("utilisation (phits/cycle per link)", "phits sent per cycle per connected link of the class over the measured window; the injection class's are the ejection links"),
		th("links", "connected output ports of the class (a mesh's edge ports are not links)"),
		th("runs", "finished runs averaged"))
	var body []vecty.MarkupOrChild
	for _, r := range rows {
		hops := strconv.FormatFloat(r.Hops, 'f', 3, 64)
		name := r.Class
		if r.Class == "injection" {
			hops, name = "—", "ejection"
		}
		body = append(body, elem.TableRow(
			elem.TableHeader(vecty.Markup(vecty.Attribute("scope", "row")), vecty.Text(r.Series)),
			td(name, ""), td(hops, ""), td(strconv.FormatFloat(r.Utilisation, 'f', 4, 64), ""),
			td(strconv.FormatInt(r.Links, 10), ""), td(strconv.Itoa(r.Runs), "")))
	}
	return elem.Section(vecty.Markup(elemID("class-results"), vecty.Class("result-table"), vecty.Attribute("aria-label", "hops and links by class")),
		elem.Heading2(vecty.Text("Hops and links by class at "+at)),
		elem.Div(vecty.Markup(vecty.Class("table-wrap"), vecty.Attribute("tabindex", 0), vecty.Attribute("role", "region"),
			vecty.Attribute("aria-label", "hops and links by class table (scrolls sideways)")),
			elem.Table(elem.TableHead(head), elem.TableBody(body...))))
}

func (a *App) renderCharts() *vecty.HTML {
	var cards []vecty.MarkupOrChild
	cards = append(cards, vecty.Markup(vecty.Class("charts")))
	for _, name := range a.cardNames() {
		cards = append(cards, a.chartCard(name))
	}
	vals := a.values()
	if a.res != nil {
		vals = a.res.Values
	}
	var opts []vecty.MarkupOrChild
	opts = append(opts, vecty.Markup(elemID("point"), event.Change(func(e *vecty.Event) {
		a.point, _ = strconv.Atoi(e.Target.Get("value").String())
		a.chartsDirty = true
		a.schedule()
	})))
	shown := &a.exp
	if a.res != nil {
		shown = &a.res.Exp // the values' own basis
	}
	for i, v := range vals {
		text := strconv.FormatFloat(v, 'g', -1, 64)
		if ph := shown.PhysicalX(v); ph != "" {
			text += " (" + ph + ")"
		}
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(strconv.Itoa(i)), vecty.Property("selected", i == a.point)),
			vecty.Text(text)))
	}
	return elem.Section(vecty.Markup(vecty.Class("chart-section"), vecty.MarkupIf(a.stale(), vecty.Class("stale")), vecty.Attribute("aria-label", "charts")),
		a.renderProvenance(),
		elem.Div(vecty.Markup(vecty.Class("field", "inline", "point-select")),
			elem.Label(vecty.Markup(prop.For("point")), vecty.Text("point shown in the per-point charts (injection, histogram, time series, misrouting, levels) and tables")),
			elem.Select(opts...)),
		elem.Div(cards...),
	)
}

func (a *App) chartCard(name string) *vecty.HTML {
	// keyed: a chart's element is never reused for another chart (each
	// element carries its own ECharts instance)
	return elem.Div(vecty.Markup(vecty.Key(name), vecty.Class("card"), elemID("card-"+name)),
		elem.Div(vecty.Markup(vecty.Class("card-head")),
			elem.Span(vecty.Text(chartTitles[name])),
			a.chartHelp(name),
			elem.Button(vecty.Markup(prop.Type(prop.TypeButton), vecty.Class("small"), vecty.Attribute("aria-label", chartTitles[name]+" as PNG"),
				event.Click(func(*vecty.Event) {
					if u := a.charts[name].png(); u != "" {
						downloadURL("phitsim-"+name+".png", u, false)
					}
				})), vecty.Text("PNG")),
			elem.Button(vecty.Markup(prop.Type(prop.TypeButton), vecty.Class("small"), vecty.Attribute("aria-label", chartTitles[name]+" as SVG"),
				event.Click(func(*vecty.Event) {
					if s := a.charts[name].svg(); s != "" {
						download("phitsim-"+name+".svg", "image/svg+xml", []byte(s))
					}
				})), vecty.Text("SVG")),
		),
		vecty.If(name == "qcnprobability", a.qcnRouterSelect()),
		// ECharts draws into this element; it has no vecty children.
		elem.Div(vecty.Markup(elemID("chart-"+name), vecty.Class("chart"), vecty.Attribute("role", "img"),
			vecty.Attribute("aria-label", chartTitles[name]+" chart"))),
	)
}

// qcnRouterSelect picks the router of group 0 whose ports the QCN-Switch
// probability chart shows: the middle one (the QCN-Switch paper's Fig.
// 12b) or any of the group's a routers.
func (a *App) qcnRouterSelect() *vecty.HTML {
	e := &a.exp
	if a.res != nil {
		e = &a.res.Exp
	}
	routers := 0
	if len(e.Series) > 0 && e.Series[0].Topology.Kind == "dragonfly" {
		routers = e.Series[0].Topology.A
	}
	opts := []vecty.MarkupOrChild{vecty.Markup(elemID("qcn-router"), event.Change(func(ev *vecty.Event) {
		a.qcnRouter, _ = strconv.Atoi(ev.Target.Get("value").String())
		a.chartsDirty = true
		a.schedule()
	})),
		elem.Option(vecty.Markup(prop.Value("-1"), vecty.Property("selected", a.qcnRouter < 0 || a.qcnRouter >= routers)),
			vecty.Text(fmt.Sprintf("middle (router %d)", routers/2)))}
	for r := 0; r < routers; r++ {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(strconv.Itoa(r)), vecty.Property("selected", r == a.qcnRouter)),
			vecty.Text("router "+strconv.Itoa(r))))
	}
	return elem.Div(vecty.Markup(vecty.Class("field", "inline", "qcn-router")),
		elem.Label(vecty.Markup(prop.For("qcn-router")), vecty.Text("router of group 0")),
		elem.Select(opts...))
}

// chartHelp is the "?" of a chart: what its metric means.
func (a *App) chartHelp(name string) vecty.MarkupOrChild {
	if id, ok := docs.Metric(name); ok {
		return a.helpButton(id, chartTitles[name])
	}
	return nil
}

// ---- exports and log ----

func (a *App) renderExports() *vecty.HTML {
	has := a.res != nil && a.res.Done() > 0
	return elem.Section(vecty.Markup(vecty.Class("exports"), vecty.Attribute("aria-label", "export")),
		elem.Span(vecty.Text("Results: ")),
		elem.Button(vecty.Markup(elemID("export-csv"), prop.Type(prop.TypeButton), prop.Disabled(!has),
			vecty.Attribute("title", "one row per point: means and 95% CIs (the CLI's CSV columns)"),
			event.Click(func(*vecty.Event) {
				if b, err := a.res.CSV(); err == nil {
					download("phitsim-results.csv", "text/csv", b)
				}
			})), vecty.Text("CSV")),
		elem.Button(vecty.Markup(elemID("export-json"), prop.Type(prop.TypeButton), prop.Disabled(!has),
			vecty.Attribute("title", "the experiment, its points and every run's full result"),
			event.Click(func(*vecty.Event) {
				b, err := a.res.JSON()
				if err != nil {
					a.notice = "JSON export failed: " + err.Error() + " (the CSV has every point)"
					a.schedule()
					return
				}
				download("phitsim-results.json", "application/json", b)
			})), vecty.Text("JSON")),
		elem.Input(vecty.Markup(elemID("open-results"), prop.Type(prop.TypeFile), vecty.Class("file"),
			vecty.Attribute("accept", ".json,application/json"),
			event.Change(func(e *vecty.Event) { a.openResults(e.Target) }))),
		elem.Label(vecty.Markup(vecty.Class("button"), prop.For("open-results"),
			vecty.Attribute("title", "show a results JSON: 'phitsim sweep -out' or 'phitsim merge -out' (a sweep run on a cluster), or this page's JSON export")),
			vecty.Text("Open results JSON…")),
		elem.Span(vecty.Markup(vecty.Class("hint")), vecty.Text("Charts: PNG/SVG buttons on each chart; the toolbox zooms.")),
	)
}

// renderLog lists the failed runs. It is there from the first run on (with
// a placeholder line), so that the first failure does not add a section.
func (a *App) renderLog() *vecty.HTML {
	show := a.res != nil || len(a.log) > 0
	body := elem.UnorderedList(listItems(a.log)...)
	if len(a.log) == 0 {
		body = elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("No failed runs."))
	}
	return elem.Section(vecty.Markup(elemID("log"), vecty.Class("log"), vecty.Attribute("aria-label", "failed runs"),
		vecty.MarkupIf(!show, vecty.Attribute("hidden", true))), body)
}

// ---- embed mode: the chart and a Run button ----

func (a *App) renderEmbed() *vecty.HTML {
	frac := 0.0
	status := "Press Run to simulate in your browser."
	if a.res != nil {
		frac = a.tracker.Fraction()
		switch a.state {
		case "running":
			el := time.Since(a.started).Seconds()
			status = fmt.Sprintf("%s · ETA %s", a.tracker.RunsText(a.res.Done()), fmtDur(a.tracker.ETA(el)))
		case "done":
			status = fmt.Sprintf("Done: %d run%s.", a.res.Done(), plural(a.res.Done())) + a.deadlockNote("pinned in the chart")
		case "cancelled":
			status = "Cancelled."
		}
	}
	full := a.shareURL(false)
	// what the full page says: the link's problems, why Run cannot start
	blocked := a.blockers()
	return elem.Div(vecty.Markup(vecty.Class("embed-box")),
		elem.Div(vecty.Markup(vecty.Class("embed-bar")),
			a.runButton(blocked), a.cancelButton(),
			elem.Progress(vecty.Markup(elemID("sweep-progress"), vecty.Attribute("max", 1), vecty.Attribute("value", frac), vecty.Attribute("aria-label", "progress"))),
			elem.Span(vecty.Markup(elemID("status")), vecty.Text(status)),
			elem.Anchor(vecty.Markup(prop.Href(full), vecty.Attribute("target", "_blank"), vecty.Attribute("rel", "noopener")), vecty.Text("open in phitsim ↗")),
		),
		vecty.If(a.notice != "", elem.Paragraph(vecty.Markup(vecty.Class("notice"), vecty.Attribute("role", "status")), vecty.Text(a.notice))),
		vecty.If(len(a.linkErrs) > 0, elem.Div(vecty.Markup(elemID("link-errors"), vecty.Class("errors"), vecty.Attribute("role", "alert")),
			vecty.Text("The link had problems (the rest was applied): "+strings.Join(a.linkErrs, "; ")))),
		vecty.If(len(blocked) > 0, elem.Paragraph(vecty.Markup(elemID("run-blocked"), vecty.Class("error"), vecty.Attribute("role", "alert")),
			vecty.Text("Run is disabled until this is fixed (open in phitsim to edit): "+strings.Join(blocked, "; ")))),
		vecty.If(a.figure != "", a.renderFigureClaim()),
		elem.Div(vecty.Markup(elemID("chart-"+a.chart), vecty.Class("chart", "embed-chart"), vecty.Attribute("role", "img"),
			vecty.Attribute("aria-label", chartTitles[a.chart]+" chart"))),
		// a figure's embed shows the network while it runs
		vecty.If(a.figure != "", a.renderNet()),
		a.renderHelp(), // the figure's chart's "?"
	)
}
