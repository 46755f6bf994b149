package sim

import (
	"testing"

	"phitsim/engine/topology"
)

// 32 queues per port: the input arbiter's busy mask (vcBusy) and the wheels'
// VC fields cover them. The configuration allows 32 VCs per port; the
// simulator is built here directly (newSim) with 32 injection VCs, packets
// spread over them (injectionPolicy=rand), and every packet must be served
// from every VC and delivered, under each input arbiter.
func TestThirtyTwoQueuesPerPort(t *testing.T) {
	for _, arb := range []string{"rr", "lrs", "age"} {
		c := smallConfig(2)
		c.Router.InjectionVCs = 32
		c.Router.InjectionBuffer = 32 * c.Router.PacketSize
		c.Router.InjectionPolicy = "rand"
		c.Router.InputArbiter = arb
		c.Traffic.Load = 0.5
		c.Sim.Cycles = 3000
		topo, err := topology.New(c.Topology.Params())
		if err != nil {
			t.Fatal(err)
		}
		s, err := newSim(c, topo, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.injVC != 32 {
			t.Fatalf("%d injection VCs, want 32", s.injVC)
		}
		served := make([]int, 32)
		s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) {
			if s.pclass[r*s.radix+in] == topology.Injection {
				served[vc]++
			}
		})
		for s.now < 3000 {
			s.Step()
		}
		s.genThr = 0 // stop generating (both paths) and drain
		s.wakeups = nil
		for s.live > 0 && s.now < 20000 {
			s.Step()
		}
		if s.live > 0 {
			t.Fatalf("%s: %d packets stuck after the drain", arb, s.live)
		}
		for v, n := range served {
			if n == 0 {
				t.Errorf("%s: injection VC %d never served (%v)", arb, v, served)
				break
			}
		}
	}
}
