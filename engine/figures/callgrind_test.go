package figures

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sim"
)

// TestCallgrindRun is the probe engine/figures/costs.sh runs under
// callgrind (which counts callgrindRun only) to measure what the estimate
// models, natively and deterministically:
//   - PHITSIM_COST_RUN=<figure>:<series>:<load>[:<edits>] steps that job
//     of the figure's experiment through its warm-up and measured cycles
//     (seed 1) and logs its estimate (JobInstructions) beside the hops it
//     made; edits (costEdit), comma-separated, change the job first: the
//     same network under another routing, at h=2, or with a pattern switch;
//   - PHITSIM_COST_IDLE=<h2|h4|fbfly16>:<cycles> steps an idle network (no
//     traffic) that many cycles: the fixed cost per cycle the estimate
//     charges per node (FixedInstrPerNodeCycle); :<load> after the cycles
//     runs MIN under UN at that load instead (the hops per node and cycle
//     of costs.sh's probe at h=4, load 0.2: ProbeHopsPerNodeCycle).
func TestCallgrindRun(t *testing.T) {
	run, idle := os.Getenv("PHITSIM_COST_RUN"), os.Getenv("PHITSIM_COST_IDLE")
	var c config.Config
	cycles := 0
	switch {
	case run != "":
		parts := strings.Split(run, ":")
		if len(parts) != 3 && len(parts) != 4 {
			t.Fatalf("PHITSIM_COST_RUN=%q: want <figure>:<series>:<load>[:<edits>]", run)
		}
		load, err := strconv.ParseFloat(parts[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		c = figureJob(t, parts[0], parts[1], load)
		if len(parts) == 4 {
			costEdit(t, &c, parts[3])
		}
		cycles = c.Sim.Warmup + c.Sim.Cycles
	case idle != "":
		parts := strings.Split(idle, ":")
		var err error
		if len(parts) < 2 || len(parts) > 3 {
			t.Fatalf("PHITSIM_COST_IDLE=%q: want <network>:<cycles>[:<load>]", idle)
		}
		if cycles, err = strconv.Atoi(parts[1]); err != nil {
			t.Fatalf("PHITSIM_COST_IDLE=%q: %v", idle, err)
		}
		c = idleNetwork(t, parts[0])
		c.Sim.Cycles = cycles
		if len(parts) == 3 {
			if c.Traffic.Load, err = strconv.ParseFloat(parts[2], 64); err != nil {
				t.Fatalf("PHITSIM_COST_IDLE=%q: %v", idle, err)
			}
		}
	default:
		t.Skip("PHITSIM_COST_RUN=<figure>:<series>:<load> or PHITSIM_COST_IDLE=<h2|h4|fbfly16>:<cycles>[:<load>] (engine/figures/costs.sh)")
	}
	s, err := sim.New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	callgrindRun(s, cycles)
	sz, _ := c.Topology.Sizes()
	r, err := s.Run(t.Context(), nil) // no cycle left to run: the result's counts
	if err != nil {
		t.Fatal(err)
	}
	est, err := JobInstructions(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cycles %d ports %d hops %d estimate %.0f", cycles, sz.Routers*sz.Radix, r.PacketHops, est)
}

// callgrindRun is what callgrind counts (--toggle-collect).
//
//go:noinline
func callgrindRun(s *sim.Sim, cycles int) {
	for range cycles {
		s.Step()
	}
}

// figureJob is the job of figure id's experiment for series at load.
func figureJob(t *testing.T, id, series string, load float64) config.Config {
	t.Helper()
	f, err := ByID(id)
	if err != nil {
		t.Fatal(err)
	}
	e, err := f.Sweep()
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := e.Spec.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.Config.Name == series && j.Config.Traffic.Load == load {
			return j.Config
		}
	}
	t.Fatalf("figure %s: no job of series %q at load %g", id, series, load)
	return config.Config{}
}

// costEdit applies edits, comma-separated, to a figure's job:
// routing=<name> (the same network and pattern under another routing),
// policy=<name> (routing.policy), cycles=<n> (sim.cycles, the measured
// ones), load=<x> (traffic.load), h=<h> (the Dragonfly a = 2h, p = h),
// switch=<pattern>@<cycle> (the pattern switches to that one that many
// cycles after the warm-up).
func costEdit(t *testing.T, c *config.Config, edits string) {
	t.Helper()
	for _, e := range strings.Split(edits, ",") {
		k, v, ok := strings.Cut(e, "=")
		if !ok {
			t.Fatalf("edit %q: want key=value", e)
		}
		switch k {
		case "routing":
			c.Routing.Name = v
		case "policy":
			c.Routing.Policy = v
		case "cycles":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("edit %q: %v", e, err)
			}
			c.Sim.Cycles = n
		case "load":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("edit %q: %v", e, err)
			}
			c.Traffic.Load = x
		case "h":
			h, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("edit %q: %v", e, err)
			}
			c.Topology.H, c.Topology.A, c.Topology.P = h, 2*h, h
		case "switch":
			pat, at, ok := strings.Cut(v, "@")
			n, err := strconv.Atoi(at)
			if !ok || err != nil {
				t.Fatalf("edit %q: want switch=<pattern>@<cycle>", e)
			}
			c.Traffic.SwitchPattern, c.Traffic.SwitchCycle = pat, n
		default:
			t.Fatalf("edit %q: routing, policy, cycles, load, h or switch", e)
		}
	}
}

// idleNetwork is a network without traffic: the Dragonflies h=2 (36
// routers of radix 7) and h=4 (264 of radix 15), and Kim et al.'s 16-node
// flattened butterfly (4 routers of radix 7).
func idleNetwork(t *testing.T, name string) config.Config {
	t.Helper()
	c := config.Default()
	switch name {
	case "h2":
		c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	case "h4":
		c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4
	case "fbfly16":
		c = figureJob(t, "kim-14", "CBCM", 0)
		c.Traffic.Pattern = "UN"
	default:
		t.Fatalf("idle network %q: h2, h4 or fbfly16", name)
	}
	c.Traffic.Load = 0
	c.Sim.Warmup = 0
	return c
}
