package sim

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"phitsim/engine/topology"
)

// Network snapshots for the live view of the network (the browser's network
// drawing): every `every` cycles, the state of each port and router over the
// last interval. Off unless Watch is called; when off the only cost is one
// nil check per packet sent (send), as router.idleUpdates' s.held.

// NetSnapshot is the network over one interval (Cycle−Interval, Cycle].
// Ports are numbered r·Radix+port, as topology.Topology numbers them; a
// port of class Injection is its node's ejection link.
type NetSnapshot struct {
	Cycle    int64
	Interval int64
	Radix    int
	// LinkUse: per port, the phits its output link sent in the interval
	// per cycle (0–1; a packet is counted when it is granted the link, so
	// an interval boundary may split one unevenly)
	LinkUse []float32
	// BufferUse: per port, the packets in its input buffers at Cycle over
	// their capacity in packets (0–1; 0 for an unconnected port)
	BufferUse []float32
	// Packets: per router, the packets in its input buffers at Cycle
	Packets []int32
	// Misrouted: per router, the share of the packets it sent on its
	// transit links in the interval that had taken a non-minimal route
	// (0 when it sent none)
	Misrouted []float32
	// Injection: per router, the phits its nodes' packets left it with in
	// the interval (their first hop), per node and cycle (0–1): the
	// per-router injection of the fairness tables (thesis §1.5.1), where
	// ADVc with transit priority starves router a−1 (thesis §3.3.1)
	Injection []float32
	// SAQs: with congestion.scheme=recn, per switch the set-aside queues
	// (CAM lines) allocated at Cycle over its ingress and egress sides;
	// HostSAQs, per host at its network interface: the congestion trees'
	// extent (RECN paper §3.4, Fig. 4). Nil without RECN.
	SAQs, HostSAQs []int32
}

// snapRec counts, per output port, what the snapshots report.
type snapRec struct {
	every  int64
	last   int64   // the cycle of the last snapshot
	phits  []int32 // per port, phits granted in the interval
	pkts   []int32 // per port, packets granted in the interval
	misPk  []int32 // per port, of those, packets with fNonMin
	slots  []int32 // per port, input buffer capacity in packets
	inj    []int32 // per router, phits of its own packets' first hops
	nodes  []int32 // per router, its nodes
	notify func(*NetSnapshot)
	out    NetSnapshot
}

// Watch asks for a NetSnapshot every `every` cycles (every ≥ 1) and at the
// end of Run, given to f from the simulating goroutine. The snapshot is
// valid during the call only (its slices are reused, so watching allocates
// nothing per interval): f encodes it or keeps a Clone. Call it before Run.
func (s *Sim) Watch(every int64, f func(*NetSnapshot)) error {
	if every < 1 {
		return fmt.Errorf("snapshot interval %d: must be at least 1 cycle", every)
	}
	if f == nil {
		return errors.New("snapshot: no receiver")
	}
	if s.snap != nil {
		return errors.New("snapshot: Watch already called")
	}
	np := len(s.ports)
	rec := &snapRec{every: every, phits: make([]int32, np), pkts: make([]int32, np),
		misPk: make([]int32, np), slots: make([]int32, np), inj: make([]int32, s.R), nodes: make([]int32, s.R), notify: f}
	for pi := range s.ports {
		for v := 0; v < s.maxVC; v++ {
			rec.slots[pi] += s.bufs[pi*s.maxVC+v].cap
		}
		if s.ports[pi].class == topology.Injection {
			rec.nodes[pi/s.radix]++
		}
	}
	rec.out = NetSnapshot{Radix: s.radix, LinkUse: make([]float32, np), BufferUse: make([]float32, np),
		Packets: make([]int32, s.R), Misrouted: make([]float32, s.R), Injection: make([]float32, s.R)}
	if s.rn != nil {
		rec.out.SAQs, rec.out.HostSAQs = make([]int32, s.R), make([]int32, s.N)
	}
	s.snap = rec
	// a partition of a parallel run fills in its own routers' entries
	// (snapPartition); the barrier hands the snapshot over
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: every, f: s.takeSnapshot, on: (*Sim).snapPartition})
	return nil
}

