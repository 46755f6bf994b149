package sim

import (
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// qcnConfig is the QCN-Switch paper's Table I system with 100-byte phits
// (40 Gb/s ⇒ a 20 ns cycle): 1 KB packets of 10 phits, switch latency 200 ns
// = 10 cycles, local links 40 ns = 2 cycles, global 400 ns = 20 cycles,
// transit buffers 100 KB = 1000 phits (input per VC and output FIFO),
// injection 200 KB = 2000 phits, speedup 2, on a balanced Dragonfly of size
// h with routing.name=QCN_SWITCH and the paper's defaults (output sampling,
// feedback comparison).
func qcnConfig(h, warmup, cycles int) config.Config {
	c := btConfig(h, warmup, cycles)
	c.Router.PacketSize, c.Router.XbarLatency, c.Router.Speedup = 10, 10, 2
	c.Topology.LocalLatency, c.Topology.GlobalLatency = 2, 20
	c.Router.LocalBuffer, c.Router.GlobalBuffer, c.Router.OutputBuffer = 1000, 1000, 1000
	c.Router.InjectionBuffer = 2000
	c.Routing.Name = "QCN_SWITCH"
	c.Sim.HistMax = 20000
	return c
}

// qcnUnit is a QCN-Switch state on the paper's default router (h=6: p=6,
// 17 transit ports, radix 23) without a network, for the formula tests.
func qcnUnit(edit func(*config.Routing)) (*Sim, *qcn) {
	rc := config.Default().Routing
	if edit != nil {
		edit(&rc)
	}
	s := &Sim{radix: 23, p: 6}
	m := &qcn{q: rc.QCN(), tp0: 6, nt: 17}
	m.prob, m.sent, m.lastFb = make([]float64, 23), make([]int32, 23), make([]uint8, 23)
	for i := range m.prob {
		m.prob[i] = 100
	}
	return s, m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestQCNFeedbackQuantisation: QCN-Switch paper §2 and Table I (Q_eq 20% of
// a 100-packet buffer, w = 0): |Fb| = ⌊63·(Q − Q_eq)/Q_eq⌋ saturating at
// Q = 2·Q_eq, 0 (no CNM) at or below Q_eq; with w, over (1 + 2w)·Q_eq.
func TestQCNFeedbackQuantisation(t *testing.T) {
	const qeq = 200 // 20 packets of 10 phits
	for _, c := range []struct {
		q, old int32
		w      float64
		want   uint8
	}{
		{300, 0, 0, 31}, // a hand check: Q = 30 packets → 31
		{400, 0, 0, 63}, {1000, 0, 0, 63}, {200, 0, 0, 0}, {201, 0, 0, 0}, {100, 0, 0, 0},
		{399, 0, 0, 62},
		{300, 200, 2, 63 * 300 / 1000}, // Q_off 100 + 2·Q_δ 100 over 5·Q_eq
		{300, 400, 2, 0},               // draining: Q_off − 2·200 < 0
	} {
		if got := feedback(c.q, c.old, qeq, c.w); got != c.want {
			t.Errorf("Q=%d Qold=%d w=%g: |Fb| = %d, want %d", c.q, c.old, c.w, got, c.want)
		}
	}
}

// TestQCNProbabilityUpdate: the worked checks of QCN-Switch paper §3.1.2
// (R = 1 − Lf·|Fb|), §5.3.2 (the Lf sweep's largest cuts ≈ 0.25, 0.5,
// 0.75, 1) and §3.3 (feedback comparison on 17 transit ports, the mean
// taken after the port's last feedback is updated).
func TestQCNProbabilityUpdate(t *testing.T) {
	off := func(rc *config.Routing) { rc.QcnFbComparison = "off" }
	s, m := qcnUnit(off)
	m.process(s, 0, 6, 60)
	if !near(m.prob[6], 6.25) {
		t.Errorf("base, P=100, Fb=60: P = %g, want 6.25", m.prob[6])
	}
	for _, c := range []struct{ lf, cut float64 }{{1.0 / 256, 0.246}, {1.0 / 128, 0.492}, {1.0 / 85, 0.741}, {1.0 / 64, 0.984}} {
		s, m := qcnUnit(func(rc *config.Routing) { off(rc); rc.QcnLf = c.lf })
		m.process(s, 0, 7, 63)
		if cut := 1 - m.prob[7]/100; math.Abs(cut-c.cut) > 0.0005 {
			t.Errorf("Lf=%g, Fb=63: cut %.4f, want %.3f", c.lf, cut, c.cut)
		}
	}
	// feedback comparison, ADV-like: only this port has a feedback
	s, m = qcnUnit(nil)
	m.process(s, 0, 22, 60)
	avg := 60.0 / 17
	if want := 100 * (1 - (60-avg)/64); !near(m.prob[22], want) || math.Abs(m.prob[22]-11.8) > 0.05 {
		t.Errorf("FbC ADV-like: P = %g, want %g (≈ 11.8)", m.prob[22], want)
	}
	// UN-like: every port's last feedback 45; 60 is inside the band
	s, m = qcnUnit(nil)
	for pt := 6; pt < 23; pt++ {
		m.lastFb[pt] = 45
	}
	m.process(s, 0, 9, 60)
	if m.prob[9] != 100 || m.lastFb[9] != 60 {
		t.Errorf("FbC UN-like: P = %g (want 100, unchanged), last Fb %d", m.prob[9], m.lastFb[9])
	}
	// a low feedback raises by PI
	m.prob[10] = 50
	m.process(s, 0, 10, 10)
	if m.prob[10] != 51 {
		t.Errorf("FbC low Fb: P = %g, want 51", m.prob[10])
	}
	// Th2 = −1 is a band of 0: the UN-like CNM now cuts
	s, m = qcnUnit(func(rc *config.Routing) { rc.QcnTh2 = -1 })
	for pt := 6; pt < 23; pt++ {
		m.lastFb[pt] = 45
	}
	m.process(s, 0, 9, 60)
	if avg := (16*45 + 60) / 17.0; !near(m.prob[9], 100*(1-(60-avg)/64)) {
		t.Errorf("Th2=0: P = %g, want %g", m.prob[9], 100*(1-(60-avg)/64))
	}
}

// TestQCNAdditiveIncrease: QCN-Switch paper §3.1.2, Table I (PC_l = 100,
// PI = 1): from P = 0 a port is back at 100 after 10,000 data packets cross
// to it with no CNM, one point per 100; a CNM restarts the count, and
// control packets do not count.
func TestQCNAdditiveIncrease(t *testing.T) {
	s, m := qcnUnit(func(rc *config.Routing) { rc.QcnSampling = "input" })
	s.pclass = make([]topology.PortClass, 23)
	for i := 6; i < 23; i++ {
		s.pclass[i] = topology.Local
	}
	grant := m.grant(s)
	m.prob[8] = 0
	for i := 1; i <= 10000; i++ {
		grant(0, 0, 8, 0, 0, 0)
		if i == 99 && m.prob[8] != 0 || i == 100 && m.prob[8] != 1 || i == 9999 && m.prob[8] != 99 {
			t.Fatalf("after %d packets P = %g", i, m.prob[8])
		}
	}
	if m.prob[8] != 100 {
		t.Errorf("after 10,000 packets P = %g, want 100", m.prob[8])
	}
	m.prob[8] = 50
	for i := 0; i < 99; i++ {
		grant(0, 0, 8, 0, 0, 0)
	}
	s.radix = 23
	m.process(s, 0, 8, 1) // a CNM (in the band: no change) restarts the count
	grant(0, 0, 8, 0, 0, 0)
	if m.prob[8] != 50 {
		t.Errorf("the 100th packet after a CNM counted from before it: P = %g", m.prob[8])
	}
	for i := 0; i < 99; i++ {
		grant(0, 0, 8, 0, 0, 0)
	}
	if m.prob[8] != 51 {
		t.Errorf("100 packets after the CNM: P = %g, want 51", m.prob[8])
	}
}

// qcnSim builds a QCN-Switch simulation of size h with no traffic of its
// own, and its mechanism.
func qcnSim(t *testing.T, h int, edit func(*config.Config)) (*Sim, *qcn) {
	t.Helper()
	c := qcnConfig(h, 0, 100000)
	c.Traffic.Load = 0
	if edit != nil {
		edit(&c)
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s, s.qc
}

// runUntilEmpty steps s until no packet is alive (at most n cycles).
func runUntilEmpty(t *testing.T, s *Sim, n int) {
	t.Helper()
	for i := 0; i < n && s.live > 0; i++ {
		s.Step()
	}
	if s.live > 0 {
		t.Fatalf("%d packets still alive after %d cycles", s.live, n)
	}
}

// TestQCNControlZeroLoadAndInterception (h=2, the scaled Table I system): a
// CNM sent by router 0's congestion point to a node of another group takes,
// on an empty network, exactly the latency of a data packet of router 0's
// first node to it (the same minimal path, its VCs the minimal sequence
// above the data VCs); the destination's router intercepts it and, without
// feedback comparison, multiplies the probability of the port it arrived by
// by 1 − Lf·|Fb| (QCN-Switch paper §3.1.2): its own minimal port toward
// router 0, and no other.
func TestQCNControlZeroLoadAndInterception(t *testing.T) {
	s, m := qcnSim(t, 2, func(c *config.Config) { c.Routing.QcnFbComparison = "off" })
	dst := s.N - 1
	dr := int(s.nodeAt[dst].router)
	var dataLat int64
	s.hk.eject = append(s.hk.eject, func(k int32, t int64) { dataLat = t - s.pk[k].gen + int64(s.P) })
	s.enqueue(s.newPacket(int(s.cc.src[0]), dst, s.now, 0), 0, s.now)
	runUntilEmpty(t, s, 10000)
	if k := s.sendFromRouter(m.id, 0, dst, 16); k < 0 {
		t.Fatal("the control injection input refused a CNM on an empty network")
	}
	runUntilEmpty(t, s, 10000)
	sent, delivered, lat := s.controlPackets(m.id)
	if sent != 1 || delivered != 1 || lat != float64(dataLat) || dataLat == 0 {
		t.Errorf("CNM: sent %d, delivered %d, latency %g; a data packet's zero-load latency %d", sent, delivered, lat, dataLat)
	}
	in := s.df.MinimalPort(dr, 0)
	for port := s.p; port < s.radix; port++ {
		want := 100.0
		if port == in {
			want = 100 * (1 - 16.0/64)
		}
		if got := m.prob[dr*s.radix+port]; !near(got, want) {
			t.Errorf("router %d port %d: P = %g, want %g", dr, port, got, want)
		}
	}
}

// TestQCNControlServedFirst (h=2): the priority class overtakes queued
// data at both allocator stages. Router 0's first node has three data
// packets queued ahead of a CNM in its injection input (the router's
// control injection input), all bound for one remote node and the input
// arbiter's pointer on the data VC: the CNM is delivered first. Then a data
// packet of the router's second node and a CNM compete for the same output
// with the output arbiter's pointer on the data: the CNM wins.
func TestQCNControlServedFirst(t *testing.T) {
	s, m := qcnSim(t, 2, nil)
	dst := s.N - 1
	var firstData int64 = -1
	s.hk.eject = append(s.hk.eject, func(k int32, t int64) {
		if firstData < 0 {
			firstData = t
		}
	})
	src := int(s.cc.src[0])
	for i := 0; i < 3; i++ {
		s.enqueue(s.newPacket(src, dst, s.now, 0), 0, s.now)
	}
	s.sendFromRouter(m.id, 0, dst, 1)
	runUntilEmpty(t, s, 10000)
	_, _, lat := s.controlPackets(m.id)
	if cnmAt := int64(lat) - int64(s.P); cnmAt >= firstData {
		t.Errorf("input stage: the CNM was consumed at cycle %d, the first data packet at %d", cnmAt, firstData)
	}
	// output stage: inputs 0 (the CNM) and 1 (data), pointer on input 1
	other := src + 1
	if s.nodeAt[other].router != 0 {
		t.Fatal("router 0 has one node")
	}
	firstData = -1
	start := s.now
	out := s.df.MinimalPort(0, int(s.nodeAt[dst].router))
	s.ports[out].outPtr = int8(s.nodeAt[other].pi)
	s.enqueue(s.newPacket(other, dst, s.now, 0), 0, s.now)
	s.sendFromRouter(m.id, 0, dst, 1)
	runUntilEmpty(t, s, 10000)
	_, _, lat2 := s.controlPackets(m.id)
	cnmAt := start + int64(2*lat2-lat) - int64(s.P) // the second CNM's consumption
	if cnmAt >= firstData {
		t.Errorf("output stage: the CNM was consumed at cycle %d, the data packet at %d", cnmAt, firstData)
	}
}

// TestQCNSamplingByArrivingPackets (h=2, UN at 0.6 for 6,000 cycles): a
// congestion point samples once every routing.qcnCPC data packets arriving
// in its buffer — into the transit output FIFO (output sampling) or the data
// VCs of the transit input (input sampling) — whatever the time between
// them (QCN-Switch paper §2, Table I; CNMs do not count).
func TestQCNSamplingByArrivingPackets(t *testing.T) {
	for _, sampling := range []string{"output", "input"} {
		c := qcnConfig(2, 0, 6000)
		c.Traffic.Load, c.Routing.QcnCPC, c.Routing.QcnSampling = 0.6, 7, sampling
		s, err := New(c, 3)
		if err != nil {
			t.Fatal(err)
		}
		m := s.qc
		count := make([]int64, len(s.ports))
		if sampling == "output" {
			s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) {
				if po := r*s.radix + out; s.pclass[po] != topology.Injection && !s.isControl(k) {
					count[po]++
				}
			})
		} else {
			s.hk.arrive = append(s.hk.arrive, func(pi, vc int, k int32) {
				if s.pclass[pi] != topology.Injection && !s.isCtlVC(s.pclass[pi], vc) {
					count[pi]++
				}
			})
		}
		for i := 0; i < 6000; i++ {
			s.Step()
		}
		var want, arrivals int64
		for _, n := range count {
			want += n / 7
			arrivals += n
		}
		if m.samples != want || arrivals < 1000 {
			t.Errorf("%s sampling: %d samples, want %d (⌊arrivals/7⌋ per buffer, %d arrivals)", sampling, m.samples, want, arrivals)
		}
	}
}

// TestQCNSelfNotification (h=2): an output congestion point whose victim
// was injected by its own router's nodes sends no CNM: the router processes
// it on the sampled output port (QCN-Switch paper §3.2.2); a victim of
// another router's node gets a CNM and leaves the probabilities alone.
func TestQCNSelfNotification(t *testing.T) {
	s, m := qcnSim(t, 2, func(c *config.Config) {
		c.Routing.QcnFbComparison, c.Routing.QcnCnmPercent = "off", 100
	})
	po := 0*s.radix + s.p // router 0's first transit port
	for i := int32(0); i < s.oCap; i++ {
		s.oRing[int32(po)*s.oCap+i] = 5000 // a full output FIFO: |Fb| = 63
	}
	own := s.newPacket(int(s.cc.src[0]), s.N-1, 0, 0)
	m.sample(s, 0, po, own)
	if want := 100 * (1 - 63.0/64); !near(m.prob[po], want) || m.selfCNMs != 1 {
		t.Errorf("own victim: P = %g (want %g), self CNMs %d", m.prob[po], want, m.selfCNMs)
	}
	if sent, _, _ := s.controlPackets(m.id); sent != 0 {
		t.Errorf("own victim: %d CNMs sent", sent)
	}
	other := s.newPacket(s.N-2, 0, 0, 0)
	m.sample(s, 0, po, other)
	if sent, _, _ := s.controlPackets(m.id); sent != 1 || m.selfCNMs != 1 {
		t.Errorf("another router's victim: %d CNMs sent, %d self", sent, m.selfCNMs)
	}
}

// TestQCNAdversarialMisroutes: QCN-Switch paper Fig. 8b and §5.2 (target:
// ADV+1 at load 0.4 misroutes 90–100% in steady state; QCN-Switch's ADV
// latency is below Valiant's, its non-minimal path having no local hop in
// the intermediate group). h=4 (1,056 nodes; h=6 is too slow for a test),
// the scaled Table I system, output sampling with feedback comparison,
// FOGSim's sampling clock (routing.qcnSamplingClock=fogsim; with the
// paper's packet count, 120,000 + 20,000 cycles accept 0.334 at a latency
// of 1,682 cycles: see engine/ROUTING.md, "QCN-Switch"), 40,000 cycles of
// warm-up (the probabilities start at 100%). Against VAL_GROUP on the same
// system.
func TestQCNAdversarialMisroutes(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4, 80,000 cycles of ADV+1 twice")
	}
	c := qcnConfig(4, 40000, 10000)
	c.Traffic.Pattern, c.Traffic.Load = "ADV", 0.4
	c.Routing.QcnClock = "fogsim"
	r := btSim(t, c, 1) // btRun's link check: the CNMs are on the links too
	c.Routing.Name = "VAL_GROUP"
	v := btRun(t, c, 1)
	t.Logf("QCN-Switch: accepted %.3f, latency %.1f, misrouted %.3f; VAL_GROUP: accepted %.3f, latency %.1f; %v",
		r.Accepted, r.Latency.Avg, r.Misrouted.Fraction, v.Accepted, v.Latency.Avg, r.Mechanisms["qcn"])
	if r.Misrouted.Fraction < 0.90 || r.Accepted < 0.98*0.4 {
		t.Errorf("QCN-Switch under ADV+1 at 0.4: misrouted %.3f (want ≥ 0.90), accepted %.3f (want ≥ 0.392)", r.Misrouted.Fraction, r.Accepted)
	}
	if r.Latency.Avg >= v.Latency.Avg {
		t.Errorf("QCN-Switch latency %.1f is not below VAL_GROUP's %.1f", r.Latency.Avg, v.Latency.Avg)
	}
	if q := r.Mechanisms["qcn"]; q["cnmDelivered"] < 1000 || q["cnmDropped"] != 0 {
		t.Errorf("CNMs: %v", q)
	}
}

// TestQCNUniformIsMinimal: QCN-Switch paper Fig. 8a (target: UN latency
// within 3% of MIN's at low and medium load). h=4, the scaled Table I
// system, UN at 0.3 and 0.6, 10,000 + 10,000 cycles.
func TestQCNUniformIsMinimal(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4, four runs")
	}
	for _, load := range []float64{0.3, 0.6} {
		c := qcnConfig(4, 10000, 10000)
		c.Traffic.Load = load
		r := btSim(t, c, 2)
		c.Routing.Name = "MIN"
		m := btRun(t, c, 2)
		t.Logf("UN %.1f: QCN-Switch latency %.2f (misrouted %.4f, %v), MIN %.2f", load, r.Latency.Avg, r.Misrouted.Fraction, r.Mechanisms["qcn"], m.Latency.Avg)
		if !btWithin(r.Latency.Avg, m.Latency.Avg, 0.03) || r.Accepted < 0.98*load {
			t.Errorf("UN %.1f: QCN-Switch latency %.2f, MIN %.2f (want within 3%%); accepted %.3f", load, r.Latency.Avg, m.Latency.Avg, r.Accepted)
		}
	}
}

