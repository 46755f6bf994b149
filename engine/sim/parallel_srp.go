package sim

// SRP (Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §III-B, §V-A, with the SRP paper's grant, ACK/NACK and drop
// rules; srp.go) in a partitioned run (parallel.go, engine/PARALLEL.md).
//
// Every interaction of SRP between nodes and routers travels in a packet:
//
//   - the reservation (source → destination), the grant and the ACKs
//     (destination → source) are 1-flit control packets from a node on the
//     priority class; the NACK of a dropped speculative packet is one from
//     the dropping router's control injection input to the source. One
//     that crosses the cut crosses it on a link of the cut, at least L
//     cycles after it was sent, with its control tag (crossing.tag);
//   - the speculative bit is a packet bit (pk.mech); the packet's queuing
//     time over its earlier hops, or the cycle its drop clock started
//     (srp.acc, by packet id), which the drop check reads at every router,
//     crosses the cut with it (crossing.acc).
//
// The rest is written where it lives: per flow (source·N + destination)
// its message, packets left and out, grant, t_g, start and the cycle its
// reservation went (begun), the sizes of
// its messages queued (srp.pend, in its node's pool), at the
// source node (its messages, sends, grants, ACKs and NACKs); per node its
// transmission slots (tx, at the source) and its ejection schedule
// (tRes, at the destination, which answers the reservations); per router
// the NACKs waiting for room in its control injection input (nackQ[r], at
// its router: the drop check over the partition's routers, srpScanOn).
// Each partition has its own SRP: a copy sharing those arrays, with its
// own queuing times by packet id (they follow its pool), control-packet
// state and counts, which the barrier sums (srpGather), and its own count
// of the packets parked (dropped, not yet NACKed back: a drop in one
// partition and its NACK's receipt in another, so each partition's count
// may be negative, and the sum is the sequential count).

// srpOf is this run's SRP when it is the only mechanism (nil otherwise).
func (s *Sim) srpOf() *srp { return onlyMech[*srp](s) }

// srpScanOn is SRP's drop check as a method expression on the Sim it runs
// on (cycleHook.on): that Sim's own SRP over that Sim's routers.
func srpScanOn(s *Sim) { s.srpOf().scan(s) }

// srpBlocker is why this SRP run cannot be partitioned ("" when it can):
// SRP must be the only mechanism, with only its own hooks.
func (s *Sim) srpBlocker() string {
	if s.mech.ctl != nil {
		return "congestion.scheme=" + s.cfg.Congestion.Scheme + " with SRP: the mechanisms' control messages are not partitioned yet"
	}
	if len(s.hk.arrive) != 0 || len(s.hk.grant) != 1 || len(s.hk.eject) != 1 || len(s.hk.sent) != 1 {
		return "a mechanism hook of this configuration is not partitioned yet"
	}
	return ""
}

// srpShard gives partition sh its own SRP (above) and binds its hooks to
// sh, in their registration order (srp.attach; the drop check is bound by
// shard from its method expression).
func (s *Sim) srpShard(sh *Sim) {
	m := s.srpOf()
	if m == nil {
		return
	}
	m2 := *m
	m2.acc = nil
	m2.sentPk, m2.specPk, m2.dropped, m2.reservations, m2.drops, m2.ctl, m2.nackWaited, m2.resPk = 0, 0, 0, 0, 0, 0, 0, 0
	sh.parked = 0
	sh.mech.list = []mechanism{&m2}
	sh.mech.recv = []packetReceiver{&m2}
	sh.onMessage = func(n, dst, packets int) { m2.message(sh, n, dst, packets) }
	sh.hk.sent = []func(n, dst int, k int32){func(n, dst int, k int32) { m2.sent(sh, n, dst, k) }}
	sh.hk.grant = []func(r, in, out, vc, outVC int, k int32){m2.grantHook(sh)}
	sh.hk.eject = []func(k int32, t int64){m2.ejectHook(sh)}
	s.ctlShard(sh)
}

// srpGather adds the partitions' SRP counts and packets parked into this
// Sim's and zeroes theirs; the control-packet counts are merged
// (ctlGather).
func (s *Sim) srpGather(parts []*Sim) {
	m := s.srpOf()
	if m == nil {
		return
	}
	for _, sh := range parts {
		o := sh.srpOf()
		for i, v := range o.counts() {
			*m.counts()[i] += *v
			*v = 0
		}
		s.parked += sh.parked
		sh.parked = 0
	}
	s.ctlGather(parts)
}

// counts are SRP's integer counts, which the partitions sum.
func (m *srp) counts() [8]*int64 {
	return [8]*int64{&m.sentPk, &m.specPk, &m.dropped, &m.reservations, &m.drops, &m.ctl, &m.nackWaited, &m.resPk}
}

// pktAccOut is the queuing time packet k carries across the cut (SRP's
// speculative packet: srp.acc; 0 otherwise).
func (s *Sim) pktAccOut(k int32) int64 {
	m := s.srpOf()
	if m == nil || int(k) >= len(m.acc) || s.pk[k].mech&m.spec == 0 {
		return 0
	}
	return m.acc[k]
}

// pktAccIn sets packet k's queuing time as it crossed the cut.
func (s *Sim) pktAccIn(k int32, acc int64) {
	m := s.srpOf()
	if m == nil || s.pk[k].mech&m.spec == 0 {
		return
	}
	for int(k) >= len(m.acc) {
		m.acc = append(m.acc, make([]int64, len(s.pk)-len(m.acc))...)
	}
	m.acc[k] = acc
}
