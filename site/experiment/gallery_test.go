package experiment

import (
	"reflect"
	"testing"

	"phitsim/engine/figures"
)

// TestGalleryLinks: #gallery opens the gallery, and every figure's short
// embed link #fig=ID decodes to that figure's experiment, embedded on the
// chart its claim is drawn on (figures.Claim.Chart), and encodes back to the same fragment; an unknown
// figure is reported with the known IDs.
func TestGalleryLinks(t *testing.T) {
	if l, errs := Decode("#gallery"); !l.Gallery || len(errs) > 0 || Encode(l) != "gallery" {
		t.Errorf("#gallery: %+v %v, encodes %q", l.Gallery, errs, Encode(l))
	}
	for _, f := range figures.Table {
		frag := "fig=" + f.ID
		l, errs := Decode("#" + frag)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", frag, errs)
		}
		e, err := f.Sweep()
		if err != nil {
			t.Fatal(err)
		}
		if l.Figure != f.ID || !l.Embed || l.Chart != f.Claim.Chart() || !reflect.DeepEqual(l.Exp, FromSpec(e.Spec)) {
			t.Errorf("%s: decoded figure %q embed %v chart %q, or not its experiment %s", frag, l.Figure, l.Embed, l.Chart, f.Experiment)
		}
		if got := Encode(l); got != frag {
			t.Errorf("%s encodes back as %q", frag, got)
		}
	}
	if _, errs := Decode("#fig=9.99"); len(errs) != 1 {
		t.Errorf("#fig=9.99: errors %v, want one naming the known figures", errs)
	}
}
