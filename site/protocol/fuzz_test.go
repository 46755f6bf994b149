package protocol

import (
	"bytes"
	"runtime"
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
	seeds := append(everyType(c, res), &Message{Type: Start, ID: 4, Start: &StartJob{Config: config.Default(), Seed: 1, Load: 1}})
	for _, m := range seeds {
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

// A message whose array header claims more elements than its bytes hold
// (here 16 M int64s of latencyHist, 128 MB, in 27 bytes) is refused
// without allocating them: msgpack v5.4.1 sizes the slice from the header
// (the fuzzer's claim of 808 M took 6 GB and killed the worker).
func TestDecodeClaimedArrayLengthAllocatesNothing(t *testing.T) {
	b := []byte("\x81\xa6result\x81\xablatencyHist\xdd\x01\x00\x00\x00\x01")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Decode(b)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("decoded a message whose array is cut short")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("decoding %d bytes allocated %d bytes", len(b), got)
	}
}
