package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"phitsim/engine/figures"
	"phitsim/engine/result"
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
	if !strings.Contains(out, "on router-to-router links") || strings.Contains(out, "on link links") {
		t.Errorf("the flattened butterfly's link class:\n%s", out)
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

// The sweep table gives each hotspot sender's accepted bandwidth at a
// terminal, what Kim et al.'s Fig. 14 plots (node 8 on the hotspot's
// router against nodes 0–2 one hop away): a column of "sender: phits/cycle"
// per point, the JSON's hotspot.senderAccepted; a hotspot of more than 8
// senders (the RECN paper's 16) leaves it to the JSON.
func TestSweepTablePerSender(t *testing.T) {
	base := []string{"sweep", "-loads", "0.1", "-preset", "fbfly16", "-set", "traffic.pattern=HOTSPOT", "-set", "traffic.hotspotNode=9",
		"-set", "traffic.hotspotSenders=0,1,2,8", "-set", "sim.warmup=2000", "-set", "sim.cycles=4000", "-seeds", "1"}
	prefix := filepath.Join(t.TempDir(), "s")
	code, out, e := cli(t, true, append(base, "-out", prefix)...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, e)
	}
	var doc struct {
		Points []struct {
			Hotspot struct {
				Senders        []int32
				SenderAccepted []float64
			}
		}
	}
	b, err := os.ReadFile(prefix + ".json")
	if err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Points) != 1 || len(doc.Points[0].Hotspot.Senders) != 4 {
		t.Fatalf("%v: %+v", err, doc)
	}
	h := doc.Points[0].Hotspot
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "accepted per sender (phits/cycle)") {
		t.Errorf("header: %s", lines[0])
	}
	var cells []string
	for i, s := range h.Senders {
		cells = append(cells, fmt.Sprintf("%d: %.3f", s, h.SenderAccepted[i]))
	}
	if want := strings.Join(cells, ", "); !strings.Contains(lines[1], want) {
		t.Errorf("row without %q:\n%s", want, out)
	}
	// 9 senders: no column
	code, out, _ = cli(t, true, append(base[:len(base)-6], "-set", "traffic.hotspotSenders=0,1,2,3,4,5,6,7,8", "-set", "traffic.hotspotNode=15",
		"-set", "sim.warmup=2000", "-set", "sim.cycles=4000")...)
	if code != 0 || strings.Contains(out, "per sender") {
		t.Errorf("9 senders: exit %d\n%s", code, out)
	}
}

// A hotspot that starts during the run (Kim et al. Figs. 11 and 13: the
// background's latency per interval around the start) gets a line in the
// run summary: the background's latency before the start, its peak and
// when it is back within figures.BgSettleFactor of it, the JSON's
// hotspot.series pooled as the page's chart pools it
// (figures.PoolBackground). Fig. 1(c)'s senders 0–3 → node 4 from cycle
// 20,000 over UR 0.4 on the 16-node flattened butterfly, 1,000-cycle
// intervals.
func TestRunSummaryBackgroundAroundHotspotStart(t *testing.T) {
	args := []string{"run", "-preset", "fbfly16", "-set", "traffic.pattern=HOTSPOT", "-set", "traffic.hotspotNode=4",
		"-set", "traffic.hotspotSenders=0,1,2,3", "-set", "traffic.hotspotStart=20000", "-set", "sim.warmup=10000",
		"-set", "sim.cycles=40000", "-set", "sim.interval=1000", "-set", "traffic.load=0.4", "-seeds", "1", "-json"}
	code, out, sum := cli(t, true, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, sum)
	}
	var doc struct{ Runs []*result.Result }
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatal(err)
	}
	c, ok := figures.PoolBackground(doc.Runs)
	if !ok {
		t.Fatal("no background per interval")
	}
	peak, at := 0.0, 0.0
	for i, l := range c.Latency {
		if c.Cycle[i] > 0 && l > peak {
			peak, at = l, c.Cycle[i]
		}
	}
	want := fmt.Sprintf("background latency around the hotspot's start (cycle 20000, per 1000-cycle interval): %.1f cycles before, peak %.1f in the interval ending %.0f cycles after", c.Before(), peak, at)
	if !strings.Contains(sum, want) {
		t.Errorf("summary lacks %q:\n%s", want, sum)
	}
}
