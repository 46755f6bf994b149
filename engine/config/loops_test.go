package config

import "testing"

// The ACOR paper's timing (Table 3: 90-cycle switch, 15/150-cycle links,
// 10-phit packets) with FOGSim's example buffers (32-phit output FIFO,
// 32/256-phit local/global VCs): every one of them is short of its loop,
// and the warnings carry the caps TestBufferLoopCapsMatchTheEngine
// (engine/sim) measures. No preset warns.
func TestBufferLoops(t *testing.T) {
	c := balanced(4)
	c.Router.XbarLatency, c.Router.PacketSize = 90, 10
	c.Topology.LocalLatency, c.Topology.GlobalLatency = 15, 150
	want := map[string]string{
		"router.localBuffer":  "router.localBuffer = 32 phits: covers a 120-cycle credit loop (crossbar 90 + 2×15 link) only up to 0.25 phits/cycle per VC",
		"router.globalBuffer": "router.globalBuffer = 256 phits: covers a 390-cycle credit loop (crossbar 90 + 2×150 link) only up to 0.64 phits/cycle per VC",
		"router.outputBuffer": "router.outputBuffer = 32 phits: covers a 98-cycle output loop (crossbar 90 + serialisation, 3 packets) only up to 0.31 phits/cycle per port",
	}
	ws := c.BufferWarnings()
	if len(ws) != len(want) {
		t.Fatalf("warnings %v, want %d", ws, len(want))
	}
	for _, w := range ws {
		if w.Error() != want[w.Path] {
			t.Errorf("warning %q, want %q", w, want[w.Path])
		}
	}
	if es := c.Validate(); len(es) != 0 {
		t.Errorf("a buffer warning must not refuse the configuration: %v", es)
	}
	// buffers that cover the loops (the issue's "about 130-phit output,
	// 150 local, 512 global"), and the input-queued model, which has no
	// output FIFO
	c.Router.OutputBuffer, c.Router.LocalBuffer, c.Router.GlobalBuffer = 130, 150, 512
	if ws := c.BufferWarnings(); len(ws) != 0 {
		t.Errorf("buffers that cover their loops: warnings %v", ws)
	}
	c.Router.OutputBuffer, c.Router.Model = 32, "iq"
	if ws := c.BufferWarnings(); len(ws) != 0 {
		t.Errorf("iq has no output FIFO: warnings %v", ws)
	}
	for _, p := range Presets() {
		for _, w := range p.Config.BufferWarnings() {
			t.Errorf("preset %s: %v", p.Name, w)
		}
	}
}
