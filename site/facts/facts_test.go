package facts

import (
	"math"
	"testing"

	"phitsim/engine/config"
)

func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		h, a, p                int
		groups, routers, nodes int
		radix                  int
	}{
		{2, 4, 2, 9, 36, 72, 7},
		{4, 8, 4, 33, 264, 1056, 15},
		{8, 16, 8, 129, 2064, 16512, 31},
	} {
		c := config.Default()
		c.Topology.H, c.Topology.A, c.Topology.P = tc.h, tc.a, tc.p
		f := Of(&c)
		if f.Groups != tc.groups || f.Routers != tc.routers || f.Nodes != tc.nodes || f.Radix != tc.radix {
			t.Errorf("h=%d: got %+v", tc.h, f)
		}
	}
}

func TestBounds(t *testing.T) {
	c := config.Default() // h=8 a=16 p=8
	c.Traffic.Pattern = "ADV"
	f := Of(&c)
	if f.MinAdvCap != 1.0/128 || f.Bound != f.MinAdvCap {
		t.Errorf("MIN/ADV cap %v bound %v", f.MinAdvCap, f.Bound)
	}
	c.Traffic.Pattern = "ADVC"
	if f = Of(&c); math.Abs(f.Bound-8.0/128) > 1e-15 {
		t.Errorf("ADVc cap %v", f.Bound)
	}
	c.Traffic.AdvcFogsim = true
	if f = Of(&c); math.Abs(f.Bound-7.0/128) > 1e-15 {
		t.Errorf("ADVc fogsim cap %v", f.Bound)
	}
	c.Routing.Name = "VAL"
	if f = Of(&c); f.Bound != 0.5 || f.ValBound != 0.5 {
		t.Errorf("VAL bound %v", f.Bound)
	}
	c.Routing.Name, c.Traffic.Pattern = "MIN", "UN"
	if f = Of(&c); f.Bound != 0 {
		t.Errorf("MIN/UN has no simple bound, got %v", f.Bound)
	}
}

func TestVCs(t *testing.T) {
	c := config.Default()
	for _, tc := range []struct {
		routing       string
		reactive      bool
		inj, loc, glo int
	}{
		{"MIN", false, 3, 3, 2},
		{"VAL", false, 3, 4, 2},
		{"VAL_GROUP", false, 3, 3, 2},
		{"VAL", true, 4, 8, 4},
	} {
		c.Routing.Name, c.Traffic.Reactive = tc.routing, tc.reactive
		f := Of(&c)
		if f.InjectionVCs != tc.inj || f.LocalVCs != tc.loc || f.GlobalVCs != tc.glo {
			t.Errorf("%s reactive=%v: %d/%d/%d", tc.routing, tc.reactive, f.InjectionVCs, f.LocalVCs, f.GlobalVCs)
		}
	}
}

func TestInvalidTopology(t *testing.T) {
	c := config.Default()
	c.Topology.H = 0
	if f := Of(&c); f.Nodes != 0 {
		t.Errorf("got %+v", f)
	}
}

func TestGraph500Work(t *testing.T) {
	c, err := config.PresetByName("graph500-h2")
	if err != nil {
		t.Fatal(err)
	}
	f := Of(&c)
	// the BFS's estimated length, not the 50M-cycle cap
	if f.Work <= 0 || f.Work > float64(f.Nodes)*1e6 {
		t.Errorf("graph500-h2 work %g node-cycles", f.Work)
	}
	c.Workload.QueryBytes = 0 // invalid: no estimate, and no panic
	if g := Of(&c); g.Work != float64(g.Nodes)*float64(c.Sim.Cycles) {
		t.Errorf("invalid config work %g", g.Work)
	}
}
