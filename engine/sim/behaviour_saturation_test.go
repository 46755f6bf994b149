package sim

import (
	"fmt"
	"testing"
)

// MIN under ADV+1 saturates at 1/(a·p): all traffic of a group crosses the one
// global link to the next group (thesis §1.6.1.2: h=4 → 0.03125,
// FOGSim measured 0.0313). With an unbounded source queue,
// offered loads above the cap keep raising the applied load while the
// accepted load stays on the cap. With FOGSim's finite injection buffers a
// node generates only when its injection VC has room, so once those fill the
// applied load falls towards the accepted one (never below it).
func TestMinimalUnderADV1SaturatesAtOneOverAP(t *testing.T) {
	t.Parallel()
	const h = 4
	capacity := 1 / float64(2*h*h) // 1/(a·p) with a=2h, p=h
	for _, sq := range []bool{false, true} {
		var prevApplied, prevLatency float64
		for _, load := range []float64{0.05, 0.1} {
			c := btConfig(h, 3000, 3000)
			c.Routing.Name, c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = "MIN", "ADV", 1, load
			c.Traffic.SourceQueue = sq
			r := btRun(t, c, 1)
			label := "FOGSim injection (no source queue)"
			if sq {
				label = "unbounded source queue"
			}
			btLog(t, label, r)
			if !btWithin(r.Accepted, capacity, 0.05) {
				t.Errorf("%s, load %.2f: accepted %.5f, want 1/(a·p) = %.5f ±5%%", label, load, r.Accepted, capacity)
			}
			if sq && r.Applied <= 1.2*r.Accepted {
				t.Errorf("%s, load %.2f: applied %.5f not above accepted %.5f", label, load, r.Applied, r.Accepted)
			}
			if !sq && r.Applied < 0.99*r.Accepted {
				t.Errorf("%s, load %.2f: applied %.5f below accepted %.5f", label, load, r.Applied, r.Accepted)
			}
			if !r.Saturated {
				t.Errorf("%s, load %.2f: not flagged saturated", label, load)
			}
			if sq {
				// nothing is dropped: the applied load is the offered load
				if !btWithin(r.Applied, load, 0.05) {
					t.Errorf("%s, load %.2f: applied %.4f, want ≈ offered", label, load, r.Applied)
				}
				if r.Applied <= prevApplied {
					t.Errorf("%s: applied load did not rise with offered load (%.4f → %.4f)", label, prevApplied, r.Applied)
				}
			}
			if r.Latency.Avg < 5*134 || r.Latency.Avg <= prevLatency {
				t.Errorf("%s, load %.2f: latency %.0f does not diverge (previous load: %.0f)", label, load, r.Latency.Avg, prevLatency)
			}
			prevApplied, prevLatency = r.Applied, r.Latency.Avg
		}
	}
}

// Valiant to a random router sends every packet over two global links, so its
// throughput is at most half the capacity whatever the pattern; FOGSim h=4
// reaches 0.40 under UN and ADV+1 (thesis §1.4.1.2; measured with FOGSim).
// Checked at h=2, where a load of 0.8 is well past saturation.
func TestValiantSaturatesBetween036And050UnderUNAndADV1(t *testing.T) {
	t.Parallel()
	for _, pattern := range []string{"UN", "ADV"} {
		for _, load := range []float64{0.7, 0.9} {
			c := btConfig(2, 3000, 3000)
			c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "VAL", pattern, load
			r := btRun(t, c, 1)
			btLog(t, "VAL "+pattern, r)
			if r.Accepted < 0.36 || r.Accepted > 0.50 {
				t.Errorf("VAL under %s, load %.1f: accepted %.4f, want saturation in [0.36, 0.50]", pattern, load, r.Accepted)
			}
			if r.Misrouted.Fraction < 0.9 {
				t.Errorf("VAL under %s: only %.2f of the packets took a Valiant detour", pattern, r.Misrouted.Fraction)
			}
			if r.Hops.Global < 1.7 {
				t.Errorf("VAL under %s: %.2f global hops per packet, want ≈2", pattern, r.Hops.Global)
			}
		}
	}
}

