package plot

import (
	"math"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// SRP's and UR1UR2's charts (Kim et al., Contention-based Congestion
// Management in Large-Scale Networks §V, Figs. 5b and 8c): UR1's latency
// and accepted load against the offered load (UR1's, the swept one), and
// SRP's share of packets sent speculatively and of those dropped.

func init() {
	Builders["ur1latency"] = func(in Input) []byte { return curve(in, ur1Latency, false) }
	Builders["ur1accepted"] = func(in Input) []byte { return curve(in, ur1Accepted, false) }
	Builders["srpspeculative"] = func(in Input) []byte { return curve(in, srpSpeculative, false) }
	Builders["srpdropped"] = func(in Input) []byte { return curve(in, srpDropped, false) }
}

// ur1ur2 and srpScheme: a configuration runs UR1UR2, or SRP.
func ur1ur2(c *config.Config) bool    { return c.Traffic.Pattern == "UR1UR2" }
func srpScheme(c *config.Config) bool { return c.Congestion.Scheme == "srp" }

func hasGroups(r *result.Result) bool { return len(r.Groups) > 0 }
func hasSRP(r *result.Result) bool    { return r.Mechanisms["srp"] != nil }

// ur1 reads UR1's class of a point (NaN without one).
func ur1(f func(g *experiment.Point) float64) func(p experiment.Point) float64 {
	return func(p experiment.Point) float64 {
		if len(p.Agg.Groups) == 0 {
			return math.NaN()
		}
		return f(&p)
	}
}

// srpShare reads SRP's shares of a point (NaN without SRP).
func srpShare(f func(g *experiment.Point) float64) func(p experiment.Point) float64 {
	return func(p experiment.Point) float64 {
		if p.Agg.SRP == nil {
			return math.NaN()
		}
		return f(&p)
	}
}

var ur1Latency = metric{"UR1 latency vs offered load", "UR1 average latency (cycles)",
	ur1(func(p *experiment.Point) float64 { return p.Agg.Groups[0].Latency.Mean }),
	ur1(func(p *experiment.Point) float64 { return p.Agg.Groups[0].Latency.CI95 }), nil}

var ur1Accepted = metric{"UR1 accepted vs offered load", "UR1 accepted load (" + unitLoad + ")",
	ur1(func(p *experiment.Point) float64 { return p.Agg.Groups[0].Accepted.Mean }),
	ur1(func(p *experiment.Point) float64 { return p.Agg.Groups[0].Accepted.CI95 }), nil}

var srpSpeculative = metric{"SRP: packets sent speculatively vs offered load", "share of packets sent speculatively (fraction, 0–1)",
	srpShare(func(p *experiment.Point) float64 { return p.Agg.SRP.Speculative.Mean }),
	srpShare(func(p *experiment.Point) float64 { return p.Agg.SRP.Speculative.CI95 }), nil}

var srpDropped = metric{"SRP: speculative packets dropped vs offered load", "share of speculative packets dropped (fraction, 0–1)",
	srpShare(func(p *experiment.Point) float64 { return p.Agg.SRP.Dropped.Mean }),
	srpShare(func(p *experiment.Point) float64 { return p.Agg.SRP.Dropped.CI95 }), nil}
