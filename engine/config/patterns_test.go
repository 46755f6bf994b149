package config

import (
	"slices"
	"strings"
	"testing"

	"phitsim/engine/traffic"
)

// A pattern, or the pattern after a switch, that does not run on the
// topology kind (its declaration in package traffic) is refused at
// validation, naming the field, the kinds it runs on and the patterns that
// run on this one; so is a Graph500 job off the Dragonfly.
func TestPatternsFollowTheirTopologies(t *testing.T) {
	nets := map[string]func() Config{"dragonfly": Default, "mesh": meshConfig, "fbfly": fbflyConfig}
	for _, p := range traffic.Patterns() {
		for _, field := range []string{"traffic.pattern", "traffic.switchPattern"} {
			for kind, net := range nets {
				c := net()
				if field == "traffic.pattern" {
					c.Traffic.Pattern = p.Name
				} else {
					c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 100, p.Name
				}
				c.Traffic.MixUN, c.Traffic.MixADVL, c.Traffic.MixADV = 50, 25, 25
				c.Traffic.HotspotNode, c.Traffic.HotspotSenders = 3, "0, 1,2"
				errs := c.Validate()
				if p.Supports(kind) {
					if len(errs) > 0 {
						t.Errorf("%s=%s on %s: %v", field, p.Name, kind, errs)
					}
					continue
				}
				on, here := "topology.kind="+strings.Join(p.Topologies, " or ")+" only", "only "+strings.Join(traffic.On(kind), ", ")
				if len(errs) != 1 || errs[0].Path != field || !strings.Contains(errs[0].Error(), on) || !strings.Contains(errs[0].Error(), here) {
					t.Errorf("%s=%s on %s: %v, want one error naming %s, %q and %q", field, p.Name, kind, errs, field, on, here)
				}
			}
		}
	}
	// the pattern after a switch is checked only when there is a switch
	c := meshConfig()
	c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 0, "ADV"
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("switchPattern=ADV without a switch on a mesh: %v", errs)
	}
	c = meshConfig()
	c.Workload.Kind = "graph500"
	errs := c.Validate()
	if len(errs) == 0 || !slices.ContainsFunc(errs, func(e *FieldError) bool {
		return e.Path == "workload.kind" && strings.Contains(e.Error(), "topology.kind=dragonfly or fbfly only")
	}) {
		t.Errorf("Graph500 on a mesh: %v, want an error naming workload.kind", errs)
	}
}

// traffic.pattern's and traffic.switchPattern's values are the patterns
// package traffic declares.
func TestPatternEnumIsTheTrafficTable(t *testing.T) {
	var names []string
	for _, p := range traffic.Patterns() {
		names = append(names, p.Name)
	}
	for _, path := range []string{"traffic.pattern", "traffic.switchPattern"} {
		p, ok := Lookup(path)
		if !ok || !slices.Equal(p.Enum, names) {
			t.Errorf("%s: values %v, the traffic table's %v", path, p.Enum, names)
		}
	}
}
