package sim

import (
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/topology"
)

// routing.intraGroupMisroute on a tiny network (h = 1, a = 3, p = 2: two
// local ports per router), derived by hand. A packet from node 0 (router 0)
// to router 1 of the same group finds its minimal output without credits
// (CGA fires) and the other local port, to router 2, empty. FOGSim's OLM
// (olm::misrouteType: the _L branch covers every packet outside the
// source-group case, intra-group traffic included) misroutes it there at
// injection: two local hops, no global one, and no mandatory global misroute
// (that guard is for packets leaving their group). Without the option it
// waits for the minimal output: one local hop.
func TestIntraGroupMisrouteOLM(t *testing.T) {
	for _, tc := range []struct {
		on            bool
		mis, hopsL    int64
		grantedAtOnce bool
	}{{false, 0, 1, false}, {true, 1, 2, true}} {
		c := config.Default()
		c.Topology.H, c.Topology.A, c.Topology.P = 1, 3, 2
		c.Routing.Name, c.Routing.IntraGroupMis = "OLM", tc.on
		c.Traffic.Load = 0
		c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 0, 100000, 1
		s, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			s.Step()
		}
		minPort := s.df.MinimalPort(0, 1)
		po := minPort // router 0
		if s.pclass[po] != topology.Local {
			t.Fatalf("minimal port %d of router 0 to router 1 is not local", minPort)
		}
		for v := 0; v < s.maxVC; v++ {
			s.credits[po*s.maxVC+v] = 0
		}
		k := rbInject(s, 0, 1*s.p, 0, s.now-60)
		s.Step()
		pk := &s.pk[k]
		granted := s.bufs[0].len == 0
		if granted != tc.grantedAtOnce || (granted && (pk.flags&fNonMin == 0 || pk.flags&fMandatory != 0)) {
			t.Fatalf("intraGroupMisroute=%v: granted at once %v (want %v), non-minimal %v, mandatory %v",
				tc.on, granted, tc.grantedAtOnce, pk.flags&fNonMin != 0, pk.flags&fMandatory != 0)
		}
		for v := 0; v < s.maxVC; v++ {
			s.credits[po*s.maxVC+v] = s.bufCap[topology.Local]
		}
		s.wakeOnCredit(po) // as a credit's arrival would
		for i := 0; i < 300 && s.st.del == 0; i++ {
			s.Step()
		}
		if s.st.del != 1 || s.st.mis != tc.mis || s.st.misCat[catInjection] != tc.mis || s.st.hopsL != tc.hopsL || s.st.hopsG != 0 {
			t.Errorf("intraGroupMisroute=%v: %d delivered, %d misrouted (%d at injection), %d local and %d global hops; want 1, %d, %d, %d local, 0 global",
				tc.on, s.st.del, s.st.mis, s.st.misCat[catInjection], s.st.hopsL, s.st.hopsG, tc.mis, tc.mis, tc.hopsL)
		}
	}
}
