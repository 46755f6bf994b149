package sim

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// adRun runs configurations in parallel (2 cores) and returns their results
// in order; each run is checked by btRun (conservation, consistent metrics).
func adRun(t *testing.T, cfgs ...config.Config) []*result.Result {
	t.Helper()
	out := make([]*result.Result, len(cfgs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, c := range cfgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = btRun(t, c, 1)
		}()
	}
	wg.Wait()
	return out
}

func adConfig(h int, routing, pattern string, load float64, edit func(*config.Config)) config.Config {
	c := btConfig(h, 3000, 3000)
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = routing, pattern, load
	if edit != nil {
		edit(&c)
	}
	return c
}

// Thesis §1.4.2.1.1 (a derived example): with own global occupancies
// {200, 20, …, 20} phits, C = 200% and T = 5 packets (40 phits) the mean is
// 42.5 and the threshold 125, so only the first link is saturated; the other
// routers of the group see the bit exactly one local-link latency later.
func TestPiggyBackSaturationBit(t *testing.T) {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 8, 2, 1
	c.Routing.Name = "PB"
	c.Traffic.Load = 0
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	a := &s.pb
	for s.now < 100 {
		s.Step()
	}
	for k := 0; k < 8; k++ {
		q := int32(20)
		if k == 0 {
			q = 200
		}
		pi := 0*s.radix + s.firstGlobal + k // router 0, VC 0
		s.occChange(pi, 0, pi*s.maxVC, q, true)
	}
	set := s.now
	s.startCycle()
	own := a.satHist[int(set%a.slots)*s.R+0]
	if own != 1 {
		t.Fatalf("router 0 saturation bits %b, want only link 0 (VC 0)", own)
	}
	// the group that router 0's global link 0 reaches, seen from router 1
	peer, _ := s.topo.Link(0, s.firstGlobal)
	dst := peer // any router of that group
	lat := int64(c.Topology.LocalLatency)
	for s.now = set; s.now <= set+lat; s.now++ {
		if s.now > set {
			s.startCycle() // the bits stay set: occupancies unchanged
		}
		got := s.pbSaturated(1, dst, 0)
		if want := s.now-set >= lat; got != want {
			t.Fatalf("cycle +%d: router 1 sees saturation %v, want %v", s.now-set, got, want)
		}
		if !s.pbSaturated(0, dst, 0) {
			t.Fatalf("cycle +%d: router 0 does not see its own saturated link", s.now-set)
		}
	}
}

// Thesis §1.4.2 (FOGSim at h=4: MIN 136 < OLM 146 < PB 173 cycles): under UN
// at low load the adaptive routings barely misroute, so their latency is within 10% of MIN's; ACOR
// (a Valiant with shorter phase-A paths) sits between MIN and VAL, 2LA lowest.
func TestAdaptiveLowLoadLatencyUnderUN(t *testing.T) {
	names := []string{"MIN", "UGAL", "PB", "OLM", "PAR", "PB_ACOR", "VAL"}
	var cfgs []config.Config
	for _, n := range names {
		cfgs = append(cfgs, adConfig(4, n, "UN", 0.1, func(c *config.Config) { c.Sim.Warmup, c.Sim.Cycles = 2000, 2000 }))
	}
	for _, seq := range []string{"2LA", "2LB", "3L"} {
		cfgs = append(cfgs, adConfig(4, "ACOR", "UN", 0.1, func(c *config.Config) {
			c.Sim.Warmup, c.Sim.Cycles = 2000, 2000
			c.Routing.AcorSequence = seq
		}))
	}
	rs := adRun(t, cfgs...)
	lat := map[string]float64{}
	for i, r := range rs {
		name := cfgs[i].Routing.Name
		if name == "ACOR" {
			name += "-" + cfgs[i].Routing.AcorSequence
		}
		lat[name] = r.Latency.Avg
		t.Logf("%-9s latency %.1f misrouted %.3f", name, r.Latency.Avg, r.Misrouted.Fraction)
	}
	for _, n := range []string{"UGAL", "PB", "OLM", "PAR", "PB_ACOR"} {
		if lat[n] > 1.10*lat["MIN"] {
			t.Errorf("%s latency %.1f is more than 10%% above MIN's %.1f", n, lat[n], lat["MIN"])
		}
	}
	for _, n := range []string{"ACOR-2LA", "ACOR-2LB", "ACOR-3L"} {
		if lat[n] <= lat["MIN"] || lat[n] >= lat["VAL"] {
			t.Errorf("%s latency %.1f not between MIN %.1f and VAL %.1f", n, lat[n], lat["MIN"], lat["VAL"])
		}
	}
	if lat["ACOR-2LA"] > lat["ACOR-2LB"] || lat["ACOR-2LA"] > lat["ACOR-3L"]+1 {
		t.Errorf("ACOR-2LA latency %.1f is not the lowest (2LB %.1f, 3L %.1f)", lat["ACOR-2LA"], lat["ACOR-2LB"], lat["ACOR-3L"])
	}
}

