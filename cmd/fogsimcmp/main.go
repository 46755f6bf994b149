// Command fogsimcmp runs the FOGSim validation rows (validation/rows.txt) on
// phitsim and sets them beside FOGSim's numbers on the same configurations:
// the tables of engine/VALIDATION.md.
//
//	go run ./cmd/fogsimcmp                       phitsim's side; FOGSim's from validation/fogsim.tsv
//	go run ./cmd/fogsimcmp -fogsim DIR           FOGSim's side read from its output files in DIR
//	                                             (validation/fogsim.sh writes them) and saved to the TSV
//	go run ./cmd/fogsimcmp -only 'olm|pb' -set router.ejection=fifo -doc -
//	                                             some rows, an option changed, the tables on stdout
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"sync"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
)

// Both sides run seeds 1 and 2 of the base configuration (h=4, a=8, p=4,
// 5,000 + 5,000 cycles: the min-un preset; FOGSim's validation/fogsim-h4.cfg).
var (
	seeds      = []uint64{1, 2}
	basePreset = "min-un"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fogsimcmp:", err)
		os.Exit(1)
	}
}

type setFlags [][2]string

func (s *setFlags) String() string { return fmt.Sprint(*s) }
func (s *setFlags) Set(v string) error {
	kv, err := parseSets(v)
	if err != nil {
		return err
	}
	*s = append(*s, kv...)
	return nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fogsimcmp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rowsPath := fs.String("rows", "validation/rows.txt", "the validation rows")
	tsvPath := fs.String("tsv", "validation/fogsim.tsv", "FOGSim's numbers, kept in the repository")
	fogDir := fs.String("fogsim", "", "read FOGSim's output files from `DIR` (validation/fogsim.sh) and update the TSV")
	docPath := fs.String("doc", "engine/VALIDATION.md", "rewrite the tables of this document between its markers (- = stdout)")
	only := fs.String("only", "", "run only the rows whose id matches this `regexp`")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "parallel phitsim runs")
	var extra setFlags
	fs.Var(&extra, "set", "an extra phitsim `path=value` for every row (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tables, err := generate(ctx, *rowsPath, *tsvPath, *fogDir, *only, extra, *workers, stderr)
	if err != nil {
		return err
	}
	if *docPath == "-" {
		_, err = io.WriteString(stdout, tables)
		return err
	}
	return replaceBetweenMarkers(*docPath, tables)
}

