package sweep

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// steps builds a pooled record of 100 packets per bin (bins of 10 cycles
// from −100): 10 bins at `before`, then the given shares (%).
func steps(before float64, after ...float64) (packets []int64, shares []float64) {
	for i := 0; i < 10; i++ {
		packets, shares = append(packets, 100), append(shares, before)
	}
	for _, s := range after {
		packets, shares = append(packets, 100), append(shares, s)
	}
	return
}

func rep(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestSettle(t *testing.T) {
	cases := []struct {
		name  string
		after []float64
		want  float64 // −1: nil
	}{
		// a step that needs three bins: settled from the third (20 cycles)
		{"ramp", append([]float64{40, 70, 90}, rep(95, 40)...), 20},
		// settled at once
		{"step", rep(95, 40), 0},
		// an overshoot beyond the band delays settling until it is over
		{"overshoot", append(append([]float64{90}, rep(100, 10)...), rep(88, 40)...), 110},
		// a late excursion (an oscillation) counts: it must stay
		{"late swing", append(append(rep(85, 30), 60, 60), rep(85, 10)...), 320},
		// the last bin outside the band: never settled
		{"not settled", append(rep(85, 40), 10), -1},
	}
	for _, c := range cases {
		p, s := steps(5, c.after...)
		got := Settle(-100, 10, p, s)
		if c.want < 0 {
			if got.Settle != nil {
				t.Errorf("%s: settle %v, want none", c.name, *got.Settle)
			}
			continue
		}
		if got.Settle == nil || *got.Settle != c.want {
			t.Errorf("%s: settle %v (settled %.1f ± %.1f), want %g", c.name, got.Settle, got.Settled, got.Band, c.want)
		}
	}
	// the final mean is over the second half after the switch
	p, s := steps(0, append(rep(50, 10), rep(100, 10)...)...)
	g := Settle(-100, 10, p, s)
	if g.Before != 0 || g.Settled != 100 || g.Band != SettleBand || g.Settle == nil || *g.Settle != 100 {
		t.Errorf("before %g settled %g band %g settle %v; want 0, 100, %g, 100", g.Before, g.Settled, g.Band, g.Settle, SettleBand)
	}
	// an overshoot within the band does not delay settling; beyond it, it does
	p, s = steps(0, append([]float64{50, 88}, rep(84, 40)...)...)
	if g := Settle(-100, 10, p, s); g.Settle == nil || *g.Settle != 10 {
		t.Errorf("overshoot to 88 of 84: settle %v, want 10", g.Settle)
	}
	p, s = steps(0, append([]float64{50, 88, 92, 91}, rep(84, 40)...)...)
	if g := Settle(-100, 10, p, s); g.Settle == nil || *g.Settle != 40 {
		t.Errorf("overshoot to 92 of 84: settle %v, want 40", g.Settle)
	}
	p, s = steps(3, rep(4, 20)...)
	if g := Settle(-100, 10, p, s); g.Band != SettleBand || g.Settle == nil || *g.Settle != 0 {
		t.Errorf("no change: band %g settle %v; want %g, 0", g.Band, g.Settle, SettleBand)
	}
	// empty bins do not count against settling
	p, s = steps(5, rep(95, 20)...)
	p[15], s[15] = 0, 0
	if g := Settle(-100, 10, p, s); g.Settle == nil || *g.Settle != 0 {
		t.Errorf("an empty bin: settle %v, want 0", g.Settle)
	}
}

// LatencySettle reads the reaction on the latency: a bump and a dip beyond
// the band delay it, a ripple within the band does not, and the final
// latency is the mean over the second half of the record after the switch.
func TestLatencySettle(t *testing.T) {
	mk := func(after ...float64) Transient {
		p, l := steps(150, after...)
		return Transient{From: -100, Bin: 10, Packets: p, Latency: l}
	}
	cases := []struct {
		name  string
		tr    Transient
		want  float64 // −1: nil
		final float64
	}{
		// thesis Fig. 4.8's OLM: a bump, a dip, a slow rise to the end
		{"two phases", mk(append([]float64{240, 264, 260, 250, 247, 246, 247, 248, 250, 251}, rep(253, 30)...)...), 70, 253},
		// within 2% (±5.06 of 253) from the second bin: a ripple is settled
		{"ripple", mk(append([]float64{200, 249, 257, 250}, rep(253, 30)...)...), 10, 253},
		{"step", mk(rep(250, 30)...), 0, 250},
		{"still rising", mk(append(rep(250, 30), 300)...), -1, 0},
	}
	for _, c := range cases {
		final, got := LatencySettle(c.tr, ReactionBand)
		if c.want < 0 {
			if got != nil {
				t.Errorf("%s: settle %v, want none", c.name, *got)
			}
			continue
		}
		if got == nil || *got != c.want || math.Abs(final-c.final) > 1e-9 {
			t.Errorf("%s: settle %s, final %.2f; want %g, %g", c.name, fmtSettle(got), final, c.want, c.final)
		}
	}
	if _, got := LatencySettle(Transient{From: -100, Bin: 10, Packets: []int64{1}, Latency: []float64{1}}, ReactionBand); got != nil {
		t.Errorf("a record that ends before the switch settles at %v", *got)
	}
}

// PoolTransient sums the seeds' records (every packet weighs the same) and
// leaves out the bins within the longest latency of the record's end.
func TestPoolTransient(t *testing.T) {
	mk := func(maxLat int64, packets, mis, lat []int64) *result.Result {
		r := &result.Result{Transient: &result.Transient{From: -20, Bin: 10, Packets: packets, Misrouted: mis, Latency: lat}}
		r.Config.Name = "X"
		r.Latency.Max = maxLat
		return r
	}
	a := mk(15, []int64{10, 10, 10, 10, 10, 2}, []int64{0, 0, 5, 10, 10, 0}, []int64{100, 100, 200, 300, 300, 20})
	b := mk(8, []int64{30, 30, 30, 30, 30, 6}, []int64{0, 3, 30, 30, 30, 0}, []int64{300, 300, 900, 900, 900, 60})
	tr := PoolTransient(2, 0.2, []*result.Result{a, nil, b})
	if tr == nil || tr.Runs != 2 || tr.Series != 2 || tr.X != 0.2 || tr.Name != "X" {
		t.Fatalf("pooled %+v", tr)
	}
	// the longest latency, 15 cycles, leaves out the last two 10-cycle bins
	if len(tr.Packets) != 4 {
		t.Fatalf("%d bins, want 4 (6 less 2 within the longest latency of the end)", len(tr.Packets))
	}
	wantMis := []float64{0, 7.5, 87.5, 100}
	wantLat := []float64{10, 10, 27.5, 30}
	for i := range wantMis {
		if tr.Packets[i] != 40 || math.Abs(tr.Misrouted[i]-wantMis[i]) > 1e-9 || math.Abs(tr.Latency[i]-wantLat[i]) > 1e-9 {
			t.Errorf("bin %d: %d packets, %.2f%% misrouted, latency %.2f; want 40, %.2f, %.2f",
				i, tr.Packets[i], tr.Misrouted[i], tr.Latency[i], wantMis[i], wantLat[i])
		}
	}
	if tr.Before != 3.75 || tr.Settled != 100 {
		t.Errorf("before %g settled %g, want 3.75 and 100", tr.Before, tr.Settled)
	}
	if PoolTransient(0, 0.2, []*result.Result{{}}) != nil {
		t.Error("a run without a record pooled into a transient")
	}
}

// runExperiment runs a named experiment with its own seeds (skipped with
// -short) and returns its pooled transients by series name.
func runTransients(t *testing.T, name string) map[string]Transient {
	t.Helper()
	e, err := ExperimentByName(name)
	if err != nil {
		t.Fatal(err)
	}
	oc, err := Run(context.Background(), e.Spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Transient{}
	for _, tr := range oc.Transients {
		out[tr.Name] = tr
		t.Logf("%s %-8s misrouted %.1f%% → %.1f%% (band ± %.1f), settles %s cycles after the switch; latency %.0f → %.0f",
			name, tr.Name, tr.Before, tr.Settled, tr.Band, fmtSettle(tr.Settle), tr.Latency[0], lastMean(tr.Latency, 20))
	}
	if len(out) != len(e.Spec.Series) {
		t.Fatalf("%d transients for %d series", len(out), len(e.Spec.Series))
	}
	return out
}

// runNamed runs the named experiment's series called names (in the
// experiment's order), each edited by edit if not nil, with their own seeds.
func runNamed(t *testing.T, experiment string, edit func(*config.Config), names ...string) *Outcome {
	t.Helper()
	e, err := ExperimentByName(experiment)
	if err != nil {
		t.Fatal(err)
	}
	sp := e.Spec
	sp.Series = nil
	for _, c := range e.Spec.Series {
		if slices.Contains(names, c.Name) {
			if edit != nil {
				edit(&c)
			}
			sp.Series = append(sp.Series, c)
		}
	}
	oc, err := Run(context.Background(), sp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return oc
}

func fmtSettle(p *float64) string {
	if p == nil {
		return "never"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

func lastMean(xs []float64, n int) float64 {
	n = min(n, len(xs))
	var s float64
	for _, x := range xs[len(xs)-n:] {
		s += x
	}
	return s / float64(n)
}

func settleOf(t *testing.T, tr Transient) float64 {
	t.Helper()
	if tr.Settle == nil {
		t.Fatalf("%s never settles", tr.Name)
	}
	return *tr.Settle
}

// Target 11 (thesis §4.3.2, Fig. 4.8), at h=4 (h=8 is too slow for a test):
// after UN → ADV+1 at load 0.2 the contention triggers settle first, then
// credit-based OLM, then PB (the thesis: about 10 cycles, about 100 for PB
// and OLM; ordering strict). At h=4 the contention triggers take 30–40
// cycles (checked 20–50, not the thesis's 10 ± 50%): a router's p = 4
// injection heads cannot reach th = 6 alone (at h=8, p = 8 ≥ th), the
// transit heads must add up. FOGSim v5 on the same transient (seed 1,
// TestFig48Target11ContentionAsFOGSim) takes as long: its misrouted share
// first reaches within 5 points of the final at +40 for Base and ECtN and
// at +20 for Filtered and Hybrid (10-cycle bins). OLM overshoots (to 91–93% misrouted) and
// settles when that is over, about 100 cycles (checked 100 ± 50%). PB
// overshoots to nearly every packet misrouted and swings back (Fig. 4.9's
// oscillation): it settles last. All settle near the share that the one
// minimal global link leaves: under ADV+1 a group of a·p nodes offers
// a·p·0.2 phits/cycle to the next group over one link, so at least
// 1 − 1/(a·p·0.2) = 84.4% must be misrouted (the thesis's "almost 100%" is
// 96% at h=8); before the switch Base and Filtered misroute nothing.
// windowLatency is the packet-weighted mean latency of the bins that start
// in [from, to) cycles from the switch.
func windowLatency(tr Transient, from, to int) float64 {
	return windowMean(tr, tr.Latency, from, to)
}

// windowMean is the packet-weighted mean of v (one value per bin of tr) over
// the bins that start in [from, to) cycles from the switch.
func windowMean(tr Transient, v []float64, from, to int) float64 {
	var sum, n float64
	for i := range v {
		if at := tr.From + i*tr.Bin; at >= from && at < to {
			sum += v[i] * float64(tr.Packets[i])
			n += float64(tr.Packets[i])
		}
	}
	return sum / max(n, 1)
}

func TestFig48Target11ReactionOrdering(t *testing.T) {
	if testing.Short() {
		t.Skip("30 h=4 runs of 6,500 cycles")
	}
	tr := runTransients(t, "thesis-fig4.8")
	contention := 0.0
	for _, n := range []string{"Base", "Filtered", "Hybrid", "ECtN"} {
		s := settleOf(t, tr[n])
		contention = max(contention, s)
		if s > 50 || s < 20 {
			t.Errorf("%s settles %g cycles after the switch, want 20–50 (FOGSim v5 at h=4: 20–40; the thesis's ≈10 at h=8)", n, s)
		}
		if got := tr[n].Settled; got < 84.4-3 {
			t.Errorf("%s settles at %.1f%% misrouted, want ≥ 81.4%% (the minimal link's share leaves 84.4%%)", n, got)
		}
	}
	for _, n := range []string{"Base", "Filtered"} {
		if b := tr[n].Before; b > 1 {
			t.Errorf("%s misroutes %.1f%% under UN, want < 1%% (thesis §4.3.1)", n, b)
		}
	}
	// ECtN follows Base until the first broadcast after the switch (at
	// +100, heard 10 cycles later), then misroutes at injection and its
	// latency drops below Base's (thesis Fig. 4.8)
	eb, bb := windowLatency(tr["ECtN"], 0, 100), windowLatency(tr["Base"], 0, 100)
	ea, ba := windowLatency(tr["ECtN"], 200, 600), windowLatency(tr["Base"], 200, 600)
	t.Logf("latency 0–100 after the switch: ECtN %.1f, Base %.1f; 200–600: ECtN %.1f, Base %.1f", eb, bb, ea, ba)
	if eb > 1.1*bb || ea > 0.95*ba {
		t.Errorf("ECtN latency %.1f / %.1f before / after its first broadcast, Base %.1f / %.1f; want ECtN ≈ Base before, ≥ 5%% below after", eb, ea, bb, ba)
	}
	olm, pb := settleOf(t, tr["OLM"]), settleOf(t, tr["PB"])
	if olm < 50 || olm > 150 {
		t.Errorf("OLM settles %g cycles after the switch, want 100 ± 50%%", olm)
	}
	if !(contention < olm && olm < pb) {
		t.Errorf("settle times: contention triggers ≤ %g, OLM %g, PB %g; want contention < OLM < PB", contention, olm, pb)
	}
}

// Target 11 read on the latency, at h=8 (the thesis's 16,512 nodes, one
// seed; OLM and Base, warm-up shortened to 2,000 cycles, 400 cycles shown:
// about 40 s on 2 free cores). The thesis times PB's and OLM's transient on
// the latency (§4.3.2: a bump while queues fill and trigger misrouting,
// then a slight rise while the packets on the longest non-minimal paths
// grow in number, about 50 cycles each): OLM's latency peaks in the first
// 30 cycles above its final value, dips below it by +30–80 and settles
// within 2% (LatencySettle) about 100 cycles after the switch (measured 70:
// checked 50–150), while Base's settles at once (measured 20: checked ≤ 30,
// the thesis's ≈10 with 10-cycle bins). The misrouted share hides this:
// OLM's reaches its band in 10 cycles at h=8 (engine/REPRODUCTION.md).
func TestFig48Target11LatencyReactionH8(t *testing.T) {
	if testing.Short() {
		t.Skip("2 h=8 runs of 3,900 cycles")
	}
	oc := runNamed(t, "thesis-fig4.8", func(c *config.Config) {
		c.Topology.H, c.Topology.A, c.Topology.P = 8, 16, 8
		c.Sim.Seeds, c.Sim.Warmup, c.Sim.Cycles = 1, 2000, TransientSwitch+400+TransientMargin
	}, "OLM", "Base")
	settle := map[string]float64{}
	for _, tr := range oc.Transients {
		final, s := LatencySettle(tr, ReactionBand)
		if s == nil {
			t.Fatalf("%s: latency never settles (final %.1f)", tr.Name, final)
		}
		settle[tr.Name] = *s
		peak, dip := 0.0, math.Inf(1)
		for i, l := range tr.Latency {
			switch at := tr.From + i*tr.Bin; {
			case at >= 0 && at < 30:
				peak = max(peak, l)
			case at >= 30 && at < 80:
				dip = min(dip, l)
			}
		}
		t.Logf("h=8 %-4s latency settles %g cycles after the switch at %.1f; peak %.1f in 0–30, minimum %.1f in 30–80; misrouted settles %s", tr.Name, *s, final, peak, dip, fmtSettle(tr.Settle))
		if tr.Name == "OLM" && (peak < (1+ReactionBand)*final || dip > (1-ReactionBand/2)*final) {
			t.Errorf("OLM: latency peak %.1f in the first 30 cycles and minimum %.1f at +30–80 around its final %.1f; want a bump above +2%% and a dip below −1%% (thesis §4.3.2's two phases)", peak, dip, final)
		}
	}
	if o := settle["OLM"]; o < 50 || o > 150 {
		t.Errorf("OLM's latency settles %g cycles after the switch, want 100 ± 50%%", o)
	}
	if b := settle["Base"]; b > 30 || b >= settle["OLM"] {
		t.Errorf("Base's latency settles %g cycles after the switch, OLM's %g; want ≤ 30 and below OLM's", b, settle["OLM"])
	}
}

// windowShare is the packet-weighted misrouted share (%) of the bins that
// start in [from, to) cycles from the switch.
func windowShare(tr Transient, from, to int) float64 {
	return windowMean(tr, tr.Misrouted, from, to)
}

// Target 11 at h=4 beside FOGSim v5, the simulator the thesis's numbers
// came from (thesis §4.3.2, Fig. 4.8: the contention triggers react to UN →
// ADV+1 in about 10 cycles). FOGSim v5 (commit dcdd75f,
// validation/fogsim-h4.cfg's system, OLM with MM_L and `MisroutingTrigger=CA
// ContentionThreshold=6`, `FILTERED` 6 with coefficient 0.5, `HYBRID` 8 with
// the CGA keys of validation/rows.txt, `CA_REMOTE` 6/10; `Traffic=TRANSIENT`
// UN → ADV_RANDOM_NODE at distance 1, load 0.2, 2,000 warm-up cycles, the
// switch at +500, seed 1, its per-cycle `.transient` record) does not react
// in 10 cycles at h=4 either: Base's misrouted share is 50% in the first
// 10-cycle bin and 66.1% over the first 30 cycles, and reaches within 5
// points of its final 84.0% only from +40 (in 5-cycle bins from +35), as
// phitsim's (40 with 6 seeds, TestFig48Target11ReactionOrdering). phitsim
// on the same run (thesis-fig4.8's series, one seed, 2,000 warm-up cycles)
// must follow FOGSim's windows: the misrouted share within 4 points and the
// latency's rise over the 100 cycles before the switch within 6 cycles
// (FOGSim's .transient latency runs about 8 cycles below its main output's,
// engine/REPRODUCTION.md).
func TestFig48Target11ContentionAsFOGSim(t *testing.T) {
	windows := [][2]int{{-100, 0}, {0, 30}, {30, 60}, {60, 100}, {100, 200}, {200, 400}}
	// FOGSim v5 per window: mean latency, % misrouted
	fog := map[string][][2]float64{
		"Base":     {{131.7, 0.0}, {223.3, 66.1}, {246.0, 80.5}, {253.2, 83.6}, {253.2, 83.8}, {255.6, 84.0}},
		"Filtered": {{131.9, 0.0}, {224.0, 63.4}, {251.3, 81.4}, {256.6, 82.7}, {259.7, 84.1}, {262.0, 84.0}},
		"Hybrid":   {{135.0, 3.6}, {213.4, 60.6}, {240.5, 85.7}, {235.6, 85.6}, {235.7, 84.8}, {235.4, 84.1}},
		"ECtN":     {{131.7, 0.0}, {223.0, 66.1}, {245.6, 80.8}, {250.0, 82.5}, {238.6, 85.6}, {243.2, 83.6}},
	}
	oc := runNamed(t, "thesis-fig4.8", func(c *config.Config) {
		c.Sim.Seeds, c.Sim.Warmup, c.Sim.Cycles = 1, 2000, TransientSwitch+400+TransientMargin
	}, "Base", "Filtered", "Hybrid", "ECtN")
	if len(oc.Transients) != len(fog) {
		t.Fatalf("%d transients, want %d", len(oc.Transients), len(fog))
	}
	for _, tr := range oc.Transients {
		f := fog[tr.Name]
		base := windowLatency(tr, -100, 0)
		for w, win := range windows {
			lat, mis := windowLatency(tr, win[0], win[1]), windowShare(tr, win[0], win[1])
			if lat == 0 {
				t.Fatalf("%s: no packet generated %d to %d cycles from the switch has arrived", tr.Name, win[0], win[1])
			}
			rise, fogRise := lat-base, f[w][0]-f[0][0]
			t.Logf("%-8s %4d–%3d: latency %.1f (rise %.1f; FOGSim %.1f, rise %.1f), misrouted %.1f%% (FOGSim %.1f%%)", tr.Name, win[0], win[1], lat, rise, f[w][0], fogRise, mis, f[w][1])
			if math.Abs(rise-fogRise) > 6 || math.Abs(mis-f[w][1]) > 4 {
				t.Errorf("%s, %d to %d cycles from the switch: latency %.1f above the 100 cycles before, %.1f%% misrouted; FOGSim v5 %.1f above, %.1f%%: want within 6 cycles and 4 points", tr.Name, win[0], win[1], rise, mis, fogRise, f[w][1])
			}
		}
	}
}

// The other transition (thesis §4.3.2: "other transitions ... similar
// results"), at h=4: after ADV+1 → UN at load 0.2 the packets generated
// after the switch need no misrouting, and every trigger stops at once: the
// contention triggers and OLM settle within 50 cycles, Base and Filtered
// to no misrouting (< 1%), OLM and Hybrid (credits) to a few percent.
func TestFig48BackToUN(t *testing.T) {
	if testing.Short() {
		t.Skip("30 h=4 runs of 6,500 cycles")
	}
	tr := runTransients(t, "thesis-fig4.8-back")
	for _, n := range []string{"OLM", "Base", "Filtered", "Hybrid", "ECtN"} {
		if s := settleOf(t, tr[n]); s > 50 {
			t.Errorf("%s settles %g cycles after the switch to UN, want ≤ 50", n, s)
		}
		if tr[n].Before < 50 {
			t.Errorf("%s misroutes %.1f%% under ADV+1 before the switch, want most", n, tr[n].Before)
		}
	}
	for n, most := range map[string]float64{"Base": 1, "Filtered": 1, "ECtN": 1, "OLM": 8, "Hybrid": 8} {
		if got := tr[n].Settled; got > most {
			t.Errorf("%s settles at %.1f%% misrouted under UN, want < %g%%", n, got, most)
		}
	}
}

// Oscillation finds the period of a decaying swing and none in noise or a
// drift.
func TestOscillation(t *testing.T) {
	var swing, noise, drift []float64
	x := uint64(12345)
	rnd := func() float64 { // xorshift, deterministic
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return float64(x%1000)/1000 - 0.5
	}
	for i := 0; i < 200; i++ {
		swing = append(swing, 85+15*math.Exp(-float64(i)/80)*math.Cos(2*math.Pi*float64(i)/38)+2*rnd())
		noise = append(noise, 85+4*rnd())
		drift = append(drift, 80+float64(i)/20+rnd())
	}
	if lag, r := Oscillation(swing); lag < 36 || lag > 40 || r < MinPeriodCorr {
		t.Errorf("a swing of 38 bins: lag %d (autocorrelation %.2f)", lag, r)
	}
	for name, xs := range map[string][]float64{"noise": noise, "drift": drift} {
		if lag, r := Oscillation(xs); lag != 0 {
			t.Errorf("%s: lag %d (autocorrelation %.2f), want none", name, lag, r)
		}
	}
}

// Target 12 (thesis Fig. 4.9), at h=4: over 5,000 cycles after UN → ADV+1
// PB's misrouted share oscillates (the thesis: PB's latency, about every 600
// cycles, decaying) while the contention triggers and OLM stay flat (the
// thesis shows ECtN flat). At h=4 PB's period is about 350 cycles (checked
// 600 ± 50%) and its swing (the range of the 50-cycle average after it
// first reaches the settled share) about 31 points, dying out after two or
// three periods; the others swing by at most 8 points (checked ≥ 20 and
// ≤ 10). The latency's own swing is too weak to time: the test times the
// misrouted share, which drives it.
func TestFig49Target12PBOscillates(t *testing.T) {
	if testing.Short() {
		t.Skip("30 h=4 runs of 10,500 cycles")
	}
	tr := runTransients(t, "thesis-fig4.9")
	for _, n := range []string{"PB", "OLM", "Base", "Filtered", "Hybrid", "ECtN"} {
		x := tr[n]
		p := "none"
		if x.Period != nil {
			p = strconv.FormatFloat(*x.Period, 'g', -1, 64)
		}
		t.Logf("%s: swing %.1f points, period %s cycles (autocorrelation %.2f)", n, x.Swing, p, x.PeriodCorr)
	}
	if p := tr["PB"].Period; p == nil || *p < 300 || *p > 900 {
		t.Errorf("PB: period %v, want 600 ± 50%% cycles", p)
	}
	if w := tr["PB"].Swing; w < 20 {
		t.Errorf("PB swings by %.1f points, want ≥ 20", w)
	}
	for _, n := range []string{"OLM", "Base", "Filtered", "Hybrid", "ECtN"} {
		if w := tr[n].Swing; w > 10 {
			t.Errorf("%s swings by %.1f points, want flat (≤ 10)", n, w)
		}
	}
}

// Target 13 (thesis Fig. 4.10), at h=4: with input buffers of 256 (local)
// and 2048 (global) phits per VC the contention triggers react as fast as
// with 32/256 (≤ 50 cycles, as target 11 checks), and credit-based OLM's
// latency takes longer to settle (LatencySettle: 130 cycles against 70
// with small buffers; its bump peaks at 266 rather than 259 cycles; checked
// deep > small + 20). The thesis's 700 cycles and climb to 350 do not
// reproduce, nor in FOGSim itself with its default ThMin = 0 (settles in
// 100–150 cycles at h=4, latency 236); engine/REPRODUCTION.md has the
// thresholds tried. OLM's misrouted share settles in 30 cycles, PB's in
// about 650 (630 with small buffers); the test logs them.
func TestFig410Target13DeepBuffers(t *testing.T) {
	if testing.Short() {
		t.Skip("36 h=4 runs of 6,500 cycles")
	}
	deep := runTransients(t, "thesis-fig4.10")
	for _, n := range []string{"Base", "Filtered", "Hybrid", "ECtN"} {
		if s := settleOf(t, deep[n]); s > 50 {
			t.Errorf("%s with deep buffers settles %g cycles after the switch, want ≤ 50 (as with small buffers)", n, s)
		}
	}
	oc := runNamed(t, "thesis-fig4.8", nil, "OLM")
	if len(oc.Transients) != 1 {
		t.Fatalf("OLM with small buffers: %d transients", len(oc.Transients))
	}
	fs, small := LatencySettle(oc.Transients[0], ReactionBand)
	fd, dp := LatencySettle(deep["OLM"], ReactionBand)
	if small == nil || dp == nil {
		t.Fatalf("OLM's latency never settles: small buffers %s, deep %s", fmtSettle(small), fmtSettle(dp))
	}
	t.Logf("OLM's latency settles %g cycles after the switch at %.1f with small buffers, %g at %.1f with deep ones", *small, fs, *dp, fd)
	if *dp <= *small+20 {
		t.Errorf("OLM's latency settles %g cycles after the switch with deep buffers, %g with small ones; want slower with deep (by more than 20)", *dp, *small)
	}
}

// Thesis Fig. 4.10's shape with a candidate threshold, at h=4 (6 seeds,
// OLM only, 2,000 cycles after the switch so that the slow packets arrive):
// with routing.candidateMax = 25 (FOGSim's PercentLocalThreshold and
// PercentGlobalThreshold, which the thesis leaves open; the experiments
// keep FOGSim's 100) OLM's latency with deep buffers starts low (246 cycles
// in the first 50, as the thesis's "comparable" to the contention
// triggers) and climbs for hundreds of cycles (351 at +300, about 450 from
// +700 on; checked: the mean over +500–1,000 at least 80 above the first
// 100 cycles' and 100 above the small-buffer latency), while with small
// buffers it settles at once (LatencySettle ≤ 100). With deep buffers the
// minimal global link's occupancy is about what its credit round trip
// holds (some 11% of 2048 phits), so a local candidate must hold under 25%
// of that, about 7 phits, less than a packet: the in-transit misroute at
// that link's router is shut, and the injection misroute waits until the
// local queues are full enough (thesis §4.3.2: "this growth stops when the
// amount of congestion at the local queues is enough to guarantee
// misrouting at injection"). At 28 a packet fits and the climb is gone
// (engine/REPRODUCTION.md).
func TestFig410CandidateThresholdClimb(t *testing.T) {
	if testing.Short() {
		t.Skip("12 h=4 runs of 7,500 cycles")
	}
	run := func(name string) Transient {
		t.Helper()
		oc := runNamed(t, name, func(c *config.Config) {
			c.Routing.CandidateMax = 25
			c.Sim.Cycles = TransientSwitch + 1000 + 2000
		}, "OLM")
		if len(oc.Transients) != 1 {
			t.Fatalf("%s: %d transients", name, len(oc.Transients))
		}
		return oc.Transients[0]
	}
	small, deep := run("thesis-fig4.8"), run("thesis-fig4.10")
	fs, ss := LatencySettle(small, ReactionBand)
	early, late := windowLatency(deep, 0, 100), windowLatency(deep, 500, 1000)
	t.Logf("candidateMax 25: small buffers settle %s cycles after the switch at %.1f; deep: %.1f in the first 100 cycles, %.1f at +500–1,000", fmtSettle(ss), fs, early, late)
	if ss == nil || *ss > 100 {
		t.Errorf("small buffers: OLM's latency settles %s cycles after the switch, want ≤ 100", fmtSettle(ss))
	}
	if late < early+80 || late < fs+100 {
		t.Errorf("deep buffers: OLM's latency %.1f at +500–1,000 against %.1f in the first 100 cycles and %.1f with small buffers; want a climb of at least 80 and 100 above small buffers (thesis Fig. 4.10)", late, early, fs)
	}
}

// Thesis Fig. 4.7 (§4.3.1), at h=4: at load 0.35 with each packet ADV+1
// with probability x and UN otherwise, the contention triggers are
// competitive with OLM across the mix. The tolerance h=4 allows: Hybrid
// within 5% of OLM's latency everywhere (its credit part decides as OLM);
// Base within 10% up to 40% ADV+1 and within 1.7× beyond (at 100%, 420
// cycles against OLM's 259: at h=4 a router's p = 4 injection heads cannot
// reach th = 6, so Base waits for transit heads, thesis §4.2.2's th ≤ p);
// both accept what OLM accepts (within 2%). Filtered is left out: under
// ADV+1 at h=4 it saturates below 0.35 (engine/ROUTING.md, "Contention
// counters"); the test logs nothing of it. ECtN (at h=4): within 5% of
// OLM, below it under pure ADV+1 (252 against 259 cycles) and below Base.
func TestFig47MixContentionCompetitiveWithOLM(t *testing.T) {
	if testing.Short() {
		t.Skip("36 h=4 runs of 12,000 cycles")
	}
	oc := runNamed(t, "thesis-fig4.7", nil, "OLM", "Base", "Hybrid", "ECtN")
	type key struct {
		name string
		x    float64
	}
	pts := map[key]Aggregate{}
	for _, p := range oc.Points {
		pts[key{p.Name, p.X}] = p
		t.Logf("%-6s %3.0f%% ADV+1: latency %.1f, accepted %.3f, misrouted %.1f%%", p.Name, p.X, p.Latency.Mean, p.Accepted.Mean, 100*p.Misrouted.Mean)
	}
	for _, x := range MixShares {
		olm := pts[key{"OLM", x}]
		for _, n := range []string{"Base", "Hybrid"} {
			p := pts[key{n, x}]
			tol := 1.05
			if n == "Base" {
				tol = 1.7
				if x <= 40 {
					tol = 1.1
				}
			}
			if r := p.Latency.Mean / olm.Latency.Mean; r > tol {
				t.Errorf("%s at %g%% ADV+1: latency %.1f = %.2f× OLM's %.1f, want ≤ %.2f×", n, x, p.Latency.Mean, r, olm.Latency.Mean, tol)
			}
			if p.Accepted.Mean < 0.98*olm.Accepted.Mean {
				t.Errorf("%s at %g%% ADV+1: accepted %.3f, OLM %.3f: want within 2%%", n, x, p.Accepted.Mean, olm.Accepted.Mean)
			}
		}
		// ECtN (thesis: clearly the best across the mix): at h=4 within
		// 5% of OLM everywhere, below it under pure ADV+1, and well below
		// Base once ADV+1 dominates (it misroutes at injection where Base
		// waits for transit heads)
		ec, base := pts[key{"ECtN", x}].Latency.Mean, pts[key{"Base", x}].Latency.Mean
		if ec > 1.05*olm.Latency.Mean || (x == 100 && ec >= olm.Latency.Mean) || (x >= 60 && ec > 0.95*base) {
			t.Errorf("ECtN at %g%% ADV+1: latency %.1f, OLM %.1f, Base %.1f; want ≤ 1.05× OLM (below it at 100%%) and, from 60%%, ≤ 0.95× Base", x, ec, olm.Latency.Mean, base)
		}
	}
}

// A tied parameter moves with the swept one (Fig. 4.7's shares add up to
// 100 at every point); a tie to the swept parameter itself, or to a
// parameter that is not numeric, is refused by name.
func TestTiedParameter(t *testing.T) {
	e, err := ExperimentByName("thesis-fig4.7")
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := e.Spec.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		tr := j.Config.Traffic
		if x := MixShares[j.Point]; tr.MixADV != x || tr.MixUN != 100-x || tr.Load != 0.35 {
			t.Fatalf("point %d: mixADV %g, mixUN %g, load %g; want %g, %g, 0.35", j.Point, tr.MixADV, tr.MixUN, tr.Load, x, 100-x)
		}
	}
	sp := e.Spec
	sp.Tied = nil
	if _, err := sp.Jobs(); err == nil || !strings.Contains(err.Error(), "traffic.mixUN") {
		t.Errorf("without the tie the shares do not add up to 100: error %v, want one naming traffic.mixUN", err)
	}
	for _, tie := range []Tie{{Path: "traffic.mixADV"}, {Path: "traffic.pattern"}} {
		sp.Tied = []Tie{tie}
		if _, err := sp.Jobs(); err == nil || !strings.Contains(err.Error(), tie.Path) {
			t.Errorf("tie %s: error %v, want one naming it", tie.Path, err)
		}
	}
}

// A short noisy record's chance correlation is no period (3/√n).
func TestOscillationShortNoise(t *testing.T) {
	xs := []float64{84, 90, 81, 86, 83, 88, 80, 85, 87, 82, 86, 84, 89, 80, 85, 83, 88, 82, 86, 84, 87, 81, 85, 86, 83, 88, 82, 85, 84, 86}
	if lag, r := Oscillation(xs); lag != 0 {
		t.Errorf("30 noisy values: lag %d (autocorrelation %.2f), want none", lag, r)
	}
}
