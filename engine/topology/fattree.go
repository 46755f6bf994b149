package topology

import "fmt"

// FatTree is a bidirectional multistage network of 2k-port switches, the
// k-ary n-tree (Petrini and Vanneschi, "k-ary n-trees: High Performance
// Networks for Massively Parallel Architectures", IPPS 1997) that the
// perfect-shuffle BMINs of Duato et al., "A New Scalable and
// Cost-Effective Congestion Management Strategy for Lossless Multistage
// Interconnection Networks" (RECN, §4.1) are: 64 hosts on 48 switches in 3
// stages, 256 on 256 in 4, and with a top stage that joins only M = 2
// subtrees, 512 on 640 in 5.
//
// Addresses: host h has digits d_0 … d_{N−1} (h = Σ d_l·k^l), d_l < k for
// l < N−1 and the top digit d_{N−1} < M (M = k: a k-ary n-tree; M < k, a
// divisor of k: the top stage's k down ports reach M subtrees by k/M
// parallel links each). There are M·k^(N−1) hosts and N stages of
// M·k^(N−2) switches.
//
// Switch S(l, a, b) at level l (0 the leaves, N−1 the top) for l < N−1: a
// the digits d_{l+1} … d_{N−1} its subtree's hosts share (a = ⌊h/k^(l+1)⌋),
// b the l up ports u_0 … u_{l−1} taken from a leaf to reach it
// (b = Σ u_i·k^i). Up port u of S(l, a, b) reaches down port a mod k of
// S(l+1, ⌊a/k⌋, b + u·k^l): the perfect shuffle, a level's up links
// spread over the next level's subtrees. The top: up port u of
// S(N−2, a, b) reaches top switch T(b, ⌊u/g⌋) on down port a·g + u mod g,
// g = k/M (M = k: g = 1, the rule above). Host h is on leaf ⌊h/k⌋ at down
// port h mod k: hosts k·s … k·s+k−1 share leaf switch s.
//
// Numbering: router = l·M·k^(N−2) + a·k^l + b (a top switch T(b, v):
// (N−1)·M·k^(N−2) + v·k^(N−2) + b). Ports: 0 … k−1 down (the hosts at a
// leaf), k … 2k−1 up (unconnected at the top).
type FatTree struct {
	K, N, M int
	// perLevel switches per stage; pow[l] = k^l
	perLevel int
	pow      []int
}

// FatTreeLink is the class of every switch-to-switch link, up and down
// alike (fattreeKind.Classes): a link joins two ports of one class.
const FatTreeLink PortClass = 1

// NewFatTree checks the sizes and builds the fat tree of k down (and up)
// ports per switch, n stages and m top-digit values (0: k).
func NewFatTree(k, n, m int) (*FatTree, error) {
	p := Params{Kind: "fattree", K: k, Stages: n, Subtrees: m}
	if err := checkFatTree(p); err != nil {
		return nil, err
	}
	f := &FatTree{K: k, N: n, M: fatTreeM(p), pow: make([]int, n+1)}
	f.pow[0] = 1
	for l := 1; l <= n; l++ {
		f.pow[l] = f.pow[l-1] * k
	}
	f.perLevel = f.M * f.pow[n-2]
	return f, nil
}

var _ Topology = (*FatTree)(nil)

func (f *FatTree) Name() string {
	return fmt.Sprintf("fattree k=%d stages=%d subtrees=%d", f.K, f.N, f.M)
}
func (f *FatTree) Routers() int     { return f.N * f.perLevel }
func (f *FatTree) Nodes() int       { return f.M * f.pow[f.N-1] }
func (f *FatTree) Radix() int       { return 2 * f.K }
func (f *FatTree) Classes() []Class { return fattreeKind.Classes }
func (f *FatTree) Groups() int      { return 1 }
func (f *FatTree) GroupOf(int) int  { return 0 }

// NodePort: host h on leaf ⌊h/k⌋, down port h mod k.
func (f *FatTree) NodePort(h int) (router, port int) { return h / f.K, h % f.K }

