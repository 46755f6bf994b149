package sweep

import (
	"context"
	"errors"
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sim"
)

// The thesis's Chapter 5 targets on the named experiments' own series
// (flexvc.go), so that a series configured wrongly fails here. h=4 (the
// thesis's h=8 is too slow for tests), warm-up 1,500 + 2,000 measured
// cycles, seed 1 unless said: enough for the saturation throughput, which
// is what the targets compare.

// flexSeries is the named series of an experiment, shortened, with its
// swept variable at x.
func flexSeries(t *testing.T, exp, name string, x float64) config.Config {
	t.Helper()
	e, err := ExperimentByName(exp)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range e.Spec.Series {
		if c.Name == name {
			if err := e.Spec.Apply(&c, x); err != nil {
				t.Fatal(err)
			}
			c.Sim.Warmup, c.Sim.Cycles = 1500, 2000
			return c
		}
	}
	t.Fatalf("%s has no series %q", exp, name)
	return config.Config{}
}

// flexAccepted is the accepted load of c, the mean over the seeds; a
// deadlock fails the test.
func flexAccepted(t *testing.T, c config.Config, seeds ...uint64) float64 {
	t.Helper()
	if len(seeds) == 0 {
		seeds = []uint64{1}
	}
	sum := 0.0
	for _, seed := range seeds {
		r := runOne(t, c, seed)
		sum += r.Accepted
	}
	a := sum / float64(len(seeds))
	t.Logf("%s, %s %g: accepted %.4f", c.Name, "load", c.Traffic.Load, a)
	return a
}

// Target 15 (thesis Fig. 5.8, §5.3.2): memory per port held constant, MIN,
// UN at 1.0. At 64/256 phits per port FlexVC 2/1 beats the baseline (the
// thesis: +8% to +12%; asserted by the figure gallery's 5.8), at 192/768 they are about equal (within
// 5%), and FlexVC 8/4 at 64/256 (one packet per local VC) beats the
// baseline with 4× the memory, 256/1024.
func TestFlexVCTarget15PortMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("five saturated h=4 runs (about 25 s)")
	}
	const e = "thesis-fig5.8"
	b64, f64 := flexAccepted(t, flexSeries(t, e, "baseline 2/1", 64)), flexAccepted(t, flexSeries(t, e, "FlexVC 2/1", 64))
	b192, f192 := flexAccepted(t, flexSeries(t, e, "baseline 2/1", 192)), flexAccepted(t, flexSeries(t, e, "FlexVC 2/1", 192))
	f84, b256 := flexAccepted(t, flexSeries(t, e, "FlexVC 8/4", 64)), flexAccepted(t, flexSeries(t, e, "baseline 2/1", 256))
	t.Logf("64/256: FlexVC 2/1 %+.1f%% over the baseline; 192/768: %+.1f%%; FlexVC 8/4 at 64/256 %+.1f%% over the baseline at 256/1024",
		100*(f64/b64-1), 100*(f192/b192-1), 100*(f84/b256-1))
	// FlexVC 2/1 ≥ +5% at 64/256: the figure gallery's 5.8 (engine/figures)
	if f192 < 0.95*b192 || f192 > 1.05*b192 {
		t.Errorf("192/768: FlexVC 2/1 %.4f, baseline %.4f: want within 5%%", f192, b192)
	}
	if f84 <= b256 {
		t.Errorf("FlexVC 8/4 at 64/256 %.4f, not above the baseline at 256/1024 %.4f", f84, b256)
	}
}

