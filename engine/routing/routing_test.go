package routing

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The lists below are the ones the table replaced, written out as the code
// compared names before it: the table must reproduce each of them for the
// routings they knew (a routing added later has its own test).

var before = []string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"}

// kindBefore is the switch the simulator's routingKind had.
func kindBefore(name string) Kind {
	switch name {
	case "VAL", "VAL_GROUP":
		return VAL
	case "UGAL":
		return UGAL
	case "PB":
		return PB
	case "PAR":
		return PAR
	case "OLM":
		return OLM
	case "ACOR":
		return ACOR
	case "PB_ACOR":
		return PBACOR
	}
	return MIN
}

// vcsBefore is the per-routing switch vcs.For had, in its letters (l local,
// g global).
func vcsBefore(name, phaseA string) string {
	toGroup := phaseA == "RRG-Gr" || phaseA == "CRG-Gr"
	switch name {
	case "MIN":
		return "lgl"
	case "VAL_GROUP", "VAL", "UGAL", "PB":
		if toGroup {
			return "lglgl"
		}
		return "lgllgl"
	case "ACOR", "PB_ACOR":
		return "lgllgl"
	case "PAR":
		return "llgllgl"
	case "OLM":
		return "lglgl"
	}
	return ""
}

// phaseABefore is config's PhaseA.
func phaseABefore(name, phaseA string) string {
	switch name {
	case "VAL_GROUP":
		if phaseA == "auto" {
			return "RRG-Gr"
		}
	case "ACOR", "PB_ACOR":
		return "RRG-Sw"
	}
	if phaseA == "auto" || phaseA == "" {
		return "RRG-Sw"
	}
	return phaseA
}

var phaseAValues = []string{"auto", "RRG-Sw", "RRG-Gr", "CRG-Sw", "CRG-Gr"}

func letters(spec string) string {
	var b strings.Builder
	for _, w := range strings.Fields(spec) {
		b.WriteByte(w[0])
	}
	return b.String()
}

func TestTableAsBefore(t *testing.T) {
	if got := Names(); !slices.Equal(got[:min(len(got), len(before))], before) {
		t.Fatalf("names %v, want %v first (routing.name's order)", got, before)
	}
	// the simulator's switches before the table: newSim's rerouteInj and
	// rerouteAll, stats.go's phase-A shares and FOGSim count, adaptive.go's
	// PiggyBack and ACOR state, newSim's held packets (router.idleUpdates)
	names := func(s string) []string { return strings.Fields(s) }
	eachInjection := names("UGAL PB ACOR PB_ACOR")
	eachHop := names("PAR OLM")
	misrouting := names("VAL VAL_GROUP UGAL PB PAR OLM ACOR PB_ACOR")
	phaseAShares := names("VAL VAL_GROUP UGAL PB ACOR PB_ACOR")
	acorLevels := names("ACOR PB_ACOR")
	localBeforeGlobal := names("PAR OLM")
	fogsimValiant := names("VAL VAL_GROUP ACOR")
	piggyBack := names("PB PB_ACOR")
	perCycle := names("PB ACOR PB_ACOR")
	oblivious := names("VAL VAL_GROUP")
	for _, e := range All()[:len(before)] {
		if k := kindBefore(e.Name); e.Kind != k {
			t.Errorf("%s: kind %d, want %d", e.Name, e.Kind, k)
		}
		want := Final
		switch {
		case slices.Contains(eachInjection, e.Name):
			want = EachInjectionAttempt
		case slices.Contains(eachHop, e.Name):
			want = EachHopAttempt
		}
		if d := e.Decide(false); d != want {
			t.Errorf("%s: decisions %v, want %v", e.Name, d, want)
		}
		if e.Kind == VAL {
			want = EachInjectionAttempt // routing.recompute
		}
		if d := e.Decide(true); d != want {
			t.Errorf("%s with recompute: decisions %v, want %v", e.Name, d, want)
		}
		paths := Adaptive
		switch {
		case !slices.Contains(misrouting, e.Name):
			paths = MinimalOnly
		case slices.Contains(oblivious, e.Name):
			paths = ValiantOnly
		}
		if e.Paths != paths {
			t.Errorf("%s: paths %d, want %d", e.Name, e.Paths, paths)
		}
		for _, m := range []struct {
			what  string
			got   bool
			names []string
		}{
			{"Misrouting", e.Has(Misrouting), misrouting},
			{"PhaseAShares", e.Has(PhaseAShares), phaseAShares},
			{"AcorLevels", e.Has(AcorLevels), acorLevels},
			{"LocalBeforeGlobal", e.Has(LocalBeforeGlobal), localBeforeGlobal},
			{"FOGSimValiant", e.Has(FOGSimValiant), fogsimValiant},
			{"PiggyBack", e.Keeps(PiggyBack), piggyBack},
			{"Levels", e.Keeps(Levels), acorLevels},
			{"PerCycle", e.Keeps(PerCycle), perCycle},
			{"Intermediate", e.Keeps(Intermediate), phaseAShares},
			{"Supports(mesh)", e.Supports("mesh"), []string{"MIN"}},
		} {
			if want := slices.Contains(m.names, e.Name); m.got != want {
				t.Errorf("%s: %s is %v, want %v", e.Name, m.what, m.got, want)
			}
		}
		for _, pa := range append(phaseAValues, "") {
			resolved := e.ResolvePhaseA(pa)
			if want := phaseABefore(e.Name, pa); resolved != want && !(pa == "" && e.Name == "VAL_GROUP") {
				// "" (not a valid value) is now "auto" for VAL_GROUP too
				t.Errorf("%s, phaseA %q: resolves to %s, want %s", e.Name, pa, resolved, want)
			}
			spec, err := e.VCSpec(Dragonfly, resolved)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := letters(spec), vcsBefore(e.Name, resolved); got != want {
				t.Errorf("%s, phaseA %s: VC sequence %q (%s), want %s", e.Name, resolved, spec, got, want)
			}
		}
	}
}

