package result

import (
	"fmt"
	"math"
)

// Rate is one bin of the network throughput against time: the bytes
// delivered to all hosts per ns over [FromNs, ToNs), as the RECN paper
// (Duato et al., A New Scalable and Cost-Effective Congestion Management
// Strategy for Lossless Multistage Interconnection Networks, Figs. 2 and 6)
// plots it.
type Rate struct {
	FromNs     float64 `json:"fromNs"`
	ToNs       float64 `json:"toNs"`
	BytesPerNs float64 `json:"bytesPerNs"`
}

// Throughput is the run's throughput against time in bytes/ns, from Series
// (the whole run, warm-up included) and the configuration's physical basis,
// in bins of binNs: a multiple of sim.interval (the RECN paper's 5 and
// 10 µs). A last, shorter interval makes a shorter last bin. It needs
// physical.linkGbps and physical.phitBytes.
func (r *Result) Throughput(binNs float64) ([]Rate, error) {
	b, ok := r.Config.Basis()
	if !ok {
		return nil, fmt.Errorf("physical.linkGbps: the throughput in bytes/ns needs the physical basis (physical.linkGbps and physical.phitBytes)")
	}
	sz, ok := r.Config.Topology.Sizes()
	if !ok {
		return nil, fmt.Errorf("topology: no sizes")
	}
	cyc := b.CycleNs()
	iv := float64(r.Config.Sim.Interval) * cyc
	merge := int(math.Round(binNs / iv))
	if merge < 1 || math.Abs(float64(merge)*iv-binNs) > 1e-6*binNs {
		return nil, fmt.Errorf("sim.interval: a bin of %g ns is not a multiple of the interval (%d cycles, %g ns)", binNs, r.Config.Sim.Interval, iv)
	}
	var out []Rate
	prev := int64(0)
	for i := 0; i < len(r.Series); i += merge {
		from := prev
		bytes := 0.0
		for _, s := range r.Series[i:min(i+merge, len(r.Series))] {
			// Accepted is phits per node per cycle over the interval
			bytes += s.Accepted * float64(sz.Nodes) * float64(s.Cycle-prev) * float64(b.PhitBytes)
			prev = s.Cycle
		}
		out = append(out, Rate{FromNs: float64(from) * cyc, ToNs: float64(prev) * cyc, BytesPerNs: bytes / (float64(prev-from) * cyc)})
	}
	return out, nil
}

// MeanRate is the mean throughput, weighted by bin length, over the bins
// that lie inside [fromNs, toNs); NaN when none does.
func MeanRate(rates []Rate, fromNs, toNs float64) float64 {
	sum, ns := 0.0, 0.0
	for _, x := range rates {
		if x.FromNs >= fromNs && x.ToNs <= toNs {
			sum += x.BytesPerNs * (x.ToNs - x.FromNs)
			ns += x.ToNs - x.FromNs
		}
	}
	if ns == 0 {
		return math.NaN()
	}
	return sum / ns
}
