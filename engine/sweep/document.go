package sweep

import (
	"encoding/json"
	"fmt"
)

// Swept is what a result document swept: its loads, or a parameter
// with its values and ties (Spec's fields, as `sweep -out` writes them).
type Swept struct {
	Loads  []float64 `json:"loads"`
	Param  string    `json:"param"`
	Values []float64 `json:"values"`
	Tied   []Tie     `json:"tied"`
}

// DocumentConfigs finds the configurations in a file given as one (the
// CLI's -config, the page's config import): the file itself, or
// those of a document phitsim writes — a run's result (`phitsim run -out`:
// its config), a sweep's (`sweep -out`, `merge`: spec.series) or the page's
// export (experiment.series) — so that a result can be run again as it was.
// what says which document it was and what it holds ("" for a
// configuration), e.g. "a sweep's result document: its 2 series
// (spec.series), each with its seeds"; swept is what a
// sweep's document or the page's export swept (nil otherwise). Anything that
// is not such a document is returned whole, for config.Decode to judge.
func DocumentConfigs(data []byte) (docs [][]byte, what string, swept *Swept) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return [][]byte{data}, "", nil
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	var x struct {
		Series []json.RawMessage `json:"series"`
		Sweep  struct {
			Param string `json:"param"`
			Tied  []Tie  `json:"tied"`
		} `json:"sweep"` // the page's experiment
	}
	raw := func() [][]byte {
		out := make([][]byte, len(x.Series))
		for i, r := range x.Series {
			out[i] = r
		}
		return out
	}
	count := func() string {
		if len(x.Series) == 1 {
			return "its series"
		}
		return fmt.Sprintf("its %d series", len(x.Series))
	}
	switch {
	case has("config") && (has("runs") || has("aggregate")):
		return [][]byte{top["config"]}, "a run's result document: its configuration (config)", nil
	case has("spec") && (has("points") || has("runs")):
		var sw Swept
		if json.Unmarshal(top["spec"], &x) == nil && len(x.Series) > 0 && json.Unmarshal(top["spec"], &sw) == nil {
			return raw(), "a sweep's result document: " + count() + " (spec.series), each with its seeds", &sw
		}
	case has("experiment") && (has("points") || has("runs") || has("link")):
		if json.Unmarshal(top["experiment"], &x) == nil && len(x.Series) > 0 {
			sw := &Swept{Param: x.Sweep.Param, Tied: x.Sweep.Tied}
			if sw.Param == "" { // the page's sweep is over the load unless it names another
				sw.Param = "traffic.load"
			}
			if json.Unmarshal(top["values"], &sw.Values) != nil || len(sw.Values) == 0 {
				sw = nil // an export without its values: the command line's
			}
			return raw(), "the page's export: " + count() + " (experiment.series), each with its seeds", sw
		}
	}
	return [][]byte{data}, "", nil
}