// sent counts a packet of phits granted to output port po of router rt
// (send); first: its first hop, leaving its source router.
func (r *snapRec) sent(po, rt int, phits int32, nonMin, first bool) {
	r.phits[po] += phits
	r.pkts[po]++
	if nonMin {
		r.misPk[po]++
	}
	if first {
		r.inj[rt] += phits
	}
}

// takeSnapshot reports the interval ending now and starts the next one
// (Run calls it once more at the end for a last, shorter interval).
func (s *Sim) takeSnapshot() {
	r := s.snap
	if s.now == r.last {
		return
	}
	iv := s.now - r.last
	r.last = s.now
	n := &r.out
	n.Cycle, n.Interval = s.now, iv
	r.fill(s, 0, s.R, iv)
	if s.rn != nil {
		s.recnSnapshot(n, 0, s.R)
		s.recnHostSAQs(n, 0, s.N)
	}
	r.notify(n)
}

// fill sets the snapshot's entries of routers [r0, r1) and of their ports
// for the interval of iv cycles ending now, and starts their counts of the
// next interval.
func (r *snapRec) fill(s *Sim, r0, r1 int, iv int64) {
	n := &r.out
	for pi := r0 * s.radix; pi < r1*s.radix; pi++ {
		n.LinkUse[pi] = float32(r.phits[pi]) / float32(iv)
		n.BufferUse[pi] = 0
		if r.slots[pi] > 0 {
			n.BufferUse[pi] = float32(s.ports[pi].inCount) / float32(r.slots[pi])
		}
	}
	for rt := r0; rt < r1; rt++ {
		var in, pk, mis int32
		for pi := rt * s.radix; pi < (rt+1)*s.radix; pi++ {
			in += s.ports[pi].inCount
			if s.ports[pi].class != topology.Injection {
				pk += r.pkts[pi]
				mis += r.misPk[pi]
			}
		}
		n.Packets[rt], n.Misrouted[rt], n.Injection[rt] = in, 0, 0
		if pk > 0 {
			n.Misrouted[rt] = float32(mis) / float32(pk)
		}
		if r.nodes[rt] > 0 {
			n.Injection[rt] = float32(r.inj[rt]) / float32(int64(r.nodes[rt])*iv)
		}
	}
	clear(r.inj[r0:r1])
	clear(r.phits[r0*s.radix : r1*s.radix])
	clear(r.pkts[r0*s.radix : r1*s.radix])
	clear(r.misPk[r0*s.radix : r1*s.radix])
}

// recnSnapshot fills in what RECN's sides hold in place of the input
// buffers, for switches [r0, r1): per port its ingress side's packets over
// its memory, per switch the packets of its ingress sides and the SAQ
// lines of all its sides.
func (s *Sim) recnSnapshot(n *NetSnapshot, r0, r1 int) {
	rc := s.rn.rc
	sides := rc.sides
	for r := r0; r < r1; r++ {
		var pk, saqs int32
		for pi := r * s.radix; pi < (r+1)*s.radix; pi++ {
			sd := &sides[pi]
			pk += sd.used
			n.BufferUse[pi] = float32(sd.used) / float32(sd.mem)
			saqs += int32(bits.OnesCount64(sd.lines) + bits.OnesCount64(sides[rc.egress(pi)].lines))
		}
		n.Packets[r], n.SAQs[r] = pk, saqs
	}
}

// recnHostSAQs fills in the SAQ lines of the interfaces of hosts [h0, h1).
func (s *Sim) recnHostSAQs(n *NetSnapshot, h0, h1 int) {
	rc := s.rn.rc
	for h := h0; h < h1; h++ {
		n.HostSAQs[h] = int32(bits.OnesCount64(rc.sides[rc.ni(h)].lines))
	}
}

// Clone is a copy of n that outlives the Watch callback.
func (n *NetSnapshot) Clone() *NetSnapshot {
	c := *n
	c.LinkUse, c.BufferUse = slices.Clone(n.LinkUse), slices.Clone(n.BufferUse)
	c.Packets, c.Misrouted, c.Injection = slices.Clone(n.Packets), slices.Clone(n.Misrouted), slices.Clone(n.Injection)
	c.SAQs, c.HostSAQs = slices.Clone(n.SAQs), slices.Clone(n.HostSAQs)
	return &c
}
