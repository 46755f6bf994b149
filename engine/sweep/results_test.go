package sweep

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
)

// retained is the heap that n results made by mk keep, per result: the live
// heap after a collection with them held, less the one before.
func retained(t *testing.T, n int, mk func(i int) *result.Result) int64 {
	t.Helper()
	var a, b runtime.MemStats
	mk(0) // what a first run initialises once is not the results'
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&a)
	keep := make([]*result.Result, n)
	for i := range keep {
		keep[i] = mk(i)
	}
	runtime.GC()
	runtime.GC() // and what pools dropped at the first
	runtime.ReadMemStats(&b)
	runtime.KeepAlive(keep)
	return (int64(b.HeapAlloc) - int64(a.HeapAlloc)) / int64(n)
}

// retainedRuns is the heap that Run's outcome of n seeds of c keeps, per
// run (its aggregate included): what the CLI keeps.
func retainedRuns(t *testing.T, c config.Config, n int) int64 {
	t.Helper()
	c.Sim.Seeds = n
	sp := Spec{Series: []config.Config{c}, Loads: []float64{c.Traffic.Load}}
	var a, b runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&a)
	out, err := Run(context.Background(), sp, Options{Workers: 1})
	if err != nil || len(out.Runs) != n {
		t.Fatalf("%d runs: %v", len(out.Runs), err)
	}
	runtime.GC()
	runtime.GC() // and what pools dropped at the first
	runtime.ReadMemStats(&b)
	runtime.KeepAlive(out)
	return (int64(b.HeapAlloc) - int64(a.HeapAlloc)) / int64(n)
}

func runOne(t *testing.T, c config.Config, seed uint64) *result.Result {
	t.Helper()
	s, err := sim.New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tiny is the smallest Dragonfly (h=1, a=2, p=1: 6 routers), so that a
// parameter's extreme runs for its whole length in a test.
func tiny() config.Config {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 1, 2, 1
	c.Sim.Warmup, c.Sim.Cycles = 0, 2000
	return c
}

// config.Config.ResultBytes against the heap that finished results keep, at
// the extremes of each parameter that makes a result grow, both as the CLI
// keeps them (Run's outcome) and as the page keeps them (decoded from a
// worker's msgpack): the bound holds, and the terms that
// every run fills (all but a histogram's unhit bins and the unreached end
// of a Graph500 run's cap) are within 2× (+4 KiB) of what is kept.
func TestResultBytesBoundRetainedHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a few hundred thousand cycles")
	}
	for _, tc := range []struct {
		name string
		edit func(*config.Config)
	}{
		{"the tiny network", func(c *config.Config) {}},
		{"sim.interval=1 over 40,000 cycles", func(c *config.Config) { c.Sim.Cycles, c.Sim.Interval = 40000, 1 }},
		{"sim.interval=1 with ACOR-Switch", func(c *config.Config) {
			c.Sim.Cycles, c.Sim.Interval, c.Routing.Name = 40000, 1, "ACOR"
		}},
		{"sim.histMax=1,000,000", func(c *config.Config) { c.Sim.HistMax = 1000000 }},
		{"sim.histMax=16, saturated (every bin hit)", func(c *config.Config) {
			c.Sim.HistMax, c.Traffic.Load, c.Traffic.Pattern = 16, 1, "ADV"
		}},
		{"h=4, 264 routers", func(c *config.Config) {
			c.Topology.H, c.Topology.A, c.Topology.P = 4, 8, 4
			c.Sim.Cycles = 300
		}},
		{"Graph500, sim.interval=1", func(c *config.Config) {
			*c, _ = config.PresetByName("graph500-h2")
			c.Workload.Scale, c.Sim.Interval, c.Sim.Cycles = 8, 1, 1000000
		}},
	} {
		c := tiny()
		tc.edit(&c)
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		var bound, filled int64
		for _, p := range c.ResultParts() {
			bound += p.Bytes
			if !p.Full {
				filled += p.Bytes
			}
		}
		n := int(max(8, min(200, (4<<20)/bound))) // a few MiB, above the noise
		cli := retainedRuns(t, c, n)
		wire, err := msgpack.Marshal(runOne(t, c, 1))
		if err != nil {
			t.Fatal(err)
		}
		page := retained(t, 4*n, func(int) *result.Result {
			var r result.Result
			if err := msgpack.Unmarshal(wire, &r); err != nil {
				t.Fatal(err)
			}
			return &r
		})
		t.Logf("%-42s kept per result: CLI %8.1f KiB, page %8.1f KiB; bound %8.1f KiB, of it filled by every run %8.1f KiB",
			tc.name, kib(cli), kib(page), kib(bound), kib(filled))
		for _, kept := range []struct {
			by    string
			bytes int64
		}{{"the CLI", cli}, {"the page", page}} {
			if kept.bytes > bound {
				t.Errorf("%s: %s keeps %.1f KiB per result, more than the %.1f KiB bound", tc.name, kept.by, kib(kept.bytes), kib(bound))
			}
		}
		if filled > 2*max(cli, page)+4<<10 {
			t.Errorf("%s: the terms every run fills make %.1f KiB, more than twice the %.1f KiB kept", tc.name, kib(filled), kib(max(cli, page)))
		}
	}
}

func kib(b int64) float64 { return float64(b) / 1024 }

