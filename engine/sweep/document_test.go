package sweep

import (
	"bytes"
	"encoding/json"
	"testing"

	"phitsim/engine/config"
)

// Whatever a file given as a configuration holds, finding its configurations never panics,
// and each one found is judged by config.Decode (a configuration or
// errors), so a damaged document is refused by name like a damaged
// configuration.
func FuzzDocumentConfigs(f *testing.F) {
	c, _ := json.Marshal(config.Default())
	f.Add(c)
	f.Add([]byte(`{"config": ` + string(c) + `, "runs": []}`))
	f.Add([]byte(`{"spec": {"series": [` + string(c) + `, {}]}, "points": []}`))
	f.Add([]byte(`{"experiment": {"series": [` + string(c) + `]}, "link": "#v=1"}`))
	f.Add([]byte(`{"spec": {"series": 3}, "runs": 1}`))
	f.Add([]byte(`{"config": null, "aggregate": {}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, what, _ := DocumentConfigs(data)
		if len(docs) == 0 {
			t.Fatalf("no document from %q (%s)", data, what)
		}
		if what == "" && (len(docs) != 1 || !bytes.Equal(docs[0], data)) {
			t.Fatalf("%q: not a document, yet not returned whole", data)
		}
		for _, d := range docs {
			config.Decode(d)
		}
	})
}
