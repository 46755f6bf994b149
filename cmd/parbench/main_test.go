package main

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"phitsim/engine/result"
)

// TestTableInBenchmarks: the table parbench prints is the one
// engine/BENCHMARKS.md has ("Speed-up and parallel efficiency, 1–16
// threads"): its header and rule are there, as printed.
func TestTableInBenchmarks(t *testing.T) {
	b, err := os.ReadFile("../../engine/BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(Header)) {
		t.Errorf("engine/BENCHMARKS.md has no table headed\n%s", Header)
	}
}

// small is the recipe's measurement at 1 and 2 threads on the 1,056-node
// Dragonfly for 100 + 300 cycles, one round: what this 2-core machine can
// run (the full recipe's 4, 8 and 16 threads need that many cores).
var small = []string{"-nets", "h4", "-threads", "1,2", "-rounds", "1", "-warmup", "100", "-cycles", "300"}

// TestParbench: the recipe at 1 and 2 threads prints the machine and a
// row per thread count in the table's format, the 1-thread row the base
// (speed-up 1.00, 100 %), the 2-thread row's document identical.
func TestParbench(t *testing.T) {
	var out bytes.Buffer
	if err := run(small, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.HasPrefix(s, "Machine: ") || !strings.Contains(s, "\n\n"+Header) {
		t.Fatalf("no machine line and table header:\n%s", s)
	}
	row := regexp.MustCompile(`(?m)^\| h4 \(1,056 nodes\), MIN, UN 0\.4, 100 \+ 300 \| ([12]) \| [0-9.]+ s \| [0-9.]+ s \| ([0-9.]+) \| ([0-9]+) % \| [0-9.]+ s \| [0-9]+ CPUs[^|]* \|$`)
	rows := row.FindAllStringSubmatch(s, -1)
	if len(rows) != 2 || rows[0][1] != "1" || rows[1][1] != "2" {
		t.Fatalf("want the rows of 1 and 2 threads, got %d:\n%s", len(rows), s)
	}
	if rows[0][2] != "1.00" || rows[0][3] != "100" {
		t.Errorf("the 1-thread row: speed-up %s, efficiency %s %%; want 1.00 and 100", rows[0][2], rows[0][3])
	}
	if !strings.Contains(rows[1][0], "document identical") {
		t.Errorf("the 2-thread row does not say its document is the 1-thread run's: %s", rows[1][0])
	}
}

// TestParbenchChecks: a speed-up is reported only for the same simulation
// — a 2-thread result that differs from the 1-thread one, or a run the
// engine keeps sequential (PB under FOGSim's idle updates), stops it with
// an error; so do thread lists without 1 first.
func TestParbenchChecks(t *testing.T) {
	perturb = func(threads int, r *result.Result) {
		if threads == 2 {
			r.Accepted += 1e-9
		}
	}
	err := run(small, io.Discard, io.Discard)
	perturb = nil
	if err == nil || !strings.Contains(err.Error(), "differs from the 1-thread run's") {
		t.Errorf("a 2-thread result that differs: %v", err)
	}
	seq := append(append([]string(nil), small...), "-set", "routing.name=PB", "-set", "router.idleUpdates=fogsim")
	if err := run(seq, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "ran it sequentially") {
		t.Errorf("PB under FOGSim's idle updates: %v", err)
	}
	for _, bad := range []string{"2,4", "1,2,1", "1,x"} {
		if err := run([]string{"-threads", bad}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "-threads") {
			t.Errorf("-threads %s: %v", bad, err)
		}
	}
}
