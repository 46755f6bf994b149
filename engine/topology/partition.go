package topology

// Partitioned is implemented by a topology that a partitioned run (package
// sim, engine/PARALLEL.md) can split: every router has a key in
// 0…PartitionKeys()−1, and a partition is a range of consecutive keys. The
// run needs the nodes of a partition to be a contiguous range of node
// numbers (its routers may be several ranges of router numbers); the
// window a partition advances alone is the least latency of a link
// joining two partitions, so a rule that cuts the fewest and longest links
// makes the run fastest, never different. A topology without the method
// runs sequentially.
type Partitioned interface {
	PartitionKeys() int
	PartitionKey(router int) int
}

var (
	_ Partitioned = (*Dragonfly)(nil)
	_ Partitioned = (*FBFly)(nil)
	_ Partitioned = (*FatTree)(nil)
	_ Partitioned = (*Mesh)(nil)
)

// PartitionKeys of a Dragonfly: its groups. A partition of whole groups is
// cut along global links only (thesis §1.2: the long, optical ones).
func (d *Dragonfly) PartitionKeys() int { return d.Groups() }

// PartitionKey of router r: its group (routers are numbered by group).
func (d *Dragonfly) PartitionKey(r int) int { return d.GroupOf(r) }

// PartitionKeys of a flattened butterfly: its rows (in 2D, the K routers
// of one y coordinate, fully connected by their x links: a partition of
// whole rows is cut along y links only); in 1D every router is a key.
func (f *FBFly) PartitionKeys() int { return f.K }

// PartitionKey of router r = x + K·y: y in 2D, x in 1D. Either way a key's
// routers are consecutive numbers and so are their nodes.
func (f *FBFly) PartitionKey(r int) int { return f.Coord(r, f.Dims-1) }

// PartitionKeys of a fat tree: the M subtrees under its top stage (pods),
// the top stage's switches shared out among them.
func (f *FatTree) PartitionKeys() int { return f.M }

// PartitionKey of switch r: below the top, the subtree (top digit d_{N−1})
// its hosts share — at every level l < N−1 the switches of subtree d are
// the indices [d·k^(N−2), (d+1)·k^(N−2)) of the level — and at the top,
// T(b, v) goes to v, so each subtree takes M-th of the core. A partition of
// whole subtrees holds their hosts, a contiguous range; it is cut only
// along the links between the top two stages.
func (f *FatTree) PartitionKey(r int) int { return r % f.perLevel / f.pow[f.N-2] }

// PartitionKeys of a mesh: its rows (a partition is a slab of whole rows,
// cut along y links only).
func (m *Mesh) PartitionKeys() int { return m.Height }

// PartitionKey of router r = x + Width·y: y.
func (m *Mesh) PartitionKey(r int) int { return r / m.Width }

// PartitionKeysOf is the number of partition keys of the network p
// describes, from its parameters (checked) without building it: what
// Partitioned.PartitionKeys returns; 0 for a kind without a partition rule.
func PartitionKeysOf(p Params) int {
	switch p.Kind {
	case "dragonfly", "":
		return dragonflyGroups(p.H, p.A)
	case "fbfly":
		return p.K
	case "fattree":
		return fatTreeM(p)
	case "mesh":
		return p.Height
	}
	return 0
}
