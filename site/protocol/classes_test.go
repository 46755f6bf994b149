package protocol

import (
	"encoding/json"
	"reflect"
	"testing"

	"phitsim/engine/config"
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

// The congestion papers' results cross the worker protocol unchanged: a
// RECN run's SAQ utilisation per interval (Duato et al.'s RECN paper Fig.
// 4) and its HOTSPOT classes with the background per interval, each sender's
// bandwidth (Kim et al. Fig. 14's bars), and a 4Q run's out-of-order count
// (corner case 1 on the 64-host fat tree, the window at 2,000–5,000 of
// 8,000 cycles).
func TestRoundTripRECNHotspotOrder(t *testing.T) {
	for _, name := range []string{"recn-case1-recn", "recn-case1-4q"} {
		c, err := config.PresetByName(name)
		if err != nil {
			t.Fatal(err)
		}
		c.Sim.Cycles, c.Traffic.HotspotStart, c.Traffic.HotspotEnd = 8000, 2000, 5000
		res := runTiny(t, c)
		if res.Hotspot == nil || len(res.Hotspot.Series) == 0 || len(res.Hotspot.SenderAccepted) != 16 ||
			(name == "recn-case1-recn") != (res.RECN != nil && res.RECN.PeakTotal > 0) || (name == "recn-case1-4q") != (res.Order != nil) {
			t.Fatalf("%s: hotspot %v, recn %v, order %v", name, res.Hotspot != nil, res.RECN, res.Order)
		}
		got := roundTrip(t, &Message{Type: Result, ID: 1, Result: res})
		if !reflect.DeepEqual(got.Result.RECN, res.RECN) || !reflect.DeepEqual(got.Result.Hotspot, res.Hotspot) || !reflect.DeepEqual(got.Result.Order, res.Order) {
			t.Errorf("%s: round trip changed the RECN, hotspot or order sections", name)
		}
	}
}
