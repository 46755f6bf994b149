package plot

import (
	"encoding/json"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// The time series of a HOTSPOT with a window (the RECN paper's Fig. 2,
// corner case 1 shortened: a window of cycles 400–800 in a 1,200-cycle run
// of the 64-host fat tree) shades the window, in cycles, and in µs once
// converted to the physical basis (8-ns cycles: 3.2–6.4 µs); without a
// window nothing is shaded.
func TestTimeSeriesShadesHotspotWindow(t *testing.T) {
	area := func(b []byte) [][]map[string]any {
		var raw struct {
			Series []struct {
				MarkArea *struct{ Data [][]map[string]any } `json:"markArea"`
			}
		}
		if err := json.Unmarshal(b, &raw); err != nil || len(raw.Series) == 0 {
			t.Fatalf("chart: %v", err)
		}
		if raw.Series[0].MarkArea == nil {
			return nil
		}
		return raw.Series[0].MarkArea.Data
	}
	c := config.RECNCornerCase(1)
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd = 400, 800
	e := experiment.Experiment{Series: []config.Config{c}, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.5, To: 0.5, Step: 0.1}}
	r := tinyResults(t, e, nil)
	r.Exp.Series[0].Sim.Warmup = 0
	in := Input{Results: r}
	a := area(TimeSeries(in))
	if len(a) != 1 || a[0][0]["xAxis"] != 400.0 || a[0][1]["xAxis"] != 800.0 || a[0][0]["name"] != "hotspot" {
		t.Fatalf("hotspot area %v; want cycles 400–800", a)
	}
	b, _ := basis(in)
	if a := area(Physical(TimeSeries(in), b)); len(a) != 1 || a[0][0]["xAxis"] != 3.2 || a[0][1]["xAxis"] != 6.4 {
		t.Errorf("physical hotspot area %v; want 3.2–6.4 µs", a)
	}
	r.Runs[0].Config.Traffic.HotspotEnd = 0
	if a := area(TimeSeries(in)); a != nil {
		t.Errorf("no window, area %v", a)
	}
}
