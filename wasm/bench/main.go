// Command bench times the engine on a fixed set of runs, to compare its
// speed compiled natively and to WebAssembly (run under Node.js):
//
//	go run ./wasm/bench
//	GOOS=js GOARCH=wasm go run -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm/bench
//
// It prints one line per run and the total in cycles per second; the results
// themselves are identical on both (their checksum is printed).
//
// With -page NAME it runs every run of the page's preset NAME instead, one
// after another on one thread as one Web Worker runs them, and prints each
// run's time and the preset's time on -workers workers when the page's pool
// hands them out in order (each free worker takes the next run):
//
//	GOOS=js GOARCH=wasm go run -exec=… ./wasm/bench -page qcn-fig8-adv1-quick
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"phitsim/engine/config"
	"phitsim/engine/sim"
	"phitsim/site/experiment"
)

func main() {
	preset := flag.String("preset", "h2", "engine preset")
	cycles := flag.Int("cycles", 8000, "measured cycles (warm-up: a quarter)")
	profile := flag.String("cpuprofile", "", "write a CPU profile (e.g. for wasm/worker/default.pgo)")
	page := flag.String("page", "", "run the page preset of this name (site/experiment.Presets) instead")
	workers := flag.Int("workers", 2, "with -page: the workers the preset's time is given on")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *page != "" {
		if err := runPage(*page, *workers); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	c, err := config.PresetByName(*preset)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	c.Sim.Warmup, c.Sim.Cycles = *cycles/4, *cycles
	h := fnv.New64a()
	var total time.Duration
	var simCycles int64
	for _, routing := range []string{"MIN", "VAL"} {
		for _, load := range []float64{0.2, 0.5, 0.8} {
			c.Routing.Name, c.Traffic.Load = routing, load
			s, err := sim.New(c, 1)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			t0 := time.Now()
			r, err := s.Run(context.Background(), nil)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			d := time.Since(t0)
			total += d
			simCycles += r.SimCycles
			r.CPUSeconds = 0
			b, _ := json.Marshal(r)
			h.Write(b)
			fmt.Printf("%-4s load %.1f: %7.1f ms  accepted %.4f latency %.1f\n", routing, load, d.Seconds()*1000, r.Accepted, r.Latency.Avg)
		}
	}
	fmt.Printf("%s/%s %s: total %.2f s, %.0f cycles/s, results checksum %016x\n", runtime.GOOS, runtime.GOARCH, *preset,
		total.Seconds(), float64(simCycles)/total.Seconds(), h.Sum64())
}

// runPage runs the page preset's runs in order and prints their times and
// the preset's time on workers workers (PoolSeconds).
func runPage(name string, workers int) error {
	e, ok := experiment.PresetByName(name)
	if !ok {
		return fmt.Errorf("no page preset %q", name)
	}
	jobs, err := e.Jobs()
	if err != nil {
		return err
	}
	secs := make([]float64, len(jobs))
	var total float64
	for i, j := range jobs {
		s, err := sim.New(j.Config, j.Seed)
		if err != nil {
			return err
		}
		t0, c0 := time.Now(), cpuSeconds()
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			return err
		}
		secs[i] = time.Since(t0).Seconds()
		total += secs[i]
		cpu := ""
		if c0 > 0 {
			cpu = fmt.Sprintf(" (CPU %.2f s)", cpuSeconds()-c0)
		}
		fmt.Printf("%-28s x %-6g seed %d: %6.2f s%s  accepted %.4f latency %8.1f misrouted %5.1f%%\n",
			e.SeriesName(j.Series), j.X, j.Seed, secs[i], cpu, r.Accepted, r.Latency.Avg, 100*r.Misrouted.Fraction)
	}
	fmt.Printf("%s/%s %s: %d runs, %.1f s on one worker, %.1f s on %d workers (longest run %.1f s)\n", runtime.GOOS, runtime.GOARCH,
		name, len(jobs), total, experiment.PoolSeconds(secs, workers), workers, slices.Max(secs))
	return nil
}
