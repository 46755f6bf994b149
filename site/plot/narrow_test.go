package plot

import (
	"encoding/json"
	"testing"

	"phitsim/engine/topology"
	"phitsim/site/experiment"
	"phitsim/site/netview"
	"phitsim/site/protocol"
)

// narrowRules decodes a chart's media rules (ECharts' media query): the
// widest chart each applies to and the title it sets there.
type narrowRules struct {
	Toolbox json.RawMessage
	Media   []struct {
		Query  struct{ MaxWidth int }
		Option struct {
			Title struct {
				Left                    any
				TextStyle, SubtextStyle struct {
					Width    int
					Overflow string
				}
			}
			XAxis struct {
				NameTruncate struct{ MaxWidth int }
			}
		}
	}
}

// minNarrow is the narrowest chart the phone layout is made for: a 320-px
// phone's card.
const minNarrow = 285

// The charts on a phone (a 390-px screen: 360-px charts): a chart's centred
// title ran under the toolbox's icons at the top right, and a title wider
// than the chart was cut at both edges. Below Narrow px every chart with a
// toolbox gets, by a media query, a title that starts at the left and is
// truncated before the toolbox's 60 px, and an x-axis name truncated within
// the chart, on the narrowest chart each rule covers.
func TestNarrowTitles(t *testing.T) {
	e := experiment.Default()
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.6, To: 0.6}
	for i := range e.Series {
		e.Series[i].Sim.Seeds = 1
	}
	r := tinyResults(t, e, nil)
	all := All(Input{Results: r, Point: 0})
	n := 0
	for name, b := range all {
		var m narrowRules
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Toolbox == nil {
			continue
		}
		n++
		if len(m.Media) == 0 {
			t.Errorf("%s: a toolbox and no phone layout of the title", name)
			continue
		}
		if m.Media[0].Query.MaxWidth < 360 {
			t.Errorf("%s: the phone layout stops at %d px: a 390-px phone's 360-px chart keeps the centred title", name, m.Media[0].Query.MaxWidth)
		}
		for i, rule := range m.Media {
			narrowest := minNarrow
			if i+1 < len(m.Media) {
				narrowest = m.Media[i+1].Query.MaxWidth + 1
			}
			ts := rule.Option.Title.TextStyle
			left, _ := rule.Option.Title.Left.(float64)
			if ts.Overflow != "truncate" || ts.Width <= 0 || int(left)+ts.Width > narrowest-60 {
				t.Errorf("%s: below %d px the title is %+v from %v px: it reaches the toolbox on a %d-px chart", name, rule.Query.MaxWidth, ts, rule.Option.Title.Left, narrowest)
			}
			// the x-axis name ("latency (cycles; the last bin collects
			// all ≥ 1999 cycles: sim.histMax)") ends within the chart
			if xs := rule.Option.XAxis.NameTruncate; xs.MaxWidth <= 0 || xs.MaxWidth > narrowest-10 {
				t.Errorf("%s: below %d px the x-axis name is %+v on a %d-px chart", name, rule.Query.MaxWidth, xs, narrowest)
			}
		}
	}
	if n < 5 {
		t.Fatalf("%d charts with a toolbox", n)
	}
	// a chart without results (no toolbox) keeps its centred message
	var m narrowRules
	json.Unmarshal(Empty("Latency", "no results yet"), &m)
	if len(m.Media) != 0 {
		t.Errorf("the empty chart's message moves on a phone: %+v", m.Media)
	}
}

// The live view's subtitles (the cycles shown, what the colours mean) were
// cut at both edges of a phone's chart: there they break into lines no
// wider than the chart, on the narrowest chart each rule covers.
func TestNarrowNetSubtitles(t *testing.T) {
	d, err := topology.NewDragonfly(2, 4, 2, "palmtree")
	if err != nil {
		t.Fatal(err)
	}
	radix := d.Radix()
	n := &protocol.NetInfo{Cycle: 200, Total: 1000, Interval: 100, Radix: radix,
		LinkUse: make([]byte, d.Routers()*radix), BufferUse: make([]byte, d.Routers()*radix),
		Packets: make([]int32, d.Routers()), Misrouted: make([]byte, d.Routers()), Injection: make([]byte, d.Routers())}
	for name, b := range map[string][]byte{"net": NetGraph(netview.New(d), n, "MIN · dragonfly h=2 a=4 p=2 (palmtree) · load 0.6"),
		"netheat": NetHeatmap(n, d, nil)} {
		var m narrowRules
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if len(m.Media) == 0 || m.Media[0].Query.MaxWidth < 360 {
			t.Errorf("%s: no phone layout for a 360-px chart: %+v", name, m.Media)
			continue
		}
		for i, rule := range m.Media {
			narrowest := minNarrow
			if i+1 < len(m.Media) {
				narrowest = m.Media[i+1].Query.MaxWidth + 1
			}
			st, ts := rule.Option.Title.SubtextStyle, rule.Option.Title.TextStyle
			if st.Overflow != "break" || st.Width <= 0 || st.Width > narrowest-10 || ts.Width <= 0 || ts.Width > narrowest-10 {
				t.Errorf("%s: below %d px the subtitle is %+v, the title %+v: wider than a %d-px chart", name, rule.Query.MaxWidth, st, ts, narrowest)
			}
		}
	}
}

// A placeholder chart ("no results yet", "not sampled under RECN") has no
// axes: the empty pair read as a chart that drew nothing, and the message
// ran across the y axis.
func TestEmptyChartHasNoAxes(t *testing.T) {
	var m struct {
		XAxis, YAxis []struct{ Show *bool }
	}
	if err := json.Unmarshal(Empty("Link utilisation per port", "not sampled under RECN"), &m); err != nil {
		t.Fatal(err)
	}
	for name, axes := range map[string][]struct{ Show *bool }{"x": m.XAxis, "y": m.YAxis} {
		for i, a := range axes {
			if a.Show == nil || *a.Show {
				t.Errorf("%s axis %d shown", name, i)
			}
		}
	}
}
