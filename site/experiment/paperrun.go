package experiment

import (
	"fmt"
	"strconv"

	"phitsim/engine/config"
	"phitsim/engine/routing"
	"phitsim/engine/units"
)

// The run the papers report, which the page's presets shorten so that a
// browser finishes them in seconds.
const (
	// Fuentes, PhD thesis §1.6.4, Table 1.2: 60,000 warm-up + 60,000
	// measured cycles, 5 simulations per point, 16,512 nodes (h=8).
	thesisWarmup, thesisCycles, thesisSeeds, thesisNodes = 60000, 60000, 5, 16512
	// Fuentes, PhD thesis §2.3.2: Graph500 graphs of scale s = 26.
	thesisScale = 26
	// ACOR paper (Table 3): 5,256 hosts (h=6, a=12, p=6).
	acorHosts = 5256
	// QCN-Switch paper (§4.1): the same 5,256 nodes, 2.4 ms + 2.4 ms,
	// 10 simulations per point (config.EthernetRunNs, EthernetSeeds).
	qcnNodes = 5256
)

// PaperRun says how the preset's run is shorter or smaller than the one of
// the paper it comes from, with the paper's own run length; empty when it
// runs as long as the paper's. The page shows it with the preset, so that
// numbers from a shortened run are not mistaken for the paper's.
func (p Preset) PaperRun() string { return paperRun(&p.Exp) }

func paperRun(e *Experiment) string {
	if len(e.Series) == 0 {
		return ""
	}
	// the shortest series decides (they normally agree)
	warm, cyc, seeds, scale := e.Series[0].Sim.Warmup, e.Series[0].Sim.Cycles, e.Series[0].Sim.Seeds, e.Series[0].Workload.Scale
	g500, acor := false, false
	for i := range e.Series {
		c := &e.Series[i]
		warm, cyc, seeds = min(warm, c.Sim.Warmup), min(cyc, c.Sim.Cycles), min(seeds, c.Sim.Seeds)
		scale = min(scale, c.Workload.Scale)
		g500 = g500 || c.Graph500()
		e := routing.Get(c.Routing.Name)
		// ACOR's routings, or the ACOR paper's Table 3 router (90-cycle
		// switch, 10-phit packets: config.AcorPaper) under another routing
		// (its Fig. 4 compares MIN, VAL and PB only)
		acor = acor || e.Keeps(routing.Levels) || (c.Router.XbarLatency == 90 && c.Router.PacketSize == 10)
	}
	sz, _ := e.Series[0].Topology.Sizes()
	nodes := sz.Nodes
	if b, ok := e.Series[0].Basis(); ok && e.Series[0].Topology.Kind == "fattree" {
		// the RECN paper's corner cases: its figures run to 2,000 µs (the
		// text states no run length nor seeds; its curves start at 0)
		if b.Ns(float64(warm+cyc)) >= config.RECNRunNs {
			return ""
		}
		why, fig6 := "for the browser", ""
		if nodes > 64 {
			// the 512-host Fig. 6b: 2,000 µs bound more packets alive than one run's memory holds (config.RECNLarge)
			why, fig6 = "to fit one run's memory", " (its Fig. 6 states no length)"
		}
		return fmt.Sprintf("Shortened %s: %s (%s cycles of %s) of the %s that the RECN paper's Fig. 2 plots%s.",
			why, units.FormatTime(b.Ns(float64(warm+cyc))), thousands(warm+cyc), units.FormatTime(b.CycleNs()), units.FormatTime(config.RECNRunNs), fig6)
	} else if ok {
		// a physical system: the QCN-Switch paper's, whose run is in ms
		warmNs, cycNs := b.Ns(float64(warm)), b.Ns(float64(cyc))
		if warmNs >= config.EthernetRunNs && cycNs >= config.EthernetRunNs && seeds >= config.EthernetSeeds && nodes >= qcnNodes {
			return ""
		}
		return fmt.Sprintf("Shortened for the browser: %s warm-up + %s measured (%s + %s cycles of %s), %s per point, %s nodes. "+
			"The QCN-Switch paper (Non-minimal Adaptive Routing Based on Explicit Congestion Notifications, §4.1) runs %s + %s, "+
			"%d simulations per point, %s nodes.", units.FormatTime(warmNs), units.FormatTime(cycNs), thousands(warm), thousands(cyc),
			units.FormatTime(b.CycleNs()), Count(seeds, "seed"), thousands(nodes), units.FormatTime(config.EthernetRunNs),
			units.FormatTime(config.EthernetRunNs), config.EthernetSeeds, thousands(qcnNodes))
	}
	if g500 {
		if scale >= thesisScale {
			return ""
		}
		return fmt.Sprintf("Scaled down for the browser: a graph of scale s = %d (2^%d vertices), %s per point; "+
			"the thesis's figures use s = %d (Fuentes, PhD thesis §2.3.2).", scale, scale, Count(seeds, "BFS root"), thesisScale)
	}
	run := fmt.Sprintf("%s warm-up + %s measured cycles, %s per point, %s nodes",
		thousands(warm), thousands(cyc), Count(seeds, "seed"), thousands(nodes))
	if acor {
		return "Shortened for the browser: " + run + ". The ACOR paper (ACOR: Adaptive Congestion-Oblivious Routing " +
			"in Dragonfly networks) simulates " + thousands(acorHosts) + " hosts and does not state its run length " +
			"(\"a battery of several simulations\"); expect wider confidence intervals than its figures."
	}
	if warm >= thesisWarmup && cyc >= thesisCycles && seeds >= thesisSeeds {
		return ""
	}
	return fmt.Sprintf("Shortened for the browser: %s. The thesis ran %s + %s cycles, %d seeds per point, %s nodes "+
		"(Fuentes, PhD thesis §1.6.4, Table 1.2).", run, thousands(thesisWarmup), thousands(thesisCycles), thesisSeeds, thousands(thesisNodes))
}

// Count writes n and the noun, plural unless n is 1: "1 seed", "5 seeds"
// ("series" is its own plural).
func Count(n int, noun string) string {
	if n != 1 && noun != "series" {
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}

// thousands writes 60000 as "60,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
