package sim

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// The adaptive routings' view of output occupancies (thesis §1.4.2): per VC
// or per port, of every packet or of minimally routed ones only
// (routing.congestion), and the per-router view of the global links that
// PiggyBack's saturation bits and the CGA trigger's congestion test compare.

// occView is the occupancy view's parameters and the counts it keeps.
type occView struct {
	perPort  bool     // summed over the port's VCs (thesis §5.2.4)
	minOnly  bool     // occupancy of minimally routed packets only
	occOther bool     // perPort or minOnly
	occCap   [3]int32 // per Dragonfly port class: the input buffer, 0 for ejection

	h, gv  int     // global ports per router, global VCs
	gocc   []int32 // per (router, global port k, VC): occupancy in phits (credits view)
	gbase  []int32 // per port: its first gocc index, −1 for non-global ports
	rowLen int     // gocc entries per router
	vcMask uint64  // the bits of VC 0 of every global port (shift by v for VC v)
	gmin   []int32 // the same, minimally routed packets only
	minOcc []int32 // per buffer index of a transit output: minimal-only occupancy
}

// initOccView sets the view's parameters; tracked: the routing reads the
// per-router view of the global links (gocc) every cycle or at every trigger.
func (s *Sim) initOccView(rc config.Routing, h, globalVCs int, tracked bool) {
	o := &s.ov
	o.perPort = rc.Congestion == "perPort" || rc.Congestion == "perPortMin"
	o.minOnly = rc.Congestion == "perVCMin" || rc.Congestion == "perPortMin"
	o.occOther = o.perPort || o.minOnly
	// an array: the adaptive routings run on the Dragonfly only (its
	// 3 classes), and a fixed size keeps their occupancy reads cheap
	copy(o.occCap[:], s.bufCap)
	o.occCap[topology.Injection] = 0
	o.h, o.gv = h, globalVCs
	if !tracked {
		return
	}
	o.gocc = make([]int32, s.R*o.h*o.gv)
	o.rowLen = o.h * o.gv
	for k := 0; k < o.h; k++ {
		o.vcMask |= 1 << (k * o.gv)
	}
	o.gbase = make([]int32, len(s.ports))
	for pi := range o.gbase {
		o.gbase[pi] = -1
		if s.ports[pi].class == topology.Global {
			r, port := pi/s.radix, pi%s.radix
			o.gbase[pi] = int32((r*o.h + port - s.firstGlobal) * o.gv)
		}
	}
	if o.minOnly {
		o.gmin = make([]int32, s.R*o.h*o.gv)
		o.minOcc = make([]int32, len(s.bufs))
	}
}

// gidx is the index of (router, global port k, VC) in gocc, or −1 for other ports.
func (s *Sim) gidx(pi, vc int) int {
	b := s.ov.gbase[pi]
	if b < 0 {
		return -1
	}
	return int(b) + vc
}

// take reserves credits of output (po, vc) for a packet (at the crossbar grant).
func (s *Sim) take(po, vc int, minimal, global bool) {
	ph := int32(s.P)
	if s.ctlShort { // a control VC's credits count its short packets
		ph = s.phitsOn(s.pclass[po], vc)
	}
	s.credits[po*s.maxVC+vc] -= ph
	if s.ov.gocc != nil {
		s.occUpdate(po, vc, ph, minimal, global)
	}
}

// occUpdate passes a change of output (po, vc)'s occupancy to the adaptive
// views that track it (global links; every link for minimal-only counts).
// Not inlined: the adaptive views are rare, so this keeps that code out of
// take and out of the credit loop in land.
//
//go:noinline
func (s *Sim) occUpdate(po, vc int, delta int32, minimal, global bool) {
	if s.vq.held != nil { // router.voq's UGAL occupancy (voq.go), the only view then
		s.voqHeld(po, vc, delta)
		return
	}
	if global || s.ov.minOcc != nil {
		s.occChange(po, vc, po*s.maxVC+vc, delta, minimal)
	}
}

// occChange keeps the adaptive views of output (pi, vc) up to date: the
// global-link occupancies, the minimal-only occupancy, and PiggyBack's
// per-router totals and bits (written here, not behind a call: this runs at
// every grant and credit of a global link).
func (s *Sim) occChange(pi, vc, bi int, delta int32, minimal bool) {
	o := &s.ov
	if g := s.gidx(pi, vc); g >= 0 {
		o.gocc[g] += delta
		if o.gmin != nil && minimal {
			o.gmin[g] += delta
		}
		if pb := &s.pb; pb.satHist != nil && (minimal || o.gmin == nil) {
			r := int(pb.grouter[pi])
			pb.gtot[r*o.gv+vc] += delta
			switch {
			case o.perPort:
				pb.live[r] = s.globalBits(r, pb.coef, pb.coefPct, pb.t)
			case delta > 0 && pb.live[r]&(o.vcMask<<vc) == 0 && pb.coefPct >= 0:
				// a rise lifts every other link's threshold: with none
				// of the VC's links marked, only this one can become so
				q := o.gocc[g]
				if o.minOnly {
					q = o.gmin[g]
				}
				if pb.above(q, pb.gtot[r*o.gv+vc]) {
					pb.live[r] |= 1 << (g - r*o.rowLen)
				}
			default:
				pb.live[r] = s.vcBits(r, vc, pb.live[r])
			}
		}
	}
	if minimal && o.minOcc != nil {
		o.minOcc[bi] += delta
	}
}

