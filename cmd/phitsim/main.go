// Command phitsim runs the simulator natively: one point, a sweep of points,
// and the configuration tools (presets, params, validate).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"reflect"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"phitsim/engine/config"
	"phitsim/engine/plan"
	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
)

const usage = `phitsim — cycle-accurate interconnection-network simulator (Dragonfly, flattened butterfly, fat tree, mesh)

Usage:
  phitsim run      (-config FILE | -preset NAME) [-set path=value]... [-seeds N] [-threads N] [-out FILE] [-json] [-fogsim]
  phitsim sweep    (-config FILE | -preset NAME)... [-set path=value]... [-series path=v1,v2,...]
                   -loads 0.1:0.9:0.1 | -param PATH -values LIST  [-seeds N] [-out PREFIX] [-csv] [-j N]
  phitsim sweep    -experiment NAME [-set path=value]... [-loads ...] [-out PREFIX] [-csv]
  phitsim sweep    ... -plan DIR   write the sweep as a plan (resumable, in pieces); run nothing
  phitsim exec     -plan DIR [-task I -tasks N] [-parallel P]   run a plan's unfinished runs
  phitsim merge    -plan DIR [-out PREFIX] [-partial]   a plan's finished runs as 'sweep' writes them
  phitsim slurm    -plan DIR [-tasks N] [-submit | -status | -resubmit I,J]   run a plan as a Slurm job array
  phitsim presets  list the named configurations
  phitsim experiments  list the named comparisons (series of routings, congestion-management schemes or queueings over loads)
  phitsim figures  [-check ID]  the seeds' figures we reproduce; -check runs one against its claim
  phitsim params   list every parameter: path, default, range, unit, meaning
  phitsim validate [-config FILE | -preset NAME] [-set path=value]...
  phitsim version  the version, source revision and Go version of this build (also -version)
  phitsim help [COMMAND]  this text, or a command's flags and examples (also COMMAND -h)

Output: at a terminal, run prints a short summary and sweep a table of the curves; into a pipe or a
file, run writes its full JSON and sweep its CSV. -json (run) and -csv (sweep) put that data on stdout
even at a terminal; -out writes it to files and leaves stdout to the summary or table. Notes and
errors go to stderr, and a progress bar when stderr is a terminal.
Exit status: 0 success, 1 error (a finished result is still written, and stderr says where),
2 bad command line, 3 a run deadlocked (stderr says where: the stuck routers, ports and VCs;
the runs that finished are still written), 130 interrupted.

Examples:
  phitsim run -preset h4
  phitsim run -preset h8 -set traffic.load=0.4 -set routing.name=VAL -out val.json
  phitsim run -preset h4 | jq .aggregate.latency
  phitsim sweep -preset h4 -set sim.warmup=5000 -set sim.cycles=5000 \
      -series routing.name=MIN,VAL -loads 0.1:0.9:0.1 -seeds 3 -out min-vs-val
  phitsim run -preset graph500-h2
  phitsim sweep -preset graph500-h2 -series workload.linkGbps=40,100 \
      -param workload.tq -values 0.5,1,1.5,2.25,2.4,4,8,15 -seeds 3 -out g500-tq
  phitsim sweep -experiment cbcm-fig2          Kim et al. Fig. 2 on the 16-node flattened butterfly
  phitsim run -preset recn-case1-recn          the RECN paper's corner case 1 on the 64-host fat tree
`

