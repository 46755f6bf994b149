// Package topology builds the static graph of a network: routers, ports,
// links, where the compute nodes attach, and the minimal-path tables routing
// needs. The router model (package sim) sees a network only through the
// Topology interface and makes no assumption on how nodes and port classes
// are numbered: a new topology (a flattened butterfly, a fat tree) is a type
// that implements Topology plus a case in New. What the simulator still takes
// from the Dragonfly type itself is Dragonfly-specific: its adaptive
// routings, Valiant's intermediate groups, the group-based traffic patterns
// and Graph500 job placement; it refuses those on other topologies.
package topology

import (
	"fmt"

	"phitsim/engine/config"
)

// PortClass tells what a router port connects to. Buffer sizes, link latencies
// and VC sets are chosen per class.
type PortClass uint8

const (
	Injection PortClass = iota // a compute node (injection on input, ejection on output)
	Local                      // a link inside a group
	Global                     // a link between groups
)

func (c PortClass) String() string {
	switch c {
	case Injection:
		return "injection"
	case Local:
		return "local"
	case Global:
		return "global"
	}
	return "?"
}

// Topology is what the simulator needs from a network graph. Routers are
// numbered 0…Routers()−1, nodes 0…Nodes()−1, the ports of a router
// 0…Radix()−1. Nothing else is assumed of the numbering: a router may hold
// any number of nodes (none: a fat tree's upper switches), on any of its
// ports, and the classes of its ports may differ from those of other
// routers. Check verifies the contract below.
type Topology interface {
	Name() string
	Routers() int
	Nodes() int
	// Radix is the number of ports of every router.
	Radix() int
	// NodePort is where node n attaches: a port of class Injection. Every
	// Injection port of the network holds exactly one node.
	NodePort(node int) (router, port int)
	// PortClass of port of router.
	PortClass(router, port int) PortClass
	// Link returns the far end of a transit (Local or Global) port. Links are
	// symmetric and join two ports of the same class (the class sets the
	// link's latency, both ways).
	Link(router, port int) (peer, peerPort int)
	// MinimalPort is the next transit port on a minimal path from router to
	// dest (routers, dest != router).
	MinimalPort(router, dest int) int
	// Groups partitions the routers (Dragonfly groups); a topology without
	// such a structure has one group.
	Groups() int
	GroupOf(router int) int
}

// Kinds are the values of config's topology.kind that New builds.
var Kinds = []string{"dragonfly"}

// New builds the topology a configuration describes (topology.kind and the
// fields of that kind).
func New(c config.Topology) (Topology, error) {
	switch c.Kind {
	case "dragonfly":
		d, err := NewDragonfly(c.H, c.A, c.P, c.Arrangement)
		if err != nil {
			return nil, err
		}
		return d, nil
	}
	return nil, fmt.Errorf("topology.kind: %q is not a known topology (one of %v)", c.Kind, Kinds)
}

// Check verifies that t keeps the contract of Topology: node attachment is
// a one-to-one map onto the Injection ports, and every transit port has a
// symmetric link to a port of the same class.
func Check(t Topology) error {
	R, radix := t.Routers(), t.Radix()
	if R < 1 || radix < 1 || t.Nodes() < 1 {
		return fmt.Errorf("topology %s: %d routers, %d nodes, radix %d", t.Name(), R, t.Nodes(), radix)
	}
	held := make([]int, R*radix) // node+1 on each port
	for n := 0; n < t.Nodes(); n++ {
		r, p := t.NodePort(n)
		if r < 0 || r >= R || p < 0 || p >= radix {
			return fmt.Errorf("topology %s: node %d attaches to router %d port %d, out of range", t.Name(), n, r, p)
		}
		if c := t.PortClass(r, p); c != Injection {
			return fmt.Errorf("topology %s: node %d attaches to router %d port %d of class %s", t.Name(), n, r, p, c)
		}
		if m := held[r*radix+p]; m != 0 {
			return fmt.Errorf("topology %s: nodes %d and %d attach to router %d port %d", t.Name(), m-1, n, r, p)
		}
		held[r*radix+p] = n + 1
	}
	for r := 0; r < R; r++ {
		if g := t.GroupOf(r); g < 0 || g >= t.Groups() {
			return fmt.Errorf("topology %s: router %d in group %d of %d", t.Name(), r, g, t.Groups())
		}
		for p := 0; p < radix; p++ {
			c := t.PortClass(r, p)
			switch c {
			case Injection:
				if held[r*radix+p] == 0 {
					return fmt.Errorf("topology %s: injection port %d of router %d holds no node", t.Name(), p, r)
				}
				continue
			case Local, Global:
			default:
				return fmt.Errorf("topology %s: port %d of router %d has class %d", t.Name(), p, r, c)
			}
			q, qp := t.Link(r, p)
			if q < 0 || q >= R || qp < 0 || qp >= radix {
				return fmt.Errorf("topology %s: router %d port %d links to router %d port %d, out of range", t.Name(), r, p, q, qp)
			}
			if qc := t.PortClass(q, qp); qc != c {
				return fmt.Errorf("topology %s: router %d port %d (%s) links to router %d port %d (%s)", t.Name(), r, p, c, q, qp, qc)
			}
			if br, bp := t.Link(q, qp); br != r || bp != p {
				return fmt.Errorf("topology %s: router %d port %d links to router %d port %d, which links to router %d port %d", t.Name(), r, p, q, qp, br, bp)
			}
		}
	}
	return nil
}
