package sim

import (
	"fmt"
	"testing"

	"phitsim/engine/config"
)

// stopInjection stops every node's generator (test only): no new packet
// from the Bernoulli or bursty processes; source queues still empty into
// the network and requests still get their replies, so that draining
// delivers everything that was generated.
func stopInjection(s *Sim) {
	s.genThr = 0     // the per-node Bernoulli coin never lands
	s.wakeups = nil  // and no geometric-gap wake-up is pending
	s.bursty = false // nor is a burst
}

// drainBound is how long an h=2 network may take to deliver everything once
// injection stops: about 3 times the slowest drain measured (MIN under ADVC
// with LRS arbiters, 3,404 cycles), yet far less than a run.
const drainBound = 10000

// drain runs c saturated for `loaded` cycles, stops injection, and requires
// every packet delivered within drainBound cycles, with the census holding
// every 100 cycles throughout and the network empty at the end (every
// buffer empty, every credit back: the census checks both).
func drain(t *testing.T, c config.Config, loaded int64) int64 {
	t.Helper()
	s, err := New(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	return drainSim(t, s, loaded)
}

// drainSim is drain on a simulator already built (a test's hooks attached).
func drainSim(t *testing.T, s *Sim, loaded int64) int64 {
	t.Helper()
	c := s.cfg
	relStep(t, s, loaded, 100)
	inFlight := s.live
	if inFlight < int64(s.N) {
		t.Fatalf("only %d packets in flight after %d cycles at load %.1f: not loaded", inFlight, loaded, c.Traffic.Load)
	}
	stopInjection(s)
	for s.live > 0 && s.now < loaded+drainBound {
		s.Step()
		if s.now%100 == 0 {
			if err := s.Census(); err != nil {
				t.Fatalf("cycle %d: %v", s.now, err)
			}
		}
	}
	if s.live > 0 {
		t.Fatalf("%d of %d packets still in flight %d cycles after injection stopped; oldest transit head waited %d cycles",
			s.live, inFlight, drainBound, maxTransitAge(s))
	}
	drained := s.now - loaded
	// the last credits are still on their way back: a wheel's length later
	// every credit has landed
	relStep(t, s, s.now+s.wheelMask+1, 100)
	r := s.Snapshot()
	if r.TotalDelivered != r.TotalGenerated || r.InFlight != 0 {
		t.Fatalf("generated %d, delivered %d, in flight %d", r.TotalGenerated, r.TotalDelivered, r.InFlight)
	}
	for i, cr := range s.credits {
		// every queue (VC, or with router.voq output × VC) of a connected
		// transit output (a mesh's edge ports have none)
		if pi := i / s.maxVC; s.pclass[pi] != 0 && s.ports[pi].peer >= 0 && i%s.maxVC < s.nq[s.pclass[pi]] && cr != s.bufCap[s.pclass[pi]] {
			t.Fatalf("output %s holds %d credits after draining, want %d", s.where(pi, i%s.maxVC), cr, s.bufCap[s.pclass[pi]])
		}
	}
	return drained
}

// Every routing × pattern × arbiter, saturated (load 1.0) for 1,500 cycles,
// then drained: every packet is delivered, the census holding throughout.
// A leaked credit, a lost buffer slot or a livelocked packet would leave
// packets in flight; a lost or duplicated packet would break the census.
func TestEveryRoutingDrains(t *testing.T) {
	t.Parallel()
	var worst int64
	worstName := ""
	for _, rt := range []string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"} {
		for _, pat := range []string{"UN", "ADV", "ADVC", "ADVL", "HOT"} {
			for _, arb := range []string{"rr", "lrs", "age"} {
				c := btConfig(2, 0, 100000)
				c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = rt, pat, 1
				c.Router.InputArbiter, c.Router.OutputArbiter = arb, arb
				name := fmt.Sprintf("%s/%s/%s", rt, pat, arb)
				t.Run(name, func(t *testing.T) {
					if d := drain(t, c, 1500); d > worst {
						worst, worstName = d, name
					}
				})
			}
		}
	}
	t.Logf("slowest drain: %s, %d cycles", worstName, worst)
}

// The router models and traffic variants that change how packets leave:
// the input-queued router, request-reply (replies generated while
// draining), FOGSim's router and routing model, source queues, bursty
// traffic and no transit priority, for every routing.
func TestEveryRoutingDrainsInEveryRouterModel(t *testing.T) {
	t.Parallel()
	variants := []struct {
		name string
		edit func(*config.Config)
	}{
		{"iq", func(c *config.Config) { c.Router.Model, c.Router.Speedup = "iq", 1 }},
		{"reactive", func(c *config.Config) { c.Traffic.Reactive = true }},
		{"fogsim", func(c *config.Config) { c.UseFOGSimModel() }},
		// UN: under ADV, MIN's source queues hold more packets than the
		// bound lets one global link per group deliver
		{"sourceQueue", func(c *config.Config) { c.Traffic.SourceQueue, c.Traffic.Pattern = true, "UN" }},
		{"bursty/noTransitPriority", func(c *config.Config) {
			c.Traffic.Process, c.Router.TransitPriority = "bursty", false
		}},
	}
	for _, rt := range []string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"} {
		for _, v := range variants {
			c := btConfig(2, 0, 100000)
			c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = rt, "ADV", 1
			v.edit(&c)
			if errs := c.Validate(); len(errs) > 0 {
				continue // FOGSim's model does not apply to MIN and VAL_GROUP
			}
			t.Run(rt+"/"+v.name, func(t *testing.T) { drain(t, c, 1500) })
		}
	}
}
