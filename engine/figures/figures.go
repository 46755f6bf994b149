// Package figures is the table of the seeds' figures phitsim reproduces: per
// figure its paper and claim, the scaled experiment of engine/sweep we run,
// and a check of the claim against the sweep's outcome. It is the single
// source for `phitsim figures`, the regression tests, engine/FIGURES.md and
// the page's gallery.
package figures

import (
	"fmt"
	"math"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/routing"
	"phitsim/engine/stats"
	"phitsim/engine/sweep"
)

// Claim kinds.
const (
	// Band: Series' metric at Load lies in [Lo, Hi] (a reference
	// line y = (Lo+Hi)/2 when the band is a value ± tolerance).
	Band = "band"
	// Order: Series' metric at Load is at least Factor × Over's.
	Order = "order"
	// Ratio: Series' metric ÷ Over's at Load lies in [Lo, Hi] (an "equal
	// within x %" or "y % below" claim); with a Window, the ratio of their
	// transient records' means over it (metric Latency or Misrouted, cycles
	// from the switch).
	Ratio = "ratio"
	// Settle: a time read on Series' transient record at Load (metric
	// Misrouted or Latency: when its curve settles; LevelUp, LevelDown:
	// when group 0's routers have all changed level), in cycles from the
	// switch (traffic.switchCycle), lies in [Lo, Hi]: "settles within T
	// cycles after the switch".
	Settle = "settle"
	// Window: the mean of Series' time series at Load over Window lies in
	// [Lo, Hi]: "value in window [t0, t1] below/above x" (metric
	// BytesPerNs: the run's throughput, Window in µs of the run; Misrouted,
	// Latency, AcorLevel: the transient record, Window in cycles from the
	// switch).
	Window = "window"
	// Period: the period of Series' oscillation (metric Latency or
	// Misrouted, the transient record at Load) over Window (cycles from the
	// switch) lies in [Lo, Hi] cycles. Read on the bins' curve smoothed over
	// 5 bins, less its mean, as the lag of the first peak of its
	// autocorrelation (the first positive lobe after it first falls below
	// zero; a peak below PeriodMinCorrelation is no oscillation): "the
	// latency oscillates with a period of about T cycles".
	Period = "period"
)

// PeriodMinCorrelation is the least autocorrelation at its first peak that
// a Period claim reads as an oscillation.
const PeriodMinCorrelation = 0.2

// Metrics a claim reads on a sweep point.
const (
	Accepted = "" // accepted load, phits/(node·cycle)
	MaxMin   = "maxMin"
	MinShare = "minShare" // the least-injecting router's injection ÷ the offered load
	Latency  = "latency"  // mean latency, cycles (Settle, Window: the transient record's, by generation cycle)
	// the hotspot experiments' classes (result.hotspot): the background's
	// accepted load, and the least and most a hotspot sender gets
	Background = "background"
	SenderMin  = "senderMin"
	SenderMax  = "senderMax"
	// BytesPerNs: the delivered throughput in bytes/ns (result.Throughput
	// in 10 µs bins) over Claim.Window, the runs' mean (kind Window): a
	// claim on a transient, read whatever the point's steady-state verdict
	BytesPerNs = "bytesPerNs"
	// the transient record around a switch (sweep.Transient, pooled over
	// the point's runs): the misrouted share (%) by generation cycle, and
	// ACOR-Switch's mean level (1–3); LevelUp and LevelDown, the cycle by
	// which every router of group 0 has stepped up or down
	// (sweep.GroupLevelChange, the ACOR paper's Fig. 10)
	Misrouted = "misrouted"
	AcorLevel = "acorLevel"
	LevelUp   = "levelUp"
	LevelDown = "levelDown"
	// RECN's SAQ demand (result.RECN, the RECN paper's Fig. 4): the most
	// SAQ lines allocated at one ingress side, and at one egress side or
	// interface, over the run, the most over the point's runs (kind Band)
	SAQIngress = "saqIngress"
	SAQEgress  = "saqEgress"
	SAQTotal   = "saqTotal" // the most lines allocated in the whole network at once
	// BgLatency: a HOTSPOT's background latency per interval of the run
	// (result.HotspotClasses.Series, pooled over the point's runs) around
	// the hotspot's start (traffic.hotspotStart), Kim et al. Fig. 13: kind
	// Settle, when it returns for good within BgSettleFactor of its mean
	// before the start (BgSettle); kind Ratio, Series ÷ Over over Window
	// (cycles from the start)
	BgLatency = "bgLatency"
)

// BgSettleFactor and BgSettleSpan: a background latency per interval has
// settled after a hotspot's start once every mean over BgSettleSpan
// consecutive intervals from then on is within BgSettleFactor × its mean
// before the start (Kim et al. Fig. 13 read as the sim package's
// TestCBCMFig13DedicatedVCSettles reads it).
const (
	BgSettleFactor = 1.25
	BgSettleSpan   = 5
)

// Claim is the checkable form of a figure's quantitative claim, read on a
// metric of the sweep's points (the accepted load unless Metric says).
type Claim struct {
	Kind   string
	Metric string
	Series string     // the series the claim is about (its name in the experiment)
	Load   float64    // the offered load where the claim is read
	Lo, Hi float64    // Band, Ratio, Settle, Window
	Over   string     // Order, Ratio: the series Series is compared with
	Factor float64    // Order: Series ≥ Factor × Over
	Window [2]float64 // Window: from, to (µs of the run for BytesPerNs, else cycles from the switch)
	// Bin: Settle, Window on a transient record: the record is re-binned to
	// this many cycles before it is read (sweep.QCNRebin: the QCN-Switch
	// paper's 20-µs bins, sweep.QCNBin), and a latency then settles within
	// sweep.LatencyBand of its final value; 0: the record's 10-cycle bins.
	Bin int
}

// The page's charts a claim is drawn on (site/plot's Builders).
const (
	ChartAccepted   = "accepted"
	ChartLatency    = "latency"
	ChartFairness   = "fairness"       // per-router injection at a point
	ChartBackground = "bgaccepted"     // a HOTSPOT's background accepted load
	ChartSenders    = "hotspotsenders" // a HOTSPOT's bandwidth per sender (bars)
	ChartTimeSeries = "timeseries"     // accepted load over the run (bytes/ns with a physical basis)
	ChartTMisrouted = "transientmisrouted"
	ChartTLatency   = "transientlatency"
	ChartTAcor      = "transientacor"
	ChartRECNSAQ    = "recnsaq"  // RECN's SAQ lines per side over the run
	ChartBgSeries   = "bgseries" // a HOTSPOT's background latency per interval around its start
)

// Chart is the chart the claim is read on, where the page draws it.
func (c Claim) Chart() string {
	transient := c.Kind == Settle || c.Kind == Window || c.Kind == Period || c.windowRatio()
	switch c.Metric {
	case Latency:
		if transient {
			return ChartTLatency
		}
		return ChartLatency
	case MaxMin, MinShare:
		return ChartFairness
	case Background:
		return ChartBackground
	case SenderMin, SenderMax:
		return ChartSenders
	case BytesPerNs:
		return ChartTimeSeries
	case Misrouted:
		return ChartTMisrouted
	case AcorLevel, LevelUp, LevelDown:
		return ChartTAcor
	case SAQIngress, SAQEgress, SAQTotal:
		return ChartRECNSAQ
	case BgLatency:
		return ChartBgSeries
	}
	return ChartAccepted
}

// windowRatio: a Ratio claim on two transient records over a window.
func (c Claim) windowRatio() bool { return c.Kind == Ratio && c.Window != [2]float64{} }

// PerLoad reports whether the claim's chart has the offered load on its x
// axis (else it shows one point: the page selects the claim's Load).
func (c Claim) PerLoad() bool {
	switch c.Chart() {
	case ChartAccepted, ChartLatency, ChartBackground:
		return true
	}
	return false
}

// Figure is one card of the gallery.
type Figure struct {
	ID         string // stable: the thesis's figure/table number, or "acor-N"
	Title      string
	Paper      string // title and section
	Shows      string // one sentence
	ClaimText  string // the paper's claim in words, with our tolerance
	Claim      Claim
	Experiment string // engine/sweep experiment name
	Scaled     string // what we run and why it is scaled
	// Known: "" when the claim holds at our scale; otherwise why it does
	// not (listed, not hidden).
	Known string
	// Long: the check takes more than ~20 s natively; its test skips with
	// -short and `phitsim figures -check` runs it.
	Long bool
}

// The seeds as the cards cite them.
const (
	paperThesis = "P. Fuentes, PhD thesis on Dragonflies"
	paperKim    = "Kim et al., Contention-based Congestion Management in Large-Scale Networks"
	paperQCN    = "M. Benito et al., Non-minimal Adaptive Routing Based on Explicit Congestion Notifications (QCN-Switch)"
	paperACOR   = "M. Benito et al., ACOR: Adaptive Congestion-Oblivious Routing in Dragonfly Networks"
	paperRECN   = "J. Duato et al., A New Scalable and Cost-Effective Congestion Management Strategy for Lossless Multistage Interconnection Networks (RECN)"
)

// The scaled runs of the transient cards.
const (
	transientScaled = "h=4 (1,056 nodes) instead of h=8, load 0.2: 4,000 warm-up cycles under the first pattern, the switch 500 cycles into the window (an ECtN broadcast instant), 1,000 cycles shown and 1,000 more for their packets to arrive, 6 seeds pooled (a 10-cycle bin holds about 1,600 packets); PB, OLM and Base of the figure's six mechanisms."
	acorStepScaled  = "1,056 hosts (h=4; the paper's 5,256) with the paper's Table 3 timing, 6,000 warm-up cycles, the step 1,000 cycles in, 4,000 cycles shown and 3,000 more for their packets to arrive, 4 seeds pooled; ACOR-3L with the paper's HI = 500 and VAL CRG-Sw (the best policy at 25%)."
)

// acorH3Scaled is the scale of the ACOR paper's threshold cards
// (sweep.acorThresholdGallery).
const acorH3Scaled = "342 hosts (h=3; the paper's 1,056 take minutes per sweep) with the paper's Table 3 timing and its 1,056-host IT₁/DT₁ = 20/8, 4,000 + 16,000 cycles, 5 seeds: at h=3 the points stay too short over 16,000 cycles (their 1,000-cycle samples stay correlated, VAL's as ACOR-Switch's, whose levels may change at every HI = 500-cycle interval) and the batch-means verdict cannot be had at a card's cost, so the claim is read on the seeds as independent replications (verdict replicated)."

