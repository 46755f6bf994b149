package topology

import "testing"

// TestPartitionKeys: every kind's partition rule (Partitioned) gives keys
// in range, as many as PartitionKeysOf computes from the parameters, the
// nodes in nondecreasing key order (a partition's nodes are a contiguous
// range), and cuts only the links its documentation names: a Dragonfly's
// global links, a 2D flattened butterfly's y links, a fat tree's links
// between its top two stages, a mesh's y links.
func TestPartitionKeys(t *testing.T) {
	for _, tc := range []struct {
		p   Params
		cut func(Topology, int, int) bool // whether router r's port may be cut
	}{
		{Params{Kind: "dragonfly", H: 2, A: 4, P: 2, Arrangement: PalmTree}, func(tp Topology, r, port int) bool { return tp.PortClass(r, port) == Global }},
		{Params{Kind: "fbfly", Dims: 1, K: 5, P: 3}, func(Topology, int, int) bool { return true }},
		{Params{Kind: "fbfly", Dims: 2, K: 4, P: 2}, func(tp Topology, r, port int) bool { return port >= tp.(*FBFly).C+tp.(*FBFly).K-1 }},
		{Params{Kind: "fattree", K: 4, Stages: 3}, func(tp Topology, r, port int) bool { return tp.(*FatTree).Level(r) >= 1 }},
		{Params{Kind: "fattree", K: 4, Stages: 4, Subtrees: 2}, func(tp Topology, r, port int) bool { return tp.(*FatTree).Level(r) >= 2 }},
		{Params{Kind: "fattree", K: 3, Stages: 2}, func(Topology, int, int) bool { return true }},
		{Params{Kind: "mesh", Width: 3, Height: 5, P: 2}, func(tp Topology, r, port int) bool { return tp.PortClass(r, port) == MeshY }},
	} {
		tp, err := New(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		pt := tp.(Partitioned)
		keys := pt.PartitionKeys()
		if keys != PartitionKeysOf(tc.p) || keys < 2 {
			t.Errorf("%s: %d keys, PartitionKeysOf %d", tp.Name(), keys, PartitionKeysOf(tc.p))
		}
		seen := make([]bool, keys)
		for r := 0; r < tp.Routers(); r++ {
			k := pt.PartitionKey(r)
			if k < 0 || k >= keys {
				t.Fatalf("%s: router %d has key %d of %d", tp.Name(), r, k, keys)
			}
			seen[k] = true
			for port := 0; port < tp.Radix(); port++ {
				if tp.PortClass(r, port) == Injection {
					continue
				}
				if q, _ := tp.Link(r, port); q >= 0 && pt.PartitionKey(q) != k && !tc.cut(tp, r, port) {
					t.Errorf("%s: the rule cuts router %d's port %d (to router %d)", tp.Name(), r, port, q)
				}
			}
		}
		for k, ok := range seen {
			if !ok {
				t.Errorf("%s: key %d has no router", tp.Name(), k)
			}
		}
		last := 0
		for n := 0; n < tp.Nodes(); n++ {
			r, _ := tp.NodePort(n)
			if k := pt.PartitionKey(r); k < last {
				t.Errorf("%s: node %d (key %d) after a node of key %d", tp.Name(), n, k, last)
			} else {
				last = k
			}
		}
	}
}
