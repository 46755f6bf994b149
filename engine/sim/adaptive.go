package sim

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// Adaptive routing: the Valiant family with its phase-A policies, restriction
// and recomputation; source-adaptive UGAL and PiggyBack; in-transit PAR and
// OLM with the global misrouting policies; ACOR and PB-ACOR.

// Validity flags of the two halves of the UGAL/PB comparison cache (pk.aux).
const (
	auxMin = 1 << 30
	auxVal = 1 << 29
)

// Phase-A policies (ACOR paper Table 1).
const (
	paRRGSw uint8 = iota // any group, a random router of it
	paRRGGr              // any group, reached on entering it
	paCRGSw              // a group linked to the source router, a random router of it
	paCRGGr              // a group linked to the source router, reached on entering it
)

// PhaseANames index the phase-A policies in results.
var PhaseANames = []string{"RRG-Sw", "RRG-Gr", "CRG-Sw", "CRG-Gr"}

func parsePhaseA(name string) uint8 {
	for i, n := range PhaseANames {
		if n == name {
			return uint8(i)
		}
	}
	return paRRGSw
}

// Global misrouting policies of the in-transit routings (thesis §1.4.3).
const (
	polCRG uint8 = iota
	polRRG
	polNRG
	polMM
)

// Misroute kinds of a pending in-transit decision (applied at grant).
const (
	misNone uint8 = iota
	misLocal
	misLocalMM
	misGlobal
	misGlobalMandatory
)

// Where the first non-minimal decision was taken (result categories).
const (
	catNone uint8 = iota
	catInjection
	catSourceGroup
	catIntermediate
)

// adaptive holds the parameters and state of the adaptive mechanisms.
type adaptive struct {
	phaseA     uint8
	restricted bool
	recompute  bool
	ugalPath   bool
	ugalF      float64
	ugalT      int32 // phits
	perPort    bool
	minOnly    bool // occupancy of minimally routed packets only
	pbCoef     float64
	pbCoefPct  int32 // pbCoef in whole percent, or −1 when it has a fraction
	congPct    int32 // congCoef likewise
	pbT        int32
	policy     uint8
	policyL    bool
	trigUGAL   bool
	thMin      float64
	congCoef   float64
	congT      int32
	candMax    float64

	h, gv   int      // global ports per router, global VCs
	gocc    []int32  // per (router, global port k, VC): occupancy in phits (credits view)
	gbase   []int32  // per port: its first gocc index, −1 for non-global ports
	rowLen  int      // gocc entries per router
	vcMask  uint64   // the bits of VC 0 of every global port (shift by v for VC v)
	linked  []int32  // per (router, global port k): the group it reaches
	gmin    []int32  // the same, minimally routed packets only
	minOcc  []int32  // per buffer index of a transit output: minimal-only occupancy
	satHist []uint64 // PB: per (slot, router) saturation bits (k·gv+vc), slot = cycle mod (localLatency+1)
	// PB with true piggybacking: what each router last heard of each router
	// of its group (router·a + position), and the bits riding on packets now
	// crossing local links (receiver·a + sender position, bits) by arrival cycle
	known   []uint64
	riders  [][]uint64
	slots   int64
	curSlot int      // satHist offset of this cycle's bits
	lagSlot int      // and of the bits of slots−1 cycles ago
	dirtyVC []uint16 // per router: VCs whose global occupancies changed since its bits were computed
	dirtyR  []int32  // the routers marked dirty, in marking order
	gtot    []int32  // per (router, VC): the sum of its global links' occupancies (PB)
	grouter []int32  // per port: its router (global ports; PB)

	// ACOR
	acorSeq    []uint8 // phase-A policy per level
	acorPacket bool
	acorHI     int32
	acorIT     [2]int32
	acorDT     [2]int32
	level      []uint8 // per router (switch mode)
	blocked    []int32
	timer      []int32
	incTh      []int32  // per router: blocked count that raises its level now
	perLevel   [3]int32 // routers at each level
}

// wholePercent is x as an integer, or −1 when x has a fraction.
func wholePercent(x float64) int32 {
	if x == math.Trunc(x) && x >= 0 && x < 1e6 {
		return int32(x)
	}
	return -1
}

