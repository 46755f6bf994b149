//go:build js && wasm

package ui

import (
	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"phitsim/site/experiment"
)

// presets are built once: the list does not change while the page is open.
var presets = experiment.Presets()

// renderPresetMenu is the preset chooser: a button that opens a menu of
// buttons. A <select> fires change on every arrow key in Chromium, so it
// loaded each preset the keyboard passed; here the arrows only move the
// focus, and Enter or a click loads.
func (a *App) renderPresetMenu() *vecty.HTML {
	label := "Load a preset…"
	if a.preset != "" {
		label = "Preset: " + a.preset
	}
	var items []vecty.MarkupOrChild
	items = append(items, vecty.Markup(elemID("preset-menu"), vecty.Class("preset-menu"), vecty.Attribute("role", "menu"),
		vecty.Attribute("aria-label", "presets"),
		event.KeyDown(func(e *vecty.Event) { a.presetKey(e) }),
		event.FocusOut(func(e *vecty.Event) {
			// the focus left the menu (not to one of its items, nor to its button)
			to := e.Value.Get("relatedTarget")
			if to.Truthy() && (to.Call("closest", "#preset-menu").Truthy() || to.Get("id").String() == "preset-toggle") {
				return
			}
			a.presetsOpen = false
			a.schedule()
		})))
	for _, p := range presets {
		p := p
		items = append(items, elem.Button(vecty.Markup(prop.Type(prop.TypeButton), vecty.Class("preset-item"), vecty.Attribute("role", "menuitem"),
			vecty.Attribute("tabindex", -1), vecty.Data("preset", p.Name), vecty.MarkupIf(a.preset == p.Name, vecty.Attribute("aria-current", "true")),
			event.Click(func(*vecty.Event) { a.loadPreset(p.Name) })),
			elem.Strong(vecty.Text(p.Name)),
			elem.Span(vecty.Markup(vecty.Class("preset-doc")), vecty.Text(p.Doc)),
			vecty.If(p.PaperRun() != "", elem.Span(vecty.Markup(vecty.Class("preset-note")), vecty.Text(p.PaperRun()))),
		))
	}
	return elem.Div(vecty.Markup(vecty.Class("preset-chooser")),
		elem.Button(vecty.Markup(elemID("preset-toggle"), prop.Type(prop.TypeButton), vecty.Attribute("aria-haspopup", "menu"),
			vecty.Attribute("aria-expanded", a.presetsOpen), vecty.Attribute("aria-controls", "preset-menu"),
			event.Click(func(*vecty.Event) { a.openPresets(!a.presetsOpen) }),
			event.KeyDown(func(e *vecty.Event) {
				if k := e.Value.Get("key").String(); k == "ArrowDown" || k == "ArrowUp" {
					e.Value.Call("preventDefault")
					a.openPresets(true)
				}
			})), vecty.Text(label+" ▾")),
		vecty.If(a.presetsOpen, elem.Div(items...)),
	)
}

// openPresets shows (or hides) the menu; shown, the focus goes to the loaded
// preset's item, or the first.
func (a *App) openPresets(open bool) {
	a.presetsOpen = open
	vecty.Rerender(a)
	if !open {
		return
	}
	afterRender(func() {
		menu := document.Call("getElementById", "preset-menu")
		if menu.IsNull() {
			return
		}
		el := menu.Call("querySelector", `[aria-current="true"]`)
		if el.IsNull() {
			el = menu.Call("querySelector", ".preset-item")
		}
		if !el.IsNull() {
			el.Call("focus")
		}
	})
}

// presetKey moves the focus in the menu: arrows, Home and End; Escape
// closes it. Enter and Space are the buttons' own click.
func (a *App) presetKey(e *vecty.Event) {
	key := e.Value.Get("key").String()
	if key == "Escape" {
		e.Value.Call("preventDefault")
		a.presetsOpen = false
		vecty.Rerender(a)
		afterRender(func() { document.Call("getElementById", "preset-toggle").Call("focus") })
		return
	}
	items := document.Call("querySelectorAll", "#preset-menu .preset-item")
	n := items.Length()
	if n == 0 {
		return
	}
	cur := -1
	active := document.Get("activeElement")
	for i := 0; i < n; i++ {
		if items.Index(i).Equal(active) {
			cur = i
		}
	}
	next := cur
	switch key {
	case "ArrowDown":
		next = min(cur+1, n-1)
	case "ArrowUp":
		next = max(cur-1, 0)
	case "Home":
		next = 0
	case "End":
		next = n - 1
	default:
		return
	}
	e.Value.Call("preventDefault") // no scrolling of the page
	items.Index(next).Call("focus")
}

// loadPreset replaces the experiment with a preset's.
func (a *App) loadPreset(name string) {
	ex, ok := experiment.PresetByName(name)
	if !ok {
		return
	}
	a.preset, a.presetsOpen = name, false
	a.exp, a.sel = ex, 0
	a.resetTyped()
	a.formPoint()
	a.changed()
	// on the next animation frame, not after schedule's 200 ms: the Run
	// button then says what a click does (app.go runLabel)
	vecty.Rerender(a)
	afterRender(func() { document.Call("getElementById", "preset-toggle").Call("focus") })
}
