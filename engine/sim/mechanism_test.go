package sim

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// probe is a mechanism that changes nothing and records every hook call.
type probe struct {
	s       *Sim
	grants  []probeGrant
	arrives []probeArrive
	ejects  []probeEject
	gens    int
	cycles  int
	epochs  []int64 // cycles of the every-100 hook
}

type probeGrant struct {
	r, in, out, vc, outVC int
	k                     int32
	now                   int64
}

type probeArrive struct {
	pi, vc   int
	k        int32
	now, gen int64 // the packet's generation cycle
	src      int32
}

type probeEject struct {
	k   int32
	t   int64
	src int32
}

func (p *probe) attach(s *Sim, id int) error {
	p.s = s
	s.hk.grant = append(s.hk.grant, func(r, in, out, vc, outVC int, k int32) {
		p.grants = append(p.grants, probeGrant{r, in, out, vc, outVC, k, s.now})
	})
	s.hk.arrive = append(s.hk.arrive, func(pi, vc int, k int32) {
		p.arrives = append(p.arrives, probeArrive{pi, vc, k, s.now, s.pk[k].gen, s.pk[k].src})
	})
	s.hk.eject = append(s.hk.eject, func(k int32, t int64) {
		p.ejects = append(p.ejects, probeEject{k, t, s.pk[k].src})
	})
	s.hk.gen = append(s.hk.gen, func(node int) int64 { p.gens++; return 0 })
	s.hk.cycle = append(s.hk.cycle, cycleHook{every: 1, f: func() { p.cycles++ }},
		cycleHook{every: 100, f: func() { p.epochs = append(p.epochs, s.now) }})
	return nil
}

func (p *probe) control(s *Sim, m controlMsg) {}

