package traffic

import (
	"testing"

	"phitsim/engine/rng"
)

// HOTSPOT with the UN background over every node (traffic.hotspotBackground
// = UN): the RECN paper's (Duato et al., A New Scalable and Cost-Effective
// Congestion Management Strategy for Lossless Multistage Interconnection
// Networks) Table 1 random traffic, 48 of 64 hosts sending, host 32 (the
// hotspot) among them. The hotspot sends, the senders draw nothing (the
// simulator keeps them backlogged), and every node but the source is a
// destination as often as the others: the hotspot and the senders too.
func TestHotspotUNBackground(t *testing.T) {
	var senders []int32
	for h := int32(3); h < 64; h += 4 {
		senders = append(senders, h)
	}
	pt, err := New(Spec{Kind: HOTSPOT, Hotspot: 32, Senders: senders, Background: UN, AllNodes: true}, fbNet{64, 4}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := rng.New(1, rng.Traffic, 0)
	if d := pt.Dest(7, &s); d != -1 {
		t.Errorf("sender 7 drew destination %d; want none (-1)", d)
	}
	const draws = 63000
	count := make([]int, 64)
	for i := 0; i < draws; i++ {
		d := pt.Dest(32, &s) // the hotspot sends UN
		if d < 0 || d == 32 {
			t.Fatalf("hotspot drew %d", d)
		}
		count[d]++
	}
	for _, d := range []int{0, 3, 31, 33, 63} { // 3, 63 senders
		if c := count[d]; c < 800 || c > 1200 { // 1,000 each
			t.Errorf("destination %d drawn %d times of %d; want about 1,000", d, c, draws)
		}
	}
}