// TestQCNTransientProbabilities: QCN-Switch paper Figs. 10a and 12b
// (targets: after a UN→ADV+1 switch at load 0.4 misrouting rises toward
// 90–100%; the minimal probability of a mid-group router's port toward
// S_out, the router of group 0 linked to group 1, falls below 10% and stays
// there as a sawtooth). h=4, the scaled Table I system, FOGSim's sampling
// clock, 10,000 cycles of UN warm-up, the switch 5,000 cycles into the
// measurement, 25,000 cycles of ADV+1; the result's transient record holds
// group 0's probabilities every sim.interval (1,000) cycles.
func TestQCNTransientProbabilities(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4, 40,000 cycles")
	}
	c := qcnConfig(4, 10000, 30000)
	c.Traffic.Load, c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 0.4, 5000, "ADV"
	c.Routing.QcnClock = "fogsim"
	s, r := btSimState(t, c, 1)
	pp := r.Transient.Probabilities
	if r.SeriesProbabilities != nil {
		t.Error("a transient run also has a steady trace")
	}
	if pp == nil || pp.Every != 1000 || pp.Ports != s.radix-s.p || len(pp.Values) != 30 || pp.From != -5000 {
		t.Fatalf("probability trace: every %d, %d ports, %d snapshots from %d", pp.Every, pp.Ports, len(pp.Values), pp.From)
	}
	sOut := s.groupSize - 1 // palm-tree: group 0's link to group 1 is its last router's last port
	if peer, _ := s.topo.Link(sOut, s.radix-1); s.df.GroupOf(peer) != 1 {
		t.Fatalf("router %d's last port does not reach group 1", sOut)
	}
	k := (s.groupSize/2)*pp.Ports + s.df.MinimalPort(s.groupSize/2, sOut) - s.p
	var before, after []float32
	for i, v := range pp.Values {
		switch at := pp.From + i*pp.Every; {
		case at < 0:
			before = append(before, v[k])
		case at >= 10000:
			after = append(after, v[k])
		}
	}
	mean := func(x []float32) float64 {
		var sum float64
		for _, v := range x {
			sum += float64(v)
		}
		return sum / float64(len(x))
	}
	tr := r.Transient
	var pk, mis int64
	first := -tr.From / tr.Bin
	for i := first + (len(tr.Packets)-first)/2; i < len(tr.Packets); i++ {
		pk += tr.Packets[i]
		mis += tr.Misrouted[i]
	}
	t.Logf("router %d's port toward S_out: mean P %.1f%% before the switch, %.1f%% from 10,000 cycles after (%d snapshots); misrouted %.3f in the second half after the switch; misrouting's T50 %v, T90 %v cycles",
		s.groupSize/2, mean(before), mean(after), len(after), float64(mis)/float64(pk), deref(tr.T50), deref(tr.T90))
	if len(before) == 0 || mean(before) < 99 || mean(after) >= 10 {
		t.Errorf("P before the switch %.1f%% (want ≈ 100), after %.1f%% (want < 10)", mean(before), mean(after))
	}
	if float64(mis) < 0.85*float64(pk) {
		t.Errorf("misrouted %d of %d packets after the switch (want ≥ 85%%)", mis, pk)
	}
}

