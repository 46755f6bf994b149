package main

import (
	"strings"
	"testing"
)

// SRP under UR1–UR2 in what the CLI shows (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks Fig. 5b): the run summary's
// UR1 and UR2 rows and SRP's shares, the CSV's last columns. The 16-node
// flattened butterfly, 2,000 + 4,000 cycles.
func TestSRPAndUR1UR2Shown(t *testing.T) {
	base := []string{"-preset", "fbfly16", "-set", "traffic.pattern=UR1UR2", "-set", "congestion.scheme=srp",
		"-set", "traffic.sourceQueue=true", "-set", "traffic.sourceQueues=perDestination", "-set", "traffic.messagePackets=4",
		"-set", "sim.warmup=2000", "-set", "sim.cycles=4000", "-seeds", "1"}
	code, out, e := cli(t, true, append([]string{"run", "-set", "traffic.load=0.4"}, base...)...)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, e)
	}
	for _, want := range []string{"UR1 accepted", "UR1 latency", "UR2 accepted", "UR2 latency", "srp speculativeShare", "srp droppedShare"} {
		if !strings.Contains(out, want) {
			t.Errorf("run summary without %q:\n%s", want, out)
		}
	}
	code, out, e = cli(t, false, append([]string{"sweep", "-loads", "0.4"}, base...)...)
	if code != 0 {
		t.Fatalf("sweep -csv: exit %d: %s", code, e)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "srp_speculative,srp_dropped,ur1_accepted,ur1_latency,ur2_accepted,ur2_latency") ||
		strings.Count(lines[0], ",") != strings.Count(lines[1], ",") || strings.HasSuffix(lines[1], ",,,,,,") {
		t.Errorf("CSV without SRP's and the classes' columns at the end, or rows of another width:\n%s", out)
	}
}

// The sweep's table at a terminal shows what Kim et al.'s Figs. 5b and 8c
// plot, UR1's latency against its load, and SRP's shares (§V-B: ≈ 15% of
// speculative packets dropped at UR1 0.6), as the CSV's last columns do.
func TestSweepTableShowsClassesAndSRP(t *testing.T) {
	code, out, e := cli(t, true, "sweep", "-loads", "0.4", "-preset", "fbfly16", "-set", "traffic.pattern=UR1UR2",
		"-series", "congestion.scheme=none,srp", "-set", "traffic.sourceQueue=true", "-set", "traffic.sourceQueues=perDestination",
		"-set", "traffic.messagePackets=4", "-set", "sim.warmup=2000", "-set", "sim.cycles=4000", "-seeds", "1")
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, e)
	}
	lines := strings.Split(out, "\n")
	for _, want := range []string{"UR1 accepted", "UR1 latency (cycles)", "UR2 latency (cycles)", "speculative (%)", "dropped (% of speculative)"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("table header without %q:\n%s", want, out)
		}
	}
	// the Baseline's row leaves SRP's cells empty; SRP's has its shares
	if len(lines) < 3 || strings.Count(lines[1], "%") != 0 || len(strings.Fields(lines[2])) <= len(strings.Fields(lines[1])) {
		t.Errorf("rows:\n%s", out)
	}
}
