package sim

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"phitsim/engine/topology"
)

// Injected faults: each test corrupts the state of a running simulation
// between two Steps (never through a hook in the router cycle) and requires
// the census or the deadlock detector to catch it, by name. The older
// checks (result.Conserved, the global watchdog) miss every one of them.

// faultSim is an h=2 network (72 nodes, 36 routers of radix 7) running
// routing under UN traffic at load, stepped and census-checked to cycle at.
func faultSim(t *testing.T, routing string, load float64, at int64) *Sim {
	t.Helper()
	c := btConfig(2, 0, 100000)
	c.Routing.Name, c.Traffic.Load = routing, load
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	relStep(t, s, at, 50)
	return s
}

// Every credit of every output zeroed at cycle 500 of a loaded OLM network:
// the credit census names the outputs at once, and the stuck-head detector
// (a test's bound of 400 cycles) stops the run naming the frozen buffers,
// long before the global watchdog would.
func TestFaultZeroedCreditsAreCaught(t *testing.T) {
	t.Parallel()
	s := faultSim(t, "OLM", 0.8, 500)
	for i := range s.credits {
		s.credits[i] = 0
	}
	err := s.Census()
	if err == nil || !strings.Contains(err.Error(), "credit census: output router ") {
		t.Fatalf("the census did not name an output after every credit was zeroed: %v", err)
	}
	t.Logf("census: %.300s…", err)
	s.dl.age = 400
	de := errDeadlock(t, s)
	t.Logf("%.600s…", de)
	// the first check past the bound finds the heads frozen since cycle 500
	if de.Reason != "stuck" || de.StuckBuffers == 0 || len(de.Routers) == 0 || de.Cycle > 500+400+64 {
		t.Errorf("reason %q at cycle %d, %d stuck buffers on routers %v: want the stuck-head detector by cycle %d", de.Reason, de.Cycle, de.StuckBuffers, de.Routers, 500+400+64)
	}
	for _, b := range de.Buffers {
		if b.Class == "injection" || b.Age <= 400 || b.Packets == 0 {
			t.Errorf("listed as stuck: %v", b)
		}
	}
}

// One credit dropped on its way back upstream: the network runs on (a
// buffer slot is lost for good, nothing else), packet conservation still
// holds, and the credit census names the output and VC it belonged to.
func TestFaultDroppedCreditIsNamed(t *testing.T) {
	t.Parallel()
	s := faultSim(t, "MIN", 0.5, 700)
	var po, vc int
	dropped := false
	for slot := range s.creditsIn {
		if evs := s.creditsIn[slot]; len(evs) > 0 {
			e := evs[len(evs)-1]
			po, vc = creditAt(e)
			s.creditsIn[slot] = evs[:len(evs)-1]
			dropped = true
			break
		}
	}
	if !dropped {
		t.Fatal("no credit in flight at cycle 700")
	}
	for s.now < 2500 {
		s.Step()
	}
	if !s.Snapshot().Conserved() {
		t.Fatal("a dropped credit broke packet conservation: the test does not inject what it claims")
	}
	err := s.Census()
	want := "credit census: output " + s.where(po, vc) + ":"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("census %v, want it to name %q", err, want)
	}
	if n := strings.Count(err.Error(), "credit census"); n != 1 {
		t.Errorf("%d credit errors for one dropped credit: %v", n, err)
	}
	t.Log(err)
}

// A packet removed from a buffer (its slot and the port's count with it,
// so that the buffer's own bookkeeping stays consistent): the packet census
// counts one packet fewer than alive.
func TestFaultLostPacketIsCounted(t *testing.T) {
	t.Parallel()
	s := faultSim(t, "MIN", 0.6, 700)
	lost := -1
	for bi := range s.bufs {
		if b := &s.bufs[bi]; b.len >= 2 {
			b.len--
			s.ports[bi/s.maxVC].inCount--
			lost = bi
			break
		}
	}
	if lost < 0 {
		t.Fatal("no buffer holds 2 packets at cycle 700")
	}
	if !s.Snapshot().Conserved() {
		t.Fatal("conservation by counters should not see the loss")
	}
	err := s.Census()
	if err == nil || !strings.Contains(err.Error(), "alive (1 lost)") {
		t.Fatalf("census %v, want it to count 1 lost packet", err)
	}
	t.Log(err)
}

