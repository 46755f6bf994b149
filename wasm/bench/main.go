// Command bench times the engine on a fixed set of runs, to compare its
// speed compiled natively and to WebAssembly (run under Node.js):
//
//	go run ./wasm/bench
//	GOOS=js GOARCH=wasm go run -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm/bench
//
// It prints one line per run and the total in cycles per second; the results
// themselves are identical on both (their checksum is printed).
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
	"time"

	"phitsim/engine/config"
	"phitsim/engine/sim"
)

func main() {
	preset := flag.String("preset", "h2", "engine preset")
	cycles := flag.Int("cycles", 8000, "measured cycles (warm-up: a quarter)")
	profile := flag.String("cpuprofile", "", "write a CPU profile (e.g. for wasm/worker/default.pgo)")
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
