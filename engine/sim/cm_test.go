package sim

// The congestion-management seams (Kim et al., "Contention-based Congestion
// Management in Large-Scale Networks"): flow holds at per-destination
// source queues, the isolated class, node-sent packets on the priority
// class; on the 16-node 1D flattened butterfly (4 routers of 4 nodes).

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
	"phitsim/engine/vcs"
)

// cmConfig is the paper's 16-node network with per-destination source
// queues, input pointers that move on a grant, no generated traffic, and
// scheme.
func cmConfig(scheme, routing string) config.Config {
	c := config.FBFly(1, 4, 4)
	c.Routing.Name = routing
	c.Traffic.Load = 0
	c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
	c.Congestion.Scheme = scheme
	// BookSim's separable allocator moves an input's pointer only on a
	// grant: with FOGSim's move-on-request, an isolated-class head can lose
	// every output round in lockstep with its input's data VCs (Ideal(MIN)
	// under Fig. 2 starved within 500 cycles)
	c.Router.InputArbiter = "rrgrant"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, 20000, 1
	return c
}

// A held flow does not block its node's other flows (§IV-B3, the source
// arbitration over eligible queues only): node 0 queues packets to nodes 5
// and 9 alternately; with 0 → 5 held, every packet to 9 is delivered and
// none to 5; released, those go too. With the round-robin blind to the
// hold, 0 → 5 would leave, or (holding the turn) block 0 → 9.
func TestHeldFlowDoesNotBlockTheNodesOtherFlows(t *testing.T) {
	s, err := New(cmConfig("", "MIN"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.needFlowHolds(); err != nil {
		t.Fatal(err)
	}
	got := map[int32]int{}
	s.hk.eject = append(s.hk.eject, func(k int32, _ int64) { got[s.pk[k].dst]++ })
	s.holdFlow(0, 5, 1<<40)
	for range 10 {
		s.queueMessage(0, 5, 0)
		s.queueMessage(0, 9, 0)
	}
	for range 3000 {
		s.Step()
	}
	if got[9] != 10 || got[5] != 0 {
		t.Fatalf("with 0 → 5 held: delivered %d to node 9 (want 10) and %d to node 5 (want 0)", got[9], got[5])
	}
	if s.fg.wake[0] <= s.now {
		t.Errorf("node 0 has only a held flow left and is not asleep (wake %d, now %d)", s.fg.wake[0], s.now)
	}
	s.holdFlow(0, 5, 0) // released: the node wakes
	runUntilEmpty(t, s, 3000)
	if got[5] != 10 {
		t.Errorf("released: delivered %d to node 5, want 10", got[5])
	}
}

// The isolated class on the flattened butterfly is one VC per port, taken
// again at each dimension-order hop, above the data VCs; the walk of its
// channel dependencies (1D and 2D) finds no cycle; on a Dragonfly one VC
// per class would close a cycle and the class is MIN's 2 local + 1 global
// (Kim et al. notes for the Dragonfly: a hotspot VC class).
func TestIsolatedClassIsMinimalAndAcyclic(t *testing.T) {
	for _, tc := range []struct {
		dims, k, c int
	}{{1, 4, 4}, {2, 3, 2}} {
		c := cmConfig("ideal", "UGAL")
		c.Topology.Dimensions, c.Topology.K, c.Topology.P = tc.dims, tc.k, tc.c
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.iso.seq) != 1 || !s.iso.seq[0].Repeat {
			t.Errorf("%dD: isolated sequence %+v, want one repeated link VC", tc.dims, s.iso.seq)
		}
		if err := vcs.Walk(s.topo, s.iso.seq); err != nil {
			t.Errorf("%dD: %v", tc.dims, err)
		}
		// router.voq (the paper's router): the 4 data VCs per output, the
		// isolated VC once per input, after them
		l := topology.FBFlyLink
		if q := s.radix * 4; int(s.isoBase[l]) != q || s.vcCount[l] != 5 || s.dataVCs(l) != 4 || s.nq[l] != q+1 {
			t.Errorf("%dD: link VCs: isolated from queue %d, %d VCs, %d data, %d queues; want %d, 5, 4, %d", tc.dims, s.isoBase[l], s.vcCount[l], s.dataVCs(l), s.nq[l], q, q+1)
		}
	}
	c := smallConfig(2)
	c.Congestion.Scheme = "ideal"
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if per := s.iso.seq.PerClass(len(s.vcCount)); per[topology.Local] != 2 || per[topology.Global] != 1 {
		t.Errorf("Dragonfly: isolated class %v per class, want 2 local and 1 global", per)
	}
	if err := vcs.Walk(s.topo, s.iso.seq); err != nil {
		t.Error(err)
	}
	one, _ := vcs.Parse("local* global*", topology.ClassNames(s.topo.Classes()))
	if vcs.Walk(s.topo, one) == nil {
		t.Error("Dragonfly: one VC per class walks acyclic; the walk cannot tell")
	}
}

// Ideal's hotspot flows take the isolated class and the minimal path while
// UGAL misroutes the rest (§V-A: hotspot traffic on its own VC, routed
// minimally). Paper's Fig. 2 pattern (senders 0, 5, 8, 12 → node 4, UR
// among the other 11), UGAL at 0.6, 5,000 cycles.
func TestIdealHotspotFlowsAreIsolatedAndMinimal(t *testing.T) {
	c := cmConfig("ideal", "UGAL")
	c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders = "HOTSPOT", 4, "0,5,8,12"
	c.Traffic.Load = 0.6
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	var hot, hotLong, bg, bgLong int
	s.hk.eject = append(s.hk.eject, func(k int32, _ int64) {
		pk := &s.pk[k]
		if pk.dst == 4 {
			hot++
			if pk.lhops > 1 {
				hotLong++
			}
		} else {
			bg++
			if pk.lhops > 1 {
				bgLong++
			}
		}
	})
	for range 5000 {
		s.Step()
	}
	if m := s.mech.list[0].(*ideal); hot == 0 || hotLong != 0 || m.packets != int64(hot) {
		t.Errorf("hotspot packets: %d delivered, %d non-minimal, %d counted on the class", hot, hotLong, m.packets)
	}
	if bgLong == 0 {
		t.Errorf("UGAL routed none of the %d background packets non-minimally: the test cannot tell", bg)
	}
}

// A node-sent packet on the priority class (ECN's BECN) is served before
// the data queued ahead of it: node 0 queues three data packets to node 5
// in its injection VC, then sends a priority packet to node 5; the
// priority packet is consumed first (the input stage serves its control VC
// first; the output, granted after... the data's). Without the priority it
// would wait for the three data packets at the output.
func TestNodeSentPriorityPacketsGoFirst(t *testing.T) {
	s, err := New(cmConfig("ecn", "MIN"), 1)
	if err != nil {
		t.Fatal(err)
	}
	id := 0 // the ECN mechanism: its receive raises flow 5 → 0's delay
	var firstData int64 = -1
	s.hk.eject = append(s.hk.eject, func(_ int32, t int64) {
		if firstData < 0 {
			firstData = t
		}
	})
	for range 3 {
		s.enqueue(s.newPacket(0, 5, s.now, 0), 0, s.now)
	}
	s.sendPriority(id, 0, 5, 0)
	runUntilEmpty(t, s, 5000)
	sent, delivered, lat := s.controlPackets(id)
	if sent != 1 || delivered != 1 {
		t.Fatalf("priority packets sent %d, delivered %d", sent, delivered)
	}
	if at := int64(lat) - int64(s.P); at >= firstData {
		t.Errorf("the priority packet was consumed at cycle %d, the first data packet at %d", at, firstData)
	}
}

// The isolated class's priority (congestion.idealPriority): node 1's flow
// to node 5 on the class and node 2's on the data VCs, three packets each
// queued at once, compete for router 0's link to router 1. Strictly lowest:
// every data packet reaches node 5 before the first isolated one (both
// allocator stages prefer data); equal: round-robin interleaves them.
func TestIsolatedClassPriority(t *testing.T) {
	for _, low := range []bool{true, false} {
		c := cmConfig("ideal", "MIN")
		if low {
			c.Congestion.IdealPriority = "low"
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		s.setIsoFlow(1, 5, true)
		var order []int32
		s.hk.eject = append(s.hk.eject, func(k int32, _ int64) { order = append(order, s.pk[k].src) })
		for range 3 {
			for _, n := range []int{1, 2} {
				vc := s.chooseVC(n, 5, false)
				if want := n == 1; (vc == s.iso.vc) != want {
					t.Fatalf("node %d's packet to 5 on VC %d (isolated VC %d)", n, vc, s.iso.vc)
				}
				s.enqueue(s.newPacket(n, 5, s.now, 0), vc, s.now)
			}
		}
		runUntilEmpty(t, s, 5000)
		lastData, firstIso := -1, -1
		for i, src := range order {
			if src == 2 {
				lastData = i
			} else if firstIso < 0 {
				firstIso = i
			}
		}
		if low && firstIso < lastData || !low && firstIso > lastData {
			t.Errorf("low=%v: delivery order by source %v", low, order)
		}
	}
}

// ECN's source (Kim et al. §V-A): each BECN adds 400 cycles to its flow's
// inter-packet delay, capped at 1,500; the timer takes 50 every 1,000
// cycles (at cycles 0, 1,000, …); a flow's next packet leaves its queue
// the delay after the previous one's tail (32 cycles after it left; the
// timer at cycle 2,000 shortens the hold it falls in), while the node's
// other flow goes on.
func TestECNInterPacketDelay(t *testing.T) {
	s, err := New(cmConfig("ecn", "MIN"), 1)
	if err != nil {
		t.Fatal(err)
	}
	m := s.mech.list[0].(*ecn)
	for range 5 {
		m.receive(s, ctlPacket{dst: 0, data: 5})
	}
	f := 0*s.N + 5
	if m.ipd[f] != 1500 || m.becnTo[0] != 5 {
		t.Fatalf("after 5 BECNs: delay %d, BECNs %d; want 1,500 (capped), 5", m.ipd[f], m.becnTo[0])
	}
	for s.now < 1000 {
		s.Step()
	}
	s.Step() // the timer fires at the start of cycles 0 and 1,000
	if m.ipd[f] != 1400 {
		t.Fatalf("after two timers: delay %d, want 1,400", m.ipd[f])
	}
	var left, ipd []int64
	var other int64 = -1
	s.hk.sent = append(s.hk.sent, func(n, dst int, _ int32) {
		if dst == 5 {
			left, ipd = append(left, s.now), append(ipd, m.ipd[f])
		} else {
			other = s.now
		}
	})
	s.queueMessage(0, 5, 0)
	s.queueMessage(0, 5, 0)
	s.queueMessage(0, 9, 0)
	for range 3000 {
		s.Step()
	}
	// the flow never sent: its first packet is held the delay from cycle 0
	if len(left) != 2 || left[0] != ipd[0] || other < 0 || other >= left[0] {
		t.Fatalf("packets to 5 left at %v (delays %v), to 9 at %d; want 2, the first at its delay, node 9's before", left, ipd, other)
	}
	if gap, want := left[1]-left[0], int64(s.P)+ipd[1]; gap != want {
		t.Errorf("the flow's packets left %d cycles apart, want the tail (%d) + the delay (%d)", gap, s.P, ipd[1])
	}
}

// The schemes run on the Dragonfly too (h=2, 72 nodes; UGAL; senders 10,
// 20, 30, 40 → node 3 at 100%, UR among the others at 0.3, per-destination
// queues, 3,000 + 5,000 cycles, the census checked): Ideal's hotspot
// packets take the minimal l–g–l path on the isolated class (2 local + 1
// global VCs) while UGAL misroutes background packets; ECN marks, sends
// BECNs and throttles the senders below the Baseline's hotspot share.
func TestCongestionSchemesOnTheDragonfly(t *testing.T) {
	c := smallConfig(2)
	c.Routing.Name = "UGAL"
	c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders = "HOTSPOT", 3, "10,20,30,40"
	c.Traffic.Load = 0.3
	c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
	c.Router.InputArbiter = "rrgrant"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 3000, 5000, 1
	_, base := btSimState(t, c, 1)

	c.Congestion.Scheme = "ideal"
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	long := 0
	s.hk.eject = append(s.hk.eject, func(k int32, _ int64) {
		if pk := &s.pk[k]; pk.dst == 3 && (pk.lhops > 2 || pk.ghops > 1) {
			long++
		}
	})
	for range 8000 {
		s.Step()
	}
	m := s.mech.list[0].(*ideal)
	if m.packets == 0 || long != 0 {
		t.Errorf("Ideal: %d hotspot packets, %d of them non-minimal", m.packets, long)
	}
	_, ideal := btSimState(t, c, 1)
	if ideal.Hotspot.Background.Accepted < 0.97*c.Traffic.Load {
		t.Errorf("Ideal: background accepted %.4f of %.2f", ideal.Hotspot.Background.Accepted, c.Traffic.Load)
	}

	c.Congestion.Scheme = "ecn"
	_, ecn := btSimState(t, c, 1)
	e := ecn.Mechanisms["ecn"]
	t.Logf("hotspot accepted: Baseline %.3f, ECN %.3f; ECN %v", base.Hotspot.Hotspot.Accepted, ecn.Hotspot.Hotspot.Accepted, e)
	if e["becns"] == 0 || ecn.Hotspot.Hotspot.Accepted >= base.Hotspot.Hotspot.Accepted {
		t.Errorf("ECN: %v BECNs, hotspot accepted %.3f (Baseline %.3f): want BECNs and throttled senders", e["becns"], ecn.Hotspot.Hotspot.Accepted, base.Hotspot.Hotspot.Accepted)
	}
}

// dragonflyHotspot is the small Dragonfly (h=2, 72 nodes) of the schemes'
// Dragonfly tests: UGAL, a 4-to-1 hotspot (nodes 10, 20, 30, 40 → 3, at
// 100%) over UR at 0.3, per-destination source queues, 4-packet messages
// (SRP reserves for them: congestion.srpMinPackets).
func dragonflyHotspot(scheme string) config.Config {
	c := smallConfig(2)
	c.Routing.Name = "UGAL"
	c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders = "HOTSPOT", 3, "10,20,30,40"
	c.Traffic.Load = 0.3
	c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
	c.Traffic.MessagePackets = 4
	c.Router.InputArbiter = "rrgrant"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 3000, 5000, 1
	c.Congestion.Scheme = scheme
	return c
}

// SRP runs on the Dragonfly under a hotspot (Kim et al., Contention-based Congestion
// Management in Large-Scale Networks §III-B; its speculative class is MIN's
// 2 local + 1 global VCs there): under the 4-to-1 hotspot every hotspot
// message is reserved, the background keeps its load, and its latency
// stays below Baseline(UGAL)'s, whose tree the hotspot grows (190 vs 299
// cycles measured; SRP 163). The census holds every 1,000 cycles.
func TestSRPDragonflyHotspot(t *testing.T) {
	_, base := btSimState(t, dragonflyHotspot(""), 1)
	c := dragonflyHotspot("srp")
	_, r := btSimState(t, c, 1)
	m := r.Mechanisms["srp"]
	t.Logf("background latency: Baseline %.1f, SRP %.1f; SRP %v", base.Hotspot.Background.Latency.Avg, r.Hotspot.Background.Latency.Avg, m)
	if m["reservations"] == 0 || m["speculativeShare"] == 0 {
		t.Errorf("SRP: %v, want reservations and speculative packets", m)
	}
	if bg := r.Hotspot.Background; bg.Accepted < 0.97*c.Traffic.Load || bg.Latency.Avg >= base.Hotspot.Background.Latency.Avg {
		t.Errorf("SRP: background accepted %.4f of %.2f, latency %.1f (Baseline(UGAL) %.1f)", bg.Accepted, c.Traffic.Load, bg.Latency.Avg, base.Hotspot.Background.Latency.Avg)
	}
}

// CBCM runs on the Dragonfly under a hotspot (Kim et al. §IV; its hotspot VC and control VC
// are MIN's 2 local + 1 global VCs each there): the hotspot is found, its 4
// senders throttled, the background keeps its load, and its latency stays
// below Baseline(UGAL)'s (299 measured; CBCM 248).
func TestCBCMDragonflyHotspot(t *testing.T) {
	_, base := btSimState(t, dragonflyHotspot(""), 1)
	c := dragonflyHotspot("cbcm")
	_, r := btSimState(t, c, 1)
	m := r.Mechanisms["cbcm"]
	t.Logf("background latency: Baseline %.1f, CBCM %.1f; CBCM %v", base.Hotspot.Background.Latency.Avg, r.Hotspot.Background.Latency.Avg, m)
	if m["hotspots"] < 1 || m["flowsThrottled"] != 4 {
		t.Errorf("CBCM: %v, want the hotspot found and its 4 senders throttled", m)
	}
	if bg := r.Hotspot.Background; bg.Accepted < 0.97*c.Traffic.Load || bg.Latency.Avg >= base.Hotspot.Background.Latency.Avg {
		t.Errorf("CBCM: background accepted %.4f of %.2f, latency %.1f (Baseline(UGAL) %.1f)", bg.Accepted, c.Traffic.Load, bg.Latency.Avg, base.Hotspot.Background.Latency.Avg)
	}
}

// CBCM's hotspot VC is strictly lowest (Kim et al. §IV-B3, §VI-B): behind a
// link the data keep saturated (Fig. 8b's background at 512 nodes under
// UGAL, once the tree stands) its heads wait without bound.
// congestion.cbcmHotspotAging bounds that wait: on the 16-node network (MIN, VOQs, 20,000 cycles) the
// permutation n → n+4 at load 1 puts nodes 0, 2 and 3's flows on router 0's
// link to router 1 (3 flits per cycle for 1), and node 1 sends there both
// on the hotspot VC (its flow to node 5) and on the data VCs (400 packets to
// node 6). Strictly lowest the hotspot VC delivers nothing; with aging at
// 2,000 cycles an aged head takes the data's turns at node 1's input (one
// in 2) and at the link (one in 4, 32-flit packets): the 8 packets its
// injection VC holds when the first ages leave one every 2 × 4 turns, so
// none waits more than 2,000 + 8·2·4·32 cycles (measured 3,480), and the
// data keep most of the link (576 packets against 622). Without virtual
// output queues (the other input stage) this link is not starved (the
// data's single downstream VC runs out of credits now and then):
// TestCBCMHotspotAgingInputStage checks that stage.
func TestCBCMHotspotAgingFig8b(t *testing.T) {
	for _, aging := range []int{0, 2000} {
		c := cmConfig("cbcm", "MIN")
		c.Traffic.Pattern, c.Traffic.Load = "TORNADO", 1
		c.Congestion.CbcmHotspotAging = aging
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		s.setIsoFlow(1, 5, true)
		for range 400 { // node 1 also has data to send across the link: both allocator stages choose
			s.inject(1, 6, 0)
		}
		var hot, data, data1 int
		var maxWait int64
		s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) {
			if pk := &s.pk[k]; r == 0 && pk.src == 1 && pk.dst == 5 && s.ports[in].class == topology.Injection {
				maxWait = max(maxWait, s.now-pk.entry)
			}
		})
		s.hk.eject = append(s.hk.eject, func(k int32, _ int64) {
			switch pk := &s.pk[k]; {
			case pk.src == 1 && pk.dst == 5:
				hot++
			case pk.src == 1:
				data1++
			case pk.src <= 3:
				data++
			}
		})
		for range 20000 {
			s.Step()
		}
		t.Logf("aging %d: node 1's hotspot-VC flow delivered %d packets, its longest wait at router 0 %d cycles; node 1's data flow %d, nodes 0, 2, 3: %d", aging, hot, maxWait, data1, data)
		switch {
		case aging == 0 && hot != 0:
			t.Errorf("strictly lowest: node 1 delivered %d packets across a saturated link, want 0", hot)
		case aging > 0 && (hot < 40 || maxWait > int64(aging+8*2*4*32)):
			t.Errorf("aging %d: node 1's hotspot-VC flow delivered %d packets (want ≥ 40), longest wait %d (want ≤ %d)", aging, hot, maxWait, aging+8*2*4*32)
		}
		if data+data1 < 500 {
			t.Errorf("aging %d: the data flows delivered %d packets in 20,000 cycles, want ≥ 500 (most of the link)", aging, data+data1)
		}
	}
}

