package config

import (
	"fmt"

	"phitsim/engine/topology"
)

// BufferLoop is a buffer too small for the loop it must cover at full rate
// (TIMING.md, "Buffers and their loops"): it passes at most Cap phits per
// cycle (per VC for an input buffer, per port for the output FIFO) whatever
// the offered load.
type BufferLoop struct {
	Path  string  // the buffer's field: router.localBuffer, router.outputBuffer…
	Phits int     // its size
	Loop  int     // cycles from a grant until the phits it took serve the next packet
	What  string  // the loop's parts, as the warning words them
	Cap   float64 // phits/cycle
	Per   string  // "VC" or "port"
}

// Warning words the loop as the validator, the summaries and the page show it.
func (b BufferLoop) Warning() *FieldError {
	return &FieldError{Path: b.Path, Value: fmt.Sprintf("%d phits", b.Phits),
		Msg: fmt.Sprintf("covers a %d-cycle %s only up to %.2f phits/cycle per %s", b.Loop, b.What, b.Cap, b.Per)}
}

// BufferLoops lists the buffers that cannot cover their loop at one phit per
// cycle. Under virtual cut-through a buffer of B phits holds n = ⌊B/P⌋
// packets of P phits, each from its grant upstream until its room is usable
// again, so it passes n·P phits per loop:
//
//   - a transit input VC (credit loop): the credit is taken at the upstream
//     grant, the packet enters the output FIFO xbarLatency later and goes onto
//     the link, its head is granted on arrival (cut-through) and the credit
//     comes back over the link: xbarLatency + 2·link latency, plus another
//     xbarLatency with creditTiming=output (the credit leaves with the packet
//     from the downstream output FIFO);
//   - the output FIFO (router.model=ioq): a packet takes its room at its grant
//     and holds it through the crossbar; with outputFifo=tail the room of the
//     next packet is back when enough phits have left, (n+1)·P − B cycles
//     after the first starts out, so one loop is xbarLatency + (n+1)·P − B;
//     with outputFifo=fogsim a slot is free the cycle after its head leaves,
//     xbarLatency + 1; an ejection port with ejection=fogsim grants only when
//     its node has consumed, xbarLatency + P. The lowest of the transit
//     and ejection caps is the port's.
//
// Injection buffers have no loop (nodes fill them without credits). The caps
// are measured in the engine by TestBufferLoopCapsMatchTheEngine.
func (c *Config) BufferLoops() []BufferLoop {
	k, err := topology.KindOf(c.Topology.Kind)
	r := &c.Router
	P := r.PacketSize
	if err != nil || P <= 0 || r.XbarLatency < 0 {
		return nil
	}
	ioq := r.Model == "ioq"
	var out []BufferLoop
	seen := map[string]bool{}
	for _, cl := range k.Classes[1:] {
		if seen[cl.Buffer] {
			continue // a mesh's x and y share their fields
		}
		seen[cl.Buffer] = true
		b, lat := c.intField(cl.Buffer), c.intField(cl.Latency)
		loop, what := r.XbarLatency+2*lat, fmt.Sprintf("credit loop (crossbar %d + 2×%d link)", r.XbarLatency, lat)
		if ioq && r.CreditTiming == "output" {
			loop += r.XbarLatency
			what = fmt.Sprintf("credit loop (2×crossbar %d + 2×%d link, creditTiming=output)", r.XbarLatency, lat)
		}
		if cap := float64(b/P*P) / float64(loop); cap < 1 {
			out = append(out, BufferLoop{cl.Buffer, b, loop, what, cap, "VC"})
		}
	}
	if !ioq {
		return out
	}
	b := r.OutputBuffer
	n := b / P
	loop, what := r.XbarLatency+(n+1)*P-b, fmt.Sprintf("output loop (crossbar %d + serialisation, %d packets)", r.XbarLatency, n)
	if r.OutputFifo == "fogsim" {
		loop, what = r.XbarLatency+1, fmt.Sprintf("output loop (crossbar %d + 1, %d packets)", r.XbarLatency, n)
	}
	ej := r.XbarLatency + (n+1)*P - b // ejection=fifo: an output FIFO with the tail rule
	if r.Ejection == "fogsim" {
		ej = r.XbarLatency + P
	}
	if ej > loop {
		loop, what = ej, fmt.Sprintf("output loop (crossbar %d + serialisation, %d packets, at the ejection port)", r.XbarLatency, n)
	}
	if cap := float64(n*P) / float64(loop); loop > 0 && cap < 1 {
		out = append(out, BufferLoop{"router.outputBuffer", b, loop, what, cap, "port"})
	}
	return out
}

// BufferWarnings are BufferLoops as warnings: the configuration is valid and
// runs, but these buffers cap its throughput.
func (c *Config) BufferWarnings() []*FieldError {
	var out []*FieldError
	for _, b := range c.BufferLoops() {
		out = append(out, b.Warning())
	}
	return out
}
