package sim

import (
	"phitsim/engine/result"
	"phitsim/engine/stats"
)

// measure is the state of sim.autoWarmup and sim.precision
// (engine/METHODS.md): both decide on the time series of the counters
// between cycles, never in the per-cycle work.
type measure struct {
	// next: the next cycle at which autoWarmup looks at the series; −1 never
	next int64
	// auto: the warm-up ends where MSER-5 finds the transient over (s.W,
	// until then sim.warmup, is the cap); detected: it did
	auto, detected bool
	precision      float64
	maxM           int64 // precision: most measured cycles
}

// mserEvery and mserFirst: autoWarmup looks every 5 intervals (an MSER-5
// batch) from the 50th (10 batches) on.
const mserEvery, mserFirst = 5, 50

func (s *Sim) initMeasure() {
	c := s.cfg.Sim
	s.msr = measure{next: -1, auto: c.AutoWarmup && s.wl == nil, precision: c.Precision, maxM: int64(c.MeasuredCap())}
	if s.msr.auto {
		s.msr.next = mserFirst * s.st.interval
	}
}

// checkWarmup (autoWarmup, at s.msr.next): when MSER-5 on the latency and
// the delivered packets of the intervals so far has its truncation in their
// first half, the transient is over and the window starts now (nothing has
// been counted in it: now < s.W).
func (s *Sim) checkWarmup() {
	st := &s.st
	s.msr.next += mserEvery * st.interval
	if s.now >= s.W {
		s.msr.next = -1 // the cap
		return
	}
	nb := s.now / st.interval
	lat, del := make([]float64, nb), make([]float64, nb)
	for b := range nb {
		del[b] = float64(st.sDel[b])
		if st.sDel[b] > 0 {
			lat[b] = float64(st.sLat[b]) / float64(st.sDel[b])
		}
	}
	_, okL := stats.MSER5(lat)
	_, okA := stats.MSER5(del)
	if okL && okA {
		s.W, s.msr.detected, s.msr.next = s.now, true, -1
	}
}

// extend (sim.precision, at the window's end): whether to measure longer,
// and then by half the window so far (whole intervals, up to the cap): the
// 95% batch-means intervals of latency and accepted load are not yet within
// ± sim.precision, or their batches not yet independent.
func (s *Sim) extend() bool {
	if s.msr.precision == 0 || s.M >= s.msr.maxM || (s.wl != nil && s.wl.done()) {
		return false
	}
	q := s.assess(s.Snapshot())
	p := s.msr.precision
	if q.Latency.Independent && q.Accepted.Independent && q.Latency.Relative() <= p && q.Accepted.Relative() <= p {
		return false
	}
	iv := s.st.interval
	grow := (s.M/2 + iv - 1) / iv * iv
	s.M = min(s.M+max(grow, iv), s.msr.maxM)
	return true
}

// assess is res's quality with the window this run measured.
func (s *Sim) assess(res *result.Result) *result.Quality {
	res.Quality = &result.Quality{From: s.W, Cycles: s.M,
		Warmup: result.WarmupCheck{Auto: s.msr.auto, Capped: s.msr.auto && !s.msr.detected}}
	return stats.Assess(res)
}
