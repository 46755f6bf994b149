package sweep

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// The transient view of a sweep (thesis §4.3.2, Figs. 4.8–4.10): when the
// series switch traffic pattern during the run (traffic.switchCycle), each
// point also gets its runs' transient records pooled: average latency and
// the share of misrouted packets per 10-cycle bin against the cycle,
// relative to the switch, at which the packets were generated.
//
// By generation cycle, not delivery cycle: the thesis's curves come from
// FOGSim's .transient file, which bins each packet by the cycle it was
// generated (result.Transient), so a bin shows what the routing decided for
// the packets generated then; binned by delivery, a bin would mix packets
// routed before and after the switch (ADV+1's non-minimal paths take
// hundreds of cycles) and the reaction would look as slow as the slowest
// path.

// Transient is one point's pooled transient record: its runs' records
// summed bin by bin, so every packet weighs the same (the seeds average
// into one smooth curve).
type Transient struct {
	Series int     `json:"series" msgpack:"series"`
	Name   string  `json:"name" msgpack:"name"`
	X      float64 `json:"x" msgpack:"x"` // the point's swept value (its offered load in a load sweep)
	Runs   int     `json:"runs" msgpack:"runs"`
	From   int     `json:"from" msgpack:"from"` // first bin's start, cycles from the switch (negative: before)
	Bin    int     `json:"bin" msgpack:"bin"`   // cycles per bin
	// Per bin, over the packets generated in it and delivered: how many, their
	// mean latency (cycles; 0 with no packet) and the share misrouted (%; a
	// global misroute or a Valiant path, FOGSim's transient rule).
	Packets   []int64   `json:"packets" msgpack:"packets"`
	Latency   []float64 `json:"latency" msgpack:"latency"`
	Misrouted []float64 `json:"misrouted" msgpack:"misrouted"`
	Settling
	LoadStep
}

// LoadStep is the rest of a pooled record when its runs step the load
// (traffic.switchLoad) or run ACOR-Switch (result.Transient's Generated …
// Group0), per bin (all nil otherwise): Offered and Accepted, the load
// generated (by generation cycle) and delivered (by delivery cycle), in
// phits/node/cycle, mean over the runs; LatencySD and AcceptedSD, the
// standard deviation over the runs of each run's bin (its spread; 0 with
// one run); AcorLevel, the routers' mean ACOR level (1–3) at the bin's
// start, with AcorLevelSD; AcorShares, the share (%) of routers at levels
// 1, 2, 3 (3 a bin); Group0, the mean level of each of group 0's routers
// (len(Group0)/len(Packets) a bin: ACOR paper Fig. 10); LevelUp and
// LevelDown, cycles after the switch by which every router of group 0 has
// made its first step up or down (GroupLevelChange), mean over the runs
// (nil when some run's router never did).
type LoadStep struct {
	Offered     []float64 `json:"offered,omitempty" msgpack:"offered,omitempty"`
	Accepted    []float64 `json:"accepted,omitempty" msgpack:"accepted,omitempty"`
	AcceptedSD  []float64 `json:"acceptedSD,omitempty" msgpack:"acceptedSD,omitempty"`
	LatencySD   []float64 `json:"latencySD,omitempty" msgpack:"latencySD,omitempty"`
	AcorLevel   []float64 `json:"acorLevel,omitempty" msgpack:"acorLevel,omitempty"`
	AcorLevelSD []float64 `json:"acorLevelSD,omitempty" msgpack:"acorLevelSD,omitempty"`
	AcorShares  []float64 `json:"acorShares,omitempty" msgpack:"acorShares,omitempty"`
	Group0      []float64 `json:"group0,omitempty" msgpack:"group0,omitempty"`
	LevelUp     *float64  `json:"levelUp,omitempty" msgpack:"levelUp,omitempty"`
	LevelDown   *float64  `json:"levelDown,omitempty" msgpack:"levelDown,omitempty"`
}

