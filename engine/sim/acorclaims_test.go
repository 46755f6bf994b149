package sim

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// The ACOR paper's quantitative claims, one named test each, at browser
// scale: acor-1056 (config.AcorPaper(4): 1,056 hosts, h=4, the paper's
// Table 3 timing with its §6.2.2 thresholds IT₁/DT₁ = 20/8) with FOGSim's
// model, as the acor-* experiments run it (engine/sweep acorBase; the paper's
// 5,256 hosts are too slow for a test). Each test states the paper's value,
// its tolerance and, where ours differs, by how much (REPRODUCTION.md, "ACOR
// paper", has the measured values). The load steps of Figs. 9–10 are
// engine/sweep's TestAcorLoadStepsFig9Fig10.

// acClaim is one run of an ACOR-paper claim: the series' routing (and, for
// VAL, its phase-A policy) under pattern (ADV: +offset) at load, with the
// paper's VCs for it.
func acClaim(routing, phaseA, pattern string, offset int, load float64, edit func(*config.Config)) config.Config {
	return config.AcorPaperRun(4, routing, phaseA, pattern, offset, func(c *config.Config) {
		c.Traffic.Load = load
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 4000, 6000, 1
		if edit != nil {
			edit(c)
		}
	})
}

// acRun runs each configuration with seeds 1…seeds, two at a time (2
// cores), and returns per configuration its runs' mean accepted load and
// latency, and its runs.
type acOut struct {
	Accepted, Latency float64
	Runs              []*result.Result
}

func acRun(t *testing.T, seeds int, cfgs ...config.Config) []acOut {
	t.Helper()
	out := make([]acOut, len(cfgs))
	for i := range out {
		out[i].Runs = make([]*result.Result, seeds)
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, c := range cfgs {
		for s := 0; s < seeds; s++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				sim, err := New(c, uint64(s+1))
				if err == nil {
					var r *result.Result
					if r, err = sim.Run(context.Background(), nil); err == nil {
						out[i].Runs[s] = r
						return
					}
				}
				t.Errorf("%s seed %d: %v", c.Name, s+1, err)
			}()
		}
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for i := range out {
		for _, r := range out[i].Runs {
			out[i].Accepted += r.Accepted / float64(seeds)
			out[i].Latency += r.Latency.Avg / float64(seeds)
		}
	}
	return out
}

// acCut is how much lower a is than b, in %.
func acCut(a, b float64) float64 { return 100 * (1 - a/b) }

// ACOR paper abstract, §1 and §8: ACOR cuts the base latency by up to 28 %
// against VAL (RRG-Sw with restriction and recomputation); the largest cut
// is under ADV+1, where ACOR-3L starts at CRG-Gr (one global hop in phase
// A) and VAL takes LGL–LGL. At h=4 the zero-load paths give 26.7 % (687
// against 937 cycles, the paper's per-hop timing); we accept a cut in
// [20 %, 32 %] at offered 0.05, 2 seeds of 6,000 cycles. The 2LB sequence
// starts at CRG-Sw, one local hop longer: its cut is about 10 % (paper: 2LB
// ≈ VAL CRG-Sw), accepted in [4 %, 16 %].
func TestAcorBaseLatencyCutVsValiant(t *testing.T) {
	r := acRun(t, 2,
		acClaim("VAL", "RRG-Sw", "ADV", 1, 0.05, nil),
		acClaim("ACOR", "", "ADV", 1, 0.05, nil),
		acClaim("ACOR", "", "ADV", 1, 0.05, func(c *config.Config) { c.Routing.AcorSequence = "2LB" }))
	cut3L, cut2LB := acCut(r[1].Latency, r[0].Latency), acCut(r[2].Latency, r[0].Latency)
	t.Logf("ADV+1 at 0.05: VAL RRG-Sw %.0f, ACOR-Switch 3L %.0f (−%.1f %%; paper up to 28 %%), 2LB %.0f (−%.1f %%)",
		r[0].Latency, r[1].Latency, cut3L, r[2].Latency, cut2LB)
	if cut3L < 20 || cut3L > 32 {
		t.Errorf("ACOR-3L's base latency is %.1f %% below VAL's, want [20, 32] %% (paper: up to 28 %%; h=4 zero-load paths: 26.7 %%)", cut3L)
	}
	if cut2LB < 4 || cut2LB > 16 {
		t.Errorf("ACOR-2LB's base latency is %.1f %% below VAL's, want [4, 16] %% (its CRG-Sw start: about 10 %%)", cut2LB)
	}
}

