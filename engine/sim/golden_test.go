package sim

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// The golden regression: the results of a fixed set of configurations,
// hashed, are committed in testdata/golden.txt. A restructuring must leave
// every hash unchanged. A change meant to alter results regenerates the file
// with
//
//	go test ./engine/sim -run TestGolden -update-golden
//
// and its commit message says which hashes moved and why.
var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden.txt from the current engine")

// goldenCase is a configuration of the golden set: a name and the -set
// assignments applied to the h=2 base below.
type goldenCase struct {
	name string
	sets []string
}

// goldenCases covers every routing (with its phase-A policies and
// mechanisms), every traffic pattern and process, both router models, every
// arbiter and the FOGSim-model options, on short h=2 runs below and above
// saturation.
func goldenCases() []goldenCase {
	var cs []goldenCase
	add := func(name string, sets ...string) { cs = append(cs, goldenCase{name, sets}) }
	for _, rt := range []string{"MIN", "VAL", "VAL_GROUP", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"} {
		for _, pat := range []string{"UN", "ADV", "ADVC"} {
			for _, load := range []string{"0.3", "0.9"} {
				add(rt+"/"+pat+"/"+load, "routing.name="+rt, "traffic.pattern="+pat, "traffic.load="+load)
			}
		}
	}
	add("VAL/CRG-Gr/restricted", "routing.name=VAL", "routing.phaseA=CRG-Gr", "routing.restricted=true", "traffic.pattern=ADV", "traffic.load=0.6")
	add("VAL/recompute", "routing.name=VAL", "routing.recompute=true", "traffic.pattern=ADV", "traffic.load=0.6")
	add("UGAL/pathLength/perPort", "routing.name=UGAL", "routing.ugalMode=pathLength", "routing.congestion=perPort", "traffic.pattern=ADV", "traffic.load=0.6")
	add("PB/piggyback", "routing.name=PB", "routing.pbBroadcast=piggyback", "traffic.pattern=ADV", "traffic.load=0.6")
	add("PAR/RRG_L/ugal", "routing.name=PAR", "routing.policy=RRG_L", "routing.trigger=ugal", "traffic.pattern=ADV", "traffic.load=0.6")
	add("OLM/MM_L/single", "routing.name=OLM", "routing.policy=MM_L", "routing.candidates=single", "traffic.pattern=ADVC", "traffic.load=0.6")
	add("ACOR/packet/3L", "routing.name=ACOR", "routing.acorMode=packet", "routing.acorSequence=3L", "traffic.pattern=ADV", "traffic.load=0.6")
	add("PB_ACOR/2LB", "routing.name=PB_ACOR", "routing.acorSequence=2LB", "traffic.pattern=ADVC", "traffic.load=0.6")
	add("MIN/lrs/age", "router.inputArbiter=lrs", "router.outputArbiter=age", "traffic.load=0.8")
	add("MIN/iq", "router.model=iq", "router.speedup=1", "traffic.load=0.8")
	add("MIN/creditOutput", "router.creditTiming=output", "traffic.load=0.8")
	add("MIN/noTransitPriority", "router.transitPriority=false", "traffic.load=0.8")
	add("MIN/injection-jsq", "router.injectionPolicy=jsq", "traffic.load=0.8")
	add("MIN/bursty", "traffic.process=bursty", "traffic.burstLength=8", "traffic.load=0.5")
	add("MIN/sourceQueue", "traffic.sourceQueue=true", "traffic.load=0.9")
	add("MIN/HOT", "traffic.pattern=HOT", "traffic.load=0.4")
	add("MIN/PERM", "traffic.pattern=PERM", "traffic.load=0.6")
	add("VAL/reactive", "routing.name=VAL", "traffic.reactive=true", "traffic.load=0.6")
	add("OLM/reactive", "routing.name=OLM", "traffic.reactive=true", "traffic.pattern=ADV", "traffic.load=0.6")
	add("MIN/switch", "traffic.switchCycle=500", "traffic.switchPattern=ADV", "traffic.load=0.5")
	add("consecutive/UGAL", "topology.arrangement=consecutive", "routing.name=UGAL", "traffic.pattern=ADV", "traffic.load=0.5")
	for _, rt := range []string{"VAL", "UGAL", "PB", "PAR", "OLM", "ACOR", "PB_ACOR"} {
		add(rt+"/fogsim-model", "routing.name="+rt, "fogsim", "traffic.pattern=ADV", "traffic.load=0.7")
	}
	// at h=2 PB's bits cannot fire (ROUTING.md): its mechanisms at h=3
	h3 := []string{"topology.h=3", "topology.a=6", "topology.p=3", "traffic.pattern=ADV", "traffic.load=0.5"}
	add("h3/PB", append([]string{"routing.name=PB"}, h3...)...)
	add("h3/PB/piggyback", append([]string{"routing.name=PB", "routing.pbBroadcast=piggyback"}, h3...)...)
	add("h3/PB_ACOR", append([]string{"routing.name=PB_ACOR"}, h3...)...)
	add("mesh", "topology.kind=mesh", "topology.width=4", "topology.height=3", "topology.p=1", "traffic.load=0.5")
	add("graph500", "workload.kind=graph500")
	return cs
}

