package sim

import (
	"cmp"
	"math"

	"phitsim/engine/config"
)

// Contention counters (thesis §4.2.1.1; FOGSim's caHandler): every router
// counts, per output port, the packets at the heads of its input VCs whose
// minimal output toward their final destination is that port (whatever
// output they take). A packet counts from when it becomes the head of its VC
// until its tail has left the input buffer, so each VC counts exactly one
// packet while it holds or is still sending one. The in-transit routings'
// trigger (routing.trigger=base, filtered, hybrid) misroutes on the count of
// the minimal output instead of its credits: the cause of congestion
// (many packets wanting one output) is seen before buffers fill (§4.1).
//
// Kept incrementally: at an arrival (a packet reaching an empty, idle VC is
// its head: ccHead, at the arrival sites), at a grant (the head stays counted
// until its tail leaves, at the input's inFree cycle: ccGrant, at the grant hooks' site)
// and by a per-cycle hook that releases those tails and counts the next
// heads. No counter is kept otherwise, and the other routings' paths are
// unchanged.

// Contention trigger kinds (routing.trigger).
const (
	ccBase uint8 = iota + 1
	ccFiltered
	ccHybrid
	ccECtN // Base's local rule plus ECtN's group-wide counters at injection (ectn.go)
)

// contention is the counters' state.
type contention struct {
	mode  uint8
	th    int32   // base, filtered: contentionThreshold; hybrid: hybridThreshold
	alpha float64 // filtered: weight of the previous average
	// by output port (r·radix + o), and one more entry per group, sink,
	// where the heads bound for a node of their own router count: no
	// trigger reads an ejection port's counter, and counting them there
	// needs no lookup. A sequential run counts them all at the first; a
	// partitioned run's partition p at the (p+1)-th, its own
	// (engine/PARALLEL.md)
	cnt  []int32
	sink int
	// by buffer (input port · maxVC + VC): the minimal output its counted
	// packet is counted for, as its index in cnt (−1: none), so that a
	// release needs no router
	cport []int32
	// buffers whose granted packet's tail leaves at cycle t (& wheelMask):
	// router<<32 | buffer (until then the next head is not counted); a
	// partitioned run's partitions have one wheel each
	release [][]uint64
	// filtered: the average α·avg + (1−α)·cnt per output port, as of its
	// cycle at (the counter is constant between changes, so the per-cycle
	// recurrence is applied in closed form when it is read or changes)
	avg []filtered
	// pow[n] = α^n, n ≤ 2000 (until it underflows to 0): the closed form
	// without a math.Pow per counter change
	pow []float64
	thf float64 // th as the averages compare with it (no conversion per read)
	// ectn: the partial and combined counters (ectn.go); nil otherwise
	ectn *ectn
	tag  bool // PAR/OLM: ccHead leaves the minimal port in pk.aux (minPortTag)
	// filtered or ectn (never both): a release has more to do than Base's
	extra bool
	// by router·groups + destination group: the minimal output toward any
	// router of another group (it depends on the group only), so that
	// counting a head is a table read and no call (the routing reads it
	// back through minPortTag); ownGroup for the router's own group (one
	// read tells both)
	gport []uint8
}

// filtered is a port's filtered average as of cycle at, and its cold flag
// (one entry: one bounds check for all).
type filtered struct {
	avg float64
	at  int32 // a cycle (int32 as the ports' cycles: a run is at most 1.1·10⁹)
	// true when the average is below th until the counter next goes up:
	// set at each count from the average then and the new count (the
	// average moves from one toward the other, both below th; a release
	// only lowers the counter), so that a read can answer "not contended"
	// without the closed form; false: compute it. In the entry, whose cache
	// line the count has just written: no other array to index
	cold bool
}

// ownGroup marks the router's own group in contention.gport (no port: radix ≤ 128).
const ownGroup = 0xff

// contentionMode maps routing.trigger to a contention kind (0: none).
func contentionMode(trigger string) uint8 {
	switch trigger {
	case "base":
		return ccBase
	case "filtered":
		return ccFiltered
	case "hybrid":
		return ccHybrid
	case "ectn":
		return ccECtN
	}
	return 0
}

