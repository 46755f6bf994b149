package sweep

import (
	"context"
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// qcnRun runs the named experiment's series picked by keep (nil: all) at
// its points (ls: those loads instead), one seed, two workers.
func qcnRun(t *testing.T, name string, keep func(c config.Config) bool, ls []float64) *Outcome {
	t.Helper()
	e, err := ExperimentByName(name)
	if err != nil {
		t.Fatal(err)
	}
	sp := e.Spec
	if keep != nil {
		var ss []config.Config
		for _, c := range sp.Series {
			if keep(c) {
				ss = append(ss, c)
			}
		}
		sp.Series = ss
	}
	if ls != nil {
		sp.Loads = ls
	}
	// the first seed of the experiment's runs
	sp.Series = append([]config.Config(nil), sp.Series...)
	for i := range sp.Series {
		sp.Series[i].Sim.Seeds = 1
	}
	oc, err := Run(context.Background(), sp, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return oc
}

func settleText(x *float64) float64 {
	if x == nil {
		return math.Inf(1)
	}
	return *x
}

// TestQCNRebin: 10-cycle bins summed into 20-µs (1,000-cycle) bins aligned
// on the switch, packet-weighted, the 100 cycles before the switch one bin.
func TestQCNRebin(t *testing.T) {
	tr := Transient{From: -100, Bin: 10}
	for i := 0; i < 10+2*100; i++ { // 100 cycles before, 2,000 after
		n, lat, mis := int64(10), 100.0, 0.0
		if i >= 10 {
			lat, mis = 300, 100 // after the switch
		}
		if i >= 110 {
			n, lat = 30, 200 // the second bin after it: 3× the packets
		}
		tr.Packets = append(tr.Packets, n)
		tr.Latency = append(tr.Latency, lat)
		tr.Misrouted = append(tr.Misrouted, mis)
	}
	tr.Latency[10], tr.Packets[10] = 1300, 10 // one slow 10-cycle bin in the first 1,000 cycles
	r := QCNRebin(tr, 1000)
	if r.From != -1000 || r.Bin != 1000 || len(r.Packets) != 3 {
		t.Fatalf("re-binned: from %d, bin %d, %d bins", r.From, r.Bin, len(r.Packets))
	}
	if r.Packets[0] != 100 || r.Packets[1] != 1000 || r.Packets[2] != 3000 {
		t.Errorf("packets %v, want 100 1000 3000", r.Packets)
	}
	if r.Latency[0] != 100 || r.Latency[1] != 310 || r.Latency[2] != 200 || r.Misrouted[1] != 100 {
		t.Errorf("latency %v (want 100 310 200), misrouted %v", r.Latency, r.Misrouted)
	}
	q := NewQCNReaction(tr)
	// settled: the second half after the switch is bin 2 (200); bin 1 (310)
	// is 55% above, out of the ±25% band
	if q.LatencySettled != 200 || q.LatencySettle == nil || *q.LatencySettle != 1000 {
		t.Errorf("latency settled %.1f at %v, want 200 at 1000", q.LatencySettled, q.LatencySettle)
	}
	if want := (310.0*1000+200*3000)/4000/200 - 1; math.Abs(q.LatencyExcess-want) > 1e-9 {
		t.Errorf("latency excess %.4f, want %.4f", q.LatencyExcess, want)
	}
}

// TestQCNSOut: the palm-tree S_out of group 0 is its last router, whose
// last global port reaches group 1 (QCN-Switch paper Fig. 7's SW11 at h=6).
func TestQCNSOut(t *testing.T) {
	for _, h := range []int{4, 6} {
		c := qcnBase("ethernet-h4", "UN")
		c.Topology.H, c.Topology.A, c.Topology.P = h, 2*h, h
		sOut, mid, port, err := SOut(c)
		if err != nil || sOut != 2*h-1 || mid != h || port != 2*h-2 {
			t.Errorf("h=%d: S_out %d (want %d), mid %d, its transit port %d (want %d), %v", h, sOut, 2*h-1, mid, port, 2*h-2, err)
		}
	}
}

// TestQCNReactions: QCN-Switch paper Figs. 10 and 12 (§5.2, §5.3.1) at h=4,
// load 0.4, one seed, the experiments qcn-fig12 and qcn-fig10b (10,000
// cycles of UN or 20,000 of ADV+1, the switch 2,000 cycles later, 10,000
// cycles, 200 µs, recorded after it; the paper records 2.4 ms):
//   - target 10: the reaction to UN→ADV+1 is faster with more CNMs:
//     (CPC, %CNMs) = (25, 80) before (100, 30) before (100, 10) (paper: about
//     0.1, 0.4 and 1 ms), by the mean latency of the packets generated in
//     the 20-µs bins after the switch that every record keeps (the slowest
//     settle beyond the 200-µs record; at least 2 bins);
//   - target 12: ADV+1→UN's latency settles much faster than UN→ADV+1's
//     (paper: under 5 µs against 0.4 ms): within the first 20-µs bin, and
//     not before the fifth (100 µs);
//   - target 13: with the default rate the probability of a mid-group
//     router's port toward S_out (Fig. 12b) stays below 10% on time average
//     from 20 µs after the UN→ADV+1 switch to the end of the run (the paper
//     has it for every rate: at h=4 the 0.1% rate averages about 22%).
//
// Measured (cycles of 20 ns): mean latency over the first two bins after
// the switch 5,464 (0.1%), 3,031 (0.3%), 999 (3.2%); 3.2% settles at 5,000
// (100 µs), 0.3% not within the record (3,628 → 839 over its ten bins);
// ADV+1→UN at once (162 → 105 → 97 … 95), misrouting 95.3% → 16.4% →
// 15.8%; P toward S_out 21.9%, 5.7%, 2.6%.
func TestQCNReactions(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4: three runs of 22,000 cycles and one of 32,000")
	}
	oc := qcnRun(t, "qcn-fig12", nil, nil)
	back := qcnRun(t, "qcn-fig10b", func(c config.Config) bool { return c.Routing.Name == "QCN_SWITCH" }, nil)
	if len(oc.Transients) != 3 || len(back.Transients) != 1 {
		t.Fatalf("%d and %d transient records", len(oc.Transients), len(back.Transients))
	}
	var qs []QCNReaction
	var un2adv QCNReaction
	for i, tr := range oc.Transients {
		q := NewQCNReaction(tr)
		qs = append(qs, q)
		from, every, p := SOutProbability(oc.Runs[i])
		var sum float64
		var n int
		for k, v := range p {
			if from+k*every >= QCNBin {
				sum += v
				n++
			}
		}
		mean := sum / float64(n)
		t.Logf("%s: latency before %.0f, bins %.0f, settled %.1f at %v cycles, excess %.3f; misrouted %.1f%% → %.1f%%, settles at %v; P toward S_out mean %.1f%% (%d snapshots); %v",
			tr.Name, q.Latency[0], q.Latency[1:], q.LatencySettled, settleText(q.LatencySettle), q.LatencyExcess, q.Before, q.Settled, settleText(q.Settle), mean, n, oc.Runs[i].Mechanisms["qcn"])
		if rc := oc.Runs[i].Config.Routing; rc.QcnCPC == 100 && rc.QcnCnmPercent == 30 {
			un2adv = q
			if n == 0 || mean >= 10 {
				t.Errorf("%s: the port toward S_out's probability averages %.1f%% over %d snapshots after the switch (target 13: < 10%%)", tr.Name, mean, n)
			}
		}
	}
	// the reaction's cost: the mean latency of the packets generated after
	// the switch, over the 20-µs bins every record keeps
	common := math.MaxInt
	for _, q := range qs {
		common = min(common, len(q.Packets)-1)
	}
	var cost [3]float64
	for i, q := range qs {
		var n, l float64
		for k := 1; k <= common; k++ {
			n += float64(q.Packets[k])
			l += float64(q.Packets[k]) * q.Latency[k]
		}
		cost[i] = l / n
	}
	t.Logf("mean latency over the first %d bins after UN→ADV+1: %.0f (0.1%% CNMs), %.0f (0.3%%), %.0f (3.2%%)", common, cost[0], cost[1], cost[2])
	if common < 2 || !(cost[2] < cost[1] && cost[1] < cost[0]) {
		t.Errorf("mean latency over the first %d bins after UN→ADV+1: %.0f (0.1%% CNMs), %.0f (0.3%%), %.0f (3.2%%): want at least 2 bins and strictly falling (target 10)", common, cost[0], cost[1], cost[2])
	}
	b := NewQCNReaction(back.Transients[0])
	t.Logf("ADV+1→UN: latency bins %.0f, settled %.1f at %v; misrouted %.1f%% → %.1f%% (first bin %.1f%%, last %.1f%%)",
		b.Latency, b.LatencySettled, settleText(b.LatencySettle), b.Before, b.Settled, b.Misrouted[1], b.Misrouted[len(b.Misrouted)-1])
	if settleText(b.LatencySettle) > 0 || settleText(un2adv.LatencySettle) < 5*QCNBin {
		t.Errorf("ADV+1→UN settles at %v cycles, UN→ADV+1 at %v: want the first within the first 20-µs bin and the second not before the fifth (target 12)",
			settleText(b.LatencySettle), settleText(un2adv.LatencySettle))
	}
}

// qcnAccepted is each series' accepted load per offered load of a sweep.
func qcnAccepted(oc *Outcome) map[string]map[float64]float64 {
	out := map[string]map[float64]float64{}
	for _, p := range oc.Points {
		name := oc.Spec.Series[p.Series].Name
		if out[name] == nil {
			out[name] = map[float64]float64{}
		}
		out[name][p.Offered] = p.Accepted.Mean
	}
	return out
}

// TestQCNHotRegion: QCN-Switch paper Fig. 18a (target 14): under the hot
// region (25% of the traffic to 12.5% of the nodes, endpoints saturating at
// offered ≈ 0.36) QCN-Switch with feedback comparison loses more of its
// peak throughput at 1.0 than PB and VAL (paper: about 18% against 1–2%;
// tolerance 10–25% and < 5%), the peak being the most accepted at 0.4 (just
// past the endpoints' limit) and 1.0. h=4, qcn-fig18-hot's configurations
// (10,000 + 5,000 cycles), one seed; six runs (the experiment's 0.6 point
// and its QCN-Switch without feedback comparison are not needed for the
// claim). Measured: QCN-Switch 0.345 at 0.4, 0.304 at 1.0 (11.9% below its
// peak); PB 0.372 and 0.452, VAL 0.218 and 0.370 peak at 1.0 (no drop: the
// paper's 1–2% is not resolved in these short runs).
func TestQCNHotRegion(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4: six runs of 15,000 cycles")
	}
	oc := qcnRun(t, "qcn-fig18-hot", func(c config.Config) bool {
		return c.Name == "QCN-Switch" || c.Name == "PB" || c.Name == "VAL"
	}, []float64{0.4, 1})
	drop := map[string]float64{}
	for name, acc := range qcnAccepted(oc) {
		peak := math.Max(acc[0.4], acc[1])
		drop[name] = 1 - acc[1]/peak
		t.Logf("%s: accepted %.3f, %.3f at 0.4, 1.0: %.1f%% below its peak", name, acc[0.4], acc[1], 100*drop[name])
	}
	q := drop["QCN-Switch"]
	if len(drop) != 3 || !(q > drop["PB"] && q > drop["VAL"]) || q < 0.10 || q > 0.25 || drop["PB"] >= 0.05 || drop["VAL"] >= 0.05 {
		t.Errorf("drop past the peak: QCN-Switch %.3f, PB %.3f, VAL %.3f (target 14: QCN-Switch's the largest and 10–25%%, PB's and VAL's < 5%%)", q, drop["PB"], drop["VAL"])
	}
}

