package sim

import (
	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// PiggyBack (thesis §1.4.2.1.1): each router marks its global links whose
// occupancy exceeds coef·mean + T of its own global links, and the routers of
// its group learn the bits one local-link latency later, by a broadcast
// (routing.pbBroadcast=broadcast) or riding on the packets that cross local
// links (piggyback). UGAL's comparison (ugal.go) then takes the non-minimal
// path whenever the minimal path's global link is marked.

// piggyBack is PB's parameters and its saturation bits.
type piggyBack struct {
	coef    float64
	coefPct int32 // coef in whole percent, or −1 when it has a fraction
	t       int32 // T, phits
	den     int64 // 100·h: the mean's denominator in whole percent
	// per (slot, router) saturation bits (k·gv+vc), slot = cycle mod (localLatency+1)
	satHist []uint64
	// with true piggybacking: what each router last heard of each router
	// of its group (router·a + position), and the bits riding on packets now
	// crossing local links (receiver·a + sender position, bits) by arrival cycle
	known   []uint64
	riders  [][]uint64
	slots   int64
	curSlot int      // satHist offset of this cycle's bits
	lagSlot int      // and of the bits of slots−1 cycles ago
	live    []uint64 // per router, its bits from the current occupancies (kept at every change)
	gtot    []int32  // per (router, VC): the sum of its global links' occupancies
	grouter []int32  // per port: its router (global ports)
	pbLink  []int32  // per (group, destination group): position of the link's router <<8 | its bit (VC 0)
}

// initPiggyBack builds PB's state (after the occupancy view, whose global
// links it marks) and registers its per-cycle work as a cycle hook.
func (s *Sim) initPiggyBack(rc config.Routing, df *topology.Dragonfly) {
	pb, o := &s.pb, &s.ov
	pb.coef, pb.t = rc.PbCoef/100, int32(rc.PbThreshold*float64(s.P))
	pb.coefPct = wholePercent(rc.PbCoef)
	pb.den = int64(100 * o.h)
	pb.slots = int64(s.cfg.Topology.LocalLatency) + 1
	pb.satHist = make([]uint64, int(pb.slots)*s.R)
	pb.live = make([]uint64, s.R)
	pb.gtot = make([]int32, s.R*o.gv)
	pb.grouter = make([]int32, len(s.ports))
	for pi := range pb.grouter {
		if s.ports[pi].class == topology.Global {
			pb.grouter[pi] = int32(pi / s.radix)
		}
	}
	G := df.Groups()
	pb.pbLink = make([]int32, G*G)
	for g := 0; g < G; g++ {
		for dg := 0; dg < G; dg++ {
			if g != dg {
				j := df.GlobalLinkTo(g, dg)
				pos := j / o.h
				pb.pbLink[g*G+dg] = int32(pos<<8 | (j-pos*o.h)*o.gv)
			}
		}
	}
	if rc.PbBroadcast == "piggyback" {
		pb.known = make([]uint64, s.R*s.groupSize)
		pb.riders = make([][]uint64, len(s.arrivals))
	}
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: s.pbCycle, on: (*Sim).pbCycle})
}

// pbCycle is PB's work at the start of a cycle: the bits riding on packets
// that arrive now are heard, and this cycle's bits, those of the
// occupancies at its start, are broadcast (the other routers of the group
// read them one local-link latency later).
func (s *Sim) pbCycle() {
	pb := &s.pb
	if pb.known != nil {
		s.landRiders()
	}
	slot := int(s.now%pb.slots) * s.R
	pb.curSlot, pb.lagSlot = slot, int((s.now+1)%pb.slots)*s.R
	if s.held != nil {
		s.broadcastHeld(slot)
	} else { // this Sim's routers: all, or a partition's (parallel.go)
		copy(pb.satHist[slot+s.r0:slot+s.r1], pb.live[s.r0:s.r1])
	}
}

