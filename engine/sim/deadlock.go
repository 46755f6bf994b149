package sim

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"phitsim/engine/result"
	"phitsim/engine/topology"
)

// DeadlockError stops a run whose packets cannot move: heads of transit
// buffers older than the stuck-head bound (a deadlock, possibly partial:
// other traffic may still flow), or nothing moving anywhere for the watchdog
// period. Run returns it with the partial result, whose Deadlock section is
// the same report.
type DeadlockError struct {
	result.Deadlock
}

func (e *DeadlockError) Error() string { return e.Deadlock.String() }

// detector is the stuck-head check's state (set up by Run, or by a test).
type detector struct {
	// age: the stuck-head bound, cycles a transit head may wait in its
	// buffer; mask: the check runs when now&mask = 0 (a power of two minus
	// one, at most age/8, so a stuck head is found by age·9/8)
	age, mask int64
	// slow: the heads past the bound that wait their turn in a tree of
	// waits (fairSlow), as of the last check; fair: the overtakes a head
	// may see (fairOvertakes); slowPrev: the check before's, whose storage
	// the next check reuses
	slow, slowPrev []slowHead
	fair           int32
	// unrouted: the heads not yet routed that the last check met (buffer
	// index << 32 | packet), next: this check's (freshHead)
	unrouted, next []int64
	// why: the condition by which fairSlow last reported a head (the
	// report's StuckBuffer.Why)
	why string
}

// slowHead is a head past the stuck-head bound whose next buffer is full
// and moves (fairSlow): its buffer (pi·maxVC + v) and packet, the check
// that last saw it, the packets its next buffer took from other requesters
// since it was first seen, whether that buffer had room for it then, and
// since which check it has had room at every check with nothing taken
// between them (−1: not now).
type slowHead struct {
	bi, hd int32
	seen   int64
	over   int32
	room   bool
	roomAt int64
}

// stuckAgeFloor is the least stuck-head bound: 16 times the time a full
// buffer of the deepest transit class (B packets; with DAMQ, the most one
// VC can hold) takes to leave through an
// output that fair arbitration shares with every other input of the router
// (radix inputs, P cycles per packet), plus a link and a crossbar traversal.
// Saturation, not deadlock, makes transit heads wait that long: the longest
// wait in the saturated golden set is 2,061 cycles (VAL_GROUP ADVC at h=2,
// B·radix·P = 1,792), and 8,506 in 40,000 cycles of VAL_GROUP ADVC at load
// 1.0, against a floor of 28,775 (TestNoFalseDeadlockAtSaturation).
func (s *Sim) stuckAgeFloor() int64 {
	rc := &s.cfg.Router
	b := max(rc.LocalBuffer, rc.GlobalBuffer)
	if rc.Damq { // a VC may hold its reserve and the port's whole pool
		_, lv, gv := s.cfg.VCs()
		_, l := rc.DamqBuffer(rc.LocalBuffer, lv)
		_, g := rc.DamqBuffer(rc.GlobalBuffer, gv)
		b = max(l, g)
	}
	b /= s.P
	maxLat := slices.Max(s.lat[topology.Local:]) // the transit classes (a flattened butterfly has one)
	return 16*int64(max(b, 1))*int64(s.radix)*int64(s.P) + maxLat + s.xbar
}

// initDetector sets the stuck-head bound to the watchdog period or the
// floor, whichever is longer, and the overtakes round-robin allows
// (fairOvertakes), unless a test set them.
func (s *Sim) initDetector() {
	if s.dl.age == 0 {
		s.dl.age = max(int64(s.cfg.Sim.Watchdog), s.stuckAgeFloor())
	}
	s.dl.mask = 1023
	for s.dl.mask > 0 && s.dl.mask > s.dl.age/8 {
		s.dl.mask >>= 1
	}
	if s.dl.fair == 0 {
		s.dl.fair = s.fairOvertakes()
	}
}

