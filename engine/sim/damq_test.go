package sim

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/topology"
)

// DAMQ input buffers (router.damq, damq.go; thesis §5.1.2, §5.3.1).

// damqFig56 is the system of thesis Fig. 5.6 at size h: MIN under UN with
// 2/1 VCs, 128 phits per local port and 512 per global port (64 and 512 per
// VC), DAMQ buffers reserving `reserve` % of each per-VC buffer (of a local
// VC's 8 packets, 25% is 2 and 75% is 6; reserve < 0: static buffers of the
// same memory).
func damqFig56(h int, reserve, load float64, warmup, cycles int) config.Config {
	c := btConfig(h, warmup, cycles)
	c.Router.LocalVCs, c.Router.GlobalVCs = 2, 1
	c.Router.LocalBuffer, c.Router.GlobalBuffer = 64, 512
	c.Traffic.Load = load
	if reserve >= 0 {
		c.Router.Damq, c.Router.DamqReserve = true, reserve
	}
	return c
}

// damqRun runs c (seed 1) to its end or to a deadlock, with the census
// (the DAMQ counters against the recounted buffers, links and credits)
// every 1,024 cycles and at the end.
func damqRun(t *testing.T, c config.Config) (*result.Result, *DeadlockError) {
	t.Helper()
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	var censusErr error
	r, err := s.Run(context.Background(), func(p Progress) {
		if censusErr == nil {
			censusErr = s.Census()
		}
	})
	var de *DeadlockError
	if err != nil && !errors.As(err, &de) {
		t.Fatal(err)
	}
	if censusErr == nil {
		censusErr = s.Census()
	}
	if censusErr != nil {
		t.Fatalf("census: %v", censusErr)
	}
	return r, de
}

// Target 18, thesis Fig. 5.6 (§5.3.1): with no reserve, VC 0 of the local
// ports takes the whole pool at saturation, packets cannot advance to VC 1
// of the next buffer, and the network deadlocks. The run must end with the
// deadlock reported (result.Deadlock, a DeadlockError), not hang; the same
// network with 25% reserved per VC (2 packets) runs to its end. h=2 (72 nodes):
// the deadlock forms within the first few thousand cycles.
func TestDamqFig56NoReserveDeadlocks(t *testing.T) {
	t.Parallel()
	for _, reserve := range []float64{0, 25} {
		c := damqFig56(2, reserve, 1.0, 5000, 10000)
		c.Sim.Watchdog = 1000
		r, de := damqRun(t, c)
		total := int64(c.Sim.Warmup + c.Sim.Cycles)
		switch {
		case reserve > 0 && de != nil:
			t.Errorf("reserve %g%%: deadlock %v", reserve, de)
		case reserve > 0:
			t.Logf("reserve %g%%: ran %d cycles, accepted %.3f", reserve, r.SimCycles, r.Accepted)
		case de == nil:
			t.Errorf("reserve 0 at load 1.0: ran to its end (accepted %.3f), want a deadlock", r.Accepted)
		case r == nil || r.Deadlock == nil || de.Cycle >= total:
			t.Errorf("reserve 0: want the partial result with its deadlock section before cycle %d, got %v at %d", total, r, de.Cycle)
		default:
			t.Logf("reserve 0: %v", de)
			if de.InFlight == 0 || de.StuckBuffers == 0 {
				t.Errorf("reserve 0: the report names no stuck buffer or packet: %v", de)
			}
		}
	}
}

// Target 18, thesis Fig. 5.6 (§5.3.1) at h=4 (1,056 nodes; h=8 is too
// slow), load 1.0: 25% of each per-VC buffer reserved (2 of a local VC's
// 8 packets) congests, VC 0 taking most of the pool and leaving VC 1 too little to
// cover the link round trip, so its accepted load is clearly below that of
// 75% (6 packets), which is within a few per cent of static buffers (the
// thesis: the best reserve, with a negligible gain over static). Warm-up
// 3,000 and 5,000 measured cycles; the numbers are in the log.
func TestDamqFig56ReservationAtSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("three saturated h=4 runs (about 20 s)")
	}
	t.Parallel()
	acc := map[float64]float64{}
	for _, reserve := range []float64{25, 75, -1} {
		r, de := damqRun(t, damqFig56(4, reserve, 1.0, 3000, 5000))
		if de != nil {
			t.Fatalf("reserve %g%%: %v", reserve, de)
		}
		acc[reserve] = r.Accepted
		t.Logf("reserve %3g%% (−1: static): accepted %.4f, latency %.0f", reserve, r.Accepted, r.Latency.Avg)
	}
	if acc[25] > 0.96*acc[75] {
		t.Errorf("reserve 25%% accepts %.4f, 75%% %.4f: want 25%% clearly below 75%% (< 0.96×)", acc[25], acc[75])
	}
	if d := math.Abs(acc[75]/acc[-1] - 1); d > 0.03 {
		t.Errorf("reserve 75%% accepts %.4f, static %.4f: want within 3%%", acc[75], acc[-1])
	}
}

