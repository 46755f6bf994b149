package docs

import (
	"testing"

	"phitsim/engine/config"
)

// Every topology kind the configuration offers has its section, and the
// mesh's own fields link to it.
func TestEveryTopologyKindHasATopic(t *testing.T) {
	p, _ := config.Lookup("topology.kind")
	for _, k := range p.Enum {
		id, ok := For("topology.kind", k)
		if tp, found := Lookup(id); !ok || !found || tp.Kind != "topology" {
			t.Errorf("topology.kind=%s: topic %q (%v)", k, id, ok)
		}
	}
	for _, f := range []string{"topology.width", "topology.height"} {
		if id, _ := For(f, ""); id != "topology-mesh" {
			t.Errorf("%s -> %q", f, id)
		}
	}
}
