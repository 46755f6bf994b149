package sim

import (
	"fmt"

	"phitsim/engine/topology"
)

// route computes the output port and VC of head packet pk at router r and
// caches them in the packet until it moves. Oblivious routings: MIN; VAL goes
// minimally to a random intermediate router, then minimally to the
// destination; VAL_GROUP to a random intermediate group, switching to minimal
// as soon as it enters that group (thesis §1.4.1).
func (s *Sim) route(r int, pk *packet) {
	if int(pk.dstRouter) == r {
		pk.outPort = int16(int(pk.dst) % s.p)
		pk.outVC = 0
		pk.nextPos = pk.vcPos
		return
	}
	target := int(pk.dstRouter)
	if pk.flags&fInterDone == 0 {
		switch s.routing {
		case routeVAL:
			if int(pk.inter) == r {
				pk.flags |= fInterDone
			} else {
				target = int(pk.inter)
			}
		case routeValGroup:
			if r/s.groupSize == int(pk.inter) {
				pk.flags |= fInterDone
			} else {
				target = int(pk.inter) * s.groupSize
			}
		}
	}
	port := s.topo.MinimalPort(r, target)
	global := s.ports[r*s.radix+port].class == topology.Global
	pos := s.seq.Next(int(pk.vcPos), global)
	if pos < 0 {
		panic(fmt.Sprintf("sim: packet %d→%d at router %d has no VC left in its sequence (position %d)", pk.src, pk.dst, r, pk.vcPos))
	}
	vc := int8(s.seq[pos].VC)
	if pk.flags&fReply != 0 {
		if global {
			vc += s.replyOffG
		} else {
			vc += s.replyOffL
		}
	}
	pk.outPort, pk.outVC, pk.nextPos = int16(port), vc, int8(pos)
}

// chooseIntermediate draws the Valiant intermediate of a new packet, with the
// source router's stream, and marks the packet non-minimal when the detour is
// real.
func (s *Sim) chooseIntermediate(pk *packet, srcRouter int) {
	pk.inter = -1
	switch s.routing {
	case routeVAL:
		pk.inter = int32(s.rts[srcRouter].Intn(s.R))
		if int(pk.inter) != srcRouter && pk.inter != pk.dstRouter {
			pk.flags |= fNonMin
		}
		return
	case routeValGroup:
		sg, dg := srcRouter/s.groupSize, int(pk.dstRouter)/s.groupSize
		if sg != dg {
			g := s.rts[srcRouter].Intn(s.topo.Groups() - 1)
			if g >= sg {
				g++
			}
			pk.inter = int32(g)
			if g != dg {
				pk.flags |= fNonMin
			}
			return
		}
	}
	pk.flags |= fInterDone
}
