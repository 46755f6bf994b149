package sim

// The partitioned run: one run split into partitions by the topology's
// rule (topology.Partitioned: whole Dragonfly groups, a flattened
// butterfly's or mesh's rows, a fat tree's subtrees), each stepped by its
// own goroutine for a window of L cycles (L the least latency of the links
// the cut crosses), with a barrier after each window
// that hands every partition what crossed the cut into it. The result is
// the sequential engine's, bit for bit; engine/PARALLEL.md gives the
// argument and the inventory of the state a cycle touches.

import (
	"context"
	"fmt"
	"math/bits"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"time"
	"unsafe"

	"phitsim/engine/result"
	"phitsim/engine/topology"
)

// SetThreads asks Run to split the run into n partitions (at most the
// topology's partition keys), one goroutine each; n ≤ 1 runs sequentially, 0 uses
// the cores available (runtime.GOMAXPROCS). The result does not depend on
// n: a configuration the partitioned engine does not cover runs
// sequentially and its result says why (result.Result.Sequential).
func (s *Sim) SetThreads(n int) {
	if n == 0 {
		n = runtime.GOMAXPROCS(0)
	}
	s.threads = n
}

// crossing is a packet on a link of the cut: it lands at cycle at in input
// port pi, VC vc of another partition, whose pool takes a copy of it at the
// barrier.
type crossing struct {
	at     int64
	pi, vc int32
	seq    uint32  // its number in its (source, destination) pair, when out-of-order deliveries are counted
	rseq   uint32  // RECN's number of it in its pair (recnSim.seq: recn_parallel.go)
	tag    ctlTag  // a control packet's tag (a QCN-Switch notification: parallel_qcn.go)
	flag   bool    // a mechanism's flag of the packet kept by its id (CBCM's throttled flow's packet: parallel_mech.go)
	acc    int64   // SRP's speculative packet's queuing time over its earlier hops (srp.acc: parallel_srp.go)
	meta   pktMeta // a Graph500 job packet's kind, level and queries, kept by its id (parallel_graph500.go)
	pk     packet
}

// creditCrossing is a credit on a link of the cut, due at cycle at at an
// output of another partition (e as the credit wheel holds it).
type creditCrossing struct {
	at int64
	e  int32
}

// partition is one partition's side of the cut: which partition owns each
// port, and what it sent across the cut in this window, by receiving
// partition (two banks: a window fills one while the receivers empty the
// other, filled in the window before).
type partition struct {
	id      uint16
	owner   []uint16 // per port pi: its partition (shared, read-only)
	bank    int
	packets [2][][]crossing
	credits [2][][]creditCrossing
	// per cycle of the window, after it: lastProgress and live, which the
	// barrier combines for the watchdog; stuckAt: the first cycle of the
	// window at which the stuck-head check found a stuck head in this
	// partition (−1 none)
	lp, live []int64
	stuckAt  int64
}

// packetOut sends packet k, put on the link of output po (its head due at
// pk.entry), across the cut: the receiving partition's pool takes a copy at
// the barrier, and k's slot is free here. live is not decremented: the
// packet stays counted by the sender until the receiver's copy is counted,
// and the run's live count is the partitions' sum (it matters only so).
func (s *Sim) packetOut(po int, k int32) {
	x := s.xp
	peer := s.ports[po].peer
	to := x.owner[peer]
	pk := &s.pk[k]
	var seq uint32
	if s.ord != nil && int(k) < len(s.ord.seq) {
		seq = s.ord.seq[k]
	}
	x.packets[x.bank][to] = append(x.packets[x.bank][to], crossing{at: pk.entry, pi: peer, vc: int32(pk.vc), seq: seq, tag: s.ctlOut(k), flag: s.pktFlagOut(k), acc: s.pktAccOut(k), meta: s.wlOut(k), pk: *pk})
	pk.aux = s.free
	s.free = k
}

// creditBack is returnCredit in a partition: the credit for VC vc of
// input pi, sent at cycle at, goes to the wheel, or across the cut into
// the outbox of the partition that owns the upstream output.
func (s *Sim) creditBack(pi, vc int, at int64, minimal, global bool) {
	x := s.xp
	peer := s.ports[pi].peer
	to := x.owner[peer]
	if to == x.id {
		s.returnCredit(pi, vc, at, minimal, global)
		return
	}
	e := creditEntry(peer, vc, minimal, global)
	x.credits[x.bank][to] = append(x.credits[x.bank][to], creditCrossing{at: at + s.lat[s.ports[pi].class], e: e})
}

