package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestStateBytesOfThePresets(t *testing.T) {
	h8, _ := PresetByName("h8")
	b := h8.StateBytes()
	// 2,064 routers × ≈1,700 buffer slots × (8 B ring + 128 B pooled packet,
	// worst case) + the links' packets and the network's tables
	if b < 400<<20 || b > 700<<20 {
		t.Errorf("h8 preset estimate %d MiB, want 400–700", b>>20)
	}
	for _, p := range Presets() {
		if errs := p.Config.validateMemory(); errs != nil {
			t.Errorf("%s preset refused: %v", p.Name, errs)
		}
	}
}

func TestHugeBuffersAreRefusedNamingTheBuffer(t *testing.T) {
	c, _ := PresetByName("h8")
	c.Router.GlobalBuffer = 1000000
	errs := c.validateMemory()
	if len(errs) != 1 || errs[0].Path != "router.globalBuffer" || !strings.Contains(errs[0].Msg, "GiB") {
		t.Fatalf("want one error on router.globalBuffer naming the memory, got %v", errs)
	}
	c, _ = PresetByName("h2")
	c.Router.OutputBuffer = 1000000
	c.Router.PacketSize = 1
	if errs := c.validateMemory(); len(errs) != 1 || errs[0].Path != "router.outputBuffer" {
		t.Fatalf("want one error on router.outputBuffer, got %v", errs)
	}
}

// Regression (the time series was not estimated): sim.interval = 2 on
// graph500-h2-val took 0.75 GiB for the counters alone, estimated at 0.001
// GiB. Now the estimate counts the counters, the result's samples and their
// JSON text over the whole cap, and the validator names sim.interval with
// the smallest interval that fits.
func TestTimeSeriesIsEstimatedAndRefusedNamingTheInterval(t *testing.T) {
	c, _ := PresetByName("graph500-h2-val")
	c.Sim.Interval = 2
	if b := c.StateBytes(); b < 3<<30/4 {
		t.Errorf("estimate %d MiB, want at least the 0.75 GiB of the counters", b>>20)
	}
	errs := c.Validate()
	if len(errs) != 1 || errs[0].Path != "sim.interval" || errs[0].Value != "2" ||
		!strings.Contains(errs[0].Msg, "time series") || !strings.Contains(errs[0].Msg, "sim.interval ≥ ") ||
		!strings.Contains(errs[0].Msg, "sim.cycles = 50000000") {
		t.Fatalf("want one error on sim.interval naming the time series and the interval that fits, got %v", errs)
	}
	// the interval it suggests fits
	var min int
	if _, err := fmtSscanAfter(errs[0].Msg, "sim.interval ≥ ", &min); err != nil {
		t.Fatal(err)
	}
	c.Sim.Interval = min
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("the suggested interval %d is refused: %v", min, errs)
	}
	c.Sim.Interval = min - 2
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "sim.interval" {
		t.Errorf("interval %d, below the suggestion, accepted: %v", min-2, errs)
	}
}

// Regression (PiggyBack's bit history was not estimated): it grows with
// topology.localLatency × routers, 1.65 GB at the allowed maximum on h=8.
func TestPiggyBackHistoryIsEstimated(t *testing.T) {
	c, _ := PresetByName("h8")
	c.Topology.LocalLatency = 100000
	minimal := c.StateBytes()
	c.Routing.Name = "PB"
	grow := c.StateBytes() - minimal
	routers := int64(c.Topology.A * (c.Topology.A*c.Topology.H + 1))
	if want := routers * 100000 * 8; grow < want {
		t.Errorf("PB instead of MIN at localLatency 100000 adds %d MiB to the estimate, want at least the %d MiB of the bit history", grow>>20, want>>20)
	}
	if b := c.StateBytes(); b > MaxStateBytes {
		t.Errorf("h8 with PB at localLatency 100000: estimate %.2f GiB", float64(b)/(1<<30))
	}
	// on 8,224 routers (a=32) the history alone is 6.6 GB: refused, naming
	// the latency
	c.Topology.A = 32
	errs := c.Validate()
	if len(errs) != 1 || errs[0].Path != "topology.localLatency" || !strings.Contains(errs[0].Msg, "PiggyBack") {
		t.Errorf("want one error on topology.localLatency, got %v", errs)
	}
	c.Topology.A = 16
	var hist bool
	for _, p := range c.Memory() {
		hist = hist || strings.Contains(p.What, "PiggyBack")
	}
	c.Routing.Name = "MIN"
	for _, p := range c.Memory() {
		if strings.Contains(p.What, "PiggyBack") {
			t.Error("PiggyBack's history counted for MIN")
		}
	}
	if !hist {
		t.Error("no PiggyBack term for PB")
	}
}

