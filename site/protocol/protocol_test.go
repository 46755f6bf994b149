package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
)

func tiny() config.Config {
	c, _ := config.PresetByName("h2")
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 1000, 3000, 1
	return c
}

// runTiny runs c with seed 7: a real result to put in messages.
func runTiny(tb testing.TB, c config.Config) *result.Result {
	tb.Helper()
	s, err := sim.New(c, 7)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := s.Run(context.Background(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// everyType is one message of each type, with a real configuration and
// result: the round-trip test's cases and the fuzzer's seeds.
func everyType(c config.Config, res *result.Result) []*Message {
	return []*Message{
		{Type: Ready, Engine: "phitsim"},
		{Type: Start, ID: 3, Start: &StartJob{Config: c, Seed: 9, Load: 0.25, ProgressMillis: 100}},
		{Type: Progress, ID: 3, Progress: &ProgressInfo{Cycle: 10, Total: 20, Elapsed: 1.5, ETA: 1.5,
			Partial: Partial{Measured: true, Applied: 0.1, Accepted: 0.099, Latency: 123.25, Delivered: 7}}},
		{Type: Result, ID: 3, Result: res},
		{Type: Error, ID: 4, Error: &ErrorInfo{Kind: KindInvalid, Msg: "bad",
			Fields: []*config.FieldError{{Path: "topology.h", Value: "0", Msg: "must be in [1, 32]"}}}},
		{Type: Cancel, ID: 3},
		{Type: Crash},
		{Type: Part, ID: 5, Start: &StartJob{Config: c, Seed: 9, Load: 0.25, Parts: 3, Part: 2}},
		{Type: PartDone, ID: 5},
		{Type: Snapshot, ID: 3, Net: &NetInfo{Cycle: 500, Total: 4000, Interval: 250, Radix: 2,
			LinkUse: []byte{0, 255, 3, 7}, BufferUse: []byte{1, 2, 3, 4}, Packets: []int32{5, 0}, Misrouted: []byte{0, 128}}},
	}
}

func TestRoundTripEveryType(t *testing.T) {
	c := tiny()
	msgs := everyType(c, runTiny(t, c))
	for _, m := range msgs {
		b, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("%v: %v", m.Type, err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%v: round trip differs\n got %+v\nwant %+v", m.Type, got, m)
		}
		// and the JSON renderings (what the UI exports) are identical
		j1, _ := json.Marshal(m)
		j2, _ := json.Marshal(got)
		if string(j1) != string(j2) {
			t.Errorf("%v: JSON differs", m.Type)
		}
	}
}

func TestVersionMismatch(t *testing.T) {
	m := &Message{Type: Cancel, V: Version + 1}
	if _, err := Decode(mustRaw(t, m)); !errors.Is(err, ErrVersion) {
		t.Errorf("want ErrVersion, got %v", err)
	}
	if _, err := Decode([]byte{0xc1}); err == nil {
		t.Error("garbage decoded")
	}
}

func TestTypeNames(t *testing.T) {
	if Start.String() != "start" || Crash.String() != "crash" || Type(99).String() != "type(99)" {
		t.Error(Start.String(), Crash.String(), Type(99).String())
	}
}

// wire is m after the wire format: encoded and decoded.
func wire(m *Message) *Message {
	b, err := Encode(m)
	if err != nil {
		panic(err)
	}
	d, err := Decode(b)
	if err != nil {
		panic(err)
	}
	return d
}

func collect(ctx context.Context, job *StartJob, yield func()) []*Message {
	var out []*Message
	Execute(ctx, 1, job, func(m *Message) {
		out = append(out, wire(m)) // every message goes through the wire format
	}, yield)
	return out
}

// The worker's result is the engine's result, bit for bit.
func TestExecuteMatchesEngine(t *testing.T) {
	c := tiny()
	job := &StartJob{Config: c, Seed: 5, Load: 0.3, ProgressMillis: 1}
	msgs := collect(context.Background(), job, func() {})
	last := msgs[len(msgs)-1]
	if last.Type != Result {
		t.Fatalf("last message %v %+v", last.Type, last.Error)
	}
	c.Traffic.Load = 0.3
	s, _ := sim.New(c, 5)
	want, _ := s.Run(context.Background(), nil)
	s.AddBusiestLink(want) // as sweep.RunJob
	want.CPUSeconds, last.Result.CPUSeconds = 0, 0
	j1, _ := json.Marshal(want)
	j2, _ := json.Marshal(last.Result)
	if string(j1) != string(j2) {
		t.Errorf("worker result differs from the engine's\n%s\n%s", j1, j2)
	}
	for _, m := range msgs[:len(msgs)-1] {
		if m.Type != Progress || m.Progress.Total != int64(c.Sim.Warmup+c.Sim.Cycles) {
			t.Errorf("unexpected %v %+v", m.Type, m.Progress)
		}
	}
}

func TestExecuteInvalid(t *testing.T) {
	c := tiny()
	c.Topology.H = 0
	msgs := collect(context.Background(), &StartJob{Config: c, Seed: 1, Load: 0.3}, nil)
	if len(msgs) != 1 || msgs[0].Type != Error || msgs[0].Error.Kind != KindInvalid {
		t.Fatalf("%+v", msgs[0])
	}
	if len(msgs[0].Error.Fields) == 0 || msgs[0].Error.Fields[0].Path != "topology.h" {
		t.Errorf("fields %+v", msgs[0].Error.Fields)
	}
}

func TestExecuteCancel(t *testing.T) {
	c := tiny()
	c.Sim.Cycles = 1000000
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	msgs := collect(ctx, &StartJob{Config: c, Seed: 1, Load: 0.3}, func() {
		n++
		if n == 2 {
			cancel()
		}
	})
	last := msgs[len(msgs)-1]
	if last.Type != Error || last.Error.Kind != KindCancelled {
		t.Fatalf("%v %+v", last.Type, last.Error)
	}
}

func mustRaw(t *testing.T, m *Message) []byte {
	t.Helper()
	b, err := encodeRaw(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// deadlocking is thesis Fig. 5.6's DAMQ system with no reserve at load 1.0
// on h=2 (72 nodes): 2/1 VCs, 128/512 phits per local/global port. It
// deadlocks at cycle 5,286 (nothing moved since 4,285; watchdog 1,000
// cycles) with seed 1, in a fifth of a second natively.
func deadlocking() config.Config {
	c, _ := config.PresetByName("h2")
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds, c.Sim.Watchdog = 2000, 6000, 1, 1000
	c.Router.LocalVCs, c.Router.GlobalVCs = 2, 1
	c.Router.LocalBuffer, c.Router.GlobalBuffer = 64, 512
	c.Router.Damq, c.Router.DamqReserve = true, 0
	c.Traffic.Load = 1
	return c
}

// A deadlocked point of thesis Fig. 5.6 (DAMQ reserve 0%, h=2) reaches the
// page as a Result, as 'phitsim sweep' keeps it: the engine's metrics up to
// the deadlock and the watchdog's report (the cycle, the stuck buffers),
// every field through the wire format; not as an error that loses the run.
func TestExecuteDeadlockIsAResult(t *testing.T) {
	c := deadlocking()
	msgs := collect(context.Background(), &StartJob{Config: c, Seed: 1, Load: 1, ProgressMillis: 1}, nil)
	last := msgs[len(msgs)-1]
	if last.Type != Result || last.Result == nil || last.Result.Deadlock == nil {
		t.Fatalf("deadlocked run: last message %v %+v, want a result with its deadlock report", last.Type, last.Error)
	}
	s, _ := sim.New(c, 1)
	want, err := s.Run(context.Background(), nil)
	if want != nil {
		s.AddBusiestLink(want) // as sweep.RunJob
	}
	var de *sim.DeadlockError
	if !errors.As(err, &de) || want == nil {
		t.Fatalf("the engine: %v (this config no longer deadlocks: pick another)", err)
	}
	want.CPUSeconds, last.Result.CPUSeconds = 0, 0
	j1, _ := json.Marshal(want)
	j2, _ := json.Marshal(last.Result)
	if string(j1) != string(j2) {
		t.Errorf("worker result differs from the engine's\n%.600s\n%.600s", j1, j2)
	}
	d := last.Result.Deadlock
	if d.Cycle != de.Cycle || d.Cycle >= int64(c.Sim.Warmup+c.Sim.Cycles) || d.StuckBuffers == 0 || len(d.Buffers) == 0 || len(d.Routers) == 0 {
		t.Errorf("deadlock report %+v, engine's %+v", d, de.Deadlock)
	}
	t.Logf("%s", d.Lines()[0])
}

// Every field of a deadlock report survives the wire format.
func TestRoundTripDeadlockedResult(t *testing.T) {
	c := tiny()
	res := runTiny(t, c)
	res.Deadlock = &result.Deadlock{Reason: "stuck", Cycle: 5286, Since: 4285, Bound: 1000, InFlight: 11901,
		StuckBuffers: 373, Routers: []int{0, 3, 33},
		Buffers: []result.StuckBuffer{{Router: 33, Port: 1, Class: "injection", VC: 1, Packets: 32, Src: 67, Dst: 26, WantPort: -1, WantVC: -1, Age: 2610}}}
	got := roundTrip(t, &Message{Type: Result, ID: 8, Result: res})
	if !reflect.DeepEqual(got.Result.Deadlock, res.Deadlock) {
		t.Errorf("deadlock report after the round trip %+v, want %+v", got.Result.Deadlock, res.Deadlock)
	}
}

// roundTrip is m encoded and decoded.
func roundTrip(t *testing.T, m *Message) *Message {
	t.Helper()
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
