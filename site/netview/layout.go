// Package netview lays out a network for the live view: routers as nodes,
// links as edges, positions in a unit square. A Dragonfly draws its groups on
// a circle with their routers on a small circle each and the global links
// between them (thesis §1.2.1, Fig. 1.10); beyond h=4 the groups are single
// nodes and the global links one edge per group pair, as a drawing of a
// thousand routers is unreadable. A fat tree is drawn as its stages
// (fattree.go). A mesh is drawn as its grid; any other
// topology by a force layout from a circle.
package netview

import (
	"math"

	"phitsim/engine/topology"
)

// MaxDetailedH is the largest Dragonfly h drawn router by router.
const MaxDetailedH = 4

// Node is a router, or a whole group in an aggregated Dragonfly, or a fat
// tree's host (or a leaf's hosts: Routers empty).
type Node struct {
	X, Y  float64 // in [0, 1]
	Group int
	// Routers it stands for (one unless aggregated)
	Routers []int
	// Hosts it stands for (a fat tree's host row), by node number
	Hosts []int
	// Name in the drawing ("": the plot names it by router and group)
	Name string
}

// Port is one direction of a link: the output port (router, port) sends.
type Port struct{ Router, Port int }

// Edge is a link between two nodes, or all the global links between two
// groups when aggregated; Ports are the output ports of both directions,
// whose utilisations the drawing combines.
type Edge struct {
	From, To int // node indices
	Class    topology.PortClass
	Ports    []Port
}

// Layout of a network.
type Layout struct {
	Nodes      []Node
	Edges      []Edge
	Aggregated bool // Dragonfly beyond h=4: a node per group
	// NodeOf: per router, its node
	NodeOf []int
}

// New lays out t.
func New(t topology.Topology) Layout {
	switch tt := t.(type) {
	case *topology.Dragonfly:
		return dragonfly(tt)
	case *topology.FatTree:
		return fatTree(tt)
	case *topology.Mesh:
		l := routerNodes(t)
		for r := range l.Nodes {
			x, y := r%tt.Width, r/tt.Width
			l.Nodes[r].X = (float64(x) + 0.5) / float64(tt.Width)
			l.Nodes[r].Y = (float64(y) + 0.5) / float64(tt.Height)
		}
		return l
	}
	l := routerNodes(t)
	l.force()
	return l
}

// routerNodes is a node per router on a circle and an edge per link.
func routerNodes(t topology.Topology) Layout {
	n := t.Routers()
	l := Layout{Nodes: make([]Node, n), NodeOf: make([]int, n)}
	for r := range l.Nodes {
		a := 2 * math.Pi * float64(r) / float64(n)
		l.Nodes[r] = Node{X: 0.5 + 0.45*math.Cos(a), Y: 0.5 + 0.45*math.Sin(a), Group: t.GroupOf(r), Routers: []int{r}}
		l.NodeOf[r] = r
	}
	eachLink(t, func(r, p, pr, pp int, c topology.PortClass) {
		l.Edges = append(l.Edges, Edge{From: r, To: pr, Class: c, Ports: []Port{{r, p}, {pr, pp}}})
	})
	return l
}

// eachLink calls f once per link (r, p)–(pr, pp), from its lower end.
func eachLink(t topology.Topology, f func(r, p, pr, pp int, c topology.PortClass)) {
	for r := 0; r < t.Routers(); r++ {
		for p := 0; p < t.Radix(); p++ {
			c := t.PortClass(r, p)
			if c == topology.Injection {
				continue
			}
			pr, pp := t.Link(r, p)
			if pr < 0 || pr < r || pr == r && pp < p {
				continue
			}
			f(r, p, pr, pp, c)
		}
	}
}

