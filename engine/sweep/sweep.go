// Package sweep runs experiments of many points: several configurations
// (series) × offered loads × seeds, in parallel, and averages the seeds of a
// point with 95% confidence intervals. The CLI runs jobs on goroutines; the
// browser runs the same jobs on Web Workers and aggregates with Aggregate.
package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/engine/stats"
)

// Spec of a sweep. Each series is a full configuration; its traffic.load is
// replaced by each load; seeds run sim.seed, sim.seed+1, … (sim.seeds of them).
// With Param set, the swept parameter is that one (any numeric parameter
// path, e.g. workload.tq or workload.linkGbps) over Values, and Loads is
// ignored. Tied parameters move with the swept one. Sweeping topology.h
// sweeps the network size: a balanced Dragonfly (a = 2h, p = h) stays
// balanced (see Apply).
type Spec struct {
	Series []config.Config `json:"series" msgpack:"series"`
	Loads  []float64       `json:"loads" msgpack:"loads"`
	Param  string          `json:"param,omitempty" msgpack:"param,omitempty"`
	Values []float64       `json:"values,omitempty" msgpack:"values,omitempty"`
	Tied   []Tie           `json:"tied,omitempty" msgpack:"tied,omitempty"`
}

// Tie sets a numeric parameter with the swept variable x: Path = Offset +
// Scale·x. Coupled parameters sweep together, e.g. a share and its
// complement (traffic.mixUN = 100 − traffic.mixADV: thesis Fig. 4.7's mix
// of UN and ADV+1, whose shares must add up to 100).
//
// With Per set, the value is divided by that parameter of the series (an
// integer parameter takes the quotient rounded down), so that one swept
// quantity becomes a different setting per series: thesis Figs. 5.8 and
// 5.15 keep the memory per port constant, so the per-VC buffer is the
// port's memory ÷ the series' VCs (router.localBuffer = x / router.localVCs).
// Such a tie may re-set the swept parameter itself: x is then the quantity
// before the division.
type Tie struct {
	Path   string  `json:"path" msgpack:"path"`
	Offset float64 `json:"offset" msgpack:"offset"`
	Scale  float64 `json:"scale" msgpack:"scale"`
	Per    string  `json:"per,omitempty" msgpack:"per,omitempty"`
}

// Value of the tied parameter at x (before any division by Per).
func (t Tie) Value(x float64) float64 { return t.Offset + t.Scale*x }

// valueIn is the tie's value at x in configuration c: Value divided by c's
// parameter Per when set.
func (t Tie) valueIn(c *config.Config, x float64) (float64, error) {
	v := t.Value(x)
	if t.Per == "" {
		return v, nil
	}
	p, ok := config.Lookup(t.Per)
	if !ok {
		return 0, fmt.Errorf("sweep: tied %s per %q: not a parameter (see 'phitsim params')", t.Path, t.Per)
	}
	d, err := strconv.ParseFloat(p.Format(c), 64)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("sweep: tied %s per %s: %s = %q, want a positive number", t.Path, t.Per, t.Per, p.Format(c))
	}
	v /= d
	if q, ok := config.Lookup(t.Path); ok && (q.Kind == "int" || q.Kind == "uint") {
		v = math.Floor(v + 1e-9)
	}
	return v, nil
}

// Xs are the values of the swept variable: Values of Param, or the loads.
func (sp Spec) Xs() []float64 {
	if sp.Param != "" {
		return sp.Values
	}
	return sp.Loads
}

// x is the swept variable's value of a job.
func (sp Spec) x(j Job) float64 {
	if xs := sp.Xs(); j.Point < len(xs) {
		return xs[j.Point]
	}
	return j.Config.Traffic.Load
}

// XName is the swept parameter's path.
func (sp Spec) XName() string {
	if sp.Param != "" {
		return sp.Param
	}
	return "traffic.load"
}

