package sim

import (
	"fmt"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// The validator and the simulator agree on the VCs a port holds once the
// congestion-management scheme's isolated and control classes and
// QCN-Switch's control VCs are added above the data VCs (config
// MechanismVCs, laid out by initIsoClass and initCtlClass): every
// configuration with data VCs near the 32 a port holds either validates
// and builds, or is refused naming the data VCs' parameter — never accepted
// and then refused by New (a fuzzed h8 under QCN_SWITCH with 32 injection
// VCs was), and the VCs New lays out are the ones the validator counts. Each scheme on the Dragonfly, the flattened butterfly (MIN and
// UGAL: SRP(UGAL)'s speculative class follows UGAL's sequence) and the fat
// tree, each class's VCs at 26–32.
func TestMechanismVCsValidateAsNewBuilds(t *testing.T) {
	type tc struct{ preset, set string }
	var cases []tc
	for _, p := range []string{"h2", "fbfly16", "fattree64"} {
		for _, s := range []string{"congestion.scheme=ideal", "congestion.scheme=ecn", "congestion.scheme=cbcm",
			"congestion.scheme=cbcm congestion.cbcmHotspotVC=shared", "congestion.scheme=srp", "routing.name=QCN_SWITCH"} {
			cases = append(cases, tc{p, s})
			if p == "fbfly16" {
				cases = append(cases, tc{p, s + " routing.name=UGAL"})
			}
		}
	}
	refused, built := 0, 0
	for _, k := range cases {
		base, err := config.PresetByName(k.preset)
		if err != nil {
			t.Fatal(err)
		}
		sets := append(strings.Fields(k.set), "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination", "sim.warmup=10", "sim.cycles=10",
			"router.injectionBuffer=256", "router.localBuffer=256") // the fat tree's 128 KB × 32 VCs passes the memory bound
		setAll(t, &base, sets)
		if len(base.Validate()) > 0 {
			continue // the scheme does not run here (QCN_SWITCH off the Dragonfly)
		}
		for _, field := range []string{"router.injectionVCs", "router.localVCs", "router.globalVCs"} {
			p, _ := config.Lookup(field)
			if !p.Applies(&base) {
				continue
			}
			for n := 26; n <= 32; n++ {
				c := base
				if err := p.SetString(&c, fmt.Sprint(n)); err != nil {
					t.Fatal(err)
				}
				what := fmt.Sprintf("%s %s %s=%d", k.preset, k.set, field, n)
				if errs := c.Validate(); len(errs) > 0 {
					if len(errs) != 1 || errs[0].Path != field || !strings.Contains(errs[0].Msg, "adds") {
						t.Errorf("%s: refused on %v", what, errs)
					}
					refused++
					continue
				}
				s, err := New(c, 1)
				if err != nil {
					t.Errorf("%s: validates, but New: %v", what, err)
					continue
				}
				// the count the validator made is the one New laid out
				classes, _ := c.ClassesOf(s.topo)
				extra, _ := c.MechanismVCs(s.topo)
				for cl := range s.vcCount {
					if s.vcCount[cl] != classes[cl].VCs+extra[cl] {
						t.Errorf("%s: class %d has %d VCs, the validator counts %d + %d", what, cl, s.vcCount[cl], classes[cl].VCs, extra[cl])
					}
				}
				built++
			}
		}
	}
	if refused == 0 || built == 0 {
		t.Fatalf("%d refused, %d built: the edge was not crossed", refused, built)
	}
	t.Logf("%d configurations built, %d refused", built, refused)
}

// setAll sets each path=value on c, as -set does.
func setAll(t testing.TB, c *config.Config, sets []string) {
	t.Helper()
	for _, s := range sets {
		path, v, _ := strings.Cut(s, "=")
		if err := c.Set(path, v); err != nil {
			t.Fatal(err)
		}
	}
}
