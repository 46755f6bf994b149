package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseLoads(t *testing.T) {
	got, err := parseLoads("0.05,0.1:0.3:0.1")
	if err != nil || !reflect.DeepEqual(got, []float64{0.05, 0.1, 0.2, 0.3}) {
		t.Fatalf("got %v %v", got, err)
	}
	for _, bad := range []string{"", "0.1:0.2", "0.3:0.1:0.1", "0.1:0.2:0", "x", "1.5"} {
		if _, err := parseLoads(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

var tiny = []string{"-preset", "h2", "-set", "sim.warmup=300", "-set", "sim.cycles=300", "-seeds", "2"}

func TestRunWritesPointDocument(t *testing.T) {
	var out bytes.Buffer
	if err := cmdRun(context.Background(), append(tiny, "-set", "traffic.load=0.2"), &out); err != nil {
		t.Fatal(err)
	}
	var doc PointDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 2 || doc.Runs[0].Seed == doc.Runs[1].Seed || doc.Aggregate.Runs != 2 {
		t.Fatalf("runs %d, aggregate %+v", len(doc.Runs), doc.Aggregate)
	}
	if a := doc.Aggregate.Accepted.Mean; a < 0.15 || a > 0.25 {
		t.Errorf("accepted %.3f at load 0.2", a)
	}
}

func TestSweepSeriesAndFiles(t *testing.T) {
	prefix := filepath.Join(t.TempDir(), "s")
	args := append(tiny, "-series", "routing.name=MIN,VAL", "-loads", "0.1,0.2", "-out", prefix)
	if err := cmdSweep(context.Background(), args, os.Stdout); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(prefix + ".csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 1+4 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	if rows[1][1] != "MIN" || rows[3][1] != "VAL" {
		t.Errorf("series names %q %q", rows[1][1], rows[3][1])
	}
	if _, err := os.Stat(prefix + ".json"); err != nil {
		t.Error(err)
	}
}

// A cancelled sweep stops and still writes what finished (here: nothing ran).
func TestSweepCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := cmdSweep(ctx, append(tiny, "-loads", "0.1"), &out)
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Fatalf("err = %v", err)
	}
	if !strings.HasPrefix(out.String(), "series,") {
		t.Errorf("no CSV header written: %q", out.String())
	}
}

func TestValidateListsFieldErrors(t *testing.T) {
	var out bytes.Buffer
	err := cmdValidate([]string{"-preset", "h4", "-set", "routing.name=VAL", "-set", "router.localVCs=2", "-set", "traffic.load=3"}, &out)
	if err == nil || !strings.Contains(out.String(), "router.localVCs = 2") || !strings.Contains(out.String(), "traffic.load = 3") {
		t.Fatalf("err %v, output %q", err, out.String())
	}
	out.Reset()
	if err := cmdValidate([]string{"-preset", "h8"}, &out); err != nil || !strings.Contains(out.String(), "16512 nodes") {
		t.Fatalf("h8: %v %q", err, out.String())
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"router":{"speedup":2,"colour":"red"}}`), 0o644)
	out.Reset()
	if err := cmdValidate([]string{"-config", bad}, &out); err == nil || !strings.Contains(out.String(), "router.colour: unknown field") {
		t.Fatalf("unknown field: %v %q", err, out.String())
	}
}

func TestParamsAndPresetsList(t *testing.T) {
	var out bytes.Buffer
	cmdParams(&out)
	for _, want := range []string{"traffic.load", "routing.acorSequence", "router.creditTiming"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("params lacks %s", want)
		}
	}
	out.Reset()
	cmdPresets(&out)
	if !strings.Contains(out.String(), "h8") {
		t.Error("presets lacks h8")
	}
}
