package protocol

import (
	"context"
	"testing"

	"phitsim/engine/topology"
)

// A job with Snapshots sends about that many Snapshot messages before its
// Result, cycles rising, one byte per port and per router; under ADV+1 and
// MIN (thesis §1.4.1.2, h=2) the hot global links are those from group g
// to g+1, as the live view draws them.
func TestExecuteSnapshots(t *testing.T) {
	c := tiny()
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.AdvOffset = "MIN", "ADV", 1
	var nets []*NetInfo
	var last Type
	Execute(context.Background(), 5, &StartJob{Config: c, Seed: 1, Load: 0.4, Snapshots: 20}, func(m *Message) {
		if m.Type == Snapshot {
			nets = append(nets, m.Net)
		}
		last = m.Type
	}, nil)
	if last != Result {
		t.Fatalf("last message %v, want result", last)
	}
	if len(nets) < 20 || len(nets) > 21 {
		t.Fatalf("%d snapshots, want 20 (21 with the end of the run)", len(nets))
	}
	df, err := topology.NewDragonfly(c.Topology.H, c.Topology.A, c.Topology.P, c.Topology.Arrangement)
	if err != nil {
		t.Fatal(err)
	}
	n := nets[len(nets)-2]
	if len(n.LinkUse) != df.Routers()*df.Radix() || len(n.Packets) != df.Routers() || n.Radix != df.Radix() {
		t.Fatalf("snapshot sizes: %d ports, %d routers, radix %d", len(n.LinkUse), len(n.Packets), n.Radix)
	}
	for i := 1; i < len(nets); i++ {
		if nets[i].Cycle <= nets[i-1].Cycle {
			t.Fatalf("snapshot %d at cycle %d after %d", i, nets[i].Cycle, nets[i-1].Cycle)
		}
	}
	for r := 0; r < df.Routers(); r++ {
		for p := df.FirstGlobalPort(); p < df.Radix(); p++ {
			peer, _ := df.Link(r, p)
			hot := Share(n.LinkUse[r*df.Radix()+p]) > 0.8
			if want := df.GroupOf(peer) == (df.GroupOf(r)+1)%df.G; hot != want {
				t.Errorf("router %d global port %d (group %d→%d): hot %v", r, p, df.GroupOf(r), df.GroupOf(peer), hot)
			}
		}
	}
	var errMsg *ErrorInfo
	Execute(context.Background(), 6, &StartJob{Config: c, Seed: 1, Load: 0.4, Snapshots: MaxSnapshots + 1}, func(m *Message) {
		errMsg = m.Error
	}, nil)
	if errMsg == nil || errMsg.Kind != KindInvalid {
		t.Errorf("Snapshots %d: got %+v, want an invalid error", MaxSnapshots+1, errMsg)
	}
}