// Under ADV+1 the adaptive routings reach about Valiant's throughput, many
// times MIN's cap 1/(a·p) (thesis §1.4.2; FOGSim measured OLM ≈0.47,
// VAL ≈0.40–0.45, PB ≈0.33 at h=4; ACOR paper Fig. 6). UGAL with local
// queues only (UGAL-L) adapts late: it stays above 4× MIN's cap.
func TestAdaptiveThroughputUnderADV1(t *testing.T) {
	names := []string{"VAL", "UGAL", "PB", "OLM", "PAR", "ACOR", "PB_ACOR"}
	var cfgs []config.Config
	for _, n := range names {
		cfgs = append(cfgs, adConfig(4, n, "ADV", 0.7, func(c *config.Config) { c.Sim.Warmup, c.Sim.Cycles = 2000, 2000 }))
	}
	rs := adRun(t, cfgs...)
	capMin := 1.0 / (8 * 4)
	val := rs[0].Accepted
	for i, r := range rs {
		t.Logf("%-8s ADV+1 accepted %.3f (MIN cap %.4f) misrouted %.2f", names[i], r.Accepted, capMin, r.Misrouted.Fraction)
		switch names[i] {
		case "VAL":
		case "UGAL":
			if r.Accepted < 4*capMin {
				t.Errorf("UGAL accepted %.3f < 4× MIN's cap", r.Accepted)
			}
		default:
			if r.Accepted < 0.75*val || r.Accepted < 8*capMin {
				t.Errorf("%s accepted %.3f: not close to VAL's %.3f", names[i], r.Accepted, val)
			}
		}
	}
}

