package sim

// router.voq, the virtual output queues of Kim et al., "Contention-based
// Congestion Management in Large-Scale Networks" §V-A (4 VCs per output at
// each input): head-of-line blocking between outputs removed on the paper's
// networks, more than 32 queues per port (the 256-node network's 124), the
// census and drains with them, determinism, and the refusals.

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// The 16-node 1D network (fbfly16: 4 routers, radix 7, 28 queues per input)
// under UR at load 1 with MIN, full size (20,000 + 20,000 cycles): without
// VOQs a head waiting for one output blocks the packets behind it for the
// others and the network accepts about 0.84 (TIMING.md, "Flattened
// butterfly"); with them it reaches the link bound, 15/16 = 0.9375.
func TestVoqRemovesHeadOfLineBlocking16(t *testing.T) {
	c := config.FBFly(1, 4, 4)
	c.Sim.Seeds = 1
	c.Router.Voq = false
	without, _ := fbflyLoad(t, c, 1)
	c.Router.Voq = true
	with, _ := fbflyLoad(t, c, 1)
	t.Logf("fbfly16 MIN UR 1.0: accepted %.4f without VOQs, %.4f with", without, with)
	if without > 0.87 {
		t.Errorf("without VOQs: accepted %.3f, want the head-of-line-blocked ≈0.84", without)
	}
	if with < 0.90 || with > 15.0/16+0.005 {
		t.Errorf("with VOQs: accepted %.3f, want ≥ 0.90 and ≤ the link bound 15/16", with)
	}
}

// The 512-node 2D network (fbfly512: 8×8 routers, c=8, radix 22, 88 queues
// per input) under UR at load 1 with MIN, full size (20,000 + 20,000
// cycles): 0.71 without VOQs, against the link bound 511/512; with them
// 0.95 (measured 0.9502 at 10,000 + 10,000 cycles).
func TestVoqRemovesHeadOfLineBlocking512(t *testing.T) {
	if testing.Short() {
		t.Skip("a 512-node run of 40,000 cycles at saturation")
	}
	c := config.FBFly(2, 8, 8)
	c.Sim.Seeds = 1
	c.Router.Voq = true
	with, _ := fbflyLoad(t, c, 1)
	t.Logf("fbfly512 MIN UR 1.0 with VOQs: accepted %.4f", with)
	if with < 0.90 || with > 511.0/512+0.005 {
		t.Errorf("with VOQs: accepted %.3f, want ≥ 0.90 and ≤ the link bound 511/512", with)
	}
}

