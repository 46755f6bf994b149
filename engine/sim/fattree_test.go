package sim

// The fat trees of Duato et al., "A New Scalable and Cost-Effective
// Congestion Management Strategy for Lossless Multistage Interconnection
// Networks" (RECN paper §4.1: 64 hosts / 48 switches / 3 stages, 256 / 256
// / 4, 512 / 640 / 5) under D-mod-k MIN: the route the simulator takes is
// the topology's, zero-load latencies from the path length, UR throughput
// at load 1 and a permutation D-mod-k routes without conflicts.

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// fattreeTestConfig is the paper's network (config.FatTree) with small
// buffers and latencies that differ from each other, so that each term of
// a formula shows, at load 0.
func fattreeTestConfig(k, stages, subtrees int) config.Config {
	c := config.FatTree(k, stages, subtrees)
	c.Topology.LocalLatency, c.Topology.InjectionLatency = 13, 2
	c.Router.LocalBuffer, c.Router.InjectionBuffer, c.Router.OutputBuffer = 64, 64, 64
	c.Traffic.Load = 0
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, 2000, 1
	return c
}

// Zero-load latency, both router models: injection + crossbar·switches +
// link·(switches−1) + packet, the route crossing 2·L+1 switches (L the
// level of the lowest common ancestor): every pair of two small trees (8
// hosts: k=2 in 3 stages; k=4 in 2 stages with a 2-subtree top), and on the
// paper's 64- and 512-host networks a same-leaf, a 2-level, a 3-level pair
// (and 4- and 5-level ones at 512); the packet's hops are the path's.
func TestFatTreeZeroLoadLatency(t *testing.T) {
	type pair struct{ s, d int }
	for _, tc := range []struct {
		k, stages, subtrees int
		pairs               []pair // nil: every pair
	}{
		{2, 3, 0, nil}, {4, 2, 2, nil},
		{4, 3, 0, []pair{{5, 6}, {5, 9}, {5, 46}, {63, 0}}},
		{4, 5, 2, []pair{{0, 3}, {0, 4}, {0, 16}, {0, 64}, {0, 300}, {511, 1}}},
	} {
		for _, model := range []string{"ioq", "iq"} {
			c := fattreeTestConfig(tc.k, tc.stages, tc.subtrees)
			c.Router.Model = model
			if model == "iq" {
				c.Router.Speedup = 1
			}
			f, _ := topology.NewFatTree(tc.k, tc.stages, tc.subtrees)
			pairs := tc.pairs
			if pairs == nil {
				for s := 0; s < f.Nodes(); s++ {
					for d := 0; d < f.Nodes(); d++ {
						if s != d {
							pairs = append(pairs, pair{s, d})
						}
					}
				}
			}
			levels := map[int]bool{}
			for _, p := range pairs {
				lat, hops, _ := zeroLoad(t, c, p.s, p.d, false)
				L := f.LCALevel(p.s, p.d)
				levels[L] = true
				sw := int64(2*L + 1)
				want := int64(c.Topology.InjectionLatency) + int64(c.Router.XbarLatency)*sw +
					int64(c.Topology.LocalLatency)*(sw-1) + int64(c.Router.PacketSize)
				if hops != sw-1 || lat != want {
					t.Fatalf("%s %s %d→%d: latency %d over %d hops, want %d over %d (LCA level %d)", f.Name(), model, p.s, p.d, lat, hops, want, sw-1, L)
				}
			}
			if len(levels) != tc.stages {
				t.Fatalf("%s: pairs reach LCA levels %v, want all %d", f.Name(), levels, tc.stages)
			}
		}
	}
}

