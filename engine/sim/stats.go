package sim

import (
	"math"
	"phitsim/engine/config"

	"phitsim/engine/result"
	"phitsim/engine/routing"
	"phitsim/engine/stats"
	"phitsim/engine/topology"
	"phitsim/engine/traffic"
)

// stats are the counters of a run. "Window" counters cover the measured
// cycles [W, W+M): packets by delivery cycle, injections by generation cycle.
type counters struct {
	xbar      int64   // crossbar traversals (packet-hops), whole run
	linkPhits []int64 // phits sent per output port in the window (classPhits sums them)
	links     []int64 // connected ports of each class in the network
	// hops of the classes the packet cannot count (topologies of more
	// than 3 classes: it counts class 2 in ghops and the others in lhops)
	hx      *hopTable
	classes []string // class names, for the result's per-class rows
	totGen  int64
	totDel  int64

	gen                      int64
	del, delReq, delRep      int64
	latSum, injSum, rtSum    int64
	minLat, maxLat           int64
	hopsL, hopsG             int64
	maxHops                  int
	mis                      int64
	misFOGSim                int64    // non-minimal as FOGSim counts them (fogsimNonMinimal)
	fogValiant               bool     // a routing whose Valiant paths FOGSim counts as non-minimal
	misCat                   [4]int64 // by where the first non-minimal decision was taken
	phaseA                   [4]int64 // delivered non-minimal packets by phase-A policy
	maxLocalBeforeGlobal     int      // livelock guard check: local hops before the first global one
	sLevel                   []int64  // ACOR-Switch: Σ router levels per interval
	acorStatus               []int64  // ACOR: delivered packets by FOGSim's status (CRG-Gr, CRG-Sw, RRG-Sw)
	statusOf                 [3]uint8 // ACOR: the status of each level
	sLevels                  []int32  // ACOR-Switch: routers at level 1, 2, 3 at the end of each interval
	hist, hopsHist           []int64
	perRouter                []int64
	interval                 int64
	sDel, sGen, sLat, sMis   []int64
	sCnm                     []int64 // QCN-Switch: CNMs generated per interval (nil without it)
	nodes, routers, pktPhits int64

	// transient record (traffic.switchCycle > 0): delivered packets by
	// generation cycle in bins of config.TransientBin cycles from trFrom, as
	// FOGSim's .transient file (thesis §4.3.2)
	trFrom               int64
	trPkts, trMis, trLat []int64
	// with a load step (traffic.switchLoad) or ACOR-Switch levels, per bin:
	// packets generated (by generation cycle), phits delivered (by
	// delivery cycle), and ACOR-Switch's routers at levels 1–3 and group
	// 0's routers' levels at the bin's start (nil otherwise)
	trGen, trDel []int64
	trLevels     []int32
	trGroup      []int8

	// HOTSPOT: the paper's two traffic classes (Kim et al., Contention-based
	// Congestion Management in Large-Scale Networks §V-A: it reports the
	// non-hotspot class, and per sender the accepted hotspot bandwidth,
	// Fig. 14); hot is −1 without HOTSPOT, so that other runs pay one branch
	// per delivered packet
	hot int32
	hs  *hotspotCounters
	// UR1UR2's classes: per node its group, nil for other patterns (one
	// branch per packet)
	grp *groupCounters
}

// groupCounters count a pattern's traffic classes (traffic.Pattern.Group)
// in the window, by the source's group.
type groupCounters struct {
	of                      []int8
	nodes, gen, del, latSum [2]int64
	lo, hi                  [2]int64
}

// hotspotCounters count HOTSPOT's classes in the window: a hotspot packet
// goes from a sender to the hotspot, every other one is background.
type hotspotCounters struct {
	hotSends       bool // the hotspot is a background node (traffic.hotspotBackground ≠ UR)
	senders        []int32
	sender         []bool  // by node
	perSender      []int64 // delivered hotspot packets by node
	bgGen, bgDel   int64
	bgLat          int64
	hotGen, hotDel int64
	hotLat         int64
	hotMin, hotMax int64
	bgMin, bgMax   int64
	// with traffic.hotspotStart > 0, the background's packets delivered
	// and their latency summed per interval of Series, by delivery cycle
	// (result.HotspotClasses.Series; nil otherwise)
	sBgDel, sBgLat []int64
}

