package sim

// Graph500 workload through the network (thesis §2.3.2, research notes §11):
// scaled-down graphs, so the targets are compared as ratios.

import (
	"math"
	"reflect"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// g5Config is the graph500-h2 preset (or graph500-h4-2groups) at scale s.
func g5Config(t *testing.T, preset string, s int, tq float64) config.Config {
	t.Helper()
	c, err := config.PresetByName(preset)
	if err != nil {
		t.Fatal(err)
	}
	c.Workload.Scale, c.Workload.Tq = s, tq
	return c
}

// g5Run runs a Graph500 config to the end of its BFS and checks that it
// finished and that every packet was delivered.
func g5Run(t *testing.T, c config.Config, seed uint64) *result.Graph500 {
	t.Helper()
	r := btSim(t, c, seed)
	g := r.Graph500
	if g == nil || !g.Finished {
		t.Fatalf("the BFS did not finish: %+v", g)
	}
	if !r.Conserved() || r.InFlight != 0 || g.PacketsSent != g.PacketsDelivered || r.TotalGenerated != g.PacketsSent {
		t.Fatalf("conservation: generated %d delivered %d in flight %d; job sent %d delivered %d",
			r.TotalGenerated, r.TotalDelivered, r.InFlight, g.PacketsSent, g.PacketsDelivered)
	}
	if r.SimCycles != g.Cycles || !btWithin(g.Seconds, float64(g.Cycles)*g.CycleNs*1e-9, 1e-12) {
		t.Errorf("simulated %d cycles, execution %d cycles = %g s at %g ns", r.SimCycles, g.Cycles, g.Seconds, g.CycleNs)
	}
	t.Logf("%s s=%d tq=%g seed %d: %d cycles = %.4g ms, usage %.3f, dr %d, %d levels, %d messages, CPU %.2f s",
		c.Routing.Name, c.Workload.Scale, c.Workload.Tq, seed, g.Cycles, g.Seconds*1e3, g.Usage, g.RootDegree, len(g.Levels), g.Messages, r.CPUSeconds)
	return g
}

// A small BFS conserves packets (every job packet is delivered when it ends,
// nothing else is in flight), reports consistent levels and usage, and is
// deterministic; with background traffic on half the groups it still ends.
func TestGraph500ConservationAndDeterminism(t *testing.T) {
	t.Parallel()
	c := g5Config(t, "graph500-h2", 16, 1.5)
	a := g5Run(t, c, 7)
	b := g5Run(t, c, 7)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different Graph500 results")
	}
	var sent int64
	var end int64
	for _, l := range a.Levels {
		sent += l.QueryPackets + l.SyncPackets
		end = max(end, l.End)
	}
	if sent != a.PacketsSent || end+1 != a.Cycles {
		t.Errorf("levels: %d packets (run %d), last level ends at %d (run %d cycles)", sent, a.PacketsSent, end, a.Cycles)
	}
	var ph float64
	start := int64(0)
	for _, smp := range a.Series {
		ph += smp.Usage * float64(a.Processes) * float64(smp.Cycle-start)
		start = smp.Cycle
	}
	if !btWithin(ph, float64(a.PacketsSent*int64(c.Router.PacketSize)), 1e-9) || start != a.Cycles {
		t.Errorf("usage series sums to %.1f phits up to %d, run sent %d phits in %d cycles", ph, start, a.PacketsSent*int64(c.Router.PacketSize), a.Cycles)
	}
	// a job on 4 spread groups with UN background traffic on the others
	c.Workload.Groups, c.Workload.Placement, c.Workload.Background = 4, "spread", true
	c.Traffic.Load = 0.3
	s, err := New(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(nil, nil)
	if err != nil || r.Graph500 == nil || !r.Graph500.Finished || r.Graph500.Processes != 32 {
		t.Fatalf("with background traffic: %v %+v", err, r)
	}
	if !r.Conserved() || r.Graph500.PacketsSent != r.Graph500.PacketsDelivered || r.TotalGenerated <= r.Graph500.PacketsSent {
		t.Errorf("background run: generated %d (job %d), delivered %d, in flight %d", r.TotalGenerated, r.Graph500.PacketsSent, r.TotalDelivered, r.InFlight)
	}
	// a cap shorter than the BFS: reported, not hidden
	c.Sim.Cycles = 2000
	s, _ = New(c, 3)
	if r, err = s.Run(nil, nil); err != nil || r.Graph500.Finished || r.Graph500.Status == "finished" {
		t.Errorf("capped run: %v, finished %v, status %q", err, r.Graph500.Finished, r.Graph500.Status)
	}
}

// Thesis Figs. 2.13–2.14 (notes §11 targets 4–5): on the full h=2 system with
// MIN at 40 Gb/s, the execution time is flat for small tq (network-bound) and
// grows about linearly with tq once the nodes are the bottleneck; Altamira's
// 1.5 ns lies in the flat part; the network usage stays below 0.7.
func TestGraph500TwoRegimesMIN(t *testing.T) {
	t.Parallel()
	tqs := []float64{0.5, 1.5, 4, 8, 15}
	secs := make([]float64, len(tqs))
	usage := make([]float64, len(tqs))
	for i, tq := range tqs {
		g := g5Run(t, g5Config(t, "graph500-h2", 20, tq), 1)
		secs[i], usage[i] = g.Seconds, g.Usage
	}
	if r := secs[1] / secs[0]; r > 1.10 {
		t.Errorf("tq 0.5 → 1.5 ns: time ×%.3f; the network-bound region should be flat (±10%%)", r)
	}
	for _, p := range [][2]int{{2, 3}, {3, 4}} {
		want := tqs[p[1]] / tqs[p[0]]
		if r := secs[p[1]] / secs[p[0]]; r < 0.8*want || r > 1.05*want {
			t.Errorf("tq %g → %g ns: time ×%.3f, want about linear (×%.3f)", tqs[p[0]], tqs[p[1]], r, want)
		}
	}
	if usage[0] >= 0.7 || usage[0] < 0.55 {
		t.Errorf("network-bound usage %.3f, want in [0.55, 0.7)", usage[0])
	}
	for i := 1; i < len(tqs); i++ {
		if usage[i] > usage[i-1]*1.01 {
			t.Errorf("usage grows with tq: %.3f at %g ns, %.3f at %g ns", usage[i-1], tqs[i-1], usage[i], tqs[i])
		}
	}
}

// Thesis Figs. 2.15–2.16 (notes §11 target 8): Valiant on the full h=2
// system uses about 0.4 phits/(node·cycle) (below VAL's cap of 0.5) and takes
// 1.7–2.0× MIN's time. At a reduced scale the end-of-level signals and
// all-reduces (the same packets whatever the scale) weigh more and dilute the
// ratio, so it is checked on the levels that carry the bulk of the queries
// (the same for both runs: same seed, same draws), and loosely on the total.
func TestGraph500ValiantPenalty(t *testing.T) {
	t.Parallel()
	min := g5Run(t, g5Config(t, "graph500-h2", 21, 1.5), 1)
	val := g5Run(t, g5Config(t, "graph500-h2-val", 21, 1.5), 1)
	if val.Usage < 0.35 || val.Usage >= 0.5 {
		t.Errorf("VAL usage %.3f, want ≈0.4 (in [0.35, 0.5))", val.Usage)
	}
	if min.Messages != val.Messages {
		t.Fatalf("MIN and VAL runs sent %d and %d messages: the model's draws must not depend on the network", min.Messages, val.Messages)
	}
	var bulkMin, bulkVal int64
	for i := range min.Levels {
		if min.Levels[i].Messages*10 > min.Messages {
			bulkMin += min.Levels[i].Cycles
			bulkVal += val.Levels[i].Cycles
		}
	}
	total, bulk := val.Seconds/min.Seconds, float64(bulkVal)/float64(bulkMin)
	t.Logf("VAL/MIN: total %.3f, bulk levels %.3f; usage MIN %.3f VAL %.3f", total, bulk, min.Usage, val.Usage)
	if bulk < 1.7 || bulk > 2.0 {
		t.Errorf("VAL/MIN time of the bulk levels ×%.3f, want 1.7–2.0", bulk)
	}
	if total < 1.6 || total > 2.0 {
		t.Errorf("VAL/MIN execution time ×%.3f, want about 1.7–2.0", total)
	}
}

// Thesis Figs. 2.17–2.18 (notes §11 target 9): 64 processes on 2 consecutive
// groups of an h=4 Dragonfly with MIN share the one global link between the
// groups: usage ≤ 2/(2h²) = 0.0625, about 10× the h=2 time (7–15×), and
// insensitive to tq (< 10% from 1.5 to 15 ns).
func TestGraph500TwoGroupsMINCollapse(t *testing.T) {
	t.Parallel()
	h2 := g5Run(t, g5Config(t, "graph500-h2", 19, 1.5), 1)
	fast := g5Run(t, g5Config(t, "graph500-h4-2groups", 19, 1.5), 1)
	slow := g5Run(t, g5Config(t, "graph500-h4-2groups", 19, 15), 1)
	if fast.Processes != 64 {
		t.Fatalf("%d processes, want 64", fast.Processes)
	}
	for _, g := range []*result.Graph500{fast, slow} {
		if g.Usage > 0.0625 || g.Usage < 0.045 {
			t.Errorf("2-group usage %.4f, want in [0.045, 0.0625]", g.Usage)
		}
	}
	if r := fast.Seconds / h2.Seconds; r < 7 || r > 15 {
		t.Errorf("2 groups of h=4 take %.2f× the h=2 time, want about 10× (7–15)", r)
	}
	if r := slow.Seconds / fast.Seconds; math.Abs(r-1) > 0.1 {
		t.Errorf("tq 1.5 → 15 ns changes the 2-group time by ×%.3f, want < 10%%", r)
	}
}

// Thesis §2.3.2 (notes §11 target 7): ten-fold link latency barely changes
// the execution time at a network-bound point (< 5%).
func TestGraph500LatencyInsensitive(t *testing.T) {
	t.Parallel()
	c := g5Config(t, "graph500-h2", 20, 1.5)
	base := g5Run(t, c, 2)
	c.Topology.LocalLatency *= 10
	c.Topology.GlobalLatency *= 10
	slow := g5Run(t, c, 2)
	if r := slow.Seconds / base.Seconds; math.Abs(r-1) > 0.05 {
		t.Errorf("links %d/%d cycles: time ×%.3f of the 1/1-cycle links, want within 5%%", c.Topology.LocalLatency, c.Topology.GlobalLatency, r)
	}
}

// The workload runs under every routing the engine offers: the BFS ends and
// every packet is delivered.
func TestGraph500UnderEveryRouting(t *testing.T) {
	t.Parallel()
	p, _ := config.Lookup("routing.name")
	for _, name := range p.Enum {
		c := g5Config(t, "graph500-h2", 14, 1.5)
		c.Routing.Name = name
		if errs := c.Validate(); len(errs) > 0 {
			t.Errorf("%s: %v", name, errs)
			continue
		}
		g5Run(t, c, 1)
	}
}
