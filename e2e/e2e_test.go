// Package e2e drives the built site in headless Chromium (Debian's
// /usr/bin/chromium) with chromedp: it builds the site with build.sh, serves
// it with serve.go, runs experiments through the page, and checks the numbers
// against the engine run natively. Without Chromium it skips, unless CI=true.
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
	"phitsim/engine/sweep"
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
	waitFor(t, ctx, `window.phitsimInteractive !== undefined`, 30*time.Second)
}

const done = `document.getElementById('app').dataset.state === 'done'`

// pageResults reads the export document the page keeps in #results-json.
func pageResults(t *testing.T, ctx context.Context) experiment.Export {
	t.Helper()
	s := eval[string](t, ctx, `document.getElementById('results-json').textContent`)
	var ex experiment.Export
	if err := json.Unmarshal([]byte(s), &ex); err != nil {
		t.Fatalf("results-json: %v\n%.300s", err, s)
	}
	return ex
}

func canonical(r *result.Result) string {
	c := *r
	c.CPUSeconds = 0
	b, _ := json.Marshal(&c)
	return string(b)
}

// checkNative reruns every job natively and compares the results bit for
// bit, then the points with the engine's own sweep. It returns the CPU
// seconds of the runs in the browser (wasm) and natively.
func checkNative(t *testing.T, ex experiment.Export) (wasmCPU, nativeCPU float64) {
	t.Helper()
	r, err := experiment.NewResults(ex.Exp)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Jobs) != len(ex.Jobs) {
		t.Fatalf("page ran %d jobs, the experiment has %d", len(ex.Jobs), len(r.Jobs))
	}
	for i, j := range r.Jobs {
		ref := ex.Jobs[i]
		if ref.Result < 0 {
			t.Fatalf("job %d has no result", i)
		}
		s, err := sim.New(j.Config, j.Seed)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ex.Runs[ref.Result]
		if canonical(got) != canonical(want) {
			t.Errorf("job %d (series %d, x=%g, seed %d): browser result differs from the native engine's\nbrowser %.400s\nnative  %.400s",
				i, j.Series, j.X, j.Seed, canonical(got), canonical(want))
		}
		wasmCPU += got.CPUSeconds
		nativeCPU += want.CPUSeconds
		r.Runs[i] = want
	}
	spec, err := ex.Exp.Spec()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sweep.Run(context.Background(), spec, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Points) != len(ex.Points) {
		t.Fatalf("%d points, engine %d", len(ex.Points), len(out.Points))
	}
	for i := range out.Points {
		if !reflect.DeepEqual(ex.Points[i].Agg, out.Points[i]) {
			t.Errorf("point %d: page %+v\nengine %+v", i, ex.Points[i].Agg, out.Points[i])
		}
	}
	return
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
		waitFor(t, ctx, done, 120*time.Second)
		t.Logf("default experiment done %.1fs after opening", time.Since(start).Seconds())
		ex := pageResults(t, ctx)
		if !reflect.DeepEqual(ex.Exp, experiment.Default()) {
			t.Errorf("the bare page did not run the default experiment")
		}
		screenshot(t, ctx, "e2e-default.png")
		w, n := checkNative(t, ex)
		t.Logf("engine CPU time: wasm %.2fs, native %.2fs: wasm/native = %.2f", w, n, w/n)
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
		w, n := checkNative(t, pageResults(t, ctx))
		t.Logf("one run, h=2, 35,000 cycles: wasm %.3fs, native %.3fs: wasm/native = %.2f", w, n, w/n)
	})

	var shared string
	var sharedResults experiment.Export
	t.Run("ui-sweep", func(t *testing.T) {
		// Through the form: a preset, then edits, then Run.
		open(t, ctx, base+"#"+experiment.Encode(tinyLink()))
		waitFor(t, ctx, done, 60*time.Second) // small links run on opening
		setField(t, ctx, "preset", "quick-adv1")
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
		checkNative(t, ex)
		// charts show every point with its CI
		n := eval[int](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-latency')).getOption().series[1].data.length`)
		if n != 3 {
			t.Errorf("latency chart has %d VAL points", n)
		}
		// exports: CSV (the CLI's columns), PNG and SVG of every chart
		csv := eval[string](t, ctx, `phitsimDebug.csv()`)
		if !strings.HasPrefix(csv, "series,name,offered,runs,accepted,accepted_ci95") || strings.Count(csv, "\n") != 7 {
			t.Errorf("csv %q", csv)
		}
		shown := eval[[]string](t, ctx, `[...document.querySelectorAll('.charts .chart')].map(e => e.id.replace('chart-', ''))`)
		if want := []string{"accepted", "latency", "fairness", "histogram", "timeseries", "misrouting", "nonminimal", "phasea"}; !reflect.DeepEqual(shown, want) {
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
		checkNative(t, ex)
		if csv := eval[string](t, ctx, `phitsimDebug.csv()`); !strings.Contains(csv, ",router.globalBuffer,128") {
			t.Errorf("csv %q", csv)
		}
		if !strings.Contains(eval[string](t, ctx, `location.hash`), "x=router.globalBuffer&sweep=64:128:64") {
			t.Errorf("link %s", eval[string](t, ctx, `location.hash`))
		}
	})

	t.Run("routing-preset", func(t *testing.T) {
		// A routing comparison of the ACOR paper from the preset menu: all
		// six series and the loads; then its link, shortened by overrides
		// of series 1 (which every series inherits), runs on opening.
		l := tinyLink()
		for i := range l.Exp.Series {
			l.Exp.Series[i].Sim.Cycles = 2000000 // idle: too long to run on opening
		}
		open(t, ctx, base+"#"+experiment.Encode(l))
		setField(t, ctx, "preset", "acor-adv1")
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
		checkNative(t, ex)
	})

	t.Run("graph500", func(t *testing.T) {
		// The Graph500 preset from the menu (h=2, s=22, 3 root degrees):
		// its time in the browser, the charts that replace the load ones.
		l := tinyLink()
		for i := range l.Exp.Series {
			l.Exp.Series[i].Sim.Cycles = 2000000
		}
		open(t, ctx, base+"#"+experiment.Encode(l))
		setField(t, ctx, "preset", "graph500")
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
			t.Errorf("the default Graph500 run took %.1fs in the browser (issue 5: under 30 s)", el)
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
		checkNative(t, ex)
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
