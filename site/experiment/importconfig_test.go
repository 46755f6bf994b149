package experiment

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// The page's config import takes what the CLI's -config takes: a
// configuration, or the configuration of a run's result document (it was
// refused with "config: unknown field", "runs: unknown field", …); a
// document of several series is refused with the way to open it.
func TestImportConfigFromDocuments(t *testing.T) {
	c := config.Default()
	c.Name, c.Traffic.Load = "VAL", 0.3
	c.Routing.Name = "VAL"
	plain, _ := json.Marshal(c)
	got, what, err := ImportConfig(plain)
	if err != nil || what != "" || !reflect.DeepEqual(got, c) {
		t.Fatalf("a configuration: %q %v", what, err)
	}
	point, _ := json.Marshal(map[string]any{"config": c, "runs": []any{}, "aggregate": map[string]any{}})
	got, what, err = ImportConfig(point)
	if err != nil || !strings.Contains(what, "a run's result document") || !reflect.DeepEqual(got, c) {
		t.Fatalf("a run's result: %q %v", what, err)
	}
	two, _ := json.Marshal(map[string]any{"spec": sweep.Spec{Series: []config.Config{c, c}, Loads: []float64{0.1}}, "points": []any{}})
	if _, what, err = ImportConfig(two); err == nil || !strings.Contains(err.Error(), "Open results JSON") || !strings.Contains(what, "its 2 series") {
		t.Fatalf("a sweep of 2 series: %q %v", what, err)
	}
	one, _ := json.Marshal(Export{Link: "#v=1", Exp: Experiment{Series: []config.Config{c}}})
	if got, _, err = ImportConfig(one); err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("the page's export of one series: %v", err)
	}
	// what an export swept: its values of its parameter, the load when it names none
	ex, _ := json.Marshal(Export{Link: "#v=1", Exp: Experiment{Series: []config.Config{c}}, Values: []float64{0.1, 0.5}})
	if _, _, sw := sweep.DocumentConfigs(ex); sw == nil || sw.Param != "traffic.load" || !reflect.DeepEqual(sw.Values, []float64{0.1, 0.5}) {
		t.Errorf("an export's sweep: %+v", sw)
	}
	// a bad field of the document's configuration is named as in a configuration
	c.Traffic.Load = 2
	point, _ = json.Marshal(map[string]any{"config": c, "runs": []any{}})
	var es config.Errors
	if _, _, err = ImportConfig(point); !errors.As(err, &es) || !strings.Contains(err.Error(), "traffic.load = 2") {
		t.Fatalf("a bad field: %v", err)
	}
}