// fairOvertakes is how many packets a head may see its next buffer take
// from other requesters while it waits at round-robin arbitration: every
// input of its router (radix) with every queue of an input that can ask
// for the same output (under router.voq an output's data queues and the
// extra classes' queues, else every VC). Both allocator stages are
// round-robin (the output's per port or per downstream VC, the input's over
// its queues), so a head that keeps asking is served before each of those
// queues is served twice.
func (s *Sim) fairOvertakes() int32 {
	q := s.maxVC
	if s.vq.on {
		d := int(slices.Max(s.vq.d[:]))
		q = s.maxVC - (s.radix-1)*d
	}
	return int32(s.radix * max(q, 1))
}

// stuckHeads reports the transit buffers whose head has waited more than
// the bound, or nil. Injection buffers are left out: at saturation, transit
// priority and unfair arbitration starve injection heads for thousands of
// cycles (thesis §3.1.2) with no deadlock; a network where only they are
// blocked is caught by the global watchdog. It visits only the buffers that
// hold packets (router and VC bit masks).
func (s *Sim) stuckHeads() *result.Deadlock {
	limit := s.now - s.dl.age
	var d *result.Deadlock
	starved := true
	prev := s.dl.slow
	s.dl.slow = s.dl.slowPrev[:0]
	for r := 0; r < s.R; r++ {
		for w := 0; w < 2; w++ {
			for m := s.inMask[2*r+w]; m != 0; m &= m - 1 {
				pi := r*s.radix + (w<<6 | bits.TrailingZeros64(m))
				if s.ports[pi].class == topology.Injection {
					continue
				}
				for w, vm := range s.busyQueues(pi) {
					for ; vm != 0; vm &= vm - 1 {
						v := w<<6 | bits.TrailingZeros64(vm)
						if int64(s.bufs[pi*s.maxVC+v].hEntry) >= limit {
							continue
						}
						st := s.starved(pi, v, limit)
						s.dl.why = ""
						if st && s.fairSlow(pi, v, prev) {
							continue
						}
						if d == nil {
							d = &result.Deadlock{Reason: "stuck", Bound: s.dl.age}
						}
						s.addStuck(d, pi, v)
						if st {
							d.Buffers[len(d.Buffers)-1].Why = s.dl.why
						}
						starved = starved && st
					}
				}
			}
		}
	}
	s.dl.unrouted, s.dl.next = s.dl.next, s.dl.unrouted[:0]
	s.dl.slowPrev = prev
	if d != nil {
		if starved {
			d.Reason = "starvation"
		}
		s.finishReport(d)
	}
	return d
}

// starved tells starvation from deadlock for the stuck head of buffer
// (pi, v): it follows the output VC each stuck head waits for, downstream,
// until a resource that keeps moving — an ejection port (its node always
// consumes), a buffer whose head is younger than limit, or an empty buffer
// whose upstream output still has credits for it: the head lost every
// arbitration for an output others use (starvation). A chain that comes
// back to a stuck head (a cycle of waits), reaches an empty buffer with no
// credits (lost credits), or a head not routed yet that the last check met
// unrouted too (freshHead) is a deadlock. Report time only: it walks at
// most every buffer once.
func (s *Sim) starved(pi, v int, limit int64) bool {
	for range len(s.bufs) {
		b := &s.bufs[pi*s.maxVC+v]
		if b.hOut < 0 {
			return s.freshHead(pi*s.maxVC + v)
		}
		if b.hVC < 0 {
			return false
		}
		po := (pi/s.radix)*s.radix + int(b.hOut)
		if s.ports[po].class == topology.Injection {
			return true
		}
		next := s.ports[po].peer
		if next < 0 {
			return false
		}
		nb := &s.bufs[int(next)*s.maxVC+int(b.hVC)]
		switch {
		case nb.len == 0:
			return s.credits[po*s.maxVC+int(b.hVC)] >= s.phitsOn(s.ports[po].class, int(b.hVC))
		case int64(nb.hEntry) >= limit:
			return true
		}
		pi, v = int(next), int(b.hVC)
	}
	return false
}