// ADV+h (ACOR paper §2.3, §4.2.1): phase-A policies that reach the
// intermediate on entering its group (CRG-Gr, VAL_GROUP = RRG-Gr) funnel the
// traffic of h source groups through one local link of the intermediate
// group and saturate near 1/h; RRG-Sw does not. ACOR-Switch-3L climbs to
// RRG-Sw and matches its throughput, while its UN latency stays below VAL's.
func TestADVhPathologyAndACOR(t *testing.T) {
	h := 4
	adv := func(routing, pa string) config.Config {
		return adConfig(h, routing, "ADV", 0.6, func(c *config.Config) {
			c.Traffic.AdvOffset = h
			c.Routing.PhaseA = pa
		})
	}
	rs := adRun(t, adv("VAL", "CRG-Gr"), adv("VAL_GROUP", "auto"), adv("VAL", "RRG-Sw"), adv("ACOR", "auto"),
		adConfig(h, "VAL", "UN", 0.05, nil), adConfig(h, "ACOR", "UN", 0.05, nil))
	crgGr, valGroup, rrgSw, acor := rs[0].Accepted, rs[1].Accepted, rs[2].Accepted, rs[3].Accepted
	t.Logf("ADV+%d: CRG-Gr %.3f, VAL_GROUP %.3f, RRG-Sw %.3f, ACOR-3L %.3f (1/h = %.3f); UN latency VAL %.1f ACOR %.1f",
		h, crgGr, valGroup, rrgSw, acor, 1.0/float64(h), rs[4].Latency.Avg, rs[5].Latency.Avg)
	for name, x := range map[string]float64{"CRG-Gr": crgGr, "VAL_GROUP": valGroup} {
		if x > 1.0/float64(h)*1.15 {
			t.Errorf("%s under ADV+h accepted %.3f, want ≈ 1/h = %.3f or less", name, x, 1.0/float64(h))
		}
	}
	if rrgSw < 1.4*max(crgGr, valGroup) {
		t.Errorf("RRG-Sw %.3f does not clearly beat the to-group policies (%.3f, %.3f)", rrgSw, crgGr, valGroup)
	}
	if acor < 0.9*rrgSw {
		t.Errorf("ACOR-Switch-3L accepted %.3f under ADV+h, below RRG-Sw's %.3f", acor, rrgSw)
	}
	if rs[5].Latency.Avg >= rs[4].Latency.Avg {
		t.Errorf("ACOR UN latency %.1f not below VAL's %.1f", rs[5].Latency.Avg, rs[4].Latency.Avg)
	}
}

// ACOR paper §3: restricting the intermediate of intra-group traffic to its
// own group lifts ADVl throughput (MIN caps at 1/p, VAL ≈ ½, RVAL ≈ 1), and
// recomputing the intermediate of a blocked head raises VAL's saturation.
func TestRestrictedValiantAndRecomputation(t *testing.T) {
	cf := func(pattern string, load float64, edit func(*config.Config)) config.Config {
		return adConfig(4, "VAL", pattern, load, edit)
	}
	rs := adRun(t,
		cf("ADVL", 0.9, nil),
		cf("ADVL", 0.9, func(c *config.Config) { c.Routing.Restricted = true }),
		cf("UN", 0.8, nil),
		cf("UN", 0.8, func(c *config.Config) { c.Routing.Recompute = true }))
	t.Logf("ADVl: VAL %.3f, restricted %.3f; UN saturation: VAL %.3f, with recomputation %.3f",
		rs[0].Accepted, rs[1].Accepted, rs[2].Accepted, rs[3].Accepted)
	if rs[1].Accepted < 1.3*rs[0].Accepted {
		t.Errorf("restricted VAL %.3f does not raise ADVl throughput over VAL %.3f", rs[1].Accepted, rs[0].Accepted)
	}
	if rs[3].Accepted < 1.03*rs[2].Accepted {
		t.Errorf("recomputation %.3f does not raise VAL's saturation throughput %.3f", rs[3].Accepted, rs[2].Accepted)
	}
}

// Livelock guard (thesis §1.4.2.2): a local misroute in the source group
// forces a global hop next, so no packet takes more than two local hops
// before its first global hop, and every packet is delivered, under every
// policy at saturation.
func TestInTransitPoliciesLivelockGuardAndConservation(t *testing.T) {
	var cfgs []config.Config
	for _, r := range []string{"PAR", "OLM"} {
		for _, pol := range []string{"CRG", "RRG", "NRG", "MM", "CRG_L", "RRG_L", "NRG_L", "MM_L"} {
			for _, pat := range []string{"UN", "ADV"} {
				cfgs = append(cfgs, adConfig(2, r, pat, 1.0, func(c *config.Config) {
					c.Routing.Policy = pol
					c.Sim.Warmup, c.Sim.Cycles = 1500, 1500
				}))
			}
		}
	}
	for i, r := range adRun(t, cfgs...) {
		c := cfgs[i]
		if r.Misrouted.MaxLocalBeforeGlobal > 2 {
			t.Errorf("%s %s %s: a packet took %d local hops before its first global one", c.Routing.Name,
				c.Routing.Policy, c.Traffic.Pattern, r.Misrouted.MaxLocalBeforeGlobal)
		}
		if c.Traffic.Pattern == "ADV" && r.Misrouted.Packets == 0 {
			t.Errorf("%s %s under ADV+1 never misrouted", c.Routing.Name, c.Routing.Policy)
		}
		if c.Routing.Policy == "CRG" && r.Misrouted.InSourceGroup+r.Misrouted.AtInjection == 0 && c.Traffic.Pattern == "ADV" {
			t.Errorf("%s CRG: no misroute decided in the source group", c.Routing.Name)
		}
	}
}

