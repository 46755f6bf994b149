package sim

import "testing"

// TestRemoteBusyWords: the flows that sent a packet (ECN's busy, read by
// the report's throttled share: Kim et al., Contention-based Congestion
// Management in Large-Scale Networks Fig. 8a's measure) travel as the
// words that changed since the partition's last state answer, so a flow
// that first sends after a gather reaches the coordinator at the next one
// (TestRemoteBitIdentical's runs have every flow busy by their first
// gather, at the end of the warm-up).
func TestRemoteBusyWords(t *testing.T) {
	c := parallelConfig(t, mechCases()[0]) // ECN/MIN/HOTSPOT
	pt, start := hostPartition(t, c, 2)
	if ans, _ := pt.Handle(start); len(ans) != 1 || ans[0] != ansOK {
		t.Fatalf("start: answer %q", ans)
	}
	co, err := New(c, 1) // the coordinator
	if err != nil {
		t.Fatal(err)
	}
	busy := pt.s.ecnOf().busy
	lo, hi := pt.s.n0*pt.s.N, pt.s.n1*pt.s.N
	if lo == 0 || hi-lo < 200 {
		t.Fatalf("partition 1's flows [%d, %d)", lo, hi)
	}
	send := func() int {
		e := &enc{}
		pt.mechState(e)
		co.mechZero()
		if err := co.mechFrom(&dec{b: e.b}, 1); err != nil {
			t.Fatal(err)
		}
		for f := range busy {
			if co.ecnOf().busy[f] != (busy[f] && f >= lo && f < hi) {
				t.Fatalf("flow %d: the coordinator has busy=%v, the partition %v", f, co.ecnOf().busy[f], busy[f])
			}
		}
		return len(e.b)
	}
	busy[lo+3] = true
	busy[hi-1] = true
	send()
	busy[lo+130] = true // a word not sent before
	busy[lo+4] = true   // a word sent before
	n := send()
	if none := send(); none >= n {
		t.Errorf("an answer with no flow newly busy is %d bytes, with two words %d", none, n)
	}
}
