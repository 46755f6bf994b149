// Package topology builds the static graph of a network: routers, ports,
// links, where the compute nodes attach, and the minimal-path tables routing
// needs. The router model (package sim) sees a network only through the
// Topology interface and makes no assumption on how nodes and port classes
// are numbered. Each kind of topology is one entry of the kind registry
// (kinds.go): its name, its port classes and the configuration fields that
// set them, its sizes and memory computed from its parameters without
// building it, the hop classes of its minimal paths, and its constructor.
// Package config asks this package for all of that; this package imports
// nothing of the engine.
//
// What the simulator still takes from the Dragonfly type itself is
// Dragonfly-specific: its adaptive routings, Valiant's intermediate groups,
// the group-based traffic patterns and Graph500 job placement; it refuses
// those on other topologies.
package topology

import "fmt"

// PortClass tells what a router port connects to: an index into the port
// classes its topology declares (Topology.Classes). Class 0 is always
// Injection; the others are named by the kind. Buffer sizes, link latencies
// and VC sets are chosen per class.
type PortClass uint8

// The Dragonfly's classes (thesis §1.2). Other kinds number their own
// classes from 1 (a mesh: x = 1, y = 2).
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
	return fmt.Sprintf("class %d", uint8(c))
}

// Class describes one port class: its name and the configuration fields
// (dotted paths) that set its link latency, its input buffer per VC and its
// number of VCs. Several classes may share a field (a mesh's x and y links
// share the link latency, buffer and VC count).
type Class struct {
	Name    string
	Latency string // e.g. "topology.localLatency"
	Buffer  string // e.g. "router.localBuffer"
	VCs     string // e.g. "router.localVCs"
}

// InjectionClass is class 0 of every kind: the node ports.
var InjectionClass = Class{Name: "injection", Latency: "topology.injectionLatency",
	Buffer: "router.injectionBuffer", VCs: "router.injectionVCs"}

// LinkClass is the one transit class of a network whose router links are
// alike (a flattened butterfly, a fat tree): the local link's latency,
// buffer and VCs.
var LinkClass = Class{Name: "link", Latency: "topology.localLatency", Buffer: "router.localBuffer", VCs: "router.localVCs"}

// ClassNames lists the names of classes, in class order.
func ClassNames(classes []Class) []string {
	names := make([]string, len(classes))
	for i, c := range classes {
		names[i] = c.Name
	}
	return names
}

// Topology is what the simulator needs from a network graph. Routers are
// numbered 0…Routers()−1, nodes 0…Nodes()−1, the ports of a router
// 0…Radix()−1. Nothing else is assumed of the numbering: a router may hold
// any number of nodes (none: a fat tree's upper switches), on any of its
// ports, and the classes of its ports may differ from those of other
// routers. Check verifies the contract below.
type Topology interface {
	// Name identifies the topology: two topologies of one name are the
	// same graph with the same minimal ports (a kind spells all its
	// parameters; vcs.CheckAcyclic keeps its verdicts by name).
	Name() string
	Routers() int
	Nodes() int
	// Radix is the number of ports of every router.
	Radix() int
	// Classes declares the port classes, class 0 the injection class.
	Classes() []Class
	// NodePort is where node n attaches: a port of class Injection. Every
	// Injection port of the network holds exactly one node.
	NodePort(node int) (router, port int)
	// PortClass of port of router.
	PortClass(router, port int) PortClass
	// Link returns the far end of a transit port (class ≥ 1), or (−1, −1)
	// when the port is not connected (a mesh's edge). Links are symmetric
	// and join two ports of the same class (the class sets the link's
	// latency, both ways).
	Link(router, port int) (peer, peerPort int)
	// MinimalPorts appends to buf the transit ports on minimal paths from
	// router to dest (routers, dest != router, dest holding nodes) and
	// returns it: at least one port, several where the topology offers path
	// diversity. The order is fixed (routing draws among them with its own
	// random stream). A topology whose routing reads the destination node,
	// not only its router (a fat tree's D-mod-k), gives the ports of the
	// routes to all of dest's nodes, and the simulator calls its own route
	// function (sim's minimalPort).
	MinimalPorts(router, dest int, buf []int) []int
	// Groups partitions the routers (Dragonfly groups); a topology without
	// such a structure has one group.
	Groups() int
	GroupOf(router int) int
}

// Check verifies that t keeps the contract of Topology: its classes are
// declared, node attachment is a one-to-one map onto the Injection ports,
// every port's class is declared, every connected transit port has a
// symmetric link to a port of the same class.
func Check(t Topology) error {
	R, radix := t.Routers(), t.Radix()
	if R < 1 || radix < 1 || t.Nodes() < 1 {
		return fmt.Errorf("topology %s: %d routers, %d nodes, radix %d", t.Name(), R, t.Nodes(), radix)
	}
	classes := t.Classes()
	if len(classes) < 2 || classes[0].Name != InjectionClass.Name || len(classes) > 255 {
		return fmt.Errorf("topology %s: %d port classes %v; class 0 must be %q and at least one transit class must follow", t.Name(), len(classes), ClassNames(classes), InjectionClass.Name)
	}
	held := make([]int, R*radix) // node+1 on each port
	for n := 0; n < t.Nodes(); n++ {
		r, p := t.NodePort(n)
		if r < 0 || r >= R || p < 0 || p >= radix {
			return fmt.Errorf("topology %s: node %d attaches to router %d port %d, out of range", t.Name(), n, r, p)
		}
		if c := t.PortClass(r, p); c != Injection {
			return fmt.Errorf("topology %s: node %d attaches to router %d port %d of class %s", t.Name(), n, r, p, classes[min(int(c), len(classes)-1)].Name)
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
			if int(c) >= len(classes) {
				return fmt.Errorf("topology %s: port %d of router %d has class %d; the topology declares %d classes %v", t.Name(), p, r, c, len(classes), ClassNames(classes))
			}
			if c == Injection {
				if held[r*radix+p] == 0 {
					return fmt.Errorf("topology %s: injection port %d of router %d holds no node", t.Name(), p, r)
				}
				continue
			}
			q, qp := t.Link(r, p)
			if q == -1 && qp == -1 {
				continue // not connected
			}
			if q < 0 || q >= R || qp < 0 || qp >= radix {
				return fmt.Errorf("topology %s: router %d port %d links to router %d port %d, out of range", t.Name(), r, p, q, qp)
			}
			if qc := t.PortClass(q, qp); qc != c {
				return fmt.Errorf("topology %s: router %d port %d (%s) links to router %d port %d (%s)", t.Name(), r, p, classes[c].Name, q, qp, classes[min(int(qc), len(classes)-1)].Name)
			}
			if br, bp := t.Link(q, qp); br != r || bp != p {
				return fmt.Errorf("topology %s: router %d port %d links to router %d port %d, which links to router %d port %d", t.Name(), r, p, q, qp, br, bp)
			}
		}
	}
	return nil
}
