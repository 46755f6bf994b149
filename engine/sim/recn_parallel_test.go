package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// recnCases are RECN's configurations of TestParallelBitIdentical (Duato
// et al., A New Scalable and Cost-Effective Congestion Management
// Strategy for Lossless Multistage Interconnection Networks §4.2, Table
// 1: the corner cases on the 64-host 4-ary 3-tree, strided senders to
// host 32 over a UN background, 50 % in case 1 and 100 % in case 2), run
// short with the hotspot from cycle 100: congestion trees grow, their
// lines notify across the cut between the top two stages, and the
// interfaces' SAQs stop their admittance queues (the default, as large as
// the interface's memory, and one of two packets that stalls the
// generators). The fat tree has 4 subtrees: 7 partitions clamp to 4.
func recnCases() []goldenCase {
	var senders []string
	for h := 3; h < 64; h += 4 {
		senders = append(senders, fmt.Sprint(h))
	}
	base := append([]string{"congestion.scheme=recn", "physical.linkGbps=8", "physical.phitBytes=8", "sim.warmup=200", "sim.cycles=1400",
		"sim.interval=100", "congestion.recnDetect=512", "congestion.recnProp=512", "congestion.recnXoff=1024", "congestion.recnXon=512",
		"traffic.pattern=HOTSPOT", "traffic.hotspotNode=32", "traffic.hotspotSenders=" + strings.Join(senders, ","),
		"traffic.hotspotBackground=UN", "traffic.hotspotStart=50", "traffic.hotspotEnd=400"}, fattreeRouter...)
	add := func(name string, sets ...string) goldenCase {
		return goldenCase{name, append(append([]string(nil), base...), sets...)}
	}
	return []goldenCase{
		add("recn/case1", "traffic.load=0.5"),
		add("recn/case2", "traffic.load=1"),
		add("recn/case2/admittance", "traffic.load=1", "congestion.recnAdmittance=128"),
		// the senders at their link's rate (RECN paper §4.2): each
		// sender's next cycle is its partition's
		add("recn/case2/linkRate", "traffic.load=1", "traffic.hotspotLinkRate=true", "congestion.recnAdmittance=128"),
		add("recn/drain", "traffic.load=0.5", "traffic.hotspotSenders=3,19,35,51", "traffic.hotspotEnd=250", "sim.cycles=1800", "traffic.load=0.2"),
		// router.queueing's out-of-order count beside RECN's numbers: a
		// crossing carries both (crossing.seq, crossing.rseq)
		add("recn/queueing", "traffic.load=1", "router.queueing=iq", "sim.cycles=600"),
	}
}

// recnDue is the messages due at cycle now in rc's wheel, in the order its
// step handles them, those to sides of partition p only (owner: each
// side's partition; nil: all).
func recnDue(rc *recn, now int64, owner []uint16, p uint16) []recnMsg {
	var out []recnMsg
	for i := rc.wh[now&(recnWheel-1)]; i >= 0; i = rc.msgs[i].next {
		if m := rc.msgs[i].m; owner == nil || owner[m.to] == p {
			out = append(out, m)
		}
	}
	return out
}

// TestRECNPartitionOrder: every partition handles, in every cycle, the
// messages the sequential run handles at its sides, in the same order
// (RECN paper §3: the protocol's messages act in the order posted;
// recn_parallel.go, the key merge) — the windows stepped here one
// partition after the other as runParallel's goroutines step them, the
// wheel's slot read before each cycle (a handler posts to later cycles
// only). On recn/drain, whose notifications, acknowledgements, tokens,
// Xoff and Xon cross the cut, on 2 and 4 partitions.
func TestRECNPartitionOrder(t *testing.T) {
	var gc goldenCase
	for _, c := range recnCases() {
		if c.name == "recn/drain" {
			gc = c
		}
	}
	seq, err := New(parallelConfig(t, gc), 1)
	if err != nil {
		t.Fatal(err)
	}
	end := seq.W + seq.M
	var want [][]recnMsg
	for seq.now < end {
		want = append(want, recnDue(seq.rn.rc, seq.now, nil, 0))
		seq.Step()
	}
	for _, n := range []int{2, 4} {
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		rs, n0, owner, L, ok := s.split(n)
		if !ok {
			t.Fatal("split")
		}
		parts := make([]*Sim, n)
		for p := range parts {
			parts[p] = s.shard(p, n, rs, n0, owner, L)
		}
		crossed, compared := 0, 0
		for from := int64(0); from < end; from += L {
			to := min(from+L, end)
			for _, sh := range parts {
				sh.receive(parts)
				px := sh.rn.rc.px
				for sh.now < to {
					got := recnDue(sh.rn.rc, sh.now, px.owner, px.id)
					w := recnDue(seq.rn.rc, 0, nil, 0)[:0]
					for _, m := range want[sh.now] {
						if px.owner[m.to] == px.id {
							w = append(w, m)
						}
					}
					if !slices.Equal(got, w) {
						t.Fatalf("%d partitions, partition %d, cycle %d: handles\n%+v\nwant\n%+v", n, px.id, sh.now, got, w)
					}
					compared += len(got)
					sh.Step()
				}
				for _, o := range px.out[sh.xp.bank] {
					crossed += len(o)
				}
			}
			for _, sh := range parts {
				sh.xp.bank = 1 - sh.xp.bank
			}
		}
		if crossed == 0 || compared == 0 {
			t.Errorf("%d partitions: %d messages crossed the cut, %d compared", n, crossed, compared)
		}
		t.Logf("%d partitions: %d messages in order, %d across the cut", n, compared, crossed)
	}
}

