// Command parbench measures the partitioned engine's speed-up and parallel
// efficiency (engine/PARALLEL.md) and prints them as the rows of
// engine/BENCHMARKS.md's table "Speed-up and parallel efficiency, 1–16
// threads" ("Parallel runs"), with the machine they were measured on.
//
// On a machine with 16 idle cores, the table's rows in one command:
//
//	go run ./cmd/parbench
//
// runs the thesis's 16,512-node Dragonfly (preset h8: MIN) and the ACOR
// paper's 5,256-host system (preset acor-5256: ACOR-Switch 3L) under UN at
// 0.4, 1,000 + 4,000 cycles, seed 1, on 1, 2, 4, 8 and 16 threads, the
// thread counts alternated within each of 3 rounds. Each run's wall time is
// that of Sim.Run (the network built beforehand: its construction does not
// split); its CPU time, user + system, is the process's over the run
// (getrusage). Every partitioned run's result document must equal the
// 1-thread run's of its round byte for byte (its CPU seconds aside) and
// carry no "sequential" note, or parbench stops with an error: a speed-up
// is only reported for the same simulation. Rows with more threads than
// the machine has CPUs, or measured while its load average exceeded half
// its CPUs, say so: they are not parallel-efficiency figures.
//
// Flags: -nets (presets, comma-separated), -threads, -rounds, -warmup,
// -cycles, -load, -seed, -set path=value (repeated; applied to every
// network).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
)

// Header is the table's header and rule, as engine/BENCHMARKS.md has them
// (TestTableInBenchmarks checks it is there).
const Header = "| network, cycles | threads | wall, rounds | median wall | speed-up | efficiency | CPU (user + system), median | machine |\n" +
	"|---|---|---|---|---|---|---|---|\n"

// perturb, when set (tests), changes a run's result before it is compared
// with the 1-thread run's.
var perturb func(threads int, r *result.Result)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "parbench:", err)
		os.Exit(1)
	}
}

type sets []string

func (s *sets) String() string     { return strings.Join(*s, ",") }
func (s *sets) Set(v string) error { *s = append(*s, v); return nil }

