//go:build race

package sim

import (
	"bytes"
	"testing"
)

// raceCases name the configurations of parallelCases that TestParallelRace
// runs under the race detector: one for each kind of state the partitions
// split (engine/PARALLEL.md's table) — the routers' queues and arbiters,
// the contention counters and ECtN's and PB's broadcasts, DAMQ and FlexVC,
// the VOQ input stage, the per-destination and bounded admittance queues,
// the out-of-order counters, HOTSPOT's senders and a starting hotspot,
// request-reply, bursty sources, a load step, sim.precision's barrier, and
// ECN's, Ideal's and CBCM's instances per partition (parallel_mech.go;
// CBCM under router.voq and on the plain layout), SRP's (its NACKs' queues
// per router), the reaction points' streams per node (parallel_srp.go),
// RECN's (its wheels, its sides stepped by their partitions, the busy words
// two partitions' hosts share; recn_parallel.go) and a Graph500 job's
// copies, raises and decisions (parallel_graph500.go).
var raceCases = []string{
	"UGAL/ADV/0.9", "PAR/ectn/ADV", "PB/ectn/ADV", "PAR/damq/flexVC/UN", "MIN/voqnet/perDestination",
	"UGAL/admittance", "PAR/iq/order", "UGAL/HOTSPOT/start", "OLM/reactive", "MIN/bursty",
	"UGAL/switchLoad", "UGAL/precision", "ECN/UGAL/HOTSPOT/UN", "Ideal/UGAL/HOTSPOT/UN",
	"fbfly2D/CBCM/UGAL/HOTSPOT", "CBCM/MIN/HOTSPOT", "CBCM/UGAL/HOTSPOT/early/weighted", "fbfly2D/CBCM/UGAL/HOTSPOT/early",
	"SRP/MIN/HOTSPOT/UN", "QCN/rp/jitter", // parallel_srp_test.go
	"recn/case2/admittance", "recn/drain", "recn/queueing", "snap/recn/case2",
	"graph500/VAL/level/compute/spread/background",
}

// TestParallelRace (only in a -race build; test.sh runs it): the
// partitioned runs of raceCases on 4 partitions (uneven: 9 groups) with the
// race detector, which fails the test on any unsynchronised access of two
// partitions' goroutines to the same memory; the documents must still be
// the sequential ones.
func TestParallelRace(t *testing.T) {
	byName := map[string]goldenCase{}
	for _, gc := range parallelCases() {
		byName[gc.name] = gc
	}
	for _, name := range raceCases {
		gc, ok := byName[name]
		if !ok {
			t.Fatalf("%s: not in parallelCases", name)
		}
		want, _ := runDoc(t, gc, 1)
		got, note := runDoc(t, gc, 4)
		if note != "" {
			t.Errorf("%s: ran sequentially: %s", name, note)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s, 4 partitions: the result document differs from the sequential run's:\n%s", name, firstDiff(got, want))
		}
	}
}
