package plot

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// deadlockColor marks the points whose runs a deadlock stopped.
const deadlockColor = "#a50026"

// DeadlockLabel says when the runs of a point deadlocked: "deadlock at
// cycle 5286", or for several runs "deadlock in 2 of 3 runs, at cycles 5286
// and 6011"; "starvation" instead when every one of them stopped on starved
// heads (result.Deadlock.Reason: the outputs they wait for keep moving).
// "" when none did.
func DeadlockLabel(runs []*result.Result) string {
	var cycles []string
	word := "starvation"
	for _, r := range runs {
		if r != nil && r.Deadlock != nil {
			cycles = append(cycles, strconv.FormatInt(r.Deadlock.Cycle, 10))
			if r.Deadlock.Reason != "starvation" {
				word = "deadlock"
			}
		}
	}
	switch {
	case len(cycles) == 0:
		return ""
	case len(runs) == 1:
		return word + " at cycle " + cycles[0]
	case len(cycles) == 1:
		return fmt.Sprintf("%s in 1 of %d runs, at cycle %s", word, len(runs), cycles[0])
	}
	last := len(cycles) - 1
	return fmt.Sprintf("%s in %d of %d runs, at cycles %s and %s", word, len(cycles), len(runs), strings.Join(cycles[:last], ", "), cycles[last])
}

// deadlockMarks are the pins of series si's deadlocked points (thesis Fig.
// 5.6: no DAMQ reserve deadlocks), each labelled with the cycle, at the
// point's mean up to the deadlock (0 when it has none, e.g. nothing was
// delivered in the measured window), and the legend's words for them.
func deadlockMarks(r *experiment.Results, pts []experiment.Point, si int, m metric) (marks []any, notes []string) {
	for _, p := range pts {
		if p.Series != si || p.Agg.Deadlocked == 0 {
			continue
		}
		label := DeadlockLabel(r.RunsAt(p.Series, p.Index))
		y := m.mean(p)
		if math.IsNaN(y) || math.IsInf(y, 0) {
			y = 0
		}
		marks = append(marks, map[string]any{"coord": []any{num(p.X), num(y)}, "name": label,
			"label": map[string]any{"formatter": label, "align": labelAlign(r.Values, p.X)}})
		notes = append(notes, fmt.Sprintf("%s at %s", label, pointLabel(r, p.X)))
	}
	return marks, notes
}

// labelAlign keeps a pin's label inside the chart: it runs rightwards from
// a pin in the first half of the swept range, leftwards in the second.
func labelAlign(values []float64, x float64) string {
	if len(values) == 0 {
		return "center"
	}
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	switch {
	case lo == hi:
		return "center"
	case x <= (lo+hi)/2:
		return "left"
	}
	return "right"
}

// deadlockLegend is the legend entry that explains the pins: the first
// deadlocked point in its words, and how many more there are.
func deadlockLegend(notes []string) string {
	s := notes[0]
	if len(notes) > 1 {
		s += fmt.Sprintf(" (+%d more deadlocked points)", len(notes)-1)
	}
	return s + ": metrics up to the deadlock"
}

// markPoint is the ECharts markPoint option of the pins.
func markPoint(marks []any) map[string]any {
	return map[string]any{"symbol": "pin", "symbolSize": 34, "data": marks, "silent": true,
		"itemStyle": map[string]any{"color": deadlockColor},
		"label":     map[string]any{"show": true, "position": "top", "color": deadlockColor, "fontSize": 11}}
}
