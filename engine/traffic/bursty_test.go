package traffic

import (
	"math"
	"testing"

	"phitsim/engine/rng"
)

// btChain runs the ON/OFF chain alone (no network, so no back-pressure) the
// way the simulator's generator does: an OFF node may turn ON; an ON node
// flips the ON→OFF coin and may start a new burst in the same cycle
// (ON→OFF→ON); a node that is ON at the end of the cycle sends one packet.
func btChain(c Bursty, s *rng.Stream, steps int) (onCycles, bursts, backToBack, endings int) {
	on := false
	for i := 0; i < steps; i++ {
		newBurst := false
		if !on {
			if c.Off(s) {
				on, newBurst = true, true
			}
		} else {
			var stay bool
			stay, newBurst = c.On(s)
			if !stay || newBurst {
				endings++ // the current burst ended this cycle
			}
			if newBurst {
				backToBack++
			}
			on = stay
		}
		if newBurst {
			bursts++
		}
		if on {
			onCycles++
		}
	}
	return
}

// Bursty-UN generator statistics (thesis §1.6.1.3, eqs. 1.4–1.7): with P_ON = rate/PacketSize, p_on2off = 1/B
// and p_off2on = P_ON/(B + P_ON·(1−B)), the fraction of ON cycles (= packets
// per cycle) is P_ON, the measured rate is the asked rate, and the mean burst
// is B packets, within 2% over 10⁷ cycles (at 10⁶ cycles a low rate has only ≈10⁴ bursts, whose
// sampling noise alone is ≈1%).
func TestBurstyChainOnFractionAndBurstLength(t *testing.T) {
	const packetSize = 8
	const steps = 10_000_000
	for i, tc := range []struct{ rate, b float64 }{
		{0.4, 5}, {0.8, 5}, {0.2, 5}, {0.4, 10}, {0.5, 1}, {0.96, 3},
	} {
		pOn := tc.rate / packetSize
		s := rng.New(uint64(100+i), rng.Generator, 0)
		c := NewBursty(pOn, tc.b)
		on, bursts, back, endings := btChain(c, &s, steps)
		frac := float64(on) / steps
		meanBurst := float64(on) / float64(bursts)
		rate := float64(on) * packetSize / steps
		t.Logf("rate %.2f B %.0f: ON fraction %.5f (P_ON %.5f) rate %.4f mean burst %.3f bursts %d", tc.rate, tc.b, frac, pOn, rate, meanBurst, bursts)
		if math.Abs(frac-pOn) > 0.02*pOn {
			t.Errorf("rate %.2f B %.0f: ON fraction %.5f, want %.5f ±2%%", tc.rate, tc.b, frac, pOn)
		}
		if math.Abs(rate-tc.rate) > 0.02*tc.rate {
			t.Errorf("rate %.2f B %.0f: measured rate %.4f", tc.rate, tc.b, rate)
		}
		if math.Abs(meanBurst-tc.b) > 0.02*tc.b {
			t.Errorf("rate %.2f B %.0f: mean burst %.3f packets, want %.1f ±2%%", tc.rate, tc.b, meanBurst, tc.b)
		}
		// ON→OFF→ON within a cycle: a fraction p_off2on of the bursts that end
		// is followed at once by a new one
		off2on := pOn / (tc.b + pOn*(1-tc.b))
		if got := float64(back) / float64(endings); math.Abs(got-off2on) > 0.1*off2on+0.002 {
			t.Errorf("rate %.2f B %.0f: %.4f of burst ends restart at once, want p_off2on = %.4f", tc.rate, tc.b, got, off2on)
		}
	}
}

// The chain's degenerate ends: P_ON = 1 with B = 1 is always ON (absorbing),
// P_ON = 0 never turns ON.
func TestBurstyChainDegenerateRates(t *testing.T) {
	s := rng.New(1, rng.Generator, 0)
	if on, _, _, _ := btChain(NewBursty(0, 5), &s, 10000); on != 0 {
		t.Errorf("P_ON = 0: %d ON cycles", on)
	}
	if on, _, _, _ := btChain(NewBursty(1, 1), &s, 10000); on != 10000 {
		t.Errorf("P_ON = 1: %d ON cycles of 10000", on)
	}
}

// The geometric gaps of a Bernoulli(q) process: mean 1/q, P(gap = 1) = q.
func TestGeometricGaps(t *testing.T) {
	for _, q := range []float64{0.001, 0.05, 0.5, 1} {
		g := NewGeometric(q)
		s := rng.New(3, rng.Generator, 1)
		const n = 200000
		var sum float64
		ones := 0
		for i := 0; i < n; i++ {
			gap := g.Gap(&s)
			if gap < 1 {
				t.Fatalf("gap %d", gap)
			}
			if gap == 1 {
				ones++
			}
			sum += float64(gap)
		}
		if mean := sum / n; math.Abs(mean*q-1) > 0.01 {
			t.Errorf("q=%g: mean gap %.2f, want %.2f", q, mean, 1/q)
		}
		if p := float64(ones) / n; math.Abs(p-q) > 0.01*max(q, 0.1) {
			t.Errorf("q=%g: P(gap=1) %.4f", q, p)
		}
	}
}
