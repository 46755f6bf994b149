//go:build js && wasm

package ui

import (
	"fmt"
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"phitsim/engine/result"
	"phitsim/engine/topology"
	"phitsim/site/experiment"
	"phitsim/site/netview"
	"phitsim/site/plot"
	"phitsim/site/protocol"
)

// netFrames is how many snapshots the watched run sends
// (protocol.SnapshotEvery turns it into an interval of at least 200 cycles):
// enough for a smooth replay, a few hundred KB at h=4.
const netFrames = 200

// liveNet is the live view of the network: the snapshots of one run (the
// first seed of a series at a point: by default experiment.WatchSeries, the
// first series or the first RECN series, at the point shown, else the
// reader's choice), drawn as they arrive and replayed with a slider after
// the run.
type liveNet struct {
	job int // the watched job, −1: none
	// chosen: the series and point picked in the selector ("s/p"; "": the
	// default)
	chosen string
	title  string
	layout netview.Layout
	topo   topology.Topology // the watched run's network (the heat map's names)
	frames []*protocol.NetInfo
	// frame shown by the slider; −1 follows the newest
	frame       int
	drawn       string  // what the charts show (frame count and position)
	cycleNs     float64 // the watched run's physical cycle (0: none)
	graph, heat *chartView
}

// watch picks the job to watch in res (the chosen series and point, else
// experiment.WatchSeries at point) and lays out its network; −1 when its
// topology cannot be built.
func (n *liveNet) watch(res *experiment.Results, point int) {
	*n = liveNet{job: -1, frame: -1, chosen: n.chosen, graph: n.graph, heat: n.heat}
	if n.graph == nil {
		n.graph, n.heat = &chartView{id: "chart-net"}, &chartView{id: "chart-netheat"}
	}
	series := res.Exp.WatchSeries()
	var s, p int
	if _, err := fmt.Sscanf(n.chosen, "%d/%d", &s, &p); err == nil && s < len(res.Exp.Series) && p < len(res.Values) {
		series, point = s, p
	}
	for i, j := range res.Jobs {
		if j.Series == series && j.Point == point && j.Run == 0 {
			t, err := topology.New(j.Config.Topology.Params())
			if err != nil {
				return
			}
			n.job, n.layout, n.topo = i, netview.New(t), t
			if b, ok := j.Config.Basis(); ok {
				n.cycleNs = b.CycleNs()
			}
			n.title = res.Exp.SeriesName(series) + " · " + t.Name() + " · " + watchedX(&res.Exp, j)
			return
		}
	}
}

// watchedX names a job's point: its load, or the swept parameter's value.
func watchedX(exp *experiment.Experiment, j experiment.Job) string {
	if p := exp.Sweep.Param; p != "" && p != experiment.LoadParam {
		return fmt.Sprintf("%s %g", p, j.X)
	}
	return fmt.Sprintf("load %g", j.Load())
}

// renderWatchChoice is the selector of the watched run when the
// experiment has several series or points (experiment.WatchSeries at the
// point shown by default); a run already under way or finished is drawn at the
// next Run. Before the first run it lists the form's experiment, so that
// nothing below it moves when a run starts.
func (a *App) renderWatchChoice() vecty.MarkupOrChild {
	res, n := a.res, &a.net
	exp, jobs := &a.exp, []experiment.Job(nil)
	if res != nil {
		exp, jobs = &res.Exp, res.Jobs
	} else if js, err := a.exp.Jobs(); err == nil {
		jobs = js
	}
	cur := ""
	// before a run watches one: the run the next Run will watch
	next := n.chosen
	if next == "" {
		next = fmt.Sprintf("%d/%d", exp.WatchSeries(), a.point)
	}
	var items []vecty.MarkupOrChild
	for i, j := range jobs {
		if j.Run != 0 {
			continue
		}
		v := fmt.Sprintf("%d/%d", j.Series, j.Point)
		on := i == n.job || n.job < 0 && v == next
		if on {
			cur = v
		}
		items = append(items, elem.Option(vecty.Markup(prop.Value(v), vecty.MarkupIf(on, vecty.Attribute("selected", true))),
			vecty.Text(exp.SeriesName(j.Series)+" · "+watchedX(exp, j))))
	}
	if len(items) < 2 {
		return nil
	}
	opts := append([]vecty.MarkupOrChild{vecty.Markup(elemID("net-watch"), prop.Value(cur), vecty.Attribute("aria-describedby", "net-watch-note"),
		event.Change(func(e *vecty.Event) {
			n.chosen = e.Target.Get("value").String()
			if a.res != nil {
				n.watch(a.res, a.point)
				if a.state == "running" {
					a.pool.Watch = n.job
				}
			}
			a.schedule()
		}))}, items...)
	note := "the first seed of the run chosen is drawn"
	if res != nil && n.job >= 0 && len(n.frames) == 0 && (res.Runs[n.job] != nil || a.active[n.job] != nil || a.state != "running") {
		note = "drawn at the next Run (this run is not ahead)"
	}
	return elem.Div(vecty.Markup(vecty.Class("field", "inline", "net-watch"), vecty.Data("watched", cur)),
		elem.Label(vecty.Markup(prop.For("net-watch")), vecty.Text("watched run: ")),
		elem.Select(opts...),
		elem.Span(vecty.Markup(elemID("net-watch-note"), vecty.Class("hint")), vecty.Text(note)))
}

