package vcs

import (
	"strings"
	"testing"

	"phitsim/engine/topology"
)

func uniform(n int) Path { return Path(UniformRef(n)) }

// Generic diameter-2 network (one link type), thesis Table 5.1: MIN has 2
// hops, VAL 4, in-transit adaptive 5; every escape is a 2-hop minimal path.
func TestFlexVCTable51(t *testing.T) {
	want := map[string][]string{ // 2, 3, 4, 5 VCs
		"MIN":     {"safe", "safe", "safe", "safe"},
		"VAL":     {"✗", "opp.", "safe", "safe"},
		"In-Trns": {"✗", "opp.", "opp.", "safe"},
	}
	paths := map[string]Path{"MIN": uniform(2), "VAL": uniform(4), "In-Trns": uniform(5)}
	for name, row := range want {
		for i, w := range row {
			f := NewFlex(UniformRef(i+2), nil)
			if got := f.Verdict(false, paths[name], uniform(2)).String(); got != w {
				t.Errorf("Table 5.1 %s with %d VCs: %s, want %s", name, i+2, got, w)
			}
		}
	}
}

// Generic diameter-2 network with request-reply, thesis Table 5.2: a cell
// is the worse of the request and reply verdicts.
func TestFlexVCTable52(t *testing.T) {
	cols := [][2]int{{2, 2}, {3, 2}, {3, 3}, {4, 4}, {5, 5}}
	want := map[string][]string{
		"MIN":     {"safe", "safe", "safe", "safe", "safe"},
		"VAL":     {"✗", "opp.", "opp.", "safe", "safe"},
		"In-Trns": {"✗", "opp.", "opp.", "opp.", "safe"},
	}
	paths := map[string]Path{"MIN": uniform(2), "VAL": uniform(4), "In-Trns": uniform(5)}
	for name, row := range want {
		for i, w := range row {
			f := NewFlex(UniformRef(cols[i][0]), UniformRef(cols[i][1]))
			got := min(f.Verdict(false, paths[name], uniform(2)), f.Verdict(true, paths[name], uniform(2))).String()
			if got != w {
				t.Errorf("Table 5.2 %s with %d+%d VCs: %s, want %s", name, cols[i][0], cols[i][1], got, w)
			}
		}
	}
}

