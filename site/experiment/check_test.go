package experiment

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
)

// The experiment bar's fields: bad text and out-of-range values are errors
// naming the field, the parameter and its declared range; nothing is rounded
// or clamped.
func TestParseBarFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"load abc", second(ParseValue(LoadParam, FieldFrom, "abc")), "from: traffic.load = abc: must be a number in [0, 1]"},
		{"load 4", second(ParseValue(LoadParam, FieldTo, "4")), "to: traffic.load = 4: must be in [0, 1]"},
		{"load -0.1", second(ParseValue(LoadParam, FieldFrom, "-0.1")), "from: traffic.load = -0.1: must be in [0, 1]"},
		{"buffer 8.5", second(ParseValue("router.localBuffer", FieldFrom, "8.5")), "router.localBuffer = 8.5: must be a whole number in [1, "},
		{"seeds 0", second(ParseSeeds("0")), "seeds per point: sim.seeds = 0: must be in [1, 1000]"},
		{"seeds abc", second(ParseSeeds("abc")), "seeds per point: sim.seeds = abc: must be a whole number in [1, 1000]"},
		{"seeds 100000", second(ParseSeeds("100000")), "seeds per point: sim.seeds = 100000: must be in [1, 1000]"},
		{"step 0", second(ParseStep(LoadParam, "0")), "step: 0: must be > 0"},
		{"step abc", second(ParseStep(LoadParam, "abc")), "step: abc: must be a number > 0"},
		{"int step 2.5", second(ParseStep("router.localBuffer", "2.5")), "whole number"},
		{"list 4", second(ParseList(LoadParam, "0.1, 4, 8, 15")), "values: traffic.load = 4: must be in [0, 1]"},
		{"list abc", second(ParseList(LoadParam, "0.1, abc")), "values: traffic.load = abc: must be a number in [0, 1]"},
		{"list gap", second(ParseList(LoadParam, "0.1,,0.2")), "values: value 2 is empty"},
		{"not numeric", second(ParseValue("routing.name", FieldFrom, "1")), "swept variable: sweep.param = routing.name: not a numeric parameter"},
		{"physical basis", second(ParseValue("physical.linkGbps", FieldFrom, "40")), "sweep.param = physical.linkGbps: the physical basis only converts"},
	} {
		if tc.err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		var fe *FieldError
		if !errors.As(tc.err, &fe) {
			t.Errorf("%s: %T is not a *FieldError", tc.name, tc.err)
		}
		if !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, tc.err, tc.want)
		}
	}
	if x, err := ParseValue(LoadParam, FieldFrom, " 0.25 "); err != nil || x != 0.25 {
		t.Errorf("0.25: %v %v", x, err)
	}
	if n, err := ParseSeeds("1000"); err != nil || n != 1000 {
		t.Errorf("seeds 1000: %v %v", n, err)
	}
	if l, err := ParseList("workload.tq", "0.5, 1,2.25"); err != nil || !reflect.DeepEqual(l, []float64{0.5, 1, 2.25}) {
		t.Errorf("list: %v %v", l, err)
	}
	if l, err := ParseList(LoadParam, "  "); err != nil || l != nil {
		t.Errorf("empty list: %v %v", l, err)
	}
}

func second[T any](_ T, err error) error { return err }

// Check lists every problem, numbering series from 1 by name, and Jobs
// refuses the same experiment in the same words.
func TestCheckNamesSeries(t *testing.T) {
	e := Default() // MIN, VAL
	if errs := e.Check(); len(errs) != 0 {
		t.Fatalf("default experiment: %v", errs)
	}
	e.Series[1].Traffic.Load = 2 // ignored by a load sweep: still a bad value
	e.Series[1].Sim.Seeds = 0
	e.Sweep.List = []float64{0.1, 4, 8, 15}
	errs := e.Check()
	var got []string
	for _, fe := range errs {
		got = append(got, fe.Error())
	}
	for _, want := range []string{
		"values: traffic.load = 4: must be in [0, 1]",
		"values: traffic.load = 15: must be in [0, 1]",
		"series 2 (VAL): traffic.load = 2: must be in [0, 1]",
		"series 2 (VAL): sim.seeds = 0: must be in [1, 1000]",
	} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("missing %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if _, err := e.Jobs(); err == nil || !strings.Contains(err.Error(), "series 2 (VAL): sim.seeds = 0") {
		t.Errorf("Jobs: %v", err)
	}
	// a value in range that breaks a series at that point
	e = Default()
	e.Sweep = Sweep{Param: "router.localBuffer", From: 4, To: 16, Step: 4}
	errs = e.Check()
	if len(errs) != 2 || errs[0].Series != 1 || errs[0].At != "router.localBuffer = 4" || !strings.Contains(errs[0].Msg, "whole packet") {
		t.Errorf("buffer below a packet: %v", errs)
	}
}

