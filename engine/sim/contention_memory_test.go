package sim

import (
	"runtime"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// newAlloc is what New allocates for configuration c (TotalAlloc).
func newAlloc(t *testing.T, c config.Config) uint64 {
	t.Helper()
	var s *Sim
	n := allocatedBy(func() {
		var err error
		if s, err = New(c, 1); err != nil {
			t.Fatal(err)
		}
	})
	runtime.KeepAlive(s)
	return n
}

// memTerm is the bytes of c's memory-estimate terms whose description
// contains what.
func memTerm(c config.Config, what string) int64 {
	var b int64
	for _, p := range c.Memory() {
		if strings.Contains(p.What, what) {
			b += p.Bytes
		}
	}
	return b
}

// The memory estimate's terms for the contention counters (thesis §4.2.1.1)
// and ECtN's partial counters (§4.2.1.4) against what New allocates for
// them: the state of OLM with a counting trigger, less that of OLM with the
// ugal trigger (no counters, no global-link view), and ECtN's less Base's.
// Each term bounds its allocation and is within 4× (+64 KiB: the release
// entries the traffic adds) of it. At h=4 with a local latency of 6,300
// cycles (a release wheel of 8,192 slots; 64 ECtN broadcasts in flight,
// 264 routers × 33 groups each); then a run of 300 cycles of ECtN, whose
// whole allocation the whole estimate bounds.
func TestMemoryEstimateBoundsContentionCounters(t *testing.T) {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4
	c.Topology.LocalLatency = 6300
	c.Sim.Warmup, c.Sim.Cycles = 0, 300
	c.Routing.Name, c.Routing.Trigger = "OLM", "ugal"
	none := newAlloc(t, c)
	for _, tc := range []struct{ trigger, term string }{
		{"base", "contention counters"}, {"filtered", "contention counters"}, {"ectn", "ECtN"},
	} {
		c.Routing.Trigger = "base"
		from := none
		if tc.trigger == "ectn" {
			from = newAlloc(t, c)
		}
		c.Routing.Trigger = tc.trigger
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatal(errs)
		}
		got := int64(newAlloc(t, c)) - int64(from)
		est := memTerm(c, tc.term)
		t.Logf("%-8s %-20s allocated %8d B, estimated %8d B (%.2f×)", tc.trigger, tc.term, got, est, float64(est)/float64(got))
		if est < got {
			t.Errorf("%s: New allocates %d B for the %s, estimated %d B", tc.trigger, got, tc.term, est)
		}
		if est > 4*got+64<<10 {
			t.Errorf("%s: the %s estimated at %d B, more than 4× the %d B allocated", tc.trigger, tc.term, est, got)
		}
	}
	if testing.Short() {
		return
	}
	got, _, err := measureRun(t, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if est := c.StateBytes(); uint64(est) < got {
		t.Errorf("a run of ectn allocates %.1f MiB, estimate %.1f MiB", mib(got), mib(est))
	}
}
