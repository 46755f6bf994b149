package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"phitsim/engine/figures"
	"phitsim/engine/sweep"
)

// cmdFigures lists the figure gallery (engine/figures), or with -check ID
// runs one figure's scaled experiment and prints its claim against the
// measured value.
func cmdFigures(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("figures", flag.ContinueOnError)
	check := fs.String("check", "", "run the figure `ID` and print claim vs measured, pass or fail")
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	w := e.stdout
	if *check == "" {
		for _, f := range figures.Table {
			est, err := f.EstimateSeconds()
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%-13s %s (%s)\n              claim: %s\n              runs: sweep -experiment %s, %s in a browser (estimated); the page draws the claim on its %s chart\n",
				f.ID, f.Title, f.Paper, f.ClaimText, f.Experiment, figures.Duration(est), f.Claim.Chart())
		}
		return nil
	}
	f, err := figures.ByID(*check)
	if err != nil {
		return fmt.Errorf("-check: %w", err)
	}
	x, err := f.Sweep()
	if err != nil {
		return err
	}
	jobs, err := x.Spec.Jobs()
	if err != nil {
		return err
	}
	// the runs share the cores as sweep's do
	cores := runtime.GOMAXPROCS(0)
	workers, _ := sweep.Share(len(jobs), cores, 0, 0)
	o, err := sweep.Run(ctx, x.Spec, sweep.Options{Workers: workers, Cores: cores})
	if err != nil {
		return err
	}
	m, err := f.Check(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s %s\nclaim:    %s\nmeasured: %s (verdict %s)\n", f.ID, f.Title, f.ClaimText, m.Text, m.Verdict)
	if !m.Pass {
		if f.Known != "" {
			fmt.Fprintf(w, "FAIL (known: %s)\n", f.Known)
			return nil
		}
		fmt.Fprintln(w, "FAIL")
		return fmt.Errorf("figure %s: the claim does not hold", f.ID)
	}
	fmt.Fprintln(w, "PASS")
	return nil
}
