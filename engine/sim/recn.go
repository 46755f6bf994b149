package sim

import (
	"fmt"
	"math/bits"

	"phitsim/engine/topology"
)

// RECN, Regional Explicit Congestion Notification (Duato et al., "A New
// Scalable and Cost-Effective Congestion Management Strategy for Lossless
// Multistage Interconnection Networks", RECN paper §3): the protocol of the
// set-aside queues of every side of a fat tree's switches and of its
// network interfaces, at packet granularity.
//
// A side is one memory: the ingress side of a switch port (its input
// buffer), its egress side (its output buffer), or a host's network
// interface (the most upstream egress side, RECN paper §4.1). Every side
// holds a normal queue and up to saqs set-aside queues (SAQs), each with a
// CAM line holding the path from the side to a congestion root, in one
// shared memory counted in packets (global credits, §3.7).
//
// Paths are absolute: the global output-port ids (router·radix + port) the
// packet takes from the side on (from the side's own switch for an ingress
// side, from the next switch for an egress side or an interface), so the
// path extension of §3.4 is [this output] ++ path. Under D-mod-k routing
// every hop depends only on the destination, so the CAM's match on the
// destination's bits is the prefix match of the packet's remaining route.
//
// Ids: ingress side of port pi = pi; egress side of port po = nPorts + po;
// the interface of host h = 2·nPorts + h. The link an egress side or an
// interface sends on has that side's id; messages upstream from ingress
// side pi travel on the reverse link of the same port, the egress side
// nPorts + pi.
//
// State is in flat slices (sides, lines, queue heads, a node pool for the
// queues' linked lists, a timing wheel of messages): no maps, and nothing
// allocated per packet once the pool and the wheel's slots have grown.

// recnMaxPath bounds a path: 9 output ports from a leaf to a host on the
// 5-stage 512-host network (4 up, 5 down).
const recnMaxPath = 10

// recnWheel is the message wheel's size (a power of two): every message's
// delay is below it.
const recnWheel = 1 << 12

// side kinds
const (
	recnIngress = iota
	recnEgress
	recnNI
)

// message kinds
const (
	recnNotify = iota // a congestion notification with a token and a path
	recnAck           // an egress side's or interface's new line id, to the line that notified it
	recnToken         // a token back to the parent (a line, or the root)
	recnXoff
	recnXon
	recnCredit // one global credit back to the upstream egress side or interface
	recnIdle   // a line's idle timeout (never used since its allocation)
)

// recnParams are the thresholds and limits (RECN paper §3, §4.1; the
// thresholds are not given there: counts of packets).
type recnParams struct {
	saqs                    int   // SAQs (CAM lines) per side, ≤ 64
	mem                     int32 // memory per ingress side, in packets
	memEg, memNI            int32 // per egress side, per interface (0: mem)
	detect, prop, xoff, xon int32 // T_detect, T_prop, T_xoff, T_xon
	few                     int32 // a leaf SAQ with at most this many packets is served first (§3.8)
	idle                    int64 // a line never used for this long is freed
	internal                int64 // delay of a message inside a switch
	latency                 int64 // a link's latency
	ctl                     int64 // cycles a control packet occupies a link
}

// recnSide is one side's root and queue-independent state.
type recnSide struct {
	used     int32  // packets held, in all its queues
	mem      int32  // its memory, in packets
	lines    uint64 // valid CAM lines
	notified uint64 // root: the ingress ports notified (a token each)
	rootOut  int32  // root: tokens out
	isRoot   bool
	kind     uint8
	sw, port int32 // switch and port (an interface: its leaf and port)
	peer     int32 // ingress: the upstream egress side or interface; egress, interface: the downstream ingress side (−1: a host)
}

// recnLine is a CAM line and the state of its SAQ.
type recnLine struct {
	path        [recnMaxPath]int32
	plen        int8
	blocked     bool // its marker has not reached the head of its queue
	propagated  bool // ingress: notified upstream (a token out)
	congested   bool // egress, interface: reached T_prop
	xoffSent    bool
	stopped     bool // received Xoff
	everUsed    bool
	gen         uint16 // bumped at each allocation: stale messages are dropped
	outstanding int32  // tokens out; 0: the line owns its token (a leaf)
	notified    uint64 // egress: the ingress ports notified
	ups         uint64 // ingress: bit 0, the upstream egress line is known (ack); egress: the ingress ports whose lines feed it
	parent      int32  // side the token returns to
	parentLine  int16  // its line there, −1: the root
	parentGen   uint16
}

