package sim

// The mechanism tests of RECN (Duato et al., "A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks", RECN paper §3) on small fat trees, driven by a
// packet-level rig: CIOQ switches whose ingress sides cross a multiplexed
// crossbar at speedup 1.5 (a packet is 3 cycles on a link, 2 across the
// crossbar), egress sides that send on their links under global credits,
// and network interfaces that inject from per-host sources.

import (
	"testing"

	"phitsim/engine/topology"
)

const (
	rigP    = 3 // cycles of a packet on a link
	rigXbar = 2 // cycles of a packet across the crossbar (speedup 1.5)
)

type rigPkt struct {
	src, dst int
	seq      int
}

type rigArrival struct {
	at   int64
	side int
	k    int32
}

// rig moves packets through rc's sides.
type rig struct {
	t                               *testing.T
	rc                              *recn
	ft                              *topology.FatTree
	pk                              []rigPkt
	flight                          []rigArrival // on links, in arrival order per link
	xbarIn                          []int64      // per ingress side: busy until
	xbarOut                         []int64      // per egress side: busy until
	send                            []int        // per host: packets still to inject
	dst                             []int        // per host: their destination
	seq                             [][]int      // per (src, dst): next expected sequence number at delivery
	nextSeq                         [][]int
	outOfOrder, delivered           int
	now                             int64
	maxLines, maxIngress, maxEgress int
}

func newRig(t *testing.T, k, n int, p recnParams) *rig {
	ft, err := topology.NewFatTree(k, n, 0)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := newRecn(ft, p)
	if err != nil {
		t.Fatal(err)
	}
	h := ft.Nodes()
	g := &rig{t: t, rc: rc, ft: ft, xbarIn: make([]int64, len(rc.sides)), xbarOut: make([]int64, len(rc.sides)),
		send: make([]int, h), dst: make([]int, h), seq: make([][]int, h), nextSeq: make([][]int, h)}
	for i := range g.seq {
		g.seq[i], g.nextSeq[i] = make([]int, h), make([]int, h)
	}
	return g
}

// rigParams are the defaults scaled to the rig: thresholds in packets.
func rigParams() recnParams {
	return recnParams{saqs: 8, mem: 64, detect: 6, prop: 4, xoff: 12, xon: 6, few: 2, idle: 300, internal: 1, latency: 2, ctl: 1}
}

// cycle runs one cycle: messages, arrivals from links, crossbar transfers,
// link departures, injection.
func (g *rig) cycle() {
	rc := g.rc
	rc.step(g.now)
	// arrivals
	j := 0
	for _, a := range g.flight {
		if a.at > g.now {
			g.flight[j] = a
			j++
			continue
		}
		g.deliverTo(a.side, a.k, -1)
	}
	g.flight = g.flight[:j]
	radix := g.ft.Radix()
	// crossbar: each ingress side in turn (rotating start), its picked head
	// to its egress side if both crossbar ports are free and it has room
	nr := g.ft.Routers()
	for r := 0; r < nr; r++ {
		for i := 0; i < radix; i++ {
			in := (i + int(g.now)) % radix
			s := r*radix + in
			if g.xbarIn[s] > g.now {
				continue
			}
			var skip uint64
			for {
				q := rc.pick(s, skip)
				if q < 0 {
					break
				}
				k := rc.head(s, q)
				po := r*radix + g.ft.Port(r, g.pk[k].dst)
				eg := rc.egress(po)
				if g.xbarOut[eg] > g.now || !rc.room(eg) {
					skip |= 1 << q
					continue
				}
				rc.dequeue(s, q)
				g.xbarIn[s], g.xbarOut[eg] = g.now+rigXbar, g.now+rigXbar
				g.deliverTo(eg, k, in)
				break
			}
		}
	}
	// links: egress sides and interfaces
	for s := rc.nPorts; s < len(rc.sides); s++ {
		sd := &rc.sides[s]
		if rc.linkFree[s] > g.now {
			continue
		}
		if sd.kind == recnNI {
			h := s - 2*rc.nPorts
			if g.send[h] > 0 && rc.room(s) {
				g.send[h]--
				k := int32(len(g.pk))
				g.pk = append(g.pk, rigPkt{h, g.dst[h], g.nextSeq[h][g.dst[h]]})
				g.nextSeq[h][g.dst[h]]++
				rc.arrive(s, k, g.dst[h], -1)
			}
		}
		if sd.peer >= 0 && rc.credits[s] == 0 {
			continue
		}
		q := rc.pick(s, 0)
		if q < 0 {
			continue
		}
		k := rc.dequeue(s, q)
		dep := rc.send(s, rigP)
		if sd.peer < 0 { // a host
			g.consume(k)
			continue
		}
		g.flight = append(g.flight, rigArrival{dep + rigP + rc.p.latency, int(sd.peer), k})
	}
	for s := range rc.sides {
		n := bitsOnes(rc.sides[s].lines)
		switch rc.sides[s].kind {
		case recnIngress:
			g.maxIngress = max(g.maxIngress, n)
		default:
			g.maxEgress = max(g.maxEgress, n)
		}
	}
	g.maxLines = max(g.maxLines, g.lines())
	g.now++
}