// vcBits recomputes router r's PB bits of VC v (per-VC detection) from the
// running total, keeping the other VCs' bits.
func (s *Sim) vcBits(r, v int, bits uint64) uint64 {
	pb, o := &s.pb, &s.ov
	occ := o.gocc
	if o.minOnly {
		occ = o.gmin
	}
	base := r * o.rowLen
	row := occ[base : base+o.rowLen : base+o.rowLen]
	bits &^= o.vcMask << v
	tot := pb.gtot[r*o.gv+v]
	if pb.coefPct >= 0 {
		for i := v; i < len(row); i += o.gv {
			if pb.above(row[i], tot) {
				bits |= 1 << i
			}
		}
		return bits
	}
	lim := o.limit(tot, pb.coef, pb.coefPct, pb.t)
	for i := v; i < len(row); i += o.gv {
		if row[i] > lim {
			bits |= 1 << i
		}
	}
	return bits
}

// above: is occupancy q above PB's threshold coef·total/h + T, for a
// whole-percent coefficient? q > ⌊(pct·total + 100·h·T) / (100·h)⌋ ⟺
// 100·h·q > pct·total + 100·h·T (integers, total ≥ 0): no division.
func (pb *piggyBack) above(q, total int32) bool {
	return int64(q)*pb.den > int64(pb.coefPct)*int64(total)+pb.den*int64(pb.t)
}

// piggyback puts router r's current saturation bits on a packet leaving
// through local port po, to be read by the next router when its head arrives.
//
// The bits are those broadcast at the departure cycle dep, which may still be
// ahead: the rider names their history slot, read when it lands (the history
// keeps a local-link latency + 1 cycles, so that slot is not overwritten
// before).
func (s *Sim) piggyback(r, po int, dep, arrival int64) {
	pb := &s.pb
	peer := int(s.ports[po].peer) / s.radix
	slot := arrival & s.wheelMask
	pb.riders[slot] = append(pb.riders[slot], uint64(peer*s.groupSize+r%s.groupSize),
		uint64(int(dep%pb.slots)*s.R+r))
}

// landRiders stores the bits that arrive this cycle.
func (s *Sim) landRiders() {
	pb := &s.pb
	slot := s.now & s.wheelMask
	q := pb.riders[slot]
	for i := 0; i+1 < len(q); i += 2 {
		pb.known[q[i]] = pb.satHist[q[i+1]]
	}
	pb.riders[slot] = q[:0]
}

// pbSaturated reads the PB bit of the global link of the minimal path from
// router r to dst: the router's own bit now, or a group neighbour's bit as
// broadcast one local-link latency ago.
func (s *Sim) pbSaturated(r, dst, vc int) bool {
	g, dg := s.df.GroupOf(r), s.df.GroupOf(dst)
	if g == dg {
		return false
	}
	pb := &s.pb
	l := int(pb.pbLink[g*s.groups+dg])
	bit := uint64(1) << (l&255 + s.bitVC(vc))
	if owner := g*s.groupSize + l>>8; owner != r {
		if pb.known != nil {
			return pb.known[r*s.groupSize+l>>8]&bit != 0
		}
		// slots not written yet hold zeros: nothing broadcast before cycle 0
		return pb.satHist[pb.lagSlot+owner]&bit != 0
	}
	return pb.satHist[pb.curSlot+r]&bit != 0
}

// broadcastHeld writes this cycle's PB bits into history slot slot with
// router.idleUpdates=fogsim: a router that holds packets broadcasts its
// current bits; an idle one sends nothing, so its group keeps what it sent
// last (FOGSim's updatePb runs inside switchModule::action).
func (s *Sim) broadcastHeld(slot int) {
	pb := &s.pb
	prev := int((s.now+pb.slots-1)%pb.slots) * s.R
	for r, n := range s.held {
		if n > 0 {
			pb.satHist[slot+r] = pb.live[r]
		} else {
			pb.satHist[slot+r] = pb.satHist[prev+r]
		}
	}
}
