package facts

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sim"
)

func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		h, a, p                int
		groups, routers, nodes int
		radix                  int
	}{
		{2, 4, 2, 9, 36, 72, 7},
		{4, 8, 4, 33, 264, 1056, 15},
		{8, 16, 8, 129, 2064, 16512, 31},
	} {
		c := config.Default()
		c.Topology.H, c.Topology.A, c.Topology.P = tc.h, tc.a, tc.p
		f := Of(&c)
		if f.Groups != tc.groups || f.Routers != tc.routers || f.Nodes != tc.nodes || f.Radix != tc.radix {
			t.Errorf("h=%d: got %+v", tc.h, f)
		}
	}
}

func TestBounds(t *testing.T) {
	c := config.Default() // h=8 a=16 p=8
	c.Traffic.Pattern = "ADV"
	f := Of(&c)
	if f.MinAdvCap != 1.0/128 || f.Bound != f.MinAdvCap {
		t.Errorf("MIN/ADV cap %v bound %v", f.MinAdvCap, f.Bound)
	}
	c.Traffic.Pattern = "ADVC"
	if f = Of(&c); math.Abs(f.Bound-8.0/128) > 1e-15 {
		t.Errorf("ADVc cap %v", f.Bound)
	}
	c.Traffic.AdvcFogsim = true
	if f = Of(&c); math.Abs(f.Bound-7.0/128) > 1e-15 {
		t.Errorf("ADVc fogsim cap %v", f.Bound)
	}
	c.Routing.Name = "VAL"
	if f = Of(&c); f.Bound != 0.5 || f.ValBound != 0.5 {
		t.Errorf("VAL bound %v", f.Bound)
	}
	c.Routing.Name, c.Traffic.Pattern = "MIN", "UN"
	if f = Of(&c); f.Bound != 0 {
		t.Errorf("MIN/UN has no simple bound, got %v", f.Bound)
	}
}

func TestVCs(t *testing.T) {
	c := config.Default()
	for _, tc := range []struct {
		routing       string
		reactive      bool
		inj, loc, glo int
	}{
		{"MIN", false, 3, 3, 2},
		{"VAL", false, 3, 4, 2},
		{"VAL_GROUP", false, 3, 3, 2},
		{"VAL", true, 4, 8, 4},
	} {
		c.Routing.Name, c.Traffic.Reactive = tc.routing, tc.reactive
		f := Of(&c)
		if f.InjectionVCs != tc.inj || f.LocalVCs != tc.loc || f.GlobalVCs != tc.glo {
			t.Errorf("%s reactive=%v: %d/%d/%d", tc.routing, tc.reactive, f.InjectionVCs, f.LocalVCs, f.GlobalVCs)
		}
	}
}

func TestInvalidTopology(t *testing.T) {
	c := config.Default()
	c.Topology.H = 0
	if f := Of(&c); f.Nodes != 0 {
		t.Errorf("got %+v", f)
	}
}

func TestGraph500Work(t *testing.T) {
	c, err := config.PresetByName("graph500-h2")
	if err != nil {
		t.Fatal(err)
	}
	f := Of(&c)
	// the BFS's estimated length, not the 50M-cycle cap
	if f.Work <= 0 || f.Work > float64(f.Nodes)*1e6 {
		t.Errorf("graph500-h2 work %g node-cycles", f.Work)
	}
	c.Workload.QueryBytes = 0 // invalid: no estimate, and no panic
	if g := Of(&c); g.Work != float64(g.Nodes)*float64(c.Sim.Cycles) {
		t.Errorf("invalid config work %g", g.Work)
	}
}

