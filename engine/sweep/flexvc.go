package sweep

import (
	"fmt"

	"phitsim/engine/config"
)

// The thesis's Chapter 5 experiments (§5.3, Figs. 5.6–5.16): distance-based
// VCs (the baseline), DAMQ input buffers and FlexVC compared at h=4 (the
// thesis runs h=8), with FOGSim's model (base) and the chapter's router: 2×
// internal speedup (the default) except in Fig. 5.15, 32/256 phits per
// local/global VC unless the memory per port is held constant (Figs. 5.8,
// 5.15), DAMQ with 75% of each VC's share reserved (Fig. 5.6's best),
// FlexVC choosing VCs by JSQ (the default) except in Fig. 5.16.
// engine/REPRODUCTION.md ("Chapter 5: FlexVC") has what they measure.

// scheme is one buffer/VC arrangement of the chapter's figures.
type scheme struct {
	name       string
	routing    string
	flex, damq bool
	l, g       int // VCs per local and global port (request-reply: both subsequences)
	rl, rg     int // FlexVC request-reply: the reply subsequence (0: 2/1)
	congestion string
	trigger    string
}

func (s scheme) config(b config.Config) config.Config {
	c := b
	c.Name, c.Routing.Name = s.name, s.routing
	c.Router.LocalVCs, c.Router.GlobalVCs = s.l, s.g
	c.Router.FlexVC = s.flex
	if s.flex && c.Traffic.Reactive {
		c.Router.ReplyLocalVCs, c.Router.ReplyGlobalVCs = s.rl, s.rg
	}
	if s.damq {
		c.Router.Damq, c.Router.DamqReserve = true, 75
	}
	if s.congestion != "" {
		c.Routing.Congestion = s.congestion
	}
	if s.trigger != "" {
		c.Routing.Trigger = s.trigger
	}
	return c
}

func schemes(b config.Config, ss ...scheme) []config.Config {
	out := make([]config.Config, len(ss))
	for i, s := range ss {
		out[i] = s.config(b)
	}
	return out
}

// flexBase is the chapter's network at h=4: 32/256 phits per local/global VC
// (thesis Table 1.2), 2× speedup. VAL and PB re-draw the Valiant router while
// the packet waits at injection (thesis §5.3, §5.3.3.3: without it FlexVC
// with PB meets the head-of-line pathology of Figs. 5.12–5.13a).
func flexBase(pattern string, offset int) config.Config {
	c := base(4, pattern, offset)
	c.Router.LocalBuffer, c.Router.GlobalBuffer = 32, 256
	c.Routing.Recompute = true
	return c
}

func bursty(c config.Config) config.Config {
	c.Traffic.Process, c.Traffic.BurstLength = "bursty", 5
	return c
}

func reactive(c config.Config) config.Config {
	c.Traffic.Reactive = true
	return c
}

// The oblivious schemes of Figs. 5.7, 5.8 and 5.15: MIN with the baseline
// and DAMQ at the minimum 2/1 VCs, FlexVC at 2/1, 4/2 and 8/4; VAL (ADV+1)
// with the baseline and DAMQ at its 4/2, FlexVC at 3/2 (opportunistic), 4/2
// and 8/4.
var (
	minSchemes = []scheme{
		{name: "baseline 2/1", routing: "MIN", l: 2, g: 1},
		{name: "DAMQ 2/1", routing: "MIN", damq: true, l: 2, g: 1},
		{name: "FlexVC 2/1", routing: "MIN", flex: true, l: 2, g: 1},
		{name: "FlexVC 4/2", routing: "MIN", flex: true, l: 4, g: 2},
		{name: "FlexVC 8/4", routing: "MIN", flex: true, l: 8, g: 4},
	}
	valSchemes = []scheme{
		{name: "baseline 4/2", routing: "VAL", l: 4, g: 2},
		{name: "DAMQ 4/2", routing: "VAL", damq: true, l: 4, g: 2},
		{name: "FlexVC 3/2", routing: "VAL", flex: true, l: 3, g: 2},
		{name: "FlexVC 4/2", routing: "VAL", flex: true, l: 4, g: 2},
		{name: "FlexVC 8/4", routing: "VAL", flex: true, l: 8, g: 4},
	}
)

