package experiment

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
)

// otherValue returns a value of p different from its value in c, inside
// the parameter's range, as text.
func otherValue(t *testing.T, p config.Param, c *config.Config) string {
	t.Helper()
	cur := p.Format(c)
	inRange := func(x float64) bool {
		return (p.Min == nil || x >= *p.Min) && (p.Max == nil || x <= *p.Max)
	}
	switch p.Kind {
	case "bool":
		return strconv.FormatBool(cur != "true")
	case "string":
		for _, e := range p.Enum {
			if e != cur {
				return e
			}
		}
		if p.Enum == nil { // free text (traffic.hotspotSenders)
			if v := "a b&c=d/é#%+x"; v != cur { // exercise escaping
				return v
			}
			return "0,1"
		}
		t.Skipf("%s has a single allowed value", p.Path)
	case "int", "uint":
		x, _ := strconv.ParseFloat(cur, 64)
		for _, d := range []float64{1, -1} {
			if inRange(x + d) {
				return strconv.FormatFloat(x+d, 'f', 0, 64)
			}
		}
		if p.Kind == "uint" {
			return strconv.FormatUint(math.MaxUint64, 10)
		}
		t.Skipf("%s has a single allowed value", p.Path)
	case "float":
		x, _ := strconv.ParseFloat(cur, 64)
		for _, d := range []float64{0.1 + 0.2, -(0.1 + 0.2), 1.0 / 3} {
			if inRange(x + d) {
				return strconv.FormatFloat(x+d, 'g', -1, 64)
			}
		}
	}
	t.Fatalf("no other value for %s", p.Path)
	return ""
}

// Every parameter round-trips through the URL fragment, in the first
// series (relative to the defaults) and in a second one (relative to the first).
func TestURLRoundTripEveryParam(t *testing.T) {
	for _, p := range config.Params() {
		t.Run(p.Path, func(t *testing.T) {
			c0 := config.Default()
			v := otherValue(t, p, &c0)
			if err := p.SetString(&c0, v); err != nil {
				t.Fatal(err)
			}
			c1 := c0
			if err := p.SetString(&c1, otherValue(t, p, &c0)); err != nil {
				t.Fatal(err)
			}
			e := Experiment{Series: []config.Config{c0, c1}, Sweep: DefaultSweep()}
			frag := Encode(Link{Exp: e})
			if !strings.Contains(frag, p.Path+"=") || !strings.Contains(frag, "s2."+p.Path+"=") {
				t.Errorf("fragment %q lacks %s", frag, p.Path)
			}
			got, errs := Decode("#" + frag)
			// a changed field may make the series invalid (router.model=iq
			// with speedup 2): the link says so, in Check's words, and
			// keeps the values
			if want := e.Check(); len(errs) != len(want) {
				t.Fatalf("decode %q: %v; want %v", frag, errs, want)
			}
			if !reflect.DeepEqual(got.Exp, e) {
				t.Errorf("round trip of %q differs:\n got %+v\nwant %+v", frag, got.Exp.Series, e.Series)
			}
		})
	}
}

// One series of config.Default() over the default sweep differs from
// nothing, yet is not the page's default experiment: its fragment is "v=1",
// not empty (an empty fragment opens the page's default experiment).
func TestURLDefaultConfigIsNotEmpty(t *testing.T) {
	e := Experiment{Series: []config.Config{config.Default()}, Sweep: DefaultSweep()}
	f := Encode(Link{Exp: e})
	if f != "v="+URLVersion {
		t.Errorf("config.Default() over the default sweep encodes as %q", f)
	}
	if l, errs := Decode("#" + f); len(errs) > 0 || !reflect.DeepEqual(l.Exp, e) {
		t.Errorf("%q decodes to %+v (%v)", f, l.Exp, errs)
	}
	l, errs := Decode("")
	if len(errs) > 0 || !reflect.DeepEqual(l.Exp, Default()) {
		t.Errorf("empty fragment should give the page's default experiment")
	}
	if _, errs := Decode("#v=2&topology.h=2"); len(errs) != 1 {
		t.Errorf("unknown version: %v", errs)
	}
}

