package sim

import (
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"testing"
)

var parallelMatrix = flag.Bool("parmatrix", false, "run TestParallelMatrix (e2e TestWasmParallelMatrix runs it natively and compiled to WebAssembly under Node.js)")

// matrixCases is the part of parallelCases (TestParallelBitIdentical's
// table) that TestParallelMatrix runs: the h=2 configurations, without the
// golden set's runs at load 0.3 (the same routings, patterns and mechanisms
// at 0.9), and two for the arbiters that table leaves at their defaults
// (BookSim's rrgrant and rrvc; age and lrs the other way round); every
// routing the partitioned engine covers, every arbiter, Bernoulli and bursty processes, pattern switches, load steps and a
// starting hotspot (transients), request-reply, messages and source
// queues, the contention counters, FlexVC, DAMQ, router.queueing and the
// run-length options.
func matrixCases() []goldenCase {
	var cs []goldenCase
	low := regexp.MustCompile(`^[A-Z_]+/[A-Z]+/0\.3$`)
	for _, gc := range parallelCases() {
		if strings.HasPrefix(gc.name, "h3/") || low.MatchString(gc.name) || gc.name == "graph500" {
			continue
		}
		cs = append(cs, gc)
	}
	return append(cs, goldenCase{"MIN/rrgrant/rrvc", []string{"router.inputArbiter=rrgrant", "router.outputArbiter=rrvc", "traffic.load=0.8"}},
		goldenCase{"UGAL/age/lrs", []string{"routing.name=UGAL", "router.inputArbiter=age", "router.outputArbiter=lrs", "traffic.pattern=ADV", "traffic.load=0.6"}})
}

// TestParallelMatrix: the partitioned runs are bit-identical to the
// sequential one wherever the engine runs — the check of
// TestParallelBitIdentical on matrixCases at 2, 3, 4 and 7 partitions (7
// divides none of the 9 groups evenly), printing a checksum of the
// documents that e2e TestWasmParallelMatrix compares between the native
// build and the WebAssembly one under Node.js (GOMAXPROCS 1 there: the
// partitions' goroutines interleave on one thread). Only with
// -parmatrix: natively TestParallelBitIdentical checks more.
func TestParallelMatrix(t *testing.T) {
	if !*parallelMatrix {
		t.Skip("run with -parmatrix (e2e TestWasmParallelMatrix)")
	}
	h := fnv.New64a()
	covered := 0
	for _, gc := range matrixCases() {
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		if why := s.parallelBlocker(); why != "" {
			// sequential, with a note TestParallelBitIdentical checks:
			// only what the engine does not partition yet
			if !sequentialCase(gc.name) {
				t.Errorf("%s: runs sequentially (%s)", gc.name, why)
			}
			continue
		}
		want, note := runDoc(t, gc, 1)
		if note != "" {
			t.Fatalf("%s: a sequential run carries the note %q", gc.name, note)
		}
		covered++
		for _, n := range []int{2, 3, 4, 7} {
			got, note := runDoc(t, gc, n)
			if note != "" {
				t.Errorf("%s, %d partitions: ran sequentially: %s", gc.name, n, note)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %d partitions: the result document differs from the sequential run's:\n%s", gc.name, n, firstDiff(got, want))
			}
		}
		fmt.Fprintf(h, "%s\n%s\n", gc.name, want)
		one := fnv.New64a()
		one.Write(want)
		fmt.Printf("parallel matrix case %s: checksum %016x\n", gc.name, one.Sum64()) // e2e names the cases that differ
	}
	if covered < 40 {
		t.Errorf("%d configurations covered, want at least 40", covered)
	}
	// e2e reads this line
	fmt.Printf("parallel matrix: %d configurations on 1, 2, 3, 4 and 7 partitions, checksum %016x\n", covered, h.Sum64())
}