func dragonfly(d *topology.Dragonfly) Layout {
	if d.H > MaxDetailedH {
		l := Layout{Aggregated: true, Nodes: make([]Node, d.G), NodeOf: make([]int, d.Routers())}
		for g := range l.Nodes {
			a := 2 * math.Pi * float64(g) / float64(d.G)
			l.Nodes[g] = Node{X: 0.5 + 0.45*math.Sin(a), Y: 0.5 - 0.45*math.Cos(a), Group: g}
		}
		for r := range l.NodeOf {
			g := d.GroupOf(r)
			l.NodeOf[r] = g
			l.Nodes[g].Routers = append(l.Nodes[g].Routers, r)
		}
		pair := make(map[[2]int]int) // group pair → edge
		eachLink(d, func(r, p, pr, pp int, c topology.PortClass) {
			if c != topology.Global {
				return
			}
			a, b := d.GroupOf(r), d.GroupOf(pr)
			k := [2]int{min(a, b), max(a, b)}
			e, ok := pair[k]
			if !ok {
				e = len(l.Edges)
				pair[k] = e
				l.Edges = append(l.Edges, Edge{From: k[0], To: k[1], Class: c})
			}
			l.Edges[e].Ports = append(l.Edges[e].Ports, Port{r, p}, Port{pr, pp})
		})
		return l
	}
	l := routerNodes(d)
	// groups on a circle (group 0 on top, clockwise), each group's routers
	// on a small circle facing outwards
	R := 0.38
	rg := min(0.11, 0.9*R*math.Sin(math.Pi/float64(d.G)))
	for r := range l.Nodes {
		g, pos := d.GroupOf(r), r%d.A
		a := 2 * math.Pi * float64(g) / float64(d.G)
		cx, cy := 0.5+R*math.Sin(a), 0.5-R*math.Cos(a)
		b := a + 2*math.Pi*float64(pos)/float64(d.A)
		l.Nodes[r].X, l.Nodes[r].Y = cx+rg*math.Sin(b), cy-rg*math.Cos(b)
	}
	return l
}

// force moves the nodes by Fruchterman–Reingold's spring embedder (edges
// attract, every pair repels) from their circle, a fixed number of rounds
// with a cooling step: deterministic, then scaled into [0.05, 0.95].
func (l *Layout) force() {
	n := len(l.Nodes)
	if n < 3 || n > 600 {
		return // a circle: nothing to untangle, or too many pairs
	}
	k := math.Sqrt(1 / float64(n))
	dx, dy := make([]float64, n), make([]float64, n)
	step := 0.1
	for round := 0; round < 150; round++ {
		clear(dx)
		clear(dy)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				x, y := l.Nodes[i].X-l.Nodes[j].X, l.Nodes[i].Y-l.Nodes[j].Y
				d2 := max(x*x+y*y, 1e-9)
				f := k * k / d2
				dx[i], dy[i], dx[j], dy[j] = dx[i]+x*f, dy[i]+y*f, dx[j]-x*f, dy[j]-y*f
			}
		}
		for _, e := range l.Edges {
			i, j := e.From, e.To
			x, y := l.Nodes[i].X-l.Nodes[j].X, l.Nodes[i].Y-l.Nodes[j].Y
			d := math.Sqrt(x*x + y*y)
			f := d / k
			dx[i], dy[i], dx[j], dy[j] = dx[i]-x*f, dy[i]-y*f, dx[j]+x*f, dy[j]+y*f
		}
		for i := range l.Nodes {
			d := math.Sqrt(dx[i]*dx[i] + dy[i]*dy[i])
			if d > 0 {
				m := min(d, step) / d
				l.Nodes[i].X += dx[i] * m
				l.Nodes[i].Y += dy[i] * m
			}
		}
		step *= 0.97
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, nd := range l.Nodes {
		minX, maxX = min(minX, nd.X), max(maxX, nd.X)
		minY, maxY = min(minY, nd.Y), max(maxY, nd.Y)
	}
	span := max(maxX-minX, maxY-minY, 1e-9)
	for i := range l.Nodes {
		l.Nodes[i].X = 0.05 + 0.9*(l.Nodes[i].X-minX)/span
		l.Nodes[i].Y = 0.05 + 0.9*(l.Nodes[i].Y-minY)/span
	}
}

// Use is an edge's utilisation from per-port link utilisations (indexed
// router·radix+port): the busier direction of a link (ADV+1 loads one
// direction only), and over an aggregated group pair (one link in a
// maximum-size Dragonfly) the mean of its links' busier directions.
func (e *Edge) Use(link func(pi int) float64, radix int) float64 {
	var sum float64
	for i := 0; i+1 < len(e.Ports); i += 2 {
		a, b := e.Ports[i], e.Ports[i+1]
		sum += max(link(a.Router*radix+a.Port), link(b.Router*radix+b.Port))
	}
	return sum / float64(len(e.Ports)/2)
}