// A reserve of the whole per-VC buffer (100%) leaves no shared pool: the
// result is the static buffers' to the bit (thesis Fig. 5.6: 8 packets "is
// equivalent to statically partitioned buffers"). h=2, MIN at saturation
// and VAL (4/2 VCs) under ADV+1.
func TestDamqFullReserveIsStatic(t *testing.T) {
	t.Parallel()
	val := func(c *config.Config) {
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "VAL", "ADV", 0.6
		c.Router.LocalVCs, c.Router.GlobalVCs, c.Router.LocalBuffer, c.Router.GlobalBuffer = 4, 2, 32, 256
	}
	for _, tc := range []struct {
		name string
		edit func(*config.Config)
	}{{"MIN UN 1.0", func(*config.Config) {}}, {"VAL ADV+1 0.6", val}} {
		var docs [2][]byte
		for i, damq := range []bool{false, true} {
			c := damqFig56(2, -1, 1.0, 1000, 3000)
			tc.edit(&c)
			c.Router.Damq, c.Router.DamqReserve = damq, 100
			r, de := damqRun(t, c)
			if de != nil {
				t.Fatalf("%s: %v", tc.name, de)
			}
			r.CPUSeconds, r.Config = 0, config.Config{}
			docs[i], _ = json.Marshal(r)
		}
		if string(docs[0]) != string(docs[1]) {
			t.Errorf("%s: DAMQ reserving the whole per-VC buffer differs from static buffers", tc.name)
		}
	}
}

// The census holds with DAMQ buffers every 50 cycles of saturated runs (the
// upstream counters equal the recounted phits of each VC, the shared
// counter their use beyond the reserves, each VC's credits its free reserve
// plus the free pool), and after injection stops every packet is delivered,
// every credit returns (each VC's credits are its reserve and the whole
// pool again) and the counters are back to zero. h=2: MIN 2/1 with 25%
// reserve (the congested case of Fig. 5.6), VAL 4/2 under ADV+1 with 25%
// and PB under UN with no reserve on 4/2 VCs (no deadlock in these runs),
// OLM with FOGSim's earlier credit timing and the input-queued router.
func TestDamqCensusAndDrain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(*config.Config)
	}{
		{"MIN 2/1 reserve 25%", func(c *config.Config) {
			*c = damqFig56(2, 25, 1.0, 0, 100000)
		}},
		{"VAL ADV+1 4/2 reserve 25%", func(c *config.Config) {
			c.Routing.Name, c.Traffic.Pattern, c.Router.DamqReserve = "VAL", "ADV", 25
		}},
		{"PB UN 4/2 reserve 0%", func(c *config.Config) {
			c.Routing.Name, c.Router.DamqReserve = "PB", 0
		}},
		{"OLM ADV+1 4/2 reserve 50%, credits at the output FIFO", func(c *config.Config) {
			c.Routing.Name, c.Traffic.Pattern, c.Router.DamqReserve, c.Router.CreditTiming = "OLM", "ADV", 50, "output"
		}},
		{"MIN input-queued 4/2 reserve 25%", func(c *config.Config) {
			c.Router.Model, c.Router.Speedup, c.Router.DamqReserve = "iq", 1, 25
		}},
	} {
		c := btConfig(2, 0, 100000)
		c.Traffic.Load = 1.0
		c.Router.Damq = true
		c.Router.LocalVCs, c.Router.GlobalVCs = 4, 2
		tc.edit(&c)
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		s, err := New(c, 3)
		if err != nil {
			t.Fatal(err)
		}
		relStep(t, s, 1500, 50)
		var shared int32
		for _, x := range s.dq.shared {
			shared = max(shared, x)
		}
		if shared == 0 {
			t.Errorf("%s: no shared pool in use after 1,500 saturated cycles: the test exercises nothing", tc.name)
		}
		loaded := s.live
		stopInjection(s)
		for s.live > 0 && s.now < 1500+drainBound {
			relStep(t, s, s.now+50, 50)
		}
		if s.live > 0 {
			t.Fatalf("%s: %d of %d packets still in flight %d cycles after injection stopped", tc.name, s.live, loaded, drainBound)
		}
		relStep(t, s, s.now+s.wheelMask+1, 50) // the last credits land
		for i, cr := range s.credits {
			if pi := i / s.maxVC; s.pclass[pi] != 0 && i%s.maxVC < s.vcCount[s.pclass[pi]] && cr != s.bufCap[s.pclass[pi]] {
				t.Errorf("%s: output %s holds %d credits after draining, want its reserve and the pool, %d", tc.name, s.where(pi, i%s.maxVC), cr, s.bufCap[s.pclass[pi]])
			}
		}
		drainedDamq(t, s)
		t.Logf("%s: the most phits of one port's pool in use %d; %d packets drained by cycle %d", tc.name, shared, loaded, s.now)
	}
}

