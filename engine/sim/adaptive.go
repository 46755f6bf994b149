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
	minOnly    bool     // occupancy of minimally routed packets only
	occOther   bool     // perPort or minOnly
	occCap     [3]int32 // per port class: the input buffer, 0 for ejection
	pbCoef     float64
	pbCoefPct  int32 // pbCoef in whole percent, or −1 when it has a fraction
	congPct    int32 // congCoef likewise
	pbT        int32
	pbDen      int64 // 100·h: the mean's denominator in whole percent
	policy     uint8
	policyL    bool
	intraL     bool // OLM _L: intra-group traffic may take its local misroute (routing.intraGroupMisroute)
	trigUGAL   bool
	thMin      float64
	congCoef   float64
	congT      int32
	candMax    float64
	single     bool // PAR/OLM: one random port of the class is drawn, misroute only if it qualifies

	h, gv   int      // global ports per router, global VCs
	gocc    []int32  // per (router, global port k, VC): occupancy in phits (credits view)
	gbase   []int32  // per port: its first gocc index, −1 for non-global ports
	rowLen  int      // gocc entries per router
	vcMask  uint64   // the bits of VC 0 of every global port (shift by v for VC v)
	linked  []int32  // per (router, global port k): the group it reaches
	landing []int32  // per (router, global port k): the router it reaches
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
	live    []uint64 // PB: per router, its bits from the current occupancies (kept at every change)
	gtot    []int32  // per (router, VC): the sum of its global links' occupancies (PB)
	grouter []int32  // per port: its router (global ports; PB)
	pbLink  []int32  // per (group, destination group): position of the link's router <<8 | its bit (VC 0)

	// ACOR
	acorSeq    []uint8 // phase-A policy per level
	acorPacket bool
	acorSticky bool // routing.acorCount=fogsim
	acorHI     int32
	acorIT     [2]int32
	acorDT     [2]int32
	level      []uint8  // per router (switch mode)
	blocked    []int32  // per router: blocked attempts in the current interval
	deadline   []int64  // per router: the cycle its interval ends
	incTh      []int32  // per router: blocked count that raises its level now
	perLevel   [3]int32 // routers at each level
	// Level changes are events, not a per-cycle scan: the routers whose
	// count reached the increase threshold this cycle, and the interval
	// ends in cycle order (every interval lasts HI cycles, so pushing at
	// the back keeps the queue sorted; entries of restarted intervals are
	// stale and skipped).
	raise  []int32
	ends   []acorEnd
	endsAt int
	// router.idleUpdates=fogsim: per router, the cycles its interval still
	// lasts, counted down in the cycles it holds packets (FOGSim's
	// acor_hyst_cycles_counter), instead of deadline and ends
	timer []int32
}

