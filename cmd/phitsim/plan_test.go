package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// planSweep: h=2, MIN and VAL × 3 loads × 2 seeds, 300 + 300 cycles.
var planSweep = []string{"-preset", "h2", "-set", "sim.warmup=300", "-set", "sim.cycles=300", "-seeds", "2",
	"-series", "routing.name=MIN,VAL", "-loads", "0.1,0.3,0.5"}

// cpuSeconds is the one field of a run that is not the simulation's (the
// CPU time it took): two executions of the same run differ there only.
var cpuSeconds = regexp.MustCompile(`"cpuSeconds": [^,\n]*`)

func maskCPU(b []byte) []byte { return cpuSeconds.ReplaceAll(b, []byte(`"cpuSeconds": 0`)) }

// sameFiles compares two -out PREFIXes: the CSV bit for bit, the JSON bit
// for bit but each run's CPU time.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	for _, ext := range []string{".csv", ".json"} {
		x, err := os.ReadFile(a + ext)
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(b + ext)
		if err != nil {
			t.Fatal(err)
		}
		if ext == ".json" {
			if n := len(cpuSeconds.FindAll(x, -1)); n == 0 {
				t.Fatalf("%s has no cpuSeconds to mask", a+ext)
			}
			x, y = maskCPU(x), maskCPU(y)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s and %s differ", a+ext, b+ext)
		}
	}
}

