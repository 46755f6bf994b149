package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"phitsim/engine/result"
	"phitsim/engine/sweep"
	"phitsim/site/experiment"
)

// buildCLI builds cmd/phitsim into a temporary folder in the background (it
// runs while build.sh builds the site); the function it returns waits for
// the build and gives the binary.
func buildCLI(t *testing.T) func(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "phitsim")
	done := make(chan struct{})
	var out []byte
	var err error
	go func() {
		defer close(done)
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/phitsim")
		cmd.Dir = repoRoot(t)
		out, err = cmd.CombinedOutput()
	}()
	t.Cleanup(func() { <-done }) // before the temporary folder goes
	return func(t *testing.T) string {
		t.Helper()
		<-done
		if err != nil {
			t.Fatalf("go build ./cmd/phitsim: %v\n%s", err, out)
		}
		return bin
	}
}

// cliRun is what 'phitsim sweep' wrote for an experiment of the page.
type cliRun struct {
	Out                *sweep.Outcome
	CSV                []byte
	WasmCPU, NativeCPU float64 // engine CPU seconds of all the runs
}

// checkCLI runs the experiment the page ran with the real CLI, 'phitsim
// sweep -config FILE… -loads|-param/-values … -out PREFIX', and checks that
// the page's results equal the CLI's: every run (bit for bit, all but the
// CPU time), every point's aggregate (the floats bit-identical), the CSV
// (the same text), and the values the latency and accepted-load charts show.
// configs are the series' configuration files (the page's "Export config
// JSON" downloads); without them the series of the page's export are
// written to files.
func checkCLI(t *testing.T, ctx context.Context, bin string, ex experiment.Export, configs ...string) cliRun {
	t.Helper()
	dir := t.TempDir()
	if len(configs) == 0 {
		for i := range ex.Exp.Series {
			f := filepath.Join(dir, fmt.Sprintf("series%d.json", i+1))
			if err := os.WriteFile(f, ex.Exp.Series[i].JSON(), 0o644); err != nil {
				t.Fatal(err)
			}
			configs = append(configs, f)
		}
	}
	if len(configs) != len(ex.Exp.Series) {
		t.Fatalf("%d config files for %d series", len(configs), len(ex.Exp.Series))
	}
	want, err := ex.Exp.Sweep.Values()
	if err != nil || !reflect.DeepEqual(want, ex.Values) {
		t.Fatalf("the page swept %v, the experiment gives %v (%v)", ex.Values, want, err)
	}
	args := []string{"sweep"}
	for _, f := range configs {
		args = append(args, "-config", f)
	}
	vals := make([]string, len(ex.Values))
	for i, v := range ex.Values {
		vals[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	if ex.Exp.Sweep.Param == experiment.LoadParam {
		args = append(args, "-loads", strings.Join(vals, ","))
	} else {
		args = append(args, "-param", ex.Exp.Sweep.Param, "-values", strings.Join(vals, ","))
	}
	prefix := filepath.Join(dir, "cli")
	args = append(args, "-j", "2", "-out", prefix)
	start := time.Now()
	if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		// 3: a run deadlocked; the CLI wrote every run, as the page keeps them
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 || !deadlocked(ex) {
			t.Fatalf("phitsim %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	t.Logf("phitsim sweep (%d series × %d values): %.1fs", len(configs), len(vals), time.Since(start).Seconds())
	var r cliRun
	b, err := os.ReadFile(prefix + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &r.Out); err != nil {
		t.Fatalf("%s.json: %v", prefix, err)
	}
	if r.CSV, err = os.ReadFile(prefix + ".csv"); err != nil {
		t.Fatal(err)
	}
	out := r.Out
	spec, err := ex.Exp.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out.Spec, spec) {
		t.Errorf("the CLI ran another spec than the page:\nCLI  %+v\npage %+v", out.Spec, spec)
	}

	// runs, in job order (series, point, seed); under sim.precision the
	// page's added seeds follow its jobs, in the order their points
	// finished, the CLI's sit beside their point's: both in run order
	jobs, err := ex.Exp.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Jobs) < len(jobs) || len(out.Runs) != len(ex.Jobs) {
		t.Fatalf("the experiment has %d jobs; the page lists %d, the CLI ran %d", len(jobs), len(ex.Jobs), len(out.Runs))
	}
	for i, j := range jobs {
		if ref := ex.Jobs[i]; ref.Seed != j.Seed || ref.Series != j.Series || ref.Point != j.Point {
			t.Errorf("job %d: page %+v, experiment seed %d", i, ref, j.Seed)
		}
	}
	refs := slices.Clone(ex.Jobs)
	slices.SortStableFunc(refs, func(a, b experiment.JobRef) int {
		if a.Series != b.Series {
			return a.Series - b.Series
		}
		if a.Point != b.Point {
			return a.Point - b.Point
		}
		return a.Run - b.Run
	})
	for i, ref := range refs {
		if ref.Result < 0 {
			t.Fatalf("job %+v has no result on the page", ref)
		}
		if out.Runs[i].Seed != ref.Seed || out.Runs[i].Offered != ex.Runs[ref.Result].Offered {
			t.Errorf("run %d: page's seed %d at %g, CLI's %d at %g", i, ref.Seed, ex.Runs[ref.Result].Offered, out.Runs[i].Seed, out.Runs[i].Offered)
		}
		got := ex.Runs[ref.Result]
		if canonical(got) != canonical(out.Runs[i]) {
			t.Errorf("run %d (series %d, x=%g, seed %d): the browser's result differs from the CLI's\nbrowser %.400s\nCLI     %.400s",
				i, ref.Series, ref.X, ref.Seed, canonical(got), canonical(out.Runs[i]))
		}
		r.WasmCPU += got.CPUSeconds
		r.NativeCPU += out.Runs[i].CPUSeconds
	}
	// points: every float bit-identical
	if len(out.Points) != len(ex.Points) {
		t.Fatalf("%d points on the page, %d from the CLI", len(ex.Points), len(out.Points))
	}
	for i := range out.Points {
		if !reflect.DeepEqual(ex.Points[i].Agg, out.Points[i]) {
			t.Errorf("point %d: page %+v\nCLI  %+v", i, ex.Points[i].Agg, out.Points[i])
		}
	}
	// the CSV the page exports (what its CSV button downloads)
	sameCSV(t, "the page's CSV", []byte(eval[string](t, ctx, `phitsimDebug.csv()`)), r.CSV, ex)
	checkCurves(t, ctx, ex, out)
	return r
}

// deadlocked tells whether a run of the page stopped on a deadlock.
func deadlocked(ex experiment.Export) bool {
	for _, r := range ex.Runs {
		if r.Deadlock != nil {
			return true
		}
	}
	return false
}

// sameCSV compares a CSV of the page with the CLI's, cell by cell. The page
// names an unnamed series by its routing where the CLI leaves the name empty.
func sameCSV(t *testing.T, what string, page, cli []byte, ex experiment.Export) {
	t.Helper()
	p, err1 := csv.NewReader(bytes.NewReader(page)).ReadAll()
	c, err2 := csv.NewReader(bytes.NewReader(cli)).ReadAll()
	if err1 != nil || err2 != nil || len(p) != len(c) || len(c) < 2 {
		t.Errorf("%s: %v %v, %d rows, CLI %d rows:\n%s\nCLI:\n%s", what, err1, err2, len(p), len(c), page, cli)
		return
	}
	if !reflect.DeepEqual(p[0], c[0]) {
		t.Errorf("%s: header %v, CLI %v", what, p[0], c[0])
		return
	}
	for k := 1; k < len(c); k++ {
		want := append([]string(nil), c[k]...)
		if len(want) > 1 && want[1] == "" {
			s, _ := strconv.Atoi(want[0])
			want[1] = ex.Exp.SeriesName(s)
		}
		if !reflect.DeepEqual(p[k], want) {
			t.Errorf("%s row %d:\npage %v\nCLI  %v", what, k, p[k], want)
		}
	}
}

// num is the chart's rounding (site/plot: 6 significant digits).
func num(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}

// checkCurves compares the points the latency and accepted-load charts show
// (x, mean, ±CI95, runs, saturated, verdict, p99, busiest link, p50, p90, p99.9) with the CLI's points. The charts are
// drawn on the animation frame after a render: wait up to 5 s for them.
func checkCurves(t *testing.T, ctx context.Context, ex experiment.Export, out *sweep.Outcome) {
	t.Helper()
	type series struct {
		Name string      `json:"name"`
		Data [][]float64 `json:"data"`
	}
	want := map[string][]series{}
	for _, chart := range []string{"accepted", "latency"} {
		ss := make([]series, len(ex.Exp.Series))
		for i := range ss {
			ss[i] = series{Name: ex.Exp.SeriesName(i), Data: [][]float64{}}
		}
		for _, p := range out.Points {
			k := len(ss[p.Series].Data)
			e := p.Accepted
			if chart == "latency" {
				e = p.Latency
			}
			sat := 0.0
			if p.Saturated || (p.Graph500 != nil && !p.Graph500.Finished) {
				sat = 1
			}
			// the point's verdict (index in result.Verdicts), p99 latency
			// and busiest link's utilisation, then p50, p90, p99.9
			verdict, busiest := -1.0, 0.0
			var pct [4]float64 // p50, p90, p99, p99.9
			if q := p.Quality; q != nil {
				verdict = float64(slices.Index(result.Verdicts[:], q.Verdict))
				for _, pc := range q.Percentiles {
					if i := slices.Index([]float64{0.5, 0.9, 0.99, 0.999}, pc.P); i >= 0 {
						pct[i] = float64(pc.Cycles)
					}
				}
				if l := q.Links.Link; l != nil {
					busiest = l.Utilisation
				}
			}
			ss[p.Series].Data = append(ss[p.Series].Data, []float64{num(ex.Values[k]), num(e.Mean), num(e.CI95), float64(p.Runs), sat, verdict, pct[2], busiest, pct[0], pct[1], pct[3]})
		}
		want[chart] = ss
	}
	js := fmt.Sprintf(`(() => { const out = {};
		for (const n of ['accepted', 'latency']) {
			const el = document.getElementById('chart-' + n);
			const c = el && echarts.getInstanceByDom(el);
			if (!c) continue;
			out[n] = c.getOption().series.slice(0, %d).map(s => ({name: s.name, data: (s.data || []).map(d => Array.isArray(d) ? d : d.value)}));
		}
		return out })()`, len(ex.Exp.Series))
	var got map[string][]series
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		got = eval[map[string][]series](t, ctx, js)
		ok := len(got) > 0
		for n, s := range got {
			ok = ok && reflect.DeepEqual(s, want[n])
		}
		if ok || time.Now().After(end) {
			break
		}
	}
	if len(got) == 0 {
		if eval[bool](t, ctx, `!!document.getElementById('chart-accepted')`) {
			t.Errorf("no values in the load charts")
		}
		return
	}
	for n, s := range got {
		if !reflect.DeepEqual(s, want[n]) {
			t.Errorf("the %s chart shows\n%v\nthe CLI's points give\n%v", n, s, want[n])
		}
	}
}

// validate runs 'phitsim validate -config FILE' and returns its output.
func validate(t *testing.T, bin, file string) string {
	t.Helper()
	b, err := exec.Command(bin, "validate", "-config", file).CombinedOutput()
	if err != nil {
		t.Errorf("phitsim validate -config %s: %v\n%s", file, err, b)
	}
	return string(b)
}
