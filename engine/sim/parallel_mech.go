package sim

import "slices"

// The congestion-management mechanisms in a partitioned run (parallel.go,
// engine/PARALLEL.md): QCN-Switch (parallel_qcn.go), SRP (parallel_srp.go), RECN (recn_parallel.go), ECN, Ideal and CBCM (here)
// each get an instance per partition, whose hooks are bound to it and
// whose integer counts the barrier sums; the others keep the run
// sequential (their notes, parallelBlocker).

// mechPartitioned: this run's mechanism is one the partitioned engine
// gives each partition its own instance of (its own blocker, mechBlocker,
// decides the rest).
func (s *Sim) mechPartitioned() bool {
	return s.qc != nil || s.ecnOf() != nil || s.idealOf() != nil || s.cbcmOf() != nil || s.srpOf() != nil
}

// mechBlocker is why this run's partitioned mechanism cannot be
// partitioned in this configuration ("" when it can, or when none is).
func (s *Sim) mechBlocker() string {
	switch {
	case s.qc != nil:
		return s.qcnBlocker()
	case s.ecnOf() != nil:
		return s.ecnBlocker()
	case s.idealOf() != nil:
		return s.idealBlocker()
	case s.cbcmOf() != nil:
		return s.cbcmBlocker()
	case s.srpOf() != nil:
		return s.srpBlocker() // parallel_srp.go
	}
	return ""
}

// mechNote is why this run's mechanism keeps it sequential (parallelBlocker
// when the mechanism is not one mechPartitioned covers): the interaction
// that has no lookahead, or the state not yet split per partition.
func (s *Sim) mechNote() string {
	scheme := "congestion.scheme=" + s.cfg.Congestion.Scheme
	return scheme + ": the mechanism's control messages and hooks are not partitioned yet"
}

// Ideal (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §V-A; ideal.go) puts the hotspot flows on the
// isolated class when it attaches; the class's flows never change in the
// run, and its packets are routed at each router from that router's own
// state (minimally; or by UGAL on the class's own credits and the router's
// stream, iso.adaptive). Its only state that a cycle changes is the count
// of the class's packets consumed (the eject hook, at the destination's
// partition): each partition counts its own, and the barrier sums them.

// onlyMech is this run's mechanism when it is the only one and of type T
// (the zero T otherwise): the per-mechanism partitioning code's handle.
func onlyMech[T mechanism](s *Sim) T {
	var m T
	if len(s.mech.list) == 1 {
		m, _ = s.mech.list[0].(T)
	}
	return m
}

// idealOf is this run's Ideal when it is the only mechanism (nil
// otherwise).
func (s *Sim) idealOf() *ideal { return onlyMech[*ideal](s) }

// idealBlocker is why this Ideal run cannot be partitioned ("" when it
// can): Ideal must be the only mechanism, with only its own hook.
func (s *Sim) idealBlocker() string {
	if s.mech.ctl != nil || s.cc.on || s.ctlShort || s.mech.recv != nil {
		return "congestion.scheme=" + s.cfg.Congestion.Scheme + " with Ideal: the mechanisms' control messages and hooks are not partitioned yet"
	}
	if len(s.hk.arrive) != 0 || len(s.hk.grant) != 0 || len(s.hk.eject) != 1 || s.hk.sent != nil {
		return "a mechanism hook of this configuration is not partitioned yet"
	}
	return ""
}

// idealShard gives partition sh its own Ideal, its count zeroed, and binds
// its eject hook to sh.
func (s *Sim) idealShard(sh *Sim) {
	m := s.idealOf()
	if m == nil {
		return
	}
	m2 := *m
	m2.packets = 0
	sh.mech.list = []mechanism{&m2}
	sh.hk.eject = []func(k int32, t int64){m2.eject(sh)}
}

// idealGather adds the partitions' counts of the class's packets consumed
// into this Sim's and zeroes theirs.
func (s *Sim) idealGather(parts []*Sim) {
	m := s.idealOf()
	if m == nil {
		return
	}
	for _, sh := range parts {
		o := sh.idealOf()
		m.packets += o.packets
		o.packets = 0
	}
}

