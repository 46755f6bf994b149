package traffic

import (
	"math"
	"testing"

	"phitsim/engine/rng"
	"phitsim/engine/topology"
)

// mixClassify draws draws destinations for every node of d and sorts each
// draw: ADV+off (group g+off), ADVl+k (router +k of the own group) or other.
// It returns, per node, how many draws fell in each class.
func mixClassify(pt *Pattern, d *topology.Dragonfly, off, k, draws int) (adv, advl, other []int) {
	p, a, g := d.NodesPerRouter(), d.RoutersPerGroup(), d.Groups()
	n := d.Nodes()
	adv, advl, other = make([]int, n), make([]int, n), make([]int, n)
	s := rng.New(11, rng.Generator, 0)
	for src := 0; src < n; src++ {
		sr := src / p
		for i := 0; i < draws; i++ {
			dst := pt.Dest(src, &s)
			dr := dst / p
			switch {
			case dr/a == (sr/a+off)%g:
				adv[src]++
			case dr/a == sr/a && dr%a == (sr%a+k)%a:
				advl[src]++
			default:
				other[src]++
			}
		}
	}
	return
}

// MIX per node (config traffic.mixPerNode; thesis §1.6.1: "nodes follow UN or
// ADV per the given proportion"): every node keeps one pattern for all its
// packets, so its destinations are all ADV+i, all ADVl+k, or spread like UN
// (which hits group g+i with probability a·p/(N−1) ≈ 3% and router +k with
// p/(N−1) ≈ 0.4% here); and the fractions of nodes per pattern are the mix
// shares (within 4σ of a binomial over the N nodes). On a 4,224-node
// Dragonfly (h=4, a=8, p=16), 40 draws per node.
func TestMixPerNodeKeepsOnePatternPerNode(t *testing.T) {
	d, err := topology.NewDragonfly(4, 8, 16, topology.PalmTree)
	if err != nil {
		t.Fatal(err)
	}
	const off, k, draws = 3, 2, 40
	shares := map[string]float64{"UN": 0.3, "ADVL": 0.2, "ADV": 0.5}
	pt := btPattern(t, Spec{Kind: MIX, MixUN: 100 * shares["UN"], MixADVL: 100 * shares["ADVL"], AdvOffset: off,
		LocalOffset: k, MixPerNode: true}, d)
	adv, advl, other := mixClassify(pt, d, off, k, draws)
	nodes := map[string]int{}
	for src := range adv {
		switch {
		case adv[src] == draws:
			nodes["ADV"]++
		case advl[src] == draws:
			nodes["ADVL"]++
		case adv[src] <= 8 && advl[src] <= 4:
			nodes["UN"]++
		default:
			t.Errorf("node %d: %d draws to group +%d, %d to router +%d, %d elsewhere: not one pattern",
				src, adv[src], off, advl[src], k, other[src])
		}
	}
	n := float64(d.Nodes())
	t.Logf("per node over %d nodes: %v", d.Nodes(), nodes)
	for kind, want := range shares {
		got := float64(nodes[kind]) / n
		if sd := math.Sqrt(want * (1 - want) / n); math.Abs(got-want) > 4*sd {
			t.Errorf("per node: %.4f of the nodes follow %s, want %.2f ±%.4f", got, kind, want, 4*sd)
		}
	}
	// the same seed gives the same assignment; another seed another one
	again := btPattern(t, Spec{Kind: MIX, MixUN: 30, MixADVL: 20, AdvOffset: off, LocalOffset: k, MixPerNode: true}, d)
	other2, err := New(Spec{Kind: MIX, MixUN: 30, MixADVL: 20, AdvOffset: off, LocalOffset: k, MixPerNode: true}, d, 2)
	if err != nil {
		t.Fatal(err)
	}
	diff := 0
	for i := range pt.perNode {
		if again.perNode[i] != pt.perNode[i] {
			t.Fatalf("node %d: pattern differs between two builds with the same seed", i)
		}
		if other2.perNode[i] != pt.perNode[i] {
			diff++
		}
	}
	if diff == 0 {
		t.Errorf("seed 2 assigns every node the same pattern as seed 1")
	}
}

// MIX per packet (the default, FOGSim's draw): each node's packets mix the
// patterns, so every node sends to group g+i, to router +k and elsewhere, in
// about the shares of the mix (100 draws per node: a node with no ADVl draw
// has probability 0.8¹⁰⁰).
func TestMixPerPacketMixesPatternsWithinANode(t *testing.T) {
	d, err := topology.NewDragonfly(4, 8, 16, topology.PalmTree)
	if err != nil {
		t.Fatal(err)
	}
	const off, k, draws = 3, 2, 100
	pt := btPattern(t, Spec{Kind: MIX, MixUN: 30, MixADVL: 20, AdvOffset: off, LocalOffset: k}, d)
	adv, advl, other := mixClassify(pt, d, off, k, draws)
	var tot [3]int
	for src := range adv {
		if adv[src] == 0 || advl[src] == 0 || other[src] == 0 {
			t.Errorf("node %d: %d draws to group +%d, %d to router +%d, %d elsewhere: not a mix",
				src, adv[src], off, advl[src], k, other[src])
		}
		tot[0] += adv[src]
		tot[1] += advl[src]
		tot[2] += other[src]
	}
	n := float64(d.Nodes() - 1)
	total := float64(d.Nodes() * draws)
	p, a := float64(d.NodesPerRouter()), float64(d.RoutersPerGroup())
	// UN lands in group g+i with probability a·p/(N−1) and on router +k with p/(N−1)
	want := [3]float64{0.5 + 0.3*a*p/n, 0.2 + 0.3*p/n, 0}
	want[2] = 1 - want[0] - want[1]
	for i, name := range []string{"ADV", "ADVL", "other"} {
		got := float64(tot[i]) / total
		if sd := math.Sqrt(want[i] * (1 - want[i]) / total); math.Abs(got-want[i]) > 4*sd {
			t.Errorf("per packet: %.4f of the draws are %s, want %.4f", got, name, want[i])
		}
	}
	t.Logf("per packet: draws ADV/ADVL/other %v of %.0f", tot, total)
}