// sweep … -plan, exec in 3 slices, merge -out writes what sweep -out
// writes (h=2, 2 routings × 3 loads × 2 seeds, 600 cycles): the CSV bit for
// bit, the JSON bit for bit but the runs' CPU times; and merge prints the
// sweep's table.
func TestPlanExecMergeIsTheSweep(t *testing.T) {
	dir := t.TempDir()
	code, table, errOut := cli(t, true, append(append([]string{"sweep"}, planSweep...), "-out", filepath.Join(dir, "s"))...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	pdir := filepath.Join(dir, "plan")
	if code, _, errOut := cli(t, true, append(append([]string{"sweep"}, planSweep...), "-plan", pdir)...); code != 0 || !strings.Contains(errOut, "planned 12 runs") {
		t.Fatalf("sweep -plan: exit %d: %s", code, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Join(pdir, "runs")); len(entries) != 0 {
		t.Fatalf("-plan ran %d runs", len(entries))
	}
	for _, task := range []string{"2", "0", "1"} {
		if code, _, errOut := cli(t, true, "exec", "-plan", pdir, "-task", task, "-tasks", "3", "-parallel", "2"); code != 0 || !strings.Contains(errOut, "4 runs, 0 already finished, 4 run now") {
			t.Fatalf("exec -task %s: exit %d: %s", task, code, errOut)
		}
	}
	code, mtable, errOut := cli(t, true, "merge", "-plan", pdir, "-out", filepath.Join(dir, "m"))
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	sameFiles(t, filepath.Join(dir, "s"), filepath.Join(dir, "m"))
	if mtable != table {
		t.Errorf("merge's table:\n%s\nsweep's:\n%s", mtable, table)
	}
	// and into a pipe, the CSV
	_, csv, _ := cli(t, false, "merge", "-plan", pdir)
	if want, _ := os.ReadFile(filepath.Join(dir, "s.csv")); csv != string(want) {
		t.Errorf("merge's CSV on stdout:\n%s", csv)
	}
}

// Merge lists the runs not finished and writes nothing (exit 1), unless
// -partial; -out with -plan is refused (nothing runs).
func TestMergeMissingRuns(t *testing.T) {
	dir := t.TempDir()
	pdir := filepath.Join(dir, "plan")
	if code, _, errOut := cli(t, true, append(append([]string{"sweep"}, planSweep...), "-plan", pdir, "-out", "x")...); code != 1 || !strings.Contains(errOut, "-plan runs nothing") {
		t.Errorf("sweep -plan -out: exit %d: %s", code, errOut)
	}
	cli(t, true, append(append([]string{"sweep"}, planSweep...), "-plan", pdir)...)
	if code, _, errOut := cli(t, true, "exec", "-plan", pdir, "-task", "1", "-tasks", "2"); code != 0 {
		t.Fatalf("exec: exit %d: %s", code, errOut)
	}
	code, _, errOut := cli(t, true, "merge", "-plan", pdir, "-out", filepath.Join(dir, "m"))
	if code != 1 || !strings.Contains(errOut, "6 of 12 runs not finished") || !strings.Contains(errOut, "run 4 (series 1 (MIN), load 0.5, seed 1, id ") ||
		!strings.Contains(errOut, "6 runs missing: nothing written") {
		t.Errorf("merge: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("merge wrote with runs missing: %v", err)
	}
	code, out, errOut := cli(t, false, "merge", "-plan", pdir, "-partial")
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(rows) != 7 || !strings.Contains(rows[1], ",MIN,0.1,1,") {
		t.Errorf("merge -partial: exit %d: %s\n%s", code, out, errOut)
	}
	// a plan folder that is not one
	if code, _, errOut := cli(t, true, "exec", "-plan", dir); code != 1 || !strings.Contains(errOut, filepath.Join(dir, "plan.json")+": no plan here") {
		t.Errorf("exec on no plan: exit %d: %s", code, errOut)
	}
}

// A plan of runs that deadlock (thesis Fig. 5.6: DAMQ with no reserve, at
// h=2, 2,000 + 6,000 cycles) keeps them as sweep does: exec exits 3 with
// the runs written, and merge is the sweep's.
func TestExecKeepsDeadlockedRuns(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-experiment", "thesis-fig5.6", "-values", "0,100", "-set", "topology.h=2", "-set", "topology.a=4",
		"-set", "topology.p=2", "-set", "sim.warmup=2000", "-set", "sim.cycles=6000", "-set", "sim.seeds=1"}
	if code, _, errOut := cli(t, true, append(append([]string{"sweep"}, args...), "-out", filepath.Join(dir, "s"))...); code != 3 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	pdir := filepath.Join(dir, "plan")
	cli(t, true, append(append([]string{"sweep"}, args...), "-plan", pdir)...)
	code, _, errOut := cli(t, true, "exec", "-plan", pdir)
	if code != 3 || !strings.Contains(errOut, "deadlocked (kept) run 0 (series 1 (DAMQ 2/1), router.damqReserve 0") || !strings.Contains(errOut, "they are kept") {
		t.Fatalf("exec: exit %d: %s", code, errOut)
	}
	if code, _, errOut := cli(t, true, "merge", "-plan", pdir, "-out", filepath.Join(dir, "m")); code != 0 || !strings.Contains(errOut, "1 runs stopped on a stuck head") {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	sameFiles(t, filepath.Join(dir, "s"), filepath.Join(dir, "m"))
}

// buildBinary builds phitsim into a temporary folder.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "phitsim")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return bin
}

// exitCode is a finished command's exit status.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// finishedRuns lists the ids of the runs a log names as finished.
var finishedRun = regexp.MustCompile(`(?m)^finished run \d+ \(.*, id ([0-9a-f]+)\)`)

// An exec killed mid-run (SIGKILL) loses only the runs in progress: exec
// again runs only the missing runs (its log names them, and the files of
// the others keep their times), and the merged result is the sweep's
// (h=2, 2 routings × 3 loads × 2 seeds of 10,000 + 10,000 cycles, one run
// at a time).
func TestExecResumesAfterSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs 12 runs of 20,000 cycles twice")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	sw := []string{"sweep", "-preset", "h2", "-set", "sim.warmup=10000", "-set", "sim.cycles=10000", "-seeds", "2",
		"-series", "routing.name=MIN,VAL", "-loads", "0.1,0.3,0.5"}
	pdir := filepath.Join(dir, "plan")
	if b, err := exec.Command(bin, append(sw, "-plan", pdir)...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	cmd := exec.Command(bin, "exec", "-plan", pdir, "-parallel", "1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	n := 0
	for n < 3 && sc.Scan() {
		if finishedRun.MatchString(sc.Text()) {
			n++
		}
	}
	if n < 3 {
		t.Fatalf("exec ended after %d runs", n)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || cmd.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("exec was not killed: %v (all 12 runs finished before the kill?)", err)
	}
	// the runs written before the kill, and their times
	runs := filepath.Join(pdir, "runs")
	before := map[string]time.Time{}
	entries, _ := os.ReadDir(runs)
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".msgpack"); ok {
			info, _ := e.Info()
			before[id] = info.ModTime()
		}
	}
	if len(before) < 3 || len(before) == 12 {
		t.Fatalf("%d runs written before the kill", len(before))
	}
	var log bytes.Buffer
	again := exec.Command(bin, "exec", "-plan", pdir, "-parallel", "2")
	again.Stderr = &log
	if code := exitCode(t, again.Run()); code != 0 {
		t.Fatalf("exec again: exit %d: %s", code, log.String())
	}
	ran := finishedRun.FindAllStringSubmatch(log.String(), -1)
	if len(ran) != 12-len(before) || !strings.Contains(log.String(), "12 runs, "+strconv.Itoa(len(before))+" already finished") {
		t.Errorf("%d runs before the kill; exec again ran %d:\n%s", len(before), len(ran), log.String())
	}
	for _, m := range ran {
		if _, ok := before[m[1]]; ok {
			t.Errorf("run %s ran again", m[1])
		}
	}
	for id, mt := range before {
		info, err := os.Stat(filepath.Join(runs, id+".msgpack"))
		if err != nil || !info.ModTime().Equal(mt) {
			t.Errorf("run %s rewritten: %v", id, err)
		}
	}
	if b, err := exec.Command(bin, "merge", "-plan", pdir, "-out", filepath.Join(dir, "m")).CombinedOutput(); err != nil {
		t.Fatalf("merge: %v: %s", err, b)
	}
	if b, err := exec.Command(bin, append(sw, "-out", filepath.Join(dir, "s"))...).CombinedOutput(); err != nil {
		t.Fatalf("sweep: %v: %s", err, b)
	}
	sameFiles(t, filepath.Join(dir, "s"), filepath.Join(dir, "m"))
}

