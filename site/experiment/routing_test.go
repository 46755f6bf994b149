package experiment

import (
	"slices"
	"strings"
	"testing"

	"phitsim/engine/routing"
	"phitsim/site/facts"
)

// The cost estimate and the paper-run note follow the routing's entry: one
// hop per packet for MIN, two for the oblivious Valiant routings, 1.5 for the
// adaptive ones; the ACOR paper's note for ACOR and PB_ACOR (the lists they
// compared names against before the routing table).
func TestCostAndNotePerRouting(t *testing.T) {
	for _, e := range routing.All() {
		d := Default()
		c := d.Series[0]
		c.Routing.Name, c.Traffic.Load = e.Name, 0.1
		hops := 1.5
		switch e.Name {
		case "MIN":
			hops = 1
		case "VAL", "VAL_GROUP":
			hops = 2
		case "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR":
		default: // a routing added later
			hops = map[routing.Paths]float64{routing.MinimalOnly: 1, routing.ValiantOnly: 2, routing.Adaptive: 1.5}[e.Paths]
		}
		if got, want := Cost(&c), facts.Of(&c).Work*(idleCost+0.1*hops); got != want {
			t.Errorf("%s: cost %v, want %v", e.Name, got, want)
		}
		x := Experiment{Series: append(d.Series[:0:0], c), Sweep: d.Sweep}
		acor := e.Name == "ACOR" || e.Name == "PB_ACOR"
		if !slices.Contains([]string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"}, e.Name) {
			acor = e.Keeps(routing.Levels) // a routing added later
		}
		if got := strings.Contains(paperRun(&x), "ACOR paper"); got != acor {
			t.Errorf("%s: the ACOR paper's note %v, want %v: %q", e.Name, got, acor, paperRun(&x))
		}
	}
}
