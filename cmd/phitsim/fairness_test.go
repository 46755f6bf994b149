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
