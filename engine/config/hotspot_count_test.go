package config

import (
	"testing"
)

// traffic.hotspotCount (the random k-to-1 hotspot of Kim et al.,
// Contention-based Congestion Management in Large-Scale Networks §V-A) is
// checked against the network, each error naming its field: too many
// senders, a count beside explicit senders or hotspot, a negative seed.
func TestHotspotCountValidation(t *testing.T) {
	for _, tc := range []struct {
		count, seed, node int
		senders           string
		want              string
	}{
		{4, 0, 0, "", ""},
		{15, 3, 0, "", ""},
		{16, 0, 0, "", "traffic.hotspotCount"},
		{4, 0, 0, "1,2", "traffic.hotspotSenders"},
		{4, 0, 5, "", "traffic.hotspotNode"},
		{4, -1, 0, "", "traffic.hotspotSeed"},
		{-2, 0, 0, "", "traffic.hotspotCount"},
	} {
		c := fbflyConfig()
		c.Traffic.Pattern, c.Traffic.HotspotCount, c.Traffic.HotspotSeed = "HOTSPOT", tc.count, tc.seed
		c.Traffic.HotspotNode, c.Traffic.HotspotSenders = tc.node, tc.senders
		checkValidation(t, tc, c, tc.want)
	}
}