// The reproduction: a link with sweep values past the load's range
// and bad seeds decodes with the values kept and reported, not accepted.
func TestURLReportsOutOfRangeSweepAndSeeds(t *testing.T) {
	l, errs := Decode("#sweep=0.1,4,8,15&sim.seeds=0")
	if !reflect.DeepEqual(l.Exp.Sweep.List, []float64{0.1, 4, 8, 15}) || l.Exp.Series[0].Sim.Seeds != 0 {
		t.Errorf("values rewritten: %+v, seeds %d", l.Exp.Sweep, l.Exp.Series[0].Sim.Seeds)
	}
	var all []string
	for _, err := range errs {
		all = append(all, err.Error())
	}
	s := strings.Join(all, "\n")
	for _, want := range []string{"link: values: traffic.load = 4: must be in [0, 1]", "link: values: traffic.load = 8:",
		"link: values: traffic.load = 15:", "link: series 1 (MIN UN): sim.seeds = 0: must be in [1, 1000]"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	if _, err := l.Exp.Jobs(); err == nil {
		t.Error("the link's experiment runs")
	}
	_, errs = Decode("#x=router.localBuffer&sweep=8:20:2.5")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "step") {
		t.Errorf("fractional step of an integer parameter: %v", errs)
	}
}

// Every preset whose run is shorter or smaller than its paper's says so,
// with the paper's own run length; the others say nothing.
func TestPresetsSayWhenShortened(t *testing.T) {
	n := 0
	for _, p := range Presets() {
		c := p.Exp.Series[0]
		note := p.PaperRun()
		short := c.Sim.Warmup < 60000 || c.Sim.Cycles < 60000 || c.Sim.Seeds < 5
		b, physical := c.Basis()
		sz, _ := c.Topology.Sizes()
		switch {
		case c.Graph500():
			short = c.Workload.Scale < 26
		case physical && c.Topology.Kind == "fattree": // the RECN paper's 2,000 µs
			short = b.Ns(float64(c.Sim.Warmup+c.Sim.Cycles)) < config.RECNRunNs
		case physical:
			short = b.Ns(float64(c.Sim.Warmup)) < 2.4e6 || b.Ns(float64(c.Sim.Cycles)) < 2.4e6 || c.Sim.Seeds < 10 || sz.Nodes < 5256
		}
		if short != (note != "") {
			t.Errorf("%s: shortened %v, note %q", p.Name, short, note)
			continue
		}
		if note == "" {
			continue
		}
		n++
		switch {
		case physical && c.Topology.Kind == "fattree":
			// the RECN paper's runs: 2,000 µs (Fig. 2)
			if !strings.Contains(note, "RECN paper's Fig. 2") || !strings.Contains(note, "("+thousands(c.Sim.Warmup+c.Sim.Cycles)+" cycles of 8 ns)") {
				t.Errorf("%s: %q", p.Name, note)
			}
		case physical:
			// the QCN-Switch paper's Table I system: its run in ms
			if !strings.Contains(note, "QCN-Switch paper") || !strings.Contains(note, "2.4 ms + 2.4 ms, 10 simulations per point, 5,256 nodes") ||
				!strings.Contains(note, "("+thousands(c.Sim.Warmup)+" + "+thousands(c.Sim.Cycles)+" cycles of 20 ns)") {
				t.Errorf("%s: %q", p.Name, note)
			}
		case c.Graph500():
			if !strings.Contains(note, "s = 26") || !strings.Contains(note, "§2.3.2") {
				t.Errorf("%s: %q", p.Name, note)
			}
		case c.Routing.Name == "ACOR" || c.Routing.Name == "PB_ACOR" || strings.HasPrefix(p.Name, "acor-") || strings.HasPrefix(p.Name, "fig-acor-"):
			if !strings.Contains(note, "ACOR paper") || !strings.Contains(note, "5,256 hosts") {
				t.Errorf("%s: %q", p.Name, note)
			}
		default:
			if !strings.Contains(note, "60,000 + 60,000 cycles, 5 seeds") || !strings.Contains(note, "Table 1.2") ||
				!strings.Contains(note, thousands(c.Sim.Warmup)+" warm-up + "+thousands(c.Sim.Cycles)) {
				t.Errorf("%s: %q", p.Name, note)
			}
		}
	}
	if n == 0 {
		t.Fatal("no preset is shortened?")
	}
	if p, _ := presetNamed("thesis-adv1"); !strings.Contains(p.PaperRun(), "4,000 warm-up + 4,000 measured cycles, 2 seeds per point") {
		t.Errorf("thesis-adv1: %q", p.PaperRun())
	}
	one, _ := presetNamed("thesis-adv1")
	one.Exp = one.Exp.Clone()
	for i := range one.Exp.Series {
		one.Exp.Series[i].Sim.Seeds = 1
	}
	if !strings.Contains(one.PaperRun(), "measured cycles, 1 seed per point") {
		t.Errorf("one seed: %q", one.PaperRun())
	}
	for _, p := range Presets() {
		if note := p.PaperRun(); strings.Contains(note, "(s)") {
			t.Errorf("%s: %q", p.Name, note)
		}
	}
	if g, _ := presetNamed("graph500"); !strings.Contains(g.PaperRun(), "1 BFS root per point") && !strings.Contains(g.PaperRun(), "3 BFS roots per point") {
		t.Errorf("graph500: %q", g.PaperRun())
	}
	if got := (Preset{Exp: Experiment{Series: []config.Config{config.Default()}}}).PaperRun(); got != "" {
		t.Errorf("the thesis's own run is called shortened: %q", got)
	}
}