// Each command's usage line, what it does and examples; 'COMMAND -h' prints
// it with the command's flags.
var help = map[string]string{
	"run": `Usage: phitsim run (-config FILE | -preset NAME) [-set path=value]... [-seeds N] [-threads N] [-out FILE] [-json] [-fogsim]

Runs one configuration at its offered load once per seed (sim.seeds, in
parallel) and averages the seeds with a 95% confidence interval. -threads
splits each run over N goroutines, each stepping a part of the network
(Dragonfly groups; rows or subtrees), with the same result as one thread (engine/PARALLEL.md); by default
the seeds' runs share the cores as sweep's do (min(cores, seeds) at once,
the cores they leave free to their threads: one seed takes them all, up to
the partitions it can use with profit, sim.UsefulPartitions: one on the h=2
Dragonfly, whose 100-cycle windows are less work than a barrier; an explicit
-threads N is used as given); a configuration the
partitioned engine does not cover yet runs on one (by default it is
given one thread; with -threads N its result's "sequential" field says
why). Interrupted (Ctrl-C), it shows and writes the
runs that finished, if any, and exits with status 130.

Output (stable; scripts may rely on it):
  stdout is a terminal         a short summary: loads, latency, fairness, misrouting, with units
  stdout is a pipe or a file   the full result as JSON: {"config", "runs", "aggregate"}
  -json                        the full JSON on stdout, even at a terminal
  -out FILE                    the full JSON into FILE, and the summary on stdout
When the JSON goes to stdout the summary goes to stderr. If the JSON cannot be
written where asked, it is saved to a file in the temporary folder (stderr
says which) and the exit status is 1.

Examples:
  phitsim run -preset h4                                summary at the terminal
  phitsim run -preset h4 > h4.json                      full JSON into a file
  phitsim run -preset h4 -out h4.json                   both
  phitsim run -preset h4 -json | jq .aggregate.latency
  phitsim run -preset h8 -set traffic.load=0.4 -set routing.name=VAL -seeds 3
  phitsim run -config my.json -fogsim                   also FOGSim's report of each run (stderr)
  phitsim run -config r.json -set sim.seeds=10          a result's configuration again (run -out r.json), more seeds
  phitsim run -preset graph500-h2                       Graph500 BFS: execution time, TEPS, usage
`,
	"sweep": `Usage: phitsim sweep (-config FILE | -preset NAME)... [-set path=value]... [-series path=v1,v2,...]...
                     [-loads 0.1:0.9:0.1 | -param PATH -values LIST] [-seeds N] [-j N] [-threads T] [-out PREFIX] [-csv]
       phitsim sweep -experiment NAME [-set path=value]... [-loads ... | -values ...] [-out PREFIX] [-csv | -transient]

Runs every series (each -config and -preset, times each -series value) at
every offered load (or every value of -param), once per seed, in parallel,
and averages each point's seeds with a 95% confidence interval. Swept,
topology.h is the network size: a balanced Dragonfly (a=2h, p=h) stays
balanced. An experiment that sweeps a parameter (thesis-fig3.10) takes
-values for its own.

The runs share the cores: with -j and -threads left 0, min(cores, runs) run
at once, and a run that starts when fewer runs are left than cores are free
takes the free cores ÷ the runs left (rounded up) as threads, each stepping
a part of the network (engine/PARALLEL.md) — one big point's run gets
every core, the last runs of a sweep and the seeds sim.precision adds the
cores the others leave — but no more than the run can use with profit
(sim.UsefulPartitions: each partition's window must carry enough work to
pay its barrier; a small network runs on one). -threads T alone runs cores ÷ T at once on T threads
each; -j N alone runs N at once and shares the cores between them as they
start. The results do not depend on -j or -threads.

Output (stable; scripts may rely on it):
  stdout is a terminal         a table of the curves: one row per point of each series,
                               accepted load and latency ± 95% CI (and under HOTSPOT the
                               background's and, up to 8 senders, each sender's bandwidth;
                               under UR1UR2 each class's; under SRP its speculative and
                               dropped shares)
                               (repeated in Gb/s per node and µs when every series has
                               the same physical basis, physical.linkGbps/phitBytes)
                               (with a hotspot window, traffic.hotspotEnd, and a physical
                               basis: each series' throughput before, during and after
                               it, the RECN paper's Fig. 2)
  stdout is a pipe or a file   the curves as CSV (the columns of PREFIX.csv)
  -csv                         the CSV on stdout, even at a terminal
  -out PREFIX                  PREFIX.json (every run and point) and PREFIX.csv (the curves),
                               and the table on stdout
With a pattern switch (traffic.switchCycle; the thesis-fig4.8, -4.9, -4.10 experiments) the
runs' transient records, pooled over the seeds, are the time series around the switch:
  at a terminal                also a summary per point: misrouted share before and settled,
                               when it settles, its oscillation period, latency before and at the end
  -out PREFIX                  also PREFIX-transient.csv: one row per 10-cycle bin per point
                               (cycle from the switch, packets, latency, % misrouted)
  -transient                   that CSV on stdout instead of the curves
Series are numbered in the order given, from 1 in the table ("series 1 (MIN)")
and in messages; the "series" column of the CSV (and field of the JSON) is
that number less one (from 0), as in the page's CSV export.
Interrupted (Ctrl-C), it writes the runs that finished, if any, and exits with
status 130.
With -plan DIR nothing runs: the sweep is written as a plan into DIR, to run
resumably and in pieces ('phitsim exec'), on a Slurm cluster ('phitsim
slurm'), and to merge into these same files ('phitsim merge').

Examples:
  phitsim sweep -preset h4 -series routing.name=MIN,VAL -loads 0.1:0.9:0.1 -seeds 3
  phitsim sweep -preset h4 -set traffic.pattern=ADV -series routing.name=MIN,VAL \
      -loads 0.05:0.6:0.05 -out adv1                   adv1.json and adv1.csv
  phitsim sweep -experiment thesis-adv1 > adv1.csv
  phitsim sweep -experiment thesis-fig4.8 -transient > fig4.8.csv
  phitsim sweep -experiment thesis-fig3.13 -values 2:5:1   fairness vs size, h = 2…5
  phitsim sweep -preset graph500-h2 -series workload.linkGbps=40,100 \
      -param workload.tq -values 0.5,1,1.5,2.25,2.4,4,8,15 -out g500-tq
  phitsim sweep -config adv1.json -seeds 5            adv1's series and loads again, 5 seeds
`,
	"validate": `Usage: phitsim validate [-config FILE | -preset NAME] [-set path=value]...

Checks a configuration without running it: lists every invalid field with its
allowed range, or prints "ok:" with the network size and the VCs it gets,
and the run's estimated cost: a bound on its memory and its CPU time on one
core (as 'sweep -plan' estimates them).
With a physical basis (physical.linkGbps and physical.phitBytes), it also
lists every field in cycles, phits or phits/node/cycle in ns, bytes and Gb/s
beside its engine value ("400 ns = 20 cycles"); run's summary then adds the
load in Gb/s and the latency in µs.

Examples:
  phitsim validate -config my.json
  phitsim validate -preset h8 -set routing.name=VAL -set router.localVCs=2
  phitsim validate -preset ethernet-h4          the QCN-Switch paper's Table I, in ns and KB
  phitsim validate -preset h4 -set physical.linkGbps=40 -set physical.phitBytes=10
`,
	"presets": `Usage: phitsim presets

Lists the named configurations that -preset accepts.

Example:
  phitsim presets
`,
	"experiments": `Usage: phitsim experiments

Lists the named comparisons that 'phitsim sweep -experiment NAME' runs.

Example:
  phitsim experiments
`,
	"figures": `Usage: phitsim figures [-check ID]

Lists the figure gallery: each reproduced figure or table of the seeds, its
paper, its claim with our tolerance, the scaled experiment it runs and an
estimated browser run time (engine/FIGURES.md). -check ID runs the figure
and prints the claim against the measured value, PASS or FAIL (exit 1).

Examples:
  phitsim figures
  phitsim figures -check 1.6-adv1
`,
	"params": `Usage: phitsim params

Lists every parameter -set accepts: its path, default, range, unit, meaning
and the paper it comes from.

Example:
  phitsim params | grep routing
`,
	"version": `Usage: phitsim version   (or phitsim -version)

Prints this build's module version, source revision (with its time, and
whether the working tree had uncommitted changes), engine version and Go
version. 'go run' builds carry no revision.

Example:
  phitsim version
`,
}

