package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// cli runs the command line in-process as main does, with stdout a terminal
// or not: the exit status, stdout and stderr.
func cli(t *testing.T, tty bool, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut, tty, false)
	return code, out.String(), errOut.String()
}

// Every way of asking for help prints that command's usage, flags and
// examples on stdout and exits 0 (the flag package's default is exit 1 with
// "flag: help requested").
func TestHelpExitsZero(t *testing.T) {
	for cmd := range help {
		for _, args := range [][]string{{cmd, "-h"}, {cmd, "-help"}, {cmd, "--help"}, {"help", cmd}} {
			code, out, errOut := cli(t, true, args...)
			if code != 0 || errOut != "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
			}
			for _, want := range []string{"Usage: phitsim " + cmd, "Example"} {
				if !strings.Contains(out, want) {
					t.Errorf("%v: stdout lacks %q:\n%s", args, want, out)
				}
			}
			if strings.Contains(out+errOut, "help requested") {
				t.Errorf("%v: %q", args, out+errOut)
			}
		}
	}
	for _, cmd := range []string{"run", "sweep", "validate"} {
		if _, out, _ := cli(t, true, cmd, "-h"); !strings.Contains(out, "Flags:\n  -config FILE") || !strings.Contains(out, "-set path=value") {
			t.Errorf("%s -h lists no flags:\n%s", cmd, out)
		}
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"-help"}} {
		code, out, errOut := cli(t, true, args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "phitsim run ") || !strings.Contains(out, "Exit status:") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// the output convention is documented where a user looks
	_, out, _ := cli(t, true, "run", "-h")
	for _, want := range []string{"stdout is a terminal", "stdout is a pipe or a file", "-json", "-out FILE"} {
		if !strings.Contains(out, want) {
			t.Errorf("run -h lacks %q", want)
		}
	}
	_, out, _ = cli(t, true, "sweep", "-h")
	for _, want := range []string{"stdout is a terminal", "the curves as CSV", "-csv", "-out PREFIX"} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep -h lacks %q", want)
		}
	}
}

// A command line that does not parse exits 2 with the problem and the usage
// on stderr, and runs nothing.
func TestBadCommandLineExitsTwo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"run", "-seeds", "many"}, `invalid value "many" for flag -seeds`},
		{[]string{"run", "h4"}, `unexpected argument "h4"`},
		{[]string{"sweep", "-loads"}, "flag needs an argument: -loads"},
		{[]string{"validate", "-preset"}, "flag needs an argument: -preset"},
		{[]string{"presets", "all"}, `unexpected argument "all"`},
		{[]string{"version", "-short"}, "flag provided but not defined: -short"},
		{[]string{"help", "bogus"}, `unknown command "bogus"`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{nil, "Usage:"},
	} {
		code, out, errOut := cli(t, true, c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
	}
	// a bad value of a parameter is an error of the configuration: exit 1
	if code, _, errOut := cli(t, true, "run", "-preset", "h2", "-set", "traffic.load=2"); code != 1 || !strings.Contains(errOut, "traffic.load = 2") {
		t.Errorf("bad load: exit %d, %q", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Path: "phitsim", Version: "v0.0.0-20261125-abcdef"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"},
			{Key: "vcs.time", Value: "2026-11-25T12:00:00Z"}, {Key: "vcs.modified", Value: "true"},
			{Key: "GOOS", Value: "plan9"}, {Key: "GOARCH", Value: "arm"}}}
	got := versionText(bi, true)
	for _, want := range []string{"phitsim v0.0.0-20261125-abcdef\n", "revision 0123456789abcdef (2026-11-25T12:00:00Z) +dirty",
		"engine phitsim-engine", "go1.99.1 plan9/arm"} {
		if !strings.Contains(got, want) {
			t.Errorf("version lacks %q:\n%s", want, got)
		}
	}
	bi.Settings[2].Value = "false"
	if got := versionText(bi, true); strings.Contains(got, "dirty") {
		t.Errorf("clean tree said dirty:\n%s", got)
	}
	// go run and -buildvcs=false builds carry no revision
	for _, got := range []string{versionText(nil, false), versionText(&debug.BuildInfo{}, true)} {
		if !strings.HasPrefix(got, "phitsim (devel)\nunknown revision") || !strings.Contains(got, "go1.") {
			t.Errorf("no build info:\n%s", got)
		}
	}
	for _, args := range [][]string{{"version"}, {"-version"}, {"--version"}} {
		code, out, errOut := cli(t, false, args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "phitsim ") || !strings.Contains(out, "engine phitsim-engine") {
			t.Errorf("%v: exit %d, %q, %q", args, code, out, errOut)
		}
	}
}

