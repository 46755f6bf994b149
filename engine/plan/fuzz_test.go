package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// FuzzPlanFiles: a plan folder whose manifest or run file was edited, cut
// short or damaged on a shared file system never crashes 'phitsim merge',
// 'exec -status' or 'exec': Open refuses the manifest with an error naming
// it, or Status, Merge and the merged document's JSON and CSV are made
// (a run file that does not hold its run is an error naming the file), with
// no panic on the way. The
// seeds: the manifest of a two-run plan (h=2, MIN at 0.3, two seeds) and
// the run file of its first run, as 'phitsim exec' wrote them, cut short,
// and with its result left out.
func FuzzPlanFiles(f *testing.F) {
	c, err := config.PresetByName("h2")
	if err != nil {
		f.Fatal(err)
	}
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 100, 200, 2
	p := newPlan(f, sweep.Spec{Series: []config.Config{c}, Loads: []float64{0.3}})
	dir := p.Dir
	if _, err := p.Exec(context.Background(), ExecOptions{Task: 0, Tasks: 2, Parallel: 1}); err != nil {
		f.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		f.Fatal(err)
	}
	run, err := os.ReadFile(p.RunPath(0))
	if err != nil {
		f.Fatal(err)
	}
	runName := filepath.Base(p.RunPath(0))
	f.Add(manifest, run)
	f.Add(manifest, run[:len(run)/2])
	f.Add(manifest[:len(manifest)-10], run)
	empty, err := encodeRun(&runFile{Format: Format, ID: p.Runs[0].ID, Seed: p.Runs[0].Seed})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(manifest, empty) // its id and seed, no result
	f.Fuzz(func(t *testing.T, manifest, run []byte) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, RunsDir), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, ManifestFile), manifest, 0o644)
		os.WriteFile(filepath.Join(dir, RunsDir, runName), run, 0o644)
		p, err := Open(dir)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("refused without a message")
			}
			return
		}
		if _, err := p.Status(); err != nil {
			return
		}
		oc, _, err := p.Merge()
		if err != nil {
			if !bytes.Contains([]byte(err.Error()), []byte(runName)) && !bytes.Contains([]byte(err.Error()), []byte(ManifestFile)) {
				t.Fatalf("merge error names neither file: %v", err)
			}
			return
		}
		// a damaged float may be NaN or infinite, which JSON cannot hold:
		// the CLI writes those as null and names them (cmd/phitsim
		// encodeJSON), so that error alone is not the plan's
		var nonFinite *json.UnsupportedValueError
		if _, err := json.Marshal(oc); err != nil && !errors.As(err, &nonFinite) {
			t.Fatalf("the merged document: %v", err)
		}
		var csv bytes.Buffer
		if err := sweep.WriteCSV(&csv, oc.Points); err != nil {
			t.Fatalf("the merged CSV: %v", err)
		}
	})
}
