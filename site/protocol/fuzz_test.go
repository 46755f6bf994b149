package protocol

import (
	"bytes"
	"testing"

	"phitsim/engine/config"
)

// FuzzDecode: the worker protocol's decoder never panics, and a message it
// accepts re-encodes to bytes that decode and encode again to the same
// bytes (a fixed point: NaN payloads compare equal as bytes, not as values).
func FuzzDecode(f *testing.F) {
	c := tiny()
	c.Sim.Warmup, c.Sim.Cycles = 100, 200
	res := runTiny(f, c)
	for _, m := range []*Message{
		{Type: Ready, Engine: "phitsim"},
		{Type: Start, ID: 3, Start: &StartJob{Config: c, Seed: 9, Load: 0.25, ProgressMillis: 100}},
		{Type: Start, ID: 4, Start: &StartJob{Config: config.Default(), Seed: 1, Load: 1}},
		{Type: Progress, ID: 3, Progress: &ProgressInfo{Cycle: 10, Total: 20, Elapsed: 1.5, ETA: 1.5,
			Partial: Partial{Measured: true, Applied: 0.1, Accepted: 0.099, Latency: 123.25, Delivered: 7}}},
		{Type: Result, ID: 3, Result: res},
		{Type: Error, ID: 4, Error: &ErrorInfo{Kind: KindInvalid, Msg: "bad",
			Fields: []*config.FieldError{{Path: "topology.h", Value: "0", Msg: "must be in [1, 32]"}}}},
		{Type: Cancel, ID: 3},
		{Type: Crash},
	} {
		b, err := Encode(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte{0xc1})
	f.Add([]byte{0xdd, 0xff, 0xff, 0xff, 0xff}) // an array claiming 4 G elements
	f.Add([]byte{0x81, 0xa1, 'v', 0x02})        // another version
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			return
		}
		b1, err := Encode(m)
		if err != nil {
			t.Fatalf("decoded message does not encode: %v (%+v)", err, m)
		}
		m2, err := Decode(b1)
		if err != nil {
			t.Fatalf("re-encoded message does not decode: %v", err)
		}
		b2, err := Encode(m2)
		if err != nil || !bytes.Equal(b1, b2) {
			t.Fatalf("round trip is not a fixed point (%v):\n%x\n%x", err, b1, b2)
		}
	})
}
