package experiment

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeURL: the URL fragment decoder never panics; a fragment that
// decodes without a problem gives an experiment that passes Check and
// expands into jobs, and re-encodes into a fragment that decodes to the same
// link. Whatever is wrong is reported, never silently fixed.
func FuzzDecodeURL(f *testing.F) {
	for _, p := range Presets() {
		f.Add(Encode(Link{Exp: p.Exp}))
	}
	for _, s := range []string{"", "v=1", "#topology.h=2&routing.name=VAL", "sweep=0.1,4,8,15", "sim.seeds=0",
		"sim.seeds=abc", "sim.seeds=100000", "traffic.load=abc", "x=router.localBuffer&sweep=8:20:2.5",
		"x=workload.tq&sweep=0.5,1,nan", "s2.routing.name=PB&s3.name=x", "s65.name=x", "embed=latency",
		"chart=pie", "sweep=1:0:0.1", "sweep=0:1:1e-9", "%zz=1", "a=%", "s2.=1", "x=routing.name",
		"topology.h=32&topology.a=64", "sim.seeds=1000&sweep=0:1:0.005&s64.name=x",
		"topology.kind=fbfly&topology.dimensions=1&topology.k=4&topology.p=4&traffic.pattern=HOTSPOT&traffic.hotspotNode=4&traffic.hotspotSenders=0,%205,,8",
		"topology.kind=fattree&topology.k=4&topology.stages=3&congestion.scheme=recn&router.queueing=4q&traffic.hotspotBackground=un",
		"x=traffic.hotspotRate&sweep=0.2475,0.25&s2.congestion.scheme=ideal"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, frag string) {
		l, errs := Decode(frag)
		if len(l.Exp.Series) == 0 {
			t.Fatalf("%q: no series", frag)
		}
		if len(errs) > 0 {
			return
		}
		if ch := l.Exp.Check(); len(ch) > 0 {
			t.Fatalf("%q decodes without error but Check says %v", frag, ch)
		}
		if _, err := l.Exp.Jobs(); err != nil {
			t.Fatalf("%q decodes without error but has no jobs: %v", frag, err)
		}
		again := Encode(l)
		l2, errs := Decode(again)
		if len(errs) > 0 {
			t.Fatalf("%q → %q: %v", frag, again, errs)
		}
		if strings.TrimSpace(strings.TrimPrefix(frag, "#")) == "" {
			return // the page's default experiment, encoded as what it is
		}
		if !reflect.DeepEqual(l, l2) {
			t.Fatalf("%q → %q decodes to another link:\n%+v\n%+v", frag, again, l, l2)
		}
	})
}
