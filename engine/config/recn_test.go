package config

import (
	"strconv"
	"strings"
	"testing"
)

// RECN paper (Duato et al., "A New Scalable and Cost-Effective Congestion
// Management Strategy for Lossless Multistage Interconnection Networks")
// §4.4, Fig. 6: the presets recn-fig6a-{recn,voqnet,voqsw} and
// recn-fig6b-{recn,voqnet} are corner case 2 scaled to the 256-host network
// of 256 switches and the 512-host one of 640 (§4.1: 128 KB per port side,
// 192 KB at 512 hosts): three quarters of the hosts UN at the full link
// rate, the remaining quarter (one sender per leaf switch, as at 64 hosts)
// → one host at the full link rate for 170 µs from 800 µs, 64-byte
// packets; every one validates (within one run's memory bound), and
// RECNLarge refuses the sizes and schemes Fig. 6 does not have.
func TestRECNFig6Presets(t *testing.T) {
	for _, x := range []struct {
		hosts, switches, side int // side: bytes per port side
		panel                 string
	}{{256, 256, 128 << 10, "a"}, {512, 640, 192 << 10, "b"}} {
		for _, s := range RECNLargeSchemes[x.hosts] {
			name := "recn-fig6" + x.panel + "-" + s.Scheme
			c, err := PresetByName(name)
			if err != nil {
				t.Fatal(err)
			}
			if errs := c.Validate(); len(errs) != 0 {
				t.Errorf("%s: %v", name, errs)
				continue
			}
			b, ok := c.Basis()
			sz, _ := c.Topology.Sizes()
			if !ok || b.LinkGbps != 8 || sz.Nodes != x.hosts || sz.Routers != x.switches || sz.Radix != 8 {
				t.Errorf("%s: %+v at %g Gb/s; want %d hosts, %d switches of 8 ports at 8 Gb/s", name, sz, b.LinkGbps, x.hosts, x.switches)
			}
			tr := c.Traffic
			if tr.Pattern != "HOTSPOT" || tr.HotspotBackground != "UN" || tr.Load != 1 || tr.HotspotNode != x.hosts/2 ||
				b.Ns(float64(tr.HotspotStart)) != 800e3 || b.Ns(float64(tr.HotspotEnd)) != 970e3 {
				t.Errorf("%s: %s over %s at %g → %d, %g–%g ns; want HOTSPOT over UN at 1 → %d, 800–970 µs", name, tr.Pattern, tr.HotspotBackground,
					tr.Load, tr.HotspotNode, b.Ns(float64(tr.HotspotStart)), b.Ns(float64(tr.HotspotEnd)), x.hosts/2)
			}
			leaves := map[int]bool{}
			for _, f := range strings.Split(tr.HotspotSenders, ",") {
				h, err := strconv.Atoi(f)
				if err != nil || h == tr.HotspotNode || h < 0 || h >= x.hosts {
					t.Errorf("%s: sender %q", name, f)
				}
				leaves[h/4] = true // hosts 4s … 4s+3 share leaf s (TIMING.md, "Fat tree")
			}
			if n := strings.Count(tr.HotspotSenders, ",") + 1; n != x.hosts/4 || len(leaves) != x.hosts/4 {
				t.Errorf("%s: %d senders on %d leaves; want %d, one per leaf", name, n, len(leaves), x.hosts/4)
			}
			if bytes := c.Router.PacketSize * b.PhitBytes; bytes != 64 {
				t.Errorf("%s: %d-byte packets; want 64", name, bytes)
			}
			// the memory per side: the paper's, or what fits one run (config.RECNLarge says why)
			r, phits := c.Router, x.side/b.PhitBytes
			want := [3]int{phits, phits, phits} // input, interface, output
			runUs := RECNRunNs / 1e3
			switch {
			case s.Scheme == "recn":
				if c.Congestion.Scheme != "recn" || r.Queueing != "" {
					t.Errorf("%s: scheme %q, queueing %q", name, c.Congestion.Scheme, r.Queueing)
				}
				if x.hosts == 512 {
					runUs = RECNLargeRunNs / 1e3
				}
			case r.Queueing != s.Scheme || c.Congestion.Scheme != "":
				t.Errorf("%s: queueing %q, scheme %q", name, r.Queueing, c.Congestion.Scheme)
			case s.Scheme == "voqsw": // 8 queues of 16 KB per side
				want[0], want[1] = phits/8, phits/8
			case s.Scheme == "voqnet" && x.hosts == 512:
				want = [3]int{160 << 10 / 8, 160 << 10 / 8, 160 << 10 / 8}
			}
			if got := [3]int{r.LocalBuffer, r.InjectionBuffer, r.OutputBuffer}; got != want {
				t.Errorf("%s: input, interface, output %v phits; want %v", name, got, want)
			}
			if us := b.Ns(float64(c.Sim.Warmup+c.Sim.Cycles)) / 1e3; us != runUs || c.Sim.Warmup != 0 {
				t.Errorf("%s: %g µs with %d warm-up cycles; want %g µs from 0", name, us, c.Sim.Warmup, runUs)
			}
		}
	}
	for _, bad := range []struct {
		hosts  int
		scheme string
	}{{64, "recn"}, {256, "iq"}, {512, "voqsw"}} {
		if _, err := RECNLarge(bad.hosts, bad.scheme); err == nil {
			t.Errorf("RECNLarge(%d, %q) accepted", bad.hosts, bad.scheme)
		}
	}
}

