package plot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"phitsim/engine/result"
	"phitsim/engine/topology"
	"phitsim/site/netview"
	"phitsim/site/protocol"
)

// viridis is the viridis colour map at nine stops: perceptually uniform
// and readable with deuteranopia and protanopia (its lightness alone
// orders it), unlike a green-to-red scale.
var viridis = [...][3]float64{{68, 1, 84}, {72, 40, 120}, {62, 74, 137}, {49, 104, 142},
	{38, 130, 142}, {31, 158, 137}, {53, 183, 121}, {109, 205, 89}, {253, 231, 37}}

// Viridis is the colour of x ∈ [0, 1] (clamped) on the viridis scale.
func Viridis(x float64) string {
	if math.IsNaN(x) {
		x = 0
	}
	x = min(max(x, 0), 1) * float64(len(viridis)-1)
	i := min(int(x), len(viridis)-2)
	f := x - float64(i)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(viridis[i][k]*(1-f) + viridis[i+1][k]*f))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// narrowSubtitle is the phone layout of the live view's charts, whose long
// subtitle (the cycles shown, what the colours mean) was cut at both edges
// of a narrow chart: there it breaks into lines, and below (the drawing's
// or the grid's top, in more) moves down to make room for them. The text
// is 330 px wide on charts of 345 px or more (a 390-px phone's card is 360
// px), 270 px down to 285 px (a 320-px phone).
func narrowSubtitle(below map[string]any) []any {
	rule := func(maxWidth, width int, more map[string]any) map[string]any {
		o := map[string]any{"title": map[string]any{
			"textStyle":    map[string]any{"fontSize": 13, "width": width, "overflow": "truncate"},
			"subtextStyle": map[string]any{"width": width, "overflow": "break", "lineHeight": 15}}}
		for k, v := range more {
			o[k] = v
		}
		return map[string]any{"query": map[string]any{"maxWidth": maxWidth}, "option": o}
	}
	return []any{rule(Narrow, 330, below), rule(344, 270, nil)}
}

// viridisStops are the scale's colours for a visualMap.
func viridisStops() []string {
	out := make([]string, len(viridis))
	for i := range out {
		out[i] = Viridis(float64(i) / float64(len(out)-1))
	}
	return out
}

// RouterOccupancy is a router's input buffer occupancy in a snapshot: the
// mean share over its connected ports.
func RouterOccupancy(n *protocol.NetInfo, routers []int) float64 {
	var sum float64
	var k int
	for _, r := range routers {
		for p := 0; p < n.Radix; p++ {
			if pi := r*n.Radix + p; pi < len(n.BufferUse) {
				sum += protocol.Share(n.BufferUse[pi])
				k++
			}
		}
	}
	if k == 0 {
		return 0
	}
	return sum / float64(k)
}

// RouterInjection is the mean injection of routers' nodes in a snapshot
// (phits/node/cycle); ok false when the snapshot has none.
func RouterInjection(n *protocol.NetInfo, routers []int) (float64, bool) {
	if n == nil || len(routers) == 0 {
		return 0, false
	}
	var sum float64
	for _, r := range routers {
		if r >= len(n.Injection) {
			return 0, false
		}
		sum += protocol.Share(n.Injection[r])
	}
	return sum / float64(len(routers)), true
}

// NetGraph is the live view's drawing (an ECharts graph series at fixed
// positions): links coloured and thickened by their utilisation, routers
// coloured by their buffer occupancy, on the viridis scale. n nil: the
// network before its first snapshot.
func NetGraph(l netview.Layout, n *protocol.NetInfo, title string) []byte {
	return netGraph(l, n, title, 0)
}

