//go:build js && wasm

package ui

import (
	"fmt"
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"

	"phitsim/engine/units"
	"phitsim/site/experiment"
)

// deadlockCount is the number of finished runs a deadlock stopped.
func (a *App) deadlockCount() int {
	if a.res == nil {
		return 0
	}
	return len(a.res.Deadlocks())
}

// deadlockNote is the status line's word on deadlocked runs ("" if none).
func (a *App) deadlockNote(where string) string {
	n := a.deadlockCount()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" %s deadlocked (%s).", experiment.Count(n, "run"), where)
}

// renderDeadlocks is the table of the runs a deadlock stopped (thesis Fig.
// 5.6: no DAMQ reserve deadlocks), as 'phitsim sweep' reports them: where
// in the sweep, when, the metrics up to it, and the engine's report (the
// watchdog's verdict, then the stuck buffers, oldest heads first). The runs
// are kept in the points, the charts (pinned) and the exports. It is the
// last section, so that it appears without moving the others; nil when no
// run deadlocked.
func (a *App) renderDeadlocks() vecty.MarkupOrChild {
	if a.res == nil {
		return nil
	}
	dl := a.res.Deadlocks()
	if len(dl) == 0 {
		return nil
	}
	e := &a.res.Exp
	head := elem.TableRow(th("series", ""), th(e.Sweep.Param, "the swept value of the point"), th("seed", ""),
		th("cycle", "when the engine stopped the run"),
		th("accepted (phits/node/cycle)", "over the measured cycles up to the deadlock"),
		th("report", "the engine's verdict and the stuck input buffers (router, port, VC, the head packet and how long it waited)"))
	// with a physical basis, the cycle in µs and the load in Gb/s beside
	b, phys := e.Basis()
	also := func(s, physical string) string {
		if !phys || physical == "" {
			return s
		}
		return s + " (" + physical + ")"
	}
	var rows []vecty.MarkupOrChild
	for _, d := range dl {
		acc := a.res.Runs[d.Job].Accepted
		lines := d.Deadlock.Lines()
		var bufs []vecty.MarkupOrChild
		for _, l := range lines[1:] {
			bufs = append(bufs, elem.ListItem(vecty.Text(l)))
		}
		report := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("deadlock-report")), elem.Div(vecty.Text(lines[0]))}
		if len(bufs) > 0 {
			report = append(report, elem.Details(elem.Summary(vecty.Text(fmt.Sprintf("%d stuck buffers listed", len(bufs)))),
				elem.UnorderedList(bufs...)))
		}
		rows = append(rows, elem.TableRow(vecty.Markup(vecty.Data("job", strconv.Itoa(d.Job))),
			elem.TableHeader(vecty.Markup(vecty.Attribute("scope", "row")), vecty.Text(e.SeriesName(d.Series))),
			td(also(strconv.FormatFloat(d.X, 'g', -1, 64), e.PhysicalX(d.X)), ""), td(strconv.FormatUint(d.Seed, 10), ""),
			td(also(strconv.FormatInt(d.Deadlock.Cycle, 10), units.FormatTime(b.Ns(float64(d.Deadlock.Cycle)))), ""),
			td(also(strconv.FormatFloat(acc, 'f', 4, 64), units.FormatGbps(b.Gbps(acc))), ""),
			elem.TableData(report...)))
	}
	return elem.Section(vecty.Markup(elemID("deadlocks"), vecty.Class("result-table", "deadlocks"), vecty.Attribute("aria-label", "deadlocked runs")),
		elem.Heading2(vecty.Text("Deadlocked runs "), a.helpButton("metric-deadlock", "deadlocked runs")),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Stopped by the engine and kept with their metrics up to the deadlock, as 'phitsim sweep' keeps them: pinned in the charts, counted in the CSV's deadlocked_runs column, reported in full in the JSON.")),
		elem.Div(vecty.Markup(vecty.Class("table-wrap"), vecty.Attribute("tabindex", 0), vecty.Attribute("role", "region"),
			vecty.Attribute("aria-label", "deadlocked runs table (scrolls sideways)")),
			elem.Table(elem.TableHead(head), elem.TableBody(rows...))))
}
