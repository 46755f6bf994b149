package experiment

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// Preset is a named experiment of the page.
type Preset struct {
	Name, Doc string
	Exp       Experiment
}

func named(c config.Config, name string, edit func(*config.Config)) config.Config {
	c.Name = name
	if edit != nil {
		edit(&c)
	}
	return c
}

func enginePreset(name string) config.Config {
	c, err := config.PresetByName(name)
	if err != nil {
		panic(err)
	}
	return c
}

// quick is the h=2 system with runs short enough for a browser: about a
// tenth of a second each.
func quick(pattern string) config.Config {
	c := enginePreset("h2")
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 3000, 5000, 2
	// 20 samples in the window: enough for the points' verdicts (batch
	// means need 10; engine/METHODS.md)
	c.Sim.Interval = 250
	c.Traffic.Pattern = pattern
	return c
}

func minVal(base config.Config) []config.Config {
	return []config.Config{
		named(base, "MIN", func(c *config.Config) { c.Routing.Name = "MIN" }),
		named(base, "VAL", func(c *config.Config) { c.Routing.Name = "VAL" }),
	}
}

// Default is the experiment a newcomer sees: MIN against Valiant under
// uniform traffic on the 72-node h=2 Dragonfly; it finishes in seconds.
func Default() Experiment { return Presets()[0].Exp }

