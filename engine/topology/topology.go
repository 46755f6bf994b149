// Package topology builds the static graph of a network: routers, ports, links
// and the minimal-path tables routing needs. The router model only sees the
// Topology interface, so a new topology is one file here.
package topology

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

// Topology is what the simulator needs from a network graph. Ports 0…p−1 of
// every router are its node ports; node n sits on router n/p, port n%p.
type Topology interface {
	Name() string
	Routers() int
	Nodes() int
	Radix() int
	NodesPerRouter() int
	// PortClass of a port (the same on every router of a direct network).
	PortClass(router, port int) PortClass
	// Link returns the far end of a transit port.
	Link(router, port int) (peer, peerPort int)
	// Groups partitions the routers; ADV-style traffic targets other groups.
	Groups() int
	RoutersPerGroup() int
	GroupOf(router int) int
	// MinimalPort is the next transit port on a minimal path from router to
	// dest (dest != router).
	MinimalPort(router, dest int) int
	// MinimalHops counts local and global hops of the minimal path.
	MinimalHops(router, dest int) (local, global int)
}
