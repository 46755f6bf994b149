package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"phitsim/engine/result"
)

// RECN's own results in the run summary (Duato et al., "A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks", Fig. 4: the SAQs allocated; §3.6: no packet
// out of order), and the baselines' out-of-order count (§4.3: 4Q's sender
// picks any of 4 queues): corner case 1 on the 64-host fat tree with the
// hotspot from cycle 1,000 to 5,000 of 8,000, each row the JSON's value.
func TestRECNSummaryRows(t *testing.T) {
	short := []string{"-set", "traffic.hotspotStart=1000", "-set", "traffic.hotspotEnd=5000", "-set", "sim.cycles=8000"}
	out := filepath.Join(t.TempDir(), "r.json")
	code, sum, e := cli(t, true, append([]string{"run", "-preset", "recn-case1-recn", "-out", out}, short...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	var doc struct{ Runs []*result.Result }
	b, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Runs) != 1 || doc.Runs[0].RECN == nil {
		t.Fatalf("%v: %d runs", err, len(doc.Runs))
	}
	r := doc.Runs[0].RECN
	if r.PeakIngress == 0 || r.PeakTotal == 0 {
		t.Fatalf("no SAQ allocated: %+v", r)
	}
	// the window starts within the first 10-µs bin: no mean before it
	if strings.Contains(sum, "NaN") || !strings.Contains(sum, "– before the hotspot") {
		t.Errorf("throughput before the hotspot:\n%s", sum)
	}
	for _, want := range []string{
		fmt.Sprintf(`RECN SAQs, most at an ingress side +%d `, r.PeakIngress),
		fmt.Sprintf(`RECN SAQs, most at an egress side +%d `, r.PeakEgress),
		fmt.Sprintf(`RECN SAQs, most in the network +%d `, r.PeakTotal),
		fmt.Sprintf(`RECN notifications +%d `, r.Notified),
		`out of order +0 packets`,
	} {
		if !regexp.MustCompile(want).MatchString(sum) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	code, sum, e = cli(t, true, append([]string{"run", "-preset", "recn-case1-4q", "-json"}, short...)...)
	if code != 0 {
		t.Fatalf("4q: exit %d: %s", code, e)
	}
	doc.Runs = nil
	if err := json.Unmarshal([]byte(sum), &doc); err != nil || len(doc.Runs) != 1 || doc.Runs[0].Order == nil {
		t.Fatalf("4q: %v", err)
	}
	o := doc.Runs[0].Order
	if want := fmt.Sprintf(`out of order +%d packets \(%d source–destination pairs\)`, o.OutOfOrder, o.Pairs); o.OutOfOrder == 0 || !regexp.MustCompile(want).MatchString(e) {
		t.Errorf("4q: %+v; summary lacks %q:\n%s", o, want, e)
	}
}

// The sweep's table at a terminal gives what the RECN paper's Fig. 2 plots,
// the throughput against time around the hotspot window, as each series'
// mean throughput before, during and after it and its lowest bin from the
// start (the runs' result.Throughput in 10-µs bins, result.MeanRate), for
// IQ and RECN in corner case 1 with the window at 20–40 µs of 80 µs.
func TestSweepTableThroughputAroundWindow(t *testing.T) {
	prefix := filepath.Join(t.TempDir(), "w")
	code, out, e := cli(t, true, "sweep", "-preset", "recn-case1", "-preset", "recn-case1-recn", "-loads", "0.5",
		"-set", "traffic.hotspotStart=2500", "-set", "traffic.hotspotEnd=5000", "-set", "sim.cycles=10000", "-out", prefix)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	var doc struct{ Runs []*result.Result }
	b, err := os.ReadFile(prefix + ".json")
	if err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Runs) != 2 {
		t.Fatalf("%v: %d runs", err, len(doc.Runs))
	}
	if !strings.Contains(out, "throughput around the hotspot window (bytes/ns, all hosts") {
		t.Fatalf("no throughput table:\n%s", out)
	}
	for i, r := range doc.Runs {
		rates, err := r.Throughput(10e3)
		if err != nil {
			t.Fatal(err)
		}
		low := rates[2].BytesPerNs // bins of 10 µs: the window is bins 2 and 3
		for _, x := range rates[2:] {
			low = min(low, x.BytesPerNs)
		}
		want := fmt.Sprintf(`series %d \(%s\) +0\.5 +%.1f +%.1f \(20 µs–40 µs\) +%.1f +%.1f`, i+1, regexp.QuoteMeta(r.Config.Name),
			result.MeanRate(rates, 0, 20e3), result.MeanRate(rates, 20e3, 40e3), result.MeanRate(rates, 40e3, 80e3+1), low)
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no row %q:\n%s", want, out)
		}
	}
}
