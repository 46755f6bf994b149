package sim

import (
	"testing"

	"phitsim/engine/config"
)

func smallConfig(h int) config.Config {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = h, 2*h, h
	c.Traffic.Load = 0
	c.Sim.Warmup, c.Sim.Cycles = 0, 2000
	return c
}

// single sends one packet through an empty network and returns its latency.
func single(t *testing.T, c config.Config, src, dst int) (lat, inj int64) {
	t.Helper()
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.inject(src, dst, 0)
	for s.InFlight() > 0 && s.now < 5000 {
		s.Step()
	}
	if s.st.del != 1 {
		t.Fatalf("packet %d→%d not delivered", src, dst)
	}
	return s.st.latSum, s.st.injSum
}

// Thesis/FOGSim zero-load latency: 1 + 3·routers + 10·local + 100·global + 8.
func TestZeroLoadLatencyPerPathType(t *testing.T) {
	checkZeroLoadPaths(t, smallConfig(2))
}

// checkZeroLoadPaths checks the zero-load latency of every minimal path type
// from node 0 under configuration c (h=2).
func checkZeroLoadPaths(t *testing.T, c config.Config) {
	t.Helper()
	s, _ := New(c, 1)
	d := s.topo
	want := map[string]int64{"0": 12, "l": 25, "g": 115, "lg": 128, "gl": 128, "lgl": 141}
	seen := map[string]bool{}
	for dr := 0; dr < d.Routers(); dr++ {
		// path type from router 0
		kind := "0"
		if dr != 0 {
			kind = ""
			r := 0
			for r != dr {
				port := s.df.MinimalPort(r, dr)
				if s.ports[r*s.radix+port].class == 2 {
					kind += "g"
				} else {
					kind += "l"
				}
				r, _ = d.Link(r, port)
			}
		}
		if seen[kind] {
			continue
		}
		seen[kind] = true
		dst := dr*c.Topology.P + 1
		lat, _ := single(t, c, 0, dst)
		if lat != want[kind] {
			t.Errorf("path %q (node 0→%d): latency %d, want %d", kind, dst, lat, want[kind])
		}
	}
	if len(seen) != 6 {
		t.Errorf("only path types %v found", seen)
	}
}

func TestZeroLoadValiantPath(t *testing.T) {
	// VAL l-g-l-l-g-l = 1 + 3·7 + 10·4 + 100·2 + 8 = 270; every Valiant path
	// follows the same per-hop formula
	c := smallConfig(2)
	c.Routing.Name = "VAL"
	found := false
	for seed := uint64(1); seed < 200 && !found; seed++ {
		s, _ := New(c, seed)
		s.inject(0, 5*c.Topology.P, 0) // a router of another group
		for s.InFlight() > 0 {
			s.Step()
		}
		l, g := s.st.hopsL, s.st.hopsG
		if want := 1 + 3*(l+g+1) + 10*l + 100*g + 8; s.st.latSum != want {
			t.Fatalf("seed %d: VAL path with %d local, %d global hops: latency %d, want %d", seed, l, g, s.st.latSum, want)
		}
		found = l == 4 && g == 2 && s.st.latSum == 270
	}
	if !found {
		t.Fatal("no l-g-l-l-g-l Valiant path drawn in 200 seeds")
	}
}