// recnMsg is a message in flight.
type recnMsg struct {
	kind     uint8
	line     int16 // the target line at `to` (−1: the root)
	gen      uint16
	fromLine int16
	fromGen  uint16
	plen     int8
	to, from int32
	path     [recnMaxPath]int32
}

// recnMsgNode is a message in the wheel: its slot's list links the nodes
// in the order they were posted.
type recnMsgNode struct {
	m    recnMsg
	next int32
}

// recnNode is an entry of a queue: a packet id, or ^line for a marker.
type recnNode struct{ v, next int32 }

// recn is the RECN state of a fat tree.
type recn struct {
	p      recnParams
	ft     *topology.FatTree
	radix  int
	nPorts int
	hosts  int
	// D-mod-k as tables, so that a route is lookups (ft.Port and ft.Link
	// divide at every hop): per (switch, host) the output port towards the
	// host, per global port the switch its link leads to (−1: a host's
	// port, a top switch's up port). Built with the sides, read only.
	hop  []uint8
	next []int32
	// per (host, destination): the line of the host's interface a packet
	// for the destination joins (its longest match, RECN paper §3.6) + 2,
	// 1 none, 0 not known; a row is cleared when the interface's lines
	// change (an allocation, a free), as the match depends on nothing else
	niMatch []int8
	// per (host, line of its interface), niWords words: the destinations
	// whose match (niMatch) is known to be the line, cleared with niMatch
	niDst   []uint64
	niWords int
	// per host: its admittance queues' last scan admitted nothing and
	// nothing that could admit one has happened since (recnAdmit): its
	// interface has sent nothing, no line there was stopped or restarted,
	// allocated or freed, and nothing was queued
	admIdle []bool
	sides   []recnSide
	lines   []recnLine // side·saqs + line
	upLine  []int16    // ingress line: the upstream egress line id (from the ack)
	upGen   []uint16
	// egress line: per local ingress port, the ingress line feeding it
	inLine []int16 // (side·saqs + line)·radix + port
	inGen  []uint16
	// queues: side·(saqs+1) + q, q = 0 the normal queue, 1 + l line l's SAQ
	qh, qt, qn  []int32
	nodes       []recnNode
	free        int32   // free-node list
	normalFirst bool    // the crossbar offers normal queues (and leaf SAQs with few packets) over all ingress sides before SAQs (recnStep)
	credits     []int32 // per link (egress side, interface): free packets downstream
	linkFree    []int64 // per link: the first cycle it is idle
	rr          []uint8 // per side: the SAQ round-robin pointer
	// sleep: per side, the first cycle its driver need try it again (a
	// failed attempt changes nothing); an arrival, an Xon or Xoff, a marker
	// leaving and a credit wake it
	sleep []int64
	// the messages in flight: per wheel slot (arrival cycle & recnWheel−1)
	// a FIFO list over one node pool, so that the pool holds the messages
	// in flight at once, which config.RecnMsgBound bounds
	wh, wt [recnWheel]int32
	msgs   []recnMsgNode
	mfree  int32 // free-node list
	// per line: the cycle its allocation's idle timeout is due, and the
	// cycle the line's one pending idle message lands (0: none)
	idleDue, idlePend []int64
	now               int64
	// in a partitioned run: the partition's exchange across the cut and
	// its messages' places in the sequential order (recn_parallel.go)
	px *recnPart
	// per kind of side (ingress; egress and interface), how many of its
	// sides hold k lines, k ≥ 1 (index 0 unread): the SAQ utilisation's
	// per-side maxima (recnSim.sample) without a scan of the sides
	linesIn, linesEg [65]int32
	// counters
	ctlSent, notifies, refused, allocs, frees int64
}

