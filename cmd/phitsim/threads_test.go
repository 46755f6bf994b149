package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// 'phitsim run -threads N' splits each run into N partitions of Dragonfly
// groups (engine/PARALLEL.md): the document is the one-thread document (CPU
// time aside); a negative count is refused.
func TestRunThreadsSameResult(t *testing.T) {
	doc := func(threads string) PointDoc {
		code, out, errOut := cli(t, false, append([]string{"run", "-threads", threads}, tiny...)...)
		var d PointDoc
		if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil || len(d.Runs) != 2 {
			t.Fatalf("-threads %s: exit %d, %v, stderr %q", threads, code, err, errOut)
		}
		for _, r := range d.Runs {
			if r.Sequential != "" {
				t.Errorf("-threads %s: ran sequentially: %s", threads, r.Sequential)
			}
			r.CPUSeconds = 0
		}
		return d
	}
	one, err := json.Marshal(doc("1"))
	if err != nil {
		t.Fatal(err)
	}
	three, _ := json.Marshal(doc("3"))
	if string(one) != string(three) {
		t.Errorf("-threads 3 and -threads 1 differ")
	}
	code, _, errOut := cli(t, false, append([]string{"run", "-threads", "-1"}, tiny...)...)
	if code == 0 || !strings.Contains(errOut, "-threads") {
		t.Errorf("-threads -1: exit %d, stderr %q", code, errOut)
	}
}