// The Graph500 facts equal what the engine reports for a run of the same
// configuration (engine/sim's conversion of the workload section and
// graph500.Job.Report), and the thesis's numbers for the preset.
func TestGraph500Facts(t *testing.T) {
	c, err := config.PresetByName("graph500-h2")
	if err != nil {
		t.Fatal(err)
	}
	g := Of(&c).Graph500
	if g == nil {
		t.Fatal("no Graph500 facts")
	}
	// 512-byte phits at 40 Gb/s: 102.4 ns; tq = 1.5 ns = 0.0146484375 cycles;
	// a 4 kB message is one 8-phit packet; eq. 2.20: 8/(tq·256) = 2.13 → 1
	if g.CycleNs != 102.4 || g.TqCycles != 1.5/102.4 || g.MessagePhits != 8 || g.Pinj != 1 ||
		math.Abs(g.PinjRaw-8/(1.5/102.4*256)) > 1e-12 || g.Processes != 72 {
		t.Errorf("graph500-h2: %+v", *g)
	}
	for _, tc := range []struct {
		name string
		edit func(*config.Config)
	}{
		{"preset", func(*config.Config) {}},
		{"Mont-Blanc", func(c *config.Config) { c.Workload.Tq = 15 }},
		{"100 Gb/s", func(c *config.Config) { c.Workload.LinkGbps = 100 }},
		{"64-byte phits", func(c *config.Config) { c.Workload.PhitBytes = 64 }},
		{"odd sizes", func(c *config.Config) {
			c.Workload.PhitBytes, c.Workload.QueryBytes, c.Workload.Coalescing, c.Workload.Tq = 24, 20, 100, 40
		}},
		{"tq 0", func(c *config.Config) { c.Workload.Tq = 0 }},
		{"2 groups", func(c *config.Config) { c.Workload.Groups = 2 }},
	} {
		c, _ := config.PresetByName("graph500-h2")
		c.Workload.Scale = 10
		tc.edit(&c)
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		s, err := sim.New(c, 1)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := s.Snapshot().Graph500
		g := Of(&c).Graph500
		if g.CycleNs != want.CycleNs || g.TqCycles != want.TqCycles || g.Pinj != want.Pinj ||
			!(g.PinjRaw == want.PinjRaw) || g.Processes != want.Processes {
			t.Errorf("%s: facts %+v, engine cycle %v ns, tq %v cycles, pinj %v (raw %v), %d processes", tc.name, *g,
				want.CycleNs, want.TqCycles, want.Pinj, want.PinjRaw, want.Processes)
		}
	}
	c.Workload.Kind = "synthetic"
	if Of(&c).Graph500 != nil {
		t.Error("Graph500 facts for synthetic traffic")
	}
	c.Workload.Kind, c.Workload.LinkGbps = "graph500", 0
	if Of(&c).Graph500 != nil {
		t.Error("Graph500 facts with an invalid bandwidth")
	}
}

func TestGraph500Row(t *testing.T) {
	if r := Graph500Of(3, nil); r.Done || r.Seed != 3 {
		t.Errorf("placeholder %+v", r)
	}
	c, _ := config.PresetByName("graph500-h2")
	c.Workload.Scale, c.Sim.Seeds = 10, 1
	s, err := sim.New(c, 5)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := Graph500Of(5, res)
	g := res.Graph500
	if !r.Done || !r.Finished || r.Cycles != g.Cycles || r.Seconds != g.Seconds || r.TEPS != g.TEPS || r.TEPS <= 0 ||
		len(r.Messages) != len(g.Levels) || len(r.Messages) < 2 {
		t.Fatalf("row %+v", r)
	}
	var sum int64
	for i, m := range r.Messages {
		if m != g.Levels[i].Messages {
			t.Errorf("level %d: %d messages, engine %d", i, m, g.Levels[i].Messages)
		}
		sum += m
	}
	if sum != g.Messages {
		t.Errorf("messages per level sum to %d, total %d", sum, g.Messages)
	}
}

