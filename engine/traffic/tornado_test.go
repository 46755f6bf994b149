package traffic

import (
	"testing"

	"phitsim/engine/rng"
)

// fbNet is a flattened butterfly as a pattern sees it: n nodes, c per
// router (the simulator passes this for topology.kind=fbfly).
type fbNet struct{ n, c int }

func (f fbNet) Nodes() int                  { return f.n }
func (f fbNet) NodesPerRouter() int         { return f.c }
func (fbNet) RoutersPerGroup() int          { return 1 }
func (f fbNet) Groups() int                 { return f.n / f.c }
func (fbNet) LinkedGroups(router int) []int { return nil }

// TORNADO is the permutation n → (n + c) mod N (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks: n → n+4 on 16 nodes,
// n → n+8 on 512); TORNADO_RAND sends every node of router R_i to the
// nodes of R_{i+1} (mod the routers), each about equally often.
func TestTornadoPatterns(t *testing.T) {
	for _, net := range []fbNet{{16, 4}, {512, 8}} {
		pt, err := New(Spec{Kind: TORNADO}, net, 1)
		if err != nil {
			t.Fatal(err)
		}
		s := rng.New(1, rng.Generator, 0)
		hit := make([]bool, net.n)
		for n := 0; n < net.n; n++ {
			d := pt.Dest(n, &s)
			if d != (n+net.c)%net.n || hit[d] {
				t.Fatalf("%v: TORNADO %d → %d (hit before %v)", net, n, d, hit[d])
			}
			hit[d] = true
		}
		pr, err := New(Spec{Kind: TORNADO_RAND}, net, 1)
		if err != nil {
			t.Fatal(err)
		}
		const draws = 8000
		for _, src := range []int{0, net.n - 1, net.c + 1} {
			count := make([]int, net.n)
			for range draws {
				count[pr.Dest(src, &s)]++
			}
			next := (src/net.c + 1) % (net.n / net.c)
			for d, k := range count {
				in := d/net.c == next
				if !in && k != 0 || in && (k < draws/net.c*8/10 || k > draws/net.c*12/10) {
					t.Fatalf("%v: TORNADO_RAND from %d sends %d of %d packets to node %d (router %d, want router %d evenly)", net, src, k, draws, d, d/net.c, next)
				}
			}
		}
	}
}

// HOTSPOT (Kim et al., Fig. 2's setup on 16 nodes: senders 0, 5, 8, 12 →
// node 4): the hotspot and the senders draw nothing (the simulator keeps
// the senders backlogged), every other node draws uniformly among the
// other background nodes; bad sender sets are refused naming the field.
func TestHotspotPattern(t *testing.T) {
	net := fbNet{16, 4}
	pt, err := New(Spec{Kind: HOTSPOT, Hotspot: 4, Senders: []int32{0, 5, 8, 12}}, net, 1)
	if err != nil {
		t.Fatal(err)
	}
	if hot, senders := pt.Hotspot(); hot != 4 || len(senders) != 4 {
		t.Fatalf("Hotspot() = %d, %v", hot, senders)
	}
	s := rng.New(1, rng.Generator, 0)
	background := []int{1, 2, 3, 6, 7, 9, 10, 11, 13, 14, 15}
	for n := 0; n < 16; n++ {
		count := map[int]int{}
		for range 11000 {
			count[pt.Dest(n, &s)]++
		}
		in := false
		for _, b := range background {
			in = in || b == n
		}
		if !in {
			if len(count) != 1 || count[-1] != 11000 {
				t.Fatalf("node %d (hotspot or sender) draws %v, want nothing (−1)", n, count)
			}
			continue
		}
		if len(count) != 10 || count[n] != 0 {
			t.Fatalf("background node %d draws %v, want the 10 other background nodes", n, count)
		}
		for _, b := range background {
			if b != n && (count[b] < 800 || count[b] > 1400) {
				t.Fatalf("background node %d sends %d of 11,000 to %d, want about 1,100", n, count[b], b)
			}
		}
	}
	for _, tc := range []struct {
		hot     int
		senders []int32
		want    string
	}{
		{16, []int32{0}, "traffic.hotspotNode: node 16; it must be 0 to 15"},
		{4, nil, "traffic.hotspotSenders: no sender; give them (comma-separated nodes 0 to 15 but the hotspot) or traffic.hotspotCount"},
		{4, []int32{0, 4}, "traffic.hotspotSenders: node 4 is the hotspot"},
		{4, []int32{0, 0}, "traffic.hotspotSenders: node 0 listed twice"},
		{4, []int32{-1}, "traffic.hotspotSenders: node -1; senders must be 0 to 15"},
	} {
		if _, err := New(Spec{Kind: HOTSPOT, Hotspot: tc.hot, Senders: tc.senders}, net, 1); err == nil || err.Error() != tc.want {
			t.Errorf("hotspot %d senders %v: %v, want %q", tc.hot, tc.senders, err, tc.want)
		}
	}
}

// HOTSPOT with a TORNADO background (Kim et al. Fig. 3b, reconstructed:
// senders n4–n7 → n0, every other node n → n+4, the hotspot too): the
// senders are left to the simulator (−1), every other node follows the
// permutation; TORNADO_RAND sends to the next router; a background that is
// not a router shift is refused.
func TestHotspotBackground(t *testing.T) {
	net := fbNet{16, 4}
	pt, err := New(Spec{Kind: HOTSPOT, Hotspot: 0, Senders: []int32{4, 5, 6, 7}, Background: TORNADO}, net, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := rng.New(1, rng.Generator, 0)
	for n := range 16 {
		want := (n + 4) % 16
		if n >= 4 && n <= 7 {
			want = -1
		}
		if got := pt.Dest(n, &s); got != want {
			t.Errorf("node %d → %d, want %d", n, got, want)
		}
	}
	pr, err := New(Spec{Kind: HOTSPOT, Hotspot: 0, Senders: []int32{4, 5, 6, 7}, Background: TORNADO_RAND}, net, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if d := pr.Dest(13, &s); d < 0 || d > 3 {
			t.Fatalf("TORNADO_RAND background: node 13 → %d, want a node of router 0", d)
		}
	}
	if _, err := New(Spec{Kind: HOTSPOT, Hotspot: 0, Senders: []int32{4}, Background: ADV}, net, 1); err == nil {
		t.Error("an ADV background was accepted")
	}
}
