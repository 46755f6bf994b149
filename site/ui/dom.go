//go:build js && wasm

package ui

import (
	"syscall/js"
)

var (
	global   = js.Global()
	document = global.Get("document")
)

// download saves data as a file through a temporary object URL.
func download(name, mime string, data []byte) {
	u8 := global.Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	opts := global.Get("Object").New()
	opts.Set("type", mime)
	blob := global.Get("Blob").New([]any{u8}, opts)
	downloadURL(name, global.Get("URL").Call("createObjectURL", blob).String(), true)
}

func downloadURL(name, url string, revoke bool) {
	a := document.Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Get("style").Set("display", "none")
	document.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	if revoke {
		global.Call("setTimeout", js.FuncOf(func(js.Value, []js.Value) any {
			global.Get("URL").Call("revokeObjectURL", url)
			return nil
		}), 10000)
	}
}

// copyText puts text on the clipboard; done(false) if the browser refuses
// (then the page shows the text to copy by hand).
func copyText(text string, done func(ok bool)) {
	clip := global.Get("navigator").Get("clipboard")
	if clip.IsUndefined() || clip.IsNull() {
		done(false)
		return
	}
	var ok, fail js.Func
	ok = js.FuncOf(func(js.Value, []js.Value) any { done(true); ok.Release(); fail.Release(); return nil })
	fail = js.FuncOf(func(js.Value, []js.Value) any { done(false); ok.Release(); fail.Release(); return nil })
	clip.Call("writeText", text).Call("then", ok, fail)
}

// after runs f once after ms milliseconds, on the event loop.
func after(ms int, f func()) {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		f()
		return nil
	})
	global.Call("setTimeout", cb, ms)
}

// afterRender runs f on the next animation frame. vecty.Rerender batches
// renders onto requestAnimationFrame, and frame callbacks run in the order
// they were requested, so f sees the DOM of every Rerender called before it
// (a chart's <div> that the render adds exists when f draws into it).
func afterRender(f func()) {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		f()
		return nil
	})
	global.Call("requestAnimationFrame", cb)
}

// chartView is one ECharts instance bound to a <div id=…> of the page.
type chartView struct {
	id   string
	inst js.Value
	last string
	ro   js.Value
	fn   js.Func
	// tip: the option's tooltip formatter (verdictTips), when hasTip
	tip    js.Func
	hasTip bool
}

// ensure (re)creates the instance if its element is new; false when the
// element is not on the page.
func (c *chartView) ensure() bool {
	el := document.Call("getElementById", c.id)
	if el.IsNull() {
		return false
	}
	if c.inst.Truthy() && c.inst.Call("getDom").Equal(el) {
		return true
	}
	if c.inst.Truthy() {
		c.inst.Call("dispose")
		c.ro.Call("disconnect")
		c.fn.Release()
	}
	c.inst = global.Get("echarts").Call("init", el, js.Null(), map[string]any{"renderer": "canvas"})
	c.last = ""
	inst := c.inst
	c.fn = js.FuncOf(func(js.Value, []js.Value) any { inst.Call("resize"); return nil })
	c.ro = global.Get("ResizeObserver").New(c.fn)
	c.ro.Call("observe", el)
	return true
}

// set replaces the chart's option (skipped when unchanged); false when the
// chart's element is not on the page yet.
func (c *chartView) set(opt []byte) bool {
	if !c.ensure() {
		return false
	}
	s := string(opt)
	if s == c.last {
		return true
	}
	c.last = s
	// an instance made before its card had its size (before the style
	// sheet or a layout pass) keeps drawing at that size until resized
	el := c.inst.Call("getDom")
	if c.inst.Call("getWidth").Int() != el.Get("clientWidth").Int() || c.inst.Call("getHeight").Int() != el.Get("clientHeight").Int() {
		c.inst.Call("resize")
	}
	o := global.Get("JSON").Call("parse", s)
	old, hadTip := c.tip, c.hasTip
	c.tip, c.hasTip = verdictTips(o) // the points' verdicts in words (plot.NoteKey)
	c.inst.Call("setOption", o, map[string]any{"notMerge": true})
	if hadTip {
		old.Release() // the option that held it is replaced
	}
	return true
}

// png renders the chart as a PNG data URL (2× pixels, white background).
func (c *chartView) png() string {
	if !c.ensure() {
		return ""
	}
	return c.inst.Call("getDataURL", map[string]any{"type": "png", "pixelRatio": 2, "backgroundColor": "#fff"}).String()
}

// svg renders the chart's current option with ECharts' SVG renderer.
func (c *chartView) svg() string {
	if !c.ensure() || c.last == "" {
		return ""
	}
	w, h := c.inst.Call("getWidth").Int(), c.inst.Call("getHeight").Int()
	tmp := global.Get("echarts").Call("init", js.Null(), js.Null(),
		map[string]any{"renderer": "svg", "ssr": true, "width": w, "height": h})
	opt := global.Get("JSON").Call("parse", c.last)
	opt.Set("backgroundColor", "#fff")
	tmp.Call("setOption", opt)
	s := tmp.Call("renderToSVGString").String()
	tmp.Call("dispose")
	return s
}