func (f *FatTree) PortClass(r, port int) PortClass {
	if r < f.perLevel && port < f.K {
		return Injection
	}
	return FatTreeLink
}

// Level of switch r (0: a leaf).
func (f *FatTree) Level(r int) int { return r / f.perLevel }

// Digit l of host h (d_{N−1} < M, the others < k).
func (f *FatTree) Digit(h, l int) int {
	if l == f.N-1 {
		return h / f.pow[l]
	}
	return h / f.pow[l] % f.K
}

// Link: an up port climbs the shuffle (doc above), a down port descends it;
// the hosts' ports and the top's up ports are not switch links.
func (f *FatTree) Link(r, port int) (int, int) {
	l, i := r/f.perLevel, r%f.perLevel
	top := f.N - 1
	switch {
	case port < 0 || port >= 2*f.K || port < f.K && l == 0 || port >= f.K && l == top:
		return -1, -1
	case port >= f.K: // up: S(l, a, b) → parent
		u := port - f.K
		a, b := i/f.pow[l], i%f.pow[l]
		if l+1 == top {
			g := f.K / f.M
			return top*f.perLevel + u/g*f.pow[top-1] + b, a*g + u%g
		}
		return (l+1)*f.perLevel + a/f.K*f.pow[l+1] + b + u*f.pow[l], a % f.K
	case l == top: // down from T(b, v)
		g := f.K / f.M
		v, b := i/f.pow[top-1], i%f.pow[top-1]
		return (top-1)*f.perLevel + port/g*f.pow[top-1] + b, f.K + v*g + port%g
	}
	// down from S(l, a, b) to S(l−1, a·k + port, b without its last digit)
	a, b := i/f.pow[l], i%f.pow[l]
	return (l-1)*f.perLevel + (a*f.K+port)*f.pow[l-1] + b%f.pow[l-1], f.K + b/f.pow[l-1]
}

// covers tells whether host h is in switch r's subtree (level l, index i).
func (f *FatTree) covers(l, i, h int) bool {
	return l == f.N-1 || i/f.pow[l] == h/f.pow[l+1]
}

// Port is the D-mod-k up/down route (RECN paper §4.1, deterministic
// routing; the construction above): at switch r, towards host h not on r's
// own ports, down port d_l(h) when h is in r's subtree (at the top, the
// link of the up port d_{N−2}(h) took: d_{N−1}(h)·g + d_{N−2}(h) mod g),
// else up port d_l(h). Every hop depends only on the destination and the
// switch, each destination has one top switch, and the down links into a
// subtree carry one destination each.
func (f *FatTree) Port(r, h int) int {
	l, i := r/f.perLevel, r%f.perLevel
	top := f.N - 1
	switch {
	case l == top:
		g := f.K / f.M
		return f.Digit(h, top)*g + f.Digit(h, top-1)%g
	case f.covers(l, i, h):
		return f.Digit(h, l)
	}
	return f.K + f.Digit(h, l)
}

// MinimalPorts are all the ports of minimal up/down paths from r to leaf
// dest: the down port (at the top, the k/M parallel links) towards dest
// when r's subtree holds it, else every up port. The ports Port takes to
// dest's hosts are among them, so the channel dependency graph of these
// paths (vcs.CheckAcyclic) holds D-mod-k's.
func (f *FatTree) MinimalPorts(r, dest int, buf []int) []int {
	l, i := r/f.perLevel, r%f.perLevel
	h := dest * f.K // a host of leaf dest
	switch {
	case l == f.N-1:
		g := f.K / f.M
		for j := 0; j < g; j++ {
			buf = append(buf, f.Digit(h, l)*g+j)
		}
		return buf
	case f.covers(l, i, h):
		return append(buf, f.Digit(h, l))
	}
	for u := 0; u < f.K; u++ {
		buf = append(buf, f.K+u)
	}
	return buf
}

