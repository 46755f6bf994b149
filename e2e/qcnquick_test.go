package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserQCNQuickSpeed runs QCN-Switch paper presets for a browser tab
// (engine/REPRODUCTION.md, "QCN-Switch paper") in Chromium, chosen from the
// preset menu, on the page's pool of two workers (a 2-core machine:
// navigator.hardwareConcurrency overridden), after the page's opening run
// (which measures its speed), and logs the time from Run to done, the sum
// of the runs' own times, the run bar's estimate and the machine's load.
// A measurement, not a check: it runs with PHITSIM_QCN_QUICK_BENCH=1 only;
// PHITSIM_QCN_QUICK_PRESETS names the presets (comma-separated; default
// the longest by the page's estimate, qcn-fig6-un-quick).
func TestBrowserQCNQuickSpeed(t *testing.T) {
	exe := chromium(t)
	if os.Getenv("PHITSIM_QCN_QUICK_BENCH") == "" {
		t.Skip("a measurement: PHITSIM_QCN_QUICK_BENCH=1 runs it")
	}
	names := []string{"qcn-fig6-un-quick"}
	if s := os.Getenv("PHITSIM_QCN_QUICK_PRESETS"); s != "" {
		names = strings.Split(s, ",")
	}
	base := site(t)
	ctx := browser(t, exe)
	if _, err := chromedp.Call(ctx, emulation.SetHardwareConcurrencyOverride, emulation.SetHardwareConcurrencyOverrideParams{HardwareConcurrency: 2}); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base)
	waitFor(t, ctx, done, 120*time.Second) // the default experiment runs on opening
	for _, name := range names {
		loadPreset(t, ctx, name)
		time.Sleep(time.Second)
		bar := eval[string](t, ctx, `(document.querySelector('section.experiment').innerText.match(/\d+ runs? on \d+ workers?, [^\n]*/) || [''])[0]`)
		est := eval[string](t, ctx, `(document.querySelector('.estimate') || {dataset: {}}).dataset.seconds || ''`)
		n := eval[string](t, ctx, `document.getElementById('app').dataset.run`)
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.Click(`#run`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, `document.getElementById('app').dataset.run !== '`+n+`' && `+done, 30*time.Minute)
		wall := time.Since(start).Seconds()
		ex := pageResults(t, ctx)
		var runs float64
		for _, r := range ex.Runs {
			runs += r.CPUSeconds
		}
		load, _ := os.ReadFile("/proc/loadavg")
		t.Logf("%s: %d runs, Run to done %.1f s on 2 workers, the runs' own times %.1f s in all; the bar said %q (%s s); load %s",
			name, len(ex.Runs), wall, runs, bar, est, strings.TrimSpace(string(load)))
	}
}