// A source queue holds, at worst, every packet generated: long saturated
// runs are refused naming traffic.sourceQueue.
func TestSourceQueueIsEstimated(t *testing.T) {
	c, _ := PresetByName("h4")
	c.Traffic.SourceQueue, c.Traffic.Load, c.Sim.Cycles = true, 1, 100000000
	errs := c.Validate()
	if len(errs) != 1 || errs[0].Path != "traffic.sourceQueue" || !strings.Contains(errs[0].Msg, "turn it off") {
		t.Fatalf("want one error on traffic.sourceQueue, got %v", errs)
	}
	c.Traffic.SourceQueue = false
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("without the source queue: %v", errs)
	}
}

// Every parameter at its maximum that makes memory grow is either within
// MaxStateBytes or refused on memory, naming a parameter.
func TestMemoryErrorsNameADeclaredParameter(t *testing.T) {
	for _, tc := range []struct{ path, value string }{
		{"sim.histMax", "1000000"}, {"sim.interval", "1"}, {"router.outputBuffer", "1000000"},
		{"topology.globalLatency", "100000"}, {"router.injectionBuffer", "1000000"},
	} {
		c, _ := PresetByName("h8")
		c.Sim.Cycles = 100000000
		if err := c.Set(tc.path, tc.value); err != nil {
			t.Fatal(err)
		}
		errs := c.Validate()
		if c.StateBytes() <= MaxStateBytes {
			if len(errs) > 0 {
				t.Errorf("%s=%s: %v", tc.path, tc.value, errs)
			}
			continue
		}
		if len(errs) != 1 {
			t.Errorf("%s=%s: estimate %d MiB, errors %v", tc.path, tc.value, c.StateBytes()>>20, errs)
			continue
		}
		if _, ok := Lookup(errs[0].Path); !ok && errs[0].Path != "topology" {
			t.Errorf("%s=%s: error on %q, not a parameter", tc.path, tc.value, errs[0].Path)
		}
	}
}

// fmtSscanAfter reads the integer that follows marker in s.
func fmtSscanAfter(s, marker string, x *int) (int, error) {
	_, rest, ok := strings.Cut(s, marker)
	if !ok {
		return 0, fmt.Errorf("%q not in %q", marker, s)
	}
	return fmt.Sscan(rest, x)
}

