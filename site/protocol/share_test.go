package protocol

import (
	"testing"

	"phitsim/engine/config"
)

// TestRunWorkers: the page's pool splits a run only as far as it pays
// (sim.UsefulPartitions, engine/PARALLEL.md "When a split pays"): on a page
// of 4 workers with 4 workers per run, a lone h=2 run (36 routers: its
// 100-cycle windows are less work than a barrier) takes one worker, a lone
// h=4 run three (sim.UsefulPartitions: 3 partitions of ≥ 11 groups); the
// queued runs and the page's count still bound it. A run the engine keeps
// sequential (sim.SequentialNote: FOGSim's idle updates of PB, FOGSim's
// whole model of ACOR on the ACOR paper's system) takes one worker, leaving
// the others to the runs after it.
func TestRunWorkers(t *testing.T) {
	h2, _ := config.PresetByName("h2")
	h4, _ := config.PresetByName("h4")
	h4pb := h4
	h4pb.Routing.Name, h4pb.Router.IdleUpdates = "PB", "fogsim"
	acor, _ := config.PresetByName("acor-5256")
	acorFOGSim := acor
	acorFOGSim.UseFOGSimModel()
	for _, tc := range []struct {
		name                   string
		c                      *config.Config
		split, workers, queued int
		want                   int
	}{
		{"h2 alone", &h2, 4, 4, 1, 1},
		{"h2, 2 workers", &h2, 2, 2, 1, 1},
		{"h4 alone", &h4, 4, 4, 1, 3},
		{"h4, 8 workers per run on 8", &h4, 8, 8, 1, 3},
		{"h4, 2 per run", &h4, 2, 4, 1, 2},
		{"h4, 2 queued", &h4, 4, 4, 2, 2},
		{"h4, 5 queued", &h4, 4, 4, 5, 1},
		{"h4, one per run", &h4, 1, 4, 1, 1},
		{"h4, PB under FOGSim's idle updates: sequential", &h4pb, 4, 4, 1, 1},
		{"acor-5256 alone", &acor, 8, 8, 1, 8},
		{"acor-5256 in FOGSim's model: sequential", &acorFOGSim, 8, 8, 1, 1},
	} {
		if got := RunWorkers(tc.c, tc.split, tc.workers, tc.queued); got != tc.want {
			t.Errorf("%s: %d workers, want %d", tc.name, got, tc.want)
		}
	}
}