// newRecn builds RECN for fat tree ft with every side empty.
func newRecn(ft *topology.FatTree, p recnParams) (*recn, error) {
	if p.saqs < 1 || p.saqs > 64 {
		return nil, fmt.Errorf("recn: %d SAQs per side; 1 to 64", p.saqs)
	}
	if !(p.xon < p.xoff && p.prop <= p.xoff && p.xoff < p.mem && p.detect >= 1 && p.prop >= 1) {
		return nil, fmt.Errorf("recn: thresholds 1 ≤ T_prop %d ≤ T_xoff %d < memory %d, T_xon %d < T_xoff, T_detect ≥ 1", p.prop, p.xoff, p.mem, p.xon)
	}
	if p.latency+8*p.ctl+p.idle >= recnWheel || p.internal < 1 || p.latency < 1 {
		return nil, fmt.Errorf("recn: delays %d (internal), %d (link), %d (idle): at least 1, below %d", p.internal, p.latency, p.idle, recnWheel)
	}
	radix := ft.Radix()
	np := ft.Routers() * radix
	hosts := ft.Nodes()
	n := 2*np + hosts
	rc := &recn{p: p, ft: ft, radix: radix, nPorts: np, hosts: hosts, sides: make([]recnSide, n),
		hop: make([]uint8, ft.Routers()*hosts), next: make([]int32, np), niMatch: make([]int8, hosts*hosts),
		niDst: make([]uint64, hosts*p.saqs*((hosts+63)/64)), niWords: (hosts + 63) / 64, admIdle: make([]bool, hosts),
		lines: make([]recnLine, n*p.saqs), upLine: make([]int16, n*p.saqs), upGen: make([]uint16, n*p.saqs),
		inLine: make([]int16, n*p.saqs*radix), inGen: make([]uint16, n*p.saqs*radix),
		qh: make([]int32, n*(p.saqs+1)), qt: make([]int32, n*(p.saqs+1)), qn: make([]int32, n*(p.saqs+1)),
		credits: make([]int32, n), linkFree: make([]int64, n), sleep: make([]int64, n), rr: make([]uint8, n), free: -1,
		mfree: -1, idleDue: make([]int64, n*p.saqs), idlePend: make([]int64, n*p.saqs)}
	for i := range rc.qh {
		rc.qh[i], rc.qt[i] = -1, -1
	}
	for i := range rc.wh {
		rc.wh[i], rc.wt[i] = -1, -1
	}
	memEg, memNI := p.mem, p.mem
	if p.memEg > 0 {
		memEg = p.memEg
	}
	if p.memNI > 0 {
		memNI = p.memNI
	}
	for r := 0; r < ft.Routers(); r++ {
		for h := 0; h < hosts; h++ {
			rc.hop[r*hosts+h] = uint8(ft.Port(r, h))
		}
		for port := 0; port < radix; port++ {
			pi := r*radix + port
			r2, _ := ft.Link(r, port)
			rc.next[pi] = int32(r2)
			in, eg := &rc.sides[pi], &rc.sides[np+pi]
			in.kind, eg.kind = recnIngress, recnEgress
			in.sw, in.port, eg.sw, eg.port = int32(r), int32(port), int32(r), int32(port)
			in.peer, eg.peer = -1, -1
			in.mem, eg.mem = p.mem, memEg
			if r2, p2 := ft.Link(r, port); r2 >= 0 {
				in.peer, eg.peer = int32(np+r2*radix+p2), int32(r2*radix+p2)
				rc.credits[np+pi] = p.mem // the downstream ingress side's
			}
		}
	}
	for h := 0; h < hosts; h++ {
		r, port := ft.NodePort(h)
		ni := &rc.sides[2*np+h]
		ni.kind, ni.sw, ni.port, ni.peer, ni.mem = recnNI, int32(r), int32(port), int32(r*radix+port), memNI
		rc.sides[r*radix+port].peer = int32(2*np + h)
		rc.credits[2*np+h] = p.mem
	}
	return rc, nil
}

// the sides: ingress side pi is pi itself; then the egress sides, then the hosts' interfaces
func (rc *recn) egress(po int) int { return rc.nPorts + po }
func (rc *recn) ni(h int) int      { return 2*rc.nPorts + h }

// route writes the packet's remaining route from side s towards host dst
// (global output ports) and returns its length.
func (rc *recn) route(s int, dst int, out *[recnMaxPath]int32) int {
	sd := &rc.sides[s]
	r := int(sd.sw)
	if sd.kind == recnEgress {
		if sd.peer < 0 {
			return 0 // a host's link: delivered
		}
		r = int(sd.peer) / rc.radix
	}
	n := 0
	for n < recnMaxPath {
		po := r*rc.radix + int(rc.hop[r*rc.hosts+dst])
		out[n] = int32(po)
		n++
		if r = int(rc.next[po]); r < 0 {
			break
		}
	}
	return n
}

// match is the valid line of side s, other than skip, whose path is the
// longest prefix of route[:n]; −1 if none (RECN paper §3.6: the SAQ of the
// largest tree the packet joins).
func (rc *recn) match(s int, route *[recnMaxPath]int32, n int, skip int) int {
	best, bestLen := -1, 0
	base := s * rc.p.saqs
	for m := rc.sides[s].lines; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		ln := &rc.lines[base+l]
		k := int(ln.plen)
		if l == skip || k > n || k <= bestLen {
			continue
		}
		i := 0
		for i < k && ln.path[i] == route[i] {
			i++
		}
		if i == k {
			best, bestLen = l, k
		}
	}
	return best
}