// receive takes what the other partitions sent across the cut in the last
// window, in a fixed order (by sending partition, then in the order sent):
// the packets into this partition's pool and arrival wheel, the credits
// into its credit wheel. Every one is due at the window's end or later.
func (s *Sim) receive(parts []*Sim) {
	x := s.xp
	for _, q := range parts {
		if q == s {
			continue
		}
		qx := q.xp
		b := 1 - qx.bank
		for _, c := range qx.packets[b][x.id] {
			k := s.alloc()
			s.live-- // counted by its sender (packetOut)
			s.pk[k] = c.pk
			s.ctlIn(k, c.tag)
			s.pktFlagIn(k, c.flag)
			s.pktAccIn(k, c.acc)
			s.wlIn(k, c.meta)
			if s.ord != nil { // its number in its pair, under its id here
				s.ord.number(k, c.seq)
			}
			if s.rn != nil { // RECN's number of it in its pair (recn_parallel.go)
				s.rn.recnNumber(k, c.rseq)
			}
			slot := c.at & s.wheelMask
			s.arrivals[slot] = append(s.arrivals[slot], uint64(c.pi)<<(32+qBits)|uint64(c.vc)<<32|uint64(uint32(k)))
		}
		qx.packets[b][x.id] = qx.packets[b][x.id][:0]
		for _, c := range qx.credits[b][x.id] {
			slot := c.at & s.wheelMask
			s.creditsIn[slot] = append(s.creditsIn[slot], c.e)
		}
		qx.credits[b][x.id] = qx.credits[b][x.id][:0]
		s.wlReceive(q) // a Graph500 job's raises and decisions (parallel_graph500.go)
	}
	if s.rn != nil { // RECN's messages (recn_parallel.go)
		s.recnReceive(parts)
	}
}

// partitionedRouting: the routings whose decisions read only the deciding
// router's state, its random stream and the packet (engine/PARALLEL.md).
// PB's broadcast stays within a group, which a partition never splits: each
// partition broadcasts its own routers' bits (pbCycle) and carries its own
// riders (shard).
// ACOR's and PB-ACOR's levels are per router, their scratch and level
// counts per partition (parallel_acor.go).
var partitionedRouting = map[string]bool{"MIN": true, "VAL": true, "VAL_GROUP": true, "UGAL": true, "PB": true, "PAR": true, "OLM": true,
	"ACOR": true, "PB_ACOR": true, "QCN_SWITCH": true}

// parallelBlocker is why this run cannot be partitioned ("" when it can):
// every piece of state a cycle touches outside its routers and nodes must
// be one the partitioned engine keeps per partition or merges at the
// barrier (engine/PARALLEL.md, the inventory).
func (s *Sim) parallelBlocker() string {
	c := &s.cfg
	switch {
	case s.partitionKeys() == 0:
		return noRuleNote(s.topo)
	case s.partitionKeys() < 2:
		return oneKeyNote(s.topo)
	case s.now != 0 || s.live != 0:
		return "the run did not start at cycle 0"
	case s.rn != nil && s.recnBlocker() != "":
		return s.recnBlocker() // recn_parallel.go
	case s.rn == nil && !s.mechPartitioned() && (len(s.mech.list) != 0 || s.mech.ctl != nil) || s.mech.live != 0:
		return s.mechNote() // parallel_mech.go
	case s.mechBlocker() != "": // parallel_mech.go
		return s.mechBlocker()
	case !partitionedRouting[c.Routing.Name]:
		return routingNote(c.Routing.Name)
	case !s.partitionedHooks(),
		!s.mechPartitioned() && (len(s.hk.arrive) != 0 || len(s.hk.grant) != 0 || s.hk.eject != nil):
		return "a mechanism hook of this configuration is not partitioned yet"
	case s.held != nil:
		return fogsimIdleNote
	case (s.cc.on || s.ctlShort || s.iso.on) && !s.mechPartitioned():
		return "control or isolated traffic classes are not partitioned yet"
	case s.srcQueue && s.onMessage != nil && s.srpOf() == nil: // SRP's: parallel_srp.go
		return "a mechanism's look at the messages queued is not partitioned yet"
	case s.wl != nil && s.wl.start > 0:
		return jobStartNote
	case s.wl != nil && (len(s.mech.list) != 0 || s.mech.ctl != nil):
		return jobMechNote
	case s.wl != nil && s.sqAct != nil:
		return jobQueueNote
	case s.st.hx != nil:
		return "the hop counts of link classes beyond the third (per packet) are not partitioned yet"
	}
	return ""
}

