package plot

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"phitsim/site/experiment"
)

// The page's thesis-fig3.10 preset (fairness vs network size, thesis Fig.
// 3.10) at h = 2, 3 with short runs: the x axis says it is the network size
// of balanced Dragonflies; MIN's ADVc bound h/(a·p) = 1/(2h) moves with the
// size, so it is drawn through its value at each h (0.25, then 1/6), not
// at the bound of the series as declared (h=4: 0.125); VAL's 0.5 stays a
// horizontal line; the per-router bars are there at every size (36 routers
// at h=2, 114 at h=3).
func TestSizeSweepCharts(t *testing.T) {
	e, ok := experiment.PresetByName("thesis-fig3.10")
	if !ok {
		t.Fatal("no thesis-fig3.10 preset")
	}
	if e.Sweep.Param != "topology.h" || e.Sweep.From != 2 || e.Sweep.To != 8 || e.Sweep.Step != 1 {
		t.Fatalf("sweep %+v", e.Sweep)
	}
	for _, p := range experiment.Presets() {
		if p.Name == "thesis-fig3.10" && !strings.HasPrefix(p.Doc, "fairness vs topology.h (per-router injection bars") {
			t.Errorf("preset doc %q", p.Doc)
		}
	}
	e.Series = e.Series[:2] // MIN, Obl-RRG
	e.Sweep.To = 3
	r := tinyResults(t, e, nil)
	in := Input{Results: r, Point: 1}
	checkConfined(t, All(in))
	o := decode(t, "size-accepted", Accepted(in))
	if o.XAxis[0].Name != "network size: topology.h (balanced, a = 2h, p = h)" || o.Title[0].Text != "Accepted vs topology.h" {
		t.Errorf("%q %q", o.Title[0].Text, o.XAxis[0].Name)
	}
	var segs [][]struct{ Coord []float64 }
	for _, m := range o.Series[0].MarkLine.Data {
		var seg []struct{ Coord []float64 }
		if json.Unmarshal(m, &seg) == nil && len(seg) == 2 && seg[0].Coord[0] != seg[1].Coord[0] { // not a whisker
			segs = append(segs, seg)
		}
		if strings.Contains(string(m), `"yAxis"`) {
			t.Errorf("MIN's bound drawn as one horizontal line: %s", m)
		}
	}
	if len(segs) != 1 || segs[0][0].Coord[0] != 2 || segs[0][0].Coord[1] != 0.25 || segs[0][1].Coord[0] != 3 ||
		math.Abs(segs[0][1].Coord[1]-1.0/6) > 1e-5 {
		t.Errorf("MIN bound segments %+v, want (2, 0.25)–(3, 0.1667)", segs)
	}
	if !strings.Contains(string(mustJSON(o.Series[1].MarkLine)), `"yAxis":0.5`) {
		t.Errorf("no VAL bound at 0.5: %s", mustJSON(o.Series[1].MarkLine))
	}
	if !has(Visible(&r.Exp, r), "fairness") {
		t.Error("no per-router chart for a size sweep")
	}
	for point, routers := range []int{36, 114} {
		o := decode(t, "size-fairness", Fairness(Input{Results: r, Point: point}))
		if len(o.Series) != 2 || len(o.Series[0].Data) != routers || !strings.Contains(o.Title[0].Text, "topology.h = ") {
			t.Errorf("h=%d: %d series, %d bars, %q", point+2, len(o.Series), len(o.Series[0].Data), o.Title[0].Text)
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