// niLine is the line of host h's interface that a packet for dst joins
// (match over its route), −1 none; the interface holds lines.
func (rc *recn) niLine(h, dst int) int {
	i := h*rc.hosts + dst
	if v := rc.niMatch[i]; v != 0 {
		return int(v) - 2
	}
	var route [recnMaxPath]int32
	s := rc.ni(h)
	n := rc.route(s, dst, &route)
	l := rc.match(s, &route, n, -1)
	rc.niMatch[i] = int8(l + 2)
	if l >= 0 {
		rc.niDst[(h*rc.p.saqs+l)*rc.niWords+dst>>6] |= 1 << (dst & 63)
	}
	return l
}

// niStops reports whether line l of injection side s admits nothing:
// stopped by Xoff, or holding T_xoff packets (RECN paper §3.7).
func (rc *recn) niStops(s, l int) bool {
	return rc.lines[s*rc.p.saqs+l].stopped || rc.qn[rc.qi(s, 1+l)] >= rc.p.xoff
}

// linesChanged counts side s's lines, which were `before`, and forgets
// its matches when it is an interface.
func (rc *recn) linesChanged(s int, before uint64) {
	c := &rc.linesEg
	if rc.sides[s].kind == recnIngress {
		c = &rc.linesIn
	}
	c[bits.OnesCount64(before)]--
	c[bits.OnesCount64(rc.sides[s].lines)]++
	if h := s - 2*rc.nPorts; h >= 0 {
		rc.admIdle[h] = false
		clear(rc.niMatch[h*rc.hosts : (h+1)*rc.hosts])
		w := rc.p.saqs * rc.niWords
		clear(rc.niDst[h*w : (h+1)*w])
	}
}

// mostLines is the most lines any side counted in c holds.
func (rc *recn) mostLines(c *[65]int32) int32 {
	for k := rc.p.saqs; k > 0; k-- {
		if c[k] > 0 {
			return int32(k)
		}
	}
	return 0
}

// --- queues ---

func (rc *recn) qi(s, q int) int { return s*(rc.p.saqs+1) + q }

func (rc *recn) pushNode(qi int, v int32) {
	n := rc.free
	if n >= 0 {
		rc.free = rc.nodes[n].next
		rc.nodes[n] = recnNode{v, -1}
	} else {
		n = int32(len(rc.nodes))
		rc.nodes = append(rc.nodes, recnNode{v, -1})
	}
	if rc.qt[qi] < 0 {
		rc.qh[qi] = n
	} else {
		rc.nodes[rc.qt[qi]].next = n
	}
	rc.qt[qi] = n
}

func (rc *recn) popNode(qi int) int32 {
	n := rc.qh[qi]
	v := rc.nodes[n].v
	rc.qh[qi] = rc.nodes[n].next
	if rc.qh[qi] < 0 {
		rc.qt[qi] = -1
	}
	rc.nodes[n].next = rc.free
	rc.free = n
	return v
}

// popMarkers removes the markers at the head of queue q of side s and
// enables their lines (RECN paper §3.6); a marker never crosses the
// crossbar and leaves as soon as it is at the head, even while the queue
// waits for credits.
//
// A blocked SAQ keeps the markers at its head: its packets are newer than
// those ahead of its own marker, and so are the packets of a longer line
// whose marker it holds (nested trees); that line is enabled only after
// this one is.
func (rc *recn) popMarkers(s, q int) {
	if h := rc.qh[rc.qi(s, q)]; h >= 0 && rc.nodes[h].v < 0 {
		rc.markersAtHead(s, q)
	}
}

// markersAtHead is popMarkers once a marker is at the head.

func (rc *recn) markersAtHead(s, q int) {
	if q > 0 && rc.lines[s*rc.p.saqs+q-1].blocked {
		return
	}
	qi := rc.qi(s, q)
	for rc.qh[qi] >= 0 && rc.nodes[rc.qh[qi]].v < 0 {
		l := int(^rc.popNode(qi))
		rc.lines[s*rc.p.saqs+l].blocked = false
		rc.sleep[s] = 0
		rc.popMarkers(s, 1+l)
		rc.tryFree(s, l)
	}
}

// Head is the packet at the head of queue q of side s, −1 if none.
func (rc *recn) head(s, q int) int32 {
	if h := rc.qh[rc.qi(s, q)]; h >= 0 {
		return rc.nodes[h].v // markers are popped as they reach the head
	}
	return -1
}

// Room tells whether side s has memory for one more packet (the internal
// credits of an egress side; an ingress side's are its upstream link's).
func (rc *recn) room(s int) bool { return rc.sides[s].used < rc.sides[s].mem }

// --- messages ---