func (st *counters) init(s *Sim) {
	st.hist = make([]int64, s.cfg.Sim.HistMax)
	st.hopsHist = make([]int64, 16)
	st.perRouter = make([]int64, s.R)
	st.interval = int64(s.cfg.Sim.Interval)
	// sim.precision may measure up to its cap (measure.go)
	nb := (s.W+int64(s.cfg.Sim.MeasuredCap()))/st.interval + 1
	st.sDel, st.sGen, st.sLat, st.sMis = make([]int64, nb), make([]int64, nb), make([]int64, nb), make([]int64, nb)
	if s.metrics&routing.AcorLevels != 0 {
		st.sLevel = make([]int64, nb)
		st.sLevels = make([]int32, 3*nb)
		st.acorStatus = make([]int64, 3)
		for lv, pa := range s.acor.seq {
			st.statusOf[lv] = map[uint8]uint8{paCRGGr: 0, paCRGSw: 1, paRRGSw: 2}[pa]
		}
	}
	if s.pat2 != nil && s.wl == nil {
		st.trFrom = s.switchAt - config.TransientPrev
		if nb := s.cfg.TransientBins(); nb > 0 {
			st.trPkts, st.trMis, st.trLat = make([]int64, nb), make([]int64, nb), make([]int64, nb)
			levels := s.metrics&routing.AcorLevels != 0 && !s.acor.packet
			if s.cfg.Traffic.SwitchLoad > 0 || levels {
				st.trGen, st.trDel = make([]int64, nb), make([]int64, nb)
			}
			if levels {
				st.trLevels, st.trGroup = make([]int32, 3*nb), make([]int8, s.cfg.Topology.A*nb)
			}
		}
	}
	st.fogValiant = s.metrics&routing.FOGSimValiant != 0
	st.minLat = math.MaxInt64
	st.nodes, st.routers, st.pktPhits = int64(s.N), int64(s.R), int64(s.P)
	ncls := len(s.bufCap)
	st.linkPhits, st.links = make([]int64, len(s.ports)), make([]int64, ncls)
	for pi := range s.ports {
		// an unconnected port (a mesh's edge) carries nothing: no link
		if c := s.ports[pi].class; c == topology.Injection || s.ports[pi].peer >= 0 {
			st.links[c]++
		}
	}
	st.classes = topology.ClassNames(s.topo.Classes())
	st.countHopsFrom(s, 3)
	if s.pat.Group(0) >= 0 && s.pat2 == nil {
		g := &groupCounters{of: make([]int8, s.N), lo: [2]int64{math.MaxInt64, math.MaxInt64}}
		for n := range s.N {
			g.of[n] = int8(s.pat.Group(n))
			g.nodes[g.of[n]]++
		}
		st.grp = g
	}
	st.hot = -1
	for _, pt := range []*traffic.Pattern{s.pat, s.pat2} {
		if pt == nil {
			continue
		}
		if hot, senders := pt.Hotspot(); senders != nil {
			h := &hotspotCounters{senders: senders, sender: make([]bool, s.N), perSender: make([]int64, s.N),
				hotMin: math.MaxInt64, bgMin: math.MaxInt64}
			for _, n := range senders {
				h.sender[n] = true
			}
			bg := s.cfg.Traffic.HotspotBackground
			h.hotSends = bg != "" && bg != "UR" // the hotspot follows that pattern too
			if s.cfg.Traffic.HotspotStart > 0 {
				h.sBgDel, h.sBgLat = make([]int64, nb), make([]int64, nb)
			}
			st.hot, st.hs = int32(hot), h
			break
		}
	}
}