// RECN with a split queueing (RECN paper §4.1's 4Q or VOQnet baselines set
// on the RECN run) is refused on router.queueing naming the values it
// allows beside a congestion scheme, iq and voqsw, not only why.
func TestRECNQueueingNamesAllowed(t *testing.T) {
	for _, q := range []string{"4q", "voqnet"} {
		c := RECNMechanism(1)
		c.Router.Queueing = q
		var got *FieldError
		for _, e := range c.Validate() {
			if e.Path == "router.queueing" {
				got = e
			}
		}
		if got == nil || got.Value != q || !strings.Contains(got.Msg, "with congestion.scheme=recn it must be iq or voqsw") {
			t.Errorf("router.queueing=%s with recn: %v", q, got)
		}
	}
}

// A misspelt traffic.hotspotBackground on a fat tree (the RECN paper's
// corner cases, Table 1: UN) gets the enum's one error, not also the
// refusal of a tornado background off the flattened butterfly; a tornado
// there gets only that refusal.
func TestHotspotBackgroundErrorsOnFatTree(t *testing.T) {
	for _, x := range []struct{ bg, want string }{{"un", "must be one of UR, TORNADO, TORNADO_RAND, UN"}, {"TORNADO", "TORNADO runs on topology.kind=fbfly only (as traffic.pattern); on fattree, only UR, UN"}} {
		c := RECNCornerCase(1)
		c.Traffic.HotspotBackground = x.bg
		var msgs []string
		for _, e := range c.Validate() {
			if e.Path == "traffic.hotspotBackground" {
				msgs = append(msgs, e.Msg)
			}
		}
		if len(msgs) != 1 || !strings.Contains(msgs[0], x.want) {
			t.Errorf("hotspotBackground=%s: %q, want one error saying %q", x.bg, msgs, x.want)
		}
	}
}

// RECN without a physical basis is refused naming what to set and the
// RECN paper's values (§4.1: 8 Gb/s links, 8-byte phits), not only that a
// basis is missing.
func TestRECNWithoutBasisSaysWhatToSet(t *testing.T) {
	c := RECNMechanism(1)
	c.Physical = Physical{}
	var msg string
	for _, e := range c.Validate() {
		if e.Path == "physical.phitBytes" {
			msg = e.Msg
		}
	}
	if !strings.Contains(msg, "set physical.linkGbps and physical.phitBytes (the RECN paper's 8 and 8)") {
		t.Errorf("physical.phitBytes: %q", msg)
	}
}

// The fattree64 and fattree256 presets are the RECN paper's networks on its
// switch (§4.1: 8-byte phits on 8 Gb/s links, 8 ns a cycle), so they carry
// that physical basis as the corner cases do: the page and the CLI show
// their times in ns and buffers in bytes (128 KB a port side).
func TestFatTreePresetsHaveThePapersBasis(t *testing.T) {
	for _, name := range []string{"fattree64", "fattree256"} {
		c, err := PresetByName(name)
		if err != nil {
			t.Fatal(err)
		}
		b, ok := c.Basis()
		if !ok || b.CycleNs() != 8 || b.Bytes(float64(c.Router.LocalBuffer)) != 128<<10 {
			t.Errorf("%s: basis %+v (%v)", name, b, ok)
		}
		if errs := c.Validate(); len(errs) > 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}
}
