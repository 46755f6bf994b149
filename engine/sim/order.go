package sim

import (
	"fmt"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// Out-of-order deliveries per (source, destination) pair: Duato et al., A
// New Scalable and Cost-Effective Congestion Management Strategy for
// Lossless Multistage Interconnection Networks, §3.8 (RECN's markers keep
// each flow in order) and §4.3 (4Q stores a packet in whichever of 4 queues
// is least occupied, so a flow's packets may overtake each other). Every
// data packet gets the next number of its pair at generation; a packet
// delivered below the highest number its pair has delivered arrived out of
// order. Off unless initOrder is called (router.queueing set, or a
// mechanism such as RECN that asks): then one test per generated and per
// delivered packet, nothing per hop.
type orderCheck struct {
	seq  []uint32 // per packet id: its number in its pair
	next []uint32 // per pair src·N + dst: the number the next packet gets
	high []uint32 // per pair: 1 + the highest number delivered (0: none)
	bad  []bool   // per pair: has delivered a packet out of order
	late int64    // packets delivered out of order
}

// maxOrderNodes bounds the pairs the counter keeps (N² of 3 words each;
// the memory estimate counts them up to it).
const maxOrderNodes = config.MaxOrderNodes

// initOrder turns the counter on (idempotent) for the parameter field
// that asks, which an error names.
func (s *Sim) initOrder(field string) error {
	if s.ord != nil {
		return nil
	}
	if s.N > maxOrderNodes {
		return fmt.Errorf("%s: counting out-of-order packets per (source, destination) keeps %d² pairs; at most %d hosts", field, s.N, maxOrderNodes)
	}
	n := s.N * s.N
	s.ord = &orderCheck{next: make([]uint32, n), high: make([]uint32, n), bad: make([]bool, n)}
	return nil
}

// orderSent numbers data packet k in its pair at generation.
func (o *orderCheck) sent(k int32, pk *packet, N int) {
	f := int(pk.src)*N + int(pk.dst)
	o.number(k, o.next[f])
	o.next[f]++
}

// number gives packet k the number n in its pair (a packet of a
// partitioned run that crossed into this partition's pool as k).
func (o *orderCheck) number(k int32, n uint32) {
	for int(k) >= len(o.seq) {
		o.seq = append(o.seq, make([]uint32, len(o.seq)+64)...)
	}
	o.seq[k] = n
}

// delivered checks data packet k against its pair's highest delivered.
func (o *orderCheck) delivered(k int32, pk *packet, N int) {
	f := int(pk.src)*N + int(pk.dst)
	if n := o.seq[k]; n+1 > o.high[f] {
		o.high[f] = n + 1
	} else {
		o.late++
		o.bad[f] = true
	}
}

// report is the result's Order, nil when off.
func (o *orderCheck) report() *result.Order {
	if o == nil {
		return nil
	}
	r := &result.Order{OutOfOrder: o.late}
	for _, b := range o.bad {
		if b {
			r.Pairs++
		}
	}
	return r
}
