package sim

// QCN-Switch's routing decision (QCN-Switch paper §3.1): source-adaptive,
// at the first routing of a packet at the head of its injection VC. Traffic
// to another group draws N uniform in [0, 100) from the router's stream and
// routes minimally when N < P[its minimal output] (qcn.go keeps P);
// otherwise it takes its non-minimal rule: routing.qcnNonMinimal=ownGlobal,
// node i of the router (its injection port) leaves by the router's own
// global port i mod h and is routed minimally from the group it reaches
// (the paper's pre-computed non-minimal rule per injection port, §3.1.2,
// §6; FOGSim v5 minCond: misOutP = inPort + global offset); randomGroup, a
// Valiant path to a random other group. A rule that leads to the
// destination group is the minimal path itself (the paper's footnote on
// overlapping rules). Traffic inside a group is minimal (FOGSim v5 minCond:
// misrouting only when sourceGroup ≠ destGroup). In transit every packet is
// routed minimally towards its target; the VC sequence is l0 g0 l1 g1 l2.
func (s *Sim) qcnDecide(r int, pk *packet) {
	if r/s.groupSize == int(pk.dstRouter)/s.groupSize {
		return
	}
	rs := &s.rts[r]
	minPort := s.df.MinimalPort(r, int(pk.dstRouter))
	if rs.Float64()*100 < s.qc.prob[r*s.radix+minPort] {
		return
	}
	if s.qc.q.RandomGroup {
		s.drawIntermediate(r, pk, paRRGGr)
	} else {
		i := (int(s.nodeAt[pk.src].pi) - r*s.radix) % s.vl.h // the node's injection port
		pk.inter = s.vl.landing[r*s.vl.h+i]
		pk.flags = pk.flags&^(fInterDone|fNonMin) | fToGroup
	}
	if !s.valiantDetour(r, pk) {
		pk.flags |= fInterDone
		return
	}
	pk.flags |= fNonMin
}