// qcnSOutDeficit runs c (ADV+1 on a balanced Dragonfly) and returns how
// much less of its nodes' offered traffic the last router of group 0,
// S_out, injects than the group's other routers: 1 − (its packets
// generated / its generation attempts) / (the others' ratio), both after
// the warm-up. An attempt is lost when its node's injection queue is full;
// the ratio takes out the Bernoulli noise of the raw per-router counts
// (≈ 2.5% per router in 10,000 cycles at h=4, as large as the 5% tolerance).
func qcnSOutDeficit(t *testing.T, c config.Config) float64 {
	t.Helper()
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	tries := make([]int64, s.R)
	s.hk.gen = append(s.hk.gen, func(n int) int64 {
		if s.now >= s.W {
			tries[s.nodeAt[n].router]++
		}
		return 0 // never held
	})
	for i := 0; i < c.Sim.Warmup+c.Sim.Cycles; i++ {
		s.Step()
	}
	a := s.groupSize
	var gen, try int64
	for r := 0; r < a-1; r++ {
		gen, try = gen+s.st.perRouter[r], try+tries[r]
	}
	d := 1 - float64(s.st.perRouter[a-1])/float64(tries[a-1])/(float64(gen)/float64(try))
	t.Logf("%s sampling, source processing %v, feedback comparison %s, %s arbitration: group 0 generated %v of %v attempts; S_out %.1f%% below the others",
		c.Routing.QcnSampling, c.Routing.QcnSourceProcessing, c.Routing.QcnFbComparison, c.Router.OutputArbiter, s.st.perRouter[:a], tries[:a], 100*d)
	return d
}

