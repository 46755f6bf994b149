package sim

import (
	"fmt"

	"phitsim/engine/config"
	"phitsim/engine/graph500"
	"phitsim/engine/result"
	"phitsim/engine/stats"
)

// The Graph500 workload (workload.kind = graph500): the closed-loop BFS model
// of package graph500 runs one process on every node of the job; the other
// nodes are idle or carry the traffic section's synthetic traffic. The run
// ends when the BFS ends (sim.cycles is only a cap).

// pktMeta is what the workload attaches to a packet, in a side array indexed
// by packet id (kind None: not a job packet).
type pktMeta struct {
	queries int64 // a query's queries; a reduction's queries delivered to its sender
	level   uint8
	kind    graph500.Kind
}

type workload struct {
	s          *Sim
	job        *graph500.Job
	node       []int32 // process → node
	rank       []int32 // node → process, −1 outside the job
	background bool
	// start: the cycle the job starts (workload.start); the job counts its
	// time from it (it is given now − start)
	start    int64
	perGroup int // nodes per group (topology.Groups)
	// per node: the last cycle its process found the injection buffer
	// full, and the first of that run of attempts (the packet's
	// generation: its latency includes the wait, as a synthetic packet's
	// includes its source queue)
	blockedAt, blockedSince []int64
	meta                    []pktMeta
	// job packets sent by the nodes of each group, and those of them bound
	// for another group (indexed by group)
	sentBy, offGroup []int64
	pt               *wlPart // a partitioned run's side (parallel_graph500.go)
	// parked: per node, its job packets dropped in the network (SRP's
	// speculative drops) until their NACK re-creates them at the node
	// under a new id, each by its generation cycle, which is unique among
	// a node's job packets (its process hands over one packet per cycle)
	parked [][]parkedMeta
}

// parkedMeta is a dropped job packet's metadata and generation cycle.
type parkedMeta struct {
	gen  int64
	meta pktMeta
}

// park keeps the metadata of job packet k, dropped in the network (its id
// is released), for its re-creation at its source (unpark).
func (wl *workload) park(k int32) {
	if int(k) >= len(wl.meta) || wl.meta[k].kind == graph500.None {
		return
	}
	if wl.parked == nil {
		wl.parked = make([][]parkedMeta, wl.s.N)
	}
	pk := &wl.s.pk[k]
	wl.parked[pk.src] = append(wl.parked[pk.src], parkedMeta{pk.gen, wl.meta[k]})
	wl.meta[k] = pktMeta{}
}

// unpark gives packet k, re-created at node n with generation gen, the
// metadata of the job packet dropped with them (none for a synthetic one).
func (wl *workload) unpark(n int, gen int64, k int32) {
	if wl.parked == nil {
		return
	}
	l := wl.parked[n]
	for i, p := range l {
		if p.gen == gen {
			for int(k) >= len(wl.meta) {
				wl.meta = append(wl.meta, pktMeta{})
			}
			wl.meta[k] = p.meta
			wl.parked[n] = append(l[:i], l[i+1:]...)
			return
		}
	}
}

// initWorkload sets up the Graph500 job of a graph500 config (nothing for
// synthetic traffic). Warm-up does not apply: the run starts with the BFS.
func (s *Sim) initWorkload() error {
	c := &s.cfg
	if !c.Graph500() {
		return nil
	}
	s.switchAt -= s.W
	s.W = 0
	w := &c.Workload
	wl := &workload{s: s, background: w.Background, start: int64(w.Start), rank: make([]int32, s.N),
		perGroup: s.N / s.groups}
	for i := range wl.rank {
		wl.rank[i] = -1
	}
	join := func(n int) {
		wl.rank[n] = int32(len(wl.node))
		wl.node = append(wl.node, int32(n))
	}
	if w.Placement == "pattern" {
		// the traffic pattern's first class (traffic.Pattern.Class)
		for n := range s.N {
			if s.pat.Class(n) == 0 {
				join(n)
			}
		}
	} else {
		for _, g := range w.JobGroups(s.groups) {
			for k := range wl.perGroup {
				join(g*wl.perGroup + k)
			}
		}
	}
	wl.sentBy, wl.offGroup = make([]int64, s.groups), make([]int64, s.groups)
	wl.blockedAt, wl.blockedSince = make([]int64, s.N), make([]int64, s.N)
	for i := range wl.blockedAt {
		wl.blockedAt[i] = -2
	}
	if len(wl.node) < 2 {
		return fmt.Errorf("workload.placement: the job has %d process(es) on this traffic pattern; it needs at least 2", len(wl.node))
	}
	s.wl = wl
	wl.job = graph500.NewJob(Graph500Params(c), len(wl.node), wl, s.seed)
	return nil
}

