package sim

import (
	"context"
	"math"
	"slices"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/stats"
)

// measureConfig: MIN, UN on the h=2 Dragonfly (72 nodes), 100-cycle
// intervals, 2,000 cycles of warm-up and 2,000 measured.
func measureConfig(load float64) config.Config {
	c := smallConfig(2)
	c.Traffic.Load = load
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval = 2000, 2000, 100
	return c
}

func runMeasured(t *testing.T, c config.Config, seed uint64) *result.Result {
	t.Helper()
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}
	s, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The percentiles of a run equal the nearest ranks of a sort of the
// latencies of every packet delivered in the window (recorded here at
// ejection), on a small run (h=2, MIN/UN 0.5); with sim.histMax below the
// tail, the ones past it are flagged above the last bin, not reported as it.
func TestPercentilesEqualASortOfEveryLatency(t *testing.T) {
	for _, histMax := range []int{2000, 140} {
		c := measureConfig(0.5)
		c.Sim.HistMax = histMax
		s, err := New(c, 3)
		if err != nil {
			t.Fatal(err)
		}
		var lats []int64
		s.hk.eject = append(s.hk.eject, func(k int32, at int64) {
			if at >= s.W && at < s.W+s.M {
				lats = append(lats, at-s.pk[k].gen+int64(s.P))
			}
		})
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(lats)
		q := stats.Assess(r)
		if int64(len(lats)) != r.Delivered || len(q.Percentiles) != len(stats.TailPs) {
			t.Fatalf("histMax %d: %d latencies recorded, %d delivered, percentiles %v", histMax, len(lats), r.Delivered, q.Percentiles)
		}
		above := 0
		for _, p := range q.Percentiles {
			want := lats[int(math.Ceil(p.P*float64(len(lats))-1e-9))-1]
			if want >= int64(histMax-1) {
				above++
				if !p.Above || p.Cycles != int64(histMax-1) {
					t.Errorf("histMax %d p%g: %+v, want above %d (sorted: %d)", histMax, p.P, p, histMax-1, want)
				}
			} else if p.Above || p.Cycles != want {
				t.Errorf("histMax %d p%g: %+v, want %d", histMax, p.P, p, want)
			}
		}
		if histMax == 140 && above == 0 {
			t.Errorf("histMax 140: no percentile past the last bin (p99.9 %d): the test does not reach the overflow", lats[len(lats)-1])
		}
	}
}

// Verdicts on the network (MIN/UN, h=2; its saturation throughput is about
// 0.82): at 0.1 `steady` after 2,000 + 2,000 cycles, on three seeds; at
// 0.95 `saturated`; at 0.85, just past saturation, the accepted-below-
// offered test does not fire on a 2,000-cycle window (accepted is within
// 5% of offered), and the trend test calls it `unstable` (queues growing).
func TestVerdictsOnTheNetwork(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		r := runMeasured(t, measureConfig(0.1), seed)
		if q := stats.Assess(r); q.Verdict != result.Steady {
			t.Errorf("UN 0.1 seed %d: %s (%s), want steady; %+v", seed, q.Verdict, q.Reason, q.Trend)
		}
	}
	r := runMeasured(t, measureConfig(0.95), 1)
	if q := stats.Assess(r); q.Verdict != result.Saturated {
		t.Errorf("UN 0.95: %s (%s), want saturated", q.Verdict, q.Reason)
	}
	r = runMeasured(t, measureConfig(0.85), 1)
	q := stats.Assess(r)
	if r.Saturated {
		t.Errorf("UN 0.85: flagged saturated by accepted %.3f: not the case this test is for", r.Accepted)
	}
	// (its batches are correlated too, so `too short` would also be
	// honest; the trend is the stronger evidence and must be seen)
	if q.Verdict != result.Unstable || !q.Trend.BacklogGrowing && !q.Trend.LatencyRising {
		t.Errorf("UN 0.85 (just past saturation), 2,000 cycles: %s, want unstable; %+v", q.Verdict, q.Trend)
	}
	t.Logf("UN 0.85: %s: %s", q.Verdict, q.Reason)
}