// GroupLevelChange is the cycle after the switch by which every router of
// group 0 that can has made its first step up (up) or down from the level
// it had at the switch (a router already at level 3, or at level 1 going
// down, is left out), in one run's record: the start of the bin where the
// last of them is first seen past it (ACOR paper §6.2.1: "all switches move
// up in less than 1 µs and down in less than 0.5 µs"); false when one never
// does, none can, or the record has no group levels.
func GroupLevelChange(rec *result.Transient, up bool) (float64, bool) {
	nb := len(rec.Packets)
	if nb == 0 || len(rec.Group0) == 0 || rec.Bin <= 0 {
		return 0, false
	}
	a := len(rec.Group0) / nb
	first, ok := firstAfter(rec.From, rec.Bin, rec.Packets, make([]float64, nb))
	if !ok {
		return 0, false
	}
	last, movable := 0, 0
	for r := 0; r < a; r++ {
		at := -1
		l0 := rec.Group0[first*a+r]
		if up && l0 == 3 || !up && l0 == 1 {
			continue // at the top (bottom) already: it cannot step
		}
		movable++
		for i := first + 1; i < nb; i++ {
			if l := rec.Group0[i*a+r]; up && l > l0 || !up && l < l0 {
				at = i
				break
			}
		}
		if at < 0 {
			return 0, false
		}
		last = max(last, at)
	}
	return float64(rec.From + last*rec.Bin), movable > 0
}

// Settling is how the misrouted share settles after the switch (Settle).
type Settling struct {
	Before  float64 `json:"before" msgpack:"before"`   // misrouted % before the switch
	Settled float64 `json:"settled" msgpack:"settled"` // its final mean: over the second half of the record after the switch
	Band    float64 `json:"band" msgpack:"band"`       // percentage points around Settled that count as settled (SettleBand)
	// Settle: cycles after the switch at which the first bin starts from
	// which every bin stays within Band of Settled (nil: the last bin is
	// outside, or nothing after the switch).
	Settle *float64 `json:"settle,omitempty" msgpack:"settle,omitempty"`
	// After the share first reaches the band, over its SmoothBins-bin moving
	// average: Swing, its range (percentage points: an overshoot and the
	// swings of an oscillation); Period, the oscillation's period
	// (Oscillation), in cycles, with the autocorrelation at that lag, nil
	// when it does not oscillate.
	Swing      float64  `json:"swing" msgpack:"swing"`
	Period     *float64 `json:"period,omitempty" msgpack:"period,omitempty"`
	PeriodCorr float64  `json:"periodCorr,omitempty" msgpack:"periodCorr,omitempty"`
}

// SmoothBins is the moving average (in bins: 50 cycles of 10) over which
// Settle looks at the settled share's swings: a ripple faster than that is
// the bins' noise or the allocator's, not the oscillation of a control loop
// (thesis Fig. 4.9's PB: about 600 cycles; a global link alone takes 100).
const SmoothBins = 5

// SettleBand is the band of Settle, in percentage points: about five
// standard deviations of a 10-cycle bin's share when the experiments'
// seeds pool some 1,600 packets into it (h=4, load 0.2), and 6% of the
// change after UN → ADV+1 there (0 → 84%), near the usual 5% settling
// criterion. An overshoot beyond it (OLM's, to 91–93%) delays settling
// until it is over: thesis §4.3.2's second phase.
const SettleBand = 5.0

// Settle measures the settling of a misrouted share (in %, per bin of bin
// cycles, the first starting from cycles from the switch) with its packet
// counts: the final mean is the share over the second half of the bins
// after the switch, and the settle time the start of the first bin after
// the switch from which every bin with packets is within the band of it.
// A share that does not change settles at once (0).
func Settle(from, bin int, packets []int64, misrouted []float64) Settling {
	var s Settling
	first, ok := firstAfter(from, bin, packets, misrouted)
	if !ok {
		return s
	}
	s.Before = zeroNaN(binMean(packets, misrouted, 0, first))
	n := len(packets) - first
	s.Settled = zeroNaN(binMean(packets, misrouted, first+n/2, len(packets)))
	s.Band = SettleBand
	if at := settledFrom(packets, misrouted, first, s.Settled, s.Band); at < len(packets) {
		t := float64(from + at*bin)
		s.Settle = &t
	}
	// the swings around the settled share, from its first arrival there
	for i := first; i < len(packets); i++ {
		if packets[i] > 0 && math.Abs(misrouted[i]-s.Settled) <= s.Band {
			var sm []float64
			for j := i; j+SmoothBins <= len(packets); j++ {
				if m := binMean(packets, misrouted, j, j+SmoothBins); !math.IsNaN(m) {
					sm = append(sm, m)
				}
			}
			if len(sm) > 0 {
				s.Swing = slices.Max(sm) - slices.Min(sm)
			}
			if lag, r := Oscillation(sm); lag > 0 {
				p := float64(lag * bin)
				s.Period, s.PeriodCorr = &p, r
			}
			break
		}
	}
	return s
}