// parallelBlocker's reasons that a configuration decides, shared with
// SequentialNote (useful.go), which reads them without building a Sim.
func noRuleNote(t topology.Topology) string {
	return "topology " + t.Name() + ": no partition rule (topology.Partitioned)"
}

func oneKeyNote(t topology.Topology) string {
	return "topology " + t.Name() + ": one partition key (group, row or subtree): nothing to partition"
}

func routingNote(name string) string {
	return "routing " + name + ": its network-wide state (broadcasts, levels, notifications) is not partitioned yet"
}

const (
	jobStartNote = "workload.start: the job's clock is offset from the run's, which the windows' end bound does not take yet"
	jobMechNote  = "a congestion-management mechanism beside the Graph500 job is not partitioned yet"
	jobQueueNote = "the Graph500 job's messages through per-destination source queues (traffic.sourceQueues=perDestination) are not partitioned yet"
)

const fogsimIdleNote = "router.idleUpdates=fogsim: a router counts a packet from the cycle it leaves the upstream router (FOGSim's messagesInQueuesCounter), a lookahead of at most one cycle across the cut"

// partitionedHooks: every cycle hook registered runs per partition (its
// on is set: PB's broadcast, the contention counters' releases, ECtN's
// broadcast, each within a group; the contention counters' empty arrival
// and grant hook slices mark them only: parallelBlocker tests their
// lengths), and the only generator hook is bounded admittance queues' (admCap).
func (s *Sim) partitionedHooks() bool {
	for _, h := range s.hk.cycle {
		if h.on == nil {
			return false
		}
	}
	return len(s.hk.gen) == 0 || len(s.hk.gen) == 1 && s.admCap > 0
}

// split lays out n partitions of consecutive partition keys (the
// topology's rule, topology.Partitioned: a Dragonfly's groups, a flattened
// butterfly's or a mesh's rows, a fat tree's subtrees; uneven when n does
// not divide the keys): each partition's router ranges (rs[p], pairs of
// first and past-last router, in increasing order: one range unless the
// topology numbers a key's routers in several runs, as a fat tree does
// level by level), its first node, and the owner of every port; L, the
// window, is the least latency of a link the cut crosses. ok is false when
// a partition has no router, its nodes are not a contiguous range or no
// link is cut.
func (s *Sim) split(n int) (rs [][]int, n0 []int, owner []uint16, L int64, ok bool) {
	keyed, _ := s.topo.(topology.Partitioned)
	if keyed == nil {
		return nil, nil, nil, 0, false
	}
	K := keyed.PartitionKeys()
	rs, n0 = make([][]int, n), make([]int, n+1)
	part := make([]int, s.R)
	for r := range s.R {
		k := keyed.PartitionKey(r)
		p := 0
		for p+1 < n && (p+1)*K/n <= k {
			p++
		}
		part[r] = p
		if m := len(rs[p]); m > 0 && rs[p][m-1] == r {
			rs[p][m-1] = r + 1 // the run goes on
		} else {
			rs[p] = append(rs[p], r, r+1)
		}
	}
	for p := range rs {
		if len(rs[p]) == 0 { // a key without routers
			return nil, nil, nil, 0, false
		}
	}
	// a contiguous range of nodes per partition
	n0[n] = s.N
	for nd := range s.N {
		if nd > 0 && part[s.nodeAt[nd].router] < part[s.nodeAt[nd-1].router] {
			return nil, nil, nil, 0, false
		}
	}
	for p := n - 1; p >= 0; p-- {
		n0[p] = n0[p+1]
		for n0[p] > 0 && part[s.nodeAt[n0[p]-1].router] == p {
			n0[p]--
		}
	}
	owner = make([]uint16, len(s.ports))
	L = -1
	for pi := range s.ports {
		owner[pi] = uint16(part[pi/s.radix])
	}
	for pi := range s.ports {
		if peer := s.ports[pi].peer; peer >= 0 && owner[peer] != owner[pi] {
			if l := s.lat[s.ports[pi].class]; L < 0 || l < L {
				L = l
			}
		}
	}
	return rs, n0, owner, L, L >= 1
}