// hotspotClass: packet src → dst is in HOTSPOT's hotspot class (before a
// switch to HOTSPOT, a sender's packets to the hotspot count there too).
func (st *counters) hotspotClass(src, dst int32) bool {
	return dst == st.hot && st.hs.sender[src]
}

// hopTable counts by packet the hops of the classes from `from` on: per
// packet in perPkt (packet k's at k·nx), by a grant hook, and summed over
// the packets delivered in the window in sum, by an ejection hook.
type hopTable struct {
	from, nx int
	perPkt   []uint8
	sum      []int64
}

// countHopsFrom counts the hops of the classes from `from` on by packet
// (hooks; nothing when the topology has no such class). Tests count from a
// lower class to check the count against lhops and ghops.
func (st *counters) countHopsFrom(s *Sim, from int) {
	nx := len(s.bufCap) - from
	if nx <= 0 {
		st.hx = nil
		return
	}
	h := &hopTable{from: from, nx: nx, sum: make([]int64, nx)}
	st.hx = h
	s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) {
		c := int(s.pclass[r*s.radix+out])
		if c < from {
			return
		}
		i := int(k)*nx + c - from
		if i >= len(h.perPkt) {
			h.perPkt = append(h.perPkt, make([]uint8, i+1-len(h.perPkt)+nx*64)...)
		}
		h.perPkt[i]++
	})
	s.hk.eject = append(s.hk.eject, func(k int32, t int64) {
		i := int(k) * nx
		if i >= len(h.perPkt) {
			return // no hop of these classes
		}
		row := h.perPkt[i : i+nx]
		if t >= s.W && t < s.W+s.M {
			for c, n := range row {
				h.sum[c] += int64(n)
			}
		}
		clear(row) // the slot is free for the next packet
	})
}

// forgetHops drops the hop counts of packet k, freed without its ejection
// hooks (a control packet), so that the next packet of its id starts at 0.
func (st *counters) forgetHops(k int32) {
	if h := st.hx; h != nil && int(k)*h.nx < len(h.perPkt) {
		clear(h.perPkt[int(k)*h.nx : (int(k)+1)*h.nx])
	}
}

// classHops are the hops of class c (≥ 1) of the packets delivered in the
// window.
func (st *counters) classHops(c int) int64 {
	h := st.hx
	switch {
	case h != nil && c >= h.from:
		return h.sum[c-h.from]
	case c == int(topology.Global):
		return st.hopsG
	}
	// class 1: lhops counts every class but 2
	n := st.hopsL
	if h != nil {
		for x := max(h.from, int(topology.Global)+1); x-h.from < h.nx; x++ {
			n -= h.sum[x-h.from]
		}
	}
	return n
}

func (st *counters) bucket(t int64) int {
	b := int(t / st.interval)
	if b >= len(st.sDel) {
		b = len(st.sDel) - 1
	}
	return b
}

// generated counts a packet entering the network (or its source queue) at
// router r at cycle t; fairness counts injections here, as FOGSim does, and
// only the packets the nodes offer: a reply answers a request received
// (FOGSim v5 counts packetsInj in generatorModule::inject, not for the reply
// injected at the request's consumption).
func (st *counters) generated(s *Sim, src, dst int32, t int64, reply bool) {
	st.totGen++
	st.sGen[st.bucket(t)]++
	if st.trGen != nil {
		if i := (t - st.trFrom) / config.TransientBin; t >= st.trFrom && i < int64(len(st.trGen)) {
			st.trGen[i]++
		}
	}
	if t < s.W || t >= s.W+s.M {
		return
	}
	st.gen++
	if st.grp != nil {
		st.grp.gen[st.grp.of[src]]++
	}
	r := int(s.nodeAt[src].router)
	if st.hot >= 0 {
		if st.hotspotClass(src, dst) {
			st.hs.hotGen++
		} else {
			st.hs.bgGen++
		}
	}
	if !reply {
		st.perRouter[r]++
	}
}

