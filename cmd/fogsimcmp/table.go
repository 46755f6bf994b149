package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strings"

	"phitsim/engine/result"
)

var inf = math.Inf(1)

// side is one simulator's row: means over the seeds, reaction times from the
// seeds' summed transient records.
type side struct {
	Accepted, Latency, InjLatency float64
	MaxMin, CoV                   float64
	NonMinimal, OwnNonMinimal     float64 // % of delivered packets
	MinRouters                    []int   // per seed
	T50, T90                      float64
	Runs                          int
}

type comparison struct {
	Row          row
	Phitsim, FOG side
	HasFOGSim    bool
	Failures     []string // acceptance bounds missed
	FairnessRule bool     // the row is unfair enough for the fairness bounds to apply
}

func summarize(runs []*measure) side {
	var s side
	var trP, trM []int64
	for _, r := range runs {
		if r == nil {
			continue
		}
		s.Runs++
		s.Accepted += r.Accepted
		s.Latency += r.Latency
		s.InjLatency += r.InjLatency
		s.MaxMin += r.MaxMin
		s.CoV += r.CoV
		if r.Packets > 0 {
			s.NonMinimal += 100 * r.NonMinimal / r.Packets
			s.OwnNonMinimal += 100 * r.OwnNonMinimal / r.Packets
		}
		s.MinRouters = append(s.MinRouters, r.MinRouter)
		if r.TrPackets != nil {
			if trP == nil {
				trP, trM = make([]int64, len(r.TrPackets)), make([]int64, len(r.TrPackets))
			}
			for i := range min(len(trP), len(r.TrPackets)) {
				trP[i] += r.TrPackets[i]
				trM[i] += r.TrMisrouted[i]
			}
		}
	}
	if s.Runs > 0 {
		n := float64(s.Runs)
		s.Accepted /= n
		s.Latency /= n
		s.InjLatency /= n
		s.MaxMin /= n
		s.CoV /= n
		s.NonMinimal /= n
		s.OwnNonMinimal /= n
	}
	s.T50, s.T90 = math.NaN(), math.NaN()
	if trP != nil {
		s.T50, s.T90 = result.TransientTimes(transientFrom, transientBin, trP, trM)
	}
	return s
}

// Acceptance bounds (h=4, 5,000 + 5,000 cycles): below saturation accepted
// within 1% and latency within 3%; at and past saturation 3% and 10%;
// fairness (where the unfairness is structural: FOGSim's Max/Min at least
// structuralMaxMin and its seeds starving the same router position) Max/Min and CoV within 10% or both infinite, and the
// same starving router position; reaction times within one bin.
const (
	accBelow, latBelow = 0.01, 0.03
	accSat, latSat     = 0.03, 0.10
	fairTol            = 0.10
)

// structuralMaxMin: below it a network is fair enough that its least
// injecting router is noise (a fair h=4 network's Max/Min is 1.1–1.4 and its
// starving router a coin toss, which two seeds match by chance one time in a).
const structuralMaxMin = 1.5

// groupSize is a (routers per group) of the validation network: under the
// rows' patterns every group is alike, so a starving router is compared by
// its position in its group.
const groupSize = 8

func compare(r row, ph []*measure, fog []*measure) comparison {
	c := comparison{Row: r, Phitsim: summarize(ph), HasFOGSim: len(fog) > 0}
	if !c.HasFOGSim {
		return c
	}
	c.FOG = summarize(fog)
	acc, lat := accBelow, latBelow
	if r.Sat {
		acc, lat = accSat, latSat
	}
	check := func(name string, p, f, tol float64) {
		if d := rel(p, f); math.IsNaN(d) || math.Abs(d) > tol {
			c.Failures = append(c.Failures, fmt.Sprintf("%s %+.1f%%", name, 100*d))
		}
	}
	check("accepted", c.Phitsim.Accepted, c.FOG.Accepted, acc)
	check("latency", c.Phitsim.Latency, c.FOG.Latency, lat)
	c.FairnessRule = c.FOG.MaxMin >= structuralMaxMin && structural(c.FOG.MinRouters)
	if c.FairnessRule {
		if !(math.IsInf(c.Phitsim.MaxMin, 1) && math.IsInf(c.FOG.MaxMin, 1)) {
			check("Max/Min", c.Phitsim.MaxMin, c.FOG.MaxMin, fairTol)
		}
		check("CoV", c.Phitsim.CoV, c.FOG.CoV, fairTol)
		if !sameRouters(c.Phitsim.MinRouters, c.FOG.MinRouters) {
			c.Failures = append(c.Failures, "starving router")
		}
	}
	for _, t := range [][3]any{{"t50", c.Phitsim.T50, c.FOG.T50}, {"t90", c.Phitsim.T90, c.FOG.T90}} {
		p, f := t[1].(float64), t[2].(float64)
		if math.IsNaN(p) && math.IsNaN(f) {
			continue
		}
		if math.IsNaN(p) || math.IsNaN(f) || math.Abs(p-f) > transientBin {
			c.Failures = append(c.Failures, fmt.Sprintf("%s %s vs %s", t[0], cycles(p), cycles(f)))
		}
	}
	return c
}

// rel is the relative difference of phitsim's value from FOGSim's; 0 when
// both are infinite.
func rel(p, f float64) float64 {
	if math.IsInf(p, 1) && math.IsInf(f, 1) {
		return 0
	}
	if f == 0 {
		if p == 0 {
			return 0
		}
		return math.NaN()
	}
	return (p - f) / f
}