// TestQCNAdversarialLatency: QCN-Switch paper Fig. 8b (target 4): under
// ADV+1 below saturation QCN-Switch (output sampling, feedback comparison)
// has lower latency than PB and VAL, because its non-minimal path skips the
// intermediate group's local hop (g l g l against l g l l g l). h=4,
// qcn-fig8-adv1's configurations (20,000 + 5,000 cycles) at 0.1, 0.2 and
// 0.3, one seed. Measured at 0.1 / 0.2 / 0.3: QCN-Switch 96.7 / 101.4 /
// 115.4 cycles, PB 140.2 / 152.4 / 172.8, VAL 129.8 / 141.6 / 164.3.
func TestQCNAdversarialLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4: nine runs of 25,000 cycles")
	}
	oc := qcnRun(t, "qcn-fig8-adv1", func(c config.Config) bool {
		return c.Name == "QCN-SWout+FbC" || c.Name == "PB" || c.Name == "VAL"
	}, []float64{0.1, 0.2, 0.3})
	lat := map[string]map[float64]float64{}
	for _, p := range oc.Points {
		name := oc.Spec.Series[p.Series].Name
		if lat[name] == nil {
			lat[name] = map[float64]float64{}
		}
		lat[name][p.Offered] = p.Latency.Mean
	}
	for _, load := range []float64{0.1, 0.2, 0.3} {
		q, pb, val := lat["QCN-SWout+FbC"][load], lat["PB"][load], lat["VAL"][load]
		t.Logf("ADV+1 %.1f: latency QCN-Switch %.1f, PB %.1f, VAL %.1f", load, q, pb, val)
		if !(q > 0 && q < pb && q < val) {
			t.Errorf("ADV+1 %.1f: QCN-Switch latency %.1f, PB %.1f, VAL %.1f (target 4: QCN-Switch's the lowest)", load, q, pb, val)
		}
	}
}

