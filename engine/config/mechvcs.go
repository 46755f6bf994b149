package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"phitsim/engine/routing"
	"phitsim/engine/topology"
	"phitsim/engine/vcs"
)

// ClassesOf are the latency, buffer and VCs of each port class topo
// declares, from the configuration parameters the class names (as Classes
// resolves them for topology.kind). A topology may declare more classes
// than its kind when each shares the parameters of one of the kind's
// classes (as the kind's x and y share the local ones).
func (c *Config) ClassesOf(topo topology.Topology) ([]ClassSetting, error) {
	k, err := topology.KindOf(c.Topology.Kind)
	if err != nil {
		return nil, err
	}
	set := c.Classes()
	out := make([]ClassSetting, len(topo.Classes()))
	for i, tc := range topo.Classes() {
		j := c.kindClass(k, tc)
		if j < 0 || (i == 0) != (j == 0) {
			return nil, fmt.Errorf("topology %s: port class %d (%s) takes %s, %s, %s: no class of topology.kind=%s has these parameters",
				topo.Name(), i, tc.Name, tc.Latency, tc.Buffer, tc.VCs, c.Topology.Kind)
		}
		out[i] = set[j]
		out[i].Name = tc.Name
	}
	return out, nil
}

// kindClass is the index of the class of kind k whose parameters port
// class tc takes, or −1.
func (c *Config) kindClass(k *topology.Kind, tc topology.Class) int {
	return slices.IndexFunc(k.Classes, func(kc topology.Class) bool {
		return kc.Latency == tc.Latency && kc.Buffer == tc.Buffer && kc.VCs == tc.VCs
	})
}

// IsolatedClass tells whether the run keeps a class of its own above the
// data VCs of every port (Ideal's isolated hotspot class, CBCM's dedicated
// hotspot VC, SRP's speculative VCs: Kim et al., Contention-based
// Congestion Management in Large-Scale Networks §III-B, §IV-A), whether it
// is served at strictly the lowest priority, and whether its packets are
// routed by the data routing's UGAL (SRP(UGAL)'s speculative packets on a
// flattened butterfly, §V-C) rather than minimally.
func (c *Config) IsolatedClass() (on, low, adaptive bool) {
	switch c.Congestion.SchemeName() {
	case "ideal":
		return true, c.Congestion.IdealPriority == "low", false
	case "cbcm":
		return c.Congestion.CbcmHotspotVC != "shared", true, false
	case "srp":
		return true, true, routing.Get(c.Routing.Name).Kind == routing.UGAL && c.Topology.Kind == "fbfly"
	}
	return false, false, false
}

// ControlClass tells whether the run keeps control VCs above the data (and
// isolated) VCs of every port for its mechanism's control packets, whether
// those are Kim et al.'s (§V-A: 1-flit packets, sent by the nodes: ECN's
// BECNs, CBCM's throttles, SRP's reservations and replies) rather than
// QCN-Switch's CNMs, and whether the replies (SRP's grants, ACKs and
// NACKs) take a second copy of them.
func (c *Config) ControlClass() (on, kim, replies bool) {
	s := c.Congestion.SchemeName()
	kim = s == "ecn" || s == "cbcm" || s == "srp"
	e := routing.Get(c.Routing.Name)
	return kim || e.Keeps(routing.Notifications), kim, s == "srp"
}

// MechanismVCs counts, per port class of topo, the VCs the isolated and
// control classes add above the data VCs: one each on an injection port
// (two control VCs with replies), elsewhere the class's VCs in the
// sequence they are routed on (vcs.MinimalClassSeq, or the data routing's
// for an adaptive isolated class), twice for the control class with
// replies.
func (c *Config) MechanismVCs(topo topology.Topology) ([]int, error) {
	n := len(topo.Classes())
	out := make([]int, n)
	iso, _, adaptive := c.IsolatedClass()
	ctl, _, replies := c.ControlClass()
	if !iso && !ctl {
		return out, nil
	}
	minimal, err := vcs.MinimalClassSeq(topo, c.Topology.Kind)
	if err != nil {
		return nil, err
	}
	isoSeq := minimal
	if adaptive {
		e := routing.Get(c.Routing.Name)
		if isoSeq, err = vcs.ForEntry(c.Topology.Kind, &e, e.ResolvePhaseA(c.Routing.PhaseA)); err != nil {
			return nil, err
		}
	}
	isoPer, ctlPer := isoSeq.PerClass(n), minimal.PerClass(n)
	for cl := range out {
		if topology.PortClass(cl) == topology.Injection {
			isoPer[cl], ctlPer[cl] = 1, 1
		}
		if iso {
			out[cl] += isoPer[cl]
		}
		if ctl {
			out[cl] += ctlPer[cl]
			if replies {
				out[cl] += ctlPer[cl]
			}
		}
	}
	return out, nil
}

// builtMechanismVCs builds c's network and counts MechanismVCs on it;
// false when the run adds none or the network does not build.
func (c *Config) builtMechanismVCs() (topology.Topology, []int, bool) {
	iso, _, _ := c.IsolatedClass()
	ctl, _, _ := c.ControlClass()
	if !iso && !ctl {
		return nil, nil, false
	}
	topo, err := topology.New(c.Topology.Params())
	if err != nil {
		return nil, nil, false // the topology's own errors say why
	}
	extra, err := c.MechanismVCs(topo)
	return topo, extra, err == nil
}

// MechanismVCsText lists MechanismVCs by port class ("injection 2, link
// 2"), "" when the run adds none or its network does not build.
func (c *Config) MechanismVCsText() string {
	topo, extra, ok := c.builtMechanismVCs()
	if !ok {
		return ""
	}
	var parts []string
	for cl, tc := range topo.Classes() {
		parts = append(parts, fmt.Sprintf("%s %d", tc.Name, extra[cl]))
	}
	return strings.Join(parts, ", ")
}

// checkMechanismVCs refuses data VCs that leave no room, within the 32
// VCs a port holds, for the VCs the congestion-management scheme or the
// routing's notifications add (MechanismVCs), naming the data VCs'
// parameter and its largest value with them.
func (c *Config) checkMechanismVCs() Errors {
	topo, extra, ok := c.builtMechanismVCs()
	if !ok {
		return nil
	}
	k, err := topology.KindOf(c.Topology.Kind)
	if err != nil {
		return nil
	}
	classes, err := c.ClassesOf(topo)
	if err != nil {
		return nil
	}
	var who []string // what adds them: the scheme, the routing's notifications, or both
	iso, _, _ := c.IsolatedClass()
	if _, kim, _ := c.ControlClass(); iso || kim {
		who = append(who, "congestion.scheme="+c.Congestion.SchemeName())
	}
	if e := routing.Get(c.Routing.Name); e.Keeps(routing.Notifications) {
		who = append(who, "routing.name="+c.Routing.Name)
	}
	what := strings.Join(who, " with ")
	var errs Errors
	seen := map[string]bool{}
	for cl, tc := range topo.Classes() {
		path := k.Classes[c.kindClass(k, tc)].VCs
		if v := classes[cl].VCs; v+extra[cl] > 32 && !seen[path] {
			seen[path] = true
			errs = append(errs, &FieldError{Path: path, Value: strconv.Itoa(v),
				Msg: fmt.Sprintf("%s adds %d VC%s on %s ports above the data VCs (its own classes), and a port holds 32: at most %d", what, extra[cl], plural(extra[cl]), tc.Name, 32-extra[cl])})
		}
	}
	return errs
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
