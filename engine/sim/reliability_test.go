package sim

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// Reliability checks (engine/TIMING.md, "Reliability checks"): the census
// of packets and credits, run between Steps, and the stuck-head deadlock
// detector with its bound.

// relStep steps s to cycle until, running the census every `every` cycles
// and at the end; it fails the test at the first census error, naming the
// cycle.
func relStep(t testing.TB, s *Sim, until, every int64) {
	t.Helper()
	for s.now < until {
		s.Step()
		if s.now%every == 0 || s.now == until {
			if err := s.Census(); err != nil {
				t.Fatalf("cycle %d: %v", s.now, err)
			}
		}
	}
}

// maxTransitAge is the longest any head of a transit buffer of s has waited
// in its buffer so far (the stuck-head detector's measure).
func maxTransitAge(s *Sim) int64 {
	var m int64
	for pi := range s.ports {
		if s.ports[pi].class == topology.Injection {
			continue
		}
		for v := 0; v < s.maxVC; v++ {
			if b := &s.bufs[pi*s.maxVC+v]; b.len > 0 {
				m = max(m, s.now-int64(b.hEntry))
			}
		}
	}
	return m
}

// The census holds at every 50th cycle of every configuration of the golden
// set (every routing, pattern, arbiter, router model, traffic process,
// request-reply, source queues, Graph500): no packet lost, duplicated or
// in two places, buffer bookkeeping consistent, every credit accounted for.
func TestCensusHoldsOnTheGoldenSet(t *testing.T) {
	t.Parallel()
	for _, gc := range goldenCases() {
		c := goldenConfig(t, gc)
		if gc.name == "graph500" {
			c.Sim.Cycles = 3000 // the first BFS levels
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatalf("%s: %v", gc.name, err)
		}
		t.Run(gc.name, func(t *testing.T) { relStep(t, s, s.W+s.M, 50) })
	}
}

// No saturated configuration of the golden set false-alarms with the
// stuck-head bound, even at its least (sim.watchdog at its minimum, so the
// bound is the floor, below the default): each runs to its end with Run,
// and its longest transit head wait, sampled every 8 cycles, stays below
// half the bound. VAL_GROUP under ADVC at load 1.0, the longest waits seen,
// runs 40,000 cycles and must stay below half the bound too.
func TestNoFalseDeadlockAtSaturation(t *testing.T) {
	t.Parallel()
	check := func(name string, c config.Config) {
		c.Sim.Watchdog = 100
		s, err := New(c, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s.initDetector()
		var worst int64
		for s.now < s.W+s.M-200 {
			s.Step()
			if s.now%8 == 0 {
				worst = max(worst, maxTransitAge(s))
			}
		}
		if worst*2 > s.dl.age {
			t.Errorf("%s: a transit head waited %d cycles, more than half the stuck-head bound %d", name, worst, s.dl.age)
		}
		s2, _ := New(c, 1)
		if _, err := s2.Run(context.Background(), nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		t.Logf("%-26s longest transit wait %5d, bound %d", name, worst, s.dl.age)
	}
	for _, gc := range goldenCases() {
		c := goldenConfig(t, gc)
		if c.Traffic.Load >= 0.55 && !c.Graph500() {
			check(gc.name, c)
		}
	}
	c := goldenConfig(t, goldenCase{"VAL_GROUP/ADVC/1.0", []string{"routing.name=VAL_GROUP", "traffic.pattern=ADVC", "traffic.load=1"}})
	c.Sim.Cycles = 40000
	check("VAL_GROUP/ADVC/1.0 long", c)
}

// The stuck-head bound: the watchdog period or the floor from the router
// (16 × deepest transit buffer in packets × radix × packet size + link and
// crossbar latency), whichever is longer, checked at least 8 times per bound.
func TestStuckHeadBound(t *testing.T) {
	c := btConfig(2, 0, 1000)
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.initDetector()
	floor := int64(16*(256/8)*7*8 + 100 + 3) // h=2: radix 7, global buffers of 32 packets
	if s.stuckAgeFloor() != floor || s.dl.age != max(floor, 20000) {
		t.Errorf("floor %d, bound %d; want %d, %d", s.stuckAgeFloor(), s.dl.age, floor, max(floor, 20000))
	}
	// DAMQ: a VC's ring holds its reserve and the pool, 2 global VCs of 256
	// phits with a 25% reserve: 2·256 − 64 = 448 phits, 56 packets
	c.Router.Damq, c.Router.DamqReserve = true, 25
	if d, err := New(c, 1); err != nil {
		t.Fatal(err)
	} else if want := int64(16*(448/8)*7*8 + 100 + 3); d.stuckAgeFloor() != want {
		t.Errorf("DAMQ floor %d, want %d (the deepest VC ring)", d.stuckAgeFloor(), want)
	}
	if s.dl.mask+1 > s.dl.age/8 || s.dl.mask != 1023 {
		t.Errorf("check every %d cycles for a bound of %d", s.dl.mask+1, s.dl.age)
	}
	s = &Sim{cfg: c}
	s.dl.age = 300
	s.initDetector()
	if s.dl.age != 300 || s.dl.mask != 31 {
		t.Errorf("a test's bound 300: kept %d, checked every %d cycles; want 300, every 32", s.dl.age, s.dl.mask+1)
	}
}

// errDeadlock runs s with Run and returns its *DeadlockError, failing the
// test if it returned another outcome or a result without the report.
func errDeadlock(t *testing.T, s *Sim) *DeadlockError {
	t.Helper()
	r, err := s.Run(context.Background(), nil)
	var de *DeadlockError
	if !errors.As(err, &de) {
		t.Fatalf("Run returned %v, want a *DeadlockError", err)
	}
	if r == nil || r.Deadlock == nil || r.Deadlock.String() != de.Error() || r.InFlight != de.InFlight {
		t.Fatalf("Run returned the deadlock without the partial result and its report: %+v", r)
	}
	if !strings.HasPrefix(de.Error(), "deadlock") {
		t.Errorf("the report does not start with \"deadlock\": %q", de.Error())
	}
	return de
}

// TestCallgrindRunWindow measures what Run adds to Step (the watchdog, the
// stuck-head check, progress and the final snapshot): under valgrind, as
// costs.sh runs TestCallgrindWindow, with PHITSIM_COST_RUN=<routing> and
// --toggle-collect='phitsim/engine/sim.costRun'; compare its instructions
// per packet-hop with costs.sh's for the same routing.
func TestCallgrindRunWindow(t *testing.T) {
	routing := os.Getenv("PHITSIM_COST_RUN")
	if routing == "" {
		t.Skip("PHITSIM_COST_RUN=<routing> runs the callgrind probe of Run")
	}
	s := benchSim(t, 4, strings.TrimSpace(routing), 0.2)
	t.Logf("hops %d", costRun(s, 4000))
}

//go:noinline
func costRun(s *Sim, cycles int64) int64 {
	h0 := s.st.xbar
	s.M = s.now + cycles - s.W
	if _, err := s.Run(context.Background(), nil); err != nil {
		panic(err)
	}
	return s.st.xbar - h0
}
