package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
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

// configsIn finds the configurations in a -config file: the file itself, or
// those of a document phitsim writes — a run's result (`phitsim run -out`:
// its config), a sweep's (`sweep -out`, `merge`: spec.series) or the page's
// export (experiment.series) — so that a result can be run again as it was.
// what says which document it was ("" for a configuration); anything that
// is not such a document is returned whole, for config.Decode to judge.
func configsIn(data []byte) (docs [][]byte, what string) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return [][]byte{data}, ""
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	series := func(field string) []json.RawMessage {
		var x struct {
			Series []json.RawMessage `json:"series"`
		}
		if json.Unmarshal(top[field], &x) != nil {
			return nil
		}
		return x.Series
	}
	raw := func(rs []json.RawMessage) [][]byte {
		out := make([][]byte, len(rs))
		for i, r := range rs {
			out[i] = r
		}
		return out
	}
	count := func(n int) string {
		if n == 1 {
			return "its series"
		}
		return fmt.Sprintf("its %d series", n)
	}
	switch {
	case has("config") && (has("runs") || has("aggregate")):
		return [][]byte{top["config"]}, "a run's result document: its configuration (config) is used"
	case has("spec") && (has("points") || has("runs")):
		if s := series("spec"); len(s) > 0 {
			return raw(s), "a sweep's result document: " + count(len(s)) + " (spec.series) are used, each with its seeds; its loads or values are not (give -loads, or -param and -values)"
		}
	case has("experiment") && (has("points") || has("runs") || has("link")):
		if s := series("experiment"); len(s) > 0 {
			return raw(s), "the page's export: " + count(len(s)) + " (experiment.series) are used, each with its seeds; its swept values are not (give -loads, or -param and -values)"
		}
	}
	return [][]byte{data}, ""
}