// TestQCNInputSamplingUnfairness: QCN-Switch paper Figs. 7 and 9 (target 7:
// under ADV+1 at 0.4, with input sampling and no source processing the last
// router of group 0, S_out, injects ≥ 20% less than the others — its own
// nodes' packets wait in injection queues, which are not congestion points,
// so it never lowers its probabilities; with source processing, or with
// output sampling, the profile is flat, ≤ 5%). The paper's QCN-SWin and
// QCN-SWin+SP (no feedback comparison) and its final QCN-Switch (output
// sampling, feedback comparison). h=4, the scaled Table I system, FOGSim's
// sampling clock, 40,000 + 10,000 cycles, oldest-first arbitration at both
// stages (router.inputArbiter, outputArbiter = age): S_out's node whose own
// global port is the minimal one has no other rule (the paper's overlap
// footnote, FOGSim v5 minCond), and with input sampling the link out of
// S_out runs saturated (its local inputs must hold Q_eq to send CNMs), so
// round-robin gives that node one input's share of it: the deficit with
// source processing is then 17%, not flat. Measured (age): 71% without
// source processing, 0.1% with it, 0% with output sampling.
func TestQCNInputSamplingUnfairness(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4, three runs of 50,000 cycles")
	}
	deficit := func(sampling string, sp bool, fbc string) float64 {
		c := qcnConfig(4, 40000, 10000)
		c.Traffic.Pattern, c.Traffic.Load = "ADV", 0.4
		c.Routing.QcnClock, c.Routing.QcnSampling, c.Routing.QcnSourceProcessing = "fogsim", sampling, sp
		c.Routing.QcnFbComparison = fbc
		c.Router.InputArbiter, c.Router.OutputArbiter = "age", "age"
		return qcnSOutDeficit(t, c)
	}
	in, sp, out := deficit("input", false, "off"), deficit("input", true, "off"), deficit("output", false, "on")
	if in < 0.20 || sp > 0.05 || out > 0.05 {
		t.Errorf("S_out's deficit: input %.3f (want ≥ 0.20), with source processing %.3f, output %.3f (want ≤ 0.05)", in, sp, out)
	}
}

