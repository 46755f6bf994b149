// Package rng gives every component its own deterministic random stream,
// derived from the run seed, so that a change in one component's draws never
// shifts another's, and results are bit-identical on every platform.
package rng

import (
	"math/bits"
	"math/rand/v2"
)

// Stream kinds: each component family draws from its own stream.
const (
	Generator     uint64 = iota + 1 // per node: injection process and destinations
	Router                          // per router: routing decisions
	Traffic                         // per node: pattern set-up (MIX per node)
	ReactionPoint                   // per node: QCN reaction points' byte-counter jitter
)

// Stream is a PCG generator (math/rand/v2) with the few draws the hot loop needs.
type Stream struct{ pcg rand.PCG }

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// New derives the stream of component id of a kind from the run seed.
// Kind and id are mixed as kind<<40 ^ id: ids must stay below 2⁴⁰, or two
// kinds' streams coincide (Router's id 2⁴⁰+n is Traffic's n).
func New(seed, kind, id uint64) Stream {
	var s Stream
	a := splitmix(seed ^ splitmix(kind<<40^id))
	s.pcg.Seed(a, splitmix(a^0x5851f42d4c957f2d))
	return s
}

// Uint64 is a raw draw.
func (s *Stream) Uint64() uint64 { return s.pcg.Uint64() }

// Intn is uniform in [0, n) (Lemire's multiply-shift; bias below n/2⁶⁴).
func (s *Stream) Intn(n int) int {
	hi, _ := bits.Mul64(s.pcg.Uint64(), uint64(n))
	return int(hi)
}

// Intn2 is a uniform pair in [0, n1) × [0, n2) from one draw: the high
// word of x·n1 is the first, and the low word, a uniform fraction, scaled by
// n2 is the second (bias below n1·n2/2⁶⁴).
func (s *Stream) Intn2(n1, n2 int) (int, int) {
	hi, lo := bits.Mul64(s.pcg.Uint64(), uint64(n1))
	hi2, _ := bits.Mul64(lo, uint64(n2))
	return int(hi), int(hi2)
}

// Float64 is uniform in [0, 1).
func (s *Stream) Float64() float64 { return float64(s.pcg.Uint64()>>11) * 0x1p-53 }

// Threshold converts a probability into a value that Bernoulli compares to a
// raw draw, so that the per-cycle test is one integer comparison.
func Threshold(p float64) uint64 {
	switch {
	case p <= 0:
		return 0
	case p >= 1:
		return ^uint64(0)
	}
	return uint64(p * 0x1p64)
}

// Bernoulli is true with the probability encoded by Threshold.
func (s *Stream) Bernoulli(threshold uint64) bool {
	if threshold == ^uint64(0) {
		return true
	}
	return s.pcg.Uint64() < threshold
}
