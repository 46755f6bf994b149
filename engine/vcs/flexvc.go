package vcs

import (
	"fmt"

	"phitsim/engine/topology"
)

// FlexVC (thesis §5.2): a packet need not follow an increasing VC sequence;
// it suffices that an increasing-index path (its escape) to the destination
// exists from the buffer it enters. The routing gives the highest VC k of a
// hop, and the allocator may take any VC 0…k of the output's class that
// can hold the whole packet (virtual cut-through).
//
//   - Safe hop (Definition 1): the packet's remaining path after the hop
//     fits the reference sequence above the hop's VC: k is the highest such
//     VC.
//   - Opportunistic hop (Definition 2): k is the one the shortest safe
//     escape from the next router (its minimal path) gives. A blocked
//     opportunistic hop reverts to the escape.
//
// On a topology whose link types come in a fixed order (the Dragonfly's
// l–g–l, thesis §5.2.3) the reference sequence numbers the hops of a
// reference path consecutively whatever their type, and the m-th entry of a
// type is VC m of the ports of that type. The remaining path is matched
// greedily from the END of the reference (the latest possible entries),
// and k is the last entry of the hop's type before the match.
//
// With request-reply traffic (§5.2.2) the request and reply sequences are
// concatenated: requests use the request subsequence only; replies may use
// the whole sequence, but a reply hop is safe only when its remaining path
// fits the reply subsequence (a reply never depends on request VCs alone),
// and its escape must fit the reply subsequence too.

// Path is the link classes of a path's hops in order.
type Path []topology.PortClass

// Spec writes a Dragonfly path as "l g l".
func (p Path) Spec() string {
	b := make([]byte, 0, 2*len(p))
	for i, c := range p {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, "?lg"[min(int(c), 2)])
	}
	return string(b)
}

// Ref is a FlexVC reference sequence: the class of each entry in index
// order. The VCs of a class are its entries, in order.
type Ref []topology.PortClass

// Count is how many entries (VCs) of class c the sequence has.
func (r Ref) Count(c topology.PortClass) int {
	n := 0
	for _, e := range r {
		if e == c {
			n++
		}
	}
	return n
}

// Highest is the highest VC of class c a hop may take when the path after
// it is rest: the last entry of class c before the latest match of rest at
// the end of r (rest empty: the last entry of c), numbered among the
// entries of c; −1 when there is none (no increasing path from that hop).
func (r Ref) Highest(c topology.PortClass, rest Path) int {
	pos := len(r)
	for i := len(rest) - 1; i >= 0; i-- {
		for pos--; pos >= 0 && r[pos] != rest[i]; pos-- {
		}
		if pos < 0 {
			return -1
		}
	}
	for j := pos - 1; j >= 0; j-- {
		if r[j] == c {
			return Ref(r[:j]).Count(c)
		}
	}
	return -1
}

// dragonflyRefs are the Dragonfly's reference paths of thesis §5.2.3,
// longest first: safe in-transit (PAR's sequence, 5/2), safe VAL (4/2),
// opportunistic VAL and in-transit (l0–g1–l2–g3–l4, the sequence of
// Valiant to a group, 3/2) and MIN (2/1): the routing table's sequences.
var dragonflyRefs = func() []Ref {
	var refs []Ref
	for _, r := range [][2]string{{"PAR", "RRG-Sw"}, {"VAL", "RRG-Sw"}, {"VAL", "RRG-Gr"}, {"MIN", "RRG-Sw"}} {
		seq, err := ForKind("dragonfly", r[0], r[1])
		if err != nil {
			panic(err)
		}
		refs = append(refs, Ref(seq.Path()))
	}
	return refs
}()

// Path is the classes of the sequence's hops.
func (s Sequence) Path() Path {
	p := make(Path, len(s))
	for i, h := range s {
		p[i] = h.Class
	}
	return p
}

// DragonflyRef is the reference sequence of a Dragonfly port configuration
// with local/global VCs: the longest reference path of thesis §5.2.3 that
// the counts hold, the additional VCs inserted at its start (locals, then
// globals). Nil when the counts do not hold MIN's l0–g1–l2.
func DragonflyRef(local, global int) Ref {
	for _, ref := range dragonflyRefs {
		l, g := ref.Count(topology.Local), ref.Count(topology.Global)
		if l <= local && g <= global {
			r := make(Ref, 0, local+global)
			for range local - l {
				r = append(r, topology.Local)
			}
			for range global - g {
				r = append(r, topology.Global)
			}
			return append(r, ref...)
		}
	}
	return nil
}

// UniformRef is the reference sequence of n VCs of a network with one link
// type (class Local), the generic diameter-2 network of thesis §5.2.1.
func UniformRef(n int) Ref {
	r := make(Ref, n)
	for i := range r {
		r[i] = topology.Local
	}
	return r
}

// Flex is a FlexVC configuration: the request (or only) sequence and, with
// request-reply traffic, the reply subsequence and their concatenation.
type Flex struct {
	Req, Reply, Full Ref
}