func presetNamed(name string) (Preset, bool) {
	for _, p := range Presets() {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// An experiment that would build more runs than a page can hold is refused
// before any job is built, naming the seeds field.
func TestTooManyRuns(t *testing.T) {
	e := Default()
	e.Sweep = Sweep{Param: LoadParam, List: make([]float64, MaxPoints)}
	for i := range e.Series {
		e.Series[i].Sim.Seeds = 1000
	}
	errs := e.Check()
	if len(errs) != 1 || errs[0].Field != FieldSeeds || !strings.Contains(errs[0].Error(), "400000 runs; at most 20000") {
		t.Fatalf("%v", errs)
	}
	if _, err := e.Jobs(); err == nil {
		t.Error("Jobs built 400,000 runs")
	}
	for i := range e.Series {
		e.Series[i].Sim.Seeds = 50
	}
	if errs := e.Check(); len(errs) != 0 {
		t.Errorf("20,000 runs refused: %v", errs)
	}
	// one value: worded in the singular
	e.Sweep = Sweep{Param: LoadParam, From: 0.5, To: 0.5}
	for len(e.Series) < 21 {
		e.Series = append(e.Series, e.Series[0])
	}
	for i := range e.Series {
		e.Series[i].Sim.Seeds = 1000
	}
	if errs := e.Check(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "21 series × 1 value × their seeds make 21000 runs") {
		t.Errorf("one value: %v", errs)
	}
}

// The experiment: sim.histMax = 1,000,000 (8 MB of bins per run)
// over 20 loads × 1,000 seeds is 20,000 runs, as many as the page allows,
// that keep up to 149 GiB of results: Check refuses it naming sim.histMax in
// its series and how far to lower it, Jobs builds nothing; lowered as it
// says, the experiment runs. The presets pass (TestPresetsValid).
func TestResultsThatCannotFitAreRefused(t *testing.T) {
	e := Default()
	e.Series = e.Series[:1]
	e.Series[0].Sim.HistMax, e.Series[0].Sim.Seeds = 1000000, 1000
	e.Sweep = Sweep{Param: LoadParam, From: 0.05, To: 1, Step: 0.05}
	errs := e.Check()
	if len(errs) != 1 {
		t.Fatalf("want one error, got %v", errs)
	}
	fe := errs[0]
	msg := fe.Error()
	t.Log(msg)
	if fe.Series != 1 || fe.Field != "sim.histMax" || fe.Value != "1000000" ||
		!strings.HasPrefix(msg, "series 1 (MIN): sim.histMax = 1000000: the experiment's 20000 runs keep up to 149.") {
		t.Errorf("want series 1's sim.histMax named, got %+v", fe)
	}
	_, after, ok := strings.Cut(msg, "lower sim.histMax to ")
	v, err := strconv.Atoi(strings.Fields(after + " ")[0])
	if !ok || err != nil || v < 16 {
		t.Fatalf("no new sim.histMax offered: %s", msg)
	}
	if _, err := e.Jobs(); err == nil {
		t.Error("Jobs built the runs")
	}
	e.Series[0].Sim.HistMax = v
	if errs := e.Check(); len(errs) != 0 {
		t.Errorf("sim.histMax = %d, as offered: %v", v, errs)
	}

	// two series: the one whose histogram is large is named, as the page
	// numbers it; when every run's configuration and metrics dominate, the
	// bar's seeds are
	e = Default()
	e.Series[1].Sim.HistMax, e.Series[1].Sim.Seeds = 1000000, 200
	if errs := e.Check(); len(errs) != 1 || errs[0].Series != 2 || !strings.HasPrefix(errs[0].Error(), "series 2 (VAL): sim.histMax = 1000000: ") {
		t.Errorf("want series 2's sim.histMax named, got %v", errs)
	}
}

// MaxResultsBytes against what the page does with the results it keeps:
// when an experiment ends it renders them as the export's indented JSON
// (Results.JSON) and keeps that text as a string. Results whose bound is
// tight (long time series, as a worker sends them) are held, exported and
// copied, with the heap (live objects and garbage not yet collected)
// sampled on the way: its peak, scaled to MaxResultsBytes, leaves at least
// 128 MiB of a 4 GiB tab to ui.wasm itself.
func TestTheLargestExperimentExportsInATab(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates about 300 MB")
	}
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 1, 2, 1
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Interval, c.Sim.Seeds = 0, 40000, 1, 8
	wire := workerResult(t, c)
	e := Experiment{Series: []config.Config{c}, Sweep: Sweep{Param: LoadParam, From: 0.1, To: 0.2, Step: 0.1}}
	res, err := NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(heap); return heap[0].Value.Uint64() }
	runtime.GC()
	runtime.GC()
	before := read()
	for i := range res.Runs {
		var x result.Result
		if err := msgpack.Unmarshal(wire, &x); err != nil {
			t.Fatal(err)
		}
		res.Runs[i] = &x
	}
	runtime.GC()
	kept := read() - before
	var peak atomic.Uint64
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if h := read(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Microsecond):
			}
		}
	}()
	b, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	close(stop)
	<-stopped
	runtime.KeepAlive(text)
	bound := float64(int64(len(res.Runs)) * c.ResultBytes())
	grew := float64(max(peak.Load(), before+kept) - before)
	scaled := grew / bound * sweep.MaxResultsBytes
	t.Logf("%d runs: kept %.1f MiB, bound %.1f MiB; JSON %.1f MiB; heap peak %.1f MiB (%.2f× the bound): %.2f GiB at %.0f MiB of results",
		len(res.Runs), float64(kept)/(1<<20), bound/(1<<20), float64(len(text))/(1<<20), grew/(1<<20), grew/bound, scaled/(1<<30), float64(sweep.MaxResultsBytes)/(1<<20))
	if float64(kept) > bound || grew < float64(kept+uint64(len(text))) {
		t.Fatalf("kept %d bytes, bound %.0f; heap grew %.0f for a %d-byte export: the measure is wrong", kept, bound, grew, len(text))
	}
	if scaled > 4*(1<<30)-128<<20 {
		t.Errorf("at %.0f MiB of results the page's heap would peak at %.2f GiB", float64(sweep.MaxResultsBytes)/(1<<20), scaled/(1<<30))
	}
}

