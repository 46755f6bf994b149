package sim

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/routing"
	"phitsim/engine/topology"
)

// ctlRecorder sends nothing by itself and records the control packets it
// receives.
type ctlRecorder struct {
	id   int
	got  []ctlPacket
	at   []int64 // receive cycles
	mech []uint16
}

func (m *ctlRecorder) attach(s *Sim, id int) error {
	m.id = id
	return s.needPackets(id)
}

func (m *ctlRecorder) control(*Sim, controlMsg) {}

func (m *ctlRecorder) receive(s *Sim, p ctlPacket) {
	m.got = append(m.got, p)
	m.at = append(m.at, s.now)
	m.mech = append(m.mech, s.pk[p.k].mech)
}

// zeroLoadPath is the zero-load latency of a minimal path from node src to
// node dst of an h=2 Dragonfly with the default timing, walked on the
// topology: 1 + 3·routers + 10·local + 100·global + 8 (thesis/FOGSim, as
// TestZeroLoadLatencyPerPathType checks for data).
func zeroLoadPath(s *Sim, src, dst int) int64 {
	lat, _ := minimalPath(s, src, dst)
	return lat
}

// minimalPath is zeroLoadPath's latency and the path's hop kinds ("lgl").
func minimalPath(s *Sim, src, dst int) (int64, string) {
	r, dr := int(s.nodeAt[src].router), int(s.nodeAt[dst].router)
	var l, g int64
	kinds := ""
	for r != dr {
		port := s.df.MinimalPort(r, dr)
		if s.ports[r*s.radix+port].class == topology.Global {
			g++
			kinds += "g"
		} else {
			l++
			kinds += "l"
		}
		r, _ = s.topo.Link(r, port)
	}
	return 1 + 3*(l+g+1) + 10*l + 100*g + 8, kinds
}

