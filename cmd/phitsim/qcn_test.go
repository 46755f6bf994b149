package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// The QCN-Switch reaction summary (QCN-Switch paper Figs. 10, 12): one row
// per point in 20-µs bins, the latency's settling in cycles and µs (20-ns
// cycles of the ethernet-h4 preset) and the mean probability of the
// mid-group router's port toward S_out after the first bin; nothing
// without a QCN-Switch series.
func TestQCNReactionRows(t *testing.T) {
	c, err := config.PresetByName("ethernet-h4")
	if err != nil {
		t.Fatal(err)
	}
	c.Name, c.Routing.Name, c.Traffic.Load = "QCN-Switch", "QCN_SWITCH", 0.4
	// 100 cycles before the switch at 100, then 2,000 cycles: 300 in the
	// first 1,000, 100 in the second
	tr := sweep.Transient{Name: "QCN-Switch", X: 0.4, Runs: 1, From: -100, Bin: 10}
	for i := 0; i < 210; i++ {
		lat := 100.0
		if i >= 10 && i < 110 {
			lat = 300
		}
		tr.Packets, tr.Latency, tr.Misrouted = append(tr.Packets, 10), append(tr.Latency, lat), append(tr.Misrouted, 0)
	}
	_, mid, port, err := sweep.SOut(c)
	if err != nil {
		t.Fatal(err)
	}
	ports := 11 // h=4: 7 local + 4 global transit ports
	snap := func(v float32) []float32 {
		s := make([]float32, 8*ports)
		s[mid*ports+port] = v
		return s
	}
	r := &result.Result{Config: c, Transient: &result.Transient{Probabilities: &result.PortProbabilities{
		From: -1000, Every: 1000, Ports: ports, Values: [][]float32{snap(100), snap(50), snap(4), snap(8)}}}}
	oc := &sweep.Outcome{Runs: []*result.Result{r}, Transients: []sweep.Transient{tr}}
	checkQCNRow(t, printQCNReactions, oc, r, "series 1 (QCN-Switch) 0.4 100 → 100 1000 cycles (20 µs) +100% 0.0 → 0.0 6.0")
}

// Group 0's injection under ADV+1 (QCN-Switch paper Figs. 7, 9): each
// router's packets over the group's mean and S_out's (router 7 at h=4)
// deficit below the others' mean; nothing without QCN-Switch.
func TestQCNGroup0Rows(t *testing.T) {
	c, err := config.PresetByName("ethernet-h4")
	if err != nil {
		t.Fatal(err)
	}
	c.Name, c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "QCN-SWin", "QCN_SWITCH", "ADV", 0.4
	r := &result.Result{Config: c, Seed: 1}
	r.Fairness.PerRouter = []int64{100, 100, 100, 100, 100, 100, 100, 30, 999}
	oc := &sweep.Outcome{Runs: []*result.Result{r}}
	checkQCNRow(t, printQCNGroup0, oc, r, "QCN-SWin 0.4 1 [1.10 1.10 1.10 1.10 1.10 1.10 1.10 0.33] 70.0% —")
	// the probability trace of a steady run (10,000 + 10,000 cycles): the
	// mid-group router 4's port toward S_out (router 7) is transit port 6
	// of 11; the snapshots after the warm-up average 4.9%, 3% at the end
	sOut, mid, port, _ := sweep.SOut(c)
	if sOut != 7 || mid != 4 || port != 6 {
		t.Fatalf("S_out %d, mid %d, port %d", sOut, mid, port)
	}
	pp := &result.PortProbabilities{From: 1000, Every: 1000, Ports: 11}
	for i := 1; i <= 20; i++ {
		v := make([]float32, 8*11)
		v[mid*11+port], v[mid*11+port+1] = 100, 50
		if i > 10 {
			v[mid*11+port] = float32(4 + 2*(i%2)) // 6 at 11, 4 at 12, …
		}
		pp.Values = append(pp.Values, v)
	}
	pp.Values[19][mid*11+port] = 3
	r.Config.Routing.Name, r.SeriesProbabilities = "QCN_SWITCH", pp
	checkQCNRow(t, printQCNGroup0, oc, r, "QCN-SWin 0.4 1 [1.10 1.10 1.10 1.10 1.10 1.10 1.10 0.33] 70.0% 4.9, 3.0")
}

// checkQCNRow checks the first row under print's header (its fields
// joined by one space), and that print writes nothing once run r is PB's.
func checkQCNRow(t *testing.T, print func(io.Writer, *sweep.Outcome), oc *sweep.Outcome, r *result.Result, want string) {
	t.Helper()
	var b bytes.Buffer
	print(&b, oc)
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 3 || strings.Join(strings.Fields(lines[2]), " ") != want {
		t.Errorf("%q\nwant row %q", b.String(), want)
	}
	r.Config.Routing.Name = "PB"
	b.Reset()
	print(&b, oc)
	if b.Len() != 0 {
		t.Errorf("no QCN-Switch series: %q, want nothing", b.String())
	}
}

// phitsim validate accepts a QCN-Switch option that another option rules
// out (QCN-Switch paper §3.2.1: source processing needs input sampling) and
// says so in a note naming both fields; with input sampling, no note.
func TestValidateNotesUnappliedQCNOption(t *testing.T) {
	set := []string{"validate", "-preset", "ethernet-h4", "-set", "routing.name=QCN_SWITCH", "-set", "routing.qcnSourceProcessing=true"}
	code, out, _ := cli(t, false, set...)
	if code != 0 || !strings.Contains(out, "note: routing.qcnSourceProcessing = true: does not apply") ||
		!strings.Contains(out, "routing.qcnSampling=input") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = cli(t, false, append(set, "-set", "routing.qcnSampling=input")...)
	if code != 0 || strings.Contains(out, "note:") {
		t.Errorf("input sampling: exit %d:\n%s", code, out)
	}
}

// A metric some runs leave out (QCN's CNM latency before the first
// delivery) is the mean of the runs that report it, not diluted by zeros;
// one only a later run reports is shown too.
func TestMechanismRowsMeanOverReportingRuns(t *testing.T) {
	runs := []*result.Result{
		{Mechanisms: map[string]map[string]float64{"qcn": {"cnmSent": 4}}},
		{Mechanisms: map[string]map[string]float64{"qcn": {"cnmSent": 6, "cnmMeanLatency": 30}}},
		{Mechanisms: map[string]map[string]float64{"qcn": {"cnmSent": 8, "cnmMeanLatency": 50}}},
	}
	got := map[string]string{}
	var order []string
	mechanismRows(func(k, v, _ string) { got[k] = v; order = append(order, k) }, runs)
	if got["qcn cnmSent"] != "6" || got["qcn cnmMeanLatency"] != "40" || len(order) != 2 || order[0] != "qcn cnmMeanLatency" {
		t.Fatalf("rows %v in order %v", got, order)
	}
}