// congestion.cbcmHotspotAging at the input stage without virtual output
// queues (inputArbitrateLow): node 1 queues 3 packets to node 5 on the
// hotspot VC and 3 to node 6 on the data VCs at once. Strictly lowest, all
// the data leave first; aged at once (cbcmHotspotAging=1) the input's
// round-robin serves a hotspot-VC packet before the last data packet.
func TestCBCMHotspotAgingInputStage(t *testing.T) {
	for _, aging := range []int{0, 1} {
		c := cmConfig("cbcm", "MIN")
		c.Router.Voq = false
		c.Congestion.CbcmHotspotAging = aging
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		s.setIsoFlow(1, 5, true)
		var order []int32
		s.hk.eject = append(s.hk.eject, func(k int32, _ int64) { order = append(order, s.pk[k].dst) })
		for range 3 {
			for _, d := range []int{5, 6} {
				vc := s.chooseVC(1, d, false)
				if want := d == 5; (vc == s.iso.vc) != want {
					t.Fatalf("node 1's packet to %d on VC %d (hotspot VC %d)", d, vc, s.iso.vc)
				}
				s.enqueue(s.newPacket(1, d, s.now, 0), vc, s.now)
			}
		}
		runUntilEmpty(t, s, 5000)
		first5, last6 := -1, -1
		for i, d := range order {
			if d == 5 && first5 < 0 {
				first5 = i
			}
			if d == 6 {
				last6 = i
			}
		}
		t.Logf("aging %d: delivery order by destination %v", aging, order)
		if aging == 0 && first5 < last6 || aging > 0 && first5 > last6 {
			t.Errorf("aging %d: delivery order by destination %v", aging, order)
		}
	}
}