// TestQCNAdversarialSaturation: QCN-Switch paper Figs. 8b and 17 (target:
// QCN-Switch's saturation throughput under ADV+1 within 5% of Valiant's).
// h=4, the scaled Table I system, FOGSim's sampling clock, offered 0.6
// (past both saturations), 30,000 + 10,000 cycles. Measured: QCN-Switch
// 0.507, VAL 0.498.
func TestQCNAdversarialSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4, two saturated runs of 40,000 cycles")
	}
	c := qcnConfig(4, 30000, 10000)
	c.Traffic.Pattern, c.Traffic.Load = "ADV", 0.6
	c.Routing.QcnClock = "fogsim"
	q := btSim(t, c, 1)
	c.Routing.Name = "VAL"
	v := btSim(t, c, 1)
	t.Logf("ADV+1 0.6: QCN-Switch accepted %.3f (misrouted %.3f), VAL %.3f", q.Accepted, q.Misrouted.Fraction, v.Accepted)
	if q.Accepted < 0.95*v.Accepted || v.Accepted < 0.42 {
		t.Errorf("QCN-Switch accepted %.3f, VAL %.3f: want within 5%% of VAL (and VAL near its 0.5 bound)", q.Accepted, v.Accepted)
	}
}

// TestQCNFeedbackComparisonPreventsCollapse: QCN-Switch paper Fig. 8a and
// §3.3 (target: under UN past saturation, without feedback comparison every
// loaded port receives CNMs, traffic turns non-minimal, loads the network
// more and throughput collapses; with it throughput stays ≥ 5% higher).
// h=4, the scaled Table I system, FOGSim's sampling clock, UN at 1.0,
// 20,000 + 10,000 cycles. Measured: 0.728 accepted (29% misrouted) with,
// 0.531 (89%) without.
func TestQCNFeedbackComparisonPreventsCollapse(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4, two saturated runs of 30,000 cycles")
	}
	run := func(fbc string) (float64, float64) {
		c := qcnConfig(4, 20000, 10000)
		c.Traffic.Load = 1
		c.Routing.QcnClock, c.Routing.QcnFbComparison = "fogsim", fbc
		r := btSim(t, c, 1)
		t.Logf("UN 1.0, feedback comparison %s: accepted %.3f, misrouted %.3f", fbc, r.Accepted, r.Misrouted.Fraction)
		return r.Accepted, r.Misrouted.Fraction
	}
	on, misOn := run("on")
	off, misOff := run("off")
	if on < 1.05*off || misOff < 2*misOn {
		t.Errorf("accepted %.3f with feedback comparison, %.3f without (want ≥ 5%% more); misrouted %.3f and %.3f", on, off, misOn, misOff)
	}
}