// env is where a command writes, and whether stdout is a terminal (a person
// reads it) or a pipe or file (a program does); errTTY: whether stderr is a
// terminal (then a progress bar is drawn on it).
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader // -config -; nil reads as empty
	tty, errTTY    bool
	afterRun       func() // called after each finished run, if set (tests interrupt with it)
}

// errUsage is a command line that does not parse; the message and the usage
// are already on stderr.
var errUsage = errors.New("bad command line")

// errInterrupted is a run or sweep stopped by Ctrl-C or SIGTERM (exit 130).
var errInterrupted = errors.New("interrupted")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := command(ctx, env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin,
		tty: term.IsTerminal(int(os.Stdout.Fd())), errTTY: term.IsTerminal(int(os.Stderr.Fd()))}, os.Args[1:])
	stop()
	os.Exit(code)
}

// run is the command line: it returns the exit status (0 success, 1 error,
// 2 bad command line, 3 deadlock, 130 interrupted). tty and errTTY say
// whether stdout and stderr are terminals.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, tty, errTTY bool) int {
	return command(ctx, env{stdout: stdout, stderr: stderr, tty: tty, errTTY: errTTY}, args)
}

// command is run in the environment e.
func command(ctx context.Context, e env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		err = cmdRun(ctx, rest, e)
	case "sweep":
		err = cmdSweep(ctx, rest, e)
	case "exec":
		err = cmdExec(ctx, rest, e)
	case "merge":
		err = cmdMerge(rest, e)
	case "slurm":
		err = cmdSlurm(rest, e)
	case "presets", "experiments", "params", "version":
		if err = parseFlags(flag.NewFlagSet(cmd, flag.ContinueOnError), rest, e); err == nil {
			err = list(cmd, stdout)
		}
	case "validate":
		err = cmdValidate(rest, e)
	case "figures":
		err = cmdFigures(ctx, rest, e)
	case "-version", "--version":
		err = list("version", stdout)
	case "-h", "-help", "--help", "help":
		switch {
		case len(rest) == 0:
			fmt.Fprint(stdout, usage)
		case help[rest[0]] != "":
			return command(ctx, e, []string{rest[0], "-h"})
		default:
			fmt.Fprintf(stderr, "phitsim help: unknown command %q\n\n%s", rest[0], usage)
			return 2
		}
	default:
		fmt.Fprintf(stderr, "phitsim: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	return exitStatus(err, stderr)
}

// exitStatus reports err on stderr, one line per error (output errors
// joined with the interrupt), and returns the exit status. A deadlock's
// report is spread over lines: where it was found, then one indented line
// per stuck buffer.
func exitStatus(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	msg := err.Error()
	var de *sim.DeadlockError
	deadlock := errors.As(err, &de)
	if deadlock {
		msg = strings.Replace(msg, de.Error(), strings.Join(de.Lines(), "\n  "), 1)
	}
	for _, line := range strings.Split(msg, "\n") {
		fmt.Fprintln(stderr, "phitsim:", line)
	}
	switch {
	case errors.Is(err, errInterrupted):
		return 130
	case deadlock:
		return 3
	}
	return 1
}

// parseFlags parses a command's flags. -h, -help and --help print the
// command's usage, flags and examples on stdout (flag.ErrHelp: exit 0); an
// unknown flag, a bad value or a stray argument prints the problem and the
// usage on stderr (errUsage: exit 2).
func parseFlags(fs *flag.FlagSet, args []string, e env) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(e.stdout, fs)
		return err
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q (flags are -name value; see phitsim %s -h)", fs.Arg(0), fs.Name())
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "phitsim %s: %v\n\n", fs.Name(), err)
		printUsage(e.stderr, fs)
		return errUsage
	}
	return nil
}

func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, help[fs.Name()])
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// list runs the commands that take no flags.
func list(cmd string, w io.Writer) error {
	switch cmd {
	case "presets":
		return cmdPresets(w)
	case "experiments":
		for _, e := range sweep.Experiments() {
			fmt.Fprintf(w, "%-14s %s (%s)\n", e.Name, e.Doc, experimentShape(e.Spec))
		}
	case "params":
		return cmdParams(w)
	case "version":
		bi, ok := debug.ReadBuildInfo()
		fmt.Fprint(w, versionText(bi, ok))
	}
	return nil
}