// drainedDamq checks, after drain, that the DAMQ counters are back to zero.
func drainedDamq(t *testing.T, s *Sim) {
	t.Helper()
	for i, u := range s.dq.used {
		if u != 0 {
			t.Errorf("output %s counts %d phits held downstream after draining", s.where(i/s.maxVC, i%s.maxVC), u)
		}
	}
	for po, x := range s.dq.shared {
		if x != 0 {
			t.Errorf("output %s counts %d phits of the shared pool after draining", s.where(po, 0), x)
		}
	}
}

// A hand-built case on the tiny Dragonfly of rbSim (router 0's local port
// 4 feeds router 1's local port 4): 2 local VCs of 32 phits, one packet (8
// phits, 25%) reserved per VC, so the port's 64 phits are 2 reserves and a
// shared pool of 48 phits (6 packets); a VC holds at most 7 packets.
// Router 1's ejection ports are held closed. Ten packets from router 0's
// nodes to node 4 (local VC 0) fill VC 0 with its reserve and the whole
// pool; then three packets coming over router 0's global link to node 5
// (local VC 1, the last hop) get only VC 1's reserve: one goes, two sleep
// at router 0. Opening node 4's ejection drains VC 0: its credits free
// the pool, which wakes the sleeping VC 1 heads (a credit of another VC of
// the port) and lets all three into VC 1 though its own head never moved.
func TestDamqSharedPoolBlocksTheOtherVC(t *testing.T) {
	s := rbSim(t, func(c *config.Config) {
		c.Router.LocalVCs, c.Router.GlobalVCs, c.Router.LocalBuffer = 2, 1, 32
		c.Router.Damq, c.Router.DamqReserve = true, 25
	})
	const down = 6 + 4 // router 1's local input
	const up = 4       // router 0's local output
	P := int32(s.P)
	if s.dq.reserve[s.pclass[up]] != P || s.bufCap[s.pclass[up]] != 7*P || s.bufs[down*s.maxVC].cap != 7 {
		t.Fatalf("reserve %d, most per VC %d phits, ring %d slots: want %d, %d, 7", s.dq.reserve[s.pclass[up]], s.bufCap[s.pclass[up]], s.bufs[down*s.maxVC].cap, P, 7*P)
	}
	for port := 6; port < 10; port++ {
		s.ports[port].readyAt = math.MaxInt32 - 1 // router 1's ejection ports
	}
	step := func(n int) {
		for i := 0; i < n; i++ {
			s.Step()
			if err := s.Census(); err != nil {
				t.Fatalf("cycle %d: %v", s.now, err)
			}
		}
	}
	state := func() (vc0, vc1, waiting int32) {
		return s.bufs[down*s.maxVC].len, s.bufs[down*s.maxVC+1].len, s.bufs[5*s.maxVC].len
	}
	for i := 0; i < 10; i++ {
		rbInject(s, i%3, 4, i%3, s.now)
	}
	step(300)
	if vc0, vc1, _ := state(); vc0 != 7 || vc1 != 0 {
		t.Fatalf("VC 0 holds %d packets, VC 1 %d: want 7 (reserve and pool), 0", vc0, vc1)
	}
	if cr := s.credits[up*s.maxVC : up*s.maxVC+2]; cr[0] != 0 || cr[1] != P || s.dq.shared[up] != 6*P {
		t.Fatalf("credits %v, shared %d: want [0 %d] (VC 1 keeps its reserve), %d", cr, s.dq.shared[up], P, 6*P)
	}
	for i := 0; i < 3; i++ {
		k := rbTransit(s, 0, 5, 0, 8, 5, s.now)
		s.damqTake(int(s.ports[5].peer), 0) // rbTransit took the upstream credits as a grant
		_ = k
	}
	step(300)
	if vc0, vc1, waiting := state(); vc0 != 7 || vc1 != 1 || waiting != 2 {
		t.Fatalf("VC 0 holds %d, VC 1 %d, router 0's global input %d: want 7, 1 (its reserve), 2", vc0, vc1, waiting)
	}
	if cr := s.credits[up*s.maxVC : up*s.maxVC+2]; cr[0] != 0 || cr[1] != 0 {
		t.Fatalf("credits %v: want [0 0]", cr)
	}
	s.ports[6].readyAt = int32(s.now) // node 4 consumes again
	s.ports[down].inWait = 0
	step(500)
	if vc0, vc1, waiting := state(); vc0 != 0 || vc1 != 3 || waiting != 0 {
		t.Fatalf("after node 4 drains: VC 0 holds %d, VC 1 %d, router 0's global input %d: want 0, 3, 0", vc0, vc1, waiting)
	}
	if cr := s.credits[up*s.maxVC : up*s.maxVC+2]; cr[0] != 5*P || cr[1] != 4*P || s.dq.shared[up] != 2*P {
		t.Fatalf("credits %v, shared %d: want [%d %d], %d", cr, s.dq.shared[up], 5*P, 4*P, 2*P)
	}
	s.ports[7].readyAt = int32(s.now) // node 5 too
	s.ports[down].inWait = 0
	step(500)
	if s.live != 0 {
		t.Fatalf("%d packets still in flight", s.live)
	}
	if cr := s.credits[up*s.maxVC : up*s.maxVC+2]; cr[0] != 7*P || cr[1] != 7*P {
		t.Fatalf("credits %v after draining: want [%d %d]", cr, 7*P, 7*P)
	}
	drainedDamq(t, s)
}