// Under ADV+h, Valiant-to-a-group (VAL_GROUP) funnels the traffic of every
// intermediate group through one local link and saturates near 1/h, while
// Valiant to a router stays near 0.40 whatever the offset; under ADV+1 only a
// fraction 1/h of the flows need that local hop, so VAL_GROUP beats VAL there
// (thesis §1.6.1.2, Fig. 1.19; derived bound 1/h; FOGSim measured at
// h=4: VAL_GROUP ≈0.18–0.19 under ADV+4 and ≈0.45 under ADV+1, VAL ≈0.40).
func TestValiantGroupCollapsesUnderADVh(t *testing.T) {
	t.Parallel()
	const h = 4
	run := func(routing string, offset int, load float64) float64 {
		c := btConfig(h, 2000, 2000)
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = routing, "ADV", offset, load
		r := btRun(t, c, 1)
		btLog(t, fmt.Sprintf("%s ADV+%d", routing, offset), r)
		return r.Accepted
	}
	vg := run("VAL_GROUP", h, 0.5)
	v := run("VAL", h, 0.6)
	vg1 := run("VAL_GROUP", 1, 0.7)
	v1 := run("VAL", 1, 0.6)
	if !btWithin(vg, 0.19, 0.15) {
		t.Errorf("VAL_GROUP under ADV+%d: accepted %.4f, want ≈0.19 (±15%%)", h, vg)
	}
	if vg > 1/float64(h)*1.05 {
		t.Errorf("VAL_GROUP under ADV+%d: accepted %.4f above the 1/h = %.3f bound", h, vg, 1/float64(h))
	}
	for _, x := range []struct {
		off int
		acc float64
	}{{h, v}, {1, v1}} {
		if x.acc < 0.36 || x.acc > 0.50 {
			t.Errorf("VAL under ADV+%d: accepted %.4f, want in [0.36, 0.50]", x.off, x.acc)
		}
	}
	if vg > 0.6*v {
		t.Errorf("VAL_GROUP (%.4f) not clearly below VAL (%.4f) under ADV+h", vg, v)
	}
	if !btWithin(vg1, 0.45, 0.15) || vg1 <= v1 {
		t.Errorf("under ADV+1: VAL_GROUP %.4f (want ≈0.45), VAL %.4f: VAL_GROUP should be ahead", vg1, v1)
	}
}

// Under ADVc every group sends to the h groups wired to its router a−1, so MIN
// spreads over h global links and plateaus just below h/(a·p); with FOGSim's
// draw over +1…+(h−1) the plateau is (h−1)/(a·p) (thesis §1.6.1.2, §3.1.3.1;
// FOGSim v4's ADVc draw; h=4 0.125 and 0.094, FOGSim
// measured 0.088). ADVc is also highly unfair (FOGSim h=4 Max/Min 12.6).
func TestMinimalUnderADVcPlateausBelowHOverAP(t *testing.T) {
	t.Parallel()
	const h = 4
	ap := float64(2 * h * h)
	for _, fogsim := range []bool{false, true} {
		bound := float64(h) / ap
		if fogsim {
			bound = float64(h-1) / ap
		}
		c := btConfig(h, 3000, 3000)
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", "ADVC", 0.4
		c.Traffic.AdvcFogsim = fogsim
		r := btRun(t, c, 1)
		btLog(t, "MIN ADVc", r)
		if r.Accepted > bound*1.01 || r.Accepted < bound*0.85 {
			t.Errorf("advcFogsim=%v: accepted %.4f, want just below %.4f (within 15%%)", fogsim, r.Accepted, bound)
		}
		if r.Fairness.MaxMin != 0 && r.Fairness.MaxMin < 4 {
			t.Errorf("advcFogsim=%v: Max/Min %.2f, ADVc should be highly unfair", fogsim, r.Fairness.MaxMin)
		}
	}
}

// A second allocator iteration only adds matches among the ports left idle by
// the first, so it must not lower the UN/MIN saturation throughput (thesis
// §1.1.3, which does not state the iterations; FOGSim h=4: 0.685 with one
// iteration, 0.73 with 2–3). Measured at h=2, load 1.0, averaged over 3 seeds.
func TestAllocatorSecondIterationDoesNotLowerSaturationThroughput(t *testing.T) {
	t.Parallel()
	acc := map[int]float64{}
	for _, it := range []int{1, 2} {
		for seed := uint64(1); seed <= 3; seed++ {
			c := btConfig(2, 2000, 8000)
			c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", "UN", 1.0
			c.Router.Iterations = it
			r := btRun(t, c, seed)
			acc[it] += r.Accepted / 3
		}
	}
	t.Logf("UN/MIN h=2 saturation throughput: 1 iteration %.4f, 2 iterations %.4f", acc[1], acc[2])
	if acc[2] < acc[1]*0.985 { // 1.5%: ≈4 standard errors of the 3-seed difference
		t.Errorf("2 allocator iterations: accepted %.4f below 1 iteration's %.4f", acc[2], acc[1])
	}
	if acc[1] < 0.6 {
		t.Errorf("UN/MIN saturation throughput %.4f implausibly low", acc[1])
	}
}
