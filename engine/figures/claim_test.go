package figures

import (
	"math"
	"testing"

	"phitsim/engine/stats"
	"phitsim/engine/sweep"
)

// TestClaimMetrics reads each metric and kind on a hand-made outcome whose
// values are known: the hotspot senders' least and most, the background,
// the latency, and a ratio inside and outside its band.
func TestClaimMetrics(t *testing.T) {
	est := func(x float64) stats.Estimate { return stats.Estimate{Mean: x} }
	o := &sweep.Outcome{Points: []sweep.Aggregate{
		{Name: "A", Offered: 0.5, Accepted: est(0.4), Latency: est(300),
			Hotspot: &sweep.HotspotAggregate{Accepted: est(0.3), SenderAccepted: []float64{0.2, 0.6, 0.1, 0.1}}},
		{Name: "B", Offered: 0.5, Accepted: est(0.5), Latency: est(200)},
	}}
	for _, tc := range []struct {
		c    Claim
		want float64
		pass bool
	}{
		{Claim{Kind: Band, Metric: SenderMin, Series: "A", Load: 0.5, Lo: 0.05, Hi: 0.15}, 0.1, true},
		{Claim{Kind: Band, Metric: SenderMax, Series: "A", Load: 0.5, Lo: 0.55, Hi: 0.65}, 0.6, true},
		{Claim{Kind: Band, Metric: Background, Series: "A", Load: 0.5, Lo: 0.35, Hi: 0.4}, 0.3, false},
		{Claim{Kind: Ratio, Series: "A", Over: "B", Load: 0.5, Lo: 0.75, Hi: 0.85}, 0.8, true},
		{Claim{Kind: Ratio, Series: "B", Over: "A", Load: 0.5, Lo: 0.75, Hi: 0.85}, 1.25, false},
		{Claim{Kind: Order, Metric: Latency, Series: "A", Over: "B", Load: 0.5, Factor: 1.4}, 1.5, true},
		{Claim{Kind: Order, Metric: Latency, Series: "B", Over: "A", Load: 0.5, Factor: 1}, 2.0 / 3, false},
	} {
		m, err := Figure{ID: "t", Claim: tc.c}.Check(o)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(m.Value-tc.want) > 1e-12 || m.Pass != tc.pass {
			t.Errorf("%+v: value %g pass %v, want %g %v (%s)", tc.c, m.Value, m.Pass, tc.want, tc.pass, m.Text)
		}
	}
	// a hotspot metric on a series without hotspot classes is an error
	if _, err := (Figure{ID: "t", Claim: Claim{Kind: Band, Metric: SenderMin, Series: "B", Load: 0.5}}).Check(o); err == nil {
		t.Error("senderMin of a series without result.hotspot: no error")
	}
}