// ECtN keeps a snapshot of every router's partial counters per group for
// each broadcast in flight (topology.localLatency / routing.ectnPeriod + 1
// of them, R·G·2 bytes each: thesis §4.2.1.4's broadcast every 100 cycles;
// the validator allows 64 at most). At h=8 (2,064 routers, 129 groups) 64
// of them take 34 MB. The counters of the other triggers are counted too,
// for the routings that keep them, and for no other.
func TestContentionCountersAreEstimated(t *testing.T) {
	c, _ := PresetByName("h8")
	c.Topology.LocalLatency = 100000
	c.Routing.Name = "OLM"
	none := c.StateBytes()
	c.Routing.Trigger = "base"
	base := c.StateBytes()
	ports, bufs := int64(2064*31), int64(2064*31*3)
	if grow := base - none; grow < ports*4+bufs*2 {
		t.Errorf("OLM with base adds %d B to the estimate, want at least its counters' %d B", grow, ports*4+bufs*2)
	}
	c.Routing.Trigger = "filtered"
	if grow := c.StateBytes() - base; grow < ports*16 {
		t.Errorf("filtered adds %d B over base, want at least the averages' %d B", grow, ports*16)
	}
	c.Routing.Trigger, c.Routing.EctnPeriod = "ectn", 1563 // 64 broadcasts in flight, the most allowed
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}
	snapshot := int64(2064 * 129 * 2)
	if grow := c.StateBytes() - base; grow < 64*snapshot {
		t.Errorf("ectn adds %d MiB over base, want at least its 64 snapshots' %d MiB", grow>>20, 64*snapshot>>20)
	}
	// UGAL's and PB's injection trigger keep the same state; MIN none
	ectn := c.StateBytes()
	c.Routing.Trigger, c.Routing.InjectionTrigger = "cga", "ectn"
	for _, name := range []string{"UGAL", "PB"} {
		c.Routing.Name = "MIN"
		min := c.StateBytes()
		c.Routing.Name = name
		if grow := c.StateBytes() - min; grow < 64*snapshot {
			t.Errorf("%s with injectionTrigger=ectn adds %d MiB over MIN, want at least %d MiB", name, grow>>20, 64*snapshot>>20)
		}
	}
	c.Routing.Name = "MIN"
	for _, p := range c.Memory() {
		if strings.Contains(p.What, "contention") || strings.Contains(p.What, "ECtN") {
			t.Errorf("MIN counts %q", p.What)
		}
	}
	if ectn <= base {
		t.Errorf("ectn %d B, base %d B", ectn, base)
	}
}

