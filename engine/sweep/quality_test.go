package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// A sweep (h=2 MIN/UN, 2 seeds, 100-cycle intervals) assesses every run and
// point: 0.1 steady, 0.95 saturated, each run with its Quality; the point's
// percentiles come from the pooled histograms and its within-run interval is
// narrower than either run's; the CSV ends with the quality columns, with
// ">N" for a percentile past sim.histMax.
func TestSweepPointsCarryTheirVerdicts(t *testing.T) {
	c, err := config.PresetByName("h2")
	if err != nil {
		t.Fatal(err)
	}
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds, c.Sim.Interval, c.Sim.HistMax = 2000, 2000, 2, 100, 400
	out, err := Run(context.Background(), Spec{Series: []config.Config{c}, Loads: []float64{0.1, 0.95}}, Options{})
	if err != nil || len(out.Points) != 2 {
		t.Fatalf("run: %v, %d points", err, len(out.Points))
	}
	for _, r := range out.Runs {
		if r.Quality == nil || r.Quality.Verdict == "" {
			t.Fatalf("a run without its quality: %+v", r.Quality)
		}
	}
	lo, hi := out.Points[0].Quality, out.Points[1].Quality
	if lo == nil || hi == nil || lo.Verdict != result.Steady || hi.Verdict != result.Saturated || lo.Verdicts[0] != 2 || hi.Verdicts[1] != 2 {
		t.Fatalf("verdicts: %+v / %+v", lo, hi)
	}
	if lo.Latency.CI95 <= 0 || lo.Latency.CI95 >= out.Runs[0].Quality.Latency.CI95 || lo.Latency.CI95 >= out.Runs[1].Quality.Latency.CI95 {
		t.Errorf("point interval ±%g, runs ±%g, ±%g: combining seeds must narrow it", lo.Latency.CI95,
			out.Runs[0].Quality.Latency.CI95, out.Runs[1].Quality.Latency.CI95)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, out.Points); err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(&b).ReadAll()
	at := len(rows[0]) - len(CSVQualityHeader)
	if rows[0][at] != "verdict" || rows[1][at] != "steady" || rows[2][at] != "saturated" {
		t.Fatalf("csv: %v", rows)
	}
	if p999 := rows[2][at+4]; !strings.HasPrefix(p999, ">399") {
		t.Errorf("p99.9 at 0.95 with histMax 400: %q, want >399", p999)
	}
}
