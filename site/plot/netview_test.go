package plot

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/result"
	"phitsim/engine/topology"
	"phitsim/site/netview"
	"phitsim/site/protocol"
)

// lum is the relative luminance of a colour "#rrggbb" as a reader with
// deuteranopia sees it (Machado, Oliveira and Fernandes 2009, severity 1).
func lumDeutan(t *testing.T, c string) float64 {
	t.Helper()
	var lin [3]float64
	for k := range lin {
		v, err := strconv.ParseUint(c[1+2*k:3+2*k], 16, 8)
		if err != nil {
			t.Fatal(err)
		}
		x := float64(v) / 255
		if x <= 0.04045 {
			lin[k] = x / 12.92
		} else {
			lin[k] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	m := [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}
	var d [3]float64
	for i := range d {
		d[i] = min(max(m[i][0]*lin[0]+m[i][1]*lin[1]+m[i][2]*lin[2], 0), 1)
	}
	return 0.2126*d[0] + 0.7152*d[1] + 0.0722*d[2]
}

// The live view's scale stays ordered for a reader with deuteranopia: its
// simulated luminance rises strictly from idle to busy.
func TestViridisReadableWithDeuteranopia(t *testing.T) {
	prev := -1.0
	for i := 0; i <= 20; i++ {
		c := Viridis(float64(i) / 20)
		l := lumDeutan(t, c)
		if l <= prev {
			t.Fatalf("at %d/20 %s: deuteranopic luminance %.4f not above %.4f", i, c, l, prev)
		}
		prev = l
	}
	if Viridis(-1) != Viridis(0) || Viridis(2) != Viridis(1) || Viridis(math.NaN()) != Viridis(0) {
		t.Error("Viridis does not clamp")
	}
}

// The drawing of an h=2 Dragonfly (thesis §1.2.1) with one busy global link:
// that edge, and only it, takes the busy end of the scale.
func TestNetGraph(t *testing.T) {
	d, err := topology.NewDragonfly(2, 4, 2, "palmtree")
	if err != nil {
		t.Fatal(err)
	}
	l := netview.New(d)
	radix := d.Radix()
	n := &protocol.NetInfo{Cycle: 200, Total: 1000, Interval: 100, Radix: radix,
		LinkUse: make([]byte, d.Routers()*radix), BufferUse: make([]byte, d.Routers()*radix),
		Packets: make([]int32, d.Routers()), Misrouted: make([]byte, d.Routers()), Injection: make([]byte, d.Routers())}
	for r := range n.Injection {
		n.Injection[r] = 102 // 0.4 phits/node/cycle
	}
	n.Injection[3] = 5 // router a−1 of group 0 starving, as under ADVc
	hot := 5*radix + d.FirstGlobalPort()
	n.LinkUse[hot] = 255
	n.BufferUse[3*radix] = 255
	var m struct {
		Series []struct {
			Data []struct {
				Value     float64
				ItemStyle struct{ Color string }
				Tooltip   struct{ Formatter string }
			}
			Links []struct {
				Source, Target int
				LineStyle      struct{ Color string }
			}
		}
	}
	if err := json.Unmarshal(NetGraph(l, n, "h=2"), &m); err != nil {
		t.Fatal(err)
	}
	s := m.Series[0]
	if len(s.Data) != d.Routers() || len(s.Links) != len(l.Edges) {
		t.Fatalf("%d nodes, %d links; want %d, %d", len(s.Data), len(s.Links), d.Routers(), len(l.Edges))
	}
	peer, _ := d.Link(5, d.FirstGlobalPort())
	busy := 0
	for _, e := range s.Links {
		if e.LineStyle.Color == Viridis(1) {
			busy++
			if !(e.Source == 5 && e.Target == peer || e.Source == peer && e.Target == 5) {
				t.Errorf("edge %d–%d drawn busy", e.Source, e.Target)
			}
		} else if e.LineStyle.Color != Viridis(0) {
			t.Errorf("edge %d–%d coloured %s", e.Source, e.Target, e.LineStyle.Color)
		}
	}
	if busy != 1 {
		t.Errorf("%d busy edges, want 1", busy)
	}
	if s.Data[3].Value <= 0 || s.Data[4].Value != 0 {
		t.Errorf("router occupancy: router 3 %v, router 4 %v", s.Data[3].Value, s.Data[4].Value)
	}
	// each router's tooltip gives its nodes' injection
	if f3, f4 := s.Data[3].Tooltip.Formatter, s.Data[4].Tooltip.Formatter; !strings.Contains(f3, "injection 0.020 phits/node/cycle") || !strings.Contains(f4, "injection 0.400") {
		t.Errorf("tooltips %q, %q: want router 3's injection 0.020 and router 4's 0.400", f3, f4)
	}
}

// MeanNet weighs each snapshot by its interval (the last may be shorter).
func TestMeanNet(t *testing.T) {
	a := &protocol.NetInfo{Cycle: 300, Interval: 300, Radix: 1, LinkUse: []byte{255}, BufferUse: []byte{0}}
	b := &protocol.NetInfo{Cycle: 400, Interval: 100, Radix: 1, LinkUse: []byte{51}, BufferUse: []byte{255}}
	m := MeanNet([]*protocol.NetInfo{a, b})
	// (300·1 + 100·0.2)/400 = 0.8; (0 + 100)/400 = 0.25
	if m.LinkUse[0] != 204 || m.BufferUse[0] != 64 || m.Interval != 400 || m.Cycle != 400 {
		t.Errorf("MeanNet: %+v", m)
	}
}

// heatDragonfly is the balanced Dragonfly of thesis §1.2.1 (a = 2p = 2h,
// palm-tree arrangement): h=2 has 36 routers, h=3 114, h=4 264.
func heatDragonfly(t *testing.T, h int) *topology.Dragonfly {
	t.Helper()
	d, err := topology.NewDragonfly(h, 2*h, h, "palmtree")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The heat map's router axis shows at most heatLabels labels (its 276 px
// of grid at about 15 px a label), each on a group's first router:
// h=2: every group (9 labels of 36 rows), h=3: every other group (10 of
// 114), h=4: every other group (17 of 264).
func TestHeatRouterLabels(t *testing.T) {
	for _, c := range []struct {
		h, routers, interval int
		name5                string
	}{{2, 36, 3, "g1 r1"}, {3, 114, 11, "g0 r5"}, {4, 264, 15, "g0 r5"}} {
		d := heatDragonfly(t, c.h)
		names, every := HeatRouters(d)
		if len(names) != c.routers || every != c.interval || names[5] != c.name5 {
			t.Errorf("h=%d: %d rows, interval %d, row 5 %q; want %d, %d, %q", c.h, len(names), every, names[5], c.routers, c.interval, c.name5)
		}
		if shown := (len(names) + every) / (every + 1); shown > heatLabels || (every+1)%d.A != 0 {
			t.Errorf("h=%d: %d labels every %d rows (a=%d)", c.h, shown, every+1, d.A)
		}
	}
	// without groups: every few routers (a 6×6 mesh: every 2nd)
	m, err := topology.NewMesh(6, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	if names, every := HeatRouters(m); every != 1 || names[7] != "7" {
		t.Errorf("mesh: interval %d, row 7 %q", every, names[7])
	}
}

// The heat map of an h=2 Dragonfly (thesis §1.2.1): a cell's tooltip in
// words, the busiest transit link outlined, the axes named with the port
// classes' ranges and the utilisation's unit.
func TestNetHeatmap(t *testing.T) {
	d := heatDragonfly(t, 2)
	radix, gp := d.Radix(), d.FirstGlobalPort()
	n := &protocol.NetInfo{Cycle: 1000, Interval: 1000, Radix: radix, LinkUse: make([]byte, d.Routers()*radix)}
	n.LinkUse[5*radix+gp] = 204 // 0.8
	n.LinkUse[5*radix+2] = 51   // 0.2, a local link
	busy := &result.BusiestLink{Router: 5, Port: gp, Class: "global", Utilisation: 0.812}
	var h struct {
		Series []struct {
			Data []struct {
				Value     [3]float64
				Tooltip   struct{ Formatter string }
				ItemStyle struct{ BorderWidth float64 }
			}
		}
		XAxis, YAxis struct {
			Name      string
			Data      []string
			AxisLabel struct{ Interval int }
			Inverse   bool
		}
		Subtitle []any
	}
	if err := json.Unmarshal(NetHeatmap(n, d, busy), &h); err != nil {
		t.Fatal(err)
	}
	data := h.Series[0].Data
	if len(data) != 36*7 {
		t.Fatalf("%d cells, want 36 routers × 7 ports", len(data))
	}
	peer, pp := d.Link(5, gp)
	hot := data[5*radix+gp]
	want := fmt.Sprintf("router 5 (group 1, its router 1)<br>output port 5: global link to router %d port %d"+
		"<br>utilisation 80.0 %% of the cycles (0.800 phits/cycle)"+
		"<br>★ the run's busiest transit link: 0.812 phits/cycle over the measured window", peer, pp)
	if hot.Value != [3]float64{float64(gp), 5, 0.8} || hot.Tooltip.Formatter != want || hot.ItemStyle.BorderWidth == 0 {
		t.Errorf("busiest cell %v %q (border %v); want tooltip %q", hot.Value, hot.Tooltip.Formatter, hot.ItemStyle.BorderWidth, want)
	}
	local := data[5*radix+2]
	if f := local.Tooltip.Formatter; !strings.Contains(f, "output port 2: local link to router") || !strings.Contains(f, "utilisation 20.0 %") ||
		strings.Contains(f, "busiest") || local.ItemStyle.BorderWidth != 0 {
		t.Errorf("local cell: %q", f)
	}
	if f := data[0].Tooltip.Formatter; f != "router 0 (group 0, its router 0)<br>output port 0: injection (ejection to its node)<br>utilisation 0.0 % of the cycles (0.000 phits/cycle)" {
		t.Errorf("injection cell: %q", f)
	}
	if h.XAxis.Name != "output port: 0–1 injection · 2–4 local · 5–6 global" || h.YAxis.AxisLabel.Interval != 3 || h.YAxis.Data[4] != "g1 r0" || !h.YAxis.Inverse ||
		!strings.Contains(h.YAxis.Name, "group") {
		t.Errorf("axes: x %q, y %q interval %d rows %v", h.XAxis.Name, h.YAxis.Name, h.YAxis.AxisLabel.Interval, h.YAxis.Data[:5])
	}
	// h=5 (510 routers × 19 ports): the series' tooltip, the busiest
	// link's own
	d5 := heatDragonfly(t, 5)
	n5 := &protocol.NetInfo{Cycle: 1000, Interval: 1000, Radix: d5.Radix(), LinkUse: make([]byte, d5.Routers()*d5.Radix())}
	h.Series = nil
	if err := json.Unmarshal(NetHeatmap(n5, d5, &result.BusiestLink{Router: 7, Port: d5.FirstGlobalPort()}), &h); err != nil {
		t.Fatal(err)
	}
	tips := 0
	for _, c := range h.Series[0].Data {
		if c.Tooltip.Formatter != "" {
			tips++
		}
	}
	if len(h.Series[0].Data) != 9690 || tips != 1 || !strings.Contains(h.Series[0].Data[7*d5.Radix()+d5.FirstGlobalPort()].Tooltip.Formatter, "busiest") {
		t.Errorf("h=5: %d cells, %d with their own tooltip; want 9690, 1 (the busiest link)", len(h.Series[0].Data), tips)
	}
	// a snapshot of another network draws nothing rather than misname it
	if b := NetHeatmap(n, heatDragonfly(t, 3), nil); strings.Contains(string(b), "heatmap") {
		t.Error("a heat map of a snapshot that does not fit its topology")
	}
}
