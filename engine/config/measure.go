package config

import (
	"fmt"
	"strings"
)

// WarmupPath takes "auto" besides a number of cycles, as
// sim.autoWarmup=true (engine/METHODS.md): -set sim.warmup=auto, the page's
// field and "warmup": "auto" in a configuration file. The document keeps
// sim.warmup a number (the cap) and writes sim.autoWarmup.
const WarmupPath = "sim.warmup"

// IsAutoWarmup: the text asks for the automatic warm-up.
func IsAutoWarmup(s string) bool { return strings.TrimSpace(s) == "auto" }

// orAuto completes the error of a sim.warmup that is not a number.
func orAuto(p Param) string {
	if p.Path == WarmupPath {
		return `, or "auto" (sim.autoWarmup, this value its cap)`
	}
	return ""
}

// MeasuredCap is the most measured cycles of a run: sim.maxCycles with
// sim.precision (0: 10 × sim.cycles), else sim.cycles.
func (s Sim) MeasuredCap() int {
	switch {
	case s.Precision == 0:
		return s.Cycles
	case s.MaxCycles == 0:
		return 10 * s.Cycles
	}
	return max(s.MaxCycles, s.Cycles)
}

// SeedCap is the most runs a sweep point takes to meet sim.precision over
// its runs combined: sim.maxSeeds (0: 4 × sim.seeds), at least sim.seeds;
// sim.seeds without sim.precision.
func (s Sim) SeedCap() int {
	switch {
	case s.Precision == 0:
		return s.Seeds
	case s.MaxSeeds == 0:
		return 4 * s.Seeds
	}
	return max(s.MaxSeeds, s.Seeds)
}

// validateMeasure checks sim.autoWarmup and sim.precision against the rest
// (engine/METHODS.md): both decide on the time series, so they need enough
// intervals, and a warm-up that moves cannot anchor a pattern switch or a
// Graph500 job.
func (c *Config) validateMeasure() Errors {
	var errs Errors
	add := func(path string, value any, msg string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Value: fmt.Sprint(value), Msg: fmt.Sprintf(msg, a...)})
	}
	s := c.Sim
	if s.Interval <= 0 {
		return nil // the parameter check says so
	}
	if s.AutoWarmup {
		if s.Warmup < 50*s.Interval {
			add("sim.warmup", s.Warmup, "sim.autoWarmup needs room for 50 intervals of sim.interval = %d before its cap sim.warmup: at least %d", s.Interval, 50*s.Interval)
		}
		if c.Traffic.SwitchCycle > 0 {
			add("sim.autoWarmup", true, "cannot move the warm-up of a run that switches pattern (traffic.switchCycle counts from it): set sim.warmup")
		}
		if c.Workload.Kind == "graph500" {
			add("sim.autoWarmup", true, "a Graph500 job has no warm-up: set it false")
		}
	}
	if s.Precision > 0 {
		if s.Cycles < 10*s.Interval {
			add("sim.cycles", s.Cycles, "sim.precision needs at least 10 intervals of sim.interval = %d in the window: at least %d", s.Interval, 10*s.Interval)
		}
		if s.Warmup+s.MeasuredCap() > 200000000 {
			add("sim.maxCycles", s.MaxCycles, "sim.warmup + the cap must stay ≤ 200,000,000 cycles (0: 10 × sim.cycles)")
		}
		if c.Workload.Kind == "graph500" {
			add("sim.precision", s.Precision, "a Graph500 job ends when its search does: set it 0")
		}
	}
	return errs
}