// RECN's network interfaces (RECN paper §4.1: an admittance queue per
// destination; §3.6: in-order delivery per source and destination) keep
// state per host pair, and RECN's sides hold packets beyond the input
// buffers. Nothing is dropped, so the packets alive at once are bounded by
// the smaller of what the hosts generate (traffic.load over the run, and
// each backlogged HOTSPOT sender one a cycle while the hotspot is on, at
// most what its interface took in, a full admittance queue and the held
// packet) and where they can be: waiting (the smaller of the queues' room,
// N queues of router.injectionBuffer's packets per host and the one its
// generator holds, and what the hosts generate) plus in the network (the
// input sides' slots and the egress sides' memory, at most what the
// interfaces' links carried in plus their memory).
func TestRECNInterfaceStateIsEstimated(t *testing.T) {
	alive := func(c Config) (MemoryPart, bool) {
		for _, p := range c.Memory() {
			if strings.Contains(p.What, "packets alive") {
				return p, true
			}
		}
		return MemoryPart{}, false
	}
	c := RECNMechanism(2) // 64 hosts at load 1, 250,000 cycles, 2,048-packet interfaces
	// per host: 1/8 packet a cycle × 250,000 × 1.05 + 8 and the held
	// packet; the 16 senders, backlogged over 800–970 µs (21,250 cycles):
	// their interfaces' 2,048 packets and 21,250 / 8 + 1 sent, a queue of
	// 2,048 and the held packet
	gen := 64*(250000.0/8*1.05+8+1) + 16*(2048+1+2048+21250.0/8+1)
	if rp := c.recnPackets(384, 64, 0); rp.live != gen || rp.path != "traffic.load" || !strings.Contains(rp.how, "generated") {
		t.Errorf("recn-case2-recn: %+v, want %.0f packets generated, on traffic.load", rp, gen)
	}
	p, ok := alive(c)
	if want := gen * PacketBytes * RecnPoolCopies; !ok || p.Path != "traffic.load" || p.Bytes != int64(want) || !p.Full {
		t.Errorf("recn-case2-recn: packets alive %+v, want %.0f bytes on traffic.load", p, want)
	}
	c.Traffic.HotspotEnd = c.Traffic.HotspotStart + 1000 // 1,000 cycles: one a cycle
	if rp := c.recnPackets(384, 64, 0); rp.live != 64*(250000.0/8*1.05+8+1)+16*1000 {
		t.Errorf("a 1,000-cycle hotspot: %.0f packets, want %.0f", rp.live, 64*(250000.0/8*1.05+8+1)+16*1000)
	}
	c = RECNMechanism(2)
	c.Router.InjectionBuffer = 64 // 8 packets: the queues' room bounds the waiting ones
	// the network: 1,000 packets in the input sides, the egress sides'
	// 384 × 2,048; at most 64 × (8 + 250,000 / 8 + 1)
	rp := c.recnPackets(384, 64, 1000)
	if w, n := 64.0*(64*8+1), 1000.0+384*2048; rp.waiting != w || rp.network != n || rp.live != w+n || rp.path != "router.injectionBuffer" || !strings.Contains(rp.how, "admittance queues") {
		t.Errorf("8-packet interfaces: %+v, want %.0f waiting and %.0f in the network, on router.injectionBuffer", rp, w, n)
	}
	// the egress sides have their own memory: with 1,000,000-phit ones
	// the packets the 64 interfaces' links carry in bound them, with the
	// interfaces' memory
	c.Router.OutputBuffer = 1000000
	if got, want := c.recnPackets(384, 64, 1000).network, 64*(8+250000.0/8+1); math.Abs(got-want) > 1e-6 {
		t.Errorf("1,000,000-phit egress sides: %.0f packets in the network, want %.0f", got, want)
	}
	// what the packets carry: a queue node beyond the interfaces' memory
	// (the pool's start) and a marker per line, a node per waiting packet
	// beyond 16 a host, and a sequence number each
	// (the network's packets from the estimate's own count of them)
	c = RECNMechanism(2)
	c.Router.InjectionBuffer = 64
	p, _ = alive(c)
	live, waiting := float64(p.Bytes)/(PacketBytes*RecnPoolCopies), 64.0*(64*8+1)
	var nodes MemoryPart
	for _, p := range c.Memory() {
		if strings.Contains(p.What, "queue nodes") {
			nodes = p
		}
	}
	want := ((live-waiting+(2*384+64)*8-64*8)+(waiting-16*64))*RecnNodeBytes*growth + live*4*growth
	if !nodes.Full || math.Abs(float64(nodes.Bytes)-want) > 1 {
		t.Errorf("8-packet interfaces: queue nodes %+v, want %.0f bytes", nodes, want)
	}
	if _, ok := alive(RECNBaseline(2, "iq")); ok {
		t.Error("the IQ baseline has no RECN sides, but their packets are estimated")
	}

	// the 256-host fat tree with RECN: 65,536 host pairs of 21 bytes each
	c, _ = PresetByName("fattree256")
	c.Congestion.Scheme, c.Physical.PhitBytes = "recn", 8
	if errs := c.Validate(); errs != nil {
		t.Fatalf("fattree256 with RECN refused: %v", errs)
	}
	pairs := false
	for _, p := range c.Memory() {
		if strings.Contains(p.What, "host pairs") {
			pairs = p.Path == "topology" && p.Bytes >= 256*256*20
		}
	}
	if !pairs {
		t.Errorf("fattree256 with RECN: no per-pair term of at least %d bytes on topology: %v", 256*256*20, c.Memory())
	}
	// a long run: 256 queues of 2,048 packets per host, 22 GB, refused
	// naming the interfaces' memory
	c.Traffic.Load, c.Sim.Cycles, c.Sim.Interval = 1, 10000000, 100000
	errs := c.validateMemory()
	if len(errs) != 1 || errs[0].Path != "router.injectionBuffer" || !strings.Contains(errs[0].Msg, "admittance queues") {
		t.Errorf("a 10,000,000-cycle RECN run at load 1 on fattree256: want one error on router.injectionBuffer naming the admittance queues, got %v", errs)
	}
}