// Target 15 under ADV+1 (thesis Fig. 5.8, §5.3.2: FlexVC helps under ADV
// too, +8% to +12% at 64/256): VAL re-drawn at injection, offered 0.6, the
// same 4/2 VCs; at 64/256 FlexVC accepts at least 5% more than the baseline
// (here +15%).
func TestFlexVCTarget15PortMemoryADV(t *testing.T) {
	if testing.Short() {
		t.Skip("two saturated h=4 VAL runs (about 10 s)")
	}
	const e = "thesis-fig5.8-adv1"
	b, f := flexAccepted(t, flexSeries(t, e, "baseline 4/2", 64)), flexAccepted(t, flexSeries(t, e, "FlexVC 4/2", 64))
	t.Logf("ADV+1, 64/256: FlexVC 4/2 %+.1f%% over the baseline 4/2", 100*(f/b-1))
	if f < 1.05*b {
		t.Errorf("ADV+1, 64/256: FlexVC 4/2 %.4f, baseline %.4f: want ≥ +5%%", f, b)
	}
}

// Target 17 (thesis Fig. 5.9, §5.3.2.2): under request-reply UN (MIN, at
// 1.0) throughput ranks by the VCs of the request subsequence, not by the
// total: the three with 2/1 request VCs (baseline, DAMQ, FlexVC 2/1+2/1)
// below the two with 3/2 (3/2+2/1, 3/2+3/2), below 4/3+2/1.
func TestFlexVCTarget17RankByRequestVCs(t *testing.T) {
	if testing.Short() {
		t.Skip("six saturated h=4 request-reply runs (about 15 s)")
	}
	const e = "thesis-fig5.9"
	acc := func(n string) float64 { return flexAccepted(t, flexSeries(t, e, n, 1)) }
	low := max(acc("baseline 2/1+2/1"), acc("DAMQ 2/1+2/1"), acc("FlexVC 2/1+2/1"))
	a, b := acc("FlexVC 3/2+2/1"), acc("FlexVC 3/2+3/2")
	top := acc("FlexVC 4/3+2/1")
	if !(low < min(a, b) && max(a, b) < top) {
		t.Errorf("want 2/1 requests (best %.4f) < 3/2 requests (%.4f, %.4f) < 4/3 requests (%.4f)", low, a, b, top)
	}
}

// Target 21 (thesis Fig. 5.15, §5.3.5): without internal speedup FlexVC's
// gain over the baseline is larger than with it (the thesis: up to +37%
// with 8/4 under UN). Memory per port 64/256, MIN, UN at 1.0.
func TestFlexVCTarget21NoSpeedup(t *testing.T) {
	if testing.Short() {
		t.Skip("four saturated h=4 runs (about 20 s)")
	}
	gain := func(e string) float64 {
		b, f := flexAccepted(t, flexSeries(t, e, "baseline 2/1", 64)), flexAccepted(t, flexSeries(t, e, "FlexVC 8/4", 64))
		return f/b - 1
	}
	with, without := gain("thesis-fig5.8"), gain("thesis-fig5.15")
	t.Logf("FlexVC 8/4 over the baseline at 64/256: %+.1f%% with 2× speedup, %+.1f%% without", 100*with, 100*without)
	if without <= with {
		t.Errorf("FlexVC 8/4's gain without speedup %+.1f%%, not above its gain with speedup %+.1f%%", 100*without, 100*with)
	}
}