// multi collects repeated string flags.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// source flags shared by run, sweep and validate.
type source struct {
	configs, presets, sets multi
	seeds                  *int           // -seeds, nil when not given
	swept                  []*sweep.Swept // what the -config documents swept (load fills it)
}

func (s *source) register(fs *flag.FlagSet) {
	fs.Var(&s.configs, "config", "configuration JSON `FILE` (repeatable in sweep: one series each), - for standard input; a result document phitsim wrote (run -out, sweep -out, merge, the page's export) gives its configurations, and to sweep what it swept unless -loads or -param is given")
	fs.Var(&s.presets, "preset", "named configuration `NAME` (see 'phitsim presets'; repeatable in sweep)")
	fs.Var(&s.sets, "set", "override a parameter: `path=value`, e.g. traffic.load=0.4 (repeatable; see 'phitsim params')")
	// any whole number is taken: the validator checks it as sim.seeds, with its range
	fs.Func("seeds", "`N` runs per point, seeds sim.seed… (sets sim.seeds)", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return errors.New("not a whole number")
		}
		s.seeds = &n
		return nil
	})
}

// quickPresets are presets that run in seconds, named to a first-time user
// who gave no configuration.
var quickPresets = []string{"h2", "min-un", "val-adv1", "graph500-h2", "fbfly16", "recn-case1-recn"}

// firstClauses is doc cut to at most n runes at the end of a clause (a
// comma, semicolon or colon outside parentheses), "…" marking the cut.
func firstClauses(doc string, n int) string {
	r := []rune(doc)
	if len(r) <= n {
		return doc
	}
	cut, depth := 0, 0
	for i, c := range r[:n] {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',', ';', ':': // followed by a space: not 2,000 nor 1:2
			if depth == 0 && r[i+1] == ' ' {
				cut = i
			}
		}
	}
	if cut == 0 { // no clause ends: at a word's end
		cut = max(strings.LastIndex(string(r[:n]), " "), 1)
		return strings.TrimSpace(string(r[:n])[:cut]) + " …"
	}
	return strings.TrimSpace(string(r[:cut])) + " …"
}

// required refuses a run or sweep with no -config and no -preset (exit 2),
// rather than starting the default configuration (h8, 60,000 + 60,000
// cycles × 5 seeds: many minutes), and names quick presets to start with.
func (s *source) required(fs *flag.FlagSet, e env) error {
	if len(s.configs)+len(s.presets) > 0 {
		return nil
	}
	cmd := fs.Name()
	fmt.Fprintf(e.stderr, "phitsim %s: no configuration given: add -preset NAME or -config FILE", cmd)
	if cmd == "sweep" {
		fmt.Fprint(e.stderr, " (or -experiment NAME, see 'phitsim experiments')")
	}
	fmt.Fprint(e.stderr, ".\nPresets that run in seconds:\n")
	for _, name := range quickPresets {
		doc := ""
		for _, p := range config.Presets() {
			if p.Name == name {
				doc = p.Doc
			}
		}
		fmt.Fprintf(e.stderr, "  %-16s %s\n", name, firstClauses(doc, 120))
	}
	fmt.Fprintf(e.stderr, "'phitsim presets' lists them all; 'phitsim %s -h' shows the flags and examples. For example:\n", cmd)
	if cmd == "sweep" {
		fmt.Fprintln(e.stderr, "  phitsim sweep -preset min-un -series routing.name=MIN,VAL -loads 0.1,0.3,0.5")
	} else {
		fmt.Fprintln(e.stderr, "  phitsim run -preset h2")
	}
	return errUsage
}

// documentPath is the path config.Decode gives an error of the document as
// a whole (not JSON, not an object).
const documentPath = "(document)"

// loaded is a configuration with where it came from and what its decoding
// found wrong.
type loaded struct {
	cfg   config.Config
	label string        // file name, or "" for presets and experiments
	errs  config.Errors // unknown fields and wrong types of the file
}

