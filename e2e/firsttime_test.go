package e2e

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"phitsim/engine/config"
	"phitsim/site/docs"
	"phitsim/site/experiment"
)

// firstTimeUser walks through what a newcomer trips over, in one tab of the
// browser session: every response of the page's load (no 4xx/5xx, the
// icon), bad text in a form field and in each experiment-bar field (the
// message, Run disabled, nothing changed or run), results marked stale after
// loading another preset, editing one series and "apply to all series", the
// preset menu with the keyboard, the help panel and the charts' sizes;
// then values typed key by key against the link, the point selector after a
// preset, the stale line during a run, series names, embed mode's errors.
func firstTimeUser(t *testing.T, ctx context.Context, base string) {
	var mu sync.Mutex
	var responses []string
	bad := map[string]int64{}
	tab, cancel := chromedp.NewContext(ctx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*network.EventResponseReceived); ok {
			mu.Lock()
			responses = append(responses, fmt.Sprintf("%d %s", e.Response.Status, e.Response.URL))
			if e.Response.Status >= 400 {
				bad[e.Response.URL] = e.Response.Status
			}
			mu.Unlock()
		}
	}))
	defer cancel()
	l := tinyLink()
	open(t, tab, base+"#"+experiment.Encode(l))
	waitFor(t, tab, done, 60*time.Second) // small links run on opening

	t.Run("no-404", func(t *testing.T) {
		status := func(js string) float64 {
			v, err := chromedp.Run(tab, chromedp.Evaluate[float64](`fetch(`+js+`).then(r => r.status)`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatalf("fetch(%s): %v", js, err)
			}
			return v
		}
		if st := status(`'favicon.ico'`); st != 200 {
			t.Errorf("favicon.ico: HTTP %g", st)
		}
		if st := status(`document.querySelector('link[rel=icon]').href`); st != 200 {
			t.Errorf("the page's <link rel=icon>: HTTP %g", st)
		}
		mu.Lock()
		defer mu.Unlock()
		t.Logf("%d responses while loading and running: %s", len(responses), strings.Join(responses, ", "))
		for u, st := range bad {
			t.Errorf("HTTP %d for %s", st, u)
		}
		if len(responses) < 5 {
			t.Errorf("only %d responses logged: the listener missed the page load", len(responses))
		}
	})

	hash := func() string { return eval[string](t, tab, `location.hash`) }
	runs := func() string { return eval[string](t, tab, `document.getElementById('app').dataset.run`) }
	// linked checks the link after typed went into field id: it carries
	// inLink, or, when typed is not a number (inLink ""), it is still
	// wantHash and the share buttons are disabled saying why.
	linked := func(t *testing.T, id, typed, inLink, wantHash string) {
		t.Helper()
		time.Sleep(400 * time.Millisecond) // a render
		h := hash()
		shareOff := eval[bool](t, tab, `['share', 'embed-code'].every(id => (b => b.getAttribute('aria-disabled') === 'true' && !b.disabled)(document.getElementById(id)))`)
		why := eval[string](t, tab, `(document.getElementById('share-blocked') || {}).textContent || ''`)
		if inLink == "" {
			if h != wantHash {
				t.Errorf("%s = %q (not a number) changed the link: %s", id, typed, h)
			}
			if !shareOff || !strings.Contains(why, "the link is not updated while") || !strings.Contains(why, "holds text that is not a number") {
				t.Errorf("%s = %q: Copy link disabled %v, reason %q", id, typed, shareOff, why)
			}
			return
		}
		if !strings.Contains("&"+strings.TrimPrefix(h, "#")+"&", "&"+inLink+"&") {
			t.Errorf("%s = %q: the link %s does not carry %s", id, typed, h, inLink)
		}
		if shareOff || why != "" {
			t.Errorf("%s = %q (a number): Copy link disabled (%q)", id, typed, why)
		}
	}
	// refused checks the visible message of a refused input, and that
	// nothing ran: Run is disabled and saying why, and a click on it starts
	// nothing. A number out of range goes into the experiment as typed:
	// the link carries inLink; text that is not a number (inLink "") does
	// not: the link stays wantHash and Copy link says why it is disabled.
	refused := func(t *testing.T, id, typed, msgID, want, inLink, wantHash, wantRuns string) {
		t.Helper()
		setField(t, tab, id, typed)
		waitFor(t, tab, fmt.Sprintf(`document.getElementById(%q) !== null`, msgID), 5*time.Second)
		if msg := eval[string](t, tab, fmt.Sprintf(`document.getElementById(%q).textContent`, msgID)); !strings.Contains(msg, want) {
			t.Errorf("%s = %q: message %q, want it to contain %q", id, typed, msg, want)
		}
		if v := eval[string](t, tab, fmt.Sprintf(`document.getElementById(%q).value`, id)); v != typed {
			t.Errorf("%s: the field shows %q, the user typed %q", id, v, typed)
		}
		if inv := eval[string](t, tab, fmt.Sprintf(`document.getElementById(%q).getAttribute('aria-invalid')`, id)); inv != "true" {
			t.Errorf("%s: aria-invalid %q", id, inv)
		}
		if !eval[bool](t, tab, runOff) {
			t.Errorf("%s = %q: Run is enabled", id, typed)
		}
		why := eval[string](t, tab, `(document.getElementById('run-blocked') || {}).textContent || ''`)
		if _, each, ok := strings.Cut(want, "seeds per point: "); ok && inLink != "" {
			want = each // Run names each series' seeds (the bar sets them all)
		}
		if !strings.Contains(why, want) {
			t.Errorf("%s = %q: Run disabled with %q, want the reason %q", id, typed, why, want)
		}
		eval[bool](t, tab, `(() => { document.getElementById('run').click(); return true })()`)
		time.Sleep(250 * time.Millisecond)
		if n := eval[string](t, tab, `(document.querySelector('.notice') || {}).textContent || ''`); !strings.Contains(n, "Cannot run: ") || !strings.Contains(n, want) {
			t.Errorf("%s = %q: Run clicked, the notice %q, want \"Cannot run: …%s…\"", id, typed, n, want)
		}
		linked(t, id, typed, inLink, wantHash)
		if inLink == "" { // Copy link, clicked, says why it copies nothing
			eval[bool](t, tab, `(() => { document.getElementById('share').click(); return true })()`)
			waitFor(t, tab, `((document.querySelector('.notice') || {}).textContent || '').startsWith('Cannot copy: the link is not updated while')`, 5*time.Second)
		}
		if r, s := runs(), eval[string](t, tab, `document.getElementById('app').dataset.state`); r != wantRuns || s != "done" {
			t.Errorf("%s = %q: a run started (runs %s → %s, state %s)", id, typed, wantRuns, r, s)
		}
	}
	accepted := func(t *testing.T, id, value string) {
		t.Helper()
		setField(t, tab, id, value)
		waitFor(t, tab, fmt.Sprintf(`document.getElementById(%q).getAttribute('aria-invalid') === null && !(`+runOff+`)`, id), 5*time.Second)
	}

	t.Run("bad-input", func(t *testing.T) {
		h0, r0 := hash(), runs()
		refused(t, "f-sim-cycles", "abc", "f-sim-cycles-error", "sim.cycles = abc: must be a whole number", "", h0, r0)
		if why := eval[string](t, tab, `document.getElementById('share-blocked').textContent`); !strings.Contains(why, "while series 1 (MIN) sim.cycles holds text") {
			t.Errorf("Copy link disabled with %q: want the field named", why)
		}
		if why := eval[string](t, tab, `document.getElementById('run-blocked').textContent`); !strings.Contains(why, "series 1 (MIN): sim.cycles = abc") {
			t.Errorf("Run disabled with %q: want the series numbered from 1 by name", why)
		}
		accepted(t, "f-sim-cycles", "1500")
		if h := hash(); h != h0 {
			t.Errorf("typing the value back changed the link: %s", h)
		}
		for _, c := range []struct{ id, typed, want, inLink string }{
			{"sweep-from", "abc", "from: traffic.load = abc: must be a number in [0, 1]", ""},
			{"sweep-to", "4", "to: traffic.load = 4: must be in [0, 1]", "sweep=0.2:4:0.2"},
			{"sweep-step", "0", "step: 0: must be > 0", "sweep=0.2:0.6:0"},
			{"sweep-values", "0.1, abc", "values: traffic.load = abc: must be a number in [0, 1]", ""},
			{"sweep-values", "0.1, 4, 8, 15", "values: traffic.load = 4: must be in [0, 1]", "sweep=0.1,4,8,15"},
			{"seeds", "0", "seeds per point: sim.seeds = 0: must be in [1, 1000]", "sim.seeds=0"},
			{"seeds", "abc", "seeds per point: sim.seeds = abc: must be a whole number in [1, 1000]", ""},
			// Check reports the runs first: they exceed experiment.MaxRuns
			{"seeds", "100000", "seeds per point: sim.seeds = 100000: ", "sim.seeds=100000"},
		} {
			orig := eval[string](t, tab, fmt.Sprintf(`document.getElementById(%q).value`, c.id))
			refused(t, c.id, c.typed, c.id+"-error", c.want, c.inLink, h0, r0)
			if c.typed == "100000" {
				screenshot(t, tab, "e2e-bad-input.png")
			}
			accepted(t, c.id, orig)
		}
		if h := hash(); h != h0 {
			t.Errorf("the experiment after typing every value back: %s, want %s", h, h0)
		}
	})

	// a field's error corrected and Run clicked, or Enter pressed in the
	// field, at once: before the page renders the correction (up to 200 ms
	// after an edit) the click and the key run the form as corrected; Copy
	// link copies it
	t.Run("fix-and-run", func(t *testing.T) {
		h0 := hash()
		for _, how := range []string{"click", "enter"} {
			r0 := runs()
			setField(t, tab, "f-topology-h", "0")
			// rendered: the message, and Run saying why it cannot run
			waitFor(t, tab, `document.getElementById('f-topology-h-error') !== null && document.getElementById('run-blocked') !== null`, 5*time.Second)
			click := ""
			if how == "click" {
				click = `document.getElementById('run').click();`
			}
			eval[bool](t, tab, `(() => { const el = document.getElementById('f-topology-h'); el.focus(); el.value = '2';
				el.dispatchEvent(new Event('input', {bubbles: true})); `+click+` return true })()`)
			if how == "enter" {
				if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Enter)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := chromedp.Run(tab, chromedp.Poll[chromedp.Void](`document.getElementById('app').dataset.run !== '`+r0+`'`,
				chromedp.WithPollingTimeout(3*time.Second))); err != nil {
				t.Fatalf("%s: the error corrected, the run did not start (runs %s → %s, notice %q)", how, r0, runs(),
					eval[string](t, tab, `(document.querySelector('.notice') || {}).textContent || ''`))
			}
			waitFor(t, tab, done, 60*time.Second)
			if h := hash(); h != h0 {
				t.Errorf("%s: the form after the correction %s, want %s", how, h, h0)
			}
			if ex := pageResults(t, tab); ex.Exp.Series[0].Topology.H != 2 || len(ex.Runs) != len(ex.Jobs) {
				t.Errorf("%s: ran h=%d, %d of %d runs", how, ex.Exp.Series[0].Topology.H, len(ex.Runs), len(ex.Jobs))
			}
		}
		// Copy link as well: text that is not a number corrected and the
		// button clicked at once copies the corrected link (or shows it,
		// when the clipboard refuses)
		setField(t, tab, "f-sim-cycles", "1,500")
		waitFor(t, tab, `document.getElementById('share-blocked') !== null`, 5*time.Second)
		eval[bool](t, tab, `(() => { const el = document.getElementById('f-sim-cycles'); el.value = '1500';
			el.dispatchEvent(new Event('input', {bubbles: true})); document.getElementById('share').click(); return true })()`)
		waitFor(t, tab, `(n => !!n && /^(Link copied|Copy this link: )/.test(n.textContent))(document.querySelector('.notice'))`, 5*time.Second)
		if n := eval[string](t, tab, `document.querySelector('.notice').textContent`); strings.HasPrefix(n, "Copy this link: ") && !strings.HasSuffix(n, h0) {
			t.Errorf("Copy link after the correction: %q, want the link ending %s", n, h0)
		}
	})

	t.Run("stale", func(t *testing.T) {
		h0, r0 := hash(), runs()
		if c := eval[string](t, tab, `document.getElementById('results-of').className`); strings.Contains(c, "stale") {
			t.Fatalf("fresh results marked stale")
		}
		loadPreset(t, tab, "quick-adv1")
		waitFor(t, tab, `document.getElementById('results-of').classList.contains('stale')`, 5*time.Second)
		msg := eval[string](t, tab, `document.getElementById('results-of').textContent`)
		want := "These results are from MIN, VAL · h=2 a=4 p=2, 72 nodes · offered load 0.2 to 0.6 by 0.2 · 2 seeds per point — the configuration has changed since " +
			"(sim.warmup 500 → 3000, sim.cycles 1500 → 5000, sweep 0.2:0.6:0.2 → 0.05:0.6:0.05, traffic.pattern default → ADV); Run to update."
		if !strings.Contains(msg, want) {
			t.Errorf("stale banner %q, want %q", msg, want)
		}
		if r := runs(); r != r0 {
			t.Errorf("loading a preset ran it")
		}
		if got, _ := experiment.Decode(hash()); !reflect.DeepEqual(got.Exp, mustPreset(t, "quick-adv1")) {
			t.Errorf("the preset was not loaded: %s", hash())
		}
		screenshot(t, tab, "e2e-stale.png")
		// back to the configuration of the results: fresh again
		eval[bool](t, tab, `(() => { document.getElementById('restore-config').click(); return true })()`)
		waitFor(t, tab, `!document.getElementById('results-of').classList.contains('stale')`, 5*time.Second)
		if h := hash(); h != h0 {
			t.Errorf("back to the results' configuration: %s, want %s", h, h0)
		}
	})

	t.Run("apply-to-all", func(t *testing.T) {
		r0 := runs()
		eval[bool](t, tab, `(() => { document.querySelectorAll('.tab')[1].click(); return true })()`)
		waitFor(t, tab, `document.getElementById('editing').textContent.startsWith('Editing series 2 · VAL')`, 5*time.Second)
		setField(t, tab, "f-sim-cycles", "1234")
		waitFor(t, tab, `document.getElementById('f-sim-cycles-differs') !== null`, 5*time.Second)
		note := eval[string](t, tab, `document.getElementById('f-sim-cycles-differs').textContent`)
		if !strings.Contains(note, "Series 2 only; differs in series 1 (MIN): 1500") {
			t.Errorf("differs note %q", note)
		}
		if ed := eval[string](t, tab, `document.getElementById('editing').textContent`); !strings.Contains(ed, "changes apply to this series only") {
			t.Errorf("editing header %q", ed)
		}
		got, _ := experiment.Decode(hash())
		if got.Exp.Series[0].Sim.Cycles != 1500 || got.Exp.Series[1].Sim.Cycles != 1234 {
			t.Fatalf("the edit changed cycles to %d, %d; want series 2 only", got.Exp.Series[0].Sim.Cycles, got.Exp.Series[1].Sim.Cycles)
		}
		// text that is not a number, corrected and applied at once, before
		// the page renders the correction: the click is not dropped
		setField(t, tab, "f-sim-cycles", "1,234")
		waitFor(t, tab, `document.getElementById('f-sim-cycles-error') !== null`, 5*time.Second)
		eval[bool](t, tab, `(() => { const el = document.getElementById('f-sim-cycles'); el.value = '1234';
			el.dispatchEvent(new Event('input', {bubbles: true})); document.getElementById('f-sim-cycles-all').click(); return true })()`)
		waitFor(t, tab, `document.getElementById('f-sim-cycles-differs') === null`, 5*time.Second)
		got, _ = experiment.Decode(hash())
		if got.Exp.Series[0].Sim.Cycles != 1234 || got.Exp.Series[1].Sim.Cycles != 1234 {
			t.Errorf("apply to all: cycles %d, %d", got.Exp.Series[0].Sim.Cycles, got.Exp.Series[1].Sim.Cycles)
		}
		if n := eval[string](t, tab, `document.querySelector('.notice').textContent`); n != "sim.cycles = 1234 in all 2 series." {
			t.Errorf("notice %q", n)
		}
		// a notice of a done action goes after a few seconds
		waitFor(t, tab, `document.querySelector('.notice') === null`, 10*time.Second)
		if r := runs(); r != r0 {
			t.Errorf("apply to all ran the experiment")
		}
	})

	t.Run("preset-keyboard", func(t *testing.T) {
		h0, r0 := hash(), runs()
		press := func(keys string) {
			t.Helper()
			if err := chromedp.Do(tab, chromedp.KeyEvent(keys)); err != nil {
				t.Fatal(err)
			}
		}
		focused := func() string {
			return eval[string](t, tab, `(e => e.dataset.preset || e.id)(document.activeElement)`)
		}
		if err := chromedp.Do(tab, chromedp.Focus("#preset-toggle")); err != nil {
			t.Fatal(err)
		}
		press(kb.ArrowDown) // opens the menu on the first preset
		waitFor(t, tab, `document.activeElement.dataset.preset !== undefined`, 5*time.Second)
		names := []string{}
		for _, p := range experiment.Presets() {
			names = append(names, p.Name)
		}
		if f := focused(); f != names[0] {
			t.Errorf("ArrowDown on the preset button focused %q, want %q", f, names[0])
		}
		for i := 1; i <= 3; i++ {
			press(kb.ArrowDown)
			time.Sleep(100 * time.Millisecond)
			if f := focused(); f != names[i] {
				t.Errorf("ArrowDown %d: focus on %q, want %q", i, f, names[i])
			}
		}
		time.Sleep(300 * time.Millisecond)
		if h, r := hash(), runs(); h != h0 || r != r0 {
			t.Errorf("moving through the presets loaded one: %s (runs %s → %s)", h, r0, r)
		}
		if eval[bool](t, tab, `document.getElementById('preset-toggle').textContent.startsWith('Preset:')`) {
			t.Errorf("the preset button names a preset before Enter")
		}
		press(kb.Enter) // loads the focused preset
		waitFor(t, tab, `document.getElementById('preset-menu') === null`, 5*time.Second)
		time.Sleep(300 * time.Millisecond)
		if got, errs := experiment.Decode(hash()); len(errs) > 0 || !reflect.DeepEqual(got.Exp, mustPreset(t, names[3])) {
			t.Errorf("Enter did not load %s: %s %v", names[3], hash(), errs)
		}
		if f := focused(); f != "preset-toggle" {
			t.Errorf("after loading, focus on %q", f)
		}
		// Escape closes the menu without loading
		h1 := hash()
		press(kb.ArrowDown)
		waitFor(t, tab, `document.getElementById('preset-menu') !== null`, 5*time.Second)
		press(kb.ArrowDown)
		press(kb.Escape)
		waitFor(t, tab, `document.getElementById('preset-menu') === null && document.activeElement.id === 'preset-toggle'`, 5*time.Second)
		if hash() != h1 {
			t.Errorf("Escape loaded a preset")
		}
		// a thesis figure's preset says it runs shortened, with the paper's run length
		for _, p := range experiment.Presets() {
			if note := p.PaperRun(); note != "" {
				eval[bool](t, tab, `(() => { document.getElementById('preset-toggle').click(); return true })()`)
				waitFor(t, tab, `document.getElementById('preset-menu') !== null`, 5*time.Second)
				got := eval[string](t, tab, fmt.Sprintf(`document.querySelector('#preset-menu [data-preset=%q] .preset-note').textContent`, p.Name))
				if got != note {
					t.Errorf("preset %s: note %q, want %q", p.Name, got, note)
				}
				screenshot(t, tab, "e2e-presets.png")
				press(kb.Escape)
				waitFor(t, tab, `document.getElementById('preset-menu') === null`, 5*time.Second)
				// loaded, the experiment bar says it too
				loadPreset(t, tab, p.Name)
				waitFor(t, tab, `document.getElementById('preset-note') !== null`, 5*time.Second)
				if got := eval[string](t, tab, `document.getElementById('preset-note').textContent`); got != note {
					t.Errorf("preset %s loaded: note %q, want %q", p.Name, got, note)
				}
				break
			}
		}
	})

	t.Run("help", func(t *testing.T) {
		h0, r0 := hash(), runs()
		// the paper of a field, visible (not only a hover tooltip)
		p, _ := config.Lookup("routing.name")
		if doc := eval[string](t, tab, `document.getElementById('f-routing-name-doc').innerText`); !strings.Contains(doc, p.Paper) {
			t.Errorf("routing.name shows %q, not its paper %q", doc, p.Paper)
		}
		show := func(t *testing.T, opener, id string) {
			t.Helper()
			eval[bool](t, tab, fmt.Sprintf(`(() => { document.querySelector(%q).click(); return true })()`, opener))
			waitFor(t, tab, fmt.Sprintf(`(document.getElementById('help') || {dataset: {}}).dataset.topic === %q`, id), 5*time.Second)
			topic, _ := docs.Lookup(id)
			if got := eval[string](t, tab, `document.getElementById('help-title').textContent`); got != topic.Title {
				t.Errorf("help title %q, want %q", got, topic.Title)
			}
			if got := eval[string](t, tab, `document.getElementById('help-text').textContent`); got != topic.Text {
				t.Errorf("help text %q, want %q", got, topic.Text)
			}
			if got := eval[string](t, tab, `document.getElementById('help-paper').textContent`); !strings.Contains(got, topic.Paper) {
				t.Errorf("help paper %q, want %q", got, topic.Paper)
			}
		}
		// "what is ADV+1": the traffic pattern's "?" (the form is on ADV now)
		setField(t, tab, "f-traffic-pattern", "ADV")
		waitFor(t, tab, `document.querySelector('#f-traffic-pattern ~ .help-link[data-topic="traffic-ADV"]') !== null`, 5*time.Second)
		show(t, "#f-traffic-pattern ~ .help-link", "traffic-ADV")
		if txt := eval[string](t, tab, `document.getElementById('help').innerText`); !strings.Contains(txt, "ADV+1") || !strings.Contains(txt, "group g+i") {
			t.Errorf("the ADV help does not say what ADV+1 is: %q", txt)
		}
		if f := eval[string](t, tab, `document.activeElement.id`); f != "help-title" {
			t.Errorf("the focus went to %q, not into the help", f)
		}
		// "what is PiggyBack": from the help's index
		show(t, `#help [data-topic="routing-PB"]`, "routing-PB")
		if txt := eval[string](t, tab, `document.getElementById('help-text').textContent`); !strings.Contains(txt, "saturated") {
			t.Errorf("the PiggyBack help: %q", txt)
		}
		// Escape closes; the focus returns to the "?" that opened it
		if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Escape)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, tab, `document.getElementById('help') === null`, 5*time.Second)
		if f := eval[string](t, tab, `document.activeElement.className`); f != "help-link" {
			t.Errorf("after Escape the focus is on %q", f)
		}
		// accepted load and latency: the charts' "?"
		show(t, `#card-accepted .help-link`, "metric-accepted")
		show(t, `#card-latency .help-link`, "metric-latency")
		if txt := eval[string](t, tab, `document.getElementById('help').innerText`); !strings.Contains(txt, "saturat") {
			t.Errorf("the latency help does not say why the curve shoots up: %q", txt)
		}
		screenshot(t, tab, "e2e-help.png")
		eval[bool](t, tab, `(() => { document.getElementById('help-close').click(); return true })()`)
		waitFor(t, tab, `document.getElementById('help') === null`, 5*time.Second)
		setField(t, tab, "f-traffic-pattern", "UN")
		if r := runs(); r != r0 {
			t.Errorf("the help ran something")
		}
		_ = h0
	})

	t.Run("link-values", func(t *testing.T) {
		// a link whose sweep values are out of range opens with them in the
		// field, the message, and Run disabled: nothing runs
		l := tinyLink()
		open(t, tab, base+"#"+experiment.Encode(l)+"&sweep=0.1,4,8,15")
		waitFor(t, tab, `document.getElementById('sweep-values-error') !== null`, 5*time.Second)
		want := "values: traffic.load = 4: must be in [0, 1]"
		if msg := eval[string](t, tab, `document.getElementById('sweep-values-error').textContent`); !strings.Contains(msg, want) {
			t.Errorf("message %q, want %q", msg, want)
		}
		if v := eval[string](t, tab, `document.getElementById('sweep-values').value`); v != "0.1, 4, 8, 15" {
			t.Errorf("values field %q", v)
		}
		if !eval[bool](t, tab, runOff) {
			t.Errorf("Run is enabled")
		}
		time.Sleep(500 * time.Millisecond)
		if s := eval[string](t, tab, `document.getElementById('app').dataset.state`); s != "idle" {
			t.Errorf("the link ran (%s)", s)
		}
	})

	t.Run("chart-sizes", func(t *testing.T) {
		// every chart draws at its card's size (not at the size it had
		// before the layout settled), also after the window changes size
		check := func(when string) {
			t.Helper()
			sizes := eval[[]string](t, tab, `[...document.querySelectorAll('.charts .chart')].map(el => {
				const c = echarts.getInstanceByDom(el);
				return el.id + ' ' + (c ? c.getWidth() + 'x' + c.getHeight() : 'none') + ' in ' + el.clientWidth + 'x' + el.clientHeight })`)
			for _, s := range sizes {
				if f := strings.Fields(s); f[1] != f[3] {
					t.Errorf("%s: chart %s", when, s)
				}
			}
			if len(sizes) == 0 {
				t.Errorf("no charts")
			}
		}
		check("as opened")
		if err := chromedp.Do(tab, chromedp.EmulateViewport(900, 1000)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(400 * time.Millisecond)
		check("at 900 px")
		chromedp.Do(tab, chromedp.EmulateViewport(1280, 1000))
	})

	// the value typed, key by key, is the value in the link, or the link
	// is frozen while the text is not a number; a link with a value out
	// of range opens with its error and does not run
	t.Run("typed-keys", func(t *testing.T) {
		open(t, tab, base+"#"+experiment.Encode(tinyLink()))
		waitFor(t, tab, done, 60*time.Second)
		h0 := hash()
		typeKeys(t, tab, "seeds", "100000", nil)
		time.Sleep(250 * time.Millisecond)
		got, _ := experiment.Decode(hash())
		if s := got.Exp.Series[0].Sim.Seeds; s != 100000 || got.Exp.Series[1].Sim.Seeds != 100000 {
			t.Errorf("seeds per point shows 100000, the link carries %d: %s", s, hash())
		}
		waitFor(t, tab, `document.getElementById('seeds-error') !== null && `+runOff, 5*time.Second)
		// reload the page at that link
		link := hash()
		if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // the old page's context goes
		waitFor(t, tab, `window.phitsimInteractive !== undefined && document.getElementById('seeds-error') !== null`, 30*time.Second)
		if h := hash(); h != link {
			t.Errorf("reloaded %s, the page is at %s", link, h)
		}
		if msg := eval[string](t, tab, `document.getElementById('seeds-error').textContent`); !strings.Contains(msg, "sim.seeds = 100000") {
			t.Errorf("the link with 100000 seeds opens with %q", msg)
		}
		if v := eval[string](t, tab, `document.getElementById('seeds').value`); v != "100000" {
			t.Errorf("the link with 100000 seeds shows %q", v)
		}
		time.Sleep(500 * time.Millisecond)
		if s := eval[string](t, tab, `document.getElementById('app').dataset.state`); s != "idle" || !eval[bool](t, tab, runOff) {
			t.Errorf("the link with 100000 seeds: state %s, Run enabled %v", s, !eval[bool](t, tab, runOff))
		}

		open(t, tab, base+h0)
		waitFor(t, tab, done, 60*time.Second)
		// 1e3 in an integer field is 1000 (never 1, the value of its first key)
		var h1 string
		typeKeys(t, tab, "f-sim-cycles", "1e3", func(sofar string) {
			switch sofar {
			case "1":
				h1 = hash()
			case "1e": // half typed: not a number, the link waits
				linked(t, "f-sim-cycles", sofar, "", h1)
			}
		})
		time.Sleep(250 * time.Millisecond)
		if got, _ := experiment.Decode(hash()); got.Exp.Series[0].Sim.Cycles != 1000 {
			t.Errorf("sim.cycles = 1e3: the link carries sim.cycles=%d, want 1000: %s", got.Exp.Series[0].Sim.Cycles, hash())
		}
		// 1,000 is not a number: the link stays, the share buttons say why
		typeKeys(t, tab, "f-sim-cycles", "1,000", func(sofar string) {
			if sofar == "1" {
				h1 = hash()
			}
		})
		linked(t, "f-sim-cycles", "1,000", "", h1)
		if strings.Contains(hash(), "sim.cycles=1000") || !eval[bool](t, tab, runOff) {
			t.Errorf("sim.cycles = 1,000: link %s, Run enabled %v", hash(), !eval[bool](t, tab, runOff))
		}
		screenshot(t, tab, "e2e-unlinked.png")
		typeKeys(t, tab, "f-sim-cycles", "1500", nil)
		waitFor(t, tab, `document.getElementById('share').getAttribute('aria-disabled') === null && document.getElementById('share-blocked') === null`, 5*time.Second)
		if h := hash(); h != h0 {
			t.Errorf("typed back to 1500, the link is %s, want %s", h, h0)
		}
	})

	// after loading a preset, the point selector still names the point of
	// the results shown, as the per-point charts' titles do
	t.Run("point-after-preset", func(t *testing.T) {
		open(t, tab, base+"#"+experiment.Encode(tinyLink()))
		waitFor(t, tab, done, 60*time.Second)
		title := `(echarts.getInstanceByDom(document.getElementById('chart-fairness')).getOption().title || [{}])[0].text || ''`
		waitFor(t, tab, title+`.includes('offered load')`, 10*time.Second)
		loadPreset(t, tab, "min-val-un-h4")
		time.Sleep(500 * time.Millisecond)
		sel := eval[string](t, tab, `document.getElementById('point').selectedOptions[0].textContent`)
		if got := eval[string](t, tab, title); !strings.HasSuffix(got, "at offered load "+sel) {
			t.Errorf("the point selector shows %s, the per-point chart is %q", sel, got)
		}
	})

	// the stale line names the networks and what changed; an edit during a
	// run marks the running results stale
	t.Run("stale-running", func(t *testing.T) {
		l := tinyLink()
		for i := range l.Exp.Series {
			l.Exp.Series[i].Sim.Cycles = 200000 // tens of seconds: cancelled below
		}
		open(t, tab, base+"#"+experiment.Encode(l))
		waitFor(t, tab, `document.getElementById('app').dataset.state === 'running'`, 30*time.Second)
		setField(t, tab, "f-topology-h", "3")
		waitFor(t, tab, `document.getElementById('results-of').classList.contains('stale') || document.getElementById('app').dataset.state !== 'running'`, 5*time.Second)
		msg := eval[string](t, tab, `document.getElementById('results-of').textContent`)
		if s := eval[string](t, tab, `document.getElementById('app').dataset.state`); s != "running" {
			t.Fatalf("the run ended before the check (%s)", s)
		}
		if !strings.HasPrefix(msg, "Stale results.") {
			t.Errorf("an edit during the run: %q", msg)
		}
		for _, want := range []string{"h=2 a=4 p=2, 72 nodes", "topology.h 2 → 3"} {
			if !strings.Contains(msg, want) {
				t.Errorf("stale line during the run %q, want %q", msg, want)
			}
		}
		eval[bool](t, tab, `(() => { document.getElementById('cancel').click(); return true })()`)
		waitFor(t, tab, `document.getElementById('app').dataset.state === 'cancelled'`, 10*time.Second)
		// Run and Cancel clicked at once, before the page renders the run:
		// the Cancel is not dropped
		r0 := runs()
		eval[bool](t, tab, `(() => { document.getElementById('run').click(); document.getElementById('cancel').click(); return true })()`)
		waitFor(t, tab, `document.getElementById('app').dataset.run !== '`+r0+`' && document.getElementById('app').dataset.state === 'cancelled'`, 10*time.Second)
	})

	// series names follow their routing unless typed; added series get
	// names of their own; the estimate multiplies out
	t.Run("series-names", func(t *testing.T) {
		open(t, tab, base+"#"+experiment.Encode(tinyLink()))
		waitFor(t, tab, done, 60*time.Second)
		setField(t, tab, "f-routing-name", "UGAL")
		waitFor(t, tab, `document.querySelectorAll('.tab')[0].textContent === 'UGAL'`, 5*time.Second)
		if n := eval[string](t, tab, `document.getElementById('f-name').value`); n != "UGAL" {
			t.Errorf("series 1 routed by UGAL is named %q", n)
		}
		// one click at a time, as a reader who sees each tab appear (on a
		// loaded machine a render can lag the click)
		eval[bool](t, tab, `(() => { document.getElementById('add-series').click(); return true })()`)
		waitFor(t, tab, `document.querySelectorAll('.tab').length === 3`, 15*time.Second)
		eval[bool](t, tab, `(() => { document.getElementById('add-series').click(); return true })()`)
		waitFor(t, tab, `document.querySelectorAll('.tab').length === 4`, 15*time.Second)
		names := eval[[]string](t, tab, `[...document.querySelectorAll('.tab')].map(b => b.textContent)`)
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				t.Errorf("two series named %q: %v", n, names)
			}
			seen[n] = true
		}
		// a typed name stays when the routing changes
		setField(t, tab, "f-name", "mine")
		setField(t, tab, "f-routing-name", "PB")
		time.Sleep(300 * time.Millisecond)
		if n := eval[string](t, tab, `document.getElementById('f-name').value`); n != "mine" {
			t.Errorf("the typed name became %q", n)
		}
		// seeds that differ: the estimate multiplies out
		setField(t, tab, "f-sim-seeds", "3")
		waitFor(t, tab, `document.querySelector('.estimate').textContent.includes('+')`, 5*time.Second)
		est := eval[string](t, tab, `document.querySelector('.estimate').textContent`)
		if !strings.Contains(est, "4 series × 3 values, 2 + 2 + 2 + 3 seeds per point · 27 runs") {
			t.Errorf("estimate %q", est)
		}
		setField(t, tab, "sweep-values", "0.3")
		waitFor(t, tab, `document.querySelector('.estimate').textContent.includes('1 value,')`, 5*time.Second)
	})

	// embed mode shows the link's problems and why Run is disabled
	t.Run("embed-errors", func(t *testing.T) {
		open(t, tab, base+"#embed=accepted&topology.h=abc&sim.seeds=0&sweep=0.1,4,8")
		waitFor(t, tab, `document.getElementById('link-errors') !== null && document.getElementById('run-blocked') !== null`, 5*time.Second)
		if msg := eval[string](t, tab, `document.getElementById('link-errors').textContent`); !strings.Contains(msg, "topology.h") {
			t.Errorf("embed link errors %q", msg)
		}
		why := eval[string](t, tab, `document.getElementById('run-blocked').textContent`)
		for _, want := range []string{"traffic.load = 4: must be in [0, 1]", "sim.seeds"} {
			if !strings.Contains(why, want) {
				t.Errorf("embed: Run disabled with %q, want %q", why, want)
			}
		}
		if !eval[bool](t, tab, runOff) {
			t.Errorf("embed: Run is enabled")
		}
		screenshot(t, tab, "e2e-embed-errors.png")
		l := tinyLink()
		open(t, tab, base+"#"+experiment.Encode(l)+"&embed=bogus")
		waitFor(t, tab, `document.getElementById('link-errors') !== null`, 5*time.Second)
		if msg := eval[string](t, tab, `document.getElementById('link-errors').textContent`); !strings.Contains(msg, `unknown chart "bogus"`) {
			t.Errorf("embed=bogus: %q", msg)
		}
	})

}

