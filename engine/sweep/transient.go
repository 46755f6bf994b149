package sweep

import (
	"encoding/csv"
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
	return t
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
var TransientCSVHeader = []string{"series", "name", "x", "cycle", "packets", "latency", "misrouted"}

// WriteTransientCSV writes the pooled transient records, one row per bin of
// each point: cycle is the bin's start relative to the switch, latency the
// mean latency (cycles) and misrouted the share (%) of the packets generated
// in it; x the point's swept value.
func WriteTransientCSV(w io.Writer, ts []Transient) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(TransientCSVHeader); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, t := range ts {
		for i := range t.Packets {
			row := []string{strconv.Itoa(t.Series), t.Name, f(t.X), strconv.Itoa(t.From + i*t.Bin),
				strconv.FormatInt(t.Packets[i], 10), f(t.Latency[i]), f(t.Misrouted[i])}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