// Presets are the page's experiments: quick comparisons first, then the
// engine's presets (config.Presets) as single-series load sweeps.
func Presets() []Preset {
	loads := func(from, to, step float64) Sweep { return Sweep{Param: LoadParam, From: from, To: to, Step: step} }
	ps := []Preset{
		{"quick-un", "MIN vs VAL, uniform traffic, h=2 (72 nodes): a few seconds",
			Experiment{minVal(quick("UN")), loads(0.1, 1, 0.1)}},
		{"quick-adv1", "MIN vs VAL, adversarial ADV+1, h=2: MIN saturates at 1/(a·p) = 0.125",
			Experiment{minVal(quick("ADV")), loads(0.05, 0.6, 0.05)}},
		{"min-val-un-h4", "MIN vs VAL under UN, h=4 (1,056 nodes): about a minute",
			Experiment{minVal(enginePreset("min-un")), loads(0.1, 0.9, 0.2)}},
		{"min-val-adv1-h4", "MIN vs VAL under ADV+1, h=4: MIN capped at 1/(a·p) = 0.031, VAL near 0.5",
			Experiment{[]config.Config{
				named(enginePreset("min-adv1"), "MIN", nil),
				named(enginePreset("val-adv1"), "VAL", nil)}, loads(0.05, 0.55, 0.1)}},
		{"valgroup-advh", "VAL_GROUP vs VAL under ADV+h, h=4: the intermediate group's local link caps VAL_GROUP",
			Experiment{[]config.Config{
				named(enginePreset("valgroup-advh"), "VAL_GROUP", nil),
				named(enginePreset("valgroup-advh"), "VAL", func(c *config.Config) { c.Routing.Name = "VAL" })},
				loads(0.05, 0.55, 0.1)}},
		{"fairness-advc", "MIN under ADVc, h=2: plateau at h/(a·p) and unfair injection (see the per-router bars)",
			Experiment{[]config.Config{named(quick("ADVC"), "MIN ADVc", nil)}, loads(0.05, 0.5, 0.05)}},
		{"transient", "UN switching to ADV+1 during the run, MIN vs VAL, h=2: see the time series",
			Experiment{minVal(named(quick("UN"), "", func(c *config.Config) {
				c.Traffic.Load = 0.3
				c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 2000, "ADV"
				c.Sim.Interval = 100
			})), loads(0.3, 0.3, 0.1)}},
		{"buffers", "Accepted load vs local buffer size under ADV+1 with VAL, h=2: a sweep of another variable",
			Experiment{[]config.Config{named(quick("ADV"), "VAL", func(c *config.Config) {
				c.Routing.Name, c.Traffic.Load = "VAL", 0.5
			})}, Sweep{Param: "router.localBuffer", From: 8, To: 64, Step: 8}}},
		{"damq-reserve-h2", "thesis Fig. 5.6 (§5.3.1) on h=2 for a browser: DAMQ reserve per VC (router.damqReserve, %) swept, MIN, UN at 1.0, 2/1 VCs, 128/512 phits per local/global port; 0% deadlocks (the charts pin the cycle; kept as in the CLI), 25–100% run; a few seconds",
			Experiment{[]config.Config{DamqH2()}, Sweep{Param: "router.damqReserve", From: 0, To: 100, Step: 25}}},
		{"fbfly16-perm-quick", "MIN vs UGAL on the 16-node flattened butterfly of Kim et al.'s congestion-management paper (100-cycle links, 32-flit packets) under the permutation n → n+4 (Fig. 3a without congestion management): MIN caps at 1/4, UGAL near 0.39 (BookSim's intermediate draw, the default; 0.43 with routing.ugalIntermediate=detour); seconds",
			Experiment{[]config.Config{
				named(enginePreset("fbfly16"), "MIN", func(c *config.Config) { c.Traffic.Pattern = "TORNADO" }),
				named(enginePreset("fbfly16"), "UGAL", func(c *config.Config) { c.Traffic.Pattern, c.Routing.Name = "TORNADO", "UGAL" })},
				loads(0.05, 0.55, 0.1)}},
	}
	ps = append(ps, cmQuick("cbcm-fig2", "Kim et al. Fig. 2 for a browser: Baseline and Ideal × MIN and UGAL, 16-node flattened butterfly, senders 0, 5, 8, 12 → node 4, UR background, single-flit packets; the charts' accepted load is every packet's, result.hotspot the background's; seconds", loads(0.1, 0.9, 0.2)),
		cmQuick("cbcm-fig3a", "Kim et al. Fig. 3a for a browser: Ideal, ECN and SRP × MIN and UGAL under the permutation n → n+4; seconds", loads(0.1, 0.6, 0.1)),
		cmQuick("cbcm-fig3b", "Kim et al. Fig. 3b for a browser: Ideal, ECN and SRP × MIN and UGAL under the permutation + 4-to-1 hotspot (reconstructed: n4–n7 → n0); seconds", loads(0.1, 0.6, 0.1)),
		cmQuick("srp-fig5a", "Kim et al. Fig. 5a for a browser: Baseline and SRP × MIN and UGAL under UR, 4-packet messages, 16-node flattened butterfly (paper: SRP's latency up to 2.45× at intermediate load, saturation not hurt); SRP's speculative and dropped shares in result.mechanisms.srp; seconds", loads(0.1, 0.9, 0.2)),
		cmQuick("srp-fig5b", "Kim et al. Fig. 5b for a browser: Baseline and SRP × MIN and UGAL under UR1–UR2, UR2 single packets at 0.9, UR1 4-packet messages swept; UR1's latency in result.groups (paper at 0.6: SRP(UGAL) drops ≈ 15% of speculative packets, UR1 latency 4.4×); seconds", loads(0.1, 0.7, 0.2)),
		cmQuick("cbcm-fig12", "Kim et al. Fig. 12 for a browser: senders 0, 5, 8, 12 → node 4 (reconstructed: Fig. 2's set; the paper gives neither the network nor the senders) on the data VCs at a fixed 1/4 or 0.99/4 flit per cycle (traffic.hotspotRate) against Ideal, MIN, with virtual output queues and without (paper: 1/4 1.6–2.0× Ideal, 0.99/4 nearly Ideal); seconds", loads(0.1, 0.7, 0.2)),
		cmQuick("cbcm-fig14", "Kim et al. Fig. 14 for a browser: senders 0, 1, 2, 8 → node 9, the dedicated hotspot VC without throttling against CBCM, over a UR background among the other nodes (reconstructed: the paper mentions none); the per-sender bars in result.hotspot (paper: 0.25 each with CBCM); seconds", loads(0.1, 0.5, 0.2)))
	ps = append(ps, traceQuick(), fig11Quick())
	ps = append(ps, ethernetPresets(loads)...)
	all := sweep.Experiments()
	ps = append(ps, qcnQuickPresets(all)...)
	ps = append(ps, graph500Presets()...)
	for _, e := range all {
		kind := "routing comparison: "
		switch {
		case len(e.Spec.Series) > 0 && e.Spec.Series[0].Traffic.SwitchCycle > 0:
			// the transient charts pool each point's runs (sweep.PoolTransient)
			kind = "transient (latency and misrouted share against the cycle from the pattern switch): "
		case e.Table && e.Spec.Param != "":
			// a figure of the fairness metrics against a swept parameter (the size)
			kind = "fairness vs " + e.Spec.Param + " (per-router injection bars for each run; Max/Min, CoV in the CSV): "
		case e.Table:
			// the table's Max/Min and CoV come from each run's per-router injection
			kind = "fairness table (per-router injection bars for each run): "
		}
		ps = append(ps, Preset{e.Name, kind + e.Doc, FromSpec(e.Spec)})
	}
	for _, p := range config.Presets() {
		c := p.Config
		sw := loads(0.1, 0.9, 0.2)
		switch {
		case c.Graph500():
			// the load means nothing to a Graph500 job: one point
			sw = Sweep{Param: "workload.tq", From: c.Workload.Tq, To: c.Workload.Tq, Step: DefaultSweep().Step}
		case c.Traffic.HotspotEnd > 0:
			// a hotspot window over a background (the RECN paper's corner
			// cases) is a figure over time at the paper's load: one point
			sw = Sweep{Param: LoadParam, From: c.Traffic.Load, To: c.Traffic.Load, Step: DefaultSweep().Step}
		}
		ps = append(ps, Preset{"engine:" + p.Name, "engine preset: " + p.Doc,
			Experiment{[]config.Config{c}, sw}})
	}
	return ps
}

