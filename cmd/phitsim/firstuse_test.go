package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// The command line as a first-time user meets it: what it refuses, what an
// interrupt leaves, what goes to a stderr that is a file.

// long is h2 with runs of 2,000 cycles: past the 1,024 cycles after which
// the simulator first looks at the context, so that a run started after an
// interrupt stops instead of finishing.
var long = []string{"-preset", "h2", "-set", "sim.warmup=1000", "-set", "sim.cycles=1000"}

// cliCtx is cli with a context and the stderr-terminal flag.
func cliCtx(t *testing.T, ctx context.Context, tty, errTTY bool, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(ctx, args, &out, &errOut, tty, errTTY)
	return code, out.String(), errOut.String()
}

// -seeds 0 and -seeds -1 were ignored (the preset's seeds ran); they are
// refused as -set sim.seeds=… is, with the validator's message, exit 1.
func TestSeedsFlagIsValidatedAsSimSeeds(t *testing.T) {
	for _, n := range []string{"0", "-1", "1001"} {
		for _, cmd := range [][]string{{"run"}, {"sweep", "-loads", "0.1"}} {
			base := append(append([]string(nil), cmd...), tiny[:6:6]...) // tiny without its -seeds
			code, out, errOut := cli(t, true, append(base, "-seeds", n)...)
			_, _, setErr := cli(t, true, append(base, "-set", "sim.seeds="+n)...)
			want := "phitsim: sim.seeds = " + n + ": must be in [1, 1000]\n"
			if code != 1 || out != "" || errOut != want || setErr != want {
				t.Errorf("%s -seeds %s: exit %d, stdout %q, stderr %q; -set sim.seeds: %q", cmd[0], n, code, out, errOut, setErr)
			}
		}
	}
	// -seeds overrides the preset's sim.seeds (2 in h2 after short runs)
	code, out, _ := cli(t, false, append([]string{"run"}, append(tiny[:6:6], "-seeds", "1")...)...)
	var doc PointDoc
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Runs) != 1 || doc.Config.Sim.Seeds != 1 {
		t.Errorf("-seeds 1: exit %d, %d runs", code, len(doc.Runs))
	}
	if code, _, errOut := cli(t, true, "run", "-preset", "h2", "-seeds", "1e3"); code != 2 ||
		!strings.Contains(errOut, `invalid value "1e3" for flag -seeds: not a whole number`) {
		t.Errorf("-seeds 1e3: exit %d, %q", code, errOut)
	}
}

// Interrupted before any run finished: no summary of zeros, no JSON, no CSV
// and no file, one line "phitsim: interrupted: no run finished", exit 130.
func TestInterruptedBeforeAnyRunFinished(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	for _, args := range [][]string{
		append([]string{"run", "-seeds", "3"}, long...),
		append([]string{"run", "-out", filepath.Join(dir, "r.json")}, long...),
		append([]string{"sweep", "-loads", "0.1,0.2"}, long...),
		append([]string{"sweep", "-loads", "0.1", "-out", filepath.Join(dir, "s")}, long...),
	} {
		for _, tty := range []bool{true, false} {
			code, out, errOut := cliCtx(t, ctx, tty, false, args...)
			if code != 130 || out != "" || errOut != "phitsim: interrupted: no run finished\n" {
				t.Errorf("%v tty %v: exit %d, stdout %q, stderr %q", args, tty, code, out, errOut)
			}
		}
	}
	if files, _ := os.ReadDir(dir); len(files) > 0 {
		t.Errorf("an interrupt before any run finished wrote %d files", len(files))
	}
}

// interruptAfterFirstRun runs the command line on one core (the runs one
// after the other) and interrupts it as the first run finishes: exactly one
// run finishes, the next one stops at its first look at the context.
func interruptAfterFirstRun(t *testing.T, tty bool, args ...string) (int, string, string) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	e := env{stdout: &out, stderr: &errOut, tty: tty, afterRun: cancel}
	code := command(ctx, e, args)
	return code, out.String(), errOut.String()
}

