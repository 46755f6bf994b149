// Package units converts between a network's physical description (link
// rate in Gb/s, sizes in bytes, times in ns or cable metres) and the
// engine's units: cycles and phits, a link carrying one phit per cycle.
// The basis of the conversion is the link rate and the phit size: a cycle
// lasts 8·phitBytes/linkGbps ns (40 Gb/s and 100-byte phits: 20 ns).
//
// Rounding, stated once: a time converts to whole cycles rounding up (a
// link or a router is never faster than the time it is given; a non-zero
// time below one cycle is an error), and a size (a packet, a buffer) must
// be a whole number of phits (an error otherwise, which names the nearest
// sizes that are: rounding would change the bytes a packet carries, hence
// every rate in Gb/s). The engine's values convert back exactly;
// Conversion.Exact tells whether a typed physical value survived the trip.
//
// KB is 1,000 bytes, as in the QCN-Switch paper (Benito et al., Non-minimal
// Adaptive Routing Based on Explicit Congestion Notifications, §4.1,
// Table I: "1 KB" packets of 1,000 bytes, 100 KB transit queues of 100
// packets).
package units

import (
	"fmt"
	"math"
	"strconv"
)

// DefaultCableNsPerMeter is the propagation delay of a cable: 5 ns/m (the
// QCN-Switch paper, Table I: 8 m and 80 m cables are 40 ns and 400 ns).
const DefaultCableNsPerMeter = 5

// Ranges of a basis (the config's physical section declares the same).
const (
	MaxLinkGbps        = 100000
	MaxPhitBytes       = 1048576
	MaxCableNsPerMeter = 1000
)

// maxEngine bounds a converted value: beyond it an int would not hold it
// (every engine field's range is far below).
const maxEngine = 1 << 52

// Basis is what a physical description needs to become cycles and phits.
type Basis struct {
	LinkGbps        float64 // link rate, one phit per cycle
	PhitBytes       int     // bytes a link carries per cycle
	CableNsPerMeter float64 // 0: DefaultCableNsPerMeter
}

// Error names the field (a basis field, or the caller's name for the value)
// and what is allowed.
type Error struct {
	Field, Value, Msg string
}

func (e *Error) Error() string { return e.Field + " = " + e.Value + ": " + e.Msg }

func fmtF(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Check reports what makes the basis unusable, each error naming its field
// (linkGbps, phitBytes, cableNsPerMeter) and the allowed range.
func (b Basis) Check() []*Error {
	var errs []*Error
	if !(b.LinkGbps > 0 && b.LinkGbps <= MaxLinkGbps) {
		errs = append(errs, &Error{"linkGbps", fmtF(b.LinkGbps), fmt.Sprintf("must be in (0, %d] Gb/s", MaxLinkGbps)})
	}
	if b.PhitBytes < 1 || b.PhitBytes > MaxPhitBytes {
		errs = append(errs, &Error{"phitBytes", strconv.Itoa(b.PhitBytes), fmt.Sprintf("must be in [1, %d] bytes", MaxPhitBytes)})
	}
	if !(b.CableNsPerMeter >= 0 && b.CableNsPerMeter <= MaxCableNsPerMeter) {
		errs = append(errs, &Error{"cableNsPerMeter", fmtF(b.CableNsPerMeter), fmt.Sprintf("must be in [0, %d] ns/m (0: %d)", MaxCableNsPerMeter, DefaultCableNsPerMeter)})
	}
	return errs
}

// CycleNs is the length of a cycle: the time a link takes to carry a phit.
func (b Basis) CycleNs() float64 { return float64(b.PhitBytes) * 8 / b.LinkGbps }

// NsPerMeter is the cable's propagation delay.
func (b Basis) NsPerMeter() float64 {
	if b.CableNsPerMeter > 0 {
		return b.CableNsPerMeter
	}
	return DefaultCableNsPerMeter
}

// relative tolerance of the whole-number tests: decimal inputs (0.3 µs)
// are not exact in binary.
const eps = 1e-9

// Cycles converts a time in ns to whole cycles, rounding up; 0 stays 0 and
// a time between 0 and one cycle is an error naming field.
func (b Basis) Cycles(field string, ns float64) (int, error) {
	cyc := b.CycleNs()
	switch {
	case math.IsNaN(ns) || math.IsInf(ns, 0) || ns < 0:
		return 0, &Error{field, fmtF(ns), "must be a time ≥ 0 ns"}
	case ns == 0:
		return 0, nil
	case ns < cyc*(1-eps):
		return 0, &Error{field, fmtF(ns) + " ns", fmt.Sprintf("is below one cycle (%s ns at %s Gb/s with %d-byte phits)", fmtF(cyc), fmtF(b.LinkGbps), b.PhitBytes)}
	}
	x := ns / cyc
	if n := math.Round(x); math.Abs(x-n) <= eps*math.Max(1, x) {
		x = n // a whole number of cycles, typed in decimal
	} else {
		x = math.Ceil(x)
	}
	if x > maxEngine {
		return 0, &Error{field, fmtF(ns) + " ns", fmt.Sprintf("is more than %d cycles of %s ns", int64(maxEngine), fmtF(cyc))}
	}
	return int(x), nil
}

// CableCycles converts a cable length in metres to whole cycles (as Cycles).
func (b Basis) CableCycles(field string, meters float64) (int, error) {
	if math.IsNaN(meters) || math.IsInf(meters, 0) || meters < 0 {
		return 0, &Error{field, fmtF(meters) + " m", "must be a length ≥ 0 m"}
	}
	return b.Cycles(field, meters*b.NsPerMeter())
}

// Phits converts a size in bytes (a packet, a buffer) to phits; it must be
// a whole number of phits (an error naming field otherwise, with the two
// nearest sizes that are): rounding would change the bytes a packet carries,
// hence every rate in Gb/s, or a buffer's memory. 0 stays 0.
func (b Basis) Phits(field string, bytes float64) (int, error) {
	if math.IsNaN(bytes) || math.IsInf(bytes, 0) || bytes < 0 {
		return 0, &Error{field, fmtF(bytes), "must be a size ≥ 0 bytes"}
	}
	x := bytes / float64(b.PhitBytes)
	n := math.Round(x)
	switch {
	case math.Abs(x-n) > eps*math.Max(1, x):
		lo := math.Floor(x)
		near := FormatBytes((lo + 1) * float64(b.PhitBytes))
		if lo >= 1 {
			near = FormatBytes(lo*float64(b.PhitBytes)) + " or " + near
		}
		return 0, &Error{field, FormatBytes(bytes), fmt.Sprintf("is %.6g phits of %d bytes: it must be a whole number of phits (%s)", x, b.PhitBytes, near)}
	case n > maxEngine:
		return 0, &Error{field, FormatBytes(bytes), fmt.Sprintf("is more than %d phits", int64(maxEngine))}
	}
	return int(n), nil
}

// Ns is the time of n cycles.
func (b Basis) Ns(cycles float64) float64 { return cycles * b.CycleNs() }

// Bytes is the size of n phits.
func (b Basis) Bytes(phits float64) float64 { return phits * float64(b.PhitBytes) }

// Gbps is the rate of a load in phits/(node·cycle) per node: a load of 1 is
// one phit per cycle, the link rate.
func (b Basis) Gbps(load float64) float64 { return load * b.LinkGbps }

// Load is the load in phits/(node·cycle) of a rate in Gb/s per node.
func (b Basis) Load(gbps float64) float64 { return gbps / b.LinkGbps }
