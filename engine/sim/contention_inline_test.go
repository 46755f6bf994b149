package sim

import "testing"

// routeInTransit tests the counting triggers (base, filtered, ectn; thesis
// §4.2.1.1, §4.2.1.2, §4.2.1.4) inline instead of calling cgaTrigger: its
// decision must be cgaTrigger's, at the source router and in transit, with
// the minimal output's counter below and at th and ECtN's combined counter
// of the destination group below and at th_c (h=2, OLM, router 0, a packet
// bound for the last group; every other counter 0, so a fired trigger
// always finds a candidate).
func TestContentionInlineTriggerIsCgaTrigger(t *testing.T) {
	for _, trigger := range []string{"base", "filtered", "ectn"} {
		s, pk, minPort := ccSim(t, trigger)
		cc := s.cga.cc
		dg := s.df.GroupOf(int(pk.dstRouter))
		fired, held := 0, 0
		for _, n := range []int32{0, cc.th - 1, cc.th, cc.th + 3} {
			for _, comb := range []int16{0, 9, 10} {
				for _, fromInj := range []bool{false, true} {
					cc.cnt[minPort] = n
					if cc.avg != nil { // filtered: the average settled at n, cold below th (as ccHead leaves them)
						cc.avg[minPort] = filtered{float64(n), int32(s.now), n < cc.th}
					}
					if e := cc.ectn; e != nil {
						e.live[dg] = comb
					}
					want := s.cgaTrigger(0, minPort, 0, 0, fromInj, dg)
					pk.aux, pk.outPort, pk.mis, pk.flags = -1, -1, 0, 0
					s.routeInTransit(0, pk, fromInj)
					if got := int(pk.outPort) != minPort; got != want {
						t.Errorf("%s: counter %d, combined %d, at source %v: routeInTransit misroutes %v, cgaTrigger %v",
							trigger, n, comb, fromInj, got, want)
					}
					if want {
						fired++
					} else {
						held++
					}
				}
			}
		}
		if fired == 0 || held == 0 {
			t.Fatalf("%s: the trigger fired %d times and held %d: the comparison proves nothing", trigger, fired, held)
		}
	}
}