func (s *Sim) initAdaptive(cfg config.Config, df *topology.Dragonfly, globalVCs int) {
	rc := cfg.Routing
	a := &s.ad
	a.phaseA = parsePhaseA(cfg.PhaseA())
	a.restricted, a.recompute = rc.Restricted, rc.Recompute
	a.ugalPath = rc.UgalMode == "pathLength"
	a.ugalF, a.ugalT = rc.UgalF, int32(rc.UgalT*float64(s.P))
	a.perPort = rc.Congestion == "perPort" || rc.Congestion == "perPortMin"
	a.minOnly = rc.Congestion == "perVCMin" || rc.Congestion == "perPortMin"
	a.pbCoef, a.pbT = rc.PbCoef/100, int32(rc.PbThreshold*float64(s.P))
	a.pbCoefPct, a.congPct = wholePercent(rc.PbCoef), wholePercent(rc.CongestedCoef)
	switch rc.Policy {
	case "CRG", "CRG_L":
		a.policy = polCRG
	case "RRG", "RRG_L":
		a.policy = polRRG
	case "NRG", "NRG_L":
		a.policy = polNRG
	default:
		a.policy = polMM
	}
	a.policyL = len(rc.Policy) > 2 && rc.Policy[len(rc.Policy)-2:] == "_L"
	a.trigUGAL = rc.Trigger == "ugal"
	a.thMin, a.congCoef, a.congT, a.candMax = rc.ThMin, rc.CongestedCoef/100, int32(rc.CongestedT*float64(s.P)), rc.CandidateMax/100
	a.h, a.gv = df.H, globalVCs
	// the groups each router's global links reach (CRG draws)
	a.linked = make([]int32, s.R*a.h)
	for r := 0; r < s.R; r++ {
		for k := 0; k < a.h; k++ {
			peer, _ := s.topo.Link(r, s.firstGlobal+k)
			a.linked[r*a.h+k] = int32(peer / s.groupSize)
		}
	}
	switch s.routing {
	case routeMIN, routeVAL, routeACOR, routeUGAL:
		// no per-cycle view of the global links needed (UGAL reads credits)
		if !a.minOnly {
			s.initACOR(cfg)
			return
		}
	}
	a.gocc = make([]int32, s.R*a.h*a.gv)
	a.dirtyVC = make([]uint16, s.R)
	a.gtot = make([]int32, s.R*a.gv)
	a.grouter = make([]int32, len(s.ports))
	a.rowLen = a.h * a.gv
	for k := 0; k < a.h; k++ {
		a.vcMask |= 1 << (k * a.gv)
	}
	a.gbase = make([]int32, len(s.ports))
	for pi := range a.gbase {
		a.gbase[pi] = -1
		if s.ports[pi].class == topology.Global {
			r, port := pi/s.radix, pi%s.radix
			a.gbase[pi] = int32((r*a.h + port - s.firstGlobal) * a.gv)
			a.grouter[pi] = int32(r)
		}
	}
	if a.minOnly {
		a.gmin = make([]int32, s.R*a.h*a.gv)
		a.minOcc = make([]int32, len(s.bufs))
	}
	switch s.routing {
	case routePB, routePBACOR:
		a.slots = int64(cfg.Topology.LocalLatency) + 1
		a.satHist = make([]uint64, int(a.slots)*s.R)
		if rc.PbBroadcast == "piggyback" {
			a.known = make([]uint64, s.R*s.groupSize)
			a.riders = make([][]uint64, len(s.arrivals))
		}
	}
	s.initACOR(cfg)
}

func (s *Sim) initACOR(cfg config.Config) {
	a, rc := &s.ad, cfg.Routing
	if s.routing == routeACOR || s.routing == routePBACOR {
		a.restricted, a.recompute = true, true
		switch rc.AcorSequence {
		case "2LA":
			a.acorSeq = []uint8{paCRGGr, paRRGSw}
		case "2LB":
			a.acorSeq = []uint8{paCRGSw, paRRGSw}
		default:
			a.acorSeq = []uint8{paCRGGr, paCRGSw, paRRGSw}
		}
		a.acorPacket = rc.AcorMode == "packet"
		a.acorHI = int32(rc.AcorHI)
		it2 := rc.AcorIT2
		if it2 == 0 {
			it2 = 500
			if s.routing == routePBACOR {
				it2 = 50
			}
		}
		a.acorIT = [2]int32{int32(rc.AcorIT1), int32(it2)}
		a.acorDT = [2]int32{int32(rc.AcorDT1), int32(rc.AcorDT2)}
		a.level = make([]uint8, s.R)
		a.blocked = make([]int32, s.R)
		a.timer = make([]int32, s.R)
		a.incTh = make([]int32, s.R)
		for r := range a.timer {
			a.timer[r] = a.acorHI
			a.incTh[r] = a.increaseAt(0)
		}
		a.perLevel[0] = int32(s.R)
	}
}

