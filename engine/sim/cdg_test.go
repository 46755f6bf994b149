package sim

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/routing"
	"phitsim/engine/topology"
	"phitsim/engine/vcs"
)

// TestEveryAcceptedConfigurationHasAnAcyclicEscape: for every routing ×
// topology kind × phase-A policy × request-reply setting, a configuration
// the validator accepts builds (New runs the channel-dependency check), and
// the full walk of its escape sub-network — minimal paths with the VC
// sequence, every router to every router — finds no cycle, also where
// CheckAcyclic's shortcut skips it (Dally and Seitz 1987; thesis §1.3); a
// routing with a priority class of control VCs (QCN_SWITCH's CNMs) walks
// that class's minimal sequence too, and its VCs lie above the data's. One
// the validator refuses is refused with routing.name or a field named.
// With router.voq a channel is (port, output, VC): it maps onto the
// (port, VC) channel of the same buffer, and a dependency between two
// queues onto one between their VCs, so a cycle of queues would be a cycle
// of VCs: the same walk covers it.
func TestEveryAcceptedConfigurationHasAnAcyclicEscape(t *testing.T) {
	pa, _ := config.Lookup("routing.phaseA")
	accepted, refused, acceptedVoq := 0, 0, 0
	for _, e := range routing.All() {
		for _, kind := range topology.Kinds() {
			for _, phaseA := range pa.Enum {
				for _, rs := range []struct {
					reactive, voq bool
					scheme        string
				}{{false, false, ""}, {true, false, ""}, {false, true, ""}, {false, false, "ideal"}, {false, false, "ecn"}} {
					reactive, voq := rs.reactive, rs.voq
					c := config.Default()
					c.Congestion.Scheme = rs.scheme // the isolated and priority classes (ctlclass.go)
					if rs.scheme == "ecn" {
						c.Traffic.SourceQueue, c.Traffic.SourceQueues = true, "perDestination"
					}
					c.Topology.Kind = kind
					c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
					c.Topology.Width, c.Topology.Height = 3, 4
					c.Topology.K, c.Topology.Stages = 3, 3 // a fat tree (a flattened butterfly also needs its dimensions)
					c.Routing.Name, c.Routing.PhaseA = e.Name, phaseA
					c.Traffic.Reactive = reactive
					c.Router.Voq = voq
					c.Sim.Warmup, c.Sim.Cycles = 10, 10
					name := e.Name + "/" + kind + "/" + phaseA
					if reactive {
						name += "/reactive"
					}
					if voq {
						name += "/voq"
					}
					if rs.scheme != "" {
						name += "/" + rs.scheme
					}
					if errs := c.Validate(); len(errs) > 0 {
						refused++
						if errs[0].Path == "" {
							t.Errorf("%s: refused without naming a field: %v", name, errs)
						}
						continue
					}
					accepted++
					if voq {
						acceptedVoq++
					}
					s, err := New(c, 1)
					if err != nil {
						t.Errorf("%s: accepted by the validator, refused by New: %v", name, err)
						continue
					}
					if err := vcs.Walk(s.topo, s.seq); err != nil {
						t.Errorf("%s: %v", name, err)
					}
					if s.cc.on {
						// the priority class (ctlclass.go): its own minimal
						// walk, on VCs above every data VC of the class
						if err := vcs.Walk(s.topo, s.cc.seq); err != nil {
							t.Errorf("%s: control class: %v", name, err)
						}
						for c, n := range s.seq.PerClass(len(s.vcCount)) {
							if int(s.ctlBase[c]) < n || s.vcCount[c] > 32 {
								t.Errorf("%s: class %d: control VCs from %d of %d, the data use %d", name, c, s.ctlBase[c], s.vcCount[c], n)
							}
						}
					}
					if s.iso.on {
						// the isolated class: minimal and acyclic on its own
						// VCs, between the data's and the priority class's
						if err := vcs.Walk(s.topo, s.iso.seq); err != nil {
							t.Errorf("%s: isolated class: %v", name, err)
						}
						per := s.iso.seq.PerClass(len(s.vcCount))
						for c, n := range s.seq.PerClass(len(s.vcCount)) {
							if int(s.isoBase[c]) < n || int(s.isoBase[c])+per[c] > min(s.vcCount[c], int(s.ctlBase[c])) {
								t.Errorf("%s: class %d: isolated VCs from %d (+%d) of %d, the data use %d", name, c, s.isoBase[c], per[c], s.vcCount[c], n)
							}
						}
					}
				}
			}
		}
	}
	if accepted < 50 || refused == 0 || acceptedVoq < 5 {
		t.Errorf("%d accepted, %d refused configurations: the grid does not cover what it should", accepted, refused)
	}
	t.Logf("%d accepted configurations walked (%d with router.voq), %d refused", accepted, acceptedVoq, refused)
}
