package sim

import (
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// RECN's control messages in flight (RECN paper §3.4–§3.7: notifications,
// acks, tokens, Xon/Xoff, credits; the idle timeouts) live in one node
// pool that grows to the most in flight at once; config's memory estimate
// bounds them (config.RecnMsgBound) and counts them. Corner case 2 with
// the hotspot at 50–150 µs, 250 µs, every threshold at its lowest (one
// packet to detect and propagate, Xoff at 2, Xon at 1: the most control
// traffic): the pool's peak stays within the bound, and
// the estimate has a term for it at least as large as the pool's
// allocation.
func TestRECNMessagesEstimated(t *testing.T) {
	for _, lowest := range []bool{true} {
		c := config.RECNMechanism(2)
		c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = int(50e3/8), int(150e3/8), int(250e3/8)
		if lowest {
			c.Congestion.RecnDetect, c.Congestion.RecnProp, c.Congestion.RecnXoff, c.Congestion.RecnXon = 64, 64, 128, 64
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		for s.now < int64(c.Sim.Cycles) {
			s.Step()
		}
		rc := s.rn.rc
		ft := rc.ft
		ports := int64(ft.Routers() * rc.radix)
		bound := config.RecnMsgBound(ports, int64(ft.Nodes()), int64(rc.radix), int64(rc.p.saqs), s.lat[topology.FatTreeLink], int64(s.P))
		var term int64
		for _, p := range c.Memory() {
			if strings.Contains(p.What, "RECN's control messages in flight") {
				term += p.Bytes
			}
		}
		alloc := int64(cap(rc.msgs)) * int64(config.RecnMsgBytes)
		t.Logf("lowest thresholds %v: %d control packets, at most %d messages in flight (the pool: %d bytes); bound %d, estimate %d bytes",
			lowest, rc.ctlSent, len(rc.msgs), alloc, bound, term)
		if int64(len(rc.msgs)) > bound || len(rc.msgs) == 0 {
			t.Errorf("lowest thresholds %v: %d messages in flight at once, bound %d", lowest, len(rc.msgs), bound)
		}
		if term < alloc {
			t.Errorf("lowest thresholds %v: the estimate counts %d bytes for the messages in flight, their pool holds %d", lowest, term, alloc)
		}
	}
}