// One control packet on an empty network takes the zero-load latency of its
// path, exactly as a data packet of the same pair does, for every minimal
// path type from node 0; it reaches its mechanism with its payload, and no
// data counter sees it.
func TestControlPacketZeroLoad(t *testing.T) {
	c := smallConfig(2)
	probe, _ := New(c, 1)
	seen := map[string]bool{}
	for dst := 1; dst < probe.N; dst++ {
		want, kinds := minimalPath(probe, 0, dst)
		if seen[kinds] {
			continue
		}
		seen[kinds] = true
		data, _ := single(t, c, 0, dst)
		if data != want {
			t.Fatalf("data packet 0→%d: latency %d, the formula says %d", dst, data, want)
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		m := &ctlRecorder{}
		if err := s.attach(m); err != nil {
			t.Fatal(err)
		}
		k := s.sendPacket(m.id, 0, dst, 42)
		s.pk[k].mech = 0x5 // bits set by the sender travel with it
		for s.InFlight() > 0 && s.now < 5000 {
			s.Step()
		}
		if len(m.got) != 1 {
			t.Fatalf("0→%d: %d control packets received, want 1", dst, len(m.got))
		}
		p := m.got[0]
		if p.src != 0 || int(p.dst) != dst || p.data != 42 || p.sent != 0 || m.mech[0] != 0x5 {
			t.Errorf("0→%d: received %+v with bits %#x, want from 0 to %d, payload 42, sent at 0, bits 0x5", dst, p, m.mech[0], dst)
		}
		if lat := m.at[0] + int64(s.P); lat != want {
			t.Errorf("0→%d: control packet latency %d, want the path's zero-load latency %d", dst, lat, want)
		}
		sent, del, mean := s.controlPackets(m.id)
		if sent != 1 || del != 1 || mean != float64(want) {
			t.Errorf("0→%d: controlPackets = %d sent, %d delivered, mean latency %g; want 1, 1, %d", dst, sent, del, mean, want)
		}
		r := s.Snapshot()
		if r.TotalGenerated != 0 || r.TotalDelivered != 0 || r.InFlight != 0 || s.st.del != 0 || s.st.latSum != 0 {
			t.Errorf("0→%d: data counters saw the control packet: %+v", dst, r.Conservation)
		}
		if r.PacketHops == 0 {
			t.Errorf("0→%d: the control packet crossed no crossbar", dst)
		}
		if s.isControl(k) || s.mech.live != 0 || s.live != 0 {
			t.Errorf("0→%d: after delivery: tagged %v, %d control and %d packets alive", dst, s.isControl(k), s.mech.live, s.live)
		}
	}
	if len(seen) != 6 {
		t.Errorf("path types %v, want the 6 minimal ones (none, l, g, lg, gl, lgl)", seen)
	}
}

// Control and data packets share link bandwidth: a burst of control packets
// across a local link delays a data packet that needs the same link, and a
// burst of data delays a control packet; packets to one node are consumed at
// most one per P cycles (the ejection link serialises them).
func TestControlPacketsShareLinks(t *testing.T) {
	c := smallConfig(2)
	base, _ := New(c, 1)
	// a router one local hop from router 0 (nodes 0 and 1)
	r1 := -1
	for n := 2; n < base.N && r1 < 0; n += c.Topology.P {
		if zeroLoadPath(base, 0, n) == 25 {
			r1 = int(base.nodeAt[n].router)
		}
	}
	if r1 < 0 {
		t.Fatal("no router one local hop from router 0")
	}
	a, b := r1*c.Topology.P, r1*c.Topology.P+1 // its nodes
	const burst = 6
	for _, ctlFirst := range []bool{true, false} {
		s, _ := New(c, 1)
		m := &ctlRecorder{}
		if err := s.attach(m); err != nil {
			t.Fatal(err)
		}
		// the burst first, from node 1; at cycle 1 one packet of the
		// other kind from node 0
		if ctlFirst {
			for i := 0; i < burst; i++ {
				s.sendPacket(m.id, 1, b, int64(i))
			}
		} else {
			for i := 0; i < burst; i++ {
				s.inject(1, b, 0)
			}
			if s.live != burst {
				t.Fatalf("%d data packets placed, want %d", s.live, burst)
			}
		}
		s.Step()
		if ctlFirst {
			s.inject(0, a, 0)
		} else {
			s.sendPacket(m.id, 0, a, -1)
		}
		for s.live > 0 && s.now < 5000 {
			s.Step()
		}
		var late int64 // the single packet's latency
		if ctlFirst {
			if s.st.del != 1 || len(m.got) != burst {
				t.Fatalf("%d data and %d control packets delivered, want 1 and %d", s.st.del, len(m.got), burst)
			}
			late = s.st.latSum
			for i := 1; i < burst; i++ {
				if m.at[i]-m.at[i-1] < int64(s.P) {
					t.Errorf("control packets consumed by node %d at cycles %v: closer than P=%d", b, m.at, s.P)
					break
				}
			}
		} else {
			if s.st.del != burst || len(m.got) != 1 || m.got[0].data != -1 {
				t.Fatalf("%d data and %d control packets delivered, want %d and 1", s.st.del, len(m.got), burst)
			}
			late = m.at[0] - m.got[0].sent + int64(s.P)
		}
		// it waited at least for one packet of the burst to cross the
		// shared link (P cycles, less the cycle it came later)
		if late < 25+int64(s.P)-1 {
			t.Errorf("control burst first %v: the single packet's latency %d, want ≥ %d (zero-load 25 + a packet on the shared link)", ctlFirst, late, 25+s.P-1)
		}
		t.Logf("control burst first %v: the single packet's latency %d (zero-load 25)", ctlFirst, late)
	}
}

// ecnEcho is ecnTest with its echoes as control packets: the destination of
// a marked packet sends the source an echo (payload 1); the source, on
// receiving it, holds its generation and answers with an acknowledgement
// (payload 0), so that consuming a control packet sends another, as SRP's
// reservation requests and grants do.
type ecnEcho struct {
	ecnTest
	acks       int
	dataEjects int // ejection hook calls (data packets only)
	ctlEjects  int // ejection hook calls on a control packet (must stay 0)
	lats       []int64
	fast       []string // received before their path's zero-load latency
}

func (m *ecnEcho) attach(s *Sim, id int) error {
	m.s, m.id = s, id
	var err error
	if m.shift, err = s.claimPacketBits(1); err != nil {
		return err
	}
	if err := s.needPackets(id); err != nil {
		return err
	}
	m.until = make([]int64, s.N)
	s.hk.grant = append(s.hk.grant, m.grant)
	s.hk.eject = append(s.hk.eject, m.echo)
	s.hk.gen = append(s.hk.gen, func(node int) int64 { return m.until[node] })
	return nil
}

func (m *ecnEcho) echo(k int32, t int64) {
	s := m.s
	if s.isControl(k) {
		m.ctlEjects++
		return
	}
	m.dataEjects++
	if pk := &s.pk[k]; pk.mech>>m.shift&1 != 0 {
		s.sendPacket(m.id, int(pk.dst), int(pk.src), 1)
		m.echoes++
	}
}

func (m *ecnEcho) receive(s *Sim, p ctlPacket) {
	lat := s.now - p.sent + int64(s.P)
	m.lats = append(m.lats, lat)
	if zl := zeroLoadPath(s, int(p.src), int(p.dst)); lat < zl {
		m.fast = append(m.fast, fmt.Sprintf("%d→%d: %d < %d", p.src, p.dst, lat, zl))
	}
	if p.data == 1 {
		m.notified++
		m.until[p.dst] = max(m.until[p.dst], s.now+m.throttle)
		s.sendPacket(m.id, int(p.dst), int(p.src), 0)
		return
	}
	m.acks++
}

func (m *ecnEcho) report(s *Sim) (string, map[string]float64) {
	sent, del, mean := s.controlPackets(m.id)
	return "ecn-echo", map[string]float64{"marks": float64(m.marks), "echoes": float64(m.echoes),
		"controlSent": float64(sent), "controlDelivered": float64(del), "controlLatency": mean}
}

// The miniature ECN with echoes and acknowledgements as control packets,
// under adversarial traffic above saturation, for every routing (and MIN
// with request-reply): every control packet takes at least its minimal
// path's zero-load latency, the data metrics leave them out (generated −
// delivered = in flight, the ejection hooks see only data), the census
// holds every 100 cycles, and once injection stops everything drains, the
// control packets included.
func TestControlPacketsECN(t *testing.T) {
	type run struct {
		routing, reactive string
		extra             []string // another router model
	}
	runs := []run{{"MIN", "true", nil}, {"MIN", "false", []string{"router.model=iq", "router.speedup=1"}},
		{"MIN", "true", []string{"fogsim"}}, {"MIN", "false", []string{"router.injectionPolicy=jsq"}},
		// source queues keep a backlog the drain must deliver: a load
		// just above MIN's ADV saturation
		{"MIN", "false", []string{"traffic.sourceQueue=true", "traffic.load=0.15"}}}
	for _, name := range routing.Names() {
		runs = append(runs, run{name, "false", nil})
	}
	for _, rn := range runs {
		routingName, reactive := rn.routing, rn.reactive
		t.Run(strings.Join(append([]string{routingName, "reactive=" + reactive}, rn.extra...), "/"), func(t *testing.T) {
			c := goldenConfig(t, goldenCase{"ecn", append([]string{"routing.name=" + routingName, "traffic.pattern=ADV",
				"traffic.load=0.9", "traffic.reactive=" + reactive}, rn.extra...)})
			s, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			m := &ecnEcho{ecnTest: ecnTest{threshold: 64, throttle: 200}}
			if err := s.attach(m); err != nil {
				t.Fatal(err)
			}
			relStep(t, s, s.W+s.M, 100)
			r := s.Snapshot()
			if m.marks == 0 || m.echoes == 0 || m.notified == 0 {
				t.Fatalf("marks %d, echoes %d, echoes received %d: ADV at 0.9 should congest the network", m.marks, m.echoes, m.notified)
			}
			sent, del, mean := s.controlPackets(m.id)
			if sent != int64(m.echoes+m.notified) || del != int64(len(m.lats)) || sent != del+s.mech.live {
				t.Errorf("control packets: %d sent, %d delivered, %d alive; the mechanism sent %d echoes and %d acknowledgements, received %d",
					sent, del, s.mech.live, m.echoes, m.notified, len(m.lats))
			}
			if len(m.fast) > 0 {
				t.Errorf("%d control packets faster than their path's zero-load latency: %v", len(m.fast), m.fast[:min(5, len(m.fast))])
			}
			sum := int64(0)
			for _, l := range m.lats {
				sum += l
			}
			if want := float64(sum) / float64(len(m.lats)); mean != want {
				t.Errorf("mean control latency %g, the received packets say %g", mean, want)
			}
			// the data metrics: conservation of data alone, the ejection
			// hooks saw every data packet and no control packet
			if r.TotalGenerated-r.TotalDelivered != r.InFlight || r.InFlight+s.mech.live != s.live || !r.Conserved() {
				t.Errorf("data: generated %d − delivered %d ≠ in flight %d (%d packets alive, %d of them control)",
					r.TotalGenerated, r.TotalDelivered, r.InFlight, s.live, s.mech.live)
			}
			if int64(m.dataEjects) != r.TotalDelivered || m.ctlEjects != 0 {
				t.Errorf("ejection hooks: %d data packets (delivered %d), %d control packets (want 0)", m.dataEjects, r.TotalDelivered, m.ctlEjects)
			}
			want := map[string]float64{"marks": float64(m.marks), "echoes": float64(m.echoes),
				"controlSent": float64(sent), "controlDelivered": float64(del), "controlLatency": mean}
			if got := r.Mechanisms["ecn-echo"]; !reflect.DeepEqual(got, want) {
				t.Errorf("mechanisms section %v, want %v", got, want)
			}
			t.Logf("%s reactive=%s %v: %d marks, %d echoes, %d control packets (mean latency %.1f, min %d); data generated %d, accepted %.3f, latency %.1f",
				routingName, reactive, rn.extra, m.marks, m.echoes, sent, mean, slicesMin(m.lats), r.TotalGenerated, r.Accepted, r.Latency.Avg)

			// drain: no new data; marked packets still echo, echoes are
			// still acknowledged
			stopInjection(s)
			// the echoes of ADV traffic are ADV traffic back (a group's
			// echoes all go to one group), a second backlog on MIN's one
			// global link between two groups: JSQ's deeper injection
			// buffers leave the most, drained in 11,800 cycles
			end := s.now + 2*drainBound
			for s.live > 0 && s.now < end {
				s.Step()
				if s.now%100 == 0 {
					if err := s.Census(); err != nil {
						t.Fatalf("cycle %d: %v", s.now, err)
					}
				}
			}
			if s.live > 0 {
				t.Fatalf("%d packets (%d control) in flight %d cycles after injection stopped", s.live, s.mech.live, 2*drainBound)
			}
			relStep(t, s, s.now+s.wheelMask+1, 100) // the last credits land
			r = s.Snapshot()
			sent, del, _ = s.controlPackets(m.id)
			if m.acks == 0 || m.acks != m.notified {
				t.Errorf("drained: %d echoes received, %d acknowledgements received", m.notified, m.acks)
			}
			if r.TotalGenerated != r.TotalDelivered || r.InFlight != 0 || sent != del || len(s.mech.pending) != 0 {
				t.Errorf("drained: data generated %d, delivered %d, in flight %d; control sent %d, delivered %d; %d nodes with queued control packets",
					r.TotalGenerated, r.TotalDelivered, r.InFlight, sent, del, len(s.mech.pending))
			}
		})
	}
}

func slicesMin(v []int64) int64 {
	m := int64(math.MaxInt64)
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

// The census finds a control packet that went missing, and one counted
// alive that is not.
func TestCensusCountsControlPackets(t *testing.T) {
	s, _ := New(smallConfig(2), 1)
	m := &ctlRecorder{}
	if err := s.attach(m); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 4; n++ {
		s.sendPacket(m.id, n, s.N-1-n, 0)
	}
	if err := s.Census(); err != nil {
		t.Fatalf("queued control packets: %v", err)
	}
	s.Step()
	s.Step()
	if err := s.Census(); err != nil {
		t.Fatalf("injected control packets: %v", err)
	}
	// a control packet dropped from its node's queue
	k := s.sendPacket(m.id, 5, 6, 0)
	s.mech.q[5] = s.mech.q[5][:len(s.mech.q[5])-1]
	if err := s.Census(); err == nil || !strings.Contains(err.Error(), "lost") || !strings.Contains(err.Error(), "found nowhere") {
		t.Errorf("a control packet dropped from its queue: %v, want the census to name it lost and found nowhere", err)
	}
	s.mech.q[5] = append(s.mech.q[5], k)
	if err := s.Census(); err != nil {
		t.Fatalf("restored: %v", err)
	}
	s.mech.live++
	if err := s.Census(); err == nil || !strings.Contains(err.Error(), "control packets found") {
		t.Errorf("control count off by one: %v, want the census to name it", err)
	}
}

func TestControlPacketErrors(t *testing.T) {
	s, _ := New(smallConfig(2), 1)
	if err := s.attach(&ecnTestNoRecv{}); err == nil || !strings.Contains(err.Error(), "receive") {
		t.Errorf("needPackets without a receive method: %v, want an error naming it", err)
	}
	if len(s.mech.list) != 0 || len(s.mech.recv) != 0 {
		t.Error("a refused mechanism stayed attached")
	}
	if err := s.attach(&ctlGreedy{}); err == nil || len(s.mech.recv) != 0 || len(s.mech.count) != 0 {
		t.Errorf("a mechanism refused after needPackets: %v; %d receivers, %d counters left", err, len(s.mech.recv), len(s.mech.count))
	}
	m := &ctlRecorder{}
	if err := s.attach(m); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name         string
		id, from, to int
	}{{"to itself", m.id, 3, 3}, {"no such node", m.id, 0, s.N}, {"an unknown mechanism", m.id + 1, 0, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a control packet %s did not panic", tc.name)
				}
			}()
			s.sendPacket(tc.id, tc.from, tc.to, 0)
		}()
	}
	if s.live != 0 {
		t.Errorf("refused sends left %d packets alive", s.live)
	}
}