// sweep and exec share the cores between runs and their threads
// (sweep.Share, engine/PARALLEL.md "Sweeps and Slurm tasks"), and the files
// they write do not depend on the threads: the same sweep (h=2, MIN and VAL
// × 3 loads × 2 seeds, 300 + 300 cycles) and its plan, run with -threads 1
// and -threads 3, write the same JSON and CSV, bit for bit but the runs' CPU
// times. A run whose statistics' copies exceed the partitions' memory
// allowance (sim.histMax=1000000, router.outputBuffer=4096: 8.4 MiB of
// histogram and event wheels a partition, over the 8 MiB cap), which the engine finds
// only once the Sim is built and then runs sequentially with a note, shows
// that the threads reach the runs: its result says so only when a run was
// given more than one thread — by -threads, by the default for a lone run,
// or in a Slurm task by SLURM_CPUS_PER_TASK. ACOR with FOGSim's idle
// updates, which the engine keeps sequential whatever its threads
// (sim.SequentialNote), is given one thread unless -threads asks for more:
// its result then carries no note.
func TestSweepAndPlanThreadsSameFiles(t *testing.T) {
	t.Setenv("SLURM_CPUS_PER_TASK", "") // as outside Slurm, whatever runs the test
	dir := t.TempDir()
	ok := func(args ...string) {
		t.Helper()
		if code, _, errOut := cli(t, true, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	for _, th := range []string{"1", "3"} {
		ok(append(append([]string{"sweep"}, planSweep...), "-threads", th, "-out", filepath.Join(dir, "s"+th))...)
		pdir := filepath.Join(dir, "p"+th)
		ok(append(append([]string{"sweep"}, planSweep...), "-plan", pdir)...)
		ok("exec", "-plan", pdir, "-threads", th, "-parallel", "2")
		ok("merge", "-plan", pdir, "-out", filepath.Join(dir, "m"+th))
	}
	sameFiles(t, filepath.Join(dir, "s1"), filepath.Join(dir, "s3"))
	sameFiles(t, filepath.Join(dir, "m1"), filepath.Join(dir, "m3"))
	sameFiles(t, filepath.Join(dir, "s1"), filepath.Join(dir, "m3"))
	if b, _ := os.ReadFile(filepath.Join(dir, "s3.json")); bytes.Contains(b, []byte(`"sequential"`)) {
		t.Errorf("MIN and VAL ran sequentially under -threads 3")
	}

	// one run whose statistics' copies are too large to partition:
	// "sequential" says it was given threads (on h=4: the default gives a
	// lone run of h=2 one thread, sim.UsefulPartitions)
	acor := []string{"-preset", "h4", "-set", "sim.histMax=1000000", "-set", "router.outputBuffer=4096", "-set", "sim.warmup=300", "-set", "sim.cycles=300", "-seeds", "1", "-loads", "0.4"}
	const note = `"sequential": "a partition's copy of the statistics`
	split := func(file string) bool {
		t.Helper()
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Contains(b, []byte(note))
	}
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-threads", "3"}, true},
		{[]string{"-threads", "1"}, false},
		{nil, runtime.GOMAXPROCS(0) > 1}, // one run alone takes every core
		{[]string{"-j", "1"}, runtime.GOMAXPROCS(0) > 1},
	} {
		out := filepath.Join(dir, "acor")
		ok(append(append(append([]string{"sweep"}, acor...), c.args...), "-out", out)...)
		if got := split(out + ".json"); got != c.want {
			t.Errorf("sweep %v on %d cores: split %v, want %v", c.args, runtime.GOMAXPROCS(0), got, c.want)
		}
	}
	// ACOR under FOGSim's idle updates: one thread by default, -threads 3
	// as given (and its note)
	fog := append([]string{"sweep", "-preset", "h4", "-set", "routing.name=ACOR", "-set", "router.idleUpdates=fogsim"}, acor[6:]...)
	for _, c := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"-threads", "3"}, true}} {
		out := filepath.Join(dir, "acor-fogsim")
		ok(append(append(fog, c.args...), "-out", out)...)
		b, err := os.ReadFile(out + ".json")
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(b, []byte(`"sequential": "router.idleUpdates=fogsim`)); got != c.want {
			t.Errorf("ACOR under FOGSim's idle updates, sweep %v: given threads %v, want %v", c.args, got, c.want)
		}
	}
	if runtime.GOMAXPROCS(0) > 1 { // and exec on 3 CPUs gives it one
		pdir := filepath.Join(dir, "acor-fogsim-plan")
		ok(append(fog, "-plan", pdir)...)
		ok("exec", "-plan", pdir, "-cpus", "3")
		ok("merge", "-plan", pdir, "-out", pdir)
		if b, _ := os.ReadFile(pdir + ".json"); bytes.Contains(b, []byte(`"sequential"`)) {
			t.Errorf("ACOR under FOGSim's idle updates, exec -cpus 3: given threads")
		}
	}
	// on h=2 the default gives a lone run one thread (sim.UsefulPartitions:
	// its partitions' windows are less work than a barrier), -threads 3
	// still three
	h2 := append([]string{"sweep", "-preset", "h2"}, acor[2:]...)
	for _, c := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"-threads", "3"}, true}} {
		out := filepath.Join(dir, "acor-h2")
		ok(append(append(h2, c.args...), "-out", out)...)
		if got := split(out + ".json"); got != c.want {
			t.Errorf("h=2 sweep %v: split %v, want %v", c.args, got, c.want)
		}
	}
	// exec: -threads, -cpus, and a Slurm task's CPUs
	for i, c := range []struct {
		slurm string
		args  []string
		want  bool
	}{
		{"", []string{"-threads", "3"}, true},
		{"", []string{"-cpus", "3"}, true},
		{"", []string{"-cpus", "1"}, false},
		{"3", nil, true},
		{"1", nil, false},
		{"1", []string{"-cpus", "2"}, true}, // -cpus wins
	} {
		t.Setenv("SLURM_CPUS_PER_TASK", c.slurm)
		pdir := filepath.Join(dir, fmt.Sprintf("acor%d", i))
		ok(append(append([]string{"sweep"}, acor...), "-plan", pdir)...)
		ok(append([]string{"exec", "-plan", pdir}, c.args...)...)
		ok("merge", "-plan", pdir, "-out", pdir)
		if got := split(pdir + ".json"); got != c.want {
			t.Errorf("exec %v, SLURM_CPUS_PER_TASK=%q: split %v, want %v", c.args, c.slurm, got, c.want)
		}
	}
	// bad counts name what is wrong
	t.Setenv("SLURM_CPUS_PER_TASK", "none")
	if code, _, errOut := cli(t, true, "exec", "-plan", filepath.Join(dir, "p1")); code == 0 || !strings.Contains(errOut, "SLURM_CPUS_PER_TASK") {
		t.Errorf("SLURM_CPUS_PER_TASK=none: exit %d: %s", code, errOut)
	}
	t.Setenv("SLURM_CPUS_PER_TASK", "")
	for _, bad := range [][]string{{"exec", "-plan", filepath.Join(dir, "p1"), "-cpus", "-1"}, append(append([]string{"sweep"}, acor...), "-threads", "-2")} {
		if code, _, errOut := cli(t, true, bad...); code == 0 || !strings.Contains(errOut, bad[len(bad)-2]) {
			t.Errorf("%v: exit %d: %s", bad, code, errOut)
		}
	}
}