// CBCM's detector (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §IV-B1; early detection §VI-A) keeps per output
// port, and with early detection per (router, destination node) pair, a
// window of cbcmSamples + 2 runs of 16 bytes (per output port
// cbcmBoundInterval more): on the fbfly512 preset (64 routers of radix 22,
// 512 nodes) with the paper's 100 samples, 1,408 × 112 runs (2.5 MB) and
// 32,768 × 102 runs (53.5 MB). With 10,000 samples
// early detection needs 5.2 GB and is refused naming a CBCM parameter;
// without it (225 MB of windows) the run is accepted.
func TestCBCMStateIsEstimated(t *testing.T) {
	term := func(c Config, path string, full bool) int64 {
		var b int64
		for _, p := range c.Memory() {
			if p.Path == path && p.Full == full && strings.HasPrefix(p.What, "CBCM") {
				b += p.Bytes
			}
		}
		return b
	}
	c, _ := PresetByName("fbfly512")
	c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
	c.Congestion.Scheme = "cbcm"
	if errs := c.Validate(); errs != nil {
		t.Fatalf("fbfly512 with CBCM refused: %v", errs)
	}
	within := func(what string, got, want int64) {
		t.Helper()
		if got < want || got > want*5/4+1<<20 {
			t.Errorf("%s: %.1f MiB, want %.1f–%.1f", what, float64(got)/(1<<20), float64(want)/(1<<20), float64(want*5/4+1<<20)/(1<<20))
		}
	}
	within("the per-output windows", term(c, "congestion.cbcmSamples", false), 1408*112*CbcmRunBytes)
	// per flow at least its 11 arrays and its hold (56 bytes), per
	// output its state (64 bytes)
	within("the per-flow and per-output state", term(c, "congestion.scheme", false), 512*512*56+1408*CbcmOutBytes)
	if b := term(c, "congestion.cbcmEarly", false); b != 0 {
		t.Errorf("early detection off, but %d bytes estimated for it", b)
	}
	c.Congestion.CbcmEarly = true
	within("early detection's windows", term(c, "congestion.cbcmEarly", false), 64*512*102*CbcmRunBytes)
	if errs := c.Validate(); errs != nil {
		t.Fatalf("fbfly512 with CBCM's early detection refused: %v", errs)
	}
	c.Congestion.CbcmSamples = 10000
	errs := c.validateMemory()
	if len(errs) != 1 || errs[0].Path != "congestion.cbcmEarly" || !strings.Contains(errs[0].Msg, "10002 runs each") {
		t.Errorf("early detection with 10,000 samples at 512 nodes: want one error on congestion.cbcmEarly naming its windows, got %v", errs)
	}
	c.Congestion.CbcmEarly = false
	within("the per-output windows of 10,000 samples", term(c, "congestion.cbcmSamples", false), 1408*10012*CbcmRunBytes)
	if errs := c.Validate(); errs != nil {
		t.Errorf("fbfly512 with CBCM, 10,000 samples, refused: %v", errs)
	}
}