// Apply sets the swept variable of c to x, and the tied parameters. Swept, topology.h is the size of
// the network: when c is a balanced Dragonfly (a = 2h, p = h, the thesis's
// sizing, §1.2.1) a and p follow h, so that a size sweep compares balanced
// networks (the thesis's Figs. 3.10 and 3.13, h = 2…8); otherwise only h
// changes. Apply c as the series declares it, not one already applied.
func (sp Spec) Apply(c *config.Config, x float64) error {
	if err := sp.apply(c, sp.Param, x); err != nil {
		return err
	}
	for _, t := range sp.Tied {
		if t.Path == "" || (t.Path == sp.XName() && t.Per == "") {
			return fmt.Errorf("sweep: a tied parameter must be another parameter than the swept %s, not %q", sp.XName(), t.Path)
		}
		v, err := t.valueIn(c, x)
		if err == nil {
			err = sp.apply(c, t.Path, v)
		}
		if err != nil {
			per := ""
			if t.Per != "" {
				per = " ÷ " + t.Per
			}
			return fmt.Errorf("sweep: tied %s = (%g + %g·x)%s at x = %g: %w", t.Path, t.Offset, t.Scale, per, x, err)
		}
	}
	return nil
}

func (sp Spec) apply(c *config.Config, path string, x float64) error {
	if path == "" {
		c.Traffic.Load = x
		return nil
	}
	p, ok := config.Lookup(path)
	if !ok || (p.Kind != "int" && p.Kind != "uint" && p.Kind != "float") {
		return fmt.Errorf("sweep: %q is not a numeric parameter (see 'phitsim params')", path)
	}
	if err := p.Sweepable(); err != nil {
		return fmt.Errorf("sweep: %s: %w", path, err)
	}
	t := c.Topology
	balanced := path == "topology.h" && t.Kind == "dragonfly" && t.A == 2*t.H && t.P == t.H
	if err := p.SetString(c, strconv.FormatFloat(x, 'g', -1, 64)); err != nil {
		return err
	}
	if balanced {
		c.Topology.A, c.Topology.P = 2*c.Topology.H, c.Topology.H
	}
	return nil
}

// NotAppliedError is a swept parameter that does not apply to a series
// (its "when" condition does not hold there, e.g. workload.tq on synthetic
// traffic): every point of that series would be the same run, a flat and
// meaningless curve.
type NotAppliedError struct {
	Series int    // from 0
	Name   string // the series' name, or its routing
	Param  string
	When   string // the condition, as config.Param.WhenText words it
}

func (e *NotAppliedError) Error() string {
	return fmt.Sprintf("%s does not apply to series %d (%s) (it applies when %s)", e.Param, e.Series+1, e.Name, e.When)
}

// NotApplied lists the series the swept parameter does not apply to (none
// for a load sweep: the load always applies).
func (sp Spec) NotApplied() []*NotAppliedError {
	p, ok := config.Lookup(sp.Param)
	if sp.Param == "" || !ok {
		return nil
	}
	var out []*NotAppliedError
	for i := range sp.Series {
		if c := &sp.Series[i]; !p.Applies(c) {
			name := c.Name
			if name == "" {
				name = c.Routing.Name
			}
			out = append(out, &NotAppliedError{Series: i, Name: name, Param: p.Path, When: p.WhenText()})
		}
	}
	return out
}

// Job is one run.
type Job struct {
	Series, Point, Run int
	Config             config.Config
	Seed               uint64
}

// TotalCycles is the number of cycles all jobs simulate.
func TotalCycles(jobs []Job) int64 {
	var n int64
	for _, j := range jobs {
		n += sim.EstimatedCycles(&j.Config)
	}
	return n
}

// MaxRuns bounds a sweep's runs (series × values × seeds): each job holds its
// configuration (about 2 KiB) and every finished run is kept, in a browser
// tab as in the CLI, which refuses what the page refuses.
const MaxRuns = 20000

