package config

import (
	"fmt"
	"strconv"
)

// MaxStateBytes bounds the simulator state a configuration may need: a
// WebAssembly tab has at most 4 GiB, and a run that cannot get its memory
// should be refused with a reason, not crash.
const MaxStateBytes = 3 << 30

// StateBytes estimates the engine's memory for a Dragonfly configuration in
// the worst case, when every buffer slot holds a packet: per buffer slot the
// ring entry (8 B) and the packet (64 B), per port its state and output FIFO
// ring, per VC its buffer and credit counters, and the timing wheels. Zero when the topology fields
// are out of range (their own errors say why).
func (c *Config) StateBytes() int64 {
	t, r := &c.Topology, &c.Router
	if t.Kind != "dragonfly" || t.H < 1 || t.A < 1 || t.P < 1 || r.PacketSize < 1 {
		return 0
	}
	routers := int64(t.A) * int64(t.A*t.H+1)
	inj, lv, gv := c.VCs()
	P := int64(r.PacketSize)
	slots := int64(t.P)*int64(inj)*(int64(r.InjectionBuffer)/P) +
		int64(t.A-1)*int64(lv)*(int64(r.LocalBuffer)/P) +
		int64(t.H)*int64(gv)*(int64(r.GlobalBuffer)/P)
	radix := int64(t.P + t.A - 1 + t.H)
	perRouter := slots*(8+64) + radix*(32+int64(max(inj, lv, gv))*(32+4))
	if r.Model == "ioq" {
		perRouter += radix * (int64(r.OutputBuffer)/P + 1) * (4 + 64)
	}
	// the timing wheels: five of them, a slice header per cycle of horizon
	// (link latency, crossbar, a full output FIFO; see sim.build)
	horizon := int64(max(t.LocalLatency, t.GlobalLatency, t.InjectionLatency, r.PacketSize)+r.XbarLatency+r.OutputBuffer+r.PacketSize) + 2
	wheel := int64(1)
	for wheel < horizon {
		wheel <<= 1
	}
	return routers*perRouter + wheel*5*24
}

// validateMemory refuses configurations whose state cannot fit, naming the
// buffer that needs most of it.
func (c *Config) validateMemory() Errors {
	b := c.StateBytes()
	if b <= MaxStateBytes {
		return nil
	}
	r := &c.Router
	path, v := "router.localBuffer", r.LocalBuffer
	for _, o := range []struct {
		path string
		v    int
	}{{"router.globalBuffer", r.GlobalBuffer}, {"router.injectionBuffer", r.InjectionBuffer}, {"router.outputBuffer", r.OutputBuffer}} {
		if o.v > v && (o.path != "router.outputBuffer" || r.Model == "ioq") {
			path, v = o.path, o.v
		}
	}
	return Errors{&FieldError{Path: path, Value: strconv.Itoa(v), Msg: fmt.Sprintf(
		"with these buffers and %d routers the simulator needs up to %.1f GiB; at most %d GiB fit (reduce the buffers or the network)",
		c.Topology.A*(c.Topology.A*c.Topology.H+1), float64(b)/(1<<30), MaxStateBytes>>30)}}
}