// ACOR paper §6.3, Fig. 14b–d: PB-ACOR's latency at 10 % load is 16.5 % to
// 25.5 % below PB's under the three adversarial patterns (ADV+1, ADVc,
// ADV+h), whose misrouted packets start at CRG-Gr instead of RRG-Sw. We
// accept each cut in [12 %, 30 %] (2 seeds of 6,000 cycles at 0.1).
func TestPBACORLatencyBelowPBAt10Percent(t *testing.T) {
	if testing.Short() {
		t.Skip("six 1,056-host runs of 10,000 cycles, 2 seeds")
	}
	var cfgs []config.Config
	pats := []struct {
		name, pattern string
		offset        int
	}{{"ADV+1", "ADV", 1}, {"ADVc", "ADVC", 1}, {"ADV+h", "ADV", 4}}
	for _, p := range pats {
		cfgs = append(cfgs, acClaim("PB", "", p.pattern, p.offset, 0.1, nil), acClaim("PB_ACOR", "", p.pattern, p.offset, 0.1, nil))
	}
	r := acRun(t, 2, cfgs...)
	for i, p := range pats {
		pb, pba := r[2*i], r[2*i+1]
		cut := acCut(pba.Latency, pb.Latency)
		t.Logf("%s at 0.1: PB %.0f, PB-ACOR 3L %.0f: −%.1f %% (paper 16.5–25.5 %%)", p.name, pb.Latency, pba.Latency, cut)
		if cut < 12 || cut > 30 {
			t.Errorf("%s: PB-ACOR's latency at 10 %% is %.1f %% below PB's, want [12, 30] %% (paper 16.5–25.5 %%)", p.name, cut)
		}
	}
}