func (st *counters) delivered(s *Sim, pk *packet, t int64) {
	st.totDel++
	lat := t - pk.gen + int64(s.P)
	b := st.bucket(t)
	st.sDel[b]++
	st.sLat[b] += lat
	if pk.flags&fNonMin != 0 {
		st.sMis[b]++
	}
	if st.trDel != nil {
		if i := (t - st.trFrom) / config.TransientBin; t >= st.trFrom && i < int64(len(st.trDel)) {
			st.trDel[i] += int64(s.P)
		}
	}
	if st.trPkts != nil {
		if i := (pk.gen - st.trFrom) / config.TransientBin; pk.gen >= st.trFrom && i < int64(len(st.trPkts)) {
			st.trPkts[i]++
			st.trLat[i] += lat
			// FOGSim's transient record counts a global misroute or a Valiant path
			if pk.flags&fGlobalMis != 0 || pk.flags&fNonMin != 0 && pk.inter >= 0 {
				st.trMis[i]++
			}
		}
	}
	if st.hot >= 0 && st.hs.sBgDel != nil && !st.hotspotClass(pk.src, pk.dst) {
		st.hs.sBgDel[b]++
		st.hs.sBgLat[b] += lat
	}
	if t < s.W || t >= s.W+s.M {
		return
	}
	st.del++
	st.latSum += lat
	st.injSum += pk.inj - pk.gen
	st.minLat = min(st.minLat, lat)
	st.maxLat = max(st.maxLat, lat)
	st.hist[min(lat, int64(len(st.hist)-1))]++
	hops := int(pk.lhops) + int(pk.ghops)
	st.hopsL += int64(pk.lhops)
	st.hopsG += int64(pk.ghops)
	st.maxHops = max(st.maxHops, hops)
	st.hopsHist[min(hops, len(st.hopsHist)-1)]++
	if g := st.grp; g != nil {
		c := g.of[pk.src]
		g.del[c]++
		g.latSum[c] += lat
		g.lo[c], g.hi[c] = min(g.lo[c], lat), max(g.hi[c], lat)
	}
	if st.hot >= 0 {
		h := st.hs
		if st.hotspotClass(pk.src, pk.dst) {
			h.hotDel++
			h.hotLat += lat
			h.hotMin, h.hotMax = min(h.hotMin, lat), max(h.hotMax, lat)
			h.perSender[pk.src]++
		} else {
			h.bgDel++
			h.bgLat += lat
			h.bgMin, h.bgMax = min(h.bgMin, lat), max(h.bgMax, lat)
		}
	}
	if pk.flags&fNonMin != 0 || st.fogValiant && s.fogsimNonMinimal(pk) {
		st.misFOGSim++
	}
	if st.acorStatus != nil {
		// FOGSim's status: the level of the last attempt; intra-group
		// packets take its local misroute, which sets RRG-Sw
		status := st.statusOf[pk.mis>>4&3]
		if s.df.GroupOf(int(s.nodeAt[pk.src].router)) == s.df.GroupOf(int(pk.dstRouter)) {
			status = 2
		}
		st.acorStatus[status]++
	}
	if pk.flags&fNonMin != 0 {
		st.mis++
		st.misCat[pk.mis&3]++
		if pk.inter >= 0 {
			st.phaseA[pk.mis>>2&3]++
		}
	}
	switch {
	case pk.flags&fRequest != 0:
		st.delReq++
	case pk.flags&fReply != 0:
		st.delRep++
		st.rtSum += lat + pk.reqLat
	}
}

