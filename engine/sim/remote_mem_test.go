package sim

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"phitsim/engine/config"
)

// heapNow is the live heap after two collections.
func heapNow() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// startedPartition is partition p of n of a run of c with seed 1, started
// as the coordinator's first command starts it (100-cycle windows, watched
// every 200 cycles as the page's live view is): in a Sim of its own, or
// with own partition 0 of a coordinator's watched Sim (OwnPartition).
func startedPartition(t *testing.T, c config.Config, p, n int, own bool) *Partition {
	t.Helper()
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	var pt *Partition
	if own {
		if err := s.Watch(200, func(*NetSnapshot) {}); err != nil {
			t.Fatal(err)
		}
		pt, err = OwnPartition(s)
	} else {
		pt, err = NewPartition(s, p)
	}
	if err != nil {
		t.Fatal(err)
	}
	s.initDetector()
	start := &enc{b: []byte{opStart}}
	for _, v := range []int64{int64(n), int64(p), 100, s.dl.age, s.dl.mask, 200} {
		start.i(v)
	}
	if ans, _ := pt.Handle(start.b); len(ans) == 0 || ans[0] != ansOK {
		t.Fatalf("start: %s", ans)
	}
	return pt
}

// TestRemoteWorkerMemory measures what each Web Worker of a run split
// across memories holds (engine/BENCHMARKS.md, "Parallel runs"): the live
// heap of a Sim fresh from New (the coordinator's own Sim, which steps
// nothing) and after 2,000 cycles (one worker: its packets in flight),
// and of partition p of n once started (New and its shard). The
// coordinator's worker holds its Sim and partition 0: a Sim of its own, or
// a shard of the coordinator's (OwnPartition, the page's). A measurement,
// not a check: it runs with PHITSIM_SPLIT_MEM=1 only.
func TestRemoteWorkerMemory(t *testing.T) {
	if os.Getenv("PHITSIM_SPLIT_MEM") == "" {
		t.Skip("a measurement: PHITSIM_SPLIT_MEM=1 runs it")
	}
	for _, name := range []string{"h4", "h8"} {
		c, err := config.PresetByName(name)
		if err != nil {
			t.Fatal(err)
		}
		c.Traffic.Load = 0.4
		base := heapNow()
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		one := heapNow() - base
		for s.Now() < 2000 { // the packets in flight at load 0.4
			s.Step()
		}
		stepped := heapNow() - base
		runtime.KeepAlive(s)
		s = nil
		t.Logf("%s: one Sim %.1f MB fresh, %.1f MB after 2,000 cycles at load 0.4", name, float64(one)/1e6, float64(stepped)/1e6)
		for _, n := range []int{2, 4} {
			var line string
			for _, p := range []int{0, n - 1} {
				base := heapNow()
				pt := startedPartition(t, c, p, n, false)
				b := heapNow() - base
				runtime.KeepAlive(pt)
				line += fmt.Sprintf(", partition %d %.1f MB", p, float64(b)/1e6)
				if p == 0 {
					line += fmt.Sprintf(" (the coordinator's worker, a Sim of its own: %.1f MB", float64(b+one)/1e6)
					base := heapNow()
					pt := startedPartition(t, c, 0, n, true)
					b := heapNow() - base
					runtime.KeepAlive(pt)
					line += fmt.Sprintf("; with OwnPartition: %.1f MB)", float64(b)/1e6)
				}
			}
			t.Logf("%s: one Sim %.1f MB; %d workers%s", name, float64(one)/1e6, n, line)
		}
	}
}
