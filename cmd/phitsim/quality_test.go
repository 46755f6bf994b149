package main

import (
	"strings"
	"testing"
)

// The run summary prints the point's verdict with its evidence, the
// latency percentiles (">N" past sim.histMax), the link summary and
// Jain's index; the sweep table notes a point that is not steady, and
// prints its evidence below.
func TestSummaryPrintsTheVerdictAndTail(t *testing.T) {
	base := []string{"-preset", "h2", "-set", "sim.interval=100", "-set", "sim.warmup=2000", "-set", "sim.cycles=2000", "-set", "sim.histMax=300"}
	code, out, errOut := cli(t, true, append(append([]string{"run"}, base...), "-set", "traffic.load=0.85", "-seeds", "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"verdict: unstable (runs: 1 unstable): queued packets grow", "latency p50/p90/p99/p99.9", ">299", "link utilisation", "Jain's index", "within-run 95% CI"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary without %q:\n%s", want, out)
		}
	}
	code, out, errOut = cli(t, true, append(append([]string{"sweep"}, base...), "-loads", "0.85", "-seeds", "1")...)
	if code != 0 || !strings.Contains(out, "series 1 load 0.85: unstable: queued packets grow by") {
		t.Errorf("sweep table (exit %d) without the verdict and its evidence:\n%s%s", code, out, errOut)
	}
}