// Every mechanism, at saturation, under several patterns: no packet lost, no
// deadlock (distance-based VCs, OLM's opportunistic reuse, request-reply).
func TestAdaptiveConservationEverywhere(t *testing.T) {
	var cfgs []config.Config
	for _, r := range []string{"UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"} {
		for _, pat := range []string{"UN", "ADVC", "ADVL", "HOT", "PERM"} {
			cfgs = append(cfgs, adConfig(2, r, pat, 1.0, func(c *config.Config) { c.Sim.Warmup, c.Sim.Cycles = 1000, 1000 }))
		}
		cfgs = append(cfgs, adConfig(2, r, "UN", 1.0, func(c *config.Config) {
			c.Sim.Warmup, c.Sim.Cycles = 1000, 1000
			c.Traffic.Reactive = true
			c.Routing.Congestion = "perPortMin"
			c.Routing.AcorMode = "packet"
		}))
	}
	for _, pa := range []string{"RRG-Gr", "CRG-Sw", "CRG-Gr"} {
		cfgs = append(cfgs, adConfig(2, "PB", "ADV", 1.0, func(c *config.Config) {
			c.Sim.Warmup, c.Sim.Cycles = 1000, 1000
			c.Routing.PhaseA, c.Routing.Recompute, c.Routing.Restricted = pa, true, true
		}))
	}
	adRun(t, cfgs...)
}

// A transient UN → ADV+1 (thesis §1.5, reaction time): the share of
// non-minimal packets rises within a bounded time after the switch for PB
// (saturation bits) and OLM (in-transit).
func TestTransientNonMinimalShareRises(t *testing.T) {
	var cfgs []config.Config
	for _, r := range []string{"PB", "OLM"} {
		cfgs = append(cfgs, adConfig(4, r, "UN", 0.2, func(c *config.Config) {
			c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval = 2000, 4000, 250
			c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 2000, "ADV"
		}))
	}
	for i, r := range adRun(t, cfgs...) {
		sw := int64(4000)
		var before, after float64
		var within int64 = -1
		for _, smp := range r.Series {
			switch {
			case smp.Cycle <= sw:
				before = smp.Misrouted
			case within < 0 && smp.Misrouted > 50:
				within = smp.Cycle - sw
			}
			after = smp.Misrouted
		}
		t.Logf("%s: non-minimal %.1f%% before the switch, %.1f%% at the end, above 50%% %d cycles after it",
			cfgs[i].Routing.Name, before, after, within)
		if before > 25 || after < 60 || within < 0 || within > 1500 {
			t.Errorf("%s: non-minimal share %.1f%% → %.1f%%, crossing 50%% %d cycles after the switch", cfgs[i].Routing.Name, before, after, within)
		}
	}
}

func ExampleSim_adaptiveRoutings() {
	for _, n := range []string{"UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"} {
		c := config.Default()
		c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
		c.Routing.Name = n
		in, l, g := c.VCs()
		fmt.Printf("%s %d/%d/%d\n", n, in, l, g)
	}
	// Output:
	// UGAL 3/4/2
	// PB 3/4/2
	// PAR 3/5/2
	// OLM 3/3/2
	// ACOR 3/4/2
	// PB_ACOR 3/4/2
}