func (rc *recn) post(at int64, m recnMsg) {
	if at-rc.now >= recnWheel || at <= rc.now {
		panic("recn: a message's delay outside the wheel")
	}
	if rc.px != nil { // a partition's (recn_parallel.go)
		rc.postKeyed(at, m)
		return
	}
	rc.enqueue(at, rc.node(m))
}

// node takes a message node for m from the free list (or a new one).
func (rc *recn) node(m recnMsg) int32 {
	i := rc.mfree
	if i >= 0 {
		rc.mfree = rc.msgs[i].next
		rc.msgs[i] = recnMsgNode{m, -1}
	} else {
		i = int32(len(rc.msgs))
		rc.msgs = append(rc.msgs, recnMsgNode{m, -1})
	}
	return i
}

// enqueue appends message node i to the wheel slot of cycle at.
func (rc *recn) enqueue(at int64, i int32) {
	slot := at & (recnWheel - 1)
	if rc.wt[slot] < 0 {
		rc.wh[slot] = i
	} else {
		rc.msgs[rc.wt[slot]].next = i
	}
	rc.wt[slot] = i
}

// internalMsg sends m inside a switch.
func (rc *recn) internalMsg(m recnMsg) { rc.post(rc.now+rc.p.internal, m) }

// linkMsg sends m as a control packet on link (an egress side's or an
// interface's id): it waits for the link, occupies it rc.p.ctl cycles, and
// arrives after the latency (RECN paper §3.7: control packets share the
// links' bandwidth with data).
func (rc *recn) linkMsg(link int, m recnMsg) {
	dep := max(rc.now, rc.linkFree[link])
	rc.linkFree[link] = dep + rc.p.ctl
	rc.ctlSent++
	rc.post(dep+rc.p.ctl+rc.p.latency, m)
}

// upLink is the link from side s to its upstream peer (the reverse
// direction of ingress side s's port).
func (rc *recn) upLink(s int) int { return rc.nPorts + s }

// tokenBack returns a token from side s (line `line`, −1 none) to parent
// (pside, pline, pgen): inside the switch from an ingress side, over the
// link downstream from an egress side or interface.
func (rc *recn) tokenBack(s int, pside int32, pline int16, pgen uint16) {
	m := recnMsg{kind: recnToken, to: pside, line: pline, gen: pgen, from: int32(s)}
	if rc.sides[s].kind == recnIngress {
		rc.internalMsg(m)
	} else {
		rc.linkMsg(s, m)
	}
}

// Step delivers the messages of cycle now (call once per cycle, in order).
func (rc *recn) step(now int64) {
	rc.now = now
	slot := now & (recnWheel - 1)
	next := rc.wh[slot]
	rc.wh[slot], rc.wt[slot] = -1, -1 // handlers may post to later cycles only
	if rc.px != nil {
		rc.px.seqN = 0
	}
	for next >= 0 {
		i := next
		m := rc.msgs[i].m
		if rc.px != nil {
			rc.px.handling(i)
		}
		next = rc.msgs[i].next
		rc.msgs[i].next, rc.mfree = rc.mfree, i
		switch m.kind {
		case recnNotify:
			rc.onNotify(&m)
		case recnAck:
			if ln := &rc.lines[int(m.to)*rc.p.saqs+int(m.line)]; ln.gen == m.gen && rc.valid(int(m.to), int(m.line)) {
				i := int(m.to)*rc.p.saqs + int(m.line)
				rc.upLine[i], rc.upGen[i] = m.fromLine, m.fromGen
				ln.ups = 1
				if rc.qn[rc.qi(int(m.to), 1+int(m.line))] >= rc.p.xoff && !ln.xoffSent {
					rc.xoff(int(m.to), int(m.line), true)
				}
			}
		case recnToken:
			rc.onToken(&m)
		case recnXoff, recnXon:
			if ln := &rc.lines[int(m.to)*rc.p.saqs+int(m.line)]; ln.gen == m.gen && rc.valid(int(m.to), int(m.line)) {
				ln.stopped = m.kind == recnXoff
				rc.sleep[m.to] = 0
				if h := int(m.to) - 2*rc.nPorts; h >= 0 {
					rc.admIdle[h] = false
				}
			}
		case recnCredit:
			rc.credits[m.to]++
			rc.sleep[m.to] = 0
		case recnIdle:
			li := int(m.to)*rc.p.saqs + int(m.line)
			rc.idlePend[li] = 0
			ln := &rc.lines[li]
			if !rc.valid(int(m.to), int(m.line)) || ln.everUsed {
				break
			}
			if ln.gen == m.gen {
				ln.everUsed = true // idle for T_idle: free it as if used (RECN paper §3.5 needs an edge)
				rc.tryFree(int(m.to), int(m.line))
			} else if due := rc.idleDue[li]; due > now {
				// the line was allocated again while this message of an
				// earlier allocation was pending: it carries on to the
				// present allocation's timeout (one message per line)
				rc.idlePend[li] = due
				rc.post(due, recnMsg{kind: recnIdle, to: m.to, line: m.line, gen: ln.gen})
			}
		}
	}
}

