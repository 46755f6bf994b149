package sim

import (
	"context"
	"testing"

	"phitsim/engine/config"
)

// BenchmarkSplitCost measures the two costs UsefulPartitions weighs
// (engine/PARALLEL.md, "When a split pays"): a router-cycle of the
// sequential engine, and one window's exchange at the barrier, shared
// memory and across memories (the page's Web Workers' path, over channels
// of bytes here). The same run is stepped in windows of the cut's L and of
// one cycle: the difference of the two ns/op over the extra barriers is a
// barrier's cost. The ratio is UsefulThreshold's measurement
// (BENCHMARKS.md, "Parallel runs").
//
//	go test ./engine/sim -run '^$' -bench BenchmarkSplitCost -benchtime 3x -cpu 1,2
func BenchmarkSplitCost(b *testing.B) {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4 // 264 routers, 33 groups, global links of 100 cycles
	c.Sim.Seeds = 1
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", "UN", 0.4
	c.Sim.Warmup, c.Sim.Cycles = 200, 1800
	run := func(b *testing.B, mode string, win int64) {
		for range b.N {
			s, err := New(c, 1)
			if err != nil {
				b.Fatal(err)
			}
			switch mode {
			case "seq":
				_, err = s.Run(context.Background(), nil)
			case "shared":
				windowHook = func(L int64) int64 { return min(win, L) }
				s.SetThreads(2)
				_, err = s.Run(context.Background(), nil)
				windowHook = nil
			case "remote":
				remoteWindowHook = func(L int64) int64 { return min(win, L) }
				links := make([]Link, 2)
				for p := range links {
					ps, err := New(c, 1)
					if err != nil {
						b.Fatal(err)
					}
					pt, err := NewPartition(ps, p)
					if err != nil {
						b.Fatal(err)
					}
					links[p] = LocalLink(pt)
				}
				_, err = s.RunRemote(context.Background(), nil, links)
				remoteWindowHook = nil
			}
			if err != nil {
				b.Fatal(err)
			}
			if mode == "seq" {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(float64(c.Sim.Warmup+c.Sim.Cycles)*float64(s.R)), "ns/router-cycle")
			}
		}
	}
	b.Run("seq", func(b *testing.B) { run(b, "seq", 0) })
	// half the cycles: the difference with seq is stepping alone, without
	// building the network (callgrind's instruction counts of the two)
	b.Run("seqhalf", func(b *testing.B) {
		c.Sim.Warmup, c.Sim.Cycles = 100, 900
		defer func() { c.Sim.Warmup, c.Sim.Cycles = 200, 1800 }()
		run(b, "seq", 0)
	})
	for _, mode := range []string{"shared", "remote"} {
		b.Run(mode+"/L", func(b *testing.B) { run(b, mode, 1<<40) })
		b.Run(mode+"/1", func(b *testing.B) { run(b, mode, 1) })
	}
}
