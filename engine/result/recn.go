package result

// RECN is congestion.scheme=recn's own results (Duato et al., "A New
// Scalable and Cost-Effective Congestion Management Strategy for Lossless
// Multistage Interconnection Networks", RECN paper Fig. 4): the SAQ
// utilisation per interval of Series (the most lines allocated at one
// ingress side, at one egress side or interface, and in the whole network,
// over the interval), its maxima over the run, the packets delivered out
// of order per (source, destination) (0 under RECN, §3.6), and the
// protocol's traffic.
type RECN struct {
	MaxIngress  []int32 `json:"maxIngress" msgpack:"maxIngress"`
	MaxEgress   []int32 `json:"maxEgress" msgpack:"maxEgress"`
	Total       []int32 `json:"total" msgpack:"total"`
	PeakIngress int32   `json:"peakIngress" msgpack:"peakIngress"`
	PeakEgress  int32   `json:"peakEgress" msgpack:"peakEgress"`
	PeakTotal   int32   `json:"peakTotal" msgpack:"peakTotal"`
	Allocated   int32   `json:"allocated" msgpack:"allocated"` // lines still allocated at the end
	OutOfOrder  int64   `json:"outOfOrder" msgpack:"outOfOrder"`
	Notified    int64   `json:"notifications" msgpack:"notifications"`
	Refused     int64   `json:"refused" msgpack:"refused"`
	ControlPkts int64   `json:"controlPackets" msgpack:"controlPackets"`
}