// initContention builds the counters and registers their hooks when the
// routing's trigger is a contention trigger: routing.trigger for PAR/OLM,
// routing.injectionTrigger for UGAL and PB (after build: it sizes per port
// and per buffer).
func (s *Sim) initContention(rc config.Routing) {
	var mode uint8
	switch s.routing {
	case routePAR, routeOLM:
		mode = contentionMode(rc.Trigger)
	case routeUGAL, routePB:
		mode = contentionMode(rc.InjectionTrigger)
	}
	if mode == 0 {
		return
	}
	// 0: the thesis's thresholds (§4.2.2) and FOGSim's α
	c := &contention{mode: mode, th: int32(cmp.Or(rc.ContentionTh, 6)), alpha: cmp.Or(rc.FilterAlpha, 0.5)}
	if mode == ccHybrid {
		c.th = int32(cmp.Or(rc.HybridTh, 8))
	}
	c.cnt = make([]int32, len(s.ports)+s.groups)
	c.sink = len(s.ports)
	c.cport = make([]int32, len(s.bufs))
	for i := range c.cport {
		c.cport[i] = -1
	}
	c.release = make([][]uint64, s.wheelMask+1)
	if mode == ccFiltered {
		c.avg = make([]filtered, len(c.cnt))
		for n := 0; n <= 2000; n++ {
			x := math.Pow(c.alpha, float64(n))
			if x == 0 {
				break
			}
			c.pow = append(c.pow, x)
		}
		c.thf = float64(c.th)
		for i := range c.avg {
			c.avg[i].cold = 0 < c.th // the average and counter start at 0
		}
	}
	s.cga.cc = c
	s.cga.countOnly = mode != ccHybrid
	c.tag = (s.routing == routePAR || s.routing == routeOLM) && s.radix <= 256 // minPortTag's 8 bits
	// a byte per router and group: less than ECtN's own arrays, and a few
	// percent of a router's buffers at radix 128
	c.gport = make([]uint8, s.R*s.groups) // radix ≤ 128
	for r := 0; r < s.R; r++ {
		for dg := 0; dg < s.groups; dg++ {
			c.gport[r*s.groups+dg] = ownGroup
			if dg != s.df.GroupOf(r) {
				c.gport[r*s.groups+dg] = uint8(s.df.MinimalPort(r, dg*s.groupSize))
			}
		}
	}
	// The injection and grant sites call ccHead and ccGrant directly (no
	// hook dispatch), behind their one test that any hook is registered:
	// a non-nil, possibly empty, hook slice (land tests s.cga.cc itself).
	if s.hk.arrive == nil {
		s.hk.arrive = []func(pi, vc int, k int32){}
	}
	if s.hk.grant == nil {
		s.hk.grant = []func(r, in, out, vc, outVC int, k int32){}
	}
	if mode == ccECtN {
		s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: s.ccReleaseECtN, on: (*Sim).ccReleaseECtN})
		s.initECtN(rc, c)
	} else {
		s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: s.ccRelease, on: (*Sim).ccRelease})
	}
	c.extra = c.avg != nil || c.ectn != nil
}

// ccHead counts packet pk, the head of buffer bi of router r (c:
// s.cga.cc). The arrival sites pass the packet's address they hold (land,
// enqueue, the releases), no index (4–6 instructions fewer per hop,
// measured).
func (s *Sim) ccHead(c *contention, bi, r int, pk *packet) {
	// the minimal output toward the final destination (never a Valiant
	// intermediate): the next port of the minimal path, or for a head
	// bound for a node here (its ejection port) the sink
	po := c.sink
	if dst := int(pk.dstRouter); dst != r {
		var o int
		dg := int(pk.dstGroup)
		if o = int(c.gport[r*s.groups+dg]); o == ownGroup { // the local link to dst (routers are numbered by group)
			base := dg * s.groupSize
			o = s.df.LocalPort(r-base, dst-base)
		} else if c.ectn != nil {
			s.ectnCount(c.ectn, bi, r, dg)
		}
		if c.tag {
			// routeInTransit reads it back at each of the head's attempts
			// here (pk.aux is unused by PAR/OLM otherwise)
			pk.aux = minPortTag(r, o)
		}
		po = r*s.radix + o
	}
	// the counter read once (settle takes its value: no reload after the
	// average's store)
	p := &c.cnt[po]
	n := *p
	if c.avg != nil {
		c.settleCount(po, n, s.now)
	}
	*p = n + 1
	c.cport[bi] = int32(po)
}

// minPortTag is pk.aux holding the minimal port o of router r: below −1,
// where a free packet's link or an unused cache (−1) never is. o may carry
// tagStays (routeInTransit's: its last decision here stays until the
// trigger fires).
func minPortTag(r, o int) int32 { return int32(-2 - (r<<9 | o)) }

// tagStays is the flag of minPortTag's port bits (ports are < 256).
const tagStays = 256

// idle: buffer bi counts no packet (its last counted packet's tail has
// left), so a packet entering it is its head and is counted at once
// (ccHead) by the arrival sites: land and enqueue.
func (c *contention) idle(bi int) bool { return c.cport[bi] < 0 }

// ccGrant: the granted head stays counted until its tail has left the input
// buffer, when the input is free again.
// (bi: the head's buffer, router r; inFree: its input's inFree cycle,
// which the grant has just set, passed from the grant's registers.)
func (s *Sim) ccGrant(c *contention, r, bi int, inFree int64) {
	t := inFree & s.wheelMask
	c.release[t] = append(c.release[t], uint64(r)<<32|uint64(bi))
}

