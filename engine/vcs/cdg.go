package vcs

import (
	"fmt"
	"sync"

	"phitsim/engine/topology"
)

// CheckAcyclic verifies that seq keeps the escape sub-network of t free of
// deadlock: the channel dependency graph of its minimal paths — channels
// are (directed link, VC), a dependency joins two consecutive channels of
// a path — has no cycle (Dally and Seitz, IEEE Trans. Computers 1987;
// thesis §1.3). It returns nil, or an error naming a channel on a cycle,
// or a path the sequence cannot follow.
//
// When every hop of seq has a VC of its own (no Repeat, no two hops of a
// class on one VC), every dependency goes to a later sequence position, so
// the graph is acyclic whatever the topology: no walk is needed (a
// Dragonfly of any size is checked in O(len(seq))). Otherwise the minimal
// paths from every router to every router that holds nodes are walked.
//
// A walk's verdict is kept per topology name and sequence (a kind's name
// spells all its parameters), so that the runs of a sweep walk once: a
// 64×64 mesh takes about a second.
func CheckAcyclic(t topology.Topology, seq Sequence) error {
	if !seq.needsWalk() {
		return nil
	}
	key := fmt.Sprintf("%s|%+v", t.Name(), seq)
	walked.Lock()
	defer walked.Unlock()
	if err, ok := walked.m[key]; ok {
		return err
	}
	err := walk(t, seq)
	walked.m[key] = err
	return err
}

// Walk is the walk of CheckAcyclic, whatever seq (no shortcut, no cache):
// tests verify with it that the shortcut's verdict holds on real graphs.
func Walk(t topology.Topology, seq Sequence) error { return walk(t, seq) }

// walked caches the verdicts of walk.
var walked = struct {
	sync.Mutex
	m map[string]error
}{m: map[string]error{}}

// walk builds the channel dependency graph of seq on t's minimal paths and
// looks for a cycle.
func walk(t topology.Topology, seq Sequence) error {
	radix, R := t.Radix(), t.Routers()
	nvc := 0
	for _, h := range seq {
		nvc = max(nvc, h.VC+1)
	}
	// channel = (router·radix + port)·nvc + VC (a channel may be reached
	// at several positions when two of them share its class and VC)
	nch := R * radix * nvc
	succ := make([][]int32, nch)
	used := make([]bool, nch)
	// last destination+1 whose walk reached the channel at a position
	seen := make([]int32, nch*len(seq))
	var ports []int
	type state struct{ router, pos, ch int }
	var stack []state
	// packets go to the routers that hold nodes (a fat tree's upper
	// switches hold none)
	holds := make([]bool, R)
	for n := 0; n < t.Nodes(); n++ {
		r, _ := t.NodePort(n)
		holds[r] = true
	}
	for d := 0; d < R; d++ {
		if !holds[d] {
			continue
		}
		for src := 0; src < R; src++ {
			if src != d {
				stack = append(stack, state{src, -1, -1})
			}
		}
		for len(stack) > 0 {
			st := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			ports = t.MinimalPorts(st.router, d, ports[:0])
			for _, p := range ports {
				c := t.PortClass(st.router, p)
				pos := seq.Next(st.pos, c)
				if pos < 0 {
					return fmt.Errorf("a minimal path to router %d takes a hop of class %s at router %d (port %d) for which the VC sequence %q has no position left after %d", d, className(t, c), st.router, p, seq.Spec(topology.ClassNames(t.Classes())), st.pos)
				}
				ch := (st.router*radix+p)*nvc + seq[pos].VC
				if st.ch >= 0 {
					addEdge(succ, st.ch, ch)
				}
				used[ch] = true
				next, _ := t.Link(st.router, p)
				if next < 0 {
					return fmt.Errorf("the minimal path to router %d leaves router %d through unconnected port %d", d, st.router, p)
				}
				if at := ch*len(seq) + pos; next != d && seen[at] != int32(d+1) {
					seen[at] = int32(d + 1)
					stack = append(stack, state{next, pos, ch})
				}
			}
		}
	}
	if ch := findCycle(succ, used); ch >= 0 {
		pi, vc := ch/nvc, ch%nvc
		r, p := pi/radix, pi%radix
		return fmt.Errorf("the channel dependency graph of the VC sequence has a cycle through router %d port %d (%s) VC %d", r, p, className(t, t.PortClass(r, p)), vc)
	}
	return nil
}

// needsWalk: some hop repeats, or two hops of a class share a VC.
func (s Sequence) needsWalk() bool {
	for i, h := range s {
		if h.Repeat {
			return true
		}
		for _, g := range s[:i] {
			if g.Class == h.Class && g.VC == h.VC {
				return true
			}
		}
	}
	return false
}

func addEdge(succ [][]int32, from, to int) {
	for _, x := range succ[from] {
		if int(x) == to {
			return
		}
	}
	succ[from] = append(succ[from], int32(to))
}

// findCycle returns a channel on a cycle of the graph, or −1 (iterative
// depth-first search: a channel met again while on the current path closes
// a cycle).
func findCycle(succ [][]int32, used []bool) int {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, len(succ))
	type frame struct{ ch, next int }
	var path []frame
	for start := range succ {
		if !used[start] || color[start] != white {
			continue
		}
		color[start] = grey
		path = append(path[:0], frame{start, 0})
		for len(path) > 0 {
			f := &path[len(path)-1]
			if f.next == len(succ[f.ch]) {
				color[f.ch] = black
				path = path[:len(path)-1]
				continue
			}
			to := int(succ[f.ch][f.next])
			f.next++
			switch color[to] {
			case grey:
				return to
			case white:
				color[to] = grey
				path = append(path, frame{to, 0})
			}
		}
	}
	return -1
}

func className(t topology.Topology, c topology.PortClass) string {
	if cl := t.Classes(); int(c) < len(cl) {
		return cl[c].Name
	}
	return c.String()
}
