package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/topology"
)

// Conservation: every generated packet is delivered or still in flight, in
// exactly one buffer, link, ejection wheel or source queue, and every credit
// is accounted for (Sim.Census, at every progress report and at the end; the
// result's counters agree too: result.Conserved), for every routing × pattern, below and far above
// saturation, with plain, request-reply and bursty traffic, with a source
// queue, the input-queued router, the consecutive global arrangement and the
// rand/jsq injection-VC policies, at the end and in mid-run snapshots.
// No run may trip the deadlock watchdog: distance-based VCs make the oblivious
// routings deadlock-free (thesis §1.3, §5.1).
func TestConservationForEveryRoutingAndPattern(t *testing.T) {
	t.Parallel()
	variants := []struct {
		name string
		edit func(*config.Config)
	}{
		{"plain", func(*config.Config) {}},
		{"request-reply", func(c *config.Config) { c.Traffic.Reactive = true }},
		{"bursty", func(c *config.Config) { c.Traffic.Process = "bursty" }},
		{"source-queue", func(c *config.Config) { c.Traffic.SourceQueue = true }},
		{"input-queued", func(c *config.Config) { c.Router.Model, c.Router.Speedup = "iq", 1 }},
		{"consecutive", func(c *config.Config) { c.Topology.Arrangement = "consecutive" }},
		{"rand-injection-vc", func(c *config.Config) { c.Router.InjectionPolicy = "rand" }},
		{"jsq-injection-vc", func(c *config.Config) { c.Router.InjectionPolicy, c.Traffic.Reactive = "jsq", true }},
	}
	for _, routing := range []string{"MIN", "VAL", "VAL_GROUP"} {
		for _, pattern := range []string{"UN", "ADV", "ADVC", "ADVL", "MIX"} {
			for _, v := range variants {
				for _, load := range []float64{0.2, 1.0} {
					name := fmt.Sprintf("%s/%s/%s/%.1f", routing, pattern, v.name, load)
					c := btConfig(2, 1000, 1500)
					c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = routing, pattern, load
					c.Traffic.MixUN, c.Traffic.MixADVL, c.Traffic.MixADV = 50, 25, 25
					v.edit(&c)
					t.Run(name, func(t *testing.T) { btConservedRun(t, c) })
				}
			}
		}
	}
}

