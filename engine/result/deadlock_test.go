package result

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The report names the reason, the routers (at most 16, then how many
// more) and the listed buffers, one line each; it survives the JSON
// round trip of a result document.
func TestDeadlockReport(t *testing.T) {
	d := &Deadlock{Reason: "watchdog", Cycle: 2152, Since: 1151, Bound: 1000, InFlight: 7039, StuckBuffers: 307,
		Buffers: []StuckBuffer{{Router: 19, Port: 6, Class: "global", VC: 0, Packets: 15, Src: 44, Dst: 32, WantPort: 2, WantVC: 1, Age: 1655}}}
	for r := 0; r < 20; r++ {
		d.Routers = append(d.Routers, r)
	}
	lines := d.Lines()
	if len(lines) != 2 ||
		lines[0] != "deadlock: no packet moved since cycle 1151 (now 2152, watchdog 1000 cycles) with 7039 packets in flight; 307 buffers hold packets; routers 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 and 4 more" ||
		lines[1] != "router 19 input port 6 (global) VC 0: 15 packets, head 44→32 wants port 2 VC 1, waiting 1655 cycles" {
		t.Errorf("lines:\n%s", strings.Join(lines, "\n"))
	}
	if d.String() != lines[0]+"; "+lines[1] {
		t.Errorf("String %q", d.String())
	}
	b, err := json.Marshal(Result{Deadlock: d})
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.Deadlock, d) {
		t.Errorf("round trip: %v, %+v", err, back.Deadlock)
	}
	if b, _ := json.Marshal(Result{}); strings.Contains(string(b), "deadlock") {
		t.Error("a result without a deadlock has a deadlock field")
	}
}
