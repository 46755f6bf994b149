package plot

import (
	"slices"
	"testing"

	"phitsim/engine/routing"
	"phitsim/site/experiment"
)

// before: the routings the lists below knew.
var before = []string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"}

// The adaptive-routing charts of a series follow its routing's entry: the
// misrouting charts for every routing but MIN, the ACOR charts for ACOR and
// PB_ACOR in switch mode (the lists the charts compared names against
// before the routing table).
func TestChartsPerRouting(t *testing.T) {
	for _, e := range routing.All() {
		d := experiment.Default()
		c := d.Series[0]
		c.Routing.Name = e.Name
		x := experiment.Experiment{Series: d.Series[:0], Sweep: d.Sweep}
		x.Series = append(x.Series, c)
		v := Visible(&x, nil)
		mis, acor := e.Name != "MIN", slices.Contains([]string{"ACOR", "PB_ACOR"}, e.Name)
		if !slices.Contains(before, e.Name) { // a routing added later
			mis, acor = e.Has(routing.Misrouting), e.Has(routing.AcorLevels)
		}
		if want := mis; has(v, "misrouting") != want || has(v, "nonminimal") != want {
			t.Errorf("%s: misrouting charts %v, want %v", e.Name, v, want)
		}
		if want := acor; has(v, "acor") != want {
			t.Errorf("%s: ACOR charts %v, want %v", e.Name, v, want)
		}
		x.Series[0].Routing.AcorMode = "packet"
		if v := Visible(&x, nil); has(v, "acor") {
			t.Errorf("%s in packet mode shows the per-router levels: %v", e.Name, v)
		}
	}
}
