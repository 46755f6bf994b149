package sim

import (
	"errors"
	"fmt"

	"phitsim/engine/topology"
)

// Census counts every packet where it is and every credit of every transit
// output, and checks both against what the simulator believes (see
// engine/TIMING.md, "Reliability checks"). It is for tests: it walks the whole
// state (O(pool + buffers + wheels)) and allocates, so the production loop
// never calls it. Call it between two Steps.
//
// Packets: each packet id must sit in exactly one place — an input buffer, a
// link (the arrival wheel: in an output FIFO a granted packet is already
// scheduled onto its link, so the FIFOs hold departure cycles, not packets),
// an ejection wheel, a source queue or a node's control queue — and these
// places together must hold s.live packets, while the free list holds the
// rest of the pool; every packet tagged as a control packet is among them,
// and there are s.mech.live of them. Buffers:
// their length, busy bits, port counts and head metadata must agree.
// Credits: for every transit output po and VC v, credits[po,v] + P·(packets
// on the link toward the downstream buffer) + P·(packets held in it) +
// P·(credits on their way back) = the downstream buffer's capacity in phits;
// with DAMQ buffers (damq.go), the credits are the VC's free reserve plus the
// port's free shared space, and the upstream counters the phits recounted.
//
// It returns nil, or an error naming every discrepancy found (the first few
// of each kind) with its router, port and VC.
func (s *Sim) Census() error {
	c := census{s: s}
	c.packets()
	c.bufferState()
	c.credits()
	return c.err()
}

type census struct {
	s    *Sim
	errs []error
}

func (c *census) fail(format string, a ...any) {
	if len(c.errs) < 20 {
		c.errs = append(c.errs, fmt.Errorf(format, a...))
	}
}

func (c *census) err() error { return errors.Join(c.errs...) }

// where names input port pi and its VC v: "router r port p (class) VC v".
func (s *Sim) where(pi, v int) string {
	return fmt.Sprintf("router %d port %d (%s) VC %d", pi/s.radix, pi%s.radix, s.st.classes[s.ports[pi].class], v)
}

