package netview

import (
	"fmt"

	"phitsim/engine/topology"
)

// MaxDetailedHosts is the largest fat tree drawn host by host; beyond it a
// node stands for the k hosts of a leaf switch (256 and 512 hosts: 64 and
// 128 of them).
const MaxDetailedHosts = 64

// fatTree draws a fat tree as its stages (Duato et al., RECN paper §4.1):
// the hosts in the bottom row, the leaf switches above them, each stage a
// row up to the top switches. A stage's switches are in the order of their
// address (RECN paper §4.1's perfect shuffle: a switch's index a·k^l + b
// and its up neighbours' differ in digit l only), so the links between
// stages l and l+1 form blocks of k^(l+1) switches with a stride of k^l:
// the butterfly of the textbook drawing. A leaf's hosts sit right under it.
func fatTree(f *topology.FatTree) Layout {
	per := f.Routers() / f.N
	hosts := f.Nodes()
	group := 1 // hosts per host node
	if hosts > MaxDetailedHosts {
		group = f.K
	}
	hostNodes := hosts / group
	l := Layout{Nodes: make([]Node, f.Routers(), f.Routers()+hostNodes), NodeOf: make([]int, f.Routers())}
	rows := float64(f.N + 1)
	y := func(row int) float64 { return 0.95 - 0.9*float64(row)/(rows-1) } // row 0: the hosts
	for r := range l.Nodes {
		st, i := f.Level(r), r%per
		l.Nodes[r] = Node{X: 0.05 + 0.9*(float64(i)+0.5)/float64(per), Y: y(st + 1), Routers: []int{r},
			Name: fmt.Sprintf("switch %d (stage %d, %d of the stage)", r, st, i)}
		l.NodeOf[r] = r
	}
	eachLink(f, func(r, p, pr, pp int, c topology.PortClass) {
		l.Edges = append(l.Edges, Edge{From: r, To: pr, Class: c, Ports: []Port{{r, p}, {pr, pp}}})
	})
	for hn := 0; hn < hostNodes; hn++ {
		first := hn * group
		leaf, _ := f.NodePort(first)
		nd := Node{X: 0.05 + 0.9*(float64(hn)+0.5)/float64(hostNodes), Y: y(0), Name: fmt.Sprintf("host %d (leaf switch %d)", first, leaf)}
		if group > 1 {
			nd.Name = fmt.Sprintf("hosts %d–%d (leaf switch %d)", first, first+group-1, leaf)
		}
		e := Edge{From: len(l.Nodes), To: leaf, Class: topology.Injection}
		for h := first; h < first+group; h++ {
			nd.Hosts = append(nd.Hosts, h)
			_, p := f.NodePort(h)
			// the host's link: its ejection port is the only one a
			// snapshot measures, so both directions read it
			e.Ports = append(e.Ports, Port{leaf, p}, Port{leaf, p})
		}
		l.Nodes = append(l.Nodes, nd)
		l.Edges = append(l.Edges, e)
	}
	return l
}
