package sim

import (
	"math"
	"testing"
)

// Under UN below saturation every router injects the same load, so the
// per-router injection counts differ only by sampling noise: Max/Min → 1 and
// CoV → 0 as the run lengthens (thesis §1.5.1; FOGSim at h=4 with 5k
// measured cycles gives Max/Min 1.1–1.5, CoV 0.02–0.07). With
// 8,000 measured cycles at load 0.3 each router injects ≈1,200 packets, a
// Poisson CoV of ≈0.03.
func TestUniformLowLoadInjectionIsFairAcrossRouters(t *testing.T) {
	t.Parallel()
	c := btConfig(4, 2000, 8000)
	c.Routing.Name, c.Traffic.Pattern, c.Traffic.Load = "MIN", "UN", 0.3
	r := btRun(t, c, 1)
	btLog(t, "UN/MIN h=4", r)
	f := r.Fairness
	t.Logf("fairness: min %d (router %d) max %d (router %d) Max/Min %.3f CoV %.4f Jain %.5f starved %d",
		f.Min, f.MinRouter, f.Max, f.MaxRouter, f.MaxMin, f.CoV, f.Jain, f.Starved)
	if len(f.PerRouter) != 264 {
		t.Fatalf("%d per-router counts, want 264 routers", len(f.PerRouter))
	}
	var sum int64
	for _, x := range f.PerRouter {
		sum += x
	}
	if sum != r.Generated {
		t.Errorf("per-router injections sum to %d, generated in the window %d", sum, r.Generated)
	}
	if f.Starved != 0 || f.MaxMin <= 0 || f.MaxMin >= 1.3 {
		t.Errorf("Max/Min %.3f (starved %d), want < 1.3", f.MaxMin, f.Starved)
	}
	if f.CoV >= 0.05 {
		t.Errorf("CoV %.4f, want < 0.05", f.CoV)
	}
	if f.Jain < 0.995 {
		t.Errorf("Jain %.5f, want ≈1", f.Jain)
	}
	if r.Saturated {
		t.Errorf("load 0.3 flagged saturated: %s", r.SatReason)
	}
	// link utilisation agrees with the hops of the delivered packets: phits per
	// cycle delivered (accepted·N) × hops of a class / links of that class
	const nodes, routers, a, h = 1056, 264, 8, 4
	if want := r.Accepted * nodes * r.Hops.Local / (routers * (a - 1)); !btWithin(r.Links.Local, want, 0.02) {
		t.Errorf("local link utilisation %.4f, want %.4f from the hop counts", r.Links.Local, want)
	}
	if want := r.Accepted * nodes * r.Hops.Global / (routers * h); !btWithin(r.Links.Global, want, 0.02) {
		t.Errorf("global link utilisation %.4f, want %.4f from the hop counts", r.Links.Global, want)
	}
	t.Logf("links: local %.4f global %.4f ejection %.4f", r.Links.Local, r.Links.Global, r.Links.Injection)
	// sampling noise only: CoV near the Poisson value 1/√(mean)
	mean := float64(sum) / float64(len(f.PerRouter))
	if poisson := 1 / math.Sqrt(mean); f.CoV > 1.5*poisson {
		t.Errorf("CoV %.4f well above the Poisson noise %.4f", f.CoV, poisson)
	}
}
