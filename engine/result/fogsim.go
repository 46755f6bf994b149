package result

import (
	"fmt"
	"math"
	"strings"
)

// FOGSimReport renders the headline statistics in FOGSim's "Key: value"
// vocabulary (thesis §1.6.3.2), with FOGSim's definitions, so results can be
// compared line by line with published FOGSim outputs.
func FOGSimReport(r *Result) string {
	var b strings.Builder
	line := func(k string, v any) { fmt.Fprintf(&b, "%s: %v\n", k, v) }
	c := r.Config
	b.WriteString("PARAMETERS\n")
	line("Total Number Of Cycles", c.Sim.Warmup+c.Sim.Cycles)
	line("Max Cycles", c.Sim.Cycles)
	if c.Topology.Kind == "dragonfly" {
		line("H", c.Topology.H)
		line("P", c.Topology.P)
		line("A", c.Topology.A)
	} else { // FOGSim simulates Dragonflies only: the topology in phitsim's words
		line("Topology", c.Topology.Kind+" "+c.Topology.Describe())
	}
	line("Routing", c.Routing.Name)
	line("Traffic", c.Traffic.Pattern)
	line("Injection Probability", 100*r.Offered)
	line("Seed", r.Seed)
	b.WriteString("STATISTICS\n")
	line("Packets Received", r.Delivered)
	line("Applied Load", r.Applied)
	line("Accepted Load", r.Accepted)
	if c.Traffic.Reactive {
		line("Petition Accepted Load", r.RequestAccepted)
		line("Response Accepted Load", r.ReplyAccepted)
	}
	line("Non Minimally Routed Packets Received", r.Misrouted.FOGSim) // FOGSim's definition (Misrouted.FOGSim)
	for i, name := range []string{"CRGLGr", "CRGLSw", "RRGLSw"} {
		if len(r.Misrouted.AcorStatus) == 3 {
			line("% packets status "+name, 100*r.Misrouted.AcorStatus[i])
		}
	}
	line("Average Distance", r.Hops.Avg)
	if len(r.Classes) > 0 { // not a Dragonfly: its link classes by name
		for _, cl := range r.Classes[1:] {
			line("Average "+cl.Class+" Distance", cl.Hops)
		}
	} else {
		line("Average Local Distance", r.Hops.Local)
		line("Average Global Distance", r.Hops.Global)
	}
	line("Average Total Latency", r.Latency.Avg)
	line("Min Total Latency", r.Latency.Min)
	line("Max Total Latency", r.Latency.Max)
	line("Average Inj Latency", r.InjLatency)
	line("Average Latency", r.NetLatency)
	if c.Traffic.Reactive {
		line("Average Response Latency", r.ReplyRoundTrip)
	}
	line("Max Hops", r.Hops.Max)
	f := r.Fairness
	line("Max Injections", f.Max)
	line("Switch With Max Injections", f.MaxRouter)
	line("Min Injections", f.Min)
	line("Switch With Min Injections", f.MinRouter)
	mm := f.MaxMin
	if f.Starved > 0 {
		mm = math.Inf(1)
	}
	line("Unbalance Quotient", mm)
	line("Unfairness Quotient (stdev/avg)", f.CoV)
	return b.String()
}