func (n *liveNet) add(job int, m *protocol.NetInfo) {
	if job == n.job && m != nil {
		n.frames = append(n.frames, m)
	}
}

func (n *liveNet) shown() *protocol.NetInfo {
	switch {
	case len(n.frames) == 0:
		return nil
	case n.frame < 0 || n.frame >= len(n.frames):
		return n.frames[len(n.frames)-1]
	}
	return n.frames[n.frame]
}

// draw updates the charts when a frame arrived or the slider moved; the heat
// map once the run is over.
func (a *App) drawNet() {
	n := &a.net
	if !a.echarts || n.graph == nil {
		return
	}
	if n.job < 0 {
		n.graph.set(plot.Empty("The network, live", "drawn while a run goes"))
		n.heat.set(plot.Empty("Link utilisation per port", "drawn when the run ends"))
		return
	}
	key := fmt.Sprintf("%d/%d/%s", len(n.frames), n.frame, a.state)
	if key == n.drawn {
		return
	}
	if n.graph.set(n.graphOption()) {
		n.drawn = key
	}
	if a.state != "running" && len(n.frames) > 0 {
		var busiest *result.BusiestLink
		if a.res != nil && n.job < len(a.res.Runs) && a.res.Runs[n.job] != nil {
			busiest = a.res.Runs[n.job].BusiestLink
		}
		n.heat.set(n.heatOption(busiest))
	} else {
		n.heat.set(plot.Empty("Link utilisation per port", "drawn when the run ends"))
	}
}

func (a *App) renderNet() vecty.ComponentOrHTML {
	n := &a.net
	if n.graph == nil { // before the first run: the same room, so nothing moves when it starts
		n.job, n.frame, n.graph, n.heat = -1, -1, &chartView{id: "chart-net"}, &chartView{id: "chart-netheat"}
	}
	cur := n.shown()
	label := "waiting for the first snapshot"
	if cur != nil {
		label = n.frameLabel(cur)
	}
	pos := len(n.frames) - 1
	if n.frame >= 0 {
		pos = n.frame
	}
	// in a figure's embed too, which has the help panel (renderEmbed)
	help := a.helpButton("netview", "the live view of the network")
	return elem.Section(vecty.Markup(elemID("netview"), vecty.Class("netview", "card"), vecty.Attribute("aria-label", "live view of the network"),
		vecty.Data("frames", strconv.Itoa(len(n.frames))), vecty.Data("frame", strconv.Itoa(pos)), n.saqMarkup()),
		elem.Div(vecty.Markup(vecty.Class("card-head")),
			elem.Span(vecty.Text("The network, live: "+n.title)),
			help),
		a.renderWatchChoice(),
		elem.Div(vecty.Markup(elemID("chart-net"), vecty.Class("chart", "chart-net"), vecty.Attribute("role", "img"),
			vecty.Attribute("aria-label", n.netAria(label)))),
		elem.Div(vecty.Markup(vecty.Class("field", "inline", "net-slider")),
			elem.Label(vecty.Markup(prop.For("net-frame")), vecty.Text("snapshot shown: "+label)),
			elem.Input(vecty.Markup(elemID("net-frame"), prop.Type(prop.TypeRange),
				vecty.Attribute("min", 0), vecty.Attribute("max", max(len(n.frames)-1, 0)), vecty.Attribute("step", 1),
				prop.Value(strconv.Itoa(max(pos, 0))), prop.Disabled(len(n.frames) < 2),
				vecty.Attribute("aria-valuetext", label),
				event.Input(func(e *vecty.Event) {
					i, err := strconv.Atoi(e.Target.Get("value").String())
					if err != nil {
						return
					}
					if i >= len(n.frames)-1 && a.state == "running" {
						i = -1 // at the end: follow the run again
					}
					n.frame = i
					a.schedule()
				}))),
		),
		// always there: the heat map drawn at the end moves nothing below
		elem.Div(vecty.Markup(elemID("chart-netheat"), vecty.Class("chart", "chart-netheat"), vecty.Attribute("role", "img"),
			vecty.Attribute("aria-label", "heat map of the link utilisation per router and output port, mean over the run"))),
	)
}
