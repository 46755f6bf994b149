package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI's side of the configuration decoder's errors: a file with a key
// given twice, or malformed, is refused before anything runs, with the
// file's name, the key's path or the position, and nothing is written.

func writeConfig(t *testing.T, doc string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestConfigFileWithADuplicatedKeyIsRefused(t *testing.T) {
	f := writeConfig(t, "{\n  \"traffic\": {\"load\": 0.1, \"load\": 0.2},\n  \"sim\": {\"warmup\": 100, \"cycles\": 100}\n}\n")
	for _, cmd := range []struct {
		name string
		run  func(args []string, out *bytes.Buffer) error
	}{
		{"run", func(a []string, out *bytes.Buffer) error {
			return cmdRun(context.Background(), a, env{stdout: out, stderr: io.Discard})
		}},
		{"validate", func(a []string, out *bytes.Buffer) error { return cmdValidate(a, env{stdout: out, stderr: io.Discard}) }},
	} {
		var out bytes.Buffer
		err := cmd.run([]string{"-config", f, "-set", "topology.h=1"}, &out)
		if err == nil {
			t.Fatalf("%s accepted a duplicated key", cmd.name)
		}
		msg := err.Error() + out.String()
		for _, want := range []string{f, "traffic.load", "duplicate key", "line 2, column 28"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q does not say %q", cmd.name, msg, want)
			}
		}
		if cmd.name == "run" && out.Len() > 0 {
			t.Errorf("run wrote a result: %.200s", out.String())
		}
	}
}

func TestMalformedConfigFileGivesLineAndColumn(t *testing.T) {
	f := writeConfig(t, "{\n  \"traffic\": {\n    \"load\": 0.1,}\n}\n")
	var out bytes.Buffer
	err := cmdRun(context.Background(), []string{"-config", f}, env{stdout: &out, stderr: io.Discard})
	if err == nil {
		t.Fatal("a malformed file ran")
	}
	for _, want := range []string{f, "line 3, column 17", "invalid character '}'"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if out.Len() > 0 {
		t.Errorf("wrote a result: %.200s", out.String())
	}
}

// Regression: graph500-h2 with 1-byte phits at 100,000 Gb/s and 10⁶-ns
// latencies validated, then the simulator asked for 824 GB and the process
// died. The CLI now refuses it naming the ns fields.
func TestGraph500NsLatenciesBeyondTheCycleFieldsAreRefused(t *testing.T) {
	var out bytes.Buffer
	err := cmdRun(context.Background(), []string{"-preset", "graph500-h2", "-set", "workload.phitBytes=1",
		"-set", "workload.linkGbps=100000", "-set", "workload.queryBytes=1", "-set", "workload.localNs=1000000",
		"-set", "workload.globalNs=1000000", "-set", "workload.routerNs=1000000"}, env{stdout: &out, stderr: io.Discard})
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"workload.localNs", "workload.globalNs", "workload.routerNs", "at most 8 ns"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}

// Regression: workload.tq=0 (instant nodes) gave p_inj = +Inf, and the
// finished run was lost at output ("json: unsupported value: +Inf").
func TestGraph500WithInstantNodesWritesItsResult(t *testing.T) {
	f := filepath.Join(t.TempDir(), "out.json")
	var out bytes.Buffer
	err := cmdRun(context.Background(), []string{"-preset", "graph500-h2", "-set", "workload.tq=0",
		"-set", "workload.scale=8", "-seeds", "1", "-out", f}, env{stdout: &out, stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Graph500 struct {
				Pinj, PinjRaw float64
			}
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("result %v: %.300s", err, data)
	}
	if len(doc.Runs) != 1 || doc.Runs[0].Graph500.Pinj != 1 || doc.Runs[0].Graph500.PinjRaw != math.MaxFloat64 {
		t.Errorf("runs %+v, want one with p_inj clamped to 1 and its raw value unbounded", doc.Runs)
	}
}
