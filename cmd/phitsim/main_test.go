package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/plan"
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
	if err := cmdRun(context.Background(), append(tiny, "-set", "traffic.load=0.2"), env{stdout: &out, stderr: io.Discard}); err != nil {
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
	if err := cmdSweep(context.Background(), args, env{stdout: io.Discard, stderr: io.Discard}); err != nil {
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

// A cancelled sweep stops; what finished is written (here nothing ran: the
// runs are longer than the 1,024 cycles between the simulator's checks of
// the context, so a run that started stops too).
func TestSweepCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := cmdSweep(ctx, []string{"-preset", "h2", "-set", "sim.warmup=1000", "-set", "sim.cycles=1000", "-loads", "0.1"},
		env{stdout: &out, stderr: io.Discard})
	if !errors.Is(err, errInterrupted) || err.Error() != "interrupted: no run finished" {
		t.Fatalf("err = %v", err)
	}
	if out.Len() > 0 {
		t.Errorf("wrote %q", out.String())
	}
}

func TestValidateListsFieldErrors(t *testing.T) {
	var out bytes.Buffer
	err := cmdValidate([]string{"-preset", "h4", "-set", "routing.name=VAL", "-set", "router.localVCs=2", "-set", "traffic.load=3"}, env{stdout: &out, stderr: io.Discard})
	if err == nil || !strings.Contains(out.String(), "router.localVCs = 2") || !strings.Contains(out.String(), "traffic.load = 3") {
		t.Fatalf("err %v, output %q", err, out.String())
	}
	out.Reset()
	if err := cmdValidate([]string{"-preset", "h8"}, env{stdout: &out, stderr: io.Discard}); err != nil || !strings.Contains(out.String(), "16512 nodes") {
		t.Fatalf("h8: %v %q", err, out.String())
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"router":{"speedup":2,"colour":"red"}}`), 0o644)
	out.Reset()
	if err := cmdValidate([]string{"-config", bad}, env{stdout: &out, stderr: io.Discard}); err == nil || !strings.Contains(out.String(), "router.colour: unknown field") {
		t.Fatalf("unknown field: %v %q", err, out.String())
	}
}

func TestParamsAndPresetsList(t *testing.T) {
	var out bytes.Buffer
	cmdParams(&out)
	// integer ranges as integers: what -set accepts, not 1e+08
	for _, want := range []string{"traffic.load", "routing.acorSequence", "router.creditTiming", "[1, 100000000]; cycles",
		"FOGSim's model: fogsim"} {
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

// validate lists every problem of a file and of the -set overrides together:
// unknown fields, wrong types (with the value and the allowed range), -set
// paths that name no parameter (with what was probably meant), -set values
// that do not parse, and Validate's range and enum errors.
func TestValidateListsFileAndSetErrorsTogether(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	doc := `{"bogus": 1, "topology": {"h": 0}, "traffic": {"load": "high", "pattern": "XX"}}`
	if err := os.WriteFile(bad, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := cmdValidate([]string{"-config", bad, "-set", "traffic.lod=0.3", "-set", "topology.p=four",
		"-set", "routing=MIN", "-set", "sim.cycles=0"}, env{stdout: &out, stderr: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "bad.json: 8 invalid field(s)") {
		t.Errorf("err = %v", err)
	}
	for _, want := range []string{
		"bogus: unknown field",
		`traffic.load = "high": wrong type: expected a number in [0, 1], got a string`,
		"topology.h = 0: must be in [1, 32]",
		"traffic.pattern = XX: must be one of UN,",
		"traffic.lod = 0.3: unknown parameter; did you mean traffic.load?",
		"topology.p = four: must be a whole number in [1, 64]",
		"routing = MIN: unknown parameter; routing is a section",
		"sim.cycles = 0: must be in [1,",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// run refuses the same way, with the same list
	err = cmdRun(context.Background(), []string{"-preset", "h2", "-set", "h=4", "-set", "traffic.load=lots"}, env{stdout: &out, stderr: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "h = 4: unknown parameter; did you mean topology.h?") ||
		!strings.Contains(err.Error(), "traffic.load = lots: must be a number in [0, 1]") {
		t.Errorf("run: %v", err)
	}
	for _, kv := range []string{"traffic.load", "=0.3"} {
		if err := cmdValidate([]string{"-set", kv}, env{stdout: &out, stderr: io.Discard}); err == nil || !strings.Contains(err.Error(), "expected path=value") {
			t.Errorf("-set %q: %v", kv, err)
		}
	}
}

// presets names each preset's network by its own kind and sizing fields:
// the flattened butterflies of Kim et al. ("Contention-based Congestion
// Management in Large-Scale Networks" §V-A: 16 nodes on 4 routers, 512 on
// 8×8) and the RECN paper's fat trees (§4.1: 4-ary 3-tree), not the
// Dragonfly's unused h, a, p.
func TestPresetsNameTheirTopology(t *testing.T) {
	var out bytes.Buffer
	if err := cmdPresets(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	second := map[string]string{} // preset → its summary line
	for i := 0; i+1 < len(lines); i++ {
		if f := strings.Fields(lines[i]); len(f) > 0 && !strings.HasPrefix(lines[i], " ") {
			second[f[0]] = lines[i+1]
		}
	}
	for name, want := range map[string]string{
		"h8":              "Dragonfly h=8 a=16 p=8, MIN, UN",
		"mesh":            "2D mesh p=1 width=4 height=4, MIN",
		"fbfly16":         "flattened butterfly p=4 dimensions=1 k=4, MIN, UN",
		"fbfly512":        "flattened butterfly p=8 dimensions=2 k=8, MIN, UN",
		"fattree64":       "fat tree k=4 stages=3 subtrees=0, MIN, UN",
		"recn-case1":      "fat tree k=4 stages=3 subtrees=0, MIN, HOTSPOT, queueing iq, warm-up",
		"recn-case1-recn": "fat tree k=4 stages=3 subtrees=0, MIN, HOTSPOT, congestion recn, warm-up",
	} {
		if got := second[name]; !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q in it", name, strings.TrimSpace(got), want)
		}
	}
	for name, l := range second {
		c, err := config.PresetByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if k := c.Topology.Kind; k != "dragonfly" && strings.Contains(l, " h=") {
			t.Errorf("%s (%s): the Dragonfly's h in %q", name, k, l)
		}
	}
}

// The usage names every topology kind the simulator runs and an example of
// the flattened butterfly's and the fat tree's papers (Kim et al.'s
// congestion management, the RECN paper), each a preset or experiment that
// exists.
func TestUsageNamesEveryTopology(t *testing.T) {
	for _, want := range []string{"Dragonfly", "flattened butterfly", "fat tree", "mesh", "congestion-management schemes",
		"sweep -experiment cbcm-fig2", "run -preset recn-case1-recn"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
	if _, err := config.PresetByName("recn-case1-recn"); err != nil {
		t.Error(err)
	}
	code, _, e := cli(t, false, "sweep", "-experiment", "cbcm-fig2", "-plan", t.TempDir())
	if code != 0 {
		t.Errorf("cbcm-fig2: exit %d: %s", code, e)
	}
}

// validate gives a valid configuration's cost before it is run: its memory
// bound and its CPU time on one core, the estimates 'sweep -plan' prints
// (plan.Bytes, plan.Seconds), so that the long presets (Kim et al.'s
// 512-node flattened butterfly, the RECN paper's Fig. 6 fat trees) can be
// sized first.
func TestValidatePrintsCost(t *testing.T) {
	for _, name := range []string{"fbfly512", "recn-fig6a-recn"} {
		c, err := config.PresetByName(name)
		if err != nil {
			t.Fatal(err)
		}
		code, out, e := cli(t, false, "validate", "-preset", name)
		want := fmt.Sprintf("estimate: up to %s of memory, about %s of CPU per run (one core)", fmtMiB(plan.Bytes(&c)), fmtSeconds(plan.Seconds(&c)))
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, %q lacks %q (%s)", name, code, out, want, e)
		}
	}
}