// netGraph draws l with switches coloured by buffer occupancy (saqTop 0)
// or by the SAQs they hold on a scale from 0 to saqTop (NetGraphSAQ).
func netGraph(l netview.Layout, n *protocol.NetInfo, title string, saqTop int) []byte {
	const size = 1000
	sym := symbolSize(l)
	nodes := make([]map[string]any, len(l.Nodes))
	for i, nd := range l.Nodes {
		if len(nd.Routers) == 0 { // a fat tree's host row
			nodes[i] = hostNode(nd, n, saqTop, sym)
			nodes[i]["x"], nodes[i]["y"] = num(nd.X*size), num(nd.Y*size)
			continue
		}
		occ := 0.0
		if n != nil {
			occ = RouterOccupancy(n, nd.Routers)
		}
		name := fmt.Sprintf("router %d (group %d)", nd.Routers[0], nd.Group)
		switch {
		case l.Aggregated:
			name = fmt.Sprintf("group %d", nd.Group)
		case nd.Name != "":
			name = nd.Name
		}
		tip := fmt.Sprintf("%s<br>buffer occupancy %.2f", name, occ)
		if inj, ok := RouterInjection(n, nd.Routers); ok {
			// ADVc's starving router a−1 (thesis §3.3.1) shows here
			tip += fmt.Sprintf("<br>injection %.3f phits/node/cycle", inj)
		}
		val := occ
		if saqTop > 0 {
			saqs := sumOf(n, func(n *protocol.NetInfo) []int32 { return n.SAQs }, nd.Routers)
			val = float64(saqs) / float64(saqTop)
			tip += fmt.Sprintf("<br>SAQs allocated %d (ingress and egress sides)", saqs)
		}
		nodes[i] = map[string]any{"name": name, "x": num(nd.X * size), "y": num(nd.Y * size),
			"value": num(val), "itemStyle": map[string]any{"color": Viridis(val), "borderColor": "#333"},
			"tooltip": map[string]any{"formatter": tip}}
	}
	edges := make([]map[string]any, len(l.Edges))
	for i := range l.Edges {
		e := &l.Edges[i]
		u := 0.0
		if n != nil {
			u = e.Use(func(pi int) float64 {
				if pi < len(n.LinkUse) {
					return protocol.Share(n.LinkUse[pi])
				}
				return 0
			}, n.Radix)
		}
		edges[i] = map[string]any{"source": e.From, "target": e.To, "value": num(u),
			"lineStyle": map[string]any{"color": Viridis(u), "width": num(1 + 3*u), "opacity": num(0.35 + 0.65*u)}}
		if saqTop > 0 { // the tree's structure: RECN's links are not sampled
			edges[i]["lineStyle"] = map[string]any{"color": "#999", "width": 1, "opacity": 0.5}
		}
	}
	sub := "before the first snapshot"
	if n != nil {
		what := "link colour: utilisation (phits/cycle) · router colour: buffer occupancy (share)"
		if saqTop > 0 {
			what = "switch colour: SAQs allocated (ingress + egress sides; hosts: their interface)"
		}
		sub = fmt.Sprintf("cycles %d–%d of %d · %s", n.Cycle-n.Interval, n.Cycle, n.Total, what)
	}
	vm := map[string]any{"type": "continuous", "min": 0, "max": 1, "calculable": false, "orient": "horizontal",
		"left": "center", "bottom": 0, "text": []string{"1 (busy)", "0 (idle)"}, "inRange": map[string]any{"color": viridisStops()},
		"seriesIndex": []int{}}
	if saqTop > 0 {
		vm["max"], vm["text"] = saqTop, []string{fmt.Sprintf("%d SAQs allocated", saqTop), "0 SAQs allocated"}
	}
	m := map[string]any{
		"animation": false,
		"title":     map[string]any{"text": title, "subtext": sub, "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"tooltip":   map[string]any{"confine": true},
		// the scale's legend (the colours are set per item)
		"visualMap": vm,
		"series": []map[string]any{{"type": "graph", "layout": "none", "roam": true, "symbolSize": sym,
			"top": 60, "bottom": 50, "data": nodes, "links": edges,
			"emphasis": map[string]any{"focus": "adjacency"}}},
		// the subtitle in lines below the title; the drawing below them
		"media": narrowSubtitle(map[string]any{"series": []any{map[string]any{"top": 96}}}),
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// hostNode is a fat tree's host (or a leaf's hosts): a small square,
// coloured by its interface's SAQs when saqTop > 0, else grey.
func hostNode(nd netview.Node, n *protocol.NetInfo, saqTop, sym int) map[string]any {
	color, tip := "#bbb", nd.Name
	if saqTop > 0 {
		saqs := sumOf(n, func(n *protocol.NetInfo) []int32 { return n.HostSAQs }, nd.Hosts)
		color = Viridis(float64(saqs) / float64(saqTop))
		tip += fmt.Sprintf("<br>SAQs allocated at the interface %d", saqs)
	}
	return map[string]any{"name": nd.Name, "symbol": "rect", "symbolSize": max(3, sym*2/3),
		"itemStyle": map[string]any{"color": color, "borderColor": "#666"}, "tooltip": map[string]any{"formatter": tip}}
}

// sumOf is the sum of a snapshot's per-router or per-host counts over ids.
func sumOf(n *protocol.NetInfo, of func(*protocol.NetInfo) []int32, ids []int) int {
	if n == nil {
		return 0
	}
	v := of(n)
	var s int
	for _, i := range ids {
		if i < len(v) {
			s += int(v[i])
		}
	}
	return s
}

func symbolSize(l netview.Layout) int {
	switch n := len(l.Nodes); {
	case l.Aggregated:
		return 14
	case n > 150:
		return 6
	case n > 40:
		return 9
	}
	return 14
}

// MeanNet is the mean of the snapshots' link and buffer shares, the
// packets and misrouted shares of the last (the heat map's input at the end).
func MeanNet(frames []*protocol.NetInfo) *protocol.NetInfo {
	if len(frames) == 0 {
		return nil
	}
	last := frames[len(frames)-1]
	out := *last
	link, buf := make([]float64, len(last.LinkUse)), make([]float64, len(last.BufferUse))
	var cycles float64
	for _, f := range frames {
		if len(f.LinkUse) != len(link) || len(f.BufferUse) != len(buf) {
			continue
		}
		w := float64(f.Interval)
		cycles += w
		for i, v := range f.LinkUse {
			link[i] += w * protocol.Share(v)
		}
		for i, v := range f.BufferUse {
			buf[i] += w * protocol.Share(v)
		}
	}
	out.LinkUse, out.BufferUse = make([]byte, len(link)), make([]byte, len(buf))
	for i := range link {
		out.LinkUse[i] = byte(math.Round(255 * link[i] / cycles))
	}
	for i := range buf {
		out.BufferUse[i] = byte(math.Round(255 * buf[i] / cycles))
	}
	out.Interval = int64(cycles)
	return &out
}

// heatLabels is how many router labels the heat map's axis holds: its
// chart is 420 px high (static/style.css), 276 px of grid, and a 12 px
// label needs about 15 px.
const heatLabels = 18

// heatTipCells bounds the cells given a tooltip of their own (HeatTip):
// h=4's 264 routers × 15 ports (3,960) have them, 0.74 MB of option;
// a larger network (h=5: 9,690 cells) gets the series' shorter tooltip
// (router, port and utilisation), all but its busiest link.
const heatTipCells = 4096

// HeatRouters names the heat map's rows and gives its axis label interval
// (ECharts' axisLabel.interval: labels are shown every interval+1 rows).
// With groups (a Dragonfly, thesis §1.2.1) a row is "g3 r1" (group 3, its
// router 1) and labels fall on a group's first router, every group or every
// few groups; without, every few routers; at most heatLabels labels.
func HeatRouters(t topology.Topology) (names []string, interval int) {
	n := t.Routers()
	names = make([]string, n)
	per := 1
	if g := t.Groups(); g > 1 && n%g == 0 {
		per = n / g
		seen := make([]int, g)
		for r := range names {
			gr := t.GroupOf(r)
			names[r] = fmt.Sprintf("g%d r%d", gr, seen[gr])
			seen[gr]++
		}
	} else {
		for r := range names {
			names[r] = fmt.Sprint(r)
		}
	}
	units := n / per // groups, or routers
	k := (units + heatLabels - 1) / heatLabels
	return names, max(k*per, 1) - 1
}

// HeatTip is the heat map's tooltip of port p of router r in words: the
// router (and its group), the port and its class, the link's utilisation
// over the cycles u was averaged on, and whether it is the run's busiest
// transit link (Result.BusiestLink, over the measured window).
func HeatTip(t topology.Topology, r, p int, u float64, busiest *result.BusiestLink) string {
	s := fmt.Sprintf("router %d", r)
	if g := t.Groups(); g > 1 {
		first := r
		for first > 0 && t.GroupOf(first-1) == t.GroupOf(r) {
			first--
		}
		s += fmt.Sprintf(" (group %d, its router %d)", t.GroupOf(r), r-first)
	}
	c := t.PortClass(r, p)
	name := c.String()
	if cl := t.Classes(); int(c) < len(cl) {
		name = cl[c].Name
	}
	s += fmt.Sprintf("<br>output port %d: %s", p, name)
	switch {
	case c == topology.Injection:
		s += " (ejection to its node)"
	default:
		if pr, pp := t.Link(r, p); pr < 0 {
			s += " (not connected)"
		} else {
			s += fmt.Sprintf(" link to router %d port %d", pr, pp)
		}
	}
	s += fmt.Sprintf("<br>utilisation %.1f %% of the cycles (%.3f phits/cycle)", 100*u, u)
	if busiest != nil && busiest.Router == r && busiest.Port == p {
		s += fmt.Sprintf("<br>★ the run's busiest transit link: %.3f phits/cycle over the measured window", busiest.Utilisation)
	}
	return s
}

// portAxisName names the heat map's port axis by its classes' port ranges
// when every router numbers its ports alike (a Dragonfly: "0–3 injection ·
// 4–10 local · 11–14 global").
func portAxisName(t topology.Topology) string {
	const base = "output port (number)"
	radix := t.Radix()
	for r := 1; r < t.Routers(); r++ {
		for p := 0; p < radix; p++ {
			if t.PortClass(r, p) != t.PortClass(0, p) {
				return base
			}
		}
	}
	cl := t.Classes()
	var parts []string
	for p := 0; p < radix; {
		c, q := t.PortClass(0, p), p
		for q+1 < radix && t.PortClass(0, q+1) == c {
			q++
		}
		name := c.String()
		if int(c) < len(cl) {
			name = cl[c].Name
		}
		if q > p {
			parts = append(parts, fmt.Sprintf("%d–%d %s", p, q, name))
		} else {
			parts = append(parts, fmt.Sprintf("%d %s", p, name))
		}
		p = q + 1
	}
	return "output port: " + strings.Join(parts, " · ")
}

// NetHeatmap is the per-link utilisation (routers × ports) of n on t, for
// the end of a run (MeanNet over its snapshots); each cell's tooltip says
// it in words (HeatTip), and busiest (the run's result; nil: none) is
// outlined.
func NetHeatmap(n *protocol.NetInfo, t topology.Topology, busiest *result.BusiestLink) []byte {
	if n == nil || n.Radix == 0 || t == nil || t.Radix() != n.Radix || t.Routers()*n.Radix != len(n.LinkUse) {
		return Empty("Link utilisation per port", "no snapshots")
	}
	type cell struct {
		Value     [3]float64     `json:"value"`
		Tooltip   map[string]any `json:"tooltip,omitempty"`
		ItemStyle map[string]any `json:"itemStyle,omitempty"`
	}
	data := make([]cell, 0, len(n.LinkUse))
	for pi, v := range n.LinkUse {
		r, p, u := pi/n.Radix, pi%n.Radix, protocol.Share(v)
		c := cell{Value: [3]float64{float64(p), float64(r), num(u)}}
		if len(n.LinkUse) <= heatTipCells || busiest != nil && busiest.Router == r && busiest.Port == p {
			c.Tooltip = map[string]any{"formatter": HeatTip(t, r, p, u, busiest)}
		}
		if busiest != nil && busiest.Router == r && busiest.Port == p {
			c.ItemStyle = map[string]any{"borderColor": "#000", "borderWidth": 2}
		}
		data = append(data, c)
	}
	ports := make([]string, n.Radix)
	for p := range ports {
		ports[p] = fmt.Sprint(p)
	}
	rs, every := HeatRouters(t)
	rname := "router"
	if t.Groups() > 1 {
		rname = "router (gG rR: group G, its router R)"
	}
	sub := fmt.Sprintf("mean over cycles %d–%d · colour: utilisation, phits/cycle (1 = busy every cycle)", n.Cycle-n.Interval, n.Cycle)
	if busiest != nil {
		sub += " · outlined: the busiest transit link"
	}
	m := map[string]any{
		"animation": false,
		"title": map[string]any{"text": "Link utilisation per port", "left": "center", "textStyle": map[string]any{"fontSize": 14},
			"subtext": sub},
		"tooltip": map[string]any{"confine": true},
		"grid":    map[string]any{"left": 72, "right": 28, "top": 64, "bottom": 80},
		"xAxis": map[string]any{"type": "category", "data": ports, "name": portAxisName(t), "nameLocation": "middle", "nameGap": 28,
			"axisLabel": map[string]any{"interval": 0}},
		// router 0 on top: the rows read down as a table's
		"yAxis": map[string]any{"type": "category", "data": rs, "name": rname, "nameLocation": "middle", "nameGap": 56, "inverse": true,
			"axisLabel": map[string]any{"interval": every}, "axisTick": map[string]any{"interval": every}},
		// the handles show their values (0 and 1 at first): the ends
		// name only the unit, not 0 and 1 a second time
		"visualMap": map[string]any{"min": 0, "max": 1, "calculable": true, "orient": "horizontal", "left": "center", "bottom": 0,
			"text": []string{"phits/cycle (1 = 100 %)", ""}, "inRange": map[string]any{"color": viridisStops()}},
		"series": []map[string]any{{"type": "heatmap", "name": "link utilisation (phits/cycle)", "data": data,
			// beyond heatTipCells the cells' own tooltips are left out
			"tooltip": map[string]any{"formatter": "router {@[1]}, output port {@[0]}<br>utilisation {@[2]} phits/cycle"}}},
		"media": narrowSubtitle(map[string]any{"grid": map[string]any{"top": 100}}),
	}
	// "<br>" unescaped: a fifth of the option's size at h=4
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
