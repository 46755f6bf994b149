package config

import "fmt"

// AcorPaper is the simulated system of the ACOR paper (Table 3, §5.1) on a
// balanced Dragonfly of h global links per router (a = 2h, p = h): h=6 is the
// paper's 5,256 hosts, h=4 its 1,056-host scaling of §6.2.2. Every value is
// Table 3's:
//   - 1 GHz, 200 Gb/s links: 25-byte phits, one per cycle, so a cycle is
//     1 ns (physical.linkGbps = 200 with physical.phitBytes = 25 shows the
//     times in ns; the presets leave the section out, as the page reads a
//     physical section as the QCN-Switch paper's system); 250-byte packets =
//     10 phits;
//   - IOQ switch with speedup 2, 90-ns (90-cycle) switch latency;
//     local/global links of 3/30 m = 15/150 cycles;
//   - buffers per VC, as FOGSim sizes its queues (each VC of a port gets
//     LocalQueueLength or GlobalQueueLength; the seed's Table 3 does not say
//     per port): injection 126 KB = 5,040 phits, local 18 KB = 720 phits,
//     global 45 KB = 1,800 phits. Per port they would be 180/900 phits per VC
//     with 4/2 VCs, still above the 120/390-cycle credit loops, so either
//     reading covers its loop (BufferLoops); per VC is FOGSim's;
//   - the output FIFO, which Table 3 does not give: 400 phits (40 packets,
//     10 KB). It must first cover the 100-cycle output loop (crossbar 90 +
//     one packet; a 32-phit FIFO caps a port at 0.31, TIMING.md "Buffers and
//     their loops"), and then queue as a 3-cycle switch's FIFO would: at
//     h=4 under MIN/UN, 130 phits saturate 9 % below the same network with
//     a 3-cycle switch, 250 phits 2 %, 400 phits 0.8 % (TestAcorPaperSwitchCostsLatencyNotThroughput);
//   - VCs local/global/injection 4/2/1 (2/1/1 for MIN: AcorPaperVCs);
//   - restricted Valiant with recomputation (§3), RRG-Sw for VAL and PB;
//   - PB: C_g = 120 %, T_g = 5 packets; UGAL's local threshold T = 0, which
//     neither the paper nor the thesis gives and FOGSim's
//     ugal_local_threshold defaults to (phitsim's default T = 4 stops PB
//     from misrouting under ADVl);
//   - ACOR and PB-ACOR: HI = 500 cycles, IT₁/IT₂ = 15/500 (15/50 for
//     PB-ACOR, routing.acorIT2 0), DT₁/DT₂ = 5/15; at 1,056 hosts
//     IT₁/DT₁ = 20/8 (§6.2.2), at 16,512 hosts 10/3;
//   - Bernoulli injection, no source queue (a generation that finds the
//     injection buffer full is dropped, as FOGSim).
//
// The routing is ACOR-Switch 3L, the paper's subject; the run is 20,000
// warm-up + 20,000 measured cycles (the paper does not give its lengths;
// paths take about 1 µs), 2 seeds.
func AcorPaper(h int) Config {
	c := balanced(h)
	c.Topology.LocalLatency, c.Topology.GlobalLatency = 15, 150
	r := &c.Router
	r.Speedup, r.XbarLatency, r.PacketSize = 2, 90, 10
	r.InjectionBuffer, r.LocalBuffer, r.GlobalBuffer, r.OutputBuffer = 5040, 720, 1800, 400
	rt := &c.Routing
	rt.Name, rt.AcorSequence, rt.AcorMode = "ACOR", "3L", "switch"
	rt.Restricted, rt.Recompute = true, true
	rt.PbCoef, rt.PbThreshold, rt.UgalT = 120, 5, 0
	rt.AcorHI, rt.AcorIT1, rt.AcorIT2, rt.AcorDT1, rt.AcorDT2 = 500, 15, 0, 5, 15
	switch h {
	case 4:
		rt.AcorIT1, rt.AcorDT1 = 20, 8
	case 8:
		rt.AcorIT1, rt.AcorDT1 = 10, 3
	}
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 20000, 20000, 2
	c.Sim.HistMax = 10000 // latencies start near 700 cycles
	c.AcorPaperVCs()
	return c
}

// AcorPaperRun is the ACOR paper's system at h (AcorPaper, FOGSim's model)
// running routing (phaseA: VAL's phase-A policy, "" for the default) under
// pattern (ADV, ADVC: +offset; ADVl: the next router of the group), edit
// applied before the paper's VCs for the routing are set.
func AcorPaperRun(h int, routing, phaseA, pattern string, offset int, edit func(*Config)) Config {
	c := AcorPaper(h)
	c.UseFOGSimModel()
	c.Routing.Name = routing
	if phaseA != "" {
		c.Routing.PhaseA = phaseA
	}
	c.Traffic.Pattern, c.Traffic.AdvOffset, c.Traffic.LocalOffset = pattern, offset, 1
	if edit != nil {
		edit(&c)
	}
	c.AcorPaperVCs()
	return c
}

// AcorPaperVCs sets the VCs of the ACOR paper's Table 3 for c's routing:
// local/global/injection 2/1/1 for MIN, 4/2/1 for every other.
func (c *Config) AcorPaperVCs() {
	c.Router.LocalVCs, c.Router.GlobalVCs, c.Router.InjectionVCs = 4, 2, 1
	if c.Routing.Name == "MIN" {
		c.Router.LocalVCs, c.Router.GlobalVCs = 2, 1
	}
}

func acorPresets() []Preset {
	p := func(h int, doc string) Preset {
		c := AcorPaper(h)
		c.Name = fmt.Sprintf("acor-%d", c.Topology.A*c.Topology.P*(c.Topology.A*c.Topology.H+1))
		c.Traffic.Load = 0.2
		return Preset{c.Name, doc, c}
	}
	small := p(4, "ACOR paper's timing at 1,056 hosts (h=4, §6.2.2: IT₁/DT₁ = 20/8): 90-cycle switch, 15/150-cycle links, 10-phit packets, ACOR-Switch 3L under UN")
	small.Config.Sim.Warmup, small.Config.Sim.Cycles = 10000, 10000
	return []Preset{
		p(6, "ACOR paper's Table 3 system: 5,256 hosts (h=6, a=12, p=6), 1 GHz, 90-cycle switch, 15/150-cycle links, 10-phit packets, 720/1,800-phit VCs, ACOR-Switch 3L under UN (CLI scale)"),
		small,
	}
}