// Runs counts the spec's runs (series × values × each point's seeds) without
// building them; past MaxRuns points it stops counting seeds, as every point
// runs at least one.
func (sp Spec) Runs() int {
	xs := sp.Xs()
	if len(sp.Series) > MaxRuns || len(xs) > MaxRuns || len(sp.Series)*len(xs) > MaxRuns {
		return len(sp.Series) * len(xs)
	}
	n := 0
	for _, s := range sp.Series {
		for _, x := range xs {
			c := s
			if sp.Apply(&c, x) != nil {
				c = s
			}
			n += max(c.Sim.Seeds, 1)
		}
	}
	return n
}

// Jobs expands a spec, in the order series, load, seed.
func (sp Spec) Jobs() ([]Job, error) {
	if len(sp.Series) == 0 {
		return nil, errors.New("sweep: no configuration")
	}
	if len(sp.Xs()) == 0 {
		if sp.Param != "" {
			return nil, errors.New("sweep: no value of " + sp.Param)
		}
		return nil, errors.New("sweep: no load")
	}
	// each run holds its configuration: count them before building any
	if n := sp.Runs(); n > MaxRuns {
		return nil, fmt.Errorf("sweep: %d series × %d values × their seeds make %d runs; at most %d (fewer seeds, values or series)",
			len(sp.Series), len(sp.Xs()), n, MaxRuns)
	}
	if na := sp.NotApplied(); len(na) > 0 {
		errs := make([]error, len(na))
		for i, e := range na {
			errs[i] = e
		}
		return nil, errors.Join(errs...)
	}
	var points []Job // one per point, Run 0
	for si := range sp.Series {
		for li, l := range sp.Xs() {
			c := sp.Series[si]
			if err := sp.Apply(&c, l); err != nil {
				return nil, err
			}
			if errs := c.Validate(); len(errs) > 0 {
				return nil, fmt.Errorf("series %d (%s), %s %g: %w", si+1, c.Name, sp.XName(), l, errs)
			}
			points = append(points, Job{Series: si, Point: li, Config: c})
		}
	}
	// every finished run is kept: refuse before running what cannot be
	if err := sp.CheckResults(); err != nil {
		return nil, err
	}
	var jobs []Job
	for _, p := range points {
		for k := 0; k < p.Config.Sim.Seeds; k++ {
			p.Run, p.Seed = k, p.Config.Sim.Seed+uint64(k)
			jobs = append(jobs, p)
		}
	}
	return jobs, nil
}

