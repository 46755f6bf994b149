//go:build js && wasm

package ui

import (
	"errors"
	"syscall/js"

	"phitsim/engine/config"
)

// importConfig reads the chosen file, validates it with config.Parse and,
// if it is valid, replaces the selected series.
func (a *App) importConfig(input js.Value) {
	files := input.Get("files")
	if files.Length() == 0 {
		return
	}
	file := files.Index(0)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		a.applyImport(file.Get("name").String(), []byte(args[0].String()))
		input.Set("value", "")
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		a.importErrs = []string{"cannot read the file"}
		a.cfgVersion++
		a.schedule()
		return nil
	})
	file.Call("text").Call("then", ok, fail)
}

func (a *App) applyImport(name string, data []byte) {
	c, err := config.Parse(data)
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
	a.say("Imported " + name + " into " + a.seriesLabel(a.sel) + ".")
	a.preset = ""
	a.changed()
}