// TestQCNInputSamplingUniform: QCN-Switch paper Fig. 6a (target 6) and
// Fig. 16a (target 16's UN half) under UN at 1.0, past saturation: input
// sampling without feedback comparison (QCN-SWin) misroutes on spurious
// CNMs and its throughput "takes a nosedive" below MIN's, which feedback
// comparison (QCN-SWin+FbC) recovers; and with output sampling and feedback
// comparison, Th2 = 0 accepts less than the default Th2 = 30 (target 6's
// tolerance: the ordering). h=4, qcn-fig6-un's and qcn-fig16-un's
// configurations (10,000 + 5,000 cycles), one seed. Measured: MIN 0.841,
// QCN-SWin 0.562, QCN-SWin+FbC 0.703 (16% below MIN: more than the paper's
// "slight drop", since Q_eq is Table I's 20 KB of one queue); Th2 = 0
// 0.642, Th2 = 30 0.763.
func TestQCNInputSamplingUniform(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4: five runs of 15,000 cycles at UN 1.0 (about a minute)")
	}
	acc := qcnAccepted(qcnRun(t, "qcn-fig6-un", func(c config.Config) bool {
		return c.Name == "MIN" || c.Name == "QCN-SWin" || c.Name == "QCN-SWin+FbC"
	}, []float64{1}))
	mn, in, fbc := acc["MIN"][1], acc["QCN-SWin"][1], acc["QCN-SWin+FbC"][1]
	t.Logf("UN 1.0 accepted: MIN %.3f, QCN-SWin %.3f, QCN-SWin+FbC %.3f", mn, in, fbc)
	if !(in < 0.9*mn && in < 0.95*fbc && fbc < mn) {
		t.Errorf("UN 1.0 accepted: MIN %.3f, QCN-SWin %.3f, QCN-SWin+FbC %.3f (target 6: QCN-SWin ≥ 10%% below MIN and ≥ 5%% below QCN-SWin+FbC, which stays below MIN)", mn, in, fbc)
	}
	th := qcnAccepted(qcnRun(t, "qcn-fig16-un", func(c config.Config) bool {
		return c.Name == "Th2 0" || c.Name == "Th2 30"
	}, []float64{1}))
	z, d := th["Th2 0"][1], th["Th2 30"][1]
	t.Logf("UN 1.0 accepted: Th2 = 0 %.3f, Th2 = 30 %.3f", z, d)
	if !(z > 0 && z < 0.95*d) {
		t.Errorf("UN 1.0 accepted: Th2 = 0 %.3f, Th2 = 30 %.3f (target 16: Th2 = 0 ≥ 5%% below)", z, d)
	}
}

