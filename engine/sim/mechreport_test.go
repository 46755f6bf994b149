package sim

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// A mechanism's report is a result's and must survive JSON at any moment:
// the page shows snapshots from the first cycles and exports a cancelled
// run's. CBCM's marked share was 0/0 before a packet was delivered in the
// window, and CBCM's and ECN's throttled shares were NaN before any flow had
// sent (FuzzExtremes: h2 with CBCM, a snapshot at cycle 250; phitsim run at
// load 0 wrote them as null). Every scheme and QCN-Switch, at load 0 and at
// 0.3, snapshots at cycles 0, 1, 50 and 300.
func TestMechanismReportsFiniteFromTheFirstCycle(t *testing.T) {
	for _, preset := range []string{"h2", "fbfly16", "fattree64"} {
		for _, scheme := range []string{"congestion.scheme=ideal", "congestion.scheme=ecn", "congestion.scheme=cbcm",
			"congestion.scheme=cbcm congestion.cbcmEarly=true", "congestion.scheme=srp", "routing.name=QCN_SWITCH", "congestion.scheme=recn"} {
			for _, load := range []string{"0", "0.3"} {
				c, err := config.PresetByName(preset)
				if err != nil {
					t.Fatal(err)
				}
				sets := append(strings.Fields(scheme), "traffic.load="+load, "sim.warmup=200", "sim.cycles=200")
				if !strings.Contains(scheme, "recn") {
					sets = append(sets, "traffic.sourceQueue=true", "traffic.sourceQueues=perDestination")
				}
				setAll(t, &c, sets)
				if len(c.Validate()) > 0 {
					continue // the scheme does not run on this network
				}
				what := preset + " " + scheme + " load " + load
				s, err := New(c, 1)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				for _, at := range []int64{0, 1, 50, 300} {
					for s.now < at {
						s.Step()
					}
					r := s.Snapshot()
					if len(r.Mechanisms) == 0 && !strings.Contains(scheme, "recn") {
						t.Errorf("%s: no report", what)
					}
					// a mean of nothing is left out, not 0 (it would pull the seeds' mean down)
					if _, ok := r.Mechanisms["ecn"]["becnLatency"]; ok && at == 0 {
						t.Errorf("%s, cycle 0: a BECN latency before any BECN", what)
					}
					if bad := nonFinite(reflect.ValueOf(r).Elem(), "result"); bad != "" {
						t.Errorf("%s, cycle %d: %s", what, at, bad)
					}
					if _, err := json.Marshal(r); err != nil {
						t.Errorf("%s, cycle %d: %v", what, at, err)
					}
				}
			}
		}
	}
}
