package experiment

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/facts"
)

// meshExperiment is a load sweep of MIN on a 4×3 mesh.
func meshExperiment() Experiment {
	c := config.Default()
	c.Topology.Kind, c.Topology.Width, c.Topology.Height, c.Topology.P = "mesh", 4, 3, 1
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 300, 300, 1
	return Experiment{Series: []config.Config{c}, Sweep: Sweep{Param: LoadParam, From: 0.1, To: 0.3, Step: 0.1}}
}

// topologyFields lists the topology section's parameters the page's form
// shows for c: those that apply to it (site/ui render.go's rule).
func topologyFields(c *config.Config) []string {
	var out []string
	for _, p := range config.Params() {
		if config.SectionOf(p) == "topology" && p.Applies(c) {
			out = append(out, strings.TrimPrefix(p.Path, "topology."))
		}
	}
	return out
}

// The page's form, generated from config.Params, shows a mesh's fields
// when topology.kind=mesh and the Dragonfly's otherwise; a mesh experiment
// validates, round-trips through its link, and its facts give its sizes.
func TestMeshInThePage(t *testing.T) {
	e := meshExperiment()
	mesh := topologyFields(&e.Series[0])
	for _, f := range []string{"kind", "p", "width", "height", "localLatency", "injectionLatency"} {
		if !slices.Contains(mesh, f) {
			t.Errorf("mesh form lacks %s: %v", f, mesh)
		}
	}
	for _, f := range []string{"h", "a", "arrangement"} {
		if slices.Contains(mesh, f) {
			t.Errorf("mesh form shows the Dragonfly's %s: %v", f, mesh)
		}
	}
	d := config.Default()
	if df := topologyFields(&d); slices.Contains(df, "width") || !slices.Contains(df, "h") {
		t.Errorf("Dragonfly form: %v", df)
	}
	if errs, err := e.Validate(); err != nil || len(errs[0]) > 0 {
		t.Fatalf("mesh experiment: %v %v", errs, err)
	}
	frag := Encode(Link{Exp: e})
	if !strings.Contains(frag, "topology.kind=mesh") || !strings.Contains(frag, "topology.width=4") {
		t.Errorf("fragment %q", frag)
	}
	if got, errs := Decode("#" + frag); len(errs) > 0 || !reflect.DeepEqual(got.Exp, e) {
		t.Errorf("%q decodes to %+v, %v", frag, got.Exp, errs)
	}
	f := facts.Of(&e.Series[0])
	if f.Routers != 12 || f.Nodes != 12 || f.Radix != 5 || f.Groups != 1 || f.Bound != 0 {
		t.Errorf("facts %+v", f)
	}
	if got := paperRun(&e); !strings.Contains(got, "12 nodes") {
		t.Errorf("run description %q", got)
	}
}