// Aggregate is the mean over the seeds of a point.
type Aggregate struct {
	Series     int            `json:"series" msgpack:"series"`
	Name       string         `json:"name" msgpack:"name"`
	Offered    float64        `json:"offered" msgpack:"offered"`
	Applied    stats.Estimate `json:"applied" msgpack:"applied"`
	Accepted   stats.Estimate `json:"accepted" msgpack:"accepted"`
	Latency    stats.Estimate `json:"latency" msgpack:"latency"`
	InjLatency stats.Estimate `json:"injLatency" msgpack:"injLatency"`
	NetLatency stats.Estimate `json:"netLatency" msgpack:"netLatency"`
	Hops       stats.Estimate `json:"hops" msgpack:"hops"`
	Misrouted  stats.Estimate `json:"misrouted" msgpack:"misrouted"` // fraction of delivered packets
	MaxMin     stats.Estimate `json:"maxMin" msgpack:"maxMin"`       // over runs with no starved router
	CoV        stats.Estimate `json:"cov" msgpack:"cov"`
	Jain       stats.Estimate `json:"jain" msgpack:"jain"`
	MinInj     stats.Estimate `json:"minInjection" msgpack:"minInjection"` // min per-router injection, phits/node/cycle
	Starved    bool           `json:"starved" msgpack:"starved"`           // some run had a router that injected nothing
	// Deadlocked counts the runs that stopped on a deadlock (result.Deadlock;
	// their metrics are those up to it).
	Deadlocked int `json:"deadlocked,omitempty" msgpack:"deadlocked,omitempty"`
	// Starvations counts those of them whose stuck heads were starved, not
	// deadlocked (result.Deadlock.Reason "starvation": the outputs they wait
	// for keep moving).
	Starvations int    `json:"starvations,omitempty" msgpack:"starvations,omitempty"`
	Saturated   bool   `json:"saturated" msgpack:"saturated"`
	SatReason   string `json:"satReason,omitempty" msgpack:"satReason"`
	Runs        int    `json:"runs" msgpack:"runs"`
	// The swept variable of a parameter sweep (Spec.Param), set by Collect.
	Param string  `json:"param,omitempty" msgpack:"param,omitempty"`
	X     float64 `json:"x,omitempty" msgpack:"x,omitempty"`
	// Request-reply traffic (traffic.reactive): the accepted load of requests
	// and of replies (they add up to Accepted); nil for other traffic.
	RequestAccepted *stats.Estimate `json:"requestAccepted,omitempty" msgpack:"requestAccepted,omitempty"`
	ReplyAccepted   *stats.Estimate `json:"replyAccepted,omitempty" msgpack:"replyAccepted,omitempty"`
	// Graph500 runs: the means over the seeds.
	Graph500 *Graph500Aggregate `json:"graph500,omitempty" msgpack:"graph500,omitempty"`
	// HOTSPOT runs: its classes over the seeds (result.HotspotClasses).
	Hotspot *HotspotAggregate `json:"hotspot,omitempty" msgpack:"hotspot,omitempty"`
	// SRP runs (congestion.scheme=srp): result.mechanisms.srp's shares over
	// the seeds; Groups: a pattern's traffic classes (UR1UR2, result.groups).
	SRP    *SRPAggregate    `json:"srp,omitempty" msgpack:"srp,omitempty"`
	Groups []GroupAggregate `json:"groups,omitempty" msgpack:"groups,omitempty"`
	// Quality: the point's verdict, tail latency and intervals within the
	// runs (stats.AssessPoint; each run's own is in its Quality).
	Quality *result.PointQuality `json:"quality,omitempty" msgpack:"quality,omitempty"`
}

// SRPAggregate: the share of packets sent speculatively and the share of
// those dropped (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §V: Figs. 5b, 8c).
type SRPAggregate struct {
	Speculative stats.Estimate `json:"speculative" msgpack:"speculative"`
	Dropped     stats.Estimate `json:"dropped" msgpack:"dropped"`
}

// GroupAggregate is one traffic class of a pattern over the runs.
type GroupAggregate struct {
	Name     string         `json:"name" msgpack:"name"`
	Accepted stats.Estimate `json:"accepted" msgpack:"accepted"`
	Latency  stats.Estimate `json:"latency" msgpack:"latency"`
}

// HotspotAggregate is HOTSPOT's classes over the runs of a point: the
// background's loads and latency (what Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §V-A plot), the hotspot's
// accepted load and latency, and the mean bandwidth of each sender.
type HotspotAggregate struct {
	Applied        stats.Estimate `json:"applied" msgpack:"applied"`         // background, phits/(node·cycle)
	Accepted       stats.Estimate `json:"accepted" msgpack:"accepted"`       // background
	Latency        stats.Estimate `json:"latency" msgpack:"latency"`         // background
	HotAccepted    stats.Estimate `json:"hotAccepted" msgpack:"hotAccepted"` // phits/cycle at the hotspot
	HotLatency     stats.Estimate `json:"hotLatency" msgpack:"hotLatency"`
	Node           int32          `json:"node" msgpack:"node"`                     // the hotspot, the first run's (a fixed set)
	Senders        []int32        `json:"senders" msgpack:"senders"`               // the first run's
	SenderAccepted []float64      `json:"senderAccepted" msgpack:"senderAccepted"` // means over the runs
}