// Target 19 (thesis Figs. 5.11 and 5.13b, §5.3.3.3): PB under
// request-reply ADV+1 at 0.6 (past saturation), the Valiant router re-drawn
// while the packet waits at injection. FlexVC 6/3 (4/2 + 2/1) sensing
// occupancy per VC or per port misroutes too little and stays well below the
// baseline 8/4 per VC (here < 90% of it), and minCred per port (only
// minimal packets, summed over the port's VCs, thesis §5.2.4) is about
// equal to the baseline (within 10%). The baseline itself does worse per
// port than per VC (implicit detection). Not tested: DAMQ's collapse (the
// thesis: below 0.15 per VC and 0.05 per port). In 4,000 + 4,000 cycles
// DAMQ 8/4 accepts 0.471 per VC and 0.409 per port (the baseline 0.46);
// per port it sinks to 0.31–0.41 after some 7,000 cycles, and per VC not in
// 60,000 (engine/REPRODUCTION.md).
func TestFlexVCTarget19PBRequestReply(t *testing.T) {
	if testing.Short() {
		t.Skip("five saturated h=4 request-reply PB runs (about 20 s)")
	}
	const e = "thesis-fig5.11-adv1"
	acc := map[string]float64{}
	for _, n := range []string{"baseline 8/4 per-VC", "baseline 8/4 per-port", "FlexVC 6/3 per-VC", "FlexVC 6/3 per-port", "FlexVC 6/3 minCred per-port"} {
		acc[n] = flexAccepted(t, flexSeries(t, e, n, 0.6))
	}
	base := acc["baseline 8/4 per-VC"]
	for _, n := range []string{"FlexVC 6/3 per-VC", "FlexVC 6/3 per-port"} {
		if acc[n] >= 0.9*base {
			t.Errorf("%s: %.4f, want below 90%% of the baseline's %.4f", n, acc[n], base)
		}
	}
	if m := acc["FlexVC 6/3 minCred per-port"]; m < 0.9*base || m > 1.1*base {
		t.Errorf("FlexVC 6/3 minCred per-port: %.4f, want within 10%% of the baseline's %.4f", m, base)
	}
	if p := acc["baseline 8/4 per-port"]; p >= base {
		t.Errorf("baseline per port %.4f, not below per VC %.4f", p, base)
	}
}

// Target 19 (thesis Fig. 5.13b, §5.3.3.3): with the Valiant router re-drawn
// the baseline 8/4 with per-port sensing is competitive and holds its
// throughput past saturation (request-reply ADV+1 at 0.6; Valiant's bound
// under ADV+1 is 0.5). Per-port sensing sums the port's VCs to mark the
// saturated global links (thesis §5.2.4); PB's UGAL-L comparison at
// injection stays on the VC the packet would take (thesis §1.4.2.1, "the
// comparison is performed per VC"). Summing the comparison over the port's
// eight local VCs as well made it sink from 0.43 (cycles 1,000–2,000) to
// 0.33 at cycles 4,000–5,000 and to 0.20–0.27 after 8,000.
func TestFlexVCTarget19PerPortHolds(t *testing.T) {
	c := flexSeries(t, "thesis-fig5.11-adv1", "baseline 8/4 per-port", 0.6)
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval = 0, 5000, 1000
	r := runOne(t, c, 1)
	if len(r.Series) != 5 {
		t.Fatalf("%d samples, want 5", len(r.Series))
	}
	var late float64
	for _, smp := range r.Series[2:] {
		late += smp.Accepted / 3
	}
	first, last := r.Series[1].Accepted, r.Series[4].Accepted
	t.Logf("accepted per 1,000 cycles: %.3f %.3f %.3f %.3f %.3f; cycles 2,000–5,000 %.4f",
		r.Series[0].Accepted, first, r.Series[2].Accepted, r.Series[3].Accepted, last, late)
	if late < 0.42 {
		t.Errorf("accepted %.4f over cycles 2,000–5,000, want ≥ 0.42 (competitive: 84%% of Valiant's 0.5)", late)
	}
	if last < 0.95*first {
		t.Errorf("accepted %.3f at cycles 4,000–5,000, below 95%% of %.3f at 1,000–2,000: it sinks", last, first)
	}
}

