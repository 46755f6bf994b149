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

// For returns the sequence of a routing; Valiant-style routings need 4/2 VCs
// when phase A ends at a router (…-Sw), 3/2 when it ends on entering a group.
func For(routing, phaseA string) (Sequence, error) {
	toGroup := phaseA == "RRG-Gr" || phaseA == "CRG-Gr"
	switch routing {
	case "MIN":
		return parse("lgl"), nil // a0 h0 a1: 2/1
	case "VAL_GROUP", "VAL", "UGAL", "PB":
		if toGroup {
			return parse("lglgl"), nil // a0 h0 a1 h1 a2: 3/2
		}
		return parse("lgllgl"), nil // a0 h0 a1 a2 h1 a3: 4/2
	case "ACOR", "PB_ACOR":
		return parse("lgllgl"), nil
	case "PAR":
		return parse("llgllgl"), nil // a0 a1 h0 a2 a3 h1 a4: 5/2
	case "OLM":
		// a0 h0 a1 h1 a2: 3/2; its non-minimal local hops reuse a VC
		// (opportunistic), see the engine's OLM rule
		return parse("lglgl"), nil
	}
	return nil, fmt.Errorf("no VC sequence for routing %q", routing)
}

// LocalAtOrBefore is the VC of the latest local hop at or before pos (OLM's
// opportunistic reuse), or the first local VC when there is none.
func (s Sequence) LocalAtOrBefore(pos int) int {
	for i := min(pos, len(s)-1); i >= 0; i-- {
		if !s[i].Global {
			return s[i].VC
		}
	}
	return 0
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