// ACOR-Switch level management (ACOR paper §4.2.2, FOGSim semantics):
// raise as soon as blocked ≥ IT (which restarts the interval), lower only at
// the end of an interval when blocked ≤ DT; 2LA jumps to its last level.
func TestAcorSwitchThresholds(t *testing.T) {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Routing.Name = "ACOR"
	c.Routing.AcorHI, c.Routing.AcorIT1, c.Routing.AcorDT1, c.Routing.AcorDT2 = 100, 15, 5, 15
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	a := &s.acor
	if a.it[1] != 500 {
		t.Fatalf("IT2 default %d, want 500 for ACOR", a.it[1])
	}
	// the level update at the start of each cycle, then n blocked attempts
	cycle := func(n int) {
		s.acorLevels()
		for i := 0; i < n; i++ {
			s.acorBlock(0)
		}
		s.now++
	}
	cycle(14)
	cycle(0)
	if a.level[0] != 0 {
		t.Fatal("raised below IT1")
	}
	cycle(1) // the 15th
	raisedAt := s.now
	cycle(0)
	if a.level[0] != 1 || a.blocked[0] != 0 || a.deadline[0] != raisedAt+100 {
		t.Fatalf("at IT1: level %d blocked %d interval end %d, want 1, 0, %d", a.level[0], a.blocked[0], a.deadline[0], raisedAt+100)
	}
	cycle(6) // 6 > DT1 blocked in this interval
	for s.now < raisedAt+100 {
		cycle(0)
	}
	if a.level[0] != 1 {
		t.Fatal("lowered before the end of the interval")
	}
	cycle(0) // end of interval, 6 > DT1
	if a.level[0] != 1 || a.deadline[0] != raisedAt+200 || a.blocked[0] != 0 {
		t.Fatalf("level %d interval end %d blocked %d after an interval above DT1", a.level[0], a.deadline[0], a.blocked[0])
	}
	cycle(5)
	for s.now <= raisedAt+200 {
		cycle(0)
	}
	if a.level[0] != 0 || a.perLevel != [3]int32{int32(s.R), 0, 0} {
		t.Fatalf("level %d (routers per level %v) after an interval at DT1, want 0", a.level[0], a.perLevel)
	}

	c.Routing.AcorSequence = "2LA"
	c.Routing.Name = "PB_ACOR"
	s, _ = New(c, 1)
	if s.acor.it[1] != 50 {
		t.Fatalf("IT2 default %d, want 50 for PB_ACOR", s.acor.it[1])
	}
	for i := 0; i < 15; i++ {
		s.acorBlock(3)
	}
	s.acorLevels()
	if s.acor.level[3] != 1 || s.acor.seq[1] != paRRGSw {
		t.Fatalf("2LA level %d, want the last one (RRG-Sw)", s.acor.level[3])
	}
}

// Under ADV+h the blocked injections of ACOR-Switch-3L raise the routers'
// levels towards RRG-Sw; under light UN they stay at level 1.
func TestAcorSwitchLevelsFollowTraffic(t *testing.T) {
	rs := adRun(t,
		adConfig(4, "ACOR", "ADV", 0.5, func(c *config.Config) { c.Traffic.AdvOffset = 4; c.Sim.Interval = 500 }),
		adConfig(4, "ACOR", "UN", 0.05, func(c *config.Config) { c.Sim.Interval = 500 }))
	adv, un := rs[0].Series[len(rs[0].Series)-1], rs[1].Series[len(rs[1].Series)-1]
	t.Logf("mean level ADV+h %.2f (routers per level %v), UN %.2f; phase A shares ADV+h %v", adv.AcorLevel, adv.AcorRouters, un.AcorLevel, rs[0].Misrouted.PhaseA)
	if adv.AcorLevel < 2 || un.AcorLevel > 1.05 {
		t.Errorf("mean ACOR level %.2f under ADV+h, %.2f under UN", adv.AcorLevel, un.AcorLevel)
	}
	if len(rs[0].AcorLevels) != 264 || rs[0].Misrouted.PhaseA[paRRGSw] < 0.3 {
		t.Errorf("per-router levels %d, RRG-Sw share %.2f", len(rs[0].AcorLevels), rs[0].Misrouted.PhaseA[paRRGSw])
	}
}

