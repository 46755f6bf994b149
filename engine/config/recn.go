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
// senders at their link's rate (§4.2: "at the full link rate", one packet
// per packet time, held by their interface and stalling when it is full;
// traffic.hotspotLinkRate), the UN background over every host (host 32
// included), 64-byte
// packets, no warm-up (the paper's curves start at 0), 2,000 µs in 5-µs
// intervals, one seed, and the physical basis (8 Gb/s, 8-byte phits) so
// that the throughput reads in bytes/ns.
func RECNCornerCase(cornerCase int) Config {
	c := FatTree(4, 3, 0)
	c.Physical = Physical{LinkGbps: 8, PhitBytes: 8}
	t := &c.Traffic
	t.Pattern, t.HotspotNode, t.HotspotSenders, t.HotspotBackground = "HOTSPOT", RECNHotspot, RECNSenders(true), "UN"
	t.HotspotStart, t.HotspotEnd = int(RECNStartNs/recnCycleNs), int(RECNEndNs/recnCycleNs)
	t.HotspotLinkRate = true
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
// Each scheme divides a port side's 128 KB equally among its queues (RECN
// paper §4.3): 4q and voqnet split router.localBuffer themselves, voqsw
// (router.voq) gives each of its queues the whole buffer, so its input and
// injection buffers are set to the paper's 16 KB, 128 KB over a queue per
// port of the 8-port switch (its output FIFO keeps 128 KB).
func RECNBaseline(cornerCase int, queueing string) Config {
	c := RECNCornerCase(cornerCase)
	c.Router.Queueing = queueing
	if queueing == "voqsw" {
		c.Router.LocalBuffer, c.Router.InjectionBuffer = voqswQueue(c.Router.LocalBuffer, c.Topology.K), voqswQueue(c.Router.InjectionBuffer, c.Topology.K)
	}
	return c
}

// voqswQueue is one of VOQsw's queues: a port side's memory (phits) over a
// queue per port of the fat tree's 2k-port switch.
func voqswQueue(side, k int) int { return side / (2 * k) }

// RECNMechanism is corner case 1 or 2 under RECN itself
// (congestion.scheme=recn: its sides replace the router's queues).
func RECNMechanism(cornerCase int) Config {
	c := RECNCornerCase(cornerCase)
	c.Congestion.Scheme = "recn"
	c.Name = fmt.Sprintf("recn-case%d-recn", cornerCase)
	return c
}

// RECNLargeSchemes are the series of the RECN paper's Fig. 6 (§4.4):
// RECN, VOQnet and VOQsw at 256 hosts (Fig. 6a), RECN and VOQnet at 512
// (Fig. 6b), as RECNLarge's scheme and the figure's names.
var RECNLargeSchemes = map[int][]struct{ Scheme, Name string }{
	256: {{"recn", "RECN"}, {"voqnet", "VOQnet"}, {"voqsw", "VOQsw"}},
	512: {{"recn", "RECN"}, {"voqnet", "VOQnet"}},
}

// RECNLarge is corner case 2 scaled to the RECN paper's larger networks
// (§4.4, Fig. 6): 256 hosts (a 4-ary 4-tree of 256 switches, 128 KB per
// side) or 512 hosts (640 switches in 5 stages, subtrees=2, 192 KB per
// side); a quarter of the hosts, one per leaf as at 64 hosts (h ≡ 3 (mod
// 4)), send to host hosts/2 at 100% from 800 to 970 µs (the paper's
// 170 µs), the other three quarters UN at 100%; 64-byte packets, 10-µs
// intervals. scheme is "recn" (congestion.scheme) or a router.queueing
// value. Where the paper's memory does not fit the 3-GiB bound of one run
// (config.MaxStateBytes) the configuration says so (VOQsw has the paper's
// equal partition, 8 queues of 16 KB per port side, as in RECNBaseline);
// VOQnet at 512 hosts 160 KB per side (512 queues of 5 packets
// at its inputs and interfaces; 192 KB there needs 3.4 GiB, and a 192-KB
// output FIFO beside 160-KB inputs 3.03 GiB); RECN at 512
// hosts runs 1,100 µs (over 2,000 µs the packets its hosts may generate
// bound the run at 4.61 GiB by the estimate).
func RECNLarge(hosts int, scheme string) (Config, error) {
	stages, subtrees := 4, 0
	switch hosts {
	case 256:
	case 512:
		stages, subtrees = 5, 2
	default:
		return Config{}, fmt.Errorf("the RECN paper's Fig. 6 has 256 and 512 hosts, not %d", hosts)
	}
	ok := false
	for _, s := range RECNLargeSchemes[hosts] {
		ok = ok || s.Scheme == scheme
	}
	if !ok {
		return Config{}, fmt.Errorf("the RECN paper's Fig. 6 has no %q at %d hosts (%v)", scheme, hosts, RECNLargeSchemes[hosts])
	}
	c := RECNCornerCase(2)
	ft := FatTree(4, stages, subtrees)
	c.Topology = ft.Topology
	r := &c.Router
	r.LocalBuffer, r.InjectionBuffer, r.OutputBuffer = ft.Router.LocalBuffer, ft.Router.InjectionBuffer, ft.Router.OutputBuffer
	var senders []string
	for h := recnStrideOff; h < hosts; h += 4 {
		senders = append(senders, fmt.Sprint(h))
	}
	c.Traffic.HotspotNode, c.Traffic.HotspotSenders = hosts/2, strings.Join(senders, ",")
	c.Sim.Interval = int(2 * RECNBinNs / recnCycleNs)
	switch scheme {
	case "recn":
		c.Congestion.Scheme = "recn"
		if hosts == 512 {
			c.Sim.Cycles = int(RECNLargeRunNs / recnCycleNs)
		}
	case "voqsw":
		c.Router.Queueing = scheme
		r.LocalBuffer, r.InjectionBuffer = voqswQueue(ft.Router.LocalBuffer, 4), voqswQueue(ft.Router.InjectionBuffer, 4)
	case "voqnet":
		c.Router.Queueing = scheme
		if hosts == 512 {
			r.LocalBuffer, r.InjectionBuffer, r.OutputBuffer = 160<<10/8, 160<<10/8, 160<<10/8
		}
	}
	c.Name = fmt.Sprintf("recn-fig6%c-%s", map[int]byte{256: 'a', 512: 'b'}[hosts], scheme)
	return c, nil
}

// RECNLargeRunNs is the 512-host RECN run's length (RECNLarge).
const RECNLargeRunNs = 1100e3

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
			scheme := sc.Name
			if sc.Queueing == "voqsw" {
				scheme += " (8 queues of 16 KB per port)"
			}
			out = append(out, Preset{name, fmt.Sprintf("RECN paper Fig. 2, corner case %d with %s: fattree64, 48 hosts UN at %s, 16 hosts (one per leaf) → host 32 at their link's rate (100%%) from 800 to 970 µs, 64-byte packets, 2,000 µs in 5-µs bins (throughput in bytes/ns)", cc, scheme, bg), c})
		}
		c := RECNMechanism(cc)
		out = append(out, Preset{c.Name, fmt.Sprintf("RECN paper Figs. 2 and 4, corner case %d with RECN (set-aside queues): fattree64, the same traffic, 2,000 µs in 5-µs bins (throughput in bytes/ns; Fig. 4's SAQs at the busiest ingress side, egress side and in the network per bin in result.recn, the page's SAQ chart)", cc), c})
	}
	for _, hosts := range []int{256, 512} {
		for _, s := range RECNLargeSchemes[hosts] {
			c, err := RECNLarge(hosts, s.Scheme)
			if err != nil {
				panic(err)
			}
			b, _ := c.Basis()
			out = append(out, Preset{c.Name, fmt.Sprintf("RECN paper Fig. 6%c, corner case 2 scaled, with %s: %d-host fat tree (%d switches), %d hosts UN at 100%%, %d (one per leaf) → host %d at their link's rate (100%%) from 800 to 970 µs, %g µs in 10-µs bins (throughput in bytes/ns; minutes of CPU)",
				map[int]byte{256: 'a', 512: 'b'}[hosts], s.Name, hosts, map[int]int{256: 256, 512: 640}[hosts], hosts*3/4, hosts/4, hosts/2, b.Ns(float64(c.Sim.Cycles))/1e3), c})
		}
	}
	return out
}