// graph500Params converts the workload section into simulator units.
func Graph500Params(c *config.Config) graph500.Params {
	w := &c.Workload
	cycleNs := w.CycleNs()
	p := graph500.Params{Scale: w.Scale, EdgeFactor: w.EdgeFactor, Coalescing: w.Coalescing,
		QueriesPerPacket: max(1, c.Router.PacketSize*w.PhitBytes/w.QueryBytes), PacketPhits: c.Router.PacketSize,
		TqCycles: w.Tq / cycleNs, CycleNs: cycleNs,
		LevelSampling: w.Sampling == "level", Bernoulli: w.Injection == "bernoulli",
		ReduceAfterWork: w.ReduceAfterWork, BudgetCap: w.BudgetCap, RootDegree: w.RootDegree,
		MaxLevels: w.MaxLevels, TailLevel: w.TailLevel, TailFraction: w.TailFraction,
		Interval: int64(c.Sim.Interval)}
	if w.Coefficients == "fogsim" {
		p.Coeffs = graph500.FOGSim
	}
	return p
}

// EstimatedCycles is the length of a run for progress reports and cost
// estimates: warm-up + measured cycles — with sim.precision the measured
// cap, which the run reaches at most (progress may then end short of
// 100 %, never past it) — or for a Graph500 run a rough estimate of the
// BFS's duration (at most the cap).
func EstimatedCycles(c *config.Config) int64 {
	if !c.Graph500() {
		return int64(c.Sim.Warmup + c.Sim.MeasuredCap())
	}
	return min(int64(c.Sim.Cycles), int64(c.Workload.Start)+graph500.EstimateCycles(Graph500Params(c), Graph500Nodes(c)))
}

// Graph500Nodes bounds the nodes a Graph500 job of c runs on: its groups'
// nodes, or on a traffic class at most every node.
func Graph500Nodes(c *config.Config) int {
	sz, _ := c.Topology.Sizes()
	if c.Workload.Placement != "pattern" {
		return sz.Nodes / sz.Groups * len(c.Workload.JobGroups(sz.Groups))
	}
	return sz.Nodes
}

// Send injects one job packet from process src to process dst (graph500.Net).
func (wl *workload) Send(src, dst int, k graph500.Kind, level int, queries int64) bool {
	s := wl.s
	n, d := int(wl.node[src]), int(wl.node[dst])
	if s.sqAct != nil {
		return wl.queue(src, n, d, k, level, queries)
	}
	vc := wl.injectionVC(n, dst, d)
	if vc < 0 {
		return wl.blocked(n) // the process retries the same packet in the next cycle
	}
	s.enqueue(wl.packet(n, d, k, level, queries), vc, s.now)
	return true
}

// blocked records that node n's process could not hand its packet over
// this cycle (it retries in the next); it returns false, Send's answer.
func (wl *workload) blocked(n int) bool {
	now := wl.s.now
	if wl.blockedAt[n] != now-1 {
		wl.blockedSince[n] = now
	}
	wl.blockedAt[n] = now
	return false
}

// packet creates a job packet from node n to node d with its metadata and
// counts it; its generation is the process's first attempt to send it.
func (wl *workload) packet(n, d int, k graph500.Kind, level int, queries int64) int32 {
	s := wl.s
	gen := s.now
	if wl.blockedAt[n] == s.now-1 {
		gen = wl.blockedSince[n]
	}
	id := s.newPacket(n, d, gen, 0)
	for int(id) >= len(wl.meta) {
		wl.meta = append(wl.meta, pktMeta{})
	}
	wl.meta[id] = pktMeta{queries: queries, level: uint8(level), kind: k}
	g := n / wl.perGroup
	wl.sentBy[g]++
	if d/wl.perGroup != g {
		wl.offGroup[g]++
	}
	return id
}

// queue puts one job packet from process src (node n) to node d into n's
// per-destination source queue, the network interface of synthetic
// messages (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §V-A): the queue pair's round-robin then moves it
// into an injection VC (drain), and a mechanism's holds and reservations
// act on it as on a synthetic packet. The process still hands its message
// over one packet per cycle; at the message's first packet the mechanism
// learns the whole message (onMessage: SRP reserves for its packet count).
// The process blocks only when the queue is bounded
// (traffic.admittanceQueue) and full, retrying in the next cycle; its
// packet's generation is its first attempt, so the wait in the queue (and
// before it) counts in the job's latency.
func (wl *workload) queue(src, n, d int, k graph500.Kind, level int, queries int64) bool {
	s := wl.s
	if s.admCap > 0 && s.admQueued(n, d) >= s.admCap {
		return wl.blocked(n)
	}
	id := wl.packet(n, d, k, level, queries)
	q := s.destQueue(n, d)
	s.sq[q] = append(s.sq[q], id)
	if first, m := wl.job.Message(src); first && s.onMessage != nil {
		s.onMessage(n, d, m)
	}
	return true
}

