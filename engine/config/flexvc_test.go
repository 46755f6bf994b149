package config

import (
	"strings"
	"testing"
)

func flexCfg(routingName string, local, global int) Config {
	c := Default()
	c.Topology.H, c.Topology.A, c.Topology.P = 2, 4, 2
	c.Routing.Name = routingName
	c.Router.FlexVC = true
	c.Router.LocalVCs, c.Router.GlobalVCs = local, global
	return c
}

// The validator refuses the ✗ cells of thesis Table 5.3 (VAL with 2/1, 3/1,
// 2/2) naming the VC fields and the counts VAL needs, and accepts the others.
func TestFlexVCValidatorTable53(t *testing.T) {
	for _, tc := range []struct {
		name   string
		l, g   int
		refuse bool
	}{
		{"MIN", 2, 1, false}, {"VAL", 2, 1, true}, {"VAL", 3, 1, true}, {"VAL", 2, 2, true},
		{"VAL", 3, 2, false}, {"VAL", 4, 2, false}, {"PB", 3, 1, true}, {"UGAL", 3, 2, false},
	} {
		c := flexCfg(tc.name, tc.l, tc.g)
		errs := c.Validate()
		if !tc.refuse {
			if len(errs) > 0 {
				t.Errorf("%s %d/%d: %v", tc.name, tc.l, tc.g, errs)
			}
			continue
		}
		msg := errs.Error()
		if len(errs) != 1 || errs[0].Path != "router.localVCs" || !strings.Contains(msg, "router.globalVCs") ||
			!strings.Contains(msg, "at least 3/2 (opportunistic) or 4/2 (safe)") {
			t.Errorf("%s %d/%d: %v", tc.name, tc.l, tc.g, errs)
		}
	}
	// without FlexVC, VAL needs its 4/2
	c := flexCfg("VAL", 3, 2)
	c.Router.FlexVC = false
	if errs := c.Validate(); len(errs) == 0 {
		t.Error("VAL with 3/2 distance-based VCs accepted")
	}
}

// Thesis Table 5.4: with request-reply, 2×(2/1) = 4/2 refuses VAL's
// requests, 3/2+2/1 = 5/3 takes them; the reply subsequence must hold MIN.
func TestFlexVCValidatorTable54(t *testing.T) {
	c := flexCfg("VAL", 4, 2)
	c.Traffic.Reactive = true
	errs := c.Validate()
	if len(errs) != 1 || !strings.Contains(errs.Error(), "requests") || !strings.Contains(errs.Error(), "5/3") {
		t.Errorf("VAL 2×(2/1): %v", errs)
	}
	c = flexCfg("VAL", 5, 3)
	c.Traffic.Reactive = true
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("VAL 3/2+2/1: %v", errs)
	}
	c.Router.ReplyLocalVCs = 1
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "router.replyLocalVCs" {
		t.Errorf("reply 1/1: %v", errs)
	}
	c = flexCfg("MIN", 6, 4) // 4/3 + 2/1
	c.Traffic.Reactive = true
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("MIN 4/3+2/1: %v", errs)
	}
}

func TestFlexVCValidatorScope(t *testing.T) {
	c := flexCfg("MIN", 2, 1)
	c.Router.ReplyLocalVCs = 2
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "router.replyLocalVCs" || !strings.Contains(errs.Error(), "traffic.reactive") {
		t.Errorf("reply VCs without request-reply: %v", errs)
	}
	c = flexCfg("ACOR", 4, 2)
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "router.flexVC" {
		t.Errorf("ACOR: %v", errs)
	}
	// in-transit routing: Table 5.3's In-Trns row (PAR's path), whatever
	// OLM's own 3/2 sequence
	for _, name := range []string{"OLM", "PAR"} {
		c = flexCfg(name, 3, 2)
		if errs := c.Validate(); len(errs) != 0 {
			t.Errorf("%s 3/2: %v", name, errs)
		}
		c = flexCfg(name, 2, 2)
		if errs := c.Validate(); len(errs) != 1 || !strings.Contains(errs.Error(), "l l g l l g l") || !strings.Contains(errs.Error(), "at least 3/2 (opportunistic) or 5/2 (safe)") {
			t.Errorf("%s 2/2: %v", name, errs)
		}
	}
	c = flexCfg("MIN", 2, 1)
	c.Router.VCSelection = "best"
	if errs := c.Validate(); len(errs) != 1 || errs[0].Path != "router.vcSelection" {
		t.Errorf("vcSelection=best: %v", errs)
	}
	c.Topology = Default().Topology
	c.Topology.Kind, c.Topology.Width, c.Topology.Height = "mesh", 4, 4
	c.Router.VCSelection = ""
	if errs := c.Validate(); !strings.Contains(errs.Error(), "router.flexVC") {
		t.Errorf("mesh: %v", errs)
	}
}