// gidx is the index of (router, global port k, VC) in gocc, or −1 for other ports.
func (s *Sim) gidx(pi, vc int) int {
	b := s.ad.gbase[pi]
	if b < 0 {
		return -1
	}
	return int(b) + vc
}

// take reserves credits of output (po, vc) for a packet (at the crossbar grant).
func (s *Sim) take(po, vc int, minimal, global bool) {
	bi := po*s.maxVC + vc
	s.credits[bi] -= int32(s.P)
	if s.ad.gocc != nil && (global || s.ad.minOcc != nil) {
		s.occChange(po, vc, bi, int32(s.P), minimal)
	}
}

// give returns the credits of a wheel entry (port<<5 | VC, bit 31 = minimal
// packet, bit 30 = global link).
func (s *Sim) give(e int32) {
	minimal, global := e < 0, e&(1<<30) != 0
	pi, vc := int(e&0x3fffffff)>>5, int(e&31)
	bi := pi*s.maxVC + vc
	s.credits[bi] += int32(s.P)
	if s.ad.gocc != nil && (global || s.ad.minOcc != nil) {
		s.occChange(pi, vc, bi, -int32(s.P), minimal)
	}
}

// occChange keeps the adaptive views of output (pi, vc) up to date: the
// global-link occupancies and their per-router totals, the minimal-only
// occupancy, and which routers' PB bits must be recomputed.
func (s *Sim) occChange(pi, vc, bi int, delta int32, minimal bool) {
	a := &s.ad
	if g := s.gidx(pi, vc); g >= 0 {
		a.gocc[g] += delta
		if a.gmin != nil && minimal {
			a.gmin[g] += delta
		}
		if a.satHist != nil && (minimal || a.gmin == nil) {
			r := int(a.grouter[pi])
			a.gtot[r*a.gv+vc] += delta
			s.markDirty(r, vc)
		}
	}
	if minimal && a.minOcc != nil {
		a.minOcc[bi] += delta
	}
}

// occ is the occupancy (phits) adaptive routing sees for output (po, vc):
// the downstream buffer plus this VC's packets in the local output FIFO,
// per VC or averaged over the port's VCs, all packets or minimal ones only.
func (s *Sim) occ(r, port, vc int) int32 {
	c := s.pclass[port]
	if c == topology.Injection {
		return 0
	}
	bi := (r*s.radix+port)*s.maxVC + vc
	if !s.ad.perPort {
		if s.ad.minOnly {
			return s.ad.minOcc[bi]
		}
		return s.bufCap[c] - s.credits[bi]
	}
	n := s.vcCount[c]
	bi -= vc
	var sum int32
	for v := 0; v < n; v++ {
		if s.ad.minOnly {
			sum += s.ad.minOcc[bi+v]
		} else {
			sum += s.bufCap[c] - s.credits[bi+v]
		}
	}
	return sum / int32(n)
}

// markDirty notes that router r's global occupancies on VC vc changed.
func (s *Sim) markDirty(r, vc int) {
	a := &s.ad
	if a.dirtyVC[r] == 0 {
		a.dirtyR = append(a.dirtyR, int32(r))
	}
	a.dirtyVC[r] |= 1 << vc
}

// updateAdaptive runs the per-cycle work of the mechanisms with state: PB
// saturation bits (own links, broadcast to the group with local-link
// latency) and ACOR switch levels. (CGA's congested links are computed when
// a trigger asks: no history is needed.)
func (s *Sim) updateAdaptive() {
	a := &s.ad
	// bits only change when a router's global occupancies do: carry the last
	// cycle's bits over and recompute the routers marked dirty
	if a.satHist != nil {
		slot := int(s.now%a.slots) * s.R
		prev := int((s.now+a.slots-1)%a.slots) * s.R
		// this cycle's bits, and those broadcast one local-link latency ago
		a.curSlot, a.lagSlot = slot, int((s.now+1)%a.slots)*s.R
		copy(a.satHist[slot:slot+s.R], a.satHist[prev:prev+s.R])
		for _, r := range a.dirtyR {
			if a.perPort {
				a.satHist[slot+int(r)] = s.globalBits(int(r), a.pbCoef, a.pbCoefPct, a.pbT)
			} else {
				a.satHist[slot+int(r)] = s.vcBits(int(r), a.satHist[slot+int(r)], a.dirtyVC[r])
			}
			a.dirtyVC[r] = 0
		}
	}
	a.dirtyR = a.dirtyR[:0]
	if a.level != nil && !a.acorPacket {
		for r := 0; r < s.R; r++ {
			if a.timer[r] > 1 && a.blocked[r] < a.incTh[r] {
				a.timer[r]-- // nothing can change this cycle
				continue
			}
			s.acorTick(r)
		}
		b := s.st.bucket(s.now)
		for lv, n := range a.perLevel {
			s.st.sLevel[b] += int64(n) * int64(lv+1)
		}
		if (s.now+1)%s.st.interval == 0 {
			copy(s.st.sLevels[b*3:b*3+3], a.perLevel[:])
		}
	}
}

