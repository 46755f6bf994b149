package sim

// Generator behaviour tests: the injection VC policies (DEST, RAND, JSQ), the
// bursty ON/OFF process and MIX traffic, observed through the real generation
// path (Sim.generate → inject → chooseVC → enqueue) rather than a copy of it
// (TIMING.md "generation"; thesis §1.6.1; FOGSim v4's generatorModule and
// burstGenerator).

import (
	"fmt"
	"math"
	"testing"

	"phitsim/engine/config"
)

// gbSim builds a Sim on the h=2 Dragonfly (72 nodes) with the given traffic.
func gbSim(t *testing.T, edit func(*config.Config)) *Sim {
	t.Helper()
	c := btConfig(2, 0, 100000)
	if edit != nil {
		edit(&c)
	}
	s, err := New(c, 7)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// gbNew is a packet generated in the cycle just simulated, with its VC and
// the occupancy (packets) of each injection VC of its node right after.
type gbNew struct {
	k   int32
	vc  int
	occ [8]int32
}

// gbStep runs one cycle and returns the packets its generators created. They
// are the tails of injection VCs with that generation cycle: generation is
// the last phase of a cycle and a packet's head reaches the router only after
// the injection latency, so nothing has moved them yet. The count is checked
// against the engine's own generation counter.
func gbStep(t *testing.T, s *Sim, out []gbNew) []gbNew {
	t.Helper()
	gen0 := s.st.totGen
	s.Step()
	now := s.now - 1
	found := 0
	for n := 0; n < s.N; n++ {
		var occ [8]int32
		hit := -1
		for v := 0; v < s.injVC; v++ {
			b := &s.bufs[s.injBuf(n, v)]
			occ[v] = b.len
			if b.len == 0 {
				continue
			}
			i := b.head + b.len - 1
			if i >= b.cap {
				i -= b.cap
			}
			k := int32(uint32(s.qRing[b.start+i]))
			if s.pk[k].gen == now && int(s.pk[k].src) == n {
				if hit >= 0 {
					t.Fatalf("cycle %d: node %d generated two packets", now, n)
				}
				hit = v
			}
		}
		if hit >= 0 {
			b := &s.bufs[s.injBuf(n, hit)]
			i := b.head + b.len - 1
			if i >= b.cap {
				i -= b.cap
			}
			out = append(out, gbNew{k: int32(uint32(s.qRing[b.start+i])), vc: hit, occ: occ})
			found++
		}
	}
	if int64(found) != s.st.totGen-gen0 {
		t.Fatalf("cycle %d: found %d new packets in injection VCs, the engine generated %d", now, found, s.st.totGen-gen0)
	}
	return out
}

// DEST (FOGSim v4's default VcInjectionPolicy, generatorModule): a packet for
// destination d goes to injection VC ⌊d·VCs/N⌋, whatever the occupancy. Checked
// on every packet the generators create under UN, below and above saturation
// (where the partition forces losses instead of using another VC).
func TestInjectionPolicyDestPartitionsByDestination(t *testing.T) {
	for _, load := range []float64{0.3, 1.0} {
		s := gbSim(t, func(c *config.Config) { c.Traffic.Load = load })
		var news []gbNew
		perVC := make([]int, s.injVC)
		for c := 0; c < 1500; c++ {
			news = gbStep(t, s, news[:0])
			for _, g := range news {
				d := int(s.pk[g.k].dst)
				if want := d * s.injVC / s.N; g.vc != want {
					t.Fatalf("load %.1f: packet for node %d in injection VC %d, want ⌊%d·%d/%d⌋ = %d", load, d, g.vc, d, s.injVC, s.N, want)
				}
				perVC[g.vc]++
			}
		}
		t.Logf("load %.1f: packets per injection VC %v", load, perVC)
		for v, n := range perVC {
			if n == 0 {
				t.Errorf("load %.1f: injection VC %d never used", load, v)
			}
		}
	}
}

// JSQ (thesis §1.6: join the shortest queue): every generated packet goes to
// the injection VC with the most free space, the lowest index among equals.
// Checked on every packet under UN at saturation, where the queues differ.
func TestInjectionPolicyJSQJoinsShortestQueue(t *testing.T) {
	s := gbSim(t, func(c *config.Config) { c.Traffic.Load, c.Router.InjectionPolicy = 1.0, "jsq" })
	var news []gbNew
	unequal := 0
	for c := 0; c < 1500; c++ {
		news = gbStep(t, s, news[:0])
		for _, g := range news {
			before := g.occ
			before[g.vc]-- // occupancy when it was chosen
			for v := 0; v < s.injVC; v++ {
				if before[v] < before[g.vc] || (before[v] == before[g.vc] && v < g.vc) {
					t.Fatalf("cycle %d: JSQ chose VC %d with occupancies %v", s.now-1, g.vc, before[:s.injVC])
				}
				if before[v] != before[g.vc] {
					unequal++
				}
			}
		}
	}
	if unequal == 0 {
		t.Errorf("the injection queues never differed: the test checked nothing")
	}
	t.Logf("%d comparisons with unequal queues", unequal)

	// by hand: queues of 5, 2 and 7 packets; the next packets fill VC 1 up to
	// 5, then alternate between VCs 0 and 1 (ties to the lower index) up to 7
	h := gbSim(t, func(c *config.Config) { c.Traffic.Load, c.Router.InjectionPolicy = 0, "jsq" })
	for v, n := range []int{5, 2, 7} {
		for i := 0; i < n; i++ {
			h.enqueue(h.newPacket(9, 40, 0, 0), v, 0)
		}
	}
	var got []int
	for i := 0; i < 7; i++ {
		got = append(got, h.chooseVC(9, 40, false))
		h.inject(9, 40, 0)
	}
	if want := []int{1, 1, 1, 0, 1, 0, 1}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("JSQ from queues 5/2/7: VCs %v, want %v", got, want)
	}
}