func TestSI(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		unit string
		want string
	}{
		{0.0123456, "s", "12.3 ms"}, {1.5e9, "TEPS", "1.5 GTEPS"}, {2.5e-6, "s", "2.5 µs"}, {0, "s", "0 s"},
		{1234, "", "1.23 k"}, {999.96, "s", "1 ks"}, {42, "B", "42 B"}, {math.NaN(), "s", "—"}, {-0.002, "s", "-2 ms"},
	} {
		if got := SI(tc.x, tc.unit); got != tc.want {
			t.Errorf("SI(%g, %q) = %q, want %q", tc.x, tc.unit, got, tc.want)
		}
	}
	for n, want := range map[int64]string{950: "950", 16123: "16.1k", 2345678: "2.35M"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

// The page shows p_inj clamped, with the unclamped value when the clamp bites,
// and says "unbounded" for instant nodes (tq = 0) instead of printing the
// largest float64 the engine reports then.
func TestPinjText(t *testing.T) {
	c, err := config.PresetByName("graph500-h2")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tq   float64
		want string
	}{{1.5, "1 (2.133 clamped)"}, {15, "0.2133"}, {0, "1 (unbounded, clamped)"}} {
		c.Workload.Tq = tc.tq
		if got := Of(&c).Graph500.PinjText(); got != tc.want {
			t.Errorf("tq = %g: p_inj shown as %q, want %q", tc.tq, got, tc.want)
		}
	}
}

// With a physical basis (the QCN-Switch paper's Table I preset at h=4,
// 40 Gb/s links) the facts give loads in Gb/s per node too: MIN's ADV+1
// cap 1/(a·p) = 1/32 is 1.25 Gb/s; without one, the load alone.
func TestLoadsInGbps(t *testing.T) {
	c, _ := config.PresetByName("ethernet-h4")
	f := Of(&c)
	if f.Basis == nil || f.Basis.CycleNs() != 20 || f.Load(f.MinAdvCap) != "0.03125 = 1.25 Gb/s per node" || f.Load(0.5) != "0.5 = 20 Gb/s per node" {
		t.Errorf("%+v %q", f.Basis, f.Load(f.MinAdvCap))
	}
	c, _ = config.PresetByName("h4")
	if f := Of(&c); f.Basis != nil || f.Load(f.MinAdvCap) != "0.03125" {
		t.Errorf("without a basis: %q", f.Load(f.MinAdvCap))
	}
}

// The flattened butterflies of Kim et al. (Contention-based Congestion
// Management in Large-Scale Networks §V-A): routers, radix and bisection
// of the paper's three networks, and MIN's link bounds: 1/p under TORNADO
// (0.25 on 16 nodes, 0.125 on 512, the paper's derived bounds), under UN
// 15/16 on 16 nodes and 511/512 on 512 (every link carries just below a
// node's load at full UR); no MIN bound for UGAL.
func TestFBFlyFacts(t *testing.T) {
	for _, tc := range []struct {
		dims, k, p                    int
		routers, nodes, radix, bisect int
		tornado, un                   float64
	}{
		{1, 4, 4, 4, 16, 7, 4, 0.25, 15.0 / 16},
		{1, 16, 16, 16, 256, 31, 64, 1.0 / 16, 255.0 / 256},
		{2, 8, 8, 64, 512, 22, 128, 0.125, 511.0 / 512},
	} {
		c := config.FBFly(tc.dims, tc.k, tc.p)
		f := Of(&c)
		if f.Routers != tc.routers || f.Nodes != tc.nodes || f.Radix != tc.radix || f.BisectionLinks != tc.bisect {
			t.Errorf("%+v: %+v", tc, f)
		}
		if math.Abs(f.Bound-tc.un) > 1e-12 {
			t.Errorf("%+v: MIN UN bound %v (%s), want %v", tc, f.Bound, f.Why, tc.un)
		}
		c.Traffic.Pattern = "TORNADO"
		if f = Of(&c); math.Abs(f.Bound-tc.tornado) > 1e-12 {
			t.Errorf("%+v: MIN TORNADO bound %v, want %v", tc, f.Bound, tc.tornado)
		}
		c.Routing.Name = "UGAL"
		if f = Of(&c); f.Bound != 0 {
			t.Errorf("%+v: UGAL bound %v", tc, f.Bound)
		}
	}
}

