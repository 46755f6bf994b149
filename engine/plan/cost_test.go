package plan

import (
	"context"
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/runcost"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
)

// h8Plan is a plan of n runs of the thesis's h=8 point (MIN, or routing,
// UN 0.4, Table 1.2's 60,000 + 60,000 cycles), each n-th a seed of it:
// equal runs.
func h8Plan(t *testing.T, routing string, n int) *Plan {
	c, err := config.PresetByName("h8")
	if err != nil {
		t.Fatal(err)
	}
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load, c.Sim.Seeds = routing, "UN", 0.4, n
	jobs, err := sweep.Spec{Series: []config.Config{c}, Loads: []float64{0.4}}.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	return &Plan{Jobs: jobs}
}

func upTo(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// TaskSeconds schedules a task's runs as Exec runs them (sweep.Share,
// sweep.Cores): equal h=8 runs of s seconds each, a partitioned run on T
// threads taking s ÷ max(1, 0.6 T) (ParallelEfficiency, measured on 2
// cores), one the engine keeps sequential (ACOR) s whatever its threads.
func TestTaskSeconds(t *testing.T) {
	s := Seconds(&h8Plan(t, "MIN", 1).Jobs[0].Config)
	for _, c := range []struct {
		name    string
		routing string
		runs    int
		cpus    int
		want    float64
	}{
		{"one run takes the 4 CPUs", "MIN", 1, 4, s / 2.4},
		{"one run, 2 CPUs", "MIN", 1, 2, s / 1.2},
		{"4 runs on 4 CPUs: a thread each", "MIN", 4, 4, s},
		// the fifth starts when the first run finishes: one CPU free
		{"5 runs on 4 CPUs", "MIN", 5, 4, 2 * s},
		{"5 runs on 8 CPUs: 2, 2, 2, 1 and 1 threads", "MIN", 5, 8, s},
		{"3 runs on 8 CPUs: 3, 3 and 2 threads", "MIN", 3, 8, s / 1.2},
		{"8 runs on 1 CPU", "MIN", 8, 1, 8 * s},
	} {
		p := h8Plan(t, c.routing, c.runs)
		if got := p.TaskSeconds(upTo(c.runs), c.cpus); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s: %.1f s, want %.1f s", c.name, got, c.want)
		}
	}
	acor := h8Plan(t, "ACOR", 1)
	acor.Jobs[0].Config.Router.IdleUpdates = "fogsim" // FOGSim's idle updates keep ACOR sequential
	if got, want := acor.TaskSeconds([]int{0}, 4), Seconds(&acor.Jobs[0].Config); got != want {
		t.Errorf("ACOR with FOGSim's idle updates on 4 CPUs: %.1f s, want its sequential %.1f s", got, want)
	}
	// a run the engine keeps sequential takes one thread
	// (sim.UsefulPartitions reads sim.SequentialNote), leaving the others to
	// the run after it: ACOR under FOGSim's idle updates, then MIN over 8
	// times the cycles, on 4 CPUs take 1 and 3 threads (MIN's time ÷ 1.8),
	// not 2 and 2 (÷ 1.2)
	mixed := h8Plan(t, "MIN", 2)
	mixed.Jobs[0].Config.Routing.Name, mixed.Jobs[0].Config.Router.IdleUpdates = "ACOR", "fogsim"
	mixed.Jobs[1].Config.Sim.Cycles *= 8
	long := Seconds(&mixed.Jobs[1].Config)
	if want := math.Max(Seconds(&mixed.Jobs[0].Config), long/1.8); want != long/1.8 {
		t.Fatalf("the MIN run (%.1f s ÷ 1.8) must outlast the ACOR run (%.1f s)", long, Seconds(&mixed.Jobs[0].Config))
	}
	if got, want := mixed.TaskSeconds([]int{0, 1}, 4), long/1.8; math.Abs(got-want) > 1e-9*want {
		t.Errorf("sequential ACOR then MIN on 4 CPUs: %.1f s, want %.1f s (MIN on 3 threads)", got, want)
	}
}

