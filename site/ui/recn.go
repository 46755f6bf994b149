//go:build js && wasm

package ui

import (
	"fmt"
	"strconv"

	"github.com/hexops/vecty"

	"phitsim/engine/result"
	"phitsim/site/plot"
	"phitsim/site/protocol"
)

// RECN's part of the live view (Duato et al., RECN paper §3.4): when the
// watched run's snapshots carry SAQ counts (congestion.scheme=recn), the
// drawing colours switches and hosts by the SAQs they hold, on one scale
// for every frame (plot.SAQTop), so that the slider replays the congestion
// tree growing and draining.

// graphOption is the drawing of the frame shown.
func (n *liveNet) graphOption() []byte {
	if top := plot.SAQTop(n.frames); top > 0 {
		return plot.NetGraphSAQ(n.layout, n.shown(), n.title, top)
	}
	return plot.NetGraph(n.layout, n.shown(), n.title)
}

// frameLabel names a frame's interval in cycles, and in µs on a physical
// basis (the RECN paper's runs read in µs: the hotspot is 800–970 µs).
func (n *liveNet) frameLabel(f *protocol.NetInfo) string {
	s := fmt.Sprintf("cycles %d–%d of %d", f.Cycle-f.Interval, f.Cycle, f.Total)
	if n.cycleNs > 0 {
		us := func(c int64) float64 { return float64(c) * n.cycleNs / 1e3 }
		s += fmt.Sprintf(" (%.4g–%.4g µs of %.4g)", us(f.Cycle-f.Interval), us(f.Cycle), us(f.Total))
	}
	return s
}

// heatOption is the heat map of the link utilisation at the end of the
// run; RECN's sides do not sample their links for the snapshots, so under
// RECN it says so rather than show zeros.
func (n *liveNet) heatOption(busiest *result.BusiestLink) []byte {
	if plot.SAQTop(n.frames) > 0 {
		return plot.Empty("Link utilisation per port", "not sampled under RECN: its throughput is in the time series")
	}
	return plot.NetHeatmap(plot.MeanNet(n.frames), n.topo, busiest)
}

// saqMarkup says, on the live view's card, how many switches hold SAQs in
// the frame shown (data-saq-switches, dataset.saqSwitches; absent without RECN), for readers
// of the page's state such as the browser test.
func (n *liveNet) saqMarkup() vecty.Applyer {
	f := n.shown()
	if f == nil || f.SAQs == nil {
		return nil
	}
	k := 0
	for _, v := range f.SAQs {
		if v > 0 {
			k++
		}
	}
	return vecty.Data("saqSwitches", strconv.Itoa(k))
}

// netAria describes the drawing for a screen reader.
func (n *liveNet) netAria(label string) string {
	if plot.SAQTop(n.frames) > 0 {
		return "network drawing: switches coloured by the SAQs allocated, " + label
	}
	return "network drawing: links coloured by utilisation, routers by buffer occupancy, " + label
}
