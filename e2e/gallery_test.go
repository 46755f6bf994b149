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
// claim (line and band) is drawn on the accepted-load chart and its
// verdict, read by figures.Check as the CLI's, shown above it, the hotspot
// figure kim-14's claim on the bandwidth per sender, 1.6-adv1's embed
// draws the network of the watched run, and choosing another run in the
// live view's selector draws that one at the next Run; every control of
// the gallery, a figure and the main page has an accessible name; and no
// request of the tab leaves the page's origin.
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
	// the figures without a card are listed below the cards, with why
	if n := eval[int](t, tab, `document.querySelectorAll('#gallery-uncarded li').length`); n != len(figures.WithoutCard) {
		t.Errorf("gallery lists %d figures without a card, want %d", n, len(figures.WithoutCard))
	}
	// the check sees an unlabelled control (a probe added and removed)
	eval[bool](t, tab, `(() => { const i = document.createElement('input'); i.id = 'zz-probe'; document.body.appendChild(i); return true })()`)
	if u := unlabelled(t, tab); len(u) != 1 || !strings.Contains(u[0], "zz-probe") {
		t.Errorf("gallery with an unlabelled probe input: %v, want the probe alone", u)
	}
	eval[bool](t, tab, `(() => { document.getElementById('zz-probe').remove(); return true })()`)
	// the run-time estimates use this browser's speed, measured once by the
	// calibration probe and cached (figures.CalibrationProbe)
	speed := eval[map[string]any](t, tab, `({page: +document.getElementById('gallery').dataset.speed,
		cached: +(Object.keys(localStorage).filter(k => k.startsWith('phitsim-speed')).map(k => localStorage.getItem(k))[0] || 0)})`)
	if p, _ := speed["page"].(float64); p <= 0 || p != speed["cached"] || p == figures.BrowserInstrPerSecond {
		t.Errorf("browser speed %v: want a measured speed, cached in localStorage", speed)
	}
	t.Logf("this browser's engine speed: %.2f G instructions/s", speed["page"].(float64)/1e9)
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
	// every card opens: its embed link shows the claim, the chart the
	// claim is drawn on and Run, and runs nothing
	for _, f := range figures.Table {
		open(t, tab, base+"#fig="+f.ID)
		if !eval[bool](t, tab, `(document.getElementById('figure-claim')||{textContent:''}).textContent.includes(`+jsString(f.ClaimText)+`)`) {
			t.Errorf("#fig=%s: the card's claim is not shown", f.ID)
		}
		if !eval[bool](t, tab, `document.getElementById('chart-`+f.Claim.Chart()+`') !== null && document.getElementById('run') !== null`) {
			t.Errorf("#fig=%s: no chart %s or Run button", f.ID, f.Claim.Chart())
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
	// the claim read when the run ends, by figures.Check as `phitsim
	// figures -check` (engine/FIGURES.md: saturated, holds)
	v := eval[map[string]any](t, tab, `(e => e ? {verdict: e.dataset.verdict, pass: e.dataset.pass, text: e.textContent} : {})(document.getElementById('figure-verdict'))`)
	if text, _ := v["text"].(string); v["verdict"] != "saturated" || v["pass"] != "true" || !strings.Contains(text, "PASS") || !strings.Contains(text, "at offered 0.3, claim [") {
		t.Errorf("#fig=1.6-adv1 after Run: verdict %v, want saturated, the claim holding, in the CLI's words", v)
	}
	screenshot(t, tab, "e2e-figure.png")
	if u := unlabelled(t, tab); len(u) > 0 {
		t.Errorf("#fig=1.6-adv1: controls without a label: %v", u)
	}
	// the figure's chart has its help link, which opens the metric's topic
	if err := chromedp.Do(tab, chromedp.Click(`#figure-claim button.help-link`)); err != nil {
		t.Errorf("#fig=1.6-adv1: no help link for its chart: %v", err)
	} else {
		waitFor(t, tab, `document.getElementById('help') !== null && document.getElementById('help').textContent.includes('ccepted')`, 5*time.Second)
		eval[bool](t, tab, `(() => { document.querySelector('#help button[aria-label^="close"]').click(); return true })()`)
	}
	// the figure's embed shows the network of the watched run: by default
	// the first series at the point shown (MIN at 0.5, point 2 of 4), and a
	// selector of the 2 series × 4 loads picks another for the next Run
	net := func() map[string]any {
		return eval[map[string]any](t, tab, `(() => {
			const n = document.getElementById('netview'), s = document.getElementById('net-watch');
			return {frames: n ? +n.dataset.frames : -1, options: s ? s.options.length : 0, value: s ? s.value : '',
				label: (document.querySelector('label[for=net-watch]') || {textContent: ''}).textContent,
				title: n ? n.querySelector('.card-head').textContent : ''};
		})()`)
	}
	nv := net()
	// the embedded live view has its help link as every chart
	if !eval[bool](t, tab, `document.querySelector('#netview .card-head button.help-link') !== null`) {
		t.Error("#fig=1.6-adv1: the live view of the network has no help link")
	}
	if fr, _ := nv["frames"].(float64); fr < 1 || nv["options"] != float64(8) || nv["value"] != "0/2" || nv["label"] == "" {
		t.Errorf("embedded live view %v: want snapshots drawn and a labelled choice of 8 runs, MIN at 0.5 by default", nv)
	}
	eval[bool](t, tab, `(s => { s.value = '1/3'; return s.dispatchEvent(new Event('change', {bubbles: true})) })(document.getElementById('net-watch'))`)
	waitFor(t, tab, `document.querySelector('#netview .card-head').textContent.includes('VAL')`, 5*time.Second)
	runs := eval[string](t, tab, `document.getElementById('app').dataset.run`)
	if err := chromedp.Do(tab, chromedp.Click("#run")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tab, `document.getElementById('app').dataset.run !== '`+runs+`' && `+done, 120*time.Second)
	if nv = net(); !strings.Contains(nv["title"].(string), "VAL") || !strings.Contains(nv["title"].(string), "load 0.8") || nv["frames"].(float64) < 1 || nv["value"] != "1/3" {
		t.Errorf("after choosing VAL at 0.8 and Run: live view %v", nv)
	}
	// a claim that is not on the accepted load lands on its own chart:
	// Kim et al. Fig. 14's least served sender (under a second), its band
	// across the bars of the bandwidth per sender
	kim, _ := figures.ByID("kim-14")
	open(t, tab, base+"#fig=kim-14")
	runs = eval[string](t, tab, `document.getElementById('app').dataset.run`)
	if err := chromedp.Do(tab, chromedp.Click("#run")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tab, `document.getElementById('app').dataset.run !== '`+runs+`' && `+done, 60*time.Second)
	bars := eval[map[string]any](t, tab, `(() => {
		const el = document.getElementById('chart-hotspotsenders');
		if (!el) return {};
		const o = echarts.getInstanceByDom(el).getOption();
		const s = o.series.find(s => (s.name||'').startsWith('claim:'));
		return {lo: s ? s.markArea.data[0][0].yAxis : -1, hi: s ? s.markArea.data[0][1].yAxis : -1,
			bars: o.series.filter(s => s.type === 'bar').length, accepted: document.getElementById('chart-accepted') !== null};
	})()`)
	ke, _ := kim.Sweep()
	if n := len(ke.Spec.Series); bars["lo"] != kim.Claim.Lo || bars["hi"] != kim.Claim.Hi || bars["bars"] != float64(n) || bars["accepted"] != false {
		t.Errorf("#fig=kim-14 after Run: %v; want the band [%g, %g] on the %d series' bars of the bandwidth per sender, no accepted-load chart",
			bars, kim.Claim.Lo, kim.Claim.Hi, n)
	}
	// the main page's form: every control labelled too
	open(t, tab, base)
	if u := unlabelled(t, tab); len(u) > 0 {
		t.Errorf("main page: controls without a label: %v", u)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(foreign) > 0 {
		t.Errorf("requests left the origin %s: %v", b.Host, foreign)
	}
}

// unlabelled lists the page's form controls without an accessible name: an
// input, select or textarea needs a <label for>, a wrapping label,
// aria-label(ledby) or a title; a button, its text or one of those.
func unlabelled(t *testing.T, tab context.Context) []string {
	return eval[[]string](t, tab, `[...document.querySelectorAll('input, select, textarea, button')].filter(el => {
		if (el.type === 'hidden') return false;
		const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.title ||
			(el.id && document.querySelector('label[for="' + el.id + '"]')) || el.closest('label');
		return !named && !(el.tagName === 'BUTTON' && el.textContent.trim());
	}).map(el => el.tagName.toLowerCase() + '#' + el.id + '.' + el.className)`)
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}