// Snapshot turns the counters into a result: at the end of a run, or at any
// time for partial metrics (then the window is the measured part so far).
func (s *Sim) Snapshot() *result.Result {
	st := &s.st
	res := &result.Result{Engine: result.EngineVersion, Config: s.cfg, Seed: s.seed,
		Offered: s.cfg.Traffic.Load}
	measured := min(max(s.now-s.W, 0), s.M)
	if measured > 0 {
		den := float64(st.nodes * measured)
		res.Applied = float64(st.gen*st.pktPhits) / den
		res.Accepted = float64(st.del*st.pktPhits) / den
		if s.cfg.Traffic.Reactive {
			res.RequestAccepted = float64(st.delReq*st.pktPhits) / den
			res.ReplyAccepted = float64(st.delRep*st.pktPhits) / den
		}
		// per class: phits per link (output port) and cycle
		phits := s.classPhits()
		util := func(c topology.PortClass) float64 {
			if st.links[c] == 0 {
				return 0
			}
			return float64(phits[c]) / float64(st.links[c]*measured)
		}
		res.Links.Injection = util(topology.Injection)
		if s.df != nil {
			res.Links.Local, res.Links.Global = util(topology.Local), util(topology.Global)
		} else {
			res.Classes = make([]result.ClassStat, len(st.classes))
			for c, name := range st.classes {
				res.Classes[c] = result.ClassStat{Class: name, Links: st.links[c], Utilisation: util(topology.PortClass(c))}
			}
		}
	}
	res.Generated, res.Delivered = st.gen, st.del
	if st.del > 0 {
		d := float64(st.del)
		res.Latency = result.Summary{Avg: float64(st.latSum) / d, Min: st.minLat, Max: st.maxLat}
		res.InjLatency = float64(st.injSum) / d
		res.NetLatency = res.Latency.Avg - res.InjLatency
		res.Hops = result.Hops{Avg: float64(st.hopsL+st.hopsG) / d, Max: st.maxHops}
		if s.df != nil {
			res.Hops.Local, res.Hops.Global = float64(st.hopsL)/d, float64(st.hopsG)/d
		} else {
			for c := 1; c < len(res.Classes); c++ {
				res.Classes[c].Hops = float64(st.classHops(c)) / d
			}
		}
		res.Misrouted = result.Misrouted{Packets: st.mis, Fraction: float64(st.mis) / d, FOGSim: st.misFOGSim,
			AtInjection: st.misCat[catInjection], InSourceGroup: st.misCat[catSourceGroup],
			InIntermediateGrp: st.misCat[catIntermediate], MaxLocalBeforeGlobal: st.maxLocalBeforeGlobal}
		if st.mis > 0 && s.metrics&routing.PhaseAShares != 0 {
			res.Misrouted.PhaseA = make([]float64, len(st.phaseA))
			for i, n := range st.phaseA {
				res.Misrouted.PhaseA[i] = float64(n) / float64(st.mis)
			}
			res.Misrouted.PhaseANames = PhaseANames
		}
		if st.acorStatus != nil {
			res.Misrouted.AcorStatus = make([]float64, 3)
			for i, n := range st.acorStatus {
				res.Misrouted.AcorStatus[i] = float64(n) / d
			}
		}
	}
	if st.hs != nil && measured > 0 {
		res.Hotspot = st.hotspotResult(int64(s.N), measured)
	}
	if g := st.grp; g != nil && measured > 0 {
		for c, name := range [2]string{"UR1", "UR2"} {
			tc := result.TrafficClass{Nodes: int(g.nodes[c]), Generated: g.gen[c], Delivered: g.del[c]}
			if n := float64(g.nodes[c] * measured); n > 0 {
				tc.Applied = float64(g.gen[c]*st.pktPhits) / n
				tc.Accepted = float64(g.del[c]*st.pktPhits) / n
			}
			if g.del[c] > 0 {
				tc.Latency = result.Summary{Avg: float64(g.latSum[c]) / float64(g.del[c]), Min: g.lo[c], Max: g.hi[c]}
			}
			res.Groups = append(res.Groups, result.GroupClass{Name: name, Class: tc})
		}
	}
	if st.delRep > 0 {
		res.ReplyRoundTrip = float64(st.rtSum) / float64(st.delRep)
	}
	inj := st.perRouter
	if s.ft != nil {
		inj = inj[:s.N/s.ft.K] // a fat tree's hosts are on its leaves, routers 0…N/k−1; the switches above inject nothing
	}
	res.Fairness = stats.Fairness(append([]int64(nil), inj...))
	if s.wl != nil {
		// a Graph500 job: fairness among its routers (idle or background
		// routers are not starved by the job); PerRouter stays the network's
		res.Fairness = JobFairness(res)
	}
	res.LatencyHist = trimZeros(st.hist)
	res.HopsHist = trimZeros(st.hopsHist)
	nb := min(int((s.now+st.interval-1)/st.interval), len(st.sDel))
	for b := 0; b < nb; b++ {
		end := min(int64(b+1)*st.interval, s.now)
		span := end - int64(b)*st.interval
		if span <= 0 {
			break
		}
		smp := result.Sample{Cycle: end,
			Accepted: float64(st.sDel[b]*st.pktPhits) / float64(st.nodes*span),
			Applied:  float64(st.sGen[b]*st.pktPhits) / float64(st.nodes*span)}
		if st.sLevel != nil {
			smp.AcorLevel = float64(st.sLevel[b]) / float64(st.routers*span)
			smp.AcorRouters = append([]int32(nil), st.sLevels[3*b:3*b+3]...)
		}
		if st.sCnm != nil {
			res.SeriesCNMs = append(res.SeriesCNMs, st.sCnm[b])
		}
		if st.sDel[b] > 0 {
			smp.Latency = float64(st.sLat[b]) / float64(st.sDel[b])
			smp.Misrouted = 100 * float64(st.sMis[b]) / float64(st.sDel[b])
		}
		res.Series = append(res.Series, smp)
		if h := st.hs; res.Hotspot != nil && h.sBgDel != nil {
			ci := result.ClassInterval{Delivered: h.sBgDel[b]}
			if ci.Delivered > 0 {
				ci.Latency = float64(h.sBgLat[b]) / float64(ci.Delivered)
			}
			res.Hotspot.Series = append(res.Hotspot.Series, ci)
		}
	}
	if s.rn != nil {
		res.RECN = s.rn.result(nb)
	}
	if st.trPkts != nil {
		res.Transient = result.NewTransient(st.trFrom-s.switchAt, config.TransientBin, st.trPkts, st.trMis, st.trLat)
		res.Transient.Generated, res.Transient.Delivered = st.trGen, st.trDel
		res.Transient.Levels, res.Transient.Group0 = st.trLevels, st.trGroup
		if s.qc != nil {
			res.Transient.Probabilities = s.qc.probabilities(s)
		}
	}
	if s.qc != nil && s.pat2 == nil {
		res.SeriesProbabilities = s.qc.seriesProbabilities(s)
	}
	if s.acor.level != nil && !s.acor.packet {
		res.AcorLevels = make([]uint8, s.R)
		for r, lv := range s.acor.level {
			res.AcorLevels[r] = lv + 1
		}
	}
	res.Mechanisms = s.mechReports()
	res.Order = s.ord.report()
	res.Conservation = result.Conservation{TotalGenerated: st.totGen, TotalDelivered: st.totDel, InFlight: s.live - s.mech.live + s.parked} // data only: control packets are their mechanism's
	res.SimCycles, res.PacketHops = s.now, st.xbar
	if s.wl != nil {
		res.Graph500 = s.wl.job.Report(max(0, s.now-s.wl.start))
	} else if measured > 0 && s.now >= s.W+s.M {
		expected := res.Offered * float64(st.nodes*measured) / float64(st.pktPhits) // packets
		short := expected - float64(st.del)
		if short > 0.05*expected+4*math.Sqrt(expected) {
			res.Saturated = true
			res.SatReason = "accepted load below offered load"
		}
	}
	return res
}

