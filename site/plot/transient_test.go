package plot

import (
	"encoding/json"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
	"phitsim/site/experiment"
)

// transientExp is UN → ADV+1 on h=2 at 0.3 with OLM and PB, two seeds, the
// switch 600 cycles into a 1,600-cycle window.
func transientExp() experiment.Experiment {
	c, err := config.PresetByName("h2")
	if err != nil {
		panic(err)
	}
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 1000, 1600, 2
	c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 600, "ADV"
	var series []config.Config
	for _, n := range []string{"OLM", "PB"} {
		s := c
		s.Name, s.Routing.Name = n, n
		series = append(series, s)
	}
	return experiment.Experiment{Series: series, Sweep: experiment.Sweep{Param: experiment.LoadParam, From: 0.3, To: 0.3}}
}

// The transient charts (thesis Figs. 4.8–4.10): shown for a switching
// experiment before it runs and after; one line per series of the pooled
// record (sweep.PoolTransient), x from −100 cycles in 10-cycle bins, the
// switch marked at 0 and each series' settle time on the misrouted chart.
func TestTransientCharts(t *testing.T) {
	e := transientExp()
	if v := Visible(&e, nil); !has(v, "transientlatency") || !has(v, "transientmisrouted") {
		t.Errorf("before running: %v", v)
	}
	if v := Visible(&experiment.Presets()[0].Exp, nil); has(v, "transientlatency") {
		t.Errorf("a sweep without a switch shows the transient charts: %v", v)
	}
	if p, ok := experiment.PresetByName("thesis-fig4.8"); !ok || !has(Visible(&p, nil), "transientmisrouted") {
		t.Errorf("preset thesis-fig4.8 (%v) does not show the transient charts", ok)
	}
	r := runAll(t, e)
	in := Input{Results: r, Point: 0}
	checkConfined(t, All(in))
	want := make([]*sweep.Transient, 2)
	for si := range want {
		want[si] = sweep.PoolTransient(si, 0.3, r.RunsAt(si, 0))
		if want[si] == nil || want[si].Runs != 2 {
			t.Fatalf("series %d: pooled %+v", si, want[si])
		}
	}
	for _, c := range []struct {
		name string
		b    []byte
		y    func(t *sweep.Transient, i int) float64
	}{
		{"transientlatency", TransientLatency(in), func(t *sweep.Transient, i int) float64 { return t.Latency[i] }},
		{"transientmisrouted", TransientMisrouted(in), func(t *sweep.Transient, i int) float64 { return t.Misrouted[i] }},
	} {
		o := decode(t, c.name, c.b)
		if len(o.Series) != 2 || o.Series[0].Name != "OLM" || o.Series[1].Name != "PB" {
			t.Fatalf("%s: series %+v", c.name, o.Series)
		}
		if !strings.Contains(o.XAxis[0].Name, "from the switch") {
			t.Errorf("%s: x axis %q", c.name, o.XAxis[0].Name)
		}
		for si, s := range o.Series {
			if len(s.Data) != len(want[si].Packets) || len(s.Data) < 30 {
				t.Fatalf("%s %s: %d points, want the pooled record's %d", c.name, s.Name, len(s.Data), len(want[si].Packets))
			}
			for _, i := range []int{0, 10, len(s.Data) - 1} {
				var p struct{ Value []float64 }
				json.Unmarshal(s.Data[i], &p)
				if p.Value[0] != float64(-100+10*i) || p.Value[1] != num(c.y(want[si], i)) {
					t.Errorf("%s %s point %d: %v, want [%d %g]", c.name, s.Name, i, p.Value, -100+10*i, num(c.y(want[si], i)))
				}
			}
		}
		ml := o.Series[0].MarkLine
		if ml == nil || !strings.Contains(string(ml.Data[0]), `"xAxis":0`) || !strings.Contains(string(ml.Data[0]), "→ ADV") {
			t.Errorf("%s: no switch mark: %+v", c.name, ml)
		}
	}
	// the misrouted chart marks where each series settles
	o := decode(t, "transientmisrouted", TransientMisrouted(in))
	for si, s := range o.Series {
		if st := want[si].Settle; st != nil {
			if s.MarkLine == nil || !strings.Contains(string(s.MarkLine.Data[len(s.MarkLine.Data)-1]), "settles") {
				t.Errorf("%s settles at %g but has no mark: %+v", s.Name, *st, s.MarkLine)
			}
		}
	}
	// a run without a switch: the chart says why it is empty
	e.Series = e.Series[:1]
	e.Series[0].Traffic.SwitchCycle = 0
	e.Series[0].Sim.Seeds = 1
	r = runAll(t, e)
	o = decode(t, "transientlatency", TransientLatency(Input{Results: r, Point: 0}))
	if len(o.Series) != 0 || !strings.Contains(string(TransientLatency(Input{Results: r, Point: 0})), "traffic.switchCycle") {
		t.Errorf("no switch: %s", TransientLatency(Input{Results: r, Point: 0}))
	}
}

