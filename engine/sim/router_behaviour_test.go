package sim

// Router behaviour tests: the arbitration policies of the separable allocator
// (age, transit priority, LRS, RR) at both stages, and the throughput bound
// that the credit round trip puts on a single flow. The contention cases are
// built by hand on an idle network with the engine's own functions
// (newPacket, enqueue, push, take, inject) and observed cycle by cycle, so
// each test states exactly which input or VC must win (TIMING.md
// "allocation"; FOGSim v4's arbiters; thesis §1.1.3, §3.1.2).

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// rbSim is an idle Sim (load 0) on a tiny Dragonfly with h=1, a=2, p=4: 3
// groups of 2 routers, 24 nodes, radix 6 (ports 0–3 nodes, 4 local, 5
// global), stepped for 400 empty cycles so packets can be given past
// generation and entry cycles.
func rbSim(t *testing.T, edit func(*config.Config)) *Sim {
	t.Helper()
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 1, 2, 4
	c.Traffic.Load = 0
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, 100000, 1
	if edit != nil {
		edit(&c)
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if s.radix != 6 || s.p != 4 || s.pclass[4] != topology.Local || s.pclass[5] != topology.Global {
		t.Fatalf("unexpected tiny Dragonfly: radix %d p %d classes %v", s.radix, s.p, s.pclass)
	}
	for i := 0; i < 400; i++ {
		s.Step()
	}
	return s
}

// rbInject puts a packet src→dst generated at cycle gen into injection VC vc
// of src; its whole packet has arrived long ago (ready now, full speedup).
func rbInject(s *Sim, src, dst, vc int, gen int64) int32 {
	k := s.newPacket(src, dst, gen, 0)
	s.enqueue(k, vc, s.now-50)
	return k
}

// rbTransit puts a packet src→dst generated at cycle gen into VC vc of
// transit input port of router r, as if it had come over that port's link:
// the upstream output's credits are taken as its grant would have, and the
// packet is at the VC sequence position of that hop.
func rbTransit(s *Sim, r, port, vc, src, dst int, gen int64) int32 {
	return rbTransitAt(s, r, port, vc, src, dst, gen, s.now-50)
}

// rbTransitAt is rbTransit with the cycle its head reached the buffer (its
// tail arrives packetSize cycles later).
func rbTransitAt(s *Sim, r, port, vc, src, dst int, gen, entry int64) int32 {
	pi := r*s.radix + port
	global := s.pclass[port] == topology.Global
	k := s.newPacket(src, dst, gen, 0)
	pk := &s.pk[k]
	pos := s.firstPos[0]
	if global {
		pos = s.firstPos[1]
	}
	pk.vc, pk.vcPos, pk.inj = int16(vc), pos, gen+1
	if global {
		pk.ghops = 1
	} else {
		pk.lhops = 1
	}
	s.take(int(s.ports[pi].peer), vc, true, global)
	pk.entry = entry
	s.push(pi, vc, k, entry)
	s.countIn(pi)
	return k
}

// rbWatch names input buffers (by port and VC of router 0) to observe.
type rbWatch struct{ port, vc int }

func (w rbWatch) bi(s *Sim) int { return w.port*s.maxVC + w.vc }

// rbStep runs one cycle and returns the watched buffers that sent a packet
// across the crossbar in it (their length fell: nothing else fills them
// while Step runs, the tests add packets between cycles).
func rbStep(s *Sim, watch []rbWatch) []int {
	before := make([]int32, len(watch))
	for i, w := range watch {
		before[i] = s.bufs[w.bi(s)].len
	}
	s.Step()
	var won []int
	for i, w := range watch {
		if s.bufs[w.bi(s)].len < before[i] {
			won = append(won, i)
		}
	}
	return won
}

// rbOrder steps until n grants happened among the watched buffers (at most
// one per cycle: they all request the same output, or share one input) and
// returns the order, as indices into watch.
func rbOrder(t *testing.T, s *Sim, watch []rbWatch, n int) []int {
	t.Helper()
	var order []int
	for c := 0; len(order) < n && c < 2000; c++ {
		won := rbStep(s, watch)
		if len(won) > 1 {
			t.Fatalf("cycle %d: %d grants among buffers that share an output or input", s.now-1, len(won))
		}
		order = append(order, won...)
	}
	if len(order) < n {
		t.Fatalf("only %d of %d grants happened", len(order), n)
	}
	return order
}

// Output stage: nodes 0, 1, 2 of router 0 (injection inputs 0–2) and a
// transit packet on local input 4 all want node 3's ejection port. The
// generation cycles are node 2 oldest (100), the transit packet (150), node 1
// (200), node 0 youngest (300); the output's round-robin pointer starts at
// input 0. Round-robin must serve 0,1,2,4; age oldest first 2,4,1,0; transit
// priority serves the transit input first whatever the other policy says
// (round-robin would pick injection input 0), then the rest in that policy's
// order. LRS starts from the port order like round-robin.
func TestOutputStageAgeAndTransitPriorityOrder(t *testing.T) {
	watch := []rbWatch{{0, 0}, {1, 0}, {2, 0}, {4, 0}}
	ports := func(order []int) []int {
		out := make([]int, len(order))
		for i, o := range order {
			out[i] = watch[o].port
		}
		return out
	}
	for _, tc := range []struct {
		arb  string
		prio bool
		want []int
	}{
		{"rr", false, []int{0, 1, 2, 4}},
		{"lrs", false, []int{0, 1, 2, 4}},
		{"age", false, []int{2, 4, 1, 0}},
		{"rr", true, []int{4, 0, 1, 2}},
		{"lrs", true, []int{4, 0, 1, 2}},
		{"age", true, []int{4, 2, 1, 0}},
	} {
		name := fmt.Sprintf("output=%s transitPriority=%v", tc.arb, tc.prio)
		s := rbSim(t, func(c *config.Config) { c.Router.OutputArbiter, c.Router.TransitPriority = tc.arb, tc.prio })
		rbInject(s, 0, 3, 0, 300)
		rbInject(s, 1, 3, 0, 200)
		rbInject(s, 2, 3, 0, 100)
		rbTransit(s, 0, 4, 0, 4, 3, 150) // from node 4 on router 1
		got := ports(rbOrder(t, s, watch, 4))
		t.Logf("%s: inputs served %v", name, got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: inputs served in order %v, want %v", name, got, tc.want)
		}
		for s.InFlight() > 0 && s.now < 3000 {
			s.Step()
		}
		if s.InFlight() != 0 {
			t.Errorf("%s: %d packets never delivered", name, s.InFlight())
		}
	}
}

// Input stage: three VCs of node 0's injection port hold one packet each for
// node 3, generated at 300 (VC 0), 100 (VC 1), 200 (VC 2). The port places
// one request per cycle, so the VCs cross in the input arbiter's order:
// round-robin (pointer at VC 0) 0,1,2; age 1,2,0 (oldest first).
func TestInputStageAgeServesOldestVCFirst(t *testing.T) {
	watch := []rbWatch{{0, 0}, {0, 1}, {0, 2}}
	for _, tc := range []struct {
		arb  string
		want []int
	}{
		{"rr", []int{0, 1, 2}},
		{"age", []int{1, 2, 0}},
	} {
		s := rbSim(t, func(c *config.Config) { c.Router.InputArbiter = tc.arb })
		rbInject(s, 0, 3, 0, 300)
		rbInject(s, 0, 3, 1, 100)
		rbInject(s, 0, 3, 2, 200)
		got := rbOrder(t, s, watch, 3)
		t.Logf("input=%s: VCs served %v", tc.arb, got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("input=%s: VCs served in order %v, want %v", tc.arb, got, tc.want)
		}
	}
	// age ties (same generation cycle) fall back to round-robin order
	s := rbSim(t, func(c *config.Config) { c.Router.InputArbiter = "age" })
	for v := 0; v < 3; v++ {
		rbInject(s, 0, 3, v, 100)
	}
	if got := rbOrder(t, s, watch, 3); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("age with equal ages: VCs served %v, want round-robin 0,1,2", got)
	}
}