// More than 32 queues per port: the 256-node 1D network (fbfly256: 16
// routers, radix 31, 124 queues per input, so the second word of the mask
// and the 7-bit queue of the wheels' entries) under UGAL with random
// injection VCs, UR at 0.8, 12,000 cycles, the census every 500 cycles. At
// an injection port every (output, VC) but its own node's is reached; at a
// transit input from router u of router r, exactly the queues the routing
// implies: every node port on VC 0 (the minimal hop's end) and on VC 1 (the
// Valiant path's second leg), and on VC 0 every link but the one back to u
// (a Valiant packet at its intermediate r, whose destination router is
// neither r nor its source u).
func TestVoqMoreThan32QueuesPerPort(t *testing.T) {
	c := config.FBFly(1, 16, 16)
	c.Routing.Name, c.Router.Voq, c.Router.InjectionPolicy = "UGAL", true, "rand"
	c.Traffic.Load = 0.8
	c.Sim.Warmup, c.Sim.Cycles = 0, 12000
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.nq[topology.FBFlyLink]; got != 124 {
		t.Fatalf("queues per link input: %d, want 31 ports × 4 VCs = 124", got)
	}
	seen := make([]bool, len(s.bufs))
	s.hk.arrive = append(s.hk.arrive, func(pi, q int, k int32) {
		if q/4 != int(s.pk[k].outPort) && s.pclass[pi] == topology.Injection {
			t.Errorf("packet %d entered queue %d of output %d, routed to port %d", k, q, q/4, s.pk[k].outPort)
		}
		seen[pi*s.maxVC+q] = true
	})
	for s.now < 12000 {
		s.Step()
		if s.now%500 == 0 {
			if err := s.Census(); err != nil {
				t.Fatalf("cycle %d: %v", s.now, err)
			}
		}
	}
	if s.st.del < 50000 {
		t.Fatalf("delivered %d packets: the run carries too little", s.st.del)
	}
	const V = 4
	union := []map[int]bool{{}, {}}   // per port class, the queue indexes reached
	wantAny := []map[int]bool{{}, {}} // and those the routing uses
	for pi := range s.ports {
		r, port := pi/s.radix, pi%s.radix
		want := map[int]bool{}
		if s.pclass[pi] == topology.Injection {
			for o := 0; o < s.radix; o++ {
				for v := 0; v < V && o != port; v++ {
					want[o*V+v] = true
				}
			}
		} else {
			u, _ := s.topo.Link(r, port)
			for o := 0; o < s.radix; o++ {
				if s.pclass[r*s.radix+o] == topology.Injection {
					want[o*V], want[o*V+1] = true, true
				} else if w, _ := s.topo.Link(r, o); w != u {
					want[o*V] = true
				}
			}
		}
		reached, top := 0, 0
		for q := 0; q < s.nq[s.pclass[pi]]; q++ {
			if !seen[pi*s.maxVC+q] {
				continue
			}
			if !want[q] {
				t.Fatalf("router %d port %d (%s) queue %d (output %d, VC %d) got a packet the routing cannot put there",
					r, port, s.topo.Classes()[s.pclass[pi]].Name, q, q/V, q%V)
			}
			reached, top = reached+1, q
			union[s.pclass[pi]][q] = true
		}
		for q := range want {
			wantAny[s.pclass[pi]][q] = true
		}
		// an injection port uses 120 queues, a transit input 46
		if most := min(len(want)/2, 33); reached < most || top < 64 {
			t.Errorf("router %d port %d: %d queues reached, the highest %d: want at least %d, up to the second mask word", r, port, reached, top, most)
		}
	}
	// the rare ones (node 0 → node 1 on VC 2 is 1/4 of 1/255 of node 0's
	// packets) are reached by some port of the class
	for c := range union {
		if !reflect.DeepEqual(union[c], wantAny[c]) {
			t.Errorf("class %d: %d of the %d queue indexes the routing uses were reached", c, len(union[c]), len(wantAny[c]))
		}
	}
}

// The census and the drain with VOQs: after a burst that saturates the 2D
// 3×3 network (c=2) under MIN and UGAL, every packet is delivered and every
// credit of every queue is back.
func TestVoqDrainsAfterSaturatingBurst(t *testing.T) {
	for _, routing := range []string{"MIN", "UGAL"} {
		c := fbflyTestConfig(2, 3, 2, routing)
		c.Router.Voq = true
		c.Sim.Cycles = 1000000
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		loaded, r := burstAndDrain(s, 4000, "UN", 0, rand.New(rand.NewPCG(5, 6)))
		checkDrained(t, routing, s, s.N, loaded, r)
		if err := s.Census(); err != nil {
			t.Errorf("%s: %v", routing, err)
		}
	}
}

