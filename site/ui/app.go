//go:build js && wasm

// Package ui is the page: a vecty application that edits an experiment
// (forms generated from config.Params), runs it on a pool of Web Workers,
// and plots the results with ECharts. Everything that is not DOM code lives
// in site/experiment, site/plot, site/facts and site/protocol.
package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"syscall/js"
	"time"

	"github.com/hexops/vecty"

	"phitsim/engine/config"
	"phitsim/site/docs"
	"phitsim/site/experiment"
	"phitsim/site/plot"
	"phitsim/site/protocol"
)

// runInfo is the progress of a running job.
type runInfo struct {
	cycle, total int64
	eta          float64
}

// App is the whole page.
type App struct {
	vecty.Core

	exp      experiment.Experiment
	sel      int               // series being edited
	raw      map[string]string // text typed into a field that does not parse yet, by sel/path
	rawErr   map[string]string
	sweepRaw map[string]string // text typed into the experiment bar, by barFields key
	barErr   map[string]string // why that text is refused, by barFields key
	chk      *checked
	linkErrs []string
	embed    bool
	chart    string // chart in focus / embedded
	// gallery: the figure gallery is shown (#gallery); figure: the
	// gallery figure open (#fig=ID), its claim drawn (gallery.go)
	gallery bool
	figure  string
	preset  string
	// presetsOpen: the preset menu is shown
	presetsOpen bool
	// help is the topic of site/docs the help panel shows ("" closed);
	// helpFrom the element that opened it, which gets the focus back
	help     string
	helpFrom js.Value

	// the current or last run
	state    string // idle, running, done, cancelled
	res      *experiment.Results
	tracker  *experiment.Tracker
	started  time.Time
	finished time.Time
	active   map[int]*runInfo
	partial  map[int]protocol.Partial
	log      []string
	point    int
	// qcnRouter: the router of group 0 in the QCN-Switch probability chart
	// (plot.Input.Router; −1, the default: the middle one)
	qcnRouter int
	// speed: this browser's engine speed, instructions/s (browserSpeed);
	// speedRuns: the workers' runs it has learnt from (learnSpeed)
	speed     float64
	speedRuns int
	// runKey and runPreset: the experiment (its link) and preset the
	// results came from, to mark them stale when the form changes
	runKey, runPreset string

	pool      *Pool
	net       liveNet // the live view of the network (netview.go)
	charts    map[string]*chartView
	notice    string
	noticeSeq int // bumped by say, so that an old timer leaves a newer notice
	// noticeOfExp: the notice is about the experiment as it was (why it
	// cannot run); the next edit takes it away
	noticeOfExp bool
	embedCode   string
	importErrs  []string

	renderPending bool
	closed        map[string]bool // configuration groups folded away
	chartsDirty   bool
	echarts       bool // ECharts is loaded
	runs          int  // experiments started since the page opened
	cfgVersion    int  // bumped on every change the configuration panel shows
	chartsAt      time.Time
	// rate is the measured engine speed in experiment.Cost units per
	// second per worker, for the time estimates (updated after every run).
	// Before the first run: the default experiment's first run in the
	// browser, cold WebAssembly tiers included (the old default of 2e6
	// node-cycles/s gave the same estimate for it).
	rate float64
}

var seriesParams = func() []config.Param {
	var out []config.Param
	for _, p := range config.Params() {
		if p.Path != "version" {
			out = append(out, p)
		}
	}
	return out
}()

// Main starts the page.
func Main() {
	a := &App{qcnRouter: -1, active: map[int]*runInfo{}, partial: map[int]protocol.Partial{}, state: "idle", charts: map[string]*chartView{},
		rate: experiment.DefaultRate, closed: map[string]bool{"router": true}}
	for _, c := range experiment.Charts {
		a.charts[c] = &chartView{id: "chart-" + c}
	}
	a.resetTyped()
	a.loadHash(global.Get("location").Get("hash").String())
	size := global.Get("navigator").Get("hardwareConcurrency").Int()
	size = min(max(size, 1), 16)
	a.pool = NewPool(size, global.Get("phitsimWorkerModule"), a.onMsg, a.onCrash)
	a.pool.Split = min(size, maxSplit)
	// Another link pasted into the address bar: open it as a new page.
	global.Call("addEventListener", "hashchange", js.FuncOf(func(js.Value, []js.Value) any {
		if global.Get("location").Get("hash").String() != "#"+a.fragment() {
			global.Get("location").Call("reload")
		}
		return nil
	}))
	a.installDebug()
	vecty.SetTitle(docs.PageTitle)
	mark("go-ready")
	vecty.RenderInto("#app", a)
	mark("interactive")
	global.Set("phitsimInteractive", global.Get("performance").Call("now"))
	var chartsReady js.Func
	chartsReady = js.FuncOf(func(js.Value, []js.Value) any {
		chartsReady.Release()
		a.echarts = true
		afterRender(func() { a.updateCharts(); mark("charts") })
		return nil
	})
	global.Get("phitsimEcharts").Call("then", chartsReady)
	// A newcomer sees a result at once: small experiments run on opening
	// (not in embed mode, where the reader presses Run).
	if !a.embed && !a.gallery && a.exp.Work() <= autoRunWork {
		a.run()
	}
	select {}
}

