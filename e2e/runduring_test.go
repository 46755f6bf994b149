package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"phitsim/site/experiment"
)

// runDuringRun: a newcomer picks a preset from the menu while the page's
// opening run is still going and presses Run. The button says that it
// stops the run in flight, and a click starts the chosen preset, even one
// that comes before the page has rendered the choice (a preset chosen and
// Run clicked in one script); while the form's experiment is the one
// running, Run shows as disabled.
func runDuringRun(t *testing.T, ctx context.Context, base string) {
	const first, second = "quick-un", "quick-adv1"
	want, ok := experiment.PresetByName(second)
	if !ok {
		t.Fatalf("no preset %s", second)
	}
	l := tinyLink()
	for i := range l.Exp.Series {
		l.Exp.Series[i].Sim.Cycles = 200000 // tens of seconds, still small enough to run on opening
	}
	open(t, ctx, base+"#"+experiment.Encode(l))
	waitFor(t, ctx, `document.getElementById('app').dataset.state === 'running'`, 30*time.Second)
	type button struct {
		State, Run, Label, Aria string
		Disabled                bool
	}
	const read = `(() => { const a = document.getElementById('app').dataset, b = document.getElementById('run');
		return {State: a.state, Run: a.run, Label: b.textContent, Aria: b.getAttribute('aria-disabled') || '', Disabled: b.disabled} })()`
	if b := eval[button](t, ctx, read); b.Aria != "true" || b.Label != "Run" {
		t.Errorf("Run while the form's experiment is the one running: %+v, want aria-disabled, labelled \"Run\"", b)
	}
	// a preset chosen (the page rendered): Run says what it does
	loadPreset(t, ctx, first)
	waitFor(t, ctx, `document.getElementById('run').textContent !== 'Run'`, 5*time.Second)
	if b := eval[button](t, ctx, read); b.State != "running" || b.Disabled || b.Aria != "" || b.Label != "Stop and run this" {
		t.Errorf("Run after choosing %s during the opening run: %+v, want enabled, labelled \"Stop and run this\"", first, b)
	}
	// another preset chosen and Run clicked at once, before any render
	eval[bool](t, ctx, `(() => { document.getElementById('preset-toggle').click(); return true })()`)
	sel := `#preset-menu [data-preset="` + second + `"]`
	waitFor(t, ctx, `document.querySelector('`+sel+`') !== null`, 5*time.Second)
	before := eval[button](t, ctx, `(() => { document.querySelector('`+sel+`').click(); const s = `+read+`;
		document.getElementById('run').click(); return s })()`)
	if before.State != "running" || before.Run != "1" {
		t.Fatalf("the opening run is not in flight at the click (%+v): nothing tested", before)
	}
	jobs, err := want.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	// the run in flight is the preset's: its runs, the results not stale
	// against the form (cancelled then: its numbers are other tests' concern)
	waitFor(t, ctx, fmt.Sprintf(`(() => { const a = document.getElementById('app').dataset, r = document.getElementById('results-of');
		return a.run === '2' && a.state === 'running' && a.total === '%d' && !r.classList.contains('stale') && r.textContent.includes(%q) })()`,
		len(jobs), second), 10*time.Second)
	if b := eval[button](t, ctx, read); b.State == "running" && (b.Aria != "true" || b.Label != "Run") {
		t.Errorf("Run during %s's own run: %+v, want aria-disabled, labelled \"Run\"", second, b)
	}
	eval[bool](t, ctx, `(() => { document.getElementById('cancel').click(); return true })()`)
	waitFor(t, ctx, `document.getElementById('app').dataset.state === 'cancelled'`, 5*time.Second)
	// every worker stops (acknowledged or replaced) and goes idle; how many
	// acknowledge varies (a short run may finish before its cancel arrives)
	waitFor(t, ctx, `(() => { const p = phitsimDebug.pool(); return !p.busy && p.stopping === 0 })()`, 30*time.Second)
	t.Logf("pool after both cancels: %v", eval[map[string]any](t, ctx, `phitsimDebug.pool()`))
}