// partitionKeys is the number of partition keys of the topology (0: it
// has no partition rule).
func (s *Sim) partitionKeys() int {
	if keyed, ok := s.topo.(topology.Partitioned); ok {
		return keyed.PartitionKeys()
	}
	return 0
}

// shard is partition p of this Sim: a copy that shares the per-router,
// per-port and per-node state (each partition touches only its own
// entries) and has its own packet pool, event wheels, allocation scratch,
// credit waiters, generator wheel and counters.
func (s *Sim) shard(p, n int, rs [][]int, n0 []int, owner []uint16, L int64) *Sim {
	sh := new(Sim)
	*sh = *s
	sh.r0, sh.r1, sh.n0, sh.n1 = rs[p][0], rs[p][1], n0[p], n0[p+1]
	sh.rMore = rs[p][2:] // a fat tree's subtrees: a range per level
	x := &partition{id: uint16(p), owner: owner, lp: make([]int64, L), live: make([]int64, L), stuckAt: -1}
	for b := range 2 {
		x.packets[b] = make([][]crossing, n)
		x.credits[b] = make([][]creditCrossing, n)
	}
	sh.xp = x
	sh.pk, sh.free, sh.live = nil, -1, 0
	size := len(s.arrivals)
	sh.arrivals, sh.creditsIn = make([][]uint64, size), make([][]int32, size)
	sh.outEjects, sh.ejects = make([][]int32, size), make([][]int32, size)
	sh.reqVC, sh.reqN = make([]int16, s.radix), make([]int16, s.radix)
	sh.reqList, sh.reqOuts = make([]int16, s.radix*s.radix), make([]int16, s.radix)
	sh.minPorts = nil
	sh.cwAny = slices.Clone(s.cwAny)
	sh.cga.cand = slices.Clone(s.cga.cand)
	if s.wakeups != nil { // this partition's nodes, in the order the wheel holds them
		sh.wakeups = make([][]int32, len(s.wakeups))
		for i, due := range s.wakeups {
			for _, nd := range due {
				if int(nd) >= sh.n0 && int(nd) < sh.n1 {
					sh.wakeups[i] = append(sh.wakeups[i], nd)
				}
			}
		}
	}
	sh.st = s.st.partitionCopy()
	s.acorShard(sh)
	s.qcnShard(sh)
	s.ecnShard(sh)
	s.idealShard(sh)
	s.cbcmShard(sh)
	s.srpShard(sh)
	s.recnShard(sh, p, n, owner)
	s.wlShard(sh, p, n, n0) // parallel_graph500.go
	// the cycle hooks, in their order, on this partition (partitionedHooks)
	sh.hk.cycle = make([]cycleHook, len(s.hk.cycle))
	for i, h := range s.hk.cycle {
		on := h.on
		sh.hk.cycle[i] = cycleHook{every: h.every, f: func() { on(sh) }, on: on}
	}
	if s.hk.gen != nil { // admitStalled only (partitionedHooks)
		sh.hk.gen = []func(int) int64{sh.admitStalled}
	}
	if s.pb.riders != nil {
		sh.pb.riders = make([][]uint64, len(s.pb.riders))
	}
	if s.sqAct != nil {
		// per-destination source queues: the FIFOs (past the N node
		// queues) come from a pool that grows; each partition has its
		// own, and a node's FIFOs are its partition's (which FIFO a
		// destination gets is never observed)
		sh.sq, sh.sqHead, sh.sqFree = slices.Clone(s.sq), slices.Clone(s.sqHead), nil
	}
	if s.vq.on { // the input stage's scratch
		sh.vq.order = make([]uint64, len(s.vq.order))
	}
	if s.ord != nil {
		// the out-of-order counters: the pairs' arrays are shared (next
		// is written at generation, by the source's partition; high and
		// bad at delivery, by the destination's); the numbers by packet
		// id follow the partition's pool, and its late count is merged
		o := *s.ord
		o.seq, o.late = nil, 0
		sh.ord = &o
	}
	if c := s.cga.cc; c != nil {
		// the contention counters: the port and buffer arrays are shared
		// (each entry its router's); the release wheel and the sink of the
		// heads bound for a node of their router are the partition's
		cc := *c
		cc.sink = len(s.ports) + p
		cc.release = make([][]uint64, len(c.release))
		sh.cga.cc = &cc
	}
	return sh
}

