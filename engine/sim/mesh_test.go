package sim

// The toy second topology, a 2D mesh under dimension-order MIN, run through
// the topology contract: its zero-load latencies follow its own formula,
// it conserves and drains its packets, it runs from a configuration, it
// refuses what needs a Dragonfly, and the static channel-dependency check
// refuses a cyclic network.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// meshConfig is a w×h mesh with p nodes per router, with latencies that
// differ from the defaults so that each term of a formula shows.
func meshConfig(w, h, p int) config.Config {
	c := config.Default()
	c.Topology.Kind, c.Topology.Width, c.Topology.Height, c.Topology.P = "mesh", w, h, p
	c.Topology.LocalLatency, c.Topology.InjectionLatency = 7, 2
	c.Traffic.Load = 0
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, 2000, 1
	return c
}

// The zero-load latency of every pair of nodes of a 4×3 mesh (p=2), both
// router models: injection + crossbar·(hops+1) + link·hops + packet, with
// hops = |Δx| + |Δy| from the nodes' coordinates (router = x + width·y),
// |Δx| of them on x links and |Δy| on y links (dimension order; the y
// class is class 2, counted with the Dragonfly's global hops).
func TestMeshZeroLoadLatencyEveryPair(t *testing.T) {
	for _, model := range []string{"ioq", "iq"} {
		c := meshConfig(4, 3, 2)
		c.Router.Model = model
		if model == "iq" {
			c.Router.Speedup = 1
		}
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatal(errs)
		}
		tp, rt := c.Topology, c.Router
		nodes := tp.Width * tp.Height * tp.P
		abs := func(x int) int64 { return int64(max(x, -x)) }
		for src := 0; src < nodes; src++ {
			for dst := 0; dst < nodes; dst++ {
				if dst == src {
					continue
				}
				sr, dr := src/tp.P, dst/tp.P
				dx, dy := abs(dr%tp.Width-sr%tp.Width), abs(dr/tp.Width-sr/tp.Width)
				hops := dx + dy
				want := int64(tp.InjectionLatency) + int64(rt.XbarLatency)*(hops+1) + int64(tp.LocalLatency)*hops + int64(rt.PacketSize)
				s, err := New(c, 1)
				if err != nil {
					t.Fatal(err)
				}
				s.inject(src, dst, 0)
				for s.InFlight() > 0 && s.now < 1000 {
					s.Step()
				}
				if s.st.del != 1 || s.st.latSum != want || s.st.hopsL != dx || s.st.hopsG != dy {
					t.Fatalf("%s %d→%d: delivered %d, latency %d over %d x + %d y hops; want %d over %d + %d",
						model, src, dst, s.st.del, s.st.latSum, s.st.hopsL, s.st.hopsG, want, dx, dy)
				}
			}
		}
	}
}

// Injection at load 1 saturates a 4×4 mesh; once it stops, every packet is
// delivered (credits and VCs are all returned), with both router models
// and request-reply traffic (replies on their own VCs).
func TestMeshDrainsAfterSaturatingBurst(t *testing.T) {
	for _, tc := range []struct {
		model    string
		reactive bool
	}{{"ioq", false}, {"iq", false}, {"ioq", true}} {
		c := meshConfig(4, 4, 2)
		c.Router.Model, c.Traffic.Reactive = tc.model, tc.reactive
		if tc.model == "iq" {
			c.Router.Speedup = 1
		}
		c.Sim.Cycles = 1000000
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		flags := uint8(0)
		if tc.reactive {
			flags = fRequest
		}
		loaded, r := burstAndDrain(s, 3000, "UN", flags, rand.New(rand.NewPCG(3, 4)))
		checkDrained(t, fmt.Sprintf("%+v", tc), s, s.N, loaded, r)
	}
}

// A mesh configuration runs (config → topology.New → sim) below saturation:
// it accepts what is offered, with the mean hop count of uniform traffic
// on a 4×4 mesh.
func TestMeshRunsFromConfig(t *testing.T) {
	c := meshConfig(4, 4, 1)
	c.Traffic.Load, c.Sim.Warmup, c.Sim.Cycles = 0.2, 2000, 8000
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}
	r := btRun(t, c, 1)
	if r.Accepted < 0.18 || r.Accepted > 0.22 {
		t.Errorf("accepted %.3f at offered 0.2", r.Accepted)
	}
	// uniform over the other 15 routers: E|Δx| + E|Δy| = 2·(1.25·16/15) = 8/3
	if want := 8.0 / 3; r.Hops.Avg < want-0.1 || r.Hops.Avg > want+0.1 {
		t.Errorf("mean hops %.3f, want ≈ %.3f", r.Hops.Avg, want)
	}
}

// What only a Dragonfly has is refused by name on a mesh: the routings
// other than MIN (by validation) and the group-based patterns (by New).
func TestMeshRefusesDragonflyMechanisms(t *testing.T) {
	c := meshConfig(3, 3, 1)
	c.Routing.Name = "VAL"
	if errs := c.Validate(); len(errs) == 0 || !strings.Contains(errs.Error(), "routing.name") || !strings.Contains(errs.Error(), "mesh") {
		t.Errorf("VAL on a mesh: %v", errs)
	}
	c = meshConfig(3, 3, 1)
	c.Traffic.Pattern = "ADV"
	if _, err := New(c, 1); err == nil || !strings.Contains(err.Error(), "traffic.pattern") {
		t.Errorf("ADV on a mesh: %v", err)
	}
	c = meshConfig(0, 3, 1)
	if errs := c.Validate(); len(errs) == 0 || !strings.Contains(errs.Error(), "topology.width") || !strings.Contains(errs.Error(), "1 to 64") {
		t.Errorf("width 0: %v", errs)
	}
}

