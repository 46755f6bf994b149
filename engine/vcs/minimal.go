package vcs

import (
	"slices"
	"strings"

	"phitsim/engine/routing"
	"phitsim/engine/topology"
)

// MinimalClassSeq is the VC sequence of a class routed minimally whatever
// the data routing (the priority class, the isolated class) on topology t
// of kind kind: its minimal paths on the fewest VCs whose
// channel-dependency graph is acyclic. One VC per port class, taken again
// hop after hop, when the walk of the graph accepts it — a flattened
// butterfly's dimension order ("link*": each hop is in a later
// dimension), a mesh's ("x* y*") — otherwise MIN's own sequence (a
// Dragonfly's 2 local + 1 global: the local–global–local paths close a
// cycle on one VC per class, Kim et al., Contention-based Congestion
// Management in Large-Scale Networks, whose hotspot VC becomes a class
// there).
func MinimalClassSeq(t topology.Topology, kind string) (Sequence, error) {
	k, err := topology.KindOf(kind)
	if err != nil {
		return nil, err
	}
	var spec []string
	for _, w := range strings.Fields(k.Minimal) {
		if w = strings.TrimSuffix(w, "*") + "*"; !slices.Contains(spec, w) {
			spec = append(spec, w)
		}
	}
	if seq, err := Parse(strings.Join(spec, " "), topology.ClassNames(k.Classes)); err == nil && CheckAcyclic(t, seq) == nil {
		return seq, nil
	}
	m := routing.Get("MIN")
	return ForEntry(kind, &m, m.PhaseA)
}