// countSlices calls f on every count slice of the statistics v (a
// counters value, addressable) and of the structs it points to, with the
// slice's field name; the per-port phits and the network's settings,
// which the partitions share, are left out.
func countSlices(v reflect.Value, f func(name string, a reflect.Value)) {
	for i := 0; i < v.NumField(); i++ {
		t, a := v.Type().Field(i), v.Field(i)
		switch {
		case t.Type == reflect.TypeOf([]int64(nil)):
			if a.Len() > 0 && t.Name != "linkPhits" && t.Name != "links" {
				f(t.Name, a)
			}
		case t.Type.Kind() == reflect.Pointer && t.Type.Elem().Kind() == reflect.Struct && !a.IsNil():
			countSlices(a.Elem(), f)
		}
	}
}

// partitionBytes is what a partition adds beyond the first: its copy of
// the statistics' count slices and its event wheels (four slice headers a
// slot, five with the contention counters), set up once per run.
func (s *Sim) partitionBytes() int64 {
	wheels := int64(4)
	if s.cga.cc != nil {
		wheels++ // the contention counters' releases
	}
	b := int64(len(s.arrivals)) * wheels * 24
	countSlices(reflect.ValueOf(&s.st).Elem(), func(_ string, a reflect.Value) { b += int64(a.Len()) * 8 })
	b += 4 * int64(len(s.st.sLevels)+len(s.st.trLevels)) // ACOR's routers by level (acorCopy)
	if s.rn != nil {
		b += int64(unsafe.Sizeof(recn{}) + unsafe.Sizeof(recnSim{})) // its RECN's message wheel (recnShard)
	}
	return b
}

// partitionCopy is a copy of the counters for a partition: the same
// settings, every count zero (linkPhits, per port, stays shared: each
// partition adds to its own ports).
func (st *counters) partitionCopy() counters {
	c := *st
	zero := func(a []int64) []int64 {
		if a == nil {
			return nil
		}
		return make([]int64, len(a))
	}
	c.xbar, c.totGen, c.totDel, c.gen, c.del, c.delReq, c.delRep = 0, 0, 0, 0, 0, 0, 0
	c.latSum, c.injSum, c.rtSum, c.hopsL, c.hopsG, c.mis, c.misFOGSim = 0, 0, 0, 0, 0, 0, 0
	c.minLat, c.maxLat, c.maxHops, c.maxLocalBeforeGlobal = st.minLat, 0, 0, 0
	c.misCat, c.phaseA = [4]int64{}, [4]int64{}
	c.hist, c.hopsHist, c.perRouter = zero(st.hist), zero(st.hopsHist), zero(st.perRouter)
	c.sDel, c.sGen, c.sLat, c.sMis = zero(st.sDel), zero(st.sGen), zero(st.sLat), zero(st.sMis)
	c.trPkts, c.trMis, c.trLat, c.trGen, c.trDel = zero(st.trPkts), zero(st.trMis), zero(st.trLat), zero(st.trGen), zero(st.trDel)
	st.acorCopy(&c)
	if st.hs != nil {
		h := *st.hs
		h.perSender = zero(st.hs.perSender)
		h.sBgDel, h.sBgLat = zero(st.hs.sBgDel), zero(st.hs.sBgLat)
		h.bgGen, h.bgDel, h.bgLat, h.hotGen, h.hotDel, h.hotLat = 0, 0, 0, 0, 0, 0
		h.hotMax, h.bgMax = 0, 0
		c.hs = &h
	}
	if st.grp != nil {
		g := *st.grp
		g.gen, g.del, g.latSum = [2]int64{}, [2]int64{}, [2]int64{}
		g.hi = [2]int64{}
		c.grp = &g
	}
	return c
}

