package config

import (
	"strings"
	"testing"

	"phitsim/engine/topology"
)

// Every field the kind registry names for a class (latency, buffer, VCs)
// is an int parameter of the configuration: Classes reads them by path.
func TestKindFieldsExist(t *testing.T) {
	for _, name := range topology.Kinds() {
		k, _ := topology.KindOf(name)
		for _, cl := range k.Classes {
			for _, path := range []string{cl.Latency, cl.Buffer, cl.VCs} {
				if p, ok := Lookup(path); !ok || p.Kind != "int" {
					t.Errorf("%s class %s: %q is not an int parameter", name, cl.Name, path)
				}
			}
		}
	}
	if p, _ := Lookup("topology.kind"); strings.Join(p.Enum, ",") != strings.Join(topology.Kinds(), ",") {
		t.Errorf("topology.kind lists %v, the registry %v", p.Enum, topology.Kinds())
	}
}

func meshConfig() Config {
	c := Default()
	c.Topology.Kind, c.Topology.Width, c.Topology.Height, c.Topology.P = "mesh", 8, 4, 2
	return c
}

// A mesh validates, sizes itself from the registry, resolves its classes
// from the fields they name, needs one VC per dimension for MIN, and has a
// memory estimate (never 0 for a valid topology).
func TestMeshConfig(t *testing.T) {
	c := meshConfig()
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}
	if sz, ok := c.Topology.Sizes(); !ok || sz != (topology.Sizes{Routers: 32, Nodes: 64, Radix: 6, Groups: 1}) {
		t.Errorf("Sizes %+v %v", sz, ok)
	}
	c.Router.LocalVCs, c.Topology.LocalLatency, c.Router.LocalBuffer = 1, 5, 64
	cl := c.Classes()
	want := []ClassSetting{{"injection", 1, 256, 3}, {"x", 5, 64, 1}, {"y", 5, 64, 1}}
	if len(cl) != len(want) {
		t.Fatalf("classes %+v", cl)
	}
	for i := range want {
		if cl[i] != want[i] {
			t.Errorf("class %d: %+v, want %+v", i, cl[i], want[i])
		}
	}
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("one VC per dimension: %v", errs)
	}
	c.Router.LocalVCs, c.Traffic.Reactive = 1, true
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "router.localVCs" || !strings.Contains(errs[0].Error(), "needs at least 2 x/y VCs") {
		t.Errorf("request-reply with one VC: %v", errs)
	}
	c = meshConfig()
	if b := c.StateBytes(); b <= 0 {
		t.Errorf("StateBytes %d", b)
	}
	if got := c.Topology.Describe(); got != "p=2 width=8 height=4" {
		t.Errorf("Describe %q", got)
	}
	if d := Default(); d.Topology.Describe() != "h=8 a=16 p=8" {
		t.Errorf("Describe %q", d.Topology.Describe())
	}
}

// Mesh fields out of range, and what a mesh cannot run, are refused by
// name; a Dragonfly's document has no mesh fields.
func TestMeshConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		edit       func(*Config)
		path, text string
	}{
		{func(c *Config) { c.Topology.Width = 0 }, "topology.width", "1 to 64"},
		{func(c *Config) { c.Topology.Height = 65 }, "topology.height", "[0, 64]"},
		{func(c *Config) { c.Routing.Name = "UGAL" }, "routing.name", "only MIN"},
	} {
		c := meshConfig()
		tc.edit(&c)
		errs := c.Validate()
		if len(errs) != 1 || errs[0].Path != tc.path || !strings.Contains(errs[0].Error(), tc.text) {
			t.Errorf("%s: %v, want one error naming it with %q", tc.path, errs, tc.text)
		}
	}
	d := Default()
	if j := string(d.JSON()); strings.Contains(j, "width") || strings.Contains(j, "height") {
		t.Errorf("a Dragonfly's JSON names mesh fields:\n%s", j)
	}
}

// TestFillKind: switching a Dragonfly's form to a mesh gives a 4×4 mesh that
// validates; fields already set stay; back to the Dragonfly, its fields
// are still there.
func TestFillKind(t *testing.T) {
	c := Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Topology.Kind = "mesh"
	c.Topology.FillKind()
	if c.Topology.Width != 4 || c.Topology.Height != 4 {
		t.Fatalf("a mesh filled as %+v", c.Topology)
	}
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatalf("the filled mesh does not validate: %v", errs)
	}
	c.Topology.Width, c.Topology.Height = 6, 3
	c.Topology.FillKind()
	if c.Topology.Width != 6 || c.Topology.Height != 3 {
		t.Errorf("FillKind replaced set fields: %+v", c.Topology)
	}
	c.Topology.Kind = "dragonfly"
	c.Topology.FillKind()
	if c.Topology.H != 2 || c.Topology.A != 4 || c.Topology.P != 2 {
		t.Errorf("the Dragonfly's fields changed: %+v", c.Topology)
	}
	var z Topology
	z.Kind = "dragonfly"
	z.FillKind()
	if z.H != 2 || z.A != 4 || z.P != 2 || z.Arrangement != "palmtree" {
		t.Errorf("an empty Dragonfly filled as %+v", z)
	}
}

// fbflyConfig is the 16-node 1D flattened butterfly (4 routers, c = 4).
func fbflyConfig() Config {
	c := Default()
	c.Topology.Kind, c.Topology.Dimensions, c.Topology.K, c.Topology.P = "fbfly", 1, 4, 4
	return c
}

// HOTSPOT's fields are checked against the network: each error names its
// field (a sender list that does not parse, nodes out of range, the
// hotspot among its senders, request-reply traffic).
func TestHotspotValidation(t *testing.T) {
	for _, tc := range []struct {
		node     int
		senders  string
		reactive bool
		want     string
	}{
		{4, "0,5,8,12", false, ""},
		{4, "0;5", false, "traffic.hotspotSenders"},
		{16, "0", false, "traffic.hotspotNode = 16: node 16; it must be 0 to 15"},
		{4, "0,16", false, "traffic.hotspotSenders"},
		{4, "4", false, "node 4 is the hotspot"},
		{4, "", false, "no sender"},
		{4, "0", true, "traffic.reactive"},
	} {
		c := fbflyConfig()
		c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders, c.Traffic.Reactive = "HOTSPOT", tc.node, tc.senders, tc.reactive
		checkValidation(t, tc, c, tc.want)
	}
}

// checkValidation fails when c's validation does not match want: no error
// for "", else an error containing want; what names the case.
func checkValidation(t *testing.T, what any, c Config, want string) {
	t.Helper()
	errs := c.Validate()
	if want == "" {
		if len(errs) > 0 {
			t.Errorf("%+v: %v", what, errs)
		}
		return
	}
	if len(errs) == 0 || !strings.Contains(errs.Error(), want) {
		t.Errorf("%+v: %v, want an error containing %q", what, errs, want)
	}
}
