package sim

// QCN-Switch (QCN-Switch paper §2–3; qcn.go) in a partitioned run
// (parallel.go, engine/PARALLEL.md).
//
// A congestion point's notification (CNM) is a packet: it leaves the
// congestion point's router on the priority class and travels the links,
// minimally, to the victim's source router, which intercepts it, and on to
// that router's node. One that crosses the cut crosses it on a link of the
// cut, so it lands at least L cycles after it was sent, and crosses at the
// barrier as a data packet does, with its control tag (crossing.tag). One
// whose victim's source is the congestion point's own router is processed
// there at once, and so are the source-processing updates (§3.2.1): both at
// the sampling router. Everything else QCN-Switch keeps is per port (the
// minimal probabilities, the packet counts, the last feedbacks, the
// congestion points' counts and last occupancies), written at the port's
// router; per node (the reaction points' limiters, and the random stream
// each node draws its byte counter's jitter from, qcnRP.rs); or a count:
// samples, CNMs, cuts, control packets sent, delivered and dropped, and
// the CNMs per interval (sCnm), each partition counting its own and the
// barrier summing them. The probabilities' trace (Figs. 12b, 14b) is group
// 0's, recorded by the partition that holds group 0.

// qcnBlocker is why this QCN-Switch run cannot be partitioned ("" when it
// can): QCN-Switch must be the only mechanism, with only its own hooks.
func (s *Sim) qcnBlocker() string {
	m := s.qc
	if len(s.mech.list) != 1 || s.mech.list[0] != mechanism(m) || s.mech.ctl != nil || s.iso.on || s.ctlShort {
		return "congestion.scheme=" + s.cfg.Congestion.Scheme + " with QCN-Switch: the mechanisms' control messages and hooks are not partitioned yet"
	}
	arrive := 0
	if m.q.InputSampling {
		arrive++
	}
	if m.rp != nil {
		arrive++
	}
	if len(s.hk.arrive) != arrive || len(s.hk.grant) != 1 || s.hk.eject != nil || s.hk.sent != nil {
		return "a mechanism hook of this configuration is not partitioned yet"
	}
	return ""
}

// qcnShard gives partition sh its own QCN-Switch: a copy of the mechanism
// sharing the per-port and per-node arrays, with its counts zeroed, and
// its hooks bound to sh, in their registration order (qcn.attach); its
// own control-packet tags (they follow its pool), counts and drops.
func (s *Sim) qcnShard(sh *Sim) {
	m := s.qc
	if m == nil {
		return
	}
	m2 := *m
	m2.samples, m2.negative, m2.selfCNMs, m2.processed, m2.ctlPhits, m2.spCuts = 0, 0, 0, 0, 0, 0
	sh.qc = &m2
	sh.hk.arrive, sh.hk.grant = nil, []func(r, in, out, vc, outVC int, k int32){m2.grant(sh)}
	if m.q.InputSampling {
		sh.hk.arrive = append(sh.hk.arrive, m2.arrive(sh))
	}
	if m.rp != nil {
		rp := *m.rp
		rp.cnms, rp.cuts, rp.increases, rp.held, rp.untracked = 0, 0, 0, 0, 0
		m2.rp, sh.rpf = &rp, &rp
		sh.hk.arrive = append(sh.hk.arrive, rp.arrive(sh))
	}
	c := &sh.mech
	c.list = []mechanism{&m2}
	c.recv = []packetReceiver{&m2}
	sh.cc.icpt = []routerInterceptor{&m2}
	s.ctlShard(sh)
}

// ctlOut is the control tag of packet k leaving this partition across the
// cut (zero for a data packet): its slot here becomes a data slot, and the
// packet is counted alive by the receiver once it takes it.
func (s *Sim) ctlOut(k int32) ctlTag {
	if int(k) >= len(s.mech.tag) || s.mech.tag[k].mech == 0 {
		return ctlTag{}
	}
	t := s.mech.tag[k]
	s.mech.tag[k] = ctlTag{}
	s.mech.live--
	return t
}

// ctlIn tags packet k, taken from across the cut, as the control packet
// it was there.
func (s *Sim) ctlIn(k int32, t ctlTag) {
	if t.mech == 0 {
		return
	}
	if int(k) >= len(s.mech.tag) {
		s.mech.tag = append(s.mech.tag, make([]ctlTag, len(s.pk)-len(s.mech.tag))...)
	}
	s.mech.tag[k] = t
	s.mech.live++
}

// qcnGather adds the partitions' QCN-Switch counts into this Sim's and
// zeroes theirs; the control packets alive are the partitions' and those
// in their outboxes, sent across the cut in the last window (the packets
// alive count them with their senders in the same way).
func (s *Sim) qcnGather(parts []*Sim) {
	m := s.qc
	if m == nil {
		return
	}
	for _, sh := range parts {
		q := sh.qc
		m.samples += q.samples
		m.negative += q.negative
		m.selfCNMs += q.selfCNMs
		m.processed += q.processed
		m.ctlPhits += q.ctlPhits
		m.spCuts += q.spCuts
		q.samples, q.negative, q.selfCNMs, q.processed, q.ctlPhits, q.spCuts = 0, 0, 0, 0, 0, 0
		if rp, o := m.rp, q.rp; rp != nil {
			rp.cnms += o.cnms
			rp.cuts += o.cuts
			rp.increases += o.increases
			rp.held += o.held
			rp.untracked += o.untracked
			o.cnms, o.cuts, o.increases, o.held, o.untracked = 0, 0, 0, 0, 0
		}
	}
	s.ctlGather(parts)
}
