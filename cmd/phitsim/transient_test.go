package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"phitsim/engine/sweep"
)

// The settle summary of a transient sweep: one row per point with the
// misrouted share before and settled, the settle time, the swing, the
// oscillation period and the latency before the switch and at the end.
func TestSettleTableRows(t *testing.T) {
	settle, period := 30.0, 380.0
	tr := sweep.Transient{Series: 2, Name: "Base", X: 0.2, Runs: 4, From: -20, Bin: 10,
		Packets: []int64{10, 10, 10}, Latency: []float64{140, 142, 260}, Misrouted: []float64{0, 0, 84},
		Settling: sweep.Settling{Before: 0.1, Settled: 84.3, Band: 5, Settle: &settle, Swing: 30.9, Period: &period, PeriodCorr: 0.31}}
	never := tr
	never.Name, never.Settle, never.Period = "PB", nil, nil
	var b bytes.Buffer
	printSettleTable(&b, []sweep.Transient{tr, never})
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"series 3 (Base) 0.2 0.1 → 84.3 ± 5.0 30 30.9 380 (autocorrelation 0.31) 141 → 181 4",
		"series 3 (PB) 0.2 0.1 → 84.3 ± 5.0 never 30.9 none 141 → 181 4",
	}
	for i, w := range want {
		if got := strings.Join(strings.Fields(lines[i+2]), " "); got != w {
			t.Errorf("row %d: %q, want %q", i, got, w)
		}
	}
	b.Reset()
	printSettleTable(&b, nil)
	if b.Len() != 0 {
		t.Errorf("no transient: %q, want nothing", b.String())
	}
}

// small shrinks a named experiment for a test: h=4 with one seed and a few
// hundred cycles.
var small = []string{"-set", "sim.seeds=1", "-set", "sim.warmup=300", "-set", "sim.cycles=600", "-j", "2"}

// 'sweep -experiment thesis-fig4.8' writes the time series around the
// switch: with -transient as CSV on stdout (a row per 10-cycle bin per
// series, from 100 cycles before the switch), with -out into
// PREFIX-transient.csv beside the curves; at a terminal the summary.
func TestSweepTransientExperiment(t *testing.T) {
	args := append([]string{"sweep", "-experiment", "thesis-fig4.8", "-set", "traffic.switchCycle=200"}, small...)
	args = append(args, "-set", "sim.cycles=1000")
	code, out, errOut := cli(t, false, append(args, "-transient")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(sweep.TransientCSVHeader, ",") {
		t.Fatalf("header %v", rows[0])
	}
	names := map[string]int{}
	for _, r := range rows[1:] {
		names[r[1]]++
		if r[3] == "-100" && names[r[1]] != 1 {
			t.Errorf("%s: the first bin (−100) is row %d of the series", r[1], names[r[1]])
		}
	}
	for _, n := range []string{"PB", "OLM", "Base", "Filtered", "Hybrid"} {
		// the record spans −100…+800 less the bins within the longest latency of the end
		if names[n] < 20 || names[n] > 85 {
			t.Errorf("%s: %d rows, want 20…85", n, names[n])
		}
	}
	dir := t.TempDir()
	prefix := filepath.Join(dir, "f48")
	code, out, errOut = cli(t, true, append(args, "-out", prefix)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if b, err := os.ReadFile(prefix + "-transient.csv"); err != nil || !bytes.HasPrefix(b, []byte("series,name,x,cycle")) {
		t.Errorf("%s-transient.csv: %v, %.40q", prefix, err, b)
	}
	for _, want := range []string{"misrouted before → settled", "settles after (cycles)", "series 3 (Base)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal's summary lacks %q:\n%s", want, out)
		}
	}
	// a sweep without a switch has no time series to write
	code, _, errOut = cli(t, false, "sweep", "-preset", "h2", "-loads", "0.1", "-set", "sim.warmup=100", "-set", "sim.cycles=100", "-set", "sim.seeds=1", "-transient")
	if code == 0 || !strings.Contains(errOut, "traffic.switchCycle") {
		t.Errorf("-transient without a switch: exit %d, %q", code, errOut)
	}
}

// A named experiment over another parameter than the load (Fig. 4.7's share
// of ADV+1, tied to UN's) sweeps that parameter from the command line.
func TestSweepExperimentOverAParameter(t *testing.T) {
	code, out, errOut := cli(t, false, append([]string{"sweep", "-experiment", "thesis-fig4.7", "-set", "sim.warmup=100", "-set", "sim.cycles=100"}, small[:2]...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	xs := map[string]bool{}
	for _, r := range rows[1:] {
		if r[col["param"]] != "traffic.mixADV" {
			t.Fatalf("row %v: param %q", r, r[col["param"]])
		}
		xs[r[col["x"]]] = true
	}
	mix, err := sweep.ExperimentByName("thesis-fig4.7")
	if err != nil {
		t.Fatal(err)
	}
	n := len(mix.Spec.Series)
	if len(rows) != 1+n*len(sweep.MixShares) || len(xs) != len(sweep.MixShares) {
		t.Errorf("%d rows over %d values of traffic.mixADV, want %d over %d", len(rows)-1, len(xs), n*len(sweep.MixShares), len(sweep.MixShares))
	}
	// its x is not the load: -loads is refused, naming what it sweeps
	code, _, errOut = cli(t, false, "sweep", "-experiment", "thesis-fig4.7", "-loads", "0.3")
	if code != 1 || !strings.Contains(errOut, "sweeps traffic.mixADV") || !strings.Contains(errOut, "-set traffic.load") {
		t.Errorf("-loads with thesis-fig4.7: exit %d, %q", code, errOut)
	}
	code, out, _ = cli(t, false, "experiments")
	if code != 0 || !strings.Contains(out, "thesis-fig4.7") || !strings.Contains(out, "6 values of traffic.mixADV") ||
		!strings.Contains(out, "6 series × 1 load, time series around a pattern switch") {
		t.Errorf("experiments: exit %d\n%s", code, out)
	}
}
