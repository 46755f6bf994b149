package main

import (
	"bytes"
	"strings"
	"testing"

	"phitsim/engine/stats"
	"phitsim/engine/sweep"
)

// The fairness experiments (thesis Tables 3.1–3.3) print as the thesis's
// table: each series' highest accepted load once, then per load the minimum
// injection with its share of the offered load, Max/Min (∞ when a router
// starved) and CoV.
func TestFairnessTableRows(t *testing.T) {
	est := func(x float64) stats.Estimate { return stats.Estimate{Mean: x, N: 2} }
	oc := &sweep.Outcome{Points: []sweep.Aggregate{
		{Series: 0, Name: "Obl-CRG", Offered: 0.4, Accepted: est(0.399), MinInj: est(0.3913), MaxMin: est(1.045), CoV: est(0.0063)},
		{Series: 0, Name: "Obl-CRG", Offered: 0.55, Accepted: est(0.43), MinInj: est(0.3833), MaxMin: est(1.321), CoV: est(0.0533)},
		{Series: 1, Name: "In-Trns-MM", Offered: 0.4, Accepted: est(0.36), MinInj: est(0), CoV: est(0.33), Starved: true},
	}}
	var b bytes.Buffer
	printFairnessTable(&b, oc)
	lines := strings.Split(b.String(), "\n")
	want := [][]string{
		{"Obl-CRG", "0.430", "0.4", "0.3913 (97.8%)", "1.045", "0.0063"},
		{"0.55", "0.3833 (69.7%)", "1.321", "0.0533"},
		{"In-Trns-MM", "0.360", "0.4", "0.0000 (0.0%)", "∞ (starved)", "0.3300"},
	}
	for i, w := range want {
		got := strings.Join(strings.Fields(lines[i+2]), " ")
		if got != strings.Join(w, " ") {
			t.Errorf("row %d: %q, want %q", i, got, strings.Join(w, " "))
		}
	}
}

// A fairness experiment over the network size (thesis Figs. 3.10, 3.13)
// prints as the figures' panels: per metric a row per mechanism and a
// column per h with the network's nodes; a point with no run is "–", a
// starved one "∞".
func TestFairnessPanelsBySize(t *testing.T) {
	x, err := sweep.ExperimentByName("thesis-fig3.10")
	if err != nil {
		t.Fatal(err)
	}
	sp := x.Spec
	sp.Series, sp.Values = sp.Series[:2], []float64{2, 8} // MIN, Obl-RRG
	est := func(v float64) stats.Estimate { return stats.Estimate{Mean: v, N: 1} }
	oc := &sweep.Outcome{Spec: sp, Points: []sweep.Aggregate{
		{Series: 0, Name: "MIN", Offered: 0.4, X: 2, Param: "topology.h", Accepted: est(0.2), MinInj: est(0.1), MaxMin: est(5.5), CoV: est(0.3)},
		{Series: 0, Name: "MIN", Offered: 0.4, X: 8, Param: "topology.h", Accepted: est(0.057), MinInj: est(0), CoV: est(1.35), Starved: true},
		{Series: 1, Name: "Obl-RRG", Offered: 0.4, X: 2, Param: "topology.h", Accepted: est(0.399), MinInj: est(0.38), MaxMin: est(1.05), CoV: est(0.0068)},
	}}
	var b bytes.Buffer
	printFairnessPanels(&b, oc)
	var rows []string
	for _, l := range strings.Split(b.String(), "\n") {
		rows = append(rows, strings.Join(strings.Fields(l), " "))
	}
	want := []string{
		"accepted load (phits/(node·cycle)) at 0.4 offered",
		"mechanism h=2 (72 nodes) h=8 (16512 nodes)",
		"MIN 0.2000 0.0570",
		"Obl-RRG 0.3990 –",
		"min inj. load (phits/(node·cycle), % of offered)",
		"mechanism h=2 (72 nodes) h=8 (16512 nodes)",
		"MIN 0.1000 (25.0%) 0.0000 (0.0%)",
		"Obl-RRG 0.3800 (95.0%) –",
		"max/min injection",
		"mechanism h=2 (72 nodes) h=8 (16512 nodes)",
		"MIN 5.500 ∞ (starved)",
		"Obl-RRG 1.050 –",
		"injection cov (σ/μ)",
		"mechanism h=2 (72 nodes) h=8 (16512 nodes)",
		"MIN 0.3000 1.3500",
		"Obl-RRG 0.0068 –",
	}
	var got []string
	for _, r := range rows {
		if r != "" && !strings.HasPrefix(r, "per-router") {
			got = append(got, r)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("panels:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// 'phitsim sweep -experiment thesis-fig3.10' runs the experiment's own
// sweep over topology.h (its -values replacing the sizes), balanced, and
// prints the panels; -loads makes it a load sweep with the fairness table.
func TestSizeExperimentFromTheCommandLine(t *testing.T) {
	short := []string{"-set", "sim.warmup=300", "-set", "sim.cycles=300", "-j", "1"}
	code, out, errOut := cli(t, true, append([]string{"sweep", "-experiment", "thesis-fig3.13", "-values", "2,3"}, short...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"h=2 (72 nodes)", "h=3 (342 nodes)", "max/min injection", "In-Trns-MM", "series 8 (In-Trns-MM)"} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
	// its x is the size, not the load: -loads is refused, naming both ways out
	code, _, errOut = cli(t, false, append([]string{"sweep", "-experiment", "thesis-fig3.13", "-loads", "0.1"}, short...)...)
	if code != 1 || !strings.Contains(errOut, "sweeps topology.h") || !strings.Contains(errOut, "-values") {
		t.Errorf("-loads: exit %d, %q", code, errOut)
	}
}
