package traffic

import "phitsim/engine/rng"

// Bursty is the two-state ON/OFF Markov chain of Bursty-UN (thesis eqs.
// 1.4–1.8). A node generates one packet per ON cycle; bursts last B packets on
// average; ON→OFF→ON may happen in one cycle (a new burst, new destination,
// without an idle cycle), OFF→ON→OFF may not.
type Bursty struct {
	on2off, off2on uint64 // Bernoulli thresholds
}

// NewBursty builds the chain for a per-cycle packet probability pOn
// (= rate/PacketSize) and mean burst length b packets.
func NewBursty(pOn, b float64) Bursty {
	return Bursty{
		on2off: rng.Threshold(1 / b),
		off2on: rng.Threshold(pOn / (b + pOn*(1-b))),
	}
}

// Off steps an OFF node: true when it turns ON (a new burst starts).
func (c Bursty) Off(s *rng.Stream) bool { return s.Bernoulli(c.off2on) }

// On steps an ON node. It returns whether the node stays ON and whether a new
// burst (with a new destination) starts this cycle.
func (c Bursty) On(s *rng.Stream) (on, newBurst bool) {
	if !s.Bernoulli(c.on2off) {
		return true, false
	}
	if s.Bernoulli(c.off2on) {
		return true, true
	}
	return false, false
}
