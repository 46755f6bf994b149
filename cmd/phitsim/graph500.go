package main

import (
	"fmt"
	"io"

	"phitsim/engine/config"
	"phitsim/engine/result"
)

// printGraph500 summarises Graph500 runs: the physical units, then per run
// the execution time, the usage and the levels.
func printGraph500(w io.Writer, c config.Config, runs []*result.Result) {
	wl := c.Workload
	fmt.Fprintf(w, "Graph500 BFS: s=%d fe=%d cs=%d, tq=%g ns, %g Gb/s links, %d-byte phits → cycle %.4g ns, packet %d B\n",
		wl.Scale, wl.EdgeFactor, wl.Coalescing, wl.Tq, wl.LinkGbps, wl.PhitBytes, wl.CycleNs(), c.Router.PacketSize*wl.PhitBytes)
	for _, r := range runs {
		g := r.Graph500
		if g == nil {
			continue
		}
		fmt.Fprintf(w, "seed %d: %s — execution time %.6g s (%d cycles), usage %.3f phits/(node·cycle), %.4g GTEPS\n",
			r.Seed, g.Status, g.Seconds, g.Cycles, g.Usage, g.TEPS/1e9)
		fmt.Fprintf(w, "  %d processes, root degree %d, tq = %.4g cycles, pinj (eq. 2.20) = %.3g (raw %.3g); %d messages, %d sync packets, CPU %.1f s\n",
			g.Processes, g.RootDegree, g.TqCycles, g.Pinj, g.PinjRaw, g.Messages, g.SyncPackets, r.CPUSeconds)
		for _, l := range g.Levels {
			fmt.Fprintf(w, "  level %d: mean E %.4g σ %.4g, %d queries, %.1f messages/process, %d cycles (%.4g s)\n",
				l.Level, l.Mean, l.Sigma, l.Queries, l.MessagesPerProcess, l.Cycles, l.Seconds)
		}
	}
}