// TestCallgrindDamq is costs.sh's probe (TestCallgrindWindow) with DAMQ
// buffers: PHITSIM_COST_DAMQ=<routing> runs it at h=4, UN 0.2, with the
// Table 1.2 buffers and 75% of each reserved per VC (the thesis's choice), under the command
// costs.sh gives valgrind with this test's name (BENCHMARKS.md).
func TestCallgrindDamq(t *testing.T) {
	routing := os.Getenv("PHITSIM_COST_DAMQ")
	if routing == "" {
		t.Skip("PHITSIM_COST_DAMQ=<routing> runs the callgrind cost probe with DAMQ buffers")
	}
	s := benchSim(t, 4, routing, 0.2, func(c *config.Config) { c.Router.Damq, c.Router.DamqReserve = true, 75 })
	t.Logf("hops %d", costWindow(s, 4000))
}

// router.damqReserve is a share of each per-VC buffer in whole packets
// (rounded down), so that one value reserves 75% of a local and of a global
// VC alike (thesis §5.3.1 keeps 75% per VC from Fig. 5.7 on); the
// validator refuses a share outside [0, 100] naming the field.
func TestDamqReserveSizing(t *testing.T) {
	for _, tc := range []struct {
		pct           float64
		buf, vcs      int
		reserve, most int
	}{
		{25, 64, 2, 16, 112}, {75, 64, 2, 48, 80}, {100, 64, 2, 64, 64}, {0, 64, 2, 0, 128},
		{12.5, 64, 2, 8, 120}, {10, 64, 2, 0, 128}, {75, 32, 4, 24, 56}, {75, 256, 2, 192, 320}, {75, 36, 2, 24, 48},
	} {
		r := config.Router{PacketSize: 8, DamqReserve: tc.pct}
		if res, most := r.DamqBuffer(tc.buf, tc.vcs); res != tc.reserve || most != tc.most {
			t.Errorf("%g%% of %d VCs × %d phits: reserve %d, most %d; want %d, %d", tc.pct, tc.vcs, tc.buf, res, most, tc.reserve, tc.most)
		}
	}
	c := damqFig56(2, 100.5, 0.5, 0, 100)
	errs := c.Validate()
	if len(errs) != 1 || errs[0].Path != "router.damqReserve" || !strings.Contains(errs[0].Error(), "[0, 100]") {
		t.Errorf("router.damqReserve=100.5: %v, want one error naming the field and [0, 100]", errs)
	}
}

