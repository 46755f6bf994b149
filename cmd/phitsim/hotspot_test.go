package main

import (
	"strings"
	"testing"
)

// HOTSPOT's classes in what the CLI shows (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-A plots the background
// class; Fig. 14 the bandwidth of each sender): the run summary's class rows
// and per-sender rows, the sweep table's background columns and the CSV's.
// The 16-node flattened butterfly, Fig. 2's senders, 2,000 + 4,000 cycles.
func TestHotspotClassesShown(t *testing.T) {
	base := []string{"-preset", "fbfly16", "-set", "traffic.pattern=HOTSPOT", "-set", "traffic.hotspotNode=4",
		"-set", "traffic.hotspotSenders=0,5,8,12", "-set", "sim.warmup=2000", "-set", "sim.cycles=4000", "-seeds", "1"}
	code, out, e := cli(t, true, append([]string{"run", "-set", "traffic.load=0.2"}, base...)...)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, e)
	}
	for _, want := range []string{"background accepted", "background latency", "hotspot accepted", "into node 4",
		"from sender 0", "from sender 5", "from sender 8", "from sender 12"} {
		if !strings.Contains(out, want) {
			t.Errorf("run summary without %q:\n%s", want, out)
		}
	}
	code, out, e = cli(t, true, append([]string{"sweep", "-loads", "0.1,0.2"}, base...)...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, e)
	}
	if !strings.Contains(out, "background accepted") || !strings.Contains(out, "background latency") {
		t.Errorf("sweep table without the background class:\n%s", out)
	}
	code, out, e = cli(t, false, append([]string{"sweep", "-loads", "0.1"}, base...)...)
	if code != 0 {
		t.Fatalf("sweep -csv: exit %d: %s", code, e)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "bg_accepted") || strings.Count(lines[0], ",") != strings.Count(lines[1], ",") {
		t.Errorf("CSV without the background class, or rows of another width:\n%s", out)
	}
	// no class rows for other traffic
	if _, out, _ := cli(t, true, "run", "-preset", "fbfly16", "-set", "sim.warmup=500", "-set", "sim.cycles=500", "-seeds", "1"); strings.Contains(out, "background") {
		t.Errorf("UN run summary with a background class:\n%s", out)
	}
}