// Table is the gallery, in reading order.
var Table = []Figure{
	{
		ID: "1.6-un", Title: "Valiant halves the throughput under uniform traffic",
		Paper:      paperThesis + ", §1.4 and §1.6.1.1",
		Shows:      "Under uniform traffic minimal routing is optimal and Valiant's detours halve the throughput.",
		ClaimText:  "Valiant (two global hops per packet) saturates below half the capacity: FOGSim h=4 0.40; we accept [0.36, 0.50] at offered 0.9.",
		Claim:      Claim{Kind: Band, Series: "VAL", Load: 0.9, Lo: 0.36, Hi: 0.50},
		Experiment: "fig-1.6-un", Scaled: "h=2 (72 nodes) instead of h=8, 3,000 + 8,000 cycles, one seed: the bound does not depend on h and a browser runs it in seconds.",
	},
	{
		ID: "1.6-un-order", Title: "MIN beats VAL under uniform traffic",
		Paper:      paperThesis + ", §1.4.1",
		Shows:      "Minimal routing accepts far more than Valiant under uniform traffic.",
		ClaimText:  "MIN saturates well above VAL under UN (thesis h=8: MIN ≈ 0.8, VAL ≈ 0.45); we require MIN ≥ 1.3 × VAL at offered 0.9.",
		Claim:      Claim{Kind: Order, Series: "MIN", Over: "VAL", Load: 0.9, Factor: 1.3},
		Experiment: "fig-1.6-un", Scaled: "h=2 (72 nodes), 3,000 + 8,000 cycles, one seed: the order does not depend on h.",
	},
	{
		ID: "1.6-adv1", Title: "MIN caps at 1/(a·p) under ADV+1",
		Paper:      paperThesis + ", §1.6.1.2",
		Shows:      "Under ADV+1 every packet of a group crosses the one global link to the next group, so minimal routing saturates at 1/(a·p).",
		ClaimText:  "MIN saturates at 1/(a·p) = 1/(2h²): 0.0078 at h=8, 0.125 at h=2; we accept 0.125 ± 5% at offered 0.3.",
		Claim:      Claim{Kind: Band, Series: "MIN", Load: 0.3, Lo: 0.125 * 0.95, Hi: 0.125 * 1.05},
		Experiment: "fig-1.6-adv1", Scaled: "h=2 (72 nodes), where 1/(a·p) = 0.125 is visible on a linear axis (0.0078 at h=8 is not); 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "1.6-adv1-val", Title: "Valiant spreads ADV+1",
		Paper:      paperThesis + ", §1.4.1.2 and §1.6.1.2",
		Shows:      "Valiant sends every packet through a random intermediate group, so ADV+1 no longer funnels into one link.",
		ClaimText:  "VAL reaches about 0.40 under ADV+1 (FOGSim h=4); we accept [0.36, 0.50] at offered 0.8.",
		Claim:      Claim{Kind: Band, Series: "VAL", Load: 0.8, Lo: 0.36, Hi: 0.50},
		Experiment: "fig-1.6-adv1", Scaled: "h=2 (72 nodes), 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "1.19", Title: "Valiant to a group collapses under ADV+h",
		Paper:      paperThesis + ", §1.6.1.2, Fig. 1.19",
		Shows:      "With palm-tree wiring, Valiant to a group funnels each intermediate group's transit through one local link under ADV+h.",
		ClaimText:  "VAL_GROUP saturates near 1/h under ADV+h (FOGSim h=4: 0.18–0.19, bound 0.25); we accept [0.15, 0.25] at h=4, offered 0.5.",
		Claim:      Claim{Kind: Band, Series: "VAL_GROUP", Load: 0.5, Lo: 0.15, Hi: 0.25},
		Experiment: "fig-1.19", Scaled: "h=4 (1,056 nodes) instead of h=8: at h=2 the bound 1/h = 0.5 is VAL's own limit and shows nothing; 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "1.19-val", Title: "Valiant to a router keeps ADV+h",
		Paper:      paperThesis + ", §1.6.1.2, Fig. 1.19",
		Shows:      "Valiant to a router does not need the funnelled local link and keeps its throughput under ADV+h.",
		ClaimText:  "VAL stays near 0.40 under ADV+h while VAL_GROUP collapses; we require VAL ≥ 1.6 × VAL_GROUP at h=4, offered 0.5.",
		Claim:      Claim{Kind: Order, Series: "VAL", Over: "VAL_GROUP", Load: 0.5, Factor: 1.6},
		Experiment: "fig-1.19", Scaled: "h=4 (1,056 nodes), 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "1.6-advc", Title: "MIN plateaus below h/(a·p) under ADVc",
		Paper:      paperThesis + ", §1.6.1.2 and §3.1.3.1",
		Shows:      "Under ADVc every group sends to the h groups wired to its router a−1, so minimal routing uses only h global links per group.",
		ClaimText:  "MIN plateaus just below h/(a·p) = 1/(2h): 0.25 at h=2; we accept [0.85, 1.01] × 0.25 at offered 0.5.",
		Claim:      Claim{Kind: Band, Series: "MIN", Load: 0.5, Lo: 0.25 * 0.85, Hi: 0.25 * 1.01},
		Experiment: "fig-1.6-advc", Scaled: "h=2 (72 nodes), 3,000 + 8,000 cycles, one seed: h/(a·p) scales as 1/(2h).",
	},
	{
		ID: "3.1", Title: "In-transit priority starves router a−1 under ADVc",
		Paper:     paperThesis + ", §3.3.1, Table 3.1",
		Shows:     "With round-robin arbiters that favour transit traffic, the router holding the ADVc hot links barely injects under in-transit adaptive routing.",
		ClaimText: "In-Trns-MM's least-injecting router gets about 2% of the offered load at 0.40 (Max/Min 79.7, h=8); we accept at most 8% of offered.",
		Claim:     Claim{Kind: Band, Metric: MinShare, Series: "In-Trns-MM", Load: 0.4, Lo: 0, Hi: 0.08},
		Long:      true, Experiment: "fig-3.1", Scaled: "h=4 (1,056 nodes) instead of h=8, 4,000 + 16,000 cycles, 2 seeds at 0.40 and 0.55, the table's MIN, Obl-CRG and In-Trns-MM rows: a browser cannot run h=8 (minutes per point).",
	},
	{
		ID: "3.2", Title: "Without priority in-transit stays moderately unfair",
		Paper:     paperThesis + ", §3.3.3, Table 3.2",
		Shows:     "Round-robin arbiters without transit priority remove the starvation but leave router a−1 about 30% behind.",
		ClaimText: "In-Trns-MM Max/Min 1.551 at 0.40 (h=8); we accept [1.2, 2.0].",
		Claim:     Claim{Kind: Band, Metric: MaxMin, Series: "In-Trns-MM", Load: 0.4, Lo: 1.2, Hi: 2.0},
		Long:      true, Experiment: "fig-3.2", Scaled: "h=4 (1,056 nodes), 2 seeds; MIN and Obl-CRG 4,000 + 16,000 cycles (Max/Min's sampling floor near 1.11 at this length), In-Trns-MM 4,000 + 48,000 (the thesis ran 60,000): at h=4 it saturates near 0.39, so its 0.40 point sits at the knee, where over 16,000 cycles its batches stay correlated (verdict too short; Max/Min 1.36 there).",
	},
	{
		ID: "3.3", Title: "Age arbitration makes in-transit fair",
		Paper:     paperThesis + ", §3.3.4, Table 3.3",
		Shows:     "Arbitrating by packet age at both allocator stages makes in-transit adaptive routing as fair as oblivious routing.",
		ClaimText: "In-Trns-MM Max/Min 1.050 at 0.40 (h=8); we accept [1.0, 1.2] (the sampling floor of 16,000 cycles is about 1.11).",
		Claim:     Claim{Kind: Band, Metric: MaxMin, Series: "In-Trns-MM", Load: 0.4, Lo: 1.0, Hi: 1.2},
		Long:      true, Experiment: "fig-3.3", Scaled: "h=4 (1,056 nodes), 4,000 + 16,000 cycles; MIN and Obl-CRG 2 seeds, In-Trns-MM 5: its 0.40 point stays too short (its batches correlated) over 16,000 cycles and, measured once, over 48,000 (Max/Min 1.06), so the claim is read on its 5 seeds as independent replications, the whole 95% interval of their Max/Min within the band (verdict replicated; two runs of 48,000 cycles cost about as much as these five of 16,000 and, measured once, gave no steady verdict).",
	},
	{
		ID: "4.6a", Title: "Contention counters keep MIN's latency under UN",
		Paper:      paperThesis + ", §4.3.1, Fig. 4.6a",
		Shows:      "Under uniform traffic the contention counters stay below their threshold, so Base misroutes nothing and has minimal routing's latency.",
		ClaimText:  "Base, Filtered and ECtN \"match perfectly the latency of MIN before congestion\"; we accept Base ÷ MIN latency in [0.98, 1.02] at h=4, offered 0.3.",
		Claim:      Claim{Kind: Ratio, Metric: Latency, Series: "Base", Over: "MIN", Load: 0.3, Lo: 0.98, Hi: 1.02},
		Experiment: "fig-4.6a", Scaled: "h=4 (1,056 nodes) instead of h=8: at h=2 p = 2 heads never reach th = 6 and the comparison shows nothing; 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "4.6a-olm", Title: "The credit trigger misroutes under UN",
		Paper:      paperThesis + ", §4.3.1, Fig. 4.6a",
		Shows:      "OLM's credit-based trigger sees spurious congestion under uniform traffic, misroutes and pays latency the counters do not.",
		ClaimText:  "OLM's latency is above MIN's under UN; we require OLM ≥ 1.02 × MIN latency at h=4, offered 0.3.",
		Claim:      Claim{Kind: Order, Metric: Latency, Series: "OLM", Over: "MIN", Load: 0.3, Factor: 1.02},
		Experiment: "fig-4.6a", Scaled: "h=4 (1,056 nodes), 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "4.6b", Title: "Contention counters match OLM under ADV+1",
		Paper:      paperThesis + ", §4.3.1, Fig. 4.6b",
		Shows:      "From the counters alone Base detects the adversarial pattern and misroutes, reaching the throughput of credit-based OLM.",
		ClaimText:  "Every contention variant saturates about where OLM does, slightly above 0.5; we require Base ≥ 0.9 × OLM at h=4, offered 0.9.",
		Claim:      Claim{Kind: Order, Series: "Base", Over: "OLM", Load: 0.9, Factor: 0.9},
		Experiment: "fig-4.6b", Scaled: "h=4 (1,056 nodes), 3,000 + 8,000 cycles, one seed; MIN (1/(a·p) = 0.031) for reference.",
	},
	{
		ID: "4.8", Title: "Contention counters react at once to UN → ADV+1",
		Paper:     paperThesis + ", §4.3.2, Fig. 4.8",
		Shows:     "When uniform traffic switches to ADV+1, the contention counters see the new pattern in the packets waiting at the heads and misroute at once; credit-based triggers wait for queues to fill.",
		ClaimText: "Base, Filtered and Hybrid react in about 10 cycles (h=8); at h=4 a router's 4 injection heads alone cannot reach th = 6, so we accept Base's misrouted share settling (within 5 points of its final value) at most 50 cycles after the switch.",
		Claim:     Claim{Kind: Settle, Metric: Misrouted, Series: "Base", Load: 0.2, Lo: 0, Hi: 50},
		Long:      true, Experiment: "fig-4.8", Scaled: transientScaled,
	},
	{
		ID: "4.8-olm", Title: "Credit-based OLM takes about 100 cycles",
		Paper:     paperThesis + ", §4.3.2, Fig. 4.8",
		Shows:     "OLM misroutes only once the credits of the minimal path's queues fall: its reaction follows the queues, in two phases of about 50 cycles.",
		ClaimText: "PB and OLM take about 100 cycles (h=8); with the thesis's ±50% on times we accept OLM's misrouted share settling 50–150 cycles after the switch.",
		Claim:     Claim{Kind: Settle, Metric: Misrouted, Series: "OLM", Load: 0.2, Lo: 50, Hi: 150},
		Long:      true, Experiment: "fig-4.8", Scaled: transientScaled,
	},
	{
		ID: "4.8-pb", Title: "Source-adaptive PB takes about 100 cycles too",
		Paper:     paperThesis + ", §4.3.2, Figs. 4.8–4.9",
		Shows:     "PB decides at injection from the credits its group broadcasts: it overshoots to misrouting nearly everything, then swings back.",
		ClaimText: "PB and OLM take about 100 cycles (h=8); we accept PB's misrouted share settling 50–150 cycles after the switch.",
		Claim:     Claim{Kind: Settle, Metric: Misrouted, Series: "PB", Load: 0.2, Lo: 50, Hi: 150},
		Known:     "at h=4 PB's share overshoots to nearly 100% and swings back (Fig. 4.9's oscillation, a period of about 360 cycles here) and stays outside the 5-point band until about 630 cycles",
		Long:      true, Experiment: "fig-4.8", Scaled: transientScaled,
	},
	{
		ID: "4.8-back", Title: "Back to UN the counters stop misrouting",
		Paper:     paperThesis + ", §4.3.2 and §4.3.1",
		Shows:     "When ADV+1 switches back to uniform traffic the counters fall below their threshold and Base routes minimally again.",
		ClaimText: "\"Other transitions behave similarly\" and the contention variants misroute almost nothing under UN; we accept Base's misrouted share at most 1% over the packets generated 100–1,000 cycles after the switch back.",
		Claim:     Claim{Kind: Window, Metric: Misrouted, Series: "Base", Load: 0.2, Lo: 0, Hi: 1, Window: [2]float64{100, 1000}},
		Long:      true, Experiment: "fig-4.8-back", Scaled: transientScaled,
	},
	{
		ID: "4.10", Title: "Deep buffers: the counters react as fast",
		Paper:     paperThesis + ", §4.3.2, Fig. 4.10",
		Shows:     "With input buffers 8× deeper, credit-based triggers see congestion later; the contention counters count the heads, not the free space, and react as before.",
		ClaimText: "With 256/2048 phits per local/global input VC the contention variants react as fast as with small buffers; we accept Base's misrouted share settling at most 50 cycles after the switch.",
		Claim:     Claim{Kind: Settle, Metric: Misrouted, Series: "Base", Load: 0.2, Lo: 0, Hi: 50},
		Long:      true, Experiment: "fig-4.10", Scaled: transientScaled + " Input buffers 256/2048 phits per VC, output and injection unchanged.",
	},
	{
		ID: "4.10-olm", Title: "Deep buffers slow credit-based OLM",
		Paper:     paperThesis + ", §4.3.2, Fig. 4.10",
		Shows:     "Deep queues take long to fill, so OLM's credit trigger misroutes late and its latency climbs for hundreds of cycles.",
		ClaimText: "OLM needs about 700 cycles to reach its steady state (h=8); with ±50% we accept its latency settling (within 2% of its final value) 350–1,050 cycles after the switch.",
		Claim:     Claim{Kind: Settle, Metric: Latency, Series: "OLM", Load: 0.2, Lo: 350, Hi: 1050},
		Known:     "at h=4 OLM's latency settles within about 130 cycles with deep buffers (70 with small ones): later, but not the thesis's 700; FOGSim's own model does not climb either (REPRODUCTION.md, chapter 4 transients)",
		Long:      true, Experiment: "fig-4.10", Scaled: transientScaled + " Input buffers 256/2048 phits per VC, output and injection unchanged.",
	},
	{
		ID: "5.8", Title: "FlexVC beats the baseline at equal memory",
		Paper:      paperThesis + ", §5.3.2, Fig. 5.8",
		Shows:      "With the memory per port held constant, FlexVC's flexible VC use lets MIN accept more under uniform traffic than distance-based VCs.",
		ClaimText:  "At 64/256 phits per local/global port FlexVC 2/1 saturates 8% to 12% above the baseline 2/1; we require ≥ 1.05 × at h=4, offered 1.0.",
		Claim:      Claim{Kind: Order, Series: "FlexVC 2/1", Over: "baseline 2/1", Load: 1, Factor: 1.05},
		Experiment: "fig-5.8", Scaled: "h=4 (1,056 nodes) instead of h=8, 3,000 + 8,000 cycles, one seed; the figure's smallest memory only, as a load sweep.",
	},
	{
		ID: "acor-6", Title: "ACOR-Packet under ADV+h: 2LB ahead",
		Paper:     paperACOR + ", §6.1, Fig. 6d",
		Shows:     "Per-packet ACOR waits for congestion to reach the source, so under ADV+h the all-to-router sequence 2LB does better than 2LA and 3L.",
		ClaimText: "2LB outperforms 2LA and 3L in throughput under ADV+h (no number given); we require 2LB ≥ 1.02 × 2LA at offered 0.6, where every series saturates.",
		Claim:     Claim{Kind: Order, Series: "ACOR-2LB", Over: "ACOR-2LA", Load: 0.6, Factor: 1.02},
		Long:      true, Experiment: "fig-acor-6", Scaled: "1,056 hosts (h=4) as the paper's first network with its Table 3 timing, 3,000 + 8,000 cycles, one seed, loads 0.1/0.3/0.6 (at 0.5 VAL and 2LB run just past saturation, where queues grow: unstable).",
	},
	{
		ID: "acor-7", Title: "ACOR-Switch under ADV+h: every sequence competitive",
		Paper:     paperACOR + ", §6.2, Fig. 7d",
		Shows:     "Per-switch ACOR levels react to local congestion, so under ADV+h every sequence reaches Valiant's throughput.",
		ClaimText: "All ACOR-Switch sequences are competitive under ADV+h (no number given); we require 2LA ≥ 0.9 × VAL at offered 0.6, where every series saturates.",
		Claim:     Claim{Kind: Order, Series: "ACOR-2LA", Over: "VAL", Load: 0.6, Factor: 0.9},
		Long:      true, Experiment: "fig-acor-7", Scaled: "1,056 hosts (h=4) with the paper's Table 3 timing, 3,000 + 8,000 cycles, one seed, loads 0.1/0.3/0.6.",
	},
	{
		ID: "acor-9-up", Title: "ACOR-Switch settles within 2 µs after a load rise",
		Paper:     paperACOR + ", §6.2.1, Fig. 9",
		Shows:     "When the load steps from 5% to 25% under ADV+h, ACOR-Switch raises its routers' levels from CRG-Gr towards RRG-Sw and its latency settles at the new load.",
		ClaimText: "The transient settles in less than 2 µs (a cycle is a ns); with +50% we accept ACOR-3L's latency settling (within 5% of its final value) at most 3,000 cycles after the step.",
		Claim:     Claim{Kind: Settle, Metric: Latency, Series: "ACOR-3L", Load: 0.05, Lo: 0, Hi: 3000},
		Long:      true, Experiment: "fig-acor-9-up", Scaled: acorStepScaled,
	},
	{
		ID: "acor-10-up", Title: "ACOR-Switch's routers step up within 1 µs",
		Paper:     paperACOR + ", §6.2.1, Fig. 10",
		Shows:     "After the load rise each router of a group counts blocked re-attempts and raises its level.",
		ClaimText: "All switches move up in less than 1 µs; with +50% we accept every router of group 0 having stepped up at most 1,500 cycles after the step.",
		Claim:     Claim{Kind: Settle, Metric: LevelUp, Series: "ACOR-3L", Load: 0.05, Lo: 0, Hi: 1500},
		Known:     "at 1,056 hosts the blocked re-attempts cross IT₁ = 20 late and unevenly (the congestion sits in the intermediate groups): not every router of group 0 steps up within the 4 µs shown, the mean level rises from 1.00 to about 1.5",
		Long:      true, Experiment: "fig-acor-9-up", Scaled: acorStepScaled,
	},
	{
		ID: "acor-9-down", Title: "ACOR-Switch settles within 2 µs after a load drop",
		Paper:     paperACOR + ", §6.2.1, Fig. 9",
		Shows:     "When the load steps down from 25% to 5%, ACOR-Switch lowers its levels back to CRG-Gr and its latency settles.",
		ClaimText: "The transient settles in less than 2 µs; with +50% we accept ACOR-3L's latency settling (within 5% of its final value) at most 3,000 cycles after the step.",
		Claim:     Claim{Kind: Settle, Metric: Latency, Series: "ACOR-3L", Load: 0.25, Lo: 0, Hi: 3000},
		Long:      true, Experiment: "fig-acor-9-down", Scaled: acorStepScaled,
	},
	{
		ID: "acor-10-down", Title: "ACOR-Switch's routers step down within 0.5 µs",
		Paper:     paperACOR + ", §6.2.1, Fig. 10",
		Shows:     "After the load drop the routers see no blocked re-attempts over an interval and lower their level.",
		ClaimText: "All switches move down in less than 0.5 µs; with +50% we accept every router of group 0 above level 1 having stepped down at most 750 cycles after the step.",
		Claim:     Claim{Kind: Settle, Metric: LevelDown, Series: "ACOR-3L", Load: 0.25, Lo: 0, Hi: 750},
		Long:      true, Experiment: "fig-acor-9-down", Scaled: acorStepScaled,
	},
	{
		ID: "acor-11", Title: "A too high IT₁ congests ACOR-Switch under ADV+h",
		Paper:      paperACOR + ", §6.2.2, Fig. 11",
		Shows:      "With a high first increase threshold the routers stay at CRG-Gr past the load where VAL CRG-Gr saturates, and the network congests; the chosen threshold moves them to CRG-Sw in time.",
		ClaimText:  "Higher increase thresholds \"force the routing to stay in the current level for higher loads, which can lead to network congestion\", seen with IT₁ = 25, 5/3 of the chosen 15 (no number given); with the chosen IT₁ = 20 at 1,056 hosts, 33 stands for 25: we require ACOR-3L with IT₁ = 33 to accept at most 0.9 × the offered 0.25 (a saturated point).",
		Claim:      Claim{Kind: Band, Series: "ACOR-3L IT=33/500 DT=8/15", Load: 0.25, Lo: 0, Hi: 0.225},
		Experiment: "fig-acor-11", Scaled: "1,056 hosts (h=4; the paper's 5,256) with the paper's Table 3 timing and its 1,056-host IT₁/DT₁ = 20/8, ADV+h, 6,000 + 6,000 cycles, one seed: IT₁ = 20 and 33 against VAL CRG-Gr at 0.15 and 0.25. Not at h=3, where IT₁ = 33 congests only just past VAL CRG-Gr's saturation (0.30) and its point is unstable (latency rising), which a card's claim does not read.",
	},
	{
		ID: "acor-11-low", Title: "A lower IT₁ costs ACOR-Switch latency under ADV+h",
		Paper:      paperACOR + ", §6.2.2, Fig. 11",
		Shows:      "With a lower first increase threshold the routers leave CRG-Gr at lower loads, where CRG-Gr was still the best policy, and pay CRG-Sw's longer paths.",
		ClaimText:  "\"Lower increase threshold values make routing more eager to transit to a higher level, increasing the latency\" (no number given); we require ACOR-3L's latency with IT₁ = 10 at least 1.02 × with the chosen IT₁ = 20 at offered 0.25 under ADV+h, the whole 95% interval of the seeds' ratios.",
		Claim:      Claim{Kind: Order, Metric: Latency, Series: "ACOR-3L IT=10/500 DT=8/15", Over: "ACOR-3L IT=20/500 DT=8/15", Load: 0.25, Factor: 1.02},
		Experiment: "fig-acor-11-h3", Scaled: acorH3Scaled + " Under ADV+3 (ADV+h), IT₁ = 10 and 20 against VAL CRG-Gr, at 0.15 and 0.25.",
	},
	{
		ID: "acor-12", Title: "A lower DT₁ raises ACOR-Switch's latency under ADV+1",
		Paper:      paperACOR + ", §6.2.2, Fig. 12",
		Shows:      "A lower first decrease threshold lets a router fall back to CRG-Gr more easily, so under ADV+1 at medium load its level oscillates and its latency rises.",
		ClaimText:  "The first decrease threshold \"has a significant impact in the latency at medium loads under ADV+1\", higher with a lower threshold (no number given); we require ACOR-3L's latency with DT₁ = 3 at least 1.03 × with the chosen DT₁ = 8 at offered 0.25, the whole 95% interval of the seeds' ratios.",
		Claim:      Claim{Kind: Order, Metric: Latency, Series: "ACOR-3L IT=20/500 DT=3/15", Over: "ACOR-3L IT=20/500 DT=8/15", Load: 0.25, Factor: 1.03},
		Experiment: "fig-acor-12", Scaled: acorH3Scaled + " Under ADV+1, DT₁ = 3, 8 and 15 (DT₂ = 15 changes nothing: level 3 is never reached) against VAL CRG-Gr, at 0.15 and 0.25.",
	},
	{
		ID: "acor-13", Title: "Past VAL CRG-Gr's saturation ACOR-Switch follows CRG-Sw",
		Paper:      paperACOR + ", §6.2.2, Fig. 13",
		Shows:      "Under ADV+h VAL with CRG-Gr saturates early; ACOR-Switch 3L leaves CRG-Gr for CRG-Sw there and keeps CRG-Sw's latency.",
		ClaimText:  "\"ACOR changes from CRG-Gr to CRG-Sw misrouting policy when VAL-CRG-Gr latency is triggered\" (no number given); we accept ACOR-3L ÷ VAL CRG-Sw latency in [0.95, 1.05] at offered 0.33, past VAL CRG-Gr's saturation (0.293 accepted), the whole 95% interval of the seeds' ratios.",
		Claim:      Claim{Kind: Ratio, Metric: Latency, Series: "ACOR-3L IT=20/500 DT=8/15", Over: "VAL CRG-Sw", Load: 0.33, Lo: 0.95, Hi: 1.05},
		Experiment: "fig-acor-13", Scaled: acorH3Scaled + " Under ADV+3 (ADV+h), ACOR-3L against VAL CRG-Gr and CRG-Sw at 0.15 and 0.33.",
	},
	{
		ID: "acor-13-low", Title: "Below it ACOR-Switch stays at CRG-Gr",
		Paper:      paperACOR + ", §6.2.2, Fig. 13",
		Shows:      "At low load under ADV+h no router counts enough blocked re-attempts to leave CRG-Gr, so ACOR-Switch 3L has VAL CRG-Gr's latency, the lowest of the VAL policies.",
		ClaimText:  "ACOR-3L is at CRG-Gr until VAL CRG-Gr's latency rises (no number given); we accept ACOR-3L ÷ VAL CRG-Gr latency in [0.98, 1.02] at offered 0.15, the whole 95% interval of the seeds' ratios.",
		Claim:      Claim{Kind: Ratio, Metric: Latency, Series: "ACOR-3L IT=20/500 DT=8/15", Over: "VAL CRG-Gr", Load: 0.15, Lo: 0.98, Hi: 1.02},
		Experiment: "fig-acor-13", Scaled: acorH3Scaled + " Under ADV+3, the same runs as Fig. 13's first card.",
	},
	{
		ID: "qcn-8b", Title: "QCN-Switch reaches Valiant's throughput under ADV+1",
		Paper:     paperQCN + ", §5.1.2, Fig. 8b",
		Shows:     "Output sampling with feedback comparison learns from notifications which global links are congested and misroutes like Valiant under ADV+1.",
		ClaimText: "QCN-Switch's throughput under ADV+1 is about Valiant's; we accept QCN-Switch ÷ VAL accepted in [0.9, 1.15] at h=4, offered 0.6.",
		Claim:     Claim{Kind: Ratio, Series: "QCN-Switch", Over: "VAL", Load: 0.6, Lo: 0.9, Hi: 1.15},
		Long:      true, Experiment: "fig-qcn-8b", Scaled: "h=4 (1,056 nodes, the paper's h=6 has 5,256), VAL and QCN-Switch at 0.6 only, 20,000 + 5,000 cycles, one seed: QCN-Switch needs the 20,000-cycle warm-up to learn the pattern (with 12,000 + 4,000 its latency at 0.2 is still 934 cycles and the point too short).",
	},
	{
		ID: "qcn-8b-latency", Title: "QCN-Switch's latency below PB's under ADV+1",
		Paper:     paperQCN + ", §5.1.2, Fig. 8b",
		Shows:     "QCN-Switch's non-minimal path skips the intermediate group's local hop, so below saturation its latency is below PB's.",
		ClaimText: "QCN-Switch has lower latency than PB and VAL under ADV+1 below saturation; we require PB ≥ 1.2 × QCN-Switch latency at h=4, offered 0.2.",
		Claim:     Claim{Kind: Order, Metric: Latency, Series: "PB", Over: "QCN-Switch", Load: 0.2, Factor: 1.2},
		Long:      true, Experiment: "fig-qcn-8b-latency", Scaled: "h=4 (1,056 nodes), PB and QCN-Switch at 0.2 only, 20,000 + 5,000 cycles, one seed.",
	}, {
		ID: "qcn-10b", Title: "QCN-Switch recovers at once from ADV+1 → UN",
		Paper:      paperQCN + ", §5.2, Fig. 10b",
		Shows:      "When ADV+1 switches to uniform traffic the minimal paths are free at once: QCN-Switch's latency drops back within one 20-µs bin while its misrouting decays slowly from about 1/a.",
		ClaimText:  "The latency recovers in under 5 µs (h=6); we accept QCN-Switch's latency, in 20-µs bins, staying within 25% of its final value from at most the second bin after the switch (≤ 1,000 cycles of 20 ns).",
		Claim:      Claim{Kind: Settle, Metric: Latency, Series: "QCN-Switch", Load: 0.4, Lo: 0, Hi: 1000, Bin: sweep.QCNBin},
		Experiment: "fig-qcn-10b", Scaled: "h=2 (72 nodes) instead of the paper's h=6 (5,256), load 0.4: 10,000 cycles (200 µs) of ADV+1, the switch 2,000 cycles into the window, 10,000 cycles recorded and 5,000 more for their packets, 3 seeds pooled (the paper's 2.4 ms of warm-up and record take minutes per run).",
	},
	{
		ID: "qcn-12", Title: "QCN-Switch misroutes 90–100% after UN → ADV+1",
		Paper:      paperQCN + ", §5.3.1, Fig. 12",
		Shows:      "After uniform traffic switches to ADV+1, the congestion notifications lower the minimal probabilities of the ports toward the hot global link, and QCN-Switch comes to misroute nearly every packet.",
		ClaimText:  "Misrouting rises to 90–100% after the switch, faster with more CNMs; with (CPC, %CNMs) = (25, 80) we accept QCN-Switch's misrouted share in [90, 100]% over the packets generated 2,000–6,000 cycles (40–120 µs) after the switch.",
		Claim:      Claim{Kind: Window, Metric: Misrouted, Series: "CPC 25, 80% CNMs (3.2%)", Load: 0.4, Lo: 90, Hi: 100, Window: [2]float64{2000, 6000}},
		Experiment: "fig-qcn-12", Scaled: "h=4 (1,056 nodes) instead of h=6: at h=2 only 1/(a·p) = 0.125 of the 0.4 goes minimal and QCN-Switch settles near 85% misrouted; 10,000 cycles (200 µs) of UN, the switch 2,000 cycles into the window, 6,000 cycles recorded and 6,000 more for their packets, one seed, the fastest of the figure's three CNM rates.",
	},

	{
		ID: "kim-2", Title: "UGAL spreads congestion below MIN",
		Paper:      paperKim + ", §II-B, Fig. 2",
		Shows:      "Four nodes saturate node 4; UGAL routes the background around the hotspot's tree and spreads it, so the background accepts less than under MIN.",
		ClaimText:  "Baseline(UGAL) saturates 23% below Baseline(MIN); we accept the background's Baseline(UGAL) ÷ Baseline(MIN) in [0.60, 0.90] at offered 0.8.",
		Claim:      Claim{Kind: Ratio, Metric: Background, Series: "Baseline(UGAL)", Over: "Baseline(MIN)", Load: 0.8, Lo: 0.60, Hi: 0.90},
		Experiment: "fig-kim-2", Scaled: "the paper's 16-node 1D flattened butterfly at full size, 20,000 + 20,000 cycles, one seed; with virtual output queues MIN's knee is 0.78, so 0.8 is just past it.",
	},
	{
		ID: "kim-2-ideal", Title: "Isolating the hotspot removes the spreading",
		Paper:      paperKim + ", §II-B, Fig. 2",
		Shows:      "With the hotspot's flows in their own class (Ideal), UGAL's background accepts as much as MIN's.",
		ClaimText:  "Ideal(MIN) ≈ Ideal(UGAL); we accept the background's Ideal(UGAL) ÷ Ideal(MIN) in [0.95, 1.05] at offered 0.8.",
		Claim:      Claim{Kind: Ratio, Metric: Background, Series: "Ideal(UGAL)", Over: "Ideal(MIN)", Load: 0.8, Lo: 0.95, Hi: 1.05},
		Experiment: "fig-kim-2", Scaled: "16 nodes at full size, 20,000 + 20,000 cycles, one seed.",
	},
	{
		ID: "kim-2-gain", Title: "Isolation lifts UGAL's background",
		Paper:      paperKim + ", §II-B, Fig. 2",
		Shows:      "The gap between Ideal(UGAL) and Baseline(UGAL) is what congestion spreading costs.",
		ClaimText:  "Ideal(UGAL) keeps Ideal(MIN)'s high throughput, Baseline(MIN) is below it and Baseline(UGAL) saturates 23% below Baseline(MIN): Ideal(UGAL) ≥ Baseline(UGAL) ÷ 0.77 = 1.30 × Baseline(UGAL); with kim-2's tolerance (10% to 40% below) we require the background's Ideal(UGAL) ≥ 1.11 × Baseline(UGAL) at offered 0.8.",
		Claim:      Claim{Kind: Order, Metric: Background, Series: "Ideal(UGAL)", Over: "Baseline(UGAL)", Load: 0.8, Factor: 1.11},
		Experiment: "fig-kim-2", Scaled: "16 nodes at full size, 20,000 + 20,000 cycles, one seed.",
	},
	{
		ID: "kim-13", Title: "A dedicated VC lets the background settle after a hotspot starts",
		Paper:      paperKim + ", §V-C, Fig. 13",
		Shows:      "When sixteen senders start a hotspot over uniform traffic, CBCM throttles them; with the throttled flows on a dedicated low-priority VC the background's latency returns to its level before the hotspot, with them on the shared VCs it does not.",
		ClaimText:  "With the dedicated VC the UR latency reaches its steady state about 13.2× faster than with the shared VC (256 nodes); here the shared VC's is back 85,000 cycles after the start (TestCBCMFig13DedicatedVCSettles; with every UGAL draw a detour, routing.ugalIntermediate=detour, not within the 100,000 cycles recorded), so we accept the dedicated VC's background latency back within 1.25× its mean before the start (every later 5-interval mean) at most 20,000 cycles after the start: at least 5× faster.",
		Claim:      Claim{Kind: Settle, Metric: BgLatency, Series: "dedicated VC", Load: 0.4, Lo: 0, Hi: 20000},
		Experiment: "fig-kim-13", Scaled: "the 16-node 1D flattened butterfly (the paper's 256 nodes), Fig. 2's senders 0, 5, 8, 12 → node 4 from cycle 20,000 (the paper's 16 senders from interval 500) over UR among the other 11 at 0.4, UGAL, 120 intervals of 1,000 cycles, one seed: the same transient at a size a browser runs in a second.",
	},
	{
		ID: "kim-13-shared", Title: "On the shared VCs the background stays above",
		Paper:      paperKim + ", §V-C, Fig. 13",
		Shows:      "A throttled hotspot packet at the head of a shared VC blocks the background queued behind it, so the background's latency stays above the dedicated VC's long after the start.",
		ClaimText:  "Without the dedicated VC the UR traffic keeps \"continuous jitter and slightly higher latency even after it is stabilized\"; we accept the shared VC's background latency ÷ the dedicated VC's in [1.05, 2.0] over 40,000–100,000 cycles after the start (higher: at least 5% above; slightly: at most twice).",
		Claim:      Claim{Kind: Ratio, Metric: BgLatency, Series: "shared VC", Over: "dedicated VC", Load: 0.4, Lo: 1.05, Hi: 2.0, Window: [2]float64{40000, 100000}},
		Experiment: "fig-kim-13", Scaled: "as Fig. 13's first card: 16 nodes, the hotspot from cycle 20,000, 120 intervals of 1,000 cycles, one seed.",
	},
	{
		ID: "kim-14", Title: "CBCM shares the hotspot fairly: the least served sender",
		Paper:      paperKim + ", §VI-C, Fig. 14",
		Shows:      "Nodes 0, 1, 2 and 8 send to node 9 at full rate; CBCM's throttling gives each a quarter of the hotspot's bandwidth.",
		ClaimText:  "With CBCM each of the four senders gets 0.25 of node 9's ejection; we accept the least served in [0.22, 0.28] (no background load).",
		Claim:      Claim{Kind: Band, Metric: SenderMin, Series: "CBCM", Load: 0, Lo: 0.22, Hi: 0.28},
		Experiment: "fig-kim-14", Scaled: "the paper's 16-node network at full size, 10,000 + 20,000 cycles, one seed.",
	},
	{
		ID: "kim-14-unthrottled", Title: "Without throttling the hotspot's neighbour takes most",
		Paper:      paperKim + ", §VI-C, Fig. 14",
		Shows:      "With the hotspot's dedicated VC but no throttling, node 8 on the hotspot's own router gets more than the three senders one hop away.",
		ClaimText:  "Without throttling node 8 consumes 2× the aggregate of nodes 0–2, i.e. 2/3 of node 9's ejection; we accept the most served sender in [0.60, 0.72].",
		Claim:      Claim{Kind: Band, Metric: SenderMax, Series: "Dedicated VC, no throttling", Load: 0, Lo: 0.60, Hi: 0.72},
		Known:      "the round-robin ejection arbiter splits node 9's port between its two inputs, the link from router 0 and node 8's injection: node 8 gets 0.50 (1× the sum of nodes 0–2, 0.17 each), favoured but not 2×",
		Experiment: "fig-kim-14", Scaled: "16 nodes at full size, 10,000 + 20,000 cycles, one seed.",
	},
	{
		ID: "kim-14-max", Title: "CBCM shares the hotspot fairly: the most served sender",
		Paper:      paperKim + ", §VI-C, Fig. 14",
		Shows:      "Without throttling node 8, on the hotspot's own router, takes half the bandwidth; with CBCM it gets a quarter like the others.",
		ClaimText:  "With CBCM each sender gets 0.25; we accept the most served in [0.22, 0.28] (without throttling node 8 gets 0.50 here, the paper 2× the sum of nodes 0–2).",
		Claim:      Claim{Kind: Band, Metric: SenderMax, Series: "CBCM", Load: 0, Lo: 0.22, Hi: 0.28},
		Experiment: "fig-kim-14", Scaled: "16 nodes at full size, 10,000 + 20,000 cycles, one seed.",
	},
	{
		ID: "recn-2a", Title: "RECN corner case 1: VOQsw falls to about 20 B/ns",
		Paper:      paperRECN + ", §4.3, Fig. 2a",
		Shows:      "Sixteen hosts saturate host 32 from 800 to 970 µs; the congestion tree's head-of-line blocking drags the whole network down even with virtual output queues at the switch level.",
		ClaimText:  "VOQsw's throughput falls to about 20 bytes/ns and has not recovered by 1,300 µs; we accept its mean over 970–1,300 µs in [16, 23] B/ns.",
		Claim:      Claim{Kind: Window, Metric: BytesPerNs, Series: "VOQsw", Load: 0.5, Lo: 16, Hi: 23, Window: [2]float64{970, 1300}},
		Experiment: "recn-fig2a", Scaled: "the paper's 64-host 4-ary 3-tree at full size, 2,000 µs, one seed (seconds).",
	},
	{
		ID: "recn-2a-iq", Title: "RECN corner case 1: input queues collapse",
		Paper:      paperRECN + ", §4.3, Fig. 2a",
		Shows:      "With plain input queues the tree blocks the background further: the throughput falls to about half of the offered 24.6 B/ns.",
		ClaimText:  "IQ falls to about 12 bytes/ns (a ratio ≈ 0.48 of the 24.6 offered); we accept its mean over 970–1,300 µs at most 0.65 × 24.6 = 16 B/ns.",
		Claim:      Claim{Kind: Window, Metric: BytesPerNs, Series: "IQ", Load: 0.5, Lo: 0, Hi: 16, Window: [2]float64{970, 1300}},
		Experiment: "recn-fig2a", Scaled: "64 hosts at full size, 2,000 µs, one seed.",
	},
	{
		ID: "recn-2a-voqnet", Title: "RECN corner case 1: VOQnet stays flat",
		Paper:      paperRECN + ", §4.3, Fig. 2a",
		Shows:      "With a queue per destination at every port no packet waits behind the tree, so the background keeps its throughput while sixteen hosts saturate host 32.",
		ClaimText:  "VOQnet stays at about 25 bytes/ns all run, with no dip; we accept its mean over the tree's 800–1,300 µs in [23.5, 26.5] B/ns.",
		Claim:      Claim{Kind: Window, Metric: BytesPerNs, Series: "VOQnet", Load: 0.5, Lo: 23.5, Hi: 26.5, Window: [2]float64{800, 1300}},
		Experiment: "recn-fig2a", Scaled: "64 hosts at full size, 2,000 µs, one seed.",
	},
	{
		ID: "recn-2a-recn", Title: "RECN corner case 1: RECN keeps VOQnet's throughput",
		Paper:      paperRECN + ", §4.3, Fig. 2a",
		Shows:      "RECN moves the tree's packets into set-aside queues, so with 8 queues per port it keeps the throughput of a queue per destination.",
		ClaimText:  "RECN stays within 1 byte/ns of VOQnet's flat ≈ 25 B/ns; we accept RECN's mean over 800–1,300 µs in [24, 26] B/ns.",
		Claim:      Claim{Kind: Window, Metric: BytesPerNs, Series: "RECN", Load: 0.5, Lo: 24, Hi: 26, Window: [2]float64{800, 1300}},
		Experiment: "recn-fig2a", Scaled: "64 hosts at full size, 2,000 µs, one seed.",
	},
	{
		ID: "recn-4-ingress", Title: "RECN corner case 1: few SAQs per ingress side",
		Paper:      paperRECN + ", §4.4, Fig. 4",
		Shows:      "RECN allocates a set-aside queue only for a congestion tree's root that reaches the port, so a handful per port suffice.",
		ClaimText:  "Fewer than 5 SAQs are ever needed at an ingress side in corner case 1; we accept at most 4 lines at one ingress side over the run.",
		Claim:      Claim{Kind: Band, Metric: SAQIngress, Series: "RECN", Load: 0.5, Lo: 0, Hi: 4},
		Experiment: "recn-fig2a", Scaled: "the paper's 64-host 4-ary 3-tree at full size, 8 SAQs per side, 2,000 µs, one seed.",
	},
	{
		ID: "recn-4-egress", Title: "RECN corner case 1: few SAQs per egress side",
		Paper:      paperRECN + ", §4.4, Fig. 4",
		Shows:      "At the egress sides and interfaces RECN needs even fewer set-aside queues than at the ingress sides.",
		ClaimText:  "Fewer than 4 SAQs are ever needed at an egress side in corner case 1; we accept at most 3 lines at one egress side or interface over the run.",
		Claim:      Claim{Kind: Band, Metric: SAQEgress, Series: "RECN", Load: 0.5, Lo: 0, Hi: 3},
		Known:      "with the per-output crossbar (the default, which puts RECN on VOQnet's line as Figs. 2b and 6 draw it) one egress side holds 4 lines while the tree forms (before 850 µs: the nested trees of the hotspot path's over-subscribed links), one over the paper's count (its thresholds are not published; detection at 320 B, propagation at 512 B); from 850 µs on at most 1 (congestion.recnCrossbar=normalFirst: 2 throughout)",
		Experiment: "recn-fig2a", Scaled: "64 hosts at full size, 8 SAQs per side, 2,000 µs, one seed.",
	},
	{
		ID: "recn-4-total", Title: "RECN corner case 1: SAQs in the whole network",
		Paper:      paperRECN + ", §4.4, Fig. 4",
		Shows:      "Summed over the network's 48 switches and 64 interfaces, RECN's set-aside queues stay a small fraction of its ports.",
		ClaimText:  "The total number of SAQs is always lower than 170 in corner case 1 (0.22 per port); we accept at most 170 lines allocated at once.",
		Claim:      Claim{Kind: Band, Metric: SAQTotal, Series: "RECN", Load: 0.5, Lo: 0, Hi: 170},
		Experiment: "recn-fig2a", Scaled: "64 hosts at full size, 8 SAQs per side, 2,000 µs, one seed.",
	},
	{
		ID: "4.9", Title: "PB oscillates after UN → ADV+1",
		Paper:      paperThesis + ", §4.3.2, Fig. 4.9",
		Shows:      "PB decides at injection from the saturation its group broadcast last: it misroutes nearly everything, the minimal queues drain, it turns back, and its latency swings for thousands of cycles while ECtN's stays flat.",
		ClaimText:  "PB's latency oscillates with a period of about 600 cycles after the switch (h=8); with the thesis's ±50% on times we accept a period in [300, 900] cycles over 200–2,500 cycles after the switch, read as the first peak of the latency's autocorrelation (at least 0.2).",
		Claim:      Claim{Kind: Period, Metric: Latency, Series: "PB", Load: 0.2, Lo: 300, Hi: 900, Window: [2]float64{200, 2500}},
		Experiment: "fig-4.9", Scaled: "h=4 (1,056 nodes) instead of h=8, load 0.2: 4,000 warm-up cycles under UN, the switch 500 cycles into the window, 2,500 cycles shown and 1,000 more for their packets to arrive, 3 seeds pooled; PB, ECtN and Base.",
	},
	{
		ID: "4.8-ectn", Title: "ECtN follows Base until its first broadcast",
		Paper:      paperThesis + ", §4.3.2, Fig. 4.8",
		Shows:      "ECtN's routers broadcast their contention counters every 100 cycles; the switch comes right after a broadcast, so until the next one ECtN decides on its own router's counters, as Base does.",
		ClaimText:  "ECtN behaves as Base for the first 100 cycles after the switch; we accept ECtN ÷ Base latency over the packets generated 0–100 cycles after the switch in [0.95, 1.05].",
		Claim:      Claim{Kind: Ratio, Metric: Latency, Series: "ECtN", Over: "Base", Load: 0.2, Lo: 0.95, Hi: 1.05, Window: [2]float64{0, 100}},
		Experiment: "fig-4.9", Scaled: "h=4 (1,056 nodes) instead of h=8, load 0.2, the switch 500 cycles into the window (a broadcast instant), 3 seeds pooled; the fig-4.9 runs.",
	},
	{
		ID: "4.8-ectn-after", Title: "After its broadcast ECtN has the lower latency",
		Paper:      paperThesis + ", §4.3.2, Fig. 4.8",
		Shows:      "Once the group's counters are broadcast, ECtN misroutes at injection the packets bound for a contended group, before they queue behind the minimal global link, and its latency falls below Base's.",
		ClaimText:  "After its first broadcast ECtN has the lowest latency of the mechanisms; we require ECtN ÷ Base latency over the packets generated 200–600 cycles after the switch at most 0.97.",
		Claim:      Claim{Kind: Ratio, Metric: Latency, Series: "ECtN", Over: "Base", Load: 0.2, Lo: 0, Hi: 0.97, Window: [2]float64{200, 600}},
		Experiment: "fig-4.9", Scaled: "h=4 (1,056 nodes) instead of h=8, load 0.2, 3 seeds pooled; the fig-4.9 runs.",
	},
	{
		ID: "5.7", Title: "FlexVC 8/4 nears 0.9 under uniform traffic",
		Paper:      paperThesis + ", §5.3.2, Fig. 5.7",
		Shows:      "With the buffer per VC held constant, FlexVC lets a packet use any VC of its port that keeps the path deadlock-free, so more VCs carry minimal traffic past the baseline's head-of-line blocking.",
		ClaimText:  "MIN with FlexVC 8/4 saturates at about 0.9 under UN (h=8), above the baseline 2/1; we accept FlexVC 8/4's accepted load in [0.85, 0.95] at h=4, offered 1.0.",
		Claim:      Claim{Kind: Band, Series: "FlexVC 8/4", Load: 1, Lo: 0.85, Hi: 0.95},
		Experiment: "fig-5.7", Scaled: "h=4 (1,056 nodes) instead of h=8, 32/256 phits per local/global VC, 3,000 + 8,000 cycles, one seed; the baseline 2/1 and FlexVC 8/4 of the figure's five curves.",
	},
	{
		ID: "5.6", Title: "DAMQ: a 75% reserve beats 25%",
		Paper:      paperThesis + ", §5.3.1, Fig. 5.6",
		Shows:      "A DAMQ input port shares its memory among its VCs; with a small reserve per VC one VC fills the pool and the network congests at saturation.",
		ClaimText:  "At 128/512 phits per local/global port a reserve of 0 deadlocks, 25% congests and 75% is the best; we require DAMQ 75% ≥ 1.03 × DAMQ 25% accepted at h=4, offered 1.0.",
		Claim:      Claim{Kind: Order, Series: "DAMQ 75%", Over: "DAMQ 25%", Load: 1, Factor: 1.03},
		Experiment: "fig-5.6", Scaled: "h=4 (1,056 nodes) instead of h=8, MIN, 2/1 VCs, 3,000 + 8,000 cycles, one seed; two of the figure's reserves as series over the load (a reserve of 0 deadlocks: TestDamqFig56NoReserveDeadlocks).",
	},
	{
		ID: "kim-8a", Title: "CBCM costs nothing under uniform traffic",
		Paper:      paperKim + ", §V-B, Fig. 8a",
		Shows:      "Without a hotspot CBCM's contention detection rarely throttles, so its throughput is Ideal's.",
		ClaimText:  "CBCM is within 5% of Ideal under UR (512 nodes); we accept CBCM(UGAL) ÷ Ideal(UGAL) accepted in [0.95, 1.05] at offered 1.0, past saturation.",
		Claim:      Claim{Kind: Ratio, Series: "CBCM(UGAL)", Over: "Ideal(UGAL)", Load: 1, Lo: 0.95, Hi: 1.05},
		Experiment: "fig-kim-8a", Scaled: "the paper's 16-node 1D flattened butterfly (its Figs. 2–5 network) instead of the 512-node 2D one, 20,000 + 20,000 cycles, one seed: the 512-node runs take minutes each.",
	},
	{
		ID: "kim-9a", Title: "CBCM costs nothing under a tornado",
		Paper:      paperKim + ", §V-B, Fig. 9a",
		Shows:      "Under the tornado permutation UGAL spreads each router's traffic over non-minimal paths; no destination is oversubscribed, so CBCM does not throttle and matches Ideal.",
		ClaimText:  "CBCM ≈ Ideal under the tornado, with no throttle packets (512 nodes); we accept CBCM(UGAL) ÷ Ideal(UGAL) accepted in [0.95, 1.05] at offered 0.5.",
		Claim:      Claim{Kind: Ratio, Series: "CBCM(UGAL)", Over: "Ideal(UGAL)", Load: 0.5, Lo: 0.95, Hi: 1.05},
		Experiment: "fig-kim-9a", Scaled: "the 16-node 1D flattened butterfly, tornado n → n+4 (a router's nodes to the next router's; the paper's n → n+8 with 8 nodes per router), 20,000 + 20,000 cycles, one seed.",
	},
}

