package facts

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/routing"
)

// The analytic bound follows the routing's paths: MIN's adversarial cap,
// Valiant's 1/2 for the oblivious Valiant routings (VAL, VAL_GROUP), none
// for the adaptive ones (the lists facts compared names against before the
// routing table).
func TestBoundPerRouting(t *testing.T) {
	for _, e := range routing.All() {
		c := config.Default()
		c.Traffic.Pattern, c.Routing.Name = "ADV", e.Name
		f := Of(&c)
		want := 0.0
		switch e.Name {
		case "MIN":
			want = f.MinAdvCap
		case "VAL", "VAL_GROUP":
			want = 0.5
		case "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR":
		default: // a routing added later
			want = map[routing.Paths]float64{routing.MinimalOnly: f.MinAdvCap, routing.ValiantOnly: 0.5}[e.Paths]
		}
		if f.Bound != want {
			t.Errorf("%s under ADV: bound %v, want %v (%s)", e.Name, f.Bound, want, f.Why)
		}
	}
}
