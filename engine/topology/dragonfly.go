package topology

import "fmt"

// Arrangement of the global links of a Dragonfly.
const (
	PalmTree    = "palmtree"    // Camarero et al.; the arrangement of every thesis experiment
	Consecutive = "consecutive" // Kim et al.: link j of group g goes to group j (j<g) or j+1
)

// Dragonfly is a maximum-size two-level Dragonfly: G = a·h+1 groups of a
// routers, complete graphs inside and between groups, one global link between
// every pair of groups (Kim et al. 2008; thesis §1.2.1).
//
// Numbering (FOGSim): router = aPos + a·group, node = pPos + p·router.
// Ports: 0…p−1 nodes, p…p+a−2 local, p+a−1…p+a+h−2 global, on every router.
// (The traffic patterns count on this node numbering; the router model only
// on the Topology methods.)
type Dragonfly struct {
	H, A, P, G int
	palm       bool
	// linkTo[g·G+d] = GlobalLinkTo(g, d), and the router position owning it:
	// the routing hot path reads tables instead of dividing
	linkTo []int16
	owner  []uint8
	// group and position of each router
	grp, pos []int32
}

// NewDragonfly checks the sizes and builds the topology.
func NewDragonfly(h, a, p int, arrangement string) (*Dragonfly, error) {
	if h < 1 || a < 1 || p < 1 {
		return nil, fmt.Errorf("dragonfly: h, a, p must be ≥ 1 (got h=%d a=%d p=%d)", h, a, p)
	}
	d := &Dragonfly{H: h, A: a, P: p, G: dragonflyGroups(h, a)}
	switch arrangement {
	case PalmTree, "":
		d.palm = true
	case Consecutive:
	default:
		return nil, fmt.Errorf("dragonfly: arrangement %q is not one of %s, %s", arrangement, PalmTree, Consecutive)
	}
	if d.G > 4097 || d.A > 256 {
		return nil, fmt.Errorf("dragonfly: a=%d, h=%d give %d groups; at most 4,097 groups and 256 routers per group", a, h, d.G)
	}
	{
		d.linkTo = make([]int16, d.G*d.G)
		d.owner = make([]uint8, d.G*d.G)
		for g := 0; g < d.G; g++ {
			for e := 0; e < d.G; e++ {
				if e != g {
					j := d.globalLinkTo(g, e)
					d.linkTo[g*d.G+e], d.owner[g*d.G+e] = int16(j), uint8(j/d.H)
				}
			}
		}
		d.grp, d.pos = make([]int32, d.Routers()), make([]int32, d.Routers())
		for r := range d.grp {
			d.grp[r], d.pos[r] = int32(r/d.A), int32(r%d.A)
		}
	}
	return d, nil
}

func (d *Dragonfly) Name() string {
	arr := Consecutive
	if d.palm {
		arr = PalmTree
	}
	return fmt.Sprintf("dragonfly h=%d a=%d p=%d (%s)", d.H, d.A, d.P, arr)
}

var _ Topology = (*Dragonfly)(nil)

func (d *Dragonfly) Routers() int         { return d.A * d.G }
func (d *Dragonfly) Classes() []Class     { return dragonflyKind.Classes }
func (d *Dragonfly) Nodes() int           { return d.P * d.A * d.G }
func (d *Dragonfly) Radix() int           { return d.P + d.A - 1 + d.H }
func (d *Dragonfly) NodesPerRouter() int  { return d.P }
func (d *Dragonfly) Groups() int          { return d.G }
func (d *Dragonfly) RoutersPerGroup() int { return d.A }
func (d *Dragonfly) GroupOf(r int) int    { return int(d.grp[r]) }

// NodePort: node n is on router n/p, port n%p.
func (d *Dragonfly) NodePort(n int) (router, port int) { return n / d.P, n % d.P }

// FirstLocalPort and FirstGlobalPort delimit the port classes.
func (d *Dragonfly) FirstLocalPort() int  { return d.P }
func (d *Dragonfly) FirstGlobalPort() int { return d.P + d.A - 1 }

// PortClass is the same on every router of a Dragonfly.
func (d *Dragonfly) PortClass(_, port int) PortClass {
	switch {
	case port < d.P:
		return Injection
	case port < d.P+d.A-1:
		return Local
	}
	return Global
}

// LocalPort is the port of router position from that leads to position to.
func (d *Dragonfly) LocalPort(from, to int) int {
	if to < from {
		return d.P + to
	}
	return d.P + to - 1
}

