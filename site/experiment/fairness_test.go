package experiment

import (
	"reflect"
	"testing"
)

// The thesis's fairness tables (Tables 3.1–3.3) are page presets with the
// engine experiments' series, arbitration and loads (0.10 … 0.55 by 0.15),
// and they survive the page's URL round trip.
func TestFairnessTablePresets(t *testing.T) {
	for _, x := range []struct {
		name, arbiter string
		priority      bool
	}{{"thesis-table3.1", "rr", true}, {"thesis-table3.2", "rr", false}, {"thesis-table3.3", "age", false}} {
		e, ok := PresetByName(x.name)
		if !ok {
			t.Fatalf("%s: no preset", x.name)
		}
		if len(e.Series) != 8 || e.Series[0].Name != "MIN" || e.Series[7].Name != "In-Trns-MM" {
			t.Fatalf("%s: %d series", x.name, len(e.Series))
		}
		for _, c := range e.Series {
			r := c.Router
			if c.Traffic.Pattern != "ADVC" || r.InputArbiter != x.arbiter || r.OutputArbiter != x.arbiter || r.TransitPriority != x.priority {
				t.Errorf("%s %s: pattern %s, arbiters %s/%s, priority %v", x.name, c.Name, c.Traffic.Pattern, r.InputArbiter, r.OutputArbiter, r.TransitPriority)
			}
		}
		v, err := e.Sweep.Values()
		if err != nil || len(v) != 4 || v[0] != 0.1 || v[3] != 0.55 {
			t.Errorf("%s: loads %v %v", x.name, v, err)
		}
		if errs := e.Check(); len(errs) > 0 {
			t.Errorf("%s: %v", x.name, errs[0])
		}
		back, errs := Decode(Encode(Link{Exp: e, Chart: "fairness"}))
		if len(errs) > 0 || !reflect.DeepEqual(back.Exp.Series, e.Series) || !reflect.DeepEqual(back.Exp.Sweep, e.Sweep) {
			t.Errorf("%s: URL round trip: %v", x.name, errs)
		}
	}
}