// PB's saturation bits carried by data packets crossing local links instead
// of a free side-band channel: the information is older and sparser, yet
// under ADV+1 PB still adapts (thesis §1.4.2.1.1: "piggybacked in headers").
func TestPiggyBackOnDataPackets(t *testing.T) {
	mk := func(mode string) config.Config {
		return adConfig(4, "PB", "ADV", 0.5, func(c *config.Config) {
			c.Routing.PbBroadcast = mode
			c.Sim.Warmup, c.Sim.Cycles = 2000, 2000
		})
	}
	rs := adRun(t, mk("sideband"), mk("piggyback"))
	t.Logf("PB ADV+1 accepted: side-band %.3f, piggybacked %.3f", rs[0].Accepted, rs[1].Accepted)
	if rs[1].Accepted < 0.75*rs[0].Accepted || rs[1].Accepted < 8.0/32 {
		t.Errorf("piggybacked PB %.3f vs side-band %.3f", rs[1].Accepted, rs[0].Accepted)
	}
	if reflect.DeepEqual(rs[0].Series, rs[1].Series) {
		t.Error("piggybacking changed nothing")
	}
}

// The PB bits are kept incrementally (running totals, only the changed
// routers and VCs recomputed): after a loaded run they equal a recomputation
// from scratch for every router, for all-packet and minimal-only occupancy.
func TestPiggyBackBitsIncrementalEqualFull(t *testing.T) {
	for _, cong := range []string{"perVC", "perVCMin"} {
		// (at h=2, C = 200% can never mark one of two links: Q > Q + q + T)
		c := adConfig(4, "PB", "ADV", 0.4, func(c *config.Config) { c.Routing.Congestion = cong })
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		set := 0
		for i := 0; i < 2000; i++ {
			s.Step()
			if i%250 != 249 {
				continue
			}
			s.startCycle() // bring the bits to this cycle
			for r := 0; r < s.R; r++ {
				got := s.pb.satHist[s.pb.curSlot+r]
				if want := s.globalBits(r, s.pb.coef, s.pb.coefPct, s.pb.t); got != want {
					t.Fatalf("%s cycle %d router %d: bits %b, from scratch %b", cong, s.now, r, got, want)
				}
				if got != 0 {
					set++
				}
			}
		}
		if set == 0 {
			t.Errorf("%s: no saturation bit ever set under ADV+1", cong)
		}
	}
}

// PB's saturation test (thesis eq. 1.3) compares a global link with C times
// the mean of its router's global links: with h = 2 and C = 200% it reads
// Q > Q + Q' + T and never marks a link, so PB is UGAL bit for bit; with
// h = 3 the bits act.
func TestPBBitsNeedThreeGlobalLinks(t *testing.T) {
	run := func(h int, name string) (float64, float64) {
		c := btConfig(h, 1000, 1500)
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = name, "ADV", 0.6
		r := btRun(t, c, 1)
		return r.Accepted, r.Latency.Avg
	}
	ua, ul := run(2, "UGAL")
	pa, pl := run(2, "PB")
	if ua != pa || ul != pl {
		t.Errorf("h=2: PB %v/%v differs from UGAL %v/%v, though no link can be marked", pa, pl, ua, ul)
	}
	ua, ul = run(3, "UGAL")
	pa, pl = run(3, "PB")
	if ua == pa && ul == pl {
		t.Errorf("h=3: PB equals UGAL (%v/%v): its bits never acted", pa, pl)
	}
}