// ECN (Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §III-A, §V-A; ecn.go) in a partitioned run (parallel.go,
// engine/PARALLEL.md).
//
// Every interaction between routers and nodes of ECN travels in a packet:
//
//   - the FECN mark is a bit of the data packet (pk.mech), set at the
//     router whose input buffer the packet leaves (the grant hook, at the
//     granting router: its own buffers), and crosses the cut with the
//     packet;
//   - the BECN is a control packet on the priority class, sent by the
//     destination node when it consumes a marked packet (the eject hook,
//     at the destination's partition) and consumed by the source node
//     (receive, at the source's partition); one that crosses the cut
//     crosses it on a link of the cut, at least L cycles after it was
//     sent, with its control tag (crossing.tag);
//   - the flow's delay, tail, throttle start and busy flag (per flow
//     source·N + destination), the node's feed (feedEnd), its BECN count
//     and the flow gate (messages.go: per flow, per node) are written at
//     the source node only: by the sent hook, by receive and by the
//     decrement timer, each at the source's partition.
//
// So each partition has its own ECN: a copy sharing the per-flow and
// per-node arrays, with its own list of the flows with a delay (its own
// nodes' flows: the decrement timer walks only them, and a flow's update
// touches only its own entries and its node's gate, so the order of the
// list is never observed), its own feed times by packet id (they follow
// its pool: only the packets of its own nodes' injection buffers are
// read, and each of those was given its time when it left its source
// queue), its own control-packet tags, queues, counts and drops, and its
// integer counts (data packets consumed and marked in the window, closed
// throttle cycles), which the barrier sums. The report's flows still
// throttled are the partitions' lists together (the throttled share sums
// over them: order-free).

// ecnOf is this run's ECN when it is the only mechanism (nil otherwise).
func (s *Sim) ecnOf() *ecn { return onlyMech[*ecn](s) }

// ecnBlocker is why this ECN run cannot be partitioned ("" when it can):
// ECN must be the only mechanism, with only its own hooks.
func (s *Sim) ecnBlocker() string {
	if s.mech.ctl != nil || s.iso.on {
		return "congestion.scheme=" + s.cfg.Congestion.Scheme + " with ECN: the mechanisms' control messages and hooks are not partitioned yet"
	}
	if len(s.hk.arrive) != 0 || len(s.hk.grant) != 1 || len(s.hk.eject) != 1 || len(s.hk.sent) != 1 {
		return "a mechanism hook of this configuration is not partitioned yet"
	}
	return ""
}

// ecnDecrement is ECN's decrement timer as a method expression on the
// Sim it runs on (cycleHook.on): that Sim's own ECN instance.
func ecnDecrement(s *Sim) { s.ecnOf().decrement(s) }

// ecnShard gives partition sh its own ECN (above) and binds its hooks to
// sh, in their registration order (ecn.attach; the cycle hook is bound by
// shard from its method expression).
func (s *Sim) ecnShard(sh *Sim) {
	m := s.ecnOf()
	if m == nil {
		return
	}
	m2 := *m
	m2.vEnd, m2.act = nil, nil
	m2.delivered, m2.marked, m2.throttled = 0, 0, 0
	sh.mech.list = []mechanism{&m2}
	sh.mech.recv = []packetReceiver{&m2}
	sh.hk.grant = []func(r, in, out, vc, outVC int, k int32){func(r, in, out, vc, outVC int, k int32) { m2.grant(sh, r, in, vc, k) }}
	sh.hk.eject = []func(k int32, t int64){func(k int32, t int64) { m2.eject(sh, k, t) }}
	sh.hk.sent = []func(n, dst int, k int32){func(n, dst int, k int32) { m2.sent(sh, n, dst, k) }}
	s.ctlShard(sh)
}

// ecnGather adds the partitions' ECN counts into this Sim's and zeroes
// theirs; this Sim's flows with a delay become the partitions' (for the
// report), and the control-packet counts are merged (ctlGather).
func (s *Sim) ecnGather(parts []*Sim) {
	m := s.ecnOf()
	if m == nil {
		return
	}
	m.act = m.act[:0]
	for _, sh := range parts {
		o := sh.ecnOf()
		m.delivered += o.delivered
		m.marked += o.marked
		m.throttled += o.throttled
		o.delivered, o.marked, o.throttled = 0, 0, 0
		m.act = append(m.act, o.act...)
	}
	s.ctlGather(parts)
}

// ctlShard gives partition sh its own control-packet state: tags (by
// packet id, following its pool), the nodes with control packets queued
// (its own nodes; the per-node queues are shared, each written by its
// node's partition), the control packets alive, and its counts and drops.
func (s *Sim) ctlShard(sh *Sim) {
	c := &sh.mech
	c.tag, c.pending, c.live = nil, nil, 0
	c.count = make([]ctlCount, len(s.mech.count))
	sh.cc.dropped = make([]int64, len(s.cc.dropped))
}