// The panel's lines follow the topology kind: a Dragonfly's name its
// formulas and adversarial caps; a mesh's and a flattened butterfly's show
// their sizes and no Dragonfly formula (no groups, no a·p cap).
func TestItemsPerKind(t *testing.T) {
	mesh := config.Default()
	mesh.Topology.Kind, mesh.Topology.Width, mesh.Topology.Height, mesh.Topology.P = "mesh", 8, 4, 2
	fb := config.FBFly(2, 8, 8)
	fb.Traffic.Pattern = "TORNADO"
	ft := config.FatTree(4, 5, 2)
	ft.Traffic.Pattern = "UN"
	// the RECN paper's 64-host fat tree on its physical basis (§4.1:
	// 8 ns a cycle), and Kim et al.'s 16-node flattened butterfly under CBCM
	recn := config.RECNMechanism(1)
	recn512, err := config.RECNLarge(512, "recn")
	if err != nil {
		t.Fatal(err)
	}
	cbcm := config.FBFly(1, 4, 4)
	cbcm.Congestion.Scheme = "cbcm"
	for _, tc := range []struct {
		name string
		c    config.Config
		want map[string]string
	}{
		// the thesis's h=8: G = 16·8+1, radix 8+15+8, 1/(16·8)
		{"dragonfly", config.Default(), map[string]string{"groups G = a·h+1": "129", "radix p+a−1+h": "31", "MIN/ADV+1 cap 1/(a·p)": "0.007812"}},
		{"mesh", mesh, map[string]string{"routers": "32", "nodes": "64", "radix": "6"}},
		{"fbfly", fb, map[string]string{"routers": "64", "nodes": "512", "radix": "22", "VCs inj/transit": "4 / 4",
			"bound of this config": "0.125 (MIN under TORNADO: the 8 nodes of a router share one link, 1/p)", "bisection links": "128"}},
		{"fbfly-cbcm", cbcm, map[string]string{"routers": "4", "nodes": "16", "radix": "7", "bisection links": "4",
			"CBCM detector storage": fmt.Sprintf("%d bytes per router", CbcmDetectorBits(7, 100, 10)/8)}},
		// §4.1: 128 KB of memory at each port's ingress and egress side
		{"fattree-recn", recn, map[string]string{"hosts": "64", "switches": "48", "bisection links": "32", "cycle 8·phitBytes/linkGbps": "8 ns",
			"memory per port side": "128 KiB (16384 phits of 8 bytes) ingress, 128 KiB egress"}},
		// §4.4, Fig. 6b: 192 KB a side at 512 hosts
		{"fattree-recn-512", recn512, map[string]string{"hosts": "512", "switches": "640",
			"memory per port side": "192 KiB (24576 phits of 8 bytes) ingress, 192 KiB egress"}},
		// the RECN paper's 512 hosts on 640 switches in 5 stages
		{"fattree", ft, map[string]string{"hosts": "512", "switches": "640", "stages": "5", "radix 2k": "8", "bisection links": "256",
			"VCs inj/transit": "1 / 1", "bound of this config": "1 (MIN (D-mod-k) under UN: full bisection, the host links bound it)",
			"memory per port side": fmt.Sprintf("%d phits ingress, %d egress", ft.Router.LocalBuffer, ft.Router.OutputBuffer)}},
	} {
		f := Of(&tc.c)
		got := map[string]string{}
		for _, it := range f.Items(&tc.c) {
			if _, twice := got[it.Key]; twice {
				t.Errorf("%s: %q listed twice (%q, %q)", tc.name, it.Key, got[it.Key], it.Value)
			}
			got[it.Key] = it.Value
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %q = %q, want %q (items %v)", tc.name, k, got[k], v, got)
			}
		}
		if tc.name != "dragonfly" {
			for k := range got {
				if k == "cycle 8·phitBytes/linkGbps" { // the physical basis's, every kind's
					continue
				}
				if strings.ContainsAny(k, "aGh") && strings.Contains(k, "·") || strings.Contains(k, "groups") || strings.Contains(k, "ADV") {
					t.Errorf("%s: a Dragonfly line %q", tc.name, k)
				}
			}
		}
	}
}