// acorEnd is a pending end of router r's hysteresis interval.
type acorEnd struct {
	at int64
	r  int32
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
	a.occOther = a.perPort || a.minOnly
	a.occCap = s.bufCap
	a.occCap[topology.Injection] = 0
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
	a.intraL = a.policyL && rc.IntraGroupMis && s.routing == routeOLM
	a.trigUGAL = rc.Trigger == "ugal"
	a.thMin, a.congCoef, a.congT, a.candMax = rc.ThMin, rc.CongestedCoef/100, int32(rc.CongestedT*float64(s.P)), rc.CandidateMax/100
	// FOGSim's OLM draws one candidate, its PAR takes all that qualify
	a.single = rc.Candidates == "single" || rc.Candidates == "fogsim" && s.routing == routeOLM
	a.h, a.gv = df.H, globalVCs
	a.pbDen = int64(100 * a.h)
	// the groups each router's global links reach (CRG draws)
	a.linked, a.landing = make([]int32, s.R*a.h), make([]int32, s.R*a.h)
	for r := 0; r < s.R; r++ {
		for k := 0; k < a.h; k++ {
			peer, _ := s.topo.Link(r, s.firstGlobal+k)
			a.linked[r*a.h+k], a.landing[r*a.h+k] = int32(df.GroupOf(peer)), int32(peer)
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
		a.live = make([]uint64, s.R)
		G := df.Groups()
		a.pbLink = make([]int32, G*G)
		for g := 0; g < G; g++ {
			for dg := 0; dg < G; dg++ {
				if g != dg {
					j := df.GlobalLinkTo(g, dg)
					pos := j / a.h
					a.pbLink[g*G+dg] = int32(pos<<8 | (j-pos*a.h)*a.gv)
				}
			}
		}
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
		a.acorSticky = rc.AcorCount == "fogsim"
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
		a.deadline = make([]int64, s.R)
		a.incTh = make([]int32, s.R)
		if s.held != nil && !a.acorPacket {
			a.timer = make([]int32, s.R)
		}
		for r := range a.deadline {
			a.incTh[r] = a.increaseAt(0)
			if a.timer != nil {
				a.timer[r] = a.acorHI
			} else {
				s.restartInterval(r, -1) // the first interval ends at cycle HI−1
			}
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
	s.credits[po*s.maxVC+vc] -= int32(s.P)
	if s.ad.gocc != nil {
		s.occUpdate(po, vc, int32(s.P), minimal, global)
	}
}

// occUpdate passes a change of output (po, vc)'s occupancy to the adaptive
// views that track it (global links; every link for minimal-only counts).
// Not inlined: the adaptive views are rare, so this keeps that code out of
// take and out of the credit loop in land.
//
//go:noinline
func (s *Sim) occUpdate(po, vc int, delta int32, minimal, global bool) {
	if global || s.ad.minOcc != nil {
		s.occChange(po, vc, po*s.maxVC+vc, delta, minimal)
	}
}

// occChange keeps the adaptive views of output (pi, vc) up to date: the
// global-link occupancies and their per-router totals, the minimal-only
// occupancy, and the router's PB bits.
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
			switch {
			case a.perPort:
				a.live[r] = s.globalBits(r, a.pbCoef, a.pbCoefPct, a.pbT)
			case delta > 0 && a.live[r]&(a.vcMask<<vc) == 0 && a.pbCoefPct >= 0:
				// a rise lifts every other link's threshold: with none
				// of the VC's links marked, only this one can become so
				q := a.gocc[g]
				if a.minOnly {
					q = a.gmin[g]
				}
				if a.pbAbove(q, a.gtot[r*a.gv+vc]) {
					a.live[r] |= 1 << (g - r*a.rowLen)
				}
			default:
				a.live[r] = s.vcBits(r, vc, a.live[r])
			}
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
	if s.ad.occOther {
		return s.occSlow(r, port, vc)
	}
	po := r*s.radix + port
	return s.occVC(po, vc, s.pclass[po])
}

// occVC is the default occupancy, per VC and of every packet, of output
// (po, vc) of class c (0 for an ejection port: occCap is 0 and so are its
// credits).
func (s *Sim) occVC(po, vc int, c topology.PortClass) int32 {
	return s.ad.occCap[c] - s.credits[po*s.maxVC+vc]
}

func (s *Sim) occSlow(r, port, vc int) int32 {
	c := s.pclass[r*s.radix+port]
	if c == topology.Injection {
		return 0
	}
	bi := (r*s.radix+port)*s.maxVC + vc
	if !s.ad.perPort {
		return s.ad.minOcc[bi]
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

// updateAdaptive runs the per-cycle work of the mechanisms with state: PB
// saturation bits (own links, broadcast to the group with local-link
// latency) and ACOR switch levels. (CGA's congested links are computed when
// a trigger asks: no history is needed.)
func (s *Sim) updateAdaptive() {
	a := &s.ad
	// this cycle's bits are those of the occupancies at its start; the
	// other routers of the group read them one local-link latency later
	if a.satHist != nil {
		slot := int(s.now%a.slots) * s.R
		a.curSlot, a.lagSlot = slot, int((s.now+1)%a.slots)*s.R
		if s.held != nil {
			s.broadcastHeld(slot)
		} else {
			copy(a.satHist[slot:slot+s.R], a.live)
		}
	}
	if a.level != nil && !a.acorPacket {
		if a.timer != nil {
			s.acorLevelsHeld()
		} else {
			s.acorLevels()
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

// vcBits recomputes router r's PB bits of VC v (per-VC detection) from the
// running total, keeping the other VCs' bits.
func (s *Sim) vcBits(r, v int, bits uint64) uint64 {
	a := &s.ad
	occ := a.gocc
	if a.minOnly {
		occ = a.gmin
	}
	base := r * a.rowLen
	row := occ[base : base+a.rowLen : base+a.rowLen]
	bits &^= a.vcMask << v
	tot := a.gtot[r*a.gv+v]
	if a.pbCoefPct >= 0 {
		for i := v; i < len(row); i += a.gv {
			if a.pbAbove(row[i], tot) {
				bits |= 1 << i
			}
		}
		return bits
	}
	lim := a.limit(tot, a.pbCoef, a.pbCoefPct, a.pbT)
	for i := v; i < len(row); i += a.gv {
		if row[i] > lim {
			bits |= 1 << i
		}
	}
	return bits
}

// pbAbove: is occupancy q above PB's threshold coef·total/h + T, for a
// whole-percent coefficient? q > ⌊(pct·total + 100·h·T) / (100·h)⌋ ⟺
// 100·h·q > pct·total + 100·h·T (integers, total ≥ 0): no division.
func (a *adaptive) pbAbove(q, total int32) bool {
	return int64(q)*a.pbDen > int64(a.pbCoefPct)*int64(total)+a.pbDen*int64(a.pbT)
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
//
// The bits are those broadcast at the departure cycle dep, which may still be
// ahead: the rider names their history slot, read when it lands (the history
// keeps a local-link latency + 1 cycles, so that slot is not overwritten
// before).
func (s *Sim) piggyback(r, po int, dep, arrival int64) {
	a := &s.ad
	peer := int(s.ports[po].peer) / s.radix
	slot := arrival & s.wheelMask
	a.riders[slot] = append(a.riders[slot], uint64(peer*s.groupSize+r%s.groupSize),
		uint64(int(dep%a.slots)*s.R+r))
}

// landRiders stores the bits that arrive this cycle.
func (s *Sim) landRiders() {
	a := &s.ad
	slot := s.now & s.wheelMask
	q := a.riders[slot]
	for i := 0; i+1 < len(q); i += 2 {
		a.known[q[i]] = a.satHist[q[i+1]]
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
	l := int(a.pbLink[g*s.groups+dg])
	bit := uint64(1) << (l&255 + s.bitVC(vc))
	if owner := g*s.groupSize + l>>8; owner != r {
		if a.known != nil {
			return a.known[r*s.groupSize+l>>8]&bit != 0
		}
		// slots not written yet hold zeros: nothing broadcast before cycle 0
		return a.satHist[a.lagSlot+owner]&bit != 0
	}
	return a.satHist[a.curSlot+r]&bit != 0
}

// acorBlock counts a blocked attempt at router r (ACOR-Switch); reaching the
// increase threshold queues a raise for the next cycle's level update.
func (s *Sim) acorBlock(r int) {
	a := &s.ad
	a.blocked[r]++
	if a.blocked[r] == a.incTh[r] && a.timer == nil {
		a.raise = append(a.raise, int32(r))
	}
}

// acorLevels is ACOR-Switch's level management at the start of a cycle (ACOR
// paper §4.2.2, FOGSim semantics): a router whose blocked count reached the
// increase threshold is raised at once, which restarts its interval; at the
// end of an interval it is lowered when the count is at most the decrease
// threshold; either way the count restarts.
func (s *Sim) acorLevels() {
	a := &s.ad
	for _, r := range a.raise {
		s.setLevel(int(r), s.raisedLevel(int(r)))
		s.restartInterval(int(r), s.now)
	}
	a.raise = a.raise[:0]
	for a.endsAt < len(a.ends) && a.ends[a.endsAt].at == s.now {
		r := int(a.ends[a.endsAt].r)
		a.endsAt++
		if a.deadline[r] != s.now {
			continue // restarted by a raise
		}
		if lv := int(a.level[r]); lv > 0 && a.blocked[r] <= a.acorDT[lv-1] {
			s.setLevel(r, lv-1)
		}
		s.restartInterval(r, s.now)
	}
	if a.endsAt > 4096 && 2*a.endsAt > len(a.ends) { // reuse the consumed front
		n := copy(a.ends, a.ends[a.endsAt:])
		a.ends, a.endsAt = a.ends[:n], 0
	}
}

// raisedLevel is router r's level after a raise: the next one, or straight
// to the last for the two-level sequences (2LA, 2LB).
func (s *Sim) raisedLevel(r int) int {
	if len(s.ad.acorSeq) == 2 {
		return 1
	}
	return int(s.ad.level[r]) + 1
}

// restartInterval starts router r's interval at the update of cycle now:
// its count restarts and the interval ends HI cycles later.
func (s *Sim) restartInterval(r int, now int64) {
	a := &s.ad
	a.blocked[r] = 0
	a.deadline[r] = now + int64(a.acorHI)
	a.ends = append(a.ends, acorEnd{at: a.deadline[r], r: int32(r)})
}

// acorLevelsHeld is acorLevels with router.idleUpdates=fogsim: FOGSim's
// per-switch procedure (switchModule::action), run only for the routers that
// hold packets this cycle. Their interval counts down one cycle; a count at
// the increase threshold raises the level, and an interval that ends lowers
// it when the count is at most the decrease threshold; either restarts the
// interval and the count. An idle router's interval stands still.
func (s *Sim) acorLevelsHeld() {
	a := &s.ad
	a.raise = a.raise[:0]
	for r, n := range s.held {
		if n == 0 {
			continue
		}
		a.timer[r]--
		lv := int(a.level[r])
		raise := a.blocked[r] >= a.incTh[r]
		switch {
		case raise:
			s.setLevel(r, s.raisedLevel(r))
		case a.timer[r] <= 0 && lv > 0 && a.blocked[r] <= a.acorDT[lv-1]:
			s.setLevel(r, lv-1)
		}
		if raise || a.timer[r] <= 0 {
			a.timer[r], a.blocked[r] = a.acorHI, 0
		}
	}
}

// broadcastHeld writes this cycle's PB bits into history slot slot with
// router.idleUpdates=fogsim: a router that holds packets broadcasts its
// current bits; an idle one sends nothing, so its group keeps what it sent
// last (FOGSim's updatePb runs inside switchModule::action).
func (s *Sim) broadcastHeld(slot int) {
	a := &s.ad
	prev := int((s.now+a.slots-1)%a.slots) * s.R
	for r, n := range s.held {
		if n > 0 {
			a.satHist[slot+r] = a.live[r]
		} else {
			a.satHist[slot+r] = a.satHist[prev+r]
		}
	}
}

// setLevel moves router r to level lv.
func (s *Sim) setLevel(r, lv int) {
	a := &s.ad
	a.perLevel[a.level[r]]--
	a.perLevel[lv]++
	a.level[r] = uint8(lv)
	a.incTh[r] = a.increaseAt(lv)
}

// increaseAt is the blocked count that raises a router at level lv.
func (a *adaptive) increaseAt(lv int) int32 {
	if lv >= len(a.acorSeq)-1 {
		return math.MaxInt32
	}
	return a.acorIT[lv]
}

// drawIntermediate draws the Valiant intermediate router of pk at its source
// router r with phase-A policy pa; it returns the global port (0…h−1) of r
// that reaches the intermediate group when the policy picked one (CRG), or −1.
func (s *Sim) drawIntermediate(r int, pk *packet, pa uint8) int {
	rs := &s.rts[r]
	sg, dg := s.df.GroupOf(r), s.df.GroupOf(int(pk.dstRouter))
	var grp, pos int
	k := -1
	toGroup := pa == paRRGGr || pa == paCRGGr
	switch {
	case sg == dg && s.ad.restricted:
		grp, pos, toGroup = sg, rs.Intn(s.groupSize), false
	case pa == paCRGSw || pa == paCRGGr:
		k, pos = rs.Intn2(s.ad.h, s.groupSize)
		grp = int(s.ad.linked[r*s.ad.h+k])
	default: // RRG: uniform over the other groups
		grp, pos = rs.Intn2(s.groups-1, s.groupSize)
		if grp >= sg {
			grp++
		}
	}
	pk.inter = int32(grp*s.groupSize + pos)
	pk.flags &^= fInterDone | fToGroup | fNonMin
	if toGroup {
		pk.flags |= fToGroup
	}
	pk.mis = pk.mis&^0x0c | pa<<2
	return k
}

// valiantDetour tells whether pk's intermediate is off its minimal path from r.
func (s *Sim) valiantDetour(r int, pk *packet) bool {
	if pk.flags&fToGroup != 0 {
		ig := s.df.GroupOf(int(pk.inter))
		return ig != s.df.GroupOf(r) && ig != s.df.GroupOf(int(pk.dstRouter))
	}
	return int(pk.inter) != r && pk.inter != pk.dstRouter
}

// interReached tells whether pk's intermediate is reached at r: r itself,
// or r's group for an intermediate reached on entering its group.
func (s *Sim) interReached(r int, pk *packet) bool {
	if pk.flags&fToGroup != 0 {
		return r/s.groupSize == int(pk.inter)/s.groupSize
	}
	return int(pk.inter) == r
}

// misSticky (pk.mis bit 7, ACOR and PB_ACOR): an earlier attempt at
// injection routed the packet non-minimally, FOGSim's misrouted flag.
const misSticky uint8 = 1 << 7

// acorCounts tells whether a re-attempt of pk at the head of an injection VC
// counts as blocked for ACOR-Switch. paper: every ACOR re-attempt (ACOR paper
// §4.2.2: the switch counts its blocked packets, and every ACOR packet
// follows a Valiant path, even one that coincides with the minimal path);
// for PB_ACOR only when the previous attempt chose the non-minimal path
// (§4.3: packets blocked on minimal paths are not counted). fogsim: when
// any earlier attempt routed it non-minimally (the flag never clears).
func (s *Sim) acorCounts(pk *packet) bool {
	if s.ad.acorSticky {
		return pk.mis&misSticky != 0
	}
	return s.routing == routeACOR || pk.flags&fNonMin != 0
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
// non-minimal choice. True when it also routed the packet (the comparison
// found both first hops).
func (s *Sim) decideAtInjection(r int, pk *packet, retry bool) bool {
	a := &s.ad
	pa := a.phaseA
	if a.acorSeq != nil {
		if retry && !a.acorPacket && s.acorCounts(pk) {
			s.acorBlock(r)
		}
		lv := a.level[r]
		if a.acorPacket {
			lv = pk.mis >> 4 & 3
			if retry && int(lv) < len(a.acorSeq)-1 {
				lv++
			}
		}
		pk.mis = pk.mis&^0x30 | lv<<4 // the level of its latest attempt (acorStatus)
		pa = a.acorSeq[lv]
	}
	k := -1
	if !retry || a.recompute {
		k = s.drawIntermediate(r, pk, pa)
		if pk.aux >= 0 {
			pk.aux &^= auxVal // the Valiant half of the comparison's cache no longer applies
		}
	}
	pk.flags &^= fInterDone | fNonMin
	if a.acorSticky && s.routing == routeACOR && !s.interReached(r, pk) {
		pk.mis |= misSticky // FOGSim flags every packet it sends towards an intermediate
	}
	if !s.valiantDetour(r, pk) {
		pk.flags |= fInterDone
		return false
	}
	if s.routing != routeUGAL && s.routing != routePB && s.routing != routePBACOR {
		pk.flags |= fNonMin
		return false
	}
	// route along the chosen path's first hop, as the comparison found it
	c := s.compareHops(r, pk, k)
	if s.preferNonMinimal(r, pk, c) {
		pk.flags |= fNonMin
		if a.acorSticky {
			pk.mis |= misSticky // PB_ACOR's FOGSim flag: set by a non-minimal choice, never cleared
		}
		c >>= 11
	} else {
		pk.flags |= fInterDone
	}
	port, pos := int(c&127), int(c>>7&15)
	global := s.pclass[r*s.radix+port] == topology.Global
	pk.outPort, pk.outVC, pk.nextPos = int16(port), int8(s.vcAt(pos, global, pk)), int8(pos)
	return true
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
			if int(s.ad.landing[r*s.ad.h+k]) != inter {
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
func (s *Sim) preferNonMinimal(r int, pk *packet, c int32) bool {
	a := &s.ad
	if s.routing != routeUGAL && s.pbSaturated(r, int(pk.dstRouter), s.vcAt(int(s.firstPos[1]), true, pk)) {
		return true
	}
	minPort, minPos, valPort, valPos := int(c&127), int(c>>7&15), int(c>>11&127), int(c>>18&15)
	minPo, valPo := r*s.radix+minPort, r*s.radix+valPort
	minClass, valClass := s.pclass[minPo], s.pclass[valPo]
	minVC, valVC := s.vcAt(minPos, minClass == topology.Global, pk), s.vcAt(valPos, valClass == topology.Global, pk)
	var qmin, qval int32
	if a.occOther {
		qmin, qval = s.occSlow(r, minPort, minVC), s.occSlow(r, valPort, valVC)
	} else {
		qmin, qval = s.occVC(minPo, minVC, minClass), s.occVC(valPo, valVC, valClass)
	}
	if a.ugalPath { // integers: exact, as the comparison in reals
		return int64(qmin)*int64(c>>22&7) > int64(qval)*int64(c>>25&15)+int64(a.ugalT)
	}
	return float64(qmin) > a.ugalF*float64(qval)+float64(a.ugalT)
}
