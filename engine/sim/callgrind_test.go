package sim

import (
	"os"
	"strings"
	"testing"
)

// TestCallgrindWindow is the deterministic cost probe of BENCHMARKS.md (run
// by costs.sh under valgrind): it warms an h=4 network under UN 0.2 with
// the routing named in PHITSIM_COST for 3,000 cycles, then runs 4,000 cycles
// inside costWindow, the only function callgrind collects, and prints the
// packet-hops of that window.
func TestCallgrindWindow(t *testing.T) {
	routing := os.Getenv("PHITSIM_COST")
	if routing == "" {
		t.Skip("PHITSIM_COST=<routing> runs the callgrind cost probe")
	}
	s := benchSim(t, 4, strings.TrimSpace(routing), 0.2)
	t.Logf("hops %d", costWindow(s, 4000))
}

//go:noinline
func costWindow(s *Sim, cycles int) int64 {
	h0 := s.st.xbar
	for i := 0; i < cycles; i++ {
		s.Step()
	}
	return s.st.xbar - h0
}
