package figures

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// TestBgSettle reads Kim et al. Fig. 13's settle time and window means on
// made-up records (intervals of 1,000 cycles, the hotspot from cycle
// 20,000): 100 cycles before the start (the first 5 intervals, the
// network filling, at 500, are left out), 400 for 10 intervals after it,
// then 120 (within 1.25×) for good: settled 10,000 cycles after the start.
// A spike of 5 intervals at 200 later moves the time past it; ending
// above 125 never settles. Two runs pool per interval by their packets.
func TestBgSettle(t *testing.T) {
	run := func(lat func(i int) float64, n int64) *result.Result {
		c := config.Default()
		c.Name, c.Traffic.HotspotStart, c.Sim.Interval = "x", 20000, 1000
		r := &result.Result{Config: c, Offered: 0.4, Hotspot: &result.HotspotClasses{}}
		for i := range 60 {
			r.Hotspot.Series = append(r.Hotspot.Series, result.ClassInterval{Delivered: n, Latency: lat(i)})
		}
		return r
	}
	base := func(i int) float64 {
		switch {
		case i < 5:
			return 500
		case i < 20:
			return 100
		case i < 30:
			return 400
		}
		return 120
	}
	c, err := BackgroundCurve([]*result.Result{run(base, 10)}, "x", 0.4)
	if err != nil {
		t.Fatal(err)
	}
	if c.Cycle[0] != -19000 || c.Cycle[19] != 0 {
		t.Fatalf("cycles from the start %g … %g, want −19,000 … 0 at interval 19", c.Cycle[0], c.Cycle[19])
	}
	if b := c.Before(); b != 100 {
		t.Errorf("before the start %g, want 100 (intervals 5–19)", b)
	}
	if at, ok := c.BgSettle(); !ok || at != 10000 {
		t.Errorf("settled at %g (%v), want 10,000", at, ok)
	}
	spike := func(i int) float64 {
		if i >= 40 && i < 45 {
			return 200
		}
		return base(i)
	}
	c, _ = BackgroundCurve([]*result.Result{run(spike, 10)}, "x", 0.4)
	if at, ok := c.BgSettle(); !ok || at != 25000 {
		t.Errorf("with a spike over intervals 40–44: settled at %g (%v), want 25,000", at, ok)
	}
	high := func(i int) float64 {
		if i >= 20 {
			return 130
		}
		return base(i)
	}
	c, _ = BackgroundCurve([]*result.Result{run(high, 10)}, "x", 0.4)
	if _, ok := c.BgSettle(); ok {
		t.Error("130 after the start against 100 before: settled, want never (1.25×)")
	}
	// pooled: 10 packets at base and 30 at 2× base weigh 1:3 in each interval
	double := func(i int) float64 { return 2 * base(i) }
	c, _ = BackgroundCurve([]*result.Result{run(base, 10), run(double, 30)}, "x", 0.4)
	if c.Packets[25] != 40 || c.Latency[25] != 700 {
		t.Errorf("pooled interval 25: %d packets at %g, want 40 at 700", c.Packets[25], c.Latency[25])
	}
	if m, err := c.mean([2]float64{10000, 40000}); err != nil || m != 210 {
		t.Errorf("mean over 10,000–40,000 cycles after the start %g (%v), want 210", m, err)
	}
	if _, err := BackgroundCurve([]*result.Result{run(base, 10)}, "y", 0.4); err == nil {
		t.Error("series y: no error")
	}
}
