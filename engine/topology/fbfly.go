package topology

import "fmt"

// FBFly is a flattened butterfly (Kim, Dally, Abts, "Flattened Butterfly: A
// Cost-Efficient Topology for High-Radix Networks", ISCA 2007): K^Dims
// routers, each linked directly to every router that differs from it in one
// coordinate, with C nodes each. One dimension: K fully connected routers;
// two: a K×K grid whose rows and columns are each fully connected. These are
// the networks of Kim et al., "Contention-based Congestion Management in
// Large-Scale Networks" §V-A (16-node 1D 4×4, 256-node 1D 16×16, 512-node 2D
// 8×8 with c = 8).
//
// Numbering: router r = x + K·y, node n on router ⌊n/C⌋ at port n mod C.
// Ports: 0…C−1 the nodes, then for each dimension d the K−1 links to the
// other routers of the row (d = 0) or column (d = 1), in the order of the
// far router's coordinate, skipping the router's own.
type FBFly struct {
	Dims, K, C int
}

// FBFlyLink is the class of every router-to-router link (fbflyKind.Classes).
const FBFlyLink PortClass = 1

// NewFBFly checks the sizes and builds the flattened butterfly.
func NewFBFly(dims, k, c int) (*FBFly, error) {
	if err := checkFBFly(Params{Kind: "fbfly", Dims: dims, K: k, P: c}); err != nil {
		return nil, err
	}
	return &FBFly{Dims: dims, K: k, C: c}, nil
}

var _ Topology = (*FBFly)(nil)

func (f *FBFly) Name() string     { return fmt.Sprintf("fbfly %dD k=%d c=%d", f.Dims, f.K, f.C) }
func (f *FBFly) Routers() int     { return fbflyRouters(f.Dims, f.K) }
func (f *FBFly) Nodes() int       { return f.C * f.Routers() }
func (f *FBFly) Radix() int       { return f.C + f.Dims*(f.K-1) }
func (f *FBFly) Classes() []Class { return fbflyKind.Classes }
func (f *FBFly) Groups() int      { return 1 }
func (f *FBFly) GroupOf(int) int  { return 0 }

// NodesPerRouter is c (traffic patterns that address routers read it).
func (f *FBFly) NodesPerRouter() int { return f.C }

func (f *FBFly) NodePort(n int) (router, port int) { return n / f.C, n % f.C }

func (f *FBFly) PortClass(_, port int) PortClass {
	if port < f.C {
		return Injection
	}
	return FBFlyLink
}

// Coord is router r's coordinate in dimension d.
func (f *FBFly) Coord(r, d int) int {
	if d == 0 {
		return r % f.K
	}
	return r / f.K
}

// Link: port j of dimension d reaches the router whose coordinate d is j
// (j+1 from the router's own coordinate on), through its port for this
// router's coordinate.
func (f *FBFly) Link(r, port int) (int, int) {
	if port < f.C || port >= f.Radix() {
		return -1, -1
	}
	d, j := (port-f.C)/(f.K-1), (port-f.C)%(f.K-1)
	own := f.Coord(r, d)
	if j >= own {
		j++
	}
	stride := 1
	if d == 1 {
		stride = f.K
	}
	peer := r + (j-own)*stride
	return peer, f.portTo(d, j, own)
}

// portTo is the port of a router with coordinate from in dimension d that
// reaches the router of coordinate to (≠ from).
func (f *FBFly) portTo(d, from, to int) int {
	if to > from {
		to--
	}
	return f.C + d*(f.K-1) + to
}

// MinimalPorts is the dimension-order port (one: x first, then y).
func (f *FBFly) MinimalPorts(r, dest int, buf []int) []int {
	return append(buf, f.MinimalPort(r, dest))
}

// MinimalPort is the port of the dimension-order minimal path from r to
// dest ≠ r: the x link to dest's column while the columns differ, then the
// y link (the simulator calls it directly, without the interface).
func (f *FBFly) MinimalPort(r, dest int) int {
	if x, dx := r%f.K, dest%f.K; x != dx {
		return f.portTo(0, x, dx)
	}
	return f.portTo(1, r/f.K, dest/f.K)
}

// Hops is the length of the minimal path from r to dest: the number of
// coordinates in which they differ.
func (f *FBFly) Hops(r, dest int) int {
	h := 0
	for d := 0; d < f.Dims; d++ {
		if f.Coord(r, d) != f.Coord(dest, d) {
			h++
		}
	}
	return h
}

// BisectionLinks is the number of links the bisection cuts (each way):
// every row (1D: the one row) split in halves of ⌊K/2⌋ and ⌈K/2⌉ routers
// joined by one link per pair.
func BisectionLinks(dims, k int) int {
	row := (k / 2) * ((k + 1) / 2)
	if dims == 2 {
		return k * row
	}
	return row
}

func fbflyRouters(dims, k int) int {
	if dims == 2 {
		return k * k
	}
	return k
}

var fbflyKind = Kind{
	Name:  "fbfly",
	Title: "flattened butterfly",
	// every router channel is of one class: the paper gives them one
	// latency (100 cycles) and one VC set, split by hop (MIN in 2D: x then
	// y) and by Valiant phase (UGAL)
	Classes: []Class{InjectionClass, LinkClass},
	// dimension order: at most one hop per dimension, on VC 0 then 1 (a 1D
	// path takes the first only)
	Minimal: "link link",
	Check:   checkFBFly,
	Sizes: func(p Params) Sizes {
		r := fbflyRouters(p.Dims, p.K)
		return Sizes{Routers: r, Nodes: r * p.P, Radix: p.P + p.Dims*(p.K-1), Groups: 1}
	},
	Ports: func(p Params) []int64 {
		r := int64(fbflyRouters(p.Dims, p.K))
		return []int64{r * int64(p.P), r * int64(p.Dims*(p.K-1))}
	},
	TableBytes: func(Params) int64 { return 0 }, // computed, no tables
	New: func(p Params) (Topology, error) {
		return NewFBFly(p.Dims, p.K, p.P)
	},
	Fill: func(p *Params) {
		if p.Dims == 0 {
			p.Dims = 1
		}
		if p.K == 0 {
			p.K = 4
		}
		if p.P == 0 {
			p.P = 4 // the paper's 16-node network (Fig. 1)
		}
	},
}

// checkFBFly is the kind's parameter check, each error naming its field
// (the radix stays within the simulator's 128 ports: at most 64 + 2·31).
func checkFBFly(p Params) error {
	if err := checkRange("topology.dimensions", p.Dims, 1, 2, "dimensions of the flattened butterfly"); err != nil {
		return err
	}
	if err := checkRange("topology.k", p.K, 2, 32, "routers per dimension of the flattened butterfly"); err != nil {
		return err
	}
	if err := checkRange("topology.p", p.P, 1, 64, "nodes per router"); err != nil {
		return err
	}
	return nil
}
