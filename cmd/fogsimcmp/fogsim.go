package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"phitsim/engine/config"
	"sort"
	"strconv"
	"strings"
)

// run is one simulation's headline numbers in FOGSim's definitions (thesis
// §1.6.3.2: the "Key: value" lines of FOGSim's output file).
type measure struct {
	Seed                          uint64
	Accepted, Latency, InjLatency float64
	Packets, NonMinimal           float64 // "Packets Received", "Non Minimally Routed Packets Received"
	OwnNonMinimal                 float64 // phitsim only: packets whose path left the minimal one
	MaxMin, CoV                   float64 // "Unbalance Quotient" (+Inf when a router starves), "Unfairness Quotient (stdev/avg)"
	MinRouter                     int     // "Switch With Min Injections"
	// Transient record in bins of transientBin cycles from transientFrom
	// (relative to the switch); nil without a pattern switch.
	TrPackets, TrMisrouted []int64
}

const (
	transientFrom = -config.TransientPrev
	transientBin  = config.TransientBin
)

// fogsimKeys maps the output file's keys to run fields.
var fogsimKeys = map[string]func(*measure, string) error{
	"Accepted Load":                         num(func(r *measure) *float64 { return &r.Accepted }),
	"Average Total Latency":                 num(func(r *measure) *float64 { return &r.Latency }),
	"Average Inj Latency":                   num(func(r *measure) *float64 { return &r.InjLatency }),
	"Packets Received":                      num(func(r *measure) *float64 { return &r.Packets }),
	"Non Minimally Routed Packets Received": num(func(r *measure) *float64 { return &r.NonMinimal }),
	"Unbalance Quotient":                    num(func(r *measure) *float64 { return &r.MaxMin }),
	"Unfairness Quotient (stdev/avg)":       num(func(r *measure) *float64 { return &r.CoV }),
	"Switch With Min Injections": func(r *measure, v string) (err error) {
		r.MinRouter, err = strconv.Atoi(v)
		return
	},
}

func num(field func(*measure) *float64) func(*measure, string) error {
	return func(r *measure, v string) error {
		// "0.700247 phits/(node·cycle)": the number is the first word; FOGSim
		// prints "inf" for a starved router's quotient
		w := strings.Fields(v)
		if len(w) == 0 {
			return fmt.Errorf("no value")
		}
		x, err := strconv.ParseFloat(w[0], 64)
		if err != nil {
			return err
		}
		*field(r) = x
		return nil
	}
}

// errUnfinished: the output of a FOGSim run that has not finished (or failed).
var errUnfinished = errors.New("not a finished FOGSim output")

// parseFOGSim reads FOGSim's main output file; every key of fogsimKeys must
// be there (a run that stopped early has no statistics).
func parseFOGSim(r io.Reader) (*measure, error) {
	out := &measure{}
	found := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			continue
		}
		set, known := fogsimKeys[k]
		if !known || found[k] {
			continue // the first occurrence is the network-wide one
		}
		if err := set(out, strings.TrimSpace(v)); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		found[k] = true
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var missing []string
	for k := range fogsimKeys {
		if !found[k] {
			missing = append(missing, fmt.Sprintf("%q", k))
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("%w: missing %s", errUnfinished, strings.Join(missing, ", "))
	}
	return out, nil
}

// parseTransient reads FOGSim's .transient file (a row per generation cycle
// relative to the switch: cycle, inj_cycle, latency, num_packets,
// num_misrouted, inj_latency) into bins of transientBin cycles from
// transientFrom, up to the end of the measured window (end, relative to the
// switch).
func parseTransient(r io.Reader, end int) (packets, misrouted []int64, err error) {
	nb := (end - transientFrom + transientBin - 1) / transientBin
	if nb <= 0 {
		return nil, nil, fmt.Errorf("empty transient window")
	}
	packets, misrouted = make([]int64, nb), make([]int64, nb)
	sc := bufio.NewScanner(r)
	header := true
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if header {
			if len(f) < 5 || f[1] != "inj_cycle" || f[3] != "num_packets" || f[4] != "num_misrouted" {
				return nil, nil, fmt.Errorf("line 1: not a FOGSim .transient header")
			}
			header = false
			continue
		}
		if len(f) < 5 {
			continue
		}
		inj, e1 := strconv.Atoi(f[1])
		p, e2 := strconv.ParseInt(f[3], 10, 64)
		m, e3 := strconv.ParseInt(f[4], 10, 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return nil, nil, fmt.Errorf("line %d: not numbers", n)
		}
		if inj < transientFrom || inj >= end {
			continue
		}
		b := (inj - transientFrom) / transientBin
		packets[b] += p
		misrouted[b] += m
	}
	if header {
		return nil, nil, fmt.Errorf("empty transient file")
	}
	return packets, misrouted, sc.Err()
}

