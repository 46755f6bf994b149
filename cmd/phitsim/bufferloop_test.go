package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// phitsim validate, run and sweep warn (without refusing) of FOGSim's example
// buffers under the ACOR paper's 90-cycle switch; the thesis router does not.
func TestBufferLoopWarnings(t *testing.T) {
	paper := []string{"-set", "router.xbarLatency=90", "-set", "topology.localLatency=15", "-set", "topology.globalLatency=150",
		"-set", "router.packetSize=10"}
	want := "warning: router.localBuffer = 32 phits: covers a 120-cycle credit loop (crossbar 90 + 2×15 link) only up to 0.25 phits/cycle per VC"
	var out bytes.Buffer
	if err := cmdValidate(append([]string{"-preset", "h2"}, paper...), env{stdout: &out, stderr: &out}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), want) || strings.Count(out.String(), "warning:") != 3 {
		t.Errorf("validate:\n%s\nwant 3 warnings, among them %q", out.String(), want)
	}
	out.Reset()
	if err := cmdValidate([]string{"-preset", "h2"}, env{stdout: &out, stderr: &out}); err != nil || strings.Contains(out.String(), "warning") {
		t.Errorf("validate, thesis router: %v\n%s", err, out.String())
	}
	short := []string{"-preset", "h2", "-set", "sim.warmup=0", "-set", "sim.cycles=300", "-set", "sim.seeds=1", "-set", "traffic.load=0.05"}
	var so, se bytes.Buffer
	if err := cmdRun(context.Background(), append(append(short, paper...), "-out", t.TempDir()+"/r.json"), env{stdout: &so, stderr: &se}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(so.String(), want) {
		t.Errorf("run's summary:\n%s\nwant %q", so.String(), want)
	}
	so.Reset()
	se.Reset()
	if err := cmdSweep(context.Background(), append(append(short, paper...), "-loads", "0.05", "-series", "routing.name=MIN,VAL", "-out", t.TempDir()+"/s"),
		env{stdout: &so, stderr: &se}); err != nil {
		t.Fatal(err)
	}
	if strings.Count(se.String(), want) != 1 {
		t.Errorf("sweep's stderr (each warning once):\n%s", se.String())
	}
}
