package main

import (
	"strings"
	"testing"

	"phitsim/engine/figures"
)

// TestFiguresCommand: `phitsim figures` lists every figure with its claim
// and run; -check runs one (1.6-adv1: h=2, 0.4 s) and prints PASS with the
// measured value; an unknown figure is an error naming the known ones.
func TestFiguresCommand(t *testing.T) {
	code, out, errOut := cli(t, false, "figures")
	if code != 0 {
		t.Fatalf("figures: exit %d: %s", code, errOut)
	}
	for _, f := range figures.Table {
		if !strings.Contains(out, f.ID) || !strings.Contains(out, f.ClaimText) || !strings.Contains(out, "sweep -experiment "+f.Experiment) {
			t.Errorf("figures: %s missing or incomplete", f.ID)
		}
	}
	code, out, errOut = cli(t, false, "figures", "-check", "1.6-adv1")
	if code != 0 || !strings.Contains(out, "MIN accepted 0.12") || !strings.HasSuffix(strings.TrimSpace(out), "PASS") {
		t.Errorf("figures -check 1.6-adv1: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = cli(t, false, "figures", "-check", "9.99")
	if code != 1 || !strings.Contains(errOut, "1.6-adv1") {
		t.Errorf("figures -check 9.99: exit %d, %q", code, errOut)
	}
}
