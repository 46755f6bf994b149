package plot

import (
	"encoding/json"
	"fmt"
	"math"

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

// NetHeatmap is the per-link utilisation (routers × ports) of n, for the
// end of a run (MeanNet over its snapshots).
func NetHeatmap(n *protocol.NetInfo) []byte {
	if n == nil || n.Radix == 0 {
		return Empty("Link utilisation per port", "no snapshots")
	}
	routers := len(n.LinkUse) / n.Radix
	data := make([][3]float64, 0, len(n.LinkUse))
	for pi, v := range n.LinkUse {
		data = append(data, [3]float64{float64(pi % n.Radix), float64(pi / n.Radix), num(protocol.Share(v))})
	}
	ports := make([]string, n.Radix)
	for p := range ports {
		ports[p] = fmt.Sprint(p)
	}
	rs := make([]string, routers)
	for r := range rs {
		rs[r] = fmt.Sprint(r)
	}
	m := map[string]any{
		"animation": false,
		"title": map[string]any{"text": "Link utilisation per port", "left": "center", "textStyle": map[string]any{"fontSize": 14},
			"subtext": fmt.Sprintf("mean over cycles %d–%d", n.Cycle-n.Interval, n.Cycle)},
		"tooltip": map[string]any{"confine": true},
		"grid":    map[string]any{"left": 64, "right": 28, "top": 64, "bottom": 80},
		"xAxis":   map[string]any{"type": "category", "data": ports, "name": "output port (the nodes' ports first)", "nameLocation": "middle", "nameGap": 28},
		"yAxis":   map[string]any{"type": "category", "data": rs, "name": "router", "nameLocation": "middle", "nameGap": 44},
		"visualMap": map[string]any{"min": 0, "max": 1, "calculable": true, "orient": "horizontal", "left": "center", "bottom": 0,
			"text": []string{"1 phit/cycle", "0"}, "inRange": map[string]any{"color": viridisStops()}},
		"series": []map[string]any{{"type": "heatmap", "name": "link utilisation (phits/cycle)", "data": data}},
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}
