package sim

import (
	"cmp"
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
// floor, whichever is longer, unless a test set one.
func (s *Sim) initDetector() {
	if s.dl.age == 0 {
		s.dl.age = max(int64(s.cfg.Sim.Watchdog), s.stuckAgeFloor())
	}
	s.dl.mask = 1023
	for s.dl.mask > 0 && s.dl.mask > s.dl.age/8 {
		s.dl.mask >>= 1
	}
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
						if d == nil {
							d = &result.Deadlock{Reason: "stuck", Bound: s.dl.age}
						}
						s.addStuck(d, pi, v)
						starved = starved && s.starved(pi, v, limit)
					}
				}
			}
		}
	}
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
// credits (lost credits), or a head not routed yet is a deadlock. Report
// time only: it walks at most every buffer once.
func (s *Sim) starved(pi, v int, limit int64) bool {
	for range len(s.bufs) {
		b := &s.bufs[pi*s.maxVC+v]
		if b.hOut < 0 || b.hVC < 0 {
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