// PortMemories are the memories per local port of Figs. 5.8 and 5.15, in
// phits (global ports 4×: 64/256 … 256/1024).
var PortMemories = []float64{64, 128, 192, 256}

// portMemory makes e a sweep over the memory per port at offered load load:
// x is the memory of a local port (global ports 4× as much) and each
// series' per-VC buffers are that memory ÷ its VCs (thesis §5.3.2), so 64
// phits give 2/1 VCs 32 phits each and 8/4 VCs one 8-phit packet each.
func portMemory(e Experiment, load float64) Experiment {
	for i := range e.Spec.Series {
		e.Spec.Series[i].Traffic.Load = load
	}
	e.Spec.Loads, e.Spec.Param, e.Spec.Values = nil, "router.localBuffer", PortMemories
	e.Spec.Tied = []Tie{
		{Path: "router.localBuffer", Scale: 1, Per: "router.localVCs"},
		{Path: "router.globalBuffer", Scale: 4, Per: "router.globalVCs"},
	}
	return e
}

// DamqReserves are the reserves per VC of Fig. 5.6 (router.damqReserve, %):
// 0 to 8 packets of a 64-phit local VC, one packet apart, 100% being static
// buffers.
var DamqReserves = loads(0, 100, 12.5)

// flexExperiments are the chapter's figures.
func flexExperiments() []Experiment {
	exp := func(name, doc string, series []config.Config, ls []float64) Experiment {
		return Experiment{Name: name, Doc: doc, Spec: Spec{Series: series, Loads: ls}}
	}
	un, adv := flexBase("UN", 1), flexBase("ADV", 1)

	// Fig. 5.6: one DAMQ series over its reserve, saturated. The watchdog
	// (nothing moved for 1,000 cycles) finds the reserve-0 deadlock within
	// the run; the default 20,000 cycles would outlast it.
	f56 := un
	f56.Router.LocalBuffer, f56.Router.GlobalBuffer = 64, 512
	f56.Sim.Watchdog = 1000
	f56.Sim.Cycles = 8000
	f56.Traffic.Load = 1
	fig56 := exp("thesis-fig5.6", "thesis Fig. 5.6 (§5.3.1): DAMQ reserve per VC (router.damqReserve, %) swept, MIN, UN at 1.0, 2/1 VCs, 128/512 phits per local/global port; 0% deadlocks (marked DEADLOCK), 25% congests, 75% is best, 100% is static buffers",
		schemes(f56, scheme{name: "DAMQ 2/1", routing: "MIN", damq: true, l: 2, g: 1}), nil)
	fig56.Spec.Loads, fig56.Spec.Param, fig56.Spec.Values = nil, "router.damqReserve", DamqReserves

	fig58 := portMemory(exp("thesis-fig5.8", "thesis Fig. 5.8 (§5.3.2): memory per port held constant (x: phits per local port, global 4×; per-VC buffer = port memory ÷ VCs), MIN, UN at 1.0: the saturation throughput; FlexVC 2/1 beats the baseline at 64/256, FlexVC 8/4 at 64/256 beats the baseline at 256/1024",
		schemes(un, minSchemes...), nil), 1)
	fig58adv := portMemory(exp("thesis-fig5.8-adv1", "thesis Fig. 5.8 (§5.3.2) under ADV+1: VAL (re-drawn at injection) at 0.6, memory per port held constant as in thesis-fig5.8",
		schemes(adv, valSchemes...), nil), 0.6)
	nosp := un
	nosp.Router.Speedup = 1
	fig515 := portMemory(exp("thesis-fig5.15", "thesis Fig. 5.15 (§5.3.5): no internal speedup (router.speedup=1), memory per port held constant as in thesis-fig5.8, MIN, UN at 1.0; FlexVC's gain over the baseline is larger than with speedup (8/4: up to +37%)",
		schemes(nosp, minSchemes...), nil), 1)

	// request-reply MIN (Fig. 5.9): the baseline and DAMQ take a distance-based
	// 2/1 + 2/1; FlexVC splits its VCs into request and reply subsequences
	rrMin := []scheme{
		{name: "baseline 2/1+2/1", routing: "MIN", l: 4, g: 2},
		{name: "DAMQ 2/1+2/1", routing: "MIN", damq: true, l: 4, g: 2},
		{name: "FlexVC 2/1+2/1", routing: "MIN", flex: true, l: 4, g: 2, rl: 2, rg: 1},
		{name: "FlexVC 3/2+2/1", routing: "MIN", flex: true, l: 5, g: 3, rl: 2, rg: 1},
		{name: "FlexVC 3/2+3/2", routing: "MIN", flex: true, l: 6, g: 4, rl: 3, rg: 2},
		{name: "FlexVC 4/3+2/1", routing: "MIN", flex: true, l: 6, g: 4, rl: 2, rg: 1},
	}
	// PB request-reply (Fig. 5.11): the baseline needs 4/2 + 4/2, FlexVC
	// 4/2 + 2/1 (its replies opportunistic); occupancy sensed per VC, per
	// port, or counting only minimal packets (minCred, thesis §5.2.4)
	pb := func(name string, flex, damq bool, congestion string) scheme {
		s := scheme{name: name, routing: "PB", flex: flex, damq: damq, l: 8, g: 4, congestion: congestion}
		if flex {
			s.l, s.g, s.rl, s.rg = 6, 3, 2, 1
		}
		return s
	}
	// pbSensings is PB's eight schemes built by mk: the baseline and DAMQ at
	// VCs base, FlexVC at VCs flexVCs, each sensed per VC then per port, and
	// FlexVC also counting only minimal packets (minCred)
	pbSensings := func(mk func(name string, flex, damq bool, congestion string) scheme, base, flexVCs string) []scheme {
		var ss []scheme
		for _, k := range []struct {
			label      string
			flex, damq bool
			min        string
		}{{"baseline " + base, false, false, ""}, {"DAMQ " + base, false, true, ""}, {"FlexVC " + flexVCs, true, false, ""}, {"FlexVC " + flexVCs + " minCred", true, false, "Min"}} {
			ss = append(ss, mk(k.label+" per-VC", k.flex, k.damq, "perVC"+k.min), mk(k.label+" per-port", k.flex, k.damq, "perPort"+k.min))
		}
		return ss
	}
	pbSchemes := pbSensings(pb, "8/4", "6/3")
	// OLM request-reply (Fig. 5.14): FlexVC 3/2 + 2/1 (its misroutes
	// opportunistic), triggered by credits or by Base contention counters
	// (thesis §4.2.1.1, "In-transit Cta"); PB's best two for reference
	olmSchemes := []scheme{
		{name: "OLM FlexVC 5/3 credits", routing: "OLM", flex: true, l: 5, g: 3, rl: 2, rg: 1, trigger: "cga"},
		{name: "OLM FlexVC 5/3 Base (In-transit Cta)", routing: "OLM", flex: true, l: 5, g: 3, rl: 2, rg: 1, trigger: "base"},
		pb("PB baseline 8/4 per-VC", false, false, "perVC"),
		pb("PB FlexVC 6/3 minCred per-port", true, false, "perPortMin"),
	}
	// VAL request-reply (Fig. 5.9c): the baseline and DAMQ need 4/2 + 4/2
	// (thesis §5.3.2.2); the text does not list the figure's FlexVC splits,
	// so these are Table 5.4's allowed ones: requests 3/2 (opportunistic) or
	// 4/2 (safe) with 2/1 replies, and 4/2 + 4/2 at the baseline's VCs
	rrVal := []scheme{
		{name: "baseline 4/2+4/2", routing: "VAL", l: 8, g: 4},
		{name: "DAMQ 4/2+4/2", routing: "VAL", damq: true, l: 8, g: 4},
		{name: "FlexVC 3/2+2/1", routing: "VAL", flex: true, l: 5, g: 3, rl: 2, rg: 1},
		{name: "FlexVC 4/2+2/1", routing: "VAL", flex: true, l: 6, g: 3, rl: 2, rg: 1},
		{name: "FlexVC 4/2+4/2", routing: "VAL", flex: true, l: 8, g: 4, rl: 4, rg: 2},
	}
	// PB without request-reply (Fig. 5.10, thesis §5.3.3.1): every scheme
	// at 4/2 VCs, sensed per VC or per port (FlexVC also minCred); the
	// oblivious reference is MIN 2/1 under the uniform patterns, VAL 4/2
	// under ADV+1
	pb42 := func(name string, flex, damq bool, congestion string) scheme {
		return scheme{name: name, routing: "PB", flex: flex, damq: damq, l: 4, g: 2, congestion: congestion}
	}
	pbOneWay := pbSensings(pb42, "4/2", "4/2")
	withRef := func(ref scheme, ss []scheme) []scheme { return append([]scheme{ref}, ss...) }
	minRef := scheme{name: "MIN 2/1 (reference)", routing: "MIN", l: 2, g: 1}
	valRef := scheme{name: "VAL 4/2 (reference)", routing: "VAL", l: 4, g: 2}

	// Fig. 5.16: each VC selection policy with three request/reply splits
	var sel []config.Config
	for _, d := range []struct {
		name         string
		l, g, rl, rg int
	}{{"2/1+2/1", 4, 2, 2, 1}, {"3/2+2/1", 5, 3, 2, 1}, {"4/3+2/1", 6, 4, 2, 1}} {
		for _, p := range []string{"jsq", "random", "highest", "lowest"} {
			c := scheme{name: fmt.Sprintf("FlexVC %s %s", d.name, p), routing: "MIN", flex: true, l: d.l, g: d.g, rl: d.rl, rg: d.rg}.config(reactive(un))
			c.Router.VCSelection = p
			sel = append(sel, c)
		}
	}

	return []Experiment{
		fig56,
		exp("thesis-fig5.7", "thesis Fig. 5.7 (§5.3.2): memory per VC constant (32/256 phits), MIN, UN: baseline and DAMQ 2/1, FlexVC 2/1, 4/2, 8/4 (8/4 ≈ 0.9)",
			schemes(un, minSchemes...), loads(0.1, 1, 0.1)),
		exp("thesis-fig5.7-bursty", "thesis Fig. 5.7 (§5.3.2) under BURSTY-UN (B = 5): latency at 0.4 falls from the baseline by 4.8% (DAMQ), 11.2%, 23.8%, 27.6% (FlexVC 2/1, 4/2, 8/4)",
			schemes(bursty(un), minSchemes...), loads(0.1, 0.9, 0.1)),
		exp("thesis-fig5.7-adv1", "thesis Fig. 5.7 (§5.3.2) under ADV+1: VAL re-drawn at injection, baseline and DAMQ 4/2, FlexVC 3/2, 4/2, 8/4 (FlexVC ≈ 0.49, bound 0.5)",
			schemes(adv, valSchemes...), loads(0.1, 0.6, 0.1)),
		fig58, fig58adv,
		exp("thesis-fig5.9", "thesis Fig. 5.9 (§5.3.2.2): request-reply MIN, UN; throughput ranks by the request subsequence's VCs; FlexVC 4/3+2/1 keeps its peak",
			schemes(reactive(un), rrMin...), loads(0.5, 1, 0.1)),
		exp("thesis-fig5.9-bursty", "thesis Fig. 5.9 (§5.3.2.2) under BURSTY-UN (B = 5): request-reply MIN as thesis-fig5.9; analogous to UN, congestion only with DAMQ",
			schemes(bursty(reactive(un)), rrMin...), loads(0.2, 1, 0.2)),
		exp("thesis-fig5.9-adv1", "thesis Fig. 5.9 (§5.3.2.2) under ADV+1: request-reply VAL (re-drawn at injection), baseline and DAMQ 4/2+4/2, FlexVC 3/2+2/1, 4/2+2/1, 4/2+4/2; every scheme near VAL's bound 0.5, congestion only with DAMQ",
			schemes(reactive(adv), rrVal...), loads(0.1, 0.6, 0.1)),
		exp("thesis-fig5.10", "thesis Fig. 5.10 (§5.3.3.1): PB without request-reply, UN: baseline and DAMQ 4/2 per-VC and per-port, FlexVC 4/2 per-VC, per-port, minCred per-VC and per-port, MIN 2/1 for reference; FlexVC above baseline and DAMQ, its four sensings alike",
			schemes(un, withRef(minRef, pbOneWay)...), loads(0.2, 1, 0.2)),
		exp("thesis-fig5.10-bursty", "thesis Fig. 5.10 (§5.3.3.1) under BURSTY-UN (B = 5): PB without request-reply as thesis-fig5.10",
			schemes(bursty(un), withRef(minRef, pbOneWay)...), loads(0.2, 1, 0.2)),
		exp("thesis-fig5.10-adv1", "thesis Fig. 5.10 (§5.3.3.1) under ADV+1: PB without request-reply as thesis-fig5.10, Valiant re-drawn, VAL 4/2 for reference",
			schemes(adv, withRef(valRef, pbOneWay)...), loads(0.1, 0.6, 0.1)),
		exp("thesis-fig5.11", "thesis Fig. 5.11 (§5.3.3.3): PB request-reply, UN: baseline 8/4, DAMQ 8/4, FlexVC 6/3 with per-VC, per-port and minCred sensing (FlexVC up to +20.4%)",
			schemes(reactive(un), pbSchemes...), loads(0.2, 1, 0.2)),
		exp("thesis-fig5.11-adv1", "thesis Figs. 5.11 and 5.13b (§5.3.3.3): PB request-reply, ADV+1, Valiant re-drawn: FlexVC minCred per-port ≈ the baseline, FlexVC per-VC and per-port below it, DAMQ collapses",
			schemes(reactive(adv), pbSchemes...), loads(0.1, 0.6, 0.1)),
		exp("thesis-fig5.11-bursty", "thesis Fig. 5.11 (§5.3.3.3) under BURSTY-UN (B = 5): PB request-reply as thesis-fig5.11",
			schemes(bursty(reactive(un)), pbSchemes...), loads(0.2, 1, 0.2)),
		exp("thesis-fig5.14", "thesis Fig. 5.14 (§5.3.4): OLM request-reply, ADV+1: FlexVC with the credit trigger saturates early, with Base contention counters it is competitive; PB for reference",
			schemes(reactive(adv), olmSchemes...), loads(0.1, 0.6, 0.1)),
		exp("thesis-fig5.14-un", "thesis Fig. 5.14 (§5.3.4): OLM request-reply under UN, as thesis-fig5.14",
			schemes(reactive(un), olmSchemes...), loads(0.2, 1, 0.2)),
		exp("thesis-fig5.14-bursty", "thesis Fig. 5.14 (§5.3.4): OLM request-reply under BURSTY-UN (B = 5), as thesis-fig5.14; In-transit Cta best under BURSTY-UN",
			schemes(bursty(reactive(un)), olmSchemes...), loads(0.2, 1, 0.2)),
		fig515,
		exp("thesis-fig5.16", "thesis Fig. 5.16 (§5.3.5): FlexVC VC selection (JSQ, Random, Highest, Lowest), request-reply MIN, UN at 1.0, three request/reply splits: JSQ best, Lowest worst, spread < 3.4%",
			sel, []float64{1}),
	}
}