// LRS against round-robin where they differ. At the output stage: input 1 is
// served alone, then input 0 alone; then inputs 0, 1, 2 request together
// (equal ages). LRS serves the least recently served first: 2 (never), 1,
// then 0. Round-robin continues from its pointer (one past input 0): 1, 2, 0.
// The same history at the input stage with VCs 1, 0, then all three.
func TestLeastRecentlyServedDiffersFromRoundRobin(t *testing.T) {
	for _, stage := range []string{"output", "input"} {
		for _, tc := range []struct {
			arb  string
			want []int
		}{
			{"lrs", []int{2, 1, 0}},
			{"rr", []int{1, 2, 0}},
		} {
			s := rbSim(t, func(c *config.Config) {
				if stage == "output" {
					c.Router.OutputArbiter = tc.arb
				} else {
					c.Router.InputArbiter = tc.arb
				}
			})
			// requester i: node i's VC 0 (output stage) or node 0's VC i (input stage)
			watch := []rbWatch{{0, 0}, {1, 0}, {2, 0}}
			put := func(i int) { rbInject(s, i, 3, 0, 100) }
			if stage == "input" {
				watch = []rbWatch{{0, 0}, {0, 1}, {0, 2}}
				put = func(i int) { rbInject(s, 0, 3, i, 100) }
			}
			put(1)
			first := rbOrder(t, s, watch, 1)
			put(0)
			second := rbOrder(t, s, watch, 1)
			for i := 0; i < 40; i++ { // the output FIFO and the ports drain
				s.Step()
			}
			for i := 0; i < 3; i++ {
				put(i)
			}
			got := rbOrder(t, s, watch, 3)
			t.Logf("%s stage %s: history %v %v, then %v", stage, tc.arb, first, second, got)
			if first[0] != 1 || second[0] != 0 || !slices.Equal(got, tc.want) {
				t.Errorf("%s stage %s: served %v then %v then %v, want [1] [0] %v", stage, tc.arb, first, second, got, tc.want)
			}
		}
	}
}

