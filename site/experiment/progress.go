package experiment

import (
	"fmt"
	"math"

	"phitsim/engine/config"
	"phitsim/engine/figures"
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

// idleCost is the engine's time per node-cycle of a lightly loaded h=2
// Dragonfly beyond its packets' hops, in Cost's units (one phit per node
// and cycle under MIN). An idle network costs less: at load 0.001 the h=2
// network took 0.011 units per node-cycle and the h=4 one 0.006
// (TestMeasureCostRuns; engine/BENCHMARKS.md, "The Dragonfly beyond
// h=2"); the rest is the light loads' cost per packet that the hops do
// not count.
const idleCost = 0.05

// dragonflyHop, dragonflyFixed and dragonflyNodes are the h=2 Dragonfly's
// measured costs (runcost) in which Cost's units are counted, and its
// size: a packet-hop's instructions × MIN's hops per packet ÷ the packet
// size (the cost of one phit per node and cycle under MIN, at the load of
// costs.sh's probe), the fixed instructions per node and cycle, and its 72
// nodes. dragonflyRef is dragonflyHop at the load of the reference run
// (quick-un's MIN at 0.5): × the batch estimate's contention there
// (figures.Contention, 1.45).
var dragonflyHop, dragonflyFixed, dragonflyNodes, dragonflyRef = func() (float64, float64, float64, float64) {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Traffic.Pattern, c.Traffic.Load = "UN", 0.5
	sz, _ := c.Topology.Sizes()
	hop := runcost.HopsPerPacket(&c) * runcost.MeasuredPerHop(&c) / float64(c.Router.PacketSize)
	return hop, runcost.FixedPerCycle(&c) / float64(sz.Nodes), float64(sz.Nodes), hop * figures.Contention(c)
}()

// sizeExponent: a packet-hop of a network larger than the h=2 Dragonfly
// takes longer, its state out of the caches, by (nodes ÷ 72)^sizeExponent
// (sizeSlowdown). Fitted to the h=3 and h=4 Dragonfly runs of
// TestCostAgainstMeasuredRuns (measured natively on a 2-core AMD EPYC,
// 2 MB of L2 per core: the h=4 network's state is 15 MB, the h=2 one's
// 1 MB).
const sizeExponent = 0.25

// sizeSlowdown is how many times longer a packet-hop of a network of n
// nodes takes than one of the h=2 Dragonfly's: (n ÷ 72)^sizeExponent, 1
// at 72 nodes or fewer.
func sizeSlowdown(n float64) float64 {
	return math.Pow(max(n/dragonflyNodes, 1), sizeExponent)
}

// Cost estimates the engine time of one run of c, in node-cycles weighted
// by the traffic they carry: the engine's time per cycle grows with the
// phits in flight, so with the accepted load and the hops each packet makes.
// Measured natively on the h=2 network (3,000 + 5,000 cycles), MIN takes
// 7 ms at load 0.1 and 107 ms at 1; VAL 15 ms at 0.1 and 106 ms from its
// saturation (0.44) up: node-cycles alone put those runs 15 times apart,
// this estimate within a factor 2.5. The accepted load is the offered load
// capped by the analytic bound (facts.Bound); a Graph500 job's load is its
// own, counted as full. Its unit is what one phit per node and cycle costs
// the h=2 Dragonfly's reference run (quick-un's MIN at 0.5), so that run
// costs idleCost + 0.5 per node-cycle, as before the Dragonfly was priced
// by the batch estimate's model (DefaultRate unchanged).
//
// Every topology's run is priced as the engine spends, by the batch
// estimate's measured costs (packages runcost and figures, as
// plan.Instructions): its packets (the load ÷ the packet size) × the hops
// of a packet × its crossings with the scheme's control packets
// (runcost.Crossings) × the expected instructions of one for the topology,
// routing, scheme, queueing and router options (runcost.ExpectedPerHop),
// × sizeSlowdown above 72 nodes (a larger state out of the caches); the
// idle network's fixed cost per node (runcost.FixedPerCycle) × idleCost
// over the h=2 Dragonfly's; and the heads that wait and are tried again
// each cycle near and past the routing's bound. On a Dragonfly the hops
// are runcost.ExpectedHopsPerPacket (MIN's 4 crossings, Valiant's 7, the
// adaptive routings' 5.5), a hop costs more the busier the network
// (figures.Contention, where no bound is known, as under UN: 1.45 at the
// reference's 0.5) and the waiting heads cost the gallery's
// figures.SaturatedInstructions, all relative to the reference run's phit
// (dragonflyRef). On the other topologies (flattened butterfly, fat tree,
// mesh) the hops are runcost.HopsPerPacket, the busier network's cost is
// in runcost.ExpectedPerHop, the waiting heads are those of the source
// queues offered more than the bound (runcost.SaturatedSourceQueues), all
// relative to the Dragonfly's phit at its probe's load (dragonflyHop: their
// per-hop costs, measured at 0.5, are counted against it as before). A
// Graph500 job on a Dragonfly costs idleCost + sizeSlowdown per
// node-cycle.
//
// Measured natively (engine/BENCHMARKS.md, "The page's run-time estimate"
// and "The Dragonfly beyond h=2"; TestCostAgainstMeasuredRuns), the h=2 Dragonfly's runs (MIN, VAL, UGAL;
// UN and ADV+1) take 0.69–1.37× their median time per Cost unit (before
// 0.55–1.63×), the h=4 one's (min-val-un-h4, min-val-adv1-h4) 0.66–1.69×
// (before 0.55–2.75×, MIN at 0.9 and VAL at 0.7 and 0.9 outside 2.5×), the
// h=3 one's 0.78–1.27×, QCN-Switch's and the h=4 Ethernet Dragonfly's
// browser presets' 0.47–1.13× (before 0.87–2.94×; the saturated runs under
// the permutation, where no bound is known, lowest). Every run of the 16-node
// flattened butterfly's presets (Baseline, Ideal, ECN, SRP, CBCM), the
// 64-host fat tree's (IQ, 4Q, VOQsw, VOQnet, RECN, corner cases 1 and 2)
// and the mesh's takes 0.50–2.16×, unchanged; before their tables,
// 0.21–5.97× (RECN under corner case 2 4.39×, the 1-flit packets of Kim et
// al.'s Fig. 2 4.4–6.0×). The Graph500 job standing in for Kim et al.'s
// traces (cbcm-trace-hotspot-quick) is overestimated most, 0.39–1.38× (its
// load counted as full; before, its cycle cap made it 0.004×).
func Cost(c *config.Config) float64 {
	f := facts.Of(c)
	load := 1.0 // a Graph500 job's
	if !c.Graph500() {
		load = min(max(c.Traffic.Load, 0), 1)
		if f.Bound > 0 {
			load = min(load, f.Bound)
		}
	}
	sz, _ := c.Topology.Sizes()
	nodes := float64(max(sz.Nodes, 1))
	slow := sizeSlowdown(nodes)
	if k := c.Topology.Kind; k != "" && k != "dragonfly" {
		idle := idleCost * runcost.FixedPerCycle(c) / nodes / dragonflyFixed
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
		return work * (idle + (load*perPhit*slow+sat)/dragonflyHop)
	}
	if c.Graph500() {
		return f.Work * (idleCost + slow)
	}
	idle := idleCost * runcost.FixedPerCycle(c) / nodes / dragonflyFixed
	perPhit := runcost.ExpectedHopsPerPacket(c) * runcost.Crossings(c) * runcost.ExpectedPerHop(c) * figures.Contention(*c) / float64(max(c.Router.PacketSize, 1))
	var sat float64
	if cycles := float64(c.Sim.Warmup + c.Sim.Cycles); cycles > 0 {
		sat = figures.SaturatedInstructions(*c, cycles) / cycles / nodes
	}
	return f.Work * (idle + (load*perPhit*slow+sat)/dragonflyRef)
}