// workerResult is the msgpack of a run of c, as a worker sends it.
func workerResult(t *testing.T, c config.Config) []byte {
	s, err := sim.New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.AddBusiestLink(r) // as the worker
	wire, err := msgpack.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return wire
}

// The audit's reproduction: a swept parameter that does not apply to a
// series (workload.tq on synthetic traffic, or a Graph500 preset's series
// switched to synthetic) is reported on the bar's swept-variable field,
// naming the series and the condition, and the experiment does not run.
func TestCheckSweptParameterMustApplyToEverySeries(t *testing.T) {
	l, errs := Decode("#x=workload.tq&sweep=1:2:1")
	var all []string
	for _, err := range errs {
		all = append(all, err.Error())
	}
	want := "link: swept variable: sweep.param = workload.tq: does not apply to series 1 (MIN UN) (it applies when workload.kind=graph500)"
	if len(all) != 1 || all[0] != want {
		t.Errorf("link errors:\n%s\nwant\n%s", strings.Join(all, "\n"), want)
	}
	if _, err := l.Exp.Jobs(); err == nil {
		t.Error("a tq sweep of synthetic traffic runs")
	}
	e, ok := PresetByName("graph500-tq-routing")
	if !ok {
		t.Fatal("no graph500-tq-routing preset")
	}
	if errs := e.Check(); len(errs) != 0 {
		t.Fatalf("preset: %v", errs)
	}
	e.Series[2].Workload.Kind = "synthetic"
	errs2 := e.Check()
	if len(errs2) != 1 || errs2[0].Series != 0 || errs2[0].Field != FieldParam ||
		errs2[0].Error() != "swept variable: sweep.param = workload.tq: does not apply to series 3 (PB) (it applies when workload.kind=graph500)" {
		t.Errorf("series 3 synthetic: %v", errs2)
	}
	if _, err := e.Jobs(); err == nil {
		t.Error("Jobs ran it")
	}
	// the load applies to every series, Graph500 or not
	e.Sweep = DefaultSweep()
	e.Series = e.Series[1:3]
	for i := range e.Series {
		e.Series[i].Sim.Cycles, e.Series[i].Sim.Warmup = 1000, 100
	}
	for _, fe := range e.Check() {
		if fe.Field == FieldParam {
			t.Errorf("load sweep: %v", fe)
		}
	}
}

