package sweep

import (
	"math"
	"testing"

	"phitsim/engine/config"
)

// Past UN saturation on the Table I system at h=3 (342 nodes), beside
// FOGSim v5 (fuentesp/fogsim dcdd75f, the QCN-Switch paper's simulator
// family) on the same configuration: Table I's router and QCN parameters
// (P=3 A=6 H=3 Switch=IOQ_SW XbarDelay=10 InternalSpeedup=2
// PacketSize=FlitSize=10 InjectionQueueLength=2000 InjectionChannels=3
// LocalQueueLength=GlobalQueueLength=OutQueueLength=1000 link delays 2/20,
// CongestionManagement=QCNSW QCNSW_IMPLEMENTATION=QCNSWOUTFBCOMP
// routing=MIN_COND QCN_Q_EQ=200 QCNSamplingInterval=100 QCN_BC_LIMIT=1000
// QCN_R_AI=1 QCN_GD=0.015625 QCNThreshold1=0 QCNThreshold2=30
// QCNCNMsPercent=30; MIN: routing=MIN without QCN), Traffic=UN
// Probability=100, 10,000 + 5,000 cycles, seed 1; phitsim: the experiment's
// series with topology.h=3 a=6 p=3, the same cycles and seed
// (engine/REPRODUCTION.md, QCN-Switch, "UN saturation beside FOGSim v5").

// qcnUNSat runs the named experiment's series (by name) at h=3, offered
// 1.0, seed 1, and returns each one's accepted load.
func qcnUNSat(t *testing.T, experiment string, names ...string) map[string]float64 {
	t.Helper()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	oc := qcnSeriesRun(t, experiment, []float64{1}, func(c config.Config) []config.Config {
		if !want[c.Name] {
			return nil
		}
		c.Topology.H, c.Topology.A, c.Topology.P = 3, 6, 3
		c.Sim.Seeds, c.Sim.Seed = 1, 1
		return []config.Config{c}
	})
	if len(oc.Spec.Series) != len(names) {
		t.Fatalf("%s: %d of the series %q", experiment, len(oc.Spec.Series), names)
	}
	acc := map[string]float64{}
	for _, p := range oc.Points {
		c := oc.Spec.Series[p.Series]
		acc[c.Name] = p.Accepted.Mean
		t.Logf("%s: accepted %.4f, latency %.1f, misrouted %.3f", c.Name, p.Accepted.Mean, p.Latency.Mean, p.Misrouted.Mean)
	}
	return acc
}

// TestQCNFig8FbCBelowMINAsFOGSim: QCN-Switch paper Fig. 8a (target 5, its
// "within about 5–10% of MIN" past UN saturation), qcn-fig8-un's MIN and
// QCN-SWout+FbC. FOGSim v5, seed 1: MIN 0.8542 accepted (1,963 cycles),
// QCN-Switch 0.7542 (2,183 cycles, 37.7% of its packets non-minimal in its
// count): 11.7% below MIN; seed 2 MIN 0.8533, QCN-Switch 0.7357, 13.8%
// below. phitsim (seed 1): MIN 0.8561, QCN-Switch 0.8040 (29.6%
// misrouted), 6.1% below; seed 2 9.6% below. What both share:
// feedback comparison keeps QCN-Switch from collapsing (without it 0.568 in
// phitsim, 34% below MIN) but not up to MIN: asserted 5–20% below MIN.
// The gap between the two simulators is three details of FOGSim's code
// (engine/REPRODUCTION.md). 2 runs, ≈ 3 s of CPU.
func TestQCNFig8FbCBelowMINAsFOGSim(t *testing.T) {
	acc := qcnUNSat(t, "qcn-fig8-un", "MIN", "QCN-SWout+FbC")
	m, q := acc["MIN"], acc["QCN-SWout+FbC"]
	if !(m > 0.8 && q >= 0.80*m && q <= 0.95*m) {
		t.Errorf("UN 1.0 accepted: QCN-SWout+FbC %.4f, MIN %.4f (%.1f%% below; FOGSim v5 11.7%%, want 5–20%%)", q, m, 100*(1-q/m))
	}
}

// TestQCNFig15LowPIAsFOGSim: QCN-Switch paper Fig. 15a and §5.3.3 (target
// 17: a low PI, 0.1 or 0.5 points, gives "poor" UN throughput at high load,
// slow to undo spurious misrouting), qcn-fig15-un's PI 0.1 and PI 1.
// FOGSim v5 (QCN_R_AI=0.1): seed 1 PI 0.1 0.7402 accepted (2,190 cycles,
// 40.5% non-minimal in its count) against PI 1's 0.7542 (2,183, 37.7%),
// 1.9% below; seed 2 0.7445 against 0.7357, 1.2% above. phitsim: seed 1
// 0.7957 (30.2% misrouted) against 0.8040 (29.6%), 1.0% below; seed 2
// 1.3% below. Both simulators: PI 0.1 within 2% of PI 1 past saturation,
// the seed-to-seed spread, not the paper's "poor" throughput: asserted
// within 5%. (PI read as a multiplier, FOGSim's MIMD policy and the
// pitfall the paper's additive PI rules out, drops PI 0.1 to 0.5903, 26%
// below.) 2 runs, ≈ 3 s of CPU.
func TestQCNFig15LowPIAsFOGSim(t *testing.T) {
	acc := qcnUNSat(t, "qcn-fig15-un", "PI 0.1", "PI 1")
	lo, one := acc["PI 0.1"], acc["PI 1"]
	if !(one > 0.7 && math.Abs(lo/one-1) <= 0.05) {
		t.Errorf("UN 1.0 accepted: PI 0.1 %.4f, PI 1 %.4f (%+.1f%%; FOGSim v5 −1.9%% and +1.2%% on seeds 1 and 2, want within 5%%)", lo, one, 100*(lo/one-1))
	}
}

// TestQCNFig11CnmRateAsFOGSim: QCN-Switch paper Fig. 11a and §5.3.1 (target
// 18: the CNM rate has "a slight impact on saturation throughput"),
// qcn-fig11-un's CPC 100 with 10% CNMs (0.1% of the packets) and CPC 25
// with 80% (3.2%; PC_l follows CPC, FOGSim's QCN_BC_LIMIT=250). FOGSim v5,
// seed 1: 0.1% 0.8100 accepted (1,982 cycles, 29.5% non-minimal in its
// count), Table I's 0.3% 0.7542, 3.2% 0.6496 (3,465 cycles, 37.8%): 3.2%
// 19.8% below 0.1%; seed 2 0.8353 and 0.6410, 23.3% below. phitsim
// (seed 1): 0.8398 (22.5% misrouted), 0.8040, 0.6660 (40.7%): 20.7%
// below; seed 2 19.6%. Both simulators: more CNMs cost a fifth of the
// saturation throughput, not "slightly": asserted 3.2% 12–30% below 0.1%.
// 2 runs, ≈ 3 s of CPU.
func TestQCNFig11CnmRateAsFOGSim(t *testing.T) {
	lo, hi := "CPC 100, 10% CNMs (0.1%)", "CPC 25, 80% CNMs (3.2%)"
	acc := qcnUNSat(t, "qcn-fig11-un", lo, hi)
	a, b := acc[lo], acc[hi]
	if !(a > 0.7 && b <= 0.88*a && b >= 0.70*a) {
		t.Errorf("UN 1.0 accepted: 3.2%% CNMs %.4f, 0.1%% %.4f (%.1f%% below; FOGSim v5 19.8%%, want 12–30%%)", b, a, 100*(1-b/a))
	}
}
