package sim

// The router model sees a network only through topology.Topology: these tests
// run it on a Dragonfly renumbered so that none of the Dragonfly's numbering
// facts hold (nodes on any router and port, port classes that differ from
// router to router) and check that it still delivers every packet, on the
// right node, with the Dragonfly's zero-load latencies.

import (
	"context"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/rng"
	"phitsim/engine/topology"
)

// tnScrambled is a Dragonfly with its nodes attached in a random order (node
// n sits where the Dragonfly puts node perm[n]) and the ports of router r
// rotated by r: its port q is the Dragonfly's port (q+r) mod radix. It is
// not a *topology.Dragonfly, so the simulator sees it as any other topology.
type tnScrambled struct {
	d    *topology.Dragonfly
	perm []int
}

func tnNew(t *testing.T, c config.Topology, seed uint64) *tnScrambled {
	t.Helper()
	d, err := topology.NewDragonfly(c.H, c.A, c.P, c.Arrangement)
	if err != nil {
		t.Fatal(err)
	}
	x := &tnScrambled{d: d, perm: make([]int, d.Nodes())}
	s := rng.New(seed, rng.Traffic, 99)
	for i := range x.perm {
		x.perm[i] = i
	}
	for i := len(x.perm) - 1; i > 0; i-- {
		j := s.Intn(i + 1)
		x.perm[i], x.perm[j] = x.perm[j], x.perm[i]
	}
	if err := topology.Check(x); err != nil {
		t.Fatal(err)
	}
	return x
}

func (x *tnScrambled) phys(r, q int) int { return (q + r) % x.d.Radix() }
func (x *tnScrambled) virt(r, p int) int {
	return ((p-r)%x.d.Radix() + x.d.Radix()) % x.d.Radix()
}
func (x *tnScrambled) Name() string { return "scrambled " + x.d.Name() }
func (x *tnScrambled) Routers() int { return x.d.Routers() }
func (x *tnScrambled) Nodes() int   { return x.d.Nodes() }
func (x *tnScrambled) Radix() int   { return x.d.Radix() }
func (x *tnScrambled) Groups() int  { return x.d.Groups() }
func (x *tnScrambled) GroupOf(r int) int {
	return x.d.GroupOf(r)
}
func (x *tnScrambled) NodePort(n int) (int, int) {
	r, p := x.d.NodePort(x.perm[n])
	return r, x.virt(r, p)
}
func (x *tnScrambled) PortClass(r, q int) topology.PortClass {
	return x.d.PortClass(r, x.phys(r, q))
}
func (x *tnScrambled) Link(r, q int) (int, int) {
	pr, pp := x.d.Link(r, x.phys(r, q))
	return pr, x.virt(pr, pp)
}
func (x *tnScrambled) Classes() []topology.Class { return x.d.Classes() }
func (x *tnScrambled) MinimalPorts(r, dst int, buf []int) []int {
	return append(buf, x.virt(r, x.d.MinimalPort(r, dst)))
}

func tnConfig(load float64) config.Config {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Traffic.Load = load
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 1000, 3000, 1
	return c
}

func TestScrambledTopologyIsNotUniform(t *testing.T) {
	x := tnNew(t, tnConfig(0).Topology, 1)
	d := x.d
	moved, classes := 0, false
	for n := 0; n < x.Nodes(); n++ {
		if r, p := x.NodePort(n); r != n/d.P || p != n%d.P {
			moved++
		}
	}
	for q := 0; q < x.Radix(); q++ {
		if x.PortClass(0, q) != x.PortClass(1, q) {
			classes = true
		}
	}
	if moved < x.Nodes()/2 || !classes {
		t.Fatalf("scrambling left %d of %d nodes in place, classes differ between routers: %v", x.Nodes()-moved, x.Nodes(), classes)
	}
}

// The simulator ejects each packet on the port its destination node attaches
// to, and counts injections on the router of the source node.
func TestSimUsesNodeAttachment(t *testing.T) {
	c := tnConfig(0)
	x := tnNew(t, c.Topology, 2)
	s, err := newSim(c, x, 1)
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; d < x.Nodes(); d++ {
		r, p := x.NodePort(d)
		pk := packet{dst: int32(d), dstRouter: int32(r), vcPos: -1}
		s.route(r, &pk, false, false)
		if int(pk.outPort) != p {
			t.Fatalf("node %d (router %d port %d): ejected on port %d", d, r, p, pk.outPort)
		}
		before := s.st.perRouter[r]
		e := (d + 7) % x.Nodes()
		er, _ := x.NodePort(e)
		k := s.newPacket(d, e, s.W, 0)
		if int(s.pk[k].dstRouter) != er || s.st.perRouter[r] != before+1 {
			t.Fatalf("node %d: packet to node %d has router %d, want %d; injections of router %d %d → %d",
				d, e, s.pk[k].dstRouter, er, r, before, s.st.perRouter[r])
		}
		if bi := s.injBuf(d, 1); bi/s.maxVC != r*s.radix+p {
			t.Fatalf("node %d: injection buffer %d is on port %d, want router %d port %d", d, bi, bi/s.maxVC, r, p)
		}
	}
}