// ccRelease (each cycle, before the allocations): the tails leaving now
// stop being counted, and the next heads of their VCs start.
func (s *Sim) ccRelease() {
	c := s.cga.cc
	slot := s.now & s.wheelMask
	if c.extra {
		s.ccReleaseExtra(c, c.release[slot])
	} else {
		// Base and Hybrid: the port counters only (no per-entry test, no
		// registers held for the others' work)
		cnt, cport := c.cnt, c.cport
		for _, e := range c.release[slot] {
			bi, r := int(uint32(e)), int(e>>32)
			cnt[cport[bi]]--
			cport[bi] = -1
			if b := &s.bufs[bi]; b.len > 0 {
				s.ccHead(c, bi, r, &s.pk[b.hd])
			}
		}
	}
	c.release[slot] = c.release[slot][:0]
}

// ccReleaseECtN is ccRelease for ECtN (its per-cycle hook instead):
// Base's port counters and the partial counter of the group, in a loop of
// its own (no per-entry test for Filtered's work).
func (s *Sim) ccReleaseECtN() {
	c := s.cga.cc
	slot := s.now & s.wheelMask
	s.ccReleaseGroup(c, c.release[slot])
	c.release[slot] = c.release[slot][:0]
}

// ccReleaseGroup is ccReleaseECtN's loop.
func (s *Sim) ccReleaseGroup(c *contention, rel []uint64) {
	cnt, cport, e := c.cnt, c.cport, c.ectn
	for _, x := range rel {
		bi, r := int(uint32(x)), int(x>>32)
		cnt[cport[bi]]--
		cport[bi] = -1
		e.release(bi, r)
		if b := &s.bufs[bi]; b.len > 0 {
			s.ccHead(c, bi, r, &s.pk[b.hd])
		}
	}
}

// ccReleaseExtra is ccRelease for Filtered (the average settles before the
// counter changes).
func (s *Sim) ccReleaseExtra(c *contention, rel []uint64) {
	now := s.now
	for _, e := range rel {
		bi, r := int(uint32(e)), int(e>>32)
		cport := c.cport
		po := int(cport[bi])
		cport[bi] = -1
		p := &c.cnt[po]
		n := *p
		c.settle(po, n, now)
		*p = n - 1
		if b := &s.bufs[bi]; b.len > 0 {
			s.ccHead(c, bi, r, &s.pk[b.hd])
		}
	}
}

// settle brings the filtered average of port po, whose counter is cnt, up
// to the cycle before now (a counter change at now counts from now on): the
// closed form (closed) written out, n ≥ 1 here.
func (c *contention) settle(po int, cnt int32, now int64) {
	f := &c.avg[po]
	n := now - 1 - int64(f.at)
	if n <= 0 {
		return
	}
	x := float64(cnt)
	if n < int64(len(c.pow)) {
		x += (f.avg - x) * c.pow[n]
	}
	f.avg, f.at = x, int32(now-1)
}

// settleCount is settle for a count (the counter goes from cnt to cnt+1 at
// now), which also sets the port's cold flag.
func (c *contention) settleCount(po int, cnt int32, now int64) {
	f := &c.avg[po]
	if n := now - 1 - int64(f.at); n > 0 {
		x := float64(cnt)
		if n < int64(len(c.pow)) {
			x += (f.avg - x) * c.pow[n]
		}
		f.avg, f.at = x, int32(now-1)
	}
	f.cold = cnt+1 < c.th && f.avg < c.thf
}

// average is the filtered value of port po at cycle t ≥ at: the recurrence
// avg ← α·avg + (1−α)·cnt applied t − at times with cnt constant.
func (c *contention) average(po int, t int64) float64 {
	return c.closed(&c.avg[po], po, t)
}

// closed is average with port po's entry f already found.
func (c *contention) closed(f *filtered, po int, t int64) float64 {
	n := t - int64(f.at)
	if n <= 0 {
		return f.avg
	}
	x := float64(c.cnt[po])
	if n >= int64(len(c.pow)) { // α^n is 0, or below 2·10⁻⁹ (α ≤ 0.99) beyond 2000 cycles
		return x
	}
	return x + (f.avg-x)*c.pow[n]
}

// level is the value the trigger compares with the threshold at cycle now:
// the counter, or its filtered average.
func (c *contention) level(po int, now int64) float64 {
	if c.avg != nil {
		return c.average(po, now)
	}
	return float64(c.cnt[po])
}

// contended: output po's contention reaches the threshold (thesis §4.2.1.1:
// "exceeds"; FOGSim compares with ≥, as here).
func (c *contention) contended(po int, now int64) bool {
	if c.avg == nil {
		return c.cnt[po] >= c.th
	}
	return c.average(po, now) >= c.thf
}