// globalBits marks router r's global links whose occupancy exceeds
// coef·mean + t, the mean taken over the router's own global links (per VC,
// or per port with the bit on VC 0).
func (s *Sim) globalBits(r int, coef float64, pct, t int32) uint64 {
	a := &s.ad
	occ := a.gocc
	if a.minOnly {
		occ = a.gmin
	}
	row := occ[r*a.h*a.gv : (r+1)*a.h*a.gv]
	var bits uint64
	if a.perPort {
		var total int32
		for _, q := range row {
			total += q
		}
		mean := float64(total) / float64(a.h*a.gv)
		for k := 0; k < a.h; k++ {
			var q int32
			for v := 0; v < a.gv; v++ {
				q += row[k*a.gv+v]
			}
			if float64(q)/float64(a.gv) > coef*mean+float64(t) {
				bits |= 1 << (k * a.gv)
			}
		}
		return bits
	}
	for v := 0; v < a.gv; v++ {
		var total int32
		for k := 0; k < a.h; k++ {
			total += row[k*a.gv+v]
		}
		lim := a.limit(total, coef, pct, t)
		for k := 0; k < a.h; k++ {
			if row[k*a.gv+v] > lim {
				bits |= 1 << (k*a.gv + v)
			}
		}
	}
	return bits
}

// limit is the largest occupancy of a link not above coef·total/h + t (the
// mean over the router's h global links): an integer occupancy exceeds the
// threshold exactly when it exceeds its floor. With a whole-percent
// coefficient (pct ≥ 0) it is computed in integers, exactly.
func (a *adaptive) limit(total int32, coef float64, pct, t int32) int32 {
	if total <= 0 {
		return math.MaxInt32 // nothing queued: no link above coef·0 + t ≥ 0
	}
	if pct >= 0 {
		return int32((int64(pct)*int64(total) + int64(100*a.h)*int64(t)) / int64(100*a.h))
	}
	return int32(math.Floor(coef*float64(total)/float64(a.h) + float64(t)))
}

// vcBits recomputes router r's PB bits of the VCs in mask (per-VC
// detection), from the running totals, keeping the other VCs' bits.
func (s *Sim) vcBits(r int, bits uint64, mask uint16) uint64 {
	a := &s.ad
	occ := a.gocc
	if a.minOnly {
		occ = a.gmin
	}
	gv, base := a.gv, r*a.rowLen
	row := occ[base : base+a.rowLen : base+a.rowLen]
	tot := a.gtot[r*gv : r*gv+gv : r*gv+gv]
	for v := range tot {
		if mask&(1<<v) == 0 {
			continue
		}
		lim := a.limit(tot[v], a.pbCoef, a.pbCoefPct, a.pbT)
		bits &^= a.vcMask << v
		for i := v; i < len(row); i += gv {
			if row[i] > lim {
				bits |= 1 << i
			}
		}
	}
	return bits
}

// congested: is global port k of router r (VC vc, or the port) above
// coef·mean + t, the mean over the router's own global links? The same test
// as globalBits, for one link.
func (s *Sim) congested(r, k, vc int, coef float64, pct, t int32) bool {
	a := &s.ad
	occ := a.gocc
	if a.minOnly {
		occ = a.gmin
	}
	if a.perPort { // rare: the whole test, as globalBits writes it
		return s.globalBits(r, coef, pct, t)&(1<<(k*a.gv)) != 0
	}
	row := occ[r*a.rowLen : (r+1)*a.rowLen]
	var total int32
	for j := 0; j < a.h; j++ {
		total += row[j*a.gv+vc]
	}
	return row[k*a.gv+vc] > a.limit(total, coef, pct, t)
}

// bitVC is the VC whose bit a test reads: vc per VC, 0 per port.
func (s *Sim) bitVC(vc int) int {
	if s.ad.perPort {
		return 0
	}
	return vc
}

