package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"phitsim/engine/result"
	"phitsim/engine/sim"
)

// A deadlocked run, as engine/sweep reports it (wrapped with its series,
// load and seed), exits with status 3, and stderr names the deadlock, the
// stuck routers and one line per stuck buffer with its head's route.
func TestDeadlockIsReportedWithItsLocation(t *testing.T) {
	de := &sim.DeadlockError{Deadlock: result.Deadlock{Reason: "stuck", Cycle: 640, Since: 653, Bound: 600,
		InFlight: 551, StuckBuffers: 2, Routers: []int{0, 1},
		Buffers: []result.StuckBuffer{
			{Router: 0, Port: 4, Class: "local", VC: 0, Packets: 4, Src: 6, Dst: 71, WantPort: 2, WantVC: 0, Age: 640},
			{Router: 1, Port: 2, Class: "local", VC: 0, Packets: 4, Src: 0, Dst: 71, WantPort: 3, WantVC: 0, Age: 639},
		}}}
	for _, err := range []error{de, fmt.Errorf("series 1 load 0.4 seed 1: %w", de),
		errors.Join(fmt.Errorf("series 2 load 0.9 seed 3: %w", de), errors.New("writing out.json: disk full"))} {
		var stderr bytes.Buffer
		code := exitStatus(err, &stderr)
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if code != 3 {
			t.Errorf("%v: exit %d, want 3", err, code)
		}
		want := []string{
			"deadlock at cycle 640: 2 transit buffers hold a head older than 600 cycles (551 packets in flight, the last move at cycle 653); routers 0, 1",
			"phitsim:   router 0 input port 4 (local) VC 0: 4 packets, head 6→71 wants port 2 VC 0, waiting 640 cycles",
			"phitsim:   router 1 input port 2 (local) VC 0: 4 packets, head 0→71 wants port 3 VC 0, waiting 639 cycles",
		}
		if len(lines) < 3 || !strings.HasPrefix(lines[0], "phitsim: ") || !strings.HasSuffix(lines[0], want[0]) ||
			lines[1] != want[1] || lines[2] != want[2] {
			t.Errorf("stderr:\n%s\nwant lines ending\n%s", stderr.String(), strings.Join(want, "\n"))
		}
	}
	// any other error is still status 1
	var stderr bytes.Buffer
	if code := exitStatus(errors.New("series 1: something else"), &stderr); code != 1 {
		t.Errorf("another error: exit %d", code)
	}
}
