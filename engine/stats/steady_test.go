package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ar1 is an AR(1) series x_t = μ + φ(x_{t−1} − μ) + ε_t, ε ~ N(0, 1),
// started from its stationary distribution (so its mean is μ throughout).
func ar1(r *rand.Rand, n int, mu, phi float64) []float64 {
	x := make([]float64, n)
	prev := r.NormFloat64() / math.Sqrt(1-phi*phi)
	for i := range x {
		prev = phi*prev + r.NormFloat64()
		x[i] = mu + prev
	}
	return x
}

// MSER-5 (White 1997; White, Cobb, Spratt 2000) on a series with a known
// transient: an exponential decay from 50 above the mean to it (time
// constant 40 observations), on AR(1) noise. Past 5 time constants the bias
// (0.34) is well under the noise (σ 2.3), so the truncation must land
// between 60 and 400 of the 2,000 observations, on every one of 50 seeds;
// and on the stationary series alone (no transient) it must stay near the
// start.
func TestMSER5FindsAKnownTransient(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 7))
		x := ar1(r, 2000, 100, 0.9)
		for i := range x {
			x[i] += 50 * math.Exp(-float64(i)/40)
		}
		d, ok := MSER5(x)
		if !ok || d < 60 || d > 400 {
			t.Errorf("seed %d: truncation %d (detected %v), want 60…400", seed, d, ok)
		}
		clean := ar1(r, 2000, 100, 0.9)
		if d, ok := MSER5(clean); !ok || d > 500 {
			t.Errorf("seed %d: stationary series truncated at %d (detected %v), want near 0", seed, d, ok)
		}
	}
	// a series that only rises has no steady part: the minimum is in its
	// second half, and MSER-5 says so
	rise := make([]float64, 500)
	for i := range rise {
		rise[i] = float64(i)
	}
	if d, ok := MSER5(rise); ok {
		t.Errorf("a ramp: truncation %d reported as detected", d)
	}
}

// Batch means (Law, Simulation Modeling and Analysis §9.5.3) on AR(1) with
// φ = 0.9 (true mean 100; the sample's autocorrelation makes the naive
// interval ≈ 4× too narrow): the 95% interval covers the true mean in at
// least 90% of 200 seeds of 20,000 observations, and judges its batches
// independent in at least 95% of them.
func TestBatchMeansCoverAR1(t *testing.T) {
	covered, naive, indep := 0, 0, 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 11))
		x := ar1(r, 20000, 100, 0.9)
		iv, _ := BatchMeans(x, nil)
		if iv.Independent {
			indep++
		}
		if math.Abs(iv.Mean-100) <= iv.CI95 {
			covered++
		}
		if e := Estimate95(x); math.Abs(e.Mean-100) <= e.CI95 {
			naive++
		}
	}
	t.Logf("coverage %d/200 (naive i.i.d. interval %d/200), independent batches in %d", covered, naive, indep)
	if indep < 190 {
		t.Errorf("batches judged independent in %d of 200 seeds, want ≥ 190", indep)
	}
	if covered < 180 {
		t.Errorf("the 95%% batch-means interval covers the mean in %d of 200 seeds, want ≥ 180", covered)
	}
}

// Percentiles from a histogram equal the nearest rank of a sort, and one
// that falls in the overflow bin is flagged Above.
func TestPercentilesNearestRank(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for trial := range 50 {
		n := 1 + r.IntN(3000)
		lat := make([]int64, n)
		hist := make([]int64, 64)
		for i := range lat {
			lat[i] = int64(r.ExpFloat64() * 12)
			hist[min(lat[i], 63)]++
		}
		slices.Sort(lat)
		for _, p := range Percentiles(hist, 64, TailPs) {
			want := lat[int(math.Ceil(p.P*float64(n)-1e-9))-1]
			switch {
			case want >= 63 && (!p.Above || p.Cycles != 63):
				t.Errorf("trial %d p%g: %+v, want above 63", trial, p.P, p)
			case want < 63 && (p.Above || p.Cycles != want):
				t.Errorf("trial %d p%g: %+v, want %d", trial, p.P, p, want)
			}
		}
	}
}

// Slope's standard error: a line with independent noise is recovered
// within about two standard errors.
func TestSlopeRecoversALine(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	ts, ys := make([]float64, 40), make([]float64, 40)
	for i := range ts {
		ts[i] = float64(i)
		ys[i] = 3 + 0.5*ts[i] + r.NormFloat64()
	}
	s, se := Slope(ts, ys)
	if math.Abs(s-0.5) > 3*se || se > 0.05 || se <= 0 {
		t.Errorf("slope %g ± %g, want 0.5", s, se)
	}
}