// load builds the configurations named by -config and -preset (validate's
// default: the default config) with the -set overrides applied, validated.
// -config - reads standard input; a file may also be a document phitsim
// wrote (sweep.DocumentConfigs), whose configurations are taken, with a note on stderr.
func (s *source) load(e env) ([]config.Config, error) {
	var ls []loaded
	stdinRead := false
	for _, f := range s.configs {
		var data []byte
		var err error
		if f == "-" {
			if stdinRead {
				return nil, errors.New("-config -: standard input can be read once")
			}
			stdinRead = true
			if e.stdin != nil {
				data, err = io.ReadAll(io.LimitReader(e.stdin, maxConfigFile+1))
			}
			f = "standard input"
		} else {
			data, err = readLimited(f, maxConfigFile)
		}
		if err != nil {
			return nil, err
		}
		if len(data) > maxConfigFile {
			return nil, fmt.Errorf("%s: larger than %d MiB: not a configuration, nor a document phitsim writes for one", f, maxConfigFile>>20)
		}
		docs, what, swept := sweep.DocumentConfigs(data)
		if what != "" {
			also := ""
			if swept != nil {
				also = "; sweep also takes what it swept, unless -loads or -param is given"
			}
			fmt.Fprintf(e.stderr, "%s: %s, taken%s\n", f, what, also)
		}
		if swept != nil {
			s.swept = append(s.swept, swept)
		}
		for i, d := range docs {
			label := f
			if len(docs) > 1 {
				label = fmt.Sprintf("%s, series %d", f, i+1)
			}
			c, err := config.Decode(d)
			var es config.Errors
			if err != nil && !errors.As(err, &es) {
				return nil, fmt.Errorf("%s: %w", label, err)
			}
			// not JSON, or not an object: nothing was decoded, so there are no
			// fields to list, only this message
			if len(es) == 1 && es[0].Path == documentPath {
				if es[0].Value == "" {
					return nil, fmt.Errorf("%s: %s", label, es[0].Msg)
				}
				return nil, fmt.Errorf("%s: %s", label, es[0])
			}
			ls = append(ls, loaded{c, label, es})
		}
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
		if s.seeds != nil {
			c.Sim.Seeds = *s.seeds
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

// options are sweep.Run's options for a command: a progress bar over
// simulated cycles with ETA when stderr is a terminal (into a file or a pipe
// it would be a stream of carriage returns), and e.afterRun. done ends the bar.
func (e env) options(total int64, desc string, workers int) (opt sweep.Options, done func()) {
	opt.Workers = workers
	if e.afterRun != nil {
		opt.OnRun = func(int, int, sweep.Job, *result.Result) { e.afterRun() }
	}
	if !e.errTTY {
		return opt, func() {}
	}
	pb := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	)
	opt.OnCycles = func(d int64) { _ = pb.Add64(d) }
	return opt, func() { _ = pb.Finish() }
}

// stopped is what sweep.Run's error means to the command line: a cancelled
// context is the user's interrupt (exit 130, said without Go's "context
// canceled").
func stopped(err error) error {
	if errors.Is(err, context.Canceled) {
		return errInterrupted
	}
	return err
}

// PointDoc is what 'run' writes: the config, every seed's result, the mean.
type PointDoc struct {
	Config    config.Config    `json:"config"`
	Runs      []*result.Result `json:"runs"`
	Aggregate sweep.Aggregate  `json:"aggregate"`
}

func cmdRun(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var src source
	src.register(fs)
	out := fs.String("out", "", "write the full JSON result to `FILE` (the summary goes to stdout)")
	asJSON := fs.Bool("json", false, "write the full JSON result to stdout, even at a terminal")
	fogsim := fs.Bool("fogsim", false, "also print each run in FOGSim's output vocabulary (to stderr)")
	threads := fs.Int("threads", 0, "goroutines per run, each stepping a part of the network (0: the cores the seeds' runs leave over, see -h); the result does not depend on it")
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if *threads < 0 {
		return fmt.Errorf("-threads %d: give 0 (share the cores between the runs and their threads) or more", *threads)
	}
	if err := src.required(fs, e); err != nil {
		return err
	}
	cfgs, err := src.load(e)
	if err != nil {
		return err
	}
	if len(cfgs) != 1 {
		return errors.New("run takes one configuration; use sweep for several")
	}
	c := cfgs[0]
	sp := sweep.Spec{Series: cfgs, Loads: []float64{c.Traffic.Load}}
	desc := fmt.Sprintf("%s load %g", nameOf(c), c.Traffic.Load)
	if c.Graph500() {
		desc = nameOf(c) // the BFS sets its own injection rate
	}
	// the seeds' runs share the cores (sweep.Share)
	_, oc, runErr := runSpecThreads(ctx, e, sp, func(int) string { return desc }, 0, *threads)
	if oc == nil {
		return runErr
	}
	doc := PointDoc{Config: c, Runs: oc.Runs}
	if len(oc.Points) > 0 {
		doc.Aggregate = oc.Points[0]
	}
	if *fogsim {
		for _, r := range oc.Runs {
			fmt.Fprintln(e.stderr, result.FOGSimReport(r))
		}
	}
	// the interrupt last, after what was written
	return errors.Join(report(e, doc, *out, *asJSON), runErr)
}

// report writes a finished run where the output convention says: the JSON
// to stdout for programs (stdout a pipe or a file) and on -json, and to the
// -out file; the summary to stdout, or to stderr when the JSON is on stdout.
// Every output is attempted whatever fails before it.
func report(e env, doc PointDoc, out string, asJSON bool) error {
	toStdout := asJSON || (out == "" && !e.tty)
	var errs []error
	data, nonFinite, err := encodeJSON(doc)
	jsonAt := ""
	if err != nil {
		errs = append(errs, fmt.Errorf("encoding the result: %w", err))
	} else {
		if len(nonFinite) > 0 {
			errs = append(errs, nonFiniteError(nonFinite))
		}
		if out != "" {
			at, err := deliver(out, e.stdout, "the result JSON", data)
			jsonAt = at
			errs = append(errs, err)
		}
		if toStdout {
			at, err := deliver("", e.stdout, "the result JSON", data)
			if jsonAt == "" || at != "stdout" {
				jsonAt = at
			}
			errs = append(errs, err)
		}
	}
	summary := e.stdout
	if toStdout {
		summary = e.stderr
	}
	printSummary(summary, doc.Config, doc.Aggregate, doc.Runs, jsonAt)
	return errors.Join(errs...)
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

// parseValues accepts "a:b:step" and comma lists, mixed. A sweep runs at most
// sweep.MaxRuns runs, so no list longer than that is built.
func parseValues(s, flagName string) ([]float64, error) {
	var out []float64
	num := func(part, f string) (float64, error) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return 0, fmt.Errorf("%s %q: %v", flagName, part, err)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%s %q: %s is not a finite number", flagName, part, f)
		}
		return x, nil
	}
	tooMany := func(n float64) error {
		return fmt.Errorf("%s %q: %s values; a sweep runs at most %d", flagName, s, strconv.FormatFloat(n, 'g', 15, 64), sweep.MaxRuns)
	}
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
				x, err := num(part, f[i])
				if err != nil {
					return nil, err
				}
				v[i] = x
			}
			if v[2] <= 0 || v[1] < v[0] {
				return nil, fmt.Errorf("%s %q: need start ≤ stop and step > 0", flagName, part)
			}
			// counted in floating point: the range may hold more values than an int
			n := math.Floor((v[1]-v[0])/v[2] + 1e-9)
			if total := float64(len(out)) + n + 1; math.IsInf(n, 0) || total > sweep.MaxRuns {
				return nil, tooMany(total)
			}
			for i := 0; i <= int(n); i++ {
				out = append(out, roundLoad(v[0]+float64(i)*v[2]))
			}
			continue
		}
		x, err := num(part, part)
		if err != nil {
			return nil, err
		}
		if len(out) == sweep.MaxRuns {
			return nil, tooMany(float64(len(out) + 1))
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no value given", flagName)
	}
	return out, nil
}