func mark(name string) { global.Get("performance").Call("mark", "phitsim-"+name) }

// autoRunWork: experiments up to this many node-cycles run when the page opens.
const autoRunWork = 2e8

func (a *App) loadHash(h string) {
	l, errs := experiment.Decode(h)
	a.exp, a.embed, a.chart = l.Exp, l.Embed, l.Chart
	a.gallery, a.figure = l.Gallery, l.Figure
	if a.embed && a.chart == "" {
		a.chart = "accepted"
	}
	a.linkErrs = nil
	for _, e := range errs {
		a.linkErrs = append(a.linkErrs, e.Error())
	}
	a.sel = 0
	a.resetTyped()
	a.point = defaultPoint(a.exp)
	a.cfgVersion++
}

func defaultPoint(e experiment.Experiment) int {
	v, _ := e.Sweep.Values()
	return len(v) / 2
}

// formPoint follows an edit of the form's sweep: the point selector lists
// the values of the results shown, so the point changes only while there
// are none (the next run picks its own, in run).
func (a *App) formPoint() {
	if a.res == nil {
		a.point = defaultPoint(a.exp)
	}
}

func (a *App) fragment() string {
	return experiment.Encode(experiment.Link{Exp: a.exp, Chart: a.chartIfEmbed(), Embed: a.embed, Gallery: a.gallery, Figure: a.figure})
}

func (a *App) chartIfEmbed() string {
	if a.embed {
		return a.chart
	}
	return ""
}

// changed is called after every edit of the experiment: the URL follows,
// unless a field holds text that is not a number (unlinked): the link
// would then carry another value than the one shown.
func (a *App) changed() {
	a.cfgVersion++
	if a.noticeOfExp {
		a.notice, a.noticeOfExp = "", false
	}
	if a.unlinked() == "" {
		frag := a.fragment()
		url := global.Get("location").Get("pathname").String() + global.Get("location").Get("search").String() + "#" + frag
		global.Get("history").Call("replaceState", js.Null(), "", url)
	}
	a.embedCode = ""
	a.schedule()
}

// schedule a re-render (at most ~8 per second while running).
func (a *App) schedule() {
	if a.renderPending {
		return
	}
	a.renderPending = true
	after(200, func() {
		a.renderPending = false
		vecty.Rerender(a)
		// charts: at once for new results, at most twice a second for
		// the partial points of running jobs; drawn after the render,
		// which may add their elements
		afterRender(func() {
			if a.chartsDirty || (len(a.partial) > 0 && time.Since(a.chartsAt) > 500*time.Millisecond) {
				a.updateCharts()
			}
			a.drawNet()
		})
	})
}

func (a *App) updateCharts() {
	if !a.echarts {
		return
	}
	a.chartsDirty, a.chartsAt = false, time.Now()
	in := plot.Input{Results: a.res, Point: a.point, Router: a.qcnRouter}
	if a.res != nil {
		in.Running = plot.RunningFrom(a.res, a.partial)
	}
	names := a.cardNames()
	if a.embed {
		names = []string{a.chart}
	}
	for name, opt := range plot.Some(in, names) {
		if !a.charts[name].set(a.withClaim(in, name, opt)) {
			a.chartsDirty = true // its element comes with a later render
		}
	}
}