// meshRing is a ring of n routers offered to the simulator as a mesh (its
// classes): the shorter-way routes of a ring chain its links into a cycle,
// and "x* y*" keeps one VC per class, so New must refuse it.
type meshRing struct{ n int }

func (g meshRing) Name() string              { return "ring" }
func (g meshRing) Routers() int              { return g.n }
func (g meshRing) Nodes() int                { return g.n }
func (g meshRing) Radix() int                { return 3 }
func (g meshRing) Classes() []topology.Class { return (&topology.Mesh{}).Classes() }
func (g meshRing) NodePort(n int) (int, int) { return n, 0 }
func (g meshRing) Groups() int               { return 1 }
func (g meshRing) GroupOf(int) int           { return 0 }
func (g meshRing) PortClass(_, p int) topology.PortClass {
	return topology.PortClass(min(p, 1))
}
func (g meshRing) Link(r, p int) (int, int) {
	if p == 1 {
		return (r + 1) % g.n, 2
	}
	return (r + g.n - 1) % g.n, 1
}
func (g meshRing) MinimalPorts(r, d int, buf []int) []int {
	if (d-r+g.n)%g.n <= g.n/2 {
		return append(buf, 1)
	}
	return append(buf, 2)
}

func TestNewRefusesACyclicChannelDependencyGraph(t *testing.T) {
	c := meshConfig(5, 1, 1)
	_, err := newSim(c, meshRing{5}, 1)
	if err == nil || !strings.Contains(err.Error(), "routing.name=MIN") || !strings.Contains(err.Error(), "topology.kind=mesh") || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("ring: %v, want a refusal naming routing.name, topology.kind and the cycle", err)
	}
	if _, err := newSim(c, &topology.Mesh{Width: 5, Height: 1, P: 1}, 1); err != nil {
		t.Fatalf("the 5×1 mesh: %v", err)
	}
}

// The memory estimate of a mesh (its ports per class and radix from the
// kind registry), on a mesh large enough for its buffers to dominate: idle,
// the terms allocated whatever the traffic bound what the run allocates and
// are within 4× of it; under load, the whole estimate bounds it.
func TestMeshMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates about 150 MB")
	}
	for _, load := range []float64{0, 0.3} {
		c := meshConfig(64, 64, 2)
		c.Router.LocalBuffer, c.Router.InjectionBuffer = 800, 800
		c.Traffic.Load, c.Sim.Cycles = load, 300
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatal(errs)
		}
		checkEstimateBounds(t, c)
	}
}

// meshBoth is a mesh whose minimal port set holds both productive
// directions (minimal adaptive routing): a path may then take y before x,
// which dimension order's x* y* has no VC for, and New refuses it before
// any packet could find its sequence exhausted.
type meshBoth struct{ *topology.Mesh }

func (m meshBoth) Name() string { return m.Mesh.Name() + ", both directions minimal" }

func (m meshBoth) MinimalPorts(r, d int, buf []int) []int {
	x, y := m.XY(r)
	dx, dy := m.XY(d)
	if dx != x {
		buf = m.Mesh.MinimalPorts(r, d, buf)
	}
	if dy > y {
		buf = append(buf, m.P+2)
	} else if dy < y {
		buf = append(buf, m.P+3)
	}
	return buf
}

func TestNewRefusesMinimalPortsTheSequenceCannotFollow(t *testing.T) {
	c := meshConfig(3, 3, 1)
	_, err := newSim(c, meshBoth{&topology.Mesh{Width: 3, Height: 3, P: 1}}, 1)
	if err == nil || !strings.Contains(err.Error(), "routing.name=MIN on topology.kind=mesh") || !strings.Contains(err.Error(), "takes a hop of class x") {
		t.Fatalf("y-then-x paths under x* y*: %v", err)
	}
}

// With several minimal ports, routing draws one from the router's random
// stream: both directions are taken, about evenly; with one, it is taken
// and nothing is drawn.
func TestMinimalPortDrawsAmongSeveral(t *testing.T) {
	s, err := New(meshConfig(3, 3, 1), 1)
	if err != nil {
		t.Fatal(err)
	}
	m := s.topo.(*topology.Mesh)
	before := s.rts[0]
	if p := s.minimalPort(0, 2, 2); p != m.P || s.rts[0] != before {
		t.Fatalf("one port: %d, stream moved %v", p, s.rts[0] != before)
	}
	s.topo = meshBoth{m}
	count := map[int]int{}
	for range 1000 {
		count[s.minimalPort(0, 8, 8)]++
	}
	if len(count) != 2 || count[m.P] < 400 || count[m.P+2] < 400 {
		t.Errorf("router 0 → 8: ports drawn %v, want x+ (%d) and y+ (%d) about evenly", count, m.P, m.P+2)
	}
}
