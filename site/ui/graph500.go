//go:build js && wasm

package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"

	"phitsim/site/experiment"
	"phitsim/site/facts"
)

// renderGraph500 is the table of the Graph500 runs at the selected point:
// execution time in cycles and seconds, TEPS, usage and the messages sent
// in each BFS level. It has one row per run of the point from the
// start (placeholders until the run's result arrives), so it does not grow
// while the experiment runs. Nil when no series runs Graph500.
func (a *App) renderGraph500() vecty.MarkupOrChild {
	e, jobs, vals := &a.exp, []experiment.Job(nil), a.values()
	if a.res != nil {
		e, jobs, vals = &a.res.Exp, a.res.Jobs, a.res.Values
	} else {
		jobs, _ = a.exp.Jobs()
	}
	has := false
	for i := range e.Series {
		has = has || e.Series[i].Graph500()
	}
	if !has {
		return nil
	}
	at := ""
	if a.point >= 0 && a.point < len(vals) {
		at = fmt.Sprintf(" at %s = %g", e.Sweep.Param, vals[a.point])
		if e.Sweep.Param == experiment.LoadParam {
			at = fmt.Sprintf(" at offered load %g", vals[a.point])
		}
	}
	head := elem.TableRow(
		th("series", ""), th("seed", ""), th("root degree dr", "degree of the BFS root vertex (drawn per seed unless workload.rootDegree is set)"),
		th("execution time (cycles)", "to the delivery of the last broadcast of the last level"),
		th("execution time (simulated)", "cycles × the cycle time phitBytes·8/linkGbps"),
		th("TEPS", "traversed edges per second: the graph's 2^s·fe edges / execution time"),
		th("usage (phits/process/cycle)", "phits injected by the job's processes per process and cycle"),
		th("messages per BFS level (0, 1, …)", "query messages sent in each level, all processes"),
	)
	var rows []vecty.MarkupOrChild
	for _, j := range jobs {
		if j.Point != a.point || !j.Config.Graph500() {
			continue
		}
		rows = append(rows, a.graph500Row(e, j))
	}
	return elem.Section(vecty.Markup(elemID("graph500-results"), vecty.Class("result-table"), vecty.Attribute("aria-label", "Graph500 runs")),
		elem.Heading2(vecty.Text("Graph500 runs"+at)),
		elem.Div(vecty.Markup(vecty.Class("table-wrap"), vecty.Attribute("tabindex", 0), vecty.Attribute("role", "region"),
			vecty.Attribute("aria-label", "Graph500 runs table (scrolls sideways)")),
			elem.Table(elem.TableHead(head), elem.TableBody(rows...))),
	)
}

func th(text, tip string) *vecty.HTML {
	return elem.TableHeader(vecty.Markup(vecty.Attribute("scope", "col"), vecty.MarkupIf(tip != "", vecty.Attribute("title", tip))), vecty.Text(text))
}

func td(text, tip string) *vecty.HTML {
	return elem.TableData(vecty.Markup(vecty.MarkupIf(tip != "", vecty.Attribute("title", tip))), vecty.Text(text))
}

func (a *App) graph500Row(e *experiment.Experiment, j experiment.Job) *vecty.HTML {
	var r facts.Graph500Row
	state := "waiting"
	if a.res != nil {
		r = facts.Graph500Of(j.Seed, a.res.Runs[j.Index])
		if fail, ok := a.res.Errors[j.Index]; ok {
			state = "failed: " + fail.Msg
		} else if a.active[j.Index] != nil {
			state = "running…"
		} else if a.state == "cancelled" {
			state = "cancelled"
		}
	} else {
		r = facts.Graph500Of(j.Seed, nil)
		state = "not run yet"
	}
	cells := []vecty.MarkupOrChild{
		elem.TableHeader(vecty.Markup(vecty.Attribute("scope", "row")), vecty.Text(e.SeriesName(j.Series))),
		td(strconv.FormatUint(j.Seed, 10), ""),
	}
	if !r.Done {
		short := state
		if strings.HasPrefix(state, "failed") {
			short = "failed"
		}
		cells = append(cells, td("—", ""), td(short, state), td("—", ""), td("—", ""), td("—", ""), td("—", ""))
		return elem.TableRow(cells...)
	}
	cyc, tip := strconv.FormatInt(r.Cycles, 10), ""
	teps := facts.SI(r.TEPS, "TEPS")
	if !r.Finished {
		cyc, tip, teps = "≥ "+cyc, r.Status, "—"
	}
	var msgs, exact []string
	for _, m := range r.Messages {
		msgs = append(msgs, facts.Count(m))
		exact = append(exact, strconv.FormatInt(m, 10))
	}
	cells = append(cells,
		td(strconv.Itoa(r.RootDegree), ""),
		td(cyc, tip),
		td(facts.SI(r.Seconds, "s"), fmt.Sprintf("%g s", r.Seconds)),
		td(teps, fmt.Sprintf("%.6g TEPS", r.TEPS)),
		td(fmt.Sprintf("%.3f", r.Usage), ""),
		td(strings.Join(msgs, " · "), strings.Join(exact, ", ")),
	)
	return elem.TableRow(cells...)
}
