package main

import (
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// A sweep whose run deadlocks (thesis Fig. 5.6: DAMQ with no reserve) still
// shows every point: the table marks the deadlocked one, the CSV counts its
// deadlocked runs, stderr says where the deadlock is, and the exit status
// is 3. thesis-fig5.6 at h=2 (2,000 + 6,000 cycles, one seed).
func TestSweepShowsADeadlockedPoint(t *testing.T) {
	args := []string{"sweep", "-experiment", "thesis-fig5.6", "-values", "0,100", "-set", "topology.h=2", "-set", "topology.a=4",
		"-set", "topology.p=2", "-set", "sim.warmup=2000", "-set", "sim.cycles=6000", "-set", "sim.seeds=1", "-j", "2"}
	code, out, errOut := cli(t, true, args...)
	if code != 3 {
		t.Fatalf("exit %d, want 3: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	var dead, static string
	for _, l := range lines {
		if strings.HasPrefix(l, "series 1 (DAMQ 2/1)") && strings.Contains(l, " 0 ") {
			dead = l
		}
		if strings.HasPrefix(l, "series 1 (DAMQ 2/1)") && strings.Contains(l, " 100 ") {
			static = l
		}
	}
	if !strings.Contains(dead, "DEADLOCK (1 of 1 runs)") || static == "" || strings.Contains(static, "DEADLOCK") {
		t.Errorf("table:\n%s", out)
	}
	if !strings.Contains(errOut, "some runs stopped on a stuck head") || !strings.Contains(errOut, "router.damqReserve 0 seed 1: deadlock") {
		t.Errorf("stderr: %s", errOut)
	}
	code, out, _ = cli(t, false, args...)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	// the deadlocked_runs column, then the quality columns (sweep.CSVQualityHeader)
	cell := func(row string) string {
		c := strings.Split(row, ",")
		return c[len(c)-len(sweep.CSVQualityHeader)-1]
	}
	if code != 3 || len(rows) != 3 || cell(rows[0]) != "deadlocked_runs" || cell(rows[1]) != "1" || cell(rows[2]) != "0" {
		t.Errorf("csv (exit %d):\n%s", code, out)
	}
}

// A point whose runs stopped on starved heads (result.Deadlock.Reason
// "starvation": the outputs they wait for keep moving, no cycle of waits)
// says STARVATION in the table, apart from a deadlock's DEADLOCK.
func TestSweepTableTellsStarvationFromDeadlock(t *testing.T) {
	c := config.Default()
	run := func(reason string) *result.Result {
		r := &result.Result{Config: c}
		if reason != "" {
			r.Deadlock = &result.Deadlock{Reason: reason}
		}
		return r
	}
	for _, tc := range []struct {
		reasons []string
		want    []string
		not     []string
	}{
		{[]string{"starvation", ""}, []string{"STARVATION (1 of 2 runs)"}, []string{"DEADLOCK"}},
		{[]string{"stuck", "starvation", "watchdog"}, []string{"DEADLOCK (2 of 3 runs)", "STARVATION (1 of 3 runs)"}, nil},
		{[]string{"stuck"}, []string{"DEADLOCK (1 of 1 runs)"}, []string{"STARVATION"}},
	} {
		var runs []*result.Result
		for _, why := range tc.reasons {
			runs = append(runs, run(why))
		}
		var out strings.Builder
		printTable(&out, &sweep.Outcome{Points: []sweep.Aggregate{sweep.AggregateRuns(0, runs)}})
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: the table lacks %q:\n%s", tc.reasons, w, out.String())
			}
		}
		for _, w := range tc.not {
			if strings.Contains(out.String(), w) {
				t.Errorf("%v: the table says %q:\n%s", tc.reasons, w, out.String())
			}
		}
	}
}