// VOQs on the Dragonfly (h=2, a=4, p=2: radix 7, so 21 queues per local
// input of 3 VCs and 14 per global input of 2) with
// MIN and VAL under UR at load 1, 5,000 + 5,000 cycles with the census:
// MIN gains what head-of-line blocking cost it (0.82 → 0.96 measured);
// Valiant, bound by its doubled path, stays below 0.5.
func TestVoqDragonfly(t *testing.T) {
	for _, routing := range []string{"MIN", "VAL"} {
		acc := [2]float64{}
		for i, voq := range []bool{false, true} {
			c := config.Default()
			c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
			c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 5000, 5000, 1
			c.Routing.Name, c.Router.Voq, c.Traffic.Load = routing, voq, 1
			acc[i] = btRun(t, c, 1).Accepted
		}
		t.Logf("%s UR 1.0, h=2: accepted %.4f without VOQs, %.4f with", routing, acc[0], acc[1])
		switch routing {
		case "MIN":
			if acc[1] < acc[0]+0.08 || acc[1] > 1 {
				t.Errorf("MIN: %.3f with VOQs, %.3f without: want at least +0.08", acc[1], acc[0])
			}
		case "VAL":
			if acc[1] < 0.35 || acc[1] > 0.5 {
				t.Errorf("VAL: %.3f with VOQs, want 0.35–0.5", acc[1])
			}
		}
	}
}

// Same seed, same result with VOQs (UGAL's draws at placement included).
func TestVoqSameSeedSameResult(t *testing.T) {
	c := config.FBFly(2, 3, 2)
	c.Routing.Name, c.Router.Voq, c.Traffic.Load = "UGAL", true, 0.7
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 2000, 4000, 1
	a, b := btRun(t, c, 7), btRun(t, c, 7)
	a.CPUSeconds, b.CPUSeconds = 0, 0
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two runs of seed 7 differ: accepted %.6f vs %.6f, latency %.3f vs %.3f", a.Accepted, b.Accepted, a.Latency.Avg, b.Latency.Avg)
	}
	if c := btRun(t, c, 8); c.Accepted == a.Accepted && c.Latency.Avg == a.Latency.Avg {
		t.Errorf("seeds 7 and 8 give the same result: the test cannot tell runs apart")
	}
}

// What router.voq cannot run is refused naming router.voq and saying why.
func TestVoqRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, why string
		edit      func(*config.Config)
	}{
		{"PAR on a Dragonfly", "decided at the source", func(c *config.Config) { c.Routing.Name = "PAR" }},
		{"OLM on a Dragonfly", "decided at the source", func(c *config.Config) { c.Routing.Name = "OLM" }},
		{"UGAL on a Dragonfly", "occupancy views", func(c *config.Config) { c.Routing.Name = "UGAL" }},
		{"FlexVC", "FlexVC", func(c *config.Config) { c.Router.FlexVC = true }},
		{"DAMQ", "DAMQ", func(c *config.Config) { c.Router.Damq, c.Router.DamqReserve = true, 50 }},
		{"age input arbiter", "round-robin", func(c *config.Config) { c.Router.InputArbiter = "age" }},
		{"UGAL with contention counters", "contention counters", func(c *config.Config) {
			*c = config.FBFly(1, 4, 4)
			c.Routing.Name, c.Routing.InjectionTrigger = "UGAL", "base"
		}},
		{"1,071 queues per port", "at most 1023", func(c *config.Config) {
			*c = config.FBFly(1, 32, 32) // 63 ports × 17 VCs
			c.Router.LocalVCs, c.Router.InjectionVCs = 17, 17
		}},
	} {
		c := config.Default()
		tc.edit(&c)
		c.Router.Voq = true
		errs := c.Validate()
		found := false
		for _, e := range errs {
			if e.Path == "router.voq" && strings.Contains(e.Msg, tc.why) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want an error naming router.voq (%q), got %v", tc.name, tc.why, errs)
		}
	}
	for _, c := range []config.Config{config.FBFly(1, 16, 16), config.FBFly(2, 8, 8)} {
		for _, r := range []string{"MIN", "UGAL"} {
			c.Routing.Name, c.Router.Voq = r, true
			if errs := c.Validate(); len(errs) > 0 {
				t.Errorf("%s %s with VOQs refused: %v", c.Topology.Describe(), r, errs)
			}
		}
	}
}