// roundLoad keeps 9 decimals, so that 0.1+2·0.1 is 0.3; past 2⁵²·10⁻⁹ there is
// nothing to round (and x·10⁹ would not fit an integer).
func roundLoad(x float64) float64 {
	if math.Abs(x) >= 1<<52/1e9 {
		return x
	}
	return math.Round(x*1e9) / 1e9
}

// runSpecThreads runs a spec's jobs with the progress bar (desc is given the job
// count). A nil outcome means nothing finished, and so nothing is to be
// summarised or written (no means of zero runs, no empty files): the error
// says why. workers runs go at once, each split over threads goroutines
// (sim.Sim.SetThreads); a count left 0 is chosen by sweep.Share for the
// spec's runs on the cores available, and threads left 0 as each run
// starts (sweep.Cores: the last runs, and each sim.precision round, take
// the cores the others leave free).
func runSpecThreads(ctx context.Context, e env, sp sweep.Spec, desc func(jobs int) string, workers, threads int) ([]sweep.Job, *sweep.Outcome, error) {
	jobs, err := sp.Jobs()
	if err != nil {
		return nil, nil, err
	}
	cores := runtime.GOMAXPROCS(0)
	workers, _ = sweep.Share(len(jobs), cores, workers, threads)
	opt, done := e.options(sweep.TotalCycles(jobs), desc(len(jobs)), workers)
	opt.Threads, opt.Cores = threads, cores
	oc, runErr := sweep.Run(ctx, sp, opt)
	done()
	runErr = stopped(runErr)
	if oc == nil || len(oc.Runs) == 0 {
		if errors.Is(runErr, errInterrupted) {
			runErr = fmt.Errorf("%w: no run finished", runErr)
		}
		return jobs, nil, runErr
	}
	return jobs, oc, runErr
}

