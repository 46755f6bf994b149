package result

// Verdicts of a run or a sweep point (Quality.Verdict; engine/METHODS.md).
const (
	// Steady: no trend in latency or source queues over the measured
	// window, the batch-means intervals formed (and met sim.precision).
	Steady = "steady"
	// Saturated: accepted load below the offered load (Result.Saturated).
	Saturated = "saturated"
	// Unstable: latency or the queued packets still grow through the
	// measured window (a regression slope significantly above 0 and large
	// enough to matter).
	Unstable = "unstable"
	// TooShort: the window is too short to tell: fewer than 10 intervals,
	// batches that stay correlated, sim.precision not met before the cap
	// (or a deadlock ended the run).
	TooShort = "too short"
)

// Quality is what a run's numbers are worth: its tail latency, link use,
// where its transient ended, batch-means confidence intervals within the run
// and the verdict, with the evidence (engine/METHODS.md). It is computed
// from the rest of the document (stats.Assess), so that a saved result can
// be assessed again.
type Quality struct {
	// Verdict: Steady, Saturated, Unstable or TooShort; Reason says why in
	// words.
	Verdict string `json:"verdict" msgpack:"verdict"`
	Reason  string `json:"reason,omitempty" msgpack:"reason,omitempty"`
	// From and Cycles: the measured window [From, From+Cycles), in cycles
	// from the start of the run (sim.warmup and sim.cycles unless
	// sim.autoWarmup or sim.precision chose them).
	From   int64 `json:"from" msgpack:"from"`
	Cycles int64 `json:"cycles" msgpack:"cycles"`
	// Percentiles of the latency of the packets delivered in the window.
	Percentiles []Percentile `json:"percentiles,omitempty" msgpack:"percentiles,omitempty"`
	Links       LinkSummary  `json:"links" msgpack:"links"`
	Warmup      WarmupCheck  `json:"warmup" msgpack:"warmup"`
	// Latency and Accepted: means over the window with the half-width of
	// their 95% batch-means intervals.
	Latency  Interval `json:"latency" msgpack:"latency"`
	Accepted Interval `json:"accepted" msgpack:"accepted"`
	// Precision: sim.precision, the relative half-width asked for (0: none).
	Precision float64 `json:"precision,omitempty" msgpack:"precision,omitempty"`
	Trend     Trend   `json:"trend" msgpack:"trend"`
}

// Percentile P (0.5, 0.9, 0.99, 0.999) of the latency: the smallest latency
// at least a fraction P of the packets did not exceed (the nearest rank of
// a sort), exact from the histogram. Above: it falls in the histogram's
// last bin, which holds every latency ≥ sim.histMax−1, so the percentile is
// only known to be at least Cycles (the CSV writes ">Cycles").
type Percentile struct {
	P      float64 `json:"p" msgpack:"p"`
	Cycles int64   `json:"cycles" msgpack:"cycles"`
	Above  bool    `json:"above,omitempty" msgpack:"above,omitempty"`
}

// LinkSummary: link utilisation in phits per cycle per link over the
// window, Mean over every transit link (injection excluded: those are the
// nodes' links), and the busiest transit class (Max, MaxClass); the classes
// one by one are Result.Links and Result.Classes. Link: the busiest single
// link (Result.BusiestLink; over a point's runs, the busiest of the runs').
type LinkSummary struct {
	Mean     float64      `json:"mean" msgpack:"mean"`
	Max      float64      `json:"max" msgpack:"max"`
	MaxClass string       `json:"maxClass,omitempty" msgpack:"maxClass,omitempty"`
	Link     *BusiestLink `json:"link,omitempty" msgpack:"link,omitempty"`
}

// WarmupCheck: the end of the initial transient detected by MSER-5 (White,
// "An effective truncation heuristic for bias reduction in simulation
// output", Simulation 69(6), 1997; White, Cobb, Spratt, "A comparison of
// five steady-state truncation heuristics", WSC 2000) on the latency and
// the accepted-load series of the whole run.
type WarmupCheck struct {
	// End: the later of the two truncation points, in cycles from the
	// start of the run (meaningful when Detected); Latency and Accepted:
	// each series' own.
	End      int64 `json:"end" msgpack:"end"`
	Latency  int64 `json:"latency" msgpack:"latency"`
	Accepted int64 `json:"accepted" msgpack:"accepted"`
	// Detected: MSER-5 found its minimum in the first half of the series
	// (White 1997's condition); if not, the run is too short to say.
	Detected bool `json:"detected" msgpack:"detected"`
	// Short: the measured window starts before End (the configured
	// warm-up is shorter than the transient).
	Short bool `json:"short,omitempty" msgpack:"short,omitempty"`
	// Auto: sim.autoWarmup chose the window's start; Capped: it stopped at
	// sim.warmup, its cap, before MSER-5 saw the transient end.
	Auto   bool `json:"auto,omitempty" msgpack:"auto,omitempty"`
	Capped bool `json:"capped,omitempty" msgpack:"capped,omitempty"`
}

