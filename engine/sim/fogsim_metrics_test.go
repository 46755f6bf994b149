package sim

import (
	"math"
	"testing"

	"phitsim/engine/config"
)

// FOGSim counts a packet as non-minimal as soon as it is given a Valiant path
// (its VAL and OBL routings set the flag at injection), phitsim's own count
// only when the path leaves the minimal one. At h=2 (a=4, p=2, 9 groups) a
// node's 71 destinations are 1 on its own router (ejected at once, no
// Valiant path), 6 on other routers of its group and 64 in other groups. VAL
// RRG-Sw draws the intermediate router uniformly among the 32 of the 8 other
// groups, so an inter-group packet has its destination router as
// intermediate with probability 1/32: FOGSim's share is 70/71, phitsim's
// (6 + 64·31/32)/71 = 68/71.
func TestFOGSimNonMinimalCount(t *testing.T) {
	val := adConfig(2, "VAL", "UN", 0.2, nil)
	min := adConfig(2, "MIN", "UN", 0.2, nil)
	pb := adConfig(2, "PB", "ADV", 0.2, nil)
	rs := adRun(t, val, min, pb)
	v := rs[0]
	for _, c := range []struct {
		name string
		n    int64
		want float64
	}{{"FOGSim's", v.Misrouted.FOGSim, 70.0 / 71}, {"own", v.Misrouted.Packets, 68.0 / 71}} {
		got := float64(c.n) / float64(v.Delivered)
		if sd := math.Sqrt(c.want * (1 - c.want) / float64(v.Delivered)); math.Abs(got-c.want) > 4*sd {
			t.Errorf("VAL: %s non-minimal share %.5f, want %.5f ± %.5f", c.name, got, c.want, 4*sd)
		}
	}
	if m := rs[1]; m.Misrouted.FOGSim != 0 || m.Misrouted.Packets != 0 {
		t.Errorf("MIN: non-minimal %d (FOGSim's count %d), want 0", m.Misrouted.Packets, m.Misrouted.FOGSim)
	}
	// adaptive decisions are the same in both counts
	if p := rs[2]; p.Misrouted.FOGSim != p.Misrouted.Packets || p.Misrouted.Packets == 0 {
		t.Errorf("PB: FOGSim's count %d, own %d: want equal and non-zero", p.Misrouted.FOGSim, p.Misrouted.Packets)
	}
}

// The transient record (thesis §4.3.2; FOGSim's .transient file) bins the
// delivered packets by generation cycle from 100 cycles before the switch
// to the end of the measured window. Under UN → ADV+1 at 0.2 on h=2 a group's
// traffic to the next group has one global link, 1 phit/cycle for 8 nodes:
// 0.125 of the 0.2 offered, so at least 37.5% of the packets generated after
// the switch must be misrouted; before it PB routes UN mostly minimally.
func TestTransientRecordByGenerationCycle(t *testing.T) {
	edit := func(c *config.Config) {
		c.Traffic.SwitchCycle, c.Traffic.SwitchPattern, c.Traffic.SwitchAdvOffset = 1000, "ADV", 1
	}
	pb := adConfig(2, "PB", "UN", 0.2, edit)
	min := adConfig(2, "MIN", "UN", 0.2, edit)
	rs := adRun(t, pb, min)
	tr := rs[0].Transient
	if tr == nil {
		t.Fatal("no transient record with traffic.switchCycle set")
	}
	// warm-up 3000 + 3000 measured, switch 1000 after warm-up: bins from −100 to +2000
	if tr.From != -100 || tr.Bin != 10 || len(tr.Packets) != 210 {
		t.Fatalf("record from %d, bins of %d, %d bins; want −100, 10, 210", tr.From, tr.Bin, len(tr.Packets))
	}
	// 72 nodes × 0.2/8 packets per cycle = 18 packets per 10-cycle bin
	var before, misBefore, after, misAfter int64
	for i := range tr.Packets {
		if i < 10 {
			before += tr.Packets[i]
			misBefore += tr.Misrouted[i]
		} else if i >= 60 && i < 180 { // settled, and generated long enough before the end to have arrived
			after += tr.Packets[i]
			misAfter += tr.Misrouted[i]
		}
	}
	if want := 180.0; math.Abs(float64(before)-want) > 4*math.Sqrt(want) {
		t.Errorf("packets generated in the 100 cycles before the switch: %d, want %.0f ± %.0f", before, want, 4*math.Sqrt(want))
	}
	// by generation cycle: of the ~18 packets generated in the run's last 10
	// cycles only those to the own router can have arrived (a link alone takes
	// 10 cycles); binned by delivery, the last bin would be as full as the others
	if last := tr.Packets[len(tr.Packets)-1]; last > 4 {
		t.Errorf("last bin: %d packets delivered of those generated in the run's last 10 cycles, want ≤ 4", last)
	}
	if share := float64(misAfter) / float64(after); share < 0.375 {
		t.Errorf("misrouted share after the switch %.3f, below the 0.375 the minimal global link forces", share)
	}
	if share := float64(misBefore) / float64(before); share > 0.2 {
		t.Errorf("misrouted share under UN %.3f, want PB mostly minimal (< 0.2)", share)
	}
	if tr.T50 == nil || tr.T90 == nil || *tr.T50 < 0 || *tr.T50 > *tr.T90 {
		t.Errorf("reaction times t50 %v, t90 %v: want 0 ≤ t50 ≤ t90", tr.T50, tr.T90)
	}
	// MIN never misroutes: nothing to time
	if m := rs[1].Transient; m == nil || m.T50 != nil {
		t.Errorf("MIN: record %v, want one with no reaction time", m)
	}
	for i, n := range rs[1].Transient.Misrouted {
		if n != 0 {
			t.Fatalf("MIN: %d misrouted packets in bin %d", n, i)
		}
	}
}

// traffic.switchRecord sets how long the transient record runs after the
// switch (FOGSim's transientRecordCycles; the QCN-Switch paper plots 2.4 ms):
// h=2, MIN, switch 1,000 cycles into a 30,000-cycle window: 10,000 cycles by
// default (1,010 bins from −100), 20,000 when set, and the measured window's
// end when set beyond it; the memory estimate's bin count agrees.
func TestTransientRecordLength(t *testing.T) {
	for _, tc := range []struct{ record, bins int }{{0, 1010}, {20000, 2010}, {50000, 2910}} {
		c := adConfig(2, "MIN", "UN", 0.1, func(c *config.Config) {
			c.Sim.Warmup, c.Sim.Cycles = 1000, 30000
			c.Traffic.SwitchCycle, c.Traffic.SwitchPattern, c.Traffic.SwitchAdvOffset = 1000, "ADV", 1
			c.Traffic.SwitchRecord = tc.record
		})
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatal(errs)
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		for s.now < s.W+s.M {
			s.Step()
		}
		tr := s.Snapshot().Transient
		if tr == nil || tr.From != -100 || len(tr.Packets) != tc.bins || c.TransientBins() != tc.bins {
			n := -1
			if tr != nil {
				n = len(tr.Packets)
			}
			t.Errorf("switchRecord %d: %d bins (estimate %d), want %d from −100", tc.record, n, c.TransientBins(), tc.bins)
		}
	}
}
