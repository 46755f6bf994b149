package sim

import (
	"slices"
	"testing"

	"phitsim/engine/config"
)

// Request-reply: node 0 (router 0) sends one request to node 4 (router 1);
// node 4 answers with a reply. Both are generated in the window (applied
// load counts 2 packets), but the per-router injections count only the
// request: router 0 one, router 1 none. FOGSim v5 counts switchModule::
// packetsInj in generatorModule::inject, and a reply is injected at the
// request's consumption (trackConsumptionStatistics → injectFlit) without it.
func TestFairnessCountsRequestsNotReplies(t *testing.T) {
	s := rbSim(t, func(c *config.Config) { c.Traffic.Reactive = true })
	s.inject(0, 4, fRequest)
	for i := 0; i < 400 && s.st.delRep == 0; i++ {
		s.Step()
	}
	if s.st.delReq != 1 || s.st.delRep != 1 {
		t.Fatalf("%d requests and %d replies delivered, want 1 and 1", s.st.delReq, s.st.delRep)
	}
	if s.st.gen != 2 {
		t.Errorf("%d packets generated in the window, want 2 (request and reply)", s.st.gen)
	}
	if got := s.st.perRouter[:2]; !slices.Equal(got, []int64{1, 0}) {
		t.Errorf("injections of routers 0, 1: %v, want [1 0]", got)
	}
}