// absorb adds partition counters o into st (sums, least and greatest) and
// zeroes o's counts. Every count is an integer: the sum does not depend on
// the order, and the result's ratios are computed from the sums.
func (st *counters) absorb(o *counters) {
	add := func(a, b []int64) {
		for i, v := range b {
			a[i] += v
			b[i] = 0
		}
	}
	st.xbar += o.xbar
	st.totGen += o.totGen
	st.totDel += o.totDel
	st.gen += o.gen
	st.del += o.del
	st.delReq += o.delReq
	st.delRep += o.delRep
	st.latSum += o.latSum
	st.injSum += o.injSum
	st.rtSum += o.rtSum
	st.hopsL += o.hopsL
	st.hopsG += o.hopsG
	st.mis += o.mis
	st.misFOGSim += o.misFOGSim
	st.minLat, st.maxLat = min(st.minLat, o.minLat), max(st.maxLat, o.maxLat)
	st.maxHops = max(st.maxHops, o.maxHops)
	st.maxLocalBeforeGlobal = max(st.maxLocalBeforeGlobal, o.maxLocalBeforeGlobal)
	for i := range st.misCat {
		st.misCat[i] += o.misCat[i]
		st.phaseA[i] += o.phaseA[i]
	}
	o.xbar, o.totGen, o.totDel, o.gen, o.del, o.delReq, o.delRep = 0, 0, 0, 0, 0, 0, 0
	o.latSum, o.injSum, o.rtSum, o.hopsL, o.hopsG, o.mis, o.misFOGSim = 0, 0, 0, 0, 0, 0, 0
	o.misCat, o.phaseA = [4]int64{}, [4]int64{}
	add(st.hist, o.hist)
	add(st.hopsHist, o.hopsHist)
	add(st.perRouter, o.perRouter)
	add(st.sDel, o.sDel)
	add(st.sGen, o.sGen)
	add(st.sLat, o.sLat)
	add(st.sMis, o.sMis)
	add(st.trPkts, o.trPkts)
	add(st.trMis, o.trMis)
	add(st.trLat, o.trLat)
	add(st.trGen, o.trGen)
	add(st.trDel, o.trDel)
	st.acorAbsorb(o)
	if h := st.hs; h != nil {
		x := o.hs
		add(h.perSender, x.perSender)
		add(h.sBgDel, x.sBgDel)
		add(h.sBgLat, x.sBgLat)
		h.bgGen += x.bgGen
		h.bgDel += x.bgDel
		h.bgLat += x.bgLat
		h.hotGen += x.hotGen
		h.hotDel += x.hotDel
		h.hotLat += x.hotLat
		h.hotMin, h.hotMax = min(h.hotMin, x.hotMin), max(h.hotMax, x.hotMax)
		h.bgMin, h.bgMax = min(h.bgMin, x.bgMin), max(h.bgMax, x.bgMax)
		x.bgGen, x.bgDel, x.bgLat, x.hotGen, x.hotDel, x.hotLat = 0, 0, 0, 0, 0, 0
	}
	if g := st.grp; g != nil {
		h := o.grp
		for c := range 2 {
			g.gen[c] += h.gen[c]
			g.del[c] += h.del[c]
			g.latSum[c] += h.latSum[c]
			g.lo[c], g.hi[c] = min(g.lo[c], h.lo[c]), max(g.hi[c], h.hi[c])
		}
		h.gen, h.del, h.latSum = [2]int64{}, [2]int64{}, [2]int64{}
	}
}

// windowHook, when set (tests), changes the window length the partitions
// are given: a window longer than the cut's latency must break the result.
var windowHook func(L int64) int64

