package sim

// RECN (recn.go, recnsim.go; Duato et al., A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks §3) in a partitioned run (parallel.go,
// engine/PARALLEL.md). A fat tree is cut between its top two stages
// (topology.Partitioned), along links of the RECN link latency L.
//
// What crosses the cut: data packets, on a link (a crossing, with RECN's
// number of the packet in its pair, and router.queueing's out-of-order
// count's number when that count is on), and RECN's
// messages between switches — notifications, acknowledgements, tokens,
// Xoff and Xon (recn.linkMsg: after the link's latency and at least one
// cycle of the link), and the global credits (recn.dequeue: after the
// link's latency). Each lands L or more cycles after it was posted, so
// in a later window. Everything else a cycle touches is per side (its
// queues, lines, credits, link, sleep), per line, per port (the
// crossbar's times), per host (the admittance queues, the held packet),
// per (source, destination) pair written at one end, or a count; the
// message wheel and its pool, the queues' node pool, the busy words of the
// interfaces and admittance queues (64 hosts to a word, which two
// partitions may share) and the counts are each partition's own.
//
// The order of a cycle's messages. The sequential wheel handles the
// messages due in a cycle in the order they were posted: by the cycle
// posted, then by the order of the posts within that cycle, which is
// recnStep's: the handlers of the cycle's messages (phase H, in the order
// handled), the admittance queues (A, by host), the arrivals (R: in the
// order the packets were put on their links — by the cycle sent, an
// interface's before a switch's in the same cycle, then by the sending
// side), the interfaces' links (N, by host), the egress sides' links (E,
// by output port), the crossbars (X, by switch, its inputs from the
// rotating start) and the generators (an interface's arrival posts
// nothing). The order matters: two messages at one side in one cycle
// (a notification and a token freeing a line) or two sides sharing a
// link (a port's ingress and egress sides) act differently in the other
// order, and the posts a handler makes inherit its place.
//
// Every message carries its key (recnKey): the cycle posted, the phase
// and the side acting (static for A–X, unique to one side and so to one
// partition), its post's number within the action, and for phase H the
// key of the message being handled (the parent); and the partition's
// running number of the cycle's posts. Two messages of one partition
// compare by cycle and running number (the partition posts in the
// sequential order restricted to its sides: by induction on the cycles,
// its wheel's slots are in that order). Two of different partitions
// compare by cycle, phase, side and number; in phase H by their parents'
// keys, which decides unless both parents were posted in phase H of the
// same cycle by different partitions: then the order is not known here,
// the merge marks the partition ambiguous and the run starts again
// sequentially (runParallel; the result is the sequential run's either
// way). At the barrier each partition merges the messages posted to its
// sides by the others into its wheel's slots by key (recn.insert): the
// messages it posts afterwards come later in every slot they share (a
// later cycle posted), so every slot is in the sequential order.
//
// Statistics: the counts are sums; the SAQ utilisation's most lines at
// one ingress and at one egress side per interval are maxima over each
// partition's sides (the partition scans its own sides when its own lines
// grow, which is when the network's maximum over them can), and the
// network's lines in use per interval, a maximum over the cycles of the
// sum over the partitions, are summed cycle by cycle at the barrier
// (recnBarrier): the maximum of sums, not a sum of maxima.
//
// The live view (Sim.Watch): RECN's cycle runs no hook but the snapshot's,
// which Step takes at the start of the snapshot's cycle; a partition takes
// its own switches' and hosts' entries there (snapPartition: recnSnapshot,
// recnHostSAQs), and the barrier after the window that ends with that
// cycle hands the snapshot over (parallel_snapshot.go).

// the phases of a cycle's posts, in recnStep's order
const (
	recnPhaseH = iota // the handlers of the cycle's messages
	recnPhaseA        // the admittance queues
	recnPhaseR        // the arrivals
	recnPhaseN        // the interfaces' links
	recnPhaseE        // the egress sides' links
	recnPhaseX        // the crossbars
)

// recnKey is a message's place in the sequential order (above).
type recnKey struct {
	c, pc     int64  // the cycle posted; phase H: the parent's
	ord, pord uint64 // phase<<60 | side<<20 | post within the action; phase H: the parent's
	seq       uint32 // its number among its partition's posts of cycle c
	part      uint16 // the posting partition
}

