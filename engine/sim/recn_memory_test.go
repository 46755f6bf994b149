package sim

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// The memory estimate's bound on RECN's packets alive (config's
// recnPackets: what the hosts generate) where a run reaches it: the
// 64-host fat tree of the RECN paper (§4.1) with every host but the
// hotspot backlogged towards host 32 (§4.2's hotspot senders, all 63 of
// them) and no background, 3,000 cycles. A backlogged sender generates a
// packet every cycle its generator does not stall (inject.go), its
// interface takes one a cycle from its admittance queues, and the
// hotspot's link delivers one per 8 cycles: the packets alive reach
// 63 × 3,000 less those delivered, at least 95 % of the bound and never
// above it. The heap (sampled every 50 cycles, garbage included: the
// packet pool's copies as it grows) stays below the whole estimate, and
// the estimate is within 3× of it.
func TestRECNMemoryStalled(t *testing.T) {
	c := config.RECNMechanism(2)
	var senders []string
	for h := 0; h < 64; h++ {
		if h != config.RECNHotspot {
			senders = append(senders, fmt.Sprint(h))
		}
	}
	c.Traffic.HotspotSenders, c.Traffic.Load = strings.Join(senders, ","), 0
	c.Traffic.HotspotLinkRate = false // backlogged: the bound is for them
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = 0, 0, 3000
	// detection and propagation at 2 KB: with the defaults (320 B / 512 B)
	// the interfaces' SAQs reach Xoff sooner, the admittance queues fill
	// and the generators stall, 83 % of the bound in 3,000 cycles
	c.Congestion.RecnDetect, c.Congestion.RecnProp = 2048, 2048
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}
	var bound float64
	for _, p := range c.Memory() {
		if strings.Contains(p.What, "packets alive") {
			bound = float64(p.Bytes) / (config.PacketBytes * config.RecnPoolCopies)
		}
	}
	est, _ := estimate(c)
	var m0, m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	var peak uint64
	var live int64
	for s.now < int64(c.Sim.Cycles) {
		s.Step()
		live = max(live, s.live)
		if s.now%50 == 0 {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc-min(m.HeapAlloc, m0.HeapAlloc))
		}
	}
	runtime.KeepAlive(s)
	t.Logf("packets alive: at most %d, bound %.0f (%.3f); heap at most %.1f MiB, estimate %.1f MiB (%.2f×)",
		live, bound, float64(live)/bound, mib(peak), mib(est), float64(est)/float64(peak))
	if float64(live) > bound || float64(live) < 0.95*bound {
		t.Errorf("%d packets alive, want between 95%% of the bound and the bound, %.0f", live, bound)
	}
	if uint64(est) < peak || est > 3*int64(peak) {
		t.Errorf("heap %.1f MiB, estimate %.1f MiB: want the heap below it, within 3×", mib(peak), mib(est))
	}
}