// fairSlow tells a head that waits its turn in a tree of waits from a
// starved one, for the head of buffer (pi, v) past the stuck-head bound
// whose chain of waits reaches a resource that moves (starved): true while
// its next buffer — a transit buffer, fed only by this head's output and
// VC — has no room for it (its credits are short of a packet) or has had
// room at every check, taking nothing, for no longer than dl.fair packets
// take to cross the output (dl.fair × P cycles), and has taken no more
// than dl.fair packets from the
// head's competitors since the head was first seen past the bound (counted
// at each check: the packets in that buffer that entered since the last).
// Such a head is served at the pace of its next buffer, which a congestion
// tree's root paces: with fair arbitration at each of the tree's levels the
// waits multiply (Kim et al., "Contention-based Congestion Management in
// Large-Scale Networks" §V-B, Figs. 8b and 9b: 40 or 63 senders to one node
// of the 512-node flattened butterfly, heads 2–3 levels up the tree waiting
// 90,000–130,000 cycles while their next buffer took 1–14 packets), so the
// stuck-head bound, one level's worth, is too short for it. A head that an
// arbiter passes over (its next buffer keeps taking other packets, or has
// room that stays unused past that time) is starved and reported; a head waiting for an
// ejection port is reported as before (the node consumes every cycle),
// unless it is on the isolated class at strictly lowest priority
// (congestion.cbcmHotspotAging 0: the paper's hotspot VC, §IV-B3, §VI-B) and
// the port served others since the last check: behind a tree of data
// draining into the hotspot its wait has no bound by design.
// Records the head in dl.slow for the next check.
func (s *Sim) fairSlow(pi, v int, prev []slowHead) bool {
	bi := pi*s.maxVC + v
	b := &s.bufs[bi]
	if b.hOut < 0 { // new since the last check (starved: freshHead)
		return true
	}
	if b.hVC < 0 {
		return false
	}
	po := (pi/s.radix)*s.radix + int(b.hOut)
	next := s.ports[po].peer
	h := slowHead{bi: int32(bi), hd: b.hd, seen: s.now, roomAt: -1}
	var last *slowHead
	for i := range prev {
		if prev[i].bi == h.bi && prev[i].hd == h.hd {
			last = &prev[i]
			break
		}
	}
	// a head of the isolated class at strictly lowest priority (no aging)
	// is served only when no data request competes: while its output keeps
	// serving others (granted since the last check), its wait is the
	// priority's, not an arbiter's fault
	low := s.iso.low && s.iso.aging == 0 && s.isIsoVC(s.ports[pi].class, v)
	busy := last != nil && int64(s.ports[po].txEnd) > last.seen
	if s.ports[po].class == topology.Injection || next < 0 {
		if !low || last != nil && !busy {
			s.dl.why = "waits for an ejection port"
			if low {
				s.dl.why = "the strictly-lowest class at an ejection port that served no other since the last check"
			}
			return false
		}
		s.dl.slow = append(s.dl.slow, h)
		return true
	}
	h.room = s.credits[po*s.maxVC+int(b.hVC)] >= s.phitsOn(s.ports[po].class, int(b.hVC))
	if last != nil {
		h.over = last.over
		nb := &s.bufs[int(next)*s.maxVC+int(b.hVC)]
		for i := int32(0); i < nb.len && i < nb.cap; i++ {
			j := nb.head + i
			if j >= nb.cap {
				j -= nb.cap
			}
			if e := int64(s.qRing[nb.start+j] >> 32); e > last.seen && e <= s.now {
				h.over++
			}
		}
		// room is left unused only while the next buffer takes nothing: a
		// buffer that took packets had its room filled (by this head's
		// competitors, counted in over) and freed again — two slots each
		// sampled while the output served other VCs (Kim et al. Fig. 9b,
		// CBCM(UGAL): a slot of a tree's branch returns every ≈ 4,000
		// cycles and stays free 60–180 cycles while the output's
		// round-robin over its downstream VCs reaches it). And unused room
		// is starvation only once it outlasts what round-robin allows: the
		// head's input presents its other queues first (rrgrant's pointer
		// moves on a grant, so a queue that keeps losing its downstream VC
		// at rrvc keeps being presented: Fig. 9b, CBCM(UGAL), router 23's
		// input 17 presented its hot queue while a tornado head with an
		// empty next buffer waited 1,024+ cycles behind it), each served
		// within dl.fair grants of the output, P cycles apiece.
		took := h.over > last.over
		switch {
		case !h.room:
			h.roomAt = -1
		case last.room && !took && last.roomAt >= 0:
			h.roomAt = last.roomAt
		default:
			h.roomAt = s.now
		}
		unused := h.roomAt >= 0 && s.now-h.roomAt > int64(s.dl.fair)*int64(s.P)
		if h.over > s.dl.fair || unused && !(low && busy) {
			if h.over > s.dl.fair {
				s.dl.why = fmt.Sprintf("its next buffer took %d packets from others since the head was first seen past the bound, round-robin allows %d", h.over, s.dl.fair)
			} else {
				s.dl.why = fmt.Sprintf("its next buffer had room for it at every check for %d cycles and took no packet, round-robin allows %d", s.now-h.roomAt, int64(s.dl.fair)*int64(s.P))
			}
			return false
		}
	} else if h.room {
		h.roomAt = s.now
	} else {
		h.roomAt = -1
	}
	s.dl.slow = append(s.dl.slow, h)
	return true
}