// piggyback puts router r's current saturation bits on a packet leaving
// through local port po, to be read by the next router when its head arrives.
func (s *Sim) piggyback(r, po int, arrival int64) {
	a := &s.ad
	peer := int(s.ports[po].peer) / s.radix
	slot := arrival & s.wheelMask
	a.riders[slot] = append(a.riders[slot], uint64(peer*s.groupSize+r%s.groupSize),
		a.satHist[int(s.now%a.slots)*s.R+r])
}

// landRiders stores the bits that arrive this cycle.
func (s *Sim) landRiders() {
	a := &s.ad
	slot := s.now & s.wheelMask
	q := a.riders[slot]
	for i := 0; i+1 < len(q); i += 2 {
		a.known[q[i]] = q[i+1]
	}
	a.riders[slot] = q[:0]
}

// pbSaturated reads the PB bit of the global link of the minimal path from
// router r to dst: the router's own bit now, or a group neighbour's bit as
// broadcast one local-link latency ago.
func (s *Sim) pbSaturated(r, dst, vc int) bool {
	g, dg := s.df.GroupOf(r), s.df.GroupOf(dst)
	if g == dg {
		return false
	}
	a := &s.ad
	j := s.df.GlobalLinkTo(g, dg)
	pos := j / a.h
	owner := g*s.groupSize + pos
	bit := uint64(1) << ((j-pos*a.h)*a.gv + s.bitVC(vc))
	if owner == r {
		return a.satHist[a.curSlot+r]&bit != 0
	}
	if a.known != nil {
		return a.known[r*s.groupSize+pos]&bit != 0
	}
	if s.now < a.slots-1 {
		return false
	}
	return a.satHist[a.lagSlot+owner]&bit != 0
}

// acorTick is the per-cycle ACOR-Switch level management of router r: raise
// at once when the blocked counter reaches the increase threshold (which
// restarts the interval), lower at the end of an interval when it is at most
// the decrease threshold.
func (s *Sim) acorTick(r int) {
	a := &s.ad
	a.timer[r]--
	old := int(a.level[r])
	lv := old
	top := len(a.acorSeq) - 1
	increased := false
	if lv < top && a.blocked[r] >= a.acorIT[lv] {
		lv++
		if len(a.acorSeq) == 2 {
			lv = top
		}
		increased = true
	}
	if !increased && a.timer[r] <= 0 && lv > 0 && a.blocked[r] <= a.acorDT[lv-1] {
		lv--
	}
	if increased || a.timer[r] <= 0 {
		a.timer[r], a.blocked[r] = a.acorHI, 0
	}
	if lv != old {
		a.level[r] = uint8(lv)
		a.perLevel[old]--
		a.perLevel[lv]++
		a.incTh[r] = a.increaseAt(lv)
	}
}

// increaseAt is the blocked count that raises a router at level lv.
func (a *adaptive) increaseAt(lv int) int32 {
	if lv >= len(a.acorSeq)-1 {
		return math.MaxInt32
	}
	return a.acorIT[lv]
}

// drawIntermediate draws the Valiant intermediate router of pk at its source
// router r with phase-A policy pa.
func (s *Sim) drawIntermediate(r int, pk *packet, pa uint8) {
	rs := &s.rts[r]
	sg, dg := s.df.GroupOf(r), s.df.GroupOf(int(pk.dstRouter))
	grp := -1
	toGroup := pa == paRRGGr || pa == paCRGGr
	switch {
	case sg == dg && s.ad.restricted:
		grp, toGroup = sg, false
	case pa == paCRGSw || pa == paCRGGr:
		grp = int(s.ad.linked[r*s.ad.h+rs.Intn(s.ad.h)])
	default: // RRG: uniform over the other groups
		grp = rs.Intn(s.topo.Groups() - 1)
		if grp >= sg {
			grp++
		}
	}
	pk.inter = int32(grp*s.groupSize + rs.Intn(s.groupSize))
	pk.flags &^= fInterDone | fToGroup | fNonMin
	if toGroup {
		pk.flags |= fToGroup
	}
	pk.mis = pk.mis&^0x0c | pa<<2
}

// valiantDetour tells whether pk's intermediate is off its minimal path from r.
func (s *Sim) valiantDetour(r int, pk *packet) bool {
	if pk.flags&fToGroup != 0 {
		ig := s.df.GroupOf(int(pk.inter))
		return ig != s.df.GroupOf(r) && ig != s.df.GroupOf(int(pk.dstRouter))
	}
	return int(pk.inter) != r && pk.inter != pk.dstRouter
}

