package sim

import "phitsim/engine/config"

// The in-transit routings' misrouting decision (thesis §1.4.2.2, §1.4.3;
// FOGSim's CGA trigger): the global misrouting policy, the trigger that
// fires when the minimal output cannot take the packet, and the candidate
// draw. routeInTransit, cgaTrigger and pickCandidate (routing.go) read it;
// commitInTransit applies the misroute at the grant.

// Global misrouting policies of the in-transit routings (thesis §1.4.3).
const (
	polCRG uint8 = iota
	polRRG
	polNRG
	polMM
)

// Misroute kinds of a pending in-transit decision (applied at grant).
const (
	misNone uint8 = iota
	misLocal
	misLocalMM
	misGlobal
	misGlobalMandatory
)

// cga is PAR's and OLM's misrouting parameters.
type cga struct {
	policy   uint8
	policyL  bool // _L: one local misroute outside the source group
	intraL   bool // OLM _L: intra-group traffic may take its local misroute (routing.intraGroupMisroute)
	trigUGAL bool // routing.trigger=ugal: UGAL's comparison per candidate
	thMin    float64
	congCoef float64
	congPct  int32 // congCoef in whole percent, or −1
	congT    int32
	candMax  float64
	single   bool // one random port of the class is drawn, misroute only if it qualifies
	h        int  // global ports per router
}

func (s *Sim) initCGA(rc config.Routing, h int) {
	c := &s.cga
	switch rc.Policy {
	case "CRG", "CRG_L":
		c.policy = polCRG
	case "RRG", "RRG_L":
		c.policy = polRRG
	case "NRG", "NRG_L":
		c.policy = polNRG
	default:
		c.policy = polMM
	}
	c.policyL = len(rc.Policy) > 2 && rc.Policy[len(rc.Policy)-2:] == "_L"
	c.intraL = c.policyL && rc.IntraGroupMis && s.routing == routeOLM
	c.trigUGAL = rc.Trigger == "ugal"
	c.thMin, c.congCoef, c.congT, c.candMax = rc.ThMin, rc.CongestedCoef/100, int32(rc.CongestedT*float64(s.P)), rc.CandidateMax/100
	c.congPct = wholePercent(rc.CongestedCoef)
	// FOGSim's OLM draws one candidate, its PAR takes all that qualify
	c.single = rc.Candidates == "single" || rc.Candidates == "fogsim" && s.routing == routeOLM
	c.h = h
}
