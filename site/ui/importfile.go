//go:build js && wasm

package ui

import (
	"errors"
	"fmt"
	"slices"
	"syscall/js"
	"time"

	"phitsim/engine/config"
	"phitsim/site/experiment"
	"phitsim/site/protocol"
)

// importConfig reads the chosen file (a configuration, or a result
// document of one: experiment.ImportConfig), validates it with config.Parse
// and, if it is valid, replaces the selected series.
func (a *App) importConfig(input js.Value) {
	a.readChosen(input, a.applyImport, func() { a.cfgVersion++ })
}

// readChosen reads the file chosen in input as text and hands it to apply
// with its name; when the browser cannot read it, it says so (after
// failed, which updates what the failure must invalidate).
func (a *App) readChosen(input js.Value, apply func(name string, data []byte), failed func()) {
	files := input.Get("files")
	if files.Length() == 0 {
		return
	}
	file := files.Index(0)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		apply(file.Get("name").String(), []byte(args[0].String()))
		input.Set("value", "")
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		a.importErrs = []string{"cannot read the file"}
		failed()
		a.schedule()
		return nil
	})
	file.Call("text").Call("then", ok, fail)
}

func (a *App) applyImport(name string, data []byte) {
	c, what, err := experiment.ImportConfig(data)
	if err != nil {
		a.importErrs = nil
		var es config.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				a.importErrs = append(a.importErrs, e.Error())
			}
		} else {
			a.importErrs = []string{err.Error()}
		}
		a.notice = ""
		a.cfgVersion++
		a.schedule()
		return
	}
	a.importErrs = nil
	a.exp.Series[a.sel] = c
	a.raw, a.rawErr = map[string]string{}, map[string]string{}
	if what != "" {
		name += " (" + what + ")"
	}
	a.say("Imported " + name + " into " + a.seriesLabel(a.sel) + ".")
	a.preset = ""
	a.changed()
}

// openResults reads a results JSON (the CLI's 'sweep -out' or 'merge -out'
// document, e.g. a sweep run on a cluster, or this page's export) and shows
// it as if it had run here: its experiment in the form, its runs in every
// chart, ready to share and export.
func (a *App) openResults(input js.Value) {
	a.readChosen(input, a.applyResults, func() {})
}

func (a *App) applyResults(name string, data []byte) {
	if a.state == "running" {
		a.importErrs = []string{"a run is in progress: cancel it first"}
		a.schedule()
		return
	}
	res, err := experiment.ImportResults(data)
	if err != nil {
		a.importErrs = []string{name + ": " + err.Error()}
		a.schedule()
		return
	}
	a.importErrs = nil
	a.exp, a.sel, a.preset = res.Exp.Clone(), 0, ""
	a.resetTyped()
	if a.res == nil || !slices.Equal(a.res.Values, res.Values) || a.point >= len(res.Values) {
		a.point = len(res.Values) / 2
	}
	a.res, a.tracker = res, experiment.NewTracker(res.Jobs)
	for i, r := range res.Runs {
		if r != nil {
			a.tracker.Set(i, 1)
		}
	}
	a.runKey, a.runPreset = expKey(a.exp), ""
	a.active, a.partial = map[int]*runInfo{}, map[int]protocol.Partial{}
	a.log = nil
	a.state, a.started, a.finished = "done", time.Now(), time.Now()
	a.chartsDirty = true
	a.changed()
	a.say(fmt.Sprintf("Opened %s: %d of %d runs.", name, res.Done(), len(res.Jobs)))
}