// ctlGather adds the partitions' control-packet counts and drops into
// this Sim's and zeroes theirs; the control packets alive are the
// partitions' and those in their outboxes, sent across the cut in the
// last window (the packets alive count them with their senders in the
// same way).
func (s *Sim) ctlGather(parts []*Sim) {
	var live int64
	for _, sh := range parts {
		for i := range sh.mech.count {
			n, o := &s.mech.count[i], &sh.mech.count[i]
			n.sent += o.sent
			n.delivered += o.delivered
			n.latSum += o.latSum
			*o = ctlCount{}
		}
		for i, v := range sh.cc.dropped {
			s.cc.dropped[i] += v
			sh.cc.dropped[i] = 0
		}
		live += sh.mech.live
		x := sh.xp
		for _, to := range x.packets[1-x.bank] {
			for i := range to {
				if to[i].tag.mech != 0 {
					live++
				}
			}
		}
	}
	s.mech.live = live
}

// CBCM (Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §IV; cbcm.go, cbcm_deg.go) in a partitioned run. Its throttles
// and unthrottles are 1-flit control packets on the priority class, from a
// destination node to a source node and back: one that crosses the cut
// crosses it on a link of the cut, L or more cycles after it was sent,
// with its tag. The rest is per port, per node or per flow, written where
// it lives:
//
//   - the detector (§IV-B1): per output port its degree, runs, window and
//     bound intervals, written by its router's sampling (the inputs'
//     requests are the router's own heads, drawn from the router's own
//     stream) and read at its grants; the mark is a packet bit;
//   - the destination (§IV-B2): per node its mode, source list, epoch,
//     round and quiet time, written at its ejections and its unthrottles'
//     receipt; a throttled flow's packet is flagged by packet id at its
//     source and read at its destination, so the flag crosses the cut with
//     the packet (crossing.flag);
//   - the source (§IV-B3, §IV-B4): per flow its throttle, tokens, epoch
//     counts and the isolated class's choice, written at the source node.
//
// Each partition has its own copy: the lists of the cycle (outputs
// touched and drawn, the inputs whose requests are read again and the
// routers with drawing inputs, a bit per router, copied), the
// destinations watched and flows throttled with the cycles their passes
// next act (a pass's effect on a destination depends only on its own
// state and the cycle: a partition's pass at its own due cycles acts as
// the sequential pass does on those destinations; the lists' order only
// orders sends from distinct nodes), its flags by packet id, its
// control-packet state, and its counts, summed at the barrier. Its
// sampling runs over the partition's routers (samplePlain on [r0, r1) and
// rMore; the drawing inputs of its own routers).
//
// Early detection (§VI-A, cbcm_early.go) keeps its state per (router,
// destination) pair, written by the router's sampling, grants, throttle
// rounds and the unthrottles read there (intercept; for the router's own
// first node, release at the source, the same partition), and per router
// its draw stream (earlyStreamID: the router's draws depend on its own
// inputs only) and drawing inputs. Each partition has its own cbEarly: its
// cycle lists, inputs to read again, router bits (copied), watched pairs
// and counts, its arrive hook and its cc.icpt entry bound to it; the
// (flow, router) pairs a flow's routers throttled (byRouter) are kept at
// the flow's source, a list per partition; the counts are summed at the
// barrier and in the state answer (remote_mech.go).

// cbcmOf is this run's CBCM when it is the only mechanism (nil otherwise).
func (s *Sim) cbcmOf() *cbcm { return onlyMech[*cbcm](s) }

// cbcmCycle is CBCM's cycle hook as a method expression (cycleHook.on).
func cbcmCycle(s *Sim) { s.cbcmOf().cycle(s) }

// cbcmBlocker is why this CBCM run cannot be partitioned ("" when it can):
// CBCM must be the only mechanism, with only its own hooks (early
// detection's arrive hook under router.voq among them).
func (s *Sim) cbcmBlocker() string {
	m := s.cbcmOf()
	if s.mech.ctl != nil {
		return "congestion.scheme=" + s.cfg.Congestion.Scheme + " with CBCM: the mechanisms' control messages are not partitioned yet"
	}
	arrive := 0
	if s.vq.on {
		arrive = 1
		if m.early != nil {
			arrive = 2
		}
	}
	if len(s.hk.arrive) != arrive || len(s.hk.grant) != 1 || len(s.hk.eject) != 1 || len(s.hk.sent) != 1 {
		return "a mechanism hook of this configuration is not partitioned yet"
	}
	return ""
}