// freshHead: whether buffer bi's head, not routed yet, is new since the
// last check. A buffer's age is its head packet's since it entered the
// buffer, so a queue that moves slowly has a head past the bound as soon
// as it becomes the head, unrouted until its input's next allocation
// (cycles later); one still unrouted a check later is not reached by its
// input and is reported.
func (s *Sim) freshHead(bi int) bool {
	k := int64(bi)<<32 | int64(uint32(s.bufs[bi].hd))
	s.dl.next = append(s.dl.next, k)
	return !slices.Contains(s.dl.unrouted, k)
}

// watchdogReport is the global watchdog's report: every buffer holding
// packets, the oldest heads first.
func (s *Sim) watchdogReport() *result.Deadlock {
	d := &result.Deadlock{Reason: "watchdog", Bound: s.watchdog}
	for pi := range s.ports {
		for v := 0; v < s.maxVC; v++ {
			if s.bufs[pi*s.maxVC+v].len > 0 {
				s.addStuck(d, pi, v)
			}
		}
	}
	s.finishReport(d)
	return d
}

// maxListed is how many stuck buffers a report lists.
const maxListed = 8

func (s *Sim) addStuck(d *result.Deadlock, pi, v int) {
	b := &s.bufs[pi*s.maxVC+v]
	pk := &s.pk[b.hd]
	d.StuckBuffers++
	d.Routers = append(d.Routers, pi/s.radix)
	d.Buffers = append(d.Buffers, result.StuckBuffer{Router: pi / s.radix, Port: pi % s.radix,
		Class: s.st.classes[s.ports[pi].class], VC: v, Packets: int(b.len), Src: int(pk.src), Dst: int(pk.dst),
		WantPort: int(b.hOut), WantVC: int(b.hVC), Age: s.now - int64(b.hEntry)})
}

// finishReport fills the counts, keeps the routers once each and the oldest
// heads first.
func (s *Sim) finishReport(d *result.Deadlock) {
	// lastProgress may be a departure already scheduled for a later cycle
	d.Cycle, d.Since, d.InFlight = s.now, min(s.lastProgress, s.now), s.live
	slices.Sort(d.Routers)
	u := d.Routers[:0]
	for i, r := range d.Routers {
		if i == 0 || r != d.Routers[i-1] {
			u = append(u, r)
		}
	}
	d.Routers = u
	slices.SortStableFunc(d.Buffers, func(a, b result.StuckBuffer) int { return cmp.Compare(b.Age, a.Age) }) // oldest first
	if len(d.Buffers) > maxListed {
		d.Buffers = d.Buffers[:maxListed]
	}
}

// deadlocked ends a run: the metrics so far with the report, and the error.
func (s *Sim) deadlocked(d *result.Deadlock) (*result.Result, error) {
	res := s.Snapshot()
	res.Deadlock = d
	return res, &DeadlockError{*d}
}