// VOQs with the router's and the traffic's other options, each loaded at 1
// for 3,000 cycles with the census every 100, then drained (drain: every
// packet delivered, every credit back): request-reply (its reply VCs and
// reservations), 4-packet messages with per-destination source queues (the
// paper's sources), the input-queued model, FOGSim's ejection gate and
// transit outputs, rrgrant and transit priority, on the 16-node flattened
// butterfly with 10-cycle links (MIN; UGAL with request-reply), a 3×3 mesh
// and an h=2 Dragonfly (MIN).
func TestVoqRunsWithTheRouterOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*config.Config)
	}{
		{"request-reply", func(c *config.Config) { c.Traffic.Reactive = true }},
		{"messages, per-destination source queues", func(c *config.Config) {
			c.Traffic.SourceQueue, c.Traffic.SourceQueues, c.Traffic.MessagePackets = true, "perDestination", 4
		}},
		{"input-queued", func(c *config.Config) { c.Router.Model, c.Router.Speedup = "iq", 1 }},
		{"FOGSim ejection and outputs", func(c *config.Config) { c.Router.Ejection, c.Router.OutputFifo = "fogsim", "fogsim" }},
		{"rrgrant, transit priority", func(c *config.Config) { c.Router.InputArbiter, c.Router.TransitPriority = "rrgrant", true }},
		{"UGAL, request-reply, 8 VCs", func(c *config.Config) { c.Routing.Name, c.Traffic.Reactive, c.Router.LocalVCs = "UGAL", true, 8 }},
		{"mesh", func(c *config.Config) { *c = meshConfig(3, 3, 2) }},
		{"Dragonfly", func(c *config.Config) { *c = smallConfig(2) }},
	} {
		c := config.FBFly(1, 4, 4)
		c.Topology.LocalLatency = 10
		tc.edit(&c)
		c.Router.Voq, c.Traffic.Load = true, 1
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		t.Logf("%s: drained in %d cycles", tc.name, drain(t, c, 3000))
	}
}

// The congestion schemes' extra classes in the virtual output queues (the
// layout of Kim et al. §V-A, whose BookSim replicates only the data VCs):
// on the 16-node network with the Fig. 3b pattern (permutation n → n+4 +
// 4-to-1 hotspot, reconstructed) at 0.5, full size, Ideal and ECN under MIN
// and UGAL, loaded 4,000 cycles (the permutation alone from 3,900) with the
// census every 100, then drained
// (every packet delivered, every credit of every queue back). At every
// grant: a packet leaving a data queue is data on a data flow (not a BECN,
// not an Ideal hotspot flow), one leaving the isolated queue is on an Ideal
// hotspot flow, one leaving the control queue is a BECN; and both extra
// queues are reached. Layout: 7 ports × 4 data VCs + 1 extra = 29 queues
// per input here, 22 × 4 + 1 = 89 on the 512-node network.
func TestVoqCongestionSchemes(t *testing.T) {
	for _, tc := range []struct{ scheme, routing string }{
		{"ideal", "MIN"}, {"ideal", "UGAL"}, {"ecn", "MIN"}, {"ecn", "UGAL"},
	} {
		name := tc.scheme + "(" + tc.routing + ")"
		c := cmFig3(true)
		c.Congestion.Scheme, c.Routing.Name, c.Traffic.Load = tc.scheme, tc.routing, 0.5
		// the hotspot senders are backlogged, not stopped by stopInjection:
		// the permutation alone for the last cycles before the drain
		c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 3900, "TORNADO"
		// a throttled flow sends a packet per IPD: at most 100 cycles
		// (not the paper's 1,500), so that its backlog drains within the
		// drain's bound
		c.Congestion.EcnIpdIncrement, c.Congestion.EcnIpdMax = 100, 100
		if !c.Router.Voq {
			t.Fatal("the paper's network has router.voq off")
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		l := topology.FBFlyLink
		if s.nq[l] != s.radix*4+1 || s.dataVCs(l) != 4 {
			t.Fatalf("%s: %d queues per link input, %d data VCs; want %d, 4", name, s.nq[l], s.dataVCs(l), s.radix*4+1)
		}
		var extra, bad int
		s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) {
			cl := s.pclass[r*s.radix+in]
			pk := &s.pk[k]
			prio := s.isControl(k) && s.mech.tag[k].prio
			isoFlow := s.iso.on && !s.isControl(k) && s.iso.flow[int(pk.src)*s.N+int(pk.dst)]
			ctlQ, isoQ := s.isCtlVC(cl, vc), s.isIsoVC(cl, vc)
			if ctlQ || isoQ {
				extra++
				if vc < s.radix*s.dataVCs(cl) {
					bad++
				}
			}
			if ctlQ != prio || isoQ != isoFlow {
				if bad++; bad < 5 {
					t.Errorf("%s: packet %d→%d (BECN %t, hotspot flow %t) granted from queue %d of %s (control %t, isolated %t)",
						name, pk.src, pk.dst, prio, isoFlow, vc, s.where(r*s.radix+in, vc), ctlQ, isoQ)
				}
			}
		})
		drained := drainSim(t, s, 4000)
		t.Logf("%s: %d grants from the extra queues; drained in %d cycles", name, extra, drained)
		if extra == 0 {
			t.Errorf("%s: no packet left an extra class's queue", name)
		}
		if bad > 0 {
			t.Errorf("%s: %d grants from the wrong class's queue", name, bad)
		}
	}
}

