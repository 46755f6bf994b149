package sim

import (
	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// UGAL's comparison at injection (thesis §1.4.2.1, eq. 1.2; FOGSim's
// path-length weighting): the minimal path's first hop against the Valiant
// path's, by their output occupancies. PiggyBack and PB-ACOR add the
// saturation bit of piggyback.go in front of it.

// Validity flags of the two halves of the UGAL/PB comparison cache (pk.aux).
const (
	auxMin = 1 << 30
	auxVal = 1 << 29
)

// ugal is the comparison's parameters.
type ugal struct {
	pathLength bool    // routing.ugalMode=pathLength: occupancies weighted by path lengths
	f          float64 // F: the Valiant occupancy's weight
	t          int32   // T, phits
	// on a flattened butterfly (nil elsewhere): the network, whose minimal
	// port the simulator computes without the interface, and for UGAL the
	// first VC-sequence position of Valiant phase 1 and the per-port sum
	fb      *topology.FBFly
	phaseB  int8
	perPort bool
	// anyInter: routing.ugalIntermediate=any (the default, empty), the
	// intermediate drawn per differing dimension among all k coordinates
	// (fbDraw); false: detour
	anyInter bool
}

func (s *Sim) initUGAL(rc config.Routing) {
	s.ug = ugal{pathLength: rc.UgalMode == "pathLength", f: rc.UgalF, t: int32(rc.UgalT * float64(s.P))}
}

// compareHops returns the first hops and path lengths of both paths of the
// UGAL comparison. They stay the same while the packet waits (the Valiant
// ones until a new intermediate is drawn), so they are computed once and
// kept in pk.aux, which is unused until the packet leaves its injection
// buffer: bits 0–6 the minimal first port, 7–10 its VC-sequence position,
// 11–17 and 18–21 the same for the Valiant path, 22–24 and 25–28 the two
// path lengths, auxMin and auxVal which halves are valid. k ≥ 0: the
// intermediate's group is reached by r's global port k (a CRG draw).
func (s *Sim) compareHops(r int, pk *packet, k int) int32 {
	c := pk.aux
	if c < 0 {
		c = 0
	}
	dst := int(pk.dstRouter)
	if c&auxMin == 0 {
		port, hops := s.df.PathTo(r, dst)
		c |= int32(port|s.firstPosOf(r, port)<<7|hops<<22) | auxMin
	}
	if c&auxVal == 0 { // the intermediate is neither r nor dst (a detour)
		inter := int(pk.inter)
		var port, h1 int
		if k >= 0 { // the minimal path to the intermediate starts on that link
			port, h1 = s.firstGlobal+k, 1
			if int(s.vl.landing[r*s.vl.h+k]) != inter {
				h1++
			}
		} else {
			port, h1 = s.df.PathTo(r, inter)
		}
		_, h2 := s.df.PathTo(inter, dst)
		c = c&^(0x7ff<<11|0xf<<25) | int32(port<<11|s.firstPosOf(r, port)<<18|(h1+h2)<<25) | auxVal
	}
	pk.aux = c
	return c
}

// firstPosOf is the VC-sequence position of a packet's first hop through
// port of router r.
func (s *Sim) firstPosOf(r, port int) int {
	if s.pclass[r*s.radix+port] == topology.Global {
		return int(s.firstPos[1])
	}
	return int(s.firstPos[0])
}

// preferNonMinimal is the UGAL comparison of the first hops of both paths
// (thesis eq. 1.2, or FOGSim's path-length weighting), and for PB the
// saturation bit of the minimal path's global link; c from compareHops.
// With routing.injectionTrigger a contention trigger replaces the
// comparison (contendedAtInjection).
func (s *Sim) preferNonMinimal(r int, pk *packet, c int32) bool {
	if s.routing != routeUGAL && s.pbSaturated(r, int(pk.dstRouter), s.vcAt(int(s.firstPos[1]), true, pk)) {
		return true
	}
	minPort, minPos, valPort, valPos := int(c&127), int(c>>7&15), int(c>>11&127), int(c>>18&15)
	minPo, valPo := r*s.radix+minPort, r*s.radix+valPort
	if cc := s.cga.cc; cc != nil {
		return s.contendedAtInjection(cc, r, pk, minPo, valPo)
	}
	minClass, valClass := s.pclass[minPo], s.pclass[valPo]
	minVC, valVC := s.vcAt(minPos, minClass == topology.Global, pk), s.vcAt(valPos, valClass == topology.Global, pk)
	var qmin, qval int32
	switch {
	case !s.ov.occOther:
		qmin, qval = s.occVC(minPo, minVC, minClass), s.occVC(valPo, valVC, valClass)
	case s.ov.perPort && s.routing != routeUGAL:
		// PB with per-port sensing: the port sums mark the global links
		// (thesis §5.2.4); the UGAL-L comparison stays on the VC the
		// packet would take (thesis §1.4.2.1: "the comparison is performed
		// per VC"; FOGSim's PB compares the next channel's credits), of
		// minimally routed packets only with minCred
		if s.ov.minOnly {
			qmin, qval = s.ov.minOcc[minPo*s.maxVC+minVC], s.ov.minOcc[valPo*s.maxVC+valVC]
		} else {
			qmin, qval = s.occVC(minPo, minVC, minClass), s.occVC(valPo, valVC, valClass)
		}
	default:
		qmin, qval = s.occSlow(r, minPort, minVC), s.occSlow(r, valPort, valVC)
	}
	u := &s.ug
	if u.pathLength { // integers: exact, as the comparison in reals
		return int64(qmin)*int64(c>>22&7) > int64(qval)*int64(c>>25&15)+int64(u.t)
	}
	return float64(qmin) > u.f*float64(qval)+float64(u.t)
}

// contendedAtInjection is routing.injectionTrigger=base or ectn for UGAL and
// PB (thesis §4.2.1 moved to the source router): take the Valiant path when
// the minimal first hop's contention counter reaches th, or with ectn when
// the group's combined counter of the destination group reaches th_c, and
// the Valiant first hop's own counter is below th (as Base's candidates).
func (s *Sim) contendedAtInjection(cc *contention, r int, pk *packet, minPo, valPo int) bool {
	hit := cc.contended(minPo, s.now)
	if e := cc.ectn; !hit && e != nil {
		cg, dg := s.df.GroupOf(r), s.df.GroupOf(int(pk.dstRouter))
		hit = dg != cg && e.combined(r, cg, dg) >= e.thc
	}
	return hit && !cc.contended(valPo, s.now)
}

// initFBFly sets up routing on a flattened butterfly: MIN's direct port
// computation and, for UGAL, the comparison's parameters.
func (s *Sim) initFBFly(cfg config.Config, fb *topology.FBFly) {
	if s.routing == routeUGAL {
		s.initUGAL(cfg.Routing)
		s.vl.recompute = cfg.Routing.Recompute
		s.ug.phaseB = int8(fb.Dims)
		s.ug.perPort = cfg.Routing.Congestion == "perPort"
		s.ug.anyInter = cfg.Routing.UgalIntermediate != "detour"
	}
	s.ug.fb = fb
}

// fbDecide is UGAL-L at the source router r of a flattened butterfly (Kim et
// al., Contention-based Congestion Management in Large-Scale Networks §V-A,
// after Singh's UGAL): the Valiant intermediate is drawn by fbDraw (by
// default as Valiant's algorithm, a draw on r or the destination's router
// routing minimally); the packet goes minimally iff
// q_min·H_min ≤ q_nm·H_nm + T (routing.ugalMode=pathLength; factor: q_min ≤
// F·q_nm + T), q the occupancy of the first hop's output — its VC's, or the
// sum over the port's data VCs (routing.congestion=perPort) — and H the
// paths' hop counts. It routes the first hop.
func (s *Sim) fbDecide(r int, pk *packet, retry bool) {
	if (!retry || s.vl.recompute) && s.R > 2 {
		pk.inter = s.fbDraw(r, int(pk.dstRouter))
		pk.mis &^= 0x0c // phase-A policy 0: no group policy on this topology
		pk.aux = -1     // a new intermediate: new Valiant hops
	}
	pk.flags &^= fInterDone | fNonMin
	c := s.fbHops(r, pk)
	port := int(c & 127)
	if pk.inter < 0 {
		pk.flags |= fInterDone
	} else {
		port = s.fbUGAL(pk, c, s.fbOcc(r, port), s.fbOcc(r, int(c>>7&127)))
	}
	pos := s.seq.Next(int(pk.vcPos), topology.FBFlyLink)
	pk.outPort, pk.outVC, pk.nextPos = int16(port), int8(s.vcAt(pos, false, pk)), int8(pos)
}

// fbDraw is the Valiant intermediate of a packet at router r to router dst
// on a flattened butterfly (s.R > 2), from r's stream, or −1 (the minimal
// path). routing.ugalIntermediate=detour: uniform among the routers other
// than r and dst (fbInter). any, the default (Valiant's random intermediate, as BookSim's
// flattened-butterfly UGAL draws it, find_ran_intm): in each dimension where
// r and dst differ a coordinate uniform among all k, in the others r's; a
// draw that is r or dst is no detour, and the packet goes minimally (BookSim
// weighs such a path as the minimal one or not at all).
func (s *Sim) fbDraw(r, dst int) int32 {
	if !s.ug.anyInter {
		return fbInter(s.rts[r].Intn(s.R-2), r, dst)
	}
	fb := s.ug.fb
	inter, w := 0, 1
	for d, a, b := 0, r, dst; d < fb.Dims; d, a, b, w = d+1, a/fb.K, b/fb.K, w*fb.K {
		x := a % fb.K
		if x != b%fb.K {
			x = s.rts[r].Intn(fb.K)
		}
		inter += x * w
	}
	if inter == r || inter == dst {
		return -1
	}
	return int32(inter)
}

// fbInter is the Valiant intermediate of a packet at router r to router dst
// on a flattened butterfly (s.R > 2) for a draw i uniform in [0, R−2), from
// r's stream: uniform among the routers other than r and dst.
func fbInter(i, r, dst int) int32 {
	lo, hi := min(r, dst), max(r, dst) // skip r and dst, in increasing order
	if i >= lo {
		i++
	}
	if i >= hi {
		i++
	}
	return int32(i)
}

// fbUGAL is the flattened butterfly's UGAL decision (fbDecide, isoDecide)
// for packet pk, which has an intermediate, whose paths' first ports and
// lengths are c (fbHops), given the occupancies of the two first hops'
// outputs (qmin minimal, qval Valiant): it sets pk's path flags and returns
// its first port — Valiant, even when the first hops coincide, iff
// q_min·H_min > q_nm·H_nm + T (routing.ugalMode=pathLength) or
// q_min > F·q_nm + T.
func (s *Sim) fbUGAL(pk *packet, c, qmin, qval int32) int {
	if s.ug.nonMin(qmin, c>>14&7, qval, c>>17&7) {
		pk.flags |= fNonMin
		return int(c >> 7 & 127)
	}
	pk.flags |= fInterDone
	return int(c & 127)
}

// nonMin is UGAL's comparison of the minimal and the Valiant path by the
// occupancies of their first hops' outputs (q) and their lengths (h):
// whether the packet goes to the intermediate (preferNonMinimal's on a
// Dragonfly, kept apart there: inlined, it cost the Dragonfly's UGAL probe
// 0.05%).
func (u *ugal) nonMin(qmin, hmin, qval, hval int32) bool {
	if u.pathLength { // integers: exact, as the comparison in reals
		return int64(qmin)*int64(hmin) > int64(qval)*int64(hval)+int64(u.t)
	}
	return float64(qmin) > u.f*float64(qval)+float64(u.t)
}

// fbHops returns the first ports and lengths of both paths UGAL compares:
// bits 0–6 the minimal first port, 7–13 the Valiant one, 14–16 and 17–19
// the path lengths. They stay the same while the packet waits at injection
// with the same intermediate, so they are kept in pk.aux (unused until the
// packet leaves its injection buffer; auxMin marks it valid), as
// compareHops keeps the Dragonfly's.
func (s *Sim) fbHops(r int, pk *packet) int32 {
	if pk.aux >= 0 && pk.aux&auxMin != 0 {
		return pk.aux
	}
	fb, dst := s.ug.fb, int(pk.dstRouter)
	c := int32(fb.MinimalPort(r, dst) | fb.Hops(r, dst)<<14)
	if inter := int(pk.inter); inter >= 0 {
		c |= int32(fb.MinimalPort(r, inter)<<7 | (fb.Hops(r, inter)+fb.Hops(inter, dst))<<17)
	}
	pk.aux = c | auxMin
	return pk.aux
}

// fbOcc is the occupancy UGAL compares for output port of router r: output
// FIFO plus downstream buffer (capacity − credits) of the VC of a first hop,
// or summed over the port's data VCs.
func (s *Sim) fbOcc(r, port int) int32 {
	po := r*s.radix + port
	if s.vq.on {
		return s.voqOcc(po, s.seq[0].VC, s.ug.perPort)
	}
	if !s.ug.perPort {
		return s.occVC(po, s.seq[0].VC, topology.FBFlyLink)
	}
	n := s.dataVCs(topology.FBFlyLink) // the isolated and priority classes' are not UGAL's to weigh
	q := int32(n) * s.bufCap[topology.FBFlyLink]
	for _, c := range s.credits[po*s.maxVC : po*s.maxVC+n] {
		q -= c
	}
	return q
}
