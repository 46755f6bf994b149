package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"phitsim/site/experiment"
)

// openResults: a sweep run as a plan (in two slices, as two array tasks of
// a cluster would) and merged by the CLI opens in the page with every
// chart: two series of three points, the page's CSV export the CLI's bit
// for bit, and the experiment in the form (h=2, MIN and VAL × 3 loads, one
// seed, 600 cycles).
func openResults(t *testing.T, ctx context.Context, base, bin string) {
	open(t, ctx, base+"#"+experiment.Encode(tinyLink()))
	waitFor(t, ctx, done, 60*time.Second)
	dir := t.TempDir()
	pdir := filepath.Join(dir, "plan")
	for _, args := range [][]string{
		{"sweep", "-preset", "h2", "-set", "sim.warmup=300", "-set", "sim.cycles=300", "-seeds", "1",
			"-series", "routing.name=MIN,VAL", "-loads", "0.1,0.3,0.5", "-plan", pdir},
		{"exec", "-plan", pdir, "-task", "0", "-tasks", "2"},
		{"exec", "-plan", pdir, "-task", "1", "-tasks", "2"},
		{"merge", "-plan", pdir, "-out", filepath.Join(dir, "merged")},
	} {
		if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("phitsim %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	want, err := os.ReadFile(filepath.Join(dir, "merged.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles("#open-results", []string{filepath.Join(dir, "merged.json")})); err != nil {
		t.Fatal(err)
	}
	// The page already shows the link's own sweep, also two series of three
	// points: only the CSV tells the opened results from it.
	wantJS, err := json.Marshal(string(want))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`phitsimDebug.csv() === `+string(wantJS), chromedp.WithPollingTimeout(10*time.Second)))
	waitFor(t, ctx, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-latency'));
		const s = c && c.getOption().series.filter(s => (s.data || []).length === 3 &&
			(s.data || []).some(d => (Array.isArray(d) ? d : d.value)[0] === 0.1));
		return !!s && s.length === 2 })()`, 10*time.Second)
	legend := eval[string](t, ctx, `echarts.getInstanceByDom(document.getElementById('chart-latency')).getOption().series.map(s => s.name).join(' | ')`)
	if !strings.Contains(legend, "MIN") || !strings.Contains(legend, "VAL") {
		t.Errorf("legend %q", legend)
	}
	if csv := eval[string](t, ctx, `phitsimDebug.csv()`); csv != string(want) {
		t.Errorf("the page's CSV of the opened results:\n%s\nthe CLI's:\n%s", csv, want)
	}
	if state := eval[string](t, ctx, `document.getElementById('app').dataset.state`); state != "done" {
		t.Errorf("state %q", state)
	}
}
