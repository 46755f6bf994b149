package sim

import (
	"context"
	"math"
	"slices"
	"testing"

	"phitsim/engine/graph500"
)

// graph500Cases: the Graph500 job (thesis §2.2.2, engine/graph500) on the
// h=2 golden network at scale 8 (72 processes, 4–5 levels, 5,000–8,000
// cycles), each of the model's options in one case at least — per-process
// and per-level draws of the edges (FOGSim's and the thesis's), Bernoulli
// and computed message times, the reduction before or after the work, the
// budget cap, FOGSim's coefficients, a fixed root degree, the level
// limits, multi-packet messages, the dest and jsq injection policies, a
// partial job (consecutive and spread groups, idle or with background
// traffic), MIN, VAL, UGAL and PB — with the golden set's 100-cycle global
// links (windows of 100 cycles, cut short before the BFS's end), the
// presets' latencies in ns (1-cycle windows; 8 with 64-byte phits), and a
// cycle cap the BFS does not reach.
func graph500Cases() []goldenCase {
	g := func(name string, sets ...string) goldenCase {
		return goldenCase{"graph500/" + name, append([]string{"workload.kind=graph500", "workload.scale=8", "sim.cycles=200000"}, sets...)}
	}
	return []goldenCase{
		g("MIN"),
		g("VAL/level/compute/spread/background", "routing.name=VAL", "workload.sampling=level", "workload.injection=compute",
			"workload.reduceAfterWork=false", "workload.budgetCap=false", "workload.coefficients=fogsim",
			"workload.groups=4", "workload.placement=spread", "workload.background=true", "traffic.load=0.2"),
		g("UGAL/ns/jsq/5groups", "routing.name=UGAL", "workload.localNs=10", "workload.globalNs=100", "workload.routerNs=40",
			"router.injectionPolicy=jsq", "workload.groups=5", "workload.rootDegree=40"),
		g("PB/multipacket/levels", "routing.name=PB", "workload.phitBytes=64", "workload.localNs=10", "workload.globalNs=100",
			"workload.routerNs=40", "workload.maxLevels=4", "workload.tailLevel=2", "workload.tailFraction=0.3", "workload.groups=6"),
		g("MIN/2groups", "workload.groups=2", "workload.scale=10"),
		g("MIN/capped/background", "sim.cycles=3000", "workload.groups=3", "workload.background=true", "traffic.load=0.3"),
	}
}

// The job on 2 groups is watched (the live view) every 97 cycles: windows
// of at most 15 cycles before its end (16 processes: Job.EndBound), the
// last snapshot's interval cut by the BFS's end (snapshotEvery).
func init() { snapshotEvery["graph500/MIN/2groups"] = 97 }

// TestParallelGraph500CasesExercised: graph500Cases run partitioned
// (TestParallelBitIdentical compares their documents) and do what they
// are there for: the job's processes span several partitions, its BFS
// ends within the run with at least three levels (three decisions of the
// root host crossing to the other partitions) — but for the capped case,
// which stops in a level — and every level's broadcast lands.
func TestParallelGraph500CasesExercised(t *testing.T) {
	for _, gc := range graph500Cases() {
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		if why := s.parallelBlocker(); why != "" {
			t.Fatalf("%s: runs sequentially: %s", gc.name, why)
		}
		_, n0, _, L, _ := s.split(7)
		spans := map[int]bool{}
		for _, nd := range s.wl.node {
			p := 0
			for int(nd) >= n0[p+1] {
				p++
			}
			spans[p] = true
		}
		s.SetThreads(3)
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		g := r.Graph500
		capped := gc.name == "graph500/MIN/capped/background"
		t.Logf("%s: L %d, %d processes in %d of 7 partitions, %d cycles, %d levels, finished %v", gc.name, L, g.Processes, len(spans), g.Cycles, len(g.Levels), g.Finished)
		switch {
		case len(spans) < 2:
			t.Errorf("%s: the job's processes are in one partition of 7", gc.name)
		case g.Finished == capped || !capped && len(g.Levels) < 3:
			t.Errorf("%s: finished %v with %d levels", gc.name, g.Finished, len(g.Levels))
		}
		for _, l := range g.Levels {
			if !capped && l.End == 0 {
				t.Errorf("%s: level %d has no end", gc.name, l.Level)
			}
		}
	}
}

// TestRemoteGraph500Encoding: a job packet's metadata, the raises and the
// root host's decisions come back from their bytes as they were sent
// (remote_graph500.go), and a raise for a process the job does not have
// is refused.
func TestRemoteGraph500Encoding(t *testing.T) {
	gc := graph500Cases()[0]
	mk := func() *Sim {
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		rs, n0, owner, L, _ := s.split(2)
		return s.shard(0, 2, rs, n0, owner, L)
	}
	a, b := mk(), mk()
	for _, m := range []pktMeta{{}, {queries: 1 << 40, level: 7, kind: graph500.Reduce}, {queries: 256, level: 200, kind: graph500.BcastLast}} {
		e := &enc{}
		a.wlMetaBytes(e, m)
		d := &dec{b: e.b}
		if got := b.wlMetaFrom(d); d.err != nil || len(d.b) != 0 || got != m {
			t.Errorf("meta %+v came back %+v (%v)", m, got, d.err)
		}
	}
	dc := graph500.Decision{Level: 3, Mean: 1234.5, Sigma: 0.25, X: -1e-300, Limit: 7e12}
	x := a.wl.pt
	x.raises[0][1] = []int32{71<<1 | 1, 5 << 1}
	x.decs[0][1] = []graph500.Decision{dc}
	e := &enc{}
	a.wlSideBytes(e, 1)
	d := &dec{b: e.b}
	b.wlSideFrom(d)
	j := b.wl.job.State(nil)
	if d.err != nil || len(d.b) != 0 || b.wl.job.Processes() != 72 {
		t.Fatalf("side bytes: %v, %d left", d.err, len(d.b))
	}
	if b.wl.job.EndBound(0) != 71 || len(j) == 0 {
		t.Errorf("end bound %d", b.wl.job.EndBound(0))
	}
	if got := b.wl.job.State(nil); got[len(got)-5] != 3 || got[len(got)-4] != int64(math.Float64bits(1234.5)) {
		t.Errorf("decision not taken: %v", got[len(got)-5:])
	}
	if len(x.raises[0][1]) != 0 || len(x.decs[0][1]) != 0 {
		t.Error("the outbox was not emptied")
	}
	// the copy's state (counters and decisions) comes back from State
	c := a.wl.job.Part(nil, nil, nil, nil)
	v := b.wl.job.State(nil)
	if err := c.SetState(v); err != nil || !slices.Equal(c.State(nil), v) {
		t.Errorf("state %v came back %v (%v)", v, c.State(nil), err)
	}
	if c.SetState(v[:len(v)-1]) == nil || c.SetState(append(slices.Clone(v[:11]), 1<<40)) == nil {
		t.Error("a truncated state, or one with a count beyond it, was taken")
	}
	x.raises[0][1] = []int32{72 << 1}
	e = &enc{}
	a.wlSideBytes(e, 1)
	d = &dec{b: e.b}
	if b.wlSideFrom(d); d.err == nil {
		t.Error("a raise for process 72 of 72 was taken")
	}
}
