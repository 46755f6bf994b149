package experiment

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"phitsim/engine/config"
	"phitsim/engine/figures"
	"phitsim/engine/sweep"
)

// Link is what a URL fragment carries: an experiment, and how to show it.
type Link struct {
	Exp Experiment
	// Chart selects the chart shown in embed mode (and focused otherwise).
	Chart string
	// Embed: show only the chart and a Run button (an iframe in a paper).
	Embed bool
	// Gallery: the figure gallery (#gallery), one card per figure of
	// engine/figures.
	Gallery bool
	// Figure: a gallery figure's ID (#fig=1.19): its experiment, embedded
	// with its claim and a Run button.
	Figure string
}

// Charts that a link may name.
var Charts = []string{"accepted", "latency", "injlatency", "netlatency", "bgaccepted", "bglatency", "bgseries", "hotspotsenders", "ur1accepted", "ur1latency", "srpspeculative", "srpdropped", "fairness", "histogram", "timeseries",
	"transientlatency", "transientmisrouted", "transientaccepted", "transientacor", "qcnprobability", "qcncnm", "qcncnmtime", "recnsaq", "misrouting", "nonminimal", "phasea", "acor", "acorrouters", "exectime", "usage", "bfs", "levels"}

// Encode renders a link as a URL fragment (without '#'): only what differs
// from the defaults, as readable key=value pairs.
//
//	topology.h=2&routing.name=VAL        series 1 (differences from config.Default)
//	s2.routing.name=MIN&s2.name=MIN      series 2 (differences from series 1)
//	x=router.localBuffer&sweep=8:64:8    swept variable and from:to:step
//	x=workload.tq&sweep=0.5,1,1.5        or a list of values
//	tie=traffic.mixUN:100:-1             parameters tied to the swept one,
//	                                     path:offset:scale (comma-separated)
//	embed=accepted                       embed mode showing that chart
//	chart=latency                        chart in focus (not embedded)
//	v=1                                  the format version, written only when
//	                                     nothing else is (see below)
//
// Keys are written in parameter declaration order, so equal experiments give
// equal fragments. An empty fragment means the page's default experiment
// (Default), so an experiment that differs from nothing (one series of
// config.Default swept over the default loads) is written "v=1": every
// fragment decodes to the experiment it was encoded from.
func Encode(l Link) string {
	var parts []string
	add := func(k, v string) { parts = append(parts, escape(k)+"="+escape(v)) }
	switch {
	case l.Gallery:
		return "gallery"
	case l.Figure != "":
		// the figure's ID says the rest: a short link for an iframe
		add("fig", l.Figure)
		return strings.Join(parts, "&")
	}
	if l.Embed {
		add("embed", l.Chart)
	} else if l.Chart != "" {
		add("chart", l.Chart)
	}
	def := config.Default()
	for i := range l.Exp.Series {
		base := &def
		prefix := ""
		if i > 0 {
			base = &l.Exp.Series[0]
			prefix = "s" + strconv.Itoa(i+1) + "."
		}
		cur := &l.Exp.Series[i]
		n := 0
		for _, p := range config.Params() {
			if v := p.Format(cur); v != p.Format(base) {
				add(prefix+p.Path, v)
				n++
			}
		}
		if i > 0 && n == 0 {
			add(prefix+"name", cur.Name) // an identical copy still counts
		}
	}
	s, d := l.Exp.Sweep, DefaultSweep()
	if s.Param != d.Param {
		add("x", s.Param)
	}
	if len(s.List) > 0 {
		vs := make([]string, len(s.List))
		for i, x := range s.List {
			vs[i] = ftoa(x)
		}
		add("sweep", strings.Join(vs, ","))
	} else if s.From != d.From || s.To != d.To || s.Step != d.Step {
		add("sweep", ftoa(s.From)+":"+ftoa(s.To)+":"+ftoa(s.Step))
	}
	if len(s.Tied) > 0 {
		ts := make([]string, len(s.Tied))
		for i, t := range s.Tied {
			ts[i] = t.Path + ":" + ftoa(t.Offset) + ":" + ftoa(t.Scale)
			if t.Per != "" {
				ts[i] += ":" + t.Per
			}
		}
		add("tie", strings.Join(ts, ","))
	}
	if len(parts) == 0 {
		add("v", URLVersion)
	}
	return strings.Join(parts, "&")
}

// URLVersion is the version of the fragment format; "v=" is optional and
// written only when the fragment would otherwise be empty.
const URLVersion = "1"

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// escape is url.QueryEscape that leaves the characters common in our values
// readable (':' ',' '|' '/' stay, space becomes %20).
func escape(s string) string {
	e := url.QueryEscape(s)
	r := strings.NewReplacer("%3A", ":", "%2C", ",", "%7C", "|", "%2F", "/", "+", "%20")
	return r.Replace(e)
}