// goldenConfig is the h=2 base (72 nodes, 1,000 + 1,500 cycles) with c's
// assignments; "fogsim" applies FOGSim's router and routing model.
func goldenConfig(t testing.TB, gc goldenCase) config.Config {
	c := config.Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 1000, 1500, 1
	for _, kv := range gc.sets {
		if kv == "fogsim" {
			c.UseFOGSimModel()
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		p, ok := config.Lookup(k)
		if !ok {
			t.Fatalf("%s: no parameter %s", gc.name, k)
		}
		if err := p.SetString(&c, v); err != nil {
			t.Fatalf("%s: %v", gc.name, err)
		}
	}
	if gc.name == "graph500" {
		c.Workload.Scale = 10
		c.Sim.Cycles = 200000 // the job ends the run
	}
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatalf("%s: %v", gc.name, errs)
	}
	return c
}

// goldenHash runs gc with seed 1 and hashes its result document (CPU time
// set to zero: the one field that is not a function of config and seed).
func goldenHash(t testing.TB, gc goldenCase) string {
	c := goldenConfig(t, gc)
	s, err := New(c, 1)
	if err != nil {
		t.Fatalf("%s: New: %v", gc.name, err)
	}
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatalf("%s: Run: %v", gc.name, err)
	}
	r.CPUSeconds = 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("%s: %v", gc.name, err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", "golden.txt")
	cases := goldenCases()
	got := make(map[string]string, len(cases))
	for _, gc := range cases {
		got[gc.name] = goldenHash(t, gc)
	}
	if *updateGolden {
		var b strings.Builder
		b.WriteString("# result hashes of the golden set (engine/sim/golden_test.go); regenerate with\n")
		b.WriteString("# go test ./engine/sim -run TestGolden -update-golden\n")
		for _, gc := range cases {
			fmt.Fprintf(&b, "%s %s\n", gc.name, got[gc.name])
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (regenerate with -update-golden)", err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, hash, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("golden.txt: bad line %q", line)
		}
		want[name] = hash
	}
	moved := 0
	for _, gc := range cases {
		w, ok := want[gc.name]
		switch {
		case !ok:
			t.Errorf("%s: not in golden.txt (regenerate with -update-golden)", gc.name)
		case w != got[gc.name]:
			moved++
			t.Errorf("%s: result hash %s, golden %s", gc.name, got[gc.name], w)
		}
	}
	if len(want) != len(cases) {
		t.Errorf("golden.txt has %d cases, the set %d", len(want), len(cases))
	}
	if moved > 0 {
		t.Logf("%d of %d results moved; if the change is meant to alter results: go test ./engine/sim -run TestGolden -update-golden", moved, len(cases))
	}
}
