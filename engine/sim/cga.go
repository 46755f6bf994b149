package sim

import (
	"fmt"
	"math"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// The in-transit routings' misrouting decision (thesis §1.4.2.2, §1.4.3;
// FOGSim's CGA trigger): the global misrouting policy, the trigger that
// fires when the minimal output cannot take the packet, and the candidate
// draw: routeInTransit (route calls it), cgaTrigger and pickCandidate
// decide; commitInTransit (commitRoute calls it) applies the misroute at the
// grant.

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

// cga is PAR's and OLM's misrouting parameters.
type cga struct {
	policy   uint8
	policyL  bool // _L: one local misroute outside the source group
	intraL   bool // OLM _L: intra-group traffic may take its local misroute (routing.intraGroupMisroute)
	trigUGAL bool // routing.trigger=ugal: UGAL's comparison per candidate
	trigAlt  bool // ugal or a contention trigger: not the cga conditions (one test on cga's path)
	// base, filtered, ectn: the trigger and candidates compare counters, so
	// the minimal output's occupancy is not read
	countOnly bool
	thMin     float64
	congCoef  float64
	congPct   int32 // congCoef in whole percent, or −1
	congT     int32
	candMax   float64
	single    bool // one random port of the class is drawn, misroute only if it qualifies
	h         int  // global ports per router
	// the congestion test reads the global links' credits (congestedNow),
	// not the per-router view, which is then not kept
	congCredits bool
	// a head may keep its minimal route while its trigger does not fire,
	// re-testing only the trigger (ccFires) at its next attempts: a counting
	// trigger (hybrid's credit condition costs more to re-test than the
	// decision), a misroute kind that is not drawn (RRG), a minimal VC that
	// does not move (no FlexVC); set by initAdaptive
	stays bool
	// pickCandidate's qualifying ports (one per port of the router: a
	// class has fewer)
	cand []uint8
	// routing.trigger=base, filtered, hybrid, ectn (or, for UGAL and PB,
	// routing.injectionTrigger=base, ectn): the contention counters
	// (contention.go, ectn.go); nil otherwise
	cc *contention
}

func (s *Sim) initCGA(rc config.Routing, h int) {
	c := &s.cga
	switch rc.Policy {
	case "CRG", "CRG_L":
		c.policy = polCRG
	case "RRG", "RRG_L":
		c.policy = polRRG
	case "NRG", "NRG_L":
		c.policy = polNRG
	default:
		c.policy = polMM
	}
	c.policyL = len(rc.Policy) > 2 && rc.Policy[len(rc.Policy)-2:] == "_L"
	c.intraL = c.policyL && rc.IntraGroupMis && s.routing == routeOLM
	c.trigUGAL = rc.Trigger == "ugal"
	c.trigAlt = rc.Trigger != "cga"
	c.thMin, c.congCoef, c.congT, c.candMax = rc.ThMin, rc.CongestedCoef/100, int32(rc.CongestedT*float64(s.P)), rc.CandidateMax/100
	c.congPct = wholePercent(rc.CongestedCoef)
	// FOGSim's OLM draws one candidate, its PAR takes all that qualify
	c.single = rc.Candidates == "single" || rc.Candidates == "fogsim" && s.routing == routeOLM
	c.h = h
	c.cand = make([]uint8, s.radix)
	// per-VC occupancy of every packet, static buffers: a global link's
	// view is its buffer less its credits, read at the test (congested
	// reads a copy kept at every grant and credit of a global link)
	c.congCredits = rc.Congestion == "perVC" && s.dq.used == nil
	s.initContention(rc)
}

// readsCongestion: cgaTrigger may reach its global-link congestion test,
// which reads the per-router view of the global links (the cga trigger,
// and hybrid's credit condition); ugal and the counting triggers never do,
// so that view is not kept for them (it costs an update per grant and
// credit of a global link).
func (a *cga) readsCongestion() bool {
	return (!a.trigAlt || a.cc != nil && a.cc.mode == ccHybrid) && !a.congCredits
}

// routeInTransit is PAR and OLM: minimal unless the trigger fires where the
// global misrouting policy allows a non-minimal hop (thesis §1.4.2.2, §1.4.3;
// FOGSim's CGA trigger). The misroute is applied when the packet is granted.
// Final when no misroute is possible here: the minimal hop then stays.
func (s *Sim) routeInTransit(r int, pk *packet, fromInj bool) bool {
	a := &s.cga
	dst := int(pk.dstRouter)
	var minPort int
	if t := pk.aux; t < -1 && int(-2-t)>>9 == r { // the contention counters found it (minPortTag)
		v := int(-2 - t)
		if v&tagStays != 0 && !s.ccFires(r, v&255, pk, fromInj) {
			// this head's attempt before, here, took the minimal hop
			// because the trigger did not fire, and only the trigger can
			// change that decision: pk still holds that route (a waiting
			// head's attempts cost this test, not the whole decision)
			return false
		}
		minPort = v & 255
	} else {
		minPort = s.df.MinimalPort(r, dst) // PAR and OLM are Dragonfly routings
	}
	// a Dragonfly's port classes are the same at every router, and
	// minPort is a transit port (dst ≠ r): no table read
	minGlobal, minClass := minPort >= s.firstGlobal, topology.Local
	if minGlobal {
		minClass = topology.Global
	}
	minPos := s.seq.Next(int(pk.vcPos), minClass)
	minVC := s.vcAt(minPos, minGlobal, pk)
	outVC := minVC
	if s.fv.on {
		// FlexVC: the minimal hop is safe, its highest VC the route; the
		// trigger and occupancy read its best allowed VC (a misroute is
		// opportunistic: flexChoose knows it by its pending kind)
		outVC = int(s.flexK(r, pk, minClass, dst))
		minVC = s.flexBest(r*s.radix+minPort, int8(outVC))
	}
	// a packet is in its source group until its first global hop (a
	// Dragonfly path never comes back to it)
	inSource := pk.ghops == 0
	cg, dg := s.df.GroupOf(r), int(pk.dstGroup)

	kind := misNone
	switch {
	case pk.flags&fMandatory != 0:
		kind = misGlobalMandatory
	case inSource && cg != dg && pk.flags&fGlobalMis == 0:
		localDone := pk.flags&fLocalMis != 0
		switch a.policy {
		case polCRG:
			if !localDone {
				kind = misGlobal
			}
		case polNRG:
			if !localDone {
				kind = misLocal
			}
		case polRRG:
			if !localDone {
				kind = misGlobal
				if s.rts[r].Intn(s.groupSize) != 0 { // (a−1)/a: a link of another router
					kind = misLocal
				}
			}
		case polMM:
			if fromInj {
				kind = misGlobal
			} else if !localDone {
				kind = misLocalMM
			}
		}
	case a.policyL && (!inSource || a.intraL && cg == dg) && pk.flags&fLocalMis == 0 && !minGlobal && (s.routing == routeOLM || cg != dg):
		// _L: one local misroute outside the source group (OLM: also in an
		// intra-group packet's own group, with routing.intraGroupMisroute)
		kind = misLocal
	}
	pending := misNone
	port, vc, pos := minPort, outVC, minPos
	if kind != misNone {
		var qmin int32
		var fire bool
		if a.countOnly {
			// Base, Filtered, ECtN compare counters, not occupancies
			// (thesis §4.2.1; inline, no call): the minimal output's
			// contention or, for ECtN at the source router, the combined
			// counter of the destination group (§4.2.1.4)
			// (cgaTrigger's contention branch)
			// (Filtered: a cold port is not contended, no closed form)
			cc, po := a.cc, r*s.radix+minPort
			fire = kind == misGlobalMandatory || (cc.avg == nil || !cc.avg[po].cold) && cc.contended(po, s.now) ||
				fromInj && cc.groupContended(r, cg, dg)
		} else {
			// the minimal output's occupancy, read where it is compared:
			// the thMin test, or a candidate's (pickCandidate; −1 until read)
			qmin = -1
			if a.thMin > 0 {
				qmin = s.occ(r, minPort, minVC)
			}
			fire = kind == misGlobalMandatory || s.cgaTrigger(r, minPort, minVC, qmin, fromInj, dg)
		}
		if fire {
			if a.stays {
				s.keepRoute(r, pk, 0) // it may not stay: the trigger fired
			}
			if cp, cv, cpos, ok := s.pickCandidate(r, pk, kind, minPort, minVC, qmin, fromInj); ok {
				port, vc, pos, pending = cp, cv, cpos, kind
			} else if kind == misGlobalMandatory && !minGlobal {
				// only global outputs may be requested: wait on a random one
				k := s.rts[r].Intn(a.h)
				port = s.firstGlobal + k
				pos = s.seq.Next(int(pk.vcPos), topology.Global)
				vc, pending = s.vcAt(pos, true, pk), kind
				if s.fv.on {
					vc = int(s.flexOppK(r, pk, true) & fkMask)
				}
			}
		} else if a.stays {
			// the next attempt of this head here re-tests the trigger only
			// (ccFires) when nothing else of this decision can change
			s.keepRoute(r, pk, tagStays)
		}
	}
	if pos < 0 {
		panic(fmt.Sprintf("sim: packet %d→%d at router %d has no VC left in its sequence (position %d)", pk.src, pk.dst, r, pk.vcPos))
	}
	pk.outPort, pk.outVC, pk.nextPos = int16(port), int8(vc), int8(pos)
	pk.mis = pk.mis&^0x70 | pending<<4
	return kind == misNone
}

// keepRoute sets (bit tagStays) or clears (0) the flag of pk's minPortTag
// at router r that lets its next attempt here re-test the trigger only
// (routeInTransit; no tag of r: nothing to do).
func (s *Sim) keepRoute(r int, pk *packet, bit int) {
	if t := pk.aux; t < -1 && int(-2-t)>>9 == r {
		pk.aux = minPortTag(r, int(-2-t)&255|bit)
	}
}

// ccFires is routeInTransit's counting trigger (Base, Filtered, ECtN) for
// a head whose route at router r is the minimal port minPort and whose
// misroute is allowed, neither mandatory nor drawn: the minimal output's
// counter and, at injection, ECtN's group counter (thesis §4.2.1).
func (s *Sim) ccFires(r, minPort int, pk *packet, fromInj bool) bool {
	cc := s.cga.cc
	po := r*s.radix + minPort
	if cc.ectn == nil {
		if cc.avg != nil && cc.avg[po].cold {
			// Filtered: from its last value the average moves toward the
			// counter, both below th (also in floating point: avg − cnt is
			// exact, an integer off a value of avg's ulp, and the steps
			// round monotonically), so it is below th without computing it
			return false
		}
		return cc.contended(po, s.now)
	}
	return cc.cnt[po] >= cc.th || fromInj && cc.groupContended(r, s.df.GroupOf(r), int(pk.dstGroup))
}

// outputReady: output po can take a packet across the crossbar now.
func (s *Sim) outputReady(po int) bool {
	return int64(s.ports[po].readyAt) <= s.now
}

// cgaTrigger: misroute when the minimal output cannot take the packet now
// (no credits or busy), its occupancy qmin is at least thMin (qmin is read
// only when thMin > 0), and — for a global link — the link is congested
// relative to the router's other global links.
// fromInj, dg: the packet is at its source router, bound for group dg
// (ECtN reads its combined counter then, when dg is another group).
func (s *Sim) cgaTrigger(r, minPort, minVC int, qmin int32, fromInj bool, dg int) bool {
	a := &s.cga
	po := r*s.radix + minPort
	if a.trigAlt {
		cc := a.cc
		if cc == nil {
			return true // ugal: the comparison is made per candidate
		}
		// contention (thesis §4.2.1): the minimal output's counter, or
		// ECtN's group counter at injection; hybrid also misroutes on the
		// credit condition below (§4.2.1.3). routeInTransit tests the
		// countOnly triggers itself, inline.
		if a.countOnly {
			return cc.contended(po, s.now) || fromInj && cc.groupContended(r, s.df.GroupOf(r), dg)
		}
		if cc.cnt[po] >= cc.th { // hybrid: the counter itself (never filtered)
			return true
		}
	}
	c := s.ports[po].class
	// (thMin = 0 passes every occupancy: qmin is not read then)
	if a.thMin > 0 && float64(qmin)*100 < a.thMin*float64(s.senseCap(c)) {
		return false
	}
	if s.credits[po*s.maxVC+minVC] >= int32(s.P) && s.outputReady(po) {
		return false
	}
	if c == topology.Global {
		k := minPort - s.firstGlobal
		if s.ov.gocc == nil {
			return s.congestedNow(r, k, minVC)
		}
		return s.congested(r, k, minVC, a.congCoef, a.congPct, a.congT)
	}
	return true
}

// congestedNow is congested (the CGA trigger's test of global port k of
// router r, VC vc) on the occupancies its credits give: per VC, of every
// packet, with static buffers, the view congested reads is exactly the
// buffer less the credits (both change at the grant and at the credit's
// arrival only).
func (s *Sim) congestedNow(r, k, vc int) bool {
	a, o := &s.cga, &s.ov
	cr := s.credits[(r*s.radix+s.firstGlobal)*s.maxVC+vc:]
	cr = cr[:(a.h-1)*s.maxVC+1] // the h links' entries of vc, no bounds check in the loop
	cap := o.occCap[topology.Global]
	var total int32
	for j := 0; j < len(cr); j += s.maxVC {
		total += cap - cr[j]
	}
	return cap-cr[k*s.maxVC] > o.limit(total, a.congCoef, a.congPct, a.congT)
}

// pickCandidate draws a non-minimal output of the class the misroute kind
// needs, among those that can take the packet now and are not much fuller
// than the minimal one (candidateMax·qmin; UGAL trigger: qmin > F·q + T), in
// fractions of buffer capacity. With routing.candidates=single it draws one
// port of the class instead and reports whether that one qualifies.
// qmin is the minimal output's occupancy, or −1 when not read yet (it is
// read here only if a comparison needs it).
func (s *Sim) pickCandidate(r int, pk *packet, kind uint8, minPort, minVC int, qmin int32, fromInj bool) (port, vc, pos int, ok bool) {
	a := &s.cga
	global := kind == misGlobal || kind == misGlobalMandatory
	lo, hi, class := s.df.FirstLocalPort(), s.firstGlobal, topology.Local
	if global {
		lo, hi, class = s.firstGlobal, s.radix, topology.Global
	}
	// the VC the packet takes on a port of that class
	pos = s.seq.Next(int(pk.vcPos), class)
	if !global && s.routing == routeOLM && !fromInj && pk.vcPos >= 0 {
		pos = int(pk.vcPos) // opportunistic: reuse the latest local VC
		vc = s.seq.LocalAtOrBefore(pos)
		if pk.flags&fReply != 0 {
			vc += int(s.replyOffL)
		}
	} else if pos >= 0 {
		vc = s.vcAt(pos, global, pk)
	}
	if pos < 0 {
		return 0, 0, 0, false
	}
	if s.fv.on { // FlexVC: a candidate qualifies on the highest VC its escape allows
		vc = int(s.flexOppK(r, pk, global) & fkMask)
	}
	// occupancies compare as fractions of each buffer's capacity (a global
	// buffer is 8× a local one), as FOGSim's percentages
	base := r * s.radix
	// contention triggers: a candidate qualifies when its own contention is
	// below the threshold instead of by occupancy (thesis §4.2.1.1); hybrid
	// compares occupancies as cga does when only the credit condition fired
	// (the minimal output is not contended); a mandatory misroute takes any
	// port that can take the packet. Tested at the call sites, so that
	// qualifies stays small enough to be inlined.
	byCount := false
	if a.trigAlt && a.cc != nil {
		byCount = kind != misGlobalMandatory && (a.cc.mode != ccHybrid || a.cc.contended(base+minPort, s.now))
	}
	if qmin < 0 && !byCount && kind != misGlobalMandatory { // not read by cgaTrigger
		qmin = s.occ(r, minPort, minVC)
	}
	qminPct := float64(qmin) / float64(s.senseCap(s.ports[base+minPort].class))
	candCap := float64(s.senseCap(topology.Local))
	if global {
		candCap = float64(s.senseCap(topology.Global))
	}
	limit := a.candMax * qminPct
	if byCount {
		limit = math.Inf(1)
	}
	qualifies := func(port int) bool {
		po := base + port
		if port == minPort || !s.outputReady(po) || s.credits[po*s.maxVC+vc] < int32(s.P) {
			return false
		}
		if kind == misGlobalMandatory {
			return true
		}
		q := float64(s.occ(r, port, vc)) / candCap
		if a.trigUGAL {
			return qminPct > s.ug.f*q+float64(s.ug.t)/candCap
		}
		return q <= limit
	}
	if a.single { // FOGSim's OLM: one port of the class, the minimal one included
		p := lo + s.rts[r].Intn(hi-lo)
		return p, vc, pos, qualifies(p) && (!byCount || !a.cc.contended(base+p, s.now))
	}
	// the qualifying ports in one pass (the test reads the state only: a
	// second pass to find the drawn one would find the same ports)
	cand := a.cand[:hi-lo]
	n := 0
	for p := lo; p < hi; p++ {
		if qualifies(p) && (!byCount || !a.cc.contended(base+p, s.now)) {
			cand[n] = uint8(p)
			n++
		}
	}
	if n == 0 {
		return 0, 0, 0, false
	}
	return int(cand[s.rts[r].Intn(n)]), vc, pos, true
}

// intraGroup: pk's source and destination routers are in one group (only
// then, with routing.intraGroupMisroute, can it misroute there).
func (s *Sim) intraGroup(pk *packet) bool {
	return s.cga.intraL && s.df.GroupOf(int(pk.src)/s.p) == s.df.GroupOf(int(pk.dstRouter))
}

// commitInTransit applies a PAR/OLM misroute decided by routeInTransit.
func (s *Sim) commitInTransit(out topology.PortClass, pk *packet) {
	switch pk.mis >> 4 & 7 {
	case misLocal, misLocalMM:
		pk.flags |= fLocalMis | fNonMin
		if pk.ghops == 0 && pk.flags&fGlobalMis == 0 && !s.intraGroup(pk) { // in the source group
			// a local misroute in the source group forces a global
			// misroute at the next router (livelock guard); not for
			// intra-group traffic, whose group is its destination's
			pk.flags |= fMandatory
		}
	case misGlobal, misGlobalMandatory:
		pk.flags |= fGlobalMis | fNonMin
		pk.flags &^= fMandatory
	}
	pk.mis &^= 0x70
	if out == topology.Global {
		if pk.ghops == 0 {
			s.st.maxLocalBeforeGlobal = max(s.st.maxLocalBeforeGlobal, int(pk.lhops))
		}
		pk.flags &^= fMandatory | fLocalMis // a new group: new local allowance
	}
}
