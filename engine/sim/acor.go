package sim

import (
	"math"

	"phitsim/engine/config"
)

// ACOR (ACOR paper §4): the Valiant draw at injection takes its phase-A
// policy from a level that rises with the blocked attempts counted in a
// hysteresis interval, per router (ACOR-Switch, §4.2.2) or per packet
// (ACOR-Packet: every re-attempt of a packet moves it one level up). PB-ACOR
// (§4.3) puts PiggyBack's comparison on top.

// acor is ACOR's parameters and levels.
type acor struct {
	seq    []uint8 // phase-A policy per level
	packet bool    // ACOR-Packet: the level is the packet's
	sticky bool    // routing.acorCount=fogsim
	hi     int32   // hysteresis interval, cycles
	it     [2]int32
	dt     [2]int32
	// ACOR-Switch, per router: its level, its blocked attempts in the
	// current interval, the cycle its interval ends, the blocked count that
	// raises its level now
	level    []uint8
	blocked  []int32
	deadline []int64
	incTh    []int32
	perLevel [3]int32 // routers at each level
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

// initACOR builds ACOR's state and, for ACOR-Switch, registers its level
// management as a cycle hook.
func (s *Sim) initACOR(rc config.Routing) {
	a := &s.acor
	s.vl.restricted, s.vl.recompute = true, true
	switch rc.AcorSequence {
	case "2LA":
		a.seq = []uint8{paCRGGr, paRRGSw}
	case "2LB":
		a.seq = []uint8{paCRGSw, paRRGSw}
	default:
		a.seq = []uint8{paCRGGr, paCRGSw, paRRGSw}
	}
	a.packet = rc.AcorMode == "packet"
	a.sticky = rc.AcorCount == "fogsim"
	a.hi = int32(rc.AcorHI)
	it2 := rc.AcorIT2
	if it2 == 0 {
		it2 = 500
		if s.routing == routePBACOR {
			it2 = 50
		}
	}
	a.it = [2]int32{int32(rc.AcorIT1), int32(it2)}
	a.dt = [2]int32{int32(rc.AcorDT1), int32(rc.AcorDT2)}
	a.level = make([]uint8, s.R)
	a.blocked = make([]int32, s.R)
	a.deadline = make([]int64, s.R)
	a.incTh = make([]int32, s.R)
	if s.held != nil && !a.packet {
		a.timer = make([]int32, s.R)
	}
	for r := range a.deadline {
		a.incTh[r] = a.increaseAt(0)
		if a.timer != nil {
			a.timer[r] = a.hi
		} else {
			s.restartInterval(r, -1) // the first interval ends at cycle HI−1
		}
	}
	a.perLevel[0] = int32(s.R)
	if !a.packet {
		s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: s.acorCycle, on: (*Sim).acorCycle})
	}
}

// acorCycle is ACOR-Switch's work at the start of a cycle: the level
// updates, and the level statistics (in a partitioned run, of the
// partition's routers: parallel_acor.go).
func (s *Sim) acorCycle() {
	a := &s.acor
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
	if s.st.trLevels != nil {
		s.acorTransient()
	}
}

// acorTransient samples the levels for the transient record at the start
// of each of its bins: the routers at each level, and group 0's routers'
// levels (ACOR paper Fig. 10).
func (s *Sim) acorTransient() {
	st := &s.st
	d := s.now - st.trFrom
	if d < 0 || d%config.TransientBin != 0 || d/config.TransientBin >= int64(len(st.trPkts)) {
		return
	}
	i := int(d / config.TransientBin)
	copy(st.trLevels[3*i:3*i+3], s.acor.perLevel[:])
	a := len(st.trGroup) / len(st.trPkts)
	for r := s.r0; r < min(a, s.r1); r++ { // group 0's routers this Sim steps (parallel_acor.go)
		st.trGroup[a*i+r] = int8(s.acor.level[r] + 1)
	}
}

// acorBlock counts a blocked attempt at router r (ACOR-Switch); reaching the
// increase threshold queues a raise for the next cycle's level update.
func (s *Sim) acorBlock(r int) {
	a := &s.acor
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
	a := &s.acor
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
		if lv := int(a.level[r]); lv > 0 && a.blocked[r] <= a.dt[lv-1] {
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
	if len(s.acor.seq) == 2 {
		return 1
	}
	return int(s.acor.level[r]) + 1
}

// restartInterval starts router r's interval at the update of cycle now:
// its count restarts and the interval ends HI cycles later.
func (s *Sim) restartInterval(r int, now int64) {
	a := &s.acor
	a.blocked[r] = 0
	a.deadline[r] = now + int64(a.hi)
	a.ends = append(a.ends, acorEnd{at: a.deadline[r], r: int32(r)})
}

// acorLevelsHeld is acorLevels with router.idleUpdates=fogsim: FOGSim's
// per-switch procedure (switchModule::action), run only for the routers that
// hold packets this cycle. Their interval counts down one cycle; a count at
// the increase threshold raises the level, and an interval that ends lowers
// it when the count is at most the decrease threshold; either restarts the
// interval and the count. An idle router's interval stands still.
func (s *Sim) acorLevelsHeld() {
	a := &s.acor
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
		case a.timer[r] <= 0 && lv > 0 && a.blocked[r] <= a.dt[lv-1]:
			s.setLevel(r, lv-1)
		}
		if raise || a.timer[r] <= 0 {
			a.timer[r], a.blocked[r] = a.hi, 0
		}
	}
}

// setLevel moves router r to level lv.
func (s *Sim) setLevel(r, lv int) {
	a := &s.acor
	a.perLevel[a.level[r]]--
	a.perLevel[lv]++
	a.level[r] = uint8(lv)
	a.incTh[r] = a.increaseAt(lv)
}

// increaseAt is the blocked count that raises a router at level lv.
func (a *acor) increaseAt(lv int) int32 {
	if lv >= len(a.seq)-1 {
		return math.MaxInt32
	}
	return a.it[lv]
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
	if s.acor.sticky {
		return pk.mis&misSticky != 0
	}
	return s.routing == routeACOR || pk.flags&fNonMin != 0
}
