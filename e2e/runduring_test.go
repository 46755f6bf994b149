package e2e

import (
	"context"
	"reflect"
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
	waitFor(t, ctx, `document.getElementById('app').dataset.run === '2'`, 5*time.Second)
	waitFor(t, ctx, done, 120*time.Second)
	ex := pageResults(t, ctx)
	if !reflect.DeepEqual(ex.Exp, want) {
		t.Errorf("the page ran %+v, not the preset %s", ex.Exp.Sweep, second)
	}
	if len(ex.Errors) > 0 || len(ex.Runs) == 0 {
		t.Errorf("%d runs, errors %v", len(ex.Runs), ex.Errors)
	}
	// the opening run's workers were stopped (acknowledged or replaced)
	if n := eval[float64](t, ctx, `(() => { const p = phitsimDebug.pool(); return p.cancelAcks + p.terminated })()`); n < 1 {
		t.Errorf("the opening run was not cancelled (cancel acks + terminated = %g)", n)
	}
}
