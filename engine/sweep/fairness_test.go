package sweep

import (
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// The thesis's Chapter 3 fairness targets (Tables 3.1–3.3, ADVc), checked on
// the experiments' own configurations at h=4 (h=8 is too slow for a test:
// 16,512 nodes). Max/Min over per-router injection carries the Bernoulli
// generation's sampling noise: with n packets per router its floor over the
// 132 routers is about 1 + 5.4/√n, 1.22 at load 0.4 in 4,000 cycles, so the
// checks that need fairness (< 1.15) measure 16,000 cycles (floor ≈ 1.10; the
// thesis's 1.05 at h=8 is the same floor for its 60,000 cycles of 8 nodes).

// fairRun runs one series of a fairness experiment at a load, one seed.
func fairRun(t *testing.T, experiment, series string, load float64, cycles int) *result.Result {
	t.Helper()
	return fairRunWith(t, experiment, series, load, cycles, nil)
}

// fairRunWith is fairRun with an edit of the series' configuration.
func fairRunWith(t *testing.T, experiment, series string, load float64, cycles int, edit func(*config.Config)) *result.Result {
	t.Helper()
	e, err := ExperimentByName(experiment)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range e.Spec.Series {
		if c.Name != series {
			continue
		}
		c.Traffic.Load, c.Sim.Cycles = load, cycles
		if edit != nil {
			edit(&c)
		}
		r := runOne(t, c, 1)
		f := r.Fairness
		t.Logf("%s %s @%.2f: injection wait %.1f, network %.1f cycles; accepted %.4f, min %d (router %d) max %d (router %d), Max/Min %.3f, CoV %.4f, starved %d, min inj. %.4f",
			experiment, series, load, r.InjLatency, r.NetLatency, r.Accepted, f.Min, f.MinRouter, f.Max, f.MaxRouter, f.MaxMin, f.CoV, f.Starved, MinInjectionLoad(r))
		return r
	}
	t.Fatalf("%s: no series %q", experiment, series)
	return nil
}

// rOut reports whether router is R_out (router a−1 of its group), the router
// whose global links reach ADVc's destination groups under the palm tree.
func rOut(c config.Config, router int) bool { return router%c.Topology.A == c.Topology.A-1 }

// Table 3.1 / target 2: ADVc with in-transit adaptive routing (OLM, every
// global misrouting policy) and in-transit priority starves R_out: Max/Min
// > 20 (thesis 62.8 / 97.9 / 79.7 at h=8) or a router injects nothing.
func TestTable31Target2InTransitPriorityStarvesROut(t *testing.T) {
	if testing.Short() {
		t.Skip("three 8,000-cycle h=4 runs")
	}
	for _, s := range []string{"In-Trns-RRG", "In-Trns-CRG", "In-Trns-MM"} {
		r := fairRun(t, "thesis-table3.1", s, 0.4, 4000)
		f := r.Fairness
		if f.Starved == 0 && f.MaxMin <= 20 {
			t.Errorf("%s: Max/Min %.2f, want > 20 (starvation)", s, f.MaxMin)
		}
		if !rOut(r.Config, f.MinRouter) {
			t.Errorf("%s: the least-injecting router is %d, want R_out (router a−1 of a group)", s, f.MinRouter)
		}
	}
}

// Table 3.1 / target 2: oblivious routing stays fair under ADVc with
// priority: Max/Min < 1.15 (thesis 1.048 Obl-RRG @0.35, 1.045 Obl-CRG @0.40).
func TestTable31Target2ObliviousFair(t *testing.T) {
	if testing.Short() {
		t.Skip("two 20,000-cycle h=4 runs")
	}
	for _, x := range []struct {
		series string
		load   float64
	}{{"Obl-RRG", 0.35}, {"Obl-CRG", 0.4}} {
		f := fairRun(t, "thesis-table3.1", x.series, x.load, 16000).Fairness
		if f.Starved != 0 || f.MaxMin >= 1.15 {
			t.Errorf("%s @%.2f: Max/Min %.3f (starved %d), want < 1.15", x.series, x.load, f.MaxMin, f.Starved)
		}
	}
}

// Table 3.2 / target 3: without priority in-transit routing no longer
// starves R_out but is not fair either: Max/Min in [1.2, 2.0] (thesis 1.496 /
// 1.523 / 1.551 @0.40), R_out the least-injecting router.
func TestTable32Target3InTransitWithoutPriority(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20,000-cycle h=4 run")
	}
	r := fairRun(t, "thesis-table3.2", "In-Trns-MM", 0.4, 16000)
	f := r.Fairness
	if f.Starved != 0 || f.MaxMin < 1.2 || f.MaxMin > 2.0 {
		t.Errorf("Max/Min %.3f (starved %d), want in [1.2, 2.0]", f.MaxMin, f.Starved)
	}
	if !rOut(r.Config, f.MinRouter) {
		t.Errorf("the least-injecting router is %d, want R_out", f.MinRouter)
	}
}