// ByID finds a figure.
func ByID(id string) (Figure, error) {
	for _, f := range Table {
		if f.ID == id {
			return f, nil
		}
	}
	ids := make([]string, len(Table))
	for i, f := range Table {
		ids[i] = f.ID
	}
	return Figure{}, fmt.Errorf("unknown figure %q (known: %v)", id, ids)
}

// Experiment of the figure.
func (f Figure) Sweep() (sweep.Experiment, error) { return sweep.ExperimentByName(f.Experiment) }

// BrowserInstrPerSecond is the speed EstimateSeconds assumes before a
// browser has measured its own (Speed of a CalibrationProbe run): the
// WebAssembly build on one worker at about half a native core of ~2 G/s.
const BrowserInstrPerSecond = 1e9

// InstrPerHop are the callgrind instructions per packet-hop of each routing
// (engine/BENCHMARKS.md, costs.sh on main: h=4, the routing's probe).
var InstrPerHop = map[string]float64{"MIN": 1523, "VAL": 1589, "UGAL": 1725, "PB": 1878, "PAR": 1822,
	"OLM": 1849, "ACOR": 1621, "PB_ACOR": 1952}

// instrUnmeasured is the cost assumed for a routing costs.sh does not
// measure: the highest measured one.
const instrUnmeasured = 1952