// TestQCNRandomPermutation: QCN-Switch paper Fig. 18b and §5.4 (target 15):
// under a random permutation QCN-Switch's maximum throughput is below PB's
// and below MIN's (tolerance: the ordering; asserted with a 5% margin) —
// each node's one destination loads a few minimal paths, their congestion
// points send CNMs, and the probabilities send whole flows the long way.
// qcn-fig18-perm's configurations (FOGSim's model, 20,000 + 5,000 cycles)
// at h=3 (342 nodes) instead of h=4, at offered 1.0, one seed: three
// saturated runs, 13 s of CPU with 0.6 as well. Measured (h=3) at 0.6 /
// 1.0: MIN 0.457 / 0.518, PB 0.545 / 0.537, QCN-Switch 0.388 / 0.397.
func TestQCNRandomPermutation(t *testing.T) {
	if testing.Short() {
		t.Skip("h=3: three saturated runs of 25,000 cycles")
	}
	oc := qcnSeriesRun(t, "qcn-fig18-perm", []float64{1}, func(c config.Config) []config.Config {
		if c.Name != "MIN" && c.Name != "PB" && c.Name != "QCN-Switch" {
			return nil
		}
		c.Topology.H, c.Topology.A, c.Topology.P = 3, 6, 3
		c.Sim.Seeds = 1
		return []config.Config{c}
	})
	acc := map[string]float64{}
	for name, a := range qcnAccepted(oc) {
		acc[name] = a[1]
	}
	t.Logf("PERM 1.0 accepted (h=3): MIN %.4f, PB %.4f, QCN-Switch %.4f", acc["MIN"], acc["PB"], acc["QCN-Switch"])
	if q := acc["QCN-Switch"]; len(acc) != 3 || !(q > 0 && q < 0.95*acc["MIN"] && q < 0.95*acc["PB"]) {
		t.Errorf("PERM 1.0 accepted: QCN-Switch %.4f, MIN %.4f, PB %.4f (target 15: QCN-Switch ≥ 5%% below both)", q, acc["MIN"], acc["PB"])
	}
}