// Persistent requesters: nodes 0, 1, 2 of router 0 always have packets for
// node 3 (their injection VCs are refilled through the engine's inject every
// cycle), so the ejection port (one packet per 8 cycles) is contended by three
// inputs at every allocation. Round-robin and LRS rotate strictly: every
// three consecutive grants serve each input once, and each input gets 1/3 of
// the grants (±1). Age (oldest first) serves them equally too (±2%). At the
// input stage, three VCs of node 0 kept full rotate the same way under RR and
// LRS.
func TestPersistentRequestersRotateFairly(t *testing.T) {
	const cycles = 3000
	check := func(name string, order []int, strict bool) {
		t.Helper()
		var cnt [3]int
		for _, o := range order {
			cnt[o]++
		}
		n := len(order)
		t.Logf("%s: %d grants, per requester %v", name, n, cnt)
		if n < cycles/8-20 {
			t.Errorf("%s: only %d grants in %d cycles (the ejection link allows %d)", name, n, cycles, cycles/8)
		}
		for i, c := range cnt {
			if strict && math.Abs(float64(c)-float64(n)/3) > 1 || math.Abs(float64(c)/float64(n)-1.0/3) > 0.02 {
				t.Errorf("%s: requester %d got %d of %d grants", name, i, c, n)
			}
		}
		if strict {
			for i := 0; i+3 <= n; i++ {
				w := order[i : i+3]
				if w[0] == w[1] || w[1] == w[2] || w[0] == w[2] {
					t.Errorf("%s: grants %d–%d serve %v, not each requester once", name, i, i+2, w)
					break
				}
			}
		}
	}
	for _, arb := range []string{"rr", "lrs", "age"} {
		s := rbSim(t, func(c *config.Config) { c.Router.OutputArbiter = arb })
		watch := []rbWatch{{0, 0}, {1, 0}, {2, 0}}
		var order []int
		for c := 0; c < cycles; c++ {
			for n := 0; n < 3; n++ {
				if s.slotsFree(n, 0) > 0 {
					if s.chooseVC(n, 3, false) != 0 {
						t.Fatalf("DEST policy should put node %d's packets for node 3 in VC 0", n)
					}
					s.inject(n, 3, 0)
				}
			}
			order = append(order, rbStep(s, watch)...)
		}
		check("output="+arb, order, arb != "age")
	}
	for _, arb := range []string{"rr", "lrs"} {
		s := rbSim(t, func(c *config.Config) { c.Router.InputArbiter = arb })
		watch := []rbWatch{{0, 0}, {0, 1}, {0, 2}}
		var order []int
		for c := 0; c < cycles; c++ {
			for v := 0; v < 3; v++ {
				if s.slotsFree(0, v) > 0 {
					rbInject(s, 0, 3, v, s.now)
				}
			}
			order = append(order, rbStep(s, watch)...)
		}
		check("input="+arb, order, true)
	}
}

