//go:build !js

package sim

// TestRemoteSpeed reads the process's CPU time (getrusage), which js/wasm
// does not have: the test binary built for WebAssembly (e2e
// TestWasmParallelMatrix) leaves it out.

import (
	"context"
	"encoding/json"
	"os"
	"syscall"
	"testing"
	"time"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// TestRemoteSpeed measures (PHITSIM_REMOTE_BENCH=1; engine/BENCHMARKS.md,
// "Parallel runs") the h=4 Dragonfly (1,056 nodes), MIN, UN at 0.4,
// 1,000 + 4,000 cycles: sequential, shared-memory partitions and
// partitions in Sims of their own (bytes over channels), wall and CPU
// time, and the bytes exchanged. PHITSIM_REMOTE_BENCH="remote 2" (or
// another mode's name) runs that mode once, for callgrind.
func TestRemoteSpeed(t *testing.T) {
	if os.Getenv("PHITSIM_REMOTE_BENCH") == "" {
		t.Skip("a measurement: PHITSIM_REMOTE_BENCH=1 runs it")
	}
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", "UN", 0.4
	c.Sim.Warmup, c.Sim.Cycles = 1000, 4000
	cpu := func() float64 {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	modes, rounds := []string{"sequential", "shared 2", "remote 2", "remote 4"}, 2
	if m := os.Getenv("PHITSIM_REMOTE_BENCH"); m != "1" { // one mode once (a callgrind probe)
		modes, rounds = []string{m}, 1
	}
	var want string
	for round := range rounds {
		for _, mode := range modes {
			s, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			t0, c0 := time.Now(), cpu()
			var r *result.Result
			switch mode {
			case "sequential":
				r, err = s.Run(context.Background(), nil)
			case "shared 2":
				s.SetThreads(2)
				r, err = s.Run(context.Background(), nil)
			default:
				n := int(mode[len(mode)-1] - '0')
				links := remoteLinks(t, c, n)
				for i, l := range links {
					links[i] = &countLink{Link: l}
				}
				r, err = s.RunRemote(context.Background(), nil, links)
				var sent, got, msgs int64
				for _, l := range links {
					sent, got, msgs = sent+l.(*countLink).sent, got+l.(*countLink).got, msgs+l.(*countLink).msgs
				}
				t.Logf("%s: %.1f MB of commands, %.1f MB of answers; %.0f bytes per command and answer", mode, float64(sent)/1e6, float64(got)/1e6, float64(sent+got)/float64(msgs))
			}
			if err != nil {
				t.Fatal(err)
			}
			r.CPUSeconds = 0
			b, _ := json.Marshal(r)
			if want == "" {
				want = string(b)
			} else if string(b) != want {
				t.Errorf("%s: the document differs", mode)
			}
			t.Logf("round %d, %s: wall %.2fs, CPU %.2fs (latency %.2f, %d hops)", round+1, mode, time.Since(t0).Seconds(), cpu()-c0, r.Latency.Avg, r.PacketHops)
		}
	}
}

// countLink counts the bytes through a link.
type countLink struct {
	Link
	sent, got, msgs int64 // msgs: the commands sent
}

func (l *countLink) Send(b []byte) error { l.sent += int64(len(b)); l.msgs++; return l.Link.Send(b) }
func (l *countLink) Recv() ([]byte, error) {
	b, err := l.Link.Recv()
	l.got += int64(len(b))
	return b, err
}