// hotspotResult: HOTSPOT's classes over the measured cycles; the
// background's loads per background node (every node but the senders and,
// unless it follows a TORNADO background, the hotspot), the hotspot's at the hotspot's ejection and per sender.
func (st *counters) hotspotResult(nodes, measured int64) *result.HotspotClasses {
	h := st.hs
	phits := float64(st.pktPhits)
	bgNodes := nodes - 1 - int64(len(h.senders))
	if h.hotSends {
		bgNodes++ // traffic.hotspotBackground TORNADO: the hotspot sends too
	}
	cls := func(n, gen, del, latSum, lo, hi int64) result.TrafficClass {
		c := result.TrafficClass{Nodes: int(n), Generated: gen, Delivered: del}
		if n > 0 {
			c.Applied = float64(gen) * phits / float64(n*measured)
			c.Accepted = float64(del) * phits / float64(n*measured)
		}
		if del > 0 {
			c.Latency = result.Summary{Avg: float64(latSum) / float64(del), Min: lo, Max: hi}
		}
		return c
	}
	out := &result.HotspotClasses{
		Background: cls(bgNodes, h.bgGen, h.bgDel, h.bgLat, h.bgMin, h.bgMax),
		// the hotspot class per cycle at the hotspot's ejection (1 at most)
		Hotspot: cls(1, h.hotGen, h.hotDel, h.hotLat, h.hotMin, h.hotMax),
		Node:    st.hot,
		Senders: append([]int32(nil), h.senders...),
	}
	out.SenderAccepted = make([]float64, len(h.senders))
	for i, n := range h.senders {
		out.SenderAccepted[i] = float64(h.perSender[n]) * phits / float64(measured)
	}
	return out
}

