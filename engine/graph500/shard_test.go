package graph500

import (
	"reflect"
	"slices"
	"testing"
)

// slowNet delivers a query packet dq cycles after it is sent and every
// other packet ds cycles after, both at least the window L: end-of-level
// signals overtake the queries sent before them, so a destination reads
// its expected count while queries are still on their way. Deliveries of
// a cycle go in the order of their send cycle, then source: the same in
// a run of the whole job and in a partitioned one.
type slowNet struct {
	dq, ds int64
	now    int64
	at     map[int64][]ev
}

func (n *slowNet) Send(src, dst int, k Kind, level int, q int64) bool {
	d := n.ds
	if k == Query {
		d = n.dq
	}
	n.at[n.now+d] = append(n.at[n.now+d], ev{at: n.now, src: src, dst: dst, k: k, level: level, q: q})
	return true
}

// due is cycle t's deliveries whose destination keep accepts, in order.
func (n *slowNet) due(t int64, keep func(dst int) bool) []ev {
	var out []ev
	for _, e := range n.at[t] {
		if keep(e.dst) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b ev) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return a.src - b.src
	})
	return out
}

// whole runs the job sequentially on slowNet.
func whole(t *testing.T, p Params, n int, net *slowNet) *Job {
	t.Helper()
	j := NewJob(p, n, net, 3)
	for net.now = 0; !j.Done(); net.now++ {
		if net.now > 1e6 {
			t.Fatal("the BFS did not end")
		}
		for _, e := range net.due(net.now, func(int) bool { return true }) {
			j.Deliver(e.dst, e.k, e.level, e.q, net.now)
		}
		j.Step(net.now)
	}
	return j
}

// partitioned runs the job as parts copies (processes split in ranges),
// each stepping windows of L cycles (cut short at EndBound), with a
// barrier after each that hands raises and decisions over; late delays
// the raises by that many windows, dropDecisions loses the decisions
// (the breaks the test must see); nil: the BFS did not end.
func partitioned(t *testing.T, p Params, n, parts int, L int64, net *slowNet, late int, dropDecisions bool) *Job {
	t.Helper()
	main := NewJob(p, n, net, 3)
	home := make([]int, n)
	type box struct {
		raises [][2]int
		decs   []Decision
	}
	out := make([]box, parts)
	var pending [][][2]int // raises held back (late)
	js := make([]*Job, parts)
	for q := range parts {
		var mine []int32
		for r := range n {
			home[r] = min(r*parts/n, parts-1)
			if home[r] == q {
				mine = append(mine, int32(r))
			}
		}
		js[q] = main.Part(mine, net, func(dst, par int) bool {
			if home[dst] == q {
				return false
			}
			out[q].raises = append(out[q].raises, [2]int{dst, par})
			return true
		}, func(d Decision) { out[q].decs = append(out[q].decs, d) })
	}
	for T0 := int64(0); ; {
		if T0 > 1e6 {
			return nil // did not end
		}
		to := min(T0+L, max(T0+1, main.EndBound(T0)+1))
		for q, j := range js {
			for net.now = T0; net.now < to; net.now++ {
				for _, e := range net.due(net.now, func(dst int) bool { return home[dst] == q }) {
					j.Deliver(e.dst, e.k, e.level, e.q, net.now)
				}
				j.Step(net.now)
			}
		}
		// the barrier
		var raises [][2]int
		for q := range out {
			raises = append(raises, out[q].raises...)
			out[q].raises = out[q].raises[:0]
			for _, d := range out[q].decs {
				for r, j := range js {
					if r != q && !dropDecisions {
						j.Decide(d)
					}
				}
			}
			out[q].decs = out[q].decs[:0]
		}
		pending = append(pending, raises)
		for len(pending) > late {
			for _, r := range pending[0] {
				js[home[r[0]]].Raise(r[0], r[1])
			}
			pending = pending[1:]
		}
		done, at, _ := main.Ended(js)
		if done {
			if at != to-1 {
				t.Fatalf("the BFS ended at cycle %d, inside a window to %d", at, to)
			}
			break
		}
		T0 = to
	}
	main.Merge(js)
	return main
}

// TestPartsMatchWholeJob: the job split into 2, 3 and 5 partitions of its
// processes (Part), with raises and decisions handed over at the barriers
// and the counters merged (Merge), reports what the whole job reports, on
// a network where signals overtake queries (so that a raise arriving late
// would let a process end its level early); raises two windows late, and
// decisions lost, change the report. (One window late changes none of
// these runs: the destination must then have every signal and every
// query but those sent in the window before, which these loads do not
// give.)
func TestPartsMatchWholeJob(t *testing.T) {
	p := smallParams()
	p.Scale, p.TqCycles = 12, 0.05
	const n, L = 12, 6
	mk := func() *slowNet { return &slowNet{dq: 3 * L, ds: L, at: map[int64][]ev{}} }
	want := whole(t, p, n, mk())
	wr := want.Report(want.DoneAt() + 1)
	if len(wr.Levels) < 3 {
		t.Fatalf("%d levels", len(wr.Levels))
	}
	for _, parts := range []int{2, 3, 5} {
		got := partitioned(t, p, n, parts, L, mk(), 0, false)
		if got == nil {
			t.Fatalf("%d partitions: the BFS did not end", parts)
		}
		if gr := got.Report(got.DoneAt() + 1); !reflect.DeepEqual(gr, wr) {
			t.Errorf("%d partitions: %+v\nwant %+v", parts, gr, wr)
		}
	}
	// a break changes the report, or stops the BFS, or makes a process
	// enter a level it has no entry for (a panic)
	same := func(late int, drop bool) (same bool) {
		defer func() {
			if recover() != nil {
				same = false
			}
		}()
		j := partitioned(t, p, n, 3, L, mk(), late, drop)
		return j != nil && reflect.DeepEqual(j.Report(j.DoneAt()+1), wr)
	}
	if same(2, false) {
		t.Error("raises two windows late: the same report")
	}
	if same(0, true) {
		t.Error("decisions lost: the same report")
	}
}
