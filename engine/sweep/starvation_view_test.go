package sweep

import (
	"context"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sim"
)

// TestLiveViewShowsADVcStarvation: "ADVc starving router a−1's
// nodes", read from what the live view draws (sim.NetSnapshot.Injection,
// per router). Thesis §3.3.1, Table 3.1: under ADVc every group sends to
// the h groups wired to its router a−1, and with round-robin arbiters that
// favour transit traffic, in-transit adaptive routing (In-Trns-MM) leaves
// router a−1 almost no room to inject; age arbitration (Table 3.3) makes it
// fair. h=4 (the thesis runs h=8), load 0.40, 2,000 + 4,000 cycles,
// snapshots every 500 cycles summed over the measured window, group 0's
// routers 0…a−1. The snapshots' least-injecting router must be the one the
// result's fairness counts name.
func TestLiveViewShowsADVcStarvation(t *testing.T) {
	view := func(arbiter string, priority bool) (inj []float64, minRouter int) {
		var c config.Config
		for _, s := range fairness("", arbiter, priority, "").Spec.Series {
			if s.Name == "In-Trns-MM" {
				c = s
			}
		}
		c.Traffic.Load, c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0.4, 2000, 4000, 1
		s, err := sim.New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		a := c.Topology.A
		inj = make([]float64, a)
		err = s.Watch(500, func(n *sim.NetSnapshot) {
			if n.Cycle > int64(c.Sim.Warmup) {
				for r := range a {
					inj[r] += float64(n.Injection[r]) * float64(n.Interval) / float64(c.Sim.Cycles)
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return inj, res.Fairness.MinRouter
	}
	for _, tc := range []struct {
		arbiter  string
		priority bool
	}{{"rr", true}, {"age", false}} {
		inj, minRouter := view(tc.arbiter, tc.priority)
		a := len(inj)
		least, others := 0, 0.0
		for r, x := range inj {
			if x < inj[least] {
				least = r
			}
			if r != a-1 {
				others += x / float64(a-1)
			}
		}
		share := inj[a-1] / others
		t.Logf("%s, transit priority %v: group 0's injection per router (phits/node/cycle) %.3f; router a−1 gets %.2f of the others' mean; the result's least-injecting router %d",
			tc.arbiter, tc.priority, inj, share, minRouter)
		if tc.priority {
			if least != a-1 || share > 0.25 {
				t.Errorf("rr with transit priority: router a−1 = %d injects %.2f of the others' mean, the least is router %d: want router a−1 starving (< 0.25)", a-1, share, least)
			}
			if minRouter%a != a-1 {
				t.Errorf("the result's least-injecting router %d is not a router a−1 of its group", minRouter)
			}
		} else if share < 0.7 {
			t.Errorf("age arbitration: router a−1 injects %.2f of the others' mean, want fair (≥ 0.7)", share)
		}
	}
}