// NewFlex builds the configuration of req and, when reply is not nil, the
// reply subsequence after it.
func NewFlex(req, reply Ref) Flex {
	f := Flex{Req: req}
	if reply != nil {
		f.Reply = reply
		f.Full = append(append(Ref(nil), req...), reply...)
	}
	return f
}

// Safe is the highest VC of a safe hop of class c whose remaining path is
// rest, for a reply or a request (or any packet without request-reply);
// −1 when the hop is not safe.
func (f Flex) Safe(reply bool, c topology.PortClass, rest Path) int {
	if !reply || f.Reply == nil {
		return f.Req.Highest(c, rest)
	}
	if f.Reply.Highest(c, rest) < 0 {
		return -1
	}
	return f.Full.Highest(c, rest)
}

// Opp is the highest VC of an opportunistic hop of class c whose escape
// from the next router is esc (a path that must itself be safe there); −1
// when the hop has no escape.
func (f Flex) Opp(reply bool, c topology.PortClass, esc Path) int {
	if len(esc) > 0 && f.Safe(reply, esc[0], esc[1:]) < 0 {
		return -1
	}
	if !reply || f.Reply == nil {
		return f.Req.Highest(c, esc)
	}
	return f.Full.Highest(c, esc)
}

// Verdict of a path under a FlexVC configuration (thesis Tables 5.1–5.4).
type Verdict uint8

const (
	Refused Verdict = iota // some hop has no escape (✗)
	Opportunistic
	Safe
)

func (v Verdict) String() string { return [...]string{"✗", "opp.", "safe"}[v] }

// Verdict classifies path for requests (reply false) or replies: safe when
// every hop is safe, opportunistic when every other hop has an escape esc
// (the worst-case minimal path from the next router), refused otherwise.
func (f Flex) Verdict(reply bool, path, esc Path) Verdict {
	v := Safe
	for i, c := range path {
		switch {
		case f.Safe(reply, c, path[i+1:]) >= 0:
		case f.Opp(reply, c, esc) >= 0:
			v = min(v, Opportunistic)
		default:
			return Refused
		}
	}
	return v
}

// The worst-case paths of the Dragonfly rows of Tables 5.3 and 5.4: MIN
// (l–g–l, also every escape), VAL to a router (l–g–l–l–g–l) and in-transit
// adaptive routing (PAR's l–l–g–l–l–g–l).
var (
	DragonflyMIN    = dragonflyRefs[3].path()
	DragonflyVAL    = dragonflyRefs[1].path()
	DragonflyInTrns = dragonflyRefs[0].path()
)

func (r Ref) path() Path { return Path(append(Ref(nil), r...)) }

// DragonflyVerdict is the verdict of path on a Dragonfly with local/global
// VCs, of which replyLocal/replyGlobal form the reply subsequence (0/0:
// no request-reply): the worse of the request and reply verdicts, each
// returned too. An error names the field at fault when the counts do not
// hold MIN in each subsequence.
func DragonflyVerdict(path Path, local, global, replyLocal, replyGlobal int) (v, req, rep Verdict, err error) {
	f, err := DragonflyFlex(local, global, replyLocal, replyGlobal)
	if err != nil {
		return Refused, Refused, Refused, err
	}
	req = f.Verdict(false, path, DragonflyMIN)
	v, rep = req, req
	if f.Reply != nil {
		rep = f.Verdict(true, path, DragonflyMIN)
		v = min(req, rep)
	}
	return v, req, rep, nil
}

// DragonflyFlex is the FlexVC configuration of a Dragonfly with local/global
// VCs per port, replyLocal/replyGlobal of them the reply subsequence (0/0:
// no request-reply). Each subsequence must hold MIN (2/1).
func DragonflyFlex(local, global, replyLocal, replyGlobal int) (Flex, error) {
	reqL, reqG := local-replyLocal, global-replyGlobal
	if replyLocal != 0 || replyGlobal != 0 {
		if replyLocal < 2 || replyGlobal < 1 {
			return Flex{}, fmt.Errorf("router.replyLocalVCs/replyGlobalVCs: the reply subsequence %d/%d does not hold the minimal path l–g–l: at least 2/1", replyLocal, replyGlobal)
		}
	}
	if reqL < 2 || reqG < 1 {
		what := "the VCs"
		if replyLocal != 0 {
			what = fmt.Sprintf("the request subsequence (router.localVCs/globalVCs %d/%d minus the %d/%d reply VCs)", local, global, replyLocal, replyGlobal)
		}
		return Flex{}, fmt.Errorf("router.localVCs/globalVCs: %s, %d/%d, do not hold the minimal path l–g–l: at least 2/1", what, reqL, reqG)
	}
	var reply Ref
	if replyLocal != 0 {
		reply = DragonflyRef(replyLocal, replyGlobal)
	}
	return NewFlex(DragonflyRef(reqL, reqG), reply), nil
}