// ecnTestNoRecv asks for control packets without a receive method.
type ecnTestNoRecv struct{}

func (*ecnTestNoRecv) attach(s *Sim, id int) error { return s.needPackets(id) }
func (*ecnTestNoRecv) control(*Sim, controlMsg)    {}

// The hops by packet (counted by hooks on topologies of more than 3 classes)
// leave control packets out, and the data packet that reuses a control
// packet's id starts from 0 hops.
func TestControlPacketHopsForgotten(t *testing.T) {
	s, _ := New(smallConfig(2), 1)
	m := &ctlRecorder{}
	if err := s.attach(m); err != nil {
		t.Fatal(err)
	}
	s.st.countHopsFrom(s, 1) // local and global hops, by packet
	dst := -1
	for n := 1; n < s.N && dst < 0; n++ {
		if _, kinds := minimalPath(s, 0, n); kinds == "lgl" {
			dst = n
		}
	}
	k := s.sendPacket(m.id, 0, dst, 0)
	for s.live > 0 {
		s.Step()
	}
	s.inject(0, dst, 0)
	if s.pk[k].dst != int32(dst) || s.isControl(k) {
		t.Fatalf("the data packet did not reuse id %d", k)
	}
	for s.live > 0 {
		s.Step()
	}
	if got := s.st.hx.sum; len(m.got) != 1 || s.st.del != 1 || got[0] != 2 || got[1] != 1 {
		t.Errorf("local, global hops of the delivered data %v, want [2 1] (one l-g-l data packet; the control packet's are not data)", got)
	}
}

