package sim

import (
	"context"
	"strings"
	"testing"

	"phitsim/engine/result"
)

// TestParallelQCNCasesExercised: the QCN-Switch configurations of
// TestParallelBitIdentical are partitioned and send notifications across
// the network (QCN-Switch paper §2–3: CNMs from congestion points to the
// victims' source routers, processed there; §3.2.1's source processing,
// the reaction points' cuts), or the bit-identity test would not check the
// notifications crossing the cut, the per-partition counts (the CNMs
// dropped at a full control injection input among them) and the hooks
// bound to each partition.
func TestParallelQCNCasesExercised(t *testing.T) {
	n := 0
	for _, gc := range parallelCases() {
		if !strings.Contains(gc.name, "QCN/") {
			continue
		}
		n++
		r := partitionedRun(t, gc)
		if r == nil {
			continue
		}
		q := r.Mechanisms["qcn"]
		sets := strings.Join(gc.sets, " ")
		switch {
		case q["cnmDelivered"] < 15 || q["cnmProcessed"] < q["cnmDelivered"]:
			t.Errorf("%s: %v CNMs delivered, %v processed", gc.name, q["cnmDelivered"], q["cnmProcessed"])
		case strings.Contains(sets, "Rule=cut") && q["sourceCuts"] == 0,
			strings.Contains(sets, "ReactionPoints=true") && q["rpCuts"] == 0,
			strings.Contains(sets, "injectionBuffer=16") && q["cnmDropped"] == 0:
			t.Errorf("%s: no source-processing cut, reaction-point cut or dropped CNM: %v", gc.name, q)
		case strings.Contains(sets, "switchCycle") && (r.Transient == nil || r.Transient.Probabilities == nil || len(r.Transient.Probabilities.Values) < 5):
			t.Errorf("%s: the transient record has no probabilities' trace", gc.name)
		}
	}
	if n < 5 {
		t.Errorf("%d QCN-Switch configurations, want at least 5", n)
	}
}

// partitionedRun runs gc sequentially (one thread) and returns its result,
// after checking that the partitioned engine covers it (nil, and an error,
// when it does not).
func partitionedRun(t *testing.T, gc goldenCase) *result.Result {
	t.Helper()
	s, err := New(parallelConfig(t, gc), 1)
	if err != nil {
		t.Fatal(err)
	}
	if why := s.parallelBlocker(); why != "" {
		t.Errorf("%s: runs sequentially: %s", gc.name, why)
		return nil
	}
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