func (a *App) run() {
	if a.state == "running" {
		if !a.replacesRun() {
			return // that experiment is running already
		}
		// another experiment chosen while one runs (a preset picked
		// during the page's opening run): Run stops it and starts this
		a.cancel()
	}
	if a.pool.Broken != "" {
		a.notice = "The simulation workers cannot start (" + a.pool.Broken + "); reload the page."
		a.schedule()
		return
	}
	// the form's values at the click: the Run button is never disabled
	// (runningAlready), and the validation is made again here, not taken from
	// the last render, which may be older than the last keystroke
	a.chk = nil
	if bad := a.blockers(); len(bad) > 0 {
		a.refuse("Cannot run: " + strings.Join(bad, "; "))
		return
	}
	res, err := experiment.NewResults(a.exp)
	if err != nil {
		a.refuse("Cannot run: " + err.Error())
		return
	}
	if a.res == nil || !slices.Equal(a.res.Values, res.Values) || a.point >= len(res.Values) {
		a.point = a.figurePoint(res.Values, len(res.Values)/2) // other values: the middle one, or a figure's claim's
	}
	a.res, a.tracker = res, experiment.NewTracker(res.Jobs)
	a.runKey, a.runPreset = expKey(a.exp), a.preset
	a.active, a.partial = map[int]*runInfo{}, map[int]protocol.Partial{}
	a.log, a.notice = nil, ""
	a.state, a.started = "running", time.Now()
	a.runs++
	a.chartsDirty = true
	a.net.watch(res, a.point)
	a.pool.Watch = a.net.job
	a.pool.Run(res.Jobs)
	a.schedule()
}

// replacesRun tells whether Run, pressed now, would stop a run of another
// experiment than the form's and start the form's (runDisabled, run).
func (a *App) replacesRun() bool {
	return a.state == "running" && expKey(a.exp) != a.runKey
}

// runningAlready tells whether the Run button shows as disabled (aria-disabled,
// greyed) because the experiment in the form is the one running. Neither
// it nor a form that cannot run (blockers) sets the button's disabled
// attribute: the page renders up to 200 ms after an edit (schedule), and a
// click that comes first (a preset chosen, or a field's error corrected,
// and Run pressed at once) would meet a button disabled for the previous
// state of the form and be dropped; run decides on the state at the click.
func (a *App) runningAlready() bool {
	return a.state == "running" && !a.replacesRun()
}

// enterRuns is the keydown handler of the form's text fields: Enter runs
// the experiment, as Enter in a form's field submits it (run validates the
// values as they are at the key, and says why when it cannot run). Enter
// that ends an input method's composition, or with a modifier, is left alone.
func (a *App) enterRuns(e *vecty.Event) {
	v := e.Value
	if v.Get("key").String() != "Enter" || v.Get("isComposing").Bool() || v.Get("repeat").Bool() ||
		v.Get("altKey").Bool() || v.Get("ctrlKey").Bool() || v.Get("metaKey").Bool() || v.Get("shiftKey").Bool() {
		return
	}
	v.Call("preventDefault")
	a.run()
}

// runLabel is the Run button's text: it says so when pressing it stops
// the run in flight.
func (a *App) runLabel() string {
	if a.replacesRun() {
		return "Stop and run this"
	}
	return "Run"
}

func (a *App) cancel() {
	if a.state != "running" {
		return
	}
	a.pool.Cancel()
	a.finish("cancelled")
}

func (a *App) finish(state string) {
	a.state, a.finished = state, time.Now()
	if a.res != nil && a.tracker != nil {
		if el := a.finished.Sub(a.started).Seconds(); el > 0.5 {
			if w := a.tracker.Work(); w > 0 {
				a.rate = w / el / float64(min(a.pool.Size(), len(a.res.Jobs)))
			}
		}
	}
	a.active, a.partial = map[int]*runInfo{}, map[int]protocol.Partial{}
	a.chartsDirty = true
	a.schedule()
}

func (a *App) jobLabel(i int) string {
	j := a.res.Jobs[i]
	x := fmt.Sprintf("load %g", j.X)
	if a.res.Exp.Sweep.Param != experiment.LoadParam {
		x = fmt.Sprintf("%s=%g", a.res.Exp.Sweep.Param, j.X)
	}
	return fmt.Sprintf("%s · %s · seed %d", a.res.Exp.SeriesName(j.Series), x, j.Seed)
}