// TestRECNKeyOrder: the comparison of two messages' keys (recnPart.before,
// recn_parallel.go) — by cycle posted; by phase; within a partition by
// its running number; across partitions by the acting side (phases A–X),
// and in phase H by the parents' keys, ambiguous only when both parents
// were posted in phase H of one cycle.
func TestRECNKeyOrder(t *testing.T) {
	h := func(c int64, part uint16, seq uint32, pc int64, pph, pidx uint64) recnKey {
		return recnKey{c: c, ord: recnPhaseH << 60, pc: pc, pord: pph<<60 | pidx<<20, part: part, seq: seq}
	}
	x := func(c int64, part uint16, seq uint32, ph, idx uint64) recnKey {
		return recnKey{c: c, ord: ph<<60 | idx<<20, part: part, seq: seq}
	}
	for _, tc := range []struct {
		name       string
		a, b       recnKey
		want, ambi bool
	}{
		{"cycle", x(5, 1, 9, recnPhaseX, 3), h(6, 0, 0, 2, recnPhaseR, 1), true, false},
		{"phase", h(5, 1, 9, 4, recnPhaseX, 0), x(5, 0, 0, recnPhaseR, 0), true, false},
		{"phase/2", x(5, 0, 0, recnPhaseX, 0), x(5, 1, 9, recnPhaseE, 7), false, false},
		{"side", x(5, 1, 0, recnPhaseE, 3), x(5, 0, 4, recnPhaseE, 7), true, false},
		{"own", h(5, 1, 2, 4, recnPhaseH, 0), h(5, 1, 3, 4, recnPhaseH, 0), true, false},
		{"parent cycle", h(5, 1, 7, 3, recnPhaseH, 0), h(5, 0, 0, 4, recnPhaseX, 0), true, false},
		{"parent phase", h(5, 1, 7, 3, recnPhaseE, 9), h(5, 0, 0, 3, recnPhaseR, 2), false, false},
		{"parent side", h(5, 1, 7, 3, recnPhaseE, 2), h(5, 0, 0, 3, recnPhaseE, 9), true, false},
		{"ambiguous", h(5, 1, 0, 3, recnPhaseH, 0), h(5, 0, 1, 3, recnPhaseH, 0), false, true},
	} {
		px := &recnPart{}
		if got := px.before(&tc.a, &tc.b); got != tc.want || px.ambiguous != tc.ambi {
			t.Errorf("%s: before %v (ambiguous %v), want %v (%v)", tc.name, got, px.ambiguous, tc.want, tc.ambi)
		}
	}
}

// TestRECNAmbiguousRestart: a partition whose merge could not order two
// messages (recnPart.before) makes the run start again sequentially, to the
// sequential run's document (the ambiguity forced in one partition's merge
// at cycle 600 or later of recn/drain, on 3 partitions), and, watched by
// the live view (snap/recn/case2), to the sequential run's snapshots, each
// handed over once (rewatch).
func TestRECNAmbiguousRestart(t *testing.T) {
	var cases []goldenCase
	for _, c := range recnCases() {
		if c.name == "recn/drain" {
			cases = append(cases, c)
		}
	}
	// watched by the live view: the restarted run hands over the
	// snapshots after those the partitioned run did, each once
	cases = append(cases, recnSnapCase())
	for _, gc := range cases {
		want, _ := runDoc(t, gc, 1)
		recnMergeHook = func(px *recnPart) {
			if px.id == 1 && px.from >= 600 {
				px.ambiguous = true
			}
		}
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		snaps := watchSnapshots(t, s, gc)
		s.SetThreads(3)
		r, err := s.Run(context.Background(), nil)
		recnMergeHook = nil
		if err != nil {
			t.Fatal(err)
		}
		if !s.reran {
			t.Errorf("%s: an ambiguous merge: the run did not start again sequentially", gc.name)
		}
		r.CPUSeconds = 0
		got, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, *snaps...)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the restarted run's document differs from the sequential run's:\n%s", gc.name, firstDiff(got, want))
		}
	}
}

// recnSnapCase is recn/case2 watched by the live view (snapshotEvery: every
// 97 cycles, no divisor of the windows): each snapshot's buffers, packets
// and SAQ lines per switch and per interface are RECN's sides', taken at
// the start of the snapshot's cycle (Step), by each partition for its own
// switches and hosts (snapPartition).
func recnSnapCase() goldenCase {
	for _, c := range recnCases() {
		if c.name == "recn/case2" {
			return goldenCase{"snap/recn/case2", c.sets}
		}
	}
	panic("recn/case2")
}