// On the toy mesh a control packet takes the latency a data packet of the
// same pair takes on the empty network (its own topology's formula,
// TestMeshZeroLoadLatency), from every node to a few others.
func TestControlPacketMesh(t *testing.T) {
	c := meshConfig(4, 3, 2)
	for src := 0; src < 24; src += 5 {
		for _, dst := range []int{(src + 1) % 24, (src + 7) % 24, 23 - src} {
			if dst == src {
				continue
			}
			want, _ := single(t, c, src, dst)
			s, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			m := &ctlRecorder{}
			if err := s.attach(m); err != nil {
				t.Fatal(err)
			}
			s.sendPacket(m.id, src, dst, int64(dst))
			for s.live > 0 && s.now < 5000 {
				s.Step()
			}
			if len(m.got) != 1 || m.got[0].data != int64(dst) || m.at[0]+int64(s.P) != want || s.st.del != 0 {
				t.Errorf("mesh %d→%d: received %+v at %v (%d data delivered), want one with payload %d at latency %d", src, dst, m.got, m.at, s.st.del, dst, want)
			}
		}
	}
}

// ctlGreedy asks for control packets, then for more packet bits than exist.
type ctlGreedy struct{ ctlRecorder }

func (m *ctlGreedy) attach(s *Sim, id int) error {
	if err := s.needPackets(id); err != nil {
		return err
	}
	_, err := s.claimPacketBits(17)
	return err
}

// Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §V-A: the control packets (ECN's BECNs, CBCM's throttles) are
// single-flit. On the 16-node flattened butterfly (32-flit data packets),
// ECN's priority-class packet from node 0 to node 5 arrives P − 1 cycles
// sooner than a data packet of the same pair on an empty network (its
// tail is its head); 64 of them sent at once are consumed one per cycle
// or so (a link carries 1 phit per cycle: 63 cycles at least, ≤ 2× that),
// not one per P cycles; meanwhile the census finds every control VC's
// credits and buffered phits adding up, and in the end the links carried
// 64 phits, not 64·P.
func TestShortControlPacketsOneFlit(t *testing.T) {
	c := cmConfig("ecn", "MIN")
	var dataLat int64
	{
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		s.hk.eject = append(s.hk.eject, func(k int32, at int64) { dataLat = at - s.pk[k].gen + int64(s.P) })
		s.enqueue(s.newPacket(0, 5, s.now, 0), 0, s.now)
		runUntilEmpty(t, s, 5000)
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.P != 32 || s.ctlP != 1 {
		t.Fatalf("packets of %d phits, control packets of %d; want 32 and 1", s.P, s.ctlP)
	}
	id := 0 // the ECN mechanism
	s.sendPriority(id, 0, 5, 0)
	runUntilEmpty(t, s, 5000)
	if _, del, lat := s.controlPackets(id); del != 1 || int64(lat) != dataLat-int64(s.P-1) {
		t.Fatalf("a control packet: %d delivered, latency %g; want 1 delivered in the data's %d − %d", del, lat, dataLat, s.P-1)
	}
	s, _ = New(c, 1)
	var first, last int64 = -1, -1
	var phits int64
	s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) {
		if s.isControl(k) {
			phits += int64(s.packetPhits(k))
		}
	})
	const n = 64
	for range n {
		s.sendPriority(id, 0, 5, 0)
	}
	for i := 0; i < 5000 && (s.live > 0 || i < 400); i++ { // and the last credits' return
		s.Step()
		if _, del, _ := s.controlPackets(id); del > 0 && first < 0 {
			first = s.now
		} else if del == n && last < 0 {
			last = s.now
		}
		if i%16 == 0 {
			if err := s.Census(); err != nil {
				t.Fatalf("cycle %d: %v", s.now, err)
			}
		}
	}
	if last < 0 {
		t.Fatalf("the %d control packets were not all delivered", n)
	}
	if d := last - first; d < n-1 || d > 2*n {
		t.Errorf("%d control packets consumed over %d cycles, want %d…%d (one phit each)", n, d, n-1, 2*n)
	}
	// 2 crossbar crossings each (source and destination routers; 0 and 5
	// are a hop apart)
	if phits != 2*n {
		t.Errorf("the control packets' crossings moved %d phits, want %d", phits, 2*n)
	}
}
