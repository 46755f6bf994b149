package sim

import (
	"testing"

	"phitsim/engine/config"
)

// The validator's buffer-loop warnings (config.BufferLoops) against the
// engine: one flow, its source kept full, through the one buffer that is
// too small, on the ACOR paper's Table 3 timing (90-cycle crossbar, 15/150-
// cycle links, 10-phit packets, speedup 2) in the tiny h=1 Dragonfly of
// rbSim. The flow's throughput must equal the cap the warning states (±1%;
// ±3% where two FIFOs of the path differ by a cycle), and a configuration
// with no warning must carry the flow at the link's rate: the issue's
// "32-phit output FIFO, 32/256-phit local/global VCs cap MIN at 0.20" trap.
func TestBufferLoopCapsMatchTheEngine(t *testing.T) {
	const warm, cycles = 2000, 20000
	big := 4000
	for _, tc := range []struct {
		name   string
		field  string // the warning expected ("" none: the flow runs at 1)
		global bool   // the flow crosses router 0's global link
		edit   func(r *config.Router)
		tol    float64
	}{
		{"local VC 32, credit at the crossbar", "router.localBuffer", false, func(r *config.Router) { r.LocalBuffer = 32 }, 0.01},
		{"local VC 64", "router.localBuffer", false, func(r *config.Router) { r.LocalBuffer = 64 }, 0.01},
		{"local VC 32, credit from the output FIFO", "router.localBuffer", false, func(r *config.Router) { r.LocalBuffer, r.CreditTiming = 32, "output" }, 0.01},
		{"global VC 256", "router.globalBuffer", true, func(r *config.Router) { r.GlobalBuffer = 256 }, 0.01},
		{"output FIFO 32, tail", "router.outputBuffer", false, func(r *config.Router) { r.OutputBuffer = 32 }, 0.01},
		{"output FIFO 40, tail", "router.outputBuffer", false, func(r *config.Router) { r.OutputBuffer = 40 }, 0.01},
		{"output FIFO 64, fogsim FIFO", "router.outputBuffer", false, func(r *config.Router) { r.OutputBuffer, r.OutputFifo = 64, "fogsim" }, 0.01},
		{"output FIFO 32, fogsim ejection", "router.outputBuffer", false, func(r *config.Router) { r.OutputBuffer, r.Ejection = 32, "fogsim" }, 0.01},
		{"output FIFO 64, fogsim FIFO and ejection", "router.outputBuffer", false, func(r *config.Router) {
			r.OutputBuffer, r.OutputFifo, r.Ejection = 64, "fogsim", "fogsim"
		}, 0.03},
		{"buffers that cover their loops, local", "", false, func(r *config.Router) { r.LocalBuffer, r.OutputBuffer = 130, 100 }, 0.01},
		{"buffers that cover their loops, global", "", true, func(r *config.Router) { r.GlobalBuffer, r.OutputBuffer = 400, 100 }, 0.01},
	} {
		var c config.Config
		s := rbSim(t, func(cf *config.Config) {
			cf.Router.XbarLatency, cf.Router.PacketSize = 90, 10
			cf.Topology.LocalLatency, cf.Topology.GlobalLatency = 15, 150
			cf.Router.LocalBuffer, cf.Router.GlobalBuffer, cf.Router.OutputBuffer, cf.Router.InjectionBuffer = big, big, big, big
			tc.edit(&cf.Router)
			c = *cf
		})
		dst := 4 // router 1, over router 0's local port 4
		if tc.global {
			dst = int(s.ports[5].peer) / s.radix * s.p
		}
		want, loop := 1.0, 0
		loops := c.BufferLoops()
		for _, b := range loops {
			if b.Path == tc.field {
				want, loop = b.Cap, b.Loop
			}
		}
		if len(loops) != 0 && tc.field == "" || len(loops) != 1 && tc.field != "" || tc.field != "" && loop == 0 {
			t.Fatalf("%s: warnings %v, want only %q", tc.name, c.BufferWarnings(), tc.field)
		}
		var del0 int64
		for cy := 0; cy < warm+cycles; cy++ {
			if cy == warm {
				del0 = s.st.totDel
			}
			if s.hasRoom(0) {
				s.inject(0, dst, 0)
			}
			s.Step()
		}
		got := float64((s.st.totDel-del0)*int64(s.P)) / cycles
		t.Logf("%s: flow %.4f phits/cycle, warning %v", tc.name, got, c.BufferWarnings())
		if !btWithin(got, want, tc.tol) {
			t.Errorf("%s: flow %.4f phits/cycle, the warning's cap %.4f (loop %d) ±%.0f%%", tc.name, got, want, loop, tc.tol*100)
		}
	}
}
