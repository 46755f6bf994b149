package pmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPortableMath: exp and log agree with the math package within two
// ulps, pow within 10⁻¹² relative, over the model's ranges (the draws' logarithms of (0, 1),
// the level formulas' exponents, powers of a fraction near 1 and of the
// root degree), and take its special cases.
func TestPortableMath(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	near := func(name string, got, want float64) {
		tol := 2 * 0x1p-52 // ulps
		if name == "pow" {
			tol = 1e-12 // an ulp of x**yf, times the integer power's squarings
		}
		if got != want && math.Abs(got-want) > tol*math.Abs(want) {
			t.Fatalf("%s: %v, math gives %v", name, got, want)
		}
	}
	for range 100000 {
		x := (r.Float64() - 0.5) * 80
		near("exp", Exp(x), math.Exp(x))
		u := r.Float64()
		near("log", Log(u), math.Log(u))
		near("log", Log(1+u*1e6), math.Log(1+u*1e6))
		q := r.Float64() * 1e5
		near("pow", Pow(1-1/(2+u*200), q), math.Pow(1-1/(2+u*200), q))
		y := (r.Float64() - 0.5) * 4
		near("pow", Pow(1+u*1000, y), math.Pow(1+u*1000, y))
	}
	if !math.IsInf(Log(0), -1) || !math.IsNaN(Log(-1)) || Exp(1000) != math.Inf(1) || Exp(-1000) != 0 ||
		Pow(0, 2) != 0 || Pow(7, 0) != 1 || Pow(2, 0.5) != math.Sqrt(2) {
		t.Error("special cases")
	}
}