// One packet on an empty h=2 network, along a local-global-local path: each
// hook fires where the packet is, as derived from its path.
func TestMechanismHooksOnePacket(t *testing.T) {
	s, err := New(smallConfig(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	p := &probe{}
	if err := s.attach(p); err != nil {
		t.Fatal(err)
	}
	// the path from router 0 to a router three hops away (local, global,
	// local), walked on the topology
	d := s.df
	var path []int // routers, source first
	var outs []int // the port taken at each
	dst := -1
	for dr := 0; dr < d.Routers() && dst < 0; dr++ {
		path, outs = []int{0}, nil
		kinds := ""
		for r := 0; r != dr; {
			port := d.MinimalPort(r, dr)
			outs = append(outs, port)
			kinds += map[topology.PortClass]string{topology.Local: "l", topology.Global: "g"}[d.PortClass(r, port)]
			r, _ = d.Link(r, port)
			path = append(path, r)
		}
		if kinds == "lgl" {
			for n := range s.nodeAt {
				if int(s.nodeAt[n].router) == dr {
					dst = n
					break
				}
			}
		}
	}
	if dst < 0 {
		t.Fatal("no local-global-local path from router 0")
	}
	s.inject(0, dst, 0)
	for s.InFlight() > 0 && s.now < 5000 {
		s.Step()
	}
	if s.st.del != 1 {
		t.Fatalf("packet 0→%d not delivered", dst)
	}
	cycles := int(s.now)
	// a grant at each router of the path, the last to the node's ejection port
	if len(p.grants) != 4 {
		t.Fatalf("%d grants, want 4 (three hops and the ejection): %+v", len(p.grants), p.grants)
	}
	outs = append(outs, int(s.nodeAt[dst].pi)-path[3]*s.radix)
	for i, g := range p.grants {
		if g.r != path[i] || g.out != outs[i] {
			t.Errorf("grant %d at router %d port %d, want router %d port %d", i, g.r, g.out, path[i], outs[i])
		}
	}
	if in := int(s.nodeAt[0].pi); p.grants[0].in != in {
		t.Errorf("first grant from input %d, want node 0's injection port %d", p.grants[0].in, in)
	}
	// arrivals: the injection buffer, then one per link, at the cycle the
	// head lands: the grant's cycle + crossbar latency + link latency (an
	// empty network: the output FIFO sends it at once)
	if len(p.arrives) != 4 {
		t.Fatalf("%d arrivals, want 4 (injection buffer and three links): %+v", len(p.arrives), p.arrives)
	}
	if p.arrives[0].pi != int(s.nodeAt[0].pi) || p.arrives[0].now != 0 {
		t.Errorf("first arrival %+v, want node 0's injection port at cycle 0", p.arrives[0])
	}
	for i := 1; i < 4; i++ {
		g, a := p.grants[i-1], p.arrives[i]
		po := g.r*s.radix + g.out
		want := g.now + s.xbar + s.lat[s.pclass[po]]
		if a.pi != int(s.ports[po].peer) || a.now != want || a.vc != g.outVC {
			t.Errorf("arrival %d: port %d VC %d at cycle %d, want port %d VC %d at %d", i, a.pi, a.vc, a.now, s.ports[po].peer, g.outVC, want)
		}
		if p.grants[i].now < a.now {
			t.Errorf("grant %d at cycle %d before its arrival at %d", i, p.grants[i].now, a.now)
		}
	}
	// the ejection, at the packet's latency (P phits after its head)
	if len(p.ejects) != 1 || p.ejects[0].src != 0 || p.ejects[0].t != s.st.latSum-int64(s.P) {
		t.Errorf("ejections %+v, want one of node 0's packet at cycle %d", p.ejects, s.st.latSum-int64(s.P))
	}
	// load 0 generates cycle by cycle: one generation attempt per node per cycle
	if p.gens != s.N*cycles {
		t.Errorf("%d generation hook calls, want %d nodes × %d cycles", p.gens, s.N, cycles)
	}
	if p.cycles != cycles {
		t.Errorf("cycle hook ran %d times in %d cycles", p.cycles, cycles)
	}
	for i, c := range p.epochs {
		if c != int64(100*i) {
			t.Fatalf("every-100 hook at cycles %v", p.epochs)
		}
	}
	if len(p.epochs) != (cycles+99)/100 {
		t.Errorf("every-100 hook ran %d times in %d cycles", len(p.epochs), cycles)
	}
}

// ecnTest is a miniature ECN: a grant marks a packet when its next buffer
// (the output's downstream VC, this packet included) holds more than
// threshold phits; the destination echoes a mark to the source as a control
// message with latency echoLat; the source then generates nothing for
// throttle cycles.
type ecnTest struct {
	threshold int32
	echoLat   int64
	throttle  int64

	s     *Sim
	id    int
	shift uint
	until []int64 // per node: no generation before this cycle

	marks, echoes, notified int
	sentAt                  []int64
	late                    []string // control messages not handled at sent + echoLat
	// per node, the held intervals [from, until) it was told
	held   [][2]int64
	heldBy []int32
}

func (m *ecnTest) attach(s *Sim, id int) error {
	m.s, m.id = s, id
	var err error
	if m.shift, err = s.claimPacketBits(1); err != nil {
		return err
	}
	if err := s.needControl(m.echoLat); err != nil {
		return err
	}
	m.until = make([]int64, s.N)
	s.hk.grant = append(s.hk.grant, m.grant)
	s.hk.eject = append(s.hk.eject, m.eject)
	s.hk.gen = append(s.hk.gen, func(node int) int64 { return m.until[node] })
	return nil
}

func (m *ecnTest) grant(r, in, out, vc, outVC int, k int32) {
	s := m.s
	po := r*s.radix + out
	c := s.pclass[po]
	if c == topology.Injection {
		return
	}
	if s.bufCap[c]-s.credits[po*s.maxVC+outVC] > m.threshold {
		s.pk[k].mech |= 1 << m.shift
		m.marks++
	}
}

func (m *ecnTest) eject(k int32, t int64) {
	pk := &m.s.pk[k]
	if pk.mech>>m.shift&1 != 0 {
		m.s.sendControl(m.id, pk.src, m.s.now, m.echoLat)
		m.echoes++
		m.sentAt = append(m.sentAt, m.s.now)
	}
}

func (m *ecnTest) control(s *Sim, msg controlMsg) {
	if s.now != msg.data+m.echoLat || msg.at != s.now {
		m.late = append(m.late, fmt.Sprintf("sent %d handled %d", msg.data, s.now))
	}
	m.notified++
	m.until[msg.to] = max(m.until[msg.to], s.now+m.throttle)
	m.held = append(m.held, [2]int64{s.now, s.now + m.throttle})
	m.heldBy = append(m.heldBy, msg.to)
}

// report: the mechanism's own results (the result's mechanisms section).
func (m *ecnTest) report(*Sim) (string, map[string]float64) {
	return "ecn-test", map[string]float64{"marks": float64(m.marks), "echoes": float64(m.echoes),
		"notifications": float64(m.notified)}
}

func init() {
	register("ecn-test", func() mechanism { return &ecnTest{threshold: 64, echoLat: 50, throttle: 200} })
}

// hashResult runs c (seed 1) after attaching the mechanisms named and
// returns the hash of its result document, as TestGolden computes it,
// without the mechanisms' own section (a reporting mechanism must leave
// every other field as it was; the section must be there).
func hashResult(t *testing.T, c config.Config, attach ...mechanism) string {
	t.Helper()
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range attach {
		if err := s.attach(m); err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.CPUSeconds = 0
	for _, m := range attach {
		if rep, ok := m.(reporter); ok {
			if name, _ := rep.report(s); r.Mechanisms[name] == nil {
				t.Fatalf("mechanism %s reports, the result has no section %s: %v", name, name, r.Mechanisms)
			}
		}
	}
	r.Mechanisms = nil
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// Every hook present and doing nothing (and ECNs whose threshold no buffer
// reaches, one echoing by control messages, one by control packets) leaves
// every result of the golden set bit-identical.
func TestMechanismPassiveIsBitIdentical(t *testing.T) {
	for i, gc := range goldenCases() {
		if testing.Short() && i%4 != 0 {
			continue // a quarter of the set (every routing's first case among them)
		}
		c := goldenConfig(t, gc)
		if c.Graph500() {
			continue // a generation hook is refused there (TestMechanismAttachErrors)
		}
		want := goldenHash(t, gc)
		if got := hashResult(t, c, &probe{}, &ecnTest{threshold: 1 << 30, echoLat: 10, throttle: 100},
			&ecnEcho{ecnTest: ecnTest{threshold: 1 << 30, throttle: 100}}); got != want {
			t.Errorf("%s: result hash %s with passive mechanisms, %s without", gc.name, got, want)
		}
	}
}

// The miniature ECN under adversarial traffic above MIN's saturation marks
// packets, echoes each mark once, and every echo arrives exactly echoLat
// cycles after the ejection; no node generates while it is held, on both
// generation paths (geometric gaps, and per cycle with bursty traffic).
func TestMechanismECN(t *testing.T) {
	for _, process := range []string{"bernoulli", "bursty"} {
		t.Run(process, func(t *testing.T) {
			c := goldenConfig(t, goldenCase{"ecn", []string{"traffic.pattern=ADV", "traffic.load=0.9", "traffic.process=" + process}})
			free, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			base, err := free.Run(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.attachMechanism("ecn-test"); err != nil {
				t.Fatal(err)
			}
			m := s.mech.list[0].(*ecnTest)
			p := &probe{}
			if err := s.attach(p); err != nil {
				t.Fatal(err)
			}
			r, err := s.Run(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if m.marks == 0 || m.echoes == 0 || m.notified == 0 {
				t.Fatalf("marks %d, echoes %d, notifications %d: ADV at 0.9 should congest MIN", m.marks, m.echoes, m.notified)
			}
			if m.echoes > m.marks {
				t.Errorf("%d echoes of %d marked packets", m.echoes, m.marks)
			}
			// its counts in the result's section of its own; the probe
			// reports nothing
			want := map[string]map[string]float64{"ecn-test": {"marks": float64(m.marks),
				"echoes": float64(m.echoes), "notifications": float64(m.notified)}}
			if !reflect.DeepEqual(r.Mechanisms, want) {
				t.Errorf("mechanisms section %v, want %v", r.Mechanisms, want)
			}
			// every echo whose arrival cycle was simulated has arrived
			due := 0
			for _, at := range m.sentAt {
				if at+m.echoLat < s.now {
					due++
				}
			}
			if m.notified != due {
				t.Errorf("%d notifications, %d echoes due by cycle %d", m.notified, due, s.now-1)
			}
			if len(m.late) > 0 {
				t.Errorf("%d control messages off their latency %d: %v", len(m.late), m.echoLat, m.late[:min(5, len(m.late))])
			}
			// no packet generated inside a held interval of its source
			gens := map[int32][]int64{}
			for _, a := range p.arrives {
				if s.pclass[a.pi] == topology.Injection {
					gens[a.src] = append(gens[a.src], a.gen)
				}
			}
			bad := 0
			for i, h := range m.held {
				for _, g := range gens[m.heldBy[i]] {
					if g >= h[0] && g < h[1] {
						bad++
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d packets generated while their source was held", bad)
			}
			if g, g0 := r.Conservation.TotalGenerated, base.Conservation.TotalGenerated; g >= g0 {
				t.Errorf("%d packets generated with ECN, %d without: throttling should generate fewer", g, g0)
			}
			t.Logf("%s: %d marks, %d echoes; generated %d (%d without), accepted %.3f (%.3f)", process, m.marks, m.echoes,
				r.Conservation.TotalGenerated, base.Conservation.TotalGenerated, r.Accepted, base.Accepted)
		})
	}
}

// The geometric-gap path re-arms a held node from the end of its hold: the
// same Bernoulli process outside the held windows, nothing inside.
func TestMechanismHoldKeepsTheRate(t *testing.T) {
	c := goldenConfig(t, goldenCase{"hold", []string{"traffic.load=0.1"}})
	c.Sim.Warmup, c.Sim.Cycles = 0, 8000
	for _, process := range []string{"bernoulli", "bursty"} {
		c.Traffic.Process = process
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		// every node held in the odd windows [100, 200), [300, 400), …
		s.hk.gen = append(s.hk.gen, func(node int) int64 {
			if s.now/100%2 == 1 {
				return s.now/100*100 + 100
			}
			return 0
		})
		if (s.wakeups != nil) != (process == "bernoulli") {
			t.Fatalf("%s: geometric-gap path %v", process, s.wakeups != nil)
		}
		var in, out int
		s.hk.arrive = append(s.hk.arrive, func(pi, vc int, k int32) {
			if s.pclass[pi] == topology.Injection {
				if s.pk[k].gen/100%2 == 1 {
					in++
				} else {
					out++
				}
			}
		})
		if _, err := s.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		// 72 nodes × 4,000 open cycles × 0.1/8 packets per cycle = 3,600
		// (σ ≈ 60 for Bernoulli; bursts of 8 packets make it ≈ 170)
		want := float64(s.N) * 4000 * c.Traffic.Load / float64(s.P)
		tol := 0.06
		if process == "bursty" {
			tol = 0.2
		}
		if in != 0 || float64(out) < (1-tol)*want || float64(out) > (1+tol)*want {
			t.Errorf("%s: %d packets generated in held windows, %d in open ones (want %.0f ± %.0f%%)", process, in, out, want, 100*tol)
		}
		t.Logf("%s: %d packets in open windows, %.0f expected", process, out, want)
	}
}

func TestMechanismAttachErrors(t *testing.T) {
	c := smallConfig(2)
	s, _ := New(c, 1)
	if err := s.attachMechanism("no-such"); err == nil || !strings.Contains(err.Error(), "ecn-test") {
		t.Errorf("unknown name: %v, want an error listing the registered mechanisms", err)
	}
	if _, err := s.claimPacketBits(10); err != nil {
		t.Fatal(err)
	}
	if _, err := s.claimPacketBits(7); err == nil || !strings.Contains(err.Error(), "6 of 16") {
		t.Errorf("17 packet bits: %v, want an error naming the 6 left", err)
	}
	for _, lat := range []int64{0, 1<<20 + 1} {
		if err := s.needControl(lat); err == nil || !strings.Contains(err.Error(), "1…") {
			t.Errorf("control latency %d: %v, want an error with the allowed range", lat, err)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("sendControl beyond the declared latency did not panic")
			}
		}()
		if err := s.needControl(10); err != nil {
			t.Fatal(err)
		}
		s.sendControl(0, 0, 0, 1000)
	}()
	s.Step()
	if err := s.attach(&probe{}); err == nil {
		t.Error("attach after the first cycle accepted")
	}
	g := goldenConfig(t, goldenCase{"graph500", []string{"workload.kind=graph500"}})
	g.Workload.Scale = 10
	s2, err := New(g, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.attach(&probe{}); err == nil || !strings.Contains(err.Error(), "workload.kind") {
		t.Errorf("generation hook on Graph500: %v, want an error naming workload.kind", err)
	}
	if s2.hk.gen != nil || s2.hk.grant != nil || s2.hk.cycle != nil || len(s2.mech.list) != 0 {
		t.Error("a refused mechanism left hooks registered")
	}
}

// The mechanism bits live in the packet's former padding.
func TestPacketSize(t *testing.T) {
	if n := unsafe.Sizeof(packet{}); n != 72 {
		t.Fatalf("packet is %d bytes, want 72", n)
	}
}