// act starts an action of phase ph by side idx (a rank within the phase;
// a partition's only: recnStep calls it when rc.px is set).
func (rc *recn) act(ph, idx uint64) {
	px := rc.px
	px.cur.ord, px.cur.pc, px.cur.pord, px.j = ph<<60|idx<<20, 0, 0, 0
}

// handling starts the handling of the message at node i of the wheel
// (phase H).
func (px *recnPart) handling(i int32) {
	k := &px.keys[i]
	px.cur.ord, px.cur.pc, px.cur.pord, px.j = recnPhaseH<<60, k.c, k.ord, 0
}

// postKeyed is recn.post in a partition: message m, due at cycle at, gets
// its key, and crosses the cut if its side is another partition's, else
// joins the partition's wheel (its key beside its node).
func (rc *recn) postKeyed(at int64, m recnMsg) {
	px := rc.px
	k := px.cur
	k.c, k.ord, k.seq = rc.now, k.ord+uint64(px.j), px.seqN
	px.j++
	px.seqN++
	if to := px.owner[m.to]; to != px.id {
		b := px.xp.bank
		px.out[b][to] = append(px.out[b][to], recnCross{at, k, m})
		return
	}
	i := rc.node(m)
	px.keep(i, k)
	rc.enqueue(at, i)
}

// keep records key k of the message at node i.
func (px *recnPart) keep(i int32, k recnKey) {
	for int(i) >= len(px.keys) {
		px.keys = append(px.keys, recnKey{})
	}
	px.keys[i] = k
}

// before tells whether a message of key a comes before one of key b in
// the sequential order; when it cannot tell (both posted in phase H of a
// cycle, by different partitions, handling messages posted in phase H of
// one cycle) it marks the partition ambiguous.
func (px *recnPart) before(a, b *recnKey) bool {
	if a.c != b.c {
		return a.c < b.c
	}
	pa, pb := a.ord>>60, b.ord>>60
	if pa != pb {
		return pa < pb
	}
	if a.part == b.part {
		return a.seq < b.seq
	}
	if pa != recnPhaseH {
		return a.ord < b.ord
	}
	if a.pc != b.pc {
		return a.pc < b.pc
	}
	qa, qb := a.pord>>60, b.pord>>60
	if qa != qb {
		return qa < qb
	}
	if qa != recnPhaseH && a.pord != b.pord {
		return a.pord < b.pord
	}
	px.ambiguous = true
	return false
}

// arrivalRank is the rank, within phase R, of the arrival at ingress side
// pi: the order its packet was put on its link (its sender's side, an
// interface's class first when its packets were sent no later).
func (rs *recnSim) arrivalRank(pi int) uint64 {
	from := uint64(rs.rc.sides[pi].peer)
	cls := 1 - rs.niCls
	if int(from) >= 2*rs.rc.nPorts {
		cls = rs.niCls
	}
	return cls<<32 | from
}

// recnPart is a partition's side of the cut for RECN's messages.
type recnPart struct {
	id    uint16
	owner []uint16 // per side: its partition (shared, read-only)
	xp    *partition
	// the key of the next post: the action under way, its posts so far
	// (j) and the cycle's (seqN); the keys of the wheel's nodes
	cur     recnKey
	j, seqN uint32
	keys    []recnKey
	// what it posted across the cut in this window, by receiving
	// partition (two banks, as partition's)
	out [2][][]recnCross
	// the window's first cycle, and per cycle of the window the lines
	// allocated in the partition (the barrier sums them)
	from      int64
	tot       []int32
	ambiguous bool // a merge could not order two messages (before)
}

// recnCross is a message posted across the cut: due at cycle at.
type recnCross struct {
	at int64
	k  recnKey
	m  recnMsg
}