// The simulator routes by the topology's D-mod-k (FatTree.Port, tested in
// package topology): from every switch of the 64-host network to every
// host not on it, route's port is Port's, on VC 0 (one VC, up*/down*).
func TestFatTreeSimRoutesDModK(t *testing.T) {
	c := fattreeTestConfig(4, 3, 0)
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := s.topo.(*topology.FatTree)
	for r := 0; r < f.Routers(); r++ {
		for d := 0; d < f.Nodes(); d++ {
			if d/f.K == r {
				continue
			}
			pk := &packet{dst: int32(d), dstRouter: int32(d / f.K), vcPos: 0, flags: fInterDone}
			s.route(r, pk, false, false)
			if int(pk.outPort) != f.Port(r, d) || pk.outVC != 0 {
				t.Fatalf("switch %d → host %d: port %d VC %d, want port %d VC 0", r, d, pk.outPort, pk.outVC, f.Port(r, d))
			}
		}
	}
}

// permutationLoad offers host s's packets to dest(s) at full rate (its
// injection buffer kept full) on c's network and returns the accepted load
// over the last `cycles` after `warmup` cycles.
func permutationLoad(t *testing.T, c config.Config, dest func(int) int, warmup, cycles int64) float64 {
	t.Helper()
	c.Traffic.Load = 0
	c.Sim.Warmup, c.Sim.Cycles = int(warmup), int(cycles)
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	var from int64
	for s.now < warmup+cycles {
		if s.now == warmup {
			from = s.st.totDel
		}
		for n := 0; n < s.N; n++ {
			if d := dest(n); d != n && s.hasRoom(n) {
				s.inject(n, d, 0)
			}
		}
		s.Step()
	}
	if err := s.Census(); err != nil {
		t.Fatal(err)
	}
	return float64((s.st.totDel-from)*int64(s.P)) / float64(int64(s.N)*cycles)
}

// Permutations on the paper's 64-host network (config.FatTree, its
// switch), 2,000 + 4,000 cycles: the shift n → n+16 (k^(n−1)) sends the 4
// hosts of a leaf up 4 different ports (their destinations' d_0) and every
// switch's up flows to different d_l, so D-mod-k routes it without a
// conflict and it accepts ≈ 1; so does the shift by one leaf, n → n+4. The
// digit reversal (d_2 d_1 d_0) → (d_0 d_1 d_2) sends the 3 hosts of a leaf
// that do not send to themselves to one d_0, up one port: it caps at 1/3
// of a host link.
func TestFatTree64Permutations(t *testing.T) {
	c := config.FatTree(4, 3, 0)
	for _, tc := range []struct {
		name   string
		dest   func(int) int
		lo, hi float64
	}{
		{"shift n+16", func(n int) int { return (n + 16) % 64 }, 0.97, 1.0},
		{"shift n+4", func(n int) int { return (n + 4) % 64 }, 0.97, 1.0},
		// 48 of the 64 hosts send (16 send to themselves), at 1/3 each
		{"digit reversal", func(n int) int { return n%4*16 + n/4%4*4 + n/16 }, 0.75 * 0.32, 0.75 * 0.35},
	} {
		acc := permutationLoad(t, c, tc.dest, 2000, 4000)
		t.Logf("%s: accepted %.3f", tc.name, acc)
		if acc < tc.lo || acc > tc.hi {
			t.Errorf("%s: accepted %.3f, want %.3f–%.3f", tc.name, acc, tc.lo, tc.hi)
		}
	}
}

// UR on the paper's 64-host network at load 1 (full bisection: no switch
// link above 1, TestFatTreeEveryLinkCarriesUR): the host links bound it at
// 1; one FIFO per port side (no VOQs) loses some of it to head-of-line
// blocking: it accepts 0.89. At 0.5 (corner case 1's background)
// everything is accepted. 5,000 + 5,000 cycles.
func TestFatTree64UniformThroughput(t *testing.T) {
	if testing.Short() {
		t.Skip("two 64-host runs of 10,000 cycles")
	}
	c := config.FatTree(4, 3, 0)
	c.Sim.Seeds, c.Sim.Warmup, c.Sim.Cycles = 1, 5000, 5000
	c.Traffic.Load = 1
	r := btRun(t, c, 1)
	t.Logf("UR at 1.0: accepted %.3f", r.Accepted)
	if r.Accepted < 0.8 || r.Accepted > 1 {
		t.Errorf("UR at 1.0: accepted %.3f, want 0.8–1", r.Accepted)
	}
	c.Traffic.Load = 0.5
	if r := btRun(t, c, 1); r.Accepted < 0.48 || r.Accepted > 0.52 {
		t.Errorf("UR at 0.5: accepted %.3f", r.Accepted)
	}
}

