package graph500

import (
	"math"
	"sort"
	"testing"

	"phitsim/engine/rng"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func rel(got, want, r float64) bool { return math.Abs(got-want) <= r*math.Abs(want) }

// Eq. 2.1 with the parameters of thesis Fig. 2.4: s = 25, fe = 16, n = 128,
// cs = 256 gives 32,512 messages per process, exactly (thesis §2.1,
// the check printed with eq. 2.1).
func TestEq21MessagesPerProcess(t *testing.T) {
	q := TotalQueriesPerProcess(25, 16, 128)
	if q != 8323072 {
		t.Fatalf("Σq = %v, want 8,323,072", q)
	}
	if m := q / 256; m != 32512 {
		t.Fatalf("messages = %v, want 32,512", m)
	}
	if b := TotalQueries(25, 16, 128); b != 8323072*128 {
		t.Errorf("job budget %v, want n·Σq = %v", b, 8323072*128)
	}
}

// The coefficients of eqs. 2.6–2.8 and 2.11–2.16 against vectors derived
// from the thesis equations at s = 26, fe = 16 (printed to 6 decimals).
func TestCoefficientsMatchTheDerivedVectors(t *testing.T) {
	type abc struct{ A, B, C, Cf float64 }
	mean26 := []abc{
		{-0.012796, 1.370, 17.178591, 9.678717},
		{-0.010854, 0.740, 20.299100, 18.962659},
		{-0.008199, 0.110, 21.140548, 27.493843},
		{-0.005985, -0.520, 19.253055, 23.260654},
		{-0.004556, -1.150, 15.609993, 12.821137},
	}
	for i, w := range mean26 {
		l := i + 1
		A, B, C := MeanCoeffs(26, 16, l, Thesis)
		_, _, Cf := MeanCoeffs(26, 16, l, FOGSim)
		if !near(A, w.A, 1e-6) || !near(B, w.B, 1e-9) || !near(C, w.C, 1e-6) || !near(Cf, w.Cf, 1e-6) {
			t.Errorf("s=26 l=%d: A B C Cfogsim = %.6f %.3f %.6f %.6f, want %+v", l, A, B, C, Cf, w)
		}
	}
	mean22 := [][3]float64{{-0.030545, 1.322, 15.021267}, {-0.026509, 0.644, 17.535552},
		{-0.020991, -0.034, 18.208533}, {-0.016388, -0.712, 16.696090}}
	for i, w := range mean22 {
		A, B, C := MeanCoeffs(22, 16, i+1, Thesis)
		if !near(A, w[0], 1e-6) || !near(B, w[1], 1e-9) || !near(C, w[2], 1e-6) {
			t.Errorf("s=22 l=%d: A B C = %.6f %.3f %.6f, want %v", i+1, A, B, C, w)
		}
	}
	sigma26 := [][6]float64{
		{-0.088000, 0.970000, 10.514614, 0.010506, 0.978463, 34.851617},
		{-0.202240, 0.900700, 17.540407, 0.021012, 0.938431, 30.005729},
		{-0.316480, 0.831400, 23.896211, 0.042023, 0.823987, 25.234253},
		{-0.430720, 0.762100, 29.582025, 0.084046, 0.496816, 20.675504},
		{-0.544960, 0.692800, 34.597848, 0.168092, -0.438499, 16.724899},
	}
	for i, w := range sigma26 {
		D, F, G, H, J, K := SigmaCoeffs(26, 16, i+1)
		got := [6]float64{D, F, G, H, J, K}
		for k := range got {
			if !near(got[k], w[k], 1e-6) {
				t.Errorf("s=26 l=%d coefficient %c = %.6f, want %.6f", i+1, "DFGHJK"[k], got[k], w[k])
			}
		}
	}
}

// Mean and σ of E_l (eqs. 2.5, 2.17) before truncation (derived from the
// thesis equations at s = 26, fe = 16), printed
// to 4 significant digits.
func TestMeanAndSigmaEvaluators(t *testing.T) {
	for _, v := range []struct {
		dr, l       int
		mean, sigma float64
		r           float64
	}{
		{1, 1, 2.888e7, 3.685e4, 1e-3}, {1, 2, 6.543e8, 4.147e7, 1e-3}, {1, 3, 1.518e9, 1.567e9, 1e-3},
		{1, 4, 2.30e8, 1.57e9, 5e-3}, {10, 1, 6.326e8, 2.157e5, 1e-3}, {10, 2, 3.395e9, 1.129e8, 1e-3},
	} {
		m, s := MeanEdges(26, 16, v.l, v.dr, Thesis), SigmaEdges(26, 16, v.l, v.dr)
		if !rel(m, v.mean, v.r) || !rel(s, v.sigma, v.r) {
			t.Errorf("dr=%d l=%d: mean %.4g σ %.4g, want %.4g %.4g", v.dr, v.l, m, s, v.mean, v.sigma)
		}
	}
	if MeanEdges(26, 16, 0, 7, Thesis) != 7 || SigmaEdges(26, 16, 0, 7) != 0 {
		t.Error("level 0 explores exactly dr edges")
	}
	// with the thesis C the level means for dr = 1 add up to the edge budget
	// 2^(s+1)·fe within ±20% (derived; the C of FOGSim's
	// graph500Generator.cc does not)
	for _, s := range []int{17, 22, 26} {
		sum := 1.0
		for l := 1; l <= 8; l++ {
			sum += MeanEdges(float64(s), 16, l, 1, Thesis)
		}
		budget := math.Ldexp(16, s+1)
		if !rel(sum, budget, 0.2) {
			t.Errorf("s=%d: Σ mean E_l = %.3g, budget %.3g (not within 20%%)", s, sum, budget)
		}
		t.Logf("s=%d: Σ mean E_l = %.3g, budget %.3g (%.2f)", s, sum, budget, sum/budget)
	}
	if f := MeanEdges(22, 16, 3, 1, FOGSim); f < 50*math.Ldexp(16, 23) {
		t.Errorf("FOGSim C at s=22 l=3: %.3g; expected ~72× the budget", f)
	}
}

// A worked example derived from thesis eqs. 2.2–2.8: s=26, fe=16, n=72, cs=256, dr=3, with the
// means only (eqs. 2.2–2.4 and the truncation to the budget).
func TestPerLevelMessageCounts(t *testing.T) {
	const n = 72
	q0 := int64(math.Ceil(3.0 * (n - 1) / n))
	if q0 != 3 || Destinations(n, 3) != 2 || Messages(q0, n, 256) != 2 {
		t.Errorf("level 0: q %d n′ %d m %d, want 3, 2, 2", q0, Destinations(n, 3), Messages(q0, n, 256))
	}
	budget := math.Ldexp(16, 27)
	used := 3.0
	for i, w := range []struct {
		mean, q float64
		m       int64
	}{{1.281e8, 1.754e6, 6912}, {1.456e9, 1.994e7, 77904}, {5.634e8, 7.716e6, 30168}} {
		l := i + 1
		mean := math.Min(MeanEdges(26, 16, l, 3, Thesis), budget-used)
		if !rel(mean, w.mean, 2e-3) {
			t.Errorf("level %d: mean %.4g, want %.4g", l, mean, w.mean)
		}
		q := QueriesPerProcess(mean, n)
		if !rel(q, w.q, 2e-3) {
			t.Errorf("level %d: q %.4g, want %.4g", l, q, w.q)
		}
		if m := Messages(int64(math.Round(q)), n, 256); m != w.m {
			t.Errorf("level %d: m = %d, want %d", l, m, w.m)
		}
		used += mean
	}
	if used < budget*(1-1e-12) {
		t.Errorf("the budget should be exhausted after level 3 (used %.4g of %.4g)", used, budget)
	}
	// the query split: full messages, then an even split rounded up
	if NextMessageQueries(1000, 3, 256) != 256 || NextMessageQueries(300, 3, 256) != 256 || NextMessageQueries(44, 2, 256) != 22 || NextMessageQueries(5, 3, 256) != 2 {
		t.Error("NextMessageQueries")
	}
	if Messages(0, n, 256) != 0 || Destinations(n, 1e9) != n {
		t.Error("Messages/Destinations edge cases")
	}
}

// The root degree is lognormal with μ = 0.0456·s and σ = 0.0793·s (eqs.
// 2.18–2.19): at s = 26 its median is 3.28 and P(dr = 1) = 0.283 (derived:
// μ/σ does not depend on s; checked on 10^5 samples, ±0.2 and ±0.01).
func TestRootDegreeSampler(t *testing.T) {
	r := rng.New(1, streamKind, 0)
	mu, sigma := RootDegreeParams(26)
	if !near(mu, 1.18637, 1e-5) || !near(sigma, 2.06214, 1e-5) {
		t.Errorf("μ σ = %.5f %.5f, want 1.18637 2.06214", mu, sigma)
	}
	const N = 100000
	cont := make([]float64, N)
	ones := 0
	var sumZ, sumZ2 float64
	for i := range cont {
		z := Normal(&r)
		sumZ += z
		sumZ2 += z * z
		cont[i] = math.Exp(mu + sigma*z)
		if RootDegree(26, z) == 1 {
			ones++
		}
	}
	sort.Float64s(cont)
	med := cont[N/2]
	p1 := float64(ones) / N
	t.Logf("median %.3f, P(dr=1) %.4f, mean z %.4f, var z %.4f", med, p1, sumZ/N, sumZ2/N)
	if !near(med, 3.28, 0.2) {
		t.Errorf("median %.3f, want 3.28 ± 0.2", med)
	}
	if !near(p1, 0.283, 0.01) {
		t.Errorf("P(dr=1) = %.4f, want 0.283 ± 0.01", p1)
	}
	if RootDegree(26, -10) != 1 || RootDegree(10, 10) != 1024 {
		t.Error("the degree is at least 1 and at most 2^s")
	}
}

// Eq. 2.20: at 40 Gb/s with 1-byte phits (0.2 ns cycles) and 4 kB messages,
// pinj = 3.2 ns / tq: 2.13 at tq = 1.5 ns (clamped to 1), 0.213 at 15 ns
// (derived: the phit size cancels, pinj = 4 kB·8/(40 Gb/s)/tq).
func TestInjectionProbability(t *testing.T) {
	p, raw := InjectionProbability(4096, 1.5/0.2, 256)
	if p != 1 || !rel(raw, 3.2/1.5, 1e-12) {
		t.Errorf("tq=1.5 ns: pinj %v raw %v, want 1 and 2.133", p, raw)
	}
	p, _ = InjectionProbability(4096, 15/0.2, 256)
	if !rel(p, 0.21333, 1e-4) {
		t.Errorf("tq=15 ns: pinj %v, want 0.2133", p)
	}
	// the phit size cancels: 512-byte phits (102.4 ns cycles), 8-phit messages
	p2, _ := InjectionProbability(8, 15/102.4, 256)
	if !rel(p2, p, 1e-12) {
		t.Errorf("pinj depends on the phit size: %v vs %v", p2, p)
	}
	// regression: tq = 0 gave raw = +Inf, which no JSON result can hold
	// (the finished run was lost at output); the clamp holds, raw is the
	// largest finite value, and so for a tq that underflows the quotient
	for _, tq := range []float64{0, 5e-324, 1e-310} {
		p, raw := InjectionProbability(4096, tq, 256)
		if p != 1 || raw != math.MaxFloat64 {
			t.Errorf("tq=%g cycles: pinj %v raw %v, want 1 and the largest float64", tq, p, raw)
		}
	}
}
