// Package vcs holds the distance-based deadlock-avoidance VC sequences of the
// Dragonfly routings (Günther; Kim et al.; thesis §1.3 and Fig. 1.15): every
// hop takes a VC after the previous one in a fixed sequence of local (l) and
// global (g) hops, so the channel dependency graph has no cycle.
package vcs

import "fmt"

// Hop is one step of a sequence: a link class and the VC used on it.
type Hop struct {
	Global bool
	VC     int
}

// Sequence of a routing: shorter paths use the required subset of hops, in
// order (the next hop takes the first entry after the current one whose class
// matches).
type Sequence []Hop

func parse(s string) Sequence {
	var seq Sequence
	l, g := 0, 0
	for _, c := range s {
		switch c {
		case 'l':
			seq = append(seq, Hop{false, l})
			l++
		case 'g':
			seq = append(seq, Hop{true, g})
			g++
		}
	}
	return seq
}

var sequences = map[string]string{
	"MIN":       "lgl",    // a0 h0 a1: 2/1
	"VAL_GROUP": "lglgl",  // a0 h0 a1 h1 a2: 3/2
	"VAL":       "lgllgl", // a0 h0 a1 a2 h1 a3: 4/2
}

// For returns the sequence of a routing, or an error naming the known ones.
func For(routing string) (Sequence, error) {
	s, ok := sequences[routing]
	if !ok {
		return nil, fmt.Errorf("no VC sequence for routing %q", routing)
	}
	return parse(s), nil
}

// Needs counts the local and global VCs a sequence uses.
func (s Sequence) Needs() (local, global int) {
	for _, h := range s {
		if h.Global {
			global++
		} else {
			local++
		}
	}
	return
}

// Next returns the position of the first hop after pos (−1 = not started)
// whose class matches, or −1 when the sequence has no such hop left.
func (s Sequence) Next(pos int, global bool) int {
	for i := pos + 1; i < len(s); i++ {
		if s[i].Global == global {
			return i
		}
	}
	return -1
}