// The memory estimate of the paper's 256-host network (its ports per
// class from the kind registry, 16,384-phit buffers and output FIFOs): idle,
// the terms allocated whatever the traffic bound what the run allocates and
// are within 4× of it; under UR at 0.5, the whole estimate bounds it. Also
// the worst case with every buffer full stays under config.MaxStateBytes.
func TestFatTreeMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("two 256-host runs")
	}
	for _, load := range []float64{0, 0.5} {
		c := config.FatTree(4, 4, 0)
		c.Traffic.Load, c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = load, 0, 2000, 1
		checkEstimateBounds(t, c)
		if est, _ := estimate(c); est > config.MaxStateBytes {
			t.Errorf("estimate %d MiB over the %d MiB a run may take", est>>20, config.MaxStateBytes>>20)
		}
	}
}

// TestCallgrindFatTree is the fat tree's cost probe (BENCHMARKS.md, "Fat
// tree"), run under valgrind as costs.sh runs TestCallgrindWindow:
// PHITSIM_COST_FATTREE=K:STAGES:SUBTREES:LOAD (e.g. 4:3:0:0.5, the RECN
// paper's 64-host network), optionally followed by :path=value settings,
// warms config.FatTree's network under UR for 3,000 cycles, then runs
// 4,000 cycles inside costWindow and prints the packet-hops of that window;
// PHITSIM_COST_SNAP=N watches it with the live view's snapshots every N
// cycles.
func TestCallgrindFatTree(t *testing.T) {
	spec := os.Getenv("PHITSIM_COST_FATTREE")
	if spec == "" {
		t.Skip("PHITSIM_COST_FATTREE=K:STAGES:SUBTREES:LOAD runs the fat tree's callgrind cost probe")
	}
	f := strings.Split(spec, ":")
	if len(f) < 4 {
		t.Fatalf("PHITSIM_COST_FATTREE=%q: want K:STAGES:SUBTREES:LOAD[:path=value…]", spec)
	}
	n := make([]int, 3)
	for i := range n {
		n[i], _ = strconv.Atoi(f[i])
	}
	c := config.FatTree(n[0], n[1], n[2])
	c.Traffic.Load, _ = strconv.ParseFloat(f[3], 64)
	var watch func(*Sim) error
	if every, err := strconv.Atoi(os.Getenv("PHITSIM_COST_SNAP")); err == nil {
		// PHITSIM_COST_SNAP=N: with the live view's snapshots every N cycles
		watch = func(s *Sim) error { return s.Watch(int64(every), func(*NetSnapshot) {}) }
	}
	costProbe(t, c, f[4:], watch)
}

// Injection fairness is over the routers that hold hosts: a fat tree's
// leaves (the switches above inject nothing and are not starved routers).
// 8 hosts (k=2, 3 stages: 4 leaves of 12 switches), UR at 0.5.
func TestFatTreeFairnessOverLeaves(t *testing.T) {
	c := fattreeTestConfig(2, 3, 0)
	c.Traffic.Load = 0.5
	r := btRun(t, c, 1)
	if f := r.Fairness; len(f.PerRouter) != 4 || f.Starved != 0 || f.MaxMin < 1 || f.MaxMin > 1.5 {
		t.Errorf("fairness over %d routers, %d starved, max/min %.3f; want the 4 leaves, none starved", len(f.PerRouter), f.Starved, f.MaxMin)
	}
}