func run(args []string, out, log io.Writer) error {
	fs := flag.NewFlagSet("parbench", flag.ContinueOnError)
	fs.SetOutput(log)
	nets := fs.String("nets", "h8,acor-5256", "presets to measure, comma-separated")
	threadList := fs.String("threads", "1,2,4,8,16", "thread counts, comma-separated (1 first: the speed-ups' base)")
	rounds := fs.Int("rounds", 3, "rounds; each runs every thread count once, alternated")
	warmup := fs.Int("warmup", 1000, "sim.warmup, cycles")
	cycles := fs.Int("cycles", 4000, "sim.cycles, cycles")
	load := fs.Float64("load", 0.4, "traffic.load (UN)")
	seed := fs.Uint64("seed", 1, "the runs' seed")
	var extra sets
	fs.Var(&extra, "set", "path=value applied to every network (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	var threads []int
	for _, f := range strings.Split(*threadList, ",") {
		t, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || t < 1 {
			return fmt.Errorf("-threads %q: give thread counts ≥ 1, comma-separated", *threadList)
		}
		threads = append(threads, t)
	}
	if threads[0] != 1 || slices.Contains(threads[1:], 1) {
		return fmt.Errorf("-threads %q: the first count must be 1 (the speed-ups' base), and only the first", *threadList)
	}
	if *rounds < 1 {
		return fmt.Errorf("-rounds %d: give 1 or more", *rounds)
	}
	ncpu := runtime.NumCPU()
	load0 := loadAverage()
	fmt.Fprintf(out, "Machine: %s; %d CPUs (GOMAXPROCS %d); load average %s at the start; %s, phitsim %s.\n\n",
		cpuModel(), ncpu, runtime.GOMAXPROCS(0), load0, runtime.Version(), revision())
	io.WriteString(out, Header)
	for _, name := range strings.Split(*nets, ",") {
		c, err := config.PresetByName(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		c.Traffic.Pattern, c.Traffic.Load = "UN", *load
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = *warmup, *cycles, 1
		for _, kv := range extra {
			k, v, _ := strings.Cut(kv, "=")
			p, ok := config.Lookup(k)
			if !ok {
				return fmt.Errorf("-set %s: no parameter %s", kv, k)
			}
			if err := p.SetString(&c, v); err != nil {
				return fmt.Errorf("-set %s: %v", kv, err)
			}
		}
		if errs := c.Validate(); len(errs) > 0 {
			return fmt.Errorf("%s: %v", name, errs)
		}
		if err := measure(out, log, name, c, *seed, threads, *rounds, ncpu); err != nil {
			return err
		}
	}
	return nil
}

// measure runs c on each thread count, rounds times, and prints its rows.
func measure(out, log io.Writer, name string, c config.Config, seed uint64, threads []int, rounds, ncpu int) error {
	wall := make([][]float64, len(threads))
	cpu := make([][]float64, len(threads))
	busy := false
	for r := range rounds {
		var base []byte
		for i, t := range threads {
			s, err := sim.New(c, seed)
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			s.SetThreads(t)
			runtime.GC()
			busy = busy || loadHigh(ncpu)
			u0 := cpuSeconds()
			start := time.Now()
			res, err := s.Run(context.Background(), nil)
			w := time.Since(start).Seconds()
			u := cpuSeconds() - u0
			if err != nil {
				return fmt.Errorf("%s, %d threads: %v", name, t, err)
			}
			if t > 1 && res.Sequential != "" {
				return fmt.Errorf("%s, %d threads: the engine ran it sequentially (%s): no speed-up to measure", name, t, res.Sequential)
			}
			if perturb != nil {
				perturb(t, res)
			}
			res.CPUSeconds = 0
			doc, err := json.Marshal(res)
			if err != nil {
				return err
			}
			if t == 1 {
				base = doc
			} else if !bytes.Equal(doc, base) {
				return fmt.Errorf("%s, round %d: the result on %d threads differs from the 1-thread run's", name, r+1, t)
			}
			wall[i], cpu[i] = append(wall[i], w), append(cpu[i], u)
			fmt.Fprintf(log, "%s, round %d, %d threads: %.2f s wall, %.2f s CPU\n", name, r+1, t, w, u)
		}
	}
	sz, _ := c.Topology.Sizes()
	net := fmt.Sprintf("%s (%s nodes), %s, UN %g, %s + %s", name, thousands(sz.Nodes), c.Routing.Name, c.Traffic.Load,
		thousands(c.Sim.Warmup), thousands(c.Sim.Cycles))
	base := median(wall[0])
	for i, t := range threads {
		ws := make([]string, len(wall[i]))
		for k, w := range wall[i] {
			ws[k] = fmt.Sprintf("%.2f", w)
		}
		m := median(wall[i])
		up := base / m
		eff := fmt.Sprintf("%.0f %%", 100*up/float64(t))
		machine := fmt.Sprintf("%d CPUs", ncpu)
		switch {
		case t > ncpu:
			machine += fmt.Sprintf(", oversubscribed (%d threads): not an efficiency figure", t)
		case busy:
			machine += ", load above half the CPUs: not an efficiency figure"
		}
		doc := ""
		if t > 1 {
			doc = ", document identical"
		}
		fmt.Fprintf(out, "| %s | %d | %s s | %.2f s | %.2f | %s | %.2f s | %s%s |\n",
			net, t, strings.Join(ws, ", "), m, up, eff, median(cpu[i]), machine, doc)
	}
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// thousands writes n with thousands separators (16,512).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOOS + "/" + runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOOS + "/" + runtime.GOARCH
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// loadHigh: the 1-minute load average exceeds half the CPUs.
func loadHigh(ncpu int) bool {
	f := strings.Fields(loadAverage())
	if len(f) == 0 {
		return false
	}
	l, err := strconv.ParseFloat(f[0], 64)
	return err == nil && l > float64(ncpu)/2
}

func revision() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 7 {
				return s.Value[:7]
			}
		}
	}
	if b, err := exec.Command("git", "rev-parse", "--short=7", "HEAD").Output(); err == nil { // go run stamps none
		return strings.TrimSpace(string(b))
	}
	return "(revision unknown)"
}
