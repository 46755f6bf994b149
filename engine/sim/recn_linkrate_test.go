package sim

import (
	"strings"
	"testing"

	"phitsim/engine/config"
)

// RECN paper (Duato et al., "A New Scalable and Cost-Effective Congestion
// Management Strategy for Lossless Multistage Interconnection Networks")
// §4.2, Table 1: the 16 hotspot sources inject "at the full link rate"
// from 800 to 970 µs; §4.1: a generated message waits in the admittance
// queue of its destination, and a full queue stalls the generator
// (traffic.hotspotLinkRate). The hotspot at 50–150 µs, checked every cycle
// for every sender (linkRateCheck), under RECN (corner case 2, admittance
// queues of 64 packets, so that the senders stall within the window) and
// under VOQnet (corner case 1: the sender's 32-packet injection queue for
// the hotspot fills while its port has room): (a) it never makes packets
// faster than its link, one per packet time from the window's start (a
// backlogged sender makes one a cycle until its interface is full); (b)
// it loses no packet time unless held: a sender whose generator did not
// wait for room at the end of the last cycle and whose packet time has
// come makes one; (c) nothing is dropped: every packet it made is counted
// (under RECN: in its interface's injection side or beyond, in its
// admittance queue, or held by its generator), and the hotspot's
// generated count agrees; and each run held some sender. Then corner case
// 1 under IQ with one sender alone (no queue in its way): exactly one
// packet per packet time of the window, 1,563 packets in 100 µs.
func TestHotspotLinkRateSenders(t *testing.T) {
	c := config.RECNMechanism(2)
	c.Congestion.RecnAdmittance = 64 * 64 // 64 packets of 64 bytes
	linkRateCheck(t, "RECN case 2, admittance queues of 64 packets", c, 200e3,
		func(s *Sim, h int) int64 { // made: in the injection side or beyond, queued, or held
			rs, f := s.rn, h*s.N+config.RECNHotspot
			n := int64(rs.seqGen[f] + rs.admLen[f])
			if rs.pend[h] >= 0 {
				n++
			}
			return n
		},
		func(s *Sim, h int) bool { return s.rn.pend[h] >= 0 })
	// VOQnet: the sender's injection queue for the hotspot (32 packets)
	// fills while its port has room; the generator waits for that queue
	linkRateCheck(t, "VOQnet case 1", config.RECNBaseline(1, "voqnet"), 160e3,
		func(s *Sim, h int) int64 { return int64(s.ord.next[h*s.N+config.RECNHotspot]) },
		func(s *Sim, h int) bool { return s.chooseVC(h, config.RECNHotspot, false) < 0 })

	// one sender alone, under IQ: nothing in its way
	c = config.RECNBaseline(1, "iq")
	c.Traffic.HotspotLinkRate = true
	c.Traffic.HotspotSenders, c.Traffic.Load = "3", 0
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = int(50e3/8), int(150e3/8), int(160e3/8)
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatal(errs)
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for s.now < int64(c.Sim.Cycles) {
		s.Step()
	}
	from, to, P := int64(c.Traffic.HotspotStart), int64(c.Traffic.HotspotEnd), int64(c.Router.PacketSize)
	if g, per := s.st.hs.hotGen, (to-from+P-1)/P; g != per {
		t.Errorf("IQ, one sender alone: %d packets made in %d cycles, want one per packet time, %d", g, to-from, per)
	}
}

// linkRateCheck runs c with traffic.hotspotLinkRate, the hotspot at
// 50–150 µs, for runNs, and checks every sender every cycle (made: the
// packets it has generated; held: whether its generator waits for room
// at the cycle's end). It fails unless some sender was held.
func linkRateCheck(t *testing.T, what string, c config.Config, runNs float64, made func(*Sim, int) int64, held func(*Sim, int) bool) *Sim {
	t.Helper()
	c.Traffic.HotspotLinkRate = true
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = int(50e3/8), int(150e3/8), int(runNs/8)
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatal(errs)
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	senders, _ := c.Traffic.Senders()
	P := int64(c.Router.PacketSize)
	from, to := int64(c.Traffic.HotspotStart), int64(c.Traffic.HotspotEnd)
	count := make([]int64, len(senders))
	last := make([]int64, len(senders))
	wait := make([]bool, len(senders))
	for i := range last {
		last[i] = -P
	}
	stalls := 0
	for s.now < int64(c.Sim.Cycles) {
		now := s.now
		s.Step()
		var sum int64
		for i, h32 := range senders {
			h := int(h32)
			n := made(s, h)
			sum += n
			switch {
			case n < count[i]:
				t.Fatalf("%s, cycle %d: sender %d's packets fell from %d to %d (one dropped)", what, now, h, count[i], n)
			case n > count[i]+1:
				t.Fatalf("%s, cycle %d: sender %d made %d packets in one cycle", what, now, h, n-count[i])
			case n == count[i]+1:
				if now-last[i] < P || now < from || now >= to {
					t.Fatalf("%s, cycle %d: sender %d made a packet %d cycles after its last (window %d–%d, packet time %d)", what, now, h, now-last[i], from, to, P)
				}
				last[i] = now
			case now >= from && now < to && !wait[i] && now-last[i] >= P:
				t.Fatalf("%s, cycle %d: sender %d, not stalled, made nothing %d cycles after its last packet", what, now, h, now-last[i])
			}
			if lim := (now-from)/P + 1; now >= from && n > lim {
				t.Fatalf("%s, cycle %d: sender %d made %d packets, over its link's %d", what, now, h, n, lim)
			}
			count[i] = n
			wait[i] = held(s, h)
			if wait[i] && now >= from && now < to {
				stalls++
			}
		}
		if g := s.st.hs.hotGen; g != sum {
			t.Fatalf("%s, cycle %d: %d hotspot packets generated, %d made by the senders", what, now, g, sum)
		}
	}
	per := (to - from + P - 1) / P
	var tot int64
	for _, n := range count {
		tot += n
	}
	t.Logf("%s: %d hotspot packets made (%d a sender at the link's rate), %d sender-cycles held", what, tot, per, stalls)
	if stalls == 0 || tot >= per*int64(len(senders)) {
		t.Errorf("%s: no sender held (%d packets made of %d): the check saw no full queue", what, tot, per*int64(len(senders)))
	}
	return s
}

// traffic.hotspotLinkRate and traffic.hotspotRate are two rates for the
// same senders: both at once is refused, naming the field.
func TestHotspotLinkRateAndRateRefused(t *testing.T) {
	c := config.RECNBaseline(1, "iq")
	c.Traffic.HotspotLinkRate, c.Traffic.HotspotRate = true, 0.5
	errs := c.Validate()
	if len(errs) == 0 || !strings.Contains(errs.Error(), "traffic.hotspotLinkRate") {
		t.Errorf("both rates: %v, want an error on traffic.hotspotLinkRate", errs)
	}
}