// RAND (FOGSim v4's VcInjectionPolicy=RAND: a random VC among those with room): with all
// VCs free the choice is uniform; a full VC is never chosen and the others
// share evenly; with every VC full the packet is lost. Also checked on the
// packets the generators create at low load (uniform over the 3 VCs).
func TestInjectionPolicyRandUniformAmongVCsWithRoom(t *testing.T) {
	s := gbSim(t, func(c *config.Config) { c.Traffic.Load, c.Router.InjectionPolicy = 0, "rand" })
	const draws = 30000
	count := func() []float64 {
		n := make([]float64, s.injVC)
		for i := 0; i < draws; i++ {
			v := s.chooseVC(9, 40, false)
			if v < 0 {
				t.Fatalf("RAND found no VC with room")
			}
			n[v] += 1.0 / draws
		}
		return n
	}
	within := func(name string, got []float64, want []float64) {
		for v := range got {
			sd := math.Sqrt(want[v] * (1 - want[v]) / draws)
			if math.Abs(got[v]-want[v]) > 4*sd+1e-12 {
				t.Errorf("%s: VC %d chosen %.4f of the time, want %.4f", name, v, got[v], want[v])
			}
		}
	}
	all := count()
	within("all free", all, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3})
	for s.slotsFree(9, 1) > 0 {
		s.enqueue(s.newPacket(9, 40, 0, 0), 1, 0)
	}
	s.enqueue(s.newPacket(9, 40, 0, 0), 2, 0)
	oneFull := count()
	within("VC 1 full", oneFull, []float64{0.5, 0, 0.5})
	t.Logf("RAND: all free %.4f, VC 1 full %.4f", all, oneFull)
	for _, v := range []int{0, 2} {
		for s.slotsFree(9, v) > 0 {
			s.enqueue(s.newPacket(9, 40, 0, 0), v, 0)
		}
	}
	if v := s.chooseVC(9, 40, false); v != -1 {
		t.Errorf("RAND with every VC full chose VC %d", v)
	}

	g := gbSim(t, func(c *config.Config) { c.Traffic.Load, c.Router.InjectionPolicy = 0.2, "rand" })
	var news []gbNew
	per := make([]float64, g.injVC)
	total := 0
	for c := 0; c < 3000; c++ {
		news = gbStep(t, g, news[:0])
		for _, x := range news {
			per[x.vc]++
			total++
		}
	}
	for v := range per {
		per[v] /= float64(total)
		if sd := math.Sqrt(2.0 / 9 / float64(total)); math.Abs(per[v]-1.0/3) > 4*sd {
			t.Errorf("generated packets: VC %d got %.4f of %d, want 1/3", v, per[v], total)
		}
	}
	t.Logf("RAND through the generators: %d packets, shares %.4f", total, per)
}