func TestURLPresetsAndModes(t *testing.T) {
	for _, p := range Presets() {
		for _, mode := range []Link{{Exp: p.Exp}, {Exp: p.Exp, Chart: "latency"}, {Exp: p.Exp, Embed: true, Chart: "accepted"}} {
			frag := Encode(mode)
			got, errs := Decode(frag)
			if len(errs) > 0 {
				t.Fatalf("%s: %v", p.Name, errs)
			}
			if !reflect.DeepEqual(got, mode) {
				t.Errorf("%s: %q decodes to %+v", p.Name, frag, got)
			}
		}
	}
	// identical copies of a series still count
	e := Default()
	e.Series = append(e.Series, e.Series[1])
	got, _ := Decode(Encode(Link{Exp: e}))
	if len(got.Exp.Series) != 3 {
		t.Errorf("copy lost: %d series", len(got.Exp.Series))
	}
}

func TestURLErrors(t *testing.T) {
	l, errs := Decode("#topology.h=2&bogus.key=1&routing.name=VAL&sweep=1:2&s99.x=1&chart=pie&x=nope&topology.a=x")
	if len(errs) != 6 {
		t.Errorf("want 6 errors, got %d: %v", len(errs), errs)
	}
	if l.Exp.Series[0].Topology.H != 2 || l.Exp.Series[0].Routing.Name != "VAL" {
		t.Errorf("valid parts not applied: %+v", l.Exp.Series[0].Topology)
	}
	if !reflect.DeepEqual(l.Exp.Sweep, DefaultSweep()) || l.Chart != "" {
		t.Errorf("bad sweep/chart kept: %+v %q", l.Exp.Sweep, l.Chart)
	}
}