// structural: every seed starves a router at the same position in its group
// (a fair network's least-injecting router is a coin toss).
func structural(minRouters []int) bool {
	if len(minRouters) < 2 {
		return false
	}
	for _, r := range minRouters[1:] {
		if r%groupSize != minRouters[0]%groupSize {
			return false
		}
	}
	return true
}

// sameRouters: phitsim's seeds starve the position FOGSim's do.
func sameRouters(p, f []int) bool {
	if len(p) == 0 || len(f) == 0 {
		return false
	}
	for _, x := range p {
		if x%groupSize != f[0]%groupSize {
			return false
		}
	}
	return true
}

func num3(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "∞"
	case math.IsNaN(x):
		return "—"
	case math.Abs(x) >= 100:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) >= 10:
		return fmt.Sprintf("%.1f", x)
	case math.Abs(x) >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.3f", x)
}

func cycles(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.0f", x)
}

func delta(p, f float64) string {
	d := rel(p, f)
	if math.IsNaN(d) {
		return ""
	}
	return fmt.Sprintf(" (%+.1f%%)", 100*d)
}

func renderTables(cmp []comparison, common [][2]string) string {
	var b strings.Builder
	var sets []string
	for _, kv := range common {
		sets = append(sets, "`"+kv[0]+"="+kv[1]+"`")
	}
	pass := 0
	judged := 0
	for _, c := range cmp {
		if c.HasFOGSim {
			judged++
			if len(c.Failures) == 0 {
				pass++
			}
		}
	}
	fmt.Fprintf(&b, "Generated by `go run ./cmd/fogsimcmp` (phitsim settings on every row: %s). %d of %d rows within the acceptance bounds.\n\n",
		strings.Join(sets, ", "), pass, judged)
	b.WriteString("Loads and latencies: phitsim, FOGSim (phitsim's difference). Accepted load in phits/(node·cycle), latencies in cycles.\n\n")
	b.WriteString("| row | configuration | accepted | latency | injection latency | verdict |\n|---|---|---|---|---|---|\n")
	for _, c := range cmp {
		p, f := c.Phitsim, c.FOG
		if !c.HasFOGSim {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | no FOGSim run |\n", c.Row.ID, c.Row.What,
				num3(p.Accepted), num3(p.Latency), num3(p.InjLatency))
			continue
		}
		verdict := "within bounds"
		if len(c.Failures) > 0 {
			verdict = "**outside**: " + strings.Join(c.Failures, "; ")
		}
		if f.Runs < len(seeds) {
			verdict += fmt.Sprintf(" (FOGSim: %d seed)", f.Runs)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s, %s%s | %s, %s%s | %s, %s%s | %s |\n", c.Row.ID, c.Row.What,
			num3(p.Accepted), num3(f.Accepted), delta(p.Accepted, f.Accepted),
			num3(p.Latency), num3(f.Latency), delta(p.Latency, f.Latency),
			num3(p.InjLatency), num3(f.InjLatency), delta(p.InjLatency, f.InjLatency), verdict)
	}
	b.WriteString("\nFairness, misrouting and reaction: phitsim, FOGSim. Non-minimal: % of delivered packets as FOGSim counts them " +
		"(every packet given a Valiant path), and in brackets phitsim's own count (packets whose path left the minimal one). " +
		"Starving router: per seed, with its position in its group; the fairness bounds apply where FOGSim's unfairness is structural: Max/Min ≥ 1.5 and its seeds starve the same position (marked \\*).\n\n")
	b.WriteString("| row | Max/Min | CoV | starving router | non-minimal % | t50 | t90 |\n|---|---|---|---|---|---|---|\n")
	for _, c := range cmp {
		p, f := c.Phitsim, c.FOG
		if !c.HasFOGSim {
			nan := math.NaN()
			f = side{Accepted: nan, Latency: nan, InjLatency: nan, MaxMin: nan, CoV: nan, NonMinimal: nan, T50: nan, T90: nan}
		}
		mark := ""
		if c.FairnessRule {
			mark = "\\*"
		}
		fmt.Fprintf(&b, "| `%s`%s | %s, %s | %s, %s | %s, %s | %s [%s], %s | %s, %s | %s, %s |\n", c.Row.ID, mark,
			num3(p.MaxMin), num3(f.MaxMin), num3(p.CoV), num3(f.CoV), ints(p.MinRouters), ints(f.MinRouters),
			num3(p.NonMinimal), num3(p.OwnNonMinimal), num3(f.NonMinimal),
			cycles(p.T50), cycles(f.T50), cycles(p.T90), cycles(f.T90))
	}
	return b.String()
}

func ints(x []int) string {
	if len(x) == 0 {
		return "—"
	}
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = fmt.Sprintf("%d (%d)", v, v%groupSize)
	}
	return strings.Join(s, "/")
}

const (
	beginMarker = "<!-- fogsimcmp:begin -->"
	endMarker   = "<!-- fogsimcmp:end -->"
)

// replaceBetweenMarkers rewrites the generated part of the document.
func replaceBetweenMarkers(path, text string) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i := bytes.Index(doc, []byte(beginMarker))
	j := bytes.Index(doc, []byte(endMarker))
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s … %s section to rewrite", path, beginMarker, endMarker)
	}
	var out bytes.Buffer
	out.Write(doc[:i+len(beginMarker)])
	out.WriteString("\n")
	out.WriteString(text)
	out.Write(doc[j:])
	return os.WriteFile(path, out.Bytes(), 0o644)
}
