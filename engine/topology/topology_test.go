package topology

import (
	"strings"
	"testing"
)

// Every Dragonfly keeps the Topology contract (node attachment one-to-one
// onto the injection ports, symmetric links of one class), balanced or not,
// in both arrangements.
func TestDragonflyKeepsContract(t *testing.T) {
	for _, c := range []struct {
		h, a, p int
		arr     string
	}{{1, 1, 1, PalmTree}, {1, 2, 4, PalmTree}, {2, 4, 2, PalmTree}, {2, 4, 2, Consecutive}, {3, 2, 5, Consecutive}, {4, 8, 4, PalmTree}} {
		d, err := NewDragonfly(c.h, c.a, c.p, c.arr)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(d); err != nil {
			t.Errorf("h=%d a=%d p=%d %s: %v", c.h, c.a, c.p, c.arr, err)
		}
		for n := 0; n < d.Nodes(); n++ {
			if r, p := d.NodePort(n); r != n/c.p || p != n%c.p {
				t.Fatalf("%s: node %d on router %d port %d, want FOGSim's %d, %d", d.Name(), n, r, p, n/c.p, n%c.p)
			}
		}
	}
}

func TestNewFromParams(t *testing.T) {
	c := Params{Kind: "dragonfly", H: 2, A: 3, P: 5, Arrangement: Consecutive}
	topo, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := topo.(*Dragonfly)
	if !ok || d.H != 2 || d.A != 3 || d.P != 5 || d.palm {
		t.Fatalf("New built %s (%T)", topo.Name(), topo)
	}
	c.Kind = "torus"
	if _, err := New(c); err == nil || !strings.Contains(err.Error(), "topology.kind") || !strings.Contains(err.Error(), "torus") {
		t.Errorf("unknown kind: error %v, want one naming topology.kind and the value", err)
	}
	c.Kind, c.H = "dragonfly", 0
	if topo, err := New(c); err == nil || topo != nil {
		t.Errorf("h=0: got %v, %v", topo, err)
	}
}

// broken is a Dragonfly with one contract violation.
type broken struct {
	*Dragonfly
	fault string
}

func (b broken) NodePort(n int) (int, int) {
	r, p := b.Dragonfly.NodePort(n)
	switch {
	case b.fault == "shared" && n == 1:
		return b.Dragonfly.NodePort(0)
	case b.fault == "transit" && n == 0:
		return r, b.FirstLocalPort()
	}
	return r, p
}

func (b broken) Link(r, port int) (int, int) {
	q, qp := b.Dragonfly.Link(r, port)
	switch {
	case b.fault == "asymmetric" && r == 0 && port == b.FirstLocalPort():
		return q, qp + 1
	case b.fault == "class" && r == 0 && port == b.FirstGlobalPort():
		return b.Dragonfly.Link(r, b.FirstLocalPort())
	}
	return q, qp
}

func TestCheckFindsViolations(t *testing.T) {
	d, _ := NewDragonfly(2, 4, 2, PalmTree)
	for fault, want := range map[string]string{
		"shared":     "nodes 0 and 1 attach",
		"transit":    "of class local",
		"asymmetric": "which links to",
		"class":      "(global) links to",
	} {
		err := Check(broken{d, fault})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", fault, err, want)
		}
	}
}