func cmdSweep(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	var src source
	src.register(fs)
	var series multi
	fs.Var(&series, "series", "one series per value: `path=v1,v2,...` (repeatable: cross product)")
	loads := fs.String("loads", "0.1:0.9:0.1", "offered loads in phits/node/cycle: `LIST` of start:stop:step ranges and values, comma-separated")
	experiment := fs.String("experiment", "", "a named comparison `NAME` (see 'phitsim experiments'): its series and loads")
	out := fs.String("out", "", "write `PREFIX`.json (all runs and points) and PREFIX.csv (the curves); the table goes to stdout")
	asCSV := fs.Bool("csv", false, "write the curves as CSV to stdout, even at a terminal")
	asTransient := fs.Bool("transient", false, "with a pattern switch (traffic.switchCycle), the CSV on stdout is the time series around it, one row per 10-cycle bin per point, instead of the curves")
	workers := fs.Int("j", 0, "`N` parallel runs (0: shared with -threads, see -h)")
	threads := fs.Int("threads", 0, "`T` goroutines per run, each stepping a part of the network (0: the cores the runs leave over, see -h); the results do not depend on it")
	param := fs.String("param", "", "sweep the numeric parameter `PATH` instead of the load, e.g. workload.tq (with -values)")
	values := fs.String("values", "", "values of -param: `LIST` of start:stop:step ranges and values, comma-separated")
	planDir := fs.String("plan", "", "write the sweep as a plan into folder `DIR` and run nothing (then 'phitsim exec', 'merge', 'slurm')")
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	var base []config.Config
	var ls []float64
	var named sweep.Spec
	table := false
	if *experiment != "" {
		// its series are its own: a -config or -preset beside it would be ignored
		if len(src.configs)+len(src.presets) > 0 {
			return fmt.Errorf("-experiment %s names its own series: -config and -preset cannot be added to it (-set changes every series, -series crosses them with values)", *experiment)
		}
		x, err := sweep.ExperimentByName(*experiment)
		if err != nil {
			return err
		}
		table = x.Table
		if base, err = src.apply(x.Spec.Series); err != nil {
			return err
		}
		ls, named = x.Spec.Loads, x.Spec
	} else {
		// an experiment names its configurations; otherwise -config or -preset must
		if err := src.required(fs, e); err != nil {
			return err
		}
		var err error
		if base, err = src.load(e); err != nil {
			return err
		}
	}
	cfgs, err := expandSeries(base, series)
	if err != nil {
		return err
	}
	sp := sweep.Spec{Series: cfgs}
	loadsSet := flagSet(fs, "loads")
	if *param != "" {
		if loadsSet {
			return fmt.Errorf("-loads: the sweep is over -param %s, not the load; set the load with -set traffic.load=…", *param)
		}
		if sp.Values, err = parseValues(*values, "-values"); err != nil {
			return err
		}
		sp.Param = *param
	} else if named.Param != "" {
		// an experiment over another parameter than the load (with its
		// ties); -values may replace its values
		if loadsSet {
			return fmt.Errorf("-loads: experiment %s sweeps %s, not the load; set the load with -set traffic.load=… (or its values with -values)", *experiment, named.Param)
		}
		sp.Param, sp.Values, sp.Tied = named.Param, named.Values, named.Tied
		if *values != "" {
			if sp.Values, err = parseValues(*values, "-values"); err != nil {
				return err
			}
		}
	} else if sw := src.swept; len(sw) > 0 && !loadsSet && *values == "" {
		// a sweep's documents: what they swept, if they all swept the same
		for _, o := range sw[1:] {
			if !reflect.DeepEqual(o, sw[0]) {
				return errors.New("-config: the documents swept different loads or values: give -loads, or -param and -values")
			}
		}
		switch p := sw[0].Param; {
		case p != "" && (p != "traffic.load" || len(sw[0].Tied) > 0):
			sp.Param, sp.Values, sp.Tied = p, sw[0].Values, sw[0].Tied
		case p == "traffic.load": // the page's export of a load sweep
			sp.Loads = sw[0].Values
		default:
			sp.Loads = sw[0].Loads
		}
		if len(sp.Xs()) == 0 {
			return errors.New("-config: the document lists no loads or values: give -loads, or -param and -values")
		}
	} else {
		if *values != "" {
			return errors.New("-values: give the parameter they are values of with -param PATH (the loads are -loads)")
		}
		if ls == nil || loadsSet {
			if ls, err = parseLoads(*loads); err != nil {
				return err
			}
		}
		sp.Loads = ls
	}
	// each distinct undersized buffer once, before the runs it caps
	said := map[string]bool{}
	for _, c := range cfgs {
		for _, fe := range c.BufferWarnings() {
			if !said[fe.Error()] {
				said[fe.Error()] = true
				fmt.Fprintf(e.stderr, "warning: %s\n", fe)
			}
		}
	}
	if *workers < 0 || *threads < 0 {
		return fmt.Errorf("-j %d -threads %d: give 0 (share the cores between the runs and their threads) or more", *workers, *threads)
	}
	if *planDir != "" {
		if *out != "" || *asCSV || *asTransient {
			return errors.New("-plan runs nothing, so it writes no results: give -out, -csv or -transient to 'phitsim merge -plan DIR'")
		}
		return writePlan(e, sp, table, *planDir)
	}
	jobs, oc, runErr := runSpecThreads(ctx, e, sp, func(n int) string { return fmt.Sprintf("%d runs", n) }, *workers, *threads)
	if oc == nil {
		return runErr
	}
	if runErr != nil {
		why := "stopped"
		if errors.Is(runErr, errInterrupted) {
			why = "interrupted"
		}
		var de *sim.DeadlockError
		if errors.As(runErr, &de) && len(oc.Runs) == len(jobs) {
			// a deadlocked run is kept: its point is marked in the table and CSV
			fmt.Fprintf(e.stderr, "some runs stopped on a stuck head (DEADLOCK or STARVATION in the table, deadlocked_runs in the CSV); all %d runs are written\n", len(jobs))
		} else {
			fmt.Fprintf(e.stderr, "%s: %d of %d runs finished; writing those\n", why, len(oc.Runs), len(jobs))
		}
	}
	return writeOutcome(e, oc, outcomeFlags{out: *out, csv: *asCSV, transient: *asTransient, table: table}, runErr)
}

// outcomeFlags: where sweep and merge write an outcome (-out, -csv,
// -transient) and whether the table has the fairness panels.
type outcomeFlags struct {
	out            string
	csv, transient bool
	table          bool
}

