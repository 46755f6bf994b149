package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"phitsim/engine/config"
	"phitsim/engine/stats"
	"phitsim/engine/sweep"
	"phitsim/engine/units"
)

// basisLine is the configuration's physical basis in one line ("" without
// one): the cycle it makes and the cable delay.
func basisLine(c *config.Config) string {
	b, ok := c.Basis()
	if !ok {
		return ""
	}
	return fmt.Sprintf("physical units: %g Gb/s links, %d-byte phits: one cycle is %s, a load of 1 phit/(node·cycle) is %s per node; cables %g ns/m",
		b.LinkGbps, b.PhitBytes, units.FormatTime(b.CycleNs()), units.FormatGbps(b.LinkGbps), b.NsPerMeter())
}

// printPhysical lists every parameter of a configuration with a physical
// basis in physical units beside its engine value (validate).
func printPhysical(w io.Writer, c *config.Config) {
	line := basisLine(c)
	if line == "" {
		return
	}
	fmt.Fprintln(w, "  "+line)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range c.PhysicalView() {
		fmt.Fprintf(tw, "    %s\t%s\t%s\n", f.Param.Path, f.Text, f.Conv)
	}
	tw.Flush()
}

// physicalRows adds a run's load and latency in Gb/s and ns/µs to its
// summary, when the configuration has a physical basis.
func physicalRows(row func(name, value, unit string), c *config.Config, a sweep.Aggregate) {
	b, ok := c.Basis()
	if !ok {
		return
	}
	scale := func(e stats.Estimate, k float64) stats.Estimate {
		return stats.Estimate{Mean: e.Mean * k, CI95: e.CI95 * k, N: e.N}
	}
	row("accepted load", est(scale(a.Accepted, b.LinkGbps), "%.4g"), "Gb/s per node")
	us := b.CycleNs() / 1e3
	row("average latency", est(scale(a.Latency, us), "%.4g"), "µs, generation to delivery")
	row("  in the network", est(scale(a.NetLatency, us), "%.4g"), "µs")
}