func deref(x *float64) float64 {
	if x == nil {
		return math.NaN()
	}
	return *x
}

// TestQCNRecoveryToUniform: QCN-Switch paper Fig. 10b (target: after an
// ADV+1→UN switch at load 0.4 misrouting drops at once from about 100% to
// about the share of UN traffic that uses the one port whose probability
// is still low, ≈ 1/a, 1/8 at h=4, and then decays only slowly, PI = 1
// point per 100 packets; latency settles within the first bins). h=4, the
// scaled Table I system, FOGSim's sampling clock, 30,000 + 2,000 cycles of
// ADV+1, 10,000 of UN. Measured: 92.6% misrouted just before, 16.1% in the
// first 200 cycles, 15.3% at 3,000–6,000 and 14.9% at 6,000–9,000.
func TestQCNRecoveryToUniform(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4, 42,000 cycles")
	}
	c := qcnConfig(4, 30000, 12000)
	c.Traffic.Pattern, c.Traffic.Load, c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = "ADV", 0.4, 2000, "UN"
	c.Routing.QcnClock = "fogsim"
	r := btSim(t, c, 1)
	tr := r.Transient
	first := -tr.From / tr.Bin
	window := func(from, to int) (mis, lat float64) {
		var p, m, l int64
		for i := first + from/tr.Bin; i < first+to/tr.Bin && i < len(tr.Packets); i++ {
			p += tr.Packets[i]
			m += tr.Misrouted[i]
			l += tr.Latency[i]
		}
		return float64(m) / float64(p), float64(l) / float64(p)
	}
	before, _ := window(-100, 0)
	early, latEarly := window(0, 1000)
	late, latLate := window(6000, 9000)
	t.Logf("misrouted %.3f before the switch, %.3f in its first 1,000 cycles, %.3f at 6,000–9,000; latency %.1f then %.1f", before, early, late, latEarly, latLate)
	if before < 0.9 || early < 0.08 || early > 0.2 || late < 0.05 || late > early || !btWithin(latEarly, latLate, 0.1) {
		t.Errorf("misrouted %.3f → %.3f → %.3f (want ≥ 0.9, then 0.08–0.2, then a slow decay above 0.05); latency %.1f vs %.1f (want within 10%%)",
			before, early, late, latEarly, latLate)
	}
}

