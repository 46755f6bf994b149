package experiment

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// formFields is what the page's form lists for c in a section: the
// parameters of the section that apply to c (site/ui render.go's rule).
func formFields(c *config.Config, section string) []string {
	var out []string
	for _, p := range config.Params() {
		if config.SectionOf(p) == section && p.Applies(c) {
			out = append(out, p.Path)
		}
	}
	return out
}

// The form for QCN-Switch (QCN-Switch paper §2–3, Table I): routing.name
// offers QCN_SWITCH, and with it the congestion section lists every
// routing.qcn* parameter; with MIN, none. They are in %, packets, Fb
// units or ×, so a physical basis leaves them in their own units, except
// the reaction points' byte counter, timer and rates (802.1Qau gives them
// in bytes, ms and Mb/s), in phits, cycles and phits/node/cycle.
func TestQCNForm(t *testing.T) {
	name, _ := config.Lookup("routing.name")
	if !strings.Contains(","+strings.Join(name.Enum, ",")+",", ",QCN_SWITCH,") {
		t.Fatalf("routing.name offers %v", name.Enum)
	}
	e, ok := PresetByName("qcn-adv1-h4")
	if !ok {
		t.Fatal("no preset qcn-adv1-h4")
	}
	var qcn []string
	for _, p := range config.Params() {
		if strings.HasPrefix(p.Path, "routing.qcn") {
			qcn = append(qcn, p.Path)
		}
	}
	if len(qcn) < 14 {
		t.Fatalf("%d routing.qcn* parameters: %v", len(qcn), qcn)
	}
	// input sampling with feedback comparison: every option shows
	all := e.Series[0]
	all.Routing.QcnSampling, all.Routing.QcnFbComparison = "input", "on"
	all.Routing.QcnSourceProcessing, all.Routing.QcnReactionPoints = true, true
	physical := []string{"routing.qcnRpByteCount", "routing.qcnRpTimer", "routing.qcnRpRai", "routing.qcnRpRhai", "routing.qcnRpMinRate"}
	shown := strings.Join(formFields(&all, "congestion"), " ")
	for _, path := range qcn {
		if !strings.Contains(shown+" ", path+" ") {
			t.Errorf("QCN-Switch's form misses %s (shows %s)", path, shown)
		}
		p, _ := config.Lookup(path)
		if v := ViewField(&e.Series[0], p, "", false); v.Physical != slices.Contains(physical, path) {
			t.Errorf("%s shown in physical units %v: %+v", path, v.Physical, v)
		}
	}
	for i := 1; i < len(e.Series); i++ {
		if f := formFields(&e.Series[i], "congestion"); strings.Contains(strings.Join(f, " "), "routing.qcn") {
			t.Errorf("%s's form lists %v", e.Series[i].Name, f)
		}
	}
	// an option that depends on another hides without it (the when tag's
	// combined conditions): source processing is input sampling's (paper
	// §3.2.1), Th1 and Th2 feedback comparison's (§3.3); the source-processing
	// rule source processing's, the reaction points' parameters the reaction
	// points' (both off here)
	off := []string{"routing.qcnSourceProcessingRule", "routing.qcnRpGd", "routing.qcnRpByteCount", "routing.qcnRpTimer",
		"routing.qcnRpRai", "routing.qcnRpRhai", "routing.qcnRpMinRate", "routing.qcnRpFastRecovery", "routing.qcnRpFlows", "routing.qcnRpJitter"}
	for _, tc := range []struct {
		sampling, fbc string
		hidden        []string
	}{
		{"output", "on", []string{"routing.qcnSourceProcessing"}},
		{"", "", []string{"routing.qcnSourceProcessing"}},
		{"input", "off", []string{"routing.qcnTh1", "routing.qcnTh2"}},
		{"output", "off", []string{"routing.qcnSourceProcessing", "routing.qcnTh1", "routing.qcnTh2"}},
	} {
		c := e.Series[0]
		c.Routing.QcnSampling, c.Routing.QcnFbComparison = tc.sampling, tc.fbc
		f := formFields(&c, "congestion")
		var missing []string
		for _, path := range qcn {
			if !slices.Contains(f, path) {
				missing = append(missing, path)
			}
		}
		if tc.hidden = append(tc.hidden, off...); !slices.Equal(missing, tc.hidden) {
			t.Errorf("sampling %q, feedback comparison %q: the form hides %v, want %v", tc.sampling, tc.fbc, missing, tc.hidden)
		}
	}
	// the buffers of the same system are in KB (the generic conversion)
	if p, _ := config.Lookup("router.outputBuffer"); !ViewField(&e.Series[0], p, "", false).Physical {
		t.Error("router.outputBuffer not in physical units on the Ethernet system")
	}
}

