package sim

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"unsafe"

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
	costProbe(t, c, f[5:], nil)
}

// costProbe sets path=value on c, runs it 3,000 cycles and then the
// 4,000-cycle window callgrind counts (costWindow), logging its hops (every
// packet's crossings) and, with a congestion scheme, its data hops (data
// packets' crossings, dataHops); prepare, if not nil, is applied to the
// simulator first.
func costProbe(t *testing.T, c config.Config, sets []string, prepare func(*Sim) error) {
	for _, set := range sets {
		path, value, _ := strings.Cut(set, "=")
		if err := c.Set(path, value); err != nil {
			t.Fatal(err)
		}
	}
	s := warmProbe(t, c, prepare)
	hops := steadyCostWindow(t, s, 4000)
	t.Logf("hops %d", hops)
	if c.Congestion.SchemeName() != "none" { // its control packets cross too
		data, all := dataHops(t, c, prepare)
		if all != hops {
			t.Fatalf("the second run crossed %d times in the window, the first %d", all, hops)
		}
		t.Logf("data hops %d", data)
	}
}

// warmProbe is c's simulator (seed 1), prepared, after the probes' 3,000
// cycles of warm-up (PHITSIM_COST_WARM=cycles: that many instead, e.g. to
// let a saturated network's source queues fill).
func warmProbe(t *testing.T, c config.Config, prepare func(*Sim) error) *Sim {
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if prepare != nil {
		if err := prepare(s); err != nil {
			t.Fatal(err)
		}
	}
	warm := 3000
	if w := os.Getenv("PHITSIM_COST_WARM"); w != "" {
		var err error
		if warm, err = strconv.Atoi(w); err != nil {
			t.Fatalf("PHITSIM_COST_WARM=%q: %v", w, err)
		}
	}
	for range warm {
		s.Step()
	}
	return s
}

// dataHops is the data packets' crossings (control packets' not counted)
// and all crossings of costProbe's window, counted on a second run of c
// (the same seed, so the same run) by a grant hook, outside the window
// callgrind counts.
func dataHops(t *testing.T, c config.Config, prepare func(*Sim) error) (data, all int64) {
	s := warmProbe(t, c, prepare)
	s.hk.grant = append(s.hk.grant, func(_, _, _, _, _ int, k int32) {
		if !s.isControl(k) {
			data++
		}
	})
	h0 := s.st.xbar
	for range 4000 {
		s.Step()
	}
	return data, s.st.xbar - h0
}

// steadyCostWindow runs costWindow so that callgrind counts all of it:
// callgrind follows the call stack by the stack pointer, and when Go moves
// the goroutine's stack (it grows on a deeper call than any before, or a
// collection shrinks it) costWindow's frame seems to return and collection
// stops (a 256 KB growth half-way through the window halved the fat tree's
// count). So: one collection now, none in the window (GOGC off: a
// collection also adds its own instructions), the stack grown beforehand,
// and a check that it did not move.
func steadyCostWindow(t *testing.T, s *Sim, cycles int) int64 {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	growStack(1024)
	var mark byte
	at := uintptr(unsafe.Pointer(&mark))
	hops := costWindow(s, cycles)
	if uintptr(unsafe.Pointer(&mark)) != at {
		t.Fatal("the goroutine's stack moved inside the window: callgrind's count is partial")
	}
	return hops
}

// growStack uses about n KB of stack.
//
//go:noinline
func growStack(n int) byte {
	var b [1024]byte
	b[n%len(b)] = byte(n)
	if n == 0 {
		return b[0]
	}
	return growStack(n-1) + b[n%len(b)]
}