// Credit round trip (TIMING.md "credits"; FOGSim v4's IOQ credits): one flow,
// node 0 (router 0) → node 4 (router 1) over one local link, the source kept
// full. A credit is reserved at the grant at router 0 (cycle t); the packet
// enters the output FIFO at t+xbarLatency (3) and, the link being idle,
// leaves at once; its head reaches router 1 after the link latency (10) and
// is granted the ejection port in its arrival cycle (cut-through), which
// sends the credit back over the 10-cycle link: it is usable again at
// t + 3 + 2·10 = t + 23. A local buffer of B phits therefore limits the flow
// to B/23 phits/cycle while B < 23, and the link (1 phit/cycle) above. With
// creditTiming=output the credit leaves router 1 only when the packet leaves
// its ejection FIFO, another crossbar latency later: B/26.
func TestSingleFlowThroughputBoundByCreditRoundTrip(t *testing.T) {
	const warm, cycles = 1000, 12000
	for _, tc := range []struct {
		buf    int
		timing string
		rt     float64
	}{
		{8, "xbar", 23}, {16, "xbar", 23}, {32, "xbar", 23},
		{8, "output", 26}, {16, "output", 26},
	} {
		s := rbSim(t, func(c *config.Config) {
			c.Router.LocalBuffer = tc.buf
			c.Router.CreditTiming = tc.timing
		})
		if s.df.MinimalPort(0, 1) != 4 {
			t.Fatalf("router 0 reaches router 1 through port %d, want local port 4", s.df.MinimalPort(0, 1))
		}
		var del0 int64
		for c := 0; c < warm+cycles; c++ {
			if c == warm {
				del0 = s.st.totDel
			}
			if s.hasRoom(0) {
				s.inject(0, 4, 0)
			}
			s.Step()
		}
		got := float64((s.st.totDel-del0)*int64(s.P)) / cycles
		want := math.Min(1, float64(tc.buf)/tc.rt)
		t.Logf("local buffer %d phits, creditTiming=%s: %.4f phits/cycle, bound min(1, %d/%.0f) = %.4f (2×link only: %.4f)",
			tc.buf, tc.timing, got, tc.buf, tc.rt, want, math.Min(1, float64(tc.buf)/20))
		if !btWithin(got, want, 0.01) {
			t.Errorf("local buffer %d, creditTiming=%s: flow throughput %.4f, want %.4f ±1%%", tc.buf, tc.timing, got, want)
		}
	}
}

