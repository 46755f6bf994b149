package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// smallSpec: h=2, MIN and VAL × 3 loads × 2 seeds, 300 + 300 cycles.
func smallSpec(t *testing.T) sweep.Spec {
	t.Helper()
	var series []config.Config
	for _, r := range []string{"MIN", "VAL"} {
		c, err := config.PresetByName("h2")
		if err != nil {
			t.Fatal(err)
		}
		c.Name, c.Routing.Name = r, r
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 300, 300, 2
		series = append(series, c)
	}
	return sweep.Spec{Series: series, Loads: []float64{0.1, 0.3, 0.5}}
}

func newPlan(t testing.TB, sp sweep.Spec) *Plan {
	t.Helper()
	m, _, err := New(sp, false, "test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Write(dir, m); err != nil {
		t.Fatal(err)
	}
	p, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func encode(t *testing.T, oc *sweep.Outcome) (js, csv []byte) {
	t.Helper()
	js, err := json.MarshalIndent(oc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := sweep.WriteCSV(&b, oc.Points); err != nil {
		t.Fatal(err)
	}
	return js, b.Bytes()
}

// Merge is sweep.Run's outcome bit for bit for the same runs: sweep.Run's
// results written as a plan's run files (msgpack) and merged give the same
// JSON and CSV (h=2, 2 routings × 3 loads × 2 seeds).
func TestMergeIsTheSweepBitForBit(t *testing.T) {
	sp := smallSpec(t)
	oc, err := sweep.Run(context.Background(), sp, sweep.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := newPlan(t, sp)
	if len(oc.Runs) != len(p.Runs) || len(p.Runs) != 12 {
		t.Fatalf("%d runs, plan %d", len(oc.Runs), len(p.Runs))
	}
	for i := range p.Runs {
		if oc.Runs[i].Seed != p.Runs[i].Seed || oc.Runs[i].Config.Routing.Name != p.Jobs[i].Config.Routing.Name {
			t.Fatalf("run %d: sweep's seed %d, plan's %d", i, oc.Runs[i].Seed, p.Runs[i].Seed)
		}
		if err := p.writeRun(i, oc.Runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	merged, missing, err := p.Merge()
	if err != nil || len(missing) > 0 {
		t.Fatal(err, missing)
	}
	js, csv := encode(t, oc)
	mjs, mcsv := encode(t, merged)
	if !bytes.Equal(js, mjs) || !bytes.Equal(csv, mcsv) {
		t.Errorf("merged differs from the sweep: JSON equal %v, CSV equal %v", bytes.Equal(js, mjs), bytes.Equal(csv, mcsv))
	}
}

// A run file keeps every bit of its result, the numbers JSON cannot write
// (NaN, ±Inf: a starved router's max/min ratio) included.
func TestRunFileKeepsEveryBit(t *testing.T) {
	sp := smallSpec(t)
	sp.Series, sp.Loads = sp.Series[:1], sp.Loads[:1]
	p := newPlan(t, sp)
	r, err := sweep.RunJob(context.Background(), p.Jobs[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Fairness.MaxMin, r.Latency.Avg, r.Hops.Avg = math.Inf(1), math.NaN(), 0.1+0.2
	if err := p.writeRun(0, r); err != nil {
		t.Fatal(err)
	}
	got, err := p.Results()
	if err != nil || got[0] == nil {
		t.Fatal(err)
	}
	g := got[0]
	if !math.IsInf(g.Fairness.MaxMin, 1) || !math.IsNaN(g.Latency.Avg) || math.Float64bits(g.Hops.Avg) != math.Float64bits(0.1+0.2) {
		t.Errorf("maxMin %v latency %v hops %v", g.Fairness.MaxMin, g.Latency.Avg, g.Hops.Avg)
	}
	r.Latency.Avg, g.Latency.Avg, r.Fairness.MaxMin, g.Fairness.MaxMin = 0, 0, 0, 0
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(g)
	if !bytes.Equal(a, b) {
		t.Error("the result read back differs")
	}
}

// Ids are stable: planning the same sweep again gives the same ids, a run
// keeps its id when loads are added around it, and every run has its own.
func TestStableIDs(t *testing.T) {
	sp := smallSpec(t)
	a, _, err := New(sp, false, "x")
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := New(sp, false, "y")
	more := sp
	more.Loads = []float64{0.05, 0.1, 0.3, 0.5}
	c, _, _ := New(more, false, "x")
	ids := map[string]bool{}
	for i, r := range a.Runs {
		if r.ID != b.Runs[i].ID {
			t.Errorf("run %d: %s then %s", i, r.ID, b.Runs[i].ID)
		}
		ids[r.ID] = true
	}
	if len(ids) != len(a.Runs) {
		t.Errorf("%d ids for %d runs", len(ids), len(a.Runs))
	}
	kept := 0
	for _, r := range c.Runs {
		if ids[r.ID] {
			kept++
		}
	}
	if kept != len(a.Runs) {
		t.Errorf("%d of %d ids kept with a load added", kept, len(a.Runs))
	}
}

// The slices of any number of tasks cover every run once.
func TestSlicesCoverEveryRunOnce(t *testing.T) {
	p := newPlan(t, smallSpec(t))
	for _, n := range []int{1, 3, 5, 12, 20} {
		seen := make([]int, len(p.Runs))
		for task := 0; task < n; task++ {
			s, err := p.Slice(task, n)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range s {
				seen[i]++
			}
		}
		for i, k := range seen {
			if k != 1 {
				t.Errorf("%d tasks: run %d in %d slices", n, i, k)
			}
		}
	}
	if _, err := p.Slice(3, 3); err == nil {
		t.Error("task 3 of 3 accepted")
	}
}

// Exec writes each run of its slice, skips them the next time, and a
// second slice adds the rest; then nothing is missing.
func TestExecSkipsFinishedRuns(t *testing.T) {
	p := newPlan(t, smallSpec(t))
	rep, err := p.Exec(context.Background(), ExecOptions{Task: 0, Tasks: 2, Parallel: 2})
	if err != nil || rep.Done != 6 || rep.Skipped != 0 {
		t.Fatalf("%+v %v", rep, err)
	}
	rep, err = p.Exec(context.Background(), ExecOptions{Parallel: 2})
	if err != nil || rep.Done != 6 || rep.Skipped != 6 {
		t.Fatalf("%+v %v", rep, err)
	}
	st, err := p.Status()
	if err != nil || len(st.Done) != 12 || len(st.Missing)+len(st.Failed) != 0 {
		t.Fatalf("%+v %v", st, err)
	}
	// no temporary file is left behind
	entries, _ := os.ReadDir(filepath.Join(p.Dir, RunsDir))
	if len(entries) != 12 {
		t.Errorf("%d files in runs/", len(entries))
	}
	// a killed writer's temporary file goes once stale, a live writer's stays
	runs := filepath.Join(p.Dir, RunsDir)
	stale, fresh := filepath.Join(runs, ".x.msgpack.tmp-1"), filepath.Join(runs, ".y.msgpack.tmp-2")
	os.WriteFile(stale, []byte("half"), 0o600)
	os.WriteFile(fresh, []byte("half"), 0o600)
	old := time.Now().Add(-2 * staleTemp)
	os.Chtimes(stale, old, old)
	if _, err := p.Exec(context.Background(), ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary file kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temporary file removed: %v", err)
	}
	if st, _ := p.Status(); len(st.Done) != 12 {
		t.Errorf("%d runs done after the clean-up", len(st.Done))
	}
}

// A cancelled Exec writes nothing of the runs it stopped and says so.
func TestExecCancelled(t *testing.T) {
	p := newPlan(t, smallSpec(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := p.Exec(ctx, ExecOptions{Parallel: 2})
	if err == nil || rep.Done != 0 {
		t.Fatalf("%+v %v", rep, err)
	}
	st, _ := p.Status()
	if len(st.Missing) != 12 {
		t.Errorf("%d missing", len(st.Missing))
	}
}

// A failed run is recorded with its error, listed as failed, and its record
// goes when the run succeeds.
func TestFailedRunRecorded(t *testing.T) {
	p := newPlan(t, smallSpec(t))
	if err := p.writeFailure(4, os.ErrDeadlineExceeded); err != nil {
		t.Fatal(err)
	}
	st, err := p.Status()
	if err != nil || len(st.Failed) != 1 || st.Failed[0] != 4 || st.Errors[4] != os.ErrDeadlineExceeded.Error() {
		t.Fatalf("%+v %v", st, err)
	}
	r, err := sweep.RunJob(context.Background(), p.Jobs[4], nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.writeRun(4, r); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.FailedPath(4)); !os.IsNotExist(err) {
		t.Errorf("failure record still there: %v", err)
	}
}

// editManifest rewrites plan.json through f.
func editManifest(t *testing.T, dir string, f func(m map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, _ = json.Marshal(m)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Bad plan folders are errors naming the file: another format version,
// another engine, configurations that fail validation, an edited run list,
// a corrupted run file. Nothing finished is deleted.
func TestBadPlans(t *testing.T) {
	p := newPlan(t, smallSpec(t))
	rep, err := p.Exec(context.Background(), ExecOptions{Task: 0, Tasks: 4})
	if err != nil || rep.Done != 3 {
		t.Fatal(rep, err)
	}
	manifest := filepath.Join(p.Dir, ManifestFile)
	orig, _ := os.ReadFile(manifest)
	restore := func() { os.WriteFile(manifest, orig, 0o644) }
	cases := []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"format", func(m map[string]any) { m["format"] = 2 }, "plan format 2, this phitsim reads format 1"},
		{"engine", func(m map[string]any) { m["engine"] = "phitsim-engine 0.0.1" }, `planned for engine "phitsim-engine 0.0.1"`},
		{"invalid config", func(m map[string]any) {
			m["spec"].(map[string]any)["series"].([]any)[1].(map[string]any)["router"].(map[string]any)["packetSize"] = 0
		}, "router.packetSize"},
		{"edited runs", func(m map[string]any) { m["runs"].([]any)[5].(map[string]any)["seed"] = 9 }, "run 5 is listed as"},
		{"unknown field", func(m map[string]any) { m["extra"] = 1 }, `unknown field "extra"`},
	}
	for _, c := range cases {
		editManifest(t, p.Dir, c.edit)
		_, err := Open(p.Dir)
		if err == nil || !strings.Contains(err.Error(), manifest) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
		restore()
	}
	if _, err := Open(p.Dir); err != nil {
		t.Fatal(err)
	}
	// a corrupted run file: merge names it, and keeps every file
	st, _ := p.Status()
	bad := p.RunPath(st.Done[1])
	data, _ := os.ReadFile(bad)
	if err := os.WriteFile(bad, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = p.Merge()
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "corrupted run file") {
		t.Errorf("corrupted run file: %v", err)
	}
	// a run file of another run
	other := p.RunPath(st.Done[2])
	good, _ := os.ReadFile(p.RunPath(st.Done[0]))
	saved, _ := os.ReadFile(other)
	os.WriteFile(other, good, 0o644)
	if _, _, err = p.Merge(); err == nil || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), "renamed or copied") {
		t.Errorf("swapped run file: %v", err)
	}
	os.WriteFile(other, saved, 0o644)
	if st2, _ := p.Status(); len(st2.Done) != 3 {
		t.Errorf("%d runs done after the errors, want 3", len(st2.Done))
	}
	// writing another plan into the folder is refused and changes nothing
	sp := smallSpec(t)
	sp.Loads = sp.Loads[:2]
	m, _, _ := New(sp, false, "test")
	if _, err := Write(p.Dir, m); err == nil || !strings.Contains(err.Error(), manifest) {
		t.Errorf("another plan: %v", err)
	}
	if now, _ := os.ReadFile(manifest); !bytes.Equal(now, orig) {
		t.Error("plan.json changed")
	}
	// the same plan again, by another build, is harmless
	m, _, _ = New(smallSpec(t), false, "another build")
	if existing, err := Write(p.Dir, m); err != nil || !existing {
		t.Errorf("the same plan: %v %v", existing, err)
	}
}

// The cost model: the thesis's h=8 point (MIN, UN 0.4, 60,000 + 60,000
// cycles) measures about 6 CPU-minutes (engine/BENCHMARKS.md: 338 cycles
// per second); the estimate must not be below it (a batch job's limit) nor
// far above it (a queue's priority).
func TestCostEstimateOfTheThesisPoint(t *testing.T) {
	c, err := config.PresetByName("h8")
	if err != nil {
		t.Fatal(err)
	}
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", "UN", 0.4
	s := Seconds(&c)
	measured := float64(c.Sim.Warmup+c.Sim.Cycles) / 338
	t.Logf("h=8 MIN UN 0.4: estimated %.0f s, measured ≈ %.0f s; memory estimate %d MiB", s, measured, Bytes(&c)>>20)
	if s < measured || s > 3*measured {
		t.Errorf("estimated %.0f s, measured ≈ %.0f s", s, measured)
	}
	if b := Bytes(&c); b < 91<<20 || b > 1<<30 {
		t.Errorf("memory estimate %d MiB, measured 91 MiB", b>>20)
	}
}

// A run stopped in progress (the context cancelled mid-run) is lost, not
// recorded as failed: the next Exec runs it (h=2, MIN at 0.1, one run of
// 20,000 + 20,000 cycles, stopped after 5,000).
func TestExecLosesOnlyTheRunInProgress(t *testing.T) {
	sp := smallSpec(t)
	sp.Series, sp.Loads = sp.Series[:1], sp.Loads[:1]
	sp.Series[0].Sim.Seeds, sp.Series[0].Sim.Warmup, sp.Series[0].Sim.Cycles = 1, 20000, 20000
	p := newPlan(t, sp)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cycles int64
	rep, err := p.Exec(ctx, ExecOptions{Parallel: 1, OnCycles: func(d int64) {
		if cycles += d; cycles >= 5000 {
			cancel()
		}
	}})
	if err != context.Canceled || rep.Done != 0 || len(rep.Failed) != 0 || cycles >= 40000 {
		t.Fatalf("%+v %v after %d cycles", rep, err, cycles)
	}
	if entries, _ := os.ReadDir(filepath.Join(p.Dir, RunsDir)); len(entries) != 0 {
		t.Errorf("%d files written for a stopped run", len(entries))
	}
}
