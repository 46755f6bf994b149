// Package e2e drives the built site in headless Chromium (Debian's
// /usr/bin/chromium) with chromedp: it builds the site with build.sh, serves
// it with serve.go, runs experiments through the page, and checks the numbers
// against the CLI (cmd/phitsim, built once per run) on the same configs and
// seeds. Without Chromium it skips, unless CI=true.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/site/experiment"
)

func chromium(t *testing.T) string {
	for _, p := range []string{os.Getenv("PHITSIM_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (apt-get install -y chromium); CI=true requires the browser test")
	}
	t.Skip("chromium not installed; skipping the browser test (set CI=true to make this an error)")
	return ""
}

func repoRoot(t *testing.T) string {
	wd, _ := os.Getwd()
	return filepath.Dir(wd)
}

// site builds the site into a temporary folder and serves it; it returns
// the base URL.
func site(t *testing.T) string {
	root := repoRoot(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	start := time.Now()
	build := exec.Command("./build.sh", out)
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, b)
	}
	t.Logf("build.sh took %.1fs", time.Since(start).Seconds())
	for _, f := range []string{"ui.wasm", "worker.wasm"} {
		raw, _ := os.Stat(filepath.Join(out, f))
		gz, _ := os.Stat(filepath.Join(out, f+".gz"))
		t.Logf("%s: %.2f MB raw, %.2f MB gzip", f, float64(raw.Size())/1e6, float64(gz.Size())/1e6)
	}
	bin := filepath.Join(dir, "serve")
	if b, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "serve.go")).CombinedOutput(); err != nil {
		t.Fatalf("go build serve.go: %v\n%s", err, b)
	}
	srv := exec.Command(bin, "-port", "0", "-dir", out)
	stdout, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
	u := regexp.MustCompile(`http://\S+/`).FindString(line)
	if u == "" {
		t.Fatalf("serve printed %q", line)
	}
	return u
}

func browser(t *testing.T, exe string) context.Context {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1000),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil { // start the browser
		t.Fatal(err)
	}
	return ctx
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func waitFor(t *testing.T, ctx context.Context, js string, timeout time.Duration) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(timeout))); err != nil {
		state := eval[string](t, ctx, `document.getElementById('app').dataset.state + ' ' + (document.getElementById('status')||{}).textContent +
			' ' + ((document.querySelector('.notice')||{}).textContent || '') + ' ' + ((document.querySelector('.estimate')||{}).textContent || '')`)
		t.Fatalf("waiting for %s: %v (page: %s)", js, err, state)
	}
}

func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	// a blank page first: a URL that differs only in its fragment would
	// otherwise not load a new page
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	// the first poll may reach the blank page's execution context as the
	// new page replaces it ("Cannot find context with specified id"): poll
	// again in the new one
	for try := 0; try < 3; try++ {
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`window.phitsimInteractive !== undefined`, chromedp.WithPollingTimeout(30*time.Second)))
		if err == nil || !strings.Contains(err.Error(), "Cannot find context") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	waitFor(t, ctx, `window.phitsimInteractive !== undefined`, 30*time.Second)
}

const done = `document.getElementById('app').dataset.state === 'done'`

// runOff: the Run button shows as disabled (aria-disabled, greyed) because
// the form cannot run, or its experiment is the one running. The button is
// never disabled itself: a click that comes before the page renders the
// last edit reaches it, and the page decides on the form at the click.
const runOff = `(b => b.getAttribute('aria-disabled') === 'true' && !b.disabled)(document.getElementById('run'))`

// pageResults reads the page's export document (what the JSON button downloads).
func pageResults(t *testing.T, ctx context.Context) experiment.Export {
	t.Helper()
	s := eval[string](t, ctx, `phitsimDebug.json()`)
	var ex experiment.Export
	if err := json.Unmarshal([]byte(s), &ex); err != nil {
		t.Fatalf("results JSON: %v\n%.300s", err, s)
	}
	return ex
}

func canonical(r *result.Result) string {
	c := *r
	c.CPUSeconds = 0
	b, _ := json.Marshal(&c)
	return string(b)
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("PHITSIM_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "out")
	}
	os.MkdirAll(dir, 0o755)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// setField types into a generated form field the way a user does.
func setField(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.focus(); el.value = %q;
		el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true})); return true })()`, id, value))
}

// typeKeys types text into field id as a user does: one key event per
// character (keyDown, char, keyUp), replacing what the field holds. after,
// if not nil, is called after each key with the text typed so far.
func typeKeys(t *testing.T, ctx context.Context, id, text string, after func(sofar string)) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.focus(); el.select(); return true })()`, id))
	for i, r := range text {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(string(r))); err != nil {
			t.Fatal(err)
		}
		if after != nil {
			after(text[:i+len(string(r))])
		}
	}
	if v := eval[string](t, ctx, fmt.Sprintf(`document.getElementById(%q).value`, id)); v != text {
		t.Fatalf("typed %q into %s, it shows %q", text, id, v)
	}
}

