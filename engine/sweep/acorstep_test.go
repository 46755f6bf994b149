package sweep

import (
	"context"
	"math"
	"testing"

	"phitsim/engine/config"
)

// The ACOR paper's load steps (§6.2.1, Figs. 9–10: ACOR-Switch 3L, ADV+h,
// 5 % → 25 % and 25 % → 5 %, HI = 500 cycles) at browser scale: the
// acor-fig9-up and acor-fig9-down experiments on acor-1056 (1,056 hosts,
// the paper's Table 3 timing, IT₁/DT₁ = 20/8; the paper runs 5,256), 4 seeds
// pooled, with only the series each step asserts on (up: HI = 500 and 250,
// VAL CRG-Gr and CRG-Sw; down: HI = 500 and 1,000) and the step up after
// 2,000 warm-up cycles at 5 % (steady by then: nothing is blocked) instead
// of the experiment's 6,000. The record's margin stays: ACOR's pooled
// record, cut by its slowest packets, just covers the 4,000 cycles asserted
// on (which the test checks). What holds is asserted, with its tolerance;
// what does not is logged and recorded in REPRODUCTION.md ("ACOR paper").
// About 20 s of CPU: skipped with -short.
func TestAcorLoadStepsFig9Fig10(t *testing.T) {
	if testing.Short() {
		t.Skip("24 runs of 10,000–14,000 cycles on 1,056 nodes")
	}
	// run runs experiment name's series in keep (name → the cycles after
	// the step its pooled record must cover: a window without bins would
	// compare as NaN and pass)
	run := func(name string, warmup int, keep map[string]int) map[string]Transient {
		e, err := ExperimentByName(name)
		if err != nil {
			t.Fatal(err)
		}
		var ss []config.Config
		for _, c := range e.Spec.Series {
			if _, ok := keep[c.Name]; ok {
				c.Sim.Warmup = warmup
				ss = append(ss, c)
			}
		}
		if len(ss) != len(keep) {
			t.Fatalf("%s: %d of the series %v", name, len(ss), keep)
		}
		e.Spec.Series = ss
		out, err := Run(context.Background(), e.Spec, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]Transient{}
		for _, tr := range out.Transients {
			if end, need := tr.From+len(tr.Packets)*tr.Bin, keep[tr.Name]; end < need {
				t.Errorf("%s, %s: the pooled record ends %d cycles after the step, want ≥ %d", name, tr.Name, end, need)
			}
			m[tr.Name] = tr
		}
		return m
	}
	// window is the packet-weighted mean latency of the bins starting in
	// [lo, hi) cycles from the switch (NaN with none).
	window := func(tr Transient, lo, hi int) float64 {
		var n, s float64
		for i := range tr.Packets {
			if c := tr.From + i*tr.Bin; c >= lo && c < hi {
				n += float64(tr.Packets[i])
				s += float64(tr.Packets[i]) * tr.Latency[i]
			}
		}
		return s / n
	}
	level := func(tr Transient, lo, hi int) float64 {
		var n, s float64
		for i := range tr.AcorLevel {
			if c := tr.From + i*tr.Bin; c >= lo && c < hi {
				n++
				s += tr.AcorLevel[i]
			}
		}
		return s / n
	}
	cyc := func(x *float64) float64 {
		if x == nil {
			return math.Inf(1)
		}
		return *x
	}

	// HI = 250's record, cut by its slowest packets (it congests as CRG-Gr
	// does), ends 2,400–3,100 cycles after the step: its level is compared
	// over [1,000, 2,000)
	up := run("acor-fig9-up", 2000, map[string]int{"ACOR-3L": 4000, "ACOR-3L HI=250": 2000, "VAL CRG-Gr": 2000, "VAL CRG-Sw": 4000})
	acor, gr, sw := up["ACOR-3L"], up["VAL CRG-Gr"], up["VAL CRG-Sw"]
	_, settle := LatencySettle(acor, AcorSettleBand)
	t.Logf("5%% → 25%%: ACOR-3L latency %.0f before, settles after %.0f cycles (paper < 2,000) to %.0f; group 0 all up by %.0f (paper < 1,000); level %.2f → %.2f",
		window(acor, -100, 0), cyc(settle), window(acor, 3000, 4000), cyc(acor.LevelUp), level(acor, -100, 0), level(acor, 3000, 4000))
	t.Logf("  in [1,000, 2,000): level HI=250 %.2f, HI=500 %.2f; VAL CRG-Gr latency %.0f → %.0f, CRG-Sw %.0f",
		level(up["ACOR-3L HI=250"], 1000, 2000), level(acor, 1000, 2000), window(gr, -100, 0), window(gr, 1500, 2000), window(sw, 1000, 4000))
	if cyc(settle) > 3000 {
		t.Errorf("5%% → 25%%: ACOR-3L's latency settles after %.0f cycles, want ≤ 3,000 (the paper's < 2 µs, accepting 3 µs)", cyc(settle))
	}
	for lo := 0; lo < 4000; lo += 500 {
		if a, s := window(acor, lo, lo+500), window(sw, lo, lo+500); a > 1.1*s {
			t.Errorf("5%% → 25%%: ACOR-3L's latency %.0f in [%d, %d) is above 1.1 × VAL CRG-Sw's %.0f (the best policy at 25%%)", a, lo, lo+500, s)
		}
	}
	if g0, g1 := window(gr, -100, 0), window(gr, 1500, 2000); g1 < 1.2*g0 {
		t.Errorf("5%% → 25%%: VAL CRG-Gr's latency %.0f → %.0f should rise strongly (beyond 1/h it saturates)", g0, g1)
	}
	if l := level(acor, 3000, 4000); l < 1.3 {
		t.Errorf("5%% → 25%%: ACOR-3L's mean level %.2f at the end, want > 1.3", l)
	}
	if l250, l500 := level(up["ACOR-3L HI=250"], 1000, 2000), level(acor, 1000, 2000); l250 >= l500 {
		t.Errorf("5%% → 25%%: a shorter HI should raise the level more slowly (paper §6.2.1): HI=250 %.2f, HI=500 %.2f", l250, l500)
	}

	down := run("acor-fig9-down", AcorStepWarmup, map[string]int{"ACOR-3L": 4000, "ACOR-3L HI=1000": 0})
	acor = down["ACOR-3L"]
	_, settle = LatencySettle(acor, AcorSettleBand)
	t.Logf("25%% → 5%%: ACOR-3L latency %.0f before, settles after %.0f cycles (paper < 2,000) to %.0f; group 0 all down one step by %.0f (paper < 500); level %.2f → %.2f; HI=1000 all down by %.0f",
		window(acor, -100, 0), cyc(settle), window(acor, 3000, 4000), cyc(acor.LevelDown), level(acor, -100, 0), level(acor, 3000, 4000),
		cyc(down["ACOR-3L HI=1000"].LevelDown))
	if cyc(settle) > 2000 {
		t.Errorf("25%% → 5%%: ACOR-3L's latency settles after %.0f cycles, want < 2,000 (paper §6.2.1)", cyc(settle))
	}
	if l := level(acor, 3000, 4000); l > 1.05 {
		t.Errorf("25%% → 5%%: ACOR-3L's mean level %.2f at the end, want back at CRG-Gr (≤ 1.05)", l)
	}
	if d500, d1000 := cyc(acor.LevelDown), cyc(down["ACOR-3L HI=1000"].LevelDown); !(d1000 > d500) {
		t.Errorf("25%% → 5%%: a longer HI should slow the decrease (paper §6.2.1): HI=500 all down by %.0f, HI=1000 by %.0f", d500, d1000)
	}
}