func (a *App) onMsg(job int, m *protocol.Message) {
	if a.state != "running" || a.res == nil || job >= len(a.res.Jobs) {
		return
	}
	switch m.Type {
	case protocol.Snapshot:
		a.net.add(job, m.Net)
		a.schedule()
		return
	case protocol.Progress:
		a.tracker.Begin(time.Since(a.started).Seconds())
		p := m.Progress
		a.active[job] = &runInfo{cycle: p.Cycle, total: p.Total, eta: p.ETA}
		if p.Total > 0 {
			a.tracker.Set(job, float64(p.Cycle)/float64(p.Total))
		}
		a.partial[job] = p.Partial
	case protocol.Result:
		a.tracker.Begin(time.Since(a.started).Seconds())
		a.chartsDirty = true
		a.res.Runs[job] = m.Result
		a.learnSpeed(m.Result)
		a.tracker.Set(job, 1)
		delete(a.active, job)
		delete(a.partial, job)
		// sim.precision: a finished point short of it takes more seeds,
		// as in 'phitsim sweep' (experiment.Results.MoreSeeds)
		if more := a.res.MoreSeeds(); len(more) > 0 {
			for _, i := range more {
				a.tracker.Add(a.res.Jobs[i : i+1])
			}
			a.pool.Add(a.res.Jobs, more)
		}
	case protocol.Error:
		e := m.Error
		a.failed(job, e.Kind, e.Msg, fmt.Sprintf("%s failed (%s): %s", a.jobLabel(job), e.Kind, e.Msg))
		return
	}
	a.next()
}

// failed records a run that ended without a result and goes on with the others.
func (a *App) failed(job int, kind, msg, logLine string) {
	a.res.Errors[job] = experiment.RunError{Job: job, Kind: kind, Msg: msg}
	a.log = append(a.log, logLine)
	a.tracker.Set(job, 1)
	delete(a.active, job)
	delete(a.partial, job)
	a.next()
}

// next finishes the experiment when no run is left, or starts more runs.
func (a *App) next() {
	if !a.pool.Busy() {
		a.finish("done")
		return
	}
	a.schedule()
}

func (a *App) onCrash(job int, why string) {
	if a.pool.Broken != "" {
		a.notice = "The simulation workers cannot start (" + a.pool.Broken + "); reload the page."
	}
	if a.state != "running" || a.res == nil || job >= len(a.res.Jobs) {
		a.schedule()
		return
	}
	a.failed(job, "crash", why, fmt.Sprintf("worker crashed running %s (%s); it was replaced, the other runs go on", a.jobLabel(job), why))
}

// installDebug exposes a few hooks for the end-to-end test and the curious.
func (a *App) installDebug() {
	dbg := global.Get("Object").New()
	dbg.Set("crashWorker", js.FuncOf(func(js.Value, []js.Value) any { return a.pool.CrashOne() }))
	dbg.Set("crashPart", js.FuncOf(func(js.Value, []js.Value) any { return a.pool.CrashPart() }))
	dbg.Set("svg", js.FuncOf(func(_ js.Value, args []js.Value) any { return a.charts[args[0].String()].svg() }))
	dbg.Set("png", js.FuncOf(func(_ js.Value, args []js.Value) any { return a.charts[args[0].String()].png() }))
	dbg.Set("csv", js.FuncOf(func(js.Value, []js.Value) any {
		if a.res == nil {
			return ""
		}
		b, _ := a.res.CSV()
		return string(b)
	}))
	// the export document, built when asked (as the JSON button does): a
	// copy kept in the page would cost several times the results' memory
	dbg.Set("json", js.FuncOf(func(js.Value, []js.Value) any {
		if a.res == nil || a.state == "running" {
			return ""
		}
		b, err := a.res.JSON()
		if err != nil {
			return ""
		}
		return string(b)
	}))
	// the live view's snapshots of the watched run so far, as JSON (the
	// end-to-end test compares a split run's with one worker's)
	dbg.Set("netFrames", js.FuncOf(func(js.Value, []js.Value) any {
		b, err := json.Marshal(a.net.frames)
		if err != nil {
			return ""
		}
		return string(b)
	}))
	dbg.Set("pool", js.FuncOf(func(js.Value, []js.Value) any {
		p := a.pool
		return map[string]any{"size": p.Size(), "started": p.Started, "crashes": p.Crashes,
			"replaced": p.Replaced, "cancelAcks": p.CancelAcks, "terminated": p.Terminated, "busy": p.Busy(), "stopping": p.Stopping(),
			"split": p.Split, "helping": p.Helping(), "splitRuns": p.SplitRuns}
	}))
	global.Set("phitsimDebug", dbg)
}
