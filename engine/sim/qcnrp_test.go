package sim

import (
	"fmt"
	"math"
	"phitsim/engine/rng"
	"slices"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// TestQCNRPDefaults: the reaction points' constants of 802.1Qau (Alizadeh
// et al., Data Center Transport Mechanisms: Congestion Control Theory and
// IEEE Standardization (the QCN reaction point): G_d = 1/128, a 150 KB byte counter, R_AI 5
// Mb/s, R_HAI 50 Mb/s, 5 cycles of fast recovery; FOGSim v5's timer of 10
// ms and minimum rate equal to R_AI) in the engine's units: on the
// QCN-Switch paper's 40 Gb/s links with 100-byte phits (20-ns cycles), the
// fallback without a physical basis, and on a 10 Gb/s basis (80-ns cycles).
func TestQCNRPDefaults(t *testing.T) {
	c := config.Default()
	c.Routing.QcnReactionPoints = true
	want := config.QCNRP{On: true, Gd: 1.0 / 128, ByteCount: 1500, Timer: 500000, RAI: 0.000125, RHAI: 0.00125, MinRate: 0.000125, FastRecovery: 5, Flows: 16, Jitter: 0.15}
	if got := c.QCNReaction(); got != want {
		t.Errorf("no basis: %+v, want %+v", got, want)
	}
	c.Physical.LinkGbps, c.Physical.PhitBytes = 10, 100
	want.Timer, want.RAI, want.RHAI, want.MinRate = 125000, 0.0005, 0.005, 0.0005
	if got := c.QCNReaction(); got != want {
		t.Errorf("10 Gb/s, 100-byte phits: %+v, want %+v", got, want)
	}
	c.Routing.QcnRpMinRate, c.Routing.QcnRpByteCount = 0.01, 77
	c.Routing.QcnRpFlows, c.Routing.QcnRpJitter = 3, -1
	if got := c.QCNReaction(); got.MinRate != 0.01 || got.ByteCount != 77 || got.Flows != 3 || got.Jitter != 0 {
		t.Errorf("set values: %+v", got)
	}
	// the Graph500 job generates by its own schedule: no limiter, and the
	// field is listed as not applying
	c.Routing.Name, c.Workload.Kind = "QCN_SWITCH", "graph500"
	if c.QCNReaction().On {
		t.Error("reaction points on with the Graph500 job")
	}
	if n := c.Unapplied(); len(n) == 0 || n[0].Path != "routing.qcnReactionPoints" {
		t.Errorf("Graph500 with reaction points: not applying %v", n)
	}
}

// rpParams: the default reaction point with a 100-phit byte counter (ten
// 10-phit packets) and a 1,000-cycle timer, so a unit test reaches every
// phase.
func rpParams() config.QCNRP {
	c := config.Default()
	c.Routing.QcnReactionPoints, c.Routing.QcnRpByteCount, c.Routing.QcnRpTimer = true, 100, 1000
	c.Routing.QcnRpJitter = -1 // the standard's cycles exactly
	return c.QCNReaction()
}

// TestQCNRPRateFormulas: 802.1Qau's rate control (Alizadeh et al., the reaction point).
// A CNM sets R_T ← R_C, then R_C ← R_C·(1 − G_d·|Fb|) (|Fb| = 63 at the
// line rate leaves 65/128), never below the minimum rate; each byte-counter
// or timer cycle is an increase: five of fast recovery R_C ← (R_C + R_T)/2,
// then active increase (R_T += R_AI first) once one counter is past five
// cycles, hyper-active (R_T += i·R_HAI, i = min(cycles) − 5) once both
// are; after fast recovery a counter's cycle is half as long; the limiter
// is released once R_T is the line rate and R_C within R_AI of it. The
// bucket lets a limited node send two packets back to back, then one per
// packet/R_C cycles.
func TestQCNRPRateFormulas(t *testing.T) {
	p := rpParams()
	if got := rpCut(1, 63, 1.0/128, 0); !near(got, 65.0/128) {
		t.Errorf("cut at the line rate, |Fb| = 63: %g, want 65/128", got)
	}
	if got := rpCut(0.0002, 63, 1.0/128, 0.000125); got != 0.000125 {
		t.Errorf("a cut below the minimum rate: %g, want 0.000125", got)
	}
	if cr, tr := rpIncrease(0.5, 1, 1, 0, p); !near(cr, 0.75) || tr != 1 {
		t.Errorf("fast recovery: R_C %g, R_T %g; want 0.75, 1", cr, tr)
	}
	if cr, tr := rpIncrease(0.5, 0.8, 6, 0, p); !near(tr, 0.8+p.RAI) || !near(cr, (0.5+0.8+p.RAI)/2) {
		t.Errorf("active increase: R_C %g, R_T %g", cr, tr)
	}
	if cr, tr := rpIncrease(0.5, 0.8, 8, 7, p); !near(tr, 0.8+2*p.RHAI) || !near(cr, (0.5+0.8+2*p.RHAI)/2) {
		t.Errorf("hyper-active increase, 8 and 7 cycles: R_C %g, R_T %g; want R_T = 0.8 + 2·R_HAI", cr, tr)
	}
	if _, tr := rpIncrease(0.5, 0.99995, 6, 0, p); tr != 1 {
		t.Errorf("R_T past the line rate: %g", tr)
	}

	rp := makeQCNRP(1, 1, 10, p)
	rp.cnm(0, 0, 7, 63)
	rp.cnm(0, 0, 7, 63) // R_T ← 65/128, R_C ← (65/128)²
	cr, tr := (65.0/128)*(65.0/128), 65.0/128
	if rp.flow[0] != 8 || !near(rp.cr[0], cr) || !near(rp.tr[0], tr) {
		t.Fatalf("two CNMs of 63: R_C %g, R_T %g; want %g, %g", rp.cr[0], rp.tr[0], cr, tr)
	}
	// the bucket: two packets at once, the third packet/R_C later
	rp.sent(0, 0, 0)
	if h := rp.holdUntil(0); h > 0 {
		t.Errorf("the second packet is held until %d", h)
	}
	rp.sent(0, 0, 0)
	if h, want := rp.holdUntil(0), int64(math.Ceil(10/cr)); h != want {
		t.Errorf("the third packet is held until %d, want %d", h, want)
	}
	// five byte-counter cycles of fast recovery (50 packets, before the
	// timer's first expiry at 1,000): R_C → R_T − (R_T − R_C)/2⁵
	for i := 2; i < 50; i++ {
		rp.sent(int64(i), 0, 0)
	}
	cr = tr - (tr-cr)/32
	if !near(rp.cr[0], cr) || !near(rp.tr[0], tr) || rp.bcStage[0] != 5 {
		t.Errorf("after fast recovery: R_C %g, R_T %g, %d cycles; want %g, %g, 5", rp.cr[0], rp.tr[0], rp.bcStage[0], cr, tr)
	}
	// the sixth cycle is half as long (5 packets): active increase
	for i := 0; i < 5; i++ {
		rp.sent(60, 0, 0)
	}
	tr += p.RAI
	cr = (cr + tr) / 2
	if !near(rp.cr[0], cr) || !near(rp.tr[0], tr) {
		t.Errorf("active increase: R_C %g, R_T %g; want %g, %g", rp.cr[0], rp.tr[0], cr, tr)
	}
	// the timer: five full periods (1,000 … 5,000 cycles after the CNM),
	// active increases as the byte counter is past fast recovery; then
	// half: at 5,500 both counters are past five cycles, the first
	// hyper-active increase (i = 1)
	rp.tick(5000, 0, 0)
	for i := 0; i < 5; i++ {
		tr += p.RAI
		cr = (cr + tr) / 2
	}
	if !near(rp.cr[0], cr) || !near(rp.tr[0], tr) || rp.tStage[0] != 5 {
		t.Errorf("the timer's five cycles: R_C %g, R_T %g; want %g, %g (%d cycles)", rp.cr[0], rp.tr[0], cr, tr, rp.tStage[0])
	}
	rp.tick(5499, 0, 0)
	if rp.tStage[0] != 5 {
		t.Errorf("the timer's sixth cycle was not half a period: %d cycles at 5,499", rp.tStage[0])
	}
	rp.tick(5500, 0, 0)
	tr += p.RHAI
	cr = (cr + tr) / 2
	if !near(rp.cr[0], cr) || !near(rp.tr[0], tr) {
		t.Errorf("hyper-active increase: R_C %g, R_T %g; want %g, %g", rp.cr[0], rp.tr[0], cr, tr)
	}
	// released at the line rate
	rp.tick(1e7, 0, 0)
	if rp.flow[0] != 0 || rp.busy[0] != 0 || rp.cr[0] != 1 {
		t.Errorf("not released after 10⁷ cycles: R_C %g, R_T %g", rp.cr[0], rp.tr[0])
	}
}

// TestQCNReactionPoints (h=2, the scaled Table I system, FOGSim's sampling
// clock): with reaction points on, the CNMs of ADV+1 at 0.4 (MIN's bound is
// 1/8 at h=2: the minimal burst congests group 0's link to group 1 until
// QCN-Switch diverts it) cut the rates of group-0 nodes' flows; after a
// switch to UN at 0.1 the byte counters and timers bring every one back to
// the line rate and group 0's limiters are released. The counters are
// shortened (100 phits, 1,000 cycles) and R_AI raised to 0.05 so that this
// takes 35,000 cycles: a flow to one destination carries 1/71 of its
// node's packets under UN, so its recovery is the timer's, R_AI per period
// past fast recovery (with 802.1Qau's 10 ms and 5 Mb/s, seconds). Off (the
// paper's setting), no limiter exists.
func TestQCNReactionPoints(t *testing.T) {
	c := qcnConfig(2, 0, 40000)
	c.Traffic.Pattern, c.Traffic.Load = "ADV", 0.4
	c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 5000, "UN"
	c.Routing.QcnClock = "fogsim"
	off, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if off.qc.rp != nil {
		t.Fatal("reaction points on by default")
	}
	c.Routing.QcnReactionPoints, c.Routing.QcnRpByteCount, c.Routing.QcnRpTimer = true, 100, 1000
	// per flow, a limited flow's own packets are few under UN (1/71 of its
	// node's): the timer's active increases recover it, R_AI raised so
	// that they do within the run; UN at 0.1 congests nothing
	c.Routing.QcnRpRai, c.Traffic.SwitchLoad = 0.05, 0.1
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	rp := s.qc.rp
	g0 := s.groupSize * s.p // group 0's nodes
	group0 := func() (mean, lowest float64, busy int) {
		mean, lowest = 1, 1
		sum := 0.0
		for i := 0; i < g0*rp.k; i++ {
			if rp.flow[i] != 0 {
				sum += rp.cr[i]
				lowest = min(lowest, rp.cr[i])
				busy++
			}
		}
		if busy > 0 {
			mean = sum / float64(busy)
		}
		return
	}
	for s.now < s.switchAt {
		s.Step()
	}
	mean, lowest, busy := group0()
	cuts := rp.cuts
	for s.now < s.switchAt+35000 {
		s.Step()
	}
	after, lowAfter, busyAfter := group0()
	_, limited := rp.meanRate()
	t.Logf("ADV+1: %d cuts, group 0's %d limited flows' mean rate %.3f (lowest %.3f); 35,000 cycles of UN later %.4f (lowest %.4f, %d limited), %d limited in all, %d cuts, %d CNMs untracked",
		cuts, busy, mean, lowest, after, lowAfter, busyAfter, limited, rp.cuts, rp.untracked)
	if cuts == 0 || busy == 0 || mean > 0.9 || lowest > 0.6 {
		t.Errorf("under ADV+1 the rates did not fall: %d cuts, %d limited flows, mean rate %.3f, lowest %.3f", cuts, busy, mean, lowest)
	}
	if busyAfter > 0 || after < 0.999 {
		t.Errorf("after the switch to UN group 0's rates did not recover: mean %.4f, lowest %.4f, %d limited", after, lowAfter, busyAfter)
	}
}

// TestQCNSourceProcessingRule: routing.qcnSourceProcessingRule=cut is
// FOGSim v5's source processing (switchModule::qcnOccupancySampling,
// QCNSWCOMPLETE): the congestion point's router multiplies the probability
// of its victim's minimal port by 1 − L_f·|Fb| even with feedback
// comparison on, leaves that port's packet count and last feedback alone,
// and does nothing for a victim bound to its own group; the paper's rule
// (comparison, the default) goes through feedback comparison. h=2, then a
// short saturated UN run with input sampling (QCN-SWin+SP+FbC) that takes
// the cut path.
func TestQCNSourceProcessingRule(t *testing.T) {
	edit := func(rule string) func(*config.Config) {
		return func(c *config.Config) {
			c.Routing.QcnSampling, c.Routing.QcnSourceProcessing, c.Routing.QcnSPRule = "input", true, rule
		}
	}
	s, m := qcnSim(t, 2, edit("cut"))
	a := s.groupSize
	victim := s.newPacket(a*s.p, 2*a*s.p, 0, 0) // group 1 → group 2, in transit at router 0
	port := s.minimalPort(0, int(s.pk[victim].dstRouter), s.pk[victim].dst)
	pi := port // router 0
	m.sent[pi] = 42
	m.sourceCut(s, 0, victim, 63)
	if want := 100 * (1 - 63.0/64); !near(m.prob[pi], want) || m.sent[pi] != 42 || m.lastFb[pi] != 0 {
		t.Errorf("cut: P = %g (want %g), packet count %d (want 42), last Fb %d (want 0)", m.prob[pi], want, m.sent[pi], m.lastFb[pi])
	}
	local := s.newPacket(a*s.p, s.p, 0, 0) // bound to router 1 of group 0
	before := append([]float64(nil), m.prob...)
	m.sourceCut(s, 0, local, 63)
	for i := range before {
		if m.prob[i] != before[i] {
			t.Errorf("a victim bound to the router's own group changed port %d: %g → %g", i, before[i], m.prob[i])
		}
	}

	for _, rule := range []string{"cut", "comparison"} {
		c := qcnConfig(2, 2000, 3000)
		edit(rule)(&c)
		c.Traffic.Pattern, c.Traffic.Load, c.Routing.QcnClock = "ADV", 0.4, "fogsim"
		r := btSim(t, c, 1)
		q := r.Mechanisms["qcn"]
		cuts, ok := q["sourceCuts"]
		t.Logf("%s: %v", rule, q)
		if rule == "cut" && (!ok || cuts == 0) || rule == "comparison" && ok {
			t.Errorf("%s: source cuts %g (reported %v)", rule, cuts, ok)
		}
	}
}

// TestQCNRPPerFlow: a reaction point per flow (source, destination), as a
// CNM names the sampled frame's flow (Alizadeh et al., the reaction point;
// QCN-Switch paper §2.3: the CNM goes to the sampled packet's source). A
// CNM for node 0's flow to 5 limits that flow only: its third packet in a
// row is held, node 0's flow to 6 is not; a CNM of another flow takes the
// node's second limiter, and with both busy a third flow's CNM changes no
// rate (untracked).
func TestQCNRPPerFlow(t *testing.T) {
	p := rpParams()
	rp := makeQCNRP(2, 2, 10, p)
	rp.cnm(0, 0, 5, 63)
	i := rp.find(0, 5)
	if i != 0 || rp.busy[0] != 1 || rp.busy[1] != 0 || rp.find(0, 6) != -1 {
		t.Fatalf("after a CNM for 0→5: limiter %d, busy %v", i, rp.busy)
	}
	rp.sent(0, i, 0)
	rp.sent(0, i, 0)
	if !rp.hold(1, 0, 5) {
		t.Error("0→5's third packet in a row is not held")
	}
	if rp.hold(1, 0, 6) || rp.hold(1, 1, 5) {
		t.Error("a CNM for 0→5 holds another flow (0→6 or 1→5)")
	}
	rp.cnm(2, 0, 6, 10)
	if rp.find(0, 6) != 1 || rp.busy[0] != 2 || !near(rp.cr[1], 1-10.0/128) {
		t.Errorf("0→6's CNM: limiter %d, busy %d, rate %g", rp.find(0, 6), rp.busy[0], rp.cr[1])
	}
	rp.cnm(3, 0, 7, 63)
	if rp.untracked != 1 || rp.find(0, 7) != -1 || rp.cuts != 2 {
		t.Errorf("a third flow's CNM with both limiters busy: %d untracked, limiter %d, %d cuts", rp.untracked, rp.find(0, 7), rp.cuts)
	}
	// released at the line rate, the limiter is free for another flow
	rp.tick(1e7, 0, 0)
	rp.cnm(1e7, 0, 7, 63)
	if rp.find(0, 5) != -1 || rp.find(0, 7) != 0 {
		t.Errorf("after 0→5's release: 0→5 at %d, 0→7 at %d", rp.find(0, 5), rp.find(0, 7))
	}
}

// TestQCNRPByteCounterRandomised: the byte counter's cycles are randomised
// as 802.1Qau's reaction point does (Alizadeh et al., the reaction point):
// each cycle is its period times a uniform factor in [0.85, 1.15]
// (routing.qcnRpJitter 0.15), the half period after fast recovery
// likewise; with qcnRpJitter = −1 every cycle is the period exactly.
func TestQCNRPByteCounterRandomised(t *testing.T) {
	c := config.Default()
	c.Routing.QcnReactionPoints, c.Routing.QcnRpByteCount = true, 1000
	p := c.QCNReaction()
	rp := makeQCNRP(1, 1, 10, p)
	lo, hi, sum, distinct := int64(1<<62), int64(0), 0.0, map[int64]bool{}
	const n = 4000
	for range n {
		rp.cnm(0, 0, 3, 1) // each CNM restarts the byte counter's cycle
		b := rp.bc[0]
		lo, hi, sum = min(lo, b), max(hi, b), sum+float64(b)
		distinct[b] = true
	}
	if lo < 850 || hi > 1150 || lo > 860 || hi < 1140 || math.Abs(sum/n-1000) > 10 || len(distinct) < 200 {
		t.Errorf("randomised cycles of 1,000 phits: %d … %d, mean %.1f, %d distinct; want [850, 1150] filled, mean 1,000", lo, hi, sum/n, len(distinct))
	}
	if b := rp.bcCycle(0, 5); b < 425 || b > 575 {
		t.Errorf("after fast recovery: a cycle of %d phits, want 500 ± 15%%", b)
	}
	c.Routing.QcnRpJitter = -1
	rp = makeQCNRP(1, 1, 10, c.QCNReaction())
	for range 100 {
		rp.cnm(0, 0, 3, 1)
		if rp.bc[0] != 1000 || rp.bcCycle(0, 5) != 500 {
			t.Fatalf("without randomisation: cycles of %d and %d phits, want 1,000 and 500", rp.bc[0], rp.bcCycle(0, 5))
		}
	}
}

// TestQCNRPHotspotSenders: HOTSPOT's backlogged senders (each sending to
// the hotspot at its full injection bandwidth, Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-A) go through their
// flows' reaction points like every other generation. h=2, the scaled
// Table I system, 8 senders in groups 0, 2, 4 and 6 to node 20 (group 5),
// 10,000 cycles: with reaction points the senders' flows are cut and
// their generation held, and they place fewer packets in their injection
// buffers than without.
func TestQCNRPHotspotSenders(t *testing.T) {
	run := func(rps bool) (int64, *qcnRP) {
		c := qcnConfig(2, 0, 10000)
		c.Traffic.Pattern, c.Traffic.Load = "HOTSPOT", 0.1
		c.Traffic.HotspotNode, c.Traffic.HotspotSenders = 20, "0,1,16,17,32,33,48,49"
		c.Routing.QcnClock, c.Routing.QcnReactionPoints = "fogsim", rps
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		var sent int64
		s.hk.arrive = append(s.hk.arrive, func(pi, vc int, k int32) {
			if s.pclass[pi] == topology.Injection && !s.isCtlVC(topology.Injection, vc) && s.pk[k].dst == 20 {
				sent++
			}
		})
		for s.now < int64(c.Sim.Cycles) {
			s.Step()
		}
		return sent, s.qc.rp
	}
	off, _ := run(false)
	on, rp := run(true)
	hot := 0
	for i, f := range rp.flow {
		if f == 21 && strings.Contains(",0,1,16,17,32,33,48,49,", fmt.Sprintf(",%d,", i/rp.k)) {
			hot++
		}
	}
	t.Logf("packets to the hotspot: %d without reaction points, %d with (%d cuts, %d attempts held, %d senders' flows limited at the end)", off, on, rp.cuts, rp.held, hot)
	if rp.cuts == 0 || rp.held == 0 || hot == 0 || float64(on) > 0.9*float64(off) {
		t.Errorf("the backlogged senders are not limited: %d packets with reaction points against %d without, %d cuts, %d held, %d flows limited", on, off, rp.cuts, rp.held, hot)
	}
}

// TestQCNRPJitterPerNode: each node's byte-counter jitter comes from its
// own stream (the engine's rule for every router and node, which the
// partitioned engine relies on: engine/PARALLEL.md), so node 0's cycles
// are the same whether or not node 1's CNMs come between its own.
func TestQCNRPJitterPerNode(t *testing.T) {
	c := config.Default()
	c.Routing.QcnReactionPoints, c.Routing.QcnRpByteCount = true, 1000
	p := c.QCNReaction()
	cycles := func(other bool) []int64 {
		rp := makeQCNRP(2, 1, 10, p)
		rp.seedStreams(7)
		var got []int64
		for range 50 {
			rp.cnm(0, 0, 3, 1)
			got = append(got, rp.bc[0])
			if other {
				rp.cnm(0, 1, 3, 1)
			}
		}
		return got
	}
	alone, mixed := cycles(false), cycles(true)
	if !slices.Equal(alone, mixed) {
		t.Errorf("node 0's byte-counter cycles depend on node 1's CNMs:\n%v\n%v", alone, mixed)
	}
	if slices.Min(alone) == slices.Max(alone) {
		t.Errorf("node 0's cycles %v not randomised", alone)
	}
	// and apart from every other stream of the node and its router
	rp := makeQCNRP(2, 1, 10, p)
	rp.seedStreams(7)
	for n := range rp.rs {
		for _, o := range []rng.Stream{rng.New(7, rng.Generator, uint64(n)), rng.New(7, rng.Router, uint64(n)), rng.New(7, rng.Traffic, uint64(n))} {
			if a := rp.rs[n]; a.Uint64() == o.Uint64() {
				t.Errorf("node %d's reaction-point stream is another stream of the run", n)
			}
		}
	}
}
