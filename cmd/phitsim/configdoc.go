package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"phitsim/engine/sweep"
)

// maxConfigFile bounds what -config reads: a configuration is a few KiB, a
// sweep's result document up to the results bound (sweep.MaxResultsBytes,
// 560 MiB) and some; -config /dev/zero must not read forever.
const maxConfigFile = 1 << 30

// readLimited reads at most limit+1 bytes of the file (the caller refuses
// more than limit).
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// docSweep is what a result document swept: its loads, or a parameter
// with its values and ties (sweep.Spec's fields, as `sweep -out` writes them).
type docSweep struct {
	Loads  []float64   `json:"loads"`
	Param  string      `json:"param"`
	Values []float64   `json:"values"`
	Tied   []sweep.Tie `json:"tied"`
}

// configsIn finds the configurations in a -config file: the file itself, or
// those of a document phitsim writes — a run's result (`phitsim run -out`:
// its config), a sweep's (`sweep -out`, `merge`: spec.series) or the page's
// export (experiment.series) — so that a result can be run again as it was.
// what says which document it was ("" for a configuration); swept is what a
// sweep's document or the page's export swept (nil otherwise). Anything that
// is not such a document is returned whole, for config.Decode to judge.
func configsIn(data []byte) (docs [][]byte, what string, swept *docSweep) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return [][]byte{data}, "", nil
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	var x struct {
		Series []json.RawMessage `json:"series"`
		Sweep  struct {
			Param string      `json:"param"`
			Tied  []sweep.Tie `json:"tied"`
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
	const xs = "; sweep also takes what it swept, unless -loads or -param is given"
	switch {
	case has("config") && (has("runs") || has("aggregate")):
		return [][]byte{top["config"]}, "a run's result document: its configuration (config) is used", nil
	case has("spec") && (has("points") || has("runs")):
		var sw docSweep
		if json.Unmarshal(top["spec"], &x) == nil && len(x.Series) > 0 && json.Unmarshal(top["spec"], &sw) == nil {
			return raw(), "a sweep's result document: " + count() + " (spec.series) are used, each with its seeds" + xs, &sw
		}
	case has("experiment") && (has("points") || has("runs") || has("link")):
		if json.Unmarshal(top["experiment"], &x) == nil && len(x.Series) > 0 {
			sw := &docSweep{Param: x.Sweep.Param, Tied: x.Sweep.Tied}
			if json.Unmarshal(top["values"], &sw.Values) != nil || len(sw.Values) == 0 {
				sw = nil // an export without its values: the command line's
			}
			return raw(), "the page's export: " + count() + " (experiment.series) are used, each with its seeds" + xs, sw
		}
	}
	return [][]byte{data}, "", nil
}