// runParallel is Run partitioned: the partitions step windows of L cycles
// in their goroutines; between windows (one barrier) each takes what
// crossed the cut into it, and the run's checks that look at the whole
// network — the watchdog, the stuck-head check, progress and cancellation —
// run on the partitions' combined state. A deadlock found in a window
// (whose report describes the network at that cycle, which the partitions
// have gone past) makes the run start again sequentially, to the same
// result as a sequential run.
func (s *Sim) runParallel(ctx context.Context, onProgress func(Progress), start time.Time) (*result.Result, error) {
	n := min(s.threads, s.partitionKeys())
	// every partition but the first adds its copy of the statistics and
	// its event wheels: together within the allowance the memory estimate
	// counts (config.PartitionAllowance)
	allow := s.cfg.PartitionAllowance()
	if per := s.partitionBytes(); per > 0 {
		n = min(n, 1+int(allow/per))
	}
	if n < 2 {
		s.seqNote = fmt.Sprintf("a partition's copy of the statistics and event wheels (%.1f MiB: sim.interval, sim.histMax, router.outputBuffer) exceeds the %.1f MiB the memory estimate allows a partitioned run",
			float64(s.partitionBytes())/(1<<20), float64(allow)/(1<<20))
		res, err := s.runSeq(ctx, onProgress, start)
		if res != nil {
			res.Sequential = s.seqNote
		}
		return res, err
	}
	rs, n0, owner, L, ok := s.split(n)
	if !ok {
		s.seqNote = "the partitions' nodes are not numbered contiguously"
		res, err := s.runSeq(ctx, onProgress, start)
		if res != nil {
			res.Sequential = s.seqNote
		}
		return res, err
	}
	win := L
	if windowHook != nil {
		win = windowHook(L)
	}
	parts := make([]*Sim, n)
	for p := range parts {
		parts[p] = s.shard(p, n, rs, n0, owner, max(win, L))
	}
	// one goroutine per partition but the first, which this one steps
	type job struct{ to int64 }
	starts := make([]chan job, n)
	var wg sync.WaitGroup
	for p := 1; p < n; p++ {
		starts[p] = make(chan job)
		go func(sh *Sim, c chan job) {
			for j := range c {
				sh.window(parts, j.to)
				wg.Done()
			}
		}(parts[p], starts[p])
	}
	defer func() {
		for p := 1; p < n; p++ {
			close(starts[p])
		}
	}()
	const every = 1024
	for {
		end := s.W + s.M
		if s.now >= end {
			// sim.precision may measure longer (extend, on the whole
			// network's counters)
			if s.gather(parts); !s.extend() {
				break
			}
			for _, sh := range parts {
				sh.M = s.M
			}
			continue
		}
		from := s.now
		to := min(from+win, end)
		if s.msr.next > from { // sim.autoWarmup looks at the series then
			to = min(to, s.msr.next)
		}
		to = s.snapWindowEnd(from, to)
		to = s.wlWindowEnd(from, to) // not past a Graph500 job's end
		wg.Add(n - 1)
		for p := 1; p < n; p++ {
			starts[p] <- job{to}
		}
		parts[0].window(parts, to)
		wg.Wait()
		for _, sh := range parts {
			sh.xp.bank = 1 - sh.xp.bank
		}
		// the whole network's checks, cycle by cycle, as the sequential run
		// makes them after each cycle
		for c, chk := from, s.wlEnded(parts, to); c < chk; c++ {
			i := c - from
			var live, lp int64
			for _, sh := range parts {
				live += sh.xp.live[i]
				lp = max(lp, sh.xp.lp[i])
			}
			stuck := false
			for _, sh := range parts {
				stuck = stuck || sh.xp.stuckAt == c+1
			}
			if live > 0 && c+1-lp > s.watchdog || stuck {
				return s.again(ctx, onProgress, start)
			}
		}
		if s.rn != nil { // recn_parallel.go
			if recnAmbiguous(parts) {
				return s.again(ctx, onProgress, start)
			}
			s.recnBarrier(parts, from, to)
		}
		s.snapBarrier(to)
		s.now = to
		if s.wl != nil && s.wl.done() {
			break
		}
		if s.now == s.msr.next {
			s.gather(parts)
			s.checkWarmup()
			for _, sh := range parts {
				sh.W = s.W
			}
		}
		if from/every != to/every {
			if ctx != nil && ctx.Err() != nil {
				return nil, ErrCancelled
			}
			if onProgress != nil {
				s.gather(parts)
				onProgress(Progress{Cycle: s.now, Total: s.W + s.M})
			}
		}
	}
	s.gather(parts)
	if s.snap != nil { // the last, shorter interval
		s.takeSnapshot()
	}
	res := s.Snapshot()
	if s.msr.auto || s.msr.precision > 0 {
		res.Quality = s.assess(res)
	}
	res.CPUSeconds = time.Since(start).Seconds()
	return res, nil
}