// TestQCNFig18PermutationAsFOGSim: QCN-Switch paper Fig. 18b and §5.4
// (target 15) says MIN's and VAL's latency saturate at lower loads than
// QCN-Switch's under a random permutation. Neither phitsim nor the paper's
// own simulator, FOGSim v5 (dcdd75f: `Traffic=RANDOMPERMUTATION`,
// QCNSWOUTFBCOMP with MIN_COND; VAL as `routing=OBL
// GlobalMisroutingPolicy=RRG ValiantType=SRCEXC`), does so on the same
// system: QCN-Switch saturates between 0.3 and 0.4, VAL between 0.4 and
// 0.5 (engine/REPRODUCTION.md, "FOGSim v5 under the random permutation").
// This asserts what both share, with qcn-fig18-perm's configurations at
// h=3 (342 nodes), seed 1, QCN-Switch 20,000 + 5,000 cycles and VAL
// 10,000 + 5,000 (the FOGSim runs' cycles): at 0.3 QCN-Switch accepts the
// offered load at a latency below VAL's; at 0.4 VAL still accepts it while
// QCN-Switch accepts ≥ 3% less at ≥ 2× VAL's latency. FOGSim (its own
// permutation draw), accepted and latency: QCN-Switch 0.3748 at 0.4, 872
// cycles, 60% misrouted; VAL 0.4003, 216 cycles. phitsim (Sattolo's draw,
// seed 1): QCN-Switch 0.3020 (91.0 cycles) at 0.3, 0.3772 (708) at 0.4;
// VAL 0.2995 (159) and 0.4003 (218). Why: the paper's non-minimal path is a
// rule pre-computed per injection port (§3.1.1; FOGSim's CRG, phitsim's
// routing.qcnNonMinimal=ownGlobal), so under a permutation each flow has
// one fixed detour and the misrouted traffic stays on as few paths as the
// minimal one; with a random intermediate group per packet
// (randomGroup, phitsim only: FOGSim's MIN_COND accepts only CRG)
// QCN-Switch accepts 0.3993 at 0.4 at 133.8 cycles, below VAL's latency —
// the paper's ordering, asserted too.
func TestQCNFig18PermutationAsFOGSim(t *testing.T) {
	oc := qcnSeriesRun(t, "qcn-fig18-perm", []float64{0.3, 0.4}, func(c config.Config) []config.Config {
		if c.Name != "VAL" && c.Name != "QCN-Switch" {
			return nil
		}
		c.Topology.H, c.Topology.A, c.Topology.P = 3, 6, 3
		c.Sim.Seeds = 1
		if c.Name == "VAL" {
			c.Sim.Warmup = 10000
			return []config.Config{c}
		}
		r := c
		r.Name, r.Routing.QcnNonMinimal = "QCN-Switch random group", "randomGroup"
		return []config.Config{c, r}
	})
	acc, lat := map[string]map[float64]float64{}, map[string]map[float64]float64{}
	for _, p := range oc.Points {
		name := oc.Spec.Series[p.Series].Name
		if acc[name] == nil {
			acc[name], lat[name] = map[float64]float64{}, map[float64]float64{}
		}
		acc[name][p.Offered], lat[name][p.Offered] = p.Accepted.Mean, p.Latency.Mean
		t.Logf("%s at %.1f: accepted %.4f, latency %.1f, misrouted %.3f", name, p.Offered, p.Accepted.Mean, p.Latency.Mean, p.Misrouted.Mean)
	}
	q, v := "QCN-Switch", "VAL"
	if len(oc.Points) != 6 {
		t.Fatalf("%d points, want 6", len(oc.Points))
	}
	if !(acc[q][0.3] >= 0.99*0.3 && lat[q][0.3] < lat[v][0.3]) {
		t.Errorf("PERM 0.3: QCN-Switch accepted %.4f at %.1f cycles, VAL %.1f (want the offered load, below VAL's latency)", acc[q][0.3], lat[q][0.3], lat[v][0.3])
	}
	if !(acc[v][0.4] >= 0.99*0.4 && acc[q][0.4] <= 0.97*0.4 && lat[q][0.4] >= 2*lat[v][0.4]) {
		t.Errorf("PERM 0.4: QCN-Switch accepted %.4f at %.1f cycles, VAL %.4f at %.1f (FOGSim: 0.3748 at 872, VAL 0.4003 at 216; want VAL unsaturated, QCN-Switch ≥ 3%% short at ≥ 2× VAL's latency)",
			acc[q][0.4], lat[q][0.4], acc[v][0.4], lat[v][0.4])
	}
	if g := "QCN-Switch random group"; !(acc[g][0.4] >= 0.99*0.4 && lat[g][0.4] < lat[v][0.4]) {
		t.Errorf("PERM 0.4: QCN-Switch with a random intermediate group accepted %.4f at %.1f cycles, VAL %.1f (want the offered load, below VAL's latency)", acc[g][0.4], lat[g][0.4], lat[v][0.4])
	}
}

