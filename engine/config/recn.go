package config

import (
	"fmt"
	"strings"
)

// The corner cases of Duato et al., "A New Scalable and Cost-Effective
// Congestion Management Strategy for Lossless Multistage Interconnection
// Networks" (RECN paper) §4.2, Table 1, on its 64-host fat tree: 48 hosts
// send uniform random traffic the whole run (50% of the link in case 1,
// 100% in case 2), and 16 hosts send to host 32 at 100% from 800 to 970 µs.
const (
	RECNHotspot   = 32
	RECNStartNs   = 800e3
	RECNEndNs     = 970e3
	RECNRunNs     = 2000e3
	RECNBinNs     = 5e3 // the zoom views' bins; the overview merges two
	recnCycleNs   = 8   // FatTree: 8-byte phits at 8 Gb/s
	recnStrideOff = 3   // the senders are the hosts h ≡ 3 (mod 4)
)

// RECNSenders are the corner cases' 16 hotspot senders. The paper does not
// say which hosts they are; contiguous, hosts 48–63 (one level-2 subtree),
// or strided, one per leaf switch (hosts 3, 7, …, 63; host 32 ≡ 0 (mod 4)
// is not among them). Under D-mod-k only the strided set puts the tree
// where the background meets it (engine/REPRODUCTION.md, "RECN paper").
func RECNSenders(strided bool) string {
	var s []string
	for i := 0; i < 16; i++ {
		h := 48 + i
		if strided {
			h = 4*i + recnStrideOff
		}
		s = append(s, fmt.Sprint(h))
	}
	return strings.Join(s, ",")
}

// RECNCornerCase is corner case 1 or 2 on the fattree64 network with the IQ
// baseline (one queue per input; router.voq=true makes it VOQsw), strided
// senders, the UN background over every host (host 32 included), 64-byte
// packets, no warm-up (the paper's curves start at 0), 2,000 µs in 5-µs
// intervals, one seed, and the physical basis (8 Gb/s, 8-byte phits) so
// that the throughput reads in bytes/ns.
func RECNCornerCase(cornerCase int) Config {
	c := FatTree(4, 3, 0)
	c.Physical = Physical{LinkGbps: 8, PhitBytes: 8}
	t := &c.Traffic
	t.Pattern, t.HotspotNode, t.HotspotSenders, t.HotspotBackground = "HOTSPOT", RECNHotspot, RECNSenders(true), "UN"
	t.HotspotStart, t.HotspotEnd = int(RECNStartNs/recnCycleNs), int(RECNEndNs/recnCycleNs)
	t.Load = 0.5
	if cornerCase == 2 {
		t.Load = 1
	}
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, int(RECNRunNs/recnCycleNs), 1
	c.Sim.Interval = int(RECNBinNs / recnCycleNs)
	return c
}

// RECNSchemes are the RECN paper's baselines (§4.3) as router.queueing
// values, in Fig. 2's legend order, with their names there.
var RECNSchemes = []struct{ Queueing, Name string }{{"iq", "IQ"}, {"4q", "4Q"}, {"voqsw", "VOQsw"}, {"voqnet", "VOQnet"}}

// RECNBaseline is corner case 1 or 2 under one of RECNSchemes' queueing
// schemes (router.queueing set, so out-of-order deliveries are counted).
func RECNBaseline(cornerCase int, queueing string) Config {
	c := RECNCornerCase(cornerCase)
	c.Router.Queueing = queueing
	return c
}

// RECNMechanism is corner case 1 or 2 under RECN itself
// (congestion.scheme=recn: its sides replace the router's queues).
func RECNMechanism(cornerCase int) Config {
	c := RECNCornerCase(cornerCase)
	c.Congestion.Scheme = "recn"
	c.Name = fmt.Sprintf("recn-case%d-recn", cornerCase)
	return c
}

func recnPresets() []Preset {
	var out []Preset
	for _, cc := range []int{1, 2} {
		for _, sc := range RECNSchemes {
			c := RECNBaseline(cc, sc.Queueing)
			name := fmt.Sprintf("recn-case%d", cc)
			if sc.Queueing != "iq" {
				name += "-" + sc.Queueing
			}
			c.Name = name
			bg := "50%"
			if cc == 2 {
				bg = "100%"
			}
			out = append(out, Preset{name, fmt.Sprintf("RECN paper Fig. 2, corner case %d with %s: fattree64, 48 hosts UN at %s, 16 hosts (one per leaf) → host 32 at 100%% from 800 to 970 µs, 64-byte packets, 2,000 µs in 5-µs bins (throughput in bytes/ns)", cc, sc.Name, bg), c})
		}
		c := RECNMechanism(cc)
		out = append(out, Preset{c.Name, fmt.Sprintf("RECN paper Fig. 2, corner case %d with RECN (set-aside queues): fattree64, the same traffic, 2,000 µs in 5-µs bins (throughput in bytes/ns)", cc), c})
	}
	return out
}