// A packet in two places (its id pushed into a second buffer, as a
// duplicated or misrouted event would): the census names both places.
func TestFaultDuplicatedPacketIsNamed(t *testing.T) {
	t.Parallel()
	s := faultSim(t, "MIN", 0.6, 700)
	var k int32 = -1
	for bi := range s.bufs {
		if b := &s.bufs[bi]; b.len >= 1 && s.ports[bi/s.maxVC].class == topology.Local {
			k = b.hd
			break
		}
	}
	if k < 0 {
		t.Fatal("no local buffer holds a packet at cycle 700")
	}
	// the same id pushed into an empty global buffer, as if a credit had
	// been taken for it
	for bi := range s.bufs {
		if b := &s.bufs[bi]; b.len == 0 && b.cap > 0 && s.ports[bi/s.maxVC].class == topology.Global {
			pi, v := bi/s.maxVC, bi%s.maxVC
			s.push(pi, v, k, s.now)
			s.countIn(pi)
			break
		}
	}
	err := s.Census()
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("packet %d ", k)) || !strings.Contains(err.Error(), "and also in an input buffer") {
		t.Fatalf("census %v, want it to name packet %d in two buffers", err, k)
	}
	t.Log(err)
}

// ring builds a cyclic VC assignment: around the routers 0→1→2→3→0 of
// group 0, the local input buffer of VC 0 from the previous router is filled
// with packets whose head wants the local output to the next router on the
// same VC 0 (MIN keeps a transit head's route). Every buffer of the ring is
// full, so no head gets a credit: a deadlock by construction, with the
// credits and counters consistent (the census holds). It returns the input
// ports of the ring.
func ring(t *testing.T, s *Sim) []int {
	t.Helper()
	const n = 4
	toward := func(r, w int) int { // r's local port to router w
		for p := 0; p < s.radix; p++ {
			if s.pclass[r*s.radix+p] == topology.Local {
				if pr, _ := s.topo.Link(r, p); pr == w {
					return p
				}
			}
		}
		t.Fatalf("no local link %d→%d", r, w)
		return -1
	}
	var ins []int
	for u := 0; u < n; u++ {
		w, next := (u+1)%n, (u+2)%n
		po := u*s.radix + toward(u, w)
		pi := int(s.ports[po].peer)
		b := &s.bufs[pi*s.maxVC]
		for b.len < b.cap {
			k := s.newPacket(2*u, 71, s.now, 0) // to the last group: leaves group 0
			s.pk[k].vc, s.pk[k].vcPos = 0, 0
			s.push(pi, 0, k, s.now)
			s.countIn(pi)
			s.credits[po*s.maxVC] -= int32(s.P)
		}
		b.hOut, b.hVC, b.hNext, b.hFinal = int16(toward(w, next)), 0, 1, true
		ins = append(ins, pi)
	}
	if err := s.Census(); err != nil {
		t.Fatalf("the ring is not a consistent state: %v", err)
	}
	return ins
}

