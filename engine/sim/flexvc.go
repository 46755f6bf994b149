package sim

import (
	"fmt"
	"math"
	"math/bits"

	"phitsim/engine/config"
	"phitsim/engine/topology"
	"phitsim/engine/vcs"
)

// FlexVC (router.flexVC; thesis §5.2): route gives each transit hop its
// highest allowed VC k (flexK, from tables vcs's rule fills at New), and the
// allocator takes, at every attempt, a VC 0…k of the output that can hold
// the whole packet, by the selection policy (flexChoose). An opportunistic
// hop whose VCs are all full reverts to the minimal path (its escape).
//
// A hop's rest of path is coded as a small integer: 1<<len | bits, bit i set
// when hop i is global, so that the tables are indexed without a map and
// two rests join with shifts (flexCat).
const (
	sEmpty = 1          // ""
	sL     = 0b10       // "l"
	sG     = 0b11       // "g"
	sGL    = 0b101      // "g l"
	sLGL   = 0b1010     // "l g l"
	fkOpp  = int8(0x40) // in pk.outVC: the hop is opportunistic
	fkMask = int8(0x3f)
)

// VC selection policies (router.vcSelection).
const (
	selJSQ uint8 = iota
	selHighest
	selLowest
	selRandom
)

// flexVC is FlexVC's state: the selection policy and, per [reply][local,
// global][rest], the highest VC of a safe hop (−1: not safe) and of an
// opportunistic hop given its escape.
type flexVC struct {
	on  bool
	sel uint8
	// oppA[reply]: the routing's non-minimal path (its VC sequence, the
	// worst case) is not safe (thesis Tables 5.3–5.4: opp.), so that every
	// hop towards the intermediate is opportunistic: a packet that took one
	// is in a VC from which only its escape is increasing (Definition 2),
	// even where the rest of its plan would fit after the hop
	oppA      [2]bool
	safe, opp [2][2][128]int8
}

// initFlex fills the tables from the configuration's reference sequences
// (vcs.DragonflyFlex; the validator refused the configurations with a hop
// without escape). Replies sense, as their distance-based VC, the first of
// the reply subsequence (vcAt's offsets).
func (s *Sim) initFlex(cfg config.Config) error {
	_, lv, gv := cfg.VCs()
	rl, rg := cfg.FlexReply()
	f, err := vcs.DragonflyFlex(lv, gv, rl, rg)
	if err != nil {
		return err
	}
	v := &s.fv
	v.on = true
	v.sel = map[string]uint8{"": selJSQ, "jsq": selJSQ, "highest": selHighest, "lowest": selLowest, "random": selRandom}[cfg.Router.VCSelection]
	for rep := range 2 {
		for ci, c := range []topology.PortClass{topology.Local, topology.Global} {
			for code := 1; code < 128; code++ {
				rest := make(vcs.Path, bits.Len(uint(code))-1)
				for i := range rest {
					rest[i] = topology.Local
					if code>>i&1 != 0 {
						rest[i] = topology.Global
					}
				}
				v.safe[rep][ci][code] = int8(f.Safe(rep == 1, c, rest))
				v.opp[rep][ci][code] = int8(f.Opp(rep == 1, c, rest))
			}
		}
	}
	for rep := range 2 {
		v.oppA[rep] = f.Verdict(rep == 1, s.seq.Path(), vcs.DragonflyMIN) != vcs.Safe
	}
	if rl != 0 {
		s.replyOffL, s.replyOffG = int8(lv-rl), int8(gv-rg)
	}
	return nil
}

// flexCat joins two coded rests of path, a then b.
func flexCat(a, b int) int {
	la := bits.Len(uint(a)) - 1
	return b<<la | a&^(1<<la)
}