// A decimal field takes a fraction, as the QCN-Switch paper writes L_f
// (Table I: 1/64; §5.3.2: 1/256, 1/128, 1/85): stored as its value and
// kept as typed; a zero denominator or a fraction in a whole-number field
// is refused naming the field.
func TestFractionField(t *testing.T) {
	c := QCNTransient()
	lf, _ := config.Lookup("routing.qcnLf")
	if err := SetField(&c, lf, "1/128"); err != nil || c.Routing.QcnLf != 1.0/128 || !Typed(&c, lf, "1/128") {
		t.Errorf("1/128: %v, stored %v", err, c.Routing.QcnLf)
	}
	if err := SetField(&c, lf, " 1 / 85 "); err != nil || math.Abs(c.Routing.QcnLf-1.0/85) > 1e-15 {
		t.Errorf("1 / 85: %v, stored %v", err, c.Routing.QcnLf)
	}
	if err := SetField(&c, lf, "1/0"); err == nil || !strings.Contains(err.Error(), "routing.qcnLf") {
		t.Errorf("1/0: %v", err)
	}
	cpc, _ := config.Lookup("routing.qcnCPC")
	if err := SetField(&c, cpc, "1/2"); err == nil || !strings.Contains(err.Error(), "routing.qcnCPC") {
		t.Errorf("qcnCPC 1/2: %v", err)
	}
	if err := SetField(&c, lf, "0.5"); err != nil || c.Routing.QcnLf != 0.5 || Typed(&c, lf, "0.5") {
		t.Errorf("0.5: %v, stored %v", err, c.Routing.QcnLf)
	}
}

// The QCN-Switch presets: valid; the h=4 ones shortened against the
// QCN-Switch paper's 2.4 + 2.4 ms on 5,256 nodes (the note says so), the
// h=6 ones the paper's system and run (no note); QCN-Switch with FOGSim's
// sampling clock beside MIN, VAL and PB; the transient one switches UN to
// ADV+1 at 0.4 with 20 µs snapshots and records 200 µs after the switch.
func TestQCNPresets(t *testing.T) {
	for _, name := range []string{"qcn-un-h6", "qcn-adv1-h6"} {
		p := qcnPreset(t, name)
		sz, _ := p.Exp.Series[0].Topology.Sizes()
		if err := Problems(p.Exp.Check()); err != nil || p.PaperRun() != "" || sz.Nodes != 5256 {
			t.Errorf("%s: %v, note %q, %d nodes", name, err, p.PaperRun(), sz.Nodes)
		}
	}
	for _, name := range []string{"qcn-un-h4", "qcn-adv1-h4", "qcn-adv1-h4-settled", "qcn-transient-h4"} {
		p := qcnPreset(t, name)
		if err := Problems(p.Exp.Check()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if n := p.PaperRun(); !strings.Contains(n, "Shortened for the browser") || !strings.Contains(n, "2.4 ms") || !strings.Contains(n, "5,256") {
			t.Errorf("%s: note %q", name, n)
		}
		if c := p.Exp.Series[0]; c.Routing.Name != "QCN_SWITCH" || c.Routing.QcnClock != "fogsim" {
			t.Errorf("%s: first series %s, clock %q", name, c.Routing.Name, c.Routing.QcnClock)
		}
	}
	for _, name := range []string{"qcn-un-h4", "qcn-adv1-h4", "qcn-un-h6", "qcn-adv1-h6"} {
		var got []string
		for _, c := range qcnPreset(t, name).Exp.Series {
			got = append(got, c.Routing.Name)
		}
		if strings.Join(got, " ") != "QCN_SWITCH MIN VAL PB" {
			t.Errorf("%s: %v", name, got)
		}
	}
	c := qcnPreset(t, "qcn-transient-h4").Exp.Series[0]
	b, _ := c.Basis()
	if c.Traffic.Pattern != "UN" || c.Traffic.SwitchPattern != "ADV" || c.Traffic.SwitchAdvOffset != 1 || c.Traffic.Load != 0.4 ||
		b.Ns(float64(c.Sim.Interval)) != config.EthernetBinNs || c.TransientBins()*config.TransientBin != config.TransientPrev+config.TransientAfter {
		t.Errorf("transient: %s→%s+%d at %g, interval %d cycles, %d bins", c.Traffic.Pattern, c.Traffic.SwitchPattern,
			c.Traffic.SwitchAdvOffset, c.Traffic.Load, c.Sim.Interval, c.TransientBins())
	}
}

func qcnPreset(t *testing.T, name string) Preset {
	t.Helper()
	for _, p := range Presets() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no preset %s", name)
	return Preset{}
}

// An engine experiment over uneven values (the QCN-Switch paper's Fig. 15:
// PI = 0.1, 0.5, 1, 5%) becomes a list sweep of the same values; even ones
// stay from:to:step.
func TestFromSpecUneven(t *testing.T) {
	c := QCNTransient()
	e := FromSpec(sweep.Spec{Series: []config.Config{c}, Param: "routing.qcnPI", Values: []float64{0.1, 0.5, 1, 5}})
	if v, err := e.Sweep.Values(); err != nil || !sameFloats(v, []float64{0.1, 0.5, 1, 5}) || len(e.Sweep.List) != 4 {
		t.Errorf("uneven: %+v → %v, %v", e.Sweep, v, err)
	}
	// its link decodes to the same experiment
	if l, errs := Decode(Encode(Link{Exp: e})); len(errs) > 0 || !reflect.DeepEqual(l.Exp.Sweep, e.Sweep) {
		t.Errorf("link: %+v, %v; want %+v", l.Exp.Sweep, errs, e.Sweep)
	}
	e = FromSpec(sweep.Spec{Series: []config.Config{c}, Loads: []float64{0.1, 0.2, 0.3}})
	if v, err := e.Sweep.Values(); err != nil || !sameFloats(v, []float64{0.1, 0.2, 0.3}) || len(e.Sweep.List) != 0 || e.Sweep.Step != 0.1 {
		t.Errorf("even: %+v → %v, %v", e.Sweep, v, err)
	}
}
