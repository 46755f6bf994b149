package plot

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/site/experiment"
)

// runKeepingDeadlocks runs every job natively and keeps the runs a deadlock
// stopped (as the worker and 'phitsim sweep' do).
func runKeepingDeadlocks(t *testing.T, e experiment.Experiment) *experiment.Results {
	t.Helper()
	r, err := experiment.NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range r.Jobs {
		s, err := sim.New(j.Config, j.Seed)
		if err != nil {
			t.Fatal(err)
		}
		var de *sim.DeadlockError
		if r.Runs[i], err = s.Run(context.Background(), nil); err != nil && !errors.As(err, &de) {
			t.Fatal(err)
		}
	}
	return r
}

// The curve charts of thesis Fig. 5.6 on h=2 (the damq-reserve-h2 preset at
// 0%, 50% and 100% reserve, one seed): the deadlocked reserve-0 point is
// drawn at its metrics up to the deadlock and pinned with the cycle, the
// legend says so, and the other points carry no pin.
func TestDeadlockPinnedInCurveCharts(t *testing.T) {
	e, ok := experiment.PresetByName("damq-reserve-h2")
	if !ok {
		t.Fatal("no damq-reserve-h2 preset")
	}
	e.Series[0].Sim.Seeds = 1
	e.Sweep.List = []float64{0, 50, 100}
	r := runKeepingDeadlocks(t, e)
	dl := r.Deadlocks()
	if len(dl) != 1 || dl[0].Point != 0 {
		t.Fatalf("deadlocks %+v, want the reserve-0 run only", dl)
	}
	want := "deadlock at cycle 5286"
	if got := DeadlockLabel(r.RunsAt(0, 0)); got != want || dl[0].Deadlock.Cycle != 5286 {
		t.Fatalf("label %q, cycle %d; want %q", got, dl[0].Deadlock.Cycle, want)
	}
	in := Input{Results: r, Point: 0}
	for name, b := range map[string][]byte{"accepted": Accepted(in), "latency": Latency(in)} {
		var o struct {
			Series []struct {
				Name      string
				Data      []json.RawMessage
				MarkPoint *struct {
					Symbol string
					Data   []struct {
						Coord []float64
						Name  string
						Label struct{ Formatter, Align string }
					}
				} `json:"markPoint"`
			}
		}
		if err := json.Unmarshal(b, &o); err != nil {
			t.Fatal(err)
		}
		s := o.Series[0]
		if s.Name != "DAMQ 2/1" || len(s.Data) != 3 {
			t.Fatalf("%s: series %q with %d points, want DAMQ 2/1 with 3 (the deadlocked one kept)", name, s.Name, len(s.Data))
		}
		if s.MarkPoint == nil || s.MarkPoint.Symbol != "pin" || len(s.MarkPoint.Data) != 1 {
			t.Fatalf("%s: markPoint %+v, want one pin", name, s.MarkPoint)
		}
		p := s.MarkPoint.Data[0]
		mean := r.Points()[0].Agg.Accepted.Mean
		if name == "latency" {
			mean = r.Points()[0].Agg.Latency.Mean
		}
		// at the left end of the sweep the label runs rightwards, into the chart
		if p.Label.Formatter != want || p.Label.Align != "left" || len(p.Coord) != 2 || p.Coord[0] != 0 || p.Coord[1] != num(mean) {
			t.Errorf("%s: pin %+v, want %q at (0, %g)", name, p, want, num(mean))
		}
		legend := ""
		for _, x := range o.Series {
			if strings.Contains(x.Name, "deadlock") {
				legend = x.Name
			}
		}
		if !strings.Contains(legend, want+" at router.damqReserve = 0") || !strings.Contains(legend, "metrics up to the deadlock") {
			t.Errorf("%s: legend %q", name, legend)
		}
	}
	// a sweep without deadlocks has no pins and no legend entry for them
	e.Sweep.List = []float64{50, 100}
	if b := string(Accepted(Input{Results: runKeepingDeadlocks(t, e)})); strings.Contains(b, "markPoint") || strings.Contains(b, "deadlock") {
		t.Errorf("pins without a deadlock: %.300s", b)
	}
}

func TestDeadlockLabel(t *testing.T) {
	ok := &result.Result{}
	at := func(c int64) *result.Result {
		return &result.Result{Deadlock: &result.Deadlock{Cycle: c, Reason: "stuck"}}
	}
	starved := func(c int64) *result.Result {
		return &result.Result{Deadlock: &result.Deadlock{Cycle: c, Reason: "starvation"}}
	}
	for _, tc := range []struct {
		runs []*result.Result
		want string
	}{
		{[]*result.Result{ok}, ""},
		{[]*result.Result{at(5286)}, "deadlock at cycle 5286"},
		{[]*result.Result{ok, at(7)}, "deadlock in 1 of 2 runs, at cycle 7"},
		{[]*result.Result{at(1), at(2), at(3)}, "deadlock in 3 of 3 runs, at cycles 1, 2 and 3"},
		// starved heads whose outputs keep moving are no deadlock
		{[]*result.Result{starved(29696)}, "starvation at cycle 29696"},
		{[]*result.Result{ok, starved(9), starved(8)}, "starvation in 2 of 3 runs, at cycles 9 and 8"},
		{[]*result.Result{starved(9), at(8)}, "deadlock in 2 of 2 runs, at cycles 9 and 8"},
	} {
		if got := DeadlockLabel(tc.runs); got != tc.want {
			t.Errorf("%d runs: %q, want %q", len(tc.runs), got, tc.want)
		}
	}
}

// A pin's label runs into the chart from either end of the swept range.
func TestDeadlockLabelAlign(t *testing.T) {
	xs := []float64{100, 0, 25, 50, 75}
	for _, tc := range []struct {
		vals []float64
		x    float64
		want string
	}{{xs, 0, "left"}, {xs, 50, "left"}, {xs, 75, "right"}, {xs, 100, "right"}, {[]float64{1}, 1, "center"}, {nil, 1, "center"}} {
		if got := labelAlign(tc.vals, tc.x); got != tc.want {
			t.Errorf("labelAlign(%v, %g) = %q, want %q", tc.vals, tc.x, got, tc.want)
		}
	}
}