// Target 20 (thesis Fig. 5.14, §5.3.4): OLM with FlexVC 5/3 (3/2 + 2/1)
// under request-reply ADV+1. Triggered by credits it saturates early: FlexVC
// lets minimal packets spread over many VCs, so the minimal output's credits
// hide the adversarial pattern; here it accepts under 97% of an offered 0.3
// (it already lags at 0.2: 0.195), while with Base
// contention counters (thesis §4.2.1.1, "In-transit Cta") it takes all of
// 0.3 and, past saturation (0.6), accepts at least 5% more than with credits
// and at least as much as PB's baseline 8/4 (within 3%): competitive, with
// fewer VCs.
func TestFlexVCTarget20OLMRequestReply(t *testing.T) {
	if testing.Short() {
		t.Skip("six h=4 request-reply runs (about 15 s)")
	}
	const e = "thesis-fig5.14"
	const cred, cta = "OLM FlexVC 5/3 credits", "OLM FlexVC 5/3 Base (In-transit Cta)"
	c2, c3, c6 := flexAccepted(t, flexSeries(t, e, cred, 0.2)), flexAccepted(t, flexSeries(t, e, cred, 0.3)), flexAccepted(t, flexSeries(t, e, cred, 0.6))
	b3, b6 := flexAccepted(t, flexSeries(t, e, cta, 0.3)), flexAccepted(t, flexSeries(t, e, cta, 0.6))
	pb6 := flexAccepted(t, flexSeries(t, e, "PB baseline 8/4 per-VC", 0.6))
	t.Logf("credits: %.4f at 0.2, %.4f at 0.3, %.4f at 0.6; Base: %.4f at 0.3, %.4f at 0.6 (%+.1f%% over credits); PB baseline %.4f at 0.6",
		c2, c3, c6, b3, b6, 100*(b6/c6-1), pb6)
	if c3 >= 0.97*0.3 {
		t.Errorf("credit-triggered OLM+FlexVC accepts %.4f of 0.3: not saturated", c3)
	}
	if b3 < 0.99*0.3 {
		t.Errorf("OLM+FlexVC with Base counters accepts %.4f of 0.3: saturated", b3)
	}
	if b6 < 1.05*c6 || b6 < 0.97*pb6 {
		t.Errorf("at 0.6: Base %.4f, credits %.4f, PB baseline %.4f: want Base ≥ 1.05 × credits and ≥ 0.97 × PB", b6, c6, pb6)
	}
}

// Target 18 (thesis Fig. 5.6, §5.3.1) as the experiment runs it: with no
// DAMQ reserve the network deadlocks at saturation, and the experiment's
// watchdog (1,000 idle cycles) reports it within its run (at h=4, seed 1,
// at cycle 3,681 of 12,000; the default 20,000 would outlast the run and
// report a silent zero throughput instead).
func TestFlexVCTarget18ExperimentDeadlocks(t *testing.T) {
	e, err := ExperimentByName("thesis-fig5.6")
	if err != nil {
		t.Fatal(err)
	}
	c := e.Spec.Series[0]
	if err := e.Spec.Apply(&c, 0); err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(context.Background(), nil)
	var de *sim.DeadlockError
	if !errors.As(err, &de) || r == nil || r.Deadlock == nil || r.Deadlock.Cycle >= int64(c.Sim.Warmup+c.Sim.Cycles) {
		t.Fatalf("reserve 0: %v, want a deadlock reported within the run", err)
	}
	t.Logf("reserve 0: %s", de.Deadlock.Lines()[0])
}