func (rc *recn) valid(s, l int) bool { return rc.sides[s].lines&(1<<l) != 0 }

// --- packets ---

// Arrive classifies packet k (for host dst) into side s (RECN paper §3.6:
// the longest CAM match, else the normal queue) and returns the queue; from
// is the ingress port of the switch the packet crossed from (egress sides).
// The sender took a credit (the side's memory has room).
func (rc *recn) arrive(s int, k int32, dst int, from int) int {
	sd := &rc.sides[s]
	q := 0
	l := -1
	if sd.lines != 0 {
		if sd.kind == recnNI {
			l = rc.niLine(s-2*rc.nPorts, dst)
		} else {
			var route [recnMaxPath]int32
			n := rc.route(s, dst, &route)
			l = rc.match(s, &route, n, -1)
		}
		if l >= 0 {
			q = 1 + l
		}
	}
	qi := rc.qi(s, q)
	rc.pushNode(qi, k)
	rc.qn[qi]++
	rc.sleep[s] = 0
	sd.used++
	if l < 0 {
		if sd.kind == recnEgress {
			rc.rootCheck(s, from)
		}
		return q
	}
	ln := &rc.lines[s*rc.p.saqs+l]
	ln.everUsed = true
	occ := rc.qn[qi]
	switch sd.kind {
	case recnIngress:
		// §3.4: the SAQ notifies the upstream egress side (or interface),
		// once, with a token; the path is unchanged
		if occ >= rc.p.prop && !ln.propagated && sd.peer >= 0 {
			ln.propagated = true
			ln.outstanding++
			rc.notifies++
			rc.linkMsg(rc.upLink(s), recnMsg{kind: recnNotify, to: sd.peer, from: int32(s), fromLine: int16(l), fromGen: ln.gen, plen: ln.plen, path: ln.path})
		}
	case recnEgress:
		// §3.4: a congested egress SAQ notifies, lazily, each ingress
		// side that forwards to it, extending the path by this output
		if occ >= rc.p.prop {
			ln.congested = true
		}
		if ln.congested && ln.notified&(1<<from) == 0 && ln.plen < recnMaxPath {
			ln.notified |= 1 << from
			ln.outstanding++
			m := recnMsg{kind: recnNotify, to: sd.sw*int32(rc.radix) + int32(from), from: int32(s), fromLine: int16(l), fromGen: ln.gen, plen: ln.plen + 1}
			m.path[0] = sd.sw*int32(rc.radix) + sd.port
			copy(m.path[1:], ln.path[:ln.plen])
			rc.notifies++
			rc.internalMsg(m)
		}
	}
	if occ >= rc.p.xoff && !ln.xoffSent {
		rc.xoff(s, l, true)
	}
	return q
}

// rootCheck is the detection at egress side s (RECN paper §3.3): its
// normal queue reaching T_detect makes it a root, which notifies each
// ingress port the first time that port sends to it, with a token.
func (rc *recn) rootCheck(s, from int) {
	sd := &rc.sides[s]
	if rc.qn[rc.qi(s, 0)] >= rc.p.detect {
		sd.isRoot = true
	}
	if sd.isRoot && sd.notified&(1<<from) == 0 {
		sd.notified |= 1 << from
		sd.rootOut++
		m := recnMsg{kind: recnNotify, to: sd.sw*int32(rc.radix) + int32(from), from: int32(s), fromLine: -1, plen: 1}
		m.path[0] = sd.sw*int32(rc.radix) + sd.port
		rc.notifies++
		rc.internalMsg(m)
	}
}

// xoff sends Xoff (on) or Xon to line l's upstream SAQs (§3.7): over the
// link for an ingress line, inside the switch for an egress line. With no
// upstream SAQ yet, nothing is sent and nothing recorded: the ack (or an
// ingress line's registration) sends the Xoff then.
func (rc *recn) xoff(s, l int, on bool) {
	i := s*rc.p.saqs + l
	ln := &rc.lines[i]
	if ln.ups == 0 {
		ln.xoffSent = false
		return
	}
	ln.xoffSent = on
	kind := uint8(recnXon)
	if on {
		kind = recnXoff
	}
	sd := &rc.sides[s]
	if sd.kind == recnIngress {
		rc.linkMsg(rc.upLink(s), recnMsg{kind: kind, to: sd.peer, line: rc.upLine[i], gen: rc.upGen[i]})
		return
	}
	for m := ln.ups; m != 0; m &= m - 1 {
		p := bits.TrailingZeros64(m)
		rc.internalMsg(recnMsg{kind: kind, to: sd.sw*int32(rc.radix) + int32(p), line: rc.inLine[i*rc.radix+p], gen: rc.inGen[i*rc.radix+p]})
	}
}

