package sim

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// treeSwitches are the switches on the D-mod-k paths from senders to host
// dst (the congestion tree's switches when dst is the hotspot).
func treeSwitches(ft *topology.FatTree, senders []int, dst int) map[int]bool {
	on := map[int]bool{}
	for _, h := range senders {
		r, _ := ft.NodePort(h)
		for r >= 0 {
			on[r] = true
			r, _ = ft.Link(r, ft.Port(r, dst))
		}
	}
	return on
}

// The live view's SAQ count (RECN paper §3.4, Fig. 4: the congestion tree
// grows upstream from its root, then every SAQ is released, §3.5) on the
// paper's 64-host network, corner case 1 shortened: the hotspot from 100
// to 130 µs in an 800-µs run, interfaces of 8 packets so that the tree
// drains within the run (as TestRECNReleaseAfterTheTree). While the
// hotspot lasts the switches on the paths of the 16 senders to host 32
// hold the SAQs and the others few; after the drain no switch and no
// interface holds one. Watching changes nothing in the run.
func TestLiveViewRECNSAQs(t *testing.T) {
	c := config.RECNCornerCase(1)
	c.Congestion.Scheme = "recn"
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd = int(100e3/8), int(130e3/8)
	c.Sim.Cycles, c.Router.InjectionBuffer = int(800e3/8), 8*c.Router.PacketSize
	ps, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ps.Run(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, snaps := watchRun(t, c, 1250) // 10 µs
	if res := s.Snapshot(); res.Accepted != plain.Accepted || res.Latency != plain.Latency {
		t.Fatalf("watching changed the run: accepted %v latency %+v, without %v %+v", res.Accepted, res.Latency, plain.Accepted, plain.Latency)
	}
	if len(snaps) != 80 {
		t.Fatalf("%d snapshots of an 800-µs run every 10 µs", len(snaps))
	}
	ft := s.topo.(*topology.FatTree)
	var senders []int
	for h := 3; h < 64; h += 4 {
		senders = append(senders, h)
	}
	tree := treeSwitches(ft, senders, config.RECNHotspot)
	var in, out, nIn, nOut, hosts float64
	last := -1
	for i, sn := range snaps {
		us := float64(sn.Cycle) * 8 / 1e3
		if len(sn.SAQs) != s.R || len(sn.HostSAQs) != s.N {
			t.Fatalf("%g µs: SAQs of %d switches and %d hosts", us, len(sn.SAQs), len(sn.HostSAQs))
		}
		var tot int32
		for r, n := range sn.SAQs {
			tot += n
			if us > 110 && us <= 130 {
				if tree[r] {
					in, nIn = in+float64(n), nIn+1
				} else {
					out, nOut = out+float64(n), nOut+1
				}
			}
		}
		for _, n := range sn.HostSAQs {
			tot += n
			if us > 110 && us <= 130 {
				hosts += float64(n)
			}
		}
		if tot > 0 {
			last = i
		}
	}
	in, out = in/nIn, out/nOut
	t.Logf("%d switches on the senders' paths to host 32: %.2f SAQs each during the hotspot, the other %d %.2f; interfaces %.0f in all; none from %d µs on",
		len(tree), in, s.R-len(tree), out, hosts, (last+1)*10)
	if in < 1 || out > in/4 {
		t.Errorf("during the hotspot: %.2f SAQs per tree switch, %.2f per other switch; want ≥ 1 and the others below a quarter of it", in, out)
	}
	if last < 0 || last >= len(snaps)-10 {
		t.Errorf("SAQs allocated until snapshot %d of %d: want none over the last 100 µs", last, len(snaps))
	}
	if x := s.rn.result(1); x.Allocated != 0 {
		t.Errorf("%d lines allocated at the end", x.Allocated)
	}
}
