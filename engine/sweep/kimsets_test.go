package sweep

import (
	"slices"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/traffic"
)

// kimNet is a network of n nodes for resolving a HOTSPOT set (the draw and
// the classes do not depend on the routers).
type kimNet struct{ n int }

func (k kimNet) Nodes() int           { return k.n }
func (kimNet) NodesPerRouter() int    { return 1 }
func (kimNet) RoutersPerGroup() int   { return 1 }
func (k kimNet) Groups() int          { return k.n }
func (kimNet) LinkedGroups(int) []int { return nil }

// kimSet resolves a series' hotspot set as a run does: the hotspot, its
// senders, and the number of background nodes.
func kimSet(t *testing.T, c config.Config, nodes int) (hot int, senders []int32, background int) {
	t.Helper()
	list, err := c.Traffic.Senders()
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	pt, err := traffic.New(traffic.Spec{Kind: traffic.HOTSPOT, Hotspot: c.Traffic.HotspotNode, Senders: list,
		Count: c.Traffic.HotspotCount, DrawSeed: uint64(c.Traffic.HotspotSeed)}, kimNet{nodes}, 0)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	hot, senders = pt.Hotspot()
	for n := range nodes {
		if pt.Class(n) == 0 {
			background++
		}
	}
	return hot, senders, background
}

// The cbcm-fig9b and cbcm-fig13 experiments carry the sender sets of Kim
// et al., Contention-based Congestion Management in Large-Scale Networks:
// Fig. 9b (§V-B) the first node of each of R1..R63 (nodes 8, 16, …, 504) →
// node 0, the other 448 nodes (node 0 too) on the tornado n → n+8, in all
// eight series (Baseline, Ideal, CBCM, SRP × MIN, UGAL), 650,000 + 50,000
// cycles with the stuck-head bound raised to the run's 700,000; Fig. 13 (§V-D) 16 random senders → 1 hotspot, the other 239
// nodes UR at 0.4, the same set in both series (dedicated and shared VC),
// the hotspot starting at interval 20 of 1,000 cycles.
func TestKimExperimentsCarryPaperSets(t *testing.T) {
	want9b := make([]int32, 0, 63)
	for r := int32(1); r < 64; r++ {
		want9b = append(want9b, 8*r)
	}
	e, err := ExperimentByName("cbcm-fig9b")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Spec.Series) != 8 {
		t.Fatalf("cbcm-fig9b: %d series, want Baseline, Ideal, CBCM and SRP × MIN and UGAL", len(e.Spec.Series))
	}
	for _, c := range e.Spec.Series {
		hot, senders, bg := kimSet(t, c, 512)
		if hot != 0 || !slices.Equal(senders, want9b) || bg != 448 || c.Traffic.HotspotBackground != "TORNADO" {
			t.Errorf("cbcm-fig9b %s: hotspot %d, senders %v, %d background nodes on %q; want node 0, nodes 8, 16, …, 504, 448 on the tornado",
				c.Name, hot, senders, bg, c.Traffic.HotspotBackground)
		}
		if c.Topology.Dimensions != 2 || c.Topology.K != 8 || c.Topology.P != 8 || c.Sim.Warmup != 650000 || c.Sim.Cycles != 50000 || c.Sim.Watchdog != 700000 {
			t.Errorf("cbcm-fig9b %s: %d-D, %d routers per dimension of %d nodes, %d + %d cycles, stuck-head bound %d; want the 512-node 2D network, 650,000 + 50,000, 700,000",
				c.Name, c.Topology.Dimensions, c.Topology.K, c.Topology.P, c.Sim.Warmup, c.Sim.Cycles, c.Sim.Watchdog)
		}
	}

	e, err = ExperimentByName("cbcm-fig13")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Spec.Series) != 2 || !slices.Equal(e.Spec.Loads, []float64{0.4}) {
		t.Fatalf("cbcm-fig13: %d series at loads %v, want the dedicated and the shared VC at 0.4", len(e.Spec.Series), e.Spec.Loads)
	}
	var first []int32
	firstHot := -1
	for _, c := range e.Spec.Series {
		hot, senders, bg := kimSet(t, c, 256)
		t.Logf("cbcm-fig13 %s: senders %v → node %d", c.Name, senders, hot)
		if c.Traffic.HotspotCount != 16 || len(senders) != 16 || bg != 239 || c.Topology.Dimensions != 1 || c.Topology.K != 16 || c.Topology.P != 16 {
			t.Errorf("cbcm-fig13 %s: traffic.hotspotCount %d, %d senders, %d background nodes, %d-D %d×%d; want 16 random senders, 239 UR nodes, the 256-node 1D network",
				c.Name, c.Traffic.HotspotCount, len(senders), bg, c.Topology.Dimensions, c.Topology.K, c.Topology.P)
		}
		if firstHot < 0 {
			first, firstHot = senders, hot
		} else if hot != firstHot || !slices.Equal(senders, first) {
			t.Errorf("cbcm-fig13 %s: senders %v → %d, the first series' %v → %d: want one set for both", c.Name, senders, hot, first, firstHot)
		}
		if c.Sim.Interval != 1000 || c.Traffic.HotspotStart != 20*c.Sim.Interval || c.Sim.Warmup != c.Traffic.HotspotStart {
			t.Errorf("cbcm-fig13 %s: interval %d, start %d, warm-up %d; want the start at interval 20 of 1,000 cycles, the record from there",
				c.Name, c.Sim.Interval, c.Traffic.HotspotStart, c.Sim.Warmup)
		}
	}
}
