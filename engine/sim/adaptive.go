package sim

import (
	"phitsim/engine/config"
	"phitsim/engine/routing"
	"phitsim/engine/topology"
)

// Adaptive routing on a Dragonfly: each mechanism keeps its state in its own
// struct and file — Valiant's intermediate draw (valiant.go), UGAL's
// comparison (ugal.go), the occupancy view (occupancy.go), PiggyBack
// (piggyback.go), ACOR (acor.go) and the in-transit misrouting of PAR and
// OLM (cga.go). This file builds them and runs the decision at injection
// that combines them. The per-cycle work (PB's broadcast, ACOR-Switch's
// levels) runs as cycle hooks (mechanism.go); the per-packet work stays in
// direct calls, which cost fewer instructions than a hook.

// Where the first non-minimal decision was taken (result categories).
const (
	catNone uint8 = iota
	catInjection
	catSourceGroup
	catIntermediate
)

// initAdaptive builds the state of the adaptive mechanisms the routing uses.
// e is the routing's table entry.
func (s *Sim) initAdaptive(cfg config.Config, e *routing.Entry, df *topology.Dragonfly, globalVCs int) {
	rc := cfg.Routing
	s.initValiant(rc, cfg.PhaseA(), df)
	s.initUGAL(rc)
	s.initCGA(rc, df.H)
	if cc := s.cga.cc; cc != nil && cc.tag && cc.mode != ccHybrid && s.cga.policy != polRRG && !cfg.Router.FlexVC {
		s.cga.stays = true
	}
	// the per-router view of the global links: PB's bits, the CGA
	// trigger's congestion test (the in-transit routings, unless their
	// trigger never reaches it), and every minimal-only count (UGAL
	// otherwise reads credits)
	tracked := e.Keeps(routing.PiggyBack) || e.Decision == routing.EachHopAttempt && s.cga.readsCongestion() ||
		rc.Congestion == "perVCMin" || rc.Congestion == "perPortMin"
	s.initOccView(rc, df.H, globalVCs, tracked)
	if e.Keeps(routing.PiggyBack) {
		s.initPiggyBack(rc, df)
	}
	if e.Keeps(routing.Levels) {
		s.initACOR(rc)
	}
	// UGAL's comparison of the minimal and non-minimal first hops at
	// injection: the routings that take its parameters
	s.compare = e.Uses("routing.ugalMode")
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
	a := &s.acor
	pa := s.vl.phaseA
	if a.seq != nil {
		if retry && !a.packet && s.acorCounts(pk) {
			s.acorBlock(r)
		}
		lv := a.level[r]
		if a.packet {
			lv = pk.mis >> 4 & 3
			if retry && int(lv) < len(a.seq)-1 {
				lv++
			}
		}
		pk.mis = pk.mis&^0x30 | lv<<4 // the level of its latest attempt (acorStatus)
		pa = a.seq[lv]
	}
	k := -1
	if !retry || s.vl.recompute {
		k = s.drawIntermediate(r, pk, pa)
		if pk.aux >= 0 {
			pk.aux &^= auxVal // the Valiant half of the comparison's cache no longer applies
		}
	}
	pk.flags &^= fInterDone | fNonMin
	if a.sticky && s.routing == routeACOR && !s.interReached(r, pk) {
		pk.mis |= misSticky // FOGSim flags every packet it sends towards an intermediate
	}
	if !s.valiantDetour(r, pk) {
		pk.flags |= fInterDone
		return false
	}
	if !s.compare {
		pk.flags |= fNonMin
		return false
	}
	// route along the chosen path's first hop, as the comparison found it
	c := s.compareHops(r, pk, k)
	if s.preferNonMinimal(r, pk, c) {
		pk.flags |= fNonMin
		if a.sticky {
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