// drain moves the job's queued packets into their injection VCs, one per
// node and cycle, as the generator loop does for synthetic nodes (a node
// whose every flow with packets is held sleeps: flowGate).
func (wl *workload) drain() {
	s := wl.s
	for _, n32 := range wl.node {
		n := int(n32)
		if s.sqReady(n) {
			s.drainDest(n)
		}
	}
}

// injectionVC picks the injection VC of a job packet from node n to process
// dst (node d); −1 when it has no room. The dest policy partitions the
// destinations over the VCs by the job's ranks: ⌊rank·VCs/processes⌋, so a
// job on the first groups of a larger network spreads its packets over every
// VC (mapped over all the network's nodes, as FOGSim's getInjectionVC does,
// every packet of a job on fewer than N/VCs nodes would share VC 0). The
// other policies look at the buffers only: the engine's choice.
func (wl *workload) injectionVC(n, dst, d int) int {
	s := wl.s
	if s.injPolicy != 0 {
		return s.chooseVC(n, d, false)
	}
	v := int(int64(dst) * int64(s.reqVCs) / int64(len(wl.node)))
	if s.slotsFree(n, v) > 0 {
		return v
	}
	return -1
}

// generate runs the job's processes for this cycle; it reports whether the
// synthetic generators have nothing left to do (no background traffic).
func (wl *workload) generate() bool {
	if now := wl.s.now; now >= wl.start {
		if now == wl.start {
			// an idle network before the job (no background): the
			// watchdog counts from the job's start, not the last move
			wl.s.lastProgress = max(wl.s.lastProgress, now)
		}
		wl.job.Step(now - wl.start)
	}
	if wl.s.sqAct != nil {
		wl.drain()
	}
	return !wl.background
}

// inJob reports whether node n runs a process of the job.
func (wl *workload) inJob(n int) bool { return wl.rank[n] >= 0 }

// delivered hands a delivered job packet to its process.
func (wl *workload) delivered(k int32, t int64) {
	if int(k) >= len(wl.meta) || wl.meta[k].kind == graph500.None {
		return
	}
	m := wl.meta[k]
	wl.meta[k] = pktMeta{}
	pk := &wl.s.pk[k]
	// the packet's latency as the result's (generation to the tail's
	// delivery): the job's own class beside the synthetic ones
	wl.job.Latency(t - pk.gen + int64(wl.s.P))
	wl.job.Deliver(int(wl.rank[pk.dst]), m.kind, int(m.level), m.queries, t-wl.start)
}

// done: the BFS has ended.
func (wl *workload) done() bool { return wl.job.Done() }

// JobRouters lists the routers whose nodes run the Graph500 job of c (every
// router for synthetic traffic), in increasing order.
func JobRouters(c *config.Config) []int {
	sz, _ := c.Topology.Sizes()
	if !c.Graph500() || c.Workload.Placement == "pattern" {
		// a job on a traffic class: HOTSPOT's and UR1UR2's first class
		// has nodes on every router
		out := make([]int, sz.Routers)
		for i := range out {
			out[i] = i
		}
		return out
	}
	a := sz.Routers / sz.Groups // the job runs on groups (a topology without Dragonfly groups is one)
	var out []int
	for _, g := range c.Workload.JobGroups(sz.Groups) {
		for r := g * a; r < (g+1)*a; r++ {
			out = append(out, r)
		}
	}
	return out
}

// JobFairness is the injection fairness of a run over the routers of its
// Graph500 job: the result's fairness (stats.go) is over every router, so a
// job on some groups shows the idle routers as starved. PerRouter stays the
// whole network's (indexed by router); MinRouter and MaxRouter are router
// numbers.
func JobFairness(r *result.Result) result.Fairness {
	per := r.Fairness.PerRouter
	routers := JobRouters(&r.Config)
	sub := make([]int64, 0, len(routers))
	for _, rt := range routers {
		if rt < len(per) {
			sub = append(sub, per[rt])
		}
	}
	f := stats.Fairness(sub)
	if len(sub) == len(routers) && len(sub) > 0 {
		f.MinRouter, f.MaxRouter = routers[f.MinRouter], routers[f.MaxRouter]
	}
	f.PerRouter = per
	return f
}
