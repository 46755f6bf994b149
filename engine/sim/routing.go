package sim

import (
	"fmt"

	"phitsim/engine/routing"
	"phitsim/engine/topology"
)

// Routing kinds (routing.Kind, the table's): the hot path switches on them
// as plain integers. Each comparison with one of them left in the simulator
// is that routing's own code.
const (
	routeMIN    = uint8(routing.MIN)
	routeVAL    = uint8(routing.VAL) // VAL and VAL_GROUP: Valiant with a phase-A policy
	routeUGAL   = uint8(routing.UGAL)
	routePB     = uint8(routing.PB)
	routePAR    = uint8(routing.PAR)
	routeOLM    = uint8(routing.OLM)
	routeACOR   = uint8(routing.ACOR)
	routePBACOR = uint8(routing.PBACOR)
)

// route computes the output port and VC of head packet pk at router r and
// caches them in the packet. fromInj: the packet is in an injection buffer;
// retry: this head was routed before and did not move. It returns whether
// the route is final: the same at every later attempt of this head, so the
// allocator need not route it again (adaptive decisions are redone at each
// attempt only when they read the network's state or draw at random).
func (s *Sim) route(r int, pk *packet, fromInj, retry bool) bool {
	// routing.completePhaseA: a Valiant packet is not delivered before it
	// has reached its intermediate (it may not have drawn it yet)
	if int(pk.dstRouter) == r && !(s.completeA && (fromInj || pk.flags&fInterDone == 0)) {
		return s.routeEject(r, pk)
	}
	final := true
	switch s.routing {
	case routeMIN:
	case routePAR, routeOLM:
		return s.routeInTransit(r, pk, fromInj)
	default:
		if fromInj && (!retry || s.rerouteInj) {
			final = !s.rerouteInj
			if s.decideAtInjection(r, pk, retry) {
				return final
			}
		}
	}
	// follow the path: minimal to the intermediate (until reached), then
	// minimal to the destination
	target := int(pk.dstRouter)
	if pk.flags&fInterDone == 0 {
		if s.interReached(r, pk) {
			pk.flags |= fInterDone
		} else {
			target = int(pk.inter)
		}
	}
	if target == r { // only with completePhaseA: phase A ends at the destination router
		return s.routeEject(r, pk)
	}
	port := s.minimalPort(r, target)
	class := s.pclass[r*s.radix+port]
	pos := s.seq.Next(int(pk.vcPos), class)
	if pos < 0 {
		panic(fmt.Sprintf("sim: packet %d→%d at router %d has no VC left in its sequence (position %d)", pk.src, pk.dst, r, pk.vcPos))
	}
	pk.outPort, pk.outVC, pk.nextPos = int16(port), int8(s.vcAt(pos, class == topology.Global, pk)), int8(pos)
	return final
}

// minimalPort picks the port of a minimal path from router r to target
// (≠ r): the Dragonfly's one (a direct call, no interface); on another
// topology one of its minimal ports, drawn from the router's random stream
// when there are several (so that a topology with one minimal port, as a
// mesh under dimension order, draws nothing).
func (s *Sim) minimalPort(r, target int) int {
	if s.df != nil {
		return s.df.MinimalPort(r, target)
	}
	s.minPorts = s.topo.MinimalPorts(r, target, s.minPorts[:0])
	if len(s.minPorts) == 1 {
		return s.minPorts[0]
	}
	return s.minPorts[s.rts[r].Intn(len(s.minPorts))]
}

// routeEject routes pk, at its destination router r, to its node's ejection port.
func (s *Sim) routeEject(r int, pk *packet) bool {
	pk.outPort = int16(int(s.nodeAt[pk.dst].pi) - r*s.radix)
	pk.outVC = 0
	pk.nextPos = pk.vcPos
	return true
}