func TestSweepValues(t *testing.T) {
	for _, tc := range []struct {
		s    Sweep
		want []float64
	}{
		{DefaultSweep(), []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}},
		{Sweep{LoadParam, 0.05, 0.2, 0.05, nil, nil}, []float64{0.05, 0.1, 0.15, 0.2}},
		{Sweep{LoadParam, 0.3, 0.3, 0, nil, nil}, []float64{0.3}},
		{Sweep{LoadParam, 0.5, 0.1, 0.2, nil, nil}, []float64{0.5, 0.3, 0.1}},
		{Sweep{"router.localBuffer", 8, 20, 4, nil, nil}, []float64{8, 12, 16, 20}},
		{Sweep{Param: "workload.tq", List: []float64{0.5, 1, 1.5, 2.25, 4, 8, 15}}, []float64{0.5, 1, 1.5, 2.25, 4, 8, 15}},
		{Sweep{Param: "router.localBuffer", List: []float64{8, 64}}, []float64{8, 64}},
	} {
		got, err := tc.s.Values()
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: %v %v", tc.s, got, err)
		}
	}
	for _, bad := range []Sweep{{LoadParam, 0, 1, 0, nil, nil}, {LoadParam, 0, 1, -1, nil, nil}, {"routing.name", 0, 1, 1, nil, nil},
		{"nope", 0, 1, 1, nil, nil}, {LoadParam, 0, 1, 1e-6, nil, nil}, {LoadParam, math.NaN(), 1, 0.1, nil, nil},
		{Param: LoadParam, List: []float64{0.1, math.Inf(1)}},
		// integer parameters are never rounded behind the user's back
		{"router.localBuffer", 8, 20, 2.5, nil, nil}, {"router.localBuffer", 8.5, 20, 2, nil, nil},
		{Param: "router.localBuffer", List: []float64{8.4, 64}}} {
		if _, err := bad.Values(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func tinyExp() Experiment {
	e := Default()
	for i := range e.Series {
		e.Series[i].Sim.Warmup, e.Series[i].Sim.Cycles = 500, 1500
	}
	e.Sweep = Sweep{LoadParam, 0.2, 0.6, 0.2, nil, nil}
	return e
}

// The page's jobs are the engine's sweep jobs, and its points are the
// engine's sweep outcome, number for number.
func TestJobsAndPointsEqualEngineSweep(t *testing.T) {
	e := tinyExp()
	r, err := NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	spec := sweep.Spec{Series: e.Series, Loads: r.Values}
	sj, _ := spec.Jobs()
	if len(sj) != len(r.Jobs) {
		t.Fatalf("%d jobs, engine %d", len(r.Jobs), len(sj))
	}
	for i, j := range r.Jobs {
		if j.Series != sj[i].Series || j.Point != sj[i].Point || j.Seed != sj[i].Seed ||
			!reflect.DeepEqual(j.Config, sj[i].Config) || j.X != r.Values[j.Point] {
			t.Fatalf("job %d differs", i)
		}
	}
	// run the jobs as a worker would, in reverse order
	for i := len(r.Jobs) - 1; i >= 0; i-- {
		j := r.Jobs[i]
		s, err := sim.New(j.Config, j.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if r.Runs[i], err = s.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		s.AddBusiestLink(r.Runs[i]) // as the page's worker
	}
	want, err := sweep.Run(context.Background(), spec, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	pts := r.Points()
	if len(pts) != len(want.Points) {
		t.Fatalf("%d points, engine %d", len(pts), len(want.Points))
	}
	for i, p := range pts {
		if !reflect.DeepEqual(p.Agg, want.Points[i]) {
			t.Errorf("point %d differs:\n%+v\n%+v", i, p.Agg, want.Points[i])
		}
	}
	csv, err := r.CSV()
	if err != nil || !strings.HasPrefix(string(csv), "series,name,offered") || strings.Count(string(csv), "\n") != len(pts)+1 {
		t.Errorf("csv %q %v", csv, err)
	}
	js, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var ex Export
	if err := json.Unmarshal(js, &ex); err != nil || len(ex.Runs) != len(r.Jobs) || len(ex.Points) != len(pts) {
		t.Errorf("export: %v", err)
	}
	// partial results: only some points
	for i := range r.Runs {
		if r.Jobs[i].Point == 1 {
			r.Runs[i] = nil
		}
	}
	pts = r.Points()
	if len(pts) != 4 || pts[1].Index != 2 || pts[1].X != 0.6 {
		t.Errorf("partial points %+v", pts)
	}
}

func TestOtherSweptVariable(t *testing.T) {
	e := Experiment{Series: []config.Config{tinyExp().Series[1]}, Sweep: Sweep{"router.localBuffer", 16, 32, 16, nil, nil}}
	r, err := NewResults(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Jobs) != 4 || r.Jobs[2].Config.Router.LocalBuffer != 32 || r.Jobs[2].X != 32 || r.Jobs[2].Seed != 1 || r.Jobs[3].Seed != 2 {
		t.Fatalf("jobs %+v", r.Jobs)
	}
	for i, j := range r.Jobs {
		r.Runs[i] = &result.Result{Config: j.Config, Offered: j.Load(), Accepted: float64(i)}
	}
	csv, _ := r.CSV()
	lines := strings.Split(string(csv), "\n")
	// param and x, then the quality columns (sweep.CSVQualityHeader)
	if !strings.Contains(lines[0], ",param,x,verdict,") || !strings.HasPrefix(lines[2], "0,VAL,") || !strings.Contains(lines[2], ",router.localBuffer,32,") {
		t.Errorf("csv %q", csv)
	}
	if pts := r.Points(); pts[1].Agg.Param != "router.localBuffer" || pts[1].Agg.X != 32 {
		t.Errorf("points %+v", pts)
	}
	// the page's jobs and points are those of the engine's parameter sweep
	sp, _ := e.Spec()
	for i, j := range r.Jobs {
		s, _ := sim.New(j.Config, j.Seed)
		r.Runs[i], _ = s.Run(context.Background(), nil)
		s.AddBusiestLink(r.Runs[i]) // as the page's worker
	}
	want, err := sweep.Run(context.Background(), sp, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range r.Points() {
		if !reflect.DeepEqual(p.Agg, want.Points[i]) {
			t.Errorf("point %d differs:\n%+v\n%+v", i, p.Agg, want.Points[i])
		}
	}
	// invalid values are reported before anything runs
	e.Sweep = Sweep{"router.localBuffer", 1, 2, 1, nil, nil}
	if _, err := NewResults(e); err == nil {
		t.Error("buffer smaller than a packet accepted")
	}
}

func TestPresetsValid(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Presets() {
		if seen[p.Name] {
			t.Errorf("duplicate preset %s", p.Name)
		}
		seen[p.Name] = true
		if _, err := p.Exp.Jobs(); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
	if _, ok := PresetByName("quick-un"); !ok {
		t.Error("quick-un missing")
	}
	d := Default()
	if len(d.Series) != 2 || d.Series[0].Routing.Name != "MIN" || d.Series[1].Routing.Name != "VAL" || d.Series[0].Topology.H != 2 {
		t.Errorf("default experiment %+v", d)
	}
}

func TestTracker(t *testing.T) {
	r, _ := NewResults(tinyExp())
	tr := NewTracker(r.Jobs)
	if tr.ETA(1) != -1 {
		t.Error("ETA before progress")
	}
	for i := range r.Jobs {
		if i%2 == 0 {
			tr.Set(i, 1)
		}
	}
	if f := tr.Fraction(); math.Abs(f-0.5) > 1e-12 {
		t.Errorf("fraction %v", f)
	}
	if eta := tr.ETA(10); math.Abs(eta-10) > 1e-9 {
		t.Errorf("eta %v", eta)
	}
}

func TestRoutingExperimentPresets(t *testing.T) {
	for _, se := range sweep.Experiments() {
		e, ok := PresetByName(se.Name)
		if !ok {
			t.Errorf("experiment %s is not a preset", se.Name)
			continue
		}
		// every series and load of the engine's experiment
		sp, err := e.Spec()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(sp, se.Spec) {
			t.Errorf("%s: preset spec %+v\nengine %+v", se.Name, sp, se.Spec)
		}
		// and the link reproduces it
		got, errs := Decode(Encode(Link{Exp: e}))
		if len(errs) > 0 || !reflect.DeepEqual(got.Exp, e) {
			t.Errorf("%s: link round trip: %v", se.Name, errs)
		}
		// the gallery's figures (fig-*) are opened by their Run button:
		// running on opening is what it asks; the RECN paper's corner cases
		// (recn-*: the 64-host tree, seconds) are as quick as a figure
		if e.Work() <= 2e8 && !strings.HasPrefix(se.Name, "fig-") && !strings.HasPrefix(se.Name, "recn-") {
			t.Errorf("%s runs on opening (%g node-cycles); the newcomer's default must stay the fast one", se.Name, e.Work())
		}
	}
	// a shortened link: the overrides of series 1 reach every series
	e, _ := PresetByName("acor-adv1")
	frag := Encode(Link{Exp: e}) + "&sim.cycles=1000&sim.warmup=500&sim.seeds=1&sweep=0.1:0.3:0.2"
	l, errs := Decode(frag)
	if len(errs) > 0 || len(l.Exp.Series) != 6 {
		t.Fatalf("%v, %d series", errs, len(l.Exp.Series))
	}
	for i, c := range l.Exp.Series {
		if c.Sim.Cycles != 1000 || c.Sim.Seeds != 1 || c.Routing.Name != e.Series[i].Routing.Name || c.Name != e.Series[i].Name ||
			c.Routing.AcorSequence != e.Series[i].Routing.AcorSequence {
			t.Errorf("series %d: %s %s cycles %d", i, c.Name, c.Routing.Name, c.Sim.Cycles)
		}
	}
	if v, _ := l.Exp.Sweep.Values(); len(v) != 2 {
		t.Errorf("values %v", v)
	}
}

func TestGraph500Presets(t *testing.T) {
	n := 0
	for _, p := range Presets() {
		if !p.Exp.Series[0].Graph500() {
			continue
		}
		n++
		jobs, err := p.Exp.Jobs()
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(p.Name, "engine:") && len(jobs) != p.Exp.Series[0].Sim.Seeds {
			t.Errorf("%s: %d jobs; a Graph500 engine preset is one point", p.Name, len(jobs))
		}
		if w := p.Exp.Work(); w <= 0 || w > 1e10 {
			t.Errorf("%s: work %g node-cycles", p.Name, w)
		}
	}
	if n != 7+5+3 { // the last 3: Kim et al. §V-C's trace stand-ins (cbcm-trace-hotspot, its quick version, cbcm-fig10)
		t.Errorf("%d Graph500 presets", n)
	}
	for _, name := range []string{"graph500-tq-bw", "graph500-tq-routing", "graph500-2groups-routing"} {
		e, _ := PresetByName(name)
		if e.Sweep.Param != "workload.tq" || len(e.Series) < 2 {
			t.Errorf("%s: %+v", name, e.Sweep)
		}
	}
	// the t_q sweep has the four node types of thesis Table 2.3
	e, _ := PresetByName("graph500-tq-bw")
	v, _ := e.Sweep.Values()
	for _, tq := range []float64{1.5, 2.25, 2.4, 15} {
		if !slices.Contains(v, tq) {
			t.Errorf("graph500-tq-bw: tq values %v lack %g", v, tq)
		}
	}
	// its 100 Gb/s series has Table 2.4's links in ns: 1/3/1 cycles of 40.96 ns
	if c := e.Series[1]; c.Workload.LinkGbps != 100 || c.Topology.LocalLatency != 1 || c.Topology.GlobalLatency != 3 || c.Router.XbarLatency != 1 {
		t.Errorf("graph500-tq-bw at 100 Gb/s: latencies %d/%d/%d", c.Topology.LocalLatency, c.Topology.GlobalLatency, c.Router.XbarLatency)
	}
	e, _ = PresetByName("graph500-2groups-routing")
	for _, c := range e.Series {
		if c.Workload.Groups != 2 || c.Topology.H != 4 {
			t.Errorf("graph500-2groups-routing %s: %d groups of h=%d", c.Name, c.Workload.Groups, c.Topology.H)
		}
	}
	e, _ = PresetByName("graph500-bw")
	if v, _ := e.Sweep.Values(); e.Sweep.Param != "workload.linkGbps" || len(v) != 7 || len(e.Series) != 4 {
		t.Errorf("graph500-bw: %s %v, %d series", e.Sweep.Param, v, len(e.Series))
	}
}

// An engine preset with a hotspot window (the RECN paper's corner cases,
// Fig. 2: throughput against time at one background load) opens as that one
// point, not as a load sweep of five full runs.
func TestWindowedHotspotPresetIsOnePoint(t *testing.T) {
	n := 0
	for _, p := range Presets() {
		if len(p.Exp.Series) != 1 || p.Exp.Series[0].Traffic.HotspotEnd == 0 || !strings.HasPrefix(p.Name, "engine:") {
			continue
		}
		n++
		c := p.Exp.Series[0]
		if pts, err := p.Exp.Sweep.Values(); err != nil || len(pts) != 1 || p.Exp.Sweep.Param != LoadParam || pts[0] != c.Traffic.Load {
			t.Errorf("%s: sweep %+v, points %v; want the preset's load %g alone", p.Name, p.Exp.Sweep, pts, c.Traffic.Load)
		}
	}
	if n < 2 {
		t.Fatalf("%d engine presets with a hotspot window; want the RECN corner cases", n)
	}
}

// The live view watches the RECN series of the RECN paper's presets (Duato
// et al., Fig. 2: IQ, 4Q, VOQsw, VOQnet, RECN; Fig. 6's schemes), whose
// snapshots carry the SAQs the drawing colours; any other experiment, its
// first series.
func TestWatchSeries(t *testing.T) {
	for _, name := range []string{"recn-fig2a", "recn-fig2b"} {
		e, _ := PresetByName(name)
		if got := e.WatchSeries(); got != 4 || e.SeriesName(got) != "RECN" || e.Series[got].Congestion.Scheme != "recn" {
			t.Errorf("%s watches series %d (%s), want 4 (RECN)", name, got, e.SeriesName(got))
		}
	}
	for _, name := range []string{"recn-fig6a", "recn-fig6b"} {
		e, _ := PresetByName(name)
		if got := e.WatchSeries(); e.Series[got].Congestion.Scheme != "recn" {
			t.Errorf("%s watches series %d (%s), not a RECN series", name, got, e.SeriesName(got))
		}
	}
	d := Default()
	if got := d.WatchSeries(); got != 0 {
		t.Errorf("the default experiment watches series %d, want 0", got)
	}
}

// The flattened butterfly presets of Kim et al. (Contention-based Congestion
// Management in Large-Scale Networks, Figs. 2–14 and §V-C) name in their
// description every scheme their series run ("Baseline(MIN)",
// "SRP(UGAL)": Baseline, Ideal, ECN, SRP, CBCM): the preset menu is what a
// visitor reads before Run.
func TestKimPresetDocsNameTheirSchemes(t *testing.T) {
	scheme := regexp.MustCompile(`^(Baseline|Ideal|ECN|SRP|CBCM)\((MIN|UGAL)\)$`)
	n := 0
	for _, p := range Presets() {
		if !strings.HasPrefix(p.Name, "cbcm-") && !strings.HasPrefix(p.Name, "srp-") {
			continue
		}
		for i := range p.Exp.Series {
			if m := scheme.FindStringSubmatch(p.Exp.SeriesName(i)); m != nil {
				n++
				if !strings.Contains(p.Doc, m[1]) {
					t.Errorf("%s runs %s, its description does not name %s: %q", p.Name, m[0], m[1], p.Doc)
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("%d series checked: the presets' names or series changed", n)
	}
}
