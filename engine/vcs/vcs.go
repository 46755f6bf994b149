// Package vcs holds the distance-based deadlock-avoidance VC sequences
// (Günther; Kim et al.; thesis §1.3 and Fig. 1.15): every hop takes a VC
// after the previous one in a fixed sequence of hop classes, so the channel
// dependency graph has no cycle. A sequence is written as a spec: the port
// class names of its hops in path order, separated by spaces, a "*" suffix
// marking a hop that may be taken again on the same VC (a mesh's dimension
// order "x* y*"). A Repeat hop keeps the sequence position, so acyclicity no
// longer follows from the positions alone: CheckAcyclic walks the paths.
package vcs

import (
	"fmt"
	"strings"
	"sync"

	"phitsim/engine/routing"
	"phitsim/engine/topology"
)

// Hop is one step of a sequence: a port class, the VC used on it (the hops
// of a class take VCs 0, 1, … in order), and whether the next hop may be
// of the same class on the same VC.
type Hop struct {
	Class  topology.PortClass
	VC     int
	Repeat bool
}

// Sequence of a routing: shorter paths use the required subset of hops, in
// order (the next hop takes the first entry after the current one whose class
// matches, or the current one again when it repeats).
type Sequence []Hop

// Parse reads a spec ("local global local", "x* y*") whose class names are
// classNames (class i = classNames[i]; class 0, injection, has no VCs of
// the sequence).
func Parse(spec string, classNames []string) (Sequence, error) {
	var seq Sequence
	next := make([]int, len(classNames))
	for _, w := range strings.Fields(spec) {
		name, rep := strings.CutSuffix(w, "*")
		c := -1
		for i, n := range classNames {
			if i > 0 && n == name {
				c = i
			}
		}
		if c < 0 {
			return nil, fmt.Errorf("VC sequence %q: %q is not a transit port class (one of %s)", spec, name, strings.Join(classNames[min(1, len(classNames)):], ", "))
		}
		seq = append(seq, Hop{Class: topology.PortClass(c), VC: next[c], Repeat: rep})
		next[c]++
	}
	if len(seq) == 0 {
		return nil, fmt.Errorf("VC sequence %q: no hop", spec)
	}
	if len(seq) > 127 {
		return nil, fmt.Errorf("VC sequence %q: %d hops, at most 127", spec, len(seq))
	}
	return seq, nil
}

// ForKind is the sequence of routing name on a topology kind for a resolved
// phase-A policy (config.PhaseA): ForEntry with the name's table entry.
// Errors name the field at fault.
func ForKind(kind, name, phaseA string) (Sequence, error) {
	key := kind + "|" + name + "|" + phaseA
	parsed.Lock()
	defer parsed.Unlock()
	if p, ok := parsed.m[key]; ok { // the table is fixed: parse each once
		return append(Sequence(nil), p.seq...), p.err
	}
	e, ok := routing.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("routing.name: no VC sequence for routing %q", name)
	}
	seq, err := ForEntry(kind, &e, phaseA)
	parsed.m[key] = parse{seq, err}
	return append(Sequence(nil), seq...), err
}

// parsed caches ForKind's sequences: validation asks for them several
// times per configuration, the page at every edit.
var parsed = struct {
	sync.Mutex
	m map[string]parse
}{m: map[string]parse{}}

type parse struct {
	seq Sequence
	err error
}

// ForEntry is routing e's sequence on a topology kind for a resolved phase-A
// policy: the spec e gives for the kind (routing.Entry.VCSpec) — for
// routing.MinimalPath the hop classes of the kind's own minimal paths
// (topology.Kind.Minimal) — parsed with the kind's class names.
func ForEntry(kind string, e *routing.Entry, phaseA string) (Sequence, error) {
	k, err := topology.KindOf(kind)
	if err != nil {
		return nil, err
	}
	spec, err := e.VCSpec(kind, phaseA)
	if err != nil {
		return nil, fmt.Errorf("routing.name: %v", err)
	}
	if spec == routing.MinimalPath {
		spec = k.Minimal
	}
	return Parse(spec, topology.ClassNames(k.Classes))
}

// LocalAtOrBefore is the VC of the latest local hop at or before pos (OLM's
// opportunistic reuse), or the first local VC when there is none.
func (s Sequence) LocalAtOrBefore(pos int) int {
	for i := min(pos, len(s)-1); i >= 0; i-- {
		if s[i].Class == topology.Local {
			return s[i].VC
		}
	}
	return 0
}

// PerClass counts the VCs the sequence uses on each of n classes.
func (s Sequence) PerClass(n int) []int {
	need := make([]int, n)
	for _, h := range s {
		if int(h.Class) < n {
			need[h.Class]++
		}
	}
	return need
}

// Repeats tells whether some hop of s may repeat.
func (s Sequence) Repeats() bool {
	for _, h := range s {
		if h.Repeat {
			return true
		}
	}
	return false
}

// Next returns the position of the next hop of class c after pos (−1 = not
// started): pos itself when its hop repeats and has class c, else the first
// later hop of class c, or −1 when the sequence has no such hop left.
func (s Sequence) Next(pos int, c topology.PortClass) int {
	if pos >= 0 && s[pos].Repeat && s[pos].Class == c {
		return pos
	}
	for i := pos + 1; i < len(s); i++ {
		if s[i].Class == c {
			return i
		}
	}
	return -1
}

// Follows reports, as an error naming the hop, when s cannot carry a path
// whose hop classes are those of path in order (a repeatable hop of path
// taken twice): a topology's minimal path must find a position at every
// hop, or its packets would have no VC left.
func (s Sequence) Follows(path Sequence, classNames []string) error {
	pos := -1
	for i, h := range path {
		takes := 1
		if h.Repeat {
			takes = 2
		}
		for ; takes > 0; takes-- {
			if pos = s.Next(pos, h.Class); pos < 0 {
				return fmt.Errorf("the VC sequence %q has no position for hop %d (%s) of the minimal path %q",
					s.Spec(classNames), i+1, classNames[h.Class], path.Spec(classNames))
			}
		}
	}
	return nil
}

// Spec writes s with the class names classNames.
func (s Sequence) Spec(classNames []string) string {
	var b strings.Builder
	for i, h := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		if int(h.Class) < len(classNames) {
			b.WriteString(classNames[h.Class])
		} else {
			fmt.Fprintf(&b, "class%d", h.Class)
		}
		if h.Repeat {
			b.WriteByte('*')
		}
	}
	return b.String()
}
