package protocol

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A mesh result (hops and utilisation by class name) with a mechanism's own
// section crosses the worker protocol unchanged, and both reach the JSON the
// UI exports.
func TestRoundTripClassesAndMechanisms(t *testing.T) {
	c := tiny()
	c.Topology.Kind, c.Topology.Width, c.Topology.Height, c.Topology.P = "mesh", 4, 3, 1
	res := runTiny(t, c)
	if len(res.Classes) != 3 || res.Classes[2].Class != "y" || res.Classes[2].Hops == 0 {
		t.Fatalf("mesh result classes %+v", res.Classes)
	}
	res.Mechanisms = map[string]map[string]float64{"ecn": {"marks": 12, "echoes": 11.5}, "rate": {"held": 0}}
	got := roundTrip(t, &Message{Type: Result, ID: 1, Result: res})
	if !reflect.DeepEqual(got.Result.Classes, res.Classes) || !reflect.DeepEqual(got.Result.Mechanisms, res.Mechanisms) {
		t.Errorf("round trip: classes %+v mechanisms %v, want %+v %v", got.Result.Classes, got.Result.Mechanisms, res.Classes, res.Mechanisms)
	}
	j, _ := json.Marshal(got.Result)
	var doc struct {
		Classes    []map[string]any              `json:"classes"`
		Mechanisms map[string]map[string]float64 `json:"mechanisms"`
	}
	if err := json.Unmarshal(j, &doc); err != nil || len(doc.Classes) != 3 || doc.Classes[1]["class"] != "x" || doc.Mechanisms["ecn"]["echoes"] != 11.5 {
		t.Errorf("JSON of the decoded result: %v %+v", err, doc)
	}
}