// routeInTransit is PAR and OLM: minimal unless the trigger fires where the
// global misrouting policy allows a non-minimal hop (thesis §1.4.2.2, §1.4.3;
// FOGSim's CGA trigger). The misroute is applied when the packet is granted.
// Final when no misroute is possible here: the minimal hop then stays.
func (s *Sim) routeInTransit(r int, pk *packet, fromInj bool) bool {
	a := &s.cga
	dst := int(pk.dstRouter)
	minPort := s.df.MinimalPort(r, dst) // PAR and OLM are Dragonfly routings
	minClass := s.pclass[r*s.radix+minPort]
	minGlobal := minClass == topology.Global
	minPos := s.seq.Next(int(pk.vcPos), minClass)
	minVC := s.vcAt(minPos, minGlobal, pk)
	// a packet is in its source group until its first global hop (a
	// Dragonfly path never comes back to it)
	inSource := pk.ghops == 0
	cg, dg := s.df.GroupOf(r), s.df.GroupOf(dst)

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
	port, vc, pos := minPort, minVC, minPos
	if kind != misNone {
		qmin := s.occ(r, minPort, minVC)
		if kind == misGlobalMandatory || s.cgaTrigger(r, minPort, minVC, qmin) {
			if cp, cv, cpos, ok := s.pickCandidate(r, pk, kind, minPort, minVC, qmin, fromInj); ok {
				port, vc, pos, pending = cp, cv, cpos, kind
			} else if kind == misGlobalMandatory && !minGlobal {
				// only global outputs may be requested: wait on a random one
				k := s.rts[r].Intn(a.h)
				port = s.firstGlobal + k
				pos = s.seq.Next(int(pk.vcPos), topology.Global)
				vc, pending = s.vcAt(pos, true, pk), kind
			}
		}
	}
	if pos < 0 {
		panic(fmt.Sprintf("sim: packet %d→%d at router %d has no VC left in its sequence (position %d)", pk.src, pk.dst, r, pk.vcPos))
	}
	pk.outPort, pk.outVC, pk.nextPos = int16(port), int8(vc), int8(pos)
	pk.mis = pk.mis&^0x70 | pending<<4
	return kind == misNone
}

// outputReady: output po can take a packet across the crossbar now.
func (s *Sim) outputReady(po int) bool {
	return int64(s.ports[po].readyAt) <= s.now
}

// cgaTrigger: misroute when the minimal output cannot take the packet now
// (no credits or busy), its occupancy is at least thMin, and — for a global
// link — the link is congested relative to the router's other global links.
func (s *Sim) cgaTrigger(r, minPort, minVC int, qmin int32) bool {
	a := &s.cga
	if a.trigUGAL {
		return true // the comparison is made per candidate
	}
	po := r*s.radix + minPort
	c := s.ports[po].class
	if float64(qmin)*100 < a.thMin*float64(s.bufCap[c]) {
		return false
	}
	if s.credits[po*s.maxVC+minVC] >= int32(s.P) && s.outputReady(po) {
		return false
	}
	if c == topology.Global {
		k := minPort - s.firstGlobal
		return s.congested(r, k, minVC, a.congCoef, a.congPct, a.congT)
	}
	return true
}

// pickCandidate draws a non-minimal output of the class the misroute kind
// needs, among those that can take the packet now and are not much fuller
// than the minimal one (candidateMax·qmin; UGAL trigger: qmin > F·q + T), in
// fractions of buffer capacity. With routing.candidates=single it draws one
// port of the class instead and reports whether that one qualifies.
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
	// occupancies compare as fractions of each buffer's capacity (a global
	// buffer is 8× a local one), as FOGSim's percentages
	base := r * s.radix
	qminPct := float64(qmin) / float64(s.bufCap[s.ports[base+minPort].class])
	candCap := float64(s.bufCap[topology.Local])
	if global {
		candCap = float64(s.bufCap[topology.Global])
	}
	limit := a.candMax * qminPct
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
		return p, vc, pos, qualifies(p)
	}
	n := 0
	for p := lo; p < hi; p++ {
		if qualifies(p) {
			n++
		}
	}
	if n == 0 {
		return 0, 0, 0, false
	}
	pick := s.rts[r].Intn(n)
	for p := lo; p < hi; p++ {
		if qualifies(p) {
			if pick == 0 {
				return p, vc, pos, true
			}
			pick--
		}
	}
	return 0, 0, 0, false
}

// commitRoute applies, when pk is granted an output of class out from an
// input of class in, the routing state its route implies. Source routings decide
// only at injection; the in-transit ones (PAR, OLM) also set the misrouting
// flags and the livelock guard here.
func (s *Sim) commitRoute(in, out topology.PortClass, pk *packet) {
	fromInj := in == topology.Injection
	if fromInj {
		pk.aux = -1 // drop the injection decision's cache (see preferNonMinimal)
	}
	if s.rerouteAll {
		s.commitInTransit(out, pk)
	}
	if pk.flags&fNonMin != 0 && pk.mis&3 == catNone {
		switch {
		case fromInj:
			pk.mis |= catInjection
		case pk.ghops == 0: // still in the source group
			pk.mis |= catSourceGroup
		default:
			pk.mis |= catIntermediate
		}
	}
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
