package sim

// The RECN paper's baselines (Duato et al., "A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks" §4.1, §4.3; router.queueing): 4Q's sender
// choice, VOQnet's separation, the in-order check, and the Fig. 2 targets
// of VOQnet and of the ordering of the schemes.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/topology"
)

// recnRun runs a corner case under a queueing scheme at full size (2,000
// µs of the 64-host network, one seed) and returns its 10-µs throughput
// and out-of-order count.
func recnRun(t *testing.T, cornerCase int, queueing string) ([]result.Rate, *result.Order) {
	t.Helper()
	res, r := runRates(t, config.RECNBaseline(cornerCase, queueing), 10e3)
	return r[0], res.Order
}

// 4Q (RECN paper §4.3: "packets are stored in the queue with lower
// occupancy"), the sender's choice on a two-switch path of the 16-host fat
// tree (4-ary 2-tree, the paper's switch and 128 KB split in 4): with leaf
// 0's view of the next switch's 4 queues at 5, 1, 1 and 9 packets held,
// host 0's packet to host 4 enters queue 1 there (the most free credits,
// the tie to the lower). With every queue full it waits, and it takes
// queue 2 as soon as queue 2 alone has room: chosen again at every
// request, not fixed when the head was routed.
func TestFourQSenderPicksLeastOccupied(t *testing.T) {
	for _, tc := range []struct {
		name string
		held [4]int32 // packets the sender sees in each downstream queue
		wait bool     // every queue full until cycle 50, then queue 2 frees
		want int
	}{
		{"least occupied", [4]int32{5, 1, 1, 9}, false, 1},
		{"chosen at every request", [4]int32{-1, -1, -1, -1}, true, 2},
	} {
		c := config.FatTree(4, 2, 0)
		c.Router.Queueing = "4q"
		c.Traffic.Load = 0
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, 400, 1
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		P := int32(s.P)
		full := s.bufCap[topology.Local]
		if full != 16384/4 {
			t.Fatalf("%s: a queue holds %d phits, want 128 KB / 4 = 4096", tc.name, full)
		}
		set := func(h [4]int32) { // leaf 0's view of every up-port's next queues
			for po := 0; po < s.radix; po++ {
				if s.pclass[po] == topology.Injection {
					continue
				}
				for j, n := range h {
					s.credits[po*s.maxVC+j] = full - n*P
					if n < 0 { // full
						s.credits[po*s.maxVC+j] = 0
					}
				}
				s.wakeOnCredit(po)
			}
		}
		set(tc.held)
		got, at := -1, int64(-1)
		s.hk.arrive = append(s.hk.arrive, func(pi, q int, k int32) {
			if s.pclass[pi] != topology.Injection && got < 0 {
				got, at = q, s.now
			}
		})
		s.enqueue(s.newPacket(0, 4, 0, 0), 0, 0)
		for s.now < 300 {
			if tc.wait && s.now == 50 {
				set([4]int32{-1, -1, 0, -1})
			}
			s.Step()
		}
		if got != tc.want {
			t.Errorf("%s: the packet entered queue %d of the next switch, want %d", tc.name, got, tc.want)
		}
		if tc.wait && at < 50 {
			t.Errorf("%s: the packet crossed at cycle %d, before any queue had room", tc.name, at)
		}
	}
}

// 4Q at the network interface: the node puts each packet in its own
// least-occupied injection queue, so 8 packets queued at once from host 0
// (nothing stepped) fill its 4 queues 2 each (the 16-host fat tree).
func TestFourQInterfacePicksLeastOccupied(t *testing.T) {
	c := config.FatTree(4, 2, 0)
	c.Router.Queueing, c.Traffic.Load = "4q", 0
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		s.enqueue(s.newPacket(0, 4+i%12, 0, 0), 0, 0)
	}
	bi := s.injBuf(0, 0)
	for j := range 4 {
		if n := s.bufs[bi+j].len; n != 2 {
			t.Errorf("injection queue %d of host 0 holds %d packets, want 2 of the 8", j, n)
		}
	}
}