// DamqH2 is the system of thesis Fig. 5.6 (§5.3.1) on h=2 (72 nodes): MIN
// under UN at load 1.0, 2 local and 1 global VCs of 64 and 512 phits (128
// per local port), DAMQ input buffers (router.damqReserve 0 as given: set
// by the sweep), 2,000 + 6,000 cycles, 2 seeds. The watchdog (nothing moved
// for 1,000 cycles) stops the reserve-0 deadlock within the run: seed 1 at
// cycle 5,286.
func DamqH2() config.Config {
	c := enginePreset("h2")
	c.Name = "DAMQ 2/1"
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds, c.Sim.Watchdog = 2000, 6000, 2, 1000
	c.Router.LocalVCs, c.Router.GlobalVCs = 2, 1
	c.Router.LocalBuffer, c.Router.GlobalBuffer = 64, 512
	c.Router.Damq = true
	c.Traffic.Load = 1
	return c
}

// g500 is the engine's graph500-h2 preset (MIN, 40 Gb/s, tq 1.5 ns) with a
// graph small enough for a browser sweep (s=20: about 0.3 s per run natively,
// 1 s in WebAssembly), one seed per point, and usage sampled every 250
// cycles (the short levels show).
func g500(name string, edit func(*config.Config)) config.Config {
	c := enginePreset("graph500-h2")
	c.Workload.Scale, c.Sim.Seeds, c.Sim.Interval = 20, 1, 250
	return named(c, name, edit)
}

// atGbps sets the link bandwidth of a series; Table 2.4's link and router
// latencies (10/100/40 ns, the preset's workload.*Ns) follow its cycle time:
// the same cables at every bandwidth (derived: thesis Table 2.4 in cycles, read at
// 1-byte phits and 40 Gb/s, are Table 1.2's 2 m / 20 m cables), as in a sweep
// over workload.linkGbps.
func atGbps(gbps float64) func(*config.Config) {
	return func(c *config.Config) {
		c.Workload.LinkGbps = gbps
		c.ApplyLatenciesNs() // shown in the series' config as the simulator uses them
	}
}

