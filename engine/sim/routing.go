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
	routeQCN    = uint8(routing.QCN)
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
	case routeQCN:
		if fromInj {
			s.qcnDecide(r, pk)
		}
	default:
		if fromInj && (!retry || s.rerouteInj) {
			final = !s.rerouteInj
			if s.ug.fb != nil { // UGAL on a flattened butterfly (ugal.go)
				s.fbDecide(r, pk, retry)
				return final
			}
			if s.decideAtInjection(r, pk, retry) {
				if s.fv.on {
					s.flexRouted(r, pk)
				}
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
			if pk.vcPos < s.ug.phaseB-1 { // a flattened butterfly's Valiant phase 1 starts at VC dims
				pk.vcPos = s.ug.phaseB - 1
			}
		} else {
			target = int(pk.inter)
		}
	}
	if target == r { // only with completePhaseA: phase A ends at the destination router
		return s.routeEject(r, pk)
	}
	port := s.minimalPort(r, target, pk.dst)
	class := s.pclass[r*s.radix+port]
	pos := s.seq.Next(int(pk.vcPos), class)
	if pos < 0 {
		panic(fmt.Sprintf("sim: packet %d→%d at router %d has no VC left in its sequence (position %d)", pk.src, pk.dst, r, pk.vcPos))
	}
	pk.outPort, pk.outVC, pk.nextPos = int16(port), int8(s.vcAt(pos, class == topology.Global, pk)), int8(pos)
	if s.fv.on {
		pk.outVC = s.flexK(r, pk, class, target)
	}
	return final
}

// flexRouted replaces the VC of a first hop the injection decision routed
// (decideAtInjection) by its FlexVC highest VC.
func (s *Sim) flexRouted(r int, pk *packet) {
	target := int(pk.dstRouter)
	if pk.flags&fInterDone == 0 {
		target = int(pk.inter)
	}
	pk.outVC = s.flexK(r, pk, s.pclass[r*s.radix+int(pk.outPort)], target)
}

// minimalPort picks the port of a minimal path from router r to target
// (≠ r), the router of destination node dst: the Dragonfly's one (a direct
// call, no interface); on a fat tree D-mod-k's port towards dst (its up
// ports are chosen by the destination node's digits, which target alone
// does not give); on another topology one of its minimal ports, drawn from
// the router's random stream when there are several (so that a topology
// with one minimal port, as a mesh under dimension order, draws nothing).
func (s *Sim) minimalPort(r, target int, dst int32) int {
	if s.df != nil {
		return s.df.MinimalPort(r, target)
	}
	if s.ug.fb != nil {
		return s.ug.fb.MinimalPort(r, target)
	}
	if s.ft != nil {
		return s.ft.Port(r, int(dst))
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
