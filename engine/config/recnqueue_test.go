package config

import (
	"strings"
	"testing"
)

// congestion.recnAdmittance, the size of a network interface's admittance
// queue per destination (RECN paper §4.1 gives none): in bytes like the
// RECN family's thresholds, rounded up to whole packets; 0 keeps an
// interface's memory (router.injectionBuffer), the size used before the
// field existed; out of its range it is refused naming the field; without
// RECN it is listed as not applying, not refused; and the estimate of the
// packets waiting in the admittance queues follows it.
func TestRECNAdmittanceField(t *testing.T) {
	c := RECNMechanism(2) // 64-byte packets
	if a := c.Congestion.RECN(64).Admittance; a != 0 {
		t.Errorf("default: %d packets, want 0 (the interface's memory)", a)
	}
	for _, x := range []struct{ bytes, pkts int }{{1, 1}, {64, 1}, {65, 2}, {256, 4}, {131072, 2048}} {
		c.Congestion.RecnAdmittance = x.bytes
		if a := c.Congestion.RECN(64).Admittance; int(a) != x.pkts {
			t.Errorf("%d bytes: %d packets, want %d", x.bytes, a, x.pkts)
		}
	}
	for _, v := range []int{-1, 16777217} {
		c.Congestion.RecnAdmittance = v
		errs := c.Validate()
		if len(errs) != 1 || errs[0].Path != "congestion.recnAdmittance" || !strings.Contains(errs[0].Msg, "16777216") {
			t.Errorf("recnAdmittance = %d: %v, want one error naming the field and its range", v, errs)
		}
	}
	c.Congestion.RecnAdmittance = 16777216
	if errs := c.Validate(); len(errs) != 0 {
		t.Errorf("recnAdmittance at its maximum refused: %v", errs)
	}

	b := RECNBaseline(2, "iq")
	b.Congestion.RecnAdmittance = 256
	if errs := b.Validate(); len(errs) != 0 {
		t.Fatalf("IQ with recnAdmittance refused: %v", errs)
	}
	if u := b.Unapplied(); len(u) != 1 || u[0].Path != "congestion.recnAdmittance" {
		t.Errorf("IQ with recnAdmittance: unapplied %v, want congestion.recnAdmittance", u)
	}

	// the waiting packets (memory.go, recnPackets) with the network's
	// packets left out: the queues' room bounds them
	c = RECNMechanism(2)
	c.Congestion.RecnAdmittance = 256 // 4 packets
	if rp, want := c.recnPackets(384, 64, 0), 64.0*(64*4+1); rp.waiting != want || rp.path != "congestion.recnAdmittance" {
		t.Errorf("4-packet admittance queues: %+v, want %.0f waiting, on congestion.recnAdmittance", rp, want)
	}
	c.Router.InjectionBuffer = 64 // an 8-packet interface memory does not size them
	if rp, want := c.recnPackets(384, 64, 0), 64.0*(64*4+1); rp.waiting != want {
		t.Errorf("4-packet admittance queues, 8-packet interfaces: %+v, want %.0f waiting", rp, want)
	}
	c.Congestion.RecnAdmittance = 0
	if rp, want := c.recnPackets(384, 64, 0), 64.0*(64*8+1); rp.waiting != want || rp.path != "router.injectionBuffer" {
		t.Errorf("default admittance queues, 8-packet interfaces: %+v, want %.0f waiting, on router.injectionBuffer", rp, want)
	}
}

// congestion.recnCrossbar, the crossbar's arbiter (RECN paper §4.1: an
// arbiter receiving the heads' requests, normal queues' before SAQs'):
// perOutput and empty resolve to grants by a pointer per output with the
// preference across the switch's inputs, normalFirst to the preference with
// the sides in a rotating order, rotating to the earlier per-side arbiter;
// another value is refused naming the field and its values; without RECN
// it is listed as not applying, not refused.
func TestRECNCrossbarField(t *testing.T) {
	c := RECNMechanism(2)
	for v, want := range map[string][2]bool{"": {true, true}, "perOutput": {true, true}, "normalFirst": {true, false}, "rotating": {false, false}} {
		c.Congestion.RecnCrossbar = v
		if p := c.Congestion.RECN(64); p.NormalFirst != want[0] || p.PerOutput != want[1] {
			t.Errorf("recnCrossbar=%q: NormalFirst %v, PerOutput %v, want %v", v, p.NormalFirst, p.PerOutput, want)
		}
		if errs := c.Validate(); len(errs) != 0 {
			t.Errorf("recnCrossbar=%q refused: %v", v, errs)
		}
	}
	c.Congestion.RecnCrossbar = "greedy"
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "congestion.recnCrossbar" || !strings.Contains(errs[0].Msg, "perOutput, normalFirst, rotating") {
		t.Errorf("recnCrossbar=greedy: %v, want one error naming the field and its values", errs)
	}
	b := RECNBaseline(1, "iq")
	b.Congestion.RecnCrossbar = "rotating"
	if errs := b.Validate(); len(errs) != 0 {
		t.Fatalf("IQ with recnCrossbar refused: %v", errs)
	}
	if u := b.Unapplied(); len(u) != 1 || u[0].Path != "congestion.recnCrossbar" {
		t.Errorf("IQ with recnCrossbar: unapplied %v, want congestion.recnCrossbar", u)
	}
}

// RECN's default thresholds (the RECN paper gives none, §3.3–3.4):
// detection at 320 B and propagation at 512 B, 5 and 8 packets of 64 B
// (Fig. 2's dips, engine/REPRODUCTION.md targets 8–17), at least 4 packets
// each with larger packets (512-B packets: 4 and 4, 2 KB, where 1 packet
// roots a tree at every packet in transit), the propagation threshold at
// most T_xoff; a value set is rounded up to whole packets without the
// floor; every packet size's defaults pass validation.
func TestRECNDefaultThresholds(t *testing.T) {
	c := RECNMechanism(1)
	for _, x := range []struct {
		pkt, detect, prop int32
	}{{64, 5, 8}, {128, 4, 4}, {512, 4, 4}, {1024, 4, 4}, {2048, 4, 2}} {
		p := c.Congestion.RECN(int(x.pkt))
		if p.Detect != x.detect || p.Prop != x.prop {
			t.Errorf("%d-B packets: detect %d, prop %d packets; want %d, %d", x.pkt, p.Detect, p.Prop, x.detect, x.prop)
		}
		if p.Prop > p.Xoff {
			t.Errorf("%d-B packets: prop %d over Xoff %d", x.pkt, p.Prop, p.Xoff)
		}
		d := c
		d.Router.PacketSize = int(x.pkt) / d.Physical.PhitBytes
		if errs := d.Validate(); len(errs) != 0 {
			t.Errorf("%d-B packets: %v", x.pkt, errs)
		}
	}
	c.Congestion.RecnDetect, c.Congestion.RecnProp = 320, 512
	if p := c.Congestion.RECN(512); p.Detect != 1 || p.Prop != 1 {
		t.Errorf("320 B / 512 B set, 512-B packets: %d / %d packets, want 1 / 1", p.Detect, p.Prop)
	}
}