// TestQCNCnmRateUniform: QCN-Switch paper Fig. 11a and §5.3.1 (target 18's
// UN half): past UN saturation the most aggressive CNM rate, CPC 25 with
// 80% of the congested samples sending a CNM (3.2% of the packets), has the
// highest latency of the three rates (0.1%, Table I's 0.3%, 3.2%): its
// spurious CNMs divert more traffic to the longer path. qcn-fig11-un's
// configurations (FOGSim's model, 10,000 + 5,000 cycles) at h=3 (342
// nodes) instead of h=4, offered 1.0, one seed. Measured at h=4 (the
// experiment): 2,080 / 2,278 / 3,375 cycles, misrouted 28.6% / 34.6% /
// 41.5%.
func TestQCNCnmRateUniform(t *testing.T) {
	if testing.Short() {
		t.Skip("h=3: three saturated runs of 15,000 cycles")
	}
	e, err := ExperimentByName("qcn-fig11-un")
	if err != nil {
		t.Fatal(err)
	}
	sp := e.Spec
	sp.Series = append([]config.Config(nil), sp.Series...)
	for i := range sp.Series {
		c := &sp.Series[i]
		c.Topology.H, c.Topology.A, c.Topology.P = 3, 6, 3
		c.Sim.Seeds = 1
	}
	sp.Loads = []float64{1}
	oc, err := Run(context.Background(), sp, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	lat := map[float64]float64{} // by %CNMs per packet
	for _, p := range oc.Points {
		rc := oc.Spec.Series[p.Series].Routing
		rate := rc.QcnCnmPercent / float64(rc.QcnCPC)
		lat[rate] = p.Latency.Mean
		t.Logf("%s: latency %.1f, accepted %.4f, misrouted %.3f", oc.Spec.Series[p.Series].Name, p.Latency.Mean, p.Accepted.Mean, p.Misrouted.Mean)
	}
	l1, l3, l32 := lat[0.1], lat[0.3], lat[3.2]
	if len(lat) != 3 || !(l32 > 1.1*l3 && l32 > 1.1*l1) {
		t.Errorf("UN 1.0 latency: 0.1%% %.1f, 0.3%% %.1f, 3.2%% %.1f (target 18: 3.2%% the highest, by ≥ 10%%)", l1, l3, l32)
	}
}

// TestQCNPaperSizeExperiments: every figure of the QCN-Switch paper with an
// h=4 experiment (Figs. 6–16 and 18; Fig. 17 sweeps the size itself) has
// an -h6 entry on the paper's 5,256-node system (Table I, h=6) with its
// run (2.4 + 2.4 ms, 10 seeds; the transients 2 seeds), the same series
// (routing, router, traffic pattern) and the same loads (ADV+1 in steps
// of 0.1), so that the h=6 column of engine/REPRODUCTION.md can be rerun.
func TestQCNPaperSizeExperiments(t *testing.T) {
	h6p, err := config.PresetByName("ethernet-h6")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range Experiments() {
		if len(e.Name) < 4 || e.Name[:4] != "qcn-" || e.Name[len(e.Name)-3:] == "-h6" || e.Name[:9] == "qcn-fig17" {
			continue
		}
		h6, err := ExperimentByName(e.Name + "-h6")
		if err != nil {
			t.Errorf("%s has no -h6 entry", e.Name)
			continue
		}
		n++
		if len(h6.Spec.Series) != len(e.Spec.Series) || h6.Table != e.Table {
			t.Errorf("%s-h6: %d series (h=4: %d), table %v", e.Name, len(h6.Spec.Series), len(e.Spec.Series), h6.Table)
			continue
		}
		transient := e.Spec.Series[0].Traffic.SwitchCycle > 0
		for i, c := range h6.Spec.Series {
			c4 := e.Spec.Series[i]
			sz, _ := c.Topology.Sizes()
			seeds, warmup, cycles := h6p.Sim.Seeds, h6p.Sim.Warmup, h6p.Sim.Cycles
			if transient {
				seeds, cycles = 2, c4.Sim.Cycles
			}
			if sz.Nodes != 5256 || c.Name != c4.Name || c.Routing != c4.Routing || c.Router != c4.Router ||
				c.Traffic.Pattern != c4.Traffic.Pattern || c.Traffic.SwitchCycle != c4.Traffic.SwitchCycle ||
				c.Traffic.SwitchPattern != c4.Traffic.SwitchPattern || c.Traffic.Load != c4.Traffic.Load ||
				c.Sim.Seeds != seeds || c.Sim.Warmup != warmup || c.Sim.Cycles != cycles {
				t.Errorf("%s-h6 series %d: %s on %d nodes, %s, sim %+v; h=4: %s, %s", e.Name, i, c.Name, sz.Nodes,
					c.Traffic.Pattern, c.Sim, c4.Name, c4.Traffic.Pattern)
			}
		}
		ls, ls4 := h6.Spec.Loads, e.Spec.Loads
		if e.Spec.Series[0].Traffic.Pattern == "ADV" && !transient && len(ls4) > 1 {
			ls4 = loads(0.1, 0.5, 0.1)
		}
		if len(ls) != len(ls4) {
			t.Errorf("%s-h6: loads %v, h=4 %v", e.Name, ls, e.Spec.Loads)
			continue
		}
		for i := range ls {
			if math.Abs(ls[i]-ls4[i]) > 1e-9 {
				t.Errorf("%s-h6: loads %v, h=4 %v", e.Name, ls, e.Spec.Loads)
				break
			}
		}
	}
	if n < 19 {
		t.Errorf("%d figures with an -h6 entry, want the 19 h=4 experiments", n)
	}
}

// TestQCNTh2ResidualMinimal: QCN-Switch paper Fig. 16b and §5.3.4 (target
// 16's ADV+1 half: "a very high Th2 (50) loses throughput"). Feedback
// comparison cuts a port only for a CNM whose |Fb| exceeds the mean
// feedback over the router's transit ports by Th2; |Fb| saturates at 63, so
// with Th2 = 50 the CNMs of the port toward S_out (ADV+1's bottleneck) cut
// it only while that mean is below 13, and it keeps a residual minimal
// probability, where Th2 = 30 drives it to about 0. That residual share of
// each of group 0's a·p nodes' traffic goes to the one minimal global link
// toward group 1: the residual is of the same order at every size while the
// nodes sending it grow with the group (a·p = 8 at h=2, 32 at h=4, 72 at
// h=6), the likely reason why only the paper's size loses throughput (engine/REPRODUCTION.md target 16: at h=6, ADV+1 0.5, Th2 = 50
// accepts 0.461 against 30's 0.490; at h=4 0.504 both). Measured with
// qcn-fig16-adv1's configurations (FOGSim's model) at h=2 a=4 p=2, ADV+1
// 0.5, 10,000 + 5,000 cycles, seed 1: the mean probability of group 0's
// other routers' local port toward S_out over the measured window (one
// snapshot per 1,000 cycles): 10.0% with Th2 = 50, 1.6% with 30 (accepted
// 0.521 and 0.518). At h=3 / 4 / 5 / 6 (20,000 + 5,000 cycles; every
// router's port on the minimal path to group 1): 4.3 / 4.5 / 4.0 / 3.6%
// with Th2 = 50 against 0.2 / 0.1 / 0.0 / 0.0% with 30, while Th2 = 50's
// accepted load against 30's goes +1.8 / 0.0 / −3.2 / −5.9%. About 2 s of
// CPU.
func TestQCNTh2ResidualMinimal(t *testing.T) {
	oc := qcnTh2Runs(t, 2, 4, 2, 10000)
	residual := map[float64]float64{} // by Th2
	for _, r := range oc.Runs {
		c := r.Config
		d, err := topology.NewDragonfly(c.Topology.H, c.Topology.A, c.Topology.P, c.Topology.Arrangement)
		if err != nil {
			t.Fatal(err)
		}
		sOut, _, _, _ := SOut(c)
		pp := r.SeriesProbabilities
		if pp == nil {
			t.Fatalf("%s: no probability trace", c.Name)
		}
		var sum float64
		var n int
		for k, v := range pp.Values {
			if pp.From+k*pp.Every <= c.Sim.Warmup {
				continue
			}
			for rt := 0; rt < d.A; rt++ {
				if rt != sOut {
					sum, n = sum+float64(v[rt*pp.Ports+d.LocalPort(rt, sOut)-d.P]), n+1
				}
			}
		}
		if n == 0 {
			t.Fatalf("%s: no snapshot in the measured window", c.Name)
		}
		residual[c.Routing.QcnTh2] = sum / float64(n)
		t.Logf("%s: P toward S_out %.2f%% (mean of %d), accepted %.4f", c.Name, sum/float64(n), n, r.Accepted)
	}
	p30, p50 := residual[30], residual[50]
	if len(residual) != 2 || !(p50 >= 3 && p50 >= 3*p30) {
		t.Errorf("ADV+1 0.5, h=2: P toward S_out Th2 = 30 %.2f%%, Th2 = 50 %.2f%% (target 16: Th2 = 50 keeps ≥ 3%%, ≥ 3× Th2 = 30's)", p30, p50)
	}
}

// TestQCNFig16Th2AsFOGSim: QCN-Switch paper Fig. 16b and §5.3.4 (target
// 16's ADV+1 half) says a very high Th2 (50) loses ADV throughput. On the
// same h=3 system (342 nodes) neither phitsim nor the paper's own simulator,
// FOGSim v5 (dcdd75f, QCNSWOUTFBCOMP with `QCNThreshold2`), shows that loss:
// both accept more with Th2 = 50 than with 30 under ADV+1 at 0.5 and
// misroute less (engine/REPRODUCTION.md, "FOGSim v5 under the random
// permutation and Th2 = 50"): the minimal probability toward S_out that
// Th2 = 50 leaves (TestQCNTh2ResidualMinimal) uses the one minimal global
// link's spare capacity while a group of a·p = 18 nodes sends it; only at
// the paper's size (a·p = 72) does it overload that link (Th2 = 50 accepts
// 5.9% less at h=6). qcn-fig16-adv1's Th2 = 30 and 50 at h=3, 20,000 +
// 5,000 cycles, seed 1 (the FOGSim runs' cycles). FOGSim: accepted 0.4937
// (30) and 0.5108 (50), +3.5%, misrouted 98.8% and 94.3% (its count
// includes S_out's node h−1; seed 2: 0.4924 and 0.5104, +3.7%); phitsim 0.5042 and 0.5134, +1.8% (seeds 2
// and 3: +1.4%, +1.7%), misrouted 91.2% and 89.5%. Asserted: Th2 = 50
// accepts ≥ 0.5% more and misroutes less. (At 0.3 the latency is the
// same for both in both: FOGSim 107.8 and 107.8 cycles, phitsim 107.7 and
// 107.5; not asserted.)
func TestQCNFig16Th2AsFOGSim(t *testing.T) {
	oc := qcnTh2Runs(t, 3, 6, 3, 20000)
	acc, mis := map[float64]float64{}, map[float64]float64{} // by Th2
	for _, p := range oc.Points {
		c := oc.Spec.Series[p.Series]
		acc[c.Routing.QcnTh2], mis[c.Routing.QcnTh2] = p.Accepted.Mean, p.Misrouted.Mean
		t.Logf("%s, ADV+1 %.1f: accepted %.4f, latency %.1f, misrouted %.3f", c.Name, p.Offered, p.Accepted.Mean, p.Latency.Mean, p.Misrouted.Mean)
	}
	if len(acc) != 2 || !(acc[50] >= 1.005*acc[30] && mis[50] < mis[30]) {
		t.Errorf("ADV+1 0.5, h=3: Th2 = 30 accepted %.4f (misrouted %.3f), Th2 = 50 %.4f (%.3f) (FOGSim: 0.4937 and 0.5108; want Th2 = 50 ≥ 0.5%% more, misrouting less)",
			acc[30], mis[30], acc[50], mis[50])
	}
}

// qcnTh2Runs runs qcn-fig16-adv1's Th2 = 30 and Th2 = 50 series under
// ADV+1 at 0.5 on the Dragonfly h, a, p: warmup + 5,000 cycles, seed 1.
func qcnTh2Runs(t *testing.T, h, a, p, warmup int) *Outcome {
	t.Helper()
	return qcnSeriesRun(t, "qcn-fig16-adv1", []float64{0.5}, func(c config.Config) []config.Config {
		if c.Routing.QcnTh2 != 30 && c.Routing.QcnTh2 != 50 {
			return nil
		}
		c.Topology.H, c.Topology.A, c.Topology.P = h, a, p
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = warmup, 5000, 1
		return []config.Config{c}
	})
}

// qcnSeriesRun runs an experiment's series as pick rewrites them (none,
// one, or several configurations for each) at the given loads.
func qcnSeriesRun(t *testing.T, experiment string, loads []float64, pick func(config.Config) []config.Config) *Outcome {
	t.Helper()
	e, err := ExperimentByName(experiment)
	if err != nil {
		t.Fatal(err)
	}
	sp := e.Spec
	var ss []config.Config
	for _, c := range sp.Series {
		ss = append(ss, pick(c)...)
	}
	sp.Series, sp.Loads = ss, loads
	oc, err := Run(context.Background(), sp, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return oc
}