// insert puts message m of key k, due at cycle at, into its slot in the
// sequential order (before).
func (rc *recn) insert(at int64, k recnKey, m recnMsg) {
	if at-rc.now >= recnWheel || at <= rc.now {
		panic("recn: a message across the cut due outside the wheel")
	}
	px := rc.px
	i := rc.mfree
	if i >= 0 {
		rc.mfree = rc.msgs[i].next
	} else {
		i = int32(len(rc.msgs))
		rc.msgs = append(rc.msgs, recnMsgNode{})
	}
	px.keep(i, k)
	slot := at & (recnWheel - 1)
	prev, cur := int32(-1), rc.wh[slot]
	for cur >= 0 && !px.before(&k, &px.keys[cur]) {
		prev, cur = cur, rc.msgs[cur].next
	}
	rc.msgs[i] = recnMsgNode{m, cur}
	if prev < 0 {
		rc.wh[slot] = i
	} else {
		rc.msgs[prev].next = i
	}
	if cur < 0 {
		rc.wt[slot] = i
	}
}

// recnShard gives partition sh (p of n, owner: each port's partition) its
// own RECN: a copy of the protocol's state sharing the per-side, per-line
// and per-link arrays, with its own message wheel and pool, queue-node
// pool and counts, and its own engine part: its switches and hosts, the
// busy words of its interfaces and admittance queues, its admittance
// pool, packet numbers (by packet id, following its pool), counts and
// SAQ-utilisation series.
func (s *Sim) recnShard(sh *Sim, p, n int, owner []uint16) {
	rs := s.rn
	if rs == nil {
		return
	}
	rc := rs.rc
	rc2 := *rc
	rc2.nodes, rc2.free = make([]recnNode, 0, (sh.n1-sh.n0)*int(rc.p.memNI)), -1
	rc2.msgs, rc2.mfree = nil, -1
	rc2.ctlSent, rc2.notifies, rc2.refused, rc2.allocs, rc2.frees = 0, 0, 0, 0, 0
	np := rc.nPorts
	side := make([]uint16, len(rc.sides))
	for pi := 0; pi < np; pi++ {
		side[pi], side[np+pi] = owner[pi], owner[pi]
	}
	for h := 2 * np; h < len(side); h++ {
		side[h] = owner[rc.sides[h].peer] // its leaf's port
	}
	px := &recnPart{id: uint16(p), owner: side, xp: sh.xp, tot: make([]int32, len(sh.xp.lp))}
	for b := range 2 {
		px.out[b] = make([][]recnCross, n)
	}
	px.cur.part = uint16(p)
	rc2.px = px
	rs2 := *rs
	rs2.rc = &rc2
	rs2.ranges = append([]int{sh.r0, sh.r1}, sh.rMore...)
	rs2.h0, rs2.h1 = sh.n0, sh.n1
	rs2.niBusy, rs2.admHosts = make([]uint64, len(rs.niBusy)), make([]uint64, len(rs.admHosts))
	rs2.admNodes, rs2.admFree = make([]recnNode, 0, 16*(sh.n1-sh.n0)), -1
	rs2.seq, rs2.outOfOrder, rs2.stalls = nil, 0, 0
	rs2.sIn, rs2.sEg, rs2.sTot = make([]int32, len(rs.sIn)), make([]int32, len(rs.sEg)), nil
	rs2.total, rs2.maxIn, rs2.maxEg, rs2.maxTot, rs2.lastAllocs, rs2.lastB = 0, 0, 0, 0, 0, 0
	sh.rn = &rs2
}

// recnPacketOut sends packet k, on the link into ingress side pi (its
// head due at pk.entry), across the cut (packetOut's, with RECN's number
// of the packet in its pair and, when router.queueing's out-of-order
// count is on, that count's number: two numbers, from the interface's
// injection and from generation).
func (s *Sim) recnPacketOut(pi int, k int32) {
	x := s.xp
	to := x.owner[pi]
	pk := &s.pk[k]
	var seq uint32
	if s.ord != nil && int(k) < len(s.ord.seq) {
		seq = s.ord.seq[k]
	}
	x.packets[x.bank][to] = append(x.packets[x.bank][to], crossing{at: pk.entry, pi: int32(pi), seq: seq, rseq: uint32(s.rn.seq[k]), pk: *pk})
	pk.aux = s.free
	s.free = k
}

