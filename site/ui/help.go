//go:build js && wasm

package ui

import (
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"phitsim/site/docs"
)

// kindTitles head the help panel's index, in its order.
var kindTitles = []struct{ kind, title string }{
	{"metric", "Charts and metrics"}, {"routing", "Routing"}, {"traffic", "Traffic"},
	{"arbiter", "Arbiters"}, {"router", "Router model"},
}

// helpButton is the "?" next to a select or a chart title: it opens the
// help panel on the topic (nil when nothing documents it).
func (a *App) helpButton(id, about string) vecty.MarkupOrChild {
	t, ok := docs.Lookup(id)
	if !ok {
		return nil
	}
	return elem.Button(vecty.Markup(prop.Type(prop.TypeButton), vecty.Class("help-link"), vecty.Data("topic", id),
		vecty.Attribute("aria-label", "What is "+about+"? ("+t.Title+")"), vecty.Attribute("title", "what is "+t.Title+"?"),
		vecty.Attribute("aria-haspopup", "dialog"),
		event.Click(func(e *vecty.Event) { a.openHelp(id, e.Target) })), vecty.Text("?"))
}

// openHelp shows topic id in the help panel and moves the focus to it; the
// focus returns to from when the panel closes.
func (a *App) openHelp(id string, from js.Value) {
	a.help = id
	if from.Truthy() {
		a.helpFrom = from
	}
	vecty.Rerender(a)
	afterRender(func() {
		if el := document.Call("getElementById", "help-title"); !el.IsNull() {
			el.Call("focus")
		}
	})
}

func (a *App) closeHelp() {
	a.help = ""
	vecty.Rerender(a)
	from := a.helpFrom
	a.helpFrom = js.Undefined()
	afterRender(func() {
		// the opener, if a render has not replaced it
		if from.Truthy() && document.Call("contains", from).Bool() {
			from.Call("focus")
		} else if el := document.Call("getElementById", "help-open"); !el.IsNull() {
			el.Call("focus")
		}
	})
}

// renderHelp is the help panel: the topic, its paper and what to expect,
// then the index of every topic. A non-modal dialog beside the page, so
// the form and charts it explains stay visible; Escape closes it.
func (a *App) renderHelp() vecty.MarkupOrChild {
	if a.help == "" {
		return nil
	}
	t, ok := docs.Lookup(a.help)
	if !ok {
		t = docs.Topic{ID: a.help, Title: "Help", Text: "Choose a topic below."}
	}
	var index []vecty.MarkupOrChild
	index = append(index, vecty.Markup(vecty.Class("help-index")))
	for _, k := range kindTitles {
		var links []vecty.MarkupOrChild
		for _, x := range docs.Topics() {
			if x.Kind != k.kind {
				continue
			}
			x := x
			links = append(links, elem.ListItem(elem.Button(vecty.Markup(prop.Type(prop.TypeButton), vecty.Class("help-topic"),
				vecty.Data("topic", x.ID), vecty.MarkupIf(x.ID == t.ID, vecty.Attribute("aria-current", "true")),
				event.Click(func(*vecty.Event) { a.openHelp(x.ID, js.Undefined()) })), vecty.Text(x.Title))))
		}
		if len(links) > 0 {
			index = append(index, elem.Heading3(vecty.Text(k.title)), elem.UnorderedList(links...))
		}
	}
	return elem.Aside(vecty.Markup(elemID("help"), vecty.Class("help"), vecty.Attribute("role", "dialog"),
		vecty.Attribute("aria-labelledby", "help-title"), vecty.Data("topic", t.ID),
		event.KeyDown(func(e *vecty.Event) {
			if e.Value.Get("key").String() == "Escape" {
				e.Value.Call("preventDefault")
				a.closeHelp()
			}
		})),
		elem.Div(vecty.Markup(vecty.Class("help-head")),
			elem.Heading2(vecty.Markup(elemID("help-title"), vecty.Attribute("tabindex", -1)), vecty.Text(t.Title)),
			elem.Button(vecty.Markup(elemID("help-close"), prop.Type(prop.TypeButton), vecty.Class("small"),
				vecty.Attribute("aria-label", "close the help (Escape)"),
				event.Click(func(*vecty.Event) { a.closeHelp() })), vecty.Text("× close")),
		),
		elem.Paragraph(vecty.Markup(elemID("help-text")), vecty.Text(t.Text)),
		vecty.If(t.Expect != "", elem.Paragraph(vecty.Markup(elemID("help-expect")), elem.Strong(vecty.Text("What to expect: ")), vecty.Text(t.Expect))),
		vecty.If(t.Paper != "", elem.Paragraph(vecty.Markup(elemID("help-paper"), vecty.Class("paper")), elem.Strong(vecty.Text("Source: ")), vecty.Text(t.Paper))),
		elem.Div(index...),
	)
}