// Target 14 under BURSTY-UN (thesis Fig. 5.7, §5.3.2; the pattern of
// §1.6.1.3, B = 5 packets): at offered 0.4, below saturation, MIN's average
// latency falls from the baseline 2/1's by 4.8% with DAMQ 2/1 and by 11.2%,
// 23.8% and 27.6% with FlexVC 2/1, 4/2 and 8/4; tolerance ±5 points and the
// same ordering. The gain of the larger VC sets grows with the network size
// (engine/REPRODUCTION.md: 4/2 and 8/4 reduce it by 16.7% and 19.0% at h=4,
// 18.9% and 21.8% at h=5, 22.2% and 24.9% at h=6, 23.8% and 26.6% at the
// thesis's h=8), so at h=4 those two may fall up to 10 points short. Seed 1,
// the experiment's series at 3,000 + 2,000 cycles (with a 1,500-cycle
// warm-up the baseline's queues are still growing). The h=4 shortfall is
// FOGSim v5's too, the simulator the thesis's numbers came from: on this run
// (validation/fogsim-h4.cfg's system, `Traffic=BURSTY_UN avgBurstLength=5
// routing=MIN Probability=40 InjectionChannels=3`, 3,000 + 2,000 cycles, seed 1)
// it measures the baseline 2/1 at 302.96 cycles and FlexVC 8/4
// (`VcUsage=FLEXIBLE LocalLinkChannels=8 GlobalChannels=4`) at 246.34, −18.7%;
// phitsim's two latencies must be within 4% of those and its 8/4 reduction
// within 2 points of FOGSim's.
func TestFlexVCTarget14BurstyLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("five h=4 runs at 0.4 (about 2.5 s of CPU)")
	}
	const e = "thesis-fig5.7-bursty"
	names := []string{"baseline 2/1", "DAMQ 2/1", "FlexVC 2/1", "FlexVC 4/2", "FlexVC 8/4"}
	thesis := []float64{0, 4.8, 11.2, 23.8, 27.6}
	short := []float64{0, 5, 5, 10, 10} // how far below the thesis each may fall at h=4
	var lat, red [5]float64
	for i, n := range names {
		c := flexSeries(t, e, n, 0.4)
		c.Sim.Warmup = 3000
		r := runOne(t, c, 1)
		lat[i] = r.Latency.Avg
		red[i] = 100 * (1 - lat[i]/lat[0])
		t.Logf("%s: latency %.1f (injection %.1f, network %.1f), accepted %.4f: %.1f%% below the baseline (thesis %.1f%%)",
			n, lat[i], r.InjLatency, r.NetLatency, r.Accepted, red[i], thesis[i])
	}
	for i := 1; i < len(names); i++ {
		if red[i] <= red[i-1] {
			t.Errorf("%s reduces latency by %.1f%%, not more than %s's %.1f%%", names[i], red[i], names[i-1], red[i-1])
		}
		if d := red[i] - thesis[i]; d < -short[i] || d > 5 {
			t.Errorf("%s: %.1f%% below the baseline, the thesis %.1f%% (want within −%.0f/+5 points)", names[i], red[i], thesis[i], short[i])
		}
	}
	const fogBase, fog84 = 302.96, 246.34
	fogRed := 100 * (1 - fog84/fogBase)
	if math.Abs(lat[0]/fogBase-1) > 0.04 || math.Abs(lat[4]/fog84-1) > 0.04 || math.Abs(red[4]-fogRed) > 2 {
		t.Errorf("baseline 2/1 %.1f and FlexVC 8/4 %.1f cycles (%.1f%% less); FOGSim v5 %.1f and %.1f (%.1f%% less): want each within 4%% and the reduction within 2 points",
			lat[0], lat[4], red[4], fogBase, fog84, fogRed)
	}
}

// Target 17 (thesis Fig. 5.9, §5.3.2.2): under request-reply UN the
// distance-based baseline 2/1+2/1 (MIN) collapses after saturation: its
// accepted load at offered 1.0 falls well below its accepted load at 0.8
// (phitsim at h=8: −15.6%). The collapse builds up over some 5,000 cycles
// at h=4 (accepted at 1.0 per 1,000 cycles: 0.80 at 2,000, 0.75 at 4,000,
// 0.67 from 6,000 on), so a short run does not see it: the series is
// measured from cycle 5,000 for 1,500 cycles, and must lose more than 5%
// from 0.8 to 1.0 (here about 12%). Seed 1, h=4.
func TestFlexVCTarget17BaselineCollapses(t *testing.T) {
	if testing.Short() {
		t.Skip("two saturated h=4 request-reply runs of 6,500 cycles (about 2.5 s of CPU)")
	}
	acc := func(load float64) float64 {
		c := flexSeries(t, "thesis-fig5.9", "baseline 2/1+2/1", load)
		c.Sim.Warmup, c.Sim.Cycles = 5000, 1500
		return flexAccepted(t, c)
	}
	a8, a10 := acc(0.8), acc(1)
	t.Logf("baseline 2/1+2/1: accepted %.4f at 0.8, %.4f at 1.0 (%+.1f%%)", a8, a10, 100*(a10/a8-1))
	if a10 > 0.95*a8 {
		t.Errorf("baseline 2/1+2/1 accepts %.4f at 1.0 against %.4f at 0.8: no collapse after saturation (want > 5%% lower)", a10, a8)
	}
}
