package e2e

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"phitsim/engine/figures"
)

// galleryView walks the figure gallery in its own tab: every card is
// labelled and opens (#fig=ID: the claim and a Run button, nothing run);
// the short figure 1.6-adv1 runs from its card with the keyboard and its
// claim (line and band) is drawn on the accepted-load chart; and no request
// of the tab leaves the page's origin.
func galleryView(t *testing.T, ctx context.Context, base string) {
	var mu sync.Mutex
	var foreign []string
	b, _ := url.Parse(base)
	tab, cancel := chromedp.NewContext(ctx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			u, err := url.Parse(e.Request.URL)
			if err != nil || (u.Scheme != "data" && u.Scheme != "blob" && u.Host != b.Host) {
				mu.Lock()
				foreign = append(foreign, e.Request.URL)
				mu.Unlock()
			}
		}
	}))
	defer cancel()
	open(t, tab, base+"#gallery")
	if n := eval[int](t, tab, `document.querySelectorAll('.figure-card').length`); n != len(figures.Table) {
		t.Fatalf("gallery shows %d cards, want %d", n, len(figures.Table))
	}
	if s := eval[string](t, tab, `document.getElementById('app').dataset.state`); s != "idle" {
		t.Errorf("the gallery ran something on its own: %s", s)
	}
	for _, f := range figures.Table {
		sel := `document.querySelector('.figure-card[data-figure="` + f.ID + `"]')`
		if !eval[bool](t, tab, sel+`.querySelector('button.figure-run').getAttribute('aria-label').includes('`+f.ID+`')`) {
			t.Errorf("%s: Run button without a label naming the figure", f.ID)
		}
		href := eval[string](t, tab, sel+`.querySelector('a.figure-embed').getAttribute('href')`)
		if href != "#fig="+f.ID {
			t.Errorf("%s: embed link %q", f.ID, href)
		}
	}
	// every card opens: its embed link shows the claim, the accepted-load
	// chart and Run, and runs nothing
	for _, f := range figures.Table {
		open(t, tab, base+"#fig="+f.ID)
		if !eval[bool](t, tab, `(document.getElementById('figure-claim')||{textContent:''}).textContent.includes(`+jsString(f.ClaimText)+`)`) {
			t.Errorf("#fig=%s: the card's claim is not shown", f.ID)
		}
		if !eval[bool](t, tab, `document.getElementById('chart-accepted') !== null && document.getElementById('run') !== null`) {
			t.Errorf("#fig=%s: no accepted-load chart or Run button", f.ID)
		}
		if s := eval[string](t, tab, `document.getElementById('app').dataset.state`); s != "idle" {
			t.Errorf("#fig=%s ran on its own: %s", f.ID, s)
		}
	}
	// one short figure runs from its card, with the keyboard
	open(t, tab, base+"#gallery")
	if err := chromedp.Do(tab, chromedp.Focus(`.figure-card[data-figure="1.6-adv1"] button.figure-run`), chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tab, done, 120*time.Second)
	if h := eval[string](t, tab, `location.hash`); h != "#fig=1.6-adv1" {
		t.Errorf("after Run the URL is %q, want the figure's link", h)
	}
	f, _ := figures.ByID("1.6-adv1")
	claim := eval[map[string]any](t, tab, `(() => {
		const o = echarts.getInstanceByDom(document.getElementById('chart-accepted')).getOption();
		const s = o.series.find(s => (s.name||'').startsWith('claim:'));
		if (!s) return {};
		return {x: s.markLine.data[0].xAxis, lo: s.markArea.data[0][0].yAxis, hi: s.markArea.data[0][1].yAxis,
			points: o.series[0].data.length, yName: o.yAxis[0].name, xName: o.xAxis[0].name};
	})()`)
	if claim["x"] != f.Claim.Load || claim["lo"] != f.Claim.Lo || claim["hi"] != f.Claim.Hi {
		t.Errorf("claim drawn %v, want the line at %g and the band [%g, %g]", claim, f.Claim.Load, f.Claim.Lo, f.Claim.Hi)
	}
	for _, k := range []string{"xName", "yName"} {
		if n, _ := claim[k].(string); !strings.Contains(n, "phits") {
			t.Errorf("axis label %s = %q, want its unit", k, n)
		}
	}
	screenshot(t, tab, "e2e-figure.png")
	mu.Lock()
	defer mu.Unlock()
	if len(foreign) > 0 {
		t.Errorf("requests left the origin %s: %v", b.Host, foreign)
	}
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}
