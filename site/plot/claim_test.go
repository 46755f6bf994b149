package plot

import (
	"encoding/json"
	"testing"

	"phitsim/engine/figures"
)

// TestWithClaimDrawsEveryFigure: every gallery figure's claim is drawn on
// the empty accepted-load chart: a labelled vertical line at the load where
// the claim is read and, for a band on the accepted load, the shaded band
// between its bounds.
func TestWithClaimDrawsEveryFigure(t *testing.T) {
	for _, f := range figures.Table {
		var m map[string]any
		if err := json.Unmarshal(WithClaim(Accepted(Input{}), f), &m); err != nil {
			t.Fatal(err)
		}
		series := m["series"].([]any)
		s := series[len(series)-1].(map[string]any)
		if s["name"] != ClaimLabel(f) {
			t.Fatalf("%s: last series %v, want the claim %q", f.ID, s["name"], ClaimLabel(f))
		}
		ml := s["markLine"].(map[string]any)["data"].([]any)[0].(map[string]any)
		if ml["xAxis"] != f.Claim.Load {
			t.Errorf("%s: claim line at x = %v, want %g", f.ID, ml["xAxis"], f.Claim.Load)
		}
		ma, band := s["markArea"].(map[string]any)
		if want := f.Claim.Kind == figures.Band && f.Claim.Metric == figures.Accepted; band != want {
			t.Errorf("%s: band drawn %v, want %v", f.ID, band, want)
		}
		if band {
			d := ma["data"].([]any)[0].([]any)
			lo, hi := d[0].(map[string]any)["yAxis"], d[1].(map[string]any)["yAxis"]
			if lo != f.Claim.Lo || hi != f.Claim.Hi {
				t.Errorf("%s: band [%v, %v], want [%g, %g]", f.ID, lo, hi, f.Claim.Lo, f.Claim.Hi)
			}
		}
	}
}