// The input stage's two-word fast path (voqArbitrate: the 8 pass masks of a
// port of 65 to 128 queues in registers) against its general path over
// vq.w words: the 1D network of 16 routers with 4 nodes each (radix 19, 76
// queues per input, 2 mask words) under UGAL at load 0.8 runs the same
// packets through the same queues, cycle for cycle, whether its masks have
// 2 words (the fast path) or 4 (the general one, as a port of up to 256
// queues has; the 2 upper words stay 0).
func TestVoqTwoWordPathMatchesWide(t *testing.T) {
	c := config.FBFly(1, 16, 4)
	c.Routing.Name, c.Router.Voq, c.Traffic.Load = "UGAL", true, 0.8
	c.Sim.Warmup, c.Sim.Cycles = 0, 6000
	run := func(w int) (*Sim, int) {
		s, err := New(c, 3)
		if err != nil {
			t.Fatal(err)
		}
		if s.vq.w != 2 {
			t.Fatalf("%d mask words per port, want 2 (76 queues)", s.vq.w)
		}
		if w != s.vq.w { // empty at build: the general path's layout
			s.vq.w, s.vq.busy, s.vq.order = w, make([]uint64, w*len(s.ports)), make([]uint64, 4*w)
		}
		high := 0 // packets into the second word's queues
		s.hk.arrive = append(s.hk.arrive, func(pi, q int, k int32) {
			if q >= 64 {
				high++
			}
		})
		for s.now < 6000 {
			s.Step()
		}
		return s, high
	}
	a, high := run(2)
	b, _ := run(4)
	if high < 2000 || a.st.del < 8000 {
		t.Fatalf("%d packets delivered, %d into queues 64 and up: too few to compare the paths", a.st.del, high)
	}
	if !reflect.DeepEqual(a.st, b.st) || !reflect.DeepEqual(a.vq.ptr, b.vq.ptr) {
		t.Errorf("2 mask words: %d delivered, latency sum %d; 4 words: %d, %d", a.st.del, a.st.latSum, b.st.del, b.st.latSum)
	}
}