func mustPreset(t *testing.T, name string) experiment.Experiment {
	t.Helper()
	e, ok := experiment.PresetByName(name)
	if !ok {
		t.Fatalf("no preset %s", name)
	}
	return e
}

// etaAccuracy samples the sweep's ETA while the page runs, until it is
// done, and logs how far each estimate of the end (elapsed + ETA) was from
// the actual end, by the fraction of the run's time elapsed.
func etaAccuracy(t *testing.T, ctx context.Context) {
	t.Helper()
	type sample struct{ el, eta float64 }
	var samples []sample
	before := eval[string](t, ctx, `document.querySelector('.estimate').dataset.seconds`)
	deadline := time.Now().Add(120 * time.Second)
	for {
		v := eval[[]string](t, ctx, `(s => [document.getElementById('app').dataset.state, s.dataset.elapsed, s.dataset.eta])(document.getElementById('status'))`)
		el, _ := strconv.ParseFloat(v[1], 64)
		eta, _ := strconv.ParseFloat(v[2], 64)
		if v[0] == "done" {
			if len(samples) == 0 {
				t.Logf("ETA: no sample while running")
				return
			}
			var errs []string
			var sum float64
			n := 0
			for _, q := range []float64{0.1, 0.25, 0.5, 0.75, 0.9} {
				for _, s := range samples {
					if s.el >= q*el {
						e := (s.el + s.eta - el) / el
						errs = append(errs, fmt.Sprintf("at %.0f%%: %+.0f%%", 100*q, 100*e))
						break
					}
				}
			}
			for _, s := range samples {
				if s.el >= 0.1*el {
					sum += math.Abs(s.el+s.eta-el) / el
					n++
				}
			}
			t.Logf("time estimated before the run %ss, actual %.1fs; ETA of the end (error relative to the run's time, by time elapsed): %s; mean |error| after 10%%: %.0f%% (%d samples)",
				before, el, strings.Join(errs, ", "), 100*sum/float64(max(n, 1)), n)
			return
		}
		if v[0] == "running" && eta >= 0 {
			samples = append(samples, sample{el, eta})
		}
		if time.Now().After(deadline) {
			t.Fatalf("not done after 120 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
}