func instrPerHop(routing string) float64 {
	if x, ok := InstrPerHop[routing]; ok {
		return x
	}
	return instrUnmeasured
}

// Instructions estimates the figure's run: Σ over its runs of
// JobInstructions.
func (f Figure) Instructions() (float64, error) {
	e, err := f.Sweep()
	if err != nil {
		return 0, err
	}
	jobs, err := e.Spec.Jobs()
	if err != nil {
		return 0, err
	}
	var instr float64
	for _, j := range jobs {
		n, err := JobInstructions(j.Config)
		if err != nil {
			return 0, fmt.Errorf("figure %s: experiment %s: %w", f.ID, f.Experiment, err)
		}
		instr += n
	}
	return instr, nil
}

// The fixed cost of a cycle, whatever the traffic: the nodes' generators
// and the routers' per-cycle work, callgrind on an idle network (no
// traffic) stepped 4,000 cycles (engine/figures/costs.sh; BENCHMARKS.md,
// "The gallery's run-time estimate"): 6,341 instructions per cycle at h=2
// (72 nodes, 36 routers) and 85,468 at h=4 (1,056 nodes, 264 routers), of
// which FixedInstrPerNodeCycle × nodes + FixedInstrPerRouterCycle × routers
// is the fit.
const (
	FixedInstrPerNodeCycle   = 73.8
	FixedInstrPerRouterCycle = 28.5
)

