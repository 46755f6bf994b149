package sim

import (
	"testing"

	"phitsim/engine/config"
)

// TestUsefulPartitions: the rule's values (engine/PARALLEL.md, "When a
// split pays") with UsefulThreshold, the window's work a partition needs
// to pay a barrier, as measured (BENCHMARKS.md, "Parallel runs"): a
// partition holds at least 2 keys and its routers × L ≥ UsefulThreshold.
// The h=2 Dragonfly (36 routers, 9 groups) runs on one worker — measured
// 2.3 times slower on two in the page (BENCHMARKS.md, "Parallel runs") —
// and h=4 splits, measured faster on two.
func TestUsefulPartitions(t *testing.T) {
	if UsefulThreshold != 8000 {
		t.Fatalf("UsefulThreshold %d: the values below are for 8,000", UsefulThreshold)
	}
	for _, tc := range []struct {
		preset string
		want   int
		why    string
	}{
		// 4 routers a group, L = 100: 2 partitions of 4 groups carry 1,600
		{"h2", 1, "9 groups of 4 routers"},
		// 8 routers a group: 3 partitions of ≥ 11 groups carry 8,800; 4 of ≥ 8, 6,400
		{"h4", 3, "33 groups of 8 routers"},
		// 16 routers a group: 25 partitions of ≥ 5 groups carry 8,000; 26 of ≥ 4, 6,400
		{"h8", 25, "129 groups of 16 routers"},
		// 8 rows of 8 routers, the y links' L = 100: 2 partitions of 4 rows carry 3,200
		{"fbfly512", 1, "8 rows of 8 routers"},
		// 4 subtrees, 48 switches, the top links' L = 4: 2 partitions carry 96
		{"fattree64", 1, "4 subtrees of 12 switches, 4-cycle windows"},
	} {
		c, err := config.PresetByName(tc.preset)
		if err != nil {
			t.Fatal(err)
		}
		if got := UsefulPartitions(&c); got != tc.want {
			t.Errorf("%s (%s): %d useful partitions, want %d", tc.preset, tc.why, got, tc.want)
		}
	}
	// the cut's L is read from the configuration: with global links of
	// 200 cycles h=4's 6 partitions of ≥ 5 groups carry 8,000, 7 of ≥ 4
	// 6,400; of 40 cycles 2 partitions of 16 groups carry 5,120; of 1,000
	// cycles one group carries 8,000, but a partition takes at least 2
	// groups: 16
	c, _ := config.PresetByName("h4")
	for _, g := range []struct{ lat, want int }{{200, 6}, {40, 1}, {1000, 16}} {
		c.Topology.GlobalLatency = g.lat
		if got := UsefulPartitions(&c); got != g.want {
			t.Errorf("h4 with %d-cycle global links: %d useful partitions, want %d", g.lat, got, g.want)
		}
	}
	// a run the engine keeps sequential whatever its threads
	// (SequentialNote) can use one: FOGSim's idle updates of PB on h=4
	// (3 by its size) and FOGSim's whole model on the ACOR paper's system
	// (ACOR-Switch, 14 by its size), while the same configurations with
	// the engine's own updates split
	for _, tc := range []struct {
		preset, routing string
		fogsim          bool
		want            int
	}{{"h4", "PB", false, 3}, {"h4", "PB", true, 1}, {"acor-5256", "ACOR", false, 14}, {"acor-5256", "ACOR", true, 1}} {
		c, _ := config.PresetByName(tc.preset)
		c.Routing.Name = tc.routing
		if tc.fogsim {
			c.UseFOGSimModel()
		}
		if got := UsefulPartitions(&c); got != tc.want {
			t.Errorf("%s, %s, FOGSim's model %v: %d useful partitions, want %d (%q)", tc.preset, tc.routing, tc.fogsim, got, tc.want, SequentialNote(&c))
		}
	}
	// a network the configuration cannot build: 1
	c.Topology.H = -1
	if got := UsefulPartitions(&c); got != 1 {
		t.Errorf("an invalid topology: %d useful partitions, want 1", got)
	}
}