// Graph500Aggregate is the mean of the Graph500 metrics over the runs of a point.
type Graph500Aggregate struct {
	Seconds  stats.Estimate `json:"seconds" msgpack:"seconds"` // execution time
	Cycles   stats.Estimate `json:"cycles" msgpack:"cycles"`
	Usage    stats.Estimate `json:"usage" msgpack:"usage"` // phits/(process·cycle)
	TEPS     stats.Estimate `json:"teps" msgpack:"teps"`
	Finished bool           `json:"finished" msgpack:"finished"` // every run finished its BFS
	// PacketLatency: the job's packets' mean latency (cycles), its own
	// class beside the synthetic traffic of the other nodes
	PacketLatency stats.Estimate `json:"packetLatency" msgpack:"packetLatency"`
}

// AggregateRuns averages the runs of one point.
func AggregateRuns(series int, runs []*result.Result) Aggregate {
	a := Aggregate{Series: series, Runs: len(runs)}
	if len(runs) == 0 {
		return a
	}
	a.Name, a.Offered = runs[0].Config.Name, runs[0].Offered
	col := func(f func(*result.Result) float64) stats.Estimate {
		xs := make([]float64, 0, len(runs))
		for _, r := range runs {
			xs = append(xs, f(r))
		}
		return stats.Estimate95(xs)
	}
	a.Applied = col(func(r *result.Result) float64 { return r.Applied })
	a.Accepted = col(func(r *result.Result) float64 { return r.Accepted })
	a.Latency = col(func(r *result.Result) float64 { return r.Latency.Avg })
	a.InjLatency = col(func(r *result.Result) float64 { return r.InjLatency })
	a.NetLatency = col(func(r *result.Result) float64 { return r.NetLatency })
	a.Hops = col(func(r *result.Result) float64 { return r.Hops.Avg })
	a.Misrouted = col(func(r *result.Result) float64 { return r.Misrouted.Fraction })
	a.CoV = col(func(r *result.Result) float64 { return r.Fairness.CoV })
	a.Jain = col(func(r *result.Result) float64 { return r.Fairness.Jain })
	a.MinInj = col(func(r *result.Result) float64 { return MinInjectionLoad(r) })
	if runs[0].Config.Traffic.Reactive {
		req := col(func(r *result.Result) float64 { return r.RequestAccepted })
		rep := col(func(r *result.Result) float64 { return r.ReplyAccepted })
		a.RequestAccepted, a.ReplyAccepted = &req, &rep
	}
	var mm []float64
	for _, r := range runs {
		if r.Fairness.Starved > 0 {
			a.Starved = true
		} else {
			mm = append(mm, r.Fairness.MaxMin)
		}
		if r.Deadlock != nil {
			a.Deadlocked++
			if r.Deadlock.Reason == "starvation" {
				a.Starvations++
			}
		}
		if r.Saturated && !a.Saturated {
			a.Saturated, a.SatReason = true, r.SatReason
		}
	}
	a.MaxMin = stats.Estimate95(mm)
	if runs[0].Graph500 != nil {
		g := &Graph500Aggregate{Finished: true}
		g.Seconds = col(func(r *result.Result) float64 { return r.Graph500.Seconds })
		g.Cycles = col(func(r *result.Result) float64 { return float64(r.Graph500.Cycles) })
		g.Usage = col(func(r *result.Result) float64 { return r.Graph500.Usage })
		g.TEPS = col(func(r *result.Result) float64 { return r.Graph500.TEPS })
		g.PacketLatency = col(func(r *result.Result) float64 { return r.Graph500.PacketLatency })
		for _, r := range runs {
			g.Finished = g.Finished && r.Graph500.Finished
		}
		a.Graph500 = g
	}
	if runs[0].Hotspot != nil {
		a.Hotspot = aggregateHotspot(runs, col)
	}
	if runs[0].Mechanisms["srp"] != nil {
		a.SRP = &SRPAggregate{
			Speculative: col(func(r *result.Result) float64 { return r.Mechanisms["srp"]["speculativeShare"] }),
			Dropped:     col(func(r *result.Result) float64 { return r.Mechanisms["srp"]["droppedShare"] })}
	}
	for i, g := range runs[0].Groups {
		a.Groups = append(a.Groups, GroupAggregate{Name: g.Name,
			Accepted: col(func(r *result.Result) float64 { return r.Groups[i].Class.Accepted }),
			Latency:  col(func(r *result.Result) float64 { return r.Groups[i].Class.Latency.Avg })})
	}
	a.Quality = stats.AssessPoint(runs)
	return a
}

