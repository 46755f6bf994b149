package plot

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/routing"
	"phitsim/engine/topology"
)

// QCN-Switch's charts (QCN-Switch paper: Benito, Vallejo, Izu, Beivide,
// "Non-minimal Adaptive Routing Based on Explicit Congestion
// Notifications"): the per-port minimal probabilities of a router of group 0
// over time (its Figs. 12b, 14b), from the transient record's or a steady
// run's result.PortProbabilities, and the CNM traffic of each point from
// the mechanism's report (mechanisms.qcn). Both are built in cycles; a
// physical basis converts their "(cycles" axes like every chart's.

func init() {
	Builders["qcnprobability"] = QCNProbability
	Builders["qcncnm"] = QCNNotifications
	Builders["qcncnmtime"] = QCNNotificationsOverTime
}

// notifies reports whether a configuration runs QCN congestion points (the
// routing table's Notifications mechanism).
func notifies(c *config.Config) bool {
	e := routing.Get(c.Routing.Name)
	return e.Keeps(routing.Notifications)
}

func hasProbabilities(x *result.Result) bool {
	pp, _ := probabilities(x)
	return pp != nil
}

// probabilities is a QCN-Switch run's probability trace: the transient
// record's (times from the pattern switch), else the steady run's
// result.SeriesProbabilities (times from the start of the run).
func probabilities(x *result.Result) (pp *result.PortProbabilities, transient bool) {
	if x.Transient != nil {
		return x.Transient.Probabilities, x.Transient.Probabilities != nil
	}
	return x.SeriesProbabilities, false
}

func hasCNMs(x *result.Result) bool { return x.Mechanisms["qcn"] != nil }

// advGroup is the group that group 0's traffic targets under the
// adversarial pattern of a transient run (after the switch, else before
// it), −1 when neither pattern is ADV+i.
func advGroup(c *config.Config, groups int) int {
	switch {
	case c.Traffic.SwitchCycle > 0 && c.Traffic.SwitchPattern == "ADV":
		return c.Traffic.SwitchAdvOffset % groups
	case c.Traffic.Pattern == "ADV":
		return c.Traffic.AdvOffset % groups
	}
	return -1
}

// ProbabilityPorts describes the transit ports of router r of group 0 in
// a run's probability trace: their names (the port and where it leads) and
// the index of the port toward S_out, the router holding group 0's global
// link to the adversarial group (−1 without ADV+i). r outside group 0 is
// the middle router a/2 (the paper's "switch in the middle of group 0").
func ProbabilityPorts(c *config.Config, r int) (router int, names []string, toSout, sOut int, err error) {
	t, err := topology.New(c.Topology.Params())
	if err != nil {
		return 0, nil, -1, -1, err
	}
	df, ok := t.(*topology.Dragonfly)
	if !ok {
		return 0, nil, -1, -1, fmt.Errorf("QCN-Switch runs on a Dragonfly only")
	}
	a, p := df.RoutersPerGroup(), df.NodesPerRouter()
	if r < 0 || r >= a {
		r = a / 2
	}
	toSout, sOut = -1, -1
	if g := advGroup(c, df.Groups()); g > 0 {
		sOut = df.GlobalLinkTo(0, g) / df.H
		toSout = df.MinimalPort(r, g*a) - p
	}
	for port := p; port < df.Radix(); port++ {
		peer, _ := df.Link(r, port)
		if df.GroupOf(peer) == 0 {
			names = append(names, fmt.Sprintf("port %d → router %d", port, peer))
		} else {
			names = append(names, fmt.Sprintf("port %d → group %d", port, df.GroupOf(peer)))
		}
	}
	return r, names, toSout, sOut, nil
}