// ACOR paper §6.1, Fig. 4 (ADVl: every node sends to the next router of its
// own group): MIN saturates at 1/p (the one local link; 0.25 at h=4, p=4;
// paper 16.6 % at p=6), unrestricted VAL and PB near 50 % (two global hops
// per packet), restricted VAL (RVAL, intermediate in the own group) at
// almost 100 %, and RPB lower than RVAL at high load. Offered 1.0, 1 seed
// of 4,000 + 3,000 cycles (unrestricted VAL's accepted load still creeps
// up as its deep VCs fill: 0.38 over cycles 2,000–5,000, 0.42 over
// 4,000–10,000): MIN in [0.23, 0.27]; VAL in [0.40, 0.55]; RPB ≤ 1.01 ×
// RVAL (measured equal: the paper's "lower" does not show); unrestricted PB
// in [0.40, 0.75], above the paper's ≈ 0.5: PB mixes MIN, bounded at 1/p on
// the direct link, with Valiant, bounded at ½ by the global links, so its
// channel-load bound is ½ + 1/p (0.75 here, 0.67 at p=6), and FOGSim's PB
// reached about ½ of it (REPRODUCTION.md, "ACOR paper").
//
// RVAL's bound is 1: an intermediate drawn among the group's a routers
// loads every local link with 2p/a = 1 times the offered load. With one
// allocator iteration per cycle (acor-1056's router.iterations, as the
// other acor-* numbers) every local output must be matched at every packet
// time, and the separable allocator leaves about a tenth of them idle:
// RVAL accepts 0.84 (≥ 0.80 asserted), as FOGSim v5 on the same keys with
// ArbiterIterations=1. The paper does not state its allocator's iterations
// (FOGSim's sample configuration has 2); with 2, RVAL accepts 0.97 here
// (asserted ≥ 0.95: the paper's "almost 100 %").
func TestAcorADVlFig4(t *testing.T) {
	if testing.Short() {
		t.Skip("six saturated 1,056-host runs")
	}
	short := func(c *config.Config) { c.Sim.Warmup, c.Sim.Cycles = 4000, 3000 }
	unrestricted := func(c *config.Config) { short(c); c.Routing.Restricted = false }
	r := acRun(t, 1,
		acClaim("MIN", "", "ADVL", 1, 1, short),
		acClaim("VAL", "", "ADVL", 1, 1, unrestricted),
		acClaim("VAL", "", "ADVL", 1, 1, short),
		acClaim("PB", "", "ADVL", 1, 1, short),
		acClaim("PB", "", "ADVL", 1, 1, unrestricted),
		acClaim("VAL", "", "ADVL", 1, 1, func(c *config.Config) { short(c); c.Router.Iterations = 2 }))
	t.Logf("ADVl at 1.0: MIN %.3f (paper 1/p), VAL %.3f (≈ 0.5), RVAL %.3f (≈ 1), RPB %.3f, PB %.3f (≈ 0.5); RVAL with 2 allocator iterations %.3f",
		r[0].Accepted, r[1].Accepted, r[2].Accepted, r[3].Accepted, r[4].Accepted, r[5].Accepted)
	if a := r[0].Accepted; a < 0.23 || a > 0.27 {
		t.Errorf("MIN under ADVl accepts %.3f, want 1/p = 0.25 ± 0.02", a)
	}
	if a := r[1].Accepted; a < 0.40 || a > 0.55 {
		t.Errorf("unrestricted VAL under ADVl accepts %.3f, want [0.40, 0.55] (paper ≈ 50 %%)", a)
	}
	if a := r[2].Accepted; a < 0.80 {
		t.Errorf("RVAL under ADVl accepts %.3f, want ≥ 0.80 (one allocator iteration; paper ≈ 100 %%)", a)
	}
	if a := r[5].Accepted; a < 0.95 {
		t.Errorf("RVAL under ADVl with 2 allocator iterations accepts %.3f, want ≥ 0.95 (paper: almost 100 %%)", a)
	}
	// the paper's "RPB lower than RVAL at high load" does not show here nor in
	// FOGSim v5 on the same keys (routing=SRC_ADP: 0.829 against RVAL's 0.830,
	// 1.78 hops each): equal within 2 %
	if a, b := r[3].Accepted, r[2].Accepted; a > 1.02*b || a < 0.98*b {
		t.Errorf("RPB %.3f not within 2 %% of RVAL %.3f under ADVl at 1.0 (FOGSim v5: 0.829 and 0.830)", a, b)
	}
	if a := r[4].Accepted; a < 0.40 || a > 0.75 {
		t.Errorf("unrestricted PB under ADVl accepts %.3f, want [0.40, 0.75] (½ + 1/p)", a)
	}
}

// ACOR paper §6.1, Fig. 4: RPB's throughput at high load is lower than
// RVAL's "due to the use of minimal paths". Under ADVl restricted PB weighs
// the direct local link (1 hop) against a detour through a router of the
// group (2 hops) by UGAL's occupancies, so below saturation it takes the
// minimal path more often than RVAL's uniform draw among the a routers (2 of
// a = 25 % of its packets minimal at h=4), and its latency is no higher. At
// offered 0.6 (1 seed of 2,000 + 2,000 cycles) we measured 32 % of RPB's
// packets minimal against RVAL's 25 %, 297 against 305 cycles; the test
// wants at least 4 points more minimal packets and a latency at most 1 %
// above RVAL's. Past saturation the direct link's queue holds UGAL's choice
// at RVAL's mix, and the two accept the same (TestAcorADVlFig4).
func TestAcorRPBUsesMinimalPathsADVlFig4(t *testing.T) {
	short := func(c *config.Config) { c.Sim.Warmup, c.Sim.Cycles = 2000, 2000 }
	r := acRun(t, 1, acClaim("PB", "", "ADVL", 1, 0.6, short), acClaim("VAL", "", "ADVL", 1, 0.6, short))
	minimal := func(o acOut) float64 { return 1 - o.Runs[0].Misrouted.Fraction }
	t.Logf("ADVl at 0.6: RPB %.1f %% minimal, latency %.0f; RVAL %.1f %% minimal, latency %.0f", 100*minimal(r[0]), r[0].Latency, 100*minimal(r[1]), r[1].Latency)
	if minimal(r[0]) < minimal(r[1])+0.04 {
		t.Errorf("RPB routes %.1f %% of its packets minimally, RVAL %.1f %%: want RPB ≥ RVAL + 4 points (Fig. 4: PB uses minimal paths)", 100*minimal(r[0]), 100*minimal(r[1]))
	}
	if r[0].Latency > 1.01*r[1].Latency {
		t.Errorf("RPB's latency %.0f above 1.01 × RVAL's %.0f at 0.6 under ADVl", r[0].Latency, r[1].Latency)
	}
	for i, o := range r {
		if a := o.Accepted; a < 0.58 {
			t.Errorf("series %d accepts %.3f of 0.6 under ADVl: saturated, the comparison is meant below saturation", i, a)
		}
	}
}

