package rng

import (
	"math"
	"testing"
)

func TestStreamsAreDeterministicAndIndependent(t *testing.T) {
	a, b := New(7, Generator, 3), New(7, Generator, 3)
	c, d := New(7, Generator, 4), New(7, Router, 3)
	same, diffID, diffKind := true, 0, 0
	for i := 0; i < 1000; i++ {
		x := a.Uint64()
		same = same && x == b.Uint64()
		if x == c.Uint64() {
			diffID++
		}
		if x == d.Uint64() {
			diffKind++
		}
	}
	if !same || diffID > 0 || diffKind > 0 {
		t.Fatalf("same seed equal %v; equal draws across ids %d, kinds %d", same, diffID, diffKind)
	}
}

func TestDrawsAreUniform(t *testing.T) {
	s := New(1, Traffic, 0)
	const n, k = 200000, 10
	var hist [k]int
	var sum float64
	hits := 0
	thr := Threshold(0.3)
	for i := 0; i < n; i++ {
		hist[s.Intn(k)]++
		sum += s.Float64()
		if s.Bernoulli(thr) {
			hits++
		}
	}
	for i, h := range hist {
		if math.Abs(float64(h)-n/k) > 5*math.Sqrt(n/k) {
			t.Errorf("bin %d: %d draws of %d", i, h, n/k)
		}
	}
	if math.Abs(sum/n-0.5) > 0.005 || math.Abs(float64(hits)/n-0.3) > 0.005 {
		t.Errorf("mean %.4f, Bernoulli(0.3) rate %.4f", sum/n, float64(hits)/n)
	}
	if Threshold(0) != 0 || !s.Bernoulli(Threshold(1)) || s.Bernoulli(Threshold(-1)) {
		t.Error("degenerate probabilities")
	}
}

// The pairs of Intn2 are uniform over the product and their parts independent.
func TestPairsAreUniform(t *testing.T) {
	s := New(3, Router, 7)
	const n, k1, k2 = 400000, 5, 8
	var hist [k1][k2]int
	for i := 0; i < n; i++ {
		a, b := s.Intn2(k1, k2)
		hist[a][b]++
	}
	exp := float64(n) / (k1 * k2)
	var chi2 float64
	for a := range hist {
		for b := range hist[a] {
			d := float64(hist[a][b]) - exp
			chi2 += d * d / exp
		}
	}
	// 39 degrees of freedom: P(χ² > 80) < 10⁻⁴
	if chi2 > 80 {
		t.Errorf("χ² = %.1f over %d cells: %v", chi2, k1*k2, hist)
	}
}