// Interrupted after some runs finished: the summary of those, saying "k of n
// runs finished" and which seeds, the JSON or CSV of those, then "phitsim:
// interrupted" (not Go's "context canceled"), exit 130.
func TestInterruptedAfterSomeRuns(t *testing.T) {
	code, out, errOut := interruptAfterFirstRun(t, true, append([]string{"run", "-seeds", "4"}, long...)...)
	if code != 130 || !strings.Contains(out, "accepted load") ||
		!strings.Contains(out, "1 of 4 runs finished (seed 1): the means are over those") ||
		errOut != "phitsim: interrupted\n" {
		t.Errorf("run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// said under the header's "4 seeds (1…4)" too, before the figures
	if i, j := strings.Index(out, "interrupted: 1 of 4 runs finished (seed 1); every figure below is over those"), strings.Index(out, "accepted load"); i < 0 || i > j {
		t.Errorf("run: the header does not say the run was cut short:\n%s", out)
	}
	code, out, errOut = interruptAfterFirstRun(t, false, append([]string{"run", "-seeds", "4"}, long...)...)
	var doc PointDoc
	if err := json.Unmarshal([]byte(out), &doc); code != 130 || err != nil || len(doc.Runs) != 1 || doc.Aggregate.Runs != 1 ||
		!strings.HasSuffix(errOut, "1 of 4 runs finished (seed 1): the means are over those\n\nfull result: JSON on stdout\nphitsim: interrupted\n") {
		t.Errorf("run into a pipe: exit %d, %v, %d runs, stderr %q", code, err, len(doc.Runs), errOut)
	}
	code, out, errOut = interruptAfterFirstRun(t, false, append([]string{"sweep", "-seeds", "2", "-loads", "0.1,0.2"}, long...)...)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 130 || err != nil || len(rows) != 2 || rows[1][3] != "1" ||
		errOut != "interrupted: 1 of 4 runs finished; writing those\nphitsim: interrupted\n" {
		t.Errorf("sweep: exit %d, CSV %q (%v), stderr %q", code, out, err, errOut)
	}
}

// 'phitsim run' and 'phitsim sweep' with no configuration ran the default
// one (h8, 60,000 + 60,000 cycles × 5 seeds: many minutes). They are refused
// (exit 2) with presets that run in seconds and 'phitsim presets'. The
// context is cancelled so that, were they not refused, they stop at once.
func TestRunAndSweepNeedAConfiguration(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{{"run"}, {"run", "-seeds", "2", "-set", "traffic.load=0.1"}, {"sweep"}, {"sweep", "-loads", "0.1"}} {
		code, out, errOut := cliCtx(t, ctx, true, false, args...)
		want := []string{"phitsim " + args[0] + ": no configuration given: add -preset NAME or -config FILE",
			"'phitsim presets' lists them all", "phitsim " + args[0] + " -preset "}
		for _, p := range quickPresets {
			want = append(want, "\n  "+p+" ")
		}
		if args[0] == "sweep" {
			want = append(want, "-experiment NAME")
		}
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		for _, w := range want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, w, errOut)
			}
		}
	}
	// an experiment names its own configurations
	if code, _, errOut := cliCtx(t, ctx, true, false, "sweep", "-experiment", "thesis-adv1"); code != 130 {
		t.Errorf("sweep -experiment: exit %d, %q", code, errOut)
	}
	// the presets named exist and are short: a few million router-cycles
	// (the default configuration is 1.2 billion)
	work := func(c config.Config) int64 {
		jobs, err := sweep.Spec{Series: []config.Config{c}, Loads: []float64{c.Traffic.Load}}.Jobs()
		if err != nil {
			t.Fatal(err)
		}
		sz, _ := c.Topology.Sizes()
		return sweep.TotalCycles(jobs) * int64(sz.Routers)
	}
	for _, p := range quickPresets {
		c, err := config.PresetByName(p)
		if err != nil {
			t.Fatal(err)
		}
		if w := work(c); w > 30e6 {
			t.Errorf("preset %s: %d router-cycles is not quick", p, w)
		}
	}
	// one of each network of the papers: the Dragonfly's, Kim et al.'s
	// flattened butterfly, the RECN paper's fat tree
	kinds := map[string]bool{}
	for _, p := range quickPresets {
		c, _ := config.PresetByName(p)
		kinds[c.Topology.Kind] = true
	}
	for _, k := range []string{"dragonfly", "fbfly", "fattree"} {
		if !kinds[k] {
			t.Errorf("no quick preset on topology.kind=%s", k)
		}
	}
	if w := work(config.Default()); w < 1e9 {
		t.Errorf("default: %d router-cycles", w)
	}
}