// Interval is a mean with the half-width of its 95% confidence interval by
// batch means (Law, Simulation Modeling and Analysis, 5th ed., §9.5.3):
// Batches batches of BatchSize time-series intervals each, whose lag-1
// autocorrelation Lag1 is below 0.2 when Independent.
type Interval struct {
	Mean        float64 `json:"mean" msgpack:"mean"`
	CI95        float64 `json:"ci95" msgpack:"ci95"`
	Batches     int     `json:"batches" msgpack:"batches"`
	BatchSize   int     `json:"batchSize" msgpack:"batchSize"`
	Lag1        float64 `json:"lag1" msgpack:"lag1"`
	Independent bool    `json:"independent" msgpack:"independent"`
}

// Relative is the half-width over the mean (0 when the mean is 0).
func (iv Interval) Relative() float64 {
	if iv.Mean == 0 {
		return 0
	}
	return iv.CI95 / iv.Mean
}

// Trend: the evidence of the verdict, least-squares slopes over the
// window's batches with their standard errors. LatencySlope: cycles of
// latency per 1,000 cycles; Backlog: phits per node queued (generated − delivered)
// per 1,000 cycles; Growth: each one's change over the whole window
// (latency in cycles, queue in phits per node).
type Trend struct {
	LatencySlope   float64 `json:"latencySlope" msgpack:"latencySlope"`
	LatencySE      float64 `json:"latencySE" msgpack:"latencySE"`
	LatencyGrowth  float64 `json:"latencyGrowth" msgpack:"latencyGrowth"`
	BacklogSlope   float64 `json:"backlogSlope" msgpack:"backlogSlope"`
	BacklogSE      float64 `json:"backlogSE" msgpack:"backlogSE"`
	BacklogGrowth  float64 `json:"backlogGrowth" msgpack:"backlogGrowth"`
	LatencyRising  bool    `json:"latencyRising,omitempty" msgpack:"latencyRising,omitempty"`
	BacklogGrowing bool    `json:"backlogGrowing,omitempty" msgpack:"backlogGrowing,omitempty"`
}

// PointQuality is Quality over the runs (seeds) of a sweep point
// (stats.AssessPoint): the worst verdict of its runs (saturated, unstable,
// too short, steady in that order) with the runs of each, percentiles of the
// pooled histograms, and the runs' batch-means intervals combined.
type PointQuality struct {
	Verdict string `json:"verdict" msgpack:"verdict"`
	Reason  string `json:"reason,omitempty" msgpack:"reason,omitempty"`
	// Runs by verdict, in the order Steady, Saturated, Unstable, TooShort.
	Verdicts    [4]int       `json:"verdicts" msgpack:"verdicts"`
	Percentiles []Percentile `json:"percentiles,omitempty" msgpack:"percentiles,omitempty"`
	Links       LinkSummary  `json:"links" msgpack:"links"` // means over the runs
	// Latency and Accepted: the mean of the runs' means, the half-width
	// from their batch-means variances (Σ var/n²) on their pooled degrees
	// of freedom.
	Latency  Interval `json:"latency" msgpack:"latency"`
	Accepted Interval `json:"accepted" msgpack:"accepted"`
	// WarmupEnd: the latest end of the transient (MSER-5) over the runs
	// where MSER-5 found one; WarmupShort: some run's window started
	// before it.
	WarmupEnd   int64 `json:"warmupEnd" msgpack:"warmupEnd"`
	WarmupShort bool  `json:"warmupShort,omitempty" msgpack:"warmupShort,omitempty"`
	// Precision: sim.precision, judged on Latency and Accepted (the runs
	// combined), not run by run; PrecisionShort: they miss it while every
	// run's batches are independent, so more runs would narrow them
	// (sweep.Run adds seeds up to config.Sim.SeedCap).
	Precision      float64 `json:"precision,omitempty" msgpack:"precision,omitempty"`
	PrecisionShort bool    `json:"precisionShort,omitempty" msgpack:"precisionShort,omitempty"`
}

// Verdicts in the order of PointQuality.Verdicts, best first.
var Verdicts = [4]string{Steady, Saturated, Unstable, TooShort}
