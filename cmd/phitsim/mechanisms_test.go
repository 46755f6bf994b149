package main

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// The run JSON carries a mechanism's own section and a topology's classes,
// byte for byte the same from both encoders (encodeNulls takes over when a
// number is not finite): map keys in order.
func TestRunJSONCarriesMechanismsAndClasses(t *testing.T) {
	r := &result.Result{Engine: result.EngineVersion, Config: config.Default(),
		Classes:    []result.ClassStat{{Class: "injection", Utilisation: 0.3, Links: 12}, {Class: "x", Hops: 1.25, Utilisation: 0.2, Links: 18}},
		Mechanisms: map[string]map[string]float64{"zeta": {"b": 2, "a": 1, "c": 3}, "alpha": {"marks": 7, "echoes": 6}}}
	doc := PointDoc{Config: r.Config, Runs: []*result.Result{r}}
	a, _, err := encodeJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := encodeNulls(doc)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("the two encoders differ:\n%s\n%s", a, b)
	}
	var back PointDoc
	if err := json.Unmarshal(a, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Runs[0].Mechanisms, r.Mechanisms) || !reflect.DeepEqual(back.Runs[0].Classes, r.Classes) {
		t.Errorf("read back: %v %+v", back.Runs[0].Mechanisms, back.Runs[0].Classes)
	}
	// a metric that is not finite is written as null and named, as any other
	r.Mechanisms["alpha"]["ratio"] = math.NaN()
	if _, bad, err := encodeJSON(doc); err != nil || len(bad) != 1 || !strings.HasPrefix(bad[0], "/runs/0/mechanisms/alpha/ratio") {
		t.Errorf("NaN metric: %v %v", bad, err)
	}
}