// generate runs the rows (those matching only, if set) with the extra
// settings and renders the comparison tables against FOGSim's numbers, read
// from fogDir's output files or else from the TSV.
func generate(ctx context.Context, rowsPath, tsvPath, fogDir, only string, extra [][2]string, workers int, stderr io.Writer) (string, error) {
	f, err := os.Open(rowsPath)
	if err != nil {
		return "", err
	}
	common, rows, err := parseRows(f)
	f.Close()
	if err != nil {
		return "", fmt.Errorf("%s: %w", rowsPath, err)
	}
	if only != "" {
		re, err := regexp.Compile(only)
		if err != nil {
			return "", fmt.Errorf("-only: %w", err)
		}
		var kept []row
		for _, r := range rows {
			if re.MatchString(r.ID) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if len(rows) == 0 {
		return "", errors.New("no rows to run")
	}
	cfgs := make([]config.Config, len(rows))
	for i, r := range rows {
		if cfgs[i], err = rowConfig(common, r, extra); err != nil {
			return "", err
		}
	}
	fog, err := fogsimSide(rows, cfgs, fogDir, tsvPath, only == "")
	if err != nil {
		return "", err
	}
	ph, err := phitsimSide(ctx, cfgs, workers, stderr)
	if err != nil {
		return "", err
	}
	var cmp []comparison
	for i, r := range rows {
		cmp = append(cmp, compare(r, ph[i], fog[r.ID]))
	}
	return renderTables(cmp, append(append([][2]string(nil), common...), extra...)), nil
}

// rowConfig is the base preset with the common, the row's and the extra
// settings, validated as the CLI validates them.
func rowConfig(common [][2]string, r row, extra [][2]string) (config.Config, error) {
	cfg, err := config.PresetByName(basePreset)
	if err != nil {
		return cfg, err
	}
	for _, sets := range [][][2]string{common, r.Sets, extra} {
		for _, kv := range sets {
			if err := cfg.Set(kv[0], kv[1]); err != nil {
				return cfg, fmt.Errorf("row %s: %w", r.ID, err)
			}
		}
	}
	if errs := cfg.Validate(); len(errs) > 0 {
		return cfg, fmt.Errorf("row %s: %w", r.ID, errs)
	}
	return cfg, nil
}

// transientEnd is the transient record's end relative to the switch (as
// phitsim records it), or 0 without a switch.
func transientEnd(cfg *config.Config) int {
	if cfg.Traffic.SwitchCycle <= 0 {
		return 0
	}
	return cfg.TransientBins()*config.TransientBin - config.TransientPrev
}

// fogsimSide reads FOGSim's outputs (and saves them to the TSV when every
// row is there) or, without a directory, the TSV.
func fogsimSide(rows []row, cfgs []config.Config, dir, tsv string, all bool) (map[string][]*measure, error) {
	if dir == "" {
		f, err := os.Open(tsv)
		if err != nil {
			return nil, fmt.Errorf("FOGSim's numbers: %w (run FOGSim with validation/fogsim.sh, then -fogsim DIR)", err)
		}
		defer f.Close()
		data, err := readTSV(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tsv, err)
		}
		return data, nil
	}
	end := map[string]int{}
	for i, r := range rows {
		end[r.ID] = transientEnd(&cfgs[i])
	}
	data, err := readFOGSimDir(dir, rows, seeds, func(r row) int { return end[r.ID] })
	if err != nil {
		return nil, err
	}
	if !all {
		fmt.Fprintf(os.Stderr, "fogsimcmp: -only: %s left unchanged\n", tsv)
		return data, nil
	}
	if len(data) < len(rows) {
		fmt.Fprintf(os.Stderr, "fogsimcmp: %d of %d rows have FOGSim outputs\n", len(data), len(rows))
	}
	f, err := os.Create(tsv)
	if err != nil {
		return nil, err
	}
	if err := writeTSV(f, rows, data); err != nil {
		f.Close()
		return nil, err
	}
	return data, f.Close()
}

// phitsimSide runs every row and seed, in parallel.
func phitsimSide(ctx context.Context, cfgs []config.Config, workers int, stderr io.Writer) ([][]*measure, error) {
	type job struct{ row, seed int }
	jobs := make(chan job)
	out := make([][]*measure, len(cfgs))
	for i := range out {
		out[i] = make([]*measure, len(seeds))
	}
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				s, err := sim.New(cfgs[j.row], seeds[j.seed])
				var res *result.Result
				if err == nil {
					res, err = s.Run(ctx, nil)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					out[j.row][j.seed] = fromResult(res)
					out[j.row][j.seed].Seed = seeds[j.seed]
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cfgs {
		for k := range seeds {
			select {
			case jobs <- job{i, k}:
			case <-ctx.Done():
			}
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return out, firstErr
}

// fromResult puts a phitsim result in FOGSim's definitions.
func fromResult(res *result.Result) *measure {
	f := res.Fairness
	mm := f.MaxMin
	if f.Starved > 0 {
		mm = inf
	}
	r := &measure{Accepted: res.Accepted, Latency: res.Latency.Avg, InjLatency: res.InjLatency,
		Packets: float64(res.Delivered), NonMinimal: float64(res.Misrouted.FOGSim),
		OwnNonMinimal: float64(res.Misrouted.Packets), MaxMin: mm, CoV: f.CoV, MinRouter: f.MinRouter}
	if t := res.Transient; t != nil {
		r.TrPackets, r.TrMisrouted = t.Packets, t.Misrouted
	}
	return r
}
