package sim

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestCallgrindQCN is costs.sh's probe (TestCallgrindWindow) on the
// QCN-Switch paper's Table I system at h=4 (100-byte phits, qcnConfig), with
// its CNMs flowing: PHITSIM_COST_QCN="<routing> <pattern> <load> [clock]
// [rp]" warms up 20,000 cycles and measures 4,000, under the command
// costs.sh gives valgrind with this test's name (BENCHMARKS.md,
// "QCN-Switch"); rp turns the reaction points on.
func TestCallgrindQCN(t *testing.T) {
	spec := strings.Fields(os.Getenv("PHITSIM_COST_QCN"))
	if len(spec) == 0 {
		t.Skip(`PHITSIM_COST_QCN="<routing> <pattern> <load> [clock] [rp]" runs the callgrind cost probe on the Table I system`)
	}
	if len(spec) < 3 {
		t.Fatalf("PHITSIM_COST_QCN=%q: want routing, pattern, load", os.Getenv("PHITSIM_COST_QCN"))
	}
	load, err := strconv.ParseFloat(spec[2], 64)
	if err != nil {
		t.Fatal(err)
	}
	c := qcnConfig(4, 0, 100000000)
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = spec[0], spec[1], load
	if len(spec) > 3 && c.Routing.Name == "QCN_SWITCH" {
		c.Routing.QcnClock = spec[3]
	}
	if len(spec) > 4 && spec[4] == "rp" {
		c.Routing.QcnReactionPoints = true
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20000; i++ {
		s.Step()
	}
	sent := s.qcnSent()
	t.Logf("hops %d", costWindow(s, 4000))
	t.Logf("cnms %d", s.qcnSent()-sent)
}

// qcnSent is the number of CNMs sent so far (0 without QCN-Switch).
func (s *Sim) qcnSent() int64 {
	if s.qc == nil {
		return 0
	}
	sent, _, _ := s.controlPackets(s.qc.id)
	return sent
}
