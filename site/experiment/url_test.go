package experiment

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// Every preset round-trips through its link, with its own sweep and with the
// default one (the engine presets of one series with the default sweep are
// the case that used to encode as an empty fragment, which opens another
// experiment), in every mode.
func TestURLRoundTripEveryPreset(t *testing.T) {
	for _, p := range Presets() {
		for _, sw := range []struct {
			name string
			s    Sweep
		}{{"own sweep", p.Exp.Sweep}, {"default sweep", DefaultSweep()}} {
			e := p.Exp.Clone()
			e.Sweep = sw.s
			for _, l := range []Link{{Exp: e}, {Exp: e, Chart: "latency"}, {Exp: e, Embed: true, Chart: "accepted"}} {
				frag := Encode(l)
				if frag == "" {
					t.Errorf("%s, %s: empty fragment", p.Name, sw.name)
				}
				got, errs := Decode("#" + frag)
				if len(errs) > 0 {
					t.Errorf("%s, %s: %q: %v", p.Name, sw.name, frag, errs)
					continue
				}
				if !reflect.DeepEqual(got, l) {
					t.Errorf("%s, %s: %q decodes to another experiment:\n got %+v\nwant %+v", p.Name, sw.name, frag, got.Exp, l.Exp)
				}
			}
		}
	}
}

// The report's reproduction: preset engine:h8 (config.Default) swept over
// 0.1:1:0.1 gives a link that opens that experiment, not the page's default.
func TestURLEngineH8DefaultSweep(t *testing.T) {
	e, ok := PresetByName("engine:h8")
	if !ok {
		t.Fatal("no engine:h8 preset")
	}
	e.Sweep = Sweep{Param: LoadParam, From: 0.1, To: 1, Step: 0.1}
	got, errs := Decode("#" + Encode(Link{Exp: e}))
	if len(errs) > 0 || !reflect.DeepEqual(got.Exp, e) {
		t.Fatalf("decodes to %+v (%v)", got.Exp, errs)
	}
	if got.Exp.Series[0].Topology.H != config.Default().Topology.H || len(got.Exp.Series) != 1 {
		t.Errorf("opened %d series, h=%d", len(got.Exp.Series), got.Exp.Series[0].Topology.H)
	}
}

// An unknown chart in embed mode is reported (the page falls back to its
// first chart, and says why), like an unknown chart= name.
func TestURLUnknownEmbedChartIsReported(t *testing.T) {
	for _, frag := range []string{"#embed=bogus", "#embed=bogus&topology.h=2", "#chart=bogus"} {
		l, errs := Decode(frag)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), `link: unknown chart "bogus" (known: accepted, latency,`) {
			t.Errorf("%s: %v", frag, errs)
		}
		if l.Chart != "" || l.Embed != strings.HasPrefix(frag, "#embed") {
			t.Errorf("%s: chart %q embed %v", frag, l.Chart, l.Embed)
		}
	}
	if l, errs := Decode("#embed=latency"); len(errs) != 0 || !l.Embed || l.Chart != "latency" {
		t.Errorf("embed=latency: %+v %v", l, errs)
	}
}

// Tied parameters (sweep.Tie, thesis Fig. 4.7's mixUN = 100 − mixADV) travel
// in the link as tie=path:offset:scale; a malformed tie is reported.
func TestURLTiedParameters(t *testing.T) {
	e, ok := PresetByName("thesis-fig4.7")
	if !ok || len(e.Sweep.Tied) != 1 {
		t.Fatalf("thesis-fig4.7: %v, ties %+v", ok, e.Sweep.Tied)
	}
	frag := Encode(Link{Exp: e})
	if !strings.Contains(frag, "tie=traffic.mixUN:100:-1") {
		t.Errorf("fragment %q lacks the tie", frag)
	}
	got, errs := Decode(frag)
	if len(errs) > 0 || !reflect.DeepEqual(got.Exp.Sweep, e.Sweep) {
		t.Errorf("decoded sweep %+v (%v), want %+v", got.Exp.Sweep, errs, e.Sweep)
	}
	for _, bad := range []string{"tie=traffic.mixUN:100", "tie=nope:0:1", "tie=traffic.mixUN:a:1"} {
		if _, errs := Decode("x=traffic.mixADV&" + bad); len(errs) == 0 || !strings.Contains(errs[0].Error(), "path:offset:scale") {
			t.Errorf("%s: %v", bad, errs)
		}
	}
}

// Every parameter, set to each of its enum values, its bounds and odd
// values (strings with separators and spaces, floats of 15 digits), in a
// second series of the flattened butterfly and the RECN corner case (every
// Dragonfly field among them), comes back from the link unchanged: the share links carry
// every field the congestion-management papers added (Kim et al.'s
// hotspot senders and rates, the RECN paper's thresholds and queueings).
func TestURLRoundTripEveryFieldValue(t *testing.T) {
	for _, pn := range []string{"fbfly16", "recn-case1-recn"} {
		base, _ := config.PresetByName(pn)
		for _, p := range config.Params() {
			var vals []string
			switch {
			case len(p.Enum) > 0:
				vals = p.Enum
			case p.Kind == "bool":
				vals = []string{"true", "false"}
			case p.Kind == "string":
				vals = []string{"0,5,8,12", " 1, 2", "x&y=z%", "a b#c"}
			default:
				if p.Min != nil {
					vals = append(vals, strconv.FormatFloat(*p.Min, 'g', -1, 64))
				}
				if p.Max != nil {
					vals = append(vals, strconv.FormatFloat(*p.Max, 'g', -1, 64))
				}
				if p.Kind == "float" {
					vals = append(vals, "0.123456789012345", "1e-7")
				} else {
					vals = append(vals, "3", "17")
				}
			}
			for _, v := range vals {
				c := base
				if err := c.Set(p.Path, v); err != nil {
					continue
				}
				e := Experiment{Series: []config.Config{c, base}, Sweep: DefaultSweep()}
				l := Link{Exp: e}
				got, _ := Decode(Encode(l))
				if !reflect.DeepEqual(got.Exp.Series, e.Series) {
					t.Errorf("%s %s=%q: %q does not round-trip", pn, p.Path, v, Encode(l))
				}
			}
		}
	}
}