// graph500Presets are the thesis's Graph500 figures (2.14–2.24) scaled for a
// browser: execution time and network usage against the node speed tq, one
// series per bandwidth or per routing, and against the link bandwidth.
func graph500Presets() []Preset {
	// the node speeds of thesis Figs. 2.14–2.24 (ns per query), with the four
	// node types of Table 2.3 (1.5, 2.25, 2.4 and 15 ns)
	tq := DefaultSweep()
	tq.Param, tq.List = "workload.tq", []float64{0.5, 1, config.TqAltamira, config.TqCoreI5, config.TqXeon2620, 4, 8, config.TqMontBlanc}
	nodes := DefaultSweep()
	nodes.Param, nodes.List = "workload.tq", []float64{config.TqAltamira, 4, config.TqMontBlanc}
	// 2 groups of the h=4 network: the job's one inter-group link caps MIN
	groups2 := func(name string, edit func(*config.Config)) config.Config {
		c := enginePreset("graph500-h4-2groups")
		c.Workload.Scale, c.Sim.Seeds, c.Sim.Interval = 16, 1, 500
		return named(c, name, edit)
	}
	routing := func(r string) func(*config.Config) { return func(c *config.Config) { c.Routing.Name = r } }
	return []Preset{
		{"graph500", "Graph500 BFS on h=2 (s=22, tq 1.5 ns, 40 Gb/s, MIN, 3 root degrees): execution time and BFS levels, about 10 s",
			Experiment{[]config.Config{named(enginePreset("graph500-h2"), "MIN 40 Gb/s", nil)},
				Sweep{Param: "workload.tq", From: 1.5, To: 1.5, Step: DefaultSweep().Step}}},
		{"graph500-tq-bw", "Graph500 (s=20, h=2, MIN): execution time vs node speed tq at 40 and 100 Gb/s: network-bound, then CPU-bound; about 15 s",
			Experiment{[]config.Config{
				g500("40 Gb/s", nil),
				g500("100 Gb/s", atGbps(100))}, tq}},
		{"graph500-tq-routing", "Graph500 (s=20, h=2, 40 Gb/s): MIN vs VAL vs PB vs OLM over tq: uniform traffic, so adaptive routing only approaches MIN and Valiant's longer paths cost time while network-bound; about 30 s",
			Experiment{[]config.Config{
				g500("MIN", nil),
				g500("VAL", routing("VAL")),
				g500("PB", routing("PB")),
				g500("OLM", routing("OLM"))}, tq}},
		{"graph500-2groups-routing", "Graph500 on 2 groups of h=4 (64 nodes, s=16): MIN is capped by the one global link between the groups; UGAL, PiggyBack and Valiant use the idle groups; about 20 s",
			Experiment{[]config.Config{
				groups2("MIN", nil),
				groups2("VAL", routing("VAL")),
				groups2("UGAL", routing("UGAL")),
				groups2("PB", routing("PB"))}, nodes}},
		{"graph500-bw", "Graph500 (s=20, h=2, MIN): execution time vs link bandwidth for the node types of Table 2.3 (Altamira 1.5 ns, Core i5 2.25 ns, Xeon E5-2620 2.4 ns, Mont-Blanc 15 ns); about 20 s",
			Experiment{[]config.Config{
				g500("tq 1.5 ns (Altamira)", nil),
				g500("tq 2.25 ns (Core i5)", func(c *config.Config) { c.Workload.Tq = config.TqCoreI5 }),
				g500("tq 2.4 ns (Xeon E5-2620)", func(c *config.Config) { c.Workload.Tq = config.TqXeon2620 }),
				g500("tq 15 ns (Mont-Blanc)", func(c *config.Config) { c.Workload.Tq = config.TqMontBlanc })},
				Sweep{Param: "workload.linkGbps", From: 10, To: 100, Step: 15}}},
	}
}

