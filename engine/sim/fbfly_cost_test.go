package sim

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// TestCallgrindFBFly is the flattened butterfly's cost probe (BENCHMARKS.md,
// "Flattened butterfly"), run under valgrind as costs.sh runs
// TestCallgrindWindow: PHITSIM_COST_FBFLY=ROUTING:DIMS:K:C:LOAD (e.g.
// UGAL:2:8:8:0.5, the paper's 512-node network), optionally followed by
// :path=value settings (":router.packetSize=8"), warms the network of
// config.FBFly under UR for 3,000 cycles, then runs 4,000 cycles inside
// costWindow and prints the packet-hops of that window.
func TestCallgrindFBFly(t *testing.T) {
	spec := os.Getenv("PHITSIM_COST_FBFLY")
	if spec == "" {
		t.Skip("PHITSIM_COST_FBFLY=ROUTING:DIMS:K:C:LOAD runs the flattened butterfly's callgrind cost probe")
	}
	f := strings.Split(spec, ":")
	if len(f) < 5 {
		t.Fatalf("PHITSIM_COST_FBFLY=%q: want ROUTING:DIMS:K:C:LOAD[:path=value…]", spec)
	}
	n := make([]int, 3)
	for i := range n {
		n[i], _ = strconv.Atoi(f[i+1])
	}
	c := config.FBFly(n[0], n[1], n[2])
	c.Routing.Name = f[0]
	c.Traffic.Load, _ = strconv.ParseFloat(f[4], 64)
	costProbe(t, c, f[5:])
}

// costProbe sets path=value on c, runs it 3,000 cycles and then the
// 4,000-cycle window callgrind counts (costWindow), logging its hops.
func costProbe(t *testing.T, c config.Config, sets []string) {
	for _, set := range sets {
		path, value, _ := strings.Cut(set, "=")
		if err := c.Set(path, value); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		s.Step()
	}
	t.Logf("hops %d", costWindow(s, 4000))
}
