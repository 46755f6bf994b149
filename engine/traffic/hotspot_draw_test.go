package traffic

import (
	"slices"
	"testing"
)

// traffic.hotspotCount: Kim et al., Contention-based Congestion Management
// in Large-Scale Networks §V-A draws the 40-to-1 hotspot of its 512-node
// network (Fig. 8b) and the 16-to-1 of its 256-node one (Fig. 13) at
// random, the same set for every scheme. The set depends on the draw's seed
// only (not the run's), its nodes are distinct, and over many draw seeds
// every node is picked equally often.
func TestHotspotDraw(t *testing.T) {
	draw := func(n, count int, drawSeed, runSeed uint64) (int, []int32) {
		t.Helper()
		pt, err := New(Spec{Kind: HOTSPOT, Count: count, DrawSeed: drawSeed}, fbNet{n, 8}, runSeed)
		if err != nil {
			t.Fatal(err)
		}
		return pt.Hotspot()
	}
	hot, senders := draw(512, 40, 7, 1)
	if len(senders) != 40 || !slices.IsSorted(senders) || slices.Contains(senders, int32(hot)) || len(slices.Compact(slices.Clone(senders))) != 40 {
		t.Fatalf("40-to-1 on 512 nodes: hotspot %d, senders %v: want 40 distinct senders, sorted, without the hotspot", hot, senders)
	}
	if hot2, senders2 := draw(512, 40, 7, 99); hot2 != hot || !slices.Equal(senders2, senders) {
		t.Errorf("another run seed draws another set: %d %v, was %d %v", hot2, senders2, hot, senders)
	}
	if hot3, senders3 := draw(512, 40, 8, 1); hot3 == hot && slices.Equal(senders3, senders) {
		t.Errorf("draw seeds 7 and 8 give the same set")
	}
	// 16 nodes, 4 senders, 4,000 draw seeds: each node is in the set
	// (hotspot or sender) 4000·5/16 = 1250 times, and the hotspot 250 times
	inSet, asHot := make([]int, 16), make([]int, 16)
	for seed := range uint64(4000) {
		h, s := draw(16, 4, seed, 1)
		asHot[h]++
		inSet[h]++
		for _, x := range s {
			inSet[x]++
		}
	}
	for n := range 16 {
		if inSet[n] < 1100 || inSet[n] > 1400 || asHot[n] < 180 || asHot[n] > 320 {
			t.Errorf("node %d: in %d sets (want ≈ 1250), hotspot %d times (want ≈ 250)", n, inSet[n], asHot[n])
		}
	}
	for _, tc := range []struct {
		spec Spec
		want string
	}{
		{Spec{Kind: HOTSPOT, Count: 16}, "traffic.hotspotCount: 16 senders; it must be 1 to 15 (the nodes but the hotspot)"},
		{Spec{Kind: HOTSPOT, Count: -1}, "traffic.hotspotCount: -1 senders; it must be 1 to 15 (the nodes but the hotspot)"},
		{Spec{Kind: HOTSPOT, Count: 4, Senders: []int32{1}}, "traffic.hotspotSenders: give either the senders or traffic.hotspotCount, not both"},
		{Spec{Kind: HOTSPOT, Count: 4, Hotspot: 3}, "traffic.hotspotNode: node 3; with traffic.hotspotCount the hotspot is drawn too (leave it 0)"},
	} {
		if _, err := New(tc.spec, fbNet{16, 4}, 1); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: %v, want %q", tc.spec, err, tc.want)
		}
	}
}
