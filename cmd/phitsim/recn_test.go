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