// waysOut checks each way out that a ResultsError's message offers (the
// number after said, applied to sp by apply): it fits, and is the most that
// does.
func waysOut(t *testing.T, sp Spec, msg string, ways map[string]func(*Spec, int)) {
	t.Helper()
	for said, apply := range ways {
		_, after, ok := strings.Cut(msg, said)
		v, err := strconv.Atoi(strings.FieldsFunc(after+"x", func(r rune) bool { return r < '0' || r > '9' })[0])
		if !ok || err != nil {
			t.Errorf("the error does not offer %q…: %s", said, msg)
			continue
		}
		fits, over := sp, sp
		fits.Series = append([]config.Config(nil), sp.Series...)
		over.Series = append([]config.Config(nil), sp.Series...)
		apply(&fits, v)
		if err := fits.CheckResults(); err != nil {
			t.Errorf("%s%d does not fit: %v", said, v, err)
		}
		if said == "or at most " && v+1 > len(sp.Loads) {
			continue
		}
		apply(&over, v+1)
		if over.CheckResults() == nil {
			t.Errorf("%s%d would fit too: the error asks for more than needed", said, v+1)
		}
	}
}

// The experiment: sim.histMax = 1,000,000 (8 MB of bins per result)
// over 20 loads × 1,000 seeds keeps up to 149 GiB of results. Spec.Jobs,
// which 'phitsim run' and 'phitsim sweep' call before running anything,
// refuses it naming sim.histMax and how far to lower it; the presets'
// experiments pass.
func TestResultsOfAnExperimentMustFit(t *testing.T) {
	c, _ := config.PresetByName("h2")
	c.Sim.HistMax, c.Sim.Seeds = 1000000, 1000
	var loads []float64
	for i := 1; i <= 20; i++ {
		loads = append(loads, float64(i)/20)
	}
	sp := Spec{Series: []config.Config{c}, Loads: loads}
	jobs, err := sp.Jobs()
	var re *ResultsError
	if !errors.As(err, &re) || jobs != nil {
		t.Fatalf("want a ResultsError and no job, got %d jobs, %v", len(jobs), err)
	}
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{"sim.histMax = 1000000: ", "20000 runs keep up to 149.", "GiB",
		"7.6 MiB each for the latency histogram", "at most " + config.FormatBytes(MaxResultsBytes) + " fit"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q: %s", want, msg)
		}
	}
	if re.Path != "sim.histMax" || re.Series != 0 {
		t.Errorf("names series %d %s, want series 0 sim.histMax", re.Series, re.Path)
	}
	histMax := func(sp *Spec, v int) { sp.Series[0].Sim.HistMax = v }
	seeds := func(sp *Spec, v int) { sp.Series[0].Sim.Seeds = v }
	values := func(sp *Spec, v int) { sp.Loads = sp.Loads[:v] }
	waysOut(t, sp, msg, map[string]func(*Spec, int){"lower sim.histMax to ": histMax, "sim.seeds ≤ ": seeds})
	if strings.Contains(msg, "values of") {
		t.Errorf("one load of 1,000 seeds does not fit either, yet the error offers fewer loads: %s", msg)
	}
	// with 10 seeds, fewer loads fit too
	sp.Series[0].Sim.Seeds = 10
	err = sp.CheckResults()
	if err == nil || !strings.Contains(err.Error(), " of the 20 values of traffic.load") {
		t.Fatalf("want fewer loads offered, got %v", err)
	}
	waysOut(t, sp, err.Error(), map[string]func(*Spec, int){"lower sim.histMax to ": histMax, "sim.seeds ≤ ": seeds, "or at most ": values})

	// a time series sampled every cycle: the error offers the shortest
	// sim.interval that fits
	interval := c.Sim.Interval
	c.Sim.HistMax, c.Sim.Seeds, c.Sim.Interval = 2000, 100, 1
	sp.Series = []config.Config{c}
	err = sp.CheckResults()
	if !errors.As(err, &re) || re.Path != "sim.interval" || re.Value != "1" {
		t.Fatalf("want sim.interval named, got %v", err)
	}
	_, after, _ := strings.Cut(err.Error(), "raise sim.interval to ")
	v, _ := strconv.Atoi(strings.Fields(after + " ")[0])
	for _, tc := range []struct {
		interval int
		fits     bool
	}{{v, true}, {v - 1, false}} {
		sp.Series[0].Sim.Interval = tc.interval
		if got := sp.CheckResults() == nil; got != tc.fits || v < 2 {
			t.Errorf("sim.interval = %d offered by %q: fits %v", tc.interval, err, got)
		}
	}
	c.Sim.HistMax, c.Sim.Seeds, c.Sim.Interval = 1000000, 1000, interval

	// a series that keeps little beside one that keeps much: the error names
	// the one to change
	small := c
	small.Name, small.Sim.HistMax, small.Sim.Seeds = "small", 2000, 5
	sp.Series = []config.Config{small, c}
	if err := sp.CheckResults(); !errors.As(err, &re) || re.Series != 1 || !strings.HasPrefix(err.Error(), "series 2 (") {
		t.Errorf("want series 2 named, got %v", err)
	}

	// the presets' comparisons fit
	for _, x := range Experiments() {
		if err := x.Spec.CheckResults(); err != nil {
			t.Errorf("%s: %v", x.Name, err)
		}
	}
	sp.Series = []config.Config{small}
	if err := sp.CheckResults(); err != nil {
		t.Errorf("20 loads × 5 seeds of the default histogram: %v", err)
	}
}
