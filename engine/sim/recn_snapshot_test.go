package sim

import (
	"context"
	"math"
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
// to 130 µs in a 900-µs run, interfaces of 8 packets so that the tree
// drains within the run (as TestRECNReleaseAfterTheTree; the last line
// goes by 500 µs with the per-output crossbar; with detection and
// propagation at 2 KB at 750 µs, and 610 µs with normalFirst: its senders
// generate 6,522 hotspot packets against 5,146, and host 32's link, busy
// throughout, delivers their last at 700.1 against 573.1 µs). While the
// hotspot lasts the switches on the paths of the 16 senders to host 32
// hold the SAQs and the others few; after the drain no switch and no
// interface holds one. Watching changes nothing in the run.
func TestLiveViewRECNSAQs(t *testing.T) {
	c := config.RECNCornerCase(1)
	c.Congestion.Scheme = "recn"
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd = int(100e3/8), int(130e3/8)
	c.Sim.Cycles, c.Router.InjectionBuffer = int(900e3/8), 8*c.Router.PacketSize
	ps, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ps.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, snaps := watchRun(t, c, 1250) // 10 µs
	if res := s.Snapshot(); res.Accepted != plain.Accepted || res.Latency != plain.Latency {
		t.Fatalf("watching changed the run: accepted %v latency %+v, without %v %+v", res.Accepted, res.Latency, plain.Accepted, plain.Latency)
	}
	if len(snaps) != 90 {
		t.Fatalf("%d snapshots of a 900-µs run every 10 µs", len(snaps))
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

// The live view's link utilisation under RECN (its sides send in place of
// the router's output stage): corner case 1 on the 64-host network with the
// hotspot from 50 to 150 µs in a 200-µs run. Every output link's phits over
// the snapshots are its phits in the result's window (the result's per-class
// utilisation counts the same ports), less at most the packet sent within the
// last cycles, and the hotspot's delivery link runs at 100 % once the tree
// has formed (RECN paper §1: the congested endnode's link is fully used, the
// damage is elsewhere).
func TestLiveViewRECNLinkUse(t *testing.T) {
	c := config.RECNCornerCase(1)
	c.Congestion.Scheme = "recn"
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd = int(50e3/8), int(150e3/8)
	c.Sim.Cycles = int(200e3 / 8)
	s, snaps := watchRun(t, c, 1250) // 10 µs
	P := float64(s.P)
	sums := make([]float64, len(s.ports))
	hot := 0.0 // the hotspot's delivery link, 100–150 µs
	r, port := s.topo.(*topology.FatTree).NodePort(config.RECNHotspot)
	hp := r*s.radix + port
	for _, sn := range snaps {
		for pi, u := range sn.LinkUse {
			sums[pi] += float64(u) * float64(sn.Interval)
		}
		if us := float64(sn.Cycle) * 8 / 1e3; us > 100 && us <= 150 {
			hot += float64(sn.LinkUse[hp]) / 5
		}
	}
	var transit, eject float64
	for pi, v := range s.st.linkPhits {
		sums[pi] = math.Round(sums[pi]) // float32 shares of each interval
		if d := sums[pi] - float64(v); d < 0 || d > P {
			t.Errorf("port %d (router %d port %d): %.0f phits over the snapshots, %d in the result", pi, pi/s.radix, pi%s.radix, sums[pi], v)
		}
		if s.ports[pi].class == topology.Injection {
			eject += sums[pi]
		} else {
			transit += sums[pi]
		}
	}
	res := s.Snapshot()
	t.Logf("snapshots: %.0f phits on the switches' links, %.0f on the delivery links (%d packets delivered); host %d's link %.3f phits/cycle over 100–150 µs",
		transit, eject, res.Delivered, config.RECNHotspot, hot)
	if d := eject - float64(res.Delivered)*P; d < 0 || d > float64(s.N)*P {
		t.Errorf("delivery links sent %.0f phits, %d packets delivered (%.0f phits)", eject, res.Delivered, float64(res.Delivered)*P)
	}
	if transit < eject {
		t.Errorf("switch-to-switch links sent %.0f phits, fewer than the delivery links' %.0f", transit, eject)
	}
	if hot < 0.95 {
		t.Errorf("host %d's delivery link: %.3f phits/cycle over 100–150 µs, want ≥ 0.95 (the hotspot's link saturated)", config.RECNHotspot, hot)
	}
}