// router.injectionVoq=perQueue (Kim et al., Contention-based Congestion
// Management in Large-Scale Networks §V-A: "4 VCs for each output port at
// each input", the injection input included): each injection per-output
// queue holds the class's per-VC buffer of its own. Node 0 of the 16-node
// network (one injection VC, so every flow shares it; MIN) queues 20
// packets to node 4 (router 1) and, once those have filled what they can
// take, one to node 8 (router 2), with the routers not stepped. perQueue:
// the queue towards router 1 takes exactly its 8 packets (256 phits), and
// the packet to node 8 still enters its own queue; shared: the 8 packets
// fill the VC's shared buffer and the packet to node 8 waits behind them.
// Then every packet is delivered with the census clean.
func TestVoqInjectionQueuesHoldTheirOwnBuffer(t *testing.T) {
	for _, mode := range []string{"shared", "perQueue"} {
		c := cmConfig("", "MIN")
		c.Router.InjectionVCs, c.Router.InjectionVoq = 1, mode
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.vq.perQ != (mode == "perQueue") {
			t.Fatalf("%s: vq.perQ %v", mode, s.vq.perQ)
		}
		for range 20 {
			s.queueMessage(0, 4, 0)
		}
		for range 40 {
			s.drainDest(0)
		}
		pi := int(s.nodeAt[0].pi)
		at := func(dst int) int32 {
			out := s.topo.(*topology.FBFly).MinimalPort(0, dst/4) // router 0's port towards dst's router
			return s.bufs[pi*s.maxVC+out].len
		}
		s.queueMessage(0, 8, 0)
		for range 40 {
			s.drainDest(0)
		}
		to4, to8 := at(4), at(8)
		want8 := int32(0)
		if mode == "perQueue" {
			want8 = 1
		}
		if to4 != 8 || to8 != want8 {
			t.Errorf("%s: node 0's injection queues hold %d packets towards router 1 (want 8: 256 phits) and %d towards router 2 (want %d)", mode, to4, to8, want8)
		}
		if err := s.Census(); err != nil {
			t.Fatalf("%s: census: %v", mode, err)
		}
		runUntilEmpty(t, s, 20000)
		if err := s.Census(); err != nil {
			t.Fatalf("%s: census after the drain: %v", mode, err)
		}
	}
}

// router.injectionVoq=perQueue routes a packet at its source before it
// places it, so it needs the packet to wait in a source queue: refused,
// naming router.injectionVoq and the field, without one, with
// request-reply (a reply's VC is reserved before its packet exists) and
// with RECN's interfaces; the fbfly presets' traffic (per-destination
// source queues) takes it; without router.voq it is listed as not applied.
func TestVoqInjectionPerQueueRefusals(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*config.Config)
	}{
		{"traffic.sourceQueue", func(c *config.Config) { c.Traffic.SourceQueue = false }},
		{"traffic.reactive", func(c *config.Config) { c.Traffic.Reactive, c.Router.InjectionVCs = true, 4 }},
		{"congestion.scheme", func(c *config.Config) { c.Congestion.Scheme = "recn" }},
	} {
		c := cmConfig("", "UGAL")
		c.Router.InjectionVoq = "perQueue"
		tc.edit(&c)
		found := false
		for _, e := range c.Validate() {
			if e.Path == "router.injectionVoq" && strings.Contains(e.Msg, tc.field) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want an error on router.injectionVoq naming it, got %v", tc.field, c.Validate())
		}
	}
	c := cmConfig("", "UGAL")
	c.Router.InjectionVoq = "perQueue"
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("the 16-node network with per-destination source queues refused: %v", errs)
	}
	c.Router.Voq = false
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("without router.voq refused: %v", errs)
	}
	un := c.Unapplied()
	if len(un) != 1 || un[0].Path != "router.injectionVoq" {
		t.Errorf("without router.voq: unapplied %v, want router.injectionVoq", un)
	}
	s, err := New(c, 1)
	if err != nil || s.vq.perQ {
		t.Errorf("without router.voq: New %v, per-queue injection %v", err, s != nil && s.vq.perQ)
	}
}
