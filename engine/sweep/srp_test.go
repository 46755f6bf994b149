package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"slices"
	"strconv"
	"testing"

	"phitsim/engine/config"
)

// SRP under UR1–UR2 (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks Fig. 5b, the 16-node network, short runs): each
// point carries SRP's speculative and dropped shares and the UR1 and UR2
// classes over the seeds, and the CSV ends with their columns — the
// speculative share in (0, 1], UR2 accepting its 0.9 — while a Baseline
// series in the same sweep has empty SRP cells.
func TestSRPSharesAndGroupsInAggregateAndCSV(t *testing.T) {
	var series []config.Config
	for _, e := range cmExperiments() {
		if e.Name == "srp-fig5b" {
			// the curves: Baseline(MIN), Baseline(UGAL), SRP(MIN), SRP(UGAL)
			series = []config.Config{e.Spec.Series[0], e.Spec.Series[2]}
		}
	}
	if len(series) != 2 || series[1].Congestion.Scheme != "srp" || series[0].Congestion.Scheme != "" {
		t.Fatalf("srp-fig5b's series: %+v", series)
	}
	for i := range series {
		series[i].Sim.Warmup, series[i].Sim.Cycles, series[i].Sim.Seeds = 2000, 4000, 2
	}
	out, err := Run(context.Background(), Spec{Series: series, Loads: []float64{0.4}}, Options{})
	if err != nil || len(out.Points) != 2 {
		t.Fatalf("run: %v, %d points", err, len(out.Points))
	}
	base, srp := out.Points[0], out.Points[1]
	if base.SRP != nil || srp.SRP == nil || srp.SRP.Speculative.N != 2 || !(srp.SRP.Speculative.Mean > 0 && srp.SRP.Speculative.Mean <= 1) {
		t.Fatalf("SRP shares: Baseline %+v, SRP %+v", base.SRP, srp.SRP)
	}
	for _, p := range out.Points {
		if len(p.Groups) != 2 || p.Groups[0].Name != "UR1" || p.Groups[1].Accepted.Mean < 0.85 {
			t.Fatalf("%s groups %+v", p.Name, p.Groups)
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, out.Points); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]string(nil), CSVSRPHeader...), CSVGroupsHeader...)
	h := rows[0]
	if !slices.Equal(h[len(h)-len(want):], want) {
		t.Fatalf("CSV header ends %v, want %v", h[len(h)-len(want):], want)
	}
	spec := len(h) - len(want)
	if rows[1][spec] != "" {
		t.Errorf("Baseline row's srp_speculative %q, want empty", rows[1][spec])
	}
	near := func(cell string, x float64) bool { // 6 significant digits
		v, err := strconv.ParseFloat(cell, 64)
		return err == nil && math.Abs(v-x) <= 1e-5*math.Abs(x)
	}
	if !near(rows[2][spec], srp.SRP.Speculative.Mean) {
		t.Errorf("SRP row's srp_speculative %q, want %g", rows[2][spec], srp.SRP.Speculative.Mean)
	}
	if !near(rows[2][len(h)-2], srp.Groups[1].Accepted.Mean) {
		t.Errorf("SRP row's ur2_accepted %q, want %g", rows[2][len(h)-2], srp.Groups[1].Accepted.Mean)
	}
}
