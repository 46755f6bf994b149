package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// A result can be run again as it was: -config takes the documents phitsim
// writes — a run's result, a sweep's, the page's export — by their
// configurations, and "-" reads standard input.
func TestConfigFromDocuments(t *testing.T) {
	dir := t.TempDir()
	tinyRun := []string{"-preset", "h2", "-set", "sim.warmup=200", "-set", "sim.cycles=200", "-seeds", "1"}

	// a run's result: its configuration, and the same run again
	r1 := filepath.Join(dir, "r1.json")
	if code, _, errOut := cli(t, false, append([]string{"run", "-out", r1}, tinyRun...)...); code != 0 {
		t.Fatalf("run: %s", errOut)
	}
	code, out, errOut := cli(t, false, "run", "-config", r1)
	if code != 0 || !strings.Contains(errOut, "a run's result document: its configuration (config), taken") {
		t.Fatalf("run -config result: exit %d: %s", code, errOut)
	}
	var first, again PointDoc
	b, _ := os.ReadFile(r1)
	if json.Unmarshal(b, &first) != nil || json.Unmarshal([]byte(out), &again) != nil {
		t.Fatal("the result documents do not decode")
	}
	if !reflect.DeepEqual(first.Config, again.Config) || first.Runs[0].Latency != again.Runs[0].Latency ||
		first.Runs[0].Accepted != again.Runs[0].Accepted {
		t.Errorf("the run again differs: latency %v against %v", again.Runs[0].Latency, first.Runs[0].Latency)
	}

	// a sweep's result: every series, each with its seeds; the same CSV again
	s1 := filepath.Join(dir, "s1")
	sweepArgs := append([]string{"sweep", "-series", "routing.name=MIN,VAL", "-loads", "0.1,0.3", "-out", s1}, tinyRun...)
	if code, _, errOut := cli(t, false, sweepArgs...); code != 0 {
		t.Fatalf("sweep: %s", errOut)
	}
	code, csv, errOut := cli(t, false, "sweep", "-config", s1+".json", "-loads", "0.1,0.3", "-csv")
	if code != 0 || !strings.Contains(errOut, "its 2 series (spec.series), each with its seeds, taken; sweep also takes what it swept") {
		t.Fatalf("sweep -config sweep document: exit %d: %s", code, errOut)
	}
	want, _ := os.ReadFile(s1 + ".csv")
	if csv != string(want) {
		t.Errorf("the sweep again differs:\n%s\nagainst\n%s", csv, want)
	}
	// without -loads, the loads it swept: the same CSV again
	if code, csv, errOut := cli(t, false, "sweep", "-config", s1+".json", "-csv"); code != 0 || csv != string(want) {
		t.Errorf("sweep -config sweep document, its own loads: exit %d: %s\n%s", code, errOut, csv)
	}
	// a sweep over a parameter: its parameter and values
	s2 := filepath.Join(dir, "s2")
	if code, _, errOut := cli(t, false, append([]string{"sweep", "-param", "router.localBuffer", "-values", "32,64", "-out", s2}, tinyRun...)...); code != 0 {
		t.Fatalf("sweep -param: %s", errOut)
	}
	want2, _ := os.ReadFile(s2 + ".csv")
	if code, csv, errOut := cli(t, false, "sweep", "-config", s2+".json", "-csv"); code != 0 || csv != string(want2) {
		t.Errorf("sweep -config of a -param sweep: exit %d: %s\n%s\nagainst\n%s", code, errOut, csv, want2)
	}
	// two documents that swept differently need the command line's
	if code, _, errOut := cli(t, false, "sweep", "-config", s1+".json", "-config", s2+".json", "-csv"); code != 1 || !strings.Contains(errOut, "swept different loads or values") {
		t.Errorf("two sweeps: exit %d: %s", code, errOut)
	}
	// run takes one of them only
	if code, _, errOut := cli(t, false, "run", "-config", s1+".json"); code == 0 || !strings.Contains(errOut, "run takes one configuration") {
		t.Errorf("run -config of 2 series: exit %d: %s", code, errOut)
	}

	// the page's export: its experiment's series
	a, b2 := config.Default(), config.Default()
	a.Name, b2.Name, b2.Routing.Name = "MIN", "VAL", "VAL"
	exp, _ := json.Marshal(experiment.Export{Link: "#v=1", Exp: experiment.Experiment{Series: []config.Config{a, b2}, Sweep: experiment.DefaultSweep()}})
	pe := filepath.Join(dir, "page.json")
	os.WriteFile(pe, exp, 0o644)
	code, out, errOut = cli(t, false, "validate", "-config", pe)
	if code != 0 || !strings.Contains(errOut, "the page's export: its 2 series (experiment.series), each with its seeds, taken") ||
		!strings.Contains(out, "ok: MIN") || !strings.Contains(out, "ok: VAL") {
		t.Errorf("validate -config page export: exit %d:\n%s%s", code, out, errOut)
	}
	// and sweeps the values it lists
	exp, _ = json.Marshal(experiment.Export{Link: "#v=1", Exp: experiment.Experiment{Series: []config.Config{a, b2}, Sweep: experiment.Sweep{Param: "traffic.load", From: 0.1, To: 0.3, Step: 0.1}},
		Values: []float64{0.1, 0.2, 0.3}})
	os.WriteFile(pe, exp, 0o644)
	if code, _, errOut := cli(t, false, "sweep", "-config", pe, "-seeds", "1", "-plan", filepath.Join(dir, "plan")); code != 0 ||
		!strings.Contains(errOut, "planned 6 runs (2 series × 3 values of traffic.load × seeds)") {
		t.Errorf("sweep -config page export: exit %d: %s", code, errOut)
	}
	// a series with a bad field is named by its number
	b2.Traffic.Load = 2
	exp, _ = json.Marshal(experiment.Export{Link: "#v=1", Exp: experiment.Experiment{Series: []config.Config{a, b2}}})
	os.WriteFile(pe, exp, 0o644)
	if code, out, errOut := cli(t, false, "validate", "-config", pe); code != 1 || !strings.Contains(out+errOut, "traffic.load = 2") {
		t.Errorf("a bad series: exit %d:\n%s%s", code, out, errOut)
	}

	// standard input, once
	var so, se bytes.Buffer
	cfg, _ := json.Marshal(first.Config)
	e := env{stdout: &so, stderr: &se, stdin: bytes.NewReader(cfg)}
	if code := command(context.Background(), e, []string{"validate", "-config", "-"}); code != 0 || !strings.Contains(so.String(), "ok:") {
		t.Errorf("validate -config -: exit %d: %s%s", code, so.String(), se.String())
	}
	se.Reset()
	e.stdin = bytes.NewReader(cfg)
	if code := command(context.Background(), e, []string{"sweep", "-config", "-", "-config", "-"}); code != 1 || !strings.Contains(se.String(), "standard input can be read once") {
		t.Errorf("-config - twice: exit %d: %s", code, se.String())
	}

	// a configuration with a field named like a document's is still a configuration: refused by name
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"config": {}, "routing": {"name": "MIN"}}`), 0o644)
	if code, out, errOut := cli(t, false, "validate", "-config", bad); code != 1 || !strings.Contains(out+errOut, "config: unknown field") {
		t.Errorf("a configuration with a config field: exit %d:\n%s%s", code, out, errOut)
	}
}
