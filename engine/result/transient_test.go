package result

import (
	"math"
	"testing"
)

// record builds a transient record of 100 packets per bin from shares: 10 bins
// before the switch (from −100, bins of 10 cycles) and the given shares after.
func record(before float64, after []float64) (packets, misrouted []int64) {
	for i := 0; i < 10; i++ {
		packets = append(packets, 100)
		misrouted = append(misrouted, int64(math.Round(100*before)))
	}
	for _, s := range after {
		packets = append(packets, 100)
		misrouted = append(misrouted, int64(math.Round(100*s)))
	}
	return
}

func flat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestTransientTimes: the reaction times of thesis §4.3.2 (Figs. 4.8–4.10),
// derived by hand on records whose misrouted share is known bin by bin.
func TestTransientTimes(t *testing.T) {
	// a step three bins after the switch: both marks are passed at once
	p, m := record(0.1, append(flat(0.1, 3), flat(0.9, 297)...))
	if t50, t90 := TransientTimes(-100, 10, p, m); t50 != 30 || t90 != 30 {
		t.Errorf("step: t50, t90 = %v, %v; want 30, 30", t50, t90)
	}
	// a ramp 0.1 + 0.085·i over ten bins, then 0.9: 50% of the change (0.5)
	// is passed at i = 5 (0.525), 90% (0.82) at i = 9 (0.865)
	var ramp []float64
	for i := 0; i < 10; i++ {
		ramp = append(ramp, 0.1+0.085*float64(i))
	}
	p, m = record(0.1, append(ramp, flat(0.9, 290)...))
	if t50, t90 := TransientTimes(-100, 10, p, m); t50 != 50 || t90 != 90 {
		t.Errorf("ramp: t50, t90 = %v, %v; want 50, 90", t50, t90)
	}
	// a fall (ADV → UN) is timed the same way
	p, m = record(0.9, append(flat(0.9, 2), flat(0.1, 298)...))
	if t50, t90 := TransientTimes(-100, 10, p, m); t50 != 20 || t90 != 20 {
		t.Errorf("fall: t50, t90 = %v, %v; want 20, 20", t50, t90)
	}
	// the settled share is the middle half of the record after the switch: a
	// late change (past five sixths) is not the settled value
	p, m = record(0.1, append(flat(0.5, 250), flat(1, 50)...))
	if t50, t90 := TransientTimes(-100, 10, p, m); t50 != 0 || t90 != 0 {
		t.Errorf("settled over the middle half: t50, t90 = %v, %v; want 0, 0", t50, t90)
	}
	// no change beyond 5 points: no reaction to time
	p, m = record(0.1, flat(0.13, 300))
	if t50, t90 := TransientTimes(-100, 10, p, m); !math.IsNaN(t50) || !math.IsNaN(t90) {
		t.Errorf("no change: t50, t90 = %v, %v; want NaN", t50, t90)
	}
	// a record without packets before the switch, or too short, has none either
	if t50, _ := TransientTimes(0, 10, []int64{100, 100}, []int64{0, 100}); !math.IsNaN(t50) {
		t.Errorf("short record: t50 = %v, want NaN", t50)
	}
}
