package traffic

import (
	"math"
	"testing"

	"phitsim/engine/rng"
	"phitsim/engine/topology"
)

func btDragonfly(t *testing.T, h int) *topology.Dragonfly {
	t.Helper()
	d, err := topology.NewDragonfly(h, 2*h, h, topology.PalmTree)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func btPattern(t *testing.T, spec Spec, d *topology.Dragonfly) *Pattern {
	t.Helper()
	pt, err := New(spec, d, 1)
	if err != nil {
		t.Fatal(err)
	}
	return pt
}

// UN: destinations uniform over the N−1 other nodes, the source's own router
// included (thesis §1.6.1.1; FOGSim v4's UN).
func TestUniformDestinationsCoverAllOtherNodesEvenly(t *testing.T) {
	d := btDragonfly(t, 2) // 72 nodes
	pt := btPattern(t, Spec{Kind: UN}, d)
	s := rng.New(1, rng.Generator, 0)
	const src, draws = 5, 710000
	count := make([]int, d.Nodes())
	for i := 0; i < draws; i++ {
		count[pt.Dest(src, &s)]++
	}
	if count[src] != 0 {
		t.Errorf("UN drew the source itself %d times", count[src])
	}
	mean := float64(draws) / float64(d.Nodes()-1)
	for n, c := range count {
		if n != src && math.Abs(float64(c)-mean) > 5*math.Sqrt(mean) {
			t.Errorf("node %d drawn %d times, expected %.0f", n, c, mean)
		}
	}
	if count[src^1] == 0 { // node 4 shares router 2 with node 5
		t.Errorf("UN never drew the other node of the source router")
	}
}

// ADV+i: every destination is in group g+i; with advRouter=same it is the
// router at the same position (thesis §1.6.1.2; FOGSim's ADV).
func TestAdversarialDestinationsAreInGroupPlusI(t *testing.T) {
	d := btDragonfly(t, 4)
	p, a, g := d.NodesPerRouter(), d.RoutersPerGroup(), d.Groups()
	for _, same := range []bool{false, true} {
		for _, off := range []int{1, 4, 7} {
			pt := btPattern(t, Spec{Kind: ADV, AdvOffset: off, AdvSame: same}, d)
			s := rng.New(2, rng.Generator, 0)
			positions := map[int]bool{}
			for src := 0; src < d.Nodes(); src += 13 {
				for k := 0; k < 20; k++ {
					dst := pt.Dest(src, &s)
					sr, dr := src/p, dst/p
					if dr/a != (sr/a+off)%g {
						t.Fatalf("ADV+%d: %d (group %d) → %d (group %d)", off, src, sr/a, dst, dr/a)
					}
					if same && dr%a != sr%a {
						t.Fatalf("ADV+%d same: router position %d → %d", off, sr%a, dr%a)
					}
					positions[dr%a] = true
				}
			}
			if !same && len(positions) != a {
				t.Errorf("ADV+%d random: only router positions %v drawn", off, positions)
			}
		}
	}
}

// ADVc: destinations in the h groups wired to router a−1, which under palm
// tree are g+1…g+h; FOGSim's code draws g+1…g+(h−1) (thesis §1.6.1.2, §3.1.3.1;
// FOGSim v4's ADVc).
func TestADVcDestinationGroups(t *testing.T) {
	d := btDragonfly(t, 4)
	p, a, g, h := d.NodesPerRouter(), d.RoutersPerGroup(), d.Groups(), 4
	for _, fogsim := range []bool{false, true} {
		want := h
		if fogsim {
			want = h - 1
		}
		pt := btPattern(t, Spec{Kind: ADVC, AdvcFogsim: fogsim}, d)
		s := rng.New(3, rng.Generator, 0)
		for src := 0; src < d.Nodes(); src += 7 {
			seen := map[int]int{}
			for k := 0; k < 400; k++ {
				dst := pt.Dest(src, &s)
				off := ((dst/p/a-src/p/a)%g + g) % g
				if off < 1 || off > want {
					t.Fatalf("advcFogsim=%v: %d → group offset %d, want 1…%d", fogsim, src, off, want)
				}
				seen[off]++
			}
			if len(seen) != want {
				t.Fatalf("advcFogsim=%v: node %d reached offsets %v, want all of 1…%d", fogsim, src, seen, want)
			}
		}
	}
}

// ADVl: destination router +k inside the own group; MIX draws its kind per
// packet with the given shares (FOGSim's MIX traffic).
func TestLocalAdversarialAndMixShares(t *testing.T) {
	d := btDragonfly(t, 2)
	p, a, g := d.NodesPerRouter(), d.RoutersPerGroup(), d.Groups()
	pt := btPattern(t, Spec{Kind: ADVL, LocalOffset: 3}, d)
	s := rng.New(4, rng.Generator, 0)
	for src := 0; src < d.Nodes(); src++ {
		dst := pt.Dest(src, &s)
		if dst/p/a != src/p/a || dst/p%a != (src/p%a+3)%a {
			t.Fatalf("ADVl+3: %d → %d", src, dst)
		}
	}
	mix := btPattern(t, Spec{Kind: MIX, MixUN: 50, MixADVL: 20, AdvOffset: 2, LocalOffset: 1}, d)
	const src, draws = 0, 200000
	var adv, advl int
	for i := 0; i < draws; i++ {
		dst := mix.Dest(src, &s)
		switch {
		case dst/p/a == 2%g:
			adv++ // ADV+2 (UN reaches group 2 with probability 1/g only)
		case dst/p == 1:
			advl++
		}
	}
	// expected: ADV 30% + UN 50%·(a·p/(N−1)); ADVl 20% + UN 50%·(p/(N−1))
	n := float64(d.Nodes() - 1)
	wantAdv := 0.3 + 0.5*float64(a*p)/n
	wantL := 0.2 + 0.5*float64(p)/n
	if got := float64(adv) / draws; math.Abs(got-wantAdv) > 0.01 {
		t.Errorf("MIX: %.4f of the packets to group +2, want %.4f", got, wantAdv)
	}
	if got := float64(advl) / draws; math.Abs(got-wantL) > 0.01 {
		t.Errorf("MIX: %.4f of the packets to router +1, want %.4f", got, wantL)
	}
}