// The progress bar is drawn only when stderr is a terminal: into a file or
// a pipe it was a stream of carriage returns.
func TestProgressBarOnlyOnATerminal(t *testing.T) {
	args := append([]string{"run"}, long...)
	code, _, errOut := cliCtx(t, context.Background(), true, true, args...)
	if code != 0 || !strings.Contains(errOut, "\r") || !strings.Contains(errOut, "█") {
		t.Errorf("stderr a terminal: exit %d, no bar in %q", code, errOut)
	}
	for _, tty := range []bool{true, false} {
		code, _, errOut := cliCtx(t, context.Background(), tty, false, args...)
		if code != 0 || strings.Contains(errOut, "\r") || strings.Contains(errOut, "█") {
			t.Errorf("stderr a file, stdout a terminal %v: exit %d, stderr %q", tty, code, errOut)
		}
	}
}

// A file that is not JSON, or not an object, is reported by its message
// alone (it was listed as a field, then summed up as "1 invalid field(s)").
func TestNotJSONIsReportedAlone(t *testing.T) {
	for doc, msg := range map[string]string{
		"{\n  \"traffic\": {\n    \"load\": 0.1,}\n}\n": "not valid JSON at line 3, column 17: invalid character '}' looking for beginning of object key string",
		"":       "not valid JSON at line 1, column 1: unexpected end of JSON input",
		"[1, 2]": "(document) = [1,2]: wrong type: expected a JSON object (the configuration), got an array",
	} {
		f := writeConfig(t, doc)
		for _, cmd := range []string{"validate", "run", "sweep"} {
			code, out, errOut := cli(t, true, cmd, "-config", f, "-set", "traffic.load=0.2")
			if want := "phitsim: " + f + ": " + msg + "\n"; code != 1 || out != "" || errOut != want {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q, want %q", cmd, doc, code, out, errOut, want)
			}
		}
	}
	// fields still are listed and counted
	f := writeConfig(t, `{"traffic": {"load": 2}}`)
	if code, out, errOut := cli(t, true, "validate", "-config", f); code != 1 || out != "traffic.load = 2: must be in [0, 1]\n" ||
		errOut != "phitsim: "+f+": 1 invalid field(s)\n" {
		t.Errorf("a bad field: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// Series are numbered from 1 in the table and in messages; sweep -h says the
// CSV's series column counts from 0.
func TestSeriesNumbering(t *testing.T) {
	code, _, errOut := cli(t, true, "sweep", "-preset", "h2", "-set", "router.localVCs=2", "-series", "routing.name=MIN,VAL", "-loads", "0.1")
	if code != 1 || !strings.HasPrefix(errOut, "phitsim: series 2 (VAL): router.localVCs = 2: ") {
		t.Errorf("exit %d, %q", code, errOut)
	}
	_, help, _ := cli(t, true, "sweep", "-h")
	if !strings.Contains(help, `from 1 in the table ("series 1 (MIN)")`) ||
		!strings.Contains(help, `"series" column of the CSV (and field of the JSON) is`+"\nthat number less one (from 0)") {
		t.Errorf("sweep -h does not say how series are numbered:\n%s", help)
	}
}