// ReactionBand is the band of the chapter-4 transients' LatencySettle, a
// fraction of the final latency: 2% is about 5 cycles at load 0.2 (250
// cycles under ADV+1), some three standard deviations of a 10-cycle bin's
// mean at h=4 with 6 seeds pooled (about 1,600 packets) and five at h=8
// with one seed (about 4,100).
const ReactionBand = 0.02

// LatencySettle is the reaction time read on the latency curve, as thesis
// §4.3.2 describes the credit-based transients (Fig. 4.8: a bump while
// queues fill and trigger misrouting, then a slight rise while the packets
// on the longest non-minimal paths grow in number): final is the
// packet-weighted mean latency over the second half of the bins after the
// switch, settle the start of the first bin after the switch from which
// every bin's mean latency stays within band·final of it (nil when the
// last bin is outside or nothing follows the switch). Settle reads the
// misrouted share instead, which settles as soon as the routing decides as
// it will for good, before the queues on the new paths have filled.
func LatencySettle(t Transient, band float64) (final float64, settle *float64) {
	first, ok := firstAfter(t.From, t.Bin, t.Packets, t.Latency)
	if !ok {
		return 0, nil
	}
	n := len(t.Packets) - first
	final = binMean(t.Packets, t.Latency, first+n/2, len(t.Packets))
	if math.IsNaN(final) {
		return 0, nil
	}
	if at := settledFrom(t.Packets, t.Latency, first, final, band*final); at < len(t.Packets) {
		c := float64(t.From + at*t.Bin)
		settle = &c
	}
	return final, settle
}

// firstAfter is the index of the first bin that starts at or after the
// switch, for bins of bin cycles from cycles from it; false when the record
// is malformed (xs not one value per bin) or ends before the switch.
func firstAfter(from, bin int, packets []int64, xs []float64) (int, bool) {
	first := 0
	if from < 0 && bin > 0 {
		first = (-from + bin - 1) / bin
	}
	return first, bin > 0 && len(packets) == len(xs) && first < len(packets)
}

// binMean is the packet-weighted mean of xs over bins [lo, hi), NaN when
// they hold no packet.
func binMean(packets []int64, xs []float64, lo, hi int) float64 {
	var n, m float64
	for i := lo; i < hi; i++ {
		n += float64(packets[i])
		m += float64(packets[i]) * xs[i]
	}
	if n == 0 {
		return math.NaN()
	}
	return m / n
}

// settledFrom is the first bin at or after first from which every bin with
// packets has xs within band of final, len(packets) when the last is
// outside.
func settledFrom(packets []int64, xs []float64, first int, final, band float64) int {
	at := len(packets)
	for i := len(packets) - 1; i >= first; i-- {
		if packets[i] > 0 && math.Abs(xs[i]-final) > band {
			break
		}
		at = i
	}
	return at
}

// MinPeriodCorr is the least autocorrelation at which Oscillation sees a
// period; over n values it must also be at least 3/√n, three standard
// deviations of the autocorrelation of noise (a short record's noise
// correlates by chance).
const MinPeriodCorr = 0.25