// sim.autoWarmup at UN 0.1 (h=2, 50-cycle intervals, cap 20,000): MSER-5
// sees the transient over within a few thousand cycles, the window starts
// there and the run is steady; at 0.95 the transient never ends (latency
// climbs) and the warm-up stops at its cap.
func TestAutoWarmupEndsTheTransient(t *testing.T) {
	c := measureConfig(0.1)
	c.Sim.AutoWarmup, c.Sim.Warmup, c.Sim.Interval = true, 20000, 50
	r := runMeasured(t, c, 1)
	q := r.Quality
	if q == nil || !q.Warmup.Auto || q.Warmup.Capped || q.From > 5000 || q.From < 2500 || q.Verdict != result.Steady {
		t.Fatalf("UN 0.1 auto warm-up: %+v", q)
	}
	if r.SimCycles != q.From+int64(c.Sim.Cycles) {
		t.Errorf("simulated %d cycles, want the warm-up %d + %d", r.SimCycles, q.From, c.Sim.Cycles)
	}
	t.Logf("UN 0.1: warm-up ended at cycle %d", q.From)
	c.Traffic.Load = 0.95
	c.Traffic.SourceQueue = true
	c.Sim.Warmup = 5000
	r = runMeasured(t, c, 1)
	if q := r.Quality; !q.Warmup.Capped || q.From != 5000 {
		t.Errorf("UN 0.95 auto warm-up: %+v, want capped at 5000", q.Warmup)
	}
}

// sim.precision = 0.02 at UN 0.5 (h=2): the run extends its first
// 1,000-cycle window until both batch-means intervals are within ±2%, and
// the latency interval covers the mean of an independent 40,000-cycle
// run (within the two intervals); a target it cannot reach before its cap
// leaves the verdict `too short`.
func TestPrecisionMeetsItsTarget(t *testing.T) {
	c := measureConfig(0.5)
	c.Sim.Cycles, c.Sim.Precision, c.Sim.MaxCycles = 1000, 0.02, 200000
	r := runMeasured(t, c, 1)
	q := r.Quality
	if q == nil || q.Verdict != result.Steady || q.Latency.Relative() > 0.02 || q.Accepted.Relative() > 0.02 || q.Cycles <= 1000 {
		t.Fatalf("precision 0.02: %+v", q)
	}
	ref := measureConfig(0.5)
	ref.Sim.Cycles = 40000
	rr := runMeasured(t, ref, 2)
	rq := stats.Assess(rr)
	if d := math.Abs(q.Latency.Mean - rq.Latency.Mean); d > q.Latency.CI95+rq.Latency.CI95 {
		t.Errorf("latency %.2f ± %.2f after %d cycles; a 40,000-cycle run %.2f ± %.2f", q.Latency.Mean, q.Latency.CI95, q.Cycles, rq.Latency.Mean, rq.Latency.CI95)
	}
	t.Logf("±2%%: %d cycles, latency %.2f ± %.2f, accepted %.4f ± %.4f", q.Cycles, q.Latency.Mean, q.Latency.CI95, q.Accepted.Mean, q.Accepted.CI95)

	c.Sim.Precision, c.Sim.MaxCycles = 0.001, 3000
	r = runMeasured(t, c, 1)
	if q := r.Quality; q.Verdict != result.TooShort || q.Cycles != 3000 || r.SimCycles != 5000 {
		t.Errorf("precision 0.001, cap 3000: %s after %d cycles (%d simulated), want too short at the cap", q.Verdict, q.Cycles, r.SimCycles)
	}
}

// The progress and cost estimate of a run with sim.precision is its cap:
// the run stops at or before it, so progress never passes 100 % and a
// Slurm time request covers the longest run.
func TestEstimatedCyclesOfAPrecisionRunIsItsCap(t *testing.T) {
	c := config.Default()
	c.Sim.Warmup, c.Sim.Cycles = 1000, 2000
	for _, tc := range []struct {
		precision float64
		max       int
		want      int64
	}{{0, 0, 3000}, {0.02, 0, 1000 + 20000}, {0.02, 5000, 6000}} {
		c.Sim.Precision, c.Sim.MaxCycles = tc.precision, tc.max
		if got := EstimatedCycles(&c); got != tc.want {
			t.Errorf("precision %g, maxCycles %d: estimated %d cycles, want %d", tc.precision, tc.max, got, tc.want)
		}
	}
}