// eligible tells whether queue q of side s may send its head (a SAQ: not
// blocked by its marker, not stopped by Xoff).
func (rc *recn) eligible(s, q int) bool {
	if rc.qn[rc.qi(s, q)] == 0 {
		return false
	}
	if q == 0 {
		return true
	}
	ln := &rc.lines[s*rc.p.saqs+q-1]
	return !ln.blocked && !ln.stopped
}

// pick is the queue of side s to serve next, among those whose bit in
// skip is clear (the caller's: no room downstream), −1 if none (RECN paper
// §3.8): a leaf SAQ holding at most `few` packets first, so that it drains
// and frees; then the normal queue; then the other SAQs round-robin.
func (rc *recn) pick(s int, skip uint64) int {
	if q := rc.pickFirst(s, skip); q >= 0 {
		return q
	}
	lines := rc.sides[s].lines
	ptr := uint(rc.rr[s])
	rot := bits.RotateLeft64(lines, -int(ptr)) // bit j: line ptr+j
	for m := rot; m != 0; m &= m - 1 {
		l := (int(ptr) + bits.TrailingZeros64(m)) % 64
		if q := 1 + l; skip&(1<<q) == 0 && rc.eligible(s, q) {
			rc.rr[s] = uint8((l + 1) % 64)
			return q
		}
	}
	return -1
}

// pickFirst is pick without the other SAQs: a leaf SAQ holding at most
// `few` packets, else the normal queue, −1 if neither may send. The
// crossbar offers these first across all ingress sides of a switch
// (recnStep), since "requests from packets in normal queues have
// preference over requests from packets in SAQs" (RECN paper §4.1).
func (rc *recn) pickFirst(s int, skip uint64) int {
	base := s * rc.p.saqs
	for m := rc.sides[s].lines; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		if q := 1 + l; skip&(1<<q) == 0 && rc.lines[base+l].outstanding == 0 && rc.qn[rc.qi(s, q)] <= rc.p.few && rc.eligible(s, q) {
			return q
		}
	}
	if skip&1 == 0 && rc.eligible(s, 0) {
		return 0
	}
	return -1
}

// Dequeue removes the head packet of queue q of side s (it crossed the
// crossbar, or left on the link): the markers behind it that reach the
// head go, an ingress side returns a global credit upstream, an egress
// root may end, and the SAQ may send Xon or free its line.
func (rc *recn) dequeue(s, q int) int32 {
	qi := rc.qi(s, q)
	k := rc.popNode(qi)
	rc.qn[qi]--
	sd := &rc.sides[s]
	sd.used--
	if sd.kind == recnNI {
		rc.admIdle[s-2*rc.nPorts] = false
	}
	rc.popMarkers(s, q)
	if sd.kind == recnIngress && sd.peer >= 0 {
		// a credit goes back as the baselines' do (side-band, after the
		// link's latency): RECN's own control packets are what it adds
		rc.post(rc.now+rc.p.latency, recnMsg{kind: recnCredit, to: sd.peer})
	}
	if q == 0 {
		if sd.isRoot && sd.rootOut == 0 && rc.qn[qi] < rc.p.detect {
			sd.isRoot = false
		}
		return k
	}
	l := q - 1
	if ln := &rc.lines[s*rc.p.saqs+l]; ln.xoffSent && rc.qn[qi] <= rc.p.xon {
		rc.xoff(s, l, false)
	}
	rc.tryFree(s, l)
	return k
}

// send takes a global credit of link (an egress side or interface) for a
// data packet of p cycles and returns the cycle it goes onto the link.
func (rc *recn) send(link int, p int64) int64 {
	rc.credits[link]--
	dep := max(rc.now, rc.linkFree[link])
	rc.linkFree[link] = dep + p
	return dep
}

// --- lines ---