// Integer fields of the bar and of a link take whole numbers written in
// float syntax (the range they are shown reads [1, 100000000]); fractions
// are still refused.
func TestBarAndLinkTakeWholeNumbersInFloatSyntax(t *testing.T) {
	if x, err := ParseValue("sim.cycles", FieldFrom, "1e3"); err != nil || x != 1000 {
		t.Errorf("from 1e3: %v, %v", x, err)
	}
	if xs, err := ParseList("router.localBuffer", "8, 1.6e1, 32.0"); err != nil || !reflect.DeepEqual(xs, []float64{8, 16, 32}) {
		t.Errorf("list: %v, %v", xs, err)
	}
	if n, err := ParseSeeds("1e2"); err != nil || n != 100 {
		t.Errorf("seeds 1e2: %d, %v", n, err)
	}
	if _, err := ParseSeeds("1e4"); err == nil || err.Error() != "seeds per point: sim.seeds = 1e4: must be in [1, 1000]" {
		t.Errorf("seeds 1e4: %v", err)
	}
	if _, err := ParseValue("sim.cycles", FieldTo, "1e-3"); err == nil || !strings.Contains(err.Error(), "must be a whole number in [1, 100000000]") {
		t.Errorf("to 1e-3: %v", err)
	}
	l, errs := Decode("#sim.cycles=1e3&sim.warmup=1000.0")
	if len(errs) != 0 || l.Exp.Series[0].Sim.Cycles != 1000 || l.Exp.Series[0].Sim.Warmup != 1000 {
		t.Errorf("link: cycles %d warmup %d, %v", l.Exp.Series[0].Sim.Cycles, l.Exp.Series[0].Sim.Warmup, errs)
	}
}

// Seeds typed past their range (100000 on the bar) are said as the range of
// sim.seeds, not as the run count they would make.
func TestSeedsOutOfRangeBeforeRunCount(t *testing.T) {
	e := Default()
	for i := range e.Series {
		e.Series[i].Sim.Seeds = 100000
	}
	errs := e.Check()
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "sim.seeds = 100000: must be in [1, 1000]") {
		t.Fatalf("%v", errs)
	}
	for _, fe := range errs {
		if strings.Contains(fe.Msg, "runs; at most") {
			t.Errorf("also said as a run count: %v", fe)
		}
	}
}
