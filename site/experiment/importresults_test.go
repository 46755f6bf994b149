package experiment

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI's sweep document opens in the page with every point: a plan run
// in pieces and merged ('phitsim merge -out', here two of its three slices,
// -partial) is imported, its runs at their jobs, and the page's points are
// the document's, bit for bit (h=2, MIN and VAL × 3 loads × 2 seeds, 600
// cycles). The page's own export opens too.
func TestImportMergedResults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "phitsim")
	if b, err := exec.Command("go", "build", "-o", bin, "phitsim/cmd/phitsim").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	pdir := filepath.Join(dir, "plan")
	for _, args := range [][]string{
		{"sweep", "-preset", "h2", "-set", "sim.warmup=300", "-set", "sim.cycles=300", "-seeds", "2",
			"-series", "routing.name=MIN,VAL", "-loads", "0.1,0.3,0.5", "-plan", pdir},
		{"exec", "-plan", pdir, "-task", "0", "-tasks", "3"},
		{"exec", "-plan", pdir, "-task", "2", "-tasks", "3"},
		{"merge", "-plan", pdir, "-partial", "-out", filepath.Join(dir, "m")},
	} {
		if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("phitsim %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "m.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := ImportResults(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 12 || res.Done() != 8 {
		t.Fatalf("%d jobs, %d runs", len(res.Jobs), res.Done())
	}
	for i := range res.Jobs {
		if finished := res.Runs[i] != nil; finished != (i%3 != 1) {
			t.Errorf("job %d: finished %v", i, finished)
		}
	}
	var doc struct {
		Points json.RawMessage `json:"points"`
	}
	json.Unmarshal(data, &doc)
	got, _ := json.Marshal(res.Outcome().Points)
	var want bytes.Buffer
	json.Compact(&want, doc.Points)
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the page's points differ from the document's:\n%s\n%s", got, want.Bytes())
	}
	// the page's export of it opens as it was
	exp, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	again, err := ImportResults(exp)
	if err != nil || again.Done() != 8 {
		t.Fatalf("the page's export: %v", err)
	}
	if b, _ := again.JSON(); !bytes.Equal(b, exp) {
		t.Error("the page's export, opened and exported again, differs")
	}
	// a run that is no job of the document's experiment
	var m map[string]any
	json.Unmarshal(data, &m)
	m["runs"].([]any)[3].(map[string]any)["seed"] = 99
	bad, _ := json.Marshal(m)
	if _, err := ImportResults(bad); err == nil || !strings.Contains(err.Error(), "run 4 of the document (seed 99)") {
		t.Errorf("a stray run: %v", err)
	}
	if _, err := ImportResults([]byte(`{"version": 1, "topology": {}}`)); err == nil || !strings.Contains(err.Error(), "Import config JSON") {
		t.Errorf("a configuration: %v", err)
	}
}