// TestQCNReactionSlowerWithSmallerLf: QCN-Switch paper Fig. 14a and §5.3.2
// (target: after a UN→ADV+1 switch at 0.4, L_f = 1/128, a cut of at most
// about half, converges more than twice as slowly as 1/64). h=4, the scaled
// Table I system, FOGSim's sampling clock, 10,000 + 2,000 cycles of UN, then
// ADV+1; the mean latency of the packets generated 4,000–10,000 cycles after
// the switch. Measured: 1,368 for 1/64, 5,824 for 1/128.
func TestQCNReactionSlowerWithSmallerLf(t *testing.T) {
	if testing.Short() {
		t.Skip("h=4, two runs of 40,000 cycles")
	}
	lat := func(lf float64) float64 {
		c := qcnConfig(4, 10000, 30000)
		c.Traffic.Load, c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 0.4, 2000, "ADV"
		c.Routing.QcnClock, c.Routing.QcnLf = "fogsim", lf
		tr := btSim(t, c, 1).Transient
		first := -tr.From / tr.Bin
		var p, l int64
		for i := first + 4000/tr.Bin; i < first+10000/tr.Bin && i < len(tr.Packets); i++ {
			p += tr.Packets[i]
			l += tr.Latency[i]
		}
		return float64(l) / float64(p)
	}
	fast, slow := lat(1.0/64), lat(1.0/128)
	t.Logf("mean latency 4,000–10,000 cycles after UN→ADV+1: %.0f with L_f = 1/64, %.0f with 1/128", fast, slow)
	if !(slow > 2*fast) {
		t.Errorf("L_f = 1/128: %.0f, 1/64: %.0f (want more than twice)", slow, fast)
	}
}

// TestQCNLargeLfCutsToZero: routing.qcnLf above 1/63 (outside the paper's
// sweep, QCN-Switch paper §5.3.2) cuts a probability to 0, never below.
func TestQCNLargeLfCutsToZero(t *testing.T) {
	for _, fbc := range []string{"off", "on"} {
		s, m := qcnUnit(func(rc *config.Routing) { rc.QcnLf, rc.QcnFbComparison = 0.5, fbc })
		m.process(s, 0, 6, 63)
		if m.prob[6] != 0 {
			t.Errorf("feedback comparison %s, Lf = 0.5, |Fb| = 63: P = %g, want 0", fbc, m.prob[6])
		}
	}
}

// TestQCNCNMsPerInterval: the time series counts the CNMs generated in each
// sim.interval beside the time series (result.SeriesCNMs; the CNM traffic as its own series, QCN-Switch paper Figs.
// 10–14): over the run they add up to those sent, dropped for want of room
// and processed at their own congestion point's router. h=2, ADV+1 at 0.4
// with FOGSim's sampling clock, 3,000 + 3,000 cycles.
func TestQCNCNMsPerInterval(t *testing.T) {
	c := qcnConfig(2, 3000, 3000)
	c.Traffic.Pattern, c.Traffic.Load = "ADV", 0.4
	c.Routing.QcnClock = "fogsim"
	c.Sim.Interval = 500
	r := btSim(t, c, 1) // btRun's link check: the CNMs are on the links too
	q := r.Mechanisms["qcn"]
	var sum float64
	nonzero := 0
	if len(r.SeriesCNMs) != len(r.Series) {
		t.Fatalf("%d intervals of CNMs, %d samples", len(r.SeriesCNMs), len(r.Series))
	}
	for _, n := range r.SeriesCNMs {
		sum += float64(n)
		if n > 0 {
			nonzero++
		}
	}
	want := q["cnmSent"] + q["cnmDropped"] + q["cnmSelf"]
	t.Logf("CNMs per interval: %d intervals with some, %g in all; report %v", nonzero, sum, q)
	if sum != want || want == 0 || nonzero < 2 {
		t.Errorf("the intervals' CNMs add up to %g in %d intervals, want %g (sent + dropped + self), more than 0, in several intervals", sum, nonzero, want)
	}
}