// Target 17's DAMQ point, thesis Fig. 5.9 (§5.3.2.2) at h=4 (1,056 nodes;
// h=8 is too slow): request-reply UN with MIN on 4/2 VCs (2/1 for requests,
// 2/1 for replies) of 32/256 phits. The baseline congests after
// saturation (its accepted load at 1.0 below that at 0.8), and DAMQ buffers
// reserving 75% per VC (the thesis's choice, §5.3.1) do slightly better
// there. Warm-up 3,000 and 5,000 measured cycles; the numbers are in the
// log.
func TestDamqRequestReplyAfterSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("three saturated h=4 request-reply runs (about 15 s)")
	}
	t.Parallel()
	run := func(load float64, damq bool) float64 {
		c := btConfig(4, 3000, 5000)
		c.Traffic.Reactive, c.Traffic.Load = true, load
		c.Router.LocalVCs, c.Router.GlobalVCs = 4, 2
		if damq {
			c.Router.Damq, c.Router.DamqReserve = true, 75
		}
		r, de := damqRun(t, c)
		if de != nil {
			t.Fatalf("load %.1f, DAMQ %v: %v", load, damq, de)
		}
		t.Logf("load %.1f, DAMQ %-5v: accepted %.4f, latency %.0f", load, damq, r.Accepted, r.Latency.Avg)
		return r.Accepted
	}
	peak, static, damq := run(0.8, false), run(1.0, false), run(1.0, true)
	if static > 0.97*peak {
		t.Errorf("baseline accepts %.4f at load 1.0, %.4f at 0.8: want it to congest after saturation (< 0.97×)", static, peak)
	}
	if damq < 1.01*static {
		t.Errorf("DAMQ 75%% accepts %.4f at load 1.0, the baseline %.4f: want DAMQ slightly better (≥ 1.01×)", damq, static)
	}
}

// PB's view of DAMQ global links (thesis Fig. 5.11, §5.3.3.3: PB with DAMQ
// 8/4 under request-reply ADV+1, per-VC and per-port sensing). With DAMQ a
// VC's credits are its free reserve plus the port's free shared pool, so the
// occupancy a routing reads from them (the buffer less the credits) counts
// the pool's use by every VC of the port: the UGAL comparison at injection
// (occVC) does, and so does FOGSim v5's occupancy for PB's saturation bits
// (dynamicBufferBufferedOutPort::getTotalOccupancy: the VC's own phits plus
// the other VCs' use of the shared part). The per-router view PB's bits are
// computed from (gocc) must agree with the credits at every cycle; it used
// to count the VC's own packets only, so a global port whose pool the
// replies filled looked empty to the requests' VCs. Checked for per-VC and
// per-port sensing (both keep gocc) at h=2, 600 cycles of saturated
// request-reply ADV+1 (the pool in use from about cycle 200).
func TestDamqFig511PBSeesTheSharedPool(t *testing.T) {
	for _, congestion := range []string{"perVC", "perPort"} {
		c := btConfig(2, 0, 600)
		c.UseFOGSimModel()
		c.Routing.Name, c.Routing.Congestion, c.Routing.Recompute = "PB", congestion, true
		c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load, c.Traffic.Reactive = "ADV", 1, 0.6, true
		c.Router.LocalVCs, c.Router.GlobalVCs = 8, 4
		c.Router.LocalBuffer, c.Router.GlobalBuffer = 32, 256
		c.Router.Damq, c.Router.DamqReserve = true, 75
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatal(errs)
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.ov.gocc == nil || s.pb.satHist == nil {
			t.Fatalf("%s: PB keeps no view of the global links", congestion)
		}
		gcap := s.bufCap[topology.Global] // a VC's reserve and the whole pool
		shared := 0
		for s.now < 600 {
			s.Step()
			for pi := range s.ports {
				if s.ov.gbase[pi] < 0 {
					continue
				}
				if s.dq.shared[pi] > 0 {
					shared++
				}
				for v := 0; v < s.vcCount[topology.Global]; v++ {
					want := gcap - s.credits[pi*s.maxVC+v]
					if got := s.ov.gocc[s.gidx(pi, v)]; got != want {
						t.Fatalf("%s, cycle %d, port %d VC %d: PB's view %d phits, the buffer less the credits %d (the pool holds %d)",
							congestion, s.now, pi, v, got, want, s.dq.shared[pi])
					}
				}
				r := pi / s.radix
				if got, want := s.pb.live[r], s.globalBits(r, s.pb.coef, s.pb.coefPct, s.pb.t); got != want {
					t.Fatalf("%s, cycle %d, router %d: PB's bits %b, recomputed %b", congestion, s.now, r, got, want)
				}
			}
		}
		if shared == 0 {
			t.Fatalf("%s: no global port's pool was used: the test sees nothing", congestion)
		}
		t.Logf("%s: a global port's pool in use in %d port-cycles", congestion, shared)
	}
}
