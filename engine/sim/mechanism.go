package sim

import (
	"fmt"
	"math"
	"slices"
)

// Mechanism hooks: the points of the router cycle where a congestion
// management mechanism (source throttling, marking, notifications, epochs)
// acts, the state it owns, and the control messages it sends. Each hook is a
// slice of functions, nil unless a mechanism registered one: an unused hook
// costs one nil check per event, no call (engine/TIMING.md, "Buffers and
// mechanism hooks").
//
// A mechanism is its file(s), one register call (in an init function of its
// file) and its tests. Its attach method is given the built simulation: it
// sizes its per-port (len(s.ports)), per-buffer (len(s.bufs)), per-router
// (s.R) and per-node (s.N) state there, claims packet bits (claimPacketBits)
// and appends its functions to s.hk. Its own results go into the result
// document's mechanisms section when it also implements reporter.

// mechanism is a congestion-management mechanism.
type mechanism interface {
	// attach allocates the mechanism's state for simulation s and registers
	// its hooks; id names it in control messages (sendControl).
	attach(s *Sim, id int) error
	// control handles a control message addressed to this mechanism, at
	// the start of its arrival cycle.
	control(s *Sim, m controlMsg)
}

// reporter is a mechanism with results of its own, for the result
// document's mechanisms section: report gives its name (the section's key)
// and its metrics by name, at Snapshot time (at the end of a run or for
// partial results), so it must not change the mechanism's state. A metric
// that is not finite is written as null by the exports, as any other.
type reporter interface {
	report(s *Sim) (name string, metrics map[string]float64)
}

// mechReports are the reporting mechanisms' sections, nil when none
// reports. A second instance of a name is keyed name#id.
func (s *Sim) mechReports() map[string]map[string]float64 {
	var out map[string]map[string]float64
	for id, m := range s.mech.list {
		r, ok := m.(reporter)
		if !ok {
			continue
		}
		name, metrics := r.report(s)
		if out == nil {
			out = map[string]map[string]float64{}
		}
		if _, dup := out[name]; dup {
			name = fmt.Sprintf("%s#%d", name, id)
		}
		out[name] = metrics
	}
	return out
}

// hooks are the registered hook functions, called in registration order.
type hooks struct {
	// gen: a node's generation attempt at this cycle; it returns the cycle
	// until which the node generates nothing (≤ now: generate). A held
	// Bernoulli attempt is lost, as one without room; the geometric-gap
	// path draws the node's next attempt from that cycle on (the same
	// process, memoryless), so no per-cycle coin is needed.
	gen []func(node int) int64
	// grant: the head of buffer (input in, VC vc) of router r crossed to
	// output out, on VC outVC of the next buffer (0 at an ejection port);
	// the downstream credits are already taken.
	grant []func(r, in, out, vc, outVC int, k int32)
	// arrive: packet k entered the buffer of VC vc of input pi: on a link,
	// at the cycle its head arrives; from its node (an injection buffer),
	// when the node places it (the head reaches the router after the
	// injection latency).
	arrive []func(pi, vc int, k int32)
	// eject: the node consumes packet k at cycle t (before a request turns
	// into its reply, and before the packet is freed).
	eject []func(k int32, t int64)
	// sent: a packet k of flow node → dst left its per-destination source
	// queue for an injection VC (drainDest; a flow-holding mechanism
	// spaces the flow's packets from here)
	sent []func(node, dst int, k int32)
	// cycle: at the start of every cycle (after this cycle's arrivals,
	// credits and control messages, before the allocations), or every
	// `every` cycles (cycles ≡ 0 mod every).
	cycle []cycleHook
}

// cycleHook is a function run at the start of the cycles ≡ 0 mod every.
// on, when set, is the same hook as a method expression: a partitioned
// run (parallel.go) runs it on each partition's Sim, over that partition's
// routers; a hook without it keeps the run sequential.
type cycleHook struct {
	every int64
	f     func()
	on    func(*Sim)
}