// occ is the occupancy (phits) adaptive routing sees for output (po, vc):
// the downstream buffer plus this VC's packets in the local output FIFO,
// per VC or summed over the port's VCs (thesis §5.2.4: per-port sensing
// aggregates them, so minCred-per-port sees minimal packets spread over
// many VCs), all packets or minimal ones only.
func (s *Sim) occ(r, port, vc int) int32 {
	if s.ov.occOther {
		return s.occSlow(r, port, vc)
	}
	po := r*s.radix + port
	return s.occVC(po, vc, s.pclass[po])
}

// occVC is the default occupancy, per VC and of every packet, of output
// (po, vc) of class c (0 for an ejection port: occCap is 0 and so are its
// credits).
func (s *Sim) occVC(po, vc int, c topology.PortClass) int32 {
	return s.ov.occCap[c] - s.credits[po*s.maxVC+vc]
}

// senseCap is the capacity an occupancy of class c is a share of: a VC's
// buffer, or with per-port sensing the port's (occ sums its VCs).
func (s *Sim) senseCap(c topology.PortClass) int32 {
	if s.ov.perPort {
		return s.bufCap[c] * int32(s.vcCount[c])
	}
	return s.bufCap[c]
}

func (s *Sim) occSlow(r, port, vc int) int32 {
	c := s.pclass[r*s.radix+port]
	if c == topology.Injection {
		return 0
	}
	bi := (r*s.radix+port)*s.maxVC + vc
	if !s.ov.perPort {
		return s.ov.minOcc[bi]
	}
	n := s.vcCount[c]
	bi -= vc
	var sum int32
	for v := 0; v < n; v++ {
		if s.ov.minOnly {
			sum += s.ov.minOcc[bi+v]
		} else {
			sum += s.bufCap[c] - s.credits[bi+v]
		}
	}
	return sum
}

// globalBits marks router r's global links whose occupancy exceeds
// coef·mean + t, the mean taken over the router's own global links (per VC,
// or per port with the bit on VC 0).
func (s *Sim) globalBits(r int, coef float64, pct, t int32) uint64 {
	o := &s.ov
	occ := o.gocc
	if o.minOnly {
		occ = o.gmin
	}
	row := occ[r*o.h*o.gv : (r+1)*o.h*o.gv]
	var bits uint64
	if o.perPort {
		var total int32
		for _, q := range row {
			total += q
		}
		mean := float64(total) / float64(o.h)
		for k := 0; k < o.h; k++ {
			var q int32
			for v := 0; v < o.gv; v++ {
				q += row[k*o.gv+v]
			}
			if float64(q) > coef*mean+float64(t) {
				bits |= 1 << (k * o.gv)
			}
		}
		return bits
	}
	for v := 0; v < o.gv; v++ {
		var total int32
		for k := 0; k < o.h; k++ {
			total += row[k*o.gv+v]
		}
		lim := o.limit(total, coef, pct, t)
		for k := 0; k < o.h; k++ {
			if row[k*o.gv+v] > lim {
				bits |= 1 << (k*o.gv + v)
			}
		}
	}
	return bits
}

// limit is the largest occupancy of a link not above coef·total/h + t (the
// mean over the router's h global links): an integer occupancy exceeds the
// threshold exactly when it exceeds its floor. With a whole-percent
// coefficient (pct ≥ 0) it is computed in integers, exactly.
func (o *occView) limit(total int32, coef float64, pct, t int32) int32 {
	if total <= 0 {
		return math.MaxInt32 // nothing queued: no link above coef·0 + t ≥ 0
	}
	if pct >= 0 {
		return int32((int64(pct)*int64(total) + int64(100*o.h)*int64(t)) / int64(100*o.h))
	}
	return int32(math.Floor(coef*float64(total)/float64(o.h) + float64(t)))
}

// congested: is global port k of router r (VC vc, or the port) above
// coef·mean + t, the mean over the router's own global links? The same test
// as globalBits, for one link.
func (s *Sim) congested(r, k, vc int, coef float64, pct, t int32) bool {
	o := &s.ov
	occ := o.gocc
	if o.minOnly {
		occ = o.gmin
	}
	if o.perPort { // rare: the whole test, as globalBits writes it
		return s.globalBits(r, coef, pct, t)&(1<<(k*o.gv)) != 0
	}
	row := occ[r*o.rowLen : (r+1)*o.rowLen]
	var total int32
	for j := 0; j < o.h; j++ {
		total += row[j*o.gv+vc]
	}
	return row[k*o.gv+vc] > o.limit(total, coef, pct, t)
}

// bitVC is the VC whose bit a test reads: vc per VC, 0 per port.
func (s *Sim) bitVC(vc int) int {
	if s.ov.perPort {
		return 0
	}
	return vc
}

// wholePercent is x as an integer, or −1 when x has a fraction.
func wholePercent(x float64) int32 {
	if x == math.Trunc(x) && x >= 0 && x < 1e6 {
		return int32(x)
	}
	return -1
}