// Every entry is complete: a doc, a paper, a VC sequence of known classes
// for every topology it supports, and the same engine behaviour as the
// other names of its kind.
func TestEntriesComplete(t *testing.T) {
	classes := map[string][]string{Dragonfly: {"local", "global"}, FBFly: {"link"}}
	byKind := map[Kind]Entry{}
	for _, e := range All() {
		if e.Doc == "" || e.Paper == "" {
			t.Errorf("%s: no doc or paper", e.Name)
		}
		if !strings.Contains(Doc(), e.Name+" "+e.Doc) {
			t.Errorf("%s is not in routing.name's doc %q", e.Name, Doc())
		}
		if n, ok := Lookup(e.Name); !ok || n.Name != e.Name || Get(e.Name).Name != e.Name {
			t.Errorf("%s: Lookup/Get do not find it", e.Name)
		}
		if e.Has(Misrouting) != (e.Paths != MinimalOnly) {
			t.Errorf("%s: reports misrouting %v but its paths are %d", e.Name, e.Has(Misrouting), e.Paths)
		}
		if e.Keeps(PerCycle) != e.Uses("router.idleUpdates") {
			t.Errorf("%s: per-cycle state %v, router.idleUpdates applies %v", e.Name, e.Keeps(PerCycle), e.Uses("router.idleUpdates"))
		}
		if e.Keeps(Intermediate) && !strings.Contains(e.PhaseA, "-") {
			t.Errorf("%s draws intermediates but has no phase-A policy", e.Name)
		}
		kinds := e.Topologies
		if kinds == nil {
			kinds = []string{Dragonfly, "some-other-kind"}
		}
		for _, kind := range kinds {
			for _, pa := range phaseAValues {
				spec, err := e.VCSpec(kind, e.ResolvePhaseA(pa))
				if err != nil {
					t.Errorf("%s on %s: %v", e.Name, kind, err)
					continue
				}
				if spec == MinimalPath {
					continue
				}
				if strings.TrimSpace(spec) == "" {
					t.Errorf("%s on %s: empty VC sequence", e.Name, kind)
				}
				for _, w := range strings.Fields(spec) {
					if !slices.Contains(classes[kind], strings.TrimSuffix(w, "*")) {
						t.Errorf("%s on %s: VC sequence %q has hop class %q, not one of %v", e.Name, kind, spec, w, classes[kind])
					}
				}
			}
		}
		for _, v := range e.VCs {
			if v.ToGroup != "" && !e.Uses("routing.phaseA") {
				t.Errorf("%s: a -Gr VC sequence but routing.phaseA does not apply", e.Name)
			}
		}
		if o, ok := byKind[e.Kind]; ok {
			if o.Decision != e.Decision || o.Paths != e.Paths || o.Metrics != e.Metrics || o.Mechs != e.Mechs ||
				!reflect.DeepEqual(o.Topologies, e.Topologies) || !reflect.DeepEqual(o.VCs, e.VCs) || !reflect.DeepEqual(o.Params, e.Params) {
				t.Errorf("%s and %s share kind %d but differ in more than their phase-A default", o.Name, e.Name, e.Kind)
			}
		}
		byKind[e.Kind] = e
		seen := map[string]bool{}
		for _, p := range e.Params {
			if seen[p] {
				t.Errorf("%s lists %s twice", e.Name, p)
			}
			seen[p] = true
		}
	}
}

func TestVCSpecErrors(t *testing.T) {
	if _, err := VCSpec("VAL", "mesh", "RRG-Sw"); err == nil || !strings.Contains(err.Error(), "VAL") || !strings.Contains(err.Error(), "mesh") {
		t.Errorf("VAL on a mesh: %v, want an error naming both", err)
	}
	if _, err := VCSpec("DOR", Dragonfly, "RRG-Sw"); err == nil || !strings.Contains(err.Error(), "DOR") {
		t.Errorf("unknown routing: %v", err)
	}
	if s, err := VCSpec("MIN", "mesh", "RRG-Sw"); err != nil || s != MinimalPath {
		t.Errorf("MIN on a mesh: %q, %v; want the topology's minimal path", s, err)
	}
	if Get("DOR").Kind != MIN {
		t.Error("an unknown name is not run as MIN")
	}
	e := Get("VAL")
	e.VCs = nil
	if _, err := e.VCSpec(Dragonfly, "RRG-Sw"); err == nil {
		t.Error("an entry without VC sequences has one")
	}
}

func TestAllIsACopy(t *testing.T) {
	a := All()
	a[0].Name = "X"
	if Names()[0] != "MIN" {
		t.Error("All exposes the table")
	}
}
