//go:build !js && !wasip1

package experiment

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"phitsim/engine/sim"
)

// TestMeasureCostRuns measures measuredRuns again and prints them as Go
// literals to paste over the table: each row's run (its job's seed) and
// the h=2 Dragonfly's MIN at 0.5 (quick-un's first run) by turns, five
// times each, user + system CPU (getrusage) around sim.Run, the least of
// each. Skipped unless PHITSIM_MEASURE_COST=1 (PHITSIM_MEASURE_COST=N: N
// runs each; PHITSIM_MEASURE_COST_ONLY=text: only the rows whose fields
// contain text, or one of several texts joined by "|"); it asserts no
// time. Run it alone on a quiet machine:
//
//	PHITSIM_MEASURE_COST=1 go test -run '^TestMeasureCostRuns$' -v ./site/experiment
func TestMeasureCostRuns(t *testing.T) {
	env := os.Getenv("PHITSIM_MEASURE_COST")
	if env == "" {
		t.Skip("PHITSIM_MEASURE_COST=1 measures measuredRuns' CPU times")
	}
	reps := 5
	if n, err := strconv.Atoi(env); err == nil && n > 1 {
		reps = n
	}
	only := os.Getenv("PHITSIM_MEASURE_COST_ONLY") // substrings of the rows to measure, joined by "|"
	ref := measuredJob(t, measuredRun{preset: "quick-un", series: "MIN", x: 0.5})
	for _, m := range append(measuredRuns, extraRuns...) {
		if only != "" && !slices.ContainsFunc(strings.Split(only, "|"), func(o string) bool { return strings.Contains(fmt.Sprint(m), o) }) {
			continue
		}
		j := measuredJob(t, m)
		cpu, refCPU := cpuOfRun(t, j), cpuOfRun(t, ref)
		for range reps - 1 {
			cpu, refCPU = min(cpu, cpuOfRun(t, j)), min(refCPU, cpuOfRun(t, ref))
		}
		fmt.Printf("\t{%q, %q, %v, %q, %.5f, %.5f},\n", m.preset, m.series, m.x, m.set, cpu, refCPU)
	}
}

// extraRuns are rows to measure before they join measuredRuns.
var extraRuns = []measuredRun{}

// cpuOfRun is the user + system CPU seconds of this process over sim.Run
// of j (sim.New outside).
func cpuOfRun(t *testing.T, j Job) float64 {
	t.Helper()
	s, err := sim.New(j.Config, j.Seed)
	if err != nil {
		t.Fatal(err)
	}
	before := cpuSeconds(t)
	if _, err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return cpuSeconds(t) - before
}

// cpuSeconds is the process's user + system CPU time (getrusage).
func cpuSeconds(t *testing.T) float64 {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