// VOQnet (RECN paper §4.3: "as many queues as final destinations at every
// input and output port"): corner case 1 on the 64-host fat tree with the
// hotspot from 50 to 150 µs, 250 µs: every packet that enters a queue,
// at a switch input or a network interface, enters its destination's, so
// the hotspot's packets (to host 32) sit only in queue 32; the queues are
// 128 KB / 64 = 2 KB (32 packets) with credits each.
func TestVOQnetQueuePerDestination(t *testing.T) {
	c := config.RECNBaseline(1, "voqnet")
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = 50e3/8, 150e3/8, 250e3/8
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.nq[topology.Local] != 64 || s.bufCap[topology.Local] != 2048/8 {
		t.Fatalf("%d queues of %d phits per input, want 64 of 256 (2 KB)", s.nq[topology.Local], s.bufCap[topology.Local])
	}
	wrong, hot := 0, 0
	s.hk.arrive = append(s.hk.arrive, func(pi, q int, k int32) {
		if d := int(s.pk[k].dst); d != q {
			wrong++
		} else if d == config.RECNHotspot {
			hot++
		}
	})
	for s.now < int64(c.Sim.Cycles) {
		s.Step()
		if s.now%5000 == 0 {
			if err := s.Census(); err != nil {
				t.Fatalf("cycle %d: %v", s.now, err)
			}
		}
	}
	if wrong != 0 || hot < 10000 {
		t.Errorf("%d packets entered another destination's queue (want 0); %d entered queue 32 (want the hotspot's, > 10,000)", wrong, hot)
	}
}

// VOQnet beyond 127 queues per port (RECN paper §4.3, §4.4, Fig. 6a: the
// 256-host network, 256 8-port switches, 4 stages, 128 KB per port): case 2
// scaled, the 64 hosts h ≡ 3 (mod 4) backlogged towards host 128 from 20 to
// 50 µs over the other 192 at 100 % UN, 60 µs. Every port has 256 queues of
// 128 KB / 256 = 512 B (8 packets); every packet enters its destination's
// queue, the hotspot's in queue 128 (above the 8-bit queue indices of
// before), queues in all four words of a port's busy mask are used, the
// census holds every 1,250 cycles (credits per queue, busy bits, routes), no
// packet is delivered out of order, and the background keeps its offered
// load (≥ 0.9 of it: VOQnet's flat line, Fig. 6a's upper bound; 0.96 at
// 2,000 µs, REPRODUCTION.md).
func TestVOQnet256Hosts(t *testing.T) {
	c := config.RECNBaseline(2, "voqnet")
	c.Topology.Stages = 4
	var senders []string
	for h := 3; h < 256; h += 4 {
		senders = append(senders, fmt.Sprint(h))
	}
	c.Traffic.HotspotNode, c.Traffic.HotspotSenders = 128, strings.Join(senders, ",")
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = 20e3/8, 50e3/8, 60e3/8
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatal(errs)
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.nq[topology.Local] != 256 || s.bufCap[topology.Local] != 512/8 || s.vq.w != 4 {
		t.Fatalf("%d queues of %d phits per input in %d words, want 256 of 64 (512 B) in 4", s.nq[topology.Local], s.bufCap[topology.Local], s.vq.w)
	}
	wrong, hot := 0, 0
	var words [4]int
	s.hk.arrive = append(s.hk.arrive, func(pi, q int, k int32) {
		if d := int(s.pk[k].dst); d != q {
			wrong++
		} else if d == 128 {
			hot++
		}
		words[q>>6]++
	})
	for s.now < int64(c.Sim.Cycles) {
		s.Step()
		if s.now%1250 == 0 {
			if err := s.Census(); err != nil {
				t.Fatalf("cycle %d: %v", s.now, err)
			}
		}
	}
	r := s.Snapshot()
	t.Logf("%d packets in queue 128, arrivals by word of queues %v; background accepted %.3f of %.3f; %d out of order", hot, words, r.Hotspot.Background.Accepted, c.Traffic.Load, r.Order.OutOfOrder)
	if wrong != 0 || hot < 2000 || slices.Contains(words[:], 0) {
		t.Errorf("%d packets entered another destination's queue (want 0); %d entered queue 128 (want the hotspot's, ≥ 2,000); arrivals by word %v (want all four)", wrong, hot, words)
	}
	if r.Order.OutOfOrder != 0 || r.Hotspot.Background.Accepted < 0.9*c.Traffic.Load {
		t.Errorf("%d out of order (want 0); background accepted %.3f, want ≥ 0.9 × %.1f", r.Order.OutOfOrder, r.Hotspot.Background.Accepted, c.Traffic.Load)
	}
}

// In-order delivery (RECN paper target: zero out-of-order packets per
// (source, destination) except under 4Q, whose sender may put a flow's
// packets in different queues): corner case 2 on the 64-host fat tree
// with the hotspot from 50 to 220 µs, 300 µs.
func TestOutOfOrderOnlyUnder4Q(t *testing.T) {
	for _, sc := range config.RECNSchemes {
		c := config.RECNBaseline(2, sc.Queueing)
		c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = 50e3/8, 220e3/8, 300e3/8
		r := btRun(t, c, 1)
		if r.Order == nil {
			t.Fatalf("%s: no out-of-order count with router.queueing set", sc.Name)
		}
		t.Logf("%s: %d packets out of order over %d pairs, %d delivered", sc.Name, r.Order.OutOfOrder, r.Order.Pairs, r.TotalDelivered)
		if bad := r.Order.OutOfOrder > 0; bad != (sc.Queueing == "4q") {
			t.Errorf("%s: %d packets delivered out of order (%d pairs); want > 0 only under 4Q", sc.Name, r.Order.OutOfOrder, r.Order.Pairs)
		}
	}
	// not counted by default: the result document is unchanged
	c := config.RECNCornerCase(1)
	c.Sim.Cycles = 1000
	if r := btRun(t, c, 1); r.Order != nil {
		t.Errorf("router.queueing unset: Order = %+v, want nil", *r.Order)
	}
}

