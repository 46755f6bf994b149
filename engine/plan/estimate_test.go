package plan

import (
	"context"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/runcost"
	"phitsim/engine/sim"
)

// withSets is preset name with path=value settings applied.
func withSets(t *testing.T, name string, sets ...string) config.Config {
	t.Helper()
	c, err := config.PresetByName(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		k, v, _ := cutKV(kv)
		if err := c.Set(k, v); err != nil {
			t.Fatalf("%s: %s: %v", name, kv, err)
		}
	}
	return c
}

// TestEstimateOrdersSchemes: on one network the estimate ranks congestion
// schemes, queueings and routings as callgrind's instructions per
// packet-hop do (engine/BENCHMARKS.md): each series lists configurations
// of one preset by rising measured cost, and their estimates must rise too.
func TestEstimateOrdersSchemes(t *testing.T) {
	for _, s := range []struct {
		preset string
		rising [][]string // settings, by rising measured cost
		what   string
		perHop bool // compare runcost.PerHop (the series' paths differ in length)
	}{
		// "The fat tree's schemes, per packet-hop", 256 hosts: IQ 1,716,
		// RECN (at the defaults, +24.8% over IQ at 64 hosts) and VOQsw
		// 1,847, 4Q 1,983, VOQnet 2,197
		{"fattree256", [][]string{{"router.queueing=iq"}, {"router.queueing=voqsw", "router.localBuffer=2048", "router.injectionBuffer=2048"},
			{"router.queueing=4q"}, {"router.queueing=voqnet"}, {"router.queueing=", "congestion.scheme=recn"}}, "fat tree queueings and RECN (2,267 at 256 hosts)", false},
		{"fattree64", [][]string{{"router.queueing=iq"}, {"congestion.scheme=recn"}}, "RECN over IQ", false},
		{"recn-case2", [][]string{{}, {"router.queueing=", "congestion.scheme=recn"}}, "RECN over IQ, corner case 2", false},
		// "CBCM, SRP and ECN per packet-hop and per data hop", 512 nodes:
		// Baseline 4,480 (MIN), ECN 4,868, CBCM 6,764 (UGAL's 4,409
		// +53%), SRP 8,399 per data hop, CBCM with early detection 9,332
		{"fbfly512", [][]string{
			{"traffic.sourceQueue=true", "traffic.sourceQueues=perDestination"},
			{"traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "congestion.scheme=ecn"},
			{"traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "congestion.scheme=cbcm"},
			{"traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "congestion.scheme=srp"},
			{"traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "congestion.scheme=cbcm", "congestion.cbcmEarly=true"},
		}, "Kim et al.'s schemes", false},
		// "The batch estimate for every topology and mechanism", costs.sh:
		// MIN 1,559, VAL 1,627, ACOR 1,670, UGAL 1,783, PAR 1,873, OLM
		// 1,888, PB 1,941, PB_ACOR 2,017
		{"min-un", [][]string{{"traffic.load=0.2", "routing.name=MIN"}, {"traffic.load=0.2", "routing.name=VAL"}, {"traffic.load=0.2", "routing.name=ACOR"}, {"traffic.load=0.2", "routing.name=UGAL"},
			{"traffic.load=0.2", "routing.name=PAR"}, {"traffic.load=0.2", "routing.name=OLM"}, {"traffic.load=0.2", "routing.name=PB"},
			{"traffic.load=0.2", "routing.name=PB_ACOR"}}, "Dragonfly routings at the probe's load", true},
		// DAMQ +4.3% and FlexVC +6% over the static buffers (MIN)
		{"min-un", [][]string{{}, {"router.damq=true"}}, "DAMQ", false},
		{"min-un", [][]string{{}, {"router.flexVC=true"}}, "FlexVC", false},
	} {
		prev, prevSets := 0.0, []string(nil)
		for _, sets := range s.rising {
			c := withSets(t, s.preset, sets...)
			if errs := c.Validate(); len(errs) > 0 {
				t.Fatalf("%s %v: %v", s.preset, sets, errs)
			}
			x := Seconds(&c)
			if s.perHop {
				x = runcost.PerHop(&c)
			}
			if x <= prev {
				t.Errorf("%s (%s): %v estimated %.4g, not above %v's %.4g as callgrind measures it", s.preset, s.what, sets, x, prevSets, prev)
			}
			prev, prevSets = x, sets
		}
	}
}

// shortRun cuts preset name to a few thousand cycles (fewer on the large
// networks), one seed.
func shortRun(t *testing.T, name string) config.Config {
	c := withSets(t, name)
	sz, _ := c.Topology.Sizes()
	cycles := 4000
	if sz.Nodes > 2000 {
		cycles = 600
	}
	if c.Sim.Warmup+c.Sim.Cycles > cycles {
		w := min(c.Sim.Warmup, cycles/2)
		c.Sim.Warmup, c.Sim.Cycles = w, cycles-w
	}
	c.Sim.Seeds, c.Sim.Precision = 1, 0
	return c
}

// The band of the estimate over its deterministic proxy: a run's counted
// packet-hops × runcost.PerHop plus its cycles × runcost.FixedPerCycle, the same costs
// charged for what the run did instead of the bound on what it is offered.
// The estimate must not be below (the time limit of a batch job errs long);
// MaxOverProxy is the most it is above on any preset cut short, reached
// where the offered load is far past what the network carries (MIN under
// ADV+1: 1/(a·p) = 0.031 of the 0.4 offered) or where a Graph500 job's
// processes compute more than they send (Mont-Blanc nodes).
const MaxOverProxy = 7

// TestEstimateAgainstProxy: for every preset, cut short, the estimate is
// within [1, MaxOverProxy] of its proxy (the run's own packet-hops × the
// same costs), which is deterministic where wall time is not.
func TestEstimateAgainstProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every preset")
	}
	lo, hi := 1e9, 0.0
	for _, p := range config.Presets() {
		c := shortRun(t, p.Name)
		s, err := sim.New(c, 1)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		proxy := float64(r.PacketHops)*runcost.PerHop(&c) + float64(r.SimCycles)*runcost.FixedPerCycle(&c)
		est := Instructions(&c)
		ratio := est / proxy
		lo, hi = min(lo, ratio), max(hi, ratio)
		t.Logf("%-22s %9d cycles %11d hops: estimate %.3g instructions, %.2f× the proxy", p.Name, r.SimCycles, r.PacketHops, est, ratio)
		if !(ratio >= 1) || ratio > MaxOverProxy {
			t.Errorf("%s (%d cycles): estimate %.3g instructions, %.2f× the proxy's %.3g (want 1 to %d×)", p.Name, r.SimCycles, est, ratio, proxy, MaxOverProxy)
		}
	}
	t.Logf("estimate over proxy: %.2f to %.2f", lo, hi)
}