// Decode reads a fragment (with or without '#'). It always returns a usable
// link: problems (unknown keys, bad values) are listed in errs and the rest of
// the fragment is still applied; a key given again overrides (a link can be
// shortened by appending &sim.cycles=1000). Values are kept as
// written, never clamped: what is out of range (a sweep value, the seeds, any
// field) is kept and reported with Check's message, so that the page shows
// it in its field, with the error, and refuses to run it. An empty fragment gives the page's default
// experiment (Default()); any other fragment starts from one series of
// config.Default() and the default sweep.
func Decode(frag string) (l Link, errs []error) {
	frag = strings.TrimPrefix(frag, "#")
	l.Exp = Experiment{Series: []config.Config{config.Default()}, Sweep: DefaultSweep()}
	if strings.TrimSpace(frag) == "" {
		return Link{Exp: Default()}, nil
	}
	type kv struct{ k, v string }
	var series0 []kv
	extra := map[int][]kv{}
	for _, part := range strings.Split(frag, "&") {
		if part == "" {
			continue
		}
		rk, rv, _ := strings.Cut(part, "=")
		k, err1 := url.QueryUnescape(rk)
		v, err2 := url.PathUnescape(rv)
		if err1 != nil || err2 != nil {
			errs = append(errs, fmt.Errorf("link: cannot read %q", part))
			continue
		}
		switch k {
		case "gallery":
			l.Gallery = true
			continue
		case "fig":
			f, err := figures.ByID(v)
			if err != nil {
				errs = append(errs, fmt.Errorf("link: fig: %w", err))
				continue
			}
			e, err := f.Sweep()
			if err != nil {
				errs = append(errs, fmt.Errorf("link: fig=%s: %w", v, err))
				continue
			}
			l.Figure, l.Embed, l.Chart, l.Exp = f.ID, true, f.Claim.Chart(), FromSpec(e.Spec) // the chart the claim is drawn on
			continue
		case "v":
			if v != URLVersion {
				errs = append(errs, fmt.Errorf("link: format version %q; this page reads version %s", v, URLVersion))
			}
			continue
		case "embed":
			l.Embed, l.Chart = true, v
			continue
		case "chart":
			l.Chart = v
			continue
		case "x":
			l.Exp.Sweep.Param = v
			continue
		case "tie":
			ties, err := parseTies(v)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			l.Exp.Sweep.Tied = ties
			continue
		case "sweep":
			if !strings.Contains(v, ":") { // a list of values
				var list []float64
				for _, f := range strings.Split(v, ",") {
					x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
					if err != nil {
						list = nil
						break
					}
					list = append(list, x)
				}
				if list == nil {
					errs = append(errs, fmt.Errorf("link: sweep=%s: want from:to:step or a comma list of values", v))
					continue
				}
				l.Exp.Sweep.List = list
				continue
			}
			f := strings.Split(v, ":")
			var xs [3]float64
			ok := len(f) == 3
			for i := 0; ok && i < 3; i++ {
				x, err := strconv.ParseFloat(f[i], 64)
				ok = err == nil
				xs[i] = x
			}
			if !ok {
				errs = append(errs, fmt.Errorf("link: sweep=%s: want from:to:step", v))
				continue
			}
			l.Exp.Sweep.From, l.Exp.Sweep.To, l.Exp.Sweep.Step, l.Exp.Sweep.List = xs[0], xs[1], xs[2], nil
			continue
		}
		if rest, ok := strings.CutPrefix(k, "s"); ok {
			if num, path, ok := strings.Cut(rest, "."); ok {
				if n, err := strconv.Atoi(num); err == nil {
					if n < 2 || n > 64 {
						errs = append(errs, fmt.Errorf("link: series %d out of range 2…64", n))
						continue
					}
					extra[n-1] = append(extra[n-1], kv{path, v})
					continue
				}
			}
		}
		series0 = append(series0, kv{k, v})
	}
	set := func(c *config.Config, kvs []kv, label string) {
		for _, x := range kvs {
			if err := c.Set(x.k, x.v); err != nil {
				errs = append(errs, fmt.Errorf("link%s: %w", label, err))
			}
		}
	}
	set(&l.Exp.Series[0], series0, "")
	if l.Chart != "" && !knownChart(l.Chart) {
		errs = append(errs, fmt.Errorf("link: unknown chart %q (known: %s)", l.Chart, strings.Join(Charts, ", ")))
		l.Chart = ""
	}
	var idx []int
	for i := range extra {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	if len(idx) > 0 {
		n := idx[len(idx)-1] + 1
		for i := 1; i < n; i++ {
			c := l.Exp.Series[0]
			set(&c, extra[i], fmt.Sprintf(" (series %d)", i+1))
			l.Exp.Series = append(l.Exp.Series, c)
		}
	}
	if _, ok := config.Lookup(l.Exp.Sweep.Param); !ok {
		errs = append(errs, fmt.Errorf("link: unknown swept parameter %q", l.Exp.Sweep.Param))
		l.Exp.Sweep = DefaultSweep()
	}
	for _, fe := range l.Exp.Check() {
		errs = append(errs, fmt.Errorf("link: %w", fe))
	}
	return l, errs
}

// parseTies reads tie=path:offset:scale[:per],… (sweep.Tie).
func parseTies(v string) ([]sweep.Tie, error) {
	var out []sweep.Tie
	for _, f := range strings.Split(v, ",") {
		p := strings.Split(f, ":")
		if len(p) != 3 && len(p) != 4 {
			return nil, fmt.Errorf("link: tie=%s: want path:offset:scale or path:offset:scale:per (comma-separated)", v)
		}
		off, err1 := strconv.ParseFloat(p[1], 64)
		sc, err2 := strconv.ParseFloat(p[2], 64)
		per := ""
		if len(p) == 4 {
			per = p[3]
			if _, ok := config.Lookup(per); !ok {
				return nil, fmt.Errorf("link: tie=%s: %q is not a parameter to divide by", v, per)
			}
		}
		if _, ok := config.Lookup(p[0]); !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("link: tie=%s: want path:offset:scale with a known parameter and numbers", v)
		}
		out = append(out, sweep.Tie{Path: p[0], Offset: off, Scale: sc, Per: per})
	}
	return out, nil
}

func knownChart(c string) bool {
	for _, x := range Charts {
		if x == c {
			return true
		}
	}
	return false
}
