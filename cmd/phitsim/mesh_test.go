package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The toy 2D mesh runs MIN from the command line through the topology
// contract: validate names its sizes and VCs per class, run summarises it
// as a mesh and writes its result, and a Dragonfly routing is refused by
// name.
func TestRunMesh(t *testing.T) {
	mesh := []string{"-preset", "h2", "-set", "topology.kind=mesh", "-set", "topology.width=4", "-set", "topology.height=3",
		"-set", "topology.p=1", "-set", "sim.warmup=300", "-set", "sim.cycles=600", "-seeds", "1"}
	code, out, errOut := cli(t, false, append([]string{"validate"}, mesh...)...)
	if code != 0 || !strings.Contains(out, "12 nodes; VCs injection 3, x 3, y 3") {
		t.Errorf("validate: exit %d, %q, %q", code, out, errOut)
	}
	code, summary, errOut := cli(t, true, append([]string{"run"}, mesh...)...)
	if code != 0 || !strings.Contains(summary, "h2: 2D mesh p=1 width=4 height=3 (12 routers, 12 nodes), routing MIN") || !strings.Contains(summary, "accepted load") {
		t.Errorf("run: exit %d:\n%s\n%s", code, summary, errOut)
	}
	// hops and utilisation by class name; the edge ports are no links
	if !strings.Contains(summary, "on x links") || !strings.Contains(summary, "(18 links)") || !strings.Contains(summary, "on y links") ||
		!strings.Contains(summary, "(16 links)") || !strings.Contains(summary, "ejection links") || strings.Contains(summary, "global") {
		t.Errorf("run summary without the mesh's classes:\n%s", summary)
	}
	code, data, errOut := cli(t, false, append([]string{"run"}, mesh...)...)
	var doc PointDoc
	if code != 0 || json.Unmarshal([]byte(data), &doc) != nil || len(doc.Runs) != 1 || doc.Runs[0].Delivered == 0 || doc.Config.Topology.Kind != "mesh" {
		t.Fatalf("run JSON: exit %d, %s", code, errOut)
	}
	if cl := doc.Runs[0].Classes; len(cl) != 3 || cl[1].Class != "x" || cl[2].Class != "y" || math.Abs(cl[1].Hops+cl[2].Hops-doc.Runs[0].Hops.Avg) > 1e-9 {
		t.Errorf("run JSON classes %+v, mean hops %v", cl, doc.Runs[0].Hops.Avg)
	}
	code, _, errOut = cli(t, true, append([]string{"run"}, append(mesh, "-set", "routing.name=PAR")...)...)
	if code != 1 || !strings.Contains(errOut, "routing.name = PAR") || !strings.Contains(errOut, "only MIN") {
		t.Errorf("PAR on a mesh: exit %d, %q", code, errOut)
	}
}

// validate names the VCs a mechanism adds above the data VCs, and refuses
// data VCs that leave it too few of a port's 32 by the field's name.
func TestValidateMechanismVCs(t *testing.T) {
	cbcm := []string{"validate", "-preset", "fbfly16", "-set", "congestion.scheme=cbcm", "-set", "traffic.sourceQueue=true",
		"-set", "traffic.sourceQueues=perDestination"}
	code, out, errOut := cli(t, false, cbcm...)
	if code != 0 || !strings.Contains(out, "16 nodes; VCs injection 4, link 4; the mechanism adds injection 2, link 2") {
		t.Errorf("validate: exit %d, %q, %q", code, out, errOut)
	}
	code, out, _ = cli(t, false, append(cbcm, "-set", "router.injectionVCs=31")...)
	if code == 0 || !strings.Contains(out, "router.injectionVCs = 31: congestion.scheme=cbcm adds 2 VCs on injection ports") || !strings.Contains(out, "at most 30") {
		t.Errorf("31 injection VCs under CBCM: exit %d, %q", code, out)
	}
	if code, out, _ = cli(t, false, "validate", "-preset", "h2"); code != 0 || strings.Contains(out, "mechanism") {
		t.Errorf("no mechanism: exit %d, %q", code, out)
	}
}