// LCALevel is the level of the lowest common ancestor of hosts s and d:
// 0 on one leaf, else the lowest l with ⌊s/k^(l+1)⌋ = ⌊d/k^(l+1)⌋ (N−1 at
// the latest). A route between them crosses 2·LCALevel+1 switches.
func (f *FatTree) LCALevel(s, d int) int {
	l := 0
	for l < f.N-1 && s/f.pow[l+1] != d/f.pow[l+1] {
		l++
	}
	return l
}

// BisectionLinks is the number of links a bisection of the hosts into two
// halves of whole top-digit subtrees cuts (each way): N/2 for a k-ary
// n-tree and for an M = 2 top (full bisection: one link per host of a
// half). An odd M cannot be halved that way; the bound is then ⌊M/2⌋ of
// M subtrees' up links.
func FatTreeBisectionLinks(k, n, m int) int {
	return m / 2 * pow(k, n-1)
}

func pow(k, e int) int {
	x := 1
	for ; e > 0; e-- {
		x *= k
	}
	return x
}

// fatTreeM is the top digit's range: Subtrees, or k when unset.
func fatTreeM(p Params) int {
	if p.Subtrees == 0 {
		return p.K
	}
	return p.Subtrees
}

// fatTreeMaxHosts bounds the network (the simulator's tables grow with
// hosts × radix).
const fatTreeMaxHosts = 1 << 16

var fattreeKind = Kind{
	Name:  "fattree",
	Title: "fat tree",
	// up and down links are one class (a link joins ports of one class):
	// one latency, one buffer, one VC set
	Classes: []Class{InjectionClass, LinkClass},
	// up*/down*: any number of hops on one VC; the channel dependency
	// graph of up/down paths has no cycle (vcs.CheckAcyclic walks it)
	Minimal: "link*",
	Check:   checkFatTree,
	Sizes: func(p Params) Sizes {
		m := fatTreeM(p)
		return Sizes{Routers: p.Stages * m * pow(p.K, p.Stages-2), Nodes: m * pow(p.K, p.Stages-1), Radix: 2 * p.K, Groups: 1}
	},
	Ports: func(p Params) []int64 {
		m := fatTreeM(p)
		hosts := int64(m * pow(p.K, p.Stages-1))
		all := int64(p.Stages*m*pow(p.K, p.Stages-2)) * int64(2*p.K)
		return []int64{hosts, all - hosts}
	},
	TableBytes: func(p Params) int64 { return int64(8 * (p.Stages + 1)) }, // pow
	New: func(p Params) (Topology, error) {
		return NewFatTree(p.K, p.Stages, p.Subtrees)
	},
	Fill: func(p *Params) {
		if p.K == 0 {
			p.K = 4
		}
		if p.Stages == 0 {
			p.Stages = 3 // the RECN paper's 64-host network
		}
	},
}

// checkFatTree is the kind's parameter check, each error naming its field.
func checkFatTree(p Params) error {
	if err := checkRange("topology.k", p.K, 2, 16, "down ports per switch of the fat tree"); err != nil {
		return err
	}
	if err := checkRange("topology.stages", p.Stages, 2, 16, "stages of the fat tree"); err != nil {
		return err
	}
	if p.Subtrees != 0 { // 1 would make the top stage idle: its level below already joins every host
		if err := checkRange("topology.subtrees", p.Subtrees, 2, p.K, "subtrees under the top stage"); err != nil {
			return err
		}
		if p.K%p.Subtrees != 0 {
			return fmt.Errorf("topology.subtrees: %d does not divide topology.k=%d; it must be 0 (k) or a divisor of k", p.Subtrees, p.K)
		}
	}
	hosts := fatTreeM(p)
	for e := 1; e < p.Stages; e++ {
		if hosts *= p.K; hosts > fatTreeMaxHosts {
			return fmt.Errorf("topology.stages: %d stages of k=%d make more than %d hosts; lower topology.stages or topology.k", p.Stages, p.K, fatTreeMaxHosts)
		}
	}
	return nil
}