// cbcmShard gives partition sh its own CBCM (above) and binds its hooks to
// sh in their registration order (cbcm.attach).
func (s *Sim) cbcmShard(sh *Sim) {
	m := s.cbcmOf()
	if m == nil {
		return
	}
	m2 := *m
	m2.cand = make([]int16, len(m.cand))
	m2.touched, m2.picked = nil, nil
	m2.dirty, m2.dirty2, m2.pend = nil, nil, nil // no heads kept pending: their inputs are read again
	m2.dm = slices.Clone(m.dm)
	m2.watch, m2.watchGen, m2.act, m2.throttledPackets = nil, nil, nil, nil
	m2.hotspots, m2.throttles, m2.unthrottle, m2.flowsThrottled = 0, 0, 0, 0
	m2.throttledCycles, m2.delivered, m2.mkd, m2.hotFlits = 0, 0, 0, 0
	m2.byRouter = nil
	sh.mech.list = []mechanism{&m2}
	sh.mech.recv = []packetReceiver{&m2}
	sh.hk.arrive = nil
	if s.vq.on {
		sh.hk.arrive = []func(pi, q int, k int32){m2.arriveHook(sh)}
	}
	if m.early != nil {
		e2 := *m.early
		e2.cand = make([]int32, len(m.early.cand))
		e2.touched, e2.picked = nil, nil
		e2.dirty, e2.dirty2 = nil, nil
		e2.dm = slices.Clone(m.early.dm)
		e2.watch = nil
		e2.hotspots, e2.thrSent = 0, 0
		m2.early = &e2
		if s.vq.on {
			sh.hk.arrive = append(sh.hk.arrive, e2.arriveHook(sh))
		}
		sh.cc.icpt = slices.Clone(s.cc.icpt)
		sh.cc.icpt[m.id] = &m2
	}
	sh.hk.grant = []func(r, in, out, vc, outVC int, k int32){m2.grantHook(sh)}
	sh.hk.eject = []func(k int32, t int64){func(k int32, t int64) { m2.eject(sh, k, t) }}
	sh.hk.sent = []func(n, dst int, k int32){func(n, dst int, k int32) { m2.sent(sh, n, dst, k) }}
	s.ctlShard(sh)
}

// cbcmGather adds the partitions' CBCM counts into this Sim's and zeroes
// theirs; this Sim's flows throttled become the partitions' (for the
// report), and the control-packet counts are merged (ctlGather).
func (s *Sim) cbcmGather(parts []*Sim) {
	m := s.cbcmOf()
	if m == nil {
		return
	}
	m.act = m.act[:0]
	for _, sh := range parts {
		o := sh.cbcmOf()
		m.hotspots += o.hotspots
		m.throttles += o.throttles
		m.unthrottle += o.unthrottle
		m.flowsThrottled += o.flowsThrottled
		m.throttledCycles += o.throttledCycles
		m.delivered += o.delivered
		m.mkd += o.mkd
		m.hotFlits += o.hotFlits
		o.hotspots, o.throttles, o.unthrottle, o.flowsThrottled = 0, 0, 0, 0
		o.throttledCycles, o.delivered, o.mkd, o.hotFlits = 0, 0, 0, 0
		if e, oe := m.early, o.early; e != nil {
			e.hotspots += oe.hotspots
			e.thrSent += oe.thrSent
			oe.hotspots, oe.thrSent = 0, 0
		}
		m.act = append(m.act, o.act...)
	}
	s.ctlGather(parts)
}

// pktFlagOut is the flag packet k carries across the cut (CBCM's throttled
// flow's packet), cleared at its slot here.
func (s *Sim) pktFlagOut(k int32) bool {
	m := s.cbcmOf()
	if m == nil || int(k) >= len(m.throttledPackets) || !m.throttledPackets[k] {
		return false
	}
	m.throttledPackets[k] = false
	return true
}

// pktFlagIn sets packet k's flag as it crossed the cut.
func (s *Sim) pktFlagIn(k int32, f bool) {
	m := s.cbcmOf()
	if m == nil {
		return
	}
	for f && int(k) >= len(m.throttledPackets) {
		m.throttledPackets = append(m.throttledPackets, make([]bool, len(s.pk)-len(m.throttledPackets)+1)...)
	}
	if int(k) < len(m.throttledPackets) {
		m.throttledPackets[k] = f
	}
}
