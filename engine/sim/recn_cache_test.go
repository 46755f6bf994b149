package sim

// What RECN keeps to spare itself work (recn.go, recnsim.go) against what
// it stands for, recomputed: an interface's longest match per destination
// (Duato et al., RECN paper §3.6) and the destinations known per line, the
// counts of the sides holding k lines (the SAQ utilisation of Fig. 4), and
// the hosts whose admittance scan is skipped (§4.1's admittance queues).

import (
	"math/bits"
	"testing"

	"phitsim/engine/config"
)

// Corner case 2 on the 64-host fat tree with the hotspot at cycles
// 2,000–4,000 (8 and 2 SAQs: with 2 the lines run out and are refused),
// checked every 10 cycles for 8,000: each cached match equals the match
// over the route, each per-line destination bit its cached match, the
// counts a scan of the sides, and a skipped host admits nothing.
func TestRECNCachesAgree(t *testing.T) {
	for _, saqs := range []int{8, 2} {
		c := config.RECNMechanism(2)
		c.Traffic.HotspotStart, c.Traffic.HotspotEnd = 2000, 4000
		c.Sim.Cycles = 8000
		c.Congestion.RecnSaqs = saqs
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		rs := s.rn
		rc := rs.rc
		N := s.N
		var matched, idle int
		for cyc := 1; cyc <= 8000; cyc++ {
			s.Step()
			if cyc%10 != 0 {
				continue
			}
			for h := 0; h < N; h++ {
				side := rc.ni(h)
				for d := 0; d < N; d++ {
					var route [recnMaxPath]int32
					n := rc.route(side, d, &route)
					want := rc.match(side, &route, n, -1)
					v := rc.niMatch[h*N+d]
					if v != 0 && int(v)-2 != want {
						t.Fatalf("%d SAQs, cycle %d: host %d's match for %d cached as line %d, the CAM says %d", saqs, cyc, h, d, int(v)-2, want)
					}
					if v != 0 && want >= 0 {
						matched++
					}
					for l := 0; l < saqs; l++ {
						bit := rc.niDst[(h*saqs+l)*rc.niWords+d>>6]&(1<<(d&63)) != 0
						if bit != (v != 0 && int(v)-2 == l) {
							t.Fatalf("%d SAQs, cycle %d: host %d, destination %d, line %d: known %v, cached match %d", saqs, cyc, h, d, l, bit, int(v)-2)
						}
					}
				}
				if rc.admIdle[h] {
					idle++
					for w := 0; w < rs.admWords; w++ {
						for m := rs.admMask[h*rs.admWords+w]; m != 0; m &= m - 1 {
							if d := w<<6 | bits.TrailingZeros64(m); s.recnAdmits(h, d) {
								t.Fatalf("%d SAQs, cycle %d: host %d is not scanned, but admits its packets for %d", saqs, cyc, h, d)
							}
						}
					}
				}
			}
			var in, eg [65]int32
			for x := range rc.sides {
				if k := bits.OnesCount64(rc.sides[x].lines); rc.sides[x].kind == recnIngress {
					in[k]++
				} else {
					eg[k]++
				}
			}
			for k := 1; k <= saqs; k++ {
				if in[k] != rc.linesIn[k] || eg[k] != rc.linesEg[k] {
					t.Fatalf("%d SAQs, cycle %d: sides holding %d lines counted %d ingress, %d egress; a scan finds %d, %d", saqs, cyc, k, rc.linesIn[k], rc.linesEg[k], in[k], eg[k])
				}
			}
		}
		if matched == 0 || idle == 0 || rc.allocs == 0 {
			t.Errorf("%d SAQs: %d cached matches of a line, %d skipped hosts, %d allocations seen: the check saw nothing", saqs, matched, idle, rc.allocs)
		}
		t.Logf("%d SAQs: %d cached matches of a line, %d skipped hosts, %d allocations, %d refused", saqs, matched, idle, rc.allocs, rc.refused)
	}
}