// aggregateHotspot: HOTSPOT's classes over runs that all report them.
func aggregateHotspot(runs []*result.Result, col func(func(*result.Result) float64) stats.Estimate) *HotspotAggregate {
	h := &HotspotAggregate{Node: runs[0].Hotspot.Node, Senders: runs[0].Hotspot.Senders}
	h.Applied = col(func(r *result.Result) float64 { return r.Hotspot.Background.Applied })
	h.Accepted = col(func(r *result.Result) float64 { return r.Hotspot.Background.Accepted })
	h.Latency = col(func(r *result.Result) float64 { return r.Hotspot.Background.Latency.Avg })
	h.HotAccepted = col(func(r *result.Result) float64 { return r.Hotspot.Hotspot.Accepted })
	h.HotLatency = col(func(r *result.Result) float64 { return r.Hotspot.Hotspot.Latency.Avg })
	h.SenderAccepted = make([]float64, len(h.Senders))
	for _, r := range runs {
		for i, x := range r.Hotspot.SenderAccepted {
			if i < len(h.SenderAccepted) {
				h.SenderAccepted[i] += x / float64(len(runs))
			}
		}
	}
	return h
}

// MinInjectionLoad is the lowest per-router injection in phits/(node·cycle):
// packets·PacketSize/(p·measured cycles) (thesis §1.5.1).
func MinInjectionLoad(r *result.Result) float64 {
	c := r.Config
	cycles := int64(c.Sim.Cycles)
	if q := r.Quality; q != nil && c.Sim.Precision > 0 {
		cycles = q.Cycles // sim.precision measured longer
	}
	if cycles == 0 || c.Topology.P == 0 {
		return 0
	}
	return float64(r.Fairness.Min*int64(c.Router.PacketSize)) / float64(int64(c.Topology.P)*cycles)
}

// Outcome of a sweep: every finished run, and the points' aggregates (in
// series, load order; points with no finished run are left out).
type Outcome struct {
	Spec   Spec             `json:"spec" msgpack:"spec"`
	Points []Aggregate      `json:"points" msgpack:"points"`
	Runs   []*result.Result `json:"runs" msgpack:"runs"`
	// Transients: the pooled transient records of the points whose runs
	// switch pattern (traffic.switchCycle), in the same order as Points.
	Transients []Transient `json:"transients,omitempty" msgpack:"transients,omitempty"`
}

// Options of Run.
type Options struct {
	Workers int // goroutines; 0 = all cores
	// Threads: goroutines per run (sim.Sim.SetThreads; ≤ 1: one, unless
	// Cores is set); the results do not depend on it
	Threads int
	// Cores, if set, are shared between the runs and their threads as the
	// runs start (Cores type): with Threads 0, a run started when fewer runs
	// are left to start than cores are free takes the free cores as
	// threads — the tail of the sweep and each sim.precision round
	Cores int
	// OnRun is called after each finished run (one call at a time) with the
	// number of runs done and the total.
	OnRun func(done, total int, j Job, r *result.Result)
	// OnCycles is called (concurrently) as runs advance, with simulated cycles.
	OnCycles func(delta int64)
}

