package sim

import (
	"math"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// routing.candidates on a tiny network (h = 2, a = 4: 3 local ports, 2
// global ones per router), derived by hand. Exactly one port of the class
// qualifies (every other has no credits on the packet's VC; the minimal one
// never qualifies). With all, pickCandidate takes it at every attempt. With
// single (FOGSim's olm::nominateCandidates) one port of the k-port class is
// drawn, the minimal one included, so an attempt misroutes with probability
// 1/k: over n attempts the count is Binomial(n, 1/k), checked within 6
// standard deviations (fixed seed; a chance failure would be < 1e-8).
func TestCandidatesSingleDraw(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind uint8
	}{{"global", misGlobal}, {"local", misLocal}} {
		for _, mode := range []string{"all", "single"} {
			c := config.Default()
			c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
			c.Routing.Name, c.Routing.Policy, c.Routing.Candidates = "OLM", "CRG", mode
			c.Traffic.Load = 0
			s, err := New(c, 7)
			if err != nil {
				t.Fatal(err)
			}
			const r = 0
			global := tc.kind == misGlobal
			lo, hi := s.df.FirstLocalPort(), s.firstGlobal
			if global {
				lo, hi = s.firstGlobal, s.radix
			}
			k := hi - lo
			// a destination in another group whose minimal port from r is
			// local: for a global class it lies outside the class, for a
			// local one inside it
			dst := -1
			for d := 0; d < s.R && dst < 0; d++ {
				if s.df.GroupOf(d) != s.df.GroupOf(r) && s.pclass[r*s.radix+s.df.MinimalPort(r, d)] == topology.Local {
					dst = d
				}
			}
			if dst < 0 {
				t.Fatal("no destination with a local minimal port")
			}
			minPort := s.df.MinimalPort(r, dst)
			want := lo // the one port that qualifies
			if want == minPort {
				want++
			}
			for p := lo; p < hi; p++ {
				if p == want {
					continue
				}
				po := r*s.radix + p
				for v := 0; v < s.maxVC; v++ {
					s.credits[po*s.maxVC+v] = 0
				}
			}
			pk := &packet{vcPos: -1, dstRouter: int32(dst), outPort: -1}
			// the minimal output full: any candidate not fuller qualifies
			qmin := s.bufCap[topology.Local]
			const n = 40000
			hits := 0
			for i := 0; i < n; i++ {
				port, _, _, ok := s.pickCandidate(r, pk, tc.kind, minPort, 0, qmin, true)
				if ok {
					if port != want {
						t.Fatalf("%s/%s: misrouted through port %d, only %d qualifies", tc.name, mode, port, want)
					}
					hits++
				}
			}
			if mode == "all" {
				if hits != n {
					t.Errorf("%s/all: %d misroutes in %d attempts, want every one", tc.name, hits, n)
				}
				continue
			}
			p := 1 / float64(k)
			mean, sd := n*p, math.Sqrt(n*p*(1-p))
			t.Logf("%s/single: k = %d, %d misroutes in %d attempts (expected %.0f ± %.0f)", tc.name, k, hits, n, mean, sd)
			if math.Abs(float64(hits)-mean) > 6*sd {
				t.Errorf("%s/single: %d misroutes in %d attempts, want 1/%d of them: %.0f ± %.0f", tc.name, hits, n, k, mean, 6*sd)
			}
		}
	}
}
