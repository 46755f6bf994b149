package plot

import (
	"fmt"
	"math"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/site/experiment"
)

// HOTSPOT's charts (Kim et al., Contention-based Congestion Management in
// Large-Scale Networks §V-A): the background class's accepted load and
// latency against the offered load, which its figures plot, and at the
// selected point the accepted hotspot bandwidth of each sender (its Fig. 14).

func init() {
	Builders["bgaccepted"] = BackgroundAccepted
	Builders["bglatency"] = BackgroundLatency
	Builders["hotspotsenders"] = HotspotSenders
}

// hasHotspot: a result has HOTSPOT's classes.
func hasHotspot(r *result.Result) bool { return r.Hotspot != nil }

// hotspotPattern: a configuration runs HOTSPOT (before or after a switch).
func hotspotPattern(c *config.Config) bool {
	return c.Traffic.Pattern == "HOTSPOT" || c.Traffic.SwitchCycle > 0 && c.Traffic.SwitchPattern == "HOTSPOT"
}

func bg(f func(h *experiment.Point) float64) func(p experiment.Point) float64 {
	return func(p experiment.Point) float64 {
		if p.Agg.Hotspot == nil {
			return math.NaN()
		}
		return f(&p)
	}
}

var bgAccepted = metric{"Background accepted vs offered load", "background accepted load (" + unitLoad + ")",
	bg(func(p *experiment.Point) float64 { return p.Agg.Hotspot.Accepted.Mean }),
	bg(func(p *experiment.Point) float64 { return p.Agg.Hotspot.Accepted.CI95 }), nil}

var bgLatency = metric{"Background latency vs offered load", "background average latency (cycles)",
	bg(func(p *experiment.Point) float64 { return p.Agg.Hotspot.Latency.Mean }),
	bg(func(p *experiment.Point) float64 { return p.Agg.Hotspot.Latency.CI95 }), nil}

// BackgroundAccepted is HOTSPOT's background class (UR among the nodes that
// are neither the hotspot nor a sender): accepted load per background node
// against the offered load, mean over the seeds with 95% CI whiskers.
func BackgroundAccepted(in Input) []byte { return curve(in, bgAccepted, false) }

// BackgroundLatency is the background class's average latency.
func BackgroundLatency(in Input) []byte { return curve(in, bgLatency, false) }

// HotspotSenders shows, at the selected point, the accepted hotspot
// bandwidth of each sender (phits per cycle delivered to the hotspot), mean
// over the runs, one bar per sender and series; the per-router chart's bars.
func HotspotSenders(in Input) []byte {
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty("Hotspot bandwidth per sender", "no results yet")
	}
	var senders []int32
	hot := int32(-1)
	values := make([][]float64, len(runs))
	for si, rs := range runs {
		for _, rr := range rs {
			h := rr.Hotspot
			if h == nil {
				continue
			}
			if senders == nil {
				senders, hot = h.Senders, h.Node
			}
			if values[si] == nil {
				values[si] = make([]float64, len(h.SenderAccepted))
			}
			for i, v := range h.SenderAccepted {
				if i < len(values[si]) {
					values[si][i] += v / float64(len(rs))
				}
			}
		}
	}
	if senders == nil {
		return Empty("Hotspot bandwidth per sender", "no HOTSPOT result")
	}
	cats := make([]string, len(senders))
	for i, n := range senders {
		cats[i] = fmt.Sprint(n)
	}
	return bars(fmt.Sprintf("Hotspot bandwidth per sender (into node %d) at %s", hot, pointLabel(in.Results, x)),
		"sender node", "accepted hotspot bandwidth (phits/cycle)", names, values, cats, 0)
}