// Run executes the spec. A cancelled context stops the remaining jobs and the
// running ones; the outcome then holds what finished, with ctx.Err().
func Run(ctx context.Context, sp Spec, opt Options) (*Outcome, error) {
	jobs, err := sp.Jobs()
	if err != nil {
		return nil, err
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]*result.Result, len(jobs))
	firstErr := runJobs(ctx, sp, jobs, results, 0, workers, opt)
	out := Collect(sp, jobs, results)
	// sim.precision per point: a point whose runs combined miss it takes
	// more seeds, up to sim.maxSeeds (engine/METHODS.md); a run kept with
	// its deadlock does not stop the other points (the plan runner, which
	// decides point by point, would go on too)
	for (firstErr == nil || isDeadlock(firstErr)) && ctx.Err() == nil {
		extra := moreSeeds(jobs, results)
		if len(extra) == 0 {
			break
		}
		from := len(jobs)
		jobs = append(jobs, extra...)
		results = append(results, make([]*result.Result, len(extra))...)
		if err := runJobs(ctx, sp, jobs, results, from, workers, opt); firstErr == nil {
			firstErr = err
		}
		SortJobs(jobs, results)
		out = Collect(sp, jobs, results)
	}
	if firstErr != nil {
		return out, firstErr
	}
	return out, ctx.Err()
}

func isDeadlock(err error) bool {
	var de *sim.DeadlockError
	return errors.As(err, &de)
}

// moreSeeds are the extra runs (PointRuns) of the points of jobs (in
// Spec.Jobs's order) whose runs have all finished (results, indexed like
// jobs), seeds following the point's last.
func moreSeeds(jobs []Job, results []*result.Result) []Job {
	var extra []Job
	var runs []*result.Result
	whole := true
	for i, j := range jobs {
		runs, whole = append(runs, results[i]), whole && results[i] != nil
		if i+1 < len(jobs) && jobs[i+1].Series == j.Series && jobs[i+1].Point == j.Point {
			continue
		}
		if whole {
			want := PointRuns(runs)
			for k := len(runs); k < want; k++ {
				extra = append(extra, j.Nth(k))
			}
		}
		runs, whole = runs[:0], true
	}
	return extra
}

// SortJobs orders jobs (and their results) by series, point and run, as
// Jobs does, for Collect, after runs PointRuns asked for were appended.
func SortJobs(jobs []Job, results []*result.Result) {
	idx := make([]int, len(jobs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := jobs[idx[a]], jobs[idx[b]]
		if x.Series != y.Series {
			return x.Series < y.Series
		}
		if x.Point != y.Point {
			return x.Point < y.Point
		}
		return x.Run < y.Run
	})
	js, rs := slices.Clone(jobs), slices.Clone(results)
	for i, k := range idx {
		jobs[i], results[i] = js[k], rs[k]
	}
}

// usefulPartitions bounds the threads a run is given when they are not
// given explicitly (sim.UsefulPartitions; a test sets it to no bound).
var usefulPartitions = sim.UsefulPartitions

