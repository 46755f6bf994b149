package sweep

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"phitsim/engine/config"
)

// MaxResultsBytes bounds what the finished runs of one experiment keep
// (config.Config.ResultBytes summed over its runs). The page keeps every run
// in its tab (ui.wasm: at most 4 GiB, not shared with the workers that
// simulate) and, when the runs end, renders them as indented JSON for the
// export and keeps that text too: with the results, the export's heap
// peaks at about 6.7 times the bound where the bound is tight (long time
// series; site/experiment's TestTheLargestExperimentExportsInATab measures
// it), so 560 MiB of results peak near 3.7 GiB. It holds the thesis's
// Graph500 comparisons, whose time series are bounded by their
// 50-million-cycle cap (graph500-tq-routing: 441 MiB over its 8 values of
// workload.tq, 551 MiB over ten loads). The CLI keeps the runs and writes
// the same JSON, and refuses what the page refuses.
const MaxResultsBytes = 560 << 20

// ResultsError is an experiment whose finished runs would not fit in
// MaxResultsBytes. It names the parameter to change (Path, with its Value
// in the series whose runs keep most of that parameter's terms) and by how
// much.
type ResultsError struct {
	Series int    // index in Spec.Series
	Name   string // the series' name, or its routing and pattern
	Path   string // sim.histMax, sim.interval, topology, workload.maxLevels, or sim.seeds
	Value  string
	Msg    string
	multi  bool // several series: Error names this one
}

func (e *ResultsError) Error() string {
	s := e.Path + " = " + e.Value + ": " + e.Msg
	if e.multi {
		s = fmt.Sprintf("series %d (%s): %s", e.Series+1, e.Name, s)
	}
	return s
}