// TestQCNSteadyProbabilities: a run without a pattern switch records group
// 0's per-port minimal probabilities beside its time series
// (result.SeriesProbabilities: a snapshot at the end of every sim.interval
// from the start of the run, and the run's end), the curve of QCN-Switch
// paper Figs. 10–14 for a steady run: under ADV+1 at 0.4 the port of a
// mid-group router toward S_out falls from 100% and stays low over the
// measured window (the paper's Fig. 12b: below 10%, a sawtooth). h=2 (72
// nodes), FOGSim's sampling clock, 10,000 + 10,500 cycles: the last
// interval is cut at the run's end.
func TestQCNSteadyProbabilities(t *testing.T) {
	c := qcnConfig(2, 10000, 10500)
	c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = "ADV", 1, 0.4
	c.Routing.QcnClock = "fogsim"
	s, r := btSimState(t, c, 1)
	pp := r.SeriesProbabilities
	if pp == nil || r.Transient != nil {
		t.Fatalf("no trace (%v) or a transient record (%v)", pp, r.Transient)
	}
	if pp.From != 1000 || pp.Every != 1000 || pp.Ports != s.radix-s.p || len(pp.Values) != len(r.Series) || len(pp.Values) != 21 {
		t.Fatalf("trace from %d every %d, %d ports, %d snapshots; %d samples", pp.From, pp.Every, pp.Ports, len(pp.Values), len(r.Series))
	}
	// the last snapshot is the probabilities at the run's end (20,500)
	last := pp.Values[len(pp.Values)-1]
	for r0 := 0; r0 < s.groupSize; r0++ {
		for k := 0; k < pp.Ports; k++ {
			if want := float32(s.qc.prob[r0*s.radix+s.p+k]); last[r0*pp.Ports+k] != want {
				t.Fatalf("router %d port %d: %v at the end, the simulator has %v", r0, s.p+k, last[r0*pp.Ports+k], want)
			}
		}
	}
	sOut, mid := s.groupSize-1, s.groupSize/2
	k := mid*pp.Ports + s.df.MinimalPort(mid, sOut) - s.p
	var ps []float32
	var mean float64
	var n int
	for i, v := range pp.Values {
		ps = append(ps, v[k])
		if pp.From+i*pp.Every > c.Sim.Warmup {
			mean, n = mean+float64(v[k]), n+1
		}
	}
	mean /= float64(n)
	t.Logf("router %d's port toward S_out (router %d): %v; mean %.1f%% over the measured window", mid, sOut, ps, mean)
	if ps[0] != 100 || ps[9] >= 10 || mean >= 10 {
		t.Errorf("P toward S_out %v%% after 1,000 cycles, %v%% after 10,000, mean %.1f%% measured (want 100, < 10, < 10)", ps[0], ps[9], mean)
	}
}

// TestQCNAdversarialSteadyVariants: the QCN-Switch paper's steady ADV+1
// claims at medium load for three parameters and one variant, each against
// the configuration the paper keeps, on one network and load:
//   - Fig. 6b (§5.1.1): input sampling without source processing
//     (QCN-SWin) has a much higher latency below saturation than with it
//     (QCN-SWin+SP), and accepts less than offered (≈ 2%; tolerance 1–5%):
//     S_out's own nodes go on routing minimally onto its congested link;
//   - Fig. 11b (§5.3.1): the standard's CNM rate, one in ten congested
//     samples (0.1% of the packets), adapts too slowly and has the highest
//     latency at medium load; Table I's 30% (0.3%) is the reference;
//   - Fig. 15b (§5.3.3): a high PI (5 points) returns to minimal routing
//     too early and raises the latency against PI = 1.
//
// h=3 (342 nodes) with the Table I router (qcnConfig), FOGSim's sampling
// clock, ADV+1 at 0.3, 20,000 cycles (400 µs) of warm-up — the
// probabilities start at 100% and the minimal burst must drain — then
// 5,000 measured, one seed. Measured: output sampling with feedback
// comparison (Table I) 105.7 cycles, 0.2986 accepted, 92.1% misrouted;
// QCN-SWin 600.9 cycles, 0.2957 accepted (1.0% below QCN-SWin+SP),
// QCN-SWin+SP 104.7, 0.2986; 0.1% CNMs 1,212.5 (0.3318 accepted: the
// start's backlog still draining); PI = 5 121.3 (83.5% misrouted). Th2 =
// 50 (Fig. 16b) gives 105.5 here, no loss: not asserted
// (engine/REPRODUCTION.md, target 16).
func TestQCNAdversarialSteadyVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("h=3: five runs of 25,000 cycles")
	}
	run := func(name string, edit func(rc *config.Routing)) (lat, acc float64) {
		c := qcnConfig(3, 20000, 5000)
		c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = "ADV", 1, 0.3
		c.Routing.QcnClock = "fogsim"
		edit(&c.Routing)
		r := btSim(t, c, 1)
		t.Logf("%s: latency %.1f, accepted %.4f, misrouted %.3f", name, r.Latency.Avg, r.Accepted, r.Misrouted.Fraction)
		return r.Latency.Avg, r.Accepted
	}
	def, _ := run("Table I (output sampling, feedback comparison)", func(*config.Routing) {})
	in, inAcc := run("QCN-SWin", func(rc *config.Routing) { rc.QcnSampling, rc.QcnFbComparison = "input", "off" })
	sp, spAcc := run("QCN-SWin+SP", func(rc *config.Routing) {
		rc.QcnSampling, rc.QcnFbComparison, rc.QcnSourceProcessing = "input", "off", true
	})
	slow, _ := run("CPC 100, 10% CNMs (0.1%)", func(rc *config.Routing) { rc.QcnCnmPercent = 10 })
	pi5, _ := run("PI = 5", func(rc *config.Routing) { rc.QcnPI = 5 })
	if in < 3*sp || inAcc > 0.995*spAcc {
		t.Errorf("Fig. 6b: QCN-SWin latency %.1f, accepted %.4f; QCN-SWin+SP %.1f, %.4f (want ≥ 3× the latency and ≥ 0.5%% less accepted)", in, inAcc, sp, spAcc)
	}
	if slow < 3*def {
		t.Errorf("Fig. 11b: 0.1%% CNMs latency %.1f, 0.3%% %.1f (want ≥ 3×)", slow, def)
	}
	if pi5 < 1.08*def {
		t.Errorf("Fig. 15b: PI = 5 latency %.1f, PI = 1 %.1f (want ≥ 8%% higher)", pi5, def)
	}
}