// controlMsg is a control message between mechanism instances: a side-band
// message with a latency of its own (not a packet: it takes no buffer,
// credit or link bandwidth), handled at the start of cycle at by mechanism
// mech, before that cycle's cycle hooks and allocations.
type controlMsg struct {
	at   int64
	mech int32
	to   int32 // node or router, as the mechanism chooses
	data int64
}

// mechanisms are the attached mechanisms and their control messages.
type mechanisms struct {
	list []mechanism
	// control messages by arrival cycle (& ctlMask); the wheel covers the
	// longest latency a mechanism declared (needControl)
	ctl     [][]controlMsg
	ctlMask int64
	bits    uint // packet bits claimed so far (of 16)
	ctlPackets
}

// ctlPackets is the state of the control packets (sendPacket); all nil
// until a mechanism calls needPackets.
type ctlPackets struct {
	recv []packetReceiver // by mechanism id; nil for one that sends none
	// tag: by packet id, the sender's id+1 and the payload of a control
	// packet; {0, 0} for a data packet (ids beyond its length are data)
	tag []ctlTag
	// per node, the control packets waiting for room in an injection VC,
	// in order from head; pending lists the nodes whose queue is not empty
	q       [][]int32
	qHead   []int32
	pending []int32
	live    int64      // control packets alive (in queues or in the network)
	count   []ctlCount // by mechanism id
}

type ctlTag struct {
	mech int32 // the sending mechanism's id + 1; 0: a data packet
	prio bool  // on the priority class (sendPriority), not the data VCs
	// reply: on the priority class's reply VCs (ctlClass.replies: SRP's
	// grants, ACKs and NACKs apart from its reservations)
	reply bool
	data  int64
}

// ctlCount counts a mechanism's control packets: sent, consumed by their
// destination node, and the sum of their latencies (as a data packet's:
// from sending to the tail's consumption).
type ctlCount struct {
	sent, delivered, latSum int64
}

// ctlPacket is a control packet as its mechanism receives it.
type ctlPacket struct {
	k        int32 // its id: s.pk[k].mech holds the bits mechanisms set on the way
	src, dst int32 // nodes
	sent     int64 // the cycle sendPacket was called
	data     int64 // the payload given to sendPacket
}

// packetReceiver is a mechanism that sends control packets: receive is
// called when the destination node consumes one (at its ejection cycle,
// where a data packet runs the eject hooks; those do not see it), before
// the packet is freed.
type packetReceiver interface {
	receive(s *Sim, p ctlPacket)
}

// registry names the mechanisms a configuration may attach. It is written
// only by the init functions of the mechanisms' files.
var registry = map[string]func() mechanism{}

// register makes a mechanism attachable by name (from an init function).
func register(name string, build func() mechanism) {
	if _, dup := registry[name]; dup {
		panic("sim: mechanism " + name + " registered twice")
	}
	registry[name] = build
}

// mechanismNames lists the registered mechanisms.
func mechanismNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// attachMechanism attaches the mechanism registered as name; it must run
// before the first cycle.
func (s *Sim) attachMechanism(name string) error {
	build, ok := registry[name]
	if !ok {
		return fmt.Errorf("mechanisms: unknown mechanism %q (registered: %v)", name, mechanismNames())
	}
	return s.attach(build())
}

// attach attaches mechanism m: before the first cycle, so that its hooks
// see every packet. On an error nothing of m stays registered.
func (s *Sim) attach(m mechanism) error {
	if s.now != 0 || s.live != 0 {
		return fmt.Errorf("mechanisms: attached at cycle %d with %d packets alive; attach before the first cycle", s.now, s.live)
	}
	saved, bits, id := s.hk, s.mech.bits, len(s.mech.list)
	s.mech.list = append(s.mech.list, m)
	err := m.attach(s, id)
	if err == nil && len(s.hk.gen) > len(saved.gen) && s.wl != nil {
		err = fmt.Errorf("mechanisms: a generation hook needs an open-loop workload (workload.kind=%s generates by its own schedule)", s.cfg.Workload.Kind)
	}
	if err != nil {
		s.hk, s.mech.bits, s.mech.list = saved, bits, s.mech.list[:id]
		if len(s.mech.recv) > id {
			s.mech.recv, s.mech.count = s.mech.recv[:id], s.mech.count[:id]
		}
	}
	return err
}