// Table 3.3 / target 4: age arbitration makes in-transit routing fair:
// Max/Min < 1.15 (thesis In-Trns-MM 1.050 @0.40).
func TestTable33Target4AgeInTransitFair(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20,000-cycle h=4 run")
	}
	f := fairRun(t, "thesis-table3.3", "In-Trns-MM", 0.4, 16000).Fairness
	if f.Starved != 0 || f.MaxMin >= 1.15 {
		t.Errorf("Max/Min %.3f (starved %d), want < 1.15", f.MaxMin, f.Starved)
	}
}

// Table 3.1 / target 1: MIN under ADVc saturates below its bound h/(a·p)
// (thesis: 0.05 of 0.0625 at h=8, i.e. 0.8 of the bound, ±20%: 0.64–0.96)
// and is fair below saturation (thesis Max/Min 1.18 at 0.03, want < 1.3).
// At h=4 the bound is 0.125; below saturation is 0.07 (the thesis's 0.03 is
// 60% of its saturation), measured over 32,000 cycles for the noise floor.
func TestTable31Target1MinADVc(t *testing.T) {
	if testing.Short() {
		t.Skip("two h=4 runs")
	}
	r := fairRun(t, "thesis-table3.1", "MIN", 0.25, 4000)
	c := r.Config
	bound := float64(c.Topology.H) / float64(c.Topology.A*c.Topology.P)
	if x := r.Accepted / bound; x < 0.64 || x > 0.96 {
		t.Errorf("MIN saturates at %.4f = %.2f of the bound %.4f, want 0.64–0.96", r.Accepted, x, bound)
	}
	f := fairRun(t, "thesis-table3.1", "MIN", 0.07, 32000).Fairness
	if f.Starved != 0 || f.MaxMin >= 1.3 {
		t.Errorf("MIN @0.07: Max/Min %.3f (starved %d), want < 1.3", f.MaxMin, f.Starved)
	}
}

// Target 5: under ADVc the saturation throughput orders In-Trns > Obl >
// Src-RRG > Src-CRG > MIN (thesis Table 3.2: 0.46 > 0.40 > 0.32 > 0.12 >
// 0.05), measured as the accepted load at 0.55 offered, RR without priority.
func TestTable32Target5SaturationOrdering(t *testing.T) {
	if testing.Short() {
		t.Skip("five h=4 runs")
	}
	order := []string{"In-Trns-MM", "Obl-CRG", "Src-RRG", "Src-CRG", "MIN"}
	// Table 3.2's saturation at h=8, ±25%, for the three that route most
	// traffic nonminimally (their bound does not depend on the size);
	// Src-CRG and MIN keep much traffic on the minimal global links, whose
	// ADVc bound h/(a·p) = 1/(2h) doubles from h=8 to h=4, so only their
	// order is checked here (their values at h=8 are in
	// engine/REPRODUCTION.md)
	thesis := map[string]float64{"In-Trns-MM": 0.46, "Obl-CRG": 0.40, "Src-RRG": 0.32}
	prev := 0.0
	for i, s := range order {
		a := fairRun(t, "thesis-table3.2", s, 0.55, 4000).Accepted
		if i > 0 && a >= prev {
			t.Errorf("%s accepts %.4f, not below %s's %.4f", s, a, order[i-1], prev)
		}
		if v, ok := thesis[s]; ok && (a < 0.75*v || a > 1.25*v) {
			t.Errorf("%s accepts %.4f, not within 25%% of the thesis's %.2f", s, a, v)
		}
		prev = a
	}
}