// ACOR paper §2.3 and §4.2.1: under ADV+h Valiant "to group" (CRG-Gr) is
// bounded at 1/h (0.25 at h=4): every packet entering an intermediate group
// on one router leaves it through one local link (channel-load bound at
// h=4: 0.222), while CRG-Sw and RRG-Sw spread it. 1 seed of 6,000 cycles:
// CRG-Gr at offered 0.35, past that bound, accepts in [0.10, 0.23]
// (measured 0.12–0.18 from 0.3 on, after a peak of 0.20 at 0.25: the
// congestion after saturation the paper describes); RRG-Sw at 0.5 accepts
// ≥ 0.40.
func TestValToGroupADVhAt1OverH(t *testing.T) {
	if testing.Short() {
		t.Skip("two saturated 1,056-host runs")
	}
	r := acRun(t, 1, acClaim("VAL", "CRG-Gr", "ADV", 4, 0.35, nil), acClaim("VAL", "RRG-Sw", "ADV", 4, 0.5, nil))
	t.Logf("ADV+h: VAL CRG-Gr at 0.35 accepts %.3f (paper 1/h = 0.25, channel bound 0.222), RRG-Sw at 0.5 %.3f", r[0].Accepted, r[1].Accepted)
	if a := r[0].Accepted; a < 0.10 || a > 0.23 {
		t.Errorf("VAL CRG-Gr under ADV+h at 0.35 accepts %.3f, want [0.10, 0.23] (bounded at 1/h)", a)
	}
	if a := r[1].Accepted; a < 0.40 {
		t.Errorf("VAL RRG-Sw under ADV+h at 0.5 accepts %.3f, want ≥ 0.40", a)
	}
}

// acDelivered steps c (seed) through its warm-up and measurement window
// and returns, per router, the packets its nodes generated in the window
// minus the growth of those still in flight (in an injection buffer or in
// the network): the packets of its nodes delivered, its accepted load. The
// result's per-router count (Fairness.PerRouter) is of generated packets,
// which are the accepted ones only once the network backs up to the
// sources, and the paper's 720/1,800-phit transit VCs absorb a saturated
// load for far longer than a test runs.
func acDelivered(t *testing.T, c config.Config, seed uint64) []int64 {
	s, err := New(c, seed)
	if err != nil {
		t.Error(err)
		return nil
	}
	queued := func() []int64 {
		free := make([]bool, len(s.pk))
		for k := s.free; k >= 0; k = s.pk[k].aux {
			free[k] = true
		}
		q := make([]int64, s.R)
		for k := range s.pk {
			if !free[k] {
				q[s.nodeAt[s.pk[k].src].router]++
			}
		}
		return q
	}
	for s.now < int64(c.Sim.Warmup) {
		s.Step()
	}
	q0 := queued()
	for s.now < int64(c.Sim.Warmup+c.Sim.Cycles) {
		s.Step()
	}
	q1 := queued()
	out := make([]int64, s.R)
	for r := range out {
		out[r] = s.st.perRouter[r] - (q1[r] - q0[r])
	}
	return out
}

// acPerSwitch is the accepted load per router position s of a group
// (acDelivered of router s of every group, summed over seeds 1…seeds),
// relative to the mean: Fig. 8's bars, pooled over the 33 groups, which
// ADVc treats alike, to cut the sampling noise of one group's 4 nodes.
func acPerSwitch(t *testing.T, c config.Config, seeds int) []float64 {
	a := c.Topology.A
	runs := make([][]int64, seeds)
	var wg sync.WaitGroup
	for i := range runs {
		wg.Add(1)
		go func() { defer wg.Done(); runs[i] = acDelivered(t, c, uint64(i+1)) }()
	}
	wg.Wait()
	sum := make([]float64, a)
	for _, run := range runs {
		for r, n := range run {
			sum[r%a] += float64(n)
		}
	}
	var mean float64
	for _, v := range sum {
		mean += v / float64(a)
	}
	for i := range sum {
		sum[i] /= mean
	}
	return sum
}

