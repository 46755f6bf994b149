package config

import (
	"fmt"
	"strconv"
)

// RECN's fields are in Congestion (congestion.recn*).

// RECN's default thresholds (the RECN paper gives none, §3.3–3.4): an
// egress side whose normal queue holds RECNDetectBytes is a root, a SAQ
// holding RECNPropBytes notifies upstream. Reconstructed with 64-B packets
// (5 and 8 packets): of the pairs measured, the one that meets Fig. 2's
// dips (< 1 B/ns in corner case 1, < 4 in case 2) with Fig. 4's lines
// (< 170 in case 1); 2 KB each dips 2.9 and 6.3 B/ns (engine/REPRODUCTION.md,
// "The thresholds under the per-output crossbar").
// With larger packets each default is at least RECNMinPackets packets: with
// 512-B packets 320 B is less than one packet, and a side holding a single
// packet in transit roots a tree (case 1: 1,795 lines at once, every SAQ
// of a side taken, 8,911 notifications refused, 1,377 lines still held at
// the end); at 4 packets (2 KB) the lines stay at 124–135 in all (Fig. 4:
// < 170) with the same throughput.
const (
	RECNDetectBytes = 320
	RECNPropBytes   = 512
	RECNMinPackets  = 4
)

// RECNDefaultSAQs is congestion.recnSaqs's default: the RECN paper's eight
// set-aside queues per ingress side, egress side and interface (§4.1).
const RECNDefaultSAQs = 8

// RECNParams are RECN's parameters in packets of pktBytes bytes (at least
// 1 packet each) and cycles.
type RECNParams struct {
	SAQs                    int
	Detect, Prop, Xoff, Xon int32
	IdleCycles              int64
	// Admittance is an interface's admittance queue per destination, in
	// packets (0: as many as the interface's memory holds)
	Admittance int32
	// NormalFirst: the crossbar serves normal queues (and leaf SAQs with
	// few packets) over all ingress sides before the other SAQs
	NormalFirst bool
	// PerOutput: the crossbar's outputs grant the requesting ingress sides
	// by a round-robin pointer each (else the sides go in a rotating order)
	PerOutput bool
}

// RECN resolves the RECN fields for packets of pktBytes bytes.
func (c Congestion) RECN(pktBytes int) RECNParams {
	or := func(v, def int) int32 {
		if v == 0 {
			v = def
		}
		return int32(max(1, (v+pktBytes-1)/pktBytes))
	}
	p := RECNParams{SAQs: c.RecnSaqs, Detect: or(c.RecnDetect, RECNDetectBytes), Prop: or(c.RecnProp, RECNPropBytes),
		Xoff: or(c.RecnXoff, 4096), Xon: or(c.RecnXon, 2048), IdleCycles: 1250, NormalFirst: c.RecnCrossbar != "rotating", PerOutput: c.RecnCrossbar == "perOutput" || c.RecnCrossbar == ""}
	// the defaults hold at least RECNMinPackets packets (the propagation
	// threshold at most T_xoff, which it must not exceed)
	if c.RecnDetect == 0 {
		p.Detect = max(p.Detect, RECNMinPackets)
	}
	if c.RecnProp == 0 {
		p.Prop = max(p.Prop, min(RECNMinPackets, p.Xoff))
	}
	if p.SAQs == 0 {
		p.SAQs = RECNDefaultSAQs
	}
	if c.RecnAdmittance > 0 {
		p.Admittance = or(c.RecnAdmittance, 0)
	}
	return p
}

// validateRECN: RECN runs on a fat tree's deterministic routing, with the
// thresholds in bytes (a physical basis), its own queues (no VOQ, DAMQ or
// FlexVC) and plain synthetic traffic.
func (c *Config) validateRECN() Errors {
	var errs Errors
	add := func(path, value, msg string) { errs = append(errs, &FieldError{Path: path, Value: value, Msg: msg}) }
	if c.Topology.Kind != "fattree" {
		add("congestion.scheme", "recn", "recn needs topology.kind=fattree (its paths are D-mod-k routes, RECN paper §3.6)")
	}
	if c.Routing.Name != "MIN" {
		add("congestion.scheme", "recn", "recn needs routing.name=MIN (deterministic routing, RECN paper §3)")
	}
	if c.Physical.PhitBytes == 0 {
		add("physical.phitBytes", "0", "recn's thresholds are in bytes: set physical.linkGbps and physical.phitBytes (the RECN paper's 8 and 8)")
	}
	if c.Router.Voq || c.Router.Damq || c.Router.FlexVC {
		add("congestion.scheme", "recn", "recn keeps its own queues: router.voq, router.damq and router.flexVC must be off")
	}
	if c.Traffic.Reactive || c.Traffic.SourceQueue {
		add("congestion.scheme", "recn", "recn runs plain traffic: traffic.reactive and traffic.sourceQueue must be off")
	}
	if c.Router.LocalVCs != 1 || c.Router.InjectionVCs != 1 {
		add("router.localVCs", strconv.Itoa(c.Router.LocalVCs), "recn's sides are one channel each: router.localVCs and router.injectionVCs must be 1")
	}
	if c.Physical.PhitBytes > 0 && len(errs) == 0 {
		p := c.Congestion.RECN(c.Router.PacketSize * c.Physical.PhitBytes)
		mem := int32(c.Router.LocalBuffer / max(1, c.Router.PacketSize))
		if p.Xon >= p.Xoff {
			add("congestion.recnXon", strconv.Itoa(c.Congestion.RecnXon), fmt.Sprintf("must be below congestion.recnXoff (%d packets against %d)", p.Xon, p.Xoff))
		}
		if p.Prop > p.Xoff {
			add("congestion.recnProp", strconv.Itoa(c.Congestion.RecnProp), fmt.Sprintf("must not exceed congestion.recnXoff (%d packets against %d)", p.Prop, p.Xoff))
		}
		if p.Xoff >= mem {
			add("congestion.recnXoff", strconv.Itoa(c.Congestion.RecnXoff), fmt.Sprintf("must be below an ingress side's memory, router.localBuffer (%d packets)", mem))
		}
	}
	return errs
}
