package experiment

import (
	"slices"
	"strings"
	"testing"

	"phitsim/engine/routing"
	"phitsim/engine/runcost"
)

// The cost estimate and the paper-run note follow the routing's entry: a
// packet makes MIN's crossings (local, global, local and the ejection: 4)
// under the minimal-only routings, Valiant's (7) under the oblivious Valiant
// routings, halfway (5.5) under the adaptive ones, so that MIN's run costs
// least; the ACOR paper's note for ACOR and PB_ACOR (the lists they
// compared names against before the routing table).
func TestCostAndNotePerRouting(t *testing.T) {
	d := Default()
	m := d.Series[0]
	m.Routing.Name, m.Traffic.Load = "MIN", 0.1
	minCost := Cost(&m)
	for _, e := range routing.All() {
		c := d.Series[0]
		c.Routing.Name, c.Traffic.Load = e.Name, 0.1
		hops := 5.5
		switch e.Name {
		case "MIN":
			hops = 4
		case "VAL", "VAL_GROUP":
			hops = 7
		case "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR":
		default: // a routing added later
			hops = map[routing.Paths]float64{routing.MinimalOnly: 4, routing.ValiantOnly: 7, routing.Adaptive: 5.5}[e.Paths]
		}
		if got := runcost.ExpectedHopsPerPacket(&c); got != hops {
			t.Errorf("%s: %v crossings per packet, want %v", e.Name, got, hops)
		}
		if got := Cost(&c); e.Name != "MIN" && !(got > minCost) {
			t.Errorf("%s: cost %v, not above MIN's %v", e.Name, got, minCost)
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