// Dragonfly, thesis Table 5.3 (local/global VCs, 3/1 and 2/2 one column).
func TestFlexVCTable53(t *testing.T) {
	cols := [][2]int{{2, 1}, {3, 1}, {2, 2}, {3, 2}, {4, 2}, {5, 2}}
	want := map[string][]string{
		"MIN":     {"safe", "safe", "safe", "safe", "safe", "safe"},
		"VAL":     {"✗", "✗", "✗", "opp.", "safe", "safe"},
		"In-Trns": {"✗", "✗", "✗", "opp.", "opp.", "safe"},
	}
	paths := map[string]Path{"MIN": DragonflyMIN, "VAL": DragonflyVAL, "In-Trns": DragonflyInTrns}
	for name, row := range want {
		for i, w := range row {
			v, _, _, err := DragonflyVerdict(paths[name], cols[i][0], cols[i][1], 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if v.String() != w {
				t.Errorf("Table 5.3 %s with %d/%d VCs: %s, want %s", name, cols[i][0], cols[i][1], v, w)
			}
		}
	}
}

// Dragonfly with request-reply, thesis Table 5.4: request + reply =
// overall; with 2×(2/1) requests are refused and replies opportunistic.
func TestFlexVCTable54(t *testing.T) {
	cols := [][4]int{{4, 2, 2, 1}, {5, 3, 2, 1}, {8, 4, 4, 2}, {10, 4, 5, 2}} // overall, then reply
	want := map[string][]string{
		"MIN":     {"safe", "safe", "safe", "safe"},
		"VAL":     {"✗ / opp.", "opp.", "safe", "safe"},
		"In-Trns": {"✗ / opp.", "opp.", "opp.", "safe"},
	}
	paths := map[string]Path{"MIN": DragonflyMIN, "VAL": DragonflyVAL, "In-Trns": DragonflyInTrns}
	for name, row := range want {
		for i, w := range row {
			c := cols[i]
			_, req, rep, err := DragonflyVerdict(paths[name], c[0], c[1], c[2], c[3])
			if err != nil {
				t.Fatal(err)
			}
			got := req.String()
			if req != rep {
				got += " / " + rep.String()
			}
			if got != w {
				t.Errorf("Table 5.4 %s with %d/%d (reply %d/%d): %s, want %s", name, c[0], c[1], c[2], c[3], got, w)
			}
		}
	}
}

// The rule's own numbers (thesis §5.2.3 and FOGSim's MIN sets): 2/1 MIN
// gives the source-group local hop {l0}, the global hop {g0} and the
// destination-group local hop {l0, l1}; extra VCs go at the start of the
// reference path, so 4/2 MIN may use local 0…2 at its first hop.
func TestFlexVCHighest(t *testing.T) {
	l, g := topology.Local, topology.Global
	r := DragonflyRef(2, 1)
	if k := r.Highest(l, Path{g, l}); k != 0 {
		t.Errorf("2/1 first local hop: k = %d, want 0", k)
	}
	if k := r.Highest(g, Path{l}); k != 0 {
		t.Errorf("2/1 global hop: k = %d, want 0", k)
	}
	if k := r.Highest(l, nil); k != 1 {
		t.Errorf("2/1 last local hop: k = %d, want 1", k)
	}
	r = DragonflyRef(4, 2)
	if k := r.Highest(l, Path{g, l}); k != 2 {
		t.Errorf("4/2 MIN first local hop: k = %d, want 2", k)
	}
	if k := r.Highest(l, Path{g, l, l, g, l}); k != 0 {
		t.Errorf("4/2 VAL first local hop: k = %d, want 0", k)
	}
	// 3/2 is l0–g1–l2–g3–l4: a Valiant packet's global hop to its
	// intermediate group is opportunistic, its escape l–g–l gives g0
	f := NewFlex(DragonflyRef(3, 2), nil)
	if k := f.Safe(false, g, Path{l, l, g, l}); k != -1 {
		t.Errorf("3/2 VAL global hop safe with k = %d", k)
	}
	if k := f.Opp(false, g, DragonflyMIN); k != 0 {
		t.Errorf("3/2 VAL global hop escape: k = %d, want 0", k)
	}
	// replies of 3/2+2/1 may use the request VCs below their own
	f = NewFlex(DragonflyRef(3, 2), DragonflyRef(2, 1))
	if k := f.Safe(true, l, nil); k != 4 {
		t.Errorf("reply last local hop: k = %d, want 4", k)
	}
	if k := f.Safe(true, l, Path{g, l}); k != 3 {
		t.Errorf("reply first local hop: k = %d, want 3", k)
	}
	if k := f.Safe(false, l, Path{g, l}); k != 1 {
		t.Errorf("request first local hop: k = %d, want 1", k)
	}
}

func TestDragonflyFlexRefusesShortSubsequences(t *testing.T) {
	if _, err := DragonflyFlex(3, 1, 2, 1); err == nil || !strings.Contains(err.Error(), "router.localVCs") {
		t.Errorf("3/1 with a 2/1 reply leaves 1/0 for requests: %v", err)
	}
	if _, err := DragonflyFlex(4, 2, 1, 1); err == nil || !strings.Contains(err.Error(), "router.replyLocalVCs") {
		t.Errorf("reply 1/1: %v", err)
	}
}

// A reply's escape must fit the reply subsequence: with one reply VC a
// minimal reply has none, however many request VCs lie below (thesis
// Theorem 2 needs a safe reply path in the reply VCs).
func TestFlexVCReplyEscapeInReplyVCs(t *testing.T) {
	f := NewFlex(UniformRef(3), UniformRef(1))
	if v := f.Verdict(true, uniform(2), uniform(2)); v != Refused {
		t.Errorf("MIN replies with 3+1 VCs: %s, want ✗", v)
	}
	if v := f.Verdict(false, uniform(2), uniform(2)); v != Safe {
		t.Errorf("MIN requests with 3+1 VCs: %s, want safe", v)
	}
}
