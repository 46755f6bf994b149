package result

import "math"

// Transient is the reaction to a traffic-pattern switch (thesis §4.3.2, Figs.
// 4.8–4.10), recorded as FOGSim's .transient file does: delivered packets by
// the cycle they were generated, in bins, so a packet counts where the
// routing decided its path rather than where it arrived.
type Transient struct {
	From int `json:"from" msgpack:"from"` // first bin's start, in cycles from the switch (negative: before it)
	Bin  int `json:"bin" msgpack:"bin"`   // bin width, cycles
	// Per bin: packets delivered, those on a global misroute or a Valiant path
	// (FOGSim's transient definition), and their summed latency.
	Packets   []int64 `json:"packets" msgpack:"packets"`
	Misrouted []int64 `json:"misrouted" msgpack:"misrouted"`
	Latency   []int64 `json:"latency" msgpack:"latency"`
	// T50, T90: cycles after the switch at which the misrouted share has made
	// 50% and 90% of its change (TransientTimes); absent when it does not
	// change, or the mark is never passed.
	T50 *float64 `json:"t50,omitempty" msgpack:"t50,omitempty"`
	T90 *float64 `json:"t90,omitempty" msgpack:"t90,omitempty"`
	// With a load step (traffic.switchLoad) or ACOR-Switch levels, per bin
	// (omitted otherwise): Generated, packets generated in it; Delivered,
	// phits delivered in it (by delivery cycle: the accepted load); with
	// ACOR-Switch, Levels, the routers at levels 1, 2, 3 at its start (3
	// per bin), and Group0, the level (1–3) of each of group 0's a routers
	// at its start (a per bin; ACOR paper Fig. 10).
	Generated []int64 `json:"generated,omitempty" msgpack:"generated,omitempty"`
	Delivered []int64 `json:"delivered,omitempty" msgpack:"delivered,omitempty"`
	Levels    []int32 `json:"levels,omitempty" msgpack:"levels,omitempty"`
	Group0    []int8  `json:"group0,omitempty" msgpack:"group0,omitempty"`
	// Probabilities: QCN-Switch's per-port minimal probabilities of group 0
	// over the run, else nil.
	Probabilities *PortProbabilities `json:"probabilities,omitempty" msgpack:"probabilities,omitempty"`
}

// NewTransient copies the record and computes its reaction times.
func NewTransient(from int64, bin int, packets, misrouted, latency []int64) *Transient {
	t := &Transient{From: int(from), Bin: bin, Packets: append([]int64(nil), packets...),
		Misrouted: append([]int64(nil), misrouted...), Latency: append([]int64(nil), latency...)}
	t50, t90 := TransientTimes(t.From, t.Bin, t.Packets, t.Misrouted)
	t.T50, t.T90 = finite(t50), finite(t90)
	return t
}

func finite(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

// TransientTimes returns the cycles after the switch at which the misrouted
// share first makes 50% and 90% of its change: from its share before the
// switch to its settled share, the share over the middle half of the record
// after the switch (from a third to five sixths of it: late enough to have
// settled, early enough that the packets generated then have all arrived).
// A time is the start of the first bin at or after the switch whose share is
// past the mark; NaN when the settled share is within 5 points of the one
// before, or the mark is never passed. Used for both simulators' records.
func TransientTimes(from, bin int, packets, misrouted []int64) (t50, t90 float64) {
	t50, t90 = math.NaN(), math.NaN()
	if bin <= 0 || from > 0 || len(packets) != len(misrouted) {
		return
	}
	first := -from / bin // bin of the switch
	n := len(packets) - first
	if first >= len(packets) || n < 6 {
		return
	}
	share := func(lo, hi int) float64 {
		var p, m int64
		for i := lo; i < hi; i++ {
			p += packets[i]
			m += misrouted[i]
		}
		if p == 0 {
			return math.NaN()
		}
		return float64(m) / float64(p)
	}
	before := share(0, first)
	settled := share(first+n/3, first+5*n/6)
	if math.IsNaN(before) || math.IsNaN(settled) || math.Abs(settled-before) < 0.05 {
		return
	}
	at := func(frac float64) float64 {
		mark := before + frac*(settled-before)
		for i := first; i < len(packets); i++ {
			s := share(i, i+1)
			if !math.IsNaN(s) && (settled > before && s >= mark || settled < before && s <= mark) {
				return float64(from + i*bin)
			}
		}
		return math.NaN()
	}
	return at(0.5), at(0.9)
}

// PortProbabilities is QCN-Switch's minimal probability (%) of every transit
// port of group 0's routers over a run (QCN-Switch paper Figs. 12b, 14b):
// Values[i] is the snapshot at From + i·Every cycles from the switch (a
// transient run's record) or from the start of the run
// (Result.SeriesProbabilities, whose last snapshot may be the run's end,
// closer), router-major (router r's transit port k at r·Ports + k,
// k = port − p).
type PortProbabilities struct {
	From   int         `json:"from" msgpack:"from"`
	Every  int         `json:"every" msgpack:"every"`
	Ports  int         `json:"ports" msgpack:"ports"`
	Values [][]float32 `json:"values" msgpack:"values"`
}