// flexK is the highest VC of pk's hop from router r over a port of class c
// towards target (its Valiant intermediate while in phase A, else its
// destination), with fkOpp when the hop is opportunistic (oppA). The rests are the
// worst cases of the Dragonfly's minimal paths (a shorter real path only
// allows more, so they are safe): phase B's rest is the minimal path; in
// phase A the plan is the path to the intermediate and on to the
// destination, and the escape the minimal path from the next router.
func (s *Sim) flexK(r int, pk *packet, c topology.PortClass, target int) int8 {
	df := s.df
	dst := int(pk.dstRouter)
	rep := 0
	if pk.flags&fReply != 0 {
		rep = 1
	}
	ci := 0
	if c == topology.Global {
		ci = 1
	}
	gr, gd := df.GroupOf(r), df.GroupOf(dst)
	if target == dst {
		rest := sL // after a global hop: the destination group's local hop
		if c == topology.Local {
			rest = sGL
			if gr == gd {
				rest = sEmpty
			}
		}
		return s.fv.safe[rep][ci][rest]
	}
	gi := df.GroupOf(target)
	m := sLGL // from the intermediate to the destination
	if gi == gd {
		m = sL
	}
	toGroup := pk.flags&fToGroup != 0
	var plan, esc int
	switch {
	case c == topology.Global:
		// into the intermediate's group
		plan = flexCat(sL, m)
		if toGroup {
			plan = m
		}
		esc = sLGL
		if gi == gd {
			esc = sL
		}
	case gr == gi: // to the intermediate router
		plan, esc = m, m
	default: // to the gateway towards the intermediate's group
		plan = flexCat(sGL, m)
		if toGroup { // phase A ends on entering the group: "g", then on
			plan = flexCat(sG, m)
		}
		esc = sLGL
		if gr == gd {
			esc = sL
		}
	}
	if k := s.fv.safe[rep][ci][plan]; k >= 0 && !s.fv.oppA[rep] {
		return k
	}
	k := s.fv.opp[rep][ci][esc]
	if k < 0 {
		panic(fmt.Sprintf("sim: FlexVC hop of packet %d→%d at router %d has no escape (the validator refuses such VC counts)", pk.src, pk.dst, r))
	}
	return k | fkOpp
}

// flexOppK is the highest VC, with fkOpp, of an in-transit misroute of pk
// at router r (PAR, OLM): a local hop inside the group, or a global hop to
// another group; its escape is the minimal path from the next router.
func (s *Sim) flexOppK(r int, pk *packet, global bool) int8 {
	rep, ci, esc := 0, 0, sLGL
	if pk.flags&fReply != 0 {
		rep = 1
	}
	if global {
		ci = 1
	} else if s.df.GroupOf(r) == s.df.GroupOf(int(pk.dstRouter)) {
		esc = sL
	}
	k := s.fv.opp[rep][ci][esc]
	if k < 0 {
		panic(fmt.Sprintf("sim: FlexVC misroute of packet %d→%d at router %d has no escape (the validator refuses such VC counts)", pk.src, pk.dst, r))
	}
	return k | fkOpp
}

// flexBest is the VC 0…k of output po with the most free credits (ties to
// the highest), room or not: what the in-transit trigger and occupancy
// read for a FlexVC minimal hop.
func (s *Sim) flexBest(po int, k int8) int {
	v, best := 0, int32(math.MinInt32)
	for i, c := range s.credits[po*s.maxVC : po*s.maxVC+int(k)+1] {
		if c >= best {
			v, best = i, c
		}
	}
	return v
}

// flexChoose picks the VC of the routed head of buffer b (packet pk) at
// output po: one of 0…k that can take the whole packet, by the selection
// policy (b.hVC); the head's wait (−1 when it can request now). An
// opportunistic transit hop with no such VC reverts to the minimal path: the
// head is routed again (phase A over) at its next attempt.
func (s *Sim) flexChoose(r int, b *buffer, po int, fromInj bool) int64 {
	pk := &s.pk[b.hd]
	k := int(pk.outVC & fkMask)
	cr := s.credits[po*s.maxVC : po*s.maxVC+k+1]
	need := int32(s.P)
	v := -1
	switch s.fv.sel {
	case selJSQ: // most free credits, ties to the highest index
		best := need
		for i, c := range cr {
			if c >= best {
				v, best = i, c
			}
		}
	case selHighest:
		for i := k; i >= 0; i-- {
			if cr[i] >= need {
				v = i
				break
			}
		}
	case selLowest:
		for i, c := range cr {
			if c >= need {
				v = i
				break
			}
		}
	case selRandom:
		n := 0
		for _, c := range cr {
			if c >= need {
				n++
			}
		}
		if n > 0 {
			pick := s.rts[r].Intn(n)
			for i, c := range cr {
				if c >= need {
					if pick == 0 {
						v = i
						break
					}
					pick--
				}
			}
		}
	}
	if v >= 0 {
		b.hVC = int16(v)
		return -1
	}
	// opportunistic: flagged by flexK, or an in-transit misroute (PAR, OLM)
	opp := pk.outVC&fkOpp != 0 || s.rerouteAll && pk.mis>>4&7 != misNone
	if opp && !fromInj {
		// revert to the escape, minimal from here: Valiant's phase A ends;
		// an in-transit packet is routed again, its mandatory global
		// misroute (the livelock guard) waived
		pk.flags = pk.flags&^fMandatory | fInterDone
		b.hOut = -1
		return s.now
	}
	return waitCredit
}