// The operating point of costs.sh's probe, whose cycles InstrPerHop
// divides by its hops: h=4 (1,056 nodes, 264 routers) under UN at 0.2
// makes ProbeHopsPerCycle packet-hops per cycle (MIN; 8-phit packets,
// ProbePacketSize). Its fixed cost per hop, ProbeFixedPerHop, is already
// in InstrPerHop; the estimate charges the rest per hop and the fixed
// cost per cycle.
const (
	ProbeHopsPerCycle = 97.7
	ProbePacketSize   = 8
)

// ProbeFixedPerHop is the fixed cost per cycle of the probe's network over
// its hops per cycle: about 875 of MIN's 1,523 instructions per hop.
var ProbeFixedPerHop = FixedInstructions(1056, 264) / ProbeHopsPerCycle

// FixedInstructions is the fixed cost of one cycle of a network.
func FixedInstructions(nodes, routers int) float64 {
	return FixedInstrPerNodeCycle*float64(nodes) + FixedInstrPerRouterCycle*float64(routers)
}

// JobInstructions estimates one run: its cycles × FixedInstructions, plus
// its packet-hops × the routing's InstrPerHop less ProbeFixedPerHop, scaled
// by its packet size ÷ ProbePacketSize (a head waits at its output while
// the packet before it crosses the link, one cycle per phit, and is tried
// again each cycle: Kim et al.'s 32-phit packets cost about 4× per hop),
// where packet-hops = OfferedPhits / packet size × cycles × 5 (hops per
// packet: Valiant's path; MIN's is 3, so this bounds the hops from above),
// the load taken at most at the routing's SaturationBound (carriedPhits),
// on a Dragonfly without a known bound × the contention of a busier
// network (ContentionPerLoad); plus, near and past saturation, the cost of
// the heads that wait and are tried again every cycle
// (SaturatedInstructions).
func JobInstructions(c config.Config) (float64, error) {
	phits, err := carriedPhits(c)
	if err != nil {
		return 0, err
	}
	cycles := float64(c.Sim.Warmup + c.Sim.Cycles)
	return runInstructions(c, phits/float64(c.Router.PacketSize)*cycles*5, cycles), nil
}

// carriedPhits is OfferedPhits with the load of each stretch of the run
// (phases) taken at most at its routing's SaturationBound: what the
// network can carry.
func carriedPhits(c config.Config) (float64, error) {
	phits, err := OfferedPhits(c)
	if err != nil {
		return 0, err
	}
	cycles := float64(c.Sim.Warmup + c.Sim.Cycles)
	if ps := phases(c); len(ps) > 1 {
		// each stretch carries at most its pattern's bound
		sz, _ := c.Topology.Sizes()
		phits = 0
		for _, p := range ps {
			load := math.Min(p.c.Traffic.Load, 1)
			if b, _ := SaturationBound(p.c); b > 0 && load > b {
				load = b
			}
			phits += float64(sz.Nodes) * load * p.cycles / cycles
		}
	} else if b, _ := SaturationBound(c); b > 0 && c.Traffic.Load > b {
		phits *= b / math.Min(c.Traffic.Load, 1) // what the network can carry
	}
	return phits, nil
}

// ProbeLoad is the load of costs.sh's probe (UN), at which InstrPerHop is
// measured.
const ProbeLoad = 0.2

// ContentionPerLoad: on a Dragonfly a packet-hop costs more the busier the
// network is, since a head that finds its output or its credits taken is
// tried again the next cycle: where the saturation term does not apply (no
// known bound: UN, HOTSPOT) its marginal cost (InstrPerHop less
// ProbeFixedPerHop) is × (1 + ContentionPerLoad × (load − ProbeLoad)) at a
// load above ProbeLoad, phits/(node·cycle) (where the term applies, the
// saturation constants fitted there hold this cost). Fitted
// to MIN under UN with the estimate's hops (5 per packet; MIN makes about
// 3.3) (BENCHMARKS.md, "The gallery's run-time estimate"): 1.51 and 1.78
// at 0.5 and 0.9 on the h=2 Dragonfly, 1.33 at 0.3 at h=4. The flattened
// butterfly's cost per hop is not measured apart and is not scaled.
const ContentionPerLoad = 1.5

// Contention is contention(c), for the batch estimate (engine/plan), which
// charges it on the whole cost per hop.
func Contention(c config.Config) float64 { return contention(c) }

// contention is the factor of ContentionPerLoad on a Dragonfly: over the
// stretches of the run (phases) without a known bound, weighted by their
// cycles, 1 + ContentionPerLoad × (load − ProbeLoad); 1 elsewhere.
func contention(c config.Config) float64 {
	if !c.Topology.IsDragonfly() {
		return 1
	}
	run := float64(c.Sim.Warmup + c.Sim.Cycles)
	if !(run > 0) {
		return 1
	}
	f := 0.0
	for _, p := range phases(c) {
		x := 1.0
		if b, _ := SaturationBound(p.c); b == 0 {
			x += ContentionPerLoad * math.Max(0, math.Min(p.c.Traffic.Load, 1)-ProbeLoad)
		}
		f += x * p.cycles / run
	}
	return f
}

// runInstructions is the model's instructions of a run of c that makes
// hops packet-hops in cycles cycles.
func runInstructions(c config.Config, hops, cycles float64) float64 {
	sz, _ := c.Topology.Sizes()
	perHop := (instrPerHop(c.Routing.Name) - ProbeFixedPerHop) * sizeScale(c)
	perHop *= contention(c)
	return hops*perHop + cycles*FixedInstructions(sz.Nodes, sz.Routers) + SaturatedInstructions(c, cycles)
}

// SaturatedInstrPerNodeCycle is what a saturated network costs per node
// and cycle beyond its hops and its fixed cost, at 8-phit packets (scaled
// by packet size ÷ ProbePacketSize: a head waits as long as the packets
// before it take to cross): the heads that wait for an output or a credit
// are tried again every cycle, and an adaptive routing decides again at
// each attempt. Each is fitted to at least three callgrind counts of whole
// runs (engine/figures/costs.sh; TestEstimateAgainstCallgrind's rows,
// BENCHMARKS.md "The gallery's run-time estimate"), about the middle of
// the values they imply: MIN (77–114) on the h=2 Dragonfly under ADV+1 and
// ADVc; VAL (356–461) on it under UN, ADV+1 and ADVc; UGAL (124–732) on
// Kim et al.'s 16-node flattened butterfly under CBCM, UR at 0.9 and 1.0
// and the tornado at 0.5 and 0.8, nearer the UR runs' (124, 165), where
// the term is most of the estimate (without a flow gate its nodes sleep:
// SleepingShare); OLM (697–994) under ADV+1 at h=2 and h=4 and under
// ADVc (In-Trns-MM) at h=2 and h=4; PB (644–1,167) and PAR (705–1,095) on
// the h=2 Dragonfly under ADV+1 at 0.6 and 0.8 and under ADVc at 0.5; ACOR
// (395–536) on the ACOR paper's system under ADV+h at h=2 (2LB, 2LA, 3L;
// 0.6 and 0.8) and h=4.
var SaturatedInstrPerNodeCycle = map[string]float64{"MIN": 100, "VAL": 420, "UGAL": 150, "OLM": 880,
	"PB": 850, "PAR": 880, "ACOR": 423}

// saturatedUnmeasured is the cost assumed for a routing not measured
// saturated: the highest measured one (OLM's and PAR's, which decide again
// at each hop attempt).
const saturatedUnmeasured = 880

// SaturationRamp: the saturation term grows linearly from this share of
// the bound to the bound (a network saturates somewhat below its
// analytic bound: VAL near 0.45 of its 0.5 at h=2) and is whole above it.
const SaturationRamp = 0.8

// AdaptiveStart and AdaptiveWhole: an adaptive routing on a Dragonfly
// under ADV+i or ADVc does not saturate at once at its bound (Valiant's
// 1/2): it accepts more (OLM 0.56 under ADV+1 at h=2), and well below it
// the heads that wait for the congested minimal paths are tried, and
// re-routed, every cycle. Its term grows linearly from AdaptiveStart × the
// bound to AdaptiveWhole × the bound: OLM on the h=2 Dragonfly costs 20%,
// 38%, 47%, 74% and 118% of its saturated cost (under ADV+1 at 0.8) at 0.3,
// 0.4, 0.5, 0.6 and 0.7 under ADVc, 36% and 46% at 0.3 and 0.5 under ADV+1
// (the ramp: 18%, 36%, 55%, 73%, 91%) (BENCHMARKS.md, "The gallery's
// run-time estimate"). Not for a routing whose decision is final
// (QCN-Switch): its heads wait as Valiant's do.
const (
	AdaptiveStart = 0.4
	AdaptiveWhole = 1.5
)

// SaturatedInstructions is the saturation term of JobInstructions over
// cycles: nodes × SaturatedInstrPerNodeCycle × packet size ÷ 8 × the
// share of saturation (saturatedShare); 0 without a known bound (UN on a
// Dragonfly). A run with a pattern switch or a load step
// (traffic.switchCycle) sums the term of each stretch (phases) over its
// share of the cycles. Under HOTSPOT the senders saturate, and the
// background past its own bound (hotspotSaturated).
func SaturatedInstructions(c config.Config, cycles float64) float64 {
	run := float64(c.Sim.Warmup + c.Sim.Cycles)
	if !(run > 0) {
		return 0
	}
	var sum float64
	for _, p := range phases(c) {
		sum += steadySaturated(p.c, cycles*p.cycles/run)
	}
	return sum
}

// steadySaturated is SaturatedInstructions of a steady pattern and load.
func steadySaturated(c config.Config, cycles float64) float64 {
	if c.Traffic.Pattern == "HOTSPOT" {
		return hotspotSaturated(c, cycles)
	}
	sz, _ := c.Topology.Sizes()
	return saturatedShare(c) * destinationShare(c) * cycles * float64(sz.Nodes) * saturatedCost(c)
}