// At a terminal, run prints a short summary with units; into a pipe or a
// file, the full JSON exactly as before (the summary then goes to stderr).
func TestRunSummaryAtTerminalJSONOtherwise(t *testing.T) {
	args := append([]string{"run"}, append(tiny, "-set", "routing.name=VAL")...)
	code, summary, _ := cli(t, true, args...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"h2: Dragonfly h=2 a=4 p=2 (36 routers, 72 nodes), routing VAL, traffic UN, load 0.4",
		"300 warm-up + 300 measured cycles; 2 seeds (1…2): mean ± 95% confidence interval",
		"offered load", "accepted load", "phits/node/cycle", "average latency", "in the network", "injection",
		"cycles", "misrouted", "% of delivered packets", "Max/Min injection", "injection CoV", " ± ",
		"not saved; add -out FILE or -json",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	code, data, errOut := cli(t, false, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc PointDoc
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatalf("stdout is not the JSON: %v", err)
	}
	if len(doc.Runs) != 2 || doc.Config.Routing.Name != "VAL" || doc.Aggregate.Runs != 2 {
		t.Errorf("runs %d, routing %s, aggregate %+v", len(doc.Runs), doc.Config.Routing.Name, doc.Aggregate)
	}
	// unchanged: encoding/json's indented document, the seeds bit-identical
	want, _ := json.MarshalIndent(doc, "", "  ")
	if data != string(want)+"\n" {
		t.Error("the JSON on stdout is not encoding/json's indented document")
	}
	if !strings.Contains(errOut, "accepted load") || !strings.Contains(errOut, "full result: JSON on stdout") {
		t.Errorf("stderr lacks the summary:\n%s", errOut)
	}
	if len(summary)*4 > len(data) {
		t.Errorf("the summary (%d B) is not short next to the JSON (%d B)", len(summary), len(data))
	}
	t.Logf("summary %d B, JSON %d B", len(summary), len(data))
	// MIN never misroutes: no misrouted line
	if _, s, _ := cli(t, true, append([]string{"run"}, tiny...)...); strings.Contains(s, "misrouted") || !strings.Contains(s, "routing MIN") {
		t.Errorf("MIN summary:\n%s", s)
	}
	// -json forces the JSON onto the terminal
	if code, s, _ := cli(t, true, append(args, "-json")...); code != 0 || !json.Valid([]byte(s)) {
		t.Errorf("-json at a terminal: exit %d, %.200q", code, s)
	}
	// -fogsim adds FOGSim's report of each run on stderr, whatever stdout is
	if code, s, e := cli(t, true, append(args, "-fogsim")...); code != 0 || strings.Count(e, "Accepted Load: ") != 2 || !strings.Contains(s, "accepted load") {
		t.Errorf("-fogsim: exit %d, stdout %q, stderr %q", code, s, e)
	}
}

// -out writes the JSON to the file and the summary to stdout, terminal or not.
func TestRunOutFileAndSummary(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.json")
	for _, tty := range []bool{true, false} {
		os.Remove(file)
		code, out, errOut := cli(t, tty, append([]string{"run", "-out", file}, tiny...)...)
		if code != 0 || !strings.Contains(out, "accepted load") || !strings.Contains(out, "full result: "+file) {
			t.Fatalf("tty %v: exit %d, stdout %q, stderr %q", tty, code, out, errOut)
		}
		var doc PointDoc
		if b, err := os.ReadFile(file); err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Runs) != 2 {
			t.Errorf("tty %v: %s: %v, %d runs", tty, file, err, len(doc.Runs))
		}
	}
}