// Zero-load latency on the scrambled network: the per-hop formula of
// TestZeroLoadLatencyPerPathType along the path the topology routes, from and
// to the routers the nodes attach to.
func TestScrambledZeroLoadLatency(t *testing.T) {
	c := tnConfig(0)
	c.Sim.Warmup = 0
	x := tnNew(t, c.Topology, 3)
	tp, rt := c.Topology, c.Router
	seen := map[[2]int64]bool{}
	for src := 0; src < x.Nodes(); src += 5 {
		for dst := 0; dst < x.Nodes(); dst += 3 {
			if dst == src {
				continue
			}
			s, err := newSim(c, x, 1)
			if err != nil {
				t.Fatal(err)
			}
			r, _ := x.NodePort(src)
			dr, _ := x.NodePort(dst)
			var l, g int64
			for r != dr {
				q := x.MinimalPorts(r, dr, nil)[0]
				if x.PortClass(r, q) == topology.Global {
					g++
				} else {
					l++
				}
				r, _ = x.Link(r, q)
			}
			s.inject(src, dst, 0)
			for s.InFlight() > 0 && s.now < 2000 {
				s.Step()
			}
			want := int64(tp.InjectionLatency) + int64(rt.XbarLatency)*(l+g+1) + int64(tp.LocalLatency)*l + int64(tp.GlobalLatency)*g + int64(rt.PacketSize)
			if s.st.del != 1 || s.st.latSum != want || s.st.hopsL != l || s.st.hopsG != g {
				t.Fatalf("%d→%d: delivered %d, latency %d over %d local + %d global hops, want %d over %d + %d",
					src, dst, s.st.del, s.st.latSum, s.st.hopsL, s.st.hopsG, want, l, g)
			}
			seen[[2]int64{l, g}] = true
		}
	}
	if len(seen) < 5 {
		t.Errorf("only %d path types seen: %v", len(seen), seen)
	}
}

// Under load the scrambled network conserves packets and carries what the
// Dragonfly does (it is the same network, its nodes renamed).
func TestScrambledConservesUnderLoad(t *testing.T) {
	c := tnConfig(0.3)
	x := tnNew(t, c.Topology, 4)
	s, err := newSim(c, x, 7)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := btSim(t, c, 7) // the plain Dragonfly
	if !res.Conserved() || res.Delivered == 0 {
		t.Fatalf("generated %d, delivered %d, in flight %d", res.TotalGenerated, res.TotalDelivered, res.InFlight)
	}
	t.Logf("accepted %.4f / %.4f, latency %.1f / %.1f, links %+v / %+v (scrambled / Dragonfly)",
		res.Accepted, ref.Accepted, res.Latency.Avg, ref.Latency.Avg, res.Classes, ref.Links)
	// not a *topology.Dragonfly: its result names its classes, the
	// Dragonfly's fields stay 0
	if len(res.Classes) != 3 || res.Classes[1].Class != "local" || res.Classes[2].Class != "global" || res.Links.Local != 0 || res.Hops.Global != 0 {
		t.Fatalf("classes %+v, links %+v, hops %+v", res.Classes, res.Links, res.Hops)
	}
	var sum int64
	for _, n := range s.st.perRouter {
		sum += n
	}
	if sum != res.Generated {
		t.Errorf("per-router injections sum to %d, generated %d", sum, res.Generated)
	}
	if d := res.Accepted - ref.Accepted; d > 0.02 || d < -0.02 || res.Saturated {
		t.Errorf("accepted load %.4f, the Dragonfly's %.4f", res.Accepted, ref.Accepted)
	}
	if d := res.Latency.Avg / ref.Latency.Avg; d > 1.05 || d < 0.95 {
		t.Errorf("average latency %.1f, the Dragonfly's %.1f", res.Latency.Avg, ref.Latency.Avg)
	}
	for _, u := range [][2]float64{{res.Classes[0].Utilisation, ref.Links.Injection}, {res.Classes[1].Utilisation, ref.Links.Local},
		{res.Classes[2].Utilisation, ref.Links.Global}, {res.Classes[1].Hops, ref.Hops.Local}, {res.Classes[2].Hops, ref.Hops.Global}} {
		if u[1] <= 0 || u[0]/u[1] > 1.1 || u[0]/u[1] < 0.9 {
			t.Errorf("link utilisation and hops %+v, the Dragonfly's %+v %+v", res.Classes, ref.Links, ref.Hops)
			break
		}
	}
}

// What only a Dragonfly supports is refused on another topology, naming the
// field.
func TestNonDragonflyRefusesDragonflyMechanisms(t *testing.T) {
	for _, cs := range []struct {
		edit  func(*config.Config)
		field string
	}{
		{func(c *config.Config) { c.Routing.Name = "VAL" }, "routing.name"},
		{func(c *config.Config) { c.Routing.Name = "PB" }, "routing.name"},
		{func(c *config.Config) { c.Traffic.Pattern, c.Traffic.AdvOffset = "ADV", 1 }, "traffic.pattern"},
		{func(c *config.Config) {
			c.Traffic.SwitchCycle, c.Traffic.SwitchPattern, c.Traffic.SwitchAdvOffset = 100, "ADV", 1
		}, "traffic.switchPattern"},
	} {
		c := tnConfig(0.1)
		cs.edit(&c)
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%s: invalid test config: %v", cs.field, errs)
		}
		_, err := newSim(c, tnNew(t, c.Topology, 5), 1)
		if err == nil || !strings.Contains(err.Error(), cs.field) || !strings.Contains(err.Error(), "dragonfly") {
			t.Errorf("%s: error %v", cs.field, err)
		}
	}
	c, err := config.PresetByName("graph500-h2")
	if err != nil {
		t.Fatal(err)
	}
	c.Routing.Name = "MIN"
	if _, err := newSim(c, tnNew(t, c.Topology, 5), 1); err == nil || !strings.Contains(err.Error(), "workload.kind") {
		t.Errorf("graph500: error %v", err)
	}
	// UN, HOT and PERM address nodes only
	for _, p := range []string{"UN", "HOT", "PERM"} {
		c := tnConfig(0.1)
		c.Traffic.Pattern = p
		if _, err := newSim(c, tnNew(t, c.Topology, 5), 1); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
