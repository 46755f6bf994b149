package experiment

import (
	"regexp"
	"strings"
	"testing"
)

// The page offers a preset for each evaluation figure of Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks" (Figs.
// 2, 3, 5, 8, 9 and 11–14) and of Duato et al.'s RECN paper, "A New
// Scalable and Cost-Effective Congestion Management Strategy for Lossless
// Multistage Interconnection Networks" (Figs. 2, 4 and 6), named in its
// description ("Kim et al. Fig. 3a", "RECN paper Figs. 2 and 4"), one of
// them a 16-node or 64-host one a tab runs in seconds (its work below
// 10⁸ node-cycles, the recn-* corner cases at 2·10⁷).
func TestPaperFiguresHavePresets(t *testing.T) {
	presets := Presets()
	for _, paper := range []struct {
		name string
		figs []string
	}{
		{"Kim et al.", []string{"2", "3", "5", "8", "9", "11", "12", "13", "14"}},
		{"RECN paper", []string{"2", "4", "6"}},
	} {
		for _, fig := range paper.figs {
			// "Fig. 3a", "Figs. 2 and 4", "Fig. 4,"
			re := regexp.MustCompile(regexp.QuoteMeta(paper.name) + ` Figs?\. (\d+[a-c]?(, | and ))*` + fig + `[a-c]?\b`)
			found, quick := false, false
			for _, p := range presets {
				if re.MatchString(p.Doc) {
					found = true
					quick = quick || p.Exp.Work() < 1e8
				}
			}
			if !found {
				t.Errorf("%s Fig. %s: no preset names it", paper.name, fig)
			} else if !quick && fig != "6" { // Fig. 6's networks are the 256 and 512-host ones
				t.Errorf("%s Fig. %s: no preset of it runs in seconds", paper.name, fig)
			}
		}
	}
}

// Traffic the paper does not give is labelled where a preset offers it:
// Fig. 3b's hotspot senders, Fig. 12's network and senders and Fig. 14's
// background are reconstructed; Fig. 9b names the paper's own set (§V-B:
// the first node of each of R1–R63 → node 0).
func TestReconstructedTrafficLabelled(t *testing.T) {
	want := map[string]string{"cbcm-fig3b": "reconstructed", "cbcm-fig3b-quick": "reconstructed",
		"cbcm-fig12": "reconstructed", "cbcm-fig12-quick": "reconstructed",
		"cbcm-fig14": "reconstructed", "cbcm-fig14-quick": "reconstructed", "cbcm-fig9b": "the paper's senders"}
	for _, p := range Presets() {
		if w, ok := want[p.Name]; ok {
			delete(want, p.Name)
			if !strings.Contains(p.Doc, w) {
				t.Errorf("%s: %q does not say %q", p.Name, p.Doc, w)
			}
		}
	}
	for name := range want {
		t.Errorf("no preset %s", name)
	}
}
