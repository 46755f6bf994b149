package plot

import (
	"encoding/json"
	"strings"
	"testing"

	"phitsim/site/experiment"
)

// TestValueAxesHaveUnits: every value axis of every chart the page draws,
// on the default experiment and on an adaptive one with results, names its
// quantity with its unit in parentheses ("latency (cycles)"), the issue's
// "axis labels with units on every chart"; category axes (series, routers,
// senders) have none.
func TestValueAxesHaveUnits(t *testing.T) {
	e := experiment.Default()
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.2, To: 0.4, Step: 0.2}
	for _, r := range []*experiment.Results{tinyResults(t, e, nil), runAll(t, adaptiveExp())} {
		for name, b := range All(Input{Results: r}) {
			var m struct {
				Series []json.RawMessage
				XAxis  []struct{ Type, Name string } `json:"xAxis"`
				YAxis  []struct{ Type, Name string } `json:"yAxis"`
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(m.Series) == 0 {
				continue // the empty placeholder
			}
			for _, ax := range append(m.XAxis, m.YAxis...) {
				if ax.Type != "category" && !strings.Contains(ax.Name, "(") {
					t.Errorf("%s: %s axis %q without a unit", name, ax.Type, ax.Name)
				}
			}
		}
	}
}
