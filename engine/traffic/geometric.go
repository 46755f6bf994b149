package traffic

import "phitsim/engine/rng"

// Geometric draws the gaps between the successes of a Bernoulli process of
// per-cycle probability q, so that a generator can sleep until its next
// packet instead of flipping a coin every cycle: the same process, far fewer
// draws at low load. Its table is built by repeated IEEE multiplication, so
// the draws are bit-identical on every platform (no math.Log).
type Geometric struct {
	cdf []uint64 // cdf[k] = P(gap ≤ k+1) as a 64-bit threshold
}

// NewGeometric builds the sampler for 0 < q ≤ 1.
func NewGeometric(q float64) Geometric {
	const max = 512
	g := Geometric{}
	miss := 1.0 // (1−q)^k
	for k := 0; k < max; k++ {
		miss *= 1 - q
		g.cdf = append(g.cdf, rng.Threshold(1-miss))
		if miss < 1e-18 {
			break
		}
	}
	return g
}

// Gap is the number of cycles to the next success (≥ 1).
func (g Geometric) Gap(s *rng.Stream) int64 {
	var base int64
	for {
		u := s.Uint64()
		// first k with u < cdf[k]
		lo, hi := 0, len(g.cdf)
		for lo < hi {
			m := (lo + hi) / 2
			if u < g.cdf[m] {
				hi = m
			} else {
				lo = m + 1
			}
		}
		if lo < len(g.cdf) {
			return base + int64(lo) + 1
		}
		base += int64(len(g.cdf)) // past the table: memoryless, draw again
	}
}
