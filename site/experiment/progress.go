package experiment

import (
	"fmt"

	"phitsim/engine/config"
	"phitsim/engine/routing"
	"phitsim/engine/runcost"
	"phitsim/engine/sim"
	"phitsim/site/facts"
)

// Tracker estimates the progress of a whole sweep, weighting each job by
// its estimated cost (Cost), and its remaining time from the rate so far.
// Jobs added while it runs (Add: sim.precision's extra seeds) grow the
// total; the fraction shown never goes back: from the moment they are
// added it spreads the rest of the bar over the work then left.
type Tracker struct {
	weight []float64
	frac   []float64
	total  float64
	// Begin's time and work done: the time before the first progress
	// (workers starting, WebAssembly compiling) is no measure of the rate
	t0, w0 float64
	begun  bool
	// added: jobs Add appended; base, baseWork: the fraction shown and the
	// work done at the last Add
	added          int
	base, baseWork float64
}

// Begin starts the rate's clock at elapsed seconds, with the work done
// then; called when the first progress arrives (later calls do nothing).
// Without it the rate counts from 0.
func (t *Tracker) Begin(elapsed float64) {
	if !t.begun {
		t.begun, t.t0, t.w0 = true, elapsed, t.Work()
	}
}

// NewTracker for the jobs of r.
func NewTracker(jobs []Job) *Tracker {
	t := &Tracker{}
	t.Add(jobs)
	t.added = 0
	return t
}

// Add jobs appended to the results (Results.MoreSeeds: extra seeds for
// sim.precision), not started: their cost joins the total, and the
// fraction shown so far stays.
func (t *Tracker) Add(jobs []Job) {
	if len(jobs) == 0 {
		return
	}
	t.base, t.baseWork = t.Fraction(), t.Work()
	for i := range jobs {
		w := Cost(&jobs[i].Config)
		if w <= 0 {
			w = 1
		}
		t.weight, t.frac = append(t.weight, w), append(t.frac, 0)
		t.total += w
	}
	t.added += len(jobs)
}

// Added is the number of jobs Add appended after the first ones.
func (t *Tracker) Added() int { return t.added }

// RunsText is "done / total runs", with the runs sim.precision added.
func (t *Tracker) RunsText(done int) string {
	s := fmt.Sprintf("%d / %d runs", done, len(t.frac))
	switch {
	case t.added == 1:
		s += " (+1 seed for precision)"
	case t.added > 1:
		s += fmt.Sprintf(" (+%d seeds for precision)", t.added)
	}
	return s
}

// Set the fraction done of job i (1 when finished or failed).
func (t *Tracker) Set(i int, frac float64) {
	if i >= 0 && i < len(t.frac) {
		t.frac[i] = min(max(frac, 0), 1)
	}
}

// Work done, in Cost units.
func (t *Tracker) Work() float64 {
	var d float64
	for i, f := range t.frac {
		d += f * t.weight[i]
	}
	return d
}

// Fraction of the whole work done, as the bar shows it: the work done over
// the total until jobs are added, then the fraction at the last Add plus
// the rest in proportion to the work done since over the work left then.
func (t *Tracker) Fraction() float64 {
	left := t.total - t.baseWork
	if t.total == 0 || left <= 0 {
		return t.base
	}
	return min(1, t.base+(1-t.base)*max(t.Work()-t.baseWork, 0)/left)
}

// Total is the cost of all the jobs (Cost units).
func (t *Tracker) Total() float64 { return t.total }

// ETA in seconds after elapsed seconds, −1 when unknown: the work left at
// the rate since Begin.
func (t *Tracker) ETA(elapsed float64) float64 {
	w := t.Work()
	if w <= t.w0 || elapsed <= t.t0 {
		return -1
	}
	return (elapsed - t.t0) * (t.total - w) / (w - t.w0)
}

// EstimateWord qualifies the time estimated before a run: "about", or "at
// least" when a series sets sim.precision (its runs may measure up to
// sim.maxCycles and its points take up to sim.maxSeeds runs).
func (e *Experiment) EstimateWord() string {
	for i := range e.Series {
		if e.Series[i].Sim.Precision > 0 {
			return "at least"
		}
	}
	return "about"
}

// Work is the size of the whole experiment in node-cycles (0 if it does not
// expand into jobs).
func (e *Experiment) Work() float64 {
	jobs, err := e.Jobs()
	if err != nil {
		return 0
	}
	var w float64
	for i := range jobs {
		w += facts.Of(&jobs[i].Config).Work
	}
	return w
}

// CostOf is the estimated engine time of jobs, in Cost units.
func CostOf(jobs []Job) float64 {
	var w float64
	for i := range jobs {
		w += Cost(&jobs[i].Config)
	}
	return w
}

// DefaultRate is the engine speed the page's run bar assumes before its
// first run has measured one (site/ui App.rate), in Cost units per second
// per worker: the bar shows an experiment's time as CostOf(its jobs) ÷ the
// rate ÷ min(workers, jobs).
const DefaultRate = 1.5e6

