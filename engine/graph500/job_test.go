package graph500

import (
	"math"
	"reflect"
	"testing"
)

// idealNet delivers every packet after a fixed delay, with unlimited
// bandwidth: the job's timing is then its processes' computation and
// synchronisation alone.
type idealNet struct {
	delay int64
	now   int64
	fifo  []ev
	job   *Job
	sent  map[Kind]int
}

type ev struct {
	at       int64
	src, dst int
	k        Kind
	level    int
	q        int64
}

func (n *idealNet) Send(src, dst int, k Kind, level int, q int64) bool {
	if src == dst {
		panic("a process sent to itself")
	}
	n.fifo = append(n.fifo, ev{n.now + n.delay, src, dst, k, level, q})
	n.sent[k]++
	return true
}

func runIdeal(t *testing.T, p Params, n int, seed uint64, delay, limit int64) (*Job, *idealNet) {
	t.Helper()
	net := &idealNet{delay: delay, sent: map[Kind]int{}}
	j := NewJob(p, n, net, seed)
	net.job = j
	head := 0
	for net.now = 0; !j.Done() && net.now < limit; net.now++ {
		for head < len(net.fifo) && net.fifo[head].at == net.now {
			e := net.fifo[head]
			head++
			j.Deliver(e.dst, e.k, e.level, e.q, net.now)
		}
		j.Step(net.now)
	}
	if !j.Done() {
		t.Fatalf("the BFS did not end in %d cycles", limit)
	}
	return j, net
}

func smallParams() Params {
	return Params{Scale: 16, EdgeFactor: 16, Coalescing: 256, QueriesPerPacket: 256, PacketPhits: 8,
		TqCycles: 1, CycleNs: 1, ReduceAfterWork: true, BudgetCap: true,
		MaxLevels: 9, TailLevel: 5, TailFraction: 0.1, Interval: 1000}
}

// A whole BFS over an ideal network: every packet sent is delivered, the
// signals and all-reduce packets follow the protocol (level 0: only the root
// host signals; then n−1 signals per process and level, n−1 reductions and
// n−1 broadcasts per level), and the queries sent use the budget without
// exceeding it.
func TestJobProtocolAndBudget(t *testing.T) {
	const n = 16
	for _, sampling := range []bool{false, true} {
		p := smallParams()
		p.LevelSampling = sampling
		j, net := runIdeal(t, p, n, 3, 5, 10_000_000)
		g := j.Report(net.now)
		if !g.Finished || g.PacketsSent != g.PacketsDelivered || int(g.PacketsSent) != len(net.fifo) {
			t.Fatalf("finished %v, sent %d, delivered %d, network saw %d", g.Finished, g.PacketsSent, g.PacketsDelivered, len(net.fifo))
		}
		levels := len(g.Levels)
		if net.sent[Signal] != (n-1)+(levels-1)*n*(n-1) {
			t.Errorf("%d signals for %d levels, want %d", net.sent[Signal], levels, (n-1)+(levels-1)*n*(n-1))
		}
		if net.sent[Reduce] != levels*(n-1) || net.sent[Bcast]+net.sent[BcastLast] != levels*(n-1) || net.sent[BcastLast] != n-1 {
			t.Errorf("all-reduce packets: %d reduce, %d bcast, %d last, for %d levels", net.sent[Reduce], net.sent[Bcast], net.sent[BcastLast], levels)
		}
		var q, m int64
		for i, l := range g.Levels {
			q += l.Queries
			m += l.Messages
			if l.End <= 0 || (i > 0 && l.End <= g.Levels[i-1].End) {
				t.Errorf("level %d ends at %d", i, l.End)
			}
		}
		if q != g.Queries || m != g.Messages || g.QueryPackets != int64(net.sent[Query]) {
			t.Errorf("level sums %d queries %d messages vs totals %d %d", q, m, g.Queries, g.Messages)
		}
		if g.Levels[0].Queries != int64(math.Ceil(float64(j.RootDegree())*(n-1)/n)) {
			t.Errorf("level 0 sent %d queries for root degree %d", g.Levels[0].Queries, j.RootDegree())
		}
		if float64(g.Queries) > g.Budget*1.001 || float64(g.Queries) < 0.85*g.Budget {
			t.Errorf("sampling per level %v: %d queries for a budget of %.0f", sampling, g.Queries, g.Budget)
		}
		t.Logf("sampling per level %v: dr %d, %d levels, %d of %.0f queries, %d messages, %d cycles",
			sampling, j.RootDegree(), levels, g.Queries, g.Budget, g.Messages, g.Cycles)
	}
}

// With infinite bandwidth the BFS is CPU-bound: every process computes tq per
// query it sends and per query it receives, never both at once (half duplex),
// so the execution time is about 2·Σq·tq (derived: half duplex, tq per query
// both ways, with Σq from thesis eq. 2.1), a little more
// for the busiest receivers and the synchronisation.
func TestJobIsCPUBoundOnAnIdealNetwork(t *testing.T) {
	const n = 16
	p := smallParams()
	p.LevelSampling = true // every process sends the same
	p.TqCycles = 2
	j, net := runIdeal(t, p, n, 5, 3, 10_000_000)
	g := j.Report(net.now)
	cpu := 2 * float64(g.Queries) / n * p.TqCycles
	ratio := float64(g.Cycles) / cpu
	t.Logf("%d cycles for 2·q·tq = %.0f cycles: ratio %.3f", g.Cycles, cpu, ratio)
	if ratio < 0.98 || ratio > 1.2 {
		t.Errorf("execution %d cycles, 2·q·tq = %.0f: ratio %.3f outside [0.98, 1.2]", g.Cycles, cpu, ratio)
	}
	// the geometric (eq. 2.20 per cycle) generation has the same mean
	p.Bernoulli = true
	jb, netb := runIdeal(t, p, n, 5, 3, 10_000_000)
	gb := jb.Report(netb.now)
	if r := float64(gb.Cycles) / float64(g.Cycles); r < 0.95 || r > 1.15 {
		t.Errorf("bernoulli generation: %d cycles vs %d computed (ratio %.3f)", gb.Cycles, g.Cycles, r)
	}
	// FOGSim's all-reduce does not wait for the received queries: not slower
	p.Bernoulli, p.ReduceAfterWork = false, false
	jf, netf := runIdeal(t, p, n, 5, 3, 10_000_000)
	if gf := jf.Report(netf.now); gf.Cycles > g.Cycles {
		t.Errorf("all-reduce on arrival took %d cycles, more than waiting for the work (%d)", gf.Cycles, g.Cycles)
	}
}

// Same seed, same run; another seed, another root.
func TestJobIsDeterministic(t *testing.T) {
	p := smallParams()
	a, na := runIdeal(t, p, 12, 9, 4, 10_000_000)
	b, nb := runIdeal(t, p, 12, 9, 4, 10_000_000)
	if !reflect.DeepEqual(a.Report(na.now), b.Report(nb.now)) {
		t.Error("two runs with the same seed differ")
	}
	p.RootDegree = 1000
	c, _ := runIdeal(t, p, 12, 9, 4, 10_000_000)
	if c.RootDegree() != 1000 {
		t.Errorf("fixed root degree: got %d", c.RootDegree())
	}
}