// onNotify allocates a line at the notified side (RECN paper §3.4, §3.6),
// or refuses (no free line: §3.8, only at ingress sides; or a line with
// that path exists) and returns the token at once.
func (rc *recn) onNotify(m *recnMsg) {
	s := int(m.to)
	sd := &rc.sides[s]
	var path [recnMaxPath]int32
	copy(path[:], m.path[:m.plen])
	n := int(m.plen)
	dup := false
	base := s * rc.p.saqs
	for x := sd.lines; x != 0; x &= x - 1 {
		if ln := &rc.lines[base+bits.TrailingZeros64(x)]; ln.plen == m.plen && ln.path == m.path {
			dup = true
		}
	}
	free := ^sd.lines
	if rc.p.saqs < 64 {
		free &= 1<<rc.p.saqs - 1
	}
	if dup || free == 0 {
		rc.refused++
		rc.tokenBack(s, m.from, m.fromLine, m.fromGen)
		return
	}
	l := bits.TrailingZeros64(free)
	// the marker goes where this path's packets went until now: the
	// normal queue, or a shorter line's SAQ (nested trees)
	q := 1 + rc.match(s, &path, n, -1)
	sd.lines |= 1 << l
	rc.linesChanged(s, sd.lines&^(1<<l))
	ln := &rc.lines[base+l]
	*ln = recnLine{path: m.path, plen: m.plen, blocked: true, gen: ln.gen + 1, parent: m.from, parentLine: m.fromLine, parentGen: m.fromGen}
	rc.allocs++
	rc.pushNode(rc.qi(s, q), ^int32(l))
	rc.popMarkers(s, q) // an empty queue: enabled at once
	if rc.p.idle > 0 {
		// one idle message per line: a pending one (of an earlier
		// allocation, due sooner) carries on to this allocation's timeout
		due := rc.now + rc.p.idle
		rc.idleDue[base+l] = due
		if rc.idlePend[base+l] == 0 {
			rc.idlePend[base+l] = due
			rc.post(due, recnMsg{kind: recnIdle, to: int32(s), line: int16(l), gen: ln.gen})
		}
	}
	if sd.kind == recnIngress {
		// the egress line (not the root) learns its upstream SAQ, for Xoff
		if m.fromLine >= 0 {
			i := int(m.from)*rc.p.saqs + int(m.fromLine)
			pl := &rc.lines[i]
			if pl.gen == m.fromGen && rc.valid(int(m.from), int(m.fromLine)) {
				pl.ups |= 1 << sd.port
				rc.inLine[i*rc.radix+int(sd.port)], rc.inGen[i*rc.radix+int(sd.port)] = int16(l), ln.gen
				if pl.xoffSent {
					rc.internalMsg(recnMsg{kind: recnXoff, to: int32(s), line: int16(l), gen: ln.gen})
				}
			}
		}
		return
	}
	// an egress side or interface acknowledges with its line id (§3.4)
	rc.linkMsg(s, recnMsg{kind: recnAck, to: m.from, line: m.fromLine, gen: m.fromGen, fromLine: int16(l), fromGen: ln.gen})
}

// tryFree frees line l of side s when it owns its token, its SAQ is empty
// and has been used, and its marker has left (RECN paper §3.5), and gives
// the token back to its parent.
func (rc *recn) tryFree(s, l int) {
	ln := &rc.lines[s*rc.p.saqs+l]
	if !rc.valid(s, l) || ln.outstanding != 0 || ln.blocked || !ln.everUsed || rc.qn[rc.qi(s, 1+l)] != 0 {
		return
	}
	rc.sides[s].lines &^= 1 << l
	rc.linesChanged(s, rc.sides[s].lines|1<<l)
	rc.frees++
	if ln.xoffSent { // nothing left to stop
		ln.xoffSent = false
	}
	rc.tokenBack(s, ln.parent, ln.parentLine, ln.parentGen)
}

// onToken takes a token back from child side m.from: at the root, or at a
// line, which may then free (the cascade of §3.5).
func (rc *recn) onToken(m *recnMsg) {
	s := int(m.to)
	sd := &rc.sides[s]
	child := &rc.sides[m.from]
	if m.line < 0 {
		sd.rootOut--
		sd.notified &^= 1 << child.port
		if sd.rootOut == 0 && rc.qn[rc.qi(s, 0)] < rc.p.detect {
			sd.isRoot = false
		}
		return
	}
	l := int(m.line)
	ln := &rc.lines[s*rc.p.saqs+l]
	if ln.gen != m.gen || !rc.valid(s, l) {
		panic("recn: a token for a freed line")
	}
	ln.outstanding--
	if sd.kind == recnIngress {
		// the upstream SAQ is gone, and its Xoff state with it
		ln.propagated, ln.ups, ln.xoffSent = false, 0, false
	} else {
		ln.notified &^= 1 << child.port
		ln.ups &^= 1 << child.port
	}
	rc.tryFree(s, l)
}