// loadPreset opens the preset menu and clicks a preset.
func loadPreset(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	eval[bool](t, ctx, `(() => { const b = document.getElementById('preset-toggle');
		if (b.getAttribute('aria-expanded') !== 'true') b.click(); return true })()`)
	sel := fmt.Sprintf(`#preset-menu [data-preset=%q]`, name)
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector(%q) !== null`, sel), 5*time.Second)
	eval[bool](t, ctx, fmt.Sprintf(`(() => { document.querySelector(%q).click(); return true })()`, sel))
	waitFor(t, ctx, `document.getElementById('preset-menu') === null`, 5*time.Second)
}

// rerun presses Run and waits for that experiment to finish.
func rerun(t *testing.T, ctx context.Context) {
	t.Helper()
	n := eval[string](t, ctx, `document.getElementById('app').dataset.run`)
	eval[bool](t, ctx, `(() => { document.getElementById('run').click(); return true })()`)
	waitFor(t, ctx, `document.getElementById('app').dataset.run !== '`+n+`' && `+done, 60*time.Second)
}

func tinyLink() experiment.Link {
	e := experiment.Default()
	for i := range e.Series {
		e.Series[i].Sim.Warmup, e.Series[i].Sim.Cycles = 500, 1500
	}
	e.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.2, To: 0.6, Step: 0.2}
	return experiment.Link{Exp: e}
}

func TestBrowser(t *testing.T) {
	exe := chromium(t)
	if testing.Short() {
		t.Skip("-short")
	}
	cli := buildCLI(t) // while build.sh runs
	base := site(t)
	ctx := browser(t, exe)

	t.Run("newcomer", func(t *testing.T) {
		// The bare page runs the default experiment on its own.
		start := time.Now()
		open(t, ctx, base)
		tti := eval[float64](t, ctx, `window.phitsimInteractive`)
		t.Logf("page interactive %.0f ms after navigation start (%s)", tti, eval[string](t, ctx,
			`performance.getEntriesByType('mark').map(m => m.name.replace('phitsim-', '') + ' ' + m.startTime.toFixed(0)).join(', ')`))
		waitFor(t, ctx, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-accepted'));
			return c && c.getOption().series.length > 0 && (c.getOption().series[0].data || []).length > 0 })()`, 60*time.Second)
		t.Logf("first point plotted %.1fs after opening", time.Since(start).Seconds())
		etaAccuracy(t, ctx)
		t.Logf("default experiment done %.1fs after opening", time.Since(start).Seconds())
		ex := pageResults(t, ctx)
		if !reflect.DeepEqual(ex.Exp, experiment.Default()) {
			t.Errorf("the bare page did not run the default experiment")
		}
		screenshot(t, ctx, "e2e-default.png")
		r := checkCLI(t, ctx, cli(t), ex)
		t.Logf("engine CPU time: wasm %.2fs, native (CLI) %.2fs: wasm/native = %.2f", r.WasmCPU, r.NativeCPU, r.WasmCPU/r.NativeCPU)
	})

	t.Run("speed", func(t *testing.T) {
		// one run on one worker, the page otherwise idle: engine speed in
		// the browser's WebAssembly against the same run natively
		l := tinyLink()
		l.Exp.Series = l.Exp.Series[1:] // VAL
		l.Exp.Series[0].Sim.Seeds = 1
		l.Exp.Series[0].Sim.Warmup, l.Exp.Series[0].Sim.Cycles = 5000, 30000
		l.Exp.Sweep = experiment.Sweep{Param: experiment.LoadParam, From: 0.4, To: 0.4}
		open(t, ctx, base+"#"+experiment.Encode(l))
		waitFor(t, ctx, done, 60*time.Second) // the first run warms up the browser's wasm compiler tiers
		rerun(t, ctx)
		r := checkCLI(t, ctx, cli(t), pageResults(t, ctx))
		t.Logf("one run, h=2, 35,000 cycles: wasm %.3fs, native (CLI) %.3fs: wasm/native = %.2f", r.WasmCPU, r.NativeCPU, r.WasmCPU/r.NativeCPU)
	})

	t.Run("first-time-user", func(t *testing.T) { firstTimeUser(t, ctx, base) })
	t.Run("run-during-run", func(t *testing.T) { runDuringRun(t, ctx, base) })

	var shared string
	var sharedResults experiment.Export
	t.Run("ui-sweep", func(t *testing.T) {
		// Through the form: a preset, then edits, then Run.
		open(t, ctx, base+"#"+experiment.Encode(tinyLink()))
		waitFor(t, ctx, done, 60*time.Second) // small links run on opening
		loadPreset(t, ctx, "quick-adv1")
		waitFor(t, ctx, `document.getElementById('f-traffic-pattern').value === 'ADV'`, 5*time.Second)
		setField(t, ctx, "f-sim-cycles", "1200")
		setField(t, ctx, "f-sim-warmup", "400")
		// invalid input shows the validator's message inline, and blocks nothing else
		setField(t, ctx, "f-topology-h", "0")
		waitFor(t, ctx, `document.getElementById('f-topology-h-error') !== null`, 5*time.Second)
		msg := eval[string](t, ctx, `document.getElementById('f-topology-h-error').textContent`)
		if !strings.Contains(msg, "must be in [1, 32]") {
			t.Errorf("inline error %q", msg)
		}
		setField(t, ctx, "f-topology-h", "2")
		setField(t, ctx, "sweep-from", "0.1")
		setField(t, ctx, "sweep-to", "0.3")
		setField(t, ctx, "sweep-step", "0.1")
		// the second series (VAL) gets the same lengths
		eval[bool](t, ctx, `(() => { document.querySelectorAll('.tab')[1].click(); return true })()`)
		waitFor(t, ctx, `document.querySelectorAll('.tab')[1].classList.contains('active')`, 5*time.Second)
		setField(t, ctx, "f-sim-cycles", "1200")
		setField(t, ctx, "f-sim-warmup", "400")
		waitFor(t, ctx, `document.getElementById('f-sim-warmup').value === '400'`, 5*time.Second)
		time.Sleep(300 * time.Millisecond)
		rerun(t, ctx)
		ex := pageResults(t, ctx)
		if len(ex.Exp.Series) != 2 || ex.Exp.Series[1].Sim.Cycles != 1200 || ex.Exp.Series[0].Traffic.Pattern != "ADV" || len(ex.Values) != 3 {
			t.Fatalf("the page ran %+v", ex.Exp)
		}
		// The export buttons, clicked, and their downloads. Each series'
		// "Export config JSON": the CLI validates the file, and runs these
		// files below for the comparison with the page's results.
		bin := cli(t)
		cfgDir := t.TempDir()
		var configs []string
		for i, c := range ex.Exp.Series {
			eval[bool](t, ctx, fmt.Sprintf(`(() => { document.querySelectorAll('.tab')[%d].click(); return true })()`, i))
			waitFor(t, ctx, fmt.Sprintf(`document.querySelectorAll('.tab')[%d].classList.contains('active')`, i), 5*time.Second)
			name, b := download(t, ctx, "#export-config")
			if want := "phitsim-" + c.Name + ".json"; name != want {
				t.Errorf("series %d: config downloaded as %q, want %q", i, name, want)
			}
			if want := append(c.JSON(), '\n'); !bytes.Equal(b, want) {
				t.Errorf("series %d: the config JSON downloaded is not the series the page ran:\n%.400s\nwant\n%.400s", i, b, want)
			}
			f := filepath.Join(cfgDir, fmt.Sprintf("%d-%s", i+1, name))
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if out := validate(t, bin, f); !strings.HasPrefix(out, "ok: "+c.Name+" — 72 nodes;") {
				t.Errorf("phitsim validate -config %s: %q", name, out)
			}
			configs = append(configs, f)
		}
		r := checkCLI(t, ctx, bin, ex, configs...)
		// charts show every point with its CI
		n := eval[int](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-latency')).getOption().series[1].data.length`)
		if n != 3 {
			t.Errorf("latency chart has %d VAL points", n)
		}
		// CSV: the CLI's columns and numbers, one row per point
		name, b := download(t, ctx, "#export-csv")
		if name != "phitsim-results.csv" || !strings.HasPrefix(string(b), "series,name,offered,runs,accepted,accepted_ci95,") || strings.Count(string(b), "\n") != 7 {
			t.Errorf("CSV download %q: %q", name, b)
		}
		sameCSV(t, "the downloaded CSV", b, r.CSV, ex)
		if rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll(); err != nil || len(rows) != 7 ||
			!reflect.DeepEqual(rows[6][:4], []string{"1", "VAL", "0.3", strconv.Itoa(ex.Exp.Series[1].Sim.Seeds)}) {
			t.Errorf("CSV rows (%v): %q", err, rows)
		}
		// JSON: the experiment, its points and every run
		name, b = download(t, ctx, "#export-json")
		var got experiment.Export
		if err := json.Unmarshal(b, &got); err != nil {
			t.Errorf("JSON download %q: %v\n%.300s", name, err, b)
		}
		if name != "phitsim-results.json" || len(got.Runs) != len(ex.Jobs) || len(got.Points) != 6 || !reflect.DeepEqual(got.Exp, ex.Exp) {
			t.Errorf("JSON download %q: %d runs, %d points, experiment %+v", name, len(got.Runs), len(got.Points), got.Exp)
		}
		if string(b) != eval[string](t, ctx, `phitsimDebug.json()`) {
			t.Errorf("the JSON downloaded differs from the page's results")
		}
		// a chart's PNG and SVG buttons
		if name, b = download(t, ctx, `#card-accepted button[aria-label$="as PNG"]`); name != "phitsim-accepted.png" || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 5000 {
			t.Errorf("PNG download %q: %d bytes %.8q", name, len(b), b)
		}
		if name, b = download(t, ctx, `#card-accepted button[aria-label$="as SVG"]`); name != "phitsim-accepted.svg" || !bytes.Contains(b, []byte("<svg")) || len(b) < 2000 {
			t.Errorf("SVG download %q: %.100q", name, b)
		}
		// PNG and SVG of every chart
		shown := eval[[]string](t, ctx, `[...document.querySelectorAll('.charts .chart')].map(e => e.id.replace('chart-', ''))`)
		if want := []string{"accepted", "latency", "injlatency", "netlatency", "fairness", "histogram", "timeseries", "misrouting", "nonminimal", "phasea"}; !reflect.DeepEqual(shown, want) {
			t.Errorf("charts shown %v, want %v", shown, want)
		}
		for _, c := range shown {
			if svg := eval[string](t, ctx, `phitsimDebug.svg('`+c+`')`); !strings.HasPrefix(svg, "<svg") || len(svg) < 2000 {
				t.Errorf("%s SVG: %.100q", c, svg)
			}
			if png := eval[string](t, ctx, `phitsimDebug.png('`+c+`')`); !strings.HasPrefix(png, "data:image/png;base64,") || len(png) < 5000 {
				t.Errorf("%s PNG: %.60q", c, png)
			}
		}
		// embed code: an iframe with the embed link
		eval[bool](t, ctx, `(() => { document.getElementById('embed-code').click(); return true })()`)
		waitFor(t, ctx, `document.getElementById('embed-snippet') !== null`, 5*time.Second)
		snippet := eval[string](t, ctx, `document.getElementById('embed-snippet').value`)
		if !strings.HasPrefix(snippet, `<iframe src="`+base+`#embed=accepted&`) {
			t.Errorf("embed code %q", snippet)
		}
		shared = eval[string](t, ctx, `location.href`)
		sharedResults = ex
		screenshot(t, ctx, "e2e-ui-sweep.png")
	})

	t.Run("shared-link", func(t *testing.T) {
		if shared == "" {
			t.Skip("no link")
		}
		// a fresh tab with the shared URL reproduces the experiment and its numbers
		tab, cancel := chromedp.NewContext(ctx)
		defer cancel()
		open(t, tab, shared)
		waitFor(t, tab, done, 60*time.Second)
		ex := pageResults(t, tab)
		if !reflect.DeepEqual(ex.Exp, sharedResults.Exp) {
			t.Fatalf("shared link gives another experiment:\n%+v\n%+v", ex.Exp, sharedResults.Exp)
		}
		for i := range ex.Runs {
			if canonical(ex.Runs[i]) != canonical(sharedResults.Runs[i]) {
				t.Errorf("run %d differs between the original and the shared page", i)
			}
		}
	})

	t.Run("param-sweep", func(t *testing.T) {
		// another swept variable: chosen in the form, run, compared with the engine
		open(t, ctx, base+"#"+experiment.Encode(tinyLink()))
		waitFor(t, ctx, done, 60*time.Second)
		setField(t, ctx, "sweep-param", "router.globalBuffer")
		waitFor(t, ctx, `document.getElementById('sweep-from').value === '256'`, 5*time.Second)
		setField(t, ctx, "sweep-from", "64")
		setField(t, ctx, "sweep-to", "128")
		setField(t, ctx, "sweep-step", "64")
		setField(t, ctx, "seeds", "1")
		time.Sleep(300 * time.Millisecond)
		rerun(t, ctx)
		ex := pageResults(t, ctx)
		if ex.Exp.Sweep.Param != "router.globalBuffer" || len(ex.Values) != 2 || len(ex.Runs) != 4 {
			t.Fatalf("ran %+v values %v", ex.Exp.Sweep, ex.Values)
		}
		checkCLI(t, ctx, cli(t), ex)
		if csv := eval[string](t, ctx, `phitsimDebug.csv()`); !strings.Contains(csv, ",router.globalBuffer,128") {
			t.Errorf("csv %q", csv)
		}
		if !strings.Contains(eval[string](t, ctx, `location.hash`), "x=router.globalBuffer&sweep=64:128:64") {
			t.Errorf("link %s", eval[string](t, ctx, `location.hash`))
		}
	})

	t.Run("deadlock", func(t *testing.T) { deadlockSweep(t, ctx, base, cli(t)) })
	t.Run("quality", func(t *testing.T) { qualityPanel(t, ctx, base, cli(t)) })
	t.Run("physical", func(t *testing.T) { physicalUnits(t, ctx, base) })

	t.Run("qcn", func(t *testing.T) { qcnTransient(t, ctx, base) })
	t.Run("netview", func(t *testing.T) { netView(t, ctx, base) })
	t.Run("recn-view", func(t *testing.T) { recnView(t, ctx, base) })

	t.Run("routing-preset", func(t *testing.T) {
		// A routing comparison of the ACOR paper from the preset menu: all
		// six series and the loads; then its link, shortened by overrides
		// of series 1 (which every series inherits), runs on opening.
		l := tinyLink()
		for i := range l.Exp.Series {
			l.Exp.Series[i].Sim.Cycles = 2000000 // idle: too long to run on opening
		}
		open(t, ctx, base+"#"+experiment.Encode(l))
		loadPreset(t, ctx, "acor-adv1")
		want, _ := experiment.PresetByName("acor-adv1")
		waitFor(t, ctx, `document.querySelectorAll('.tab').length === 6`, 5*time.Second)
		time.Sleep(300 * time.Millisecond)
		hash := eval[string](t, ctx, `location.hash`)
		if got, errs := experiment.Decode(hash); len(errs) > 0 || !reflect.DeepEqual(got.Exp, want) {
			t.Fatalf("preset link %s: %v", hash, errs)
		}
		if s := eval[string](t, ctx, `document.getElementById('app').dataset.state`); s != "idle" {
			t.Errorf("the full comparison started on its own (%s)", s)
		}
		open(t, ctx, base+hash+"&sim.warmup=500&sim.cycles=1000&sim.seeds=1&sim.interval=100&sweep=0.1:0.3:0.2")
		waitFor(t, ctx, done, 120*time.Second)
		ex := pageResults(t, ctx)
		if len(ex.Exp.Series) != 6 || len(ex.Runs) != 12 {
			t.Fatalf("ran %d series, %d runs", len(ex.Exp.Series), len(ex.Runs))
		}
		// every series plots both loads
		names := eval[[]string](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-accepted')).getOption().series
			.filter(s => (s.data || []).length === 2 && s.name !== 'accepted = offered').map(s => s.name)`)
		if !reflect.DeepEqual(names, []string{"VAL", "ACOR-2LA", "ACOR-2LB", "ACOR-3L", "PB", "PB_ACOR"}) {
			t.Errorf("accepted chart series with 2 points: %v", names)
		}
		// the adaptive-routing charts: decisions of every series, ACOR levels
		for _, c := range []string{"misrouting", "nonminimal", "phasea", "acor", "acorrouters"} {
			if !eval[bool](t, ctx, `!!document.getElementById('chart-`+c+`')`) {
				t.Errorf("no %s chart", c)
			}
		}
		if n := eval[int](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-misrouting')).getOption().xAxis[0].data.length`); n != 6 {
			t.Errorf("misrouting chart has %d series", n)
		}
		if n := eval[int](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-acor')).getOption().series.length`); n != 12 {
			t.Errorf("ACOR chart has %d lines (4 ACOR-Switch series × 3)", n)
		}
		screenshot(t, ctx, "e2e-routing-preset.png")
		checkCLI(t, ctx, cli(t), ex)
	})

	t.Run("mesh", func(t *testing.T) {
		// A second topology through the same contract: a 4×4 mesh with
		// MIN, chosen in the form (its fields appear with topology.kind),
		// run by the page's worker, equal to the CLI's run.
		l := tinyLink()
		l.Exp.Series = l.Exp.Series[:1]      // MIN
		l.Exp.Series[0].Sim.Cycles = 2000000 // idle: too long to run on opening
		open(t, ctx, base+"#"+experiment.Encode(l))
		if eval[bool](t, ctx, `!!document.getElementById('f-topology-width')`) {
			t.Errorf("a Dragonfly's form shows the mesh's width")
		}
		setField(t, ctx, "f-topology-kind", "mesh")
		waitFor(t, ctx, `!!document.getElementById('f-topology-width') && !document.getElementById('f-topology-h')`, 5*time.Second)
		// the mesh's own fields start at a 4×4 mesh that runs
		for _, f := range []string{"f-topology-width", "f-topology-height"} {
			if v := eval[string](t, ctx, `document.getElementById('`+f+`').value`); v != "4" {
				t.Errorf("%s shows %q after switching to a mesh", f, v)
			}
		}
		setField(t, ctx, "f-topology-p", "1")
		setField(t, ctx, "f-sim-cycles", "1500")
		setField(t, ctx, "f-sim-seeds", "1")
		waitFor(t, ctx, `document.getElementById('f-sim-seeds').value === '1'`, 5*time.Second)
		time.Sleep(300 * time.Millisecond) // as ui-sweep: the form's last edit reaches the experiment
		rerun(t, ctx)
		ex := pageResults(t, ctx)
		if len(ex.Runs) == 0 || ex.Exp.Series[0].Topology.Kind != "mesh" || ex.Exp.Series[0].Topology.Width != 4 {
			t.Fatalf("the page ran %d runs of %+v", len(ex.Runs), ex.Exp.Series[0].Topology)
		}
		for _, r := range ex.Runs {
			if r.TotalDelivered == 0 {
				t.Errorf("a mesh run at load %v delivered nothing", r.Config.Traffic.Load)
			}
		}
		screenshot(t, ctx, "e2e-mesh.png")
		checkCLI(t, ctx, cli(t), ex)
	})

	t.Run("mesh-classes", func(t *testing.T) { meshClasses(t, ctx, base) })

	t.Run("graph500", func(t *testing.T) {
		// The Graph500 preset from the menu (h=2, s=22, 3 root degrees):
		// its time in the browser, the charts that replace the load ones.
		l := tinyLink()
		for i := range l.Exp.Series {
			l.Exp.Series[i].Sim.Cycles = 2000000
		}
		open(t, ctx, base+"#"+experiment.Encode(l))
		loadPreset(t, ctx, "graph500")
		waitFor(t, ctx, `document.getElementById('f-workload-kind').value === 'graph500'`, 5*time.Second)
		start := time.Now()
		rerun(t, ctx)
		el := time.Since(start).Seconds()
		ex := pageResults(t, ctx)
		var sec []string
		for _, r := range ex.Runs {
			if r.Graph500 == nil || !r.Graph500.Finished {
				t.Fatalf("run did not finish its BFS: %+v", r.Graph500)
			}
			sec = append(sec, fmt.Sprintf("%.1fs", r.CPUSeconds))
		}
		t.Logf("Graph500 preset (h=2, s=22, %d seeds on %d workers): %.1fs in the browser (Run to done); each run %s in wasm", len(ex.Runs),
			int(eval[float64](t, ctx, `phitsimDebug.pool().size`)), el, strings.Join(sec, ", "))
		if el > 30 {
			t.Errorf("the default Graph500 run took %.1fs in the browser (the target: under 30 s)", el)
		}
		for _, c := range []string{"accepted", "latency", "timeseries"} {
			if eval[bool](t, ctx, `!!document.getElementById('chart-`+c+`')`) {
				t.Errorf("Graph500 shows the %s chart", c)
			}
		}
		if n := eval[int](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-bfs')).getOption().series[0].markArea.data.length`); n != len(ex.Runs[0].Graph500.Levels) {
			t.Errorf("usage chart shows %d levels, the run has %d", n, len(ex.Runs[0].Graph500.Levels))
		}
		screenshot(t, ctx, "e2e-graph500.png")

		// A tiny sweep over tq through the form, MIN and VAL (the added
		// series), compared with the engine run natively.
		setField(t, ctx, "f-workload-scale", "14")
		setField(t, ctx, "seeds", "1")
		eval[bool](t, ctx, `(() => { document.getElementById('add-series').click(); return true })()`)
		waitFor(t, ctx, `document.querySelectorAll('.tab').length === 2`, 5*time.Second)
		setField(t, ctx, "sweep-param", "workload.tq")
		waitFor(t, ctx, `document.getElementById('sweep-from').value === '1.5'`, 5*time.Second)
		setField(t, ctx, "sweep-from", "1")
		setField(t, ctx, "sweep-to", "15")
		setField(t, ctx, "sweep-step", "7")
		time.Sleep(300 * time.Millisecond)
		rerun(t, ctx)
		ex = pageResults(t, ctx)
		if ex.Exp.Sweep.Param != "workload.tq" || len(ex.Values) != 3 || len(ex.Runs) != 6 || ex.Exp.Series[1].Routing.Name != "VAL" ||
			ex.Exp.Series[1].Workload.Scale != 14 {
			t.Fatalf("ran %+v values %v, %d runs", ex.Exp.Sweep, ex.Values, len(ex.Runs))
		}
		checkCLI(t, ctx, cli(t), ex)
		got := eval[[][]float64](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-exectime')).getOption().series.slice(0, 2)
			.map(s => s.data.map(d => d.value[1]))`)
		for i, p := range ex.Points {
			ms := 1e3 * p.Agg.Graph500.Seconds.Mean
			if y := got[p.Series][p.Index]; math.Abs(y-ms) > 1e-5*ms {
				t.Errorf("point %d: chart %g ms, result %g ms", i, y, ms)
			}
		}
		if csv := eval[string](t, ctx, `phitsimDebug.csv()`); !strings.Contains(csv, ",workload.tq,15,") {
			t.Errorf("csv %q", csv)
		}
		screenshot(t, ctx, "e2e-graph500-sweep.png")
	})

	t.Run("keyboard", func(t *testing.T) {
		// The form with the keyboard only: Tab from the Routing group's
		// heading to its select and change the routing with an arrow key,
		// Tab on through the form to the Simulation group's cycles and type
		// a number, Tab to Run and press Enter.
		l := tinyLink()
		l.Exp.Series = l.Exp.Series[:1] // MIN
		l.Exp.Series[0].Sim.Cycles = 2000000
		open(t, ctx, base+"#"+experiment.Encode(l))
		if s := eval[string](t, ctx, `document.getElementById('app').dataset.state`); s != "idle" {
			t.Fatalf("a long experiment started on its own (%s)", s)
		}
		focused := func() string {
			return eval[string](t, ctx, `(e => e ? e.id || e.className || e.tagName : '')(document.activeElement)`)
		}
		press := func(keys string) {
			t.Helper()
			if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
				t.Fatal(err)
			}
		}
		tabTo := func(id string, most int) int {
			t.Helper()
			for n := 1; n <= most; n++ {
				press(kb.Tab)
				if focused() == id {
					return n
				}
			}
			t.Fatalf("%d Tabs did not reach #%s (focus on %q)", most, id, focused())
			return 0
		}
		if err := chromedp.Do(ctx, chromedp.Focus("#group-routing .group-toggle")); err != nil {
			t.Fatal(err)
		}
		n1 := tabTo("f-routing-name", 3)
		press(kb.ArrowDown) // MIN → VAL
		waitFor(t, ctx, `document.getElementById('f-routing-name').value === 'VAL'`, 5*time.Second)
		time.Sleep(400 * time.Millisecond) // the panel renders again (VAL's fields appear)
		if f := focused(); f != "f-routing-name" {
			t.Errorf("the render after the change moved the focus to %q", f)
		}
		n2 := tabTo("f-sim-cycles", 80)
		old := eval[string](t, ctx, `document.getElementById('f-sim-cycles').value`)
		press(kb.End + strings.Repeat(kb.Backspace, len(old)) + "1500")
		waitFor(t, ctx, `document.getElementById('f-sim-cycles').value === '1500'`, 5*time.Second)
		time.Sleep(300 * time.Millisecond)
		if l, errs := experiment.Decode(eval[string](t, ctx, `location.hash`)); len(errs) > 0 || l.Exp.Series[0].Sim.Cycles != 1500 || l.Exp.Series[0].Routing.Name != "VAL" {
			t.Errorf("the link after the keyboard edits: %+v %v", l.Exp.Series[0], errs)
		}
		n3 := tabTo("run", 80)
		t.Logf("Tabs: %d to the routing select, %d more to sim.cycles, %d more to Run", n1, n2, n3)
		press(kb.Enter)
		waitFor(t, ctx, done, 60*time.Second)
		ex := pageResults(t, ctx)
		c := ex.Exp.Series[0]
		if c.Routing.Name != "VAL" || c.Sim.Cycles != 1500 || len(ex.Runs) != len(ex.Jobs) {
			t.Fatalf("the keyboard run ran %s with %d cycles, %d of %d runs", c.Routing.Name, c.Sim.Cycles, len(ex.Runs), len(ex.Jobs))
		}
		for _, r := range ex.Runs {
			if r.Config.Routing.Name != "VAL" || r.Config.Sim.Cycles != 1500 {
				t.Errorf("a run used %s, %d cycles", r.Config.Routing.Name, r.Config.Sim.Cycles)
			}
		}
		// a configuration group folds and unfolds with the keyboard
		if err := chromedp.Do(ctx, chromedp.Focus("#group-sim .group-toggle"), chromedp.KeyEvent(kb.Enter)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, `document.querySelector('#group-sim .group-toggle').getAttribute('aria-expanded') === 'false' && !document.getElementById('f-sim-cycles')`, 5*time.Second)
		if err := chromedp.Do(ctx, chromedp.Focus("#group-sim .group-toggle"), chromedp.KeyEvent(" ")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, `document.getElementById('f-sim-cycles') && document.getElementById('f-sim-cycles').value === '1500'`, 5*time.Second)
	})

	t.Run("progress-layout", func(t *testing.T) {
		// MIN and VAL (the phase-A chart) at 2 loads, runs of 41,000
		// cycles (a second or two each: several progress messages): a
		// recorder in the page samples the progress bars, their texts and
		// the boxes of the chart cards and of the section below them on
		// every frame, before, during and after the run.
		const jobs = 4
		l := tinyLink()
		for i := range l.Exp.Series {
			l.Exp.Series[i].Sim.Warmup, l.Exp.Series[i].Sim.Cycles, l.Exp.Series[i].Sim.Seeds = 1000, 40000, 1
		}
		l.Exp.Sweep.Step = 0.004 // 101 loads: too long to run on opening
		open(t, ctx, base+"#"+experiment.Encode(l))
		if s := eval[string](t, ctx, `document.getElementById('app').dataset.state`); s != "idle" {
			t.Fatalf("a long experiment started on its own (%s)", s)
		}
		setField(t, ctx, "sweep-step", "0.4")
		waitFor(t, ctx, `location.hash.includes('sweep=0.2:0.6:0.4')`, 5*time.Second)
		time.Sleep(time.Second) // renders and the placeholder charts settle
		eval[bool](t, ctx, `(() => {
			const rec = window.phitsimRec = {samples: [], stop: false};
			const sample = () => {
				if (rec.stop) return;
				const app = document.getElementById('app'), q = s => document.querySelector(s);
				const cards = {};
				for (const c of document.querySelectorAll('.charts .card')) {
					const b = c.getBoundingClientRect();
					cards[c.id] = [b.left + scrollX, b.top + scrollY, b.width, b.height];
				}
				const below = q('.exports');
				rec.samples.push({t: performance.now(), below: below ? below.getBoundingClientRect().top + scrollY : -1, state: app.dataset.state, done: +app.dataset.done, total: +app.dataset.total,
					sweep: q('#sweep-progress') ? +q('#sweep-progress').value : -1, status: q('#status') ? q('#status').textContent : '',
					runs: [...document.querySelectorAll('.run:not(.idle)')].map(r => ({
						label: (r.querySelector('.run-label') || {}).textContent || '',
						value: r.querySelector('progress') ? +r.querySelector('progress').value : -1,
						eta: (r.querySelector('.run-eta') || {}).textContent || ''})),
					cards});
			};
			const frame = () => { sample(); if (!rec.stop) requestAnimationFrame(frame); };
			sample();
			requestAnimationFrame(frame);
			rec.timer = setInterval(sample, 25); // also if frames are throttled
			return true })()`)
		start := time.Now()
		eval[bool](t, ctx, `(() => { document.getElementById('run').click(); return true })()`)
		waitFor(t, ctx, done, 120*time.Second)
		el := time.Since(start).Seconds()
		time.Sleep(1500 * time.Millisecond) // the final render and charts
		type sample struct {
			T      float64 `json:"t"`
			Below  float64 `json:"below"` // top of the exports section
			State  string  `json:"state"`
			Done   int     `json:"done"`
			Total  int     `json:"total"`
			Sweep  float64 `json:"sweep"`
			Status string  `json:"status"`
			Runs   []struct {
				Label string  `json:"label"`
				Value float64 `json:"value"`
				ETA   string  `json:"eta"`
			} `json:"runs"`
			Cards map[string][4]float64 `json:"cards"`
		}
		samples := eval[[]sample](t, ctx, `(() => { phitsimRec.stop = true; clearInterval(phitsimRec.timer); return phitsimRec.samples })()`)
		ex := pageResults(t, ctx)
		if len(ex.Runs) != jobs {
			t.Fatalf("%d runs", len(ex.Runs))
		}
		var running []sample
		for _, s := range samples {
			if s.State == "running" {
				running = append(running, s)
			}
		}
		t.Logf("run of %d jobs: %.1fs; %d samples, %d while running", jobs, el, len(samples), len(running))
		if len(running) < 5 {
			t.Fatalf("only %d samples while running", len(running))
		}

		// progress: the sweep's bar and ETA, and each run's
		eta := regexp.MustCompile(`ETA (<1 s|\d+ s|\d+ min|[0-9.]+ h)`)
		overall := regexp.MustCompile(`^\d+ / 4 runs · \d+% · .* elapsed · ETA (<1 s|\d+ s|\d+ min|[0-9.]+ h)$`)
		runETA := regexp.MustCompile(`\d+/\d+ cycles · ETA (<1 s|\d+ s|\d+ min|[0-9.]+ h)`)
		sweepShown, runShown := 0, 0
		labels := map[string]float64{}
		last := -1.0
		for _, s := range running {
			if s.Sweep < last-1e-12 {
				t.Errorf("the sweep's progress went back from %g to %g", last, s.Sweep)
			}
			last = s.Sweep
			if s.Sweep > 0 && s.Sweep < 1 && overall.MatchString(s.Status) {
				sweepShown++
			}
			for _, r := range s.Runs {
				if r.Value < labels[r.Label]-1e-12 {
					t.Errorf("run %s: progress went back from %g to %g", r.Label, labels[r.Label], r.Value)
				}
				labels[r.Label] = max(labels[r.Label], r.Value)
				if r.Value > 0 && r.Value < 1 && runETA.MatchString(r.ETA) && eta.MatchString(r.ETA) {
					runShown++
				}
			}
		}
		t.Logf("sweep bar with an ETA in %d samples, run bars with an ETA in %d; runs seen running (highest fraction shown): %v", sweepShown, runShown, labels)
		if sweepShown == 0 {
			t.Errorf("the sweep's progress bar and ETA were never shown part-way (statuses: %q … %q)", running[0].Status, running[len(running)-1].Status)
		}
		if runShown == 0 {
			t.Errorf("no run's progress bar and ETA were shown part-way")
		}
		end := samples[len(samples)-1]
		if end.State != "done" || end.Sweep != 1 || end.Done != jobs || end.Total != jobs || len(end.Runs) != 0 || !strings.HasPrefix(end.Status, "Done: 4 / 4 runs") {
			t.Errorf("at the end: %+v", end)
		}

		// layout: the cards there before the run do not move vertically
		first := samples[0]
		if first.State != "idle" || len(first.Cards) == 0 {
			t.Fatalf("first sample: %+v", first)
		}
		var ids []string
		for id := range first.Cards {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			top := first.Cards[id][1]
			worst, when := 0.0, ""
			for _, s := range samples {
				b, ok := s.Cards[id]
				if !ok {
					worst, when = math.Inf(1), fmt.Sprintf("gone at %.0f ms (%s)", s.T-first.T, s.State)
					break
				}
				if d := math.Abs(b[1] - top); d > worst {
					worst, when = d, fmt.Sprintf("top %.1f → %.1f at %.0f ms (%s, %d/%d runs)", top, b[1], s.T-first.T, s.State, s.Done, s.Total)
				}
			}
			if worst > 0.5 {
				t.Errorf("card %s moved vertically by %.1f px: %s", id, worst, when)
			}
		}
		// nor does a card appear (at the end of the grid it would push
		// what is below the charts), nor the section below them move
		added := map[string]string{}
		below := 0.0
		for _, s := range samples {
			for id := range s.Cards {
				if _, ok := first.Cards[id]; !ok && added[id] == "" {
					added[id] = fmt.Sprintf("at %.0f ms (%s, %d/%d runs)", s.T-first.T, s.State, s.Done, s.Total)
				}
			}
			below = max(below, math.Abs(s.Below-first.Below))
		}
		t.Logf("cards before the run: %v; cards added: %v", ids, added)
		for id, when := range added {
			t.Errorf("card %s appeared %s: the page's layout changed while running", id, when)
		}
		if below > 0.5 {
			t.Errorf("the section below the charts moved vertically by %.1f px", below)
		}
		if _, ok := end.Cards["card-phasea"]; !ok {
			t.Errorf("no phase-A chart after a run with VAL")
		}
	})

	t.Run("cancel", func(t *testing.T) {
		l := tinyLink()
		for i := range l.Exp.Series {
			l.Exp.Series[i].Sim.Cycles = 2000000 // too long to run on opening
		}
		open(t, ctx, base+"#"+experiment.Encode(l))
		if s := eval[string](t, ctx, `document.getElementById('app').dataset.state`); s != "idle" {
			t.Fatalf("a long experiment started on its own (%s)", s)
		}
		eval[bool](t, ctx, `(() => { document.getElementById('run').click(); return true })()`)
		waitFor(t, ctx, `document.querySelectorAll('.run:not(.idle)').length > 0`, 20*time.Second)
		eval[bool](t, ctx, `(() => { document.getElementById('cancel').click(); return true })()`)
		waitFor(t, ctx, `document.getElementById('app').dataset.state === 'cancelled'`, 2*time.Second)
		// the workers stop: they acknowledge (or are terminated) and go idle
		waitFor(t, ctx, `(() => { const p = phitsimDebug.pool(); return !p.busy && p.cancelAcks + p.terminated >= 1 })()`, 5*time.Second)
		p := eval[map[string]any](t, ctx, `phitsimDebug.pool()`)
		t.Logf("after cancel: %v", p)
		// and the page can run again
		setField(t, ctx, "f-sim-cycles", "1000")
		eval[bool](t, ctx, `(() => { document.getElementById('run').click(); return true })()`)
		waitFor(t, ctx, `document.getElementById('app').dataset.state === 'running'`, 5*time.Second)
	})

	t.Run("crash", func(t *testing.T) {
		l := tinyLink()
		for i := range l.Exp.Series {
			l.Exp.Series[i].Sim.Cycles = 40000
		}
		open(t, ctx, base+"#"+experiment.Encode(l))
		eval[bool](t, ctx, `(() => { document.getElementById('run').click(); return true })()`)
		waitFor(t, ctx, `document.querySelectorAll('.run:not(.idle)').length > 0`, 20*time.Second)
		if !eval[bool](t, ctx, `phitsimDebug.crashWorker()`) {
			t.Fatal("no busy worker to crash")
		}
		waitFor(t, ctx, done, 120*time.Second)
		ex := pageResults(t, ctx)
		p := eval[map[string]any](t, ctx, `phitsimDebug.pool()`)
		if len(ex.Errors) != 1 || ex.Errors[0].Kind != "crash" || p["replaced"].(float64) < 1 {
			t.Fatalf("errors %+v pool %v", ex.Errors, p)
		}
		if len(ex.Runs) != len(ex.Jobs)-1 {
			t.Errorf("%d runs kept of %d jobs", len(ex.Runs), len(ex.Jobs))
		}
		log := eval[string](t, ctx, `document.getElementById('log').textContent`)
		if !strings.Contains(log, "crashed") {
			t.Errorf("crash not reported: %q", log)
		}
	})

	t.Run("embed", func(t *testing.T) {
		l := tinyLink()
		l.Embed, l.Chart = true, "latency"
		open(t, ctx, base+"#"+experiment.Encode(l))
		if n := eval[int](t, ctx, `document.querySelectorAll('.chart').length`); n != 1 {
			t.Errorf("embed shows %d charts", n)
		}
		if eval[bool](t, ctx, `document.getElementById('f-topology-h') !== null`) {
			t.Error("embed shows the configuration panel")
		}
		if s := eval[string](t, ctx, `document.getElementById('app').dataset.state`); s != "idle" {
			t.Errorf("embed ran on its own: %s", s)
		}
		// keyboard: focus the Run button and press Enter
		if err := chromedp.Do(ctx, chromedp.Focus("#run"), chromedp.KeyEvent("\r")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, done, 60*time.Second)
		n := eval[int](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-latency')).getOption().series[0].data.length`)
		if n != 3 {
			t.Errorf("embedded chart has %d points", n)
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(640, 460)); err == nil {
			screenshot(t, ctx, "e2e-embed.png")
		}
		chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1000))
	})

	t.Run("open-results", func(t *testing.T) { openResults(t, ctx, base, cli(t)) })
	t.Run("gallery", func(t *testing.T) { galleryView(t, ctx, base) })
	t.Run("split", func(t *testing.T) { splitRun(t, ctx, base) })

	t.Run("import-export", func(t *testing.T) {
		open(t, ctx, base+"#"+experiment.Encode(tinyLink()))
		waitFor(t, ctx, done, 60*time.Second)
		dir := t.TempDir()
		bad := filepath.Join(dir, "bad.json")
		os.WriteFile(bad, []byte(`{"topology": {"h": 0, "bogus": 1}}`), 0o644)
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles("#import-config", []string{bad})); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, `document.getElementById('import-errors') !== null`, 5*time.Second)
		msg := eval[string](t, ctx, `document.getElementById('import-errors').textContent`)
		if !strings.Contains(msg, "topology.bogus") {
			t.Errorf("import errors: %q", msg)
		}
		c := config.Default()
		c.Topology.H, c.Topology.A, c.Topology.P = 3, 6, 3
		c.Name = "imported"
		good := filepath.Join(dir, "good.json")
		os.WriteFile(good, c.JSON(), 0o644)
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles("#import-config", []string{good})); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, `document.getElementById('f-topology-h').value === '3'`, 5*time.Second)
		if !strings.Contains(eval[string](t, ctx, `location.hash`), "name=imported") {
			t.Error("import not reflected in the URL")
		}
		// typing with real key events into a generated field updates the link
		if err := chromedp.Do(ctx, chromedp.SendKeys("#sweep-step", "5")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, `location.hash.includes('sweep=0.2:0.6:0.25')`, 5*time.Second)
		// narrow window: one column, nothing overflows horizontally
		chromedp.Do(ctx, chromedp.EmulateViewport(390, 844))
		time.Sleep(500 * time.Millisecond)
		if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 400 {
			t.Errorf("narrow window scrolls horizontally: %d px", w)
		}
		screenshot(t, ctx, "e2e-narrow.png")
		chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1000))
	})
}