// ACOR paper §6.2, Fig. 8 (ADVc at 0.5): with a CRG policy VAL is unfair to
// the last router of each group (a−1, whose global links lead to the
// destination groups), while ACOR-Switch, whose routers adapt their levels
// one by one, gives every router about the same accepted load. 2 seeds of
// 6,000 cycles; per router position over all groups (acPerSwitch): ACOR-3L
// max/min ≤ 1.10; VAL CRG-Gr's router a−1 off the mean by more than 10 %.
func TestAcorADVcPerSwitchFairnessFig8(t *testing.T) {
	if testing.Short() {
		t.Skip("two 1,056-host runs at 0.5, 2 seeds")
	}
	val := acPerSwitch(t, acClaim("VAL", "CRG-Gr", "ADVC", 1, 0.5, nil), 2)
	acor := acPerSwitch(t, acClaim("ACOR", "", "ADVC", 1, 0.5, nil), 2)
	a := len(acor)
	t.Logf("ADVc at 0.5, accepted per router position ÷ mean: VAL CRG-Gr %s; ACOR-3L %s", fmtShares(val), fmtShares(acor))
	lo, hi := acor[0], acor[0]
	for _, v := range acor {
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi/lo > 1.10 {
		t.Errorf("ACOR-3L's per-router accepted load under ADVc varies %.3f× (max/min), want ≤ 1.10 (paper Fig. 8: similar at all switches)", hi/lo)
	}
	if d := val[a-1] - 1; d < 0.10 && d > -0.10 {
		t.Errorf("VAL CRG-Gr's router a−1 accepts %.3f × the mean under ADVc, want off by > 10 %% (paper Fig. 8: pathological unfairness)", val[a-1])
	}
}

func fmtShares(v []float64) string {
	s := ""
	for i, x := range v {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.2f", x)
	}
	return s
}

// ACOR paper §6.1, Fig. 5: before saturation recomputation (a new
// intermediate whenever the head of the injection buffer is blocked) never
// makes VAL's or PB's latency worse, under any pattern. At 0.42, just below
// RRG-Sw's saturation at h=4 (about 0.47), where heads are blocked, under
// UN, ADV+1, ADVc and ADV+h, 1 seed of 3,000 + 3,000 cycles (the same seed
// with and without, so both see the same traffic): latency with
// recomputation ≤ 1.01 × without. Measured: 2–3 % lower for VAL under all
// four and for PB under the adversarial ones; PB under UN about 1 % higher
// (also at 0.2), at the tolerance but not "improved": PB-Recomp redoes the
// MIN/non-MIN decision at every attempt, and a redrawn blocked head
// sometimes leaves its minimal path for a longer one. At 0.2 nothing is
// blocked and the two differ by < 1 %.
func TestRecomputationNeverWorseBeforeSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("sixteen 1,056-host runs near saturation")
	}
	pats := []struct {
		name, pattern string
		offset        int
	}{{"UN", "UN", 1}, {"ADV+1", "ADV", 1}, {"ADVc", "ADVC", 1}, {"ADV+h", "ADV", 4}}
	short := func(c *config.Config) { c.Sim.Warmup, c.Sim.Cycles = 3000, 3000 }
	noRecomp := func(c *config.Config) { short(c); c.Routing.Recompute = false }
	var cfgs []config.Config
	for _, rt := range []string{"VAL", "PB"} {
		for _, p := range pats {
			cfgs = append(cfgs, acClaim(rt, "", p.pattern, p.offset, 0.42, noRecomp), acClaim(rt, "", p.pattern, p.offset, 0.42, short))
		}
	}
	r := acRun(t, 1, cfgs...)
	for i := 0; i < len(r); i += 2 {
		rt, p := cfgs[i].Routing.Name, pats[(i/2)%len(pats)].name
		t.Logf("%s %s at 0.42: latency %.0f without recomputation, %.0f with (%+.1f %%; accepted %.3f, %.3f)", rt, p, r[i].Latency, r[i+1].Latency, -acCut(r[i+1].Latency, r[i].Latency), r[i].Accepted, r[i+1].Accepted)
		if r[i+1].Latency > 1.01*r[i].Latency {
			t.Errorf("%s %s at 0.42: recomputation raises the latency %.0f → %.0f (paper Fig. 5: never worse before saturation)", rt, p, r[i].Latency, r[i+1].Latency)
		}
	}
}

