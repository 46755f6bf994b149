package sim

// The corner cases of Duato et al., "A New Scalable and Cost-Effective
// Congestion Management Strategy for Lossless Multistage Interconnection
// Networks" (RECN paper §4.2, Table 1, Fig. 2) on its 64-host fat tree: the
// hotspot's window, the throughput in bytes/ns, and the targets of Fig. 2
// that concern the IQ and VOQsw baselines.

import (
	"context"
	"math"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// The senders generate only inside [traffic.hotspotStart,
// traffic.hotspotEnd): with no background (load 0) and 1-cycle intervals,
// nothing is generated before cycle 1,000, each of the 16 senders one
// packet in cycle 1,000 itself (its buffer is empty), and nothing from
// cycle 2,000 on. 64-host fat tree, small buffers.
func TestHotspotWindow(t *testing.T) {
	c := fattreeTestConfig(4, 3, 0)
	c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders = "HOTSPOT", config.RECNHotspot, config.RECNSenders(true)
	c.Traffic.HotspotBackground = "UN"
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd = 1000, 2000
	c.Sim.Cycles, c.Sim.Interval = 3000, 1
	r := btRun(t, c, 1)
	gen := func(b int) int64 { // packets generated in interval b ([b, b+1))
		return int64(math.Round(r.Series[b].Applied * 64 / float64(c.Router.PacketSize)))
	}
	var before, inside, after int64
	for b := range r.Series {
		switch {
		case b < 1000:
			before += gen(b)
		case b < 2000:
			inside += gen(b)
		default:
			after += gen(b)
		}
	}
	if before != 0 || after != 0 || gen(1000) != 16 || inside < 16 {
		t.Errorf("generated %d before cycle 1000, %d in cycle 1000, %d in the window, %d after cycle 2000; want 0, 16 (every sender), ≥ 16, 0",
			before, gen(1000), inside, after)
	}
	c.Traffic.HotspotEnd = 1000
	if errs := c.Validate(); len(errs) == 0 || !strings.Contains(errs.Error(), "traffic.hotspotEnd") {
		t.Errorf("hotspotEnd = hotspotStart: want an error on traffic.hotspotEnd, got %v", errs)
	}
}

// Throughput in bytes/ns: over 100 µs of corner case 1 (64 hosts, 8-ns
// cycles, 64-byte packets), the 5-µs bins times their length add up to the
// bytes of every packet delivered, exactly; a 10-µs bin is the mean of its
// two 5-µs bins; a bin that is not a multiple of sim.interval, or a
// configuration without a physical basis, is refused naming the field.
func TestThroughputBytesPerNs(t *testing.T) {
	c := config.RECNCornerCase(1)
	c.Sim.Cycles = 12500
	r := btRun(t, c, 1)
	r5, err := r.Throughput(5e3)
	if err != nil {
		t.Fatal(err)
	}
	r10, err := r.Throughput(10e3)
	if err != nil {
		t.Fatal(err)
	}
	if len(r5) != 20 || len(r10) != 10 || r5[19].ToNs != 100e3 {
		t.Fatalf("%d 5-µs bins, %d 10-µs bins, up to %g ns; want 20, 10, 100,000", len(r5), len(r10), r5[len(r5)-1].ToNs)
	}
	bytes := 0.0
	for _, x := range r5 {
		bytes += x.BytesPerNs * (x.ToNs - x.FromNs)
	}
	if want := float64(r.TotalDelivered * 64); math.Abs(bytes-want) > 1e-6 {
		t.Errorf("bins hold %.6f bytes; %d packets of 64 bytes were delivered (%v)", bytes, r.TotalDelivered, want)
	}
	for i, x := range r10 {
		if m := (r5[2*i].BytesPerNs + r5[2*i+1].BytesPerNs) / 2; math.Abs(x.BytesPerNs-m) > 1e-9 {
			t.Errorf("10-µs bin %d: %.9f B/ns, its 5-µs bins' mean %.9f", i, x.BytesPerNs, m)
		}
	}
	// 24 B/ns offered by 48 hosts at half of 1 B/ns
	if m := result.MeanRate(r5, 20e3, 100e3); m < 22 || m > 26 {
		t.Errorf("mean throughput %.2f B/ns; the background offers 24", m)
	}
	if _, err := r.Throughput(7e3); err == nil || !strings.Contains(err.Error(), "sim.interval") {
		t.Errorf("a 7-µs bin: want an error naming sim.interval, got %v", err)
	}
	r.Config.Physical = config.Physical{}
	if _, err := r.Throughput(5e3); err == nil || !strings.Contains(err.Error(), "physical.linkGbps") {
		t.Errorf("no basis: want an error naming physical.linkGbps, got %v", err)
	}
}

// RECN paper Fig. 2 (a) and (b), the IQ and VOQsw curves, on the paper's
// 64-host network at full size (2,000 µs, one seed; about 1.5 s a run;
// VOQsw with the paper's 8 queues of 16 KB per port, config.RECNBaseline),
// and in case 2 RECN beside them (to 1,300 µs):
// the paper's numbers with tolerances where ours meet them, else the
// direction (engine/REPRODUCTION.md, "RECN paper", says by how much).
func TestRECNFig2IQAndVOQsw(t *testing.T) {
	if testing.Short() {
		t.Skip("four 2,000-µs runs of the 64-host network")
	}
	hot := map[string]result.TrafficClass{}
	run := func(cornerCase int, queueing string) []result.Rate {
		res, r := runRates(t, config.RECNBaseline(cornerCase, queueing), 10e3)
		if res.Hotspot == nil {
			t.Fatalf("case %d %s: no hotspot classes in the result", cornerCase, queueing)
		}
		hot[queueing] = res.Hotspot.Hotspot
		return r[0]
	}
	mean := func(r []result.Rate, fromUs, toUs float64) float64 { return result.MeanRate(r, fromUs*1e3, toUs*1e3) }
	for _, cc := range []int{1, 2} {
		iq, sw := run(cc, "iq"), run(cc, "voqsw")
		// Why VOQsw recovers while IQ does not (target 7's measured
		// reason): the senders generate at their link's rate (§4.2) into
		// their interface and stall when it is full (§4.1), so the hotspot
		// volume is the scheme's. VOQsw's 16-KB injection queue towards
		// the tree fills and stalls its senders: about a quarter of IQ's
		// volume (measured 12,004 and 11,414 packets against 42,512), all
		// of it delivered by 2,000 µs, so its tree is gone; IQ's 128-KB
		// injection FIFO lets its senders generate the paper's volume
		// (16 × 2,656 packets), of which host 32's 1-B/ns link has taken
		// less than half by 2,000 µs: its tree still stands.
		h, hs := hot["iq"], hot["voqsw"]
		t.Logf("case %d hotspot packets: IQ %d generated, %d delivered; VOQsw %d, %d", cc, h.Generated, h.Delivered, hs.Generated, hs.Delivered)
		if hs.Generated == 0 || 3*hs.Generated > h.Generated {
			t.Errorf("case %d: VOQsw's senders generated %d hotspot packets, want under a third of IQ's %d (stalled by the 16-KB injection queue)", cc, hs.Generated, h.Generated)
		}
		if hs.Delivered != hs.Generated {
			t.Errorf("case %d: VOQsw delivered %d of its %d hotspot packets by 2,000 µs, want all (its tree drained)", cc, hs.Delivered, hs.Generated)
		}
		if 2*h.Delivered >= h.Generated || h.Generated < 16*2656*9/10 {
			t.Errorf("case %d: IQ's hotspot %d generated, %d delivered by 2,000 µs: want ≥ 90%% of 16 × 2,656 generated and under half delivered (its tree still stands)", cc, h.Generated, h.Delivered)
		}
		ideal := 24.6 // RECN paper Table 1's loads: 24·63/64 + 1
		if cc == 2 {
			ideal = 48.3
		}
		t.Logf("case %d IQ: before %.1f, 800–970 µs %.1f, 970–1300 µs %.1f, 1300–1800 µs %.1f, 1800–2000 µs %.1f B/ns", cc, mean(iq, 400, 800), mean(iq, 800, 970), mean(iq, 970, 1300), mean(iq, 1300, 1800), mean(iq, 1800, 2000))
		t.Logf("case %d VOQsw: before %.1f, 800–970 µs %.1f, 970–1300 µs %.1f, 1300–1800 µs %.1f, 1800–2000 µs %.1f B/ns", cc, mean(sw, 400, 800), mean(sw, 800, 970), mean(sw, 970, 1300), mean(sw, 1300, 1800), mean(sw, 1800, 2000))
		// before the tree, both carry the background (no HOL blocking yet)
		for name, r := range map[string][]result.Rate{"IQ": iq, "VOQsw": sw} {
			if m := mean(r, 400, 800); math.Abs(m-ideal) > 1.5 {
				t.Errorf("case %d %s before 800 µs: %.1f B/ns, want %.1f ± 1.5", cc, name, m, ideal)
			}
		}
		// target 10: VOQsw above IQ while the tree stands and drains (in
		// case 2 not over 800–970 µs: IQ falls only after 970 µs here,
		// target 3, and VOQsw at once, as in the paper)
		windows := [][2]float64{{800, 970}, {970, 1300}, {1300, 2000}}
		if cc == 2 {
			windows = windows[1:]
		}
		for _, w := range windows {
			if a, b := mean(sw, w[0], w[1]), mean(iq, w[0], w[1]); a <= b {
				t.Errorf("case %d, %g–%g µs: VOQsw %.1f ≤ IQ %.1f B/ns", cc, w[0], w[1], a, b)
			}
		}
		// case 1, target 6: VOQsw falls to ≈ 20 (accept 16–23, over
		// 970–1,300 µs: the figure gallery's recn-2a) and is back at the
		// VOQnet level only late, well after 970 µs (1,800–2,000 µs within
		// 1.5 of the ideal); target 3 (IQ ≤ 0.65 × 24.6): recn-2a-iq
		if cc == 1 {
			if m := mean(sw, 1800, 2000); math.Abs(m-ideal) > 1.5 {
				t.Errorf("case 1 VOQsw 1800–2000 µs: %.1f B/ns, want back at %.1f ± 1.5", m, ideal)
			}
		}
		if cc == 2 {
			// target 7: VOQsw falls to ≈ 23 (accept 17–30) while the tree
			// drains; the paper's "not recovered by the end" does not hold
			// (logged above: back at the ideal by 1,800 µs)
			if m := mean(sw, 970, 1300); m < 17 || m > 30 {
				t.Errorf("case 2 VOQsw 970–1300 µs: %.1f B/ns, want 17–30 (paper ≈ 23)", m)
			}
			// target 10, case 2 (Fig. 2b): RECN > VOQsw while the tree
			// stands and drains, IQ well below (≤ 0.65 of the ideal;
			// 4Q is within ±25% of IQ, TestRECNFig2VOQnetAnd4Q; VOQnet
			// at the ideal, the same). RECN's run is cut at 1,300 µs.
			c := config.RECNMechanism(2)
			c.Sim.Cycles = 1300e3 / 8
			_, r := runRates(t, c, 10e3)
			rn := r[0]
			t.Logf("case 2 RECN: 800–1300 µs %.1f, 970–1300 µs %.1f B/ns", mean(rn, 800, 1300), mean(rn, 970, 1300))
			for _, w := range [][2]float64{{800, 1300}, {970, 1300}} {
				if a, b := mean(rn, w[0], w[1]), mean(sw, w[0], w[1]); a <= b {
					t.Errorf("case 2, %g–%g µs: RECN %.1f ≤ VOQsw %.1f B/ns", w[0], w[1], a, b)
				}
			}
			if m := mean(iq, 970, 1300); m > 0.65*ideal {
				t.Errorf("case 2 IQ 970–1300 µs: %.1f B/ns, want ≤ 0.65 × %.1f (well below VOQnet)", m, ideal)
			}
		}
	}
}

// runRates runs c with seed 1 and returns its result and its throughput
// against time in bins of each width (ns).
func runRates(t *testing.T, c config.Config, binsNs ...float64) (*result.Result, [][]result.Rate) {
	t.Helper()
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]result.Rate, len(binsNs))
	for i, w := range binsNs {
		if out[i], err = res.Throughput(w); err != nil {
			t.Fatal(err)
		}
	}
	return res, out
}