// RECN paper Fig. 2 (a), (b), the VOQnet and 4Q curves beside IQ and
// VOQsw, on the 64-host network at full size (2,000 µs, one seed, 10-µs
// bins; about 8 s a run): targets 1 and 2 (VOQnet flat at the ideal, no
// dip at 800 µs), 4 (4Q within ±25% of IQ while the tree stands and
// drains) and 10 (VOQnet > VOQsw > 4Q in case 1). engine/REPRODUCTION.md,
// "RECN paper", has the numbers.
func TestRECNFig2VOQnetAnd4Q(t *testing.T) {
	if testing.Short() {
		t.Skip("eight 2,000-µs runs of the 64-host network")
	}
	mean := func(r []result.Rate, fromUs, toUs float64) float64 { return result.MeanRate(r, fromUs*1e3, toUs*1e3) }
	for _, cc := range []int{1, 2} {
		runs := map[string][]result.Rate{}
		for _, sc := range config.RECNSchemes {
			runs[sc.Name], _ = recnRun(t, cc, sc.Queueing)
			r := runs[sc.Name]
			t.Logf("case %d %-6s: before %.1f, 800–970 µs %.1f, 970–1300 µs %.1f, 1300–2000 µs %.1f B/ns", cc, sc.Name, mean(r, 400, 800), mean(r, 800, 970), mean(r, 970, 1300), mean(r, 1300, 2000))
		}
		// targets 1, 2: VOQnet at the ideal (24·63/64 + 1, 48·63/64 + 1:
		// no control packets) in every window, its 10-µs bins within 2.5
		ideal, lo, hi := 24.6, 23.1, 26.1 // target 1: ±1.5
		if cc == 2 {
			ideal, lo, hi = 48.3, 42, 48.5 // target 2
		}
		net := runs["VOQnet"]
		for _, w := range [][2]float64{{100, 800}, {800, 970}, {970, 1300}, {1300, 2000}} {
			if m := mean(net, w[0], w[1]); m < lo || m > hi {
				t.Errorf("case %d VOQnet %g–%g µs: %.1f B/ns, want %.1f–%.1f (paper ≈ %g)", cc, w[0], w[1], m, lo, hi, map[int]float64{1: 25, 2: 45}[cc])
			}
		}
		for _, x := range net {
			if x.FromNs >= 100e3 && x.BytesPerNs < ideal-2.5 {
				t.Errorf("case %d VOQnet: %.1f B/ns at %g µs, a dip below %.1f − 2.5", cc, x.BytesPerNs, x.FromNs/1e3, ideal)
			}
		}
		// target 4: 4Q at the IQ level while the tree stands and drains
		for _, w := range [][2]float64{{800, 970}, {970, 1300}} {
			q4, iq := mean(runs["4Q"], w[0], w[1]), mean(runs["IQ"], w[0], w[1])
			if q4 < 0.75*iq || q4 > 1.25*iq {
				t.Errorf("case %d %g–%g µs: 4Q %.1f B/ns, want within ±25%% of IQ's %.1f", cc, w[0], w[1], q4, iq)
			}
		}
		// target 10: VOQnet > VOQsw > 4Q while the tree drains
		if cc == 1 {
			n, sw, q4 := mean(net, 970, 1300), mean(runs["VOQsw"], 970, 1300), mean(runs["4Q"], 970, 1300)
			if !(n > sw && sw > q4) {
				t.Errorf("case 1, 970–1300 µs: VOQnet %.1f, VOQsw %.1f, 4Q %.1f B/ns; want VOQnet > VOQsw > 4Q", n, sw, q4)
			}
		}
	}
}

