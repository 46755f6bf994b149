// Command phitsim runs the simulator natively: one point, a sweep of points,
// and the configuration tools (presets, params, validate).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

const usage = `phitsim — cycle-accurate Dragonfly network simulator

Usage:
  phitsim run      [-config FILE | -preset NAME] [-set path=value]... [-seeds N] [-out FILE] [-fogsim]
  phitsim sweep    [-config FILE | -preset NAME]... [-set path=value]... [-series path=v1,v2,...]
                   -loads 0.1:0.9:0.1 | -param PATH -values LIST  [-seeds N] [-out PREFIX] [-j N]
  phitsim sweep    -experiment NAME [-set path=value]... [-loads ...] [-out PREFIX]
  phitsim presets  list the named configurations
  phitsim experiments  list the named comparisons (series of routings over loads)
  phitsim params   list every parameter: path, default, range, unit, meaning
  phitsim validate [-config FILE | -preset NAME] [-set path=value]...

Examples:
  phitsim run -preset h8 -set traffic.load=0.4 -set routing.name=VAL
  phitsim sweep -preset h4 -set sim.warmup=5000 -set sim.cycles=5000 \
      -series routing.name=MIN,VAL -loads 0.1:0.9:0.1 -seeds 3 -out min-vs-val
  phitsim run -preset graph500-h2
  phitsim sweep -preset graph500-h2 -series workload.linkGbps=40,100 \
      -param workload.tq -values 0.5,1,1.5,2.25,2.4,4,8,15 -seeds 3 -out g500-tq
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "run":
		err = cmdRun(ctx, os.Args[2:], os.Stdout)
	case "sweep":
		err = cmdSweep(ctx, os.Args[2:], os.Stdout)
	case "presets":
		err = cmdPresets(os.Stdout)
	case "experiments":
		for _, e := range sweep.Experiments() {
			fmt.Printf("%-14s %s (%d series × %d loads)\n", e.Name, e.Doc, len(e.Spec.Series), len(e.Spec.Loads))
		}
	case "params":
		err = cmdParams(os.Stdout)
	case "validate":
		err = cmdValidate(os.Args[2:], os.Stdout)
	case "-h", "-help", "--help", "help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "phitsim: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "phitsim:", err)
		if errors.Is(err, context.Canceled) {
			os.Exit(130)
		}
		os.Exit(1)
	}
}

// multi collects repeated string flags.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// source flags shared by run, sweep and validate.
type source struct {
	configs, presets, sets multi
	seeds                  int
}

func (s *source) register(fs *flag.FlagSet) {
	fs.Var(&s.configs, "config", "configuration JSON file (repeatable in sweep: one series each)")
	fs.Var(&s.presets, "preset", "named configuration (see 'phitsim presets'; repeatable in sweep)")
	fs.Var(&s.sets, "set", "override a parameter: path=value, e.g. traffic.load=0.4 (repeatable)")
	fs.IntVar(&s.seeds, "seeds", 0, "runs per point (overrides sim.seeds)")
}

// loaded is a configuration with where it came from and what its decoding
// found wrong.
type loaded struct {
	cfg   config.Config
	label string        // file name, or "" for presets and experiments
	errs  config.Errors // unknown fields and wrong types of the file
}

// load builds the configurations named by -config and -preset (default: the
// default config) with the -set overrides applied, validated.
func (s *source) load() ([]config.Config, error) {
	var ls []loaded
	for _, f := range s.configs {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		c, err := config.Decode(data)
		var es config.Errors
		if err != nil && !errors.As(err, &es) {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		ls = append(ls, loaded{c, f, es})
	}
	for _, p := range s.presets {
		c, err := config.PresetByName(p)
		if err != nil {
			return nil, err
		}
		ls = append(ls, loaded{cfg: c})
	}
	if len(ls) == 0 {
		ls = append(ls, loaded{cfg: config.Default()})
	}
	return s.applyTo(ls)
}

// apply puts the -set and -seeds overrides on configurations and validates them.
func (s *source) apply(cfgs []config.Config) ([]config.Config, error) {
	ls := make([]loaded, len(cfgs))
	for i, c := range cfgs {
		ls[i] = loaded{cfg: c}
	}
	return s.applyTo(ls)
}

// applyTo puts the overrides on configurations and validates them. The
// errors of a configuration are listed together: its file's unknown fields
// and wrong types, every -set that names no parameter or whose value does not
// parse, then Validate's.
func (s *source) applyTo(ls []loaded) ([]config.Config, error) {
	cfgs := make([]config.Config, len(ls))
	for i, l := range ls {
		c := l.cfg
		errs := append(config.Errors(nil), l.errs...)
		for _, kv := range s.sets {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("-set %q: expected path=value", kv)
			}
			if err := c.Set(k, v); err != nil {
				var fe *config.FieldError
				if !errors.As(err, &fe) {
					return nil, fmt.Errorf("-set %s: %w", kv, err)
				}
				errs = append(errs, fe)
			}
		}
		if s.seeds > 0 {
			c.Sim.Seeds = s.seeds
		}
		errs = append(errs, c.Validate()...)
		if len(errs) > 0 {
			if l.label != "" {
				return nil, fmt.Errorf("%s: %w", l.label, errs)
			}
			return nil, errs
		}
		cfgs[i] = c
	}
	return cfgs, nil
}

// bar is a progress bar over simulated cycles with ETA, on stderr.
func bar(total int64, desc string) *progressbar.ProgressBar {
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	)
}

// PointDoc is what 'run' writes: the config, every seed's result, the mean.
type PointDoc struct {
	Config    config.Config    `json:"config"`
	Runs      []*result.Result `json:"runs"`
	Aggregate sweep.Aggregate  `json:"aggregate"`
}

func cmdRun(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var src source
	src.register(fs)
	out := fs.String("out", "", "write the JSON result to this file instead of stdout")
	fogsim := fs.Bool("fogsim", false, "also print each run in FOGSim's output vocabulary (to stderr)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfgs, err := src.load()
	if err != nil {
		return err
	}
	if len(cfgs) != 1 {
		return errors.New("run takes one configuration; use sweep for several")
	}
	c := cfgs[0]
	sp := sweep.Spec{Series: cfgs, Loads: []float64{c.Traffic.Load}}
	jobs, err := sp.Jobs()
	if err != nil {
		return err
	}
	pb := bar(sweep.TotalCycles(jobs), fmt.Sprintf("%s load %g", nameOf(c), c.Traffic.Load))
	oc, runErr := sweep.Run(ctx, sp, sweep.Options{OnCycles: func(d int64) { _ = pb.Add64(d) }})
	_ = pb.Finish()
	if oc == nil {
		return runErr
	}
	doc := PointDoc{Config: c, Runs: oc.Runs}
	if len(oc.Points) > 0 {
		doc.Aggregate = oc.Points[0]
	}
	if *fogsim {
		for _, r := range oc.Runs {
			fmt.Fprintln(os.Stderr, result.FOGSimReport(r))
		}
	}
	if err := writeJSON(*out, stdout, doc); err != nil {
		return err
	}
	a := doc.Aggregate
	if c.Graph500() {
		printGraph500(os.Stderr, c, oc.Runs)
		return runErr
	}
	fmt.Fprintf(os.Stderr, "accepted %.4f ± %.4f phits/node/cycle, latency %.1f ± %.1f cycles, %d runs\n",
		a.Accepted.Mean, a.Accepted.CI95, a.Latency.Mean, a.Latency.CI95, a.Runs)
	if a.RequestAccepted != nil && a.ReplyAccepted != nil {
		fmt.Fprintf(os.Stderr, "  requests %.4f ± %.4f, replies %.4f ± %.4f phits/node/cycle\n",
			a.RequestAccepted.Mean, a.RequestAccepted.CI95, a.ReplyAccepted.Mean, a.ReplyAccepted.CI95)
	}
	return runErr
}

func nameOf(c config.Config) string {
	if c.Name != "" {
		return c.Name
	}
	return c.Routing.Name + " " + c.Traffic.Pattern
}

// parseLoads accepts "a:b:step" and comma lists, mixed: "0.05,0.1:0.9:0.1".
func parseLoads(s string) ([]float64, error) {
	out, err := parseValues(s, "-loads")
	if err != nil {
		return nil, err
	}
	for _, l := range out {
		if l < 0 || l > 1 {
			return nil, fmt.Errorf("-loads: %g is outside [0, 1] phits/node/cycle", l)
		}
	}
	return out, nil
}

// parseValues accepts "a:b:step" and comma lists, mixed.
func parseValues(s, flagName string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ",") {
		if part == "" {
			continue
		}
		if strings.Contains(part, ":") {
			f := strings.Split(part, ":")
			if len(f) != 3 {
				return nil, fmt.Errorf("%s %q: a range is start:stop:step", flagName, part)
			}
			var v [3]float64
			for i := range f {
				x, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					return nil, fmt.Errorf("%s %q: %v", flagName, part, err)
				}
				v[i] = x
			}
			if v[2] <= 0 || v[1] < v[0] {
				return nil, fmt.Errorf("%s %q: need start ≤ stop and step > 0", flagName, part)
			}
			n := int((v[1]-v[0])/v[2] + 1e-9)
			for i := 0; i <= n; i++ {
				out = append(out, roundLoad(v[0]+float64(i)*v[2]))
			}
			continue
		}
		x, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %v", flagName, part, err)
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no value given", flagName)
	}
	return out, nil
}

func roundLoad(x float64) float64 { return float64(int64(x*1e9+0.5)) / 1e9 }

func cmdSweep(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	var src source
	src.register(fs)
	var series multi
	fs.Var(&series, "series", "one series per value: path=v1,v2,... (repeatable: cross product)")
	loads := fs.String("loads", "0.1:0.9:0.1", "offered loads: start:stop:step and/or a comma list")
	experiment := fs.String("experiment", "", "a named comparison (see 'phitsim experiments'): its series and loads")
	out := fs.String("out", "", "write PREFIX.json (all runs and points) and PREFIX.csv (curves); default: CSV on stdout")
	workers := fs.Int("j", 0, "parallel runs (default: all cores)")
	param := fs.String("param", "", "sweep this numeric parameter instead of the load, e.g. workload.tq (with -values)")
	values := fs.String("values", "", "values of -param: start:stop:step and/or a comma list")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var base []config.Config
	var ls []float64
	if *experiment != "" {
		e, err := sweep.ExperimentByName(*experiment)
		if err != nil {
			return err
		}
		if base, err = src.apply(e.Spec.Series); err != nil {
			return err
		}
		ls = e.Spec.Loads
	} else {
		var err error
		if base, err = src.load(); err != nil {
			return err
		}
	}
	cfgs, err := expandSeries(base, series)
	if err != nil {
		return err
	}
	sp := sweep.Spec{Series: cfgs}
	if *param != "" {
		if sp.Values, err = parseValues(*values, "-values"); err != nil {
			return err
		}
		sp.Param = *param
	} else {
		loadsSet := false
		fs.Visit(func(f *flag.Flag) { loadsSet = loadsSet || f.Name == "loads" })
		if ls == nil || loadsSet {
			if ls, err = parseLoads(*loads); err != nil {
				return err
			}
		}
		sp.Loads = ls
	}
	jobs, err := sp.Jobs()
	if err != nil {
		return err
	}
	pb := bar(sweep.TotalCycles(jobs), fmt.Sprintf("%d runs", len(jobs)))
	oc, runErr := sweep.Run(ctx, sp, sweep.Options{Workers: *workers, OnCycles: func(d int64) { _ = pb.Add64(d) }})
	_ = pb.Finish()
	if oc == nil {
		return runErr
	}
	if runErr != nil {
		fmt.Fprintf(os.Stderr, "stopped: writing the %d of %d runs that finished\n", len(oc.Runs), len(jobs))
	}
	if *out == "" {
		if err := sweep.WriteCSV(stdout, oc.Points); err != nil {
			return err
		}
		return runErr
	}
	if err := writeJSON(*out+".json", nil, oc); err != nil {
		return err
	}
	f, err := os.Create(*out + ".csv")
	if err != nil {
		return err
	}
	if err := sweep.WriteCSV(f, oc.Points); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s.json and %s.csv\n", *out, *out)
	return runErr
}

// expandSeries makes one configuration per combination of series values.
func expandSeries(base []config.Config, series []string) ([]config.Config, error) {
	cfgs := base
	for _, s := range series {
		path, vals, ok := strings.Cut(s, "=")
		if !ok || vals == "" {
			return nil, fmt.Errorf("-series %q: expected path=v1,v2,...", s)
		}
		var next []config.Config
		for _, c := range cfgs {
			for _, v := range strings.Split(vals, ",") {
				d := c
				if err := d.Set(path, v); err != nil {
					return nil, err
				}
				label := path[strings.LastIndex(path, ".")+1:] + "=" + v
				if path == "routing.name" || path == "traffic.pattern" {
					label = v
				}
				if d.Name == "" || len(series) > 1 || len(base) > 1 {
					if d.Name == "" {
						d.Name = label
					} else {
						d.Name += " " + label
					}
				} else {
					d.Name = label
				}
				if errs := d.Validate(); len(errs) > 0 {
					return nil, fmt.Errorf("series %s: %w", d.Name, errs)
				}
				next = append(next, d)
			}
		}
		cfgs = next
	}
	return cfgs, nil
}

func writeJSON(path string, stdout io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if path == "" {
		_, err = stdout.Write(data)
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func cmdPresets(w io.Writer) error {
	for _, p := range config.Presets() {
		c := p.Config
		fmt.Fprintf(w, "%-14s %s\n%14s h=%d a=%d p=%d, %s, %s, warm-up %d + %d cycles\n", p.Name, p.Doc, "",
			c.Topology.H, c.Topology.A, c.Topology.P, c.Routing.Name, c.Traffic.Pattern, c.Sim.Warmup, c.Sim.Cycles)
	}
	return nil
}

func cmdParams(w io.Writer) error {
	def := config.Default()
	groups := map[string][]config.Param{}
	var order []string
	for _, p := range config.Params() {
		if _, ok := groups[p.Group]; !ok {
			order = append(order, p.Group)
		}
		groups[p.Group] = append(groups[p.Group], p)
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i] == "" && order[j] != "" })
	for _, g := range order {
		if g != "" {
			fmt.Fprintf(w, "\n[%s]\n", g)
		}
		for _, p := range groups[g] {
			var extra []string
			if p.Enum != nil {
				extra = append(extra, "one of "+strings.Join(p.Enum, "|"))
			} else if p.Min != nil || p.Max != nil {
				lo, hi := "", ""
				if p.Min != nil {
					lo = strconv.FormatFloat(*p.Min, 'g', -1, 64)
				}
				if p.Max != nil {
					hi = strconv.FormatFloat(*p.Max, 'g', -1, 64)
				}
				extra = append(extra, "["+lo+", "+hi+"]")
			}
			if p.Unit != "" {
				extra = append(extra, p.Unit)
			}
			if p.When != "" {
				extra = append(extra, "when "+p.When)
			}
			fmt.Fprintf(w, "  %-26s = %-10s %s", p.Path, p.Format(&def), p.Doc)
			if len(extra) > 0 {
				fmt.Fprintf(w, " (%s)", strings.Join(extra, "; "))
			}
			if p.Paper != "" {
				fmt.Fprintf(w, " [%s]", p.Paper)
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

func cmdValidate(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	var src source
	src.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfgs, err := src.load()
	if err != nil {
		var es config.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				fmt.Fprintln(w, e.Error())
			}
			// the file the errors belong to, when one was named
			prefix := strings.TrimSuffix(err.Error(), es.Error())
			return fmt.Errorf("%s%d invalid field(s)", prefix, len(es))
		}
		return err
	}
	for _, c := range cfgs {
		in, l, g := c.VCs()
		fmt.Fprintf(w, "ok: %s — %d nodes; VCs injection/local/global = %d/%d/%d\n", nameOf(c),
			c.Topology.P*c.Topology.A*(c.Topology.A*c.Topology.H+1), in, l, g)
	}
	return nil
}