// readFOGSimDir reads OUTDIR/<row>_s<seed> (and its .transient when the row
// has a pattern switch) for every row and seed; seeds with no finished output
// are left out.
func readFOGSimDir(dir string, rows []row, seeds []uint64, transientEnd func(row) int) (map[string][]*measure, error) {
	out := map[string][]*measure{}
	for _, rw := range rows {
		var runs []*measure
		for _, seed := range seeds {
			name := filepath.Join(dir, fmt.Sprintf("%s_s%d", rw.ID, seed))
			f, err := os.Open(name)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			r, err := parseFOGSim(f)
			f.Close()
			if errors.Is(err, errUnfinished) {
				fmt.Fprintf(os.Stderr, "fogsimcmp: %s: %v; seed %d of row %s left out\n", name, err, seed, rw.ID)
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if end := transientEnd(rw); end > 0 {
				tf, err := os.Open(name + ".transient")
				if err != nil {
					return nil, err
				}
				r.TrPackets, r.TrMisrouted, err = parseTransient(tf, end)
				tf.Close()
				if err != nil {
					return nil, fmt.Errorf("%s.transient: %w", name, err)
				}
			}
			r.Seed = seed
			runs = append(runs, r)
		}
		if runs != nil {
			out[rw.ID] = runs
		}
	}
	return out, nil
}

// The FOGSim numbers are kept in the repository (validation/fogsim.tsv), so
// the comparison can be redone without FOGSim: one line per row and seed.
var tsvHeader = "row\tseed\taccepted\tlatency\tinjLatency\tpackets\tnonMinimal\tmaxMin\tcov\tminRouter\ttransientPackets\ttransientMisrouted"

func writeTSV(w io.Writer, rows []row, data map[string][]*measure) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, tsvHeader)
	for _, rw := range rows {
		for _, r := range data[rw.ID] {
			fmt.Fprintf(bw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", rw.ID, r.Seed,
				g(r.Accepted), g(r.Latency), g(r.InjLatency), g(r.Packets), g(r.NonMinimal), g(r.MaxMin), g(r.CoV),
				r.MinRouter, joinInts(r.TrPackets), joinInts(r.TrMisrouted))
		}
	}
	return bw.Flush()
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func joinInts(x []int64) string {
	if x == nil {
		return "-"
	}
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(s, ",")
}

func splitInts(s string) ([]int64, error) {
	if s == "-" {
		return nil, nil
	}
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func readTSV(r io.Reader) (map[string][]*measure, error) {
	out := map[string][]*measure{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for n := 1; sc.Scan(); n++ {
		if n == 1 {
			if sc.Text() != tsvHeader {
				return nil, fmt.Errorf("line 1: unexpected header")
			}
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 12 {
			return nil, fmt.Errorf("line %d: %d fields, want 12", n, len(f))
		}
		seed, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: seed: %w", n, err)
		}
		r := &measure{Seed: seed}
		for i, p := range []*float64{&r.Accepted, &r.Latency, &r.InjLatency, &r.Packets, &r.NonMinimal, &r.MaxMin, &r.CoV} {
			v, err := strconv.ParseFloat(f[2+i], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			*p = v
		}
		if r.MinRouter, err = strconv.Atoi(f[9]); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if r.TrPackets, err = splitInts(f[10]); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if r.TrMisrouted, err = splitInts(f[11]); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if len(r.TrPackets) != len(r.TrMisrouted) {
			return nil, fmt.Errorf("line %d: transient columns differ in length", n)
		}
		out[f[0]] = append(out[f[0]], r)
	}
	return out, sc.Err()
}
