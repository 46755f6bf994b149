package plot

import (
	"math"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// A mesh series and a Dragonfly series at two loads, two seeds: the table
// has the mesh's classes by name (never global), the means of its runs, and
// nothing of the Dragonfly.
func TestClassTable(t *testing.T) {
	mesh := config.Default()
	mesh.Name = "mesh"
	mesh.Topology.Kind, mesh.Topology.Width, mesh.Topology.Height, mesh.Topology.P = "mesh", 4, 3, 1
	df := config.Default()
	df.Name = "dragonfly"
	df.Topology.H, df.Topology.A, df.Topology.P = 1, 2, 1
	for _, c := range []*config.Config{&mesh, &df} {
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 300, 900, 2
	}
	e := experiment.Experiment{Series: []config.Config{mesh, df}, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.1, To: 0.2, Step: 0.1}}
	if rows, _ := ClassTable(Input{Point: 1}); rows != nil {
		t.Errorf("rows without results: %+v", rows)
	}
	r := runJobs(t, e, nil)
	rows, at := ClassTable(Input{Results: r, Point: 1})
	if len(rows) != 3 || at != "offered load 0.2" {
		t.Fatalf("rows %+v at %q, want the mesh's 3 classes at offered load 0.2", rows, at)
	}
	runs := r.RunsAt(0, 1)
	for c, want := range []string{"injection", "x", "y"} {
		row := rows[c]
		hops := (runs[0].Classes[c].Hops + runs[1].Classes[c].Hops) / 2
		util := (runs[0].Classes[c].Utilisation + runs[1].Classes[c].Utilisation) / 2
		if row.Series != "mesh" || row.Class != want || row.Runs != 2 || math.Abs(row.Hops-hops) > 1e-12 ||
			math.Abs(row.Utilisation-util) > 1e-12 || row.Links != runs[0].Classes[c].Links {
			t.Errorf("row %d %+v, want class %s, hops %.4f, utilisation %.4f over 2 runs", c, row, want, hops, util)
		}
	}
	if rows[1].Hops == 0 || rows[2].Utilisation == 0 || rows[0].Utilisation == 0 {
		t.Errorf("empty rows %+v", rows)
	}
}

// A mesh has no groups: its per-router bars are numbered plainly, with no
// group boundaries (the Dragonfly's a, still in the configuration, is not
// its group size).
func TestFairnessWithoutGroups(t *testing.T) {
	mesh := config.Default()
	mesh.Name = "mesh"
	mesh.Topology.Kind, mesh.Topology.Width, mesh.Topology.Height, mesh.Topology.P = "mesh", 4, 3, 1
	mesh.Sim.Warmup, mesh.Sim.Cycles, mesh.Sim.Seeds = 200, 600, 1
	e := experiment.Experiment{Series: []config.Config{mesh}, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.2, To: 0.2}}
	r := runJobs(t, e, nil)
	b := string(Fairness(Input{Results: r, Point: 0}))
	if strings.Contains(b, "(g0·r") || strings.Contains(b, "markLine") || strings.Contains(b, "group") {
		t.Errorf("a mesh's per-router chart marks Dragonfly groups: %.300s", b)
	}
	if o := decode(t, "fairness", []byte(b)); len(o.Series) != 1 || len(o.Series[0].Data) != 12 {
		t.Errorf("fairness: %d series, want one of 12 routers", len(o.Series))
	}
}