// CheckResults refuses an experiment whose finished runs, all kept until it
// ends, would need more than MaxResultsBytes: a *ResultsError naming the
// parameter whose terms add up to most (config.Config.ResultParts), how far
// it must move, and how many seeds or swept values would fit instead.
// Points whose configuration the swept value breaks are skipped (Jobs
// reports them).
func (sp Spec) CheckResults() error {
	xs := sp.Xs()
	// each calls f with every point's configuration, as its runs have it
	each := func(f func(si int, c *config.Config, runs int64)) {
		for si := range sp.Series {
			for _, x := range xs {
				if c := sp.Series[si]; sp.Apply(&c, x) == nil {
					f(si, &c, int64(max(c.Sim.Seeds, 0)))
				}
			}
		}
	}
	// the terms by parameter, over every run
	var paths []string
	var sums []int64
	var total int64
	runs := 0
	each(func(_ int, c *config.Config, n int64) {
		runs += int(n)
		for _, p := range c.ResultParts() {
			i := slices.Index(paths, p.Path)
			if i < 0 {
				i, paths, sums = len(paths), append(paths, p.Path), append(sums, 0)
			}
			sums[i] += n * p.Bytes
			total += n * p.Bytes
		}
	})
	if total <= MaxResultsBytes {
		return nil
	}
	top := 0 // the parameter whose terms add up to most
	for i := range sums {
		if sums[i] > sums[top] {
			top = i
		}
	}
	path := paths[top]
	// the series that keeps most of them, and its run that keeps most
	bySeries := make([]int64, len(sp.Series))
	each(func(si int, c *config.Config, n int64) { bySeries[si] += n * term(c, path).Bytes })
	e := &ResultsError{Series: 0, multi: len(sp.Series) > 1}
	for si := range bySeries {
		if bySeries[si] > bySeries[e.Series] {
			e.Series = si
		}
	}
	var c config.Config
	var largest config.MemoryPart
	each(func(si int, pc *config.Config, _ int64) {
		if t := term(pc, path); si == e.Series && (t.Bytes > largest.Bytes || largest.What == "") {
			c, largest = *pc, t
		}
	})
	e.Name = c.Name
	if e.Name == "" {
		e.Name = c.Routing.Name + " " + c.Traffic.Pattern
	}

	// the most (or, for sim.interval, the least) value of the parameter in
	// that series that fits, found by bisection: a term is not always
	// proportional to its parameter (allocations round up)
	fits := func(edit func(*config.Config, int), v int) bool {
		try := sp
		try.Series = slices.Clone(sp.Series)
		edit(&try.Series[e.Series], v)
		return try.resultsBytes() <= MaxResultsBytes
	}
	most := func(lo, hi int, edit func(*config.Config, int)) int { // the largest v in [lo, hi] that fits, or lo−1
		return lo + sort.Search(hi-lo+1, func(i int) bool { return !fits(edit, lo+i) }) - 1
	}
	hint := ""
	switch path {
	case "sim.histMax":
		if v := most(16, c.Sim.HistMax, func(c *config.Config, v int) { c.Sim.HistMax = v }); v >= 16 {
			hint = fmt.Sprintf("lower sim.histMax to %d cycles", v)
		}
	case "sim.interval":
		edit := func(c *config.Config, v int) { c.Sim.Interval = v }
		longest := c.Sim.Warmup + c.Sim.Cycles
		if v := c.Sim.Interval + sort.Search(longest-c.Sim.Interval+1, func(i int) bool { return fits(edit, c.Sim.Interval+i) }); v <= longest {
			hint = fmt.Sprintf("raise sim.interval to %d cycles", v)
		}
	case "topology":
		hint = "simulate a smaller network"
	case "workload.maxLevels":
		if v := most(1, c.Workload.MaxLevels, func(c *config.Config, v int) { c.Workload.MaxLevels = v }); v >= 1 {
			hint = fmt.Sprintf("lower workload.maxLevels to %d", v)
		}
	}
	runShare := float64(MaxResultsBytes) / float64(total)
	fewer := ""
	if v := int(float64(c.Sim.Seeds) * runShare); v >= 1 && sp.XName() != "sim.seeds" {
		fewer = "sim.seeds ≤ " + strconv.Itoa(v)
	}
	if v := int(float64(len(xs)) * runShare); v >= 1 && len(xs) > 1 {
		if fewer != "" {
			fewer += " or "
		}
		fewer += fmt.Sprintf("at most %d of the %d values of %s", v, len(xs), sp.XName())
	}
	switch {
	case fewer != "" && hint != "":
		hint += ", or run fewer: " + fewer
	case fewer != "":
		hint = "run fewer: " + fewer
	case hint == "":
		hint = "run fewer series"
	}

	e.Path = path
	switch path {
	case "": // every run keeps its configuration and metrics: fewer runs
		e.Path, e.Value = "sim.seeds", strconv.Itoa(c.Sim.Seeds)
	case "topology":
		e.Value = fmt.Sprintf("h=%d a=%d p=%d", c.Topology.H, c.Topology.A, c.Topology.P)
	default:
		if p, ok := config.Lookup(path); ok {
			e.Value = p.Format(&c)
		}
	}
	e.Msg = fmt.Sprintf("the experiment's %d runs keep up to %s of results (%s each for the %s); at most %s fit (a browser tab keeps every run and their JSON export): %s",
		runs, config.FormatBytes(total), config.FormatBytes(largest.Bytes), largest.What, config.FormatBytes(MaxResultsBytes), hint)
	return e
}

// resultsBytes is config.Config.ResultBytes summed over every run.
func (sp Spec) resultsBytes() int64 {
	var total int64
	for _, sc := range sp.Series {
		for _, x := range sp.Xs() {
			if c := sc; sp.Apply(&c, x) == nil {
				total += int64(max(c.Sim.Seeds, 0)) * c.ResultBytes()
			}
		}
	}
	return total
}

// term is c's result term of the parameter path (zero if it has none).
func term(c *config.Config, path string) config.MemoryPart {
	for _, p := range c.ResultParts() {
		if p.Path == path {
			return p
		}
	}
	return config.MemoryPart{}
}
