package plot

import (
	"bytes"
	"encoding/json"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// openResultsSeeds are documents the page opens: its own export and the
// CLI's sweep document ('phitsim sweep -out', 'merge -out') of three small
// experiments — the h=2 Dragonfly with two seeds, Kim et al.'s Fig. 2
// hotspot on the 16-node flattened butterfly (the background and per-sender
// charts), and RECN beside IQ on the 64-host fat tree (the SAQ chart) —
// each also with its last job or run dropped.
func openResultsSeeds(t testing.TB) [][]byte {
	d := config.Default()
	d.Topology.H, d.Topology.A, d.Topology.P = 2, 4, 2
	d.Sim.Seeds = 2
	v := d
	v.Routing.Name = "VAL"
	rc := config.RECNMechanism(1)
	rc.Traffic.HotspotStart, rc.Traffic.HotspotEnd = 500, 900
	rc.Sim.Warmup, rc.Sim.Cycles, rc.Sim.Interval = 0, 1500, 250
	iq := rc
	iq.Congestion.Scheme, iq.Name = "", "IQ"
	var out [][]byte
	for _, e := range []experiment.Experiment{
		{Series: []config.Config{d, v}, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.1, To: 0.3, Step: 0.2}},
		hotspotExperiment(),
		{Series: []config.Config{rc, iq}, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.5, To: 0.5, Step: 0.1}},
	} {
		r := tinyResults(t, e, func(j experiment.Job) bool { return j.Point == 1 && j.Series == 0 })
		exp, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		cli, err := json.Marshal(r.Outcome())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, exp, cli, damaged(t, exp, "jobs"), damaged(t, exp, "runs"), damaged(t, cli, "runs"))
	}
	return out
}

// damaged is doc with the last element of its array key dropped: a file cut
// short or edited by hand.
func damaged(t testing.TB, doc []byte, key string) []byte {
	var m map[string]json.RawMessage
	var a []json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m[key], &a); err != nil || len(a) == 0 {
		t.Fatalf("%s: %v", key, err)
	}
	m[key], _ = json.Marshal(a[:len(a)-1])
	b, _ := json.Marshal(m)
	return b
}

// FuzzOpenResults: whatever file a visitor opens as results ("Open results
// JSON"), the page either refuses it with an error or shows it: every chart
// of the points it shows first builds without a panic (not behind the page's recover, so
// a panic fails here) into valid JSON, the class and quality tables and the
// CSV build, and the page's export of it opens again to the same export.
func FuzzOpenResults(f *testing.F) {
	for _, b := range openResultsSeeds(f) {
		f.Add(b)
	}
	for _, s := range []string{"", "{}", "null", `{"spec":{}}`, `{"experiment":{}}`, `{"experiment":{"series":[]},"jobs":[]}`,
		`{"spec":{"series":[{}],"loads":[0.1]},"runs":[null,{}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := experiment.ImportResults(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("refused without a message")
			}
			return
		}
		// the page's first point, the one it opens at (the middle) and the last
		for _, p := range []int{0, len(res.Values) / 2, max(len(res.Values)-1, 0)} {
			in := Input{Results: res, Point: p}
			for name, b := range All(in) {
				if !json.Valid(b) {
					t.Fatalf("chart %s at point %d is not JSON: %.200s", name, p, b)
				}
			}
			ClassTable(in)
		}
		Visible(&res.Exp, res)
		QualityRows(res)
		if _, err := res.CSV(); err != nil {
			t.Fatalf("CSV: %v", err)
		}
		exp, err := res.JSON()
		if err != nil {
			t.Fatalf("export: %v", err)
		}
		again, err := experiment.ImportResults(exp)
		if err != nil {
			t.Fatalf("the page's export of an opened document does not open: %v", err)
		}
		if b, err := again.JSON(); err != nil || !bytes.Equal(b, exp) {
			t.Fatalf("the export, opened and exported again, differs (%v)", err)
		}
	})
}