// The network interface's admittance queues (RECN paper §4.1: a message
// is stored whole in the queue of its destination; the size is not given):
// corner case 2 under IQ on the 64-host fat tree with the hotspot from 50
// to 220 µs, 300 µs, injection buffers of 8 packets, per-destination
// source queues of at most 4 packets (traffic.admittanceQueue). The tree fills the background's queues to
// host 32: their generators stall (nothing is dropped: the census and
// conservation hold) and no queue ever holds more than 4; unbounded, some
// holds more.
func TestAdmittanceQueuesStallTheGenerator(t *testing.T) {
	most := func(cap int) (int, int) {
		c := config.RECNBaseline(2, "iq")
		c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = 50e3/8, 220e3/8, 300e3/8
		c.Traffic.SourceQueue, c.Traffic.SourceQueues, c.Traffic.AdmittanceQueue = true, "perDestination", cap
		c.Router.InjectionBuffer = 64 // 8 packets: the tree reaches the interfaces within the run
		if errs := c.Validate(); len(errs) != 0 {
			t.Fatal(errs)
		}
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		peak, stalls := 0, 0
		for s.now < int64(c.Sim.Cycles) {
			s.Step()
			if s.now%100 != 0 {
				continue
			}
			for n := range s.N {
				for _, a := range s.sqAct[n] {
					peak = max(peak, len(s.sq[a.q])-int(s.sqHead[a.q]))
				}
				if s.stalled != nil && s.stalled[n] != 0 {
					stalls++
				}
			}
		}
		if err := s.Census(); err != nil {
			t.Fatal(err)
		}
		return peak, stalls
	}
	peak, stalls := most(4)
	free, _ := most(0)
	t.Logf("admittance queues of 4: peak %d packets, %d stalled node-samples; unbounded: peak %d", peak, stalls, free)
	if peak > 4 || stalls == 0 || free <= 4 {
		t.Errorf("bounded to 4: a queue held %d, %d node-samples stalled (want ≤ 4, > 0); unbounded: peak %d (want > 4)", peak, stalls, free)
	}
	// without per-destination queues the bound does not apply: ignored and
	// listed as such, as every field its when tag rules out
	c := config.RECNBaseline(1, "iq")
	c.Traffic.AdmittanceQueue = 4
	if errs := c.Validate(); len(errs) != 0 {
		t.Errorf("admittanceQueue without per-destination queues: want it ignored, got %v", errs)
	}
	if un := c.Unapplied(); len(un) == 0 || !strings.Contains(fmt.Sprint(un), "traffic.admittanceQueue") {
		t.Errorf("admittanceQueue without per-destination queues is not listed as ignored: %v", un)
	}
	c.Traffic.SourceQueue, c.Traffic.SourceQueues, c.Traffic.MessagePackets, c.Traffic.AdmittanceQueue = true, "perDestination", 4, 3
	if errs := c.Validate(); len(errs) == 0 || !strings.Contains(errs.Error(), "traffic.admittanceQueue") {
		t.Errorf("an admittance queue below a message: want an error naming traffic.admittanceQueue, got %v", errs)
	}
}

// What router.queueing cannot run is refused naming it: VOQnet on a
// 1,024-host fat tree (1,024 queues per port, beyond the 1,023 of the timing
// wheels' 10 bits), router.voq=true with another scheme, a congestion
// scheme beside 4q (its queue scan reads voqsw's layout), and a split that
// leaves less than a packet per queue.
func TestQueueingRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(c *config.Config)
		want string
	}{
		{"voqnet at 1,024 hosts", func(c *config.Config) { *c = config.FatTree(4, 5, 0); c.Router.Queueing = "voqnet" }, "1024 hosts × 1 VCs + 0 extra = 1024 queues per input port; at most 1023"},
		{"voq with 4q", func(c *config.Config) { c.Router.Voq = true }, "router.voq=true is queueing voqsw"},
		{"cbcm with 4q", func(c *config.Config) {
			c.Congestion.Scheme = "cbcm"
		}, "congestion.scheme=cbcm"},
		{"split below a packet", func(c *config.Config) { c.Router.LocalBuffer = 24 }, "less than a packet"},
	} {
		c := config.FatTree(4, 3, 0)
		c.Router.Queueing = "4q"
		tc.set(&c)
		errs := c.Validate()
		if !strings.Contains(errs.Error(), "router.queueing") || !strings.Contains(errs.Error(), tc.want) {
			t.Errorf("%s: want an error on router.queueing saying %q, got %v", tc.name, tc.want, errs)
		}
	}
}

// The memory estimate (config.Memory) with the split queues: it bounds what
// a 64-host 4Q and VOQnet run allocates (corner case 2, 20 µs), and idle
// (load 0) what is allocated whatever the traffic is within 1 to 4× of it.
func TestQueueingMemoryEstimate(t *testing.T) {
	for _, q := range []string{"4q", "voqnet"} {
		for _, load := range []float64{0, 1} {
			c := config.RECNBaseline(2, q)
			c.Traffic.Load, c.Sim.Cycles = load, 20e3/8
			if load == 0 {
				c.Traffic.Pattern = "UN"
			}
			checkEstimateBounds(t, c)
		}
	}
}