// QCNProbability is the minimal probability of every transit port of one
// router of group 0 (in.Router; the middle one by default) against the
// cycle from the pattern switch (transient runs) or from the start of the
// run (steady runs: the adaptation from 100% during the warm-up, then the
// measured window, marked), from the first finished run of each series at
// the selected point: one run, as the paper's Fig. 12b shows (averaging
// seeds would hide the sawtooth of the AIMD updates). Transient traces are
// drawn when any series has one (their time axes differ). The port toward
// S_out is drawn thick in the series' colour; the other ports are thin
// lines when one series has a trace.
func QCNProbability(in Input) []byte {
	const title = "QCN-Switch minimal probability per port"
	names, runs, x := pointRuns(in)
	if names == nil {
		return Empty(title, "no results yet")
	}
	type trace struct {
		si  int
		run *result.Result
		pp  *result.PortProbabilities
	}
	var ts []trace
	transient := false
	for _, rs := range runs {
		for _, rr := range rs {
			_, tr := probabilities(rr)
			transient = transient || tr
		}
	}
	for si, rs := range runs {
		for _, rr := range rs {
			if pp, tr := probabilities(rr); pp != nil && tr == transient {
				ts = append(ts, trace{si, rr, pp})
				break
			}
		}
	}
	if len(ts) == 0 {
		return Empty(title, "no probability trace: routing.name=QCN_SWITCH")
	}
	line := charts.NewLine()
	yName := "minimal probability (%)"
	xName := "time from the start of the run (cycles)"
	if transient {
		xName = "time from the pattern switch (cycles)"
	}
	line.SetGlobalOptions(append(common(title+" at "+pointLabel(in.Results, x), xName, yName, true),
		yFromZero(yName, 100))...)
	var legend []string
	sub := ""
	for k, t := range ts {
		c := &t.run.Config
		r, ports, toSout, sOut, err := ProbabilityPorts(c, in.Router)
		pp := t.pp
		if err != nil || pp.Ports != len(ports) {
			return Empty(title, "the probability trace does not match the topology")
		}
		if k == 0 {
			sub = fmt.Sprintf("router %d of group 0, seed %d (one run, as the QCN-Switch paper's Fig. 12b)", r, t.run.Seed)
			if sOut >= 0 {
				sub += fmt.Sprintf("; S_out = router %d, thick: its port toward S_out", sOut)
			}
		}
		for port := range ports {
			focus := port == toSout || toSout < 0 && len(ts) > 1
			if !focus && len(ts) > 1 {
				continue // several series: only the port toward S_out of each
			}
			data := make([]opts.LineData, len(pp.Values))
			for i, v := range pp.Values {
				at := pp.From + i*pp.Every
				if !transient && i == len(pp.Values)-1 {
					// a steady trace ends at the run's end, perhaps
					// before the interval's
					at = min(at, c.Sim.Warmup+c.Sim.Cycles)
				}
				data[i] = opts.LineData{Value: []any{at, num(float64(v[r*pp.Ports+port]))}}
			}
			name := names[t.si] + " · " + ports[port]
			width, opacity := 1.0, 0.35
			if focus {
				width, opacity = 2.5, 1
				if port == toSout {
					name = names[t.si] + " · toward S_out (" + ports[port] + ")"
				}
				legend = append(legend, name)
			}
			so := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Step: "end"}),
				charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(t.si)}),
				charts.WithLineStyleOpts(opts.LineStyle{Width: float32(width), Opacity: opts.Float(float32(opacity))})}
			if k == 0 && port == 0 {
				// the pattern switch, or where the measured window starts
				at, name, label := 0, "pattern switch", "→ "+c.Traffic.SwitchPattern
				if !transient {
					at, name, label = c.Sim.Warmup, "end of the warm-up", "measured →"
				}
				so = append(so, charts.WithSeriesOpts(func(s *charts.SingleSeries) {
					s.MarkLines = &opts.MarkLines{Data: []any{map[string]any{"xAxis": at, "name": name,
						"label": map[string]any{"show": true, "formatter": label, "position": "insideEndTop"}}},
						MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"},
							LineStyle: &opts.LineStyle{Color: "#888", Type: "dashed", Width: 1}}}
				}))
			}
			line.AddSeries(name, data, so...)
		}
	}
	return render(line, func(m map[string]any) {
		if t := component(m, "title"); t != nil {
			t["subtext"] = sub
		}
		setGrid(m, "top", "84")
		if l := component(m, "legend"); l != nil {
			l["data"] = legend // the thin ports stay out of the legend
			l["top"] = "44"
		}
	})
}