// destinationShare: with per-destination source queues
// (traffic.sourceQueues=perDestination) a saturated node keeps a queue,
// whose head waits and is tried again, for each destination it sends to:
// N−1 under UN, one under the tornado, whose term is UN's ÷ (N−1). Kim et
// al.'s 16-node flattened butterfly under UGAL, saturated: about 210–350
// instructions per node and cycle (at 8 phits) under UR at 1.0, 12–43
// (the same as their UR share of 15) under the tornado at its bound 0.5.
func destinationShare(c config.Config) float64 {
	_, perDest := c.Traffic.Messages()
	sz, _ := c.Topology.Sizes()
	if !perDest || c.Traffic.Pattern != "TORNADO" || sz.Nodes < 2 {
		return 1
	}
	return 1 / float64(sz.Nodes-1)
}

// saturatedShare is the share of saturation of a steady pattern at
// traffic.load: 0 below SaturationRamp × the routing's SaturationBound,
// growing linearly to 1 at the bound; for an adaptive routing on a
// Dragonfly under ADV+i or ADVc from AdaptiveStart × its bound to
// AdaptiveWhole × its bound. 0 without a known bound.
func saturatedShare(c config.Config) float64 {
	b, _ := SaturationBound(c)
	if !(b > 0) {
		return 0
	}
	lo, hi := SaturationRamp*b, b
	if adaptiveAdversarial(c) {
		lo, hi = AdaptiveStart*b, AdaptiveWhole*b
	}
	share := (math.Min(c.Traffic.Load, 1) - lo) / (hi - lo)
	return math.Max(0, math.Min(share, 1))
}

// adaptiveAdversarial: c runs an adaptive routing on a Dragonfly under
// ADV+i or ADVc.
func adaptiveAdversarial(c config.Config) bool {
	p := c.Traffic.Pattern
	e := routing.Get(c.Routing.Name)
	return c.Topology.IsDragonfly() && (p == "ADV" || p == "ADVC") && e.Paths == routing.Adaptive && e.Decision != routing.Final
}

// saturatedCost is SaturatedInstrPerNodeCycle of c's routing scaled by its
// packet size, × SleepingShare when its saturated nodes sleep.
func saturatedCost(c config.Config) float64 {
	x := saturatedPerNodeCycle(c.Routing.Name) * sizeScale(c)
	if sleepsWhenFull(c) {
		x *= SleepingShare
	}
	return x
}

// SleepingShare is the share of its saturation term a run pays whose
// saturated nodes sleep (sleepsWhenFull): a node none of whose
// destinations finds room on its injection VC is not tried again until a
// packet leaves its injection port or a destination opens, so its waiting
// heads cost about nothing per cycle (BENCHMARKS.md, the flattened
// butterfly's per-destination source queues). Fitted on Kim et al.'s
// 16-node flattened butterfly (engine/figures/costs.sh, seed 1, whole
// runs): Ideal(UGAL) under UR at 1.0 (kim-8a) and under the tornado at 0.5
// (kim-9a) cost less than the estimate without any term (they imply
// UGAL's constant −54 and −419: the hop term overcharges Ideal, 1.7× at
// 0.5 below saturation), so 0. TestCallgrindFBFly's probe puts the heads
// of MIN under the tornado at 47 per node and cycle without a scheme
// against 291 under CBCM (runcost, "The page's run-time estimate").
const SleepingShare = 0

// sleepsWhenFull: c's saturated nodes sleep, as drainDest lets them: with
// per-destination source queues whose injection VC is the destination's
// (router.injectionPolicy=dest, not router.injectionVoq=perQueue), no
// request-reply (whose replies' reservations keep the scan), without a
// congestion scheme or under Ideal (ECN, CBCM and SRP hold flows, and the
// scan must learn when they open; RECN keeps to the scan).
func sleepsWhenFull(c config.Config) bool {
	if _, perDest := c.Traffic.Messages(); !perDest || c.Traffic.Reactive {
		return false
	}
	if p := c.Router.InjectionPolicy; p != "" && p != "dest" {
		return false
	}
	if c.Router.Voq && c.Router.InjectionVoq == "perQueue" {
		return false
	}
	s := c.Congestion.SchemeName()
	return s == "none" || s == "ideal"
}

// saturatedPerNodeCycle is SaturatedInstrPerNodeCycle of a routing; one
// without its own constant takes that of a measured routing of its kind
// (VAL_GROUP VAL's: the same paths to another intermediate), else
// saturatedUnmeasured.
func saturatedPerNodeCycle(name string) float64 {
	if w, ok := SaturatedInstrPerNodeCycle[name]; ok {
		return w
	}
	if e, ok := routing.Lookup(name); ok {
		for _, o := range routing.All() {
			if w, ok := SaturatedInstrPerNodeCycle[o.Name]; ok && o.Kind == e.Kind {
				return w
			}
		}
	}
	return saturatedUnmeasured
}

// sizeScale scales a cost measured at ProbePacketSize-phit packets to c's
// packets: by packet size ÷ ProbePacketSize (a head waits while the
// packet before it crosses, one cycle per phit, and is tried again each
// cycle), but never below 1: a packet-hop costs its routing and
// allocation whatever its size (Kim et al. Fig. 2's 1-phit packets cost
// more per hop than 8-phit ones, not 8× less; BENCHMARKS.md).
func sizeScale(c config.Config) float64 {
	return float64(max(c.Router.PacketSize, ProbePacketSize)) / ProbePacketSize
}

// hotspotSaturated is the saturation term of a HOTSPOT run: while they
// are active (traffic.hotspotStart … hotspotEnd) its senders inject at
// full rate into one ejection port, so with two or more every sender's
// heads wait as a saturated node's do (Kim et al. Fig. 14's four senders
// on 16 nodes, without background, cost about twice what their one phit
// per cycle of hops and the fixed cost per cycle do); and the background
// (traffic.hotspotBackground, run by the other nodes at traffic.load) pays
// the term of that pattern alone (steadySaturated) on its share of the
// nodes: it saturates where that pattern does.
func hotspotSaturated(c config.Config, cycles float64) float64 {
	sum := hotspotBackgroundSaturated(c, cycles)
	n, err := hotspotSenders(c.Traffic)
	if err != nil || n < 2 {
		return sum
	}
	run := float64(c.Sim.Warmup + c.Sim.Cycles)
	end := run
	if c.Traffic.HotspotEnd > 0 {
		end = math.Min(float64(c.Traffic.HotspotEnd), run)
	}
	active := math.Max(0, end-float64(c.Traffic.HotspotStart)) / run
	return sum + active*cycles*float64(n)*saturatedCost(c)
}

// hotspotBackgroundSaturated is the saturation term of a HOTSPOT's
// background: its pattern's (UR and UN as UN, TORNADO_RAND as TORNADO)
// steadySaturated at traffic.load over the nodes that run it (all but
// the senders, and but the hotspot under UR); 0 when that pattern has no
// known bound on the network (a fat tree, a Dragonfly under UN).
func hotspotBackgroundSaturated(c config.Config, cycles float64) float64 {
	senders, err := hotspotSenders(c.Traffic)
	if err != nil || !(c.Traffic.Load > 0) {
		return 0
	}
	sz, ok := c.Topology.Sizes()
	if !ok || sz.Nodes == 0 {
		return 0
	}
	bg := c
	switch t := c.Traffic.HotspotBackground; t {
	case "", "UR", "UN":
		bg.Traffic.Pattern = "UN"
	case "TORNADO_RAND":
		bg.Traffic.Pattern = "TORNADO"
	default:
		bg.Traffic.Pattern = t
	}
	nodes := float64(sz.Nodes - senders)
	if h := c.Traffic.HotspotBackground; h == "" || h == "UR" {
		nodes-- // the hotspot itself is silent
	}
	return math.Max(0, nodes) / float64(sz.Nodes) * steadySaturated(bg, cycles)
}

// hotspotSenders is the number of a HOTSPOT's senders.
func hotspotSenders(t config.Traffic) (int, error) {
	if t.HotspotCount > 0 {
		return t.HotspotCount, nil
	}
	ss, err := t.Senders()
	if err != nil {
		return 0, fmt.Errorf("traffic.hotspotSenders: %w", err)
	}
	return len(ss), nil
}

// phase is a stretch of a run under one steady pattern and load.
type phase struct {
	c      config.Config // without a switch
	cycles float64
}

// phases splits c's run at its switch (traffic.switchCycle after the
// warm-up): before it the first pattern at traffic.load, after it
// traffic.switchPattern (the first one when empty: a load step) at
// traffic.switchLoad (traffic.load when 0); one stretch without a switch.
func phases(c config.Config) []phase {
	run := float64(c.Sim.Warmup + c.Sim.Cycles)
	if c.Traffic.SwitchCycle <= 0 {
		return []phase{{c, run}}
	}
	before := math.Min(float64(c.Sim.Warmup+c.Traffic.SwitchCycle), run)
	a, b := c, c
	a.Traffic.SwitchCycle, b.Traffic.SwitchCycle = 0, 0
	if p := c.Traffic.SwitchPattern; p != "" {
		b.Traffic.Pattern = p
	}
	if l := c.Traffic.SwitchLoad; l > 0 {
		b.Traffic.Load = l
	}
	return []phase{{a, before}, {b, run - before}}
}

// SaturationBound is the analytic throughput bound of c's routing under
// its pattern, phits/(node·cycle), and its reason; 0 when none is known.
// The minimal and Valiant ones are those the page's facts panel shows
// (site/facts: thesis §1.4 and §1.6; Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-A); the adaptive ones
// are where an adaptive routing must saturate at the latest:
//   - Dragonfly: minimal routing under ADV+i 1/(a·p) and under ADVc
//     h/(a·p) ((h−1)/(a·p) with FOGSim's variant); Valiant 1/2 (two global
//     hops per packet), Valiant to a group under ADV+h 1/h (thesis
//     §1.6.1.2, Fig. 1.19: FOGSim 0.18–0.19 at h=4); an adaptive routing under ADV+i or ADVc at most
//     Valiant's 1/2 (it must misroute nearly all), none under UN;
//   - 1D flattened butterfly: minimal routing under the tornado 1/p and
//     under UN (N−1)/(p²), at most 1; an adaptive routing under UN as
//     minimal routing, under the tornado k/(2p) (the direct link carries
//     1 phit per cycle, the k−2 two-hop paths share the other k−1 links:
//     p·L·(2 − 1/(p·L)) ≤ k − 1).
//
// Only steady patterns (no traffic.switchCycle), not HOTSPOT.
func SaturationBound(c config.Config) (float64, string) {
	t, tr := c.Topology, c.Traffic
	sz, ok := t.Sizes()
	if !ok || tr.SwitchCycle > 0 || tr.Reactive {
		return 0, ""
	}
	paths := routing.Get(c.Routing.Name).Paths
	switch t.Kind {
	case "", routing.Dragonfly:
		ap := float64(t.A * t.P)
		switch {
		case c.Routing.Name == "VAL_GROUP" && tr.Pattern == "ADV" && tr.AdvOffset == t.H:
			return 1 / float64(t.H), fmt.Sprintf("VAL_GROUP under ADV+h: 1/h = 1/%d", t.H)
		case paths == routing.ValiantOnly:
			return 0.5, c.Routing.Name + ": two global hops per packet, 1/2"
		case paths == routing.MinimalOnly && tr.Pattern == "ADV":
			return 1 / ap, fmt.Sprintf("MIN under ADV+%d: 1/(a·p) = 1/%d", tr.AdvOffset, t.A*t.P)
		case paths == routing.MinimalOnly && tr.Pattern == "ADVC":
			h := t.H
			if tr.AdvcFogsim {
				h--
			}
			return float64(h) / ap, fmt.Sprintf("MIN under ADVc: %d/(a·p)", h)
		case paths == routing.Adaptive && (tr.Pattern == "ADV" || tr.Pattern == "ADVC"):
			return 0.5, c.Routing.Name + " under " + tr.Pattern + ": Valiant's 1/2"
		}
	case routing.FBFly:
		if t.Dimensions != 1 || paths == routing.ValiantOnly {
			return 0, ""
		}
		p, k := float64(t.P), float64(t.K)
		switch tr.Pattern {
		case "UN":
			return math.Min(1, float64(sz.Nodes-1)/(p*p)), "UN: a link carries p²/(N−1) of a node's load"
		case "TORNADO":
			if paths == routing.MinimalOnly {
				return math.Min(1, 1/p), "MIN under TORNADO: 1/p"
			}
			return math.Min(1, k/(2*p)), c.Routing.Name + " under TORNADO: k/(2p)"
		}
	}
	return 0, ""
}

// OfferedPhits is the traffic a run offers the network, in phits per cycle
// over the whole run (warm-up included), at most what the nodes can inject:
// nodes × min(traffic.load, 1), with traffic.switchLoad from the switch on;
// under HOTSPOT the senders inject at full rate but the hotspot ejects at
// most one phit per cycle (what they send beyond waits at the source), so
// they add min(senders, 1) while they are active (traffic.hotspotStart …
// hotspotEnd) and the background load is offered by the other nodes (the
// hotspot's own silent under UR).
func OfferedPhits(c config.Config) (float64, error) {
	sz, ok := c.Topology.Sizes()
	if !ok {
		return 0, fmt.Errorf("invalid topology")
	}
	run := float64(c.Sim.Warmup + c.Sim.Cycles)
	if run <= 0 {
		return 0, nil
	}
	t := c.Traffic
	load := math.Min(t.Load, 1)
	if t.SwitchCycle > 0 && t.SwitchLoad > 0 {
		before := math.Min(float64(c.Sim.Warmup+t.SwitchCycle), run)
		load = (before*load + (run-before)*math.Min(t.SwitchLoad, 1)) / run
	}
	nodes := float64(sz.Nodes)
	if t.Pattern != "HOTSPOT" {
		return nodes * load, nil
	}
	senders, err := hotspotSenders(t)
	if err != nil {
		return 0, err
	}
	end := run
	if t.HotspotEnd > 0 {
		end = math.Min(float64(t.HotspotEnd), run)
	}
	active := math.Max(0, end-float64(t.HotspotStart)) / run
	background := nodes - float64(senders)
	if t.HotspotBackground == "" || t.HotspotBackground == "UR" {
		background-- // the hotspot itself is silent
	}
	return background*load + math.Min(float64(senders), 1)*active, nil
}

// EstimateSeconds is the figure's run time on one worker at
// BrowserInstrPerSecond.
func (f Figure) EstimateSeconds() (float64, error) { return f.EstimateSecondsAt(BrowserInstrPerSecond) }

// EstimateSecondsAt is the figure's run time on one worker running
// instrPerSecond instructions per second (a browser's Speed).
func (f Figure) EstimateSecondsAt(instrPerSecond float64) (float64, error) {
	if !(instrPerSecond > 0) {
		return 0, fmt.Errorf("speed %g instructions/s: must be positive", instrPerSecond)
	}
	n, err := f.Instructions()
	return n / instrPerSecond, err
}

