package sim

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"phitsim/engine/config"
)

// benchSim builds a balanced Dragonfly under UN at the given load (edits
// set a mechanism) and warms it to steady state, so that the timed cycles
// allocate nothing.
func benchSim(b testing.TB, h int, routing string, load float64, edits ...func(*config.Config)) *Sim {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = h, 2*h, h
	c.Routing.Name = routing
	c.Traffic.Load = load
	c.Sim.Warmup, c.Sim.Cycles = 0, 100000000
	for _, e := range edits {
		e(&c)
	}
	s, err := New(c, 1)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 3000; i++ {
		s.Step()
	}
	return s
}

// Each op is one simulated cycle of the whole network. Reported: simulated
// cycles per second, ns per packet-hop (crossbar traversal), and the peak
// memory of the benchmark process (peak-MB, see peakMB).
func benchCycles(b *testing.B, h int, routing string, load float64) {
	resetPeak()
	s := benchSim(b, h, routing, load)
	hops0 := s.st.xbar
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Step()
	}
	b.StopTimer()
	hops := s.st.xbar - hops0
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "cycles/s")
	if hops > 0 {
		b.ReportMetric(sec*1e9/float64(hops), "ns/hop")
	}
	b.ReportMetric(peakMB(), "peak-MB")
	runtime.KeepAlive(s)
}

// peakMB is the peak resident memory of the process in MiB: VmHWM of
// /proc/self/status, or where /proc is missing (wasm, macOS) what the Go
// runtime obtained from the OS (MemStats.Sys, which never shrinks). It
// covers building and warming the network as well as the timed cycles.
func peakMB() float64 {
	if st, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(st), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				if f := strings.Fields(rest); len(f) > 0 { // "123456 kB"
					if kb, err := strconv.ParseFloat(f[0], 64); err == nil {
						return kb / 1024
					}
				}
			}
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.Sys) / (1 << 20)
}

// resetPeak lets each benchmark report its own peak: it returns the memory
// of earlier runs (and of the previous b.N round) to the OS and resets VmHWM
// to the current resident size (Linux ≥ 4.0: "5" to /proc/self/clear_refs).
// Where that fails, VmHWM is the peak of the whole process so far.
func resetPeak() {
	runtime.GC()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

func BenchmarkH4UN04MIN(b *testing.B) { benchCycles(b, 4, "MIN", 0.4) }
func BenchmarkH4UN04VAL(b *testing.B) { benchCycles(b, 4, "VAL", 0.4) }
func BenchmarkH8UN04MIN(b *testing.B) { benchCycles(b, 8, "MIN", 0.4) }

// Adaptive routings against MIN on the same load, below every routing's
// saturation (Valiant paths saturate near 0.4 at h=4): the cost per packet-hop.
func BenchmarkH4UN02MIN(b *testing.B)    { benchCycles(b, 4, "MIN", 0.2) }
func BenchmarkH4UN02VAL(b *testing.B)    { benchCycles(b, 4, "VAL", 0.2) }
func BenchmarkH4UN02UGAL(b *testing.B)   { benchCycles(b, 4, "UGAL", 0.2) }
func BenchmarkH4UN02PB(b *testing.B)     { benchCycles(b, 4, "PB", 0.2) }
func BenchmarkH4UN02PAR(b *testing.B)    { benchCycles(b, 4, "PAR", 0.2) }
func BenchmarkH4UN02OLM(b *testing.B)    { benchCycles(b, 4, "OLM", 0.2) }
func BenchmarkH4UN02ACOR(b *testing.B)   { benchCycles(b, 4, "ACOR", 0.2) }
func BenchmarkH4UN02PBACOR(b *testing.B) { benchCycles(b, 4, "PB_ACOR", 0.2) }

// The allocator's per-port and per-VC state is laid out two records to a
// cache line; a field added carelessly would silently slow h=8 runs.
func TestHotStateLayout(t *testing.T) {
	if p, b := unsafe.Sizeof(port{}), unsafe.Sizeof(buffer{}); p != 32 || b != 32 {
		t.Errorf("port %d bytes, buffer %d bytes; want 32 and 32", p, b)
	}
}
