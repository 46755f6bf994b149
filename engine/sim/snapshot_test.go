package sim

import (
	"context"
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// watchRun runs c with snapshots every `every` cycles and returns them.
func watchRun(t *testing.T, c config.Config, every int64) (*Sim, []*NetSnapshot) {
	t.Helper()
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	var snaps []*NetSnapshot
	if err := s.Watch(every, func(n *NetSnapshot) { snaps = append(snaps, n.Clone()) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return s, snaps
}

// globalUse is the mean utilisation of each global link (router, port)
// over the snapshots of the measured window, and whether it goes from group
// g to group g+1.
func globalUse(s *Sim, snaps []*NetSnapshot) (use []float64, next []bool) {
	df := s.df
	var n int
	sums := make([]float64, len(s.ports))
	for _, sn := range snaps {
		if sn.Cycle <= s.W {
			continue
		}
		n++
		for pi, u := range sn.LinkUse {
			sums[pi] += float64(u)
		}
	}
	for r := 0; r < s.R; r++ {
		for p := 0; p < s.radix; p++ {
			if df.PortClass(r, p) != topology.Global {
				continue
			}
			peer, _ := df.Link(r, p)
			use = append(use, sums[r*s.radix+p]/float64(n))
			next = append(next, df.GroupOf(peer) == (df.GroupOf(r)+1)%df.G)
		}
	}
	return use, next
}

// ADV+1 under MIN sends all of a group's traffic over its one global link to
// the next group, which saturates at 1/(a·p) (thesis §1.4.1.2, Fig. 1.18's MIN
// curve): in the live view those G links must be the hot ones, and only
// those. Valiant spreads the traffic over every global link. Run at h=2 (72
// nodes, 9 groups) for speed.
func TestSnapshotADVHotGlobalLinks(t *testing.T) {
	c := btConfig(2, 2000, 4000)
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.Load = "MIN", "ADV", 1, 0.4
	s, snaps := watchRun(t, c, 500)
	use, next := globalUse(s, snaps)
	hotMin, coldMax := math.Inf(1), 0.0
	hot := 0
	for i, u := range use {
		if next[i] {
			hot++
			hotMin = min(hotMin, u)
		} else {
			coldMax = max(coldMax, u)
		}
	}
	t.Logf("MIN ADV+1 h=2: %d g→g+1 links, least used %.3f; other global links at most %.3f", hot, hotMin, coldMax)
	if hot != s.df.G {
		t.Fatalf("%d global links from g to g+1, want one per group (%d)", hot, s.df.G)
	}
	// saturated: near one phit per cycle; the others carry (almost) nothing
	if hotMin < 0.8 || coldMax > 0.2*hotMin {
		t.Errorf("MIN ADV+1: g→g+1 links at least %.3f, others at most %.3f: want the g→g+1 links hot (≥0.8) and the others below a fifth of them", hotMin, coldMax)
	}

	c.Routing.Name = "VAL"
	s, snaps = watchRun(t, c, 500)
	use, _ = globalUse(s, snaps)
	var mean, top float64
	for _, u := range use {
		mean += u
		top = max(top, u)
	}
	mean /= float64(len(use))
	t.Logf("VAL ADV+1 h=2: global links mean %.3f, max %.3f", mean, top)
	if mean <= 0 || top > 1.6*mean {
		t.Errorf("VAL ADV+1: global link utilisation mean %.3f, max %.3f: want no link above 1.6× the mean", mean, top)
	}
}

// The snapshots agree with the result: the ejection links' phits over the
// measured window are the accepted load; buffer shares stay in [0, 1], the
// routers' packets are packets in the network; watching changes nothing.
func TestSnapshotConsistent(t *testing.T) {
	c := btConfig(2, 1000, 3000)
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "UGAL", "UN", 0.5
	plain := btSim(t, c, 1)
	s, snaps := watchRun(t, c, 250)
	if len(snaps) != int((s.W+s.M+249)/250) {
		t.Fatalf("%d snapshots in %d cycles every 250", len(snaps), s.W+s.M)
	}
	res := s.Snapshot()
	if res.Accepted != plain.Accepted || res.Latency != plain.Latency {
		t.Fatalf("watching changed the run: accepted %v latency %+v, without %v %+v", res.Accepted, res.Latency, plain.Accepted, plain.Latency)
	}
	var ej float64
	mis := false
	for _, sn := range snaps {
		var pk int64
		for r, n := range sn.Packets {
			pk += int64(n)
			if sn.Misrouted[r] < 0 || sn.Misrouted[r] > 1 {
				t.Fatalf("cycle %d router %d: misrouted share %v", sn.Cycle, r, sn.Misrouted[r])
			}
			mis = mis || sn.Misrouted[r] > 0
		}
		if pk < 0 || pk > int64(len(s.pk)) {
			t.Fatalf("cycle %d: %d packets in buffers", sn.Cycle, pk)
		}
		for pi, b := range sn.BufferUse {
			if b < 0 || b > 1 {
				t.Fatalf("cycle %d port %d: buffer share %v", sn.Cycle, pi, b)
			}
			if sn.Cycle > s.W && s.ports[pi].class == topology.Injection {
				ej += float64(sn.LinkUse[pi]) * float64(sn.Interval)
			}
		}
	}
	if !mis {
		t.Error("UGAL at load 0.5: no router reports misrouted packets")
	}
	got := ej / float64(s.N) / float64(s.M)
	t.Logf("accepted %.4f, from the snapshots' ejection links %.4f", res.Accepted, got)
	if math.Abs(got-res.Accepted) > 0.02*res.Accepted {
		t.Errorf("snapshots' ejection links give %.4f phits/node/cycle, the result %.4f", got, res.Accepted)
	}
}

// Watching allocates nothing per interval (the snapshot's slices are
// reused), and a bad interval is refused.
func TestSnapshotNoAllocs(t *testing.T) {
	c := btConfig(2, 0, 100)
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Watch(0, func(*NetSnapshot) {}); err == nil {
		t.Fatal("Watch(0) accepted")
	}
	var got int
	if err := s.Watch(10, func(n *NetSnapshot) { got += len(n.LinkUse) }); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() { s.now++; s.takeSnapshot() }); a != 0 {
		t.Errorf("a snapshot allocates %v times", a)
	}
	if got == 0 {
		t.Error("the receiver was not called")
	}
}