// Target 5's Src-CRG at h=4 beside FOGSim v5, the simulator the thesis's
// numbers came from. FOGSim v5's ADVc draws the destination group among
// +1…+(h−1) of router a−1 (`traffic.advcFogsim`), so the comparison runs
// that pattern: Table 3.2's Src-CRG (PB with CRG, RR without priority) at
// 0.55 offered, 2,000 + 4,000 cycles, seed 1. FOGSim v5 (validation/fogsim-h4.cfg's
// system, `routing=SRC_ADP GlobalMisroutingPolicy=CRG ValiantType=SRCEXC
// CongestionDetection=PER_VC piggybacking_coef=200 ugal_global_threshold=5
// ugal_local_threshold=4 LocalLinkChannels=4 Traffic=ADVc Probability=55`)
// accepts 0.1558 (47.6% of the packets non-minimal); phitsim must be within 5%. So Src-CRG's +46% over the
// thesis's 0.12 at h=4 is the network size's (at h=8 phitsim accepts 0.119,
// engine/REPRODUCTION.md), not a departure from FOGSim's model; MIN's ×2 is
// the same (validation row min-advc-40-sat: 0.089 in both simulators under
// FOGSim's ADVc).
func TestTable32Target5SrcCRGAsFOGSim(t *testing.T) {
	if testing.Short() {
		t.Skip("a saturated h=4 PB run")
	}
	const fog = 0.1558
	r := fairRunWith(t, "thesis-table3.2", "Src-CRG", 0.55, 4000, func(c *config.Config) {
		c.Traffic.AdvcFogsim, c.Sim.Warmup = true, 2000
	})
	if r.Accepted < 0.95*fog || r.Accepted > 1.05*fog {
		t.Errorf("Src-CRG under FOGSim's ADVc at 0.55: accepted %.4f, FOGSim v5 %.4f: want within 5%%", r.Accepted, fog)
	}
}

// Table 3.2 / target 6: without priority, Src-CRG gives R_out (router a−1)
// about 3× the injection of the other routers (thesis Fig. 3.9 at 0.4;
// tolerance 2–4): R_out's nodes see the minimal global links first.
func TestTable32Target6SrcCRGFavoursROut(t *testing.T) {
	if testing.Short() {
		t.Skip("an h=4 run")
	}
	r := fairRun(t, "thesis-table3.2", "Src-CRG", 0.4, 4000)
	a := r.Config.Topology.A
	var out, mid, nOut, nMid float64
	for i, x := range r.Fairness.PerRouter {
		switch i % a {
		case a - 1:
			out, nOut = out+float64(x), nOut+1
		case 0: // R_in, apart in the thesis's figure
		default:
			mid, nMid = mid+float64(x), nMid+1
		}
	}
	if ratio := (out / nOut) / (mid / nMid); ratio < 2 || ratio > 4 {
		t.Errorf("R_out injects %.2f× routers 1…a−2, want 2–4", ratio)
	} else {
		t.Logf("R_out injects %.2f× routers 1…a−2", ratio)
	}
}

// Figs. 3.3–3.4 / target 7: with transit priority under ADVc, In-Trns-MM's
// injection wait (R_out's starved packets) peaks below saturation and then
// falls (thesis: peak near 0.1 at h=8; at h=4 near 0.2); 1000-phit injection
// queues make the peak larger and leave the throughput unchanged (within 2%).
func TestTable31Target7InjectionWaitPeak(t *testing.T) {
	if testing.Short() {
		t.Skip("six h=4 runs")
	}
	wait := map[int][3]float64{}  // injection wait at 0.1, 0.2, 0.45 by queue size
	accepted := map[int]float64{} // at 0.45
	for _, q := range []int{256, 1000} {
		var w [3]float64
		for i, load := range []float64{0.1, 0.2, 0.45} {
			r := fairRunWith(t, "thesis-table3.1", "In-Trns-MM", load, 4000, func(c *config.Config) { c.Router.InjectionBuffer = q })
			w[i], accepted[q] = r.InjLatency, r.Accepted
		}
		if w[1] < 2*w[0] || w[1] < 1.5*w[2] {
			t.Errorf("%d-phit queues: injection wait %.1f / %.1f / %.1f at 0.1 / 0.2 / 0.45, want a peak at 0.2", q, w[0], w[1], w[2])
		}
		wait[q] = w
	}
	if wait[1000][1] <= wait[256][1] {
		t.Errorf("peak injection wait %.1f with 1000-phit queues, want above %.1f with 256", wait[1000][1], wait[256][1])
	}
	if a, b := accepted[1000], accepted[256]; math.Abs(a-b) > 0.02*b {
		t.Errorf("accepted at 0.45: %.4f with 1000-phit queues, %.4f with 256, want within 2%%", a, b)
	}
}