// idleCost is the engine's time per node-cycle with no traffic, relative
// to one phit per node and cycle crossing one global hop of a Dragonfly
// under MIN.
const idleCost = 0.05

// dragonflyHop and dragonflyFixed are the Dragonfly's measured costs
// (runcost) in which Cost's units are counted: a packet-hop's
// instructions × MIN's hops per packet ÷ the packet size (the cost of one
// phit per node and cycle under MIN), and the fixed instructions per node
// and cycle, of the h=2 network.
var dragonflyHop, dragonflyFixed = func() (float64, float64) {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	sz, _ := c.Topology.Sizes()
	return runcost.HopsPerPacket(&c) * runcost.MeasuredPerHop(&c) / float64(c.Router.PacketSize),
		runcost.FixedPerCycle(&c) / float64(sz.Nodes)
}()

// Cost estimates the engine time of one run of c, in node-cycles weighted
// by the traffic they carry: the engine's time per cycle grows with the
// phits in flight, so with the accepted load and the hops each packet makes.
// Measured natively on the h=2 network (3,000 + 5,000 cycles), MIN takes
// 7 ms at load 0.1 and 107 ms at 1; VAL 15 ms at 0.1 and 106 ms from its
// saturation (0.44) up: node-cycles alone put those runs 15 times apart,
// this estimate within a factor 2.5. The accepted load is the offered load
// capped by the analytic bound (facts.Bound); a Graph500 job's load is its
// own, counted as full.
//
// On a Dragonfly a run's traffic costs load × its routing's global hops
// (1 for MIN, 2 for Valiant, 1.5 for the adaptive ones) × the factor of
// its congestion scheme and router options (runcost.Mechanisms: 1 without
// any), and its idle network idleCost per node-cycle. On the other
// topologies (flattened butterfly, fat tree, mesh) the run is priced as
// the engine spends, by package runcost's measured costs relative to the
// Dragonfly's (dragonflyHop, dragonflyFixed): its packets (the load ÷ the
// packet size) × the hops of a packet (runcost.HopsPerPacket) × its
// crossings with the scheme's control packets (runcost.Crossings) × the
// expected instructions of one for the topology, routing, scheme and
// queueing (runcost.ExpectedPerHop), the idle network's fixed cost per
// node (runcost.FixedPerCycle), and, offered more than the routing's
// bound, the heads waiting at its source queues
// (runcost.SaturatedSourceQueues). Measured natively (engine/BENCHMARKS.md,
// "The page's run-time estimate"; TestCostAgainstMeasuredRuns), every run
// of the 16-node flattened butterfly's presets (Baseline, Ideal, ECN, SRP,
// CBCM), the 64-host fat tree's (IQ, 4Q, VOQsw, VOQnet, RECN, corner
// cases 1 and 2), the mesh's and QCN-Switch's takes 0.50–2.14× the h=2
// Dragonfly runs' time per unit (those 0.59–1.58×); before, 0.21–5.97×
// (RECN under corner case 2 4.39×, the 1-flit packets of Kim et al.'s
// Fig. 2 4.4–6.0×). The Graph500 job standing in for Kim et al.'s traces
// (cbcm-trace-hotspot-quick) is overestimated most, 0.39–1.38× (its load
// counted as full; before, its cycle cap made it 0.004×).
func Cost(c *config.Config) float64 {
	f := facts.Of(c)
	load := 1.0 // a Graph500 job's
	if !c.Graph500() {
		load = min(max(c.Traffic.Load, 0), 1)
		if f.Bound > 0 {
			load = min(load, f.Bound)
		}
	}
	if k := c.Topology.Kind; k != "" && k != "dragonfly" {
		sz, _ := c.Topology.Sizes()
		idle := idleCost * runcost.FixedPerCycle(c) / float64(max(sz.Nodes, 1)) / dragonflyFixed
		perPhit := runcost.HopsPerPacket(c) * runcost.Crossings(c) * runcost.ExpectedPerHop(c) / float64(max(c.Router.PacketSize, 1))
		work := f.Work
		if c.Graph500() && len(c.Validate()) == 0 {
			// facts.Of gives the Dragonfly's the job's length only
			work = float64(sz.Nodes) * float64(sim.EstimatedCycles(c))
		}
		var sat float64
		if f.Bound > 0 && c.Traffic.Load > f.Bound {
			sat = runcost.SaturatedSourceQueues(c)
		}
		return work * (idle + (load*perPhit+sat)/dragonflyHop)
	}
	if c.Graph500() {
		return f.Work * (idleCost + 1)
	}
	hops := 1.5 // adaptive routings: minimal when they can, Valiant when not
	switch routing.Get(c.Routing.Name).Paths {
	case routing.MinimalOnly:
		hops = 1
	case routing.ValiantOnly:
		hops = 2
	}
	return f.Work * (idleCost + load*hops*runcost.Mechanisms(c))
}