// packets checks that every live packet is in exactly one place and that
// the pool is live + free.
func (c *census) packets() {
	s := c.s
	const (
		unseen uint8 = iota
		freeMark
	)
	// seen[k]: 0 unseen, 1 on the free list, 2+ the place it was found
	seen := make([]uint8, len(s.pk))
	place := []string{"", "the free list", "an input buffer", "a link (arrival wheel)", "an ejection wheel", "a source queue", "a control queue"}
	var found int64
	// mark records that packet k is in place p; at describes the place,
	// formatted only when something is wrong
	mark := func(k int32, p uint8, at func() string) {
		if k < 0 || int(k) >= len(s.pk) {
			c.fail("census: packet id %d in %s %s is outside the pool of %d", k, place[p], at(), len(s.pk))
			return
		}
		if seen[k] != unseen {
			c.fail("census: packet %d (%d→%d) is in %s %s and also in %s", k, s.pk[k].src, s.pk[k].dst, place[p], at(), place[seen[k]])
			return
		}
		seen[k] = p
		if p != freeMark {
			found++
		}
	}
	nothing := func() string { return "" }
	nfree := int64(0)
	for k := s.free; k >= 0; k = s.pk[k].aux {
		if int(k) >= len(s.pk) || seen[k] != unseen {
			c.fail("census: the free list is corrupt at packet %d (a cycle, or an id outside the pool of %d)", k, len(s.pk))
			break
		}
		mark(k, freeMark, nothing)
		nfree++
	}
	for pi := range s.ports {
		for v := 0; v < s.maxVC; v++ {
			b := &s.bufs[pi*s.maxVC+v]
			for i := int32(0); i < b.len && i < b.cap; i++ {
				j := b.head + i
				if j >= b.cap {
					j -= b.cap
				}
				k := int32(uint32(s.qRing[b.start+j]))
				mark(k, 2, func() string { return s.where(pi, v) })
				if int(k) < len(s.pk) && int(s.pk[k].vc) != v {
					c.fail("census: packet %d in %s says it is on VC %d", k, s.where(pi, v), s.pk[k].vc)
				}
				if int(k) < len(s.pk) && s.vq.on {
					// router.voq: a queued packet's route here is its
					// queue's output (the head's, once routed ahead, is
					// in its head record)
					out := int(s.pk[k].outPort)
					if i == 0 && b.hOut >= 0 {
						out = int(b.hOut)
					}
					cl := s.ports[pi].class
					prio := int(k) < len(s.mech.tag) && s.mech.tag[k].prio
					switch D := s.dataVCs(cl); {
					case v >= s.vq.n*D: // an extra class's queue (initVoq)
						if ctl := s.isCtlVC(cl, v); ctl != prio {
							c.fail("VOQ census: packet %d in %s (control queue: %t) is a priority-class packet: %t", k, s.where(pi, v), ctl, prio)
						}
					case prio:
						c.fail("VOQ census: priority-class packet %d in data queue %s", k, s.where(pi, v))
					case s.vq.kind == voqNet && int(s.pk[k].dst) != v/D:
						c.fail("VOQ census: packet %d in %s (the queue of host %d) is for host %d", k, s.where(pi, v), v/D, s.pk[k].dst)
					case s.vq.kind == voqSw && out != v/D:
						c.fail("VOQ census: packet %d in %s (the queue of output %d) routes to output %d", k, s.where(pi, v), v/D, out)
					}
				}
			}
		}
	}
	for slot, evs := range s.arrivals {
		for _, e := range evs {
			pi, v := arrivalAt(e)
			mark(int32(uint32(e)), 3, func() string { return fmt.Sprintf("toward %s (wheel slot %d)", s.where(pi, v), slot) })
		}
	}
	for _, wheel := range [][][]int32{s.outEjects, s.ejects} {
		for slot, ks := range wheel {
			for _, k := range ks {
				mark(k, 4, func() string { return fmt.Sprintf("slot %d", slot) })
			}
		}
	}
	for n := range s.sq {
		for _, k := range s.sq[n][s.sqHead[n]:] {
			mark(k, 5, func() string { return fmt.Sprintf("of node %d", n) })
		}
	}
	ctl := int64(0) // control packets (sendPacket) found anywhere
	for n, q := range s.mech.q {
		for _, k := range q[s.mech.qHead[n]:] {
			mark(k, 6, func() string { return fmt.Sprintf("of node %d", n) })
		}
	}
	for k, tg := range s.mech.tag {
		if tg.mech == 0 {
			continue
		}
		if seen[k] == unseen {
			c.fail("census: control packet %d of mechanism %d is found nowhere", k, tg.mech-1)
		} else if seen[k] == freeMark {
			c.fail("census: control packet %d of mechanism %d is on the free list", k, tg.mech-1)
		}
		ctl++
	}
	if ctl != s.mech.live {
		c.fail("census: %d control packets found, %d counted alive", ctl, s.mech.live)
	}
	if found != s.live {
		c.fail("census: %d packets found in buffers, links, ejection wheels, source and control queues, but %d alive (%d lost)", found, s.live, s.live-found)
	}
	if found+nfree != int64(len(s.pk)) {
		c.fail("census: %d alive + %d free ≠ pool of %d packets", found, nfree, len(s.pk))
	}
}

// bufferState checks the per-buffer bookkeeping the allocator trusts: length
// within capacity, the busy bit of each VC, each port's packet count and
// router bit, and the head's cached id and entry cycle.
func (c *census) bufferState() {
	s := c.s
	for pi := range s.ports {
		r, port := pi/s.radix, pi%s.radix
		var n int32
		for v := 0; v < s.maxVC; v++ {
			b := &s.bufs[pi*s.maxVC+v]
			if b.len < 0 || b.len > b.cap {
				c.fail("census: %s holds %d packets, capacity %d", s.where(pi, v), b.len, b.cap)
				continue
			}
			n += b.len
			busy := s.busyQueues(pi)[v>>6]&(1<<(v&63)) != 0
			if busy != (b.len > 0) {
				c.fail("census: %s holds %d packets but its busy bit is %v", s.where(pi, v), b.len, busy)
			}
			if b.len > 0 {
				e := s.qRing[b.start+b.head]
				if b.hd != int32(uint32(e)) || b.hEntry != int32(e>>32) {
					c.fail("census: %s caches head %d (entry %d), its ring holds %d (entry %d)", s.where(pi, v), b.hd, b.hEntry, int32(uint32(e)), int32(e>>32))
				}
			}
		}
		if s.ports[pi].inCount != n {
			c.fail("census: router %d port %d counts %d packets, its VCs hold %d", r, port, s.ports[pi].inCount, n)
		}
		if bit := s.inMask[2*r+port>>6]&(1<<(port&63)) != 0; bit != (n > 0) {
			c.fail("census: router %d port %d holds %d packets but its router bit is %v", r, port, n, bit)
		}
	}
}