// Bursty-UN through the real generator (thesis eqs. 1.4–1.8; FOGSim v4's
// burstGenerator): each node's packets come in bursts to one destination, one packet
// per cycle; a burst pauses while its injection VC is full (back-pressure
// stretches it in time, not in packets: a burst to one node far outruns that
// node's ejection link, so long bursts do fill their VC even at low load). A
// burst is therefore counted from outside as a run of packets of a node to one
// destination, each in the cycle after the previous one or after cycles in
// which that VC was full. At low load the mean burst is B packets and the
// applied load is the offered load (P_ON = load/PacketSize packets per node
// per cycle), both within 5%. (engine/traffic's bursty test drives a copy of
// the chain; this one counts what Sim.generate produces.)
func TestBurstyGeneratorBurstLengthAndLoad(t *testing.T) {
	const cycles = 40000
	for _, tc := range []struct{ load, b float64 }{{0.1, 5}, {0.2, 8}} {
		s := gbSim(t, func(c *config.Config) {
			c.Traffic.Load, c.Traffic.Process, c.Traffic.BurstLength = tc.load, "bursty", tc.b
			c.Sim.Cycles = cycles
		})
		// last: the last cycle node n generated, or found the VC of its last
		// packet full (DEST: the VC follows the destination)
		last := make([]int64, s.N)
		lastDst := make([]int32, s.N)
		lastVC := make([]int, s.N)
		for i := range last {
			last[i] = -10
		}
		var packets, bursts, stalls int64
		var news []gbNew
		for c := 0; c < cycles; c++ {
			news = gbStep(t, s, news[:0])
			for _, g := range news {
				pk := &s.pk[g.k]
				n := int(pk.src)
				if last[n] != pk.gen-1 || lastDst[n] != pk.dst {
					bursts++
				}
				last[n], lastDst[n], lastVC[n] = pk.gen, pk.dst, g.vc
				packets++
			}
			for n := 0; n < s.N; n++ {
				if last[n] >= 0 && last[n] < s.now-1 && s.slotsFree(n, lastVC[n]) == 0 {
					last[n] = s.now - 1
					stalls++
				}
			}
		}
		r := s.Snapshot()
		meanBurst := float64(packets) / float64(bursts)
		applied := float64(packets) * float64(s.P) / float64(int64(s.N)*cycles)
		onFrac := float64(packets) / float64(int64(s.N)*cycles)
		t.Logf("load %.2f B %.0f: %d packets in %d bursts, mean burst %.3f, ON fraction %.5f (P_ON %.5f), applied %.4f (engine %.4f), %d node-cycles waiting for a full VC",
			tc.load, tc.b, packets, bursts, meanBurst, onFrac, tc.load/float64(s.P), applied, r.Applied, stalls)
		if !btWithin(meanBurst, tc.b, 0.05) {
			t.Errorf("load %.2f B %.0f: mean burst %.3f packets, want %.1f ±5%%", tc.load, tc.b, meanBurst, tc.b)
		}
		if !btWithin(applied, tc.load, 0.05) {
			t.Errorf("load %.2f B %.0f: applied load %.4f, want ±5%%", tc.load, tc.b, applied)
		}
		if !btWithin(r.Applied, applied, 1e-9) {
			t.Errorf("engine's applied load %.5f ≠ counted %.5f", r.Applied, applied)
		}
	}
}

// MIX through the simulator (config traffic.mixPerNode): with 50% UN and 50%
// ADV+1, per node every node's generated packets all follow its one pattern
// (all to group g+1, or spread like UN); per packet every node sends both
// kinds. (engine/traffic's mix test checks the per-node shares on a large
// network.)
func TestMixPerNodeAndPerPacketThroughGenerator(t *testing.T) {
	for _, perNode := range []bool{true, false} {
		s := gbSim(t, func(c *config.Config) {
			c.Traffic.Load, c.Traffic.Pattern = 0.2, "MIX"
			c.Traffic.MixUN, c.Traffic.MixADVL, c.Traffic.MixADV = 50, 0, 50
			c.Traffic.AdvOffset, c.Traffic.MixPerNode = 1, perNode
		})
		nodesPerGroup := s.p * s.groupSize
		adv := make([]int, s.N)
		tot := make([]int, s.N)
		var news []gbNew
		for c := 0; c < 5000; c++ {
			news = gbStep(t, s, news[:0])
			for _, g := range news {
				pk := &s.pk[g.k]
				n := int(pk.src)
				tot[n]++
				if int(pk.dst)/nodesPerGroup == (n/nodesPerGroup+1)%s.groups {
					adv[n]++
				}
			}
		}
		// UN reaches group g+1 with probability a·p/(N−1) ≈ 0.11
		advNodes, unNodes := 0, 0
		for n := 0; n < s.N; n++ {
			if tot[n] < 60 {
				t.Fatalf("node %d generated only %d packets", n, tot[n])
			}
			f := float64(adv[n]) / float64(tot[n])
			switch {
			case perNode && adv[n] == tot[n]:
				advNodes++
			case perNode && f < 0.3:
				unNodes++
			case perNode:
				t.Errorf("per node: node %d sent %d of %d packets to group +1: a mix of patterns", n, adv[n], tot[n])
			case f < 0.35 || f > 0.8:
				t.Errorf("per packet: node %d sent %.2f of its packets to group +1, want ≈ 0.56", n, f)
			}
		}
		if perNode {
			t.Logf("per node: %d ADV+1 nodes, %d UN nodes of %d", advNodes, unNodes, s.N)
			if advNodes+unNodes == s.N && (advNodes < 20 || unNodes < 20) {
				t.Errorf("per node: %d ADV and %d UN nodes, want about half each", advNodes, unNodes)
			}
		}
	}
}