// The cyclic VC assignment on an idle network: the stuck-head detector
// (bound 300) names exactly the four routers and their local VC 0 buffers.
func TestFaultCyclicVCAssignmentIsNamed(t *testing.T) {
	t.Parallel()
	c := btConfig(2, 0, 100000)
	c.Traffic.Load = 0
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	ins := ring(t, s)
	s.dl.age = 300
	de := errDeadlock(t, s)
	t.Log(de)
	if de.Reason != "stuck" || fmt.Sprint(de.Routers) != "[0 1 2 3]" || de.StuckBuffers != 4 || len(de.Buffers) != 4 {
		t.Fatalf("reason %q, routers %v, %d stuck buffers: want the 4 routers of the ring", de.Reason, de.Routers, de.StuckBuffers)
	}
	for _, b := range de.Buffers {
		pi := b.Router*s.radix + b.Port
		if b.Class != "local" || b.VC != 0 || b.Packets != 4 || b.WantVC != 0 || !contains(ins, pi) || b.Age <= 300 {
			t.Errorf("stuck buffer %v is not one of the ring's", b)
		}
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// A partial deadlock: the ring of the previous test frozen inside a network
// carrying UN traffic at load 0.4. The rest keeps delivering, so the global
// watchdog (at its shortest, 444 cycles here) never fires: with the
// stuck-head check off the run ends "successfully", conserving packets, with
// packets frozen for thousands of cycles. The stuck-head check (bound 600)
// stops it, naming the ring's routers while traffic still flows.
func TestFaultPartialDeadlockIsCaughtWhileTrafficFlows(t *testing.T) {
	t.Parallel()
	build := func(age int64) *Sim {
		c := btConfig(2, 0, 6000)
		c.Traffic.Load, c.Sim.Watchdog = 0.4, 100
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		ring(t, s)
		s.dl.age = age
		return s
	}
	blind := build(1 << 40)
	r, err := blind.Run(context.Background(), nil)
	if err != nil || !r.Conserved() || r.Delivered == 0 {
		t.Fatalf("without the stuck-head check: %v (result %v)", err, r != nil)
	}
	if age := maxTransitAge(blind); age < 5000 {
		t.Fatalf("the ring's oldest head waited only %d cycles: it is not frozen", age)
	}
	s := build(600)
	de := errDeadlock(t, s)
	t.Logf("%.500s…", de)
	if de.Reason != "stuck" || de.Cycle-de.Since > 50 || de.Cycle > 600+64 {
		t.Errorf("reason %q at cycle %d, last move at %d: want the stuck-head check while packets move", de.Reason, de.Cycle, de.Since)
	}
	for _, r := range []int{0, 1, 2, 3} {
		if !contains(de.Routers, r) {
			t.Errorf("router %d of the ring is not named: %v", r, de.Routers)
		}
	}
	if s.st.del == 0 {
		t.Error("nothing was delivered: the rest of the network did not flow")
	}
}

// On a mesh, the stuck-head report and the census name the buffers by the
// mesh's own classes (x, y), never by the Dragonfly's.
func TestFaultReportNamesTheTopologysClasses(t *testing.T) {
	t.Parallel()
	c := meshConfig(4, 4, 1)
	c.Traffic.Load = 0.5
	c.Sim.Warmup, c.Sim.Cycles = 0, 100000
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	relStep(t, s, 500, 50)
	for i := range s.credits {
		s.credits[i] = 0
	}
	cerr := s.Census()
	if cerr == nil || !strings.Contains(cerr.Error(), "(x) VC") && !strings.Contains(cerr.Error(), "(y) VC") {
		t.Errorf("census: %v", cerr)
	}
	s.dl.age = 400
	de := errDeadlock(t, s)
	if len(de.Buffers) == 0 {
		t.Fatalf("no stuck buffer listed: %v", de)
	}
	for _, b := range de.Buffers {
		if b.Class != "x" && b.Class != "y" {
			t.Errorf("stuck buffer of class %q on a mesh: %v", b.Class, b)
		}
	}
	if msg := de.Error() + " " + cerr.Error(); strings.Contains(msg, "global") || strings.Contains(msg, "local") {
		t.Errorf("a mesh report names Dragonfly classes: %.400s", msg)
	}
}

// An input that its allocator never serves again (a lost wake-up: asleep
// on a credit it never registered for) holds a routed head whose next
// buffer is empty, with every credit upstream: the arbiter passes it over
// while its output could take it. Its next buffer takes no other packet,
// so the overtake count of the stuck-head check's tree-of-waits rule
// (deadlock.go's fairSlow: more than dl.fair packets from others) never
// grows; only the rule that the next buffer's room for the head went
// unused at every check for longer than round-robin allows (dl.fair × P
// cycles, 21 × 8 = 168 here) reports it. The check (bound 300, every 32
// cycles) first sees the head with room at cycle 320 and names the buffer
// as starved at the first check more than 168 cycles later (cycle 512),
// long before the global watchdog or the end of the run. Without that rule the run ends at cycle 5,000 with the
// packet never delivered and nothing reported.
func TestFaultPassedOverHeadWithRoomIsStarvation(t *testing.T) {
	t.Parallel()
	c := btConfig(2, 0, 5000)
	c.Traffic.Load, c.Sim.Watchdog = 0, 100000
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	toward := func(r, w int) int { // r's local port to router w
		for p := 0; p < s.radix; p++ {
			if pr, _ := s.topo.Link(r, p); s.pclass[r*s.radix+p] == topology.Local && pr == w {
				return p
			}
		}
		t.Fatalf("no local link %d→%d", r, w)
		return -1
	}
	// a packet from node 0 (router 0) to node 4 (router 2), in router 1's
	// local input from router 0 on VC 0, routed to router 2 on VC 0
	po := toward(0, 1)
	pi := int(s.ports[po].peer)
	k := s.newPacket(0, 4, s.now, 0)
	s.pk[k].vc, s.pk[k].vcPos = 0, 0
	s.push(pi, 0, k, s.now)
	s.countIn(pi)
	s.credits[po*s.maxVC] -= int32(s.P)
	b := &s.bufs[pi*s.maxVC]
	out := toward(1, 2)
	b.hOut, b.hVC, b.hNext, b.hFinal = int16(out), 0, 1, true
	if err := s.Census(); err != nil {
		t.Fatalf("the fault is not a consistent state: %v", err)
	}
	next := int(s.ports[1*s.radix+out].peer)
	if s.bufs[next*s.maxVC].len != 0 || s.credits[(1*s.radix+out)*s.maxVC] < int32(s.P) {
		t.Fatal("the head's next buffer has no room: the test does not set up what it claims")
	}
	s.ports[pi].inWait = waitCredit // the fault: never woken, never examined
	s.dl.age = 300
	r, err := s.Run(context.Background(), nil)
	var de *DeadlockError
	if !errors.As(err, &de) {
		t.Fatalf("Run returned %v (delivered %v), want the stuck-head check to report the passed-over head", err, r != nil && r.Delivered > 0)
	}
	t.Log(de)
	if de.Reason != "starvation" || de.Cycle != 512 || fmt.Sprint(de.Routers) != "[1]" || de.StuckBuffers != 1 || len(de.Buffers) != 1 {
		t.Fatalf("reason %q at cycle %d on routers %v, %d stuck buffers: want starvation on router 1 alone at cycle 512 (the first check more than dl.fair × P cycles after the head was seen with room)", de.Reason, de.Cycle, de.Routers, de.StuckBuffers)
	}
	if got := de.Buffers[0]; got.Router != 1 || got.Port != pi%s.radix || got.Class != "local" || got.VC != 0 || got.Packets != 1 ||
		got.Src != 0 || got.Dst != 4 || got.WantPort != out || got.WantVC != 0 || got.Age <= 300 {
		t.Errorf("stuck buffer %v, want router 1's local input port %d VC 0 holding the packet 0 → 4, waiting for port %d VC 0", got, pi%s.radix, out)
	}
	if r == nil || r.Deadlock == nil || r.Deadlock.String() != de.Error() {
		t.Errorf("the partial result does not carry the report: %+v", r)
	}
}