// runJobs runs jobs[from:] on workers goroutines into results, and returns
// the first error (a deadlock's run is kept with its error).
func runJobs(ctx context.Context, sp Spec, jobs []Job, results []*result.Result, from, workers int, opt Options) error {
	next := make(chan int)
	var mu sync.Mutex
	var firstErr error
	done := from
	var wg sync.WaitGroup
	cores := NewCores(len(jobs)-from, opt.Cores, workers, opt.Threads)
	if opt.Cores <= 0 {
		cores = NewCores(len(jobs)-from, workers, workers, max(opt.Threads, 1))
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				threads := cores.TakeAtMost(usefulPartitions(&j.Config))
				r, err := runJob(ctx, j, opt.OnCycles, threads)
				cores.Give(threads)
				mu.Lock()
				// A deadlock is a finding (thesis Fig. 5.6: no DAMQ reserve
				// deadlocks): its run is kept, with the metrics up to the
				// deadlock, and its point says so (Aggregate.Deadlocked);
				// the sweep still returns the first deadlock's error.
				var de *sim.DeadlockError
				deadlocked := errors.As(err, &de) && r != nil
				if err != nil && firstErr == nil && !errors.Is(err, sim.ErrCancelled) {
					x := "load"
					if sp.Param != "" {
						x = sp.Param
					}
					firstErr = fmt.Errorf("series %d %s %g seed %d: %w", j.Series+1, x, sp.x(j), j.Seed, err)
				}
				if err == nil || deadlocked {
					results[i] = r
					done++
					if opt.OnRun != nil {
						opt.OnRun(done, len(jobs), j, r)
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := from; i < len(jobs); i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return firstErr
}

// RunJob runs one job as Run runs each: the result as Run keeps it, and
// the run's error; a run that stops on a deadlock returns both its result
// (its metrics up to the deadlock) and a *sim.DeadlockError. onCycles, if
// set, is called with the simulated cycles as the run advances. Run and
// the plan runner (package plan) share it, so that a sweep run in pieces
// is the sweep run at once.
func RunJob(ctx context.Context, j Job, onCycles func(delta int64)) (*result.Result, error) {
	return runJob(ctx, j, onCycles, 1)
}

// RunJobThreads is RunJob with the run split over threads goroutines
// (sim.Sim.SetThreads; ≤ 1: one): the same result.
func RunJobThreads(ctx context.Context, j Job, onCycles func(delta int64), threads int) (*result.Result, error) {
	return runJob(ctx, j, onCycles, threads)
}

// runJob is RunJob with the run split over threads goroutines.
func runJob(ctx context.Context, j Job, onCycles func(delta int64), threads int) (*result.Result, error) {
	s, err := sim.New(j.Config, j.Seed)
	if err != nil {
		return nil, err
	}
	if threads > 1 {
		s.SetThreads(threads)
	}
	var last int64
	var progress func(sim.Progress)
	if onCycles != nil {
		progress = func(p sim.Progress) {
			onCycles(p.Cycle - last)
			last = p.Cycle
		}
	}
	r, err := s.Run(ctx, progress)
	if r == nil {
		return nil, err
	}
	s.AddBusiestLink(r)
	if onCycles != nil {
		onCycles(r.SimCycles - last)
	}
	return keep(r), err
}

// keep is the result as Run keeps it: its time series, appended sample by
// sample, copied to its length (as the page decodes it from a worker), so
// that what an experiment keeps is what config.Config.ResultBytes bounds.
func keep(r *result.Result) *result.Result {
	if cap(r.Series) > len(r.Series) {
		r.Series = append([]result.Sample(nil), r.Series...)
	}
	return r
}

// Collect groups finished results (indexed like jobs; nil = not run) into points.
func Collect(sp Spec, jobs []Job, results []*result.Result) *Outcome {
	out := &Outcome{Spec: sp}
	var cur []*result.Result
	for i, j := range jobs {
		if r := results[i]; r != nil {
			cur = append(cur, r)
			out.Runs = append(out.Runs, r)
		}
		last := i == len(jobs)-1 || jobs[i+1].Series != j.Series || jobs[i+1].Point != j.Point
		if last {
			if len(cur) > 0 {
				a := AggregateRuns(j.Series, cur)
				if sp.Param != "" && j.Point < len(sp.Values) {
					a.Param, a.X = sp.Param, sp.Values[j.Point]
				}
				out.Points = append(out.Points, a)
				x := a.Offered
				if sp.Param != "" {
					x = a.X
				}
				if t := PoolTransient(j.Series, x, cur); t != nil {
					out.Transients = append(out.Transients, *t)
				}
			}
			cur = nil
		}
	}
	return out
}
