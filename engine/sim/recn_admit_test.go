package sim

import (
	"testing"

	"phitsim/engine/config"
)

// RECN paper §4.1 (network interfaces) with §3.7 (Xoff): a generated
// message is stored in the admittance queue of its destination and moves
// into the interface's injection queues, where RECN's SAQs are allocated;
// here the interface's SAQ stops the admittance queues it matches while it
// is stopped by Xoff or holds T_xoff packets, as an egress SAQ stops the
// ingress SAQs that feed it, and a packet whose admittance queue is full
// stalls its generator (nothing is dropped). Corner case 2 with the
// hotspot at 50–150 µs, 250 µs: checked every 16 cycles, (a) every live
// packet is in a side, on a link, in an admittance queue or held by its
// generator (none dropped); (b) no interface's SAQ ever holds more than
// T_xoff packets (without the admission test the senders' SAQs fill their
// 2,048-packet interfaces); (c) a held packet's queue is full; and the
// run exercised all three: interfaces' SAQs stopped while their
// admittance queues held packets for the hotspot, and generators stalled.
// The senders are backlogged (a packet whenever the generator is free),
// so that their 2,048-packet queues fill within the 100-µs window; at
// their link's rate (the corner cases' default) they fill in about 140 µs
// (TestHotspotLinkRateSenders checks that stall with smaller queues).
func TestRECNInterfaceAdmittance(t *testing.T) {
	c := config.RECNCornerCase(2)
	c.Congestion.Scheme = "recn"
	c.Traffic.HotspotLinkRate = false
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = int(50e3/8), int(150e3/8), int(250e3/8)
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatal(errs)
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	rs := s.rn
	rc := rs.rc
	xoff := rc.p.xoff
	var peakSAQ int32
	stoppedWithBacklog, held := 0, 0
	for s.now < int64(c.Sim.Cycles) {
		s.Step()
		if s.now%16 != 0 {
			continue
		}
		var where int64
		for i := range rc.sides {
			where += int64(rc.sides[i].used)
		}
		for _, slot := range s.arrivals {
			where += int64(len(slot))
		}
		for h := 0; h < s.N; h++ {
			for d := 0; d < s.N; d++ {
				where += int64(rs.admLen[h*s.N+d])
			}
			if k := rs.pend[h]; k >= 0 {
				where++
				held++
				if f := h*s.N + int(s.pk[k].dst); rs.admLen[f] != rs.admCap {
					t.Fatalf("cycle %d: host %d holds a packet for %d whose queue has %d of %d", s.now, h, s.pk[k].dst, rs.admLen[f], rs.admCap)
				}
			}
			side := rc.ni(h)
			for m := rc.sides[side].lines; m != 0; m &= m - 1 {
				l := bitsTrailing(m)
				n := rc.qn[rc.qi(side, 1+l)]
				peakSAQ = max(peakSAQ, n)
				if (rc.lines[side*rc.p.saqs+l].stopped || n >= xoff) && rs.admLen[h*s.N+config.RECNHotspot] > 0 {
					stoppedWithBacklog++
				}
			}
		}
		if where != s.live {
			t.Fatalf("cycle %d: %d packets live, %d in the sides, links, admittance queues and generators", s.now, s.live, where)
		}
	}
	t.Logf("peak %d packets in an interface's SAQ (T_xoff %d); %d samples of a stopped interface SAQ with hotspot packets admitted behind it; %d held-packet samples, %d stalled attempts; %d hotspot packets generated, %d delivered",
		peakSAQ, xoff, stoppedWithBacklog, held, rs.stalls, s.st.hs.hotGen, s.st.hs.hotDel)
	if peakSAQ > xoff || peakSAQ == 0 {
		t.Errorf("an interface's SAQ held %d packets; want 1 to T_xoff = %d", peakSAQ, xoff)
	}
	if stoppedWithBacklog == 0 || held == 0 || rs.stalls == 0 {
		t.Errorf("not exercised: %d stopped-SAQ samples with a backlog, %d held packets, %d stalls; want some of each", stoppedWithBacklog, held, rs.stalls)
	}
}

// RECN paper §4.1: the admittance queue per destination has the size
// congestion.recnAdmittance sets (bytes, rounded up to packets; 0: the
// interface's memory, router.injectionBuffer). Corner case 2 with the
// hotspot at 50–100 µs, 150 µs, queues of 256 bytes (4 packets): no queue
// ever holds more than 4 packets, some hold 4 (the hotspot senders', at
// their link's rate), and generators stall on them; by default a queue holds the
// interface's 2,048.
func TestRECNAdmittanceSize(t *testing.T) {
	c := config.RECNCornerCase(2)
	c.Congestion.Scheme = "recn"
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.rn.admCap, s.rn.rc.sides[s.rn.rc.ni(0)].mem; got != want || got != 2048 {
		t.Errorf("default admittance queue %d packets, want the interface's %d (2,048)", got, want)
	}
	c.Congestion.RecnAdmittance = 256
	c.Traffic.HotspotStart, c.Traffic.HotspotEnd, c.Sim.Cycles = int(50e3/8), int(100e3/8), int(150e3/8)
	if s, err = New(c, 1); err != nil {
		t.Fatal(err)
	}
	rs := s.rn
	if rs.admCap != 4 {
		t.Fatalf("256-byte admittance queues: %d packets, want 4", rs.admCap)
	}
	var peak int32
	full := 0
	for s.now < int64(c.Sim.Cycles) {
		s.Step()
		if s.now%16 != 0 {
			continue
		}
		for _, n := range rs.admLen {
			peak = max(peak, n)
			if n == 4 {
				full++
			}
		}
	}
	t.Logf("longest admittance queue %d packets; %d full-queue samples; %d stalled attempts", peak, full, rs.stalls)
	if peak != 4 || full == 0 || rs.stalls == 0 {
		t.Errorf("longest admittance queue %d packets (want 4), %d full samples, %d stalls (want some)", peak, full, rs.stalls)
	}
}
