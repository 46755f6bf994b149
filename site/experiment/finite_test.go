package experiment

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/sim"
)

func finishedResults(t *testing.T) *Results {
	t.Helper()
	e := tinyExp()
	e.Sweep = Sweep{Param: LoadParam, From: 0.2, To: 0.2, Step: 0.1}
	r, err := NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range r.Jobs {
		s, err := sim.New(j.Config, j.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if r.Runs[i], err = s.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// The case: a run with an infinite number (workload.tq=0 gave
// +Inf) lost the whole export ("json: unsupported value: +Inf"). The export
// now succeeds, writes null there and says where.
func TestExportSurvivesNonFinite(t *testing.T) {
	r := finishedResults(t)
	r.Runs[1].Accepted = math.Inf(1)
	r.Runs[2].Latency.Avg = math.NaN()
	b, err := r.JSON()
	if err != nil {
		t.Fatalf("export lost: %v", err)
	}
	var doc struct {
		NonFinite []string         `json:"nonFinite"`
		Runs      []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != len(r.Jobs) || doc.Runs[1]["accepted"] != nil || doc.Runs[0]["accepted"] == nil {
		t.Errorf("runs %d, accepted %v / %v", len(doc.Runs), doc.Runs[1]["accepted"], doc.Runs[0]["accepted"])
	}
	got := strings.Join(doc.NonFinite, "; ")
	if !strings.Contains(got, "runs[1].accepted = +Inf") || !strings.Contains(got, "runs[2].latency.avg = NaN") {
		t.Errorf("nonFinite %q", got)
	}
}

// The fallback writes what encoding/json writes: the same document for a
// real export (every field of config, result, aggregates, with omitempty).
func TestFiniteTreeMatchesJSON(t *testing.T) {
	r := finishedResults(t)
	b, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "nonFinite") {
		t.Fatal("a finite export took the fallback")
	}
	var want, got any
	json.Unmarshal(b, &want)
	e := Export{}
	json.Unmarshal(b, &e) // the same document, as Go values
	var bad []string
	tb, _ := json.Marshal(finiteTree(reflect.ValueOf(e), "", &bad))
	json.Unmarshal(tb, &got)
	if len(bad) != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("fallback differs from encoding/json (%v)", bad)
	}
}
