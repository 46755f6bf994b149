package sim

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// RECN paper (Duato et al., "A New Scalable and Cost-Effective Congestion
// Management Strategy for Lossless Multistage Interconnection Networks")
// §4.3: with 512-byte packets the results are "quite similar" to Fig. 2's
// 64-byte ones (not shown there). Corner case 1 on the 64-host fat tree
// with 512-byte packets (router.packetSize=64 phits: 256 packets per
// 128-KB side; the default thresholds, detection at 320 B and propagation
// at 512 B, at their floor of 4 packets, 2 KB), the senders at their link's
// rate (§4.2, traffic.hotspotLinkRate), seed 1, 10-µs bins: before the
// tree every scheme carries the background (24.6 B/ns offered, ±1.5);
// while the tree stands and drains (800–1,300 µs) RECN stays within 1 B/ns
// of VOQnet and above VOQsw, VOQsw above IQ, and IQ collapses (≤ 0.65 of
// the offered 24.6, Fig. 2a's ratio ≈ 0.48); after it (1,300–2,000 µs)
// RECN stays within 1 B/ns of VOQnet; none out of order under RECN, no
// notification refused and fewer than 170 lines in all (Fig. 4's count
// for case 1; measured 124; with the thresholds at 1 packet, 320 B and
// 512 B rounded up without the floor, 1,795 and 8,911 refused: a side
// holding one packet in transit roots a tree).
// Measured (engine/REPRODUCTION.md, "RECN", target 17): 800–1300 µs
// VOQnet 24.3, RECN 24.3, VOQsw 19.1, IQ 10.8 B/ns; 1300–2000 µs VOQnet
// 24.1, RECN 24.8. With backlogged senders RECN falls after 1,300 µs
// (21.6 and 20.4 B/ns over 1300–1800 and 1800–2000 µs at this seed): the
// tree rooted at host 32's link nests in the first one (rooted at switch
// 24's port 0) and its egress SAQs at the leaves' up-links fill with the
// first tree's packets, which its Xoff does not reach (traced in
// REPRODUCTION.md, target 17; TestRECNHeldLinesFollowTheRules).
func TestRECN512BytePackets(t *testing.T) {
	if testing.Short() {
		t.Skip("two 2,000-µs and two 1,300-µs runs of the 64-host network")
	}
	const offered = 24.6 // 24·63/64 + 1 (RECN paper Table 1, case 1)
	run := func(name string, c config.Config, untilNs int) []result.Rate {
		c.Router.PacketSize = 64
		c.Sim.Cycles = untilNs / 8
		if errs := c.Validate(); len(errs) != 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		res, r := runRates(t, c, 10e3)
		if x := res.RECN; x != nil && (x.OutOfOrder != 0 || x.Refused != 0 || x.PeakTotal >= 170) {
			t.Errorf("%s: %d packets out of order, %d notifications refused, %d lines in all; want none, none, < 170", name, x.OutOfOrder, x.Refused, x.PeakTotal)
		}
		if m := result.MeanRate(r[0], 400e3, 800e3); m < offered-1.5 || m > offered+1.5 {
			t.Errorf("%s before the tree (400–800 µs): %.1f B/ns, want %.1f ± 1.5", name, m, offered)
		}
		return r[0]
	}
	mean := func(r []result.Rate) float64 { return result.MeanRate(r, 800e3, 1300e3) }
	late := func(r []result.Rate) float64 { return result.MeanRate(r, 1300e3, 2000e3) }
	rr := run("RECN", config.RECNMechanism(1), 2000e3)
	nr := run("VOQnet", config.RECNBaseline(1, "voqnet"), 2000e3)
	rn, net := mean(rr), mean(nr)
	sw := mean(run("VOQsw", config.RECNBaseline(1, "voqsw"), 1300e3))
	iq := mean(run("IQ", config.RECNBaseline(1, "iq"), 1300e3))
	t.Logf("512-byte packets, case 1, 800–1300 µs: VOQnet %.1f, RECN %.1f, VOQsw %.1f, IQ %.1f B/ns; 1300–2000 µs: VOQnet %.1f, RECN %.1f", net, rn, sw, iq, late(nr), late(rr))
	if rn < net-1 {
		t.Errorf("RECN %.1f B/ns, more than 1 below VOQnet's %.1f", rn, net)
	}
	if late(rr) < late(nr)-1 {
		t.Errorf("1300–2000 µs: RECN %.1f B/ns, more than 1 below VOQnet's %.1f", late(rr), late(nr))
	}
	if !(rn > sw && sw > iq) {
		t.Errorf("want RECN > VOQsw > IQ: %.1f, %.1f, %.1f B/ns", rn, sw, iq)
	}
	if iq > 0.65*offered {
		t.Errorf("IQ %.1f B/ns, want ≤ 0.65 × %.1f (the tree's head-of-line blocking)", iq, offered)
	}
}
