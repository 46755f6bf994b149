package figures

import (
	"fmt"
	"strings"
)

// Recorded is a figure's measured claim as FIGURES.md lists it.
type Recorded struct {
	Value   float64 `json:"value"`
	Pass    bool    `json:"pass"`
	Verdict string  `json:"verdict"`
	Text    string  `json:"text"`
}

// Markdown is engine/FIGURES.md: the table with the recorded measurements
// (a figure with none is listed as not measured).
func Markdown(measured map[string]Recorded) string {
	var b strings.Builder
	b.WriteString(`# The figure gallery

Generated from engine/figures (the table the page's gallery, ` + "`phitsim figures`" + ` and the regression
test TestFigures share): do not edit; ` + "`go test ./engine/figures -run TestFigures -update-figures`" + ` runs
every figure and regenerates it. Each claim is read on the accepted load (phits/(node·cycle)) unless it
says otherwise, on points whose quality verdict is not "unstable" or "too short" (METHODS.md), or on a "too
short" point's runs as independent replications when it has at least 5 seeds and none is saturated or unstable:
the whole 95% interval over the seeds must then lie within the tolerance (verdict "replicated"); a claim on
a time series (a settle time or a window after a switch, bytes/ns over a window, a HOTSPOT's background
latency per interval around the hotspot's start) is read on the runs' records pooled over the seeds,
whatever the steady-state verdict (verdict "transient").
` + "`phitsim figures -check ID`" + ` runs one figure and prints the same line.

| Figure | Paper | Claim (with our tolerance) | We run | Measured | Verdict | Holds |
|---|---|---|---|---|---|---|
`)
	for _, f := range Table {
		m, ok := measured[f.ID]
		got, verdict, holds := "not measured", "—", "—"
		if ok {
			got, verdict, holds = m.Text, m.Verdict, "yes"
			if !m.Pass {
				holds = "**no**"
			}
		}
		if f.Known != "" {
			holds += " (" + f.Known + ")"
		}
		est, _ := f.EstimateSeconds()
		fmt.Fprintf(&b, "| %s %s | %s | %s | `%s`: %s (%s in a browser, estimated) | %s | %s | %s |\n",
			f.ID, f.Title, f.Paper, f.ClaimText, f.Experiment, f.Scaled, Duration(est), got, verdict, holds)
	}
	fmt.Fprintf(&b, "\nRun times are estimates: every run's cycles × the fixed cost of a cycle (%.1f instructions per node and %.1f "+
		"per router, callgrind on idle networks), plus its packet-hops (the phits the pattern offers per cycle, figures.OfferedPhits, "+
		"÷ packet size × cycles × 5 hops) × the routing's instructions per packet-hop (BENCHMARKS.md: MIN %.0f … PB_ACOR %.0f) less "+
		"the fixed cost per hop of their probe (%.0f), × packet size ÷ %d (on a Dragonfly without a known throughput bound, UN, "+
		"× (1 + %.1f × (load − %.1f)) for the heads that find their output busy); plus, near and past the routing's throughput "+
		"bound (for an adaptive routing under ADV+i or ADVc from %.1f to %.1f × it), the cost of the heads that wait, per node and "+
		"cycle (MIN %.0f … OLM %.0f); at %.0f G instructions/s, one WebAssembly worker at about "+
		"half a native core. Each card's estimate against the callgrind count of its runs: BENCHMARKS.md, \"The gallery's run-time "+
		"estimate\". The page measures its own browser's speed with a short probe run (figures.CalibrationProbe) and shows "+
		"its estimate instead.\n",
		FixedInstrPerNodeCycle, FixedInstrPerRouterCycle, InstrPerHop["MIN"], InstrPerHop["PB_ACOR"], ProbeFixedPerHop, ProbePacketSize,
		ContentionPerLoad, ProbeLoad, AdaptiveStart, AdaptiveWhole, SaturatedInstrPerNodeCycle["MIN"], SaturatedInstrPerNodeCycle["OLM"],
		BrowserInstrPerSecond/1e9)
	return b.String()
}

// Duration formats seconds for a card: "under 1 s", "12 s", "3 min".
func Duration(s float64) string {
	if s < 0.5 {
		return "under 1 s"
	}
	if s < 90 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.0f min", s/60)
}
