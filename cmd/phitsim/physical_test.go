package main

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
)

// validate shows a configuration with a physical basis in physical units
// beside its cycles and phits (the QCN-Switch paper's Table I preset at
// h=4), and -set physical.* gives any configuration one; a bad basis is
// refused naming its field.
func TestValidateShowsPhysicalUnits(t *testing.T) {
	var out bytes.Buffer
	if err := cmdValidate([]string{"-preset", "ethernet-h4"}, env{stdout: &out, stderr: io.Discard}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"one cycle is 20 ns", "topology.globalLatency 400 ns = 20 cycles",
		"router.xbarLatency 200 ns = 10 cycles", "router.packetSize 1000 B = 10 phits",
		"router.injectionBuffer 200 KB = 2000 phits", "traffic.load 16 Gb/s = 0.4 phits/(node·cycle)"} {
		if !strings.Contains(squeeze(out.String()), want) {
			t.Errorf("validate does not say %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := cmdValidate([]string{"-preset", "h4", "-set", "physical.linkGbps=40", "-set", "physical.phitBytes=10"}, env{stdout: &out, stderr: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if s := squeeze(out.String()); !strings.Contains(s, "one cycle is 2 ns") || !strings.Contains(s, "topology.globalLatency 200 ns = 100 cycles") {
		t.Errorf("-set physical.*:\n%s", s)
	}
	out.Reset()
	if err := cmdValidate([]string{"-preset", "h4"}, env{stdout: &out, stderr: io.Discard}); err != nil || strings.Contains(out.String(), "physical") {
		t.Errorf("without a basis: %v\n%s", err, out.String())
	}
	out.Reset()
	err := cmdValidate([]string{"-preset", "h4", "-set", "physical.linkGbps=40"}, env{stdout: &out, stderr: io.Discard})
	if err == nil || !strings.Contains(out.String(), "physical.phitBytes = 0: must be set, in [1, 1048576] bytes") {
		t.Errorf("a basis without phit size: %v\n%s", err, out.String())
	}
}

// run's summary adds the load in Gb/s and the latency in µs for a
// configuration with a physical basis: the same numbers at 40 Gb/s and
// 20-ns cycles.
func TestRunSummaryInPhysicalUnits(t *testing.T) {
	var out bytes.Buffer
	err := cmdRun(context.Background(), []string{"-preset", "ethernet-h4", "-set", "topology.h=2", "-set", "topology.a=4", "-set", "topology.p=2",
		"-set", "sim.warmup=500", "-set", "sim.cycles=500", "-set", "sim.seeds=1", "-set", "traffic.load=0.2", "-out", t.TempDir() + "/r.json"},
		env{stdout: &out, stderr: io.Discard, tty: true})
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	var acc, lat, accG, latUs float64
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		switch {
		case f[0] == "accepted" && f[3] == "phits/node/cycle":
			acc = parse(t, f[2])
		case f[0] == "accepted" && f[3] == "Gb/s":
			accG = parse(t, f[2])
		case f[0] == "average" && f[1] == "latency" && f[3] == "cycles,":
			lat = parse(t, f[2])
		case f[0] == "average" && f[1] == "latency" && f[3] == "µs,":
			latUs = parse(t, f[2])
		}
	}
	if acc == 0 || lat == 0 || abs(accG-40*acc) > 0.01*accG || abs(latUs-lat*0.02) > 0.002*latUs+0.001 {
		t.Errorf("accepted %g = %g Gb/s, latency %g cycles = %g µs:\n%s", acc, accG, lat, latUs, s)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return x
}

// squeeze collapses the runs of spaces of a table.
func squeeze(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

// sweep's table repeats the curves in Gb/s per node and µs when every
// series has the same physical basis (the Table I preset, shrunk to h=2),
// and not otherwise.
func TestSweepTableInPhysicalUnits(t *testing.T) {
	args := func(extra ...string) []string {
		return append([]string{"-preset", "ethernet-h4", "-set", "topology.h=2", "-set", "topology.a=4", "-set", "topology.p=2",
			"-set", "sim.warmup=300", "-set", "sim.cycles=300", "-set", "sim.seeds=1", "-loads", "0.2:0.4:0.2", "-out", t.TempDir() + "/s"}, extra...)
	}
	var out bytes.Buffer
	if err := cmdSweep(context.Background(), args(), env{stdout: &out, stderr: io.Discard}); err != nil {
		t.Fatal(err)
	}
	s := squeeze(out.String())
	var lat []float64 // cycles, then µs
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 7 && f[0] == "series" && f[3] == "0.4": // notes may follow
			lat = append(lat, parse(t, f[5]))
		case len(f) == 5 && f[0] == "series" && f[2] == "16":
			lat = append(lat, parse(t, f[4]))
		}
	}
	if !strings.Contains(s, "in physical units (40 Gb/s links, 100-byte phits: one cycle is 20 ns):") ||
		len(lat) != 2 || abs(lat[1]-lat[0]*0.02) > 0.001*lat[1]+0.0005 {
		t.Errorf("latencies %v:\n%s", lat, s)
	}
	out.Reset()
	if err := cmdSweep(context.Background(), args("-series", "physical.phitBytes=100,50"), env{stdout: &out, stderr: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "physical units") {
		t.Errorf("two bases in one table:\n%s", out.String())
	}
}

// presets gives a preset with a physical basis its run in ms too.
func TestPresetsRunTime(t *testing.T) {
	var out bytes.Buffer
	if err := cmdPresets(&out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "warm-up 120000 + 120000 cycles (2.4 ms + 2.4 ms)") || strings.Contains(s, "60000 cycles (") {
		t.Errorf("%s", s)
	}
}