// recnNumber gives packet k, taken from across the cut, its number in its
// pair.
func (rs *recnSim) recnNumber(k int32, seq uint32) {
	if len(rs.seq) <= int(k) {
		rs.seq = append(rs.seq, make([]int32, int(k)+1-len(rs.seq))...)
	}
	rs.seq[k] = int32(seq)
}

// recnReceive merges the messages the other partitions posted to this
// one's sides in the last window into its wheel (by sending partition,
// each in the order posted; the merge orders them by key), and starts
// the window's line counts.
func (s *Sim) recnReceive(parts []*Sim) {
	rc := s.rn.rc
	px := rc.px
	px.from = s.now
	for _, q := range parts {
		if q == s {
			continue
		}
		qx := q.rn.rc.px
		b := 1 - q.xp.bank
		for i := range qx.out[b][px.id] {
			c := &qx.out[b][px.id][i]
			rc.insert(c.at, c.k, c.m)
		}
		qx.out[b][px.id] = qx.out[b][px.id][:0]
	}
	if recnMergeHook != nil {
		recnMergeHook(px)
	}
}

// recnMergeHook, when set (tests), sees each partition after its merge: a
// test marks one ambiguous to see the run start again sequentially.
var recnMergeHook func(px *recnPart)

// recnAmbiguous tells whether a partition's merge could not order two
// messages (before): the run starts again sequentially.
func recnAmbiguous(parts []*Sim) bool {
	for _, sh := range parts {
		if sh.rn != nil && sh.rn.rc.px.ambiguous {
			return true
		}
	}
	return false
}

// recnBarrier adds the partitions' lines allocated in each cycle of the
// window [from, to) into the network's, and records their maxima (the
// network's lines in use per interval and at any time).
func (s *Sim) recnBarrier(parts []*Sim, from, to int64) {
	tot := make([]int32, to-from)
	for _, sh := range parts {
		for i := range tot {
			tot[i] += sh.rn.rc.px.tot[i]
		}
	}
	s.recnTotals(from, tot)
}

// recnTotals records the network's lines allocated at each cycle of the
// window from cycle from on (tot) and their maxima.
func (s *Sim) recnTotals(from int64, tot []int32) {
	rs := s.rn
	for i, tot := range tot {
		c := from + int64(i)
		rs.total = tot
		rs.maxTot = max(rs.maxTot, tot)
		if b := s.st.bucket(c); b < len(rs.sTot) {
			rs.sTot[b] = max(rs.sTot[b], tot)
		}
	}
}

// recnGather sets this Sim's RECN counts to the partitions' sums (each
// partition's are kept: the network's lines allocated are the sum of
// theirs at every cycle) and its per-side maxima to theirs.
func (s *Sim) recnGather(parts []*Sim) {
	rs := s.rn
	if rs == nil {
		return
	}
	rc := rs.rc
	rc.ctlSent, rc.notifies, rc.refused, rc.allocs, rc.frees = 0, 0, 0, 0, 0
	rs.outOfOrder, rs.stalls = 0, 0
	for _, sh := range parts {
		o := sh.rn
		rc.ctlSent += o.rc.ctlSent
		rc.notifies += o.rc.notifies
		rc.refused += o.rc.refused
		rc.allocs += o.rc.allocs
		rc.frees += o.rc.frees
		rs.outOfOrder += o.outOfOrder
		rs.stalls += o.stalls
		rs.maxIn, rs.maxEg = max(rs.maxIn, o.maxIn), max(rs.maxEg, o.maxEg)
		for b := range rs.sIn {
			rs.sIn[b], rs.sEg[b] = max(rs.sIn[b], o.sIn[b]), max(rs.sEg[b], o.sEg[b])
		}
	}
}

// recnBlocker is why this RECN run cannot be partitioned ("" when it
// can).
func (s *Sim) recnBlocker() string {
	switch {
	case s.mech.list != nil || s.mech.ctl != nil || len(s.hk.cycle) > s.snapHooks():
		return "congestion.scheme=recn with another mechanism: not partitioned yet"
	}
	return ""
}

// snapHooks is how many cycle hooks the live view registered (Watch: one;
// under RECN, Step runs it itself, and in a partition snapPartition).
func (s *Sim) snapHooks() int {
	if s.snap != nil {
		return 1
	}
	return 0
}