// Ctrl-C stops exec (exit 130) and says how to resume: the run that
// finished is kept, nothing else is written, and exec again runs only the
// three left (engine/plan's TestExecLosesOnlyTheRunInProgress stops a run
// midway).
func TestExecInterrupted(t *testing.T) {
	pdir := filepath.Join(t.TempDir(), "plan")
	if code, _, errOut := cli(t, true, append([]string{"sweep", "-seeds", "2", "-loads", "0.1,0.2", "-plan", pdir}, long...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, _, errOut := interruptAfterFirstRun(t, false, "exec", "-plan", pdir, "-parallel", "1")
	if code != 130 || !strings.Contains(errOut, "task 0 of 1: 4 runs, 0 already finished, 1 run now, 0 failed") ||
		!strings.Contains(errOut, "phitsim: interrupted: the runs in progress are lost; 'phitsim exec -plan "+pdir+"' again resumes") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Join(pdir, "runs")); len(entries) != 1 {
		t.Errorf("%d files in runs/ after the interrupt, want 1", len(entries))
	}
	if code, _, errOut := cli(t, false, "exec", "-plan", pdir, "-parallel", "2"); code != 0 || !strings.Contains(errOut, "4 runs, 1 already finished, 3 run now") {
		t.Errorf("exec again: exit %d: %s", code, errOut)
	}
}

// Under sim.precision, sweep … -plan, exec as 2 tasks (each resumed until
// merge finds nothing missing) and merge -out write what sweep -out writes:
// the seeds the points add are the same (the h2 preset, MIN/UN, 1,000 +
// 1,000 cycles in 50-cycle intervals, ±3% with windows not extended, 2
// seeds, loads 0.1 and 0.2: 10 runs; engine/METHODS.md "Precision-driven
// length").
func TestPlanWithPrecisionIsTheSweep(t *testing.T) {
	dir := t.TempDir()
	sw := []string{"-preset", "h2", "-set", "sim.warmup=1000", "-set", "sim.cycles=1000", "-set", "sim.interval=50",
		"-set", "sim.precision=0.03", "-set", "sim.maxCycles=1000", "-seeds", "2", "-loads", "0.1,0.2"}
	if code, _, errOut := cli(t, true, append(append([]string{"sweep"}, sw...), "-out", filepath.Join(dir, "s"))...); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	pdir := filepath.Join(dir, "plan")
	if code, _, errOut := cli(t, true, append(append([]string{"sweep"}, sw...), "-plan", pdir)...); code != 0 || !strings.Contains(errOut, "planned 4 runs") || !strings.Contains(errOut, "sim.precision: a point short of it") {
		t.Fatalf("sweep -plan: exit %d: %s", code, errOut)
	}
	for round := 0; ; round++ {
		code, _, errOut := cli(t, true, "merge", "-plan", pdir, "-out", filepath.Join(dir, "m"))
		if code == 0 {
			break
		}
		if round == 10 || !strings.Contains(errOut, "runs missing") {
			t.Fatalf("merge after %d execs: exit %d: %s", round, code, errOut)
		}
		if code, _, errOut := cli(t, true, "exec", "-plan", pdir, "-task", strconv.Itoa(round%2), "-tasks", "2", "-parallel", "2"); code != 0 {
			t.Fatalf("exec: exit %d: %s", code, errOut)
		}
	}
	sameFiles(t, filepath.Join(dir, "s"), filepath.Join(dir, "m"))
	var doc struct{ Runs []json.RawMessage }
	if b, err := os.ReadFile(filepath.Join(dir, "m.json")); err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Runs) <= 4 {
		t.Errorf("merged %d runs (%v), want more than the 4 planned", len(doc.Runs), err)
	}
	t.Logf("%d runs, as sweep -out", len(doc.Runs))
}