// TestPartitionedAgreesWithEngine: the estimate credits threads only to
// runs the engine partitions — partitioned(c) is true only where a run of
// c on 2 threads carries no "sequential" note, and false where it does
// (h=2 runs of 100 + 100 cycles; a Graph500 job's capped at 100).
func TestPartitionedAgreesWithEngine(t *testing.T) {
	for _, tc := range []struct{ sets []string }{
		{sets: []string{"routing.name=MIN"}}, {sets: []string{"routing.name=VAL_GROUP"}}, {sets: []string{"routing.name=UGAL"}},
		{sets: []string{"routing.name=PB"}}, {sets: []string{"routing.name=PAR", "routing.trigger=ectn"}}, {sets: []string{"routing.name=OLM"}},
		{sets: []string{"routing.name=ACOR"}}, {sets: []string{"routing.name=PB_ACOR"}}, {sets: []string{"routing.name=QCN_SWITCH"}},
		{sets: []string{"routing.name=PB", "router.idleUpdates=fogsim"}}, {sets: []string{"routing.name=ACOR", "router.idleUpdates=fogsim"}},
		{sets: []string{"routing.name=QCN_SWITCH", "routing.qcnReactionPoints=true"}}, {sets: []string{"routing.name=QCN_SWITCH", "routing.qcnReactionPoints=true", "routing.qcnRpJitter=-1"}},
		// FOGSim's idle updates concern only the per-cycle routings' work
		{sets: []string{"routing.name=UGAL", "router.idleUpdates=fogsim"}}, {sets: []string{"routing.name=MIN", "fogsim"}},
		{sets: []string{"congestion.scheme=ecn", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination"}},
		{sets: []string{"congestion.scheme=ideal", "traffic.pattern=HOTSPOT", "traffic.hotspotCount=4"}},
		{sets: []string{"congestion.scheme=cbcm", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination"}},
		{sets: []string{"congestion.scheme=cbcm", "congestion.cbcmEarly=true", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination"}},
		{sets: []string{"congestion.scheme=srp", "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination"}},
		{sets: []string{"topology.kind=mesh", "topology.width=4", "topology.height=3", "topology.p=1"}},
		{sets: []string{"topology.kind=fbfly", "topology.dimensions=1", "topology.k=4", "topology.p=2", "routing.name=UGAL"}},
		{sets: []string{"topology.kind=fattree", "topology.k=4", "topology.stages=3", "topology.p=1", "routing.name=MIN"}},
		{sets: []string{"topology.kind=fattree", "topology.k=4", "topology.stages=3", "topology.p=1", "routing.name=MIN", "congestion.scheme=recn", "physical.linkGbps=8", "physical.phitBytes=8", "router.localVCs=1", "router.injectionVCs=1", "router.packetSize=8", "router.localBuffer=16384", "router.injectionBuffer=16384", "router.outputBuffer=256"}},
		{sets: []string{"topology.kind=fattree", "topology.k=4", "topology.stages=3", "topology.p=1", "routing.name=MIN", "congestion.scheme=recn", "physical.linkGbps=8", "physical.phitBytes=8", "router.localVCs=1", "router.injectionVCs=1", "router.packetSize=8", "router.localBuffer=16384", "router.injectionBuffer=16384", "router.outputBuffer=256", "router.queueing=iq"}},
		{sets: []string{"workload.kind=graph500", "workload.scale=8"}},
		{sets: []string{"workload.kind=graph500", "workload.scale=8", "routing.name=PB", "router.idleUpdates=fogsim"}},
	} {
		sets := tc.sets
		c, err := config.PresetByName("h2")
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range sets {
			if kv == "fogsim" {
				c.UseFOGSimModel()
				continue
			}
			k, v, _ := cutKV(kv)
			p, ok := config.Lookup(k)
			if !ok {
				t.Fatalf("no parameter %s", k)
			}
			if err := p.SetString(&c, v); err != nil {
				t.Fatalf("%s: %v", kv, err)
			}
		}
		c.Sim.Warmup, c.Sim.Cycles, c.Traffic.Load = 100, 100, 0.3
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%v: %v", sets, errs)
		}
		s, err := sim.New(c, 1)
		if err != nil {
			t.Fatalf("%v: %v", sets, err)
		}
		s.SetThreads(2)
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatalf("%v: %v", sets, err)
		}
		if got, engine := partitioned(&c), r.Sequential == ""; got != engine {
			t.Errorf("%v: partitioned %v, the engine %v (%q)", sets, got, engine, r.Sequential)
		}
	}
}

func cutKV(kv string) (string, string, bool) {
	for i := range kv {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return kv, "", false
}

// A fat tree's packets cross up to the top stage and down again (D-mod-k,
// the RECN paper's networks, §4.1): 2·(stages−1) links and one crossbar
// more, 5 at 64 hosts, 7 at 256, 9 at 512 (Fig. 6b's 5 stages), not the
// Dragonfly's 3 + 1. With them Fig. 6a's RECN run (256 hosts, corner case
// 2, 250,000 cycles) is estimated at 7/4 of the Dragonfly count: measured
// 84 s of CPU on a loaded 2-core machine, estimated 24 s before.
func TestFatTreeHops(t *testing.T) {
	for _, c := range []struct {
		preset string
		want   float64
	}{{"fattree64", 5}, {"fattree256", 7}, {"recn-fig6b-recn", 9}} {
		cfg, err := config.PresetByName(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		if got := runcost.HopsPerPacket(&cfg); got != c.want {
			t.Errorf("%s: %g crossings per packet, want %g", c.preset, got, c.want)
		}
	}
}