// credits checks, for every transit output and VC, that its credits and
// the phits they stand for add up to the downstream buffer's capacity.
func (c *census) credits() {
	s := c.s
	onLink := make([]int32, len(s.bufs)) // by downstream buffer
	for _, evs := range s.arrivals {
		for _, e := range evs {
			pi, v := arrivalAt(e)
			onLink[pi*s.maxVC+v]++
		}
	}
	back := make([]int32, len(s.bufs)) // by output
	for _, evs := range s.creditsIn {
		for _, e := range evs {
			pi, v := creditAt(e)
			back[pi*s.maxVC+v]++
		}
	}
	for po := range s.ports {
		cl := s.ports[po].class
		peer := int(s.ports[po].peer)
		if cl == topology.Injection || peer < 0 { // a node port, or a mesh's edge port (unconnected)
			continue
		}
		if s.dq.used != nil {
			c.damqCredits(po, onLink, back)
			continue
		}
		if s.vq.held != nil { // router.voq's UGAL occupancy: the queues' phits held, per VC
			for v, D := 0, s.dataVCs(cl); v < D; v++ {
				want := int32(0)
				for q := v; q < s.radix*D; q += D {
					want += s.bufCap[cl] - s.credits[po*s.maxVC+q]
				}
				if have := s.vq.held[po*s.vq.vcs+v]; have != want {
					c.fail("VOQ census: output %s counts %d phits held on VC %d, its queues' credits say %d", s.where(po, v), have, v, want)
				}
			}
		}
		for v := 0; v < s.nq[cl]; v++ {
			bi, down := po*s.maxVC+v, peer*s.maxVC+v
			have := s.credits[bi]
			P := s.phitsOn(cl, v) // the VC's packets' length
			sum := have + P*(onLink[down]+s.bufs[down].len+back[bi])
			if sum != s.bufCap[cl] || have < 0 {
				c.fail("credit census: output %s: %d credits + %d phits on the link + %d held downstream + %d returning = %d, the downstream buffer holds %d",
					s.where(po, v), have, P*onLink[down], P*s.bufs[down].len, P*back[bi], sum, s.bufCap[cl])
			}
		}
	}
}

// damqCredits checks a DAMQ output po (router.damq): the phits each VC
// holds downstream, recounted (on the link, in the buffer, credits on their
// way back), must be the upstream router's counters, their use of the
// shared pool its shared counter, and each VC's credits its free reserve
// plus the pool's free space.
func (c *census) damqCredits(po int, onLink, back []int32) {
	s := c.s
	peer := int(s.ports[po].peer)
	n := s.vcCount[s.ports[po].class]
	held := make([]int32, n)
	for v := range held {
		bi, down := po*s.maxVC+v, peer*s.maxVC+v
		P := s.phitsOn(s.ports[po].class, v)
		held[v] = P * (onLink[down] + s.bufs[down].len + back[bi])
		if held[v] != s.dq.used[bi] {
			c.fail("DAMQ census: output %s counts %d phits held downstream, the link, buffer and credit wheel hold %d",
				s.where(po, v), s.dq.used[bi], held[v])
		}
	}
	for v := range held {
		want, shared := s.damqCredits(po, v, held)
		if have := s.credits[po*s.maxVC+v]; have != want || have < 0 {
			c.fail("DAMQ census: output %s has %d credits, its free reserve plus the port's free shared space is %d (VCs hold %v phits, reserve %d)",
				s.where(po, v), have, want, held, s.dq.reserve[s.ports[po].class])
		}
		if v == 0 && shared != s.dq.shared[po] {
			c.fail("DAMQ census: output %s counts %d phits of the shared pool in use, the VCs hold %d beyond their reserves",
				s.where(po, v), s.dq.shared[po], shared)
		}
	}
}
