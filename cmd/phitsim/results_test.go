package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The experiment from the command line: sim.histMax = 1,000,000 over
// 20 loads × 1,000 seeds keeps up to 149 GiB of results. 'phitsim sweep'
// and 'phitsim run' refuse it before running anything (no progress bar, no
// output file), naming sim.histMax and how far to lower it.
func TestResultsThatCannotFitAreRefusedBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "out")
	// short runs: were the check broken, the runs would end soon
	set := []string{"-preset", "h2", "-set", "sim.histMax=1000000", "-set", "sim.seeds=1000", "-set", "sim.warmup=0", "-set", "sim.cycles=100"}
	for _, args := range [][]string{
		append([]string{"sweep", "-loads", "0.05:1:0.05", "-out", prefix}, set...),
		append([]string{"run", "-out", prefix + ".json"}, set...),
	} {
		code, out, errOut := cli(t, false, args...)
		if code == 0 || out != "" || !strings.Contains(errOut, "sim.histMax = 1000000: the experiment's ") ||
			!strings.Contains(errOut, "lower sim.histMax to ") || strings.Contains(errOut, "%") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args[0], code, out, errOut)
		}
		if args[0] == "sweep" && !strings.Contains(errOut, "20000 runs keep up to 149.") {
			t.Errorf("sweep: %s", errOut)
		}
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("refused runs wrote %d files", len(files))
	}
}