// CalibrationProbe is the short run a browser times to learn its speed
// (the page runs it once and caches the result): h=2 MIN under UN at 0.4,
// 300 + 1,200 cycles, about 20 M instructions (a few tens of ms).
func CalibrationProbe() config.Config {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", "UN", 0.4
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 300, 1200, 1
	return c
}

// Speed is the instructions per second a run shows: the model's
// instructions for its packet-hops and cycles (JobInstructions's, with the
// hops it made) over its CPU time (0 when it has none).
func Speed(r *result.Result) float64 {
	if r == nil || !(r.CPUSeconds > 0) {
		return 0
	}
	return runInstructions(r.Config, float64(r.PacketHops), float64(r.SimCycles)) / r.CPUSeconds
}

// Measured is a claim read on an outcome.
type Measured struct {
	Value   float64 // Band: the accepted load; Order: Series ÷ Over
	Pass    bool
	Verdict string // the quality verdict of the point(s) read
	Text    string
	// Replicated only: CI95 is the half-width of Value's Student-t 95%
	// interval over the Seeds runs read as independent replications
	// (Order and Ratio: of Series ÷ Over, paired by seed)
	CI95  float64
	Seeds int
}

// point finds series name's aggregate at load.
func point(o *sweep.Outcome, name string, load float64) (*sweep.Aggregate, error) {
	for i := range o.Points {
		p := &o.Points[i]
		if p.Name == name && math.Abs(p.Offered-load) < 1e-9 {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no point of series %q at load %g", name, load)
}

func verdict(p *sweep.Aggregate) string {
	if p.Quality == nil {
		return ""
	}
	return p.Quality.Verdict
}

// usable: the claim may be read on a point whose runs are steady or
// saturated (a cap is read at saturation), not unstable or too short.
func usable(v string) bool { return v != result.Unstable && v != result.TooShort }

// metric of a point, and its name for the text.
func metric(m string, p *sweep.Aggregate) (float64, string) {
	switch m {
	case MaxMin:
		return p.MaxMin.Mean, "Max/Min"
	case MinShare:
		return p.MinInj.Mean / p.Offered, "min injection ÷ offered"
	case Latency:
		return p.Latency.Mean, "latency"
	case Background:
		if p.Hotspot == nil {
			return math.NaN(), "background accepted"
		}
		return p.Hotspot.Accepted.Mean, "background accepted"
	case SenderMin, SenderMax:
		name := "least sender's accepted"
		if m == SenderMax {
			name = "most sender's accepted"
		}
		if p.Hotspot == nil || len(p.Hotspot.SenderAccepted) == 0 {
			return math.NaN(), name
		}
		x := p.Hotspot.SenderAccepted[0]
		for _, a := range p.Hotspot.SenderAccepted[1:] {
			if (m == SenderMin) == (a < x) {
				x = a
			}
		}
		return x, name
	}
	return p.Accepted.Mean, "accepted"
}

// windowRate is BytesPerNs of series name's runs at load.
func windowRate(o *sweep.Outcome, name string, load float64, w [2]float64) (float64, error) {
	var sum float64
	n := 0
	for _, r := range o.Runs {
		if r == nil || r.Config.Name != name || math.Abs(r.Offered-load) > 1e-9 {
			continue
		}
		rates, err := r.Throughput(10e3)
		if err != nil {
			return 0, err
		}
		sum += result.MeanRate(rates, w[0]*1e3, w[1]*1e3)
		n++
	}
	if n == 0 {
		return 0, fmt.Errorf("no run of series %q at load %g", name, load)
	}
	return sum / float64(n), nil
}

// transient finds series name's pooled transient record at load.
func transient(o *sweep.Outcome, name string, load float64) (*sweep.Transient, error) {
	for i := range o.Transients {
		t := &o.Transients[i]
		if t.Name == name && math.Abs(t.X-load) < 1e-9 {
			return t, nil
		}
	}
	return nil, fmt.Errorf("series %q has no transient record at load %g (traffic.switchCycle within the measured window?)", name, load)
}

// settleTime is the time of a Settle claim on t, in cycles from the
// switch; ok false when it does not happen within the record. The latency
// settles within sweep.AcorSettleBand of its final value after a load step
// (the record has the offered load per bin), sweep.ReactionBand after a
// pattern switch, as the engine's transient tests read them; band, when
// not 0, instead (a record re-binned to 20 µs: sweep.LatencyBand, as
// sweep.NewQCNReaction reads it).
func settleTime(metric string, t *sweep.Transient, band float64) (at float64, ok bool, err error) {
	var p *float64
	switch metric {
	case Misrouted:
		p = t.Settle
	case Latency:
		if band == 0 {
			band = sweep.ReactionBand
			if len(t.Offered) > 0 {
				band = sweep.AcorSettleBand
			}
		}
		_, p = sweep.LatencySettle(*t, band)
	case LevelUp:
		p = t.LevelUp
	case LevelDown:
		p = t.LevelDown
	default:
		return 0, false, fmt.Errorf("metric %q has no settle time (misrouted, latency, levelUp, levelDown)", metric)
	}
	if p == nil {
		return 0, false, nil
	}
	return *p, true, nil
}

// windowMean is the mean of t's metric over the bins that start in
// [w[0], w[1]) cycles from the switch: weighted by the bins' packets for
// the latency and the misrouted share, over the bins for the ACOR level.
func windowMean(metric string, t *sweep.Transient, w [2]float64) (float64, error) {
	var xs []float64
	weighted := true
	switch metric {
	case Latency:
		xs = t.Latency
	case Misrouted:
		xs = t.Misrouted
	case AcorLevel:
		xs, weighted = t.AcorLevel, false
	default:
		return 0, fmt.Errorf("metric %q has no transient curve (misrouted, latency, acorLevel)", metric)
	}
	var n, sum float64
	for i := range xs {
		if c := float64(t.From + i*t.Bin); c >= w[0] && c < w[1] && i < len(t.Packets) {
			k := 1.0
			if weighted {
				k = float64(t.Packets[i])
			}
			n += k
			sum += k * xs[i]
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("no %s in %g–%g cycles from the switch", metric, w[0], w[1])
	}
	return sum / n, nil
}

// period is the period (cycles) of t's metric over the bins that start in
// [w[0], w[1]) cycles from the switch, and the autocorrelation at it: the
// curve smoothed by a centred mean over 5 bins, less its mean; the lag of
// the highest autocorrelation in its first positive lobe after its first
// fall below zero. ok false when there is no such lobe, or its peak is
// below PeriodMinCorrelation (corr is then the peak, or 0).
func period(metric string, t *sweep.Transient, w [2]float64) (cycles, corr float64, ok bool, err error) {
	var xs []float64
	switch metric {
	case Latency:
		xs = t.Latency
	case Misrouted:
		xs = t.Misrouted
	default:
		return 0, 0, false, fmt.Errorf("metric %q has no transient curve to oscillate (latency, misrouted)", metric)
	}
	var in []float64
	for i := range xs {
		if c := float64(t.From + i*t.Bin); c >= w[0] && c < w[1] && i < len(t.Packets) && t.Packets[i] > 0 {
			in = append(in, xs[i])
		}
	}
	const smooth = 5
	if len(in) < 4*smooth {
		return 0, 0, false, fmt.Errorf("%d bins of %s in %g–%g cycles from the switch: too few for a period", len(in), metric, w[0], w[1])
	}
	y := make([]float64, len(in)-smooth+1)
	var mean float64
	for i := range y {
		for _, v := range in[i : i+smooth] {
			y[i] += v / smooth
		}
		mean += y[i] / float64(len(y))
	}
	var v0 float64
	for i := range y {
		y[i] -= mean
		v0 += y[i] * y[i]
	}
	if !(v0 > 0) {
		return 0, 0, false, nil
	}
	r := func(k int) float64 {
		var s float64
		for i := 0; i+k < len(y); i++ {
			s += y[i] * y[i+k]
		}
		return s / v0
	}
	k, best := 1, -1
	for ; k < len(y)/2 && r(k) >= 0; k++ {
	}
	for ; k < len(y)/2 && r(k) < 0; k++ {
	}
	for ; k < len(y)/2; k++ {
		x := r(k)
		if x < 0 {
			break
		}
		if best < 0 || x > corr {
			best, corr = k, x
		}
	}
	if best < 0 || corr < PeriodMinCorrelation {
		return 0, corr, false, nil
	}
	return float64(best * t.Bin), corr, true, nil
}

// Transient is the verdict of a claim on a time series (Settle, Window),
// which has no steady state to reach.
const Transient = "transient"

// checkSeries reads a Settle or Window claim on a time series.
func (f Figure) checkSeries(o *sweep.Outcome) (Measured, error) {
	c := f.Claim
	// the point's steady-state verdict does not apply to a transient
	m := Measured{Verdict: Transient}
	if c.Metric == BytesPerNs {
		if c.Kind != Window {
			return Measured{}, fmt.Errorf("figure %s: metric %s takes a window", f.ID, c.Metric)
		}
		v, err := windowRate(o, c.Series, c.Load, c.Window)
		if err != nil {
			return Measured{}, fmt.Errorf("figure %s: %w", f.ID, err)
		}
		m.Value, m.Pass = v, v >= c.Lo && v <= c.Hi
		m.Text = fmt.Sprintf("%s %.2f B/ns over %g–%g µs, claim [%.1f, %.1f]", c.Series, v, c.Window[0], c.Window[1], c.Lo, c.Hi)
		return m, nil
	}
	t, err := transient(o, c.Series, c.Load)
	if err != nil {
		return Measured{}, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	band := 0.0 // settleTime's default
	if c.Bin > 0 {
		if c.Bin%t.Bin != 0 {
			return Measured{}, fmt.Errorf("figure %s: bin %d cycles is not a multiple of the record's %d", f.ID, c.Bin, t.Bin)
		}
		r := sweep.QCNRebin(*t, c.Bin)
		t, band = &r, sweep.LatencyBand
	}
	if c.Kind == Ratio {
		u, err := transient(o, c.Over, c.Load)
		if err != nil {
			return Measured{}, fmt.Errorf("figure %s: %w", f.ID, err)
		}
		a, err := windowMean(c.Metric, t, c.Window)
		if err != nil {
			return Measured{}, fmt.Errorf("figure %s: %s: %w", f.ID, c.Series, err)
		}
		b, err := windowMean(c.Metric, u, c.Window)
		if err != nil {
			return Measured{}, fmt.Errorf("figure %s: %s: %w", f.ID, c.Over, err)
		}
		if !(b > 0) {
			return Measured{}, fmt.Errorf("figure %s: %s's %s over %g–%g cycles is %g", f.ID, c.Over, c.Metric, c.Window[0], c.Window[1], b)
		}
		m.Value = a / b
		m.Pass = m.Value >= c.Lo && m.Value <= c.Hi
		m.Text = fmt.Sprintf("%s %s %.4g ÷ %s's %.4g = %.3f over %g–%g cycles from the switch, claim [%g, %g]", c.Series, c.Metric, a, c.Over, b, m.Value, c.Window[0], c.Window[1], c.Lo, c.Hi)
		return m, nil
	}
	if c.Kind == Period {
		v, corr, ok, err := period(c.Metric, t, c.Window)
		if err != nil {
			return Measured{}, fmt.Errorf("figure %s: %w", f.ID, err)
		}
		if !ok {
			m.Text = fmt.Sprintf("%s %s: no oscillation over %g–%g cycles from the switch (first autocorrelation peak %.2f < %g), claim period [%g, %g]", c.Series, c.Metric, c.Window[0], c.Window[1], corr, PeriodMinCorrelation, c.Lo, c.Hi)
			return m, nil
		}
		m.Value, m.Pass = v, v >= c.Lo && v <= c.Hi
		m.Text = fmt.Sprintf("%s %s oscillates with a period of %.0f cycles over %g–%g cycles from the switch (autocorrelation %.2f), claim [%g, %g]", c.Series, c.Metric, v, c.Window[0], c.Window[1], corr, c.Lo, c.Hi)
		return m, nil
	}
	if c.Kind == Settle {
		at, ok, err := settleTime(c.Metric, t, band)
		if err != nil {
			return Measured{}, fmt.Errorf("figure %s: %w", f.ID, err)
		}
		if !ok {
			// not within the record: its end bounds the time from below
			m.Value = float64(t.From + len(t.Packets)*t.Bin)
			m.Text = fmt.Sprintf("%s %s: not within the record (> %.0f cycles after the switch), claim [%g, %g]", c.Series, settleName(c.Metric), m.Value, c.Lo, c.Hi)
			return m, nil
		}
		m.Value, m.Pass = at, at >= c.Lo && at <= c.Hi
		m.Text = fmt.Sprintf("%s %s %.0f cycles after the switch, claim [%g, %g]", c.Series, settleName(c.Metric), at, c.Lo, c.Hi)
		return m, nil
	}
	v, err := windowMean(c.Metric, t, c.Window)
	if err != nil {
		return Measured{}, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	m.Value, m.Pass = v, v >= c.Lo && v <= c.Hi
	unit := map[string]string{Latency: " cycles", Misrouted: "%"}[c.Metric]
	m.Text = fmt.Sprintf("%s %s %.3g%s over %g–%g cycles from the switch, claim [%g, %g]", c.Series, c.Metric, v, unit, c.Window[0], c.Window[1], c.Lo, c.Hi)
	return m, nil
}

// checkSAQ reads a Band claim on RECN's SAQ demand: the most lines at one
// side over the runs of Series at Load (a count over the whole run, read
// whatever the steady-state verdict).
func (f Figure) checkSAQ(o *sweep.Outcome) (Measured, error) {
	c := f.Claim
	if c.Kind != Band {
		return Measured{}, fmt.Errorf("figure %s: metric %s takes a band", f.ID, c.Metric)
	}
	peak, n := int32(0), 0
	for _, r := range o.Runs {
		if r == nil || r.Config.Name != c.Series || math.Abs(r.Offered-c.Load) > 1e-9 {
			continue
		}
		if r.RECN == nil {
			return Measured{}, fmt.Errorf("figure %s: series %s has no RECN result (congestion.scheme=recn)", f.ID, c.Series)
		}
		x := r.RECN.PeakIngress
		switch c.Metric {
		case SAQEgress:
			x = r.RECN.PeakEgress
		case SAQTotal:
			x = r.RECN.PeakTotal
		}
		peak, n = max(peak, x), n+1
	}
	if n == 0 {
		return Measured{}, fmt.Errorf("figure %s: no run of series %q at load %g", f.ID, c.Series, c.Load)
	}
	where := map[string]string{SAQIngress: "at one ingress side", SAQEgress: "at one egress side or interface", SAQTotal: "in the whole network"}[c.Metric]
	m := Measured{Verdict: Transient, Value: float64(peak)}
	m.Pass = m.Value >= c.Lo && m.Value <= c.Hi
	m.Text = fmt.Sprintf("%s at most %d SAQ lines %s at once over the run, claim [%g, %g]", c.Series, peak, where, c.Lo, c.Hi)
	return m, nil
}

// settleName is a Settle metric's event in words.
func settleName(metric string) string {
	switch metric {
	case LevelUp:
		return "group 0 all stepped up"
	case LevelDown:
		return "group 0 all stepped down"
	}
	return metric + " settles"
}

// Check reads the claim on the outcome of the figure's experiment.
func (f Figure) Check(o *sweep.Outcome) (Measured, error) {
	c := f.Claim
	p, err := point(o, c.Series, c.Load)
	if err != nil {
		return Measured{}, err
	}
	if c.Metric != BgLatency && (c.Kind == Settle || c.Kind == Window || c.Kind == Period || c.windowRatio() || c.Metric == BytesPerNs) {
		return f.checkSeries(o)
	}
	if c.Metric == SAQIngress || c.Metric == SAQEgress || c.Metric == SAQTotal {
		return f.checkSAQ(o)
	}
	if c.Metric == BgLatency {
		return f.checkBackground(o)
	}
	m := Measured{Verdict: verdict(p)}
	reason := ""
	if p.Quality != nil {
		reason = p.Quality.Reason
	}
	switch c.Kind {
	case Band:
		var name string
		m.Value, name = metric(c.Metric, p)
		if math.IsNaN(m.Value) {
			return Measured{}, fmt.Errorf("figure %s: series %s has no %s at %g (a hotspot metric on a run without result.hotspot)", f.ID, c.Series, name, c.Load)
		}
		m.Pass = m.Value >= c.Lo && m.Value <= c.Hi
		m.Text = fmt.Sprintf("%s %s %.4f at offered %g, claim [%.4f, %.4f]", c.Series, name, m.Value, c.Load, c.Lo, c.Hi)
	case Order, Ratio:
		q, err := point(o, c.Over, c.Load)
		if err != nil {
			return Measured{}, err
		}
		if v := verdict(q); !usable(v) {
			m.Verdict, reason = v, q.Quality.Reason
		}
		a, name := metric(c.Metric, p)
		b, _ := metric(c.Metric, q)
		if !(b > 0) || math.IsNaN(a) {
			return Measured{}, fmt.Errorf("figure %s: %s's %s is %g and %s's %g at %g (a hotspot metric on a run without result.hotspot?)", f.ID, c.Over, name, b, c.Series, a, c.Load)
		}
		m.Value = a / b
		if c.Kind == Ratio {
			m.Pass = m.Value >= c.Lo && m.Value <= c.Hi
			m.Text = fmt.Sprintf("%s %s %.4f ÷ %s's %.4f = %.3f at offered %g, claim [%.3f, %.3f]", c.Series, name, a, c.Over, b, m.Value, c.Load, c.Lo, c.Hi)
			break
		}
		m.Pass = m.Value >= c.Factor
		m.Text = fmt.Sprintf("%s %s %.4f ÷ %s's %.4f = %.2f at offered %g, claim ≥ %.2f", c.Series, name, a, c.Over, b, m.Value, c.Load, c.Factor)
	default:
		return Measured{}, fmt.Errorf("figure %s: unknown claim kind %q", f.ID, c.Kind)
	}
	if m.Verdict == result.TooShort {
		// a run alone cannot give its precision: the seeds can
		r, why := f.replicate(o)
		if why == "" {
			return r, nil
		}
		reason += "; not read as replications: " + why
	}
	if !usable(m.Verdict) {
		m.Pass = false
		m.Text += fmt.Sprintf(" (point %s: %s)", m.Verdict, reason)
	}
	return m, nil
}

// BgCurve is a HOTSPOT's background latency per interval of series name's
// runs at load, pooled (weighted by the packets delivered), from the
// hotspot's start: Cycle[i] is the end of interval i in cycles from the
// start (traffic.hotspotStart), Latency[i] its mean latency, Packets[i]
// its packets. The site's chart draws the same curve.
type BgCurve struct {
	Cycle   []float64
	Latency []float64
	Packets []int64
}

// BackgroundCurve pools the background's intervals (result.HotspotClasses.Series)
// of the runs of series name at load.
func BackgroundCurve(runs []*result.Result, name string, load float64) (BgCurve, error) {
	var of []*result.Result
	for _, r := range runs {
		if r != nil && r.Config.Name == name && math.Abs(r.Offered-load) <= 1e-9 {
			of = append(of, r)
		}
	}
	if len(of) == 0 {
		return BgCurve{}, fmt.Errorf("no run of series %q at load %g", name, load)
	}
	c, ok := PoolBackground(of)
	if !ok {
		return BgCurve{}, fmt.Errorf("series %q has no background per interval (traffic.pattern=HOTSPOT with traffic.hotspotStart > 0)", name)
	}
	return c, nil
}

// PoolBackground pools the background's intervals of runs (one series at
// one point); ok false when a run has none.
func PoolBackground(runs []*result.Result) (c BgCurve, ok bool) {
	var sum []float64
	var n []int64
	start, iv := 0, 0
	for _, r := range runs {
		if r == nil {
			continue
		}
		if r.Hotspot == nil || r.Hotspot.Series == nil {
			return BgCurve{}, false
		}
		start, iv = r.Config.Traffic.HotspotStart, r.Config.Sim.Interval
		for i, x := range r.Hotspot.Series {
			if i >= len(n) {
				sum, n = append(sum, 0), append(n, 0)
			}
			sum[i] += x.Latency * float64(x.Delivered)
			n[i] += x.Delivered
		}
	}
	if n == nil {
		return BgCurve{}, false
	}
	for i := range n {
		c.Cycle = append(c.Cycle, float64((i+1)*iv-start))
		c.Packets = append(c.Packets, n[i])
		lat := 0.0
		if n[i] > 0 {
			lat = sum[i] / float64(n[i])
		}
		c.Latency = append(c.Latency, lat)
	}
	return c, true
}

// Before is the curve's mean latency over the intervals that end in the
// last three quarters of the time before the start (the first quarter
// fills the network), the mean of the intervals' means.
func (c BgCurve) Before() float64 {
	if len(c.Cycle) < 2 {
		return 0
	}
	first := c.Cycle[0] - (c.Cycle[1] - c.Cycle[0]) // the run's start, ≤ 0
	m, _ := c.mean([2]float64{first * 0.75, 0})
	return m
}

// BgSettle is the time after the start (cycles; the end of the last
// interval outside) from which every mean over BgSettleSpan consecutive
// intervals stays within BgSettleFactor × Before; ok false when the last
// span is outside (it does not settle within the curve).
func (c BgCurve) BgSettle() (at float64, ok bool) {
	pre := c.Before()
	at = 0
	for i := len(c.Latency) - BgSettleSpan; i >= 0 && c.Cycle[i] > 0; i-- {
		var m float64
		for _, x := range c.Latency[i : i+BgSettleSpan] {
			m += x / BgSettleSpan
		}
		if m > BgSettleFactor*pre {
			if i == len(c.Latency)-BgSettleSpan {
				return c.Cycle[len(c.Cycle)-1], false
			}
			return c.Cycle[i], true
		}
	}
	return at, true
}

// mean is the curve's latency over the intervals that end in (w[0], w[1]]
// cycles from the start with packets, the mean of the intervals' means.
func (c BgCurve) mean(w [2]float64) (float64, error) {
	var s, n float64
	for i, x := range c.Cycle {
		if x > w[0] && x <= w[1] && c.Packets[i] > 0 {
			s += c.Latency[i]
			n++
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("no background packets in %g–%g cycles from the start", w[0], w[1])
	}
	return s / n, nil
}

// checkBackground reads a Settle or Ratio claim on a HOTSPOT's background
// latency per interval (metric BgLatency), whatever the steady-state
// verdict (a transient).
func (f Figure) checkBackground(o *sweep.Outcome) (Measured, error) {
	c := f.Claim
	m := Measured{Verdict: Transient}
	a, err := BackgroundCurve(o.Runs, c.Series, c.Load)
	if err != nil {
		return Measured{}, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	switch c.Kind {
	case Settle:
		at, ok := a.BgSettle()
		if !ok {
			m.Value = at
			m.Text = fmt.Sprintf("%s background latency (%.0f cycles before the start): not back within %g× within the record (> %.0f cycles after the start), claim [%g, %g]", c.Series, a.Before(), BgSettleFactor, at, c.Lo, c.Hi)
			return m, nil
		}
		m.Value, m.Pass = at, at >= c.Lo && at <= c.Hi
		m.Text = fmt.Sprintf("%s background latency back within %g× its %.0f cycles before the start %.0f cycles after it, claim [%g, %g]", c.Series, BgSettleFactor, a.Before(), at, c.Lo, c.Hi)
	case Ratio:
		b, err := BackgroundCurve(o.Runs, c.Over, c.Load)
		if err != nil {
			return Measured{}, fmt.Errorf("figure %s: %w", f.ID, err)
		}
		x, err := a.mean(c.Window)
		if err != nil {
			return Measured{}, fmt.Errorf("figure %s: %s: %w", f.ID, c.Series, err)
		}
		y, err := b.mean(c.Window)
		if err != nil || !(y > 0) {
			return Measured{}, fmt.Errorf("figure %s: %s: %v (mean %g)", f.ID, c.Over, err, y)
		}
		m.Value = x / y
		m.Pass = m.Value >= c.Lo && m.Value <= c.Hi
		m.Text = fmt.Sprintf("%s background latency %.4g ÷ %s's %.4g = %.3f over %g–%g cycles from the start, claim [%g, %g]", c.Series, x, c.Over, y, m.Value, c.Window[0], c.Window[1], c.Lo, c.Hi)
	default:
		return Measured{}, fmt.Errorf("figure %s: metric %s takes kind settle or ratio", f.ID, c.Metric)
	}
	return m, nil
}

// Replicated is the verdict of a claim read on independent replications:
// the point's runs are "too short" only because their batches stay
// correlated or miss sim.precision, which says that a run alone cannot
// give its own precision, not that its value is biased; the runs of
// different seeds are independent, so the spread of their values gives the
// claim's precision instead (Law, Simulation Modeling and Analysis, 5th
// ed., 2015, §9.5.2, the replication/deletion approach: one mean per run
// after the warm-up, a Student t interval on runs − 1 degrees of freedom).
// The claim then holds only if its whole 95% interval lies within the
// tolerance (engine/METHODS.md, "Independent replications").
const Replicated = "replicated"

// MinReplications is the fewest runs a replicated claim reads: with fewer
// the spread of the runs is too rough an estimate of their variance (with
// 5 the t quantile is 2.78).
const MinReplications = 5

// seriesRuns are the runs of series name at load, in the order of o.Runs.
func seriesRuns(o *sweep.Outcome, name string, load float64) []*result.Result {
	var out []*result.Result
	for _, r := range o.Runs {
		if r != nil && r.Config.Name == name && math.Abs(r.Offered-load) <= 1e-9 {
			out = append(out, r)
		}
	}
	return out
}

// replicable reports why runs cannot stand as independent replications
// ("" when they can): at least MinReplications runs, none deadlocked,
// saturated or unstable (their values would depend on the run's length),
// each with the 10 samples batch means need, and each either steady or too
// short only because its batches stay correlated or it misses
// sim.precision.
func replicable(runs []*result.Result) string {
	if len(runs) < MinReplications {
		return fmt.Sprintf("%d runs, fewer than the %d independent replications a too-short point needs", len(runs), MinReplications)
	}
	for _, r := range runs {
		q := r.Quality
		if q == nil {
			return "a run has no quality verdict"
		}
		switch {
		case r.Deadlock != nil:
			return fmt.Sprintf("seed %d stopped on a deadlock", r.Seed)
		case q.Verdict == result.Saturated || q.Verdict == result.Unstable:
			return fmt.Sprintf("seed %d is %s", r.Seed, q.Verdict)
		case q.Latency.Batches == 0 || q.Accepted.Batches == 0:
			return fmt.Sprintf("seed %d has fewer than 10 samples in its window", r.Seed)
		}
	}
	return ""
}

// runMetric is metric m of one run, as AggregateRuns averages it (NaN for
// a metric without a per-run value here, or a starved run's Max/Min).
func runMetric(m string, r *result.Result) float64 {
	switch m {
	case MaxMin:
		if r.Fairness.Starved > 0 {
			return math.NaN()
		}
		return r.Fairness.MaxMin
	case MinShare:
		return sweep.MinInjectionLoad(r) / r.Offered
	case Latency:
		return r.Latency.Avg
	case Accepted:
		return r.Accepted
	}
	return math.NaN()
}

// replicate reads a Band, Order or Ratio claim on the runs of its points
// as independent replications (verdict Replicated): Band, the t interval
// of the runs' values; Order and Ratio, of Series ÷ Over run by run, the
// runs paired by seed. why is not "" when the runs cannot be read so.
func (f Figure) replicate(o *sweep.Outcome) (m Measured, why string) {
	c := f.Claim
	a := seriesRuns(o, c.Series, c.Load)
	if why = replicable(a); why != "" {
		return m, c.Series + ": " + why
	}
	var xs []float64
	var name string
	_, name = metric(c.Metric, &sweep.Aggregate{})
	if c.Kind == Band {
		for _, r := range a {
			xs = append(xs, runMetric(c.Metric, r))
		}
	} else {
		b := seriesRuns(o, c.Over, c.Load)
		if why = replicable(b); why != "" {
			return m, c.Over + ": " + why
		}
		by := map[uint64]*result.Result{}
		for _, r := range b {
			by[r.Seed] = r
		}
		for _, r := range a {
			q := by[r.Seed]
			if q == nil {
				return m, fmt.Sprintf("%s has no run of seed %d to pair with %s's", c.Over, r.Seed, c.Series)
			}
			xs = append(xs, runMetric(c.Metric, r)/runMetric(c.Metric, q))
		}
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return m, fmt.Sprintf("%s has no value run by run in some run (a starved router, or a metric of the point only)", name)
		}
	}
	e := stats.Estimate95(xs)
	lo, hi := e.Mean-e.CI95, e.Mean+e.CI95
	m = Measured{Value: e.Mean, Verdict: Replicated, CI95: e.CI95, Seeds: len(xs)}
	reps := fmt.Sprintf("95%% interval over %d seeds as independent replications", len(xs))
	switch c.Kind {
	case Band:
		m.Pass = lo >= c.Lo && hi <= c.Hi
		m.Text = fmt.Sprintf("%s %s %.4f ± %.4f (%s) at offered %g, claim [%.4f, %.4f]", c.Series, name, e.Mean, e.CI95, reps, c.Load, c.Lo, c.Hi)
	case Ratio:
		m.Pass = lo >= c.Lo && hi <= c.Hi
		m.Text = fmt.Sprintf("%s ÷ %s %s %.3f ± %.3f (%s, paired by seed) at offered %g, claim [%.3f, %.3f]", c.Series, c.Over, name, e.Mean, e.CI95, reps, c.Load, c.Lo, c.Hi)
	case Order:
		m.Pass = lo >= c.Factor
		m.Text = fmt.Sprintf("%s ÷ %s %s %.3f ± %.3f (%s, paired by seed) at offered %g, claim ≥ %.2f", c.Series, c.Over, name, e.Mean, e.CI95, reps, c.Load, c.Factor)
	}
	return m, ""
}
