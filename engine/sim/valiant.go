package sim

import (
	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// Valiant's intermediate draw (thesis §1.4.1.2; the phase-A policies of the ACOR
// paper, Table 1): the state every routing of the Valiant family reads at
// injection, ACOR and the source-adaptive ones included.

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

// valiant is the intermediate draw's parameters and the tables of the
// groups each router's global links reach (CRG draws).
type valiant struct {
	phaseA     uint8
	restricted bool // intra-group packets draw an intermediate in their group
	recompute  bool // a new intermediate at every attempt at injection
	h          int  // global ports per router
	// per (router, global port k): the group it reaches, and the router
	linked, landing []int32
}

func (s *Sim) initValiant(rc config.Routing, phaseA string, df *topology.Dragonfly) {
	v := &s.vl
	v.phaseA = parsePhaseA(phaseA)
	v.restricted, v.recompute = rc.Restricted, rc.Recompute
	v.h = df.H
	v.linked, v.landing = make([]int32, s.R*v.h), make([]int32, s.R*v.h)
	for r := 0; r < s.R; r++ {
		for k := 0; k < v.h; k++ {
			peer, _ := s.topo.Link(r, s.firstGlobal+k)
			v.linked[r*v.h+k], v.landing[r*v.h+k] = int32(df.GroupOf(peer)), int32(peer)
		}
	}
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
	case sg == dg && s.vl.restricted:
		grp, pos, toGroup = sg, rs.Intn(s.groupSize), false
	case pa == paCRGSw || pa == paCRGGr:
		k, pos = rs.Intn2(s.vl.h, s.groupSize)
		grp = int(s.vl.linked[r*s.vl.h+k])
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
