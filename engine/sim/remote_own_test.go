package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"phitsim/engine/result"
)

// TestRemoteOwnPartition: TestRemoteBitIdentical's configurations with
// partition 0 a shard of the coordinator's Sim (OwnPartition, the page's
// coordinating worker) and the others Sims of their own: the sequential
// run's whole result document and snapshots, on 2, 3, 4 and 7 partitions
// in turn: every watched, ACOR, QCN-Switch, ECN, Ideal and CBCM one (the
// state a shard shares with its full Sim beyond the routers' arrays) and
// one in four of the others (they share only what these share).
func TestRemoteOwnPartition(t *testing.T) {
	counts := []int{2, 3, 4, 7}
	covered := 0
	for i, gc := range parallelCases() {
		c := parallelConfig(t, gc)
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.remoteBlocker() != "" {
			continue // sequential on the coordinator: its partitions never start
		}
		if !ownAll(gc.name) && i%4 != 0 {
			continue
		}
		want, _ := runDoc(t, gc, 1)
		n := counts[i%len(counts)]
		snaps := watchSnapshots(t, s, gc)
		own, err := OwnPartition(s)
		if err != nil {
			t.Fatal(err)
		}
		links := remoteLinks(t, c, n)
		links[0] = LocalLink(own)
		r, err := s.RunRemote(context.Background(), nil, links)
		if err != nil {
			t.Fatalf("%s, %d partitions: %v", gc.name, n, err)
		}
		if s.reran {
			t.Errorf("%s: a deadlock was seen in a window of a run that has none", gc.name)
		}
		r.CPUSeconds = 0
		got, _ := json.Marshal(r)
		got = append(got, *snaps...)
		if !bytes.Equal(got, want) {
			t.Errorf("%s, %d partitions, partition 0 in the coordinator's memory: the result document differs from the sequential run's:\n%s", gc.name, n, firstDiff(got, want))
			continue
		}
		covered++
	}
	t.Logf("%d configurations bit-identical with partition 0 in the coordinator's memory", covered)
}

// ownAll: the configurations TestRemoteOwnPartition runs all of.
func ownAll(name string) bool {
	for _, p := range []string{"snap/", "ACOR", "PB-ACOR", "PB_ACOR", "QCN", "ECN", "Ideal", "CBCM"} {
		if strings.Contains(name, p) {
			return true
		}
	}
	return false
}

// TestRemoteOwnPartitionDeadlock: a deadlock found in a window, with
// partition 0 in the coordinator's memory, gives the sequential report,
// the watched run's snapshots once each (the run started again is built
// afresh: the coordinator's Sim takes its state, TestRemoteDeadlockReport).
func TestRemoteOwnPartitionDeadlock(t *testing.T) {
	for _, gc := range []goldenCase{
		{"stuck", []string{"traffic.pattern=ADV", "traffic.load=0.9"}},
		{"stuck/QCN_SWITCH", []string{"routing.name=QCN_SWITCH", "routing.qcnCPC=10", "traffic.pattern=ADV", "traffic.load=0.9"}},
	} {
		c := goldenConfig(t, gc)
		run := func(n int) ([]byte, *Sim, error) {
			s, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			s.dl.age, s.dl.fair = 150, 1
			snaps := watchSnapshots(t, s, gc)
			var r *result.Result
			if n == 1 {
				r, err = s.Run(context.Background(), nil)
			} else {
				own, oerr := OwnPartition(s)
				if oerr != nil {
					t.Fatal(oerr)
				}
				links := remoteLinks(t, c, n)
				links[0] = LocalLink(own)
				r, err = s.RunRemote(context.Background(), nil, links)
			}
			if r == nil || r.Deadlock == nil {
				t.Fatalf("%s, %d partitions: no deadlock (%v)", gc.name, n, err)
			}
			r.CPUSeconds = 0
			b, _ := json.Marshal(r)
			return append(b, *snaps...), s, err
		}
		want, _, werr := run(1)
		got, s, err := run(3)
		if err == nil || err.Error() != werr.Error() || !bytes.Equal(got, want) {
			t.Errorf("%s: 3 partitions, partition 0 in the coordinator's memory, report %v, one %v", gc.name, err, werr)
		}
		if !s.reran {
			t.Errorf("%s: the partitioned run did not stop at the deadlock", gc.name)
		}
	}
}
