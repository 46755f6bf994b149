package sweep

import (
	"context"
	"math"
	"testing"

	"phitsim/engine/result"
	"phitsim/engine/stats"
	"phitsim/engine/topology"
)

// TestBusiestLinkADV1MIN: the per-link maximum on a pattern whose
// busiest link is known analytically (thesis §1.6.1.2): under ADV+1 with
// MIN every packet of group g crosses the one global link g → g+1, which
// carries the group's a·p nodes' load. h=2 (a·p = 8): at offered 0.05 that
// link sends 8 × 0.05 = 0.40 phits/cycle, and past MIN's saturation
// (1/(a·p) = 0.125) it runs at its bound, 1 phit/cycle, while the mean over
// the transit links stays far below. The result, its quality and the
// sweep point's quality all name it.
func TestBusiestLinkADV1MIN(t *testing.T) {
	for _, tc := range []struct{ load, want, tol float64 }{{0.05, 0.40, 0.04}, {0.3, 1, 0.03}} {
		c := base(2, "ADV", 1)
		c.Routing.Name, c.Traffic.Load = "MIN", tc.load
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval = 2000, 6000, 250
		r, err := RunJob(context.Background(), Job{Config: c, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		l := r.BusiestLink
		if l == nil {
			t.Fatalf("load %g: no busiest link in the result", tc.load)
		}
		topo, err := topology.New(c.Topology.Params())
		if err != nil {
			t.Fatal(err)
		}
		df := topo.(*topology.Dragonfly)
		peer, _ := df.Link(l.Router, l.Port)
		g, pg := df.GroupOf(l.Router), df.GroupOf(max(peer, 0))
		q := stats.Assess(r)
		t.Logf("load %g: busiest link router %d port %d (%s, group %d → %d) at %.4f phits/cycle; transit mean %.4f, busiest class %s %.4f",
			tc.load, l.Router, l.Port, l.Class, g, pg, l.Utilisation, q.Links.Mean, q.Links.MaxClass, q.Links.Max)
		if l.Class != "global" || peer < 0 || pg != (g+1)%df.Groups() {
			t.Errorf("load %g: busiest link %+v joins group %d to %d, want a global link g → g+1", tc.load, *l, g, pg)
		}
		if math.Abs(l.Utilisation-tc.want) > tc.tol {
			t.Errorf("load %g: busiest link at %.4f phits/cycle, want %.2f ± %.2f", tc.load, l.Utilisation, tc.want, tc.tol)
		}
		if q.Links.Link == nil || *q.Links.Link != *l || q.Links.Max >= 0.5*l.Utilisation {
			t.Errorf("load %g: quality's link summary %+v does not name the busiest link %+v above its class mean", tc.load, q.Links, *l)
		}
		if p := AggregateRuns(0, []*result.Result{r}).Quality; p.Links.Link == nil || *p.Links.Link != *l {
			t.Errorf("load %g: the point's quality names %+v, want %+v", tc.load, p.Links.Link, *l)
		}
	}
}
