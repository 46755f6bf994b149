package main

import (
	"strings"
	"testing"
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
	if !strings.Contains(errOut, "some runs deadlocked") || !strings.Contains(errOut, "router.damqReserve 0 seed 1: deadlock") {
		t.Errorf("stderr: %s", errOut)
	}
	code, out, _ = cli(t, false, args...)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if code != 3 || len(rows) != 3 || !strings.HasSuffix(rows[0], ",deadlocked_runs") || !strings.HasSuffix(rows[1], ",1") || !strings.HasSuffix(rows[2], ",0") {
		t.Errorf("csv (exit %d):\n%s", code, out)
	}
}
