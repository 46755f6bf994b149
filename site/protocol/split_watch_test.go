package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"phitsim/engine/config"
)

// watchedSplitCases: a run the live view watches, on the Dragonfly (h=2,
// 9 groups: UGAL under ADV+1, thesis §1.4.1.2, the course example) and on
// the 2D flattened butterfly of Kim et al., Contention-based Congestion
// Management in Large-Scale Networks §V-A (4×4 routers, 100-cycle router
// channels: rows are its partitions), each with the partition counts it
// is split into — an uneven split of the keys among them — and the frames
// it asks for: 13 over the Dragonfly's 4,000 cycles are 308 cycles apart,
// so that windows of the 100-cycle global links are cut short at the
// snapshots' cycles; 20 over the flattened butterfly's 3,000 cycles are
// the least interval, 200 cycles (MinSnapshotEvery), so 15 frames.
func watchedSplitCases() []struct {
	name  string
	cfg   config.Config
	load  float64
	snaps int
	parts []int
} {
	df := tiny()
	df.Routing.Name, df.Traffic.Pattern, df.Traffic.AdvOffset = "UGAL", "ADV", 1
	fb := config.FBFly(2, 4, 4)
	fb.Routing.Name, fb.Traffic.Pattern = "UGAL", "PERM"
	fb.Sim.Warmup, fb.Sim.Cycles, fb.Sim.Seeds = 1000, 2000, 1
	return []struct {
		name  string
		cfg   config.Config
		load  float64
		snaps int
		parts []int
	}{
		{"dragonfly h=2 UGAL ADV+1", df, 0.4, 13, []int{2, 4, 9}},
		{"fbfly 4x4 UGAL PERM", fb, 0.6, 20, []int{2, 3, 4}},
	}
}

// watchedMessages is the Snapshot messages of a run, as they go on the
// wire, and its Result document (CPU time aside).
func watchedMessages(t *testing.T, msgs []*Message) (snaps [][]byte, res []byte) {
	t.Helper()
	last := msgs[len(msgs)-1]
	if last.Type != Result {
		t.Fatalf("last message %v %+v", last.Type, last.Error)
	}
	for _, m := range msgs {
		if m.Type == Snapshot {
			b, err := Encode(m)
			if err != nil {
				t.Fatal(err)
			}
			snaps = append(snaps, b)
		}
	}
	last.Result.CPUSeconds = 0
	res, _ = json.Marshal(last.Result)
	return snaps, res
}

// TestExecuteSplitWatched: a watched run split across 2–9 workers'
// partitions (engine/PARALLEL.md, "In the page") sends the one-worker
// run's Snapshot messages, byte for byte and in the same order, and its
// Result: the live view of a split run is the one-worker live view.
func TestExecuteSplitWatched(t *testing.T) {
	for _, tc := range watchedSplitCases() {
		job := &StartJob{Config: tc.cfg, Seed: 3, Load: tc.load, Snapshots: tc.snaps}
		oneSnaps, oneRes := watchedMessages(t, collect(context.Background(), job, nil))
		total := int64(tc.cfg.Sim.Warmup + tc.cfg.Sim.Cycles)
		if want := (total + SnapshotEvery(total, tc.snaps) - 1) / SnapshotEvery(total, tc.snaps); int64(len(oneSnaps)) != want {
			t.Fatalf("%s: %d snapshots on one worker, want %d", tc.name, len(oneSnaps), want)
		}
		for _, parts := range tc.parts {
			t.Run(fmt.Sprintf("%s/%d", tc.name, parts), func(t *testing.T) {
				j := *job
				j.Parts = parts
				msgs := collectSplit(context.Background(), &j, splitLinks(t, &j, parts))
				if last := msgs[len(msgs)-1]; last.Type == Result && last.Result.Sequential != "" {
					t.Fatalf("ran sequentially: %s", last.Result.Sequential)
				}
				snaps, res := watchedMessages(t, msgs)
				if len(snaps) != len(oneSnaps) {
					t.Fatalf("%d snapshot messages, one worker sent %d", len(snaps), len(oneSnaps))
				}
				for i := range snaps {
					if !bytes.Equal(snaps[i], oneSnaps[i]) {
						a, _ := Decode(snaps[i])
						b, _ := Decode(oneSnaps[i])
						t.Errorf("snapshot %d (cycle %d; one worker's: cycle %d) differs", i, a.Net.Cycle, b.Net.Cycle)
					}
				}
				if string(res) != string(oneRes) {
					t.Errorf("the result differs from one worker's\n%s\n%s", res, oneRes)
				}
			})
		}
	}
}

// TestExecuteSplitWatchedCancel: cancelled while the live view watches it
// (after its third snapshot), a run split across 3 workers ends with a
// cancelled Error, sends no snapshot after the cancel is seen, and closes
// every partition.
func TestExecuteSplitWatchedCancel(t *testing.T) {
	c := watchedSplitCases()[0]
	job := &StartJob{Config: c.cfg, Seed: 3, Load: c.load, Snapshots: 20, Parts: 3}
	links := splitLinks(t, job, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var msgs []*Message
	snaps := 0
	ExecuteSplit(ctx, 1, job, func(m *Message) {
		msgs = append(msgs, wire(m))
		if m.Type == Snapshot {
			if snaps++; snaps == 3 {
				cancel()
			}
		}
	}, nil, links)
	last := msgs[len(msgs)-1]
	if last.Type != Error || last.Error.Kind != KindCancelled {
		t.Fatalf("last message %v %+v, want a cancelled error", last.Type, last.Error)
	}
	// the coordinator looks at ctx at the first barrier after each 1,024
	// cycles: snapshots of cycles 800 and 1,000 may still come
	if snaps < 3 || snaps > 5 {
		t.Errorf("%d snapshots before the cancel took effect, want 3–5", snaps)
	}
	for i, l := range links {
		closed := make(chan bool, 1)
		go func() {
			_, err := l.Recv()
			closed <- err != nil
		}()
		select {
		case ok := <-closed:
			if !ok {
				t.Errorf("partition %d: answered after the cancel", i+1)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("partition %d: not closed 5 s after the cancel", i+1)
		}
	}
}