func (g *rig) deliverTo(s int, k int32, from int) {
	if !g.rc.room(s) {
		g.t.Fatalf("cycle %d: side %d full (%d packets): a credit was not honoured", g.now, s, g.rc.sides[s].used)
	}
	g.rc.arrive(s, k, g.pk[k].dst, from)
}

func (g *rig) consume(k int32) {
	p := g.pk[k]
	if p.seq != g.seq[p.src][p.dst] {
		g.outOfOrder++
	}
	g.seq[p.src][p.dst] = p.seq + 1
	g.delivered++
}

func (g *rig) lines() int {
	n := 0
	for s := range g.rc.sides {
		n += bitsOnes(g.rc.sides[s].lines)
	}
	return n
}

func bitsOnes(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// idle: no packet anywhere, no message in flight.
func (g *rig) quiet() bool {
	if len(g.flight) != 0 {
		return false
	}
	for s := range g.rc.sides {
		if g.rc.sides[s].used != 0 {
			return false
		}
	}
	for i := range g.rc.wh {
		if g.rc.wh[i] >= 0 {
			return false
		}
	}
	return true
}

// eachMsg calls f with every message in flight.
func (rc *recn) eachMsg(f func(*recnMsg)) {
	for _, h := range rc.wh {
		for i := h; i >= 0; i = rc.msgs[i].next {
			f(&rc.msgs[i].m)
		}
	}
}

// checkReleased fails unless every line is free, no root stands and every
// token is home.
func (g *rig) checkReleased() {
	g.t.Helper()
	for s := range g.rc.sides {
		sd := &g.rc.sides[s]
		if sd.lines != 0 || sd.isRoot || sd.rootOut != 0 || sd.notified != 0 {
			g.t.Errorf("side %d (kind %d, switch %d port %d): lines %b, root %v, %d tokens out, notified %b after the drain",
				s, sd.kind, sd.sw, sd.port, sd.lines, sd.isRoot, sd.rootOut, sd.notified)
		}
	}
}

// checkCredits: every link's global credits are the downstream side's
// free memory less the packets and credits in flight to it (RECN paper
// §3.7), once nothing is in flight.
func (g *rig) checkCredits() {
	g.t.Helper()
	for s := g.rc.nPorts; s < len(g.rc.sides); s++ {
		if peer := g.rc.sides[s].peer; peer >= 0 && g.rc.credits[s] != g.rc.p.mem-g.rc.sides[peer].used {
			g.t.Errorf("link %d: %d credits, downstream side %d has %d of %d free", s, g.rc.credits[s], peer, g.rc.p.mem-g.rc.sides[peer].used, g.rc.p.mem)
		}
	}
}

// RECN paper §3.3–§3.7, one congestion tree on the two-leaf fat tree
// (2-ary 2-tree: hosts 0, 1 on leaf 0, hosts 2, 3 on leaf 1; ports 0–1
// down, 2–3 up): hosts 0 and 2 send 300 packets each to host 3, whose link
// is the one over-subscribed port. The events come in the paper's order:
// detection at the root, lazy notifications to the ingress sides that send
// to it only, an ack after the propagation upstream, then Xoff; the tree
// reaches host 0's interface; every packet arrives in order; after the
// drain every line is free and every link's credits are its downstream
// memory's free space.
func TestRECNSingleTree(t *testing.T) {
	g := newRig(t, 2, 2, rigParams())
	rc := g.rc
	for _, h := range []int{0, 2} {
		g.send[h], g.dst[h] = 300, 3
	}
	leaf1 := 1
	root := rc.egress(leaf1*4 + 1) // leaf 1's port to host 3
	var rootAt, firstLine, ackAt, xoffAt int64 = -1, -1, -1, -1
	for g.now < 4000 && !(g.delivered == 600 && g.quiet()) {
		g.cycle()
		if rootAt < 0 && rc.sides[root].isRoot {
			for s := range rc.sides {
				if rc.sides[s].isRoot && s != root {
					t.Errorf("side %d is a root too", s)
				}
			}
			rootAt = g.now
		}
		if firstLine < 0 && g.lines() > 0 {
			firstLine = g.now
			// the first lines are the root's notifications, at the ingress
			// sides of leaf 1 that sent to host 3: from host 2 (port 0) and
			// from the top (an up port); none at host 3's own port
			for s := range rc.sides {
				if rc.sides[s].lines == 0 {
					continue
				}
				if rc.sides[s].kind != recnIngress || rc.sides[s].sw != int32(leaf1) || rc.sides[s].port == 1 {
					t.Errorf("a first line at side %d (kind %d, switch %d, port %d)", s, rc.sides[s].kind, rc.sides[s].sw, rc.sides[s].port)
				}
				ln := &rc.lines[s*rc.p.saqs]
				if ln.plen != 1 || ln.path[0] != int32(leaf1*4+1) || ln.parentLine != -1 || ln.parent != int32(root) {
					t.Errorf("side %d: line path %v parent %d/%d; want [%d], the root %d", s, ln.path[:ln.plen], ln.parent, ln.parentLine, leaf1*4+1, root)
				}
			}
		}
		for s := range rc.sides {
			if rc.sides[s].kind == recnIngress {
				for l := 0; l < rc.p.saqs; l++ {
					if rc.valid(s, l) && rc.lines[s*rc.p.saqs+l].ups != 0 && ackAt < 0 {
						ackAt = g.now
					}
				}
			}
			for l := 0; l < rc.p.saqs; l++ {
				if rc.valid(s, l) && rc.lines[s*rc.p.saqs+l].stopped && xoffAt < 0 {
					xoffAt = g.now
				}
			}
		}
	}
	t.Logf("root at %d, first line at %d, first ack at %d, first Xoff at %d; %d lines at most (ingress %d, egress %d), %d notifications, %d refused, %d control packets, drained at %d",
		rootAt, firstLine, ackAt, xoffAt, g.maxLines, g.maxIngress, g.maxEgress, rc.notifies, rc.refused, rc.ctlSent, g.now)
	if !(rootAt > 0 && firstLine > rootAt && ackAt > firstLine && xoffAt > ackAt) {
		t.Errorf("want root detection < first line < ack < Xoff; got %d, %d, %d, %d", rootAt, firstLine, ackAt, xoffAt)
	}
	if g.delivered != 600 || g.outOfOrder != 0 {
		t.Errorf("%d of 600 packets delivered, %d out of order", g.delivered, g.outOfOrder)
	}
	// the tree reached the interfaces of hosts 0 and 1 (4 hops up)
	if g.maxLines < 6 {
		t.Errorf("at most %d lines; want the tree from the root to the interfaces (≥ 6)", g.maxLines)
	}
	g.checkReleased()
	g.checkCredits()
}

// checkPaths: every valid line's path is a route from its side (its first
// port at the side's own switch for an ingress side, at the next switch
// for an egress side or interface; each port's link reaching the next
// port's switch), and the path grows by one port at each ingress side and
// is copied unchanged over a link (RECN paper §3.4: the extension at the
// internal notification only).
func (g *rig) checkPaths() {
	g.t.Helper()
	rc := g.rc
	for s := range rc.sides {
		sd := &rc.sides[s]
		for m := sd.lines; m != 0; m &= m - 1 {
			l := bitsTrailing(m)
			ln := &rc.lines[s*rc.p.saqs+l]
			want := int(sd.sw)
			if sd.kind == recnEgress {
				want = int(sd.peer) / rc.radix
			}
			for i := 0; i < int(ln.plen); i++ {
				if int(ln.path[i])/rc.radix != want {
					g.t.Fatalf("cycle %d side %d line %d: path %v leaves switch %d at hop %d", g.now, s, l, ln.path[:ln.plen], want, i)
				}
				want, _ = g.ft.Link(want, int(ln.path[i])%rc.radix)
			}
			plen := int8(1) // under a root
			if ln.parentLine >= 0 {
				plen = rc.lines[int(ln.parent)*rc.p.saqs+int(ln.parentLine)].plen
				if sd.kind == recnIngress {
					plen++
				}
			}
			if ln.plen != plen {
				g.t.Fatalf("cycle %d side %d (kind %d) line %d: path length %d, its parent's implies %d", g.now, s, sd.kind, l, ln.plen, plen)
			}
		}
	}
}

func bitsTrailing(x uint64) int {
	n := 0
	for x&1 == 0 {
		x >>= 1
		n++
	}
	return n
}

// checkCreditsInFlight: at every cycle, a link's global credits plus the
// packets on it, the credits coming back on its reverse link and the
// downstream side's packets are the downstream memory (RECN paper §3.7).
func (g *rig) checkCreditsInFlight() {
	g.t.Helper()
	rc := g.rc
	held := make([]int32, len(rc.sides))
	for _, a := range g.flight {
		held[a.side]++
	}
	rc.eachMsg(func(m *recnMsg) {
		if m.kind == recnCredit {
			held[rc.sides[m.to].peer]++
		}
	})
	for s := rc.nPorts; s < len(rc.sides); s++ {
		if peer := rc.sides[s].peer; peer >= 0 {
			if got := rc.credits[s] + held[peer] + rc.sides[peer].used; got != rc.p.mem {
				g.t.Fatalf("cycle %d link %d: %d credits + %d in flight + %d held downstream = %d; want the memory, %d",
					g.now, s, rc.credits[s], held[peer], rc.sides[peer].used, got, rc.p.mem)
			}
		}
	}
}

// RECN paper §3.4–§3.5, path extension and the deallocation cascade, on
// the 64-host fat tree (4-ary 3-tree; hosts 4k…4k+3 on leaf k): hosts 4, 5, 6 (leaf 1) and
// 8, 9, 10 (leaf 2) send 150 packets each to host 0. Leaf 1's up port is a
// root (3 senders, one link), and so is the level-1 switch's port down to
// leaf 0 (two leaves' links into one); the downstream root's tree climbs
// through leaf 1's up port as an egress SAQ that notifies its 3 ingress
// sides with the path extended (path lengths checked at every cycle), and
// waits for their 3 tokens before it frees (RECN paper §3.5). After the
// drain every line is free, every root has cleared and every flag is
// reset; credits hold at every cycle.
func TestRECNNestedTreeCascade(t *testing.T) {
	g := newRig(t, 4, 3, rigParams())
	rc := g.rc
	for _, h := range []int{4, 5, 6, 8, 9, 10} {
		g.send[h], g.dst[h] = 150, 0
	}
	branches, roots := 0, 0
	for g.now < 20000 && !(g.delivered == 900 && g.quiet()) {
		g.cycle()
		g.checkPaths()
		g.checkCreditsInFlight()
		for s := range rc.sides {
			if rc.sides[s].isRoot {
				roots = max(roots, 1)
			}
			if rc.sides[s].kind != recnEgress {
				continue
			}
			for m := rc.sides[s].lines; m != 0; m &= m - 1 {
				branches = max(branches, int(rc.lines[s*rc.p.saqs+bitsTrailing(m)].outstanding))
			}
		}
	}
	t.Logf("%d delivered by cycle %d; %d lines at most (ingress %d, egress %d); %d notifications, %d refused, %d allocations, %d frees; an egress line waited for %d tokens",
		g.delivered, g.now, g.maxLines, g.maxIngress, g.maxEgress, rc.notifies, rc.refused, rc.allocs, rc.frees, branches)
	if g.delivered != 900 || g.outOfOrder != 0 {
		t.Errorf("%d of 900 delivered, %d out of order", g.delivered, g.outOfOrder)
	}
	if branches < 3 {
		t.Errorf("an egress line waited for at most %d tokens; want leaf 1's 3 branches", branches)
	}
	if rc.allocs != rc.frees {
		t.Errorf("%d lines allocated, %d freed", rc.allocs, rc.frees)
	}
	g.checkReleased()
	g.checkCredits()
}

// RECN paper §3.6, longest match: at host 0's
// ingress side of the 64-host fat tree, line A holds the first port of the
// route to host 32 (leaf 0's up port) and line B its first three (to the
// top's port down towards host 32's subtree). A packet to 32 takes B's SAQ;
// ones to 48 and 36 share A's port but not B's, and take A's; one to host 1
// (leaf 0) matches neither and takes the normal queue.
func TestRECNLongestMatch(t *testing.T) {
	rc, notify := rigTo32(t)
	var r32 [recnMaxPath]int32
	if n := rc.route(0, 32, &r32); n != 5 {
		t.Fatalf("route from leaf 0 to host 32: %d ports, want 5 (2 up, 3 down)", n)
	}
	notify(1) // line 0: A
	notify(3) // line 1: B
	for _, c := range []struct{ dst, q int }{{32, 2}, {48, 1}, {1, 0}, {36, 1}} {
		if q := rc.arrive(0, int32(c.dst), c.dst, -1); q != c.q {
			t.Errorf("a packet to host %d: queue %d, want %d", c.dst, q, c.q)
		}
	}
	// a third notification with B's path is a duplicate: refused
	notify(3)
	if rc.refused != 1 || bitsOnes(rc.sides[0].lines) != 2 {
		t.Errorf("a duplicate path: %d refused, %d lines; want 1, 2", rc.refused, bitsOnes(rc.sides[0].lines))
	}
}

// RECN paper §3.6, markers, with a nested tree: the packets of a flow sit
// in the normal queue and in line A's SAQ when the longer line B is allocated; B's marker goes into A's
// SAQ (where the flow went until then), B stays blocked until the marker
// reaches the head, and the side sends the flow's packets in order.
func TestRECNMarkerOrderingNested(t *testing.T) {
	rc, notify := rigTo32(t)
	seq := int32(0)
	for ; seq < 3; seq++ { // in the normal queue
		rc.arrive(0, seq, 32, -1)
	}
	notify(1) // A: blocked behind its marker in the normal queue
	for ; seq < 6; seq++ {
		rc.arrive(0, seq, 32, -1)
	}
	notify(3) // B: its marker at the tail of A's SAQ
	for ; seq < 9; seq++ {
		if q := rc.arrive(0, seq, 32, -1); q != 2 {
			t.Fatalf("packet %d to 32 in queue %d after B; want B's SAQ (2)", seq, q)
		}
	}
	if !rc.lines[0].blocked || !rc.lines[1].blocked {
		t.Errorf("A blocked %v, B blocked %v; want both blocked behind their markers", rc.lines[0].blocked, rc.lines[1].blocked)
	}
	var got []int32
	for {
		q := rc.pick(0, 0)
		if q < 0 {
			break
		}
		if q == 2 && rc.qn[rc.qi(0, 1)] != 0 {
			t.Errorf("B's SAQ served while A's holds %d packets", rc.qn[rc.qi(0, 1)])
		}
		got = append(got, rc.dequeue(0, q))
	}
	for i, k := range got {
		if k != int32(i) {
			t.Fatalf("sent %v; want 0…8 in order", got)
		}
	}
	if len(got) != 9 {
		t.Errorf("sent %d of 9 packets", len(got))
	}
}

// RECN paper §3.8, exhaustion: with one SAQ per
// side, an ingress side notified by two roots of its switch takes the
// first and refuses the second, whose token returns at once (the root's
// count of tokens out back to 0); that flow's packets stay in the normal
// queue. On the rig, two hotspots at once with one SAQ per side deliver
// everything (no deadlock) and release every line.
func TestRECNExhaustion(t *testing.T) {
	p := rigParams()
	p.saqs = 1
	g := newRig(t, 4, 3, p)
	rc := g.rc
	in := 0                              // host 0's ingress side at leaf 0
	e1, e2 := rc.egress(1), rc.egress(2) // leaf 0's ports to hosts 1 and 2
	for i := int32(0); i < p.detect; i++ {
		rc.arrive(e1, 100+i, 1, 3)
		rc.arrive(e2, 200+i, 2, 3)
	}
	rc.arrive(e1, 300, 1, in) // the first packets from host 0's port: lazy notifications
	rc.arrive(e2, 301, 2, in)
	if rc.sides[e1].rootOut != 2 || rc.sides[e2].rootOut != 2 {
		t.Fatalf("roots' tokens out %d, %d; want 2 each (ports 3 and 0)", rc.sides[e1].rootOut, rc.sides[e2].rootOut)
	}
	for g.now = 1; g.now < 4; g.now++ {
		rc.step(g.now)
	}
	if rc.refused != 2 || rc.sides[in].lines != 1 {
		t.Errorf("%d refused, lines %b at host 0's side; want the second of each pair refused", rc.refused, rc.sides[in].lines)
	}
	// ports 3 and 0 took the first root's line and refused the second's
	if rc.sides[e2].rootOut != 0 || rc.sides[e2].notified != 0 || rc.sides[e1].rootOut != 2 {
		t.Errorf("second root: %d tokens out, notified %b; first root %d out; want 0, 0, 2", rc.sides[e2].rootOut, rc.sides[e2].notified, rc.sides[e1].rootOut)
	}
	if q := rc.arrive(in, 400, 2, -1); q != 0 {
		t.Errorf("a packet to the refused root: queue %d, want the normal queue", q)
	}
	if q := rc.arrive(in, 401, 1, -1); q != 1 {
		t.Errorf("a packet to the accepted root: queue %d, want the SAQ", q)
	}

	g = newRig(t, 4, 3, p)
	for _, h := range []int{4, 5, 6, 8, 9} {
		g.send[h], g.dst[h] = 100, 0
	}
	for _, h := range []int{7, 10, 12, 13} {
		g.send[h], g.dst[h] = 100, 2
	}
	for g.now < 20000 && !(g.delivered == 900 && g.quiet()) {
		g.cycle()
		g.checkCreditsInFlight()
	}
	t.Logf("one SAQ per side: %d delivered by cycle %d, %d refused, %d lines at most", g.delivered, g.now, g.rc.refused, g.maxLines)
	if g.delivered != 900 || g.outOfOrder != 0 || g.rc.refused == 0 {
		t.Errorf("%d of 900 delivered, %d out of order, %d refused (want some)", g.delivered, g.outOfOrder, g.rc.refused)
	}
	g.checkReleased()
}

// RECN paper §3.7: control packets occupy the
// link (ctl cycles each, in order) and delay the data behind them; a data
// packet takes one global credit.
func TestRECNControlPacketsUseLinks(t *testing.T) {
	g := newRig(t, 2, 2, rigParams())
	rc := g.rc
	link := rc.egress(2) // leaf 0's up port
	c0 := rc.credits[link]
	rc.step(10)
	for i := 0; i < 3; i++ {
		rc.linkMsg(link, recnMsg{kind: recnCredit, to: int32(link)})
	}
	if dep := rc.send(link, rigP); dep != 10+3*rc.p.ctl {
		t.Errorf("data behind 3 control packets departs at %d, want %d", dep, 10+3*rc.p.ctl)
	}
	if rc.credits[link] != c0-1 {
		t.Errorf("credits %d after a data packet, want %d", rc.credits[link], c0-1)
	}
	for c := int64(11); c <= 10+3*rc.p.ctl+rc.p.latency; c++ {
		rc.step(c)
	}
	if rc.credits[link] != c0+2 {
		t.Errorf("credits %d after 3 credit packets, want %d", rc.credits[link], c0+2)
	}
}

// RECN paper §3.6, markers, with a nested tree whose shorter line is still
// blocked and empty: the flow's packets sit in the normal queue behind A's
// marker when the longer line B is allocated. B's marker goes into A's
// empty SAQ and must wait there until A is enabled (a blocked SAQ is not
// flowing: its head is behind A's own marker), or B's newer packets would
// leave before the normal queue's older ones (seen on corner case 2 at
// 64 hosts, 1,450 µs, with 128-KB interfaces).
func TestRECNMarkerInABlockedSAQ(t *testing.T) {
	rc, notify := rigTo32(t)
	seq := int32(0)
	for ; seq < 3; seq++ { // in the normal queue
		rc.arrive(0, seq, 32, -1)
	}
	notify(1) // A: blocked behind its marker in the normal queue, empty
	notify(3) // B: its marker in A's empty SAQ
	if !rc.lines[1].blocked {
		t.Errorf("B enabled while A, whose SAQ holds its marker, is blocked")
	}
	for ; seq < 6; seq++ {
		rc.arrive(0, seq, 32, -1)
	}
	var got []int32
	for {
		q := rc.pick(0, 0)
		if q < 0 {
			break
		}
		got = append(got, rc.dequeue(0, q))
	}
	for i, k := range got {
		if k != int32(i) {
			t.Fatalf("sent %v; want 0…5 in order", got)
		}
	}
	if len(got) != 6 || rc.lines[0].blocked || rc.lines[1].blocked {
		t.Errorf("sent %d of 6 packets; A blocked %v, B blocked %v (want both enabled)", len(got), rc.lines[0].blocked, rc.lines[1].blocked)
	}
}

// rigTo32 is the 64-host rig with notify(plen): a notification to leaf 0's
// ingress side of the first plen ports of its route to host 32 (plen 1: the
// line of the up-port, A; 3: a longer line, B, nested in A).
func rigTo32(t *testing.T) (*recn, func(plen int)) {
	rc := newRig(t, 4, 3, rigParams()).rc
	var r32 [recnMaxPath]int32
	rc.route(0, 32, &r32)
	return rc, func(plen int) {
		m := recnMsg{kind: recnNotify, to: 0, from: int32(rc.egress(int(r32[0]))), fromLine: -1, plen: int8(plen)}
		copy(m.path[:], r32[:plen])
		rc.onNotify(&m)
	}
}