// window steps this partition to cycle to (exclusive), after taking what
// crossed the cut in the last window, recording for every cycle what the
// barrier's checks need.
func (s *Sim) window(parts []*Sim, to int64) {
	s.receive(parts)
	s.stepTo(to)
}

// stepTo steps this partition to cycle to (exclusive), recording for every
// cycle what the barrier's checks need: its live count and last progress,
// and the first cycle the stuck-head check found a stuck head.
func (s *Sim) stepTo(to int64) {
	x := s.xp
	x.stuckAt = -1
	from := s.now
	for s.now < to {
		s.Step()
		i := s.now - 1 - from
		x.lp[i], x.live[i] = s.lastProgress, s.live
		if s.now&s.dl.mask == 0 && x.stuckAt < 0 && s.anyStuck() {
			x.stuckAt = s.now
		}
	}
}

// anyStuck is the stuck-head check (stuckHeads) on this partition's
// routers: whether one of their transit heads has waited more than the
// bound.
func (s *Sim) anyStuck() bool {
	if s.stuckIn(s.r0, s.r1) {
		return true
	}
	for i := 0; i < len(s.rMore); i += 2 {
		if s.stuckIn(s.rMore[i], s.rMore[i+1]) {
			return true
		}
	}
	return false
}

// stuckIn is anyStuck on routers [r0, r1).
func (s *Sim) stuckIn(r0, r1 int) bool {
	limit := s.now - s.dl.age
	for r := r0; r < r1; r++ {
		for w := 0; w < 2; w++ {
			for m := s.inMask[2*r+w]; m != 0; m &= m - 1 {
				pi := r*s.radix + (w<<6 | bits.TrailingZeros64(m))
				if s.ports[pi].class == topology.Injection {
					continue
				}
				if s.vq.on {
					for w, vm := range s.busyQueues(pi) {
						for ; vm != 0; vm &= vm - 1 {
							if int64(s.bufs[pi*s.maxVC+(w<<6|bits.TrailingZeros64(vm))].hEntry) < limit {
								return true
							}
						}
					}
					continue
				}
				for vm := s.vcBusy[pi]; vm != 0; vm &= vm - 1 {
					if int64(s.bufs[pi*s.maxVC+bits.TrailingZeros32(vm)].hEntry) < limit {
						return true
					}
				}
			}
		}
	}
	return false
}

// gather folds the partitions' counters into this Sim's, and sets its
// cycle, live count and last progress to the whole network's, so that
// Snapshot reports the run so far.
func (s *Sim) gather(parts []*Sim) {
	var live int64
	for _, sh := range parts {
		s.st.absorb(&sh.st)
		live += sh.live
		if sh.ord != nil {
			s.ord.late += sh.ord.late
			sh.ord.late = 0
		}
		s.lastProgress = max(s.lastProgress, sh.lastProgress)
		s.clock = max(s.clock, sh.clock)
	}
	s.live = live
	s.acorGather(parts)
	s.qcnGather(parts)
	s.ecnGather(parts)
	s.idealGather(parts)
	s.cbcmGather(parts)
	s.srpGather(parts)
	s.recnGather(parts)
	s.wlGather(parts)
	s.now = parts[0].now
}

// again runs this simulation from its start sequentially (a deadlock was
// found in a window): the same configuration, seed and detector bound,
// hence the sequential run's result and report.
func (s *Sim) again(ctx context.Context, onProgress func(Progress), start time.Time) (*result.Result, error) {
	fresh, err := newSim(s.cfg, s.topo, s.seed)
	if err != nil {
		return nil, fmt.Errorf("parallel run: rebuilding for the sequential run: %w", err)
	}
	fresh.dl, fresh.watchdog = s.dl, s.watchdog // as this run had them (tests set them)
	// fresh runs: its hooks (PB's and ACOR's cycle hooks, QCN-Switch's
	// grant and arrival hooks, the admittance generator) are bound to it,
	// and it takes over the snapshots' receiver; s takes its state after
	fresh.rewatch(s.snap)
	fresh.reran = true
	res, err := fresh.runSeq(ctx, onProgress, start)
	*s = *fresh
	return res, err
}