// claimPacketBits reserves n of the 16 mechanism-owned bits of every packet
// (pk.mech) and returns the shift of the first; packets start with them 0.
func (s *Sim) claimPacketBits(n uint) (uint, error) {
	if n == 0 || s.mech.bits+n > 16 {
		return 0, fmt.Errorf("mechanisms: %d packet bits asked, %d of 16 left", n, 16-s.mech.bits)
	}
	shift := s.mech.bits
	s.mech.bits += n
	return shift, nil
}

// needControl sizes the control-message wheel for latencies up to maxLat
// cycles (a mechanism that sends control messages calls it in attach).
func (s *Sim) needControl(maxLat int64) error {
	if maxLat < 1 || maxLat > 1<<20 {
		return fmt.Errorf("mechanisms: control latency %d, allowed 1…%d cycles", maxLat, 1<<20)
	}
	size := int64(len(s.mech.ctl))
	if size > maxLat {
		return nil
	}
	for size = 1; size <= maxLat; size <<= 1 {
	}
	old := s.mech.ctl
	s.mech.ctl, s.mech.ctlMask = make([][]controlMsg, size), size-1
	for _, q := range old { // nothing is queued before the first cycle; kept for safety
		for _, m := range q {
			s.mech.ctl[m.at&s.mech.ctlMask] = append(s.mech.ctl[m.at&s.mech.ctlMask], m)
		}
	}
	return nil
}

// sendControl sends mechanism id's control message (to, data), handled lat
// cycles from now (1 ≤ lat ≤ the latency declared to needControl): a
// message sent during cycle t is handled at the start of cycle t+lat.
func (s *Sim) sendControl(id int, to int32, data int64, lat int64) {
	if lat < 1 || lat > s.mech.ctlMask {
		panic(fmt.Sprintf("sim: control latency %d outside 1…%d (needControl)", lat, s.mech.ctlMask))
	}
	at := s.now + lat
	slot := at & s.mech.ctlMask
	s.mech.ctl[slot] = append(s.mech.ctl[slot], controlMsg{at: at, mech: int32(id), to: to, data: data})
}

// needPackets lets mechanism id, a packetReceiver, send control packets
// (it calls it in attach).
func (s *Sim) needPackets(id int) error {
	r, ok := s.mech.list[id].(packetReceiver)
	if !ok {
		return fmt.Errorf("mechanisms: mechanism %d (%T) sends control packets but has no receive method", id, s.mech.list[id])
	}
	for len(s.mech.recv) <= id {
		s.mech.recv = append(s.mech.recv, nil)
		s.mech.count = append(s.mech.count, ctlCount{})
	}
	s.mech.recv[id] = r
	if s.mech.q == nil {
		s.mech.q, s.mech.qHead = make([][]int32, s.N), make([]int32, s.N)
	}
	return nil
}

// sendPacket sends mechanism id's control packet with payload data from
// node `from` to node `to` (≠ from) and returns its id, whose mech bits the
// sender may set. It is a packet like a data packet of the same pair: it
// waits in from's control queue until an injection VC of the data set has
// room (control packets go first, at the end of the cycle, before that
// cycle's generation: a packet sent during cycle t enters the network as
// one generated at t would; one sent by a gen hook, or by an arrive hook
// during the generation, waits for the next cycle's turn), is routed by
// the routing in use, and takes
// buffers, credits and link bandwidth; the node `to` hands it to the
// mechanism's receive. It is counted in the mechanism's ctlCount, never in
// the data metrics. Why this cannot deadlock: engine/TIMING.md, "Control
// packets".
func (s *Sim) sendPacket(id, from, to int, data int64) int32 {
	if id >= len(s.mech.recv) || s.mech.recv[id] == nil {
		panic(fmt.Sprintf("sim: mechanism %d sends a control packet without needPackets", id))
	}
	if from == to || from < 0 || to < 0 || from >= s.N || to >= s.N {
		panic(fmt.Sprintf("sim: control packet from node %d to node %d (nodes 0…%d, distinct)", from, to, s.N-1))
	}
	k := s.initPacket(s.alloc(), from, to, s.now, 0)
	s.tagControl(id, k, data)
	if int(s.mech.qHead[from]) == len(s.mech.q[from]) {
		s.mech.pending = append(s.mech.pending, int32(from))
	}
	s.mech.q[from] = append(s.mech.q[from], k)
	return k
}

