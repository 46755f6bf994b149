package sim

import (
	"cmp"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// ECtN, Explicit Contention Notification (thesis §4.2.1.4, Fig. 4.4;
// FOGSim's caHandler CA_REMOTE): on top of Base's per-port counters, every
// router keeps a partial counter per destination group, counting the heads
// of its injection and global input VCs whose destination group is another
// one (the traffic entering the group toward that group), with Base's head
// and tail rules. Every routing.ectnPeriod cycles, at the cycles t with
// t mod period = 0 counted from the start of the run (warm-up included), all
// routers send their partial arrays to the other routers of their group,
// which receive them one local-link latency later (side band: no link
// bandwidth, as the thesis does not simulate it, §4.2.3). A router's
// combined counter of group g is its own live partial plus the last partials
// received from its peers; a packet at its source router whose destination
// group is remote misroutes when that sum reaches routing.ectnThreshold.
//
// The received arrays are the same at every router of a group (one
// broadcast, one latency), so they are kept once, with their sum per group:
// combined = live + sum − own last broadcast, no loop per decision. (The
// mechanisms' control messages carry one int64 each: a broadcast would be
// a·(a−1)·G of them; a snapshot delivered whole after the latency is the
// same side band.)

// ectn is ECtN's state (nil unless routing.trigger=ectn).
type ectn struct {
	g      int   // groups: the partial arrays' length
	thc    int32 // combined threshold
	period int64
	lat    int64   // local-link latency: a broadcast's delay
	live   []int16 // by router·g + destination group: the partial counters now
	// by buffer: the destination group its counted packet adds to in live
	// (−1: none; −2: a local input, never counted)
	cgrp []int16
	recv []int16 // by router·g + group: its partial as its peers last received it
	sum  []int32 // by group·g + destination group: Σ recv over the group's routers
	// broadcasts in flight (sent, not yet received), by broadcast number
	// mod len: lat/period + 1 of them at most
	flight [][]int16
}

// initECtN builds ECtN's arrays and registers its per-cycle broadcast
// (after initContention has registered the counters' release, so that a
// broadcast carries the counts of its cycle).
func (s *Sim) initECtN(rc config.Routing, c *contention) {
	e := &ectn{g: s.groups, thc: int32(cmp.Or(rc.EctnTh, 10)), period: int64(cmp.Or(rc.EctnPeriod, 100)),
		lat: int64(s.cfg.Topology.LocalLatency)}
	e.live = make([]int16, s.R*e.g)
	e.recv = make([]int16, s.R*e.g)
	e.sum = make([]int32, s.groups*e.g)
	e.cgrp = make([]int16, len(s.bufs))
	for i := range e.cgrp {
		e.cgrp[i] = -1
		if s.pclass[i/s.maxVC] == topology.Local {
			e.cgrp[i] = -2
		}
	}
	e.flight = make([][]int16, e.lat/e.period+1)
	for i := range e.flight {
		e.flight[i] = make([]int16, s.R*e.g)
	}
	c.ectn = e
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: s.ectnCycle, on: (*Sim).ectnCycle})
}

// ectnCount adds the head of buffer bi of router r, bound for group dg
// (another one: ccHead tests it), to r's partial counters if it is
// entering the group: at an injection or global input.
func (s *Sim) ectnCount(e *ectn, bi, r, dg int) {
	if e.cgrp[bi] == -2 { // a local input (the Dragonfly's other classes: injection and global)
		return
	}
	e.live[r*e.g+dg]++
	e.cgrp[bi] = int16(dg)
}

// ectnRelease removes buffer bi's counted packet (router r) from the
// partial counters when its tail has left.
func (e *ectn) release(bi, r int) {
	if dg := int(e.cgrp[bi]); dg >= 0 {
		e.live[r*e.g+dg]--
		e.cgrp[bi] = -1
	}
}

// ectnCycle broadcasts the partial arrays at the cycles ≡ 0 mod period and
// delivers, one local-link latency later, what was broadcast then: those
// of this Sim's routers [r0, r1), all of them unless the run is
// partitioned (a partition holds whole groups, and a broadcast stays in
// its group: each partition copies and sums its own rows).
func (s *Sim) ectnCycle() {
	e := s.cga.cc.ectn
	n := int64(len(e.flight))
	lo, hi := s.r0*e.g, s.r1*e.g
	if s.now%e.period == 0 {
		copy(e.flight[s.now/e.period%n][lo:hi], e.live[lo:hi])
	}
	if t := s.now - e.lat; t >= 0 && t%e.period == 0 {
		copy(e.recv[lo:hi], e.flight[t/e.period%n][lo:hi])
		clear(e.sum[s.df.GroupOf(s.r0)*e.g : (s.df.GroupOf(s.r1-1)+1)*e.g])
		for r := s.r0; r < s.r1; r++ {
			g := s.df.GroupOf(r)
			row, sum := e.recv[r*e.g:(r+1)*e.g], e.sum[g*e.g:(g+1)*e.g]
			sum = sum[:len(row)] // no bounds check in the loop
			for dg, v := range row {
				sum[dg] += int32(v)
			}
		}
	}
}

// combined is router r's combined counter of destination group dg: its live
// partial plus the partials its peers broadcast last.
func (e *ectn) combined(r, g, dg int) int32 {
	return int32(e.live[r*e.g+dg]) + e.sum[g*e.g+dg] - int32(e.recv[r*e.g+dg])
}

// groupContended (ECtN, thesis §4.2.1.4): router r's (group cg) combined
// counter of destination group dg reaches the threshold (never for its own
// group; never without ECtN).
func (c *contention) groupContended(r, cg, dg int) bool {
	e := c.ectn
	return e != nil && dg != cg && e.combined(r, cg, dg) >= e.thc
}