// FromSpec turns an engine sweep (sweep.Experiments) into a page
// experiment: the same series, and the swept values as from:to:step, or as
// a list when they are not evenly spaced (the QCN-Switch paper's PI = 0.1,
// 0.5, 1, 5%).
func FromSpec(sp sweep.Spec) Experiment {
	e := Experiment{Series: append([]config.Config(nil), sp.Series...)}
	param, xs := sp.XName(), sp.Xs()
	if len(xs) == 0 {
		panic("experiment: empty sweep")
	}
	e.Sweep = Sweep{Param: param, From: xs[0], To: xs[len(xs)-1], Step: DefaultSweep().Step, Tied: append([]sweep.Tie(nil), sp.Tied...)}
	if len(xs) > 1 {
		step := xs[1] - xs[0]
		e.Sweep.Step, _ = roundSig(step)
	}
	if v, err := e.Sweep.Values(); err != nil || !sameFloats(v, xs) {
		// a list sweep keeps the default from:to:step, as a link decodes it
		d := DefaultSweep()
		e.Sweep.From, e.Sweep.To, e.Sweep.Step = d.From, d.To, d.Step
		e.Sweep.List = append([]float64(nil), xs...)
	}
	return e
}

func roundSig(x float64) (float64, error) {
	p := math.Pow(10, 9-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p, nil
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// PresetByName finds a preset.
func PresetByName(name string) (Experiment, bool) {
	for _, p := range Presets() {
		if p.Name == name {
			return p.Exp.Clone(), true
		}
	}
	return Experiment{}, false
}

// ethernet is the engine's ethernet-h4 preset (the QCN-Switch paper's
// Table I system at h=4, 1,056 nodes, in physical units) with runs a tab
// finishes: 60 µs warm-up + 60 µs measured (3,000 + 3,000 cycles of
// 20 ns), one seed, under the pattern; MIN, VAL and PB, the paper's
// baselines (QCN-Switch itself is a routing of its own).
func ethernet(pattern string) []config.Config {
	base := named(enginePreset("ethernet-h4"), "", func(c *config.Config) {
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 3000, 3000, 1
		c.Traffic.Pattern = pattern
	})
	var out []config.Config
	for _, r := range []string{"MIN", "VAL", "PB"} {
		out = append(out, named(base, r, func(c *config.Config) { c.Routing.Name = r }))
	}
	return out
}

// ethernetPresets are the QCN-Switch paper's steady-state baselines (its
// Figs. 6 and 8, MIN, VAL and PB) on the Ethernet Dragonfly of its Table I
// at browser size, the form in ns, bytes and Gb/s.
func ethernetPresets(loads func(from, to, step float64) Sweep) []Preset {
	return []Preset{
		{"ethernet-un-h4", "Ethernet Dragonfly of the QCN-Switch paper (Table I: 40 Gb/s, 1,000-byte packets, 200 ns switch, 8/80 m cables, 200/100 KB queues) at h=4 (1,056 nodes), in physical units: MIN vs VAL vs PB under UN; about a minute",
			Experiment{ethernet("UN"), loads(0.2, 0.8, 0.2)}},
		{"ethernet-adv1-h4", "The same Ethernet Dragonfly under ADV+1: MIN capped at 1/(a·p) = 0.031 (1.25 Gb/s per node), VAL and PB near 0.5 (20 Gb/s); about a minute",
			Experiment{ethernet("ADV"), loads(0.1, 0.5, 0.1)}},
		{"qcn-un-h4", "QCN-Switch (output sampling, feedback comparison, Table I) vs MIN, VAL and PB under UN on the Ethernet Dragonfly at h=4 (QCN-Switch paper Figs. 8a, 17a): QCN-Switch keeps MIN's latency (measured: 77, 86, 102, 148 cycles at 0.2–0.8, MIN's exactly, nothing misrouted); about a minute",
			Experiment{qcnVersus("UN"), loads(0.2, 0.8, 0.2)}},
		{"qcn-adv1-h4", "QCN-Switch vs MIN, VAL and PB under ADV+1 at h=4 (QCN-Switch paper Figs. 8b, 17b): its CNMs divert ≈ 90% of the traffic to non-minimal paths, but 60 µs of warm-up is too short for it to settle from its start at 100% minimal: measured at 0.4, QCN-Switch 0.35 accepted, 1,005 cycles, 91% misrouted; PB 0.40, 232 cycles; VAL 0.40, 234 cycles (qcn-adv1-h4-settled warms up for 600 µs); about a minute",
			Experiment{qcnVersus("ADV"), loads(0.1, 0.5, 0.1)}},
		{"qcn-adv1-h4-settled", "QCN-Switch vs PB under ADV+1 at h=4 with 600 µs (30,000 cycles) of warm-up, long enough for QCN-Switch to settle: measured 96 cycles at 0.1 and 130 at 0.4 (0.40 accepted, 93% misrouted), below PB's 232 as in the paper's Fig. 8b; a few minutes",
			Experiment{qcnSettled(), loads(0.1, 0.5, 0.2)}},
		{"qcn-transient-h4", "QCN-Switch reacting to UN→ADV+1 at 0.4 on the Ethernet Dragonfly at h=4 (QCN-Switch paper Figs. 10a, 12b): misrouting makes half its rise in ≈ 13 µs and 90% in ≈ 19 µs; in the probability chart the middle router's port toward S_out drops from 100% to ≈ 10% within 20 µs, then climbs slowly by the additive increase (snapshots every 20 µs); one run of 340 µs, about 15 s",
			Experiment{[]config.Config{QCNTransient()}, loads(0.4, 0.4, 0.1)}},
		{"qcn-un-h6", "The QCN-Switch paper's own system and run (Table I: 5,256 nodes, 2.4 + 2.4 ms, 10 seeds): QCN-Switch vs MIN, VAL and PB under UN (Fig. 17a); many hours in a browser: run it with the CLI",
			Experiment{qcnPaper("UN"), loads(0.1, 1, 0.1)}},
		{"qcn-adv1-h6", "The QCN-Switch paper's own system and run under ADV+1 (Fig. 17b); many hours in a browser: run it with the CLI",
			Experiment{qcnPaper("ADV"), loads(0.1, 0.6, 0.1)}},
	}
}

// qcn makes a series QCN-Switch with the paper's defaults and FOGSim's
// sampling clock (routing.qcnSamplingClock=fogsim), which samples a busy
// congestion point every qcnCPC cycles and reproduces the paper; with the
// paper's count of packets h=4 reacts too slowly even for long runs
// (engine/ROUTING.md, QCN-Switch's measurements).
func qcn(c *config.Config) {
	c.Routing.Name, c.Routing.QcnClock = "QCN_SWITCH", "fogsim"
}

// qcnSettled is QCN-Switch and PB under ADV+1 on the browser-size Ethernet
// Dragonfly with 30,000 cycles (600 µs) of warm-up.
func qcnSettled() []config.Config {
	base := ethernet("ADV")[2] // PB
	base.Sim.Warmup = 30000
	return []config.Config{named(base, "QCN-Switch", qcn), base}
}

// qcnVersus is QCN-Switch and the paper's baselines (MIN, VAL, PB) on the
// browser-size Ethernet Dragonfly (ethernet) under the pattern.
func qcnVersus(pattern string) []config.Config {
	base := ethernet(pattern)
	return append([]config.Config{named(base[0], "QCN-Switch", qcn)}, base...)
}

// qcnPaper is QCN-Switch and its baselines on the engine's ethernet-h6
// preset, the QCN-Switch paper's system and run, under the pattern.
func qcnPaper(pattern string) []config.Config {
	base := named(enginePreset("ethernet-h6"), "", func(c *config.Config) { c.Traffic.Pattern = pattern })
	out := []config.Config{named(base, "QCN-Switch", qcn)}
	for _, r := range []string{"MIN", "VAL", "PB"} {
		out = append(out, named(base, r, func(c *config.Config) { c.Routing.Name = r }))
	}
	return out
}

// QCNTransient is the QCN-Switch paper's transient run (§4.1: UN switching
// to ADV+1 at 0.4, probabilities and misrouting in 20 µs intervals) on the
// ethernet-h4 system: 100 µs of warm-up, the switch 40 µs into the
// measurement, 200 µs after it (the transient record's 10,000 cycles), one
// seed (the paper: 2.4 ms before and after, one run for the probabilities).
func QCNTransient() config.Config {
	c := named(enginePreset("ethernet-h4"), "QCN-Switch UN→ADV+1", qcn)
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 5000, 12000, 1
	c.Traffic.Pattern, c.Traffic.Load = "UN", 0.4
	c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 2000, "ADV"
	return c
}

// cmQuick is the engine's congestion-management experiment name (sweep:
// cmExperiments) shortened for the page: 10,000 + 10,000 cycles, one seed.
// traceQuick is Kim et al. §V-C's traces + hotspot for a browser, the
// Graph500 BFS standing in for the MPI traces: the 16-node network, one
// sender per router (nodes 3, 7, 11, 15 → node 0), the job on the other 11
// nodes from cycle 20,000, scale 10 (engine/sim TestKimTraceHotspotGraph500).
func traceQuick() Preset {
	base := config.KimTraceHotspot(4, 4, 1, 10, 20000, true)
	base.Sim.Seeds = 1
	return Preset{"cbcm-trace-hotspot-quick", "Kim et al. §V-C (traces + hotspot) for a browser, the Graph500 BFS (s=10) standing in for the paper's MPI traces: 16-node flattened butterfly, senders 3, 7, 11, 15 → node 0 at 100%, the job on the other 11 nodes from cycle 20,000; the job alone, then Baseline, SRP, CBCM and Ideal × MIN and UGAL; the job's packet latency is result.hotspot's background class (paper at 256 nodes: Baseline(UGAL) ≈ 80× the traces alone, SRP and CBCM at most +7%; here Baseline(UGAL) 1.8×, SRP and CBCM +2–3%); seconds",
		Experiment{sweep.TraceSeries(base, "none", "srp", "cbcm", "ideal"),
			Sweep{Param: "workload.tq", From: config.TqAltamira, To: config.TqAltamira, Step: DefaultSweep().Step}}}
}

// fig11Quick is the cbcm-fig11 experiment (Kim et al. Fig. 11: endpoint
// against early detection, Fig. 1(c)'s senders 0–3 → node 4 over UR among
// the other nodes, UGAL) for a browser: the paper's interval 100 as the
// hotspot's start, with intervals of 100 cycles (the paper does not give
// their length; the experiment's are 1,000), 400 intervals, one seed, the
// paper's UR load 0.4.
func fig11Quick() Preset {
	for _, e := range sweep.Experiments() {
		if e.Name != "cbcm-fig11" {
			continue
		}
		var series []config.Config
		for _, c := range e.Spec.Series {
			c.Sim.Interval, c.Traffic.HotspotStart = 100, 100*100
			c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, 400*100, 1
			series = append(series, c)
		}
		return Preset{"cbcm-fig11-quick", "Kim et al. Fig. 11 for a browser: CBCM's endpoint detection against early detection at intermediate routers, Fig. 1(c)'s senders 0–3 → node 4 from interval 100 (100-cycle intervals: cycle 10,000), UR 0.4 among the other 11 nodes, UGAL, 16 nodes; the latency per interval in the time series (paper: early detection's peak 0.42× and settling time 0.22× of endpoint's); seconds",
			Experiment{series, Sweep{Param: LoadParam, From: 0.4, To: 0.4, Step: DefaultSweep().Step}}}
	}
	panic("experiment: no engine experiment cbcm-fig11")
}

func cmQuick(name, doc string, sw Sweep) Preset {
	for _, e := range sweep.Experiments() {
		if e.Name != name {
			continue
		}
		var series []config.Config
		for _, c := range e.Spec.Series {
			c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 10000, 10000, 1
			series = append(series, c)
		}
		return Preset{name + "-quick", doc, Experiment{series, sw}}
	}
	panic("experiment: no engine experiment " + name)
}
