package topology

import "testing"

func TestDragonflySizes(t *testing.T) {
	for _, c := range []struct{ h, groups, routers, nodes, radix int }{
		{2, 9, 36, 72, 7},
		{4, 33, 264, 1056, 15},
		{8, 129, 2064, 16512, 31},
	} {
		d, err := NewDragonfly(c.h, 2*c.h, c.h, PalmTree)
		if err != nil {
			t.Fatal(err)
		}
		if d.Groups() != c.groups || d.Routers() != c.routers || d.Nodes() != c.nodes || d.Radix() != c.radix {
			t.Errorf("h=%d: got G=%d R=%d N=%d radix=%d", c.h, d.Groups(), d.Routers(), d.Nodes(), d.Radix())
		}
	}
}

func TestPalmTreeWiring(t *testing.T) {
	d, _ := NewDragonfly(8, 16, 8, PalmTree)
	a, h, G := d.A, d.H, d.G
	for g := 0; g < G; g++ {
		for j := 0; j < a*h; j++ {
			want := ((g-j-1)%G + G) % G
			r := g*a + j/h
			peer, peerPort := d.Link(r, d.FirstGlobalPort()+j%h)
			if d.GroupOf(peer) != want {
				t.Fatalf("g=%d link %d reaches group %d, want %d", g, j, d.GroupOf(peer), want)
			}
			if jr := (peer%a)*h + peerPort - d.FirstGlobalPort(); jr != a*h-1-j {
				t.Fatalf("g=%d link %d lands on link %d, want %d", g, j, jr, a*h-1-j)
			}
		}
		// router a−1 holds the links to g+1…g+h; router 0 to g−1…g−h
		for i := 1; i <= h; i++ {
			j := d.GlobalLinkTo(g, (g+i)%G)
			if j/h != a-1 {
				t.Fatalf("group %d: link to g+%d on router %d, want %d", g, i, j/h, a-1)
			}
			if j := d.GlobalLinkTo(g, (g-i+G)%G); j/h != 0 {
				t.Fatalf("group %d: link to g-%d on router %d, want 0", g, i, j/h)
			}
		}
	}
}

func TestConsecutiveWiring(t *testing.T) {
	d, _ := NewDragonfly(2, 4, 2, Consecutive)
	for g := 0; g < d.G; g++ {
		for j := 0; j < d.A*d.H; j++ {
			want := j
			if j >= g {
				want = j + 1
			}
			peer, _ := d.Link(g*d.A+j/d.H, d.FirstGlobalPort()+j%d.H)
			if d.GroupOf(peer) != want {
				t.Fatalf("g=%d link %d reaches %d, want %d", g, j, d.GroupOf(peer), want)
			}
		}
	}
}

// Every link is symmetric and every pair of groups is joined exactly once;
// the minimal path reaches any router in at most l-g-l.
func TestLinksSymmetricAndMinimalPaths(t *testing.T) {
	for _, arr := range []string{PalmTree, Consecutive} {
		for _, sz := range [][3]int{{2, 4, 2}, {3, 5, 2}, {4, 8, 4}} {
			d, _ := NewDragonfly(sz[0], sz[1], sz[2], arr)
			pairs := make(map[[2]int]int)
			for r := 0; r < d.Routers(); r++ {
				for port := d.P; port < d.Radix(); port++ {
					peer, pp := d.Link(r, port)
					if back, bp := d.Link(peer, pp); back != r || bp != port {
						t.Fatalf("%s: link %d:%d → %d:%d → %d:%d", d.Name(), r, port, peer, pp, back, bp)
					}
					if d.PortClass(r, port) == Global {
						pairs[[2]int{d.GroupOf(r), d.GroupOf(peer)}]++
					}
				}
			}
			for g := 0; g < d.G; g++ {
				for e := 0; e < d.G; e++ {
					if want := map[bool]int{true: 0, false: 1}[g == e]; pairs[[2]int{g, e}] != want {
						t.Fatalf("%s: %d links %d→%d", d.Name(), pairs[[2]int{g, e}], g, e)
					}
				}
			}
			for s := 0; s < d.Routers(); s++ {
				for dst := 0; dst < d.Routers(); dst++ {
					if s == dst {
						continue
					}
					wl, wg := d.MinimalHops(s, dst)
					r, l, gl := s, 0, 0
					for r != dst && l+gl < 4 {
						port := d.MinimalPort(r, dst)
						if d.PortClass(r, port) == Global {
							gl++
						} else {
							l++
						}
						r, _ = d.Link(r, port)
					}
					if r != dst || l != wl || gl != wg || l > 2 || gl > 1 {
						t.Fatalf("%s: %d→%d walked l=%d g=%d (want %d,%d)", d.Name(), s, dst, l, gl, wl, wg)
					}
					if port, hops := d.PathTo(s, dst); port != d.MinimalPort(s, dst) || hops != l+gl {
						t.Fatalf("%s: PathTo(%d, %d) = %d, %d; want %d, %d", d.Name(), s, dst, port, hops, d.MinimalPort(s, dst), l+gl)
					}
				}
			}
		}
	}
}