// Transit priority with round-robin (FOGSim v4's PrioRR output arbiter):
// the output arbiter keeps transit inputs ahead of injection inputs and
// rotates "within the transit block or within the injection block only", so
// serving an injection input does not move the transit rotation. Router 0's
// node-3 ejection port serves transit input 4 (local), then injection input 1
// (no transit request that cycle), then transit inputs 4 and 5 (global)
// request together: the transit rotation is still one past 4, so 5 must win.
// The control run without the injection grant in between must serve 5 first
// too. (With one pointer for both blocks, the injection grant would move it
// to input 2 and the transit order would restart at input 4.)
func TestTransitPriorityRoundRobinRotatesWithinTransitBlock(t *testing.T) {
	watch := []rbWatch{{1, 0}, {4, 0}, {5, 0}}
	for _, between := range []bool{false, true} {
		s := rbSim(t, func(c *config.Config) { c.Router.OutputArbiter, c.Router.TransitPriority = "rr", true })
		peer5 := int(s.ports[5].peer) / s.radix // router 0's global port 5 comes from this router
		rbTransit(s, 0, 4, 0, 4, 3, 100)
		got := rbOrder(t, s, watch, 1)
		if between {
			rbInject(s, 1, 3, 0, 100)
			got = append(got, rbOrder(t, s, watch, 1)...)
		}
		for i := 0; i < 40; i++ {
			s.Step()
		}
		rbTransit(s, 0, 4, 0, 4, 3, 100)
		rbTransit(s, 0, 5, 0, peer5*s.p, 3, 100)
		got = append(got, rbOrder(t, s, watch, 2)...)
		ports := make([]int, len(got))
		for i, o := range got {
			ports[i] = watch[o].port
		}
		want := []int{4, 5, 4}
		if between {
			want = []int{4, 1, 5, 4}
		}
		t.Logf("injection grant in between=%v: inputs served %v", between, ports)
		if !slices.Equal(ports, want) {
			t.Errorf("injection grant in between=%v: inputs served %v, want %v (transit rotation one past input 4)", between, ports, want)
		}
	}
}

// The injection side of the same rule: with transit priority and RR, a transit
// grant must not move the injection inputs' rotation. Nodes 0–3 of router 0
// always have packets for node 4 (router 1, through local output 4), and a
// transit packet for router 1 arrives on global input 5 every 24 cycles (about
// one grant in three of that output). Under PrioRR the four injection inputs
// share the remaining grants equally (±2%). A pointer shared with the transit
// block would restart at input 0 after every transit grant (5+1 wraps to 0),
// so nodes 0 and 1 would take nearly all of them and nodes 2 and 3 starve.
func TestTransitPriorityKeepsInjectionRotation(t *testing.T) {
	s := rbSim(t, func(c *config.Config) { c.Router.OutputArbiter, c.Router.TransitPriority = "rr", true })
	peer5 := int(s.ports[5].peer) / s.radix
	watch := []rbWatch{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {5, 0}}
	vc := s.chooseVC(0, 4, false)
	var cnt [5]int
	for c := 0; c < 6000; c++ {
		for n := 0; n < 4; n++ {
			if s.slotsFree(n, vc) > 0 {
				s.inject(n, 4, 0)
			}
		}
		if c%24 == 0 && s.bufs[watch[4].bi(s)].len == 0 {
			rbTransit(s, 0, 5, 0, peer5*s.p, 4, s.now) // from the far router's node, for node 4
		}
		for _, w := range rbStep(s, watch) {
			cnt[w]++
		}
	}
	inj := cnt[0] + cnt[1] + cnt[2] + cnt[3]
	t.Logf("grants of output 4: injection inputs 0–3 %v, transit input 5 %d", cnt[:4], cnt[4])
	if cnt[4] < 200 {
		t.Fatalf("only %d transit grants", cnt[4])
	}
	for n := 0; n < 4; n++ {
		if f := float64(cnt[n]) / float64(inj); math.Abs(f-0.25) > 0.02 {
			t.Errorf("injection input %d got %.3f of the injection grants, want 0.25", n, f)
		}
	}
}