// Oscillation finds a periodic swing in xs (one value per bin): the lag, in
// bins, of the first maximum of the autocorrelation after its first minimum,
// when the autocorrelation there is at least MinPeriodCorr and 3/√n; 0 otherwise
// (noise, or a slow drift, has no such maximum). Lags up to a third of the
// record, so each lag has at least two periods' worth of pairs.
func Oscillation(xs []float64) (lag int, corr float64) {
	n := len(xs)
	if n < 12 {
		return 0, 0
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(n)
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	if v == 0 {
		return 0, 0
	}
	ac := func(k int) float64 {
		var s float64
		for i := 0; i+k < n; i++ {
			s += (xs[i] - m) * (xs[i+k] - m)
		}
		return s / v
	}
	maxLag := n / 3
	prev, cur := ac(0), ac(1)
	k := 1
	for ; k < maxLag; k++ { // the first minimum
		next := ac(k + 1)
		if cur < prev && cur <= next {
			break
		}
		prev, cur = cur, next
	}
	for k++; k < maxLag; k++ { // the next maximum
		prev, cur = cur, ac(k)
		if next := ac(k + 1); cur > prev && cur >= next {
			if cur >= max(MinPeriodCorr, 3/math.Sqrt(float64(n))) {
				return k, cur
			}
			return 0, 0
		}
	}
	return 0, 0
}

func zeroNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// PoolTransient sums the transient records of one point's runs (nil when
// none has one). The bins generated in the last cycles of the record are
// left out: those within the longest latency of the runs (result.Latency.Max,
// rounded up to a bin) of the run's end (the record's, unless the run goes
// on past it), whose slowest packets may not have arrived when the run ended (a bin would then show only the fast
// ones: a drop of latency and misrouting that is no transient).
func PoolTransient(series int, x float64, runs []*result.Result) *Transient {
	var recs []*result.Transient
	var name string
	maxLat := int64(0)
	runEnd := 0 // cycles from the switch to the end of the run
	for _, r := range runs {
		if r == nil || r.Transient == nil {
			continue
		}
		if len(recs) > 0 && (r.Transient.From != recs[0].From || r.Transient.Bin != recs[0].Bin) {
			continue // a record of another shape does not pool
		}
		recs = append(recs, r.Transient)
		name = r.Config.Name
		maxLat = max(maxLat, r.Latency.Max)
		runEnd = r.Config.Sim.Cycles - r.Config.Traffic.SwitchCycle
	}
	if len(recs) == 0 || recs[0].Bin <= 0 {
		return nil
	}
	t := &Transient{Series: series, Name: name, X: x, Runs: len(recs), From: recs[0].From, Bin: recs[0].Bin}
	nb := len(recs[0].Packets)
	for _, r := range recs {
		nb = min(nb, len(r.Packets), len(r.Misrouted), len(r.Latency))
	}
	// the run may go on past the record (a QCN-Switch transient's margin):
	// only the bins within the longest latency of the run's end are out
	bin := int64(t.Bin)
	slack := int64(runEnd) - int64(t.From+nb*t.Bin)
	nb = max(0, nb-int((max(0, maxLat-max(0, slack))+bin-1)/bin))
	t.Packets = make([]int64, nb)
	t.Latency = make([]float64, nb)
	t.Misrouted = make([]float64, nb)
	for i := 0; i < nb; i++ {
		var p, m, l int64
		for _, r := range recs {
			p += r.Packets[i]
			m += r.Misrouted[i]
			l += r.Latency[i]
		}
		t.Packets[i] = p
		if p > 0 {
			t.Latency[i] = float64(l) / float64(p)
			t.Misrouted[i] = 100 * float64(m) / float64(p)
		}
	}
	t.Settling = Settle(t.From, t.Bin, t.Packets, t.Misrouted)
	t.LoadStep = poolLoadStep(recs, runs, nb)
	return t
}

// poolLoadStep pools the load-step and ACOR parts of the records over their
// first nb bins (LoadStep).
func poolLoadStep(recs []*result.Transient, runs []*result.Result, nb int) LoadStep {
	var ls LoadStep
	for _, r := range recs {
		if len(r.Generated) < nb || len(r.Delivered) < nb {
			return ls
		}
	}
	nodes := 0
	for _, r := range runs {
		if r != nil && r.Transient != nil {
			sz, _ := r.Config.Topology.Sizes()
			nodes = sz.Nodes
			break
		}
	}
	if nodes == 0 || len(recs) == 0 {
		return ls
	}
	P := float64(runs[0].Config.Router.PacketSize)
	for _, r := range runs {
		if r != nil {
			P = float64(r.Config.Router.PacketSize)
			break
		}
	}
	bin := float64(recs[0].Bin)
	per := func(f func(r *result.Transient, i int) (float64, bool)) (mean, sd []float64) {
		mean, sd = make([]float64, nb), make([]float64, nb)
		for i := 0; i < nb; i++ {
			var xs []float64
			for _, r := range recs {
				if x, ok := f(r, i); ok {
					xs = append(xs, x)
				}
			}
			mean[i], sd[i] = meanSD(xs)
		}
		return
	}
	ls.Offered, _ = per(func(r *result.Transient, i int) (float64, bool) {
		return float64(r.Generated[i]) * P / (float64(nodes) * bin), true
	})
	ls.Accepted, ls.AcceptedSD = per(func(r *result.Transient, i int) (float64, bool) {
		return float64(r.Delivered[i]) / (float64(nodes) * bin), true
	})
	_, ls.LatencySD = per(func(r *result.Transient, i int) (float64, bool) {
		if r.Packets[i] == 0 {
			return 0, false
		}
		return float64(r.Latency[i]) / float64(r.Packets[i]), true
	})
	for _, r := range recs {
		if len(r.Levels) < 3*nb || len(r.Group0) < nb || len(r.Group0)%len(r.Packets) != 0 {
			return ls
		}
	}
	ls.AcorLevel, ls.AcorLevelSD = per(func(r *result.Transient, i int) (float64, bool) {
		l := r.Levels[3*i : 3*i+3]
		n := l[0] + l[1] + l[2]
		if n == 0 {
			return 0, false
		}
		return float64(l[0]+2*l[1]+3*l[2]) / float64(n), true
	})
	ls.AcorShares = make([]float64, 3*nb)
	a := len(recs[0].Group0) / len(recs[0].Packets)
	ls.Group0 = make([]float64, a*nb)
	for i := 0; i < nb; i++ {
		var n int32
		for _, r := range recs {
			for k := 0; k < 3; k++ {
				ls.AcorShares[3*i+k] += float64(r.Levels[3*i+k])
				n += r.Levels[3*i+k]
			}
			for k := 0; k < a; k++ {
				ls.Group0[a*i+k] += float64(r.Group0[a*i+k]) / float64(len(recs))
			}
		}
		for k := 0; k < 3 && n > 0; k++ {
			ls.AcorShares[3*i+k] *= 100 / float64(n)
		}
	}
	change := func(up bool) *float64 {
		var sum float64
		for _, r := range recs {
			t, ok := GroupLevelChange(r, up)
			if !ok {
				return nil
			}
			sum += t
		}
		m := sum / float64(len(recs))
		return &m
	}
	ls.LevelUp, ls.LevelDown = change(true), change(false)
	return ls
}

// meanSD is the mean and the standard deviation (n−1) of xs; 0, 0 when
// empty, and a deviation of 0 for one value.
func meanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// transientSeries are the mechanisms of thesis Fig. 4.8: the credit-based
// PB and OLM (routing.trigger=cga), and OLM's in-transit routing with the
// contention triggers Base, Filtered and Hybrid (thesis §4.2.1).
func transientSeries(b config.Config) []config.Config {
	var out []config.Config
	add := func(name, routing, trigger string) {
		c := b
		c.Name, c.Routing.Name = name, routing
		if trigger != "" {
			c.Routing.Trigger = trigger
		}
		out = append(out, c)
	}
	add("PB", "PB", "")
	add("OLM", "OLM", "cga")
	add("Base", "OLM", "base")
	add("Filtered", "OLM", "filtered")
	add("Hybrid", "OLM", "hybrid")
	add("ECtN", "OLM", "ectn")
	return out
}

// Transient experiments' timing at h=4 (thesis §4.3.2 runs 60,000 cycles of
// warm-up at h=8): warm-up under the first pattern, the switch TransientSwitch
// cycles into the measured window, and the record shown TransientShown
// cycles past it; the run goes on TransientMargin cycles more so that the
// packets generated in the shown bins have arrived (PoolTransient leaves
// out the bins within the longest latency of the end). The switch falls on
// a cycle that is a multiple of 100 from the start of the run, an ECtN
// broadcast instant (thesis §4.3.2: the switch comes right after a
// broadcast of the first pattern's counters). The thesis plots one run;
// TransientSeeds runs are pooled, so a 10-cycle bin holds about 1,600
// packets at h=4 and load 0.2 (the share's noise about ±1 point).
const (
	TransientWarmup = 4000
	TransientSwitch = 500
	TransientShown  = 1000
	TransientMargin = 1000
	TransientSeeds  = 6
)

// transientBase is thesis §4.3.2's experiment at h=4: load 0.2, the pattern
// `from` until the switch, then `to` (ADV is ADV+1).
func transientBase(from, to string, shown int) config.Config {
	c := base(4, from, 1)
	c.Traffic.Load = 0.2
	c.Traffic.SwitchCycle, c.Traffic.SwitchPattern, c.Traffic.SwitchAdvOffset = TransientSwitch, to, 1
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = TransientWarmup, TransientSwitch+shown+TransientMargin, TransientSeeds
	c.Sim.Interval = 100
	return c
}

// transientExperiments are thesis §4.3.2's transients at h=4 (Figs.
// 4.8–4.10) and the mixed pattern of Fig. 4.7 (§4.3.1). ECtN
// (routing.trigger=ectn) joins transientSeries as one more series.
func transientExperiments() []Experiment {
	deep := transientBase("UN", "ADV", TransientShown)
	// 8× the input buffers of the transit ports; output and injection unchanged
	deep.Router.LocalBuffer, deep.Router.GlobalBuffer = 256, 2048
	long := transientBase("UN", "ADV", 5000)
	at := []float64{0.2}
	return []Experiment{
		{Name: "thesis-fig4.8", Doc: "thesis Fig. 4.8 (§4.3.2): UN → ADV+1 at load 0.2, latency and % misrouted against the cycle of generation from the switch; contention triggers settle first",
			Spec: Spec{Series: transientSeries(transientBase("UN", "ADV", TransientShown)), Loads: at}},
		{Name: "thesis-fig4.8-back", Doc: "thesis §4.3.2's other transition: ADV+1 → UN at load 0.2",
			Spec: Spec{Series: transientSeries(transientBase("ADV", "UN", TransientShown)), Loads: at}},
		{Name: "thesis-fig4.9", Doc: "thesis Fig. 4.9 (§4.3.2): UN → ADV+1 over 5,000 cycles: PB oscillates, contention stays flat",
			Spec: Spec{Series: transientSeries(long), Loads: at}},
		mixExperiment(),
		{Name: "thesis-fig4.10", Doc: "thesis Fig. 4.10 (§4.3.2): UN → ADV+1 with input buffers of 256 (local) and 2048 (global) phits per VC: credit-based OLM reacts slower, contention as fast",
			Spec: Spec{Series: transientSeries(deep), Loads: at}},
	}
}

// MixShares are Fig. 4.7's shares of ADV+1 traffic (%), the rest UN.
var MixShares = loads(0, 100, 20)

// mixExperiment is thesis Fig. 4.7 (§4.3.1) at h=4: load 0.35, each packet
// ADV+1 with the swept probability and UN otherwise (traffic.pattern=MIX,
// drawn per packet as FOGSim), the mechanisms of Fig. 4.6 but MIN. The x axis is the
// share of ADV+1 (the thesis plots ADV+1 on the left, UN on the right).
func mixExperiment() Experiment {
	b := base(4, "MIX", 1)
	b.Traffic.Load = 0.35
	// MIN saturates from 20% ADV+1 on (one global link per group pair) and
	// its saturated runs would cost more than all the others: left out
	val := b
	val.Name, val.Routing.Name = "VAL", "VAL"
	ss := append([]config.Config{val}, transientSeries(b)...)
	return Experiment{Name: "thesis-fig4.7", Doc: "thesis Fig. 4.7 (§4.3.1): latency at load 0.35 against the share of ADV+1 in a mix with UN; the contention triggers are competitive with OLM",
		Spec: Spec{Series: ss, Param: "traffic.mixADV", Values: MixShares, Tied: []Tie{{Path: "traffic.mixUN", Offset: 100, Scale: -1}}}}
}

// TransientCSVHeader names the columns of WriteTransientCSV.
var TransientCSVHeader = []string{"series", "name", "x", "cycle", "packets", "latency", "misrouted", "offered", "accepted", "acor_level"}

// WriteTransientCSV writes the pooled transient records, one row per bin of
// each point: cycle is the bin's start relative to the switch, latency the
// mean latency (cycles) and misrouted the share (%) of the packets generated
// in it; x the point's swept value; offered and accepted the load generated
// and delivered in the bin and acor_level ACOR-Switch's mean level at its
// start, when the record has them (LoadStep; empty otherwise).
func WriteTransientCSV(w io.Writer, ts []Transient) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(TransientCSVHeader); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, t := range ts {
		for i := range t.Packets {
			row := []string{strconv.Itoa(t.Series), t.Name, f(t.X), strconv.Itoa(t.From + i*t.Bin),
				strconv.FormatInt(t.Packets[i], 10), f(t.Latency[i]), f(t.Misrouted[i]), "", "", ""}
			if len(t.Offered) == len(t.Packets) {
				row[7], row[8] = f(t.Offered[i]), f(t.Accepted[i])
			}
			if len(t.AcorLevel) == len(t.Packets) {
				row[9] = f(t.AcorLevel[i])
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// AcorSettleBand is the band of the load steps' LatencySettle, a fraction of
// the final latency: 5 %, about 40 cycles at 850, some three standard
// deviations of a 10-cycle bin's mean at 5 % load with AcorStepSeeds runs
// pooled (about 200 packets a bin); ReactionBand's 2 % would be crossed by
// noise.
const AcorSettleBand = 0.05

// ACOR load steps (ACOR paper §6.2.1, Figs. 9–10) on acor-1056 (the paper's
// Table 3 timing at 1,056 hosts): ADV+h, the load stepping at
// AcorStepSwitch cycles into the measured window, the record shown for
// AcorStepShown cycles after it and the run going on AcorStepMargin more
// (PoolTransient leaves out the bins whose slowest packets may not have
// arrived), AcorStepSeeds runs pooled. The paper plots its runs in ns at
// 1 GHz: a cycle is a ns.
const (
	AcorStepWarmup = 6000
	AcorStepSwitch = 1000
	AcorStepShown  = 4000
	AcorStepMargin = 3000
	AcorStepSeeds  = 4
)

// acorStep is Fig. 9's experiment from load `from` to `to`: ACOR-Switch 3L
// with the paper's HI = 500 cycles and with a shorter and a longer one (the
// figure's sensitivity curves: 250 and 1,000), and the three VAL policies it
// moves between.
func acorStep(from, to float64) []config.Config {
	b := acorBase("ADV", 4)
	b.Traffic.Load = from
	b.Traffic.SwitchCycle, b.Traffic.SwitchPattern, b.Traffic.SwitchAdvOffset, b.Traffic.SwitchLoad = AcorStepSwitch, "ADV", 4, to
	b.Traffic.SwitchRecord = AcorStepShown + AcorStepMargin
	b.Sim.Warmup, b.Sim.Cycles, b.Sim.Seeds = AcorStepWarmup, AcorStepSwitch+AcorStepShown+AcorStepMargin, AcorStepSeeds
	b.Sim.Interval = 100
	var out []config.Config
	add := func(name, rt string, edit func(c *config.Config)) {
		c := b
		c.Name, c.Routing.Name = name, rt
		edit(&c)
		c.AcorPaperVCs()
		out = append(out, c)
	}
	for _, hi := range []int{500, 250, 1000} {
		name := "ACOR-3L"
		if hi != 500 {
			name = fmt.Sprintf("ACOR-3L HI=%d", hi)
		}
		add(name, "ACOR", func(c *config.Config) {
			c.Routing.AcorSequence, c.Routing.AcorMode, c.Routing.AcorHI = "3L", "switch", hi
		})
	}
	for _, pa := range []string{"CRG-Gr", "CRG-Sw", "RRG-Sw"} {
		add("VAL "+pa, "VAL", func(c *config.Config) { c.Routing.PhaseA = pa })
	}
	return out
}

// acorStepExperiments are the ACOR paper's Figs. 9–10 at 1,056 hosts.
func acorStepExperiments() []Experiment {
	return []Experiment{
		{Name: "acor-fig9-up", Doc: "ACOR paper Figs. 9–10 (§6.2.1): ADV+h, load step 5% → 25%; latency, accepted load and ACOR-Switch 3L's levels against time from the step (1,056 hosts, Table 3 timing; HI 500, 250, 1,000 and the VAL policies)",
			Spec: Spec{Series: acorStep(0.05, 0.25), Loads: []float64{0.05}}},
		{Name: "acor-fig9-down", Doc: "ACOR paper Figs. 9–10 (§6.2.1): ADV+h, load step 25% → 5%",
			Spec: Spec{Series: acorStep(0.25, 0.05), Loads: []float64{0.25}}},
	}
}