// Early detection's (flow, router) pairs (Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §VI-A): a router throttles
// a flow only after forwarding one of its packets, and the pair lasts
// until the flow is unthrottled, so the routers a flow's routes can cross
// bound them. On the h4 preset (1,056 nodes, 264 routers) under MIN, one
// minimal path per flow of at most local, global, local hops (thesis
// §1.2): 4 routers, 1,056² × 4 pairs of 8 bytes in a slice grown by
// append (136 MiB with its slack and copy), and the run is accepted; under VAL and UGAL an
// intermediate is drawn per packet, every router counts, and the run's
// 120,000 cycles of throttle packets (a 1-flit packet a cycle per source)
// stay the bound: refused, naming early detection.
func TestCBCMEarlyDragonflyFlowRouters(t *testing.T) {
	c, _ := PresetByName("h4")
	c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
	c.Congestion.Scheme, c.Congestion.CbcmEarly = "cbcm", true
	for _, tc := range []struct {
		kind, routing string
		dims          int
		want          int64
	}{{"dragonfly", "MIN", 0, 4}, {"dragonfly", "VAL", 0, 264}, {"dragonfly", "UGAL", 0, 264},
		{"fbfly", "MIN", 1, 2}, {"fbfly", "MIN", 2, 3}, {"fbfly", "UGAL", 2, 264}} {
		d := c
		d.Topology.Kind, d.Topology.Dimensions, d.Routing.Name = tc.kind, tc.dims, tc.routing
		if got := d.cbcmFlowRouters(264); got != tc.want {
			t.Errorf("%s, %s, %d dimensions: %d routers per flow, want %d", tc.kind, tc.routing, tc.dims, got, tc.want)
		}
	}
	var pairs int64
	for _, p := range c.Memory() {
		if p.Path == "congestion.cbcmEarly" && p.Full {
			pairs += p.Bytes
		}
	}
	// the watch list (every pair, 4 bytes) and the (flow, router) pairs
	want := int64(264*1056*4*2*growth + 1056*1056*4*8*2*growth)
	if pairs < want || pairs > want*5/4 {
		t.Errorf("h4, MIN: early detection's watch list and throttling routers %.1f MiB, want %.1f", float64(pairs)/(1<<20), float64(want)/(1<<20))
	}
	if errs := c.Validate(); errs != nil {
		t.Fatalf("h4 with CBCM's early detection under MIN refused: %v", errs)
	}
	c.Routing.Name = "VAL"
	if errs := c.validateMemory(); len(errs) != 1 || errs[0].Path != "congestion.cbcmEarly" {
		t.Errorf("h4 with early detection under VAL: want one error on congestion.cbcmEarly, got %v", errs)
	}
}

// The RECN paper's 256- and 512-host networks with RECN (§4.4, Figs. 6a,
// 6b): corner case 2 scaled (the senders h ≡ 3 (mod 4) → host N/2 from
// 800 to 970 µs over the others' uniform background at 100 %) on the
// 256-host fat tree for 2,000 µs and on the 512-host one (640 switches,
// 192 KB per side) for 1,100 µs are accepted: the packets alive are
// bounded by what the hosts generate (recnPackets), not by every side
// full (6.78 GiB at 512 hosts; REPRODUCTION.md, target 16, has what a run
// allocates).
func TestRECNLargeFatTreesAccepted(t *testing.T) {
	for _, x := range []struct {
		stages, subtrees, hosts, runUs int
	}{{4, 0, 256, 2000}, {5, 2, 512, 1100}} {
		c := RECNMechanism(2)
		ft := FatTree(4, x.stages, x.subtrees)
		c.Topology = ft.Topology
		c.Router.LocalBuffer, c.Router.InjectionBuffer, c.Router.OutputBuffer = ft.Router.LocalBuffer, ft.Router.InjectionBuffer, ft.Router.OutputBuffer
		var senders []string
		for h := 3; h < x.hosts; h += 4 {
			senders = append(senders, strconv.Itoa(h))
		}
		c.Traffic.HotspotNode, c.Traffic.HotspotSenders = x.hosts/2, strings.Join(senders, ",")
		c.Sim.Cycles = x.runUs * 1000 / 8
		if errs := c.Validate(); len(errs) != 0 {
			t.Errorf("%d hosts, %d µs: refused: %v", x.hosts, x.runUs, errs)
		}
		t.Logf("%d hosts, %d µs: estimate %s", x.hosts, x.runUs, FormatBytes(c.StateBytes()))
	}
}
