package sim

import "phitsim/engine/topology"

// DAMQ input buffers (router.damq; thesis §1.1, Fig. 1.9, §5.1.2, §5.3): the
// memory of a transit input port, its VCs × the per-VC buffer of its class,
// is one pool. Each VC keeps a static reserve of it (router.damqReserve %
// of its own share, in whole packets) and the rest is shared by the port's
// VCs on demand. A packet
// counts against its VC's reserve while the VC holds no more than the
// reserve, against the shared pool beyond it.
//
// Flow control stays per VC: credits[po·maxVC+v] is what the upstream router
// may still send on VC v, its free reserve plus the port's free shared space
// (which the grant's credit check, the routings' occupancies and the VC
// choices all read unchanged). The upstream router tracks, per output VC,
// the phits held downstream (granted, credit not yet back) and, per output,
// those of the shared pool, and moves the port's other VCs' credits when the
// shared use changes: O(VCs), on DAMQ ports only. A freed shared slot
// arrives as a credit at the same output, which wakes the heads sleeping on
// it whatever their VC (wakeOnCredit).
//
// Injection buffers stay static: a node fills them directly, without
// credits, and the thesis sizes only the transit ports (local and global,
// thesis §5.3.1).
type damq struct {
	// per output buffer (po·maxVC+v): phits held for VC v in the input
	// buffer downstream, on the link to it, or whose credit is on its way
	// back; nil without router.damq (the hot paths test it)
	used []int32
	// per output port: phits of the downstream port's shared pool in use
	shared []int32
	// per port class: phits reserved to each VC (0 for injection)
	reserve []int32
}

// initDamq sizes the DAMQ classes: each transit VC buffer can hold its
// reserve and the whole shared pool (bufCap, hence its ring and its
// initial credits), and the counters start empty. Called before build.
func (s *Sim) initDamq() {
	r := &s.cfg.Router
	if !r.Damq {
		return
	}
	s.dq.reserve = make([]int32, len(s.bufCap))
	for c := range s.bufCap {
		if topology.PortClass(c) == topology.Injection {
			continue
		}
		reserve, most := r.DamqBuffer(int(s.bufCap[c]), s.vcCount[c])
		s.dq.reserve[c], s.bufCap[c] = int32(reserve), int32(most)
	}
	nports := s.R * s.radix
	s.dq.used = make([]int32, nports*s.maxVC)
	s.dq.shared = make([]int32, nports)
}

// damqTake records a packet granted to VC vc of output po (take has
// debited that VC's credits): beyond the VC's reserve it occupies the
// shared pool, which every other VC of the port loses too.
//
//go:noinline
func (s *Sim) damqTake(po, vc int) {
	bi := po*s.maxVC + vc
	ph := s.phitsOn(s.pclass[po], vc)
	s.dq.used[bi] += ph
	if s.dq.used[bi] > s.dq.reserve[s.ports[po].class] {
		s.dq.shared[po] += ph
		s.shareCredits(po, vc, -ph)
	}
}

// damqFree records a credit of VC vc back at output po (land has credited
// that VC): when the VC held more than its reserve, the phits freed are the
// shared pool's, which every other VC of the port regains.
//
//go:noinline
func (s *Sim) damqFree(po, vc int) {
	bi := po*s.maxVC + vc
	ph := s.phitsOn(s.pclass[po], vc)
	s.dq.used[bi] -= ph
	if s.dq.used[bi] >= s.dq.reserve[s.ports[po].class] {
		s.dq.shared[po] -= ph
		s.shareCredits(po, vc, ph)
	}
}

// shareCredits adds delta to the credits of every VC of output po but vc: a
// change of the shared pool they all draw on. The occupancy views of the
// global links (gocc: PB's saturation bits, the CGA trigger) read a VC's
// occupancy as its buffer less its credits, as the UGAL comparison does
// (occVC): the pool's use counts in every VC of the port, as FOGSim v5's
// dynamicBufferBufferedOutPort::getTotalOccupancy counts it (the VC's own
// phits plus the other VCs' use of the shared part). The minimal-only views
// (minCred) keep the VC's own minimal packets, as FOGSim's getMinOccupancy.
func (s *Sim) shareCredits(po, vc int, delta int32) {
	cr := s.credits[po*s.maxVC : po*s.maxVC+s.vcCount[s.ports[po].class]]
	global := s.ov.gocc != nil && s.ports[po].class == topology.Global
	for u := range cr {
		if u != vc {
			cr[u] += delta
			if global {
				s.occUpdate(po, u, -delta, false, true)
			}
		}
	}
}

// damqCredits is what the credits of output (po, v) must be given the phits
// held downstream for each VC of the port (held, by VC): the VC's free
// reserve plus the port's free shared space; and the shared pool's use.
// For the census, which recounts held from the buffers, links and credit
// wheels.
func (s *Sim) damqCredits(po, v int, held []int32) (credits, shared int32) {
	res := s.dq.reserve[s.ports[po].class]
	for _, h := range held {
		shared += max(0, h-res)
	}
	pool := s.bufCap[s.ports[po].class] - res // the shared pool: the most a VC holds less its reserve
	return max(0, res-held[v]) + pool - shared, shared
}
