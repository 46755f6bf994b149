package config

import (
	"encoding/json"
	"strings"
	"testing"
)

// Messages and per-destination source queues (Kim et al., "Contention-based
// Congestion Management in Large-Scale Networks" §V-A): off by default and
// absent from existing documents; bad values are refused naming the field.
func TestMessagesValidation(t *testing.T) {
	c := FBFly(1, 4, 4)
	if b, _ := json.Marshal(c); strings.Contains(string(b), "messagePackets") || strings.Contains(string(b), "sourceQueues") {
		t.Fatalf("the default document names the new fields:\n%s", b)
	}
	for _, tc := range []struct {
		name  string
		edit  func(*Traffic)
		path  string
		words string
	}{
		{"too long", func(t *Traffic) { t.SourceQueue, t.MessagePackets = true, 5000 }, "traffic.messagePackets", "1024"},
		{"negative", func(t *Traffic) { t.SourceQueue, t.MessagePackets = true, -1 }, "traffic.messagePackets", "0"},
		{"unknown queues", func(t *Traffic) { t.SourceQueue, t.SourceQueues = true, "perFlow" }, "traffic.sourceQueues", "perDestination"},
		{"the paper's interface", func(t *Traffic) { t.SourceQueue, t.MessagePackets, t.SourceQueues = true, 4, "perDestination" }, "", ""},
		{"single packets, single queue", func(t *Traffic) { t.MessagePackets, t.SourceQueues = 1, "single" }, "", ""},
	} {
		c := FBFly(1, 4, 4)
		tc.edit(&c.Traffic)
		errs := c.Validate()
		if tc.path == "" {
			if len(errs) > 0 {
				t.Errorf("%s: %v", tc.name, errs)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Path != tc.path || !strings.Contains(errs[0].Error(), tc.words) {
			t.Errorf("%s: want one error on %s saying %q, got %v", tc.name, tc.path, tc.words, errs)
		}
	}
}

// Set where they cannot apply (no source queue; messages under the bursty
// process), messages and per-destination queues are accepted, ignored by the
// run (Traffic.Messages) and listed by Config.Unapplied, naming the field
// that keeps them out.
func TestMessagesIgnoredWhereTheyCannotApply(t *testing.T) {
	for _, tc := range []struct {
		name      string
		edit      func(*Traffic)
		path, why string
		packets   int
		perDst    bool
	}{
		{"messages without the source queue", func(t *Traffic) { t.MessagePackets = 4 }, "traffic.messagePackets", "traffic.sourceQueue", 1, false},
		{"per destination without the source queue", func(t *Traffic) { t.SourceQueues = "perDestination" }, "traffic.sourceQueues", "traffic.sourceQueue", 1, false},
		{"bursty messages", func(t *Traffic) { t.SourceQueue, t.MessagePackets, t.Process = true, 4, "bursty" }, "traffic.messagePackets", "traffic.process", 1, false},
		{"bursty, per destination", func(t *Traffic) { t.SourceQueue, t.SourceQueues, t.Process = true, "perDestination", "bursty" }, "", "", 1, true},
		{"the paper's interface", func(t *Traffic) { t.SourceQueue, t.MessagePackets, t.SourceQueues = true, 4, "perDestination" }, "", "", 4, true},
	} {
		c := FBFly(1, 4, 4)
		tc.edit(&c.Traffic)
		if errs := c.Validate(); len(errs) > 0 {
			t.Errorf("%s: refused: %v", tc.name, errs)
		}
		if m, d := c.Traffic.Messages(); m != tc.packets || d != tc.perDst {
			t.Errorf("%s: the run uses %d packets per message, per destination %v; want %d, %v", tc.name, m, d, tc.packets, tc.perDst)
		}
		un := c.Unapplied()
		if tc.path == "" {
			if len(un) > 0 {
				t.Errorf("%s: %v listed as ignored", tc.name, un)
			}
			continue
		}
		if len(un) != 1 || un[0].Path != tc.path || !strings.Contains(un[0].Error(), tc.why) {
			t.Errorf("%s: ignored %v, want %s naming %s", tc.name, un, tc.path, tc.why)
		}
	}
}

// The per-destination queues add their FIFOs to the source queues'
// estimate.
func TestPerDestinationQueuesAreEstimated(t *testing.T) {
	c := FBFly(1, 4, 4)
	c.Traffic.SourceQueue, c.Traffic.MessagePackets = true, 4
	single := c.StateBytes()
	c.Traffic.SourceQueues = "perDestination"
	if per := c.StateBytes(); per <= single {
		t.Errorf("perDestination: %d bytes, single queue %d: the FIFOs are not counted", per, single)
	}
}
