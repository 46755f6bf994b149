package sim

import (
	"fmt"

	"phitsim/engine/traffic"
)

// ideal is the Ideal scheme of Kim et al., "Contention-based Congestion
// Management in Large-Scale Networks" §V-A: an oracle that puts the hotspot
// traffic on its own VC (the isolated class, ctlclass.go), routed
// minimally, while the other traffic keeps the data VCs and the routing in
// use; no throttling. The oracle knows the hotspot flows: every flow into
// HOTSPOT's hotspot node — its senders', and a background flow that ends
// there (Fig. 3b's permutation flow n12 → n0 adds to the same endpoint
// congestion; under UR the background never sends to the hotspot). Without a HOTSPOT pattern there is no hotspot flow
// and Ideal is the Baseline (as the paper says of UR and the permutation).
// The class's priority is congestion.idealPriority (equal, the resolution
// of the unstated priority; low, the sensitivity switch).
type ideal struct {
	flows   int   // hotspot flows put on the class
	packets int64 // their packets consumed (the whole run)
}

func init() { register("ideal", func() mechanism { return &ideal{} }) }

func (m *ideal) attach(s *Sim, id int) error {
	if !s.iso.on {
		return fmt.Errorf("mechanisms: ideal needs the isolated class (congestion.scheme=ideal lays it out)")
	}
	for _, pt := range [...]*traffic.Pattern{s.pat, s.pat2} {
		if pt == nil {
			continue
		}
		if hot, senders := pt.Hotspot(); senders != nil {
			for n := range s.N {
				if n != hot && !s.iso.flow[n*s.N+hot] {
					s.setIsoFlow(n, hot, true)
					m.flows++
				}
			}
		}
	}
	s.hk.eject = append(s.hk.eject, m.eject(s))
	return nil
}

// eject is the hook counting the class's packets consumed in s.
func (m *ideal) eject(s *Sim) func(k int32, _ int64) {
	return func(k int32, _ int64) {
		if pk := &s.pk[k]; s.iso.flow[int(pk.src)*s.N+int(pk.dst)] {
			m.packets++
		}
	}
}

func (m *ideal) control(*Sim, controlMsg) {}

// report: the hotspot flows on the isolated class and their packets
// consumed (the whole run, warm-up included).
func (m *ideal) report(s *Sim) (string, map[string]float64) {
	return "ideal", map[string]float64{"hotspotFlows": float64(m.flows), "hotspotClassPackets": float64(m.packets)}
}
