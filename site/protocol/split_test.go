package protocol

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"phitsim/engine/sim"
)

// splitLinks: partitions 1…parts−1 of job's run, each built as a worker
// builds it from a Part message (NewPartition: a Sim of its own), behind
// channels of bytes in place of MessagePorts.
func splitLinks(t *testing.T, job *StartJob, parts int) []sim.Link {
	var links []sim.Link
	for p := 1; p < parts; p++ {
		pj := *job
		pj.Part = p
		pt, err := NewPartition(&pj)
		if err != nil {
			t.Fatal(err)
		}
		links = append(links, sim.LocalLink(pt))
	}
	return links
}

func collectSplit(ctx context.Context, job *StartJob, remote []sim.Link) []*Message {
	var out []*Message
	ExecuteSplit(ctx, 1, job, func(m *Message) {
		out = append(out, wire(m))
	}, nil, remote)
	return out
}

// TestExecuteSplitMatchesOneWorker: a run split across 2 and 3 workers'
// partitions (the page's split, with channels for MessagePorts) gives the
// one-worker Result message, busiest link included.
func TestExecuteSplitMatchesOneWorker(t *testing.T) {
	c := tiny()
	c.Sim.Warmup, c.Sim.Cycles = 300, 3300 // progress at 1,024, 2,048 and 3,072 cycles
	job := &StartJob{Config: c, Seed: 5, Load: 0.5, ProgressMillis: 1}
	msgs := collect(context.Background(), job, nil)
	one := msgs[len(msgs)-1]
	if one.Type != Result {
		t.Fatalf("one worker: %v %+v", one.Type, one.Error)
	}
	one.Result.CPUSeconds = 0
	want, _ := json.Marshal(one.Result)
	for _, parts := range []int{2, 3} {
		j := *job
		j.Parts = parts
		msgs := collectSplit(context.Background(), &j, splitLinks(t, &j, parts))
		last := msgs[len(msgs)-1]
		if last.Type != Result {
			t.Fatalf("%d workers: %v %+v", parts, last.Type, last.Error)
		}
		if last.Result.Sequential != "" {
			t.Fatalf("%d workers: ran sequentially: %s", parts, last.Result.Sequential)
		}
		last.Result.CPUSeconds = 0
		if got, _ := json.Marshal(last.Result); string(got) != string(want) {
			t.Errorf("%d workers: the result differs from one worker's\n%s\n%s", parts, got, want)
		}
		// at a progress barrier the coordinator holds the whole network's
		// counts so far: the partial metrics of a sequential run stepped
		// to that cycle
		seq := c
		seq.Traffic.Load = job.Load
		s, err := sim.New(seq, job.Seed)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, m := range msgs[:len(msgs)-1] {
			if m.Type != Progress {
				t.Errorf("%d workers: unexpected %v", parts, m.Type)
				continue
			}
			for s.Now() < m.Progress.Cycle {
				s.Step()
			}
			snap := s.Snapshot()
			want := Partial{Measured: true, Applied: snap.Applied, Accepted: snap.Accepted, Latency: snap.Latency.Avg, Delivered: snap.Delivered}
			if m.Progress.Cycle > int64(c.Sim.Warmup) {
				seen++
				if m.Progress.Partial != want {
					t.Errorf("%d workers, cycle %d: partial metrics %+v, the sequential run's %+v", parts, m.Progress.Cycle, m.Progress.Partial, want)
				}
			}
		}
		if seen == 0 { // (messages are at least ProgressMillis apart: a fast host may skip some)
			t.Errorf("%d workers: no progress message in the measured window", parts)
		}
	}
}

// TestExecuteSplitUncovered: a configuration the partitioned engine does
// not cover (ACOR with router.idleUpdates=fogsim: a lookahead of one cycle
// across the cut) runs on the coordinator's worker as on one worker: the
// same document, without a note, and the partitions are closed at once.
func TestExecuteSplitUncovered(t *testing.T) {
	c := tiny()
	c.Routing.Name = "ACOR"
	c.Router.IdleUpdates = "fogsim"
	c.Sim.Warmup, c.Sim.Cycles = 300, 700
	if s, err := sim.New(c, 5); err != nil || s.Unpartitioned() == "" {
		t.Fatalf("the configuration is partitioned (%v): the test needs one that is not", err)
	}
	job := &StartJob{Config: c, Seed: 5, Load: 0.5}
	msgs := collect(context.Background(), job, nil)
	one := msgs[len(msgs)-1]
	if one.Type != Result {
		t.Fatalf("one worker: %v %+v", one.Type, one.Error)
	}
	j := *job
	j.Parts = 3
	links := splitLinks(t, &j, 3)
	msgs = collectSplit(context.Background(), &j, links)
	last := msgs[len(msgs)-1]
	if last.Type != Result {
		t.Fatalf("3 workers: %v %+v", last.Type, last.Error)
	}
	one.Result.CPUSeconds, last.Result.CPUSeconds = 0, 0
	a, _ := json.Marshal(one.Result)
	b, _ := json.Marshal(last.Result)
	if string(a) != string(b) {
		t.Errorf("3 workers: the document differs from one worker's\n%s\n%s", b, a)
	}
	for i, l := range links {
		if _, err := l.Recv(); err == nil {
			t.Errorf("partition %d: not closed", i+1)
		}
	}
}

// TestExecuteSplitErrors: a partition's error ends the run with its
// message; a cancelled split run is cancelled.
func TestExecuteSplitErrors(t *testing.T) {
	c := tiny()
	job := &StartJob{Config: c, Seed: 5, Load: 0.5, Parts: 3}
	links := splitLinks(t, job, 3)
	links[0], links[1] = links[1], links[0]
	msgs := collectSplit(context.Background(), job, links)
	if last := msgs[len(msgs)-1]; last.Type != Error || !strings.Contains(last.Error.Msg, "partition 2: start: partition 1 of 3, but this host is partition 2") {
		t.Errorf("a partition's error: %v %+v", last.Type, last.Error)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	msgs = collectSplit(ctx, job, splitLinks(t, job, 3))
	if last := msgs[len(msgs)-1]; last.Type != Error || last.Error.Kind != KindCancelled {
		t.Errorf("cancelled: %v %+v", last.Type, last.Error)
	}
}
