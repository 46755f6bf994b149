package main

import (
	"math"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// A range is counted before it is built: "-loads 0:1:1e-9" asked for 10⁹
// values and took every byte of the machine before the sweep's own bound on
// its runs was reached.
func TestParseValuesBounded(t *testing.T) {
	for _, bad := range []string{"0:1:1e-9", "0:1e300:1", "1:20001:1", "0:1:0.00005", "1:10000:1,1:10001:1",
		"0:Inf:0.1", "NaN", "1,-Inf", "0:1:NaN"} {
		got, err := parseValues(bad, "-values")
		if err == nil {
			t.Errorf("%q accepted (%d values)", bad, len(got))
		}
	}
	got, err := parseValues("1:20000:1", "-values")
	if err != nil || len(got) != sweep.MaxRuns {
		t.Fatalf("1:20000:1: %d values, %v", len(got), err)
	}
	// negative values round to the nearest, not towards zero (-0.3 was -0.299999999)
	got, err = parseValues("-1:1:0.1,1e300:1e300:1", "-values")
	if err != nil || len(got) != 22 || got[7] != -0.3 || got[10] != 0 || got[13] != 0.3 || got[21] != 1e300 {
		t.Fatalf("-1:1:0.1,1e300:1e300:1: %v, %v", got, err)
	}
	// a list past the bound, one value at a time
	if _, err := parseValues(strings.Repeat("0.5,", sweep.MaxRuns)+"0.5", "-values"); err == nil {
		t.Error("a list of MaxRuns + 1 values accepted")
	}
	if _, err := parseValues("0:1:1e-9", "-loads"); err == nil || !strings.Contains(err.Error(), "1000000000 values") {
		t.Errorf("the count is not named: %v", err)
	}
}

// The cross product of -series flags is counted before any configuration is
// built (each holds 2 KiB, and each series runs at least once).
func TestExpandSeriesBounded(t *testing.T) {
	base := []config.Config{config.Default()}
	many := strings.TrimSuffix(strings.Repeat("0.1,", 200), ",")
	_, err := expandSeries(base, []string{"traffic.load=" + many, "sim.seed=" + many})
	if err == nil || !strings.Contains(err.Error(), "1 × 200 × 200") {
		t.Fatalf("200 × 200 series: %v", err)
	}
	cfgs, err := expandSeries(base, []string{"routing.name=MIN,VAL", "traffic.load=0.1,0.2,0.3"})
	if err != nil || len(cfgs) != 6 {
		t.Fatalf("2 × 3 series: %d, %v", len(cfgs), err)
	}
}

// Whatever the flag's text, the list is finite, within the bound, and no
// input panics.
func FuzzParseValues(f *testing.F) {
	for _, s := range []string{"0.1:0.9:0.1", "0.05,0.1:0.3:0.1", "0:1:1e-9", "1e308:1e308:1e-308", "0:1e300:1",
		"-1e308:1e308:1e-300", "4.9e-324:1:4.9e-324", ",,,", "1:2:3:4", "NaN:1:1", "0x1p-2,0x1p3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseValues(s, "-values")
		if err != nil {
			return
		}
		if len(got) == 0 || len(got) > sweep.MaxRuns {
			t.Fatalf("%q: %d values", s, len(got))
		}
		for _, x := range got {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("%q: %v", s, x)
			}
		}
	})
}

// An experiment names its own series: a -preset or -config beside it was
// silently ignored (the sweep ran the experiment's series only).
func TestExperimentRefusesPresetAndConfig(t *testing.T) {
	for _, extra := range [][]string{{"-preset", "h2"}, {"-config", "x.json"}} {
		code, _, errOut := cli(t, false, append([]string{"sweep", "-experiment", "cbcm-fig14", "-loads", "0.2", "-plan", t.TempDir()}, extra...)...)
		if code != 1 || !strings.Contains(errOut, "-experiment cbcm-fig14 names its own series") {
			t.Errorf("%v: exit %d: %s", extra, code, errOut)
		}
	}
	if code, _, errOut := cli(t, false, "sweep", "-experiment", "cbcm-fig14", "-loads", "0.2", "-seeds", "1", "-plan", t.TempDir()); code != 0 ||
		!strings.Contains(errOut, "planned 2 runs (2 series × 1 value of traffic.load × seeds)") {
		t.Errorf("the experiment alone: exit %d: %s", code, errOut)
	}
}

// -loads beside -param, and -values without it, were ignored without a
// word: the sweep ran the preset's load, or the default loads.
func TestSweepRefusesIgnoredLoadsAndValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-preset", "h2", "-loads", "0.3", "-param", "sim.seed", "-values", "1,2"}, "-loads: the sweep is over -param sim.seed"},
		{[]string{"-preset", "h2", "-values", "1,2"}, "-values: give the parameter they are values of with -param PATH"},
		{[]string{"-experiment", "thesis-un", "-values", "0.1"}, "-values: give the parameter"},
	} {
		code, _, errOut := cli(t, false, append(append([]string{"sweep"}, tc.args...), "-plan", t.TempDir())...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d: %s", tc.args, code, errOut)
		}
	}
	// an experiment over another parameter takes -values
	if code, _, errOut := cli(t, false, "sweep", "-experiment", "thesis-fig5.6", "-values", "0,50", "-seeds", "1", "-plan", t.TempDir()); code != 0 {
		t.Errorf("thesis-fig5.6 -values: exit %d: %s", code, errOut)
	}
}