// The panel warns of a buffer that cannot cover its loop, as phitsim
// validate does (config.BufferLoops): FOGSim's example buffers under the
// ACOR paper's 90-cycle switch; the thesis router has no such line.
func TestItemsWarnOfBufferLoops(t *testing.T) {
	c := config.Default()
	f := Of(&c)
	for _, it := range f.Items(&c) {
		if strings.HasPrefix(it.Key, "warning") {
			t.Errorf("thesis router: %v", it)
		}
	}
	c.Router.XbarLatency, c.Router.PacketSize = 90, 10
	c.Topology.LocalLatency, c.Topology.GlobalLatency = 15, 150
	var got []string
	for _, it := range f.Items(&c) {
		if strings.HasPrefix(it.Key, "warning") {
			got = append(got, it.Key+": "+it.Value)
		}
	}
	want := []string{"warning: router.localBuffer: 32 phits cap 0.25 phits/cycle per VC",
		"warning: router.globalBuffer: 256 phits cap 0.64 phits/cycle per VC",
		"warning: router.outputBuffer: 32 phits cap 0.31 phits/cycle per port"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("panel warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Kim et al., Contention-based Congestion Management in Large-Scale
// Networks §V-D: a radix-64 router with 100 moving-average samples and 10
// min and 10 max samples per output needs ≈ 5.6 KB: 64 × 120 × 6 bits =
// 5,760 bytes. The 512-node 2D flattened butterfly's radix-22 router under
// CBCM: 22 × 120 × 5 bits; other schemes show none.
func TestCbcmDetectorStorageKimVD(t *testing.T) {
	if got := CbcmDetectorBits(64, 100, 10); got != 64*120*6 || got/8 != 5760 {
		t.Errorf("radix 64, 100 samples, bound interval 10: %d bits, want 46,080 (5,760 bytes)", got)
	}
	c := config.FBFly(2, 8, 8)
	if f := Of(&c); f.CbcmBits != 0 {
		t.Errorf("no CBCM: %d bits, want 0", f.CbcmBits)
	}
	c.Congestion.Scheme = "cbcm"
	if f := Of(&c); f.Radix != 22 || f.CbcmBits != 22*120*5 {
		t.Errorf("512-node flattened butterfly under CBCM: radix %d, %d bits, want 22 and %d", f.Radix, f.CbcmBits, 22*120*5)
	}
	c.Congestion.CbcmSamples, c.Congestion.CbcmBoundInterval = 50, 5
	if f := Of(&c); f.CbcmBits != 22*70*5 {
		t.Errorf("50 samples, bound interval 5: %d bits, want %d", f.CbcmBits, 22*70*5)
	}
}

// The panel lists the VCs a mechanism adds above the data VCs, per port
// class, as the engine lays them out (config.MechanismVCs): CBCM on the
// 16-node flattened butterfly its hotspot VC and control VC (one each on an
// injection port, one each on a link: dimension order on one VC), SRP two
// control VCs (requests and replies) besides its speculative one,
// QCN-Switch on the Dragonfly its CNMs' 2 local and 1 global; nothing
// without a mechanism.
func TestFactsMechanismVCs(t *testing.T) {
	item := func(c config.Config) string {
		f := Of(&c)
		for _, it := range f.Items(&c) {
			if it.Key == "VCs the mechanism adds" {
				return it.Value
			}
		}
		return ""
	}
	c := config.FBFly(1, 4, 4)
	if v := item(c); v != "" {
		t.Errorf("no mechanism: %q", v)
	}
	c.Congestion.Scheme = "cbcm"
	if v := item(c); v != "injection 2, link 2" {
		t.Errorf("CBCM: %q", v)
	}
	c.Congestion.Scheme = "srp"
	if v := item(c); v != "injection 3, link 3" {
		t.Errorf("SRP: %q", v)
	}
	d := config.Default()
	d.Routing.Name = "QCN_SWITCH"
	if v := item(d); v != "injection 1, local 2, global 1" {
		t.Errorf("QCN-Switch: %q", v)
	}
}