// localPeer is the router position a local port of position from reaches.
func (d *Dragonfly) localPeer(from, port int) int {
	k := port - d.P
	if k < from {
		return k
	}
	return k + 1
}

// GlobalTarget is the group that global link j (= aPos·h + k) of group g reaches.
func (d *Dragonfly) GlobalTarget(g, j int) int {
	if d.palm {
		return ((g-j-1)%d.G + d.G) % d.G
	}
	if j < g {
		return j
	}
	return j + 1
}

// GlobalLinkTo is the link index j of group g whose far end is group dst (≠ g).
func (d *Dragonfly) GlobalLinkTo(g, dst int) int { return int(d.linkTo[g*d.G+dst]) }

func (d *Dragonfly) globalLinkTo(g, dst int) int {
	if d.palm {
		return ((g-dst)%d.G+d.G)%d.G - 1
	}
	if dst < g {
		return dst
	}
	return dst - 1
}

func (d *Dragonfly) Link(r, port int) (int, int) {
	g, pos := r/d.A, r%d.A
	switch d.PortClass(r, port) {
	case Local:
		q := d.localPeer(pos, port)
		return g*d.A + q, d.LocalPort(q, pos)
	case Global:
		j := pos*d.H + port - d.FirstGlobalPort()
		t := d.GlobalTarget(g, j)
		jr := d.GlobalLinkTo(t, g)
		return t*d.A + jr/d.H, d.FirstGlobalPort() + jr%d.H
	}
	return -1, -1
}

// MinimalPorts: a Dragonfly has one minimal path (MinimalPort).
func (d *Dragonfly) MinimalPorts(r, dest int, buf []int) []int {
	return append(buf, d.MinimalPort(r, dest))
}

// MinimalPort is the next transit port on the minimal path from router r to
// router dest (≠ r): the Dragonfly's routings call it directly.
func (d *Dragonfly) MinimalPort(r, dest int) int {
	g, pos, dg := int(d.grp[r]), int(d.pos[r]), int(d.grp[dest])
	if g == dg {
		return d.LocalPort(pos, int(d.pos[dest]))
	}
	if owner := int(d.owner[g*d.G+dg]); owner != pos {
		return d.LocalPort(pos, owner)
	}
	return d.P + d.A - 1 + int(d.linkTo[g*d.G+dg]) - pos*d.H
}

// MinimalHops counts local and global hops of the minimal path from router r
// to router dest.
func (d *Dragonfly) MinimalHops(r, dest int) (local, global int) {
	if r == dest {
		return 0, 0
	}
	g, dg := int(d.grp[r]), int(d.grp[dest])
	if g == dg {
		return 1, 0
	}
	if int(d.owner[g*d.G+dg]) != int(d.pos[r]) {
		local++
	}
	if int(d.owner[dg*d.G+g]) != int(d.pos[dest]) {
		local++
	}
	return local, 1
}

// PathTo is MinimalPort and the hop count of MinimalHops (local + global)
// in one pass, for adaptive routing's path comparisons (r ≠ dest).
func (d *Dragonfly) PathTo(r, dest int) (port, hops int) {
	g, pos, dg, dpos := int(d.grp[r]), int(d.pos[r]), int(d.grp[dest]), int(d.pos[dest])
	if g == dg {
		return d.LocalPort(pos, dpos), 1
	}
	hops = 1
	if int(d.owner[dg*d.G+g]) != dpos {
		hops++
	}
	if owner := int(d.owner[g*d.G+dg]); owner != pos {
		return d.LocalPort(pos, owner), hops + 1
	}
	return d.P + d.A - 1 + int(d.linkTo[g*d.G+dg]) - pos*d.H, hops
}

// LinkedGroups lists the groups reached by the global links of a router, the
// nearest offset (g+1, g+2, …) first. Under palm tree, router a−1 reaches
// g+1…g+h: the ADVc destination set.
func (d *Dragonfly) LinkedGroups(r int) []int {
	g, pos := r/d.A, r%d.A
	out := make([]int, 0, d.H)
	for k := 0; k < d.H; k++ {
		out = append(out, d.GlobalTarget(g, pos*d.H+k))
	}
	off := func(x int) int { return ((x-g)%d.G + d.G) % d.G }
	for i := 1; i < len(out); i++ { // insertion sort by offset
		for j := i; j > 0 && off(out[j]) < off(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