// The load-step charts (ACOR paper Figs. 9–10): a step of traffic.switchLoad
// shows the accepted load around the switch for every series and ACOR-
// Switch's mean level for the ACOR series only (h=2, 0.1 → 0.4 under
// ADV+1, ACOR-Switch 3L and VAL, two seeds); a pattern switch of routings
// without levels shows neither.
func TestLoadStepCharts(t *testing.T) {
	if v := Visible(ptr(transientExp()), nil); has(v, "transientaccepted") || has(v, "transientacor") {
		t.Errorf("a pattern switch without a load step or ACOR: %v", v)
	}
	e := transientExp()
	for i, n := range []string{"ACOR", "VAL"} {
		e.Series[i].Name, e.Series[i].Routing.Name = n, n
		e.Series[i].Traffic.Pattern, e.Series[i].Traffic.SwitchLoad = "ADV", 0.4
	}
	e.Sweep.From, e.Sweep.To = 0.1, 0.1
	if v := Visible(&e, nil); !has(v, "transientaccepted") || !has(v, "transientacor") {
		t.Errorf("before running: %v", v)
	}
	r := runAll(t, e)
	in := Input{Results: r, Point: 0}
	checkConfined(t, All(in))
	want := []*sweep.Transient{sweep.PoolTransient(0, 0.1, r.RunsAt(0, 0)), sweep.PoolTransient(1, 0.1, r.RunsAt(1, 0))}
	o := decode(t, "transientaccepted", TransientAccepted(in))
	if len(o.Series) != 2 {
		t.Fatalf("accepted: series %+v", o.Series)
	}
	for si, s := range o.Series {
		for _, i := range []int{0, 20, len(s.Data) - 1} {
			var p struct{ Value []float64 }
			json.Unmarshal(s.Data[i], &p)
			if p.Value[1] != num(want[si].Accepted[i]) {
				t.Errorf("accepted %s point %d: %v, want %g", s.Name, i, p.Value, num(want[si].Accepted[i]))
			}
		}
	}
	if ml := o.Series[0].MarkLine; ml == nil || !strings.Contains(string(ml.Data[0]), "→ ADV at 0.4") {
		t.Errorf("accepted: no step mark: %+v", ml)
	}
	o = decode(t, "transientacor", TransientAcor(in))
	if len(o.Series) != 1 || o.Series[0].Name != "ACOR" || len(o.Series[0].Data) != len(want[0].AcorLevel) {
		t.Fatalf("ACOR level: series %+v", o.Series)
	}
	var p struct{ Value []float64 }
	json.Unmarshal(o.Series[0].Data[5], &p)
	if p.Value[1] != num(want[0].AcorLevel[5]) || p.Value[1] < 1 || p.Value[1] > 3 {
		t.Errorf("ACOR level point 5: %v, want %g", p.Value, num(want[0].AcorLevel[5]))
	}
}

func ptr[T any](x T) *T { return &x }
