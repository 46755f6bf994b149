package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// The repository's rows parse, each row's phitsim configuration validates,
// and there are at least 40 of them covering every routing.
func TestRepositoryRows(t *testing.T) {
	f, err := os.Open("../../validation/rows.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	common, rows, err := parseRows(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 40 {
		t.Errorf("%d rows, want at least 40", len(rows))
	}
	// every row runs FOGSim's model: each parameter of config.FOGSimModel is
	// among the common settings with FOGSim's value (a new FOGSim option
	// cannot be left out of the validation)
	set := map[string]string{}
	for _, kv := range common {
		set[kv[0]] = kv[1]
	}
	for _, kv := range config.FOGSimModel() {
		if set[kv[0]] != kv[1] && !perRow(rows, kv) {
			t.Errorf("rows.txt: %s=%s (FOGSim's model) is neither a common setting nor on the rows it applies to", kv[0], kv[1])
		}
	}
	routings := map[string]bool{}
	for _, r := range rows {
		cfg, err := rowConfig(common, r, nil)
		if err != nil {
			t.Error(err)
			continue
		}
		routings[cfg.Routing.Name] = true
		if cfg.Topology.H != 4 || cfg.Sim.Warmup != 5000 || cfg.Sim.Cycles != 5000 {
			t.Errorf("row %s: h=%d, %d + %d cycles; the validation is h=4, 5,000 + 5,000", r.ID,
				cfg.Topology.H, cfg.Sim.Warmup, cfg.Sim.Cycles)
		}
		if !strings.Contains(strings.Join(r.Keys, " "), "Probability=") {
			t.Errorf("row %s: no FOGSim Probability key", r.ID)
		}
	}
	for _, name := range []string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"} {
		if !routings[name] {
			t.Errorf("no row with routing %s", name)
		}
	}
}

// perRow: the setting is on every row where the parameter applies.
func perRow(rows []row, kv [2]string) bool {
	p, _ := config.Lookup(kv[0])
	for _, r := range rows {
		cfg, err := rowConfig(nil, r, nil)
		if err != nil || !p.Applies(&cfg) {
			continue
		}
		found := false
		for _, s := range r.Sets {
			found = found || s == kv
		}
		if !found {
			return false
		}
	}
	return true
}

func TestParseRowsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a | b | c", "want 4 fields"},
		{"a | b | traffic.load | P=1", "not path=value"},
		{"a | b | traffic.load=1 | Probability", "not Key=Value"},
		{"a | b | | P=1\na | c | | P=2", "repeated row id"},
	} {
		_, _, err := parseRows(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
	_, rows, err := parseRows(strings.NewReader("# c\n\nx-sat | w | traffic.load=1 | Probability=100\ny | w | | Probability=1\n"))
	if err != nil || len(rows) != 2 || !rows[0].Sat || rows[1].Sat || rows[0].Sets[0] != [2]string{"traffic.load", "1"} {
		t.Errorf("rows %+v, %v", rows, err)
	}
}

// A FOGSim output file in its "Key: value" format; the per-group "Switch With
// Min Injections"-like keys that come later must not override the first.
const fogsimOutput = `PARAMETERS
Injection Probability: 40

STATISTICS
Packets Received: 132163
Non Minimally Routed Packets Received: 12506
Accepted Load: 0.400247 phits/(node·cycle)
Average Total Latency: 142.891
Average Inj Latency: 5.32811
Max Injections: 560
Switch With Max Injections: 12
Min Injections: 450
Switch With Min Injections: 201
Unbalance Quotient: 1.24444
Unfairness Quotient (stdev/avg): 0.0312
GROUP 0
Accepted Load: 9
`

func TestParseFOGSim(t *testing.T) {
	r, err := parseFOGSim(strings.NewReader(fogsimOutput))
	if err != nil {
		t.Fatal(err)
	}
	want := measure{Accepted: 0.400247, Latency: 142.891, InjLatency: 5.32811, Packets: 132163, NonMinimal: 12506,
		MaxMin: 1.24444, CoV: 0.0312, MinRouter: 201}
	if r.Accepted != want.Accepted || r.Latency != want.Latency || r.InjLatency != want.InjLatency ||
		r.Packets != want.Packets || r.NonMinimal != want.NonMinimal || r.MaxMin != want.MaxMin ||
		r.CoV != want.CoV || r.MinRouter != want.MinRouter {
		t.Errorf("parsed %+v, want %+v", *r, want)
	}
	// a starved router: FOGSim prints inf
	r, err = parseFOGSim(strings.NewReader(strings.Replace(fogsimOutput, "1.24444", "inf", 1)))
	if err != nil || !math.IsInf(r.MaxMin, 1) {
		t.Errorf("inf quotient: %v, %v", r, err)
	}
	// an unfinished run
	_, err = parseFOGSim(strings.NewReader("PARAMETERS\nSeed: 1\n"))
	if err == nil || !strings.Contains(err.Error(), "not a finished FOGSim output") {
		t.Errorf("unfinished: %v", err)
	}
}

// FOGSim's transient rows are one per generation cycle relative to the
// switch; they are summed into 10-cycle bins from −100.
func TestParseTransient(t *testing.T) {
	in := "cycle\tinj_cycle\tlatency\tnum_packets\tnum_misrouted\tinj_latency\n" +
		"6900\t-100\t0\t0\t0\t0\n" +
		"6901\t-99\t300\t2\t1\t4\n" +
		"6909\t-91\t150\t1\t0\t2\n" +
		"6910\t-90\t150\t3\t3\t2\n" +
		"7000\t0\t150\t5\t2\t2\n" +
		"7019\t19\t150\t7\t7\t2\n" +
		"7020\t20\t150\t100\t100\t2\n" // beyond the end (20): left out
	p, m, err := parseTransient(strings.NewReader(in), 20)
	if err != nil {
		t.Fatal(err)
	}
	wantP := []int64{3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 5, 7}
	wantM := []int64{1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 7}
	if len(p) != len(wantP) {
		t.Fatalf("%d bins, want %d", len(p), len(wantP))
	}
	for i := range p {
		if p[i] != wantP[i] || m[i] != wantM[i] {
			t.Errorf("bin %d: %d/%d, want %d/%d", i, m[i], p[i], wantM[i], wantP[i])
		}
	}
	if _, _, err := parseTransient(strings.NewReader("x y z\n"), 20); err == nil {
		t.Error("a file that is not a .transient parsed")
	}
}

func TestTSVRoundTrip(t *testing.T) {
	rows := []row{{ID: "a"}, {ID: "b"}}
	data := map[string][]*measure{
		"a": {{Seed: 1, Accepted: 0.5, Latency: 150.25, InjLatency: 3, Packets: 10, NonMinimal: 2, MaxMin: math.Inf(1), CoV: 0.1, MinRouter: 7},
			{Seed: 2, Accepted: 0.25, MinRouter: 3}},
		"b": {{Seed: 2, Accepted: 1, TrPackets: []int64{1, 2}, TrMisrouted: []int64{0, 2}}, {Seed: 3, Accepted: 2, TrPackets: []int64{3}, TrMisrouted: []int64{1}}},
	}
	var buf bytes.Buffer
	if err := writeTSV(&buf, rows, data); err != nil {
		t.Fatal(err)
	}
	back, err := readTSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for id, runs := range data {
		for i, r := range runs {
			b := back[id][i]
			if b.Seed != r.Seed || b.Accepted != r.Accepted || b.Latency != r.Latency || b.MaxMin != r.MaxMin || b.MinRouter != r.MinRouter ||
				len(b.TrPackets) != len(r.TrPackets) {
				t.Errorf("%s seed %d: %+v back as %+v", id, i+1, *r, *b)
			}
		}
	}
	if _, err := readTSV(strings.NewReader("bad header\n")); err == nil {
		t.Error("a bad header was accepted")
	}
}

// The acceptance bounds: 1% and 3% below saturation, 3% and 10% at it;
// fairness only where FOGSim's seeds starve the same router position.
func TestCompareBounds(t *testing.T) {
	m := func(acc, lat, mm, cov float64, minR int) []*measure {
		return []*measure{{Accepted: acc, Latency: lat, MaxMin: mm, CoV: cov, MinRouter: minR, Packets: 1},
			{Accepted: acc, Latency: lat, MaxMin: mm, CoV: cov, MinRouter: minR + 1, Packets: 1}}
	}
	fog := m(0.5, 100, 1.2, 0.03, 5) // routers 5 and 6: no structural unfairness
	for _, tc := range []struct {
		sat      bool
		ph       []*measure
		failures int
	}{
		{false, m(0.504, 102.9, 1.1, 0.02, 9), 0}, // within 1% and 3%; fairness not judged
		{false, m(0.506, 100, 1.2, 0.03, 5), 1},   // accepted +1.2%
		{false, m(0.5, 103.5, 1.2, 0.03, 5), 1},   // latency +3.5%
		{true, m(0.514, 109, 1.2, 0.03, 5), 0},    // at saturation: 3% and 10%
		{true, m(0.52, 111, 1.2, 0.03, 5), 2},     // both outside
	} {
		c := compare(row{ID: "r", Sat: tc.sat}, tc.ph, fog)
		if len(c.Failures) != tc.failures {
			t.Errorf("sat=%v phitsim %+v: failures %v, want %d", tc.sat, *tc.ph[0], c.Failures, tc.failures)
		}
	}
	// structural unfairness: router 7 of one group, router 15 (position 7) of the next
	u := func(acc, lat, mm, cov float64, r1, r2 int) []*measure {
		return []*measure{{Accepted: acc, Latency: lat, MaxMin: mm, CoV: cov, MinRouter: r1, Packets: 1},
			{Accepted: acc, Latency: lat, MaxMin: mm, CoV: cov, MinRouter: r2, Packets: 1}}
	}
	unfair := u(0.2, 300, 3, 0.5, 7, 15)
	if c := compare(row{ID: "u"}, u(0.2, 300, 3.2, 0.52, 23, 7), unfair); len(c.Failures) != 0 || !c.FairnessRule {
		t.Errorf("unfair within 10%%, same position: %v", c.Failures)
	}
	if c := compare(row{ID: "u"}, u(0.2, 300, 3.5, 0.5, 7, 8), unfair); len(c.Failures) != 2 {
		t.Errorf("Max/Min +17%% and another starving position: failures %v, want 2", c.Failures)
	}
	// the same position by chance in a fair network: not judged
	if c := compare(row{ID: "f"}, u(0.4, 150, 1.3, 0.05, 3, 9), u(0.4, 150, 1.2, 0.03, 7, 15)); len(c.Failures) != 0 || c.FairnessRule {
		t.Errorf("fair network, same position by chance: judged %v, failures %v", c.FairnessRule, c.Failures)
	}
	inf := math.Inf(1)
	if c := compare(row{ID: "u"}, u(0.2, 300, inf, 0.5, 7, 7), u(0.2, 300, inf, 0.5, 7, 7)); len(c.Failures) != 0 {
		t.Errorf("both starved: %v", c.Failures)
	}
}

func TestReplaceBetweenMarkers(t *testing.T) {
	path := t.TempDir() + "/doc.md"
	os.WriteFile(path, []byte("intro\n"+beginMarker+"\nold\n"+endMarker+"\ntail\n"), 0o644)
	if err := replaceBetweenMarkers(path, "new\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := "intro\n" + beginMarker + "\nnew\n" + endMarker + "\ntail\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	os.WriteFile(path, []byte("no markers"), 0o644)
	if err := replaceBetweenMarkers(path, "x"); err == nil {
		t.Error("a document without markers was rewritten")
	}
}

// engine/VALIDATION.md's tables are what the engine gives today: phitsim is
// deterministic (same seed, same result), so the committed tables must be
// regenerated (go run ./cmd/fogsimcmp) whenever a change moves a row.
func TestValidationTableIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every validation row (about 2.5 CPU-minutes)")
	}
	doc, err := os.ReadFile("../../engine/VALIDATION.md")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(doc, []byte(beginMarker))
	j := bytes.Index(doc, []byte(endMarker))
	if i < 0 || j < i {
		t.Fatal("engine/VALIDATION.md has no generated section")
	}
	committed := string(doc[i+len(beginMarker)+1 : j])
	got, err := generate(context.Background(), "../../validation/rows.txt", "../../validation/fogsim.tsv", "", "", nil,
		runtime.GOMAXPROCS(0), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got != committed {
		gl, cl := strings.Split(got, "\n"), strings.Split(committed, "\n")
		for k := range max(len(gl), len(cl)) {
			var g, c string
			if k < len(gl) {
				g = gl[k]
			}
			if k < len(cl) {
				c = cl[k]
			}
			if g != c {
				t.Fatalf("engine/VALIDATION.md is out of date (rerun go run ./cmd/fogsimcmp); line %d:\n now:       %s\n committed: %s", k+1, g, c)
			}
		}
	}
}
