package traffic

import (
	"slices"
	"testing"

	"phitsim/engine/rng"
	"phitsim/engine/topology"
)

// regroup is a network of the same nodes as a Dragonfly with another
// group structure: one node per router, one router per group, each group's
// global links to the next groups. A pattern that addresses nodes only
// draws the same destinations on both; one that addresses groups and
// routers does not.
type regroup struct{ n int }

func (r regroup) Nodes() int         { return r.n }
func (regroup) NodesPerRouter() int  { return 1 }
func (regroup) RoutersPerGroup() int { return 1 }
func (r regroup) Groups() int        { return r.n }
func (r regroup) LinkedGroups(router int) []int {
	return []int{(router + 1) % r.n, (router + 2) % r.n}
}

// Each pattern's declaration matches what it reads: a pattern declared for
// any topology draws the same destinations whatever the group structure, a
// pattern declared for the Dragonfly only draws differently on another.
func TestPatternsDeclareWhatTheyAddress(t *testing.T) {
	d, err := topology.NewDragonfly(2, 4, 2, topology.PalmTree) // 72 nodes, 9 groups
	if err != nil {
		t.Fatal(err)
	}
	other := regroup{d.Nodes()}
	for _, p := range Patterns() {
		spec := Spec{Kind: p.Kind, AdvOffset: 1, LocalOffset: 1, MixUN: 20, MixADVL: 40, HotPercent: 30, HotRegion: 10,
			Hotspot: 3, Senders: []int32{0, 7, 40}}
		a, err := New(spec, d, 1)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		b, err := New(spec, other, 1)
		if err != nil {
			t.Fatalf("%s on the regrouped network: %v", p.Name, err)
		}
		same := true
		for src := 0; src < d.Nodes(); src++ {
			sa, sb := rng.New(3, rng.Generator, uint64(src)), rng.New(3, rng.Generator, uint64(src))
			for range 50 {
				if a.Dest(src, &sa) != b.Dest(src, &sb) {
					same = false
				}
			}
		}
		anywhere := p.Topologies == nil
		if same != anywhere {
			t.Errorf("%s: declared for %v, but its destinations depend on the group structure: %v", p.Name, p.Topologies, !same)
		}
		if !p.Supports("dragonfly") && !slices.Equal(p.Topologies, []string{"fbfly"}) {
			t.Errorf("%s runs on neither the Dragonfly nor the flattened butterfly", p.Name)
		}
	}
}

// The table is in Kind order, ParseKind reads it, and On lists what runs on
// a kind.
func TestPatternTable(t *testing.T) {
	for i, p := range Patterns() {
		if int(p.Kind) != i {
			t.Errorf("%s at %d has kind %d", p.Name, i, p.Kind)
		}
		if k, err := ParseKind(p.Name); err != nil || k != p.Kind {
			t.Errorf("ParseKind(%s) = %d, %v", p.Name, k, err)
		}
	}
	if _, err := ParseKind("NOPE"); err == nil {
		t.Error("an unknown pattern parses")
	}
	if got := On("mesh"); !slices.Equal(got, []string{"UN", "HOT", "PERM", "HOTSPOT"}) {
		t.Errorf("On(mesh) = %v", got)
	}
	if got := On("fbfly"); !slices.Equal(got, []string{"UN", "HOT", "PERM", "TORNADO", "TORNADO_RAND", "HOTSPOT", "UR1UR2"}) {
		t.Errorf("On(fbfly) = %v", got)
	}
	if got := On("dragonfly"); len(got) != len(Patterns())-2 || slices.Contains(got, "TORNADO") {
		t.Errorf("On(dragonfly) = %v", got)
	}
}