func trimZeros(x []int64) []int64 {
	n := len(x)
	for n > 0 && x[n-1] == 0 {
		n--
	}
	return append([]int64(nil), x[:n]...)
}

// fogsimNonMinimal: FOGSim flags a packet misrouted as soon as it is given a
// Valiant path (its oblivious VAL and OBL routings at injection; ACOR when the
// intermediate is not reached at the source router), even when that path
// happens to be minimal; phitsim's own count (fNonMin) takes only paths that
// leave the minimal one. Adaptive decisions set fNonMin in both.
func (s *Sim) fogsimNonMinimal(pk *packet) bool {
	if pk.inter < 0 {
		return false
	}
	switch s.routing {
	case routeVAL:
		return true
	case routeACOR:
		return !s.interReached(int(s.nodeAt[pk.src].router), pk)
	}
	return false
}

// classPhits: the window's phits sent per port class.
func (s *Sim) classPhits() []int64 {
	out := make([]int64, len(s.st.links))
	for pi, v := range s.st.linkPhits {
		out[s.ports[pi].class] += v
	}
	return out
}

// BusiestLink is the transit link (a connected output port, not a node's
// ejection link) that sent the most phits in the measured window, and its
// utilisation in phits per cycle; nil before the window or on a network
// without transit links. The first such port wins a tie. It is not part of
// Snapshot's document (the golden hashes predate it): sweep.RunJob and the
// page's worker add it (AddBusiestLink).
func (s *Sim) BusiestLink() *result.BusiestLink {
	measured := min(max(s.now-s.W, 0), s.M)
	best := -1
	for pi, v := range s.st.linkPhits {
		p := &s.ports[pi]
		if p.class == topology.Injection || p.peer < 0 {
			continue
		}
		if best < 0 || v > s.st.linkPhits[best] {
			best = pi
		}
	}
	if measured <= 0 || best < 0 {
		return nil
	}
	return &result.BusiestLink{Router: best / s.radix, Port: best % s.radix,
		Class: s.st.classes[s.ports[best].class], Utilisation: float64(s.st.linkPhits[best]) / float64(measured)}
}

// AddBusiestLink puts BusiestLink into r, Run's result (and into its
// quality when the run assessed itself: sim.autoWarmup, sim.precision).
func (s *Sim) AddBusiestLink(r *result.Result) {
	r.BusiestLink = s.BusiestLink()
	if r.Quality != nil && r.BusiestLink != nil {
		c := *r.BusiestLink
		r.Quality.Links.Link = &c
	}
}