// ACOR paper §6.3, Fig. 14a: under UN, PB-ACOR with 2LB and 3L has about
// MIN's latency up to 75 % load (its level rarely leaves the first, and PB
// misroutes little), while PB without a history window sits above MIN. At
// 0.25, 0.5 and 0.75, 1 seed of 6,000 cycles: PB-ACOR 2LB and 3L within 5 %
// of MIN (2/1/1 VCs).
func TestPBACORTracksMINUnderUN(t *testing.T) {
	if testing.Short() {
		t.Skip("nine 1,056-host runs up to 0.75")
	}
	ls := []float64{0.25, 0.5, 0.75}
	var cfgs []config.Config
	for _, l := range ls {
		cfgs = append(cfgs, acClaim("MIN", "", "UN", 1, l, nil),
			acClaim("PB_ACOR", "", "UN", 1, l, func(c *config.Config) { c.Routing.AcorSequence = "2LB" }),
			acClaim("PB_ACOR", "", "UN", 1, l, nil))
	}
	r := acRun(t, 1, cfgs...)
	for i, l := range ls {
		m, b, t3 := r[3*i], r[3*i+1], r[3*i+2]
		t.Logf("UN at %.2f: MIN %.0f, PB-ACOR 2LB %.0f (%+.1f %%), 3L %.0f (%+.1f %%)", l, m.Latency, b.Latency, -acCut(b.Latency, m.Latency), t3.Latency, -acCut(t3.Latency, m.Latency))
		for _, x := range []struct {
			name string
			o    acOut
		}{{"2LB", b}, {"3L", t3}} {
			if x.o.Latency > 1.05*m.Latency {
				t.Errorf("UN at %.2f: PB-ACOR %s's latency %.0f is more than 5 %% above MIN's %.0f (paper: ≈ MIN up to 75 %%)", l, x.name, x.o.Latency, m.Latency)
			}
		}
	}
}

// ACOR paper §6.2.2, Fig. 11: a first increase threshold too high keeps the
// routers at CRG-Gr into loads where its ADV+h bottleneck (1/h) congests
// the network: IT₁ = 25 against the chosen 15 at 5,256 hosts. At 1,056
// hosts the chosen IT₁ is 20 (§6.2.2), so 5/3 of it is 33 (the acor-fig11-*
// experiments sweep 10, 20, 33). ADV+h at 0.25, past VAL CRG-Gr's
// saturation (0.20) and below CRG-Sw's, 2 seeds of 6,000 cycles: IT₁ = 33's
// latency ≥ 1.3 × IT₁ = 20's (measured about 1,620 against 840, accepted
// 0.195 of 0.25).
func TestAcorIT1TooHighCongestsADVh(t *testing.T) {
	if testing.Short() {
		t.Skip("four 1,056-host runs, two of them congested")
	}
	it := func(v int) func(*config.Config) { return func(c *config.Config) { c.Routing.AcorIT1 = v } }
	r := acRun(t, 2, acClaim("ACOR", "", "ADV", 4, 0.25, it(20)), acClaim("ACOR", "", "ADV", 4, 0.25, it(33)))
	t.Logf("ADV+h at 0.25: ACOR-3L IT₁ = 20 latency %.0f (accepted %.3f), IT₁ = 33 %.0f (accepted %.3f)", r[0].Latency, r[0].Accepted, r[1].Latency, r[1].Accepted)
	if r[1].Latency < 1.3*r[0].Latency {
		t.Errorf("ACOR-3L with IT₁ = 33 has latency %.0f, want ≥ 1.3 × IT₁ = 20's %.0f (paper Fig. 11: IT₁ = 25 congests)", r[1].Latency, r[0].Latency)
	}
}
