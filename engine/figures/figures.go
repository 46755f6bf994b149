// Package figures is the table of the seeds' figures phitsim reproduces: per
// figure its paper and claim, the scaled experiment of engine/sweep we run,
// and a check of the claim against the sweep's outcome. It is the single
// source for `phitsim figures`, the regression tests, engine/FIGURES.md and
// the page's gallery.
package figures

import (
	"fmt"
	"math"

	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// Claim kinds.
const (
	// Band: Series' accepted load at Load lies in [Lo, Hi] (a reference
	// line y = (Lo+Hi)/2 when the band is a value ± tolerance).
	Band = "band"
	// Order: Series' accepted load at Load is at least Factor × Over's.
	Order = "order"
)

// Metrics a claim reads on a sweep point.
const (
	Accepted = "" // accepted load, phits/(node·cycle)
	MaxMin   = "maxMin"
	MinShare = "minShare" // the least-injecting router's injection ÷ the offered load
)

// Claim is the checkable form of a figure's quantitative claim, read on a
// metric of the sweep's points (the accepted load unless Metric says).
type Claim struct {
	Kind   string
	Metric string
	Series string  // the series the claim is about (its name in the experiment)
	Load   float64 // the offered load where the claim is read
	Lo, Hi float64 // Band
	Over   string  // Order: the series Series must beat
	Factor float64 // Order: Series ≥ Factor × Over
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

// Table is the gallery, in reading order.
var Table = []Figure{
	{
		ID: "1.6-un", Title: "Valiant halves the throughput under uniform traffic",
		Paper:      "P. Fuentes, PhD thesis on Dragonflies, §1.4 and §1.6.1.1",
		Shows:      "Under uniform traffic minimal routing is optimal and Valiant's detours halve the throughput.",
		ClaimText:  "Valiant (two global hops per packet) saturates below half the capacity: FOGSim h=4 0.40; we accept [0.36, 0.50] at offered 0.9.",
		Claim:      Claim{Kind: Band, Series: "VAL", Load: 0.9, Lo: 0.36, Hi: 0.50},
		Experiment: "fig-1.6-un", Scaled: "h=2 (72 nodes) instead of h=8, 3,000 + 8,000 cycles, one seed: the bound does not depend on h and a browser runs it in seconds.",
	},
	{
		ID: "1.6-un-order", Title: "MIN beats VAL under uniform traffic",
		Paper:      "P. Fuentes, PhD thesis on Dragonflies, §1.4.1",
		Shows:      "Minimal routing accepts far more than Valiant under uniform traffic.",
		ClaimText:  "MIN saturates well above VAL under UN (thesis h=8: MIN ≈ 0.8, VAL ≈ 0.45); we require MIN ≥ 1.3 × VAL at offered 0.9.",
		Claim:      Claim{Kind: Order, Series: "MIN", Over: "VAL", Load: 0.9, Factor: 1.3},
		Experiment: "fig-1.6-un", Scaled: "h=2 (72 nodes), 3,000 + 8,000 cycles, one seed: the order does not depend on h.",
	},
	{
		ID: "1.6-adv1", Title: "MIN caps at 1/(a·p) under ADV+1",
		Paper:      "P. Fuentes, PhD thesis on Dragonflies, §1.6.1.2",
		Shows:      "Under ADV+1 every packet of a group crosses the one global link to the next group, so minimal routing saturates at 1/(a·p).",
		ClaimText:  "MIN saturates at 1/(a·p) = 1/(2h²): 0.0078 at h=8, 0.125 at h=2; we accept 0.125 ± 5% at offered 0.3.",
		Claim:      Claim{Kind: Band, Series: "MIN", Load: 0.3, Lo: 0.125 * 0.95, Hi: 0.125 * 1.05},
		Experiment: "fig-1.6-adv1", Scaled: "h=2 (72 nodes), where 1/(a·p) = 0.125 is visible on a linear axis (0.0078 at h=8 is not); 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "1.6-adv1-val", Title: "Valiant spreads ADV+1",
		Paper:      "P. Fuentes, PhD thesis on Dragonflies, §1.4.1.2 and §1.6.1.2",
		Shows:      "Valiant sends every packet through a random intermediate group, so ADV+1 no longer funnels into one link.",
		ClaimText:  "VAL reaches about 0.40 under ADV+1 (FOGSim h=4); we accept [0.36, 0.50] at offered 0.8.",
		Claim:      Claim{Kind: Band, Series: "VAL", Load: 0.8, Lo: 0.36, Hi: 0.50},
		Experiment: "fig-1.6-adv1", Scaled: "h=2 (72 nodes), 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "1.19", Title: "Valiant to a group collapses under ADV+h",
		Paper:      "P. Fuentes, PhD thesis on Dragonflies, §1.6.1.2, Fig. 1.19",
		Shows:      "With palm-tree wiring, Valiant to a group funnels each intermediate group's transit through one local link under ADV+h.",
		ClaimText:  "VAL_GROUP saturates near 1/h under ADV+h (FOGSim h=4: 0.18–0.19, bound 0.25); we accept [0.15, 0.25] at h=4, offered 0.5.",
		Claim:      Claim{Kind: Band, Series: "VAL_GROUP", Load: 0.5, Lo: 0.15, Hi: 0.25},
		Experiment: "fig-1.19", Scaled: "h=4 (1,056 nodes) instead of h=8: at h=2 the bound 1/h = 0.5 is VAL's own limit and shows nothing; 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "1.19-val", Title: "Valiant to a router keeps ADV+h",
		Paper:      "P. Fuentes, PhD thesis on Dragonflies, §1.6.1.2, Fig. 1.19",
		Shows:      "Valiant to a router does not need the funnelled local link and keeps its throughput under ADV+h.",
		ClaimText:  "VAL stays near 0.40 under ADV+h while VAL_GROUP collapses; we require VAL ≥ 1.6 × VAL_GROUP at h=4, offered 0.5.",
		Claim:      Claim{Kind: Order, Series: "VAL", Over: "VAL_GROUP", Load: 0.5, Factor: 1.6},
		Experiment: "fig-1.19", Scaled: "h=4 (1,056 nodes), 3,000 + 8,000 cycles, one seed.",
	},
	{
		ID: "1.6-advc", Title: "MIN plateaus below h/(a·p) under ADVc",
		Paper:      "P. Fuentes, PhD thesis on Dragonflies, §1.6.1.2 and §3.1.3.1",
		Shows:      "Under ADVc every group sends to the h groups wired to its router a−1, so minimal routing uses only h global links per group.",
		ClaimText:  "MIN plateaus just below h/(a·p) = 1/(2h): 0.25 at h=2; we accept [0.85, 1.01] × 0.25 at offered 0.5.",
		Claim:      Claim{Kind: Band, Series: "MIN", Load: 0.5, Lo: 0.25 * 0.85, Hi: 0.25 * 1.01},
		Experiment: "fig-1.6-advc", Scaled: "h=2 (72 nodes), 3,000 + 8,000 cycles, one seed: h/(a·p) scales as 1/(2h).",
	},
	{
		ID: "3.1", Title: "In-transit priority starves router a−1 under ADVc",
		Paper:     "P. Fuentes, PhD thesis on Dragonflies, §3.3.1, Table 3.1",
		Shows:     "With round-robin arbiters that favour transit traffic, the router holding the ADVc hot links barely injects under in-transit adaptive routing.",
		ClaimText: "In-Trns-MM's least-injecting router gets about 2% of the offered load at 0.40 (Max/Min 79.7, h=8); we accept at most 8% of offered.",
		Claim:     Claim{Kind: Band, Metric: MinShare, Series: "In-Trns-MM", Load: 0.4, Lo: 0, Hi: 0.08},
		Long:      true, Experiment: "fig-3.1", Scaled: "h=4 (1,056 nodes) instead of h=8, 4,000 + 16,000 cycles, 2 seeds at 0.40 and 0.55, the table's MIN, Obl-CRG and In-Trns-MM rows: a browser cannot run h=8 (minutes per point).",
	},
	{
		ID: "3.2", Title: "Without priority in-transit stays moderately unfair",
		Paper:     "P. Fuentes, PhD thesis on Dragonflies, §3.3.3, Table 3.2",
		Shows:     "Round-robin arbiters without transit priority remove the starvation but leave router a−1 about 30% behind.",
		ClaimText: "In-Trns-MM Max/Min 1.551 at 0.40 (h=8); we accept [1.2, 2.0].",
		Claim:     Claim{Kind: Band, Metric: MaxMin, Series: "In-Trns-MM", Load: 0.4, Lo: 1.2, Hi: 2.0},
		Known:     "at h=4 In-Trns-MM saturates near 0.39, so its 0.40 point sits at the knee: its batches stay correlated over 16,000 cycles (verdict too short) and the gallery does not read it, though the value (Max/Min 1.36) lies in the band",
		Long:      true, Experiment: "fig-3.2", Scaled: "h=4 (1,056 nodes), 4,000 + 16,000 cycles, 2 seeds: Max/Min keeps a sampling floor near 1.11 at this length (the thesis ran 60,000 cycles).",
	},
	{
		ID: "3.3", Title: "Age arbitration makes in-transit fair",
		Paper:     "P. Fuentes, PhD thesis on Dragonflies, §3.3.4, Table 3.3",
		Shows:     "Arbitrating by packet age at both allocator stages makes in-transit adaptive routing as fair as oblivious routing.",
		ClaimText: "In-Trns-MM Max/Min 1.050 at 0.40 (h=8); we accept [1.0, 1.2] (the sampling floor of 16,000 cycles is about 1.11).",
		Claim:     Claim{Kind: Band, Metric: MaxMin, Series: "In-Trns-MM", Load: 0.4, Lo: 1.0, Hi: 1.2},
		Known:     "at h=4 In-Trns-MM saturates near 0.39, so its 0.40 point sits at the knee: its batches stay correlated over 16,000 cycles (verdict too short) and the gallery does not read it, though the value (Max/Min 1.11) lies in the band",
		Long:      true, Experiment: "fig-3.3", Scaled: "h=4 (1,056 nodes), 4,000 + 16,000 cycles, 2 seeds.",
	},
	{
		ID: "acor-6", Title: "ACOR-Packet under ADV+h: 2LB ahead",
		Paper:     "M. Benito et al., ACOR: Adaptive Congestion-Oblivious Routing in Dragonfly Networks, §6.1, Fig. 6d",
		Shows:     "Per-packet ACOR waits for congestion to reach the source, so under ADV+h the all-to-router sequence 2LB does better than 2LA and 3L.",
		ClaimText: "2LB outperforms 2LA and 3L in throughput under ADV+h (no number given); we require 2LB ≥ 1.02 × 2LA at offered 0.6, where every series saturates.",
		Claim:     Claim{Kind: Order, Series: "ACOR-2LB", Over: "ACOR-2LA", Load: 0.6, Factor: 1.02},
		Long:      true, Experiment: "fig-acor-6", Scaled: "1,056 hosts (h=4) as the paper's first network with its Table 3 timing, 3,000 + 8,000 cycles, one seed, loads 0.1/0.3/0.6 (at 0.5 VAL and 2LB run just past saturation, where queues grow: unstable).",
	},
	{
		ID: "acor-7", Title: "ACOR-Switch under ADV+h: every sequence competitive",
		Paper:     "M. Benito et al., ACOR: Adaptive Congestion-Oblivious Routing in Dragonfly Networks, §6.2, Fig. 7d",
		Shows:     "Per-switch ACOR levels react to local congestion, so under ADV+h every sequence reaches Valiant's throughput.",
		ClaimText: "All ACOR-Switch sequences are competitive under ADV+h (no number given); we require 2LA ≥ 0.9 × VAL at offered 0.6, where every series saturates.",
		Claim:     Claim{Kind: Order, Series: "ACOR-2LA", Over: "VAL", Load: 0.6, Factor: 0.9},
		Long:      true, Experiment: "fig-acor-7", Scaled: "1,056 hosts (h=4) with the paper's Table 3 timing, 3,000 + 8,000 cycles, one seed, loads 0.1/0.3/0.6.",
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

// Browser speed assumed by EstimateSeconds: instructions per second of the
// WebAssembly build on one worker (about half a native core of ~2 G/s).
const BrowserInstrPerSecond = 1e9

// InstrPerHop: the callgrind instructions per packet-hop of BENCHMARKS.md,
// rounded up over MIN…OLM (1,529–1,878 on main).
const InstrPerHop = 1900

// EstimateSeconds is the figure's run time in a browser with one worker:
// packet-hops × InstrPerHop / BrowserInstrPerSecond, where packet-hops =
// nodes × min(offered load, 1) / packet size × cycles × hops per packet
// (5, Valiant's path; MIN's is 3, so this is an upper bound on the hops),
// summed over series, loads and seeds. Idle cycles are not counted.
func (f Figure) EstimateSeconds() (float64, error) {
	e, err := f.Sweep()
	if err != nil {
		return 0, err
	}
	jobs, err := e.Spec.Jobs()
	if err != nil {
		return 0, err
	}
	var hops float64
	for _, j := range jobs {
		c := j.Config
		t := c.Topology
		nodes := float64(t.P * t.A * (t.A*t.H + 1))
		hops += nodes * math.Min(c.Traffic.Load, 1) / float64(c.Router.PacketSize) * float64(c.Sim.Warmup+c.Sim.Cycles) * 5
	}
	return hops * InstrPerHop / BrowserInstrPerSecond, nil
}

// Measured is a claim read on an outcome.
type Measured struct {
	Value   float64 // Band: the accepted load; Order: Series ÷ Over
	Pass    bool
	Verdict string // the quality verdict of the point(s) read
	Text    string
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
	}
	return p.Accepted.Mean, "accepted"
}

// Check reads the claim on the outcome of the figure's experiment.
func (f Figure) Check(o *sweep.Outcome) (Measured, error) {
	c := f.Claim
	p, err := point(o, c.Series, c.Load)
	if err != nil {
		return Measured{}, err
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
		m.Pass = m.Value >= c.Lo && m.Value <= c.Hi
		m.Text = fmt.Sprintf("%s %s %.4f at offered %g, claim [%.4f, %.4f]", c.Series, name, m.Value, c.Load, c.Lo, c.Hi)
	case Order:
		q, err := point(o, c.Over, c.Load)
		if err != nil {
			return Measured{}, err
		}
		if v := verdict(q); !usable(v) {
			m.Verdict, reason = v, q.Quality.Reason
		}
		a, name := metric(c.Metric, p)
		b, _ := metric(c.Metric, q)
		if b <= 0 {
			return Measured{}, fmt.Errorf("%s's %s is %g at %g", c.Over, name, b, c.Load)
		}
		m.Value = a / b
		m.Pass = m.Value >= c.Factor
		m.Text = fmt.Sprintf("%s %s %.4f ÷ %s's %.4f = %.2f at offered %g, claim ≥ %.2f", c.Series, name, a, c.Over, b, m.Value, c.Load, c.Factor)
	default:
		return Measured{}, fmt.Errorf("figure %s: unknown claim kind %q", f.ID, c.Kind)
	}
	if !usable(m.Verdict) {
		m.Pass = false
		m.Text += fmt.Sprintf(" (point %s: %s)", m.Verdict, reason)
	}
	return m, nil
}