// writeOutcome writes a sweep's outcome where the output convention says:
// -out PREFIX's JSON and CSVs, the CSV on stdout for programs, or the
// tables. 'sweep' and 'merge' both write through it, so that a merged plan's
// files are the sweep's. runErr is returned last, after what was written.
func writeOutcome(e env, oc *sweep.Outcome, f outcomeFlags, runErr error) error {
	sp := oc.Spec
	out, asCSV, asTransient, table := &f.out, &f.csv, &f.transient, f.table
	var csvData, trData bytes.Buffer
	if err := sweep.WriteCSV(&csvData, oc.Points); err != nil {
		return errors.Join(fmt.Errorf("the curves CSV: %w", err), runErr)
	}
	if *asTransient && len(oc.Transients) == 0 {
		return errors.Join(errors.New("-transient: no series switches pattern (traffic.switchCycle = 0), so there is no time series around a switch"), runErr)
	}
	if len(oc.Transients) > 0 {
		if err := sweep.WriteTransientCSV(&trData, oc.Transients); err != nil {
			return errors.Join(fmt.Errorf("the transient CSV: %w", err), runErr)
		}
	}
	var errs []error
	if *out != "" {
		data, nonFinite, err := encodeJSON(oc)
		if err != nil {
			errs = append(errs, fmt.Errorf("encoding the runs: %w", err))
		} else {
			if len(nonFinite) > 0 {
				errs = append(errs, nonFiniteError(nonFinite))
			}
			_, err := deliver(*out+".json", e.stdout, "the runs JSON", data)
			errs = append(errs, err)
		}
		_, err = deliver(*out+".csv", e.stdout, "the curves CSV", csvData.Bytes())
		errs = append(errs, err)
		wrote := *out + ".json and " + *out + ".csv"
		if trData.Len() > 0 {
			_, err = deliver(*out+"-transient.csv", e.stdout, "the transient CSV", trData.Bytes())
			errs = append(errs, err)
			wrote = *out + ".json, " + *out + ".csv and " + *out + "-transient.csv"
		}
		if errors.Join(errs...) == nil {
			fmt.Fprintf(e.stderr, "wrote %s\n", wrote)
		}
	}
	if *asCSV || *asTransient || (*out == "" && !e.tty) {
		what, data := "the curves CSV", csvData.Bytes()
		if *asTransient {
			what, data = "the transient CSV", trData.Bytes()
		}
		_, err := deliver("", e.stdout, what, data)
		errs = append(errs, err)
	} else {
		printTable(e.stdout, oc)
		printPhysicalTable(e.stdout, oc)
		printWindowTable(e.stdout, oc)
		switch {
		case table && sp.Param != "":
			printFairnessPanels(e.stdout, oc)
		case table:
			printFairnessTable(e.stdout, oc)
		}
		printSettleTable(e.stdout, oc.Transients)
		printQCNReactions(e.stdout, oc)
		printQCNGroup0(e.stdout, oc)
	}
	// the interrupt last, after what was written
	return errors.Join(append(errs, runErr)...)
}

// expandSeries makes one configuration per combination of series values.
func expandSeries(base []config.Config, series []string) ([]config.Config, error) {
	// each series runs at least once: count the cross product before building it
	n, factors := len(base), []string{strconv.Itoa(len(base))}
	for _, s := range series {
		if _, vals, ok := strings.Cut(s, "="); ok && vals != "" {
			k := strings.Count(vals, ",") + 1
			n, factors = n*k, append(factors, strconv.Itoa(k))
		}
		if n > sweep.MaxRuns {
			return nil, fmt.Errorf("-series: %s configurations and values make %d series or more; a sweep runs at most %d runs", strings.Join(factors, " × "), n, sweep.MaxRuns)
		}
	}
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
				next = append(next, d)
			}
		}
		cfgs = next
	}
	if len(series) > 0 {
		// the series as run (every -series applied), numbered as the table numbers them
		for i, c := range cfgs {
			if errs := c.Validate(); len(errs) > 0 {
				return nil, fmt.Errorf("series %d (%s): %w", i+1, c.Name, errs)
			}
		}
	}
	return cfgs, nil
}

func cmdPresets(w io.Writer) error {
	for _, p := range config.Presets() {
		c := p.Config
		// the network by its own kind's sizing fields (a fat tree has no h)
		var extra string
		if q := c.Router.Queueing; q != "" {
			extra += ", queueing " + q
		}
		if cs := c.Congestion.SchemeName(); cs != "none" {
			extra += ", congestion " + cs
		}
		fmt.Fprintf(w, "%-14s %s\n%14s %s %s, %s, %s%s, warm-up %d + %d cycles%s\n", p.Name, p.Doc, "",
			kindTitle(c.Topology.Kind), c.Topology.Describe(), c.Routing.Name, c.Traffic.Pattern, extra, c.Sim.Warmup, c.Sim.Cycles, runTime(&c))
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
					lo = p.Bound(*p.Min)
				}
				if p.Max != nil {
					hi = p.Bound(*p.Max)
				}
				extra = append(extra, "["+lo+", "+hi+"]")
			}
			if p.Unit != "" {
				extra = append(extra, p.Unit)
			}
			if p.When != "" {
				extra = append(extra, "when "+p.WhenText())
			}
			if p.FOGSim != "" {
				extra = append(extra, "FOGSim's model: "+p.FOGSim)
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

func cmdValidate(args []string, e env) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	var src source
	src.register(fs)
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	w := e.stdout
	cfgs, err := src.load(e)
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
		sz, _ := c.Topology.Sizes() // valid
		var vcs []string
		for _, cl := range c.Classes() {
			vcs = append(vcs, fmt.Sprintf("%s %d", cl.Name, cl.VCs))
		}
		more := ""
		if m := c.MechanismVCsText(); m != "" {
			more = "; the mechanism adds " + m // above the data VCs, within a port's 32
		}
		fmt.Fprintf(w, "ok: %s — %d nodes; VCs %s%s\n", nameOf(c), sz.Nodes, strings.Join(vcs, ", "), more)
		// the plan's cost model, as 'sweep -plan' prints it: a memory bound
		// (every buffer slot holding a packet) and CPU at 10⁹ instructions/s
		fmt.Fprintf(w, "estimate: up to %s of memory, about %s of CPU per run (one core)\n", fmtMiB(plan.Bytes(&c)), fmtSeconds(plan.Seconds(&c)))
		// valid, but a value the routing's own options rule out
		for _, fe := range c.Unapplied() {
			fmt.Fprintf(w, "note: %s\n", fe)
		}
		printBufferWarnings(w, c)
		printPhysical(w, &c)
	}
	return nil
}