// QCNNotifications is the CNM traffic of each series against the swept
// variable, mean over each point's runs (mechanisms.qcn): the CNMs' share
// of the phits on the network's links (left) and their mean latency,
// congestion point to the victim's source router (right, dashed).
func QCNNotifications(in Input) []byte {
	const title = "QCN congestion notifications (CNMs)"
	r := in.Results
	if r == nil || !anyRun(r, hasCNMs) {
		return Empty(title, "no CNM report yet: routing.name=QCN_SWITCH")
	}
	line := charts.NewLine()
	line.SetGlobalOptions(common(title, xAxisName(r), "CNM phits (% of link phits)", true)...)
	line.ExtendYAxis(opts.YAxis{Type: "value", Name: "mean CNM latency (cycles)", NameLocation: "middle", NameGap: 44,
		Position: "right", SplitLine: &opts.SplitLine{Show: opts.Bool(false)}})
	for si, name := range seriesNames(r) {
		var share, lat []opts.LineData
		for pi, x := range r.Values {
			var s, l float64
			var ns, nl int
			for _, rr := range r.RunsAt(si, pi) {
				q := rr.Mechanisms["qcn"]
				if q == nil {
					continue
				}
				s += 100 * q["cnmLinkShare"]
				ns++
				if v, ok := q["cnmMeanLatency"]; ok { // absent before the first delivery
					l += v
					nl++
				}
			}
			if ns > 0 {
				share = append(share, opts.LineData{Value: []any{num(x), num(s / float64(ns))}})
			}
			if nl > 0 {
				lat = append(lat, opts.LineData{Value: []any{num(x), num(l / float64(nl))}})
			}
		}
		if len(share) == 0 {
			continue
		}
		line.AddSeries(name+" CNM share", share, charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true)}))
		line.AddSeries(name+" CNM latency", lat, charts.WithItemStyleOpts(opts.ItemStyle{Color: Color(si)}),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), YAxisIndex: 1}),
			charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed", Width: 1}))
	}
	return render(line, func(m map[string]any) {
		setGrid(m, "right", "64") // room for the latency axis
		if ys, ok := m["yAxis"].([]any); ok && len(ys) > 0 {
			ys[0].(map[string]any)["min"] = 0
		}
	})
}

// QCNNotificationsOverTime is the CNMs generated per sim.interval over the
// run at the selected point (result.SeriesCNMs: sent, or processed at their
// own congestion point's router), mean over the runs, one line per series:
// the CNM traffic as its own series over time (QCN-Switch paper §5.2).
func QCNNotificationsOverTime(in Input) []byte {
	const title = "CNMs over time"
	names, runs, x := pointRuns(in)
	if names == nil || !anyRun(in.Results, hasCNMs) {
		return Empty(title, "no CNM report yet: routing.name=QCN_SWITCH")
	}
	line := charts.NewLine()
	line.SetGlobalOptions(common(title+" at "+pointLabel(in.Results, x), "time (cycles)", "CNMs generated per interval", true)...)
	overTime(line, names, runs, meanCNMs)
	return render(line, nil)
}

// meanCNMs is the CNMs per interval of runs rs, mean over them, at the
// cycles of the first run's samples; nil when the runs have no CNM report.
func meanCNMs(rs []*result.Result) (cyc []int64, v []float64) {
	if rs[0].Mechanisms["qcn"] == nil {
		return nil, nil
	}
	n := min(len(rs[0].SeriesCNMs), len(rs[0].Series))
	cyc, v = make([]int64, n), make([]float64, n)
	for i := range cyc {
		cyc[i] = rs[0].Series[i].Cycle
	}
	for _, rr := range rs {
		for i := 0; i < n && i < len(rr.SeriesCNMs); i++ {
			v[i] += float64(rr.SeriesCNMs[i]) / float64(len(rs))
		}
	}
	return cyc, v
}

// component is the first of an option's component (go-echarts renders
// some as an object, some as a list), nil when absent.
func component(m map[string]any, key string) map[string]any {
	switch v := m[key].(type) {
	case []any:
		if len(v) > 0 {
			c, _ := v[0].(map[string]any)
			return c
		}
	case map[string]any:
		return v
	}
	return nil
}