// firstHop is the port and VC of the first hop from r towards target for a
// packet that has not moved yet.
func (s *Sim) firstHop(r, target int, pk *packet) (int, int) {
	port := s.df.MinimalPort(r, target)
	global := s.pclass[port] == topology.Global
	return port, s.vcAt(s.seq.Next(int(pk.vcPos), global), global, pk)
}

// vcAt is the VC of sequence position pos, in the reply set for replies.
func (s *Sim) vcAt(pos int, global bool, pk *packet) int {
	vc := s.seq[pos].VC
	if pk.flags&fReply != 0 {
		if global {
			vc += int(s.replyOffG)
		} else {
			vc += int(s.replyOffL)
		}
	}
	return vc
}

// decideAtInjection runs at every routing attempt of a packet at the head of
// an injection VC of router r: the Valiant draw (first attempt, or every
// attempt with recomputation) and, for UGAL/PB/PB-ACOR, the minimal or
// non-minimal choice.
func (s *Sim) decideAtInjection(r int, pk *packet, retry bool) {
	a := &s.ad
	pa := a.phaseA
	if a.acorSeq != nil {
		if retry && pk.flags&fNonMin != 0 && !a.acorPacket {
			a.blocked[r]++ // a re-attempt of a non-minimally routed packet
		}
		lv := a.level[r]
		if a.acorPacket {
			lv = pk.mis >> 4 & 3
			if retry && int(lv) < len(a.acorSeq)-1 {
				lv++
			}
			pk.mis = pk.mis&^0x30 | lv<<4
		}
		pa = a.acorSeq[lv]
	}
	if !retry || a.recompute {
		s.drawIntermediate(r, pk, pa)
		if pk.aux >= 0 {
			pk.aux &^= auxVal // the Valiant half of the comparison's cache no longer applies
		}
	}
	nonMin := s.valiantDetour(r, pk)
	if nonMin && (s.routing == routeUGAL || s.routing == routePB || s.routing == routePBACOR) {
		nonMin = s.preferNonMinimal(r, pk)
	}
	pk.flags &^= fInterDone | fNonMin
	if nonMin {
		pk.flags |= fNonMin
	} else {
		pk.flags |= fInterDone
	}
}

// preferNonMinimal is the UGAL comparison of the first hops of both paths
// (thesis eq. 1.2, or FOGSim's path-length weighting), and for PB the
// saturation bit of the minimal path's global link.
func (s *Sim) preferNonMinimal(r int, pk *packet) bool {
	a := &s.ad
	dst := int(pk.dstRouter)
	if s.routing != routeUGAL {
		gvc := s.vcAt(int(s.firstPos[1]), true, pk)
		if s.pbSaturated(r, dst, gvc) {
			return true
		}
	}
	// the first hops and path lengths stay the same while the packet waits
	// (the Valiant ones until a new intermediate is drawn): computed once,
	// kept in pk.aux, which is unused until the packet leaves its injection
	// buffer (bits 0–10 minimal port and VC, 11–21 Valiant port and VC,
	// 22–24 and 25–28 the hop counts, auxMin and auxVal which halves hold)
	c := pk.aux
	if c < 0 {
		c = 0
	}
	if c&auxMin == 0 {
		minPort, minVC := s.firstHop(r, dst, pk)
		lm, gm := s.df.MinimalHops(r, dst)
		c |= int32(minPort|minVC<<7|(lm+gm)<<22) | auxMin
	}
	if c&auxVal == 0 {
		valPort, valVC := s.firstHop(r, int(pk.inter), pk)
		l1, g1 := s.df.MinimalHops(r, int(pk.inter))
		l2, g2 := s.df.MinimalHops(int(pk.inter), dst)
		c = c&^(0x7ff<<11|0xf<<25) | int32(valPort<<11|valVC<<18|(l1+g1+l2+g2)<<25) | auxVal
	}
	pk.aux = c
	minPort, minVC, valPort, valVC := int(c&127), int(c>>7&15), int(c>>11&127), int(c>>18&15)
	qmin := float64(s.occ(r, minPort, minVC))
	qval := float64(s.occ(r, valPort, valVC))
	if a.ugalPath {
		return qmin*float64(c>>22&7) > qval*float64(c>>25&15)+float64(a.ugalT)
	}
	return qmin > a.ugalF*qval+float64(a.ugalT)
}
