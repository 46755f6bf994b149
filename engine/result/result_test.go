package result

import (
	"strings"
	"testing"

	"phitsim/engine/config"
)

func TestFOGSimReportVocabulary(t *testing.T) {
	r := &Result{Config: config.Default(), Offered: 0.4, Accepted: 0.39, Applied: 0.4,
		Latency: Summary{Avg: 140}, Misrouted: Misrouted{Packets: 3, FOGSim: 7}, Fairness: Fairness{Min: 0, Max: 10, Starved: 1, CoV: 0.5}}
	rep := FOGSimReport(r)
	for _, want := range []string{"Accepted Load: 0.39", "Applied Load: 0.4", "Average Total Latency: 140",
		"Average Inj Latency:", "Max Injections: 10", "Min Injections: 0", "Unbalance Quotient: +Inf",
		"Unfairness Quotient (stdev/avg): 0.5", "Injection Probability: 40",
		"Non Minimally Routed Packets Received: 7"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	if !(Conservation{TotalGenerated: 5, TotalDelivered: 3, InFlight: 2}).Conserved() ||
		(Conservation{TotalGenerated: 5, TotalDelivered: 3}).Conserved() {
		t.Error("Conserved")
	}
}

// A topology other than the Dragonfly reports the distance on each of its
// link classes by name, and no local or global distance.
func TestFOGSimReportClasses(t *testing.T) {
	mesh := config.Default()
	mesh.Topology.Kind, mesh.Topology.Width, mesh.Topology.Height, mesh.Topology.P = "mesh", 4, 3, 1
	r := &Result{Config: mesh, Hops: Hops{Avg: 2.5},
		Classes: []ClassStat{{Class: "injection"}, {Class: "x", Hops: 1.5}, {Class: "y", Hops: 1}}}
	rep := FOGSimReport(r)
	if !strings.Contains(rep, "Average x Distance: 1.5\nAverage y Distance: 1\n") || strings.Contains(rep, "Global") ||
		strings.Contains(rep, "Local") || strings.Contains(rep, "injection") ||
		!strings.Contains(rep, "Topology: mesh p=1 width=4 height=3\n") || strings.Contains(rep, "\nH: ") {
		t.Errorf("report:\n%s", rep)
	}
	r.Classes, r.Config = nil, config.Default()
	r.Hops.Local, r.Hops.Global = 1.5, 1
	if rep := FOGSimReport(r); !strings.Contains(rep, "Average Local Distance: 1.5\nAverage Global Distance: 1\n") {
		t.Errorf("Dragonfly report:\n%s", rep)
	}
}
