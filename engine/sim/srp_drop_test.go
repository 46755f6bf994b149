package sim

import (
	"testing"

	"phitsim/engine/topology"
)

// The drop rule holds right after every drop check, for each clock of
// congestion.srpDropClock and with congestion.srpDropAhead: no speculative
// head left in a buffer has a time-to-wait above srpDropThreshold, the
// time-to-wait counted as the test counts it on its own — queuing: the
// head's wait in each buffer before, summed as it crossed (a grant hook of
// the test's), plus its wait in this one; sent: every cycle since it left
// its source queue; generated: since its generation cycle; message: between
// those two (its message's reservation went after the packet was generated
// and before it left); with srpDropAhead, plus the phits held downstream
// of its output less the link's round trip. Each run drops packets, and
// each clock gives its own count. 15-to-1 onto node 4 (MIN, 16 nodes) with
// a 300-cycle threshold, 6,000 cycles per run.
func TestSRPDropRuleAfterEveryScan(t *testing.T) {
	const T = 300
	type variant struct {
		clock string
		ahead bool
	}
	drops := map[variant]int64{}
	for _, v := range []variant{{"queuing", false}, {"sent", false}, {"message", false}, {"generated", false}, {"queuing", true}} {
		c := srpConfig("srp", "MIN", 0)
		c.Traffic.Pattern, c.Traffic.HotspotNode, c.Traffic.HotspotSenders = "HOTSPOT", 4, "0,1,2,3,5,6,7,8,9,10,11,12,13,14,15"
		c.Congestion.SrpDropThreshold, c.Congestion.SrpDropClock, c.Congestion.SrpDropAhead = T, v.clock, v.ahead
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		m := mechOf[*srp](t, s)
		var sentAt, queued []int64
		grow := func(k int32) {
			for int(k) >= len(sentAt) {
				sentAt, queued = append(sentAt, 0), append(queued, 0)
			}
		}
		s.hk.sent = append(s.hk.sent, func(_, _ int, k int32) {
			grow(k)
			sentAt[k], queued[k] = s.now, 0
		})
		s.hk.grant = append(s.hk.grant, func(_, _, _, _, _ int, k int32) {
			grow(k)
			queued[k] += s.now - s.pk[k].entry
		})
		checked, ahead, fail := 0, 0, ""
		check := func() {
			now := s.now
			for r := range s.R {
				for in := range s.radix {
					pi := r*s.radix + in
					cl := s.ports[pi].class
					for q := int(s.isoBase[cl]); q < min(int(s.ctlBase[cl]), s.nq[cl]); q++ {
						b := &s.bufs[pi*s.maxVC+q]
						if b.len == 0 || int64(b.hEntry) > now {
							continue
						}
						k := b.hd
						if s.pk[k].mech&m.spec == 0 {
							fail = "a packet on the isolated class not marked speculative"
							return
						}
						var w, lo, hi int64
						switch v.clock {
						case "queuing":
							w = queued[k] + now - int64(b.hEntry)
						case "sent":
							w = now - sentAt[k]
						case "generated":
							w = now - s.pk[k].gen
						case "message":
							lo, hi = now-sentAt[k], now-s.pk[k].gen
						}
						var a int64
						if v.ahead && b.hOut >= 0 {
							po := r*s.radix + int(b.hOut)
							if oc := s.ports[po].class; oc != topology.Injection {
								a = max(0, int64(s.bufCap[oc]-s.credits[po*s.maxVC+int(b.hVC)])-2*s.lat[oc])
							}
						}
						if a > 0 {
							ahead++
						}
						got := m.waited(s, r, b, now)
						checked++
						switch {
						case v.clock == "message" && (got < lo+a || got > hi+a):
							fail = "message clock outside [since sent, since generated]"
						case v.clock != "message" && got != w+a:
							fail = "time-to-wait differs from the test's count"
						case got > T:
							fail = "a speculative head above the threshold after the drop check"
						}
						if fail != "" {
							t.Errorf("%+v, cycle %d, router %d input %d queue %d: %s (waited %d, the test's %d + %d ahead, message bounds %d…%d)",
								v, now, r, in, q, fail, got, w, a, lo, hi)
							return
						}
					}
				}
			}
		}
		// right after SRP's drop check, in the same cycle
		s.hk.cycle = append(s.hk.cycle, cycleHook{every: srpScan, f: check})
		for s.now < 6000 && fail == "" {
			s.Step()
		}
		if fail != "" {
			continue
		}
		t.Logf("%+v: %d heads checked (%d with phits ahead), %d drops", v, checked, ahead, m.drops)
		if m.drops == 0 || checked == 0 || v.ahead && ahead == 0 {
			t.Errorf("%+v: %d drops, %d heads checked, %d with phits ahead: the rule untested", v, m.drops, checked, ahead)
		}
		drops[v] = m.drops
	}
	// the clocks are not one clock
	if len(drops) == 5 && drops[variant{"queuing", false}] == drops[variant{"generated", false}] {
		t.Errorf("the same drops counted from queuing only and from generation: %v", drops)
	}
}

// Each clock counts from its own start: node 0 queues four 4-packet
// messages at cycle 0, to nodes 5, 9, 13 and 5 again, on an idle network
// (MIN, 16 nodes), threshold 150 cycles. The first three messages'
// reservations go at once and their 12 packets leave the source queue by
// cycle 65 (the isolated injection VC holds 8) and the injection input one
// every 16 cycles (2× speedup): the last three leave it more than 150
// cycles after their message began but less than 150 after they left the
// source queue. The fourth message waits for the first to end (one message
// per destination) and goes at ≈ cycle 326, long after its generation.
// queuing and sent: no drop; message: those 3; generated: those 3 and the
// fourth message's. Every packet is delivered (re-sent after its NACK).
func TestSRPDropClocksCountFromTheirStart(t *testing.T) {
	want := map[string]int64{"queuing": 0, "sent": 0, "message": 3}
	var gen int64
	for _, ck := range []string{"queuing", "sent", "message", "generated"} {
		c := srpConfig("srp", "MIN", 0)
		c.Congestion.SrpDropThreshold, c.Congestion.SrpDropClock = 150, ck
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		m := mechOf[*srp](t, s)
		got := 0
		s.hk.eject = append(s.hk.eject, func(int32, int64) { got++ })
		for _, d := range []int{5, 9, 13, 5} {
			s.queueMessage(0, d, 0)
		}
		for range 4000 {
			s.Step()
		}
		t.Logf("%s: %d drops, %d reservations, %d packets delivered", ck, m.drops, m.reservations, got)
		if got != 16 || s.live != 0 || m.reservations != 4 {
			t.Errorf("%s: %d of 16 packets delivered, %d live, %d reservations", ck, got, s.live, m.reservations)
		}
		if w, ok := want[ck]; ok && m.drops != w {
			t.Errorf("%s: %d drops, want %d", ck, m.drops, w)
		}
		if ck == "generated" {
			gen = m.drops
		}
	}
	if gen <= want["message"] {
		t.Errorf("generated: %d drops, want more than message's %d (the fourth message's packets)", gen, want["message"])
	}
}