func btConservedRun(t *testing.T, c config.Config) {
	s, err := New(c, 7)
	if err != nil {
		t.Fatal(err)
	}
	var midRun error
	r, err := s.Run(context.Background(), func(p Progress) {
		if err := s.Census(); err != nil && midRun == nil {
			midRun = fmt.Errorf("cycle %d: %w", p.Cycle, err)
		}
		if !s.Snapshot().Conserved() && midRun == nil {
			midRun = fmt.Errorf("cycle %d: the snapshot's counters disagree", p.Cycle)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if midRun == nil {
		midRun = s.Census()
	}
	if midRun != nil {
		t.Errorf("conservation violated: %v", midRun)
	}
	if !r.Conserved() {
		t.Errorf("generated %d ≠ delivered %d + in flight %d", r.TotalGenerated, r.TotalDelivered, r.InFlight)
	}
	if r.InFlight != s.InFlight() {
		t.Errorf("result in flight %d, simulator %d", r.InFlight, s.InFlight())
	}
	if r.Delivered == 0 || r.TotalDelivered < r.Delivered || r.TotalGenerated < r.Generated {
		t.Errorf("window generated %d delivered %d, totals %d / %d", r.Generated, r.Delivered, r.TotalGenerated, r.TotalDelivered)
	}
	btCheckResult(t, c, r)
}

// btJSON encodes a result with its only non-deterministic field (CPU time) zeroed.
func btJSON(t *testing.T, r *result.Result) []byte {
	t.Helper()
	cp := *r
	cp.CPUSeconds = 0
	b, err := json.Marshal(&cp)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Determinism: the same config and seed give a bit-identical result; another
// seed gives a different one (every component draws from its own stream
// derived from the seed; comparisons with FOGSim need reproducible runs).
func TestSameSeedSameResultOtherSeedDifferent(t *testing.T) {
	t.Parallel()
	for _, edit := range []func(*config.Config){
		func(c *config.Config) {},
		func(c *config.Config) { c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "VAL", "ADV", 0.8 },
		func(c *config.Config) { c.Traffic.Reactive, c.Traffic.Process = true, "bursty" },
		func(c *config.Config) {
			c.Traffic.Pattern, c.Traffic.MixUN, c.Traffic.MixADVL, c.Traffic.MixADV, c.Traffic.MixPerNode = "MIX", 40, 30, 30, true
			c.Router.InjectionPolicy, c.Router.InputArbiter, c.Router.OutputArbiter = "rand", "lrs", "age"
		},
	} {
		c := btConfig(2, 1000, 3000)
		c.Traffic.Load = 0.5
		edit(&c)
		a := btJSON(t, btRun(t, c, 11))
		b := btJSON(t, btRun(t, c, 11))
		if !bytes.Equal(a, b) {
			t.Errorf("%s/%s: two runs with seed 11 differ", c.Routing.Name, c.Traffic.Pattern)
		}
		d := btJSON(t, btRun(t, c, 12))
		if bytes.Equal(a, d) {
			t.Errorf("%s/%s: seeds 11 and 12 give identical results", c.Routing.Name, c.Traffic.Pattern)
		}
	}
}

// Deadlock watchdog: when nothing can move while packets are in flight, Run
// stops with a *DeadlockError naming a blocked buffer instead of running on
// (or hanging). Here the credits of every transit output of router 0 are set
// to 0 after injecting packets to other routers, so they can never leave.
func TestDeadlockWatchdogStopsAStuckNetwork(t *testing.T) {
	t.Parallel()
	c := btConfig(2, 0, 1000000)
	c.Traffic.Load = 0
	c.Sim.Watchdog = 100
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, dst := range []int{3, 11, 40, 71} { // nodes of routers 1, 5, 20, 35
		s.inject(0, dst, 0)
	}
	d, _ := topology.NewDragonfly(2, 4, 2, "palmtree")
	for port := d.FirstLocalPort(); port < d.Radix(); port++ {
		for v := 0; v < s.maxVC; v++ {
			s.credits[port*s.maxVC+v] = 0 // router 0: pi = port
		}
	}
	type out struct {
		r   *result.Result
		err error
	}
	done := make(chan out, 1)
	start := time.Now()
	go func() {
		r, err := s.Run(context.Background(), nil)
		done <- out{r, err}
	}()
	var o out
	select {
	case o = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return within 20 s on a deadlocked network")
	}
	var de *DeadlockError
	if !errors.As(o.err, &de) {
		t.Fatalf("Run returned %v (result %v), want a *DeadlockError", o.err, o.r != nil)
	}
	t.Logf("after %v: %v", time.Since(start), de)
	if o.r == nil || o.r.Deadlock == nil || o.r.Deadlock.Reason != "watchdog" {
		t.Errorf("want the partial result with its watchdog deadlock section, got %v", o.r)
	}
	if de.InFlight != 4 {
		t.Errorf("InFlight %d, want 4", de.InFlight)
	}
	if de.Cycle > 2000 || de.Cycle-de.Since < 100 {
		t.Errorf("watchdog fired at cycle %d (no progress since %d): want soon after the watchdog period", de.Cycle, de.Since)
	}
	if len(de.Routers) != 1 || de.Routers[0] != 0 || !strings.Contains(de.Error(), "router 0 input port") || !strings.Contains(de.Error(), "deadlock") {
		t.Errorf("diagnostic %q does not name the blocked router", de.Error())
	}
}

// The same watchdog on a loaded network: after 500 cycles of UN traffic every
// credit counter of every router is zeroed. The packets already granted drain
// and the returning credits let a few more move, then the network freezes and
// the watchdog must fire.
func TestDeadlockWatchdogStopsALoadedNetworkThatFreezes(t *testing.T) {
	t.Parallel()
	c := btConfig(2, 0, 1000000)
	c.Traffic.Load = 0.5
	c.Sim.Watchdog = 1000
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for s.Now() < 500 {
		s.Step()
	}
	for i := range s.bufs {
		s.credits[i] = 0
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Run(context.Background(), nil)
		done <- err
	}()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return within 20 s on a frozen network")
	}
	var de *DeadlockError
	if !errors.As(err, &de) {
		t.Fatalf("Run returned %v, want a *DeadlockError", err)
	}
	t.Logf("%v", de)
	if de.InFlight == 0 || de.Cycle > 10000 || de.StuckBuffers == 0 || len(de.Buffers) == 0 {
		t.Errorf("deadlock at cycle %d, in flight %d, %d stuck buffers %v", de.Cycle, de.InFlight, de.StuckBuffers, de.Buffers)
	}
}

// Arbitration policies other than round-robin (LRS, age) and transit priority
// in the output stage (thesis §1.1.3, §3.1.2; FOGSim v4's arbiters): every
// combination runs below and above saturation with conservation, and below
// saturation delivers the offered load.
func TestArbitersAndTransitPriorityRunWithConservation(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"rr", "lrs", "age"} {
		for _, out := range []string{"rr", "lrs", "age"} {
			for _, prio := range []bool{false, true} {
				for _, load := range []float64{0.3, 1.0} {
					c := btConfig(2, 1000, 2000)
					c.Router.InputArbiter, c.Router.OutputArbiter, c.Router.TransitPriority = in, out, prio
					c.Router.Iterations = 2
					c.Traffic.Load = load
					if load > 0.5 {
						c.Routing.Name = "VAL"
					}
					name := fmt.Sprintf("in=%s out=%s prio=%v load=%.1f", in, out, prio, load)
					r := btRun(t, c, 5)
					if load < 0.5 && !btWithin(r.Accepted, load, 0.06) {
						t.Errorf("%s: accepted %.4f below saturation", name, r.Accepted)
					}
					if r.Delivered == 0 {
						t.Errorf("%s: nothing delivered", name)
					}
				}
			}
		}
	}
}

// After a saturating burst the network drains completely: once injection
// stops, every packet (and, with request-reply, every reply) is delivered and
// nothing stays stuck. A leaked credit or a lost buffer slot would leave
// packets in flight forever without violating packet conservation, so this
// checks the flow-control bookkeeping from outside (thesis §1.1.1 credit-based
// flow control; FOGSim v4's IOQ credit timing).
func TestNetworkDrainsCompletelyAfterSaturatingBurst(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		routing, pattern, model string
		reactive                bool
		ejection                string
	}{
		{"MIN", "UN", "ioq", false, "fifo"}, {"MIN", "ADV", "ioq", false, "fifo"}, {"VAL", "UN", "ioq", false, "fifo"},
		{"VAL_GROUP", "ADV", "ioq", false, "fifo"}, {"MIN", "UN", "iq", false, "fifo"}, {"MIN", "UN", "ioq", true, "fifo"},
		{"VAL", "ADV", "ioq", true, "fifo"},
		// FOGSim v5's ejection gate: a request is consumed only when its reply fits
		{"MIN", "UN", "ioq", false, "fogsim"}, {"MIN", "UN", "ioq", true, "fogsim"}, {"VAL", "ADV", "ioq", true, "fogsim"},
	} {
		name := fmt.Sprintf("%s/%s/%s/reactive=%v/ejection=%s", tc.routing, tc.pattern, tc.model, tc.reactive, tc.ejection)
		c := btConfig(2, 0, 1000000)
		c.Routing.Name, c.Traffic.Load, c.Traffic.Reactive = tc.routing, 0, tc.reactive
		c.Router.Model, c.Router.Ejection = tc.model, tc.ejection
		if tc.model == "iq" {
			c.Router.Speedup = 1
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		flags := uint8(0)
		if tc.reactive {
			flags = fRequest
		}
		nodes := s.N
		loaded, r := burstAndDrain(s, 3000, tc.pattern, flags, rand.New(rand.NewPCG(1, 2)))
		t.Logf("%s: %d in flight when injection stopped, drained by cycle %d; generated %d delivered %d",
			name, loaded, s.Now(), r.TotalGenerated, r.TotalDelivered)
		checkDrained(t, name, s, nodes, loaded, r)
		if err := s.Census(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if tc.reactive && r.RequestAccepted != r.ReplyAccepted {
			t.Errorf("%s: requests %.5f and replies %.5f delivered differ after draining", name, r.RequestAccepted, r.ReplyAccepted)
		}
	}
}

// burstAndDrain injects at load 1.0 (a packet every 8 cycles per node on
// average) for the given cycles into an h=2 network (72 nodes, 8 per group),
// destinations drawn from rnd: UN (any other node, the source router's
// included) or ADV+1 (a random node of group g+1); then it runs until the
// network is empty or cycle 60,000. It returns the packets in flight when
// injection stopped and the final snapshot.
func burstAndDrain(s *Sim, cycles int64, pattern string, flags uint8, rnd *rand.Rand) (int64, *result.Result) {
	const perGroup = 2 * 4
	for s.Now() < cycles {
		for n := 0; n < s.N; n++ {
			if rnd.IntN(8) != 0 {
				continue
			}
			dst := (n + 1 + rnd.IntN(s.N-1)) % s.N
			if pattern == "ADV" {
				dst = ((n/perGroup+1)*perGroup + rnd.IntN(perGroup)) % s.N
			}
			s.inject(n, dst, flags)
		}
		s.Step()
	}
	loaded := s.InFlight()
	for s.InFlight() > 0 && s.Now() < 60000 {
		s.Step()
	}
	return loaded, s.Snapshot()
}

// checkDrained fails a burstAndDrain that did not saturate (fewer packets in
// flight than nodes when injection stopped) or did not drain: packets left,
// counts that disagree, or nothing delivered.
func checkDrained(t *testing.T, what any, s *Sim, nodes int, loaded int64, r *result.Result) {
	t.Helper()
	if loaded < int64(nodes) {
		t.Errorf("%v: only %d packets in flight after the burst: not saturating", what, loaded)
	}
	if s.InFlight() != 0 || !r.Conserved() || r.TotalDelivered != r.TotalGenerated || r.TotalDelivered == 0 {
		t.Errorf("%v: %d packets still in flight at cycle %d (generated %d, delivered %d)", what,
			s.InFlight(), s.Now(), r.TotalGenerated, r.TotalDelivered)
	}
}

// TestNoInputSleepsPastAReadyHead checks the allocator's skipping: an input
// is not scanned before its inWait cycle (and, waiting for credits, until a
// credit reaches the output), which is only exact if no head of a skipped
// input could request. After every cycle, every head of a skipped input must
// still be blocked: not arrived, or routed to an output that is busy, has no
// FIFO room or has no credits for its VC. A missed wake would show here
// long before it shows as a lost packet.
func TestNoInputSleepsPastAReadyHead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		routing, pattern, arbiter string
		localVCs                  int
		reactive                  bool
	}{
		{"MIN", "UN", "rr", 0, false}, {"VAL", "ADV", "rr", 0, true}, {"UGAL", "ADV", "age", 8, false},
		{"PAR", "ADV", "lrs", 0, false}, {"MIN", "ADV", "rr", 9, false},
	} {
		c := btConfig(2, 0, 3000)
		c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = tc.routing, tc.pattern, 0.9
		c.Traffic.AdvOffset, c.Traffic.Reactive = 1, tc.reactive
		c.Router.InputArbiter, c.Router.LocalVCs = tc.arbiter, tc.localVCs
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		slept, creditSleeps := 0, 0
		for s.Now() < 3000 {
			s.Step()
			now := s.Now() // the next cycle's allocation sees this state
			for pi := range s.ports {
				ip := &s.ports[pi]
				if int64(ip.inWait) <= now || ip.inCount == 0 {
					continue
				}
				slept++
				if ip.inWait == waitCredit {
					creditSleeps++
				}
				base := pi - pi%s.radix
				for v := 0; v < s.maxVC; v++ {
					b := &s.bufs[pi*s.maxVC+v]
					if b.len == 0 || int64(b.hEntry) > now {
						continue
					}
					if b.hOut < 0 {
						t.Fatalf("%+v cycle %d: input %d sleeps until %d with an unrouted head on VC %d", tc, now, pi, ip.inWait, v)
					}
					po := base + int(b.hOut)
					op := &s.ports[po]
					blocked := int64(op.readyAt) > now ||
						op.class != topology.Injection && s.credits[po*s.maxVC+int(b.hVC)] < int32(s.P)
					if !blocked {
						t.Fatalf("%+v cycle %d: input %d sleeps until %d but its VC %d head can go to port %d", tc, now, pi, ip.inWait, v, b.hOut)
					}
				}
			}
		}
		if slept == 0 || creditSleeps == 0 {
			t.Errorf("%+v: %d skipped inputs, %d waiting for credits: the check saw nothing", tc, slept, creditSleeps)
		}
	}
}