func TestRunGraph500Summary(t *testing.T) {
	code, out, errOut := cli(t, true, "run", "-preset", "graph500-h2", "-set", "workload.scale=10", "-seeds", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"BFS run to its end", "execution time", "cycles", "ms simulated", "GTEPS",
		"usage", "phits/node/cycle", "one cycle is"} {
		if !strings.Contains(out, want) {
			t.Errorf("Graph500 summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "offered load") {
		t.Errorf("a Graph500 run has no offered load:\n%s", out)
	}
}

// failing is a stdout that cannot be written (a closed pipe, a full disk).
type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A finished run is never lost to an output error: when stdout or the -out
// file cannot be written, the JSON goes to a file in the temporary folder,
// stderr says which, the summary is still shown, and the exit status is 1.
func TestRunOutputErrorKeepsTheResult(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	saved := func(t *testing.T, errOut string) PointDoc {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(tmp, "phitsim-*.json"))
		if len(files) != 1 || !strings.Contains(errOut, "it is in "+files[0]) {
			t.Fatalf("fallback files %v; stderr %q", files, errOut)
		}
		// reported once (it was twice: as it happened, and as the exit error)
		if n := strings.Count(errOut, "could not write"); n != 1 || strings.Count(errOut, "phitsim: ") != 1 {
			t.Errorf("the output error is reported %d times:\n%s", n, errOut)
		}
		defer os.Remove(files[0])
		var doc PointDoc
		if b, err := os.ReadFile(files[0]); err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Runs) != 2 {
			t.Fatalf("%s: %v, %d runs", files[0], err, len(doc.Runs))
		}
		return doc
	}
	// -out into a folder that does not exist
	code, out, errOut := cli(t, true, append([]string{"run", "-out", filepath.Join(tmp, "no", "such", "r.json")}, tiny...)...)
	if code != 1 || !strings.Contains(errOut, "no such file or directory") || !strings.Contains(out, "accepted load") {
		t.Errorf("-out failing: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	saved(t, errOut)
	// stdout failing (a pipe): the summary is on stderr
	var errBuf bytes.Buffer
	code = run(context.Background(), append([]string{"run"}, tiny...), failing{}, &errBuf, false, false)
	if code != 1 || !strings.Contains(errBuf.String(), "no space left on device") || !strings.Contains(errBuf.String(), "accepted load") {
		t.Errorf("stdout failing: exit %d, stderr %q", code, errBuf.String())
	}
	saved(t, errBuf.String())
}

// A NaN or ±Inf that slipped into a result does not lose it: the JSON is
// written with null there, stderr names where, and the exit status is 1.
func TestNonFiniteResultIsWritten(t *testing.T) {
	_, data, _ := cli(t, false, append([]string{"run"}, tiny...)...)
	var doc PointDoc
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	// the fallback encoder is encoding/json's, byte for byte, on finite results
	if got, nf, err := encodeNulls(doc); err != nil || len(nf) != 0 || string(got) != data {
		t.Fatalf("encodeNulls differs from encoding/json (%v, %v)", err, nf)
	}
	doc.Runs[1].Fairness.MaxMin = math.Inf(1)
	doc.Aggregate.Latency.CI95 = math.NaN()
	var out, errOut bytes.Buffer
	err := report(env{stdout: &out, stderr: &errOut}, doc, "", false)
	if err == nil || !strings.Contains(err.Error(), "/runs/1/fairness/maxMin = +Inf") ||
		!strings.Contains(err.Error(), "/aggregate/latency/ci95 = NaN") {
		t.Fatalf("err = %v", err)
	}
	var back map[string]any
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("the JSON written does not decode: %v", err)
	}
	runs := back["runs"].([]any)
	f := runs[1].(map[string]any)["fairness"].(map[string]any)
	if v, ok := f["maxMin"]; !ok || v != nil || f["cov"] == nil {
		t.Errorf("maxMin = %v (present %v), cov = %v", v, ok, f["cov"])
	}
	if !strings.Contains(errOut.String(), "accepted load") {
		t.Errorf("no summary on stderr: %q", errOut.String())
	}
	if code := run(context.Background(), []string{"version"}, &out, &errOut, false, false); code != 0 {
		t.Error(code)
	}
}

// sweep: a table at a terminal, the CSV into a pipe or with -csv, the files
// and the table with -out.
func TestSweepTableAtTerminalCSVOtherwise(t *testing.T) {
	args := append([]string{"sweep"}, append(tiny, "-series", "routing.name=MIN,VAL", "-loads", "0.1,0.2")...)
	code, table, errOut := cli(t, true, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(table, "\n"), "\n")
	// series numbered from 1, as in messages; the CSV's series column from 0
	// (then the evidence of the points that are not steady)
	if len(lines) < 1+4+1 || !strings.HasPrefix(lines[0], "                load  accepted (phits/node/cycle)  latency (cycles)  runs") ||
		!strings.HasPrefix(lines[1], "series 1 (MIN)  0.1 ") || !strings.HasPrefix(lines[4], "series 2 (VAL)  0.2 ") ||
		!strings.Contains(lines[1], " ± ") || !strings.Contains(lines[5], "95% confidence interval") {
		t.Errorf("table:\n%s", table)
	}
	for _, c := range []struct {
		tty   bool
		extra []string
	}{{false, nil}, {true, []string{"-csv"}}} {
		code, out, _ := cli(t, c.tty, append(args, c.extra...)...)
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if code != 0 || err != nil || len(rows) != 5 || rows[0][0] != "series" || rows[1][0] != "0" || rows[3][0] != "1" || rows[3][1] != "VAL" {
			t.Errorf("tty %v %v: exit %d, %v, CSV %q", c.tty, c.extra, code, err, out)
		}
	}
	prefix := filepath.Join(t.TempDir(), "s")
	code, out, errOut := cli(t, false, append(args, "-out", prefix)...)
	if code != 0 || !strings.HasPrefix(out, "                load") || !strings.Contains(errOut, "wrote "+prefix+".json and "+prefix+".csv") {
		t.Errorf("-out: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, ext := range []string{".json", ".csv"} {
		if _, err := os.Stat(prefix + ext); err != nil {
			t.Error(err)
		}
	}
	// -out failing: both files go to the temporary folder, exit 1
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	code, _, errOut = cli(t, false, append(args, "-out", filepath.Join(tmp, "no", "s"))...)
	files, _ := filepath.Glob(filepath.Join(tmp, "phitsim-*"))
	if code != 1 || len(files) != 2 || strings.Count(errOut, "could not write") != 2 {
		t.Errorf("-out failing: exit %d, files %v, stderr %q", code, files, errOut)
	}
	// each failure reported once, naming where its data is
	for _, f := range files {
		if strings.Count(errOut, f) != 1 {
			t.Errorf("%s named %d times in stderr %q", f, strings.Count(errOut, f), errOut)
		}
	}
}

// The real binary: -h exits 0, a bad flag 2, and version shows the commit
// it was built from.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "phitsim")
	if b, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	status := func(args ...string) (int, string) {
		b, err := exec.Command(bin, args...).CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(b)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(b)
	}
	if code, out := status("run", "-h"); code != 0 || !strings.Contains(out, "Usage: phitsim run") {
		t.Errorf("run -h: exit %d\n%s", code, out)
	}
	if code, _ := status("run", "-bogus"); code != 2 {
		t.Errorf("run -bogus: exit %d", code)
	}
	code, out := status("version")
	if code != 0 {
		t.Fatalf("version: exit %d", code)
	}
	// what the toolchain stamped (nothing in a git worktree, where .git is a file)
	meta, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	_, rev, stamped := strings.Cut(string(meta), "vcs.revision=")
	if !stamped {
		if !strings.Contains(out, "unknown revision") {
			t.Errorf("no revision stamped, but version says:\n%s", out)
		}
		t.Logf("no VCS information in this build:\n%s", out)
		return
	}
	rev, _, _ = strings.Cut(rev, "\n")
	if !strings.Contains(out, "revision "+strings.TrimSpace(rev)) {
		t.Errorf("version does not name the stamped revision %s:\n%s", rev, out)
	}
	if head, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil && strings.TrimSpace(string(head)) != strings.TrimSpace(rev) {
		t.Errorf("stamped revision %s, HEAD %s", rev, head)
	}
}

func TestTwoDigits(t *testing.T) {
	for x, want := range map[float64]string{0.000494: "0.00049", 3.94: "3.9", 0.05: "0.050", 13087: "13000",
		99.7: "100", 145.4: "150", 0: "0", math.Inf(1): "+Inf"} {
		if got := twoDigits(x); got != want {
			t.Errorf("twoDigits(%g) = %s, want %s", x, got, want)
		}
	}
}

// Request-reply traffic shows the accepted load of each; a Graph500
// parameter sweep's table is over the parameter, with the execution time.
func TestSummaryRequestReplyAndGraph500Table(t *testing.T) {
	_, out, _ := cli(t, true, append([]string{"run", "-set", "traffic.reactive=true"}, tiny...)...)
	if !strings.Contains(out, "    requests ") || !strings.Contains(out, "    replies ") {
		t.Errorf("request-reply summary:\n%s", out)
	}
	code, out, errOut := cli(t, true, "sweep", "-preset", "graph500-h2", "-set", "workload.scale=10", "-seeds", "2",
		"-param", "workload.tq", "-values", "1,4")
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) < 3 || !strings.HasPrefix(lines[0], "                        workload.tq  accepted") ||
		!strings.Contains(lines[0], "execution (ms)") || !strings.HasPrefix(lines[2], "series 1 (graph500-h2)  4 ") {
		t.Errorf("exit %d, table:\n%s%s", code, out, errOut)
	}
}