// tagControl marks packet k as mechanism id's control packet with payload
// data, and counts it sent.
func (s *Sim) tagControl(id int, k int32, data int64) {
	if int(k) >= len(s.mech.tag) {
		s.mech.tag = append(s.mech.tag, make([]ctlTag, len(s.pk)-len(s.mech.tag))...)
	}
	s.mech.tag[k] = ctlTag{mech: int32(id) + 1, data: data}
	s.mech.live++
	s.mech.count[id].sent++
}

// isControl reports whether packet k is a control packet.
func (s *Sim) isControl(k int32) bool {
	return int(k) < len(s.mech.tag) && s.mech.tag[k].mech != 0
}

// controlPackets are mechanism id's control packets so far: sent,
// delivered, and their mean latency (NaN before the first delivery).
func (s *Sim) controlPackets(id int) (sent, delivered int64, meanLat float64) {
	if id >= len(s.mech.count) {
		return 0, 0, math.NaN()
	}
	c := s.mech.count[id]
	return c.sent, c.delivered, float64(c.latSum) / float64(c.delivered)
}

// mechCycle runs at the start of a cycle: control messages due now, then
// the cycle hooks.
func (s *Sim) mechCycle() {
	if s.mech.ctl != nil {
		slot := s.now & s.mech.ctlMask
		q := s.mech.ctl[slot]
		for i := 0; i < len(q); i++ { // a handler may send more (lat ≥ 1: never into this slot)
			s.mech.list[q[i].mech].control(s, q[i])
		}
		s.mech.ctl[slot] = q[:0]
	}
	for _, h := range s.hk.cycle {
		if h.every == 1 || s.now%h.every == 0 {
			h.f()
		}
	}
}

// genHeld is the cycle until which node's generation is held (the latest
// any generation hook asks).
func (s *Sim) genHeld(node int) int64 {
	var until int64
	for _, f := range s.hk.gen {
		until = max(until, f(node))
	}
	return until
}

// grantHooks runs the grant hooks (the grant site runs the contention
// counters' step, ccGrant, before them).
func (s *Sim) grantHooks(r, in, out, vc, outVC int, k int32) {
	for _, f := range s.hk.grant {
		f(r, in, out, vc, outVC, k)
	}
}

// arriveHooks runs the arrival hooks (the injection site runs the
// contention counters' step, ccHead, before them).
func (s *Sim) arriveHooks(pi, vc int, k int32) {
	for _, f := range s.hk.arrive {
		f(pi, vc, k)
	}
}

// landHooks runs the arrival hooks of a cycle's link arrivals (port<<39 |
// queue<<32 | packet; land runs the contention counters' step in its own
// loop).
func (s *Sim) landHooks(arr []uint64) {
	for _, e := range arr {
		for _, f := range s.hk.arrive {
			pi, vc := arrivalAt(e)
			f(pi, vc, int32(uint32(e)))
		}
	}
}

// sentHooks runs the source-queue departure hooks.
func (s *Sim) sentHooks(n, dst int, k int32) {
	for _, f := range s.hk.sent {
		f(n, dst, k)
	}
}

// ejectHooks runs the ejection hooks.
func (s *Sim) ejectHooks(k int32, t int64) {
	for _, f := range s.hk.eject {
		f(k, t)
	}
}
